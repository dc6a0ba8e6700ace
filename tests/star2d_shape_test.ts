import { describe, it } from "node:test";
import { expect } from "expect";
import { StarShape } from "../src/star2d/mod.ts";
import { STAR_PRESETS } from "../src/star2d/shape.ts";

describe("star2d StarShape", () => {
  it("lookup tables match the Fourier sum to 1e-6 (r_max = 1)", () => {
    for (const name of Object.keys(STAR_PRESETS) as (keyof typeof STAR_PRESETS)[]) {
      const s = StarShape.preset(name, { rMax: 1 });
      let er = 0, ed = 0;
      for (let k = 0; k < 5000; k++) {
        const a = (k * 2 * Math.PI) / 5000 + 0.000123 * k;
        er = Math.max(er, Math.abs(s.radiusLut(a) - s.radiusAt(a)));
        ed = Math.max(ed, Math.abs(s.derivativeLut(a) - s.derivativeAt(a)));
      }
      expect(er).toBeLessThan(1e-6);
      expect(ed).toBeLessThan(1e-5); // r′ of the 8-lobed shapes has |r‴| ≈ 170
      expect(s.rMax).toBeCloseTo(1, 12);
    }
  });

  it("mass properties of a circle and the reference equal-area sizes", () => {
    const c = StarShape.preset("circle", { rMax: 0.01 });
    expect(c.area).toBeCloseTo(Math.PI * 1e-4, 15);
    expect(c.polarMoment).toBeCloseTo(0.5 * Math.PI * 1e-8, 18);
    const sizes: Record<string, number> = { circle: 3.09, cross: 4.37, butterfly: 4.86, bat: 4.87 };
    for (const [name, R] of Object.entries(sizes)) {
      const s = StarShape.preset(name as "cross", { area: 30e-6 });
      expect(Math.abs(s.rMax * 1e3 - R)).toBeLessThan(0.01);
    }
    // An off-centre shape has its centroid away from the polar centre.
    const pear = StarShape.preset("pear");
    expect(Math.hypot(pear.centroidX, pear.centroidY)).toBeGreaterThan(1e-4);
  });

  it("nodes sample the boundary uniformly in angle", () => {
    const s = StarShape.preset("cross", { rMax: 1, nodes: 64 });
    expect(s.nodeX.length).toBe(64);
    const a = (2 * Math.PI * 5) / 64;
    expect(Math.hypot(s.nodeX[5], s.nodeY[5])).toBeCloseTo(s.radiusAt(a), 14);
  });

  it("rejects bad input with RangeErrors naming the value", () => {
    expect(() => new StarShape({ r0: -1 })).toThrow(/r0 \(-1\) must be > 0/);
    expect(() => new StarShape({ rMax: 0 })).toThrow(/rMax \(0\) must be > 0/);
    expect(() => new StarShape({ nodes: 0 })).toThrow(/nodes \(0\)/);
    expect(() => new StarShape({ nodes: 100, lutSize: 150 })).toThrow(/lutSize \(150\)/);
    expect(() => new StarShape({ a0: 1, cos: [0, 0, 0, 1] })).toThrow(
      /must stay > 0 everywhere.*1 \+ cos 4α/,
    );
    expect(() => new StarShape({ a0: 1, sin: [2] })).toThrow(RangeError);
    expect(() => new StarShape({ a0: NaN })).toThrow(/NaN/);
    expect(() => StarShape.preset("nope" as "cross")).toThrow(/name \(nope\)/);
  });

  it("random shapes are seeded and positive", () => {
    const a = StarShape.random(3), b = StarShape.random(3), c = StarShape.random(4);
    expect(a.radiusAt(0.7)).toBe(b.radiusAt(0.7));
    expect(a.radiusAt(0.7)).not.toBe(c.radiusAt(0.7));
    expect(a.rMin).toBeGreaterThan(0);
  });
});
