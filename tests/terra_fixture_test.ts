/**
 * The cached DEM calibration (`tests/fixtures/rft_dem.arrow` and `rft_dem_calibration.json`,
 * written by `scripts/gen_rft_fixture.ts`) that the terradynamics notebook, example and tests
 * read instead of a quarter-hour calibration: it must be what the calibration gives today.
 * Two of its pairs (a plate pushed straight down, the sweep path; a flat plate dragged
 * sideways at depth, the hold path) are run again on a fresh bed of the same grains and must
 * equal the cached samples; the table must be the samples on the 13 × 13 grid, with the
 * medium in its metadata.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { calibrateRft } from "../src/experiments/mod.ts";
import { cachedCalibration, cachedRftTable } from "./rft_fixture.ts";

const cached = cachedCalibration;
const s = cached.samples;

describe("the cached DEM calibration of RFT", () => {
  it("is a 13 × 13 measured grid of the ci grains", async () => {
    const table = await cachedRftTable();
    expect([table.beta.length, table.gamma.length]).toEqual([13, 13]);
    expect(table.source).toBe("dem");
    expect(table.grainDiameter).toBe(0.01);
    expect(table.friction).toBe(0.5);
    expect(table.intrusionSpeed).toBe(0.1);
    expect(table.volumeFraction).toBe(cached.volumeFraction);
    // rows β = −π/2 … 75° are the runs; β = π/2 is the same plate, copied
    for (let k = 0; k < s.beta.length; k++) {
      expect(table.alphaZAt(s.beta[k], s.gamma[k])).toBe(s.alphaZ[k]);
      expect(table.alphaXAt(s.beta[k], s.gamma[k])).toBe(s.alphaX[k]);
    }
    for (let j = 0; j < 13; j++) {
      expect(table.alphaZ[12 * 13 + j]).toBe(table.alphaZ[j]);
    }
    expect(s.beta.length).toBe(156);
    // the quasi-static check (the grid's first pair, β = γ = −π/2: an edge-on plate pulled
    // straight up): half the speed changes α_z by less than 5 %
    expect(cached.quasiStatic.difference).toBeLessThan(0.05);
  });

  it("equals a fresh calibration of two of its pairs", async () => {
    const H = Math.PI / 2;
    const pick = (b: number, g: number) =>
      s.beta.findIndex((x: number, k: number) =>
        Math.abs(x - b) < 1e-12 && Math.abs(s.gamma[k] - g) < 1e-12
      );
    const idx = [pick(0, H), pick(0, 0)];
    expect(idx.every((k) => k >= 0)).toBe(true);
    // the ci preset has the full preset's grains, bed, plate and speed; only the pairs differ
    const c = await calibrateRft({
      scale: "ci",
      pairs: idx.map((k) => [s.beta[k], s.gamma[k]] as [number, number]),
      quasiStatic: false,
    });
    expect(c.grains).toBe(cached.grains);
    idx.forEach((k, p) => {
      expect(c.samples.alphaZ[p]).toBeCloseTo(s.alphaZ[k], 6);
      expect(c.samples.alphaX[p]).toBeCloseTo(s.alphaX[k], 6);
      expect(c.samples.r2Z[p]).toBeCloseTo(s.r2Z[k], 9);
    });
  });
});
