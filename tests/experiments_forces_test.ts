import { describe, it } from "node:test";
import { expect } from "expect";
import { forceDistribution, starForceDistribution } from "../src/experiments/mod.ts";

// Tolerances stated in forceDistribution's and starForceDistribution's documentation ("ci").
describe("experiments: normal-force distribution of static packings (CI size)", () => {
  it("spheres: exponential tail above the mean with β in [1, 2.5]", () => {
    const r = forceDistribution({ scale: "ci" });
    expect(r.forces.length).toBeGreaterThan(1500);
    let mean = 0;
    for (const f of r.forces) mean += f;
    expect(mean / r.forces.length).toBeCloseTo(1, 9); // normalised by the depth's mean
    expect(r.tail.beta).toBeGreaterThan(1);
    expect(r.tail.beta).toBeLessThan(2.5);
    // at twice the mean, the density has fallen well below its value at the mean
    const at = (x: number) => r.tail.density[Math.floor(x / 0.2)];
    expect(at(2.05)).toBeLessThan(0.25);
    expect(at(2.05)).toBeLessThan(0.5 * at(1.05));
  });

  it("stars and disks: exponential tails with β in [0.8, 2.5]", () => {
    const r = starForceDistribution({ scale: "ci" });
    for (const s of [r.stars, r.disks]) {
      expect(s.forces.length).toBeGreaterThan(150);
      expect(s.tail.beta).toBeGreaterThan(0.8);
      expect(s.tail.beta).toBeLessThan(2.5);
    }
    expect(r.stars.packing.outline!.length).toBeGreaterThan(0);
  });
});
