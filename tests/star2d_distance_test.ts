import { describe, it } from "node:test";
import { expect } from "expect";
import { distanceErrorMap, starDistance, StarShape } from "../src/star2d/mod.ts";
import {
  exactDistance,
  firstOrderDistance,
  firstOrderNormal,
  radialDistance,
} from "../src/star2d/distance.ts";

describe("star2d distances", () => {
  it("are exact on a circle", () => {
    const c = StarShape.preset("circle", { rMax: 1 });
    for (const p of [[0.3, 0.1], [1.5, -0.2], [-0.9, 0.05]]) {
      const e = exactDistance(c, p);
      expect(e).toBeCloseTo(Math.hypot(p[0], p[1]) - 1, 9);
      expect(firstOrderDistance(c, p)).toBeCloseTo(e, 9);
      expect(radialDistance(c, p)).toBeCloseTo(e, 9);
    }
  });

  it("first-order converges to the exact distance near the boundary", () => {
    const s = StarShape.preset("flower", { rMax: 1 });
    const n = new Float64Array(2);
    for (const a of [0.1, 0.6, 1.3, 2.0, 4.4]) {
      const r = s.radiusAt(a), bx = r * Math.cos(a), by = r * Math.sin(a);
      firstOrderNormal(s, [bx, by], { out: n });
      const errs: number[] = [];
      for (const h of [1e-2, 1e-3, 1e-4]) {
        for (const sgn of [-1, 1]) {
          const p = [bx + sgn * h * n[0], by + sgn * h * n[1]];
          const e = exactDistance(s, p);
          errs.push(Math.abs(firstOrderDistance(s, p) - e) / Math.abs(e));
        }
      }
      expect(Math.max(errs[4], errs[5])).toBeLessThan(2e-3);
      expect(Math.max(errs[4], errs[5])).toBeLessThanOrEqual(Math.max(errs[0], errs[1]) + 1e-9);
    }
  });

  it("reproduces the paper's comparison within 0.01·r_max of the boundary", () => {
    // The flower 2 + sin 6α (r_max = 1): radial error up to 2.7 as in the paper.
    const s = StarShape.preset("flower", { rMax: 1 });
    const m = distanceErrorMap(s, { resolution: 180, band: 0.01 });
    let foInside = 0;
    for (let k = 0; k < m.count; k++) {
      if (m.exact[k] < 0) foInside = Math.max(foInside, m.firstOrderError[k]);
    }
    expect(m.count).toBeGreaterThan(500);
    expect(foInside).toBeLessThan(0.17); // overlaps are measured inside the other grain
    expect(m.maxRadialError).toBeGreaterThan(1);
    expect(m.maxFirstOrderError).toBeLessThan(0.25); // outside, at the bottom of the valleys
  });

  it("supports poses and the lookup tables", () => {
    const s = StarShape.preset("cross", { rMax: 1 });
    const pose = { x: 2, y: -1, angle: 0.7 };
    const c = Math.cos(0.7), sn = Math.sin(0.7);
    const q = [0.5, 0.2], p = [2 + c * q[0] - sn * q[1], -1 + sn * q[0] + c * q[1]];
    expect(firstOrderDistance(s, p, { pose })).toBeCloseTo(firstOrderDistance(s, q), 12);
    expect(firstOrderDistance(s, q, { lookup: true })).toBeCloseTo(firstOrderDistance(s, q), 6);
    expect(() => radialDistance(s, [NaN, 0])).toThrow(RangeError);
  });
});

describe("star2d implicit function", () => {
  it("has the analytic gradient of f (checked by finite differences)", async () => {
    const { implicitGradient } = await import("../src/star2d/distance.ts");
    const s = StarShape.preset("butterfly", { rMax: 1 });
    const pose = { x: 0.3, y: -0.2, angle: 1.1 };
    for (const p of [[0.9, 0.4], [-0.2, 0.7], [0.1, -0.95]]) {
      const g = implicitGradient(s, p, { pose });
      const h = 1e-6;
      const fx = (radialDistance(s, [p[0] + h, p[1]], { pose }) -
        radialDistance(s, [p[0] - h, p[1]], { pose })) / (2 * h);
      const fy = (radialDistance(s, [p[0], p[1] + h], { pose }) -
        radialDistance(s, [p[0], p[1] - h], { pose })) / (2 * h);
      expect(g[0]).toBeCloseTo(fx, 6);
      expect(g[1]).toBeCloseTo(fy, 6);
    }
  });
});

describe("starDistance", () => {
  it("is each method, in the shape's frame or posed", () => {
    const cross = StarShape.preset("cross", { rMax: 1 });
    const pose = { x: 0.4, y: -0.2, angle: 0.7 };
    for (const p of [[0.9, 0.05], [0.2, 0.6], [1.4, -0.3]]) {
      expect(starDistance(cross, p)).toBe(firstOrderDistance(cross, p));
      expect(starDistance(cross, p, { method: "radial" })).toBe(radialDistance(cross, p));
      expect(starDistance(cross, p, { method: "exact" })).toBe(exactDistance(cross, p));
      expect(starDistance(cross, p, { method: "radial", lookup: true, pose }))
        .toBe(radialDistance(cross, p, { lookup: true, pose }));
      expect(starDistance(cross, p, { method: "exact", pose })).toBe(
        exactDistance(cross, p, { pose }),
      );
    }
    // a circle of radius 1 centred at (3, 0): every method gives ‖p − c‖ − 1
    const circle = StarShape.preset("circle", { rMax: 1 });
    for (const method of ["radial", "firstOrder", "exact"] as const) {
      expect(starDistance(circle, [5, 0], { method, pose: { x: 3 } })).toBeCloseTo(1, 9);
    }
  });

  it("rejects an unknown method, lookup with exact, and unknown keys", () => {
    const c = StarShape.preset("circle", { rMax: 1 });
    expect(() => starDistance(c, [1, 0], { method: "taubin" as never })).toThrow(
      /starDistance: options.method is "taubin", must be one of radial, firstOrder, exact/,
    );
    expect(() => starDistance(c, [1, 0], { method: "exact", lookup: true })).toThrow(
      /starDistance: options.lookup is true; the exact distance has no lookup tables/,
    );
    expect(() => starDistance(c, [1, 0], { mode: "exact" } as never)).toThrow(
      /unknown option "mode"/,
    );
    expect(() => starDistance(c, [Number.NaN, 0])).toThrow(/point .* must be two finite numbers/);
  });
});
