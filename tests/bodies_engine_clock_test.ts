/**
 * The engine's still clock (`stepQuietly` in `src/sphere3d/bodies/engine.ts`): Rapier's step
 * times its stages through `performance.now`; Grainlab shadows it for the step. The shadow must
 * stand in for calls Rapier really makes, leave the physics bit for bit as it is with the real
 * clock, leave no trace on `performance`, and leave someone else's own `now` alone.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";

/** A box dropped on a tilted static plate with a spinning kinematic paddle: 300 steps. */
async function drop(): Promise<number[]> {
  const world = await World.create({ timeStep: 1e-3, gravity: [0, 0, -9.81] });
  world.addBox({
    halfExtents: [0.2, 0.2, 0.01],
    position: [0, 0, -0.01],
    orientation: [0.05, 0, 0, Math.sqrt(1 - 0.05 ** 2)],
    bodyType: "static",
  });
  const box = world.addBox({ halfExtents: [0.03, 0.02, 0.01], position: [0, 0, 0.05] });
  const paddle = world.addBox({
    halfExtents: [0.05, 0.005, 0.005],
    position: [0.02, 0, 0.02],
    bodyType: "kinematic",
    angularVelocity: [0, 0, 3],
  });
  for (let i = 0; i < 300; i++) world.step();
  const out = [...box.position, ...box.orientation, ...box.linearVelocity, ...paddle.orientation];
  world.close();
  return out;
}

describe("the engine's still clock", () => {
  it("stands in for Rapier's clock reads, changes no bit, and leaves performance as it was", async () => {
    const quiet = await drop();
    // after the steps, `performance.now` is the platform's again, and it ticks
    expect(Object.hasOwn(performance, "now")).toBe(false);
    const t0 = performance.now();
    let work = 0;
    for (let i = 0; i < 2e6; i++) work += Math.sqrt(i);
    expect(work).toBeGreaterThan(0);
    expect(performance.now()).toBeGreaterThan(t0);

    // with an own `now` on performance (a counter), the engine leaves it in place: Rapier
    // reads the real clock through it, which is what the shadow stands in for otherwise
    let calls = 0;
    const real = Performance.prototype.now;
    const counting = function (this: Performance): number {
      calls++;
      return real.call(this);
    };
    Object.defineProperty(performance, "now", {
      value: counting,
      configurable: true,
      writable: true,
    });
    let loud: number[];
    try {
      loud = await drop();
      expect(performance.now).toBe(counting);
    } finally {
      delete (performance as { now?: unknown }).now;
    }
    expect(calls).toBeGreaterThan(300); // Rapier reads the clock in every step
    expect(loud).toHaveLength(quiet.length);
    for (let i = 0; i < quiet.length; i++) expect(Object.is(loud[i], quiet[i])).toBe(true);
    // the box fell onto the plate and the paddle turned: the scene did something
    expect(quiet[2]).toBeLessThan(0.04);
    expect(Math.abs(quiet[quiet.length - 2])).toBeGreaterThan(0.1);
  });
});
