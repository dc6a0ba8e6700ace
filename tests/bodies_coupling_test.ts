/**
 * Grains and rigid bodies together: static equilibrium, plate intrusion (resistive force
 * theory), momentum conservation, mesh = primitive, height map = ground, determinism, and a
 * failed add leaving the world unchanged.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { BED, BED_MATERIAL, bedTop, settledBed } from "./bodies_helpers.ts";

describe("grains and rigid bodies", () => {
  it("a box resting on a settled bed: the grains carry its weight within 1 % and it stays", async () => {
    const { world, bed } = await settledBed();
    const top = bedTop(bed);
    const box = world.addBox({
      halfExtents: [0.03, 0.03, 0.01],
      position: [0, 0, top + 0.0105],
      density: 2000,
    });
    world.run(5000); // 0.5 s: the box sinks in and comes to rest
    const z0 = box.position[2];
    let fz = 0;
    const n = 2000;
    for (let k = 0; k < n; k++) {
      world.step();
      fz += box.contactForce[2];
    }
    fz /= n;
    const weight = box.mass * 9.81;
    console.log(
      `  box on bed: grains' vertical force ${fz.toFixed(5)} N vs weight ${weight.toFixed(5)} N (${
        ((fz / weight - 1) * 100).toFixed(3)
      } %), drift ${
        ((box.position[2] - z0) * 1e6).toFixed(2)
      } µm over 0.2 s; rigid contacts ${bed.lastStepStats.rigidContacts}`,
    );
    expect(Math.abs(fz / weight - 1)).toBeLessThan(0.01);
    expect(Math.abs(box.position[2] - z0)).toBeLessThan(1e-4);
    expect(bed.lastStepStats.rigidContacts).toBeGreaterThan(3);
    expect(bed.lastStepStats.rigidCandidatePairs).toBeGreaterThanOrEqual(
      bed.lastStepStats.rigidContacts,
    );
    // the contacts are in the shared record: kind body, j = -1, boundary = body id
    const c = bed.contacts;
    let bodyContacts = 0;
    for (let k = 0; k < c.count; k++) {
      if (c.kind[k] === 3) {
        bodyContacts++;
        expect(c.j[k]).toBe(-1);
        expect(c.boundary[k]).toBe(box.id);
        expect(c.normal[3 * k + 2]).toBeLessThan(0); // from the box (above) towards the grain
      }
    }
    expect(bodyContacts).toBe(bed.lastStepStats.rigidContacts);
  });

  it("zero gravity: a sphere thrown into a grain cloud conserves linear and angular momentum", async () => {
    const world = await World.create({ timeStep: 1e-4, gravity: [0, 0, 0] });
    const cloud = world.addGranularBox(
      { min: [-0.05, -0.05, -0.05], max: [0.05, 0.05, 0.05], radius: 0.008, spacing: 0.021 },
      { ...BED_MATERIAL, rollingFriction: 0 },
    );
    const ball = world.addSphere({
      radius: 0.02,
      position: [-0.12, 0.015, 0.01], // off-centre: the hit spins the cloud
      linearVelocity: [2, 0, 0],
      density: 3000,
    });
    const momentum = () => {
      const v = cloud.velocities, w = cloud.angularVelocities, x = cloud.positions;
      const m = cloud.masses;
      const p = [0, 0, 0], L = [0, 0, 0];
      for (let i = 0; i < cloud.count; i++) {
        const o = 3 * i, I = 0.4 * m[i] * cloud.radii[i] ** 2;
        for (let k = 0; k < 3; k++) p[k] += m[i] * v[o + k];
        L[0] += m[i] * (x[o + 1] * v[o + 2] - x[o + 2] * v[o + 1]) + I * w[o];
        L[1] += m[i] * (x[o + 2] * v[o] - x[o] * v[o + 2]) + I * w[o + 1];
        L[2] += m[i] * (x[o] * v[o + 1] - x[o + 1] * v[o]) + I * w[o + 2];
      }
      const M = ball.mass,
        c = ball.centerOfMass,
        u = ball.linearVelocity,
        om = ball.angularVelocity;
      const Ib = 0.4 * M * 0.02 ** 2;
      for (let k = 0; k < 3; k++) p[k] += M * u[k];
      L[0] += M * (c[1] * u[2] - c[2] * u[1]) + Ib * om[0];
      L[1] += M * (c[2] * u[0] - c[0] * u[2]) + Ib * om[1];
      L[2] += M * (c[0] * u[1] - c[1] * u[0]) + Ib * om[2];
      return { p, L };
    };
    const a = momentum();
    world.run(1500);
    const b = momentum();
    const P = Math.hypot(...a.p), dp = Math.hypot(...a.p.map((x, k) => x - b.p[k]));
    const Lref = Math.hypot(...a.L) + 0.1 * P; // L scale: |L| plus momentum × 0.1 m
    const dL = Math.hypot(...a.L.map((x, k) => x - b.L[k]));
    console.log(
      `  momentum: |Δp|/|p| ${(dp / P).toExponential(2)}, |ΔL|/L ${
        (dL / Lref).toExponential(2)
      }; grains moved by the hit: ${cloud.lastStepStats.maxSpeed.toFixed(3)} m/s max`,
    );
    expect(cloud.lastStepStats.maxSpeed).toBeGreaterThan(0.1); // the ball did hit the cloud
    expect(dp / P).toBeLessThan(1e-6);
    // Rapier keeps body positions in float32: the ball's centre is rounded to ~7e-9 m each
    // step, which limits the angular momentum x × p to a few 1e-6 (measured 2.1e-6).
    expect(dL / Lref).toBeLessThan(5e-6);
  });

  it("a box given as its 12-triangle mesh acts on the grains as the box primitive", async () => {
    const run = async (mesh: boolean) => {
      // grains rain onto a static box (top face, edges and corners all get hit)
      const world = await World.create({ timeStep: BED.dt });
      const bed = world.addGranularBox(
        { min: [-0.06, -0.06, 0.02], max: [0.06, 0.06, 0.08], radius: 0.008, spacing: 0.0205 },
        BED_MATERIAL,
      );
      for (let i = 0; i < bed.count; i++) {
        bed.setVelocity(i, [0.02 * ((i % 5) - 2), 0.01 * ((i % 3) - 1), -0.5]);
      }
      const h = [0.05, 0.04, 0.01];
      const common = {
        position: [0.003, -0.002, 0] as [number, number, number],
        bodyType: "static" as const,
      };
      if (mesh) {
        const v: number[] = [];
        for (let k = 0; k < 8; k++) {
          v.push(k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]);
        }
        world.addMesh({
          ...common,
          vertices: v,
          indices: [
            0,
            2,
            3,
            0,
            3,
            1,
            4,
            5,
            7,
            4,
            7,
            6,
            0,
            1,
            5,
            0,
            5,
            4,
            2,
            6,
            7,
            2,
            7,
            3,
            0,
            4,
            6,
            0,
            6,
            2,
            1,
            3,
            7,
            1,
            7,
            5,
          ],
        });
      } else world.addBox({ ...common, halfExtents: h as [number, number, number] });
      world.run(1200);
      const c = bed.contacts;
      const rows: number[][] = [];
      for (let k = 0; k < c.count; k++) {
        if (c.kind[k] === 3 || c.kind[k] === 4) {
          rows.push([c.i[k], c.normalForce[k], ...c.tangentialForce.subarray(3 * k, 3 * k + 3)]);
        }
      }
      return { rows, f: Array.from(bed.forces) };
    };
    const a = await run(false), b = await run(true);
    expect(a.rows.length).toBeGreaterThan(3);
    expect(b.rows.length).toBe(a.rows.length);
    let worst = 0;
    for (let k = 0; k < a.rows.length; k++) {
      expect(b.rows[k][0]).toBe(a.rows[k][0]);
      const scale = Math.abs(a.rows[k][1]) + 1e-300;
      for (let q = 1; q < 5; q++) {
        worst = Math.max(worst, Math.abs(a.rows[k][q] - b.rows[k][q]) / scale);
      }
    }
    console.log(
      `  mesh vs box: ${a.rows.length} contacts, worst relative difference ${
        worst.toExponential(2)
      }`,
    );
    expect(worst).toBeLessThanOrEqual(1e-9);
  });

  it("a flat height map acts as the ground plane", async () => {
    const run = async (map: boolean) => {
      const world = await World.create({ timeStep: BED.dt });
      const g = world.addGranularBox(
        { min: [-0.05, -0.05, 0.0095], max: [0.05, 0.05, 0.03], radius: 0.01, spacing: 0.021 },
        BED_MATERIAL,
      );
      if (map) {
        world.addHeightMap({
          heights: new Array(25).fill(0),
          nx: 5,
          ny: 5,
          sizeX: 0.4,
          sizeY: 0.4,
        });
      } else g.setGroundPlane(0);
      for (let i = 0; i < g.count; i++) g.setVelocity(i, [0.05 * (i % 3), 0, -0.1]);
      world.run(400);
      return Array.from(g.positions);
    };
    const a = await run(false), b = await run(true);
    let worst = 0;
    for (let k = 0; k < a.length; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]));
    console.log(
      `  height map vs ground plane: largest position difference ${worst.toExponential(2)} m`,
    );
    expect(worst).toBeLessThan(1e-9);
  });

  it("the same scene twice gives identical bytes for grains and bodies", async () => {
    const run = async () => {
      const { world, bed } = await settledBed();
      const ball = world.addSphere({
        radius: 0.025,
        position: [0.01, 0, bedTop(bed) + 0.05],
        linearVelocity: [0.3, 0, -1],
        density: 3000,
      });
      world.run(800);
      return new Uint8Array([
        ...new Uint8Array(bed.positions.slice().buffer),
        ...new Uint8Array(bed.velocities.slice().buffer),
        ...new Uint8Array(
          new Float64Array([...ball.position, ...ball.orientation, ...ball.linearVelocity]).buffer,
        ),
      ]);
    };
    const a = await run(), b = await run();
    expect(b).toEqual(a);
  });

  it("a failed add leaves the world unchanged and bodies need the engine", async () => {
    const plain = new World();
    expect(() => plain.addBox({ halfExtents: [1, 1, 1] })).toThrow(/enableBodies/);
    const world = await World.create();
    world.addSphere({ radius: 0.1 });
    expect(() => world.addBox({ halfExtents: [0.1, 0, 0.1] })).toThrow(
      /halfExtents\[1\] \(0\) must be/,
    );
    expect(() => world.addMesh({ vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2] }))
      .toThrow(/addMesh/);
    expect(() => world.addHeightMap({ heights: [0, NaN, 0, 0], nx: 2, ny: 2, sizeX: 1, sizeY: 1 }))
      .toThrow(/heights\[1\]/);
    expect(() => world.addHeightMap({ heights: [0, 0, 0], nx: 2, ny: 2, sizeX: 1, sizeY: 1 }))
      .toThrow(/heights/);
    expect(() => world.addSphere({ radius: 0.1, orientation: [0, 0, 0, 0] })).toThrow(
      /zero quaternion/,
    );
    expect(() => world.addSphere({ radius: 0.1, colour: "red" } as never)).toThrow(/colour/);
    await expect(
      world.addArticulatedSystem(
        "<robot name='r'><link name='a'/><joint name='j' type='fixed'><parent link='a'/><child link='missing'/></joint></robot>",
      ),
    ).rejects.toThrow(/missing/);
    expect(world.bodies.length).toBe(1);
    world.run(10);
    expect(world.bodies[0].position[2]).toBeLessThan(0);
  });
});
