import { describe, it } from "node:test";
import { expect } from "expect";
import { janssenEffect } from "../src/experiments/mod.ts";

// Tolerances stated in janssenEffect's documentation, for scale "ci" (a 6 d column, 12 batches
// of 1.75 d, the floor lowered 0.5 d per batch at a constant speed while the forces are averaged).
// They cover the scatter between realizations: seeds 1–7 under two summation orders of the pair
// forces (14 packings) put λ 0.5–27 % off L/(4·μ_m·K) and the tallest fill 0.4–21 % off Janssen's
// factor; one packing is a sample, not the mean.
describe("experiments: the Janssen effect (sphere3d, CI size)", () => {
  const r = janssenEffect({ scale: "ci" });
  const n = r.mass.length;

  it("is hydrostatic when shallow and saturates when deep", () => {
    expect(r.apparentMass[0] / r.mass[0]).toBeGreaterThan(0.9);
    expect(r.saturationRatio).toBeLessThan(0.4); // the walls carry more than 60 %
    // the last three fills add less than a tenth of their mass to the bottom's load
    const added = r.apparentMass[n - 1] - r.apparentMass[n - 4];
    expect(added).toBeLessThan(0.1 * (r.mass[n - 1] - r.mass[n - 4]));
  });

  it("fits M_app = M_sat·(1 − e^(−M/M_sat)) within 10 % rms; the tallest fill sits within 25 % of Janssen's factor", () => {
    expect(r.fitRms).toBeLessThan(0.1);
    expect(Math.abs(r.saturationRatio / r.janssenFactor - 1)).toBeLessThan(0.25);
    expect(r.lambda).toBeGreaterThan(0);
    expect(r.fillHeight[n - 1] / r.lambda).toBeGreaterThan(3);
  });

  it("has λ within 30 % of L/(4·μ_m·K) from the measured K and mobilised wall friction", () => {
    expect(r.K).toBeGreaterThan(0.3);
    expect(r.K).toBeLessThan(1.6);
    expect(r.mobilisedFriction).toBeGreaterThan(0);
    expect(r.mobilisedFriction).toBeLessThanOrEqual(0.5 + 1e-9); // never above μ_w
    expect(Math.abs(r.lambda / r.lambdaPredicted - 1)).toBeLessThan(0.3);
  });
});
