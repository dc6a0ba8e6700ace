import { describe, it } from "node:test";
import { expect } from "expect";
import { hopperDischarge } from "../src/experiments/mod.ts";

// Tolerances stated in hopperDischarge's documentation, for scale "ci" (orifices 4, 5.5, 7 and
// 8.5 d in a 15 d silo filled 16 d high; about 40 s on two cores).
describe("experiments: hopper discharge, Beverloo's law (sphere3d, CI size)", () => {
  const r = hopperDischarge({ scale: "ci" });
  const f = r.fit;

  it("flows faster through every wider orifice; no run jams", () => {
    for (let k = 1; k < r.flowRates.length; k++) {
      expect(r.flowRates[k]).toBeGreaterThan(r.flowRates[k - 1]);
    }
    for (const run of r.runs.slice(0, r.orifices.length)) expect(run.jammed).toBe(false);
  });

  it("fits W = C·ρ_b·√g·(D − k·d)^(5/2) with C in [0.4, 0.75] and k in [0.5, 2.5]", () => {
    expect(f.r2).toBeGreaterThan(0.98);
    expect(f.C).toBeGreaterThan(0.4);
    expect(f.C).toBeLessThan(0.75);
    expect(f.k).toBeGreaterThan(0.5);
    expect(f.k).toBeLessThan(2.5);
  });

  it("has the exponent 5/2 within 15 % with Beverloo's k = 1.5 (CI-size rates are ±5–10 %)", () => {
    expect(Math.abs(f.exponentAtReferenceK / 2.5 - 1)).toBeLessThan(0.15);
  });

  it("keeps the rate constant within 5 % while the fill height halves", () => {
    expect(r.heightWindows).toHaveLength(3);
    expect(r.heightWindowMid[2] / r.heightWindowMid[0]).toBeLessThan(0.7);
    expect(r.heightDeviation).toBeLessThan(0.05);
  });

  it("reports the clogging fraction at the smallest orifice", () => {
    expect(r.clogFraction).toBeGreaterThanOrEqual(0);
    expect(r.clogFraction).toBeLessThanOrEqual(1);
    expect(r.runs.length).toBe(r.orifices.length + r.clogTrials - 1);
  });
});
