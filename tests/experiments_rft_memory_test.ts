/**
 * The RFT pressure memory calibrated from the DEM: the exponential-decay fit on synthetic data,
 * the smoke calibration (a plate pushed down then slid keeps part of its pressure and loses it
 * over a few diameters; pulled up, it loses it faster), the options' checks, and the cached ci
 * calibration (`tests/fixtures/rft_dem_memory.json`) against a fresh one.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { calibrateRftMemory } from "../src/experiments/mod.ts";
import { exponentialDecayFit } from "../src/experiments/decay_fit.ts";
import { cachedMemory, cachedRftTable } from "./rft_fixture.ts";

describe("exponentialDecayFit", () => {
  const x = Array.from({ length: 60 }, (_, i) => 0.01 * (i + 0.5));
  const exact = x.map((v) => 800 + (5000 - 800) * Math.exp(-v / 0.017));

  it("recovers ℓ, p0 and p∞ of an exact exponential, with R² = 1", () => {
    const f = exponentialDecayFit(x, exact, { lengths: [0.0005, 0.2] });
    expect(Math.abs(f.length / 0.017 - 1)).toBeLessThan(1e-6);
    expect(Math.abs(f.initial / 5000 - 1)).toBeLessThan(1e-6);
    expect(Math.abs(f.asymptote / 800 - 1)).toBeLessThan(1e-6);
    expect(f.r2).toBeCloseTo(1, 10);
    expect(f.n).toBe(60);
    // a fixed asymptote of 0
    const g = exponentialDecayFit(x, x.map((v) => 3 * Math.exp(-v / 0.2)), { asymptote: 0 });
    expect(Math.abs(g.length / 0.2 - 1)).toBeLessThan(1e-6);
    expect(Math.abs(g.initial / 3 - 1)).toBeLessThan(1e-6);
    expect(g.asymptote).toBe(0);
    expect(g.r2).toBeCloseTo(1, 10);
  });

  it("gives R² < 1 with noise and still finds the decay", () => {
    let seed = 7;
    const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647 - 0.5) * 400;
    const f = exponentialDecayFit(x, exact.map((v) => v + noise()), { lengths: [0.0005, 0.2] });
    expect(f.r2).toBeLessThan(1);
    expect(f.r2).toBeGreaterThan(0.9);
    expect(f.length).toBeGreaterThan(0.012);
    expect(f.length).toBeLessThan(0.024);
    expect(f.rms).toBeGreaterThan(0);
  });

  it("names bad input", () => {
    expect(() => exponentialDecayFit([0, 1], [1, 2])).toThrow(/at least 3/);
    expect(() => exponentialDecayFit([1, 1, 1], [1, 2, 3])).toThrow(/all 3 x are equal/);
    expect(() => exponentialDecayFit([0, 1, 2], [1, NaN, 3])).toThrow(/point 1/);
    expect(() => exponentialDecayFit([0, 1, 2], [3, 2, 1], { lengths: [1, 0.5] }))
      .toThrow(/lengths \(\[1, 0.5\]\) must have 0 < min < max/);
  });
});

describe("calibrateRftMemory (smoke)", () => {
  it("measures the memory of a slide and the faster loss of a rise", async () => {
    const r = await calibrateRftMemory({ scale: "smoke" });
    const d = r.medium.grainDiameter, s = r.slides[0];
    console.log(
      `  calibrateRftMemory smoke: ${r.grains} grains; slide ℓ ${(s.length / d).toFixed(2)} d ` +
        `(R² ${s.r2.toFixed(2)}, retained ${s.retained.toFixed(2)}); rise ℓ_eff ` +
        `${(r.rise.effectiveLength / d).toFixed(2)} d (R² ${r.rise.r2.toFixed(2)}); ` +
        `ℓ_sep ${(r.separation / d).toFixed(2)} d`,
    );
    expect(r.slides.length).toBe(1);
    expect(s.approach).toBeCloseTo(Math.PI / 2, 12);
    expect(s.length / d).toBeGreaterThan(0.3);
    expect(s.length / d).toBeLessThan(10);
    expect(s.retained).toBeGreaterThan(0);
    expect(s.retained).toBeLessThan(1.5);
    const mean = (a: Float64Array) => a.reduce((x, y) => x + y, 0) / a.length;
    expect(mean(s.p.subarray(0, 5))).toBeGreaterThan(1.5 * mean(s.p.subarray(s.p.length - 5)));
    expect(r.separation).toBeGreaterThan(0);
    expect(r.separation).toBeLessThan(r.length);
    expect(r.length).toBe(s.length);
    expect(r.memory).toEqual({ length: r.length, separation: r.separation });
    expect(r.medium.source).toBe("dem");
    expect(d).toBe(0.01);
    const numbers = [
      r.length,
      r.separation,
      r.grains,
      r.rise.effectiveLength,
      r.rise.p0,
      r.rise.r2,
      ...r.rise.s,
      ...r.rise.p,
      r.medium.friction,
      r.medium.volumeFraction,
      r.medium.intrusionSpeed,
      s.pushPressure,
      s.p0,
      s.pInf,
      s.r2,
      ...s.x,
      ...s.p,
    ];
    for (const v of numbers) expect(Number.isFinite(v)).toBe(true);
  });

  it("names bad options", async () => {
    await expect(calibrateRftMemory({ scale: "smoke", depth: -1 })).rejects.toThrow(
      /depth \(-1\) must be > 0/,
    );
    await expect(calibrateRftMemory({ scale: "smoke", approaches: [0] })).rejects.toThrow(
      /approaches\[0\] \(0\) must be in \(0, 90\]/,
    );
    await expect(calibrateRftMemory({ scale: "smoke", approaches: [45, 95] })).rejects.toThrow(
      /approaches\[1\] \(95\) must be in \(0, 90\]/,
    );
    await expect(calibrateRftMemory({ scale: "smoke", plateSide: 3 } as never)).rejects.toThrow(
      /unknown option "plateSide".*did you mean "plateSize"/,
    );
    // a bed too big for one system is named before anything is poured
    await expect(calibrateRftMemory({ scale: "smoke", bed: [1e9, 10, 9] })).rejects.toThrow(
      /calibrateRftMemory: bed \(1000000000 × 10 × 9 d\) would hold about/,
    );
    await expect(calibrateRftMemory({ scale: "smoke", slide: 20 })).rejects.toThrow(
      /bed \(bed\[0\] = 16.0 d long\) is too short for a slide of 20.0 d/,
    );
    await expect(calibrateRftMemory({ scale: "smoke", rise: 1.5 })).rejects.toThrow(
      /rise \(1.5\) must be in \[0.06, depth − 0.1\]/,
    );
  });
});

describe("calibrateRftMemory (ci): the cached calibration", () => {
  it("equals a fresh calibration, on the cached table's grains", async () => {
    const c = await calibrateRftMemory({ scale: "ci" });
    // scripts/gen_rft_memory_fixture.ts rewrites the fixture when the calibration changes
    expect(c.memory).toEqual(cachedMemory.memory);
    expect(c.grains).toBe(cachedMemory.grains);
    expect(c.slides.map((s) => s.length)).toEqual(cachedMemory.slides.map((s) => s.length));
    expect(c.rise.effectiveLength).toBe(cachedMemory.rise.effectiveLength);
    const table = await cachedRftTable();
    expect(c.medium.grainDiameter).toBe(table.grainDiameter);
    expect(c.medium.friction).toBe(table.friction);
    // the law's shape: the slides keep their pressure over one to two diameters, fit well, and a
    // rise loses it within a third of one
    const d = c.medium.grainDiameter;
    for (const s of c.slides) {
      expect(s.length / d).toBeGreaterThan(1);
      expect(s.length / d).toBeLessThan(2);
      expect(s.r2).toBeGreaterThan(0.9);
    }
    expect(c.separation / d).toBeLessThan(0.5);
  });
});
