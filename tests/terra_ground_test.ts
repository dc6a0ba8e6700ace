/**
 * The RFT ground (`World.addRftGround`): bodies below the surface feel Li et al.'s RFT forces
 * integrated over their surface elements. Checked against closed forms: a horizontal plate
 * pushed down or pulled up (one depth over the face), a vertical plate pushed sideways (the
 * centroid rule is exact for the linear depth over each element), linearity in depth, zero
 * above the surface, a spinning wheel's drive, the momentum balance of a dropped plate, and
 * URDF links.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { RftFourier, World } from "../src/sphere3d/mod.ts";
import {
  RFT_GENERIC,
  rftAlphaX,
  rftAlphaZ,
  rftElementForce,
  RftTable,
  rftTableFromFourier,
} from "../src/sphere3d/rft/mod.ts";
import { cutSurface } from "../src/sphere3d/rft/elements.ts";

const H = Math.PI / 2;
const near = (a: number, b: number, tol: number) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));

/** A world without gravity and a generic RFT ground at z = 0. */
async function scene(
  model = new RftFourier() as RftFourier | ReturnType<typeof rftTableFromFourier>,
) {
  const world = await World.create({ gravity: [0, 0, 0] });
  const ground = world.addRftGround(model, { surfaceHeight: 0 });
  return { world, ground };
}

/** A kinematic 10 cm × 10 cm × 1 cm plate, its centre at height z, moving at v. */
function plate(world: World, x: number, z: number, v: [number, number, number]) {
  return world.addBox({
    halfExtents: [0.05, 0.05, 0.005],
    position: [x, 0, z],
    bodyType: "kinematic",
    linearVelocity: v,
  });
}

/** Half extents of a box body as the bodies keep them (the engine may round them to float32). */
const half = (b: { shapes: { halfExtents?: number[] }[] }) => b.shapes[0].halfExtents!;

/** A kinematic 12 × 8 × 6 cm mesh box, tilted, turning and moving, half in the ground at z = 0. */
function tumblingBox(world: World) {
  const ql = Math.hypot(0.2, -0.3, 0.1, 0.927);
  return world.addMesh({
    ...boxMesh([0.06, 0.04, 0.03]),
    position: [0.1, -0.05, 0.01],
    orientation: [0.2 / ql, -0.3 / ql, 0.1 / ql, 0.927 / ql],
    bodyType: "kinematic",
    linearVelocity: [0.3, -0.1, -0.2],
    angularVelocity: [0.5, 2, -1],
  });
}

describe("RFT ground: a horizontal plate", () => {
  it("pushed down at depth d feels α_z(0, π/2)·d·A up and no side force, linear in d", async () => {
    for (const model of [new RftFourier(), rftTableFromFourier()]) {
      const { world, ground } = await scene(model);
      const a = plate(world, 0, -0.025, [0, 0, -1e-4]);
      const b = plate(world, 0.5, -0.045, [0, 0, -1e-4]);
      // the depth of the underside at the start of the step (the engine keeps float32 poses)
      const [hx, hy, hz] = half(a), area = 4 * hx * hy;
      const da = -(a.position[2] - hz), db = -(b.position[2] - hz);
      world.step();
      const fa = ground.force(a), fb = ground.force(b);
      near(fa[2], rftAlphaZ(0, H) * da * area, 1e-9);
      near(fa[2], 1e6 * da * area, 1e-9); // 1 N/cm³ · d · 100 cm²
      expect(Math.abs(fa[0]) + Math.abs(fa[1])).toBeLessThan(1e-9);
      near(fb[2] / fa[2], db / da, 1e-9); // linear in depth
      const t = ground.torque(a);
      expect(Math.abs(t[0]) + Math.abs(t[1]) + Math.abs(t[2])).toBeLessThan(1e-9);
      expect(a.contactForce).toEqual(fa); // joins the contact loads
      expect(ground.activeElements).toBeGreaterThan(0);
    }
  });

  it("pulled up is held down by α_z(0, −π/2)·d_top·A", async () => {
    const { world, ground } = await scene();
    const p = plate(world, 0, -0.03, [0, 0, 1e-4]);
    const [hx, hy, hz] = half(p), area = 4 * hx * hy;
    const dTop = -(p.position[2] + hz);
    world.step();
    near(ground.force(p)[2], -0.25e6 * dTop * area, 1e-9);
    near(ground.force(p)[2], rftAlphaZ(0, -H) * dTop * area, 1e-9);
  });

  it("feels exactly nothing above the surface, and static bodies feel nothing", async () => {
    const { world, ground } = await scene();
    const p = plate(world, 0, 0.0051, [0, 0, -1]);
    const s = world.addBox({
      halfExtents: [0.1, 0.1, 0.1],
      position: [1, 0, -0.5],
      bodyType: "static",
    });
    world.step();
    expect(ground.force(p)).toEqual([0, 0, 0]);
    expect(ground.torque(p)).toEqual([0, 0, 0]);
    expect(p.contactForce).toEqual([0, 0, 0]);
    expect(ground.force(s)).toEqual([0, 0, 0]);
    expect(ground.activeElements).toBe(0);
  });
});

/** A closed box mesh of half extents h: 8 vertices, 12 triangles wound outward. */
function boxMesh(h: number[]): { vertices: number[]; indices: number[] } {
  const vertices: number[] = [];
  for (let k = 0; k < 8; k++) {
    vertices.push(k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]);
  }
  const indices: number[] = [];
  for (let axis = 0; axis < 3; axis++) {
    for (const side of [0, 1]) {
      // the face's corners in a cycle, then each triangle turned to face outward
      const bit = 1 << axis, o1 = 1 << ((axis + 1) % 3), o2 = 1 << ((axis + 2) % 3);
      const base = side ? bit : 0, quad = [base, base | o1, base | o1 | o2, base | o2];
      const v = (i: number) => vertices.slice(3 * i, 3 * i + 3);
      for (const [a, b, c] of [[quad[0], quad[1], quad[2]], [quad[0], quad[2], quad[3]]]) {
        const [pa, pb, pc] = [v(a), v(b), v(c)];
        const u = pb.map((x, k) => x - pa[k]), w = pc.map((x, k) => x - pa[k]);
        const n = u[1] * w[2] - u[2] * w[1],
          m = u[2] * w[0] - u[0] * w[2],
          l = u[0] * w[1] - u[1] * w[0];
        const out = [n, m, l][axis] * (side ? 1 : -1) > 0;
        indices.push(...(out ? [a, b, c] : [a, c, b]));
      }
    }
  }
  return { vertices, indices };
}

describe("RFT ground: other shapes", () => {
  it("a mesh box and a compound of posed children feel what the box plates feel", async () => {
    const { world, ground } = await scene();
    const v: [number, number, number] = [0, 0, -1e-4];
    const box = plate(world, 0, -0.025, v);
    const mesh = world.addMesh({
      ...boxMesh([0.05, 0.05, 0.005]),
      position: [1, 0, -0.025],
      bodyType: "kinematic",
      linearVelocity: v,
    });
    // two plates 0.4 m apart; the second is a standing box turned by 90° about x into a plate
    const s = Math.SQRT1_2;
    const pair = world.addCompound({
      children: [
        { shape: "box", halfExtents: [0.05, 0.05, 0.005], position: [-0.2, 0, 0] },
        {
          shape: "box",
          halfExtents: [0.05, 0.005, 0.05],
          position: [0.2, 0, 0],
          orientation: [s, 0, 0, s],
        },
      ],
      position: [2, 0, -0.025],
      bodyType: "kinematic",
      linearVelocity: v,
    });
    world.step();
    const f = ground.force(box)[2];
    expect(f).toBeGreaterThan(100);
    near(ground.force(mesh)[2], f, 1e-6);
    near(ground.force(pair)[2], 2 * f, 1e-6);
    // symmetric about the compound's origin: no net torque
    const t = ground.torque(pair);
    expect(Math.abs(t[0]) + Math.abs(t[1]) + Math.abs(t[2])).toBeLessThan(1e-6 * f);
  });
});

describe("RFT ground: other motions", () => {
  it("a vertical plate pushed sideways feels ∫ α·|z| over its face (exact per element)", async () => {
    for (const yawed of [false, true]) {
      const { world, ground } = await scene();
      const s = Math.SQRT1_2;
      const p = world.addBox({
        // 1 cm thick along the motion (x), 10 cm wide, 10 cm tall; or the same turned by 90°
        halfExtents: yawed ? [0.05, 0.005, 0.05] : [0.005, 0.05, 0.05],
        orientation: yawed ? [0, 0, s, s] : [0, 0, 0, 1],
        position: [0, 0, -0.06],
        bodyType: "kinematic",
        linearVelocity: [1e-3, 0, 0],
      });
      const zc = p.position[2];
      world.step();
      const h = half(p), width = 2 * (yawed ? h[0] : h[1]);
      const d1 = -(zc + h[2]), d2 = -(zc - h[2]);
      const moment = width * (d2 * d2 - d1 * d1) / 2; // ∫ |z| dA over the front face
      const f = ground.force(p);
      const tol = yawed ? 1e-6 : 1e-9; // the engine's float32 quaternion
      near(f[0], -rftAlphaX(H, 0) * moment, tol);
      near(f[2], rftAlphaZ(H, 0) * moment, tol);
      near(f[0], -(-RFT_GENERIC.C11 + RFT_GENERIC.C01 - RFT_GENERIC.Cm11) * moment, tol);
      expect(Math.abs(f[1])).toBeLessThan(1e-6);
    }
  });

  it("a sphere pushed down: the documented jump between straight down and a slight drift", async () => {
    const sink = async (vx: number) => {
      const { world, ground } = await scene();
      const s = world.addSphere({
        radius: 0.05,
        position: [0, 0, -0.05],
        bodyType: "kinematic",
        linearVelocity: [vx, 0, -0.01],
      });
      world.step();
      return ground.force(s);
    };
    const down = await sink(0), drift = await sink(1e-6);
    // docs/terradynamics.md: 550.3 N and 584.4 N with 1 mm elements (converged to 0.1 N); the
    // default elements (a tenth of the diagonal, 17 mm) are within 2 %
    expect(Math.abs(down[2] / 550.3 - 1)).toBeLessThan(0.02);
    expect(Math.abs(drift[2] / 584.4 - 1)).toBeLessThan(0.02);
    expect(drift[2] - down[2]).toBeGreaterThan(30);
    expect(Math.abs(down[0]) + Math.abs(down[1])).toBeLessThan(1e-6);
    expect(drift[0]).toBeLessThan(0); // held back against the drift
  });

  it("a wheel spinning in place is driven forward and braked", async () => {
    const { world, ground } = await scene();
    // axis along y; ω_y > 0 moves the bottom of the wheel towards −x
    const s = Math.SQRT1_2;
    const wheel = world.addCylinder({
      radius: 0.1,
      halfHeight: 0.04,
      orientation: [s, 0, 0, s],
      position: [0, 0, 0.07],
      bodyType: "kinematic",
      angularVelocity: [0, 2, 0],
    });
    world.step();
    const f = ground.force(wheel), t = ground.torque(wheel);
    expect(f[0]).toBeGreaterThan(0); // the sand pushes the bottom forward
    expect(t[1]).toBeLessThan(0); // and resists the spin
    expect(Math.abs(f[1])).toBeLessThan(1e-6 * Math.abs(f[0]));
  });

  it("a dropped plate: the mean explicit force carries its weight; implicit drag stops it", async () => {
    const drop = async (implicitDrag: boolean) => {
      const world = await World.create({ gravity: [0, 0, -9.81], timeStep: 1e-3 });
      const ground = world.addRftGround(new RftFourier({ zeta: 0.1 }), {
        surfaceHeight: 0,
        implicitDrag,
      });
      const p = world.addBox({
        halfExtents: [0.05, 0.05, 0.005],
        position: [0, 0, 0.01],
        density: 2000,
      });
      const depth: number[] = [], speed: number[] = [], force: number[] = [];
      for (let k = 0; k < 400; k++) {
        world.step();
        depth.push(0.005 - p.position[2]);
        speed.push(Math.hypot(...p.linearVelocity));
        force.push(ground.force(p)[2]);
      }
      return { weight: p.mass * 9.81, depth, speed, force };
    };
    // explicit: the velocity stays bounded, so the mean force over 0.3 s balances the weight
    const e = await drop(false);
    const mean = e.force.slice(100).reduce((x, y) => x + y, 0) / 300;
    near(mean, e.weight, 0.05);
    // the impact (0.44 m/s) sinks it to 6.96 mm, deeper than α_z·d·A = m·g needs (1.96 mm)
    const deepest = Math.max(...e.depth);
    expect(deepest).toBeGreaterThan(0.0069);
    expect(deepest).toBeLessThan(0.0071);
    expect(e.depth.every(Number.isFinite)).toBe(true);
    // implicit drag: the same impact, then at rest (creeping by less than 1 mm in 0.3 s)
    const i = await drop(true);
    near(i.depth[58], e.depth[58], 1e-6); // exact RFT until the drag would stop it
    expect(Math.max(...i.speed.slice(100))).toBeLessThan(0.02);
    expect(i.depth[399] - i.depth[99]).toBeLessThan(0.001);
    expect(i.depth[399]).toBeGreaterThan(0.0069);
  });

  it("URDF links are bodies like any other: the submerged foot is braked, the base feels nothing", async () => {
    const swing = async (implicitDrag: boolean, steps: number) => {
      const world = await World.create({ gravity: [0, 0, -9.81] });
      const ground = world.addRftGround(rftTableFromFourier(), {
        surfaceHeight: 0.1,
        implicitDrag,
      });
      const leg = await world.addArticulatedSystem("examples/assets/leg.urdf", {
        base: "fixed",
        position: [0, 0, 0.55],
      });
      leg.setPdGains(40, 2);
      leg.setPdTarget([-0.4, 0]); // swing the straight leg forward (+x)
      const foot = leg.link("foot"), base = leg.link("base");
      let fastest = 0;
      for (let k = 0; k < steps; k++) {
        const v = foot.linearVelocity, w = foot.angularVelocity;
        world.step();
        // the sand brakes the foot: the power of its force and torque, at the velocities the
        // step started with, is negative (each element's is: see terra_rft_test.ts)
        const f = ground.force(foot), t = ground.torque(foot);
        const power = f[0] * v[0] + f[1] * v[1] + f[2] * v[2] + t[0] * w[0] + t[1] * w[1] +
          t[2] * w[2];
        if (Math.hypot(...v, ...w) > 1e-3) expect(power).toBeLessThan(0);
        expect(ground.force(base)).toEqual([0, 0, 0]);
        if (k >= 20) fastest = Math.max(fastest, Math.abs(foot.linearVelocity[0]));
      }
      expect(ground.force(leg.link("shin"))[2]).toBeGreaterThan(0);
      return fastest;
    };
    // explicit RFT chatters: the 0.2 kg foot's velocity flips by ±0.37 m/s every step;
    // implicit drag calms it (0.08 m/s at most)
    expect(await swing(false, 100)).toBeGreaterThan(0.3);
    expect(await swing(true, 100)).toBeLessThan(0.15);
  });
});

describe("RFT ground: validation and elements", () => {
  it("names bad options", async () => {
    expect(() => new World().addRftGround(new RftFourier(), { surfaceHeight: 0 }))
      .toThrow(/World.addRftGround: this world has no rigid-body engine/);
    const world = await World.create();
    const add = (m: unknown, o: unknown) => () => world.addRftGround(m as never, o as never);
    expect(add(new RftFourier(), { surfaceHeight: NaN })).toThrow(
      /surfaceHeight \(NaN\) must be finite/,
    );
    expect(add(new RftFourier(), {})).toThrow(/surfaceHeight \(undefined\) must be a number/);
    expect(add(new RftFourier(), { surfaceHeight: 0, elementSize: 0 })).toThrow(
      /elementSize \(0\)/,
    );
    expect(add(new RftFourier(), { surfaceHeight: 0, implicitDrag: 1 })).toThrow(
      /implicitDrag \(1\) must be a boolean/,
    );
    expect(add(new RftFourier(), { surfaceHeight: 0, elemntSize: 1 })).toThrow(
      /unknown option "elemntSize"/,
    );
    for (const mu of [-0.5, NaN, "0.5"]) {
      expect(add(new RftFourier(), { surfaceHeight: 0, interfaceFriction: mu })).toThrow(
        /interfaceFriction \(.*\) must be a number >= 0/,
      );
    }
    expect(add({}, { surfaceHeight: 0 })).toThrow(
      /model \(\[object Object\]\) must be an RftTable/,
    );
    world.addRftGround(new RftFourier(), { surfaceHeight: 0 });
    expect(add(new RftFourier(), { surfaceHeight: 0 })).toThrow(/already has an RFT ground/);
  });

  it("cuts bodies into elements once, to elementSize", async () => {
    const world = await World.create({ gravity: [0, 0, 0] });
    const ground = world.addRftGround(new RftFourier(), { surfaceHeight: 0, elementSize: 0.05 });
    // 12 box triangles: the 0.1 × 0.1 faces' four in 2 rows of 1 + 3 pieces, the 0.1 × 0.01
    // sides' eight (slivers, one piece wide) in 2 rows of 1 + 2
    world.addBox({ halfExtents: [0.05, 0.05, 0.005], bodyType: "kinematic" });
    world.step();
    expect(ground.elementCount).toBe(4 * 4 + 8 * 3);
    world.step();
    expect(ground.elementCount).toBe(40);
  });

  it("skips only elements above the surface: a tilted, turning mesh half in the ground", async () => {
    // the ground skips chunks of elements whose bounding sphere lies above the surface; the
    // force must equal the sum of every element's own force, computed here one by one
    const world = await World.create({ gravity: [0, 0, 0] });
    const size = 0.004;
    const ground = world.addRftGround(new RftFourier(), { surfaceHeight: 0, elementSize: size });
    const mesh = boxMesh([0.06, 0.04, 0.03]);
    const ql = Math.hypot(0.2, -0.3, 0.1, 0.927);
    const body = world.addMesh({
      ...mesh,
      position: [0.1, -0.05, 0.01],
      orientation: [0.2 / ql, -0.3 / ql, 0.1 / ql, 0.927 / ql],
      bodyType: "kinematic",
      linearVelocity: [0.3, -0.1, -0.2],
      angularVelocity: [0.5, 2, -1],
    });
    // the pose and velocities the step starts from, as the bodies keep them
    const p = body.position, c = body.centerOfMass, v0 = body.linearVelocity;
    const w = body.angularVelocity, [x, y, z, qw] = body.orientation;
    const R = [
      [1 - 2 * (y * y + z * z), 2 * (x * y - z * qw), 2 * (x * z + y * qw)],
      [2 * (x * y + z * qw), 1 - 2 * (x * x + z * z), 2 * (y * z - x * qw)],
      [2 * (x * z - y * qw), 2 * (y * z + x * qw), 1 - 2 * (x * x + y * y)],
    ];
    const rot = (a: number[]) => R.map((row) => row[0] * a[0] + row[1] * a[1] + row[2] * a[2]);
    const el: number[] = [];
    cutSurface(mesh.vertices, mesh.indices, size, el);
    const want = [0, 0, 0];
    let below = 0;
    for (let e = 0; e < el.length; e += 7) {
      const pos = rot(el.slice(e, e + 3)).map((v, k) => v + p[k]);
      const d = pos.map((v, k) => v - c[k]);
      const vel = [
        v0[0] + w[1] * d[2] - w[2] * d[1],
        v0[1] + w[2] * d[0] - w[0] * d[2],
        v0[2] + w[0] * d[1] - w[1] * d[0],
      ];
      if (pos[2] < 0) below++;
      const f = rftElementForce(new RftFourier(), {
        area: el[e + 6],
        normal: rot(el.slice(e + 3, e + 6)),
        velocity: vel,
        depth: -pos[2],
      });
      for (let k = 0; k < 3; k++) want[k] += f[k];
    }
    world.step();
    expect(ground.elementCount).toBe(el.length / 7);
    // a good share of the elements on either side of the surface
    expect(below).toBeGreaterThan(0.2 * ground.elementCount);
    expect(below).toBeLessThan(0.8 * ground.elementCount);
    expect(Math.hypot(...want)).toBeGreaterThan(1);
    // to rounding (the bodies keep vertices and poses as the engine does): one wrongly skipped
    // chunk, even barely submerged, would be off by more than 10⁻⁵ of the force
    const got = ground.force(body), norm = Math.hypot(...want);
    for (let k = 0; k < 3; k++) expect(Math.abs(got[k] - want[k])).toBeLessThan(1e-7 * norm);
    world.close();
  });

  it("looks a table up in its sweep exactly as the table does, uniform grid or not", async () => {
    // the sweep has the table's look-up written in (generated from one source); a model that
    // only forwards the table's calls takes the calls' path: the forces must agree bit for bit
    const uniformTable = rftTableFromFourier({ zeta: 0.7, betaCount: 13, gammaCount: 11 });
    const spec = uniformTable.toSpec();
    // an uneven grid: every other interior angle moved by a tenth of a cell
    const bend = (a: number[]) =>
      a.map((v, k) => (k > 0 && k < a.length - 1 && k % 2 === 1 ? v + 0.1 * (a[1] - a[0]) : v));
    const uneven = new RftTable({ ...spec, beta: bend(spec.beta as number[]) });
    for (const table of [uniformTable, uneven]) {
      const forwarding = {
        alphaZAt: (b: number, g: number) => table.alphaZAt(b, g),
        alphaXAt: (b: number, g: number) => table.alphaXAt(b, g),
      };
      const got: number[][] = [];
      for (const model of [table, forwarding]) {
        const world = await World.create({ gravity: [0, 0, 0] });
        const ground = world.addRftGround(model, { surfaceHeight: 0, elementSize: 0.006 });
        const body = tumblingBox(world);
        const out: number[] = [];
        for (let i = 0; i < 20; i++) {
          world.step();
          out.push(...ground.force(body), ...ground.torque(body));
        }
        expect(ground.activeElements).toBeGreaterThan(50);
        got.push(out);
        world.close();
      }
      expect(Math.hypot(...got[0])).toBeGreaterThan(1);
      expect(got[0]).toEqual(got[1]);
    }
  });

  it("lists the elements that feel the ground: they sum to the force of the next step", async () => {
    for (const deform of [false, true]) {
      const world = await World.create({ gravity: [0, 0, 0] });
      const ground = world.addRftGround(rftTableFromFourier({ zeta: 0.6 }), {
        surfaceHeight: 0,
        elementSize: 0.006,
        ...(deform ? { deform: { cellSize: 0.01, bounds: [-0.3, -0.3, 0.3, 0.3] } } : {}),
      });
      const body = tumblingBox(world);
      const wall = world.addBox({
        halfExtents: [0.1, 0.1, 0.1],
        position: [0, 0, -0.05],
        bodyType: "static",
      });
      // before the first step the elements are not cut yet
      expect(ground.elementForces(body).area.length).toBe(0);
      world.step();
      const heights = deform ? ground.surface!.heights() : null;
      const e = ground.elementForces(body), n = e.area.length;
      expect(n).toBeGreaterThan(50);
      expect(e.position.length).toBe(3 * n);
      // listing changes nothing: the map's heights stay, the next step sees the same state
      if (heights !== null) {
        expect(Array.from(ground.surface!.heights())).toEqual(Array.from(heights));
      }
      const sum = [0, 0, 0], c = body.centerOfMass, torque = [0, 0, 0];
      for (let k = 0; k < n; k++) {
        const r = [0, 1, 2].map((i) => e.position[3 * k + i] - c[i]);
        const f = [0, 1, 2].map((i) => e.force[3 * k + i]);
        for (let i = 0; i < 3; i++) sum[i] += f[i];
        torque[0] += r[1] * f[2] - r[2] * f[1];
        torque[1] += r[2] * f[0] - r[0] * f[2];
        torque[2] += r[0] * f[1] - r[1] * f[0];
        expect(e.position[3 * k + 2]).toBeLessThan(deform ? 0.05 : 0); // below the surface
        // unit normals (to the float32 rounding of the engine's poses)
        const nn = Math.hypot(e.normal[3 * k], e.normal[3 * k + 1], e.normal[3 * k + 2]);
        expect(Math.abs(nn - 1)).toBeLessThan(1e-6);
        expect(e.area[k]).toBeGreaterThan(0);
      }
      world.step(); // the force of this step was evaluated at the pose the list was made at
      const F = ground.force(body), T = ground.torque(body), norm = Math.hypot(...F);
      expect(norm).toBeGreaterThan(1);
      for (let i = 0; i < 3; i++) {
        expect(Math.abs(sum[i] - F[i])).toBeLessThan(1e-9 * norm);
        expect(Math.abs(torque[i] - T[i])).toBeLessThan(1e-9 * norm);
      }
      expect(ground.elementForces(wall).area.length).toBe(0); // static: feels nothing
      expect(ground.elementForces(99).area.length).toBe(0); // no such body yet
      expect(() => ground.elementForces(-1)).toThrow(/elementForces: body \(-1\)/);
      world.close();
    }
  });

  it("cuts a closed surface into elements with the same area and zero net vector area", () => {
    // a tetrahedron wound outward
    const v = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1];
    const ix = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
    for (const size of [10, 0.3]) {
      const out: number[] = [];
      cutSurface(v, ix, size, out);
      let area = 0, nx = 0, ny = 0, nz = 0, outward = 0;
      for (let e = 0; e < out.length; e += 7) {
        area += out[e + 6];
        nx += out[e + 3] * out[e + 6], ny += out[e + 4] * out[e + 6], nz += out[e + 5] * out[e + 6];
        // outward: the normal points away from the centroid (0.25, 0.25, 0.25)
        const d = (out[e] - 0.25) * out[e + 3] + (out[e + 1] - 0.25) * out[e + 4] +
          (out[e + 2] - 0.25) * out[e + 5];
        if (d > 0) outward++;
      }
      near(area, 1.5 + Math.sqrt(3) / 2, 1e-12);
      expect(Math.abs(nx) + Math.abs(ny) + Math.abs(nz)).toBeLessThan(1e-12);
      expect(outward).toBe(out.length / 7);
      // the three right triangles (legs 1): 4 rows of 1 + 3 + 5 + 7 pieces; the equilateral
      // one (altitude 1.22): 5 rows of 1 + 3 + 5 + 7 + 9
      expect(out.length / 7).toBe(size === 10 ? 4 : 3 * 16 + 25);
    }
  });

  it("cuts a triangle into pieces that tile it, a sliver into a strip", () => {
    // any tiling keeps the area and the first moment (area × centroid) of the triangle
    const tri = [0.3, -0.2, 0.1, 1.1, 0.4, -0.3, -0.2, 0.9, 0.5];
    const sliver = [0, 0, 0, 1, 0, 0, 0.5, 0.01, 0];
    for (const [v, size] of [[tri, 0.07], [tri, 2], [sliver, 0.1]] as const) {
      const out: number[] = [];
      cutSurface(v, [0, 1, 2], size, out);
      const u = [0, 1, 2].map((k) => v[3 + k] - v[k]), w = [0, 1, 2].map((k) => v[6 + k] - v[k]);
      const area = 0.5 * Math.hypot(
        u[1] * w[2] - u[2] * w[1],
        u[2] * w[0] - u[0] * w[2],
        u[0] * w[1] - u[1] * w[0],
      );
      let a = 0, largest = 0;
      const moment = [0, 0, 0];
      for (let e = 0; e < out.length; e += 7) {
        a += out[e + 6];
        for (let k = 0; k < 3; k++) moment[k] += out[e + 6] * out[e + k];
        // no piece larger than a size × size square
        largest = Math.max(largest, out[e + 6]);
      }
      near(a, area, 1e-12);
      for (let k = 0; k < 3; k++) near(moment[k], (area * (v[k] + v[3 + k] + v[6 + k])) / 3, 1e-12);
      expect(largest).toBeLessThanOrEqual(size * size);
      // an obtuse sliver: two right halves, legs 0.5 (5 rows) and 0.01, one piece wide
      if (v === sliver) expect(out.length / 7).toBe(2 * (1 + 2 * 4));
      if (size === 2) expect(out.length / 7).toBe(1);
    }
  });
});
