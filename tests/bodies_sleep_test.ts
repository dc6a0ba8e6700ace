/**
 * Granular pool sleep (`GranularSystem.setPoolSleep`) in the settled 500-grain bed of the body
 * tests: quiet grains fall asleep and freeze exactly, leave the neighbour list, wake when a
 * ball lands near them or the caller moves them, all wake when sleep is turned off, and
 * sleeping changes neither where a ball comes to rest nor how high a bed settles.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { type GranularSystem, World } from "../src/sphere3d/mod.ts";
import { BED, BED_MATERIAL, bedTop, settledBed } from "./bodies_helpers.ts";

/** The settled bed with sleep on, after `steps` steps (the default 50 quiet steps pass). */
async function sleepingBed(steps = 200) {
  const b = await settledBed();
  b.bed.setPoolSleep();
  b.world.run(steps);
  return b;
}

/** Pairs of grains closer than 2r + skin (brute force), as the neighbour search keeps them. */
function brutePairs(g: GranularSystem): number {
  const p = g.positions, cut = (2 * BED.radius + g.neighborSkin) ** 2;
  let n = 0;
  for (let i = 0; i < g.count; i++) {
    for (let j = i + 1; j < g.count; j++) {
      const dx = p[3 * i] - p[3 * j], dy = p[3 * i + 1] - p[3 * j + 1];
      const dz = p[3 * i + 2] - p[3 * j + 2];
      if (dx * dx + dy * dy + dz * dz < cut) n++;
    }
  }
  return n;
}

const sum = (a: ArrayLike<number>) => Array.prototype.reduce.call(a, (s, x) => s + x, 0);

describe("granular pool sleep", () => {
  it("most grains of a settled bed fall asleep, freeze exactly and leave the neighbour list", async () => {
    const awake = await settledBed();
    awake.world.step();
    const allPairs = awake.bed.lastStepStats.candidatePairs;
    const { world, bed } = await sleepingBed();
    const st = bed.lastStepStats;
    console.log(
      `  ${st.sleepingParticles} of ${bed.count} grains asleep after 200 steps; neighbour ` +
        `list ${st.candidatePairs} pairs (${allPairs} awake)`,
    );
    expect(st.sleepingParticles).toBeGreaterThan(0.8 * bed.count);
    expect(sum(bed.sleeping)).toBe(st.sleepingParticles);
    // pairs of two sleeping grains are gone: at most the pairs with an awake grain remain
    expect(st.candidatePairs).toBeLessThan(0.3 * allPairs);
    // fewer steps than the 50 quiet steps: a grain asleep at both ends never woke
    const p0 = Float64Array.from(bed.positions), s0 = Uint8Array.from(bed.sleeping);
    world.run(40);
    let kept = 0;
    for (let i = 0; i < bed.count; i++) {
      if (s0[i] === 0 || bed.sleeping[i] === 0) continue;
      kept++;
      for (let k = 0; k < 3; k++) {
        expect(bed.positions[3 * i + k]).toBe(p0[3 * i + k]);
        expect(bed.velocities[3 * i + k]).toBe(0);
        expect(bed.angularVelocities[3 * i + k]).toBe(0);
      }
    }
    expect(kept).toBeGreaterThan(0.8 * bed.count);
  });

  it("a pool at rest drops the pairs of its sleeping grains although nothing moves", () => {
    // a 10 × 10 square of grains 0.2 mm apart resting on the ground: every neighbour within
    // the skin, no contact between grains, nothing that would move and rebuild the list
    const world = new World({ timeStep: BED.dt });
    const positions: number[][] = [];
    for (let k = 0; k < 100; k++) {
      positions.push([
        (k % 10) * 2.01 * BED.radius,
        Math.floor(k / 10) * 2.01 * BED.radius,
        0.00999,
      ]);
    }
    const g = world.addGranularParticles({ positions, radii: BED.radius }, BED_MATERIAL);
    g.setGroundPlane(0);
    world.run(500);
    expect(g.lastStepStats.candidatePairs).toBe(brutePairs(g));
    expect(brutePairs(g)).toBe(180);
    g.setPoolSleep();
    world.run(100);
    expect(g.lastStepStats.sleepingParticles).toBe(100);
    expect(g.lastStepStats.candidatePairs).toBe(0);
  });

  it("a ball dropped onto the sleeping bed wakes the grains near it and rests as deep as without sleep", async () => {
    const { world, bed } = await sleepingBed();
    const top = bedTop(bed), before = bed.lastStepStats.sleepingParticles;
    const p0 = Float64Array.from(bed.positions);
    const ball = {
      radius: 0.02,
      density: 2500,
      position: [0, 0, top + 0.021] as [number, number, number],
      linearVelocity: [0, 0, -1] as [number, number, number],
    };
    const b = world.addSphere(ball);
    let fewest = before;
    for (let k = 0; k < 15; k++) {
      world.run(20);
      fewest = Math.min(fewest, bed.lastStepStats.sleepingParticles);
    }
    // the grains under the impact moved
    let moved = 0;
    for (let i = 0; i < bed.count; i++) {
      const p = bed.positions;
      if (Math.hypot(p[3 * i], p[3 * i + 1]) > 0.03 || p[3 * i + 2] < top - 0.04) continue;
      const d = Math.hypot(
        p[3 * i] - p0[3 * i],
        p[3 * i + 1] - p0[3 * i + 1],
        p[3 * i + 2] - p0[3 * i + 2],
      );
      if (d > 1e-4) moved++;
    }
    world.run(1200);
    const rest = b.position[2];
    // the same drop into the same bed, never asleep (same number of steps before the drop)
    const ref = await settledBed();
    ref.world.run(200);
    const rb = ref.world.addSphere(ball);
    ref.world.run(1500);
    console.log(
      `  asleep ${before} → fewest ${fewest} after the impact, ${bed.lastStepStats.sleepingParticles} ` +
        `0.15 s later; ${moved} grains under the ball moved > 0.1 mm; ball at rest ${
          ((top - rest) * 1000).toFixed(2)
        } mm below the surface with sleep, ${
          ((top - rb.position[2]) * 1000).toFixed(2)
        } mm without`,
    );
    expect(fewest).toBeLessThan(before - 100);
    expect(moved).toBeGreaterThanOrEqual(3);
    expect(Math.abs(rest - rb.position[2])).toBeLessThan(0.5 * BED.radius);
    expect(bed.lastStepStats.sleepingParticles).toBeGreaterThan(bed.count / 4); // asleep again
  });

  it("a sleeping grain the caller sets moving wakes and flies under gravity", async () => {
    const { world, bed } = await sleepingBed();
    let top = 0;
    for (let i = 1; i < bed.count; i++) {
      if (bed.positions[3 * i + 2] > bed.positions[3 * top + 2]) top = i;
    }
    expect(bed.sleeping[top]).toBe(1);
    const z0 = bed.positions[3 * top + 2], v = 0.3, t = 200 * BED.dt;
    bed.setVelocity(top, [0, 0, v]);
    world.run(200);
    // free flight; the first step drifts before the grain is awake (its weight acts one
    // step late: g·Δt·t = 2e-5 m)
    expect(bed.sleeping[top]).toBe(0);
    expect(bed.positions[3 * top + 2] - z0).toBeCloseTo(v * t - 0.5 * 9.81 * t * t, 4);
  });

  it("turning sleep off wakes every grain and brings back every pair", async () => {
    const { world, bed } = await sleepingBed();
    expect(bed.lastStepStats.sleepingParticles).toBeGreaterThan(0.8 * bed.count);
    bed.setPoolSleep({ enabled: false });
    expect(sum(bed.sleeping)).toBe(0);
    const expected = brutePairs(bed); // the list is rebuilt before the step moves anything
    world.step();
    expect(bed.lastStepStats.sleepingParticles).toBe(0);
    expect(bed.lastStepStats.candidatePairs).toBe(expected);
    world.run(100);
    expect(bed.lastStepStats.sleepingParticles).toBe(0); // and none falls asleep again
  });

  it("a bed settled with sleep on is as high as one settled without (within a grain radius)", () => {
    const settle = (sleep: boolean) => {
      const world = new World({ timeStep: BED.dt });
      const g = world.addGranularSystem(BED_MATERIAL);
      g.setGroundPlane(0);
      g.setContainerBox([-BED.half, -BED.half, 0], [BED.half, BED.half, 1]);
      const lo = -BED.half + BED.radius, hi = BED.half - BED.radius;
      g.emitBoxRandom({
        min: [lo, lo, BED.radius],
        max: [hi, hi, 1],
        minRadius: BED.radius,
        maxRadius: BED.radius,
        spacing: 2.15 * BED.radius,
        maxParticles: 400,
        seed: 7,
      });
      if (sleep) g.setPoolSleep();
      world.run(8000); // 0.8 s: the grains fall from up to 15 cm and settle
      let mean = 0;
      for (let i = 0; i < g.count; i++) mean += g.positions[3 * i + 2] / g.count;
      return { mean, asleep: g.lastStepStats.sleepingParticles, n: g.count };
    };
    const on = settle(true), off = settle(false);
    console.log(
      `  mean grain height ${(on.mean * 1000).toFixed(2)} mm with sleep (${on.asleep} of ${on.n} ` +
        `asleep), ${(off.mean * 1000).toFixed(2)} mm without`,
    );
    expect(on.asleep).toBeGreaterThan(0.8 * on.n);
    expect(Math.abs(on.mean - off.mean)).toBeLessThan(BED.radius);
  });

  it("rejects bad options, naming them", async () => {
    const { bed } = await settledBed();
    expect(() => bed.setPoolSleep({ quietSteps: 0 })).toThrow(/setPoolSleep: quietSteps/);
    expect(() => bed.setPoolSleep({ speedThreshold: -1 })).toThrow(RangeError);
    expect(() => bed.setPoolSleep({ wakeDistance: -0.1 })).toThrow(/wakeDistance \(-0\.1\)/);
    expect(() => bed.setPoolSleep({ speed: 1 } as never)).toThrow(/speed/);
  });
});
