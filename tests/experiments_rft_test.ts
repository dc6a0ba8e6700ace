/**
 * RFT calibration from the DEM at smoke size (a few hundred coarse grains, seconds): a plate
 * pushed straight down through the settled bed meets a resistance linear in depth, α_z of the
 * order Li et al. report for glass beads; the samples give ζ and a "dem" table. Nothing finer
 * is checked at this size (see docs/terradynamics.md).
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { calibrateRft } from "../src/experiments/mod.ts";
import { plateStartLift } from "../src/experiments/rft_intrude.ts";

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

  it("drags a buried plate sideways and pulls one up (the hold and upward paths)", async () => {
    const c = await calibrateRft({
      scale: "smoke",
      bed: [20, 8, 7],
      pairs: [[0, 0], [0, -Math.PI / 2], [Math.PI / 2, 0]],
    });
    const s = c.samples;
    console.log(
      `  calibrateRft smoke, buried: α_x(0, 0) ${(s.alphaX[0] / 1e6).toFixed(3)}, ` +
        `α_z(0, −π/2) ${(s.alphaZ[1] / 1e6).toFixed(3)}, α_x(π/2, 0) ` +
        `${(s.alphaX[2] / 1e6).toFixed(3)} N/cm³`,
    );
    // dragged sideways, a plate is held back; a vertical plate more than a flat one
    expect(s.alphaX[0]).toBeGreaterThan(0);
    expect(s.alphaX[2]).toBeGreaterThan(s.alphaX[0]);
    // pulled up, the grains above hold it down, less than they hold a plate pushed down
    expect(s.alphaZ[1]).toBeLessThan(0);
    for (const x of s.inertial) expect(x).toBeGreaterThan(0);
  });

  it("names bad options", async () => {
    await expect(calibrateRft({ scale: "smoke", pairs: [[0, 2]] })).rejects.toThrow(
      /pairs\[0\]\[1\] \(γ = 2\) must be in \[−π\/2, π\/2\]/,
    );
    await expect(calibrateRft({ scale: "smoke", grid: [13, 2] })).rejects.toThrow(
      /grid\[1\] \(2\) must be an integer in \[3, 91\]/,
    );
    await expect(calibrateRft({ scale: "smoke", quasiStatic: 1 as unknown as boolean }))
      .rejects.toThrow(/quasiStatic \(1\) must be a boolean/);
    await expect(calibrateRft({ scale: "smoke", fit: "chord" as never })).rejects.toThrow(
      /fit \("chord"\) must be "slope" or "secant"/,
    );
    await expect(calibrateRft({ scale: "smoke", window: [2, 1] })).rejects.toThrow(
      /window \(\[2, 1\]\) must have 0 <= from < to/,
    );
    await expect(calibrateRft({ scale: "smoke", pairs: [[0, 0.3]] })).rejects.toThrow(
      /too short for γ/,
    );
  });

  it("lifts a plate that would start inside a grain standing above the surface", () => {
    // a 4 cm × 4 cm × 4 mm plate centred at the origin; grains of radius 5 mm
    const sys = (pos: number[]) => ({
      count: pos.length / 3,
      positions: Float64Array.from(pos),
      radii: new Float64Array(pos.length / 3).fill(0.005),
    });
    const lift = (pos: number[], beta = 0) =>
      plateStartLift(sys(pos), 0, 0, 0.04, 0.004, beta, 0.0005);
    // under the plate, touching it by 1 mm (< r/2): left as it is
    expect(lift([0.01, 0, -0.002 - 0.004])).toBe(0);
    // its centre 1 mm below the underside: 4 mm deep; lifted by that plus the gap, once
    expect(lift([0.01, 0, -0.003])).toBeCloseTo(0.004 + 0.0005, 12);
    // beside the plate (beyond its edge by more than a radius): nothing to do
    expect(lift([0.03, 0, 0])).toBe(0);
    // a plate tilted by 45° (its line rising towards +x): its lowest edge, at u = −a/2 and
    // w = −t/2 in the plate's frame, is at x = −0.0127 m, z = −0.0156 m
    const h = Math.SQRT1_2, cx = h * (-0.02) - h * (-0.002), cz = h * (-0.02) + h * (-0.002);
    expect(lift([cx, 0, cz - 0.005], Math.PI / 4)).toBe(0); // hanging from the edge, touching
    // centred on the edge: r deep; lifted by r + gap, after which the tilted face is 3.9 mm away
    expect(lift([cx, 0, cz], Math.PI / 4)).toBeCloseTo(0.0055, 12);
  });
});
