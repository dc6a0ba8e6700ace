/**
 * RFT calibration from the DEM at smoke size (a few hundred coarse grains, seconds): a plate
 * pushed straight down through the settled bed meets a resistance linear in depth, α_z of the
 * order Li et al. report for glass beads; the samples give ζ and a "dem" table. Nothing finer
 * is checked at this size (see docs/terradynamics.md).
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { calibrateRft } from "../src/experiments/mod.ts";

describe("calibrateRft (smoke)", () => {
  it("measures α from a plate moved through a settled bed", async () => {
    const c = await calibrateRft({ scale: "smoke" });
    const s = c.samples;
    console.log(
      `  calibrateRft smoke: ${c.grains} grains; ` +
        Array.from(
          s.beta,
          (b, k) =>
            `(β ${b.toFixed(2)}, γ ${s.gamma[k].toFixed(2)}): α_z ${
              (s.alphaZ[k] / 1e6).toFixed(3)
            } N/cm³ (R² ${s.r2Z[k].toFixed(2)}), α_x ${(s.alphaX[k] / 1e6).toFixed(3)}`,
        ).join("; ") +
        `; ζ ${c.zeta.toFixed(3)}`,
    );
    expect(s.alphaZ.length).toBe(3);
    // a horizontal plate pushed straight down: linear in depth, α_z in 0.1–2 N/cm³
    expect(s.r2Z[0]).toBeGreaterThan(0.9);
    expect(s.alphaZ[0]).toBeGreaterThan(0.1e6);
    expect(s.alphaZ[0]).toBeLessThan(2e6);
    // pushed down and forward, the plate is held back (α_x > 0) and up (α_z > 0)
    expect(s.alphaX[2]).toBeGreaterThan(0);
    expect(s.alphaZ[2]).toBeGreaterThan(0);
    expect(c.zeta).toBeGreaterThan(0);
    expect(c.fit).toBe(null); // three pairs do not determine nine terms
    expect(c.table.source).toBe("dem");
    expect(c.table.grainDiameter).toBe(0.01);
    expect(c.table.alphaZAt(0, Math.PI / 2)).toBeCloseTo(c.zeta * 1e6, 3);
  });

  it("names bad options", async () => {
    await expect(calibrateRft({ scale: "smoke", pairs: [[0, 0]] })).rejects.toThrow(
      /pairs\[0\]\[1\] \(γ = 0\) must be in/,
    );
    await expect(calibrateRft({ scale: "smoke", window: [2, 1] })).rejects.toThrow(
      /window \(\[2, 1\]\) must have 0 <= from < to/,
    );
    await expect(calibrateRft({ scale: "smoke", pairs: [[0, 0.3]] })).rejects.toThrow(
      /too short for γ/,
    );
  });
});
