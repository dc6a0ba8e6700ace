/**
 * The RFT ground's pressure memory (`RftGroundOptions.stressMemory`): a plate pushed down and
 * then slid sideways, where the model gives no lift, keeps its pressure as exp(−x/ℓ) of its
 * travel x; pulled back up it loses it as exp(−s(1/ℓ + 1/ℓ_sep)); pushed straight down the
 * memory changes nothing but rounding; the listed elements sum to the next step's force; a slipping wheel on
 * the calibrated table sinks less and needs less torque; bad options are named.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { RftFourier, World } from "../src/sphere3d/mod.ts";
import type { RftGroundOptions, RftStressModel } from "../src/sphere3d/mod.ts";
import { singleWheelTest } from "../src/experiments/mod.ts";
import { cachedMemory, cachedRftTable } from "./rft_fixture.ts";
import { rftMemoryLaw } from "../src/sphere3d/rft/law_source.ts";

type RftStressMemory = NonNullable<RftGroundOptions["stressMemory"]>;

/** α_z = 10⁶ N/m³ for motion steeper than 30° down, nothing otherwise; no α_x. */
const steepOnly: RftStressModel = {
  alphaZAt: (_beta: number, gamma: number): number => (gamma > Math.PI / 6 ? 1e6 : 0),
  alphaXAt: () => 0,
};

/** A world without gravity, an RFT ground at z = 0 and a 10 × 10 × 1 cm kinematic plate. */
async function plateScene(memory?: RftStressMemory, model: RftStressModel = steepOnly) {
  const world = await World.create({ gravity: [0, 0, 0], timeStep: 1e-3 });
  const ground = world.addRftGround(model, {
    surfaceHeight: 0,
    elementSize: 0.02,
    ...(memory === undefined ? {} : { stressMemory: memory }),
  });
  // the underside 2 cm deep, pushed down
  const plate = world.addBox({
    halfExtents: [0.05, 0.05, 0.005],
    position: [0, 0, -0.015],
    bodyType: "kinematic",
    linearVelocity: [0, 0, -1e-4],
  });
  return { world, ground, plate };
}

const near = (a: number, b: number, tol: number) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));

describe("RFT pressure memory", () => {
  it("relaxes by exp(-x) to 1e-12 per step, small steps and large", () => {
    // the law's decay alone: an underside remembering 1 Pa/m, sliding where RFT gives nothing
    const text = rftMemoryLaw({
      f0: "f0",
      f1: "f1",
      f2: "f2",
      nx: "nx",
      ny: "ny",
      nz: "nz",
      vx: "vx",
      vy: "vy",
      vz: "vz",
      depthArea: "1",
      mem: "mem",
      index: "0",
      stamp: "1",
      perPath: "x",
      perSeparation: "0",
      felt: "felt",
      write: false,
      prefix: "_",
    });
    const decay = new Function(
      "x",
      `let f0 = 0, f1 = 0, f2 = 0, felt = false;
      const nx = 0, ny = 0, nz = -1, vx = 1, vy = 0, vz = 0, mem = [1, 0];
      ${text}
      return f2;`,
    ) as (x: number) => number;
    for (const x of [1e-6, 1e-3, 0.01, 0.05, 0.0999, 0.1, 0.3, 2, 40]) {
      expect(Math.abs(decay(x) / Math.exp(-x) - 1)).toBeLessThan(1e-12);
    }
  });

  it("a plate pushed down and then slid keeps its pressure as exp(-x/length)", async () => {
    const length = 0.02;
    const { world, ground, plate } = await plateScene({ length });
    world.step();
    const f0 = ground.force(plate)[2];
    near(f0, 200, 1e-3); // α_z · depth · area = 10⁶ · 0.02 · 0.01
    const v = 0.01, dt = world.timeStep;
    plate.setVelocity([v, 0, 0]);
    for (let k = 1; k <= 400; k++) {
      world.step();
      // the underside slides edge-on: RFT gives nothing, the memory relaxes over its travel
      if (k % 100 === 0) near(ground.force(plate)[2], f0 * Math.exp(-(k * v * dt) / length), 2e-3);
    }
    // without a memory the same slide feels nothing
    const bare = await plateScene();
    bare.world.step();
    bare.plate.setVelocity([v, 0, 0]);
    bare.world.step();
    expect(bare.ground.force(bare.plate)[2]).toBe(0);
    world.close(), bare.world.close();
  });

  it("pulled back up, the pressure goes over the separation length as well", async () => {
    const length = 0.02, separation = 0.002;
    const { world, ground, plate } = await plateScene({ length, separation });
    world.step();
    const f0 = ground.force(plate)[2];
    const v = 0.005, dt = world.timeStep;
    plate.setVelocity([0, 0, v]);
    for (let k = 1; k <= 4; k++) {
      world.step();
      // the depth falls too (the pressure is per unit depth): 2 cm less k steps of rise, the
      // rise of the push step before included
      const depth = 0.02 + 1e-4 * dt - k * v * dt;
      const expected = (f0 * depth) / (0.02 + 1e-4 * dt) *
        Math.exp(-k * v * dt * (1 / length + 1 / separation));
      near(ground.force(plate)[2], expected, 2e-3);
    }
    world.close();
  });

  it("pushed straight down, the memory changes nothing (to rounding)", async () => {
    const model = new RftFourier({ zeta: 0.5 });
    const a = await plateScene({ length: 0.01, separation: 0.001 }, model);
    const b = await plateScene(undefined, model);
    for (let k = 0; k < 20; k++) {
      a.world.step(), b.world.step();
      const fa = a.ground.force(a.plate), fb = b.ground.force(b.plate);
      for (let i = 0; i < 3; i++) near(fa[i], fb[i], 1e-12);
    }
    a.world.close(), b.world.close();
  });

  it("the listed elements sum to the next step's force, with the memory", async () => {
    const { world, ground, plate } = await plateScene({ length: 0.02 });
    world.step();
    plate.setVelocity([0.01, 0, -0.001]);
    for (let k = 0; k < 5; k++) world.step();
    const e = ground.elementForces(plate);
    let fz = 0;
    for (let k = 0; k < e.area.length; k++) fz += e.force[3 * k + 2];
    world.step();
    near(fz, ground.force(plate)[2], 1e-6);
    expect(fz).toBeGreaterThan(50);
    world.close();
  });

  it("a slipping wheel on the cached DEM table sinks less and needs less torque", async () => {
    const table = await cachedRftTable();
    const run = (memory?: RftStressMemory) =>
      singleWheelTest({
        scale: "smoke",
        ground: table,
        slips: [0.7],
        ...(memory === undefined ? {} : { stressMemory: memory }),
      });
    const bare = await run(), kept = await run(cachedMemory.memory);
    expect(kept.sinkage[0]).toBeLessThan(0.9 * bare.sinkage[0]);
    expect(kept.torque[0]).toBeLessThan(0.9 * bare.torque[0]);
    // the load is still carried
    near(kept.verticalForce[0], bare.verticalForce[0], 0.02);
  });

  it("names a bad memory", async () => {
    const world = await World.create({ gravity: [0, 0, 0] });
    const model = new RftFourier();
    const add = (m: unknown) =>
      world.addRftGround(model, { surfaceHeight: 0, stressMemory: m as RftStressMemory });
    expect(() => add({ length: 0 })).toThrow(/stressMemory\.length \(0\) must be a finite/);
    expect(() => add({ length: 0.01, separation: -1 })).toThrow(/stressMemory\.separation \(-1\)/);
    expect(() => add({ length: 0.01, span: 1 })).toThrow(/unknown option "stressMemory\.span"/);
    expect(() => add(3)).toThrow(/stressMemory \(3\) must be/);
    await expect(singleWheelTest({ scale: "smoke", stressMemory: { length: NaN } })).rejects
      .toThrow(/singleWheelTest: stressMemory\.length \(NaN\)/);
    world.close();
  });
});
