import { describe, it } from "node:test";
import { expect } from "expect";
import { angleOfRepose } from "../src/experiments/mod.ts";

// Tolerances stated in angleOfRepose's documentation, for scale "ci" (500 grains per heap).
describe("experiments: angle of repose against rolling friction (sphere3d, CI size)", () => {
  const r = angleOfRepose({ scale: "ci" });
  const angles = r.rolling.map((h) => h.angle);

  it("rises with rolling friction", () => {
    expect(r.rolling.map((h) => h.rollingFriction)).toEqual([0, 0.1, 0.3]);
    for (let k = 1; k < angles.length; k++) expect(angles[k]).toBeGreaterThan(angles[k - 1] + 1);
  });

  it("stays low without rolling friction and rises by more than 8° at μr = 0.3", () => {
    expect(angles[0]).toBeLessThan(24);
    expect(angles[0]).toBeGreaterThan(8);
    expect(angles[angles.length - 1] - angles[0]).toBeGreaterThan(8);
  });

  it("keeps the poured grains on the floor and both flanks measurable", () => {
    for (const h of [...r.rolling, ...r.sliding]) {
      expect(h.grains).toBeGreaterThan(400);
      expect(Number.isFinite(h.leftAngle) && Number.isFinite(h.rightAngle)).toBe(true);
    }
  });
});
