import { describe, it } from "node:test";
import { expect } from "expect";
import { slotHopper } from "../src/experiments/mod.ts";

// Tolerances stated in slotHopper's documentation, for scale "ci" (disks through slots of 4, 6,
// 8 and 10 d in silos at least 4.5 slot widths and 20 d wide, all filled 24 d high, 400 grains
// per rate; crosses against disks of the same areas at 4 d, three seeds each).
describe("experiments: Beverloo through a 2D slot, crosses jam it (star2d, CI size)", () => {
  const r = slotHopper({ scale: "ci" });
  const f = r.fit;

  it("flows faster through every wider slot, each rate measured to better than 7 %", () => {
    for (let k = 1; k < r.flowRates.length; k++) {
      expect(r.flowRates[k]).toBeGreaterThan(r.flowRates[k - 1]);
    }
    for (const e of r.flowRateErrors) expect(e).toBeLessThan(0.07);
    for (const run of r.runs) expect(run.passed[run.passed.length - 1]).toBeGreaterThanOrEqual(400);
  });

  it("fits W = C·ρ_b·√g·(D − k·d)^p with C, k and p free: p within 20 % and two standard errors of 3/2", () => {
    expect(Math.abs(f.exponent / 1.5 - 1)).toBeLessThan(0.2);
    expect(f.exponentError).toBeLessThan(0.3);
    expect(Math.abs(f.exponent - 1.5)).toBeLessThan(2 * f.exponentError);
    expect(f.kFree).toBeGreaterThan(-1);
    expect(f.kFree).toBeLessThan(2.5);
    // with k fixed at Beverloo's 1.5 the exponent is far better determined
    expect(Math.abs(f.exponentAtReferenceK / 1.5 - 1)).toBeLessThan(0.1);
    // with p fixed at 3/2: the linearised fit is a straight line
    expect(f.r2).toBeGreaterThan(0.99);
    expect(f.C).toBeGreaterThan(0.5);
    expect(f.C).toBeLessThan(1.5);
  });

  it("jams at the smallest slot with crosses more often than with disks of the same areas", () => {
    expect(r.stars.jamFraction).toBeGreaterThan(r.disks.jamFraction);
    expect(r.disks.meanPassed).toBeGreaterThan(1.5 * r.stars.meanPassed);
  });
});
