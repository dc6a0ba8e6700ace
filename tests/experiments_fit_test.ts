import { describe, it } from "node:test";
import { expect } from "expect";
import {
  angleOfRepose,
  brazilNut,
  forceDistribution,
  hopperDischarge,
  janssenEffect,
  restitutionVsSpeed,
  slotHopper,
  starClogging,
  starColumnCollapse,
  starForceDistribution,
} from "../src/experiments/mod.ts";
import {
  beverlooFit,
  exponentialTail,
  janssenFit,
  linearFit,
  minimize1d,
  originFit,
  powerLawFit,
} from "../src/experiments/fit.ts";
import { flankAngles } from "../src/experiments/repose.ts";
import { normaliseBySlab } from "../src/experiments/force_distribution.ts";
import { resolveGrains, surfaceProfile } from "../src/experiments/common.ts";
import { Rng } from "../src/math/rng.ts";

describe("experiments: fitting helpers against exact answers", () => {
  it("linearFit recovers a line and its slope error from noise of known size", () => {
    const rng = new Rng(11);
    const x = Array.from({ length: 2000 }, (_, i) => i / 100);
    const y = x.map((v) => 3 - 0.5 * v + 0.1 * rng.normal());
    const f = linearFit(x, y);
    expect(Math.abs(f.slope + 0.5)).toBeLessThan(4 * f.slopeError);
    // σ/√(Σ(x−x̄)²) with σ = 0.1
    let sxx = 0;
    const mx = x.reduce((a, b) => a + b) / x.length;
    for (const v of x) sxx += (v - mx) ** 2;
    expect(f.slopeError / (0.1 / Math.sqrt(sxx))).toBeCloseTo(1, 1);
    expect(f.rms).toBeCloseTo(0.1, 2);
  });

  it("originFit: the secant through zero, against the slope of a line with an intercept", () => {
    const rng = new Rng(5);
    const x = Array.from({ length: 1000 }, (_, i) => 0.01 + i / 500);
    // through zero: both fits find the slope
    const y0 = x.map((v) => 0.7 * v + 0.01 * rng.normal());
    expect(originFit(x, y0).slope).toBeCloseTo(0.7, 2);
    expect(originFit(x, y0).r2).toBeGreaterThan(0.99);
    // with an intercept c: the secant is slope + c·Σx/Σx², above the slope for c > 0
    const y1 = x.map((v) => 0.7 * v + 0.3);
    let sx = 0, sxx = 0;
    for (const v of x) sx += v, sxx += v * v;
    expect(originFit(x, y1).slope).toBeCloseTo(0.7 + (0.3 * sx) / sxx, 12);
    expect(linearFit(x, y1).slope).toBeCloseTo(0.7, 12);
    expect(originFit(x, y1).r2).toBeLessThan(1);
    expect(() => originFit([0, 0], [1, 2])).toThrow(/all x values are 0/);
    expect(() => originFit([1, 2], [1])).toThrow(RangeError);
    expect(() => originFit([1, NaN], [1, 2])).toThrow(/must be finite/);
  });

  it("weighted linearFit ignores zero-weight outliers", () => {
    const f = linearFit([0, 1, 2, 3], [0, 2, 4, 100], [1, 1, 1, 0]);
    expect(f.slope).toBeCloseTo(2, 12);
    expect(f.intercept).toBeCloseTo(0, 12);
  });

  it("powerLawFit recovers t ∝ v^(−1/5)", () => {
    const v = [0.01, 0.1, 1, 10];
    const f = powerLawFit(v, v.map((s) => 2.94 * s ** -0.2));
    expect(f.exponent).toBeCloseTo(-0.2, 12);
    expect(f.prefactor).toBeCloseTo(2.94, 10);
  });

  it("minimize1d finds the minimum of a smooth function", () => {
    expect(minimize1d((x) => Math.cosh(x - 1.25), -5, 5)).toBeCloseTo(1.25, 7);
  });

  it("beverlooFit recovers C, k and the exponent of exact 3D and 2D laws", () => {
    const d = 0.002, rho = 1550, D = [4, 6, 8, 10, 12].map((x) => x * d);
    const W3 = D.map((x) => 0.6 * rho * Math.sqrt(9.81) * (x - 1.5 * d) ** 2.5);
    const f3 = beverlooFit(D, W3, { bulkDensity: rho, diameter: d });
    expect(f3.C).toBeCloseTo(0.6, 9);
    expect(f3.k).toBeCloseTo(1.5, 9);
    expect(f3.exponent).toBeCloseTo(2.5, 3);
    expect(f3.kFree).toBeCloseTo(1.5, 2);
    const W2 = D.map((x) => 1.1 * rho * Math.sqrt(9.81) * (x - 1.2 * d) ** 1.5);
    const f2 = beverlooFit(D, W2, { bulkDensity: rho, diameter: d, dimension: 2 });
    expect([f2.C, f2.k, f2.expected]).toEqual([
      expect.closeTo(1.1, 9),
      expect.closeTo(1.2, 9),
      1.5,
    ]);
  });

  it("beverlooFit's propagated exponent error matches the scatter of noisy repeats", () => {
    // rates with 2 % log-normal noise over D/d = 4–12: the free exponent's spread over 300
    // seeded repeats against the linear propagation of one fit
    const d = 0.01, rho = 1500, D = [4, 5, 6, 8, 10, 12].map((x) => x * d);
    const exact = D.map((x) => 0.58 * rho * Math.sqrt(9.81) * (x - 1.4 * d) ** 2.5);
    const sig = D.map(() => 0.02), rng = new Rng(5);
    const one = beverlooFit(D, exact, { bulkDensity: rho, diameter: d, relativeErrors: sig });
    expect(one.exponent).toBeCloseTo(2.5, 3);
    let s1 = 0, s2 = 0;
    const n = 300;
    for (let t = 0; t < n; t++) {
      const W = exact.map((w) => w * Math.exp(0.02 * rng.normal()));
      const e = beverlooFit(D, W, { bulkDensity: rho, diameter: d }).exponent;
      s1 += e, s2 += e * e;
    }
    const spread = Math.sqrt(s2 / n - (s1 / n) ** 2);
    expect(Math.abs(s1 / n - 2.5)).toBeLessThan(0.03);
    expect(one.exponentError / spread).toBeGreaterThan(0.8);
    expect(one.exponentError / spread).toBeLessThan(1.25);
    expect(Number.isNaN(beverlooFit(D, exact, { bulkDensity: rho, diameter: d }).exponentError))
      .toBe(true);
    expect(() => beverlooFit(D, exact, { bulkDensity: rho, diameter: d, relativeErrors: [0.1] }))
      .toThrow(/relativeErrors has 1 values for 6 points/);
  });

  it("janssenFit recovers the saturation mass; exponentialTail recovers β", () => {
    const M = [0.05, 0.1, 0.2, 0.3, 0.5, 0.8];
    expect(janssenFit(M, M.map((m) => 0.25 * (1 - Math.exp(-m / 0.25)))).saturationMass)
      .toBeCloseTo(0.25, 6);
    const rng = new Rng(4);
    const v = Array.from({ length: 50000 }, () => -Math.log(1 - rng.next()) / 1.7);
    const t = exponentialTail(v, { from: 0.5, binWidth: 0.1 });
    expect(Math.abs(t.beta - 1.7)).toBeLessThan(3 * t.betaError + 0.02);
    let area = 0;
    for (const p of t.density) area += p * 0.1;
    expect(area).toBeCloseTo(1, 2); // a probability density (a few samples lie beyond max)
  });

  it("normaliseBySlab divides each force by its slab's mean and drops the top", () => {
    const f = normaliseBySlab([2, 4, 6, 20, 40, 1], [0, 0.5, 0.9, 1.2, 1.8, 5], 1, 3);
    expect([...f]).toEqual([0.5, 1, 1.5, 2 / 3, 4 / 3]);
  });

  it("surfaceProfile and flankAngles measure a 30° heap", () => {
    const xs: number[] = [], radii: number[] = [];
    const t = Math.tan(Math.PI / 6);
    for (let x = -20; x <= 20; x += 0.25) xs.push(x, 10 * t - Math.abs(x) * t);
    for (let k = 0; k < xs.length / 2; k++) radii.push(0);
    const p = surfaceProfile(xs, 2, 0, 1, radii, radii.length, -20, 20, 1);
    const [l, r] = flankAngles(p, 0);
    expect(l).toBeCloseTo(30, 0);
    expect(r).toBeCloseTo(30, 0);
  });
});

describe("experiments: bad options throw naming the function, option and rule", () => {
  it("rejects unknown keys with the nearest valid one", () => {
    expect(() => hopperDischarge({ orifice: [4, 5, 6] } as never)).toThrow(
      /hopperDischarge: unknown option "orifice".*did you mean "orifices"/,
    );
    expect(() => brazilNut({ gamma: [2] } as never)).toThrow(/did you mean "gammas"/);
    expect(() => starClogging({ friction: 0.5 } as never)).toThrow(/starClogging: unknown option/);
  });

  it("rejects bad values before building anything", () => {
    expect(() => hopperDischarge({ orifices: [4, 5] })).toThrow(/at least 3 needed/);
    expect(() => hopperDischarge({ orifices: [1, 5, 6] })).toThrow(/must be >= 2/);
    expect(() => hopperDischarge({ orifices: [4, 5, 6], siloWidth: 7 })).toThrow(/siloWidth/);
    expect(() => janssenEffect({ batches: 1 })).toThrow(/batches \(1\) must be an integer/);
    expect(() => angleOfRepose({ rollingFrictions: [-0.1] })).toThrow(
      /rollingFrictions\[0\] \(-0.1\) must be >= 0/,
    );
    expect(() => brazilNut({ intruder: 9 })).toThrow(/intruder/);
    expect(() => forceDistribution({ boxWidth: 1 })).toThrow(/boxWidth/);
    expect(() => starForceDistribution({ grains: 0 })).toThrow(/grains/);
    expect(() => starColumnCollapse({ duration: -1 })).toThrow(/duration \(-1\) must be > 0/);
    expect(() => restitutionVsSpeed({ speeds: [0.1, -1] })).toThrow(/speeds\[1\]/);
    expect(() => restitutionVsSpeed({ scale: "huge" as never })).toThrow(/scale/);
    expect(() => resolveGrains("x", { restitution: 0 })).toThrow(/restitution \(0\) must be > 0/);
    expect(() => resolveGrains("x", { softness: 0.2 })).toThrow(/softness/);
    expect(() => hopperDischarge(null as never)).toThrow(TypeError);
    expect(() => hopperDischarge({ orifices: [4, 5, 6], drainOrifice: 1 })).toThrow(/drainOrifice/);
    expect(() => slotHopper({ slots: [1, 5, 6] })).toThrow(/slotHopper: slots .* must be >= 2/);
    expect(() => slotHopper({ slots: [4, 5, 20], siloPerSlot: 0 })).toThrow(
      /the silo \(20, from siloWidth and siloPerSlot\) must be >= the slot \+ 4 \(24\)/,
    );
    expect(() => slotHopper({ siloPerSlot: -1 })).toThrow(/siloPerSlot \(-1\) must be >= 0/);
    expect(() => slotHopper({ slot: [4] } as never)).toThrow(/did you mean "slots"/);
  });
});
