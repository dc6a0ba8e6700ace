/**
 * How a dynamic body takes the RFT ground with the pressure memory (`stressMemory.support`):
 * with "force" a plate that pushed into the grains and stopped is handed back more than it
 * brought and leaves them; with "capacity" (the default) the ground only stops and holds it,
 * as a plate dropped on the DEM bed of the calibration's grains stays in; the rest of the
 * world's loads count as gravity does (a load applied as an external force gives the same
 * fall); a PD-driven leg swings through the ground smoothly and a standing robot holds (RFT's
 * direction from the motion the loads would cause); kinematic bodies feel all of it either way;
 * bad values are named.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { RftFourier, RftTable, World } from "../src/sphere3d/mod.ts";
import type { RftGroundOptions, RigidBody } from "../src/sphere3d/mod.ts";
import { resolveGrains } from "../src/experiments/common.ts";
import { loadRftBed, settleRftBed } from "../src/experiments/rft_bed.ts";
import { checkStressMemory } from "../src/sphere3d/rft/ground_options.ts";
import { cachedCalibration, cachedMemory } from "./rft_fixture.ts";

type Support = "force" | "capacity";
const G = 9.81;
/** The calibrated memory (ℓ = 1.57 d, ℓ_sep = 0.32 d for d = 1 cm) with the given support. */
const memory = (support: Support): NonNullable<RftGroundOptions["stressMemory"]> => ({
  ...cachedMemory.memory,
  support,
});

/**
 * A 4 × 4 × 1 cm plate of 64 g, its underside `drop` m above the surface at z = 0 (negative:
 * below), falling at `v0` (m/s) onto ζ × generic RFT at 1 ms steps; returns the underside's
 * depth after each of `steps` steps (m) and the plate.
 */
async function fall(
  support: Support | null,
  o: { drop: number; v0?: number; gravity?: number; load?: boolean; steps: number },
): Promise<{ depth: number[]; plate: RigidBody }> {
  const g = o.gravity ?? G;
  const world = await World.create({ gravity: [0, 0, -g], timeStep: 1e-3 });
  world.addRftGround(new RftFourier({ zeta: cachedCalibration.zeta }), {
    surfaceHeight: 0,
    elementSize: 0.005,
    ...(support === null ? {} : { stressMemory: memory(support) }),
  });
  const plate = world.addBox({
    halfExtents: [0.02, 0.02, 0.005],
    position: [0, 0, o.drop + 0.005],
    linearVelocity: [0, 0, -(o.v0 ?? 0)],
    density: 4000,
  });
  // the weight as a load the ground does not see coming: an external force, no gravity
  if (o.load === true) plate.setExternalForce([0, 0, -G * plate.mass]);
  const depth: number[] = [];
  for (let k = 0; k < o.steps; k++) world.step(), depth.push(0.005 - plate.position[2]);
  world.close();
  return { depth, plate };
}

/** The least depth after the deepest (m): negative when the plate left the grains. */
function leastAfterDeepest(depth: number[]): number {
  let deep = 0;
  for (let k = 1; k < depth.length; k++) if (depth[k] > depth[deep]) deep = k;
  return Math.min(...depth.slice(deep));
}

describe("RFT pressure memory: support", () => {
  it("capacity: a plate that pushed in and stopped is held; force: it is pushed back out", async () => {
    // no gravity, a weak ground (ζ = 0.01: it stops the plate over a few millimetres): the
    // underside 1 cm deep, moving down at 0.1 m/s
    const up: Record<Support, number> = { force: 0, capacity: 0 };
    for (const support of ["force", "capacity"] as const) {
      const world = await World.create({ gravity: [0, 0, 0], timeStep: 1e-3 });
      world.addRftGround(new RftFourier({ zeta: 0.01 }), {
        surfaceHeight: 0,
        elementSize: 0.005,
        implicitDrag: false,
        stressMemory: memory(support),
      });
      const plate = world.addBox({
        halfExtents: [0.02, 0.02, 0.005],
        position: [0, 0, -0.015],
        linearVelocity: [0, 0, -0.1],
        density: 4000,
      });
      for (let k = 0; k < 500; k++) {
        world.step();
        up[support] = Math.max(up[support], plate.linearVelocity[2]);
      }
      world.close();
    }
    // the remembered pressure handed back as a force sends it out faster than it came in
    expect(up.force).toBeGreaterThan(0.1);
    // as a capacity it only stops it, and holds it there
    expect(up.capacity).toBeLessThan(1e-6);
  });

  it("a dropped plate stays in the grains with capacity, as on the DEM bed; with force it leaves", async () => {
    // the DEM: the calibration's grains (d = 1 cm, μ 0.5), a 20 × 10 × 9 d bed
    const m = resolveGrains("drop", { softness: 1e-3, rollingFriction: 0.05 }, {
      diameter: 0.01,
    });
    const bed = settleRftBed(m, [20, 10, 9]);
    const world = await World.create({ timeStep: m.dt, gravity: [0, 0, -G] });
    loadRftBed(world, bed);
    const plate = world.addBox({
      halfExtents: [0.02, 0.02, 0.005],
      position: [0, 0, bed.top + 0.025],
      density: 4000,
    });
    const dem: number[] = [];
    for (let k = 0, n = Math.round(0.6 / m.dt); k < n; k++) {
      world.step();
      dem.push(bed.surface - plate.position[2] + 0.005);
    }
    world.close();
    const rft = {
      none: await fall(null, { drop: 0.02, steps: 600 }),
      force: await fall("force", { drop: 0.02, steps: 600 }),
      capacity: await fall("capacity", { drop: 0.02, steps: 600 }),
    };
    // the grains catch it and keep it: it rebounds by about half a millimetre at most
    expect(leastAfterDeepest(dem)).toBeGreaterThan(0.002);
    expect(leastAfterDeepest(rft.none.depth)).toBeGreaterThan(0.002);
    expect(leastAfterDeepest(rft.capacity.depth)).toBeGreaterThan(0.002);
    // the memory's force throws it out of the grains
    expect(leastAfterDeepest(rft.force.depth)).toBeLessThan(0);
    // as a capacity it holds the plate where it stopped (RFT alone lets it creep back up): a
    // rigid-plastic ground; RFT has no inertial drag, so it stopped deeper than on the grains
    const c = rft.capacity.depth;
    expect(Math.abs(c[599] - c[299])).toBeLessThan(1e-6);
    expect(rft.none.depth[299] - rft.none.depth[599]).toBeGreaterThan(2e-4);
    expect(Math.max(...c)).toBeGreaterThan(Math.max(...dem));
  });

  it("counts the rest of the world's loads as it counts gravity", async () => {
    const weight = await fall("capacity", { drop: 0, v0: 0.6, steps: 1000 });
    const load = await fall("capacity", { drop: 0, v0: 0.6, gravity: 0, load: true, steps: 1000 });
    // an external force of m·g instead of gravity: the same fall and the same rest, within
    // 0.2 mm at every step (the load told apart from the step's change of velocity; taken as
    // nothing, the loaded plate would keep sinking at g·dt/2 a step, 5 mm a second)
    let worst = 0;
    for (let k = 0; k < 1000; k++) {
      worst = Math.max(worst, Math.abs(weight.depth[k] - load.depth[k]));
    }
    expect(worst).toBeLessThan(2e-4);
    expect(Math.abs(weight.depth[999] - weight.depth[199])).toBeLessThan(1e-6);
  });

  it("swings a PD-driven URDF leg through the ground smoothly, taking energy out at every step", async () => {
    const swing = async (stressMemory?: NonNullable<RftGroundOptions["stressMemory"]>) => {
      const world = await World.create({ gravity: [0, 0, -G] });
      const ground = world.addRftGround(new RftFourier(), {
        surfaceHeight: 0.1,
        ...(stressMemory === undefined ? {} : { stressMemory }),
      });
      const leg = await world.addArticulatedSystem("examples/assets/leg.urdf", {
        base: "fixed",
        position: [0, 0, 0.55],
      });
      leg.setPdGains(40, 2);
      leg.setPdTarget([-0.4, 0]); // swing the straight leg forward (+x), shin and foot in the grains
      const links = leg.links.slice(1), foot = leg.link("foot"), vx: number[] = [];
      let power = -Infinity;
      for (let k = 0; k < 300; k++) {
        world.step();
        // the ground's power on the leg against the velocities at the step's end
        let p = 0;
        for (const l of links) {
          const f = ground.force(l), t = ground.torque(l);
          const v = l.linearVelocity, w = l.angularVelocity;
          p += f[0] * v[0] + f[1] * v[1] + f[2] * v[2] + t[0] * w[0] + t[1] * w[1] + t[2] * w[2];
        }
        power = Math.max(power, p);
        vx.push(foot.linearVelocity[0]);
      }
      world.close();
      // chatter: the foot's acceleration changing sign from step to step
      let flips = 0;
      for (let k = 22; k < vx.length; k++) {
        if (Math.sign(vx[k] - vx[k - 1]) !== Math.sign(vx[k - 1] - vx[k - 2])) flips++;
      }
      return { power, flips };
    };
    // the implicit drag alone lets the foot chatter (215 sign changes in 278 steps) and the
    // ground hand the leg energy (up to 10 W); with the bound, and RFT's direction taken from
    // the motion the loads would cause, 16 and always less than zero (read from the foot's
    // remaining velocity: 150 and +5 mW)
    const drag = await swing();
    const bound = await swing(memory("capacity"));
    expect(drag.flips).toBeGreaterThan(150);
    expect(bound.flips).toBeLessThan(40);
    expect(drag.power).toBeGreaterThan(1);
    expect(bound.power).toBeLessThan(0);
  });

  it("holds a standing robot where the grains' memory carries it; as a force it sinks", async () => {
    const urdf = await Deno.readTextFile("examples/assets/rhex6.urdf");
    const stand = async (support: Support) => {
      const world = await World.create({ gravity: [0, 0, -G], timeStep: 1e-3 });
      world.addRftGround(new RftFourier({ zeta: cachedCalibration.zeta }), {
        surfaceHeight: 0,
        elementSize: 0.005,
        stressMemory: memory(support),
      });
      // legs straight down, their tips 1 cm above the surface; the PD holds them
      const robot = await world.addArticulatedSystem(urdf, {
        base: "floating",
        position: [0, 0, 0.095],
      });
      robot.setPdGains(2, 0.02);
      robot.setPdTarget([0, 0, 0, 0, 0, 0]);
      const torso = robot.link("torso"), h: number[] = [];
      for (let k = 0; k < 1500; k++) world.step(), h.push(torso.centerOfMass[2]);
      world.close();
      return { at05: h[499], at15: h[1499] };
    };
    // landed by 0.5 s; the DEM robot dropped on the calibration's grains holds too. Read from
    // its legs' remaining velocity, RFT's force pointed anywhere and it sank 3–4 mm/s
    const capacity = await stand("capacity"), force = await stand("force");
    expect(Math.abs(capacity.at15 - capacity.at05)).toBeLessThan(1e-4);
    expect(force.at05 - force.at15).toBeGreaterThan(2e-3);
  });

  it("a kinematic body feels the whole memory either way, bit for bit", async () => {
    const forces: Record<Support, number[]> = { force: [], capacity: [] };
    for (const support of ["force", "capacity"] as const) {
      const world = await World.create({ gravity: [0, 0, -G], timeStep: 1e-3 });
      const ground = world.addRftGround(
        RftTable.fromFourier({ zeta: cachedCalibration.zeta }),
        { surfaceHeight: 0, elementSize: 0.005, stressMemory: memory(support) },
      );
      // down, then sideways: where the memory keeps what RFT drops
      const plate = world.addBox({
        halfExtents: [0.02, 0.02, 0.005],
        position: [0, 0, 0.004],
        bodyType: "kinematic",
        linearVelocity: [0, 0, -0.05],
      });
      for (let k = 0; k < 400; k++) {
        if (k === 300) plate.setVelocity([0.05, 0, 0]);
        world.step();
        forces[support].push(...ground.force(plate), ...ground.torque(plate));
      }
      world.close();
    }
    expect(forces.capacity).toEqual(forces.force);
    // and the memory did act: the slide keeps lift that RFT alone would drop
    expect(forces.force[6 * 320 + 2]).toBeGreaterThan(0.5 * forces.force[6 * 299 + 2]);
  });

  it("names a bad support", () => {
    expect(checkStressMemory("f", { length: 0.01 })?.support).toBe("capacity");
    expect(() => checkStressMemory("f", { length: 0.01, support: "spring" })).toThrow(
      /stressMemory\.support \(spring\) must be "force" or "capacity"/,
    );
    // null is a wrong value, not an absent one
    expect(() => checkStressMemory("f", { length: 0.01, support: null })).toThrow(
      /stressMemory\.support \(null\)/,
    );
    expect(() => checkStressMemory("f", { length: 0.01, separation: null })).toThrow(
      /stressMemory\.separation \(null\)/,
    );
  });
});
