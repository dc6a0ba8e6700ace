import { describe, it } from "node:test";
import { expect } from "expect";
import {
  boxClosest,
  boxHalfExtents,
  boxMassProperties,
  capsuleClosest,
  capsuleHalfExtents,
  capsuleMassProperties,
  CLOSEST,
  cylinderClosest,
  cylinderHalfExtents,
  cylinderMassProperties,
  sphereClosest,
  sphereHalfExtents,
  sphereMassProperties,
} from "../src/sphere3d/bodies/shapes.ts";
import { Rng } from "../src/math/rng.ts";

type Closest = (x: number, y: number, z: number, out: Float64Array) => number;

/** Points on a sphere of radius r about (0, 0, cz), Fibonacci lattice; keep those `keep` says. */
function fibonacci(n: number, r: number, cz: number, keep: (z: number) => boolean): number[] {
  const pts: number[] = [];
  const golden = Math.PI * (3 - Math.sqrt(5));
  for (let k = 0; k < n; k++) {
    const z = 1 - (2 * (k + 0.5)) / n, s = Math.sqrt(1 - z * z), a = golden * k;
    if (keep(r * z)) pts.push(r * s * Math.cos(a), r * s * Math.sin(a), cz + r * z);
  }
  return pts;
}

/** A grid over [a0, a1] with about `step` spacing, both ends included. */
function ticks(a0: number, a1: number, step: number): number[] {
  const n = Math.max(1, Math.ceil((a1 - a0) / step));
  return Array.from({ length: n + 1 }, (_, k) => a0 + ((a1 - a0) * k) / n);
}

/** Points of a disc of radius r at height z: rings (the rim included) ≈ step apart. */
function disc(r: number, z: number, step: number, pts: number[]): void {
  for (const rho of ticks(0, r, step)) {
    const m = Math.max(1, Math.ceil((2 * Math.PI * rho) / step));
    for (let k = 0; k < m; k++) {
      const a = (2 * Math.PI * k) / m;
      pts.push(rho * Math.cos(a), rho * Math.sin(a), z);
    }
  }
}

/** Side of a cylinder (radius r, z in [z0, z1]) sampled ≈ step apart. */
function side(r: number, z0: number, z1: number, step: number, pts: number[]): void {
  const m = Math.ceil((2 * Math.PI * r) / step);
  for (const z of ticks(z0, z1, step)) {
    for (let k = 0; k < m; k++) {
      const a = (2 * Math.PI * k) / m;
      pts.push(r * Math.cos(a), r * Math.sin(a), z);
    }
  }
}

interface Shape {
  name: string;
  closest: Closest;
  /** Dense surface samples, stride 3. */
  samples: Float64Array;
  /** Largest distance from a surface point to its nearest sample (bound). */
  res: number;
  /** Strictly inside (true) / strictly outside (false), independent of closest(). */
  inside: (x: number, y: number, z: number) => boolean;
  /** How far q is from lying on the surface (0 on it). */
  offSurface: (x: number, y: number, z: number) => number;
  /** Half extents of the bounding box. */
  half: number[];
}

const STEP = 0.01;

function sphere(): Shape {
  const r = 0.7;
  return {
    name: "sphere",
    closest: (x, y, z, o) => sphereClosest(r, x, y, z, o),
    samples: Float64Array.from(fibonacci(60000, r, 0, () => true)),
    res: 0.012,
    inside: (x, y, z) => Math.hypot(x, y, z) < r,
    offSurface: (x, y, z) => Math.abs(Math.hypot(x, y, z) - r),
    half: [r, r, r],
  };
}

function box(): Shape {
  const h = [1, 0.6, 0.4];
  const pts: number[] = [];
  for (let a = 0; a < 3; a++) {
    const b = (a + 1) % 3, c = (a + 2) % 3;
    for (const s of [-1, 1]) {
      for (const u of ticks(-h[b], h[b], STEP)) {
        for (const v of ticks(-h[c], h[c], STEP)) {
          const p = [0, 0, 0];
          p[a] = s * h[a], p[b] = u, p[c] = v;
          pts.push(...p);
        }
      }
    }
  }
  return {
    name: "box",
    closest: (x, y, z, o) => boxClosest(h[0], h[1], h[2], x, y, z, o),
    samples: Float64Array.from(pts),
    res: STEP,
    inside: (x, y, z) => Math.abs(x) < h[0] && Math.abs(y) < h[1] && Math.abs(z) < h[2],
    offSurface: (x, y, z) => {
      const m = Math.max(Math.abs(x) - h[0], Math.abs(y) - h[1], Math.abs(z) - h[2]);
      return Math.abs(m);
    },
    half: h,
  };
}

function capsule(): Shape {
  const r = 0.35, hh = 0.5;
  const pts: number[] = [];
  side(r, -hh, hh, STEP, pts);
  pts.push(...fibonacci(20000, r, hh, (z) => z >= 0));
  pts.push(...fibonacci(20000, r, -hh, (z) => z <= 0));
  const axis = (x: number, y: number, z: number) =>
    Math.hypot(x, y, z - Math.min(hh, Math.max(-hh, z)));
  return {
    name: "capsule",
    closest: (x, y, z, o) => capsuleClosest(r, hh, x, y, z, o),
    samples: Float64Array.from(pts),
    res: 0.012,
    inside: (x, y, z) => axis(x, y, z) < r,
    offSurface: (x, y, z) => Math.abs(axis(x, y, z) - r),
    half: [r, r, hh + r],
  };
}

function cylinder(): Shape {
  const r = 0.45, hh = 0.3;
  const pts: number[] = [];
  side(r, -hh, hh, STEP, pts);
  disc(r, hh, STEP, pts);
  disc(r, -hh, STEP, pts);
  return {
    name: "cylinder",
    closest: (x, y, z, o) => cylinderClosest(r, hh, x, y, z, o),
    samples: Float64Array.from(pts),
    res: STEP,
    inside: (x, y, z) => Math.hypot(x, y) < r && Math.abs(z) < hh,
    offSurface: (x, y, z) => Math.abs(Math.max(Math.hypot(x, y) - r, Math.abs(z) - hh)),
    half: [r, r, hh],
  };
}

const SHAPES = [sphere(), box(), capsule(), cylinder()];

function bruteDistance(s: Float64Array, x: number, y: number, z: number): number {
  let best = Infinity;
  for (let k = 0; k < s.length; k += 3) {
    const dx = x - s[k], dy = y - s[k + 1], dz = z - s[k + 2];
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 < best) best = d2;
  }
  return Math.sqrt(best);
}

/** Check one query against the invariants and the brute-force distance; returns d. */
function check(shape: Shape, x: number, y: number, z: number, out: Float64Array): number {
  const ret = shape.closest(x, y, z, out);
  const [qx, qy, qz, nx, ny, nz, d] = out;
  const ctx = `${shape.name} at (${x}, ${y}, ${z})`;
  expect({ ctx, ret }).toEqual({ ctx, ret: d });
  expect({ ctx, unit: Math.abs(Math.hypot(nx, ny, nz) - 1) < 1e-14 }).toEqual({ ctx, unit: true });
  // p = q + d n
  const err = Math.max(
    Math.abs(qx + d * nx - x),
    Math.abs(qy + d * ny - y),
    Math.abs(qz + d * nz - z),
  );
  expect({ ctx, err: err < 1e-14 }).toEqual({ ctx, err: true });
  expect({ ctx, onSurface: shape.offSurface(qx, qy, qz) < 1e-14 }).toEqual({
    ctx,
    onSurface: true,
  });
  // |d| is the true distance: q is on the surface, and no sample is nearer than |d|
  const brute = bruteDistance(shape.samples, x, y, z);
  expect({ ctx, lower: Math.abs(d) <= brute + 1e-12 }).toEqual({ ctx, lower: true });
  expect({ ctx, upper: brute <= Math.abs(d) + shape.res }).toEqual({ ctx, upper: true });
  if (shape.inside(x, y, z)) expect({ ctx, d: d < 0 }).toEqual({ ctx, d: true });
  else if (shape.offSurface(x, y, z) > 1e-12) expect({ ctx, d: d > 0 }).toEqual({ ctx, d: true });
  return d;
}

describe("bodies/shapes: closest point, normal and signed distance vs brute force", () => {
  const out = new Float64Array(CLOSEST.length);

  for (const shape of SHAPES) {
    it(`${shape.name}: random points outside and inside`, () => {
      const rng = new Rng(7);
      let inside = 0, outside = 0, maxGap = 0;
      for (let k = 0; k < 300; k++) {
        const x = rng.uniform(-1.6, 1.6) * shape.half[0];
        const y = rng.uniform(-1.6, 1.6) * shape.half[1];
        const z = rng.uniform(-1.6, 1.6) * shape.half[2];
        const d = check(shape, x, y, z, out);
        if (d < 0) inside++;
        else outside++;
        maxGap = Math.max(maxGap, bruteDistance(shape.samples, x, y, z) - Math.abs(d));
      }
      // both kinds were exercised; the brute force agrees to well within its resolution
      expect(inside).toBeGreaterThan(30);
      expect(outside).toBeGreaterThan(30);
      expect(maxGap).toBeLessThan(shape.res);
    });

    it(`${shape.name}: grain centres just inside and just outside the surface`, () => {
      const rng = new Rng(11);
      for (let k = 0; k < 200; k++) {
        // a random surface sample pushed along the line from the centre by ±(0..0.05)
        const s = 3 * Math.floor(rng.uniform(0, shape.samples.length / 3));
        const sx = shape.samples[s], sy = shape.samples[s + 1], sz = shape.samples[s + 2];
        const f = 1 + rng.uniform(-0.05, 0.05);
        check(shape, sx * f, sy * f, sz * f, out);
      }
    });
  }

  it("sphere: the centre gets n = (0, 0, 1)", () => {
    expect(sphereClosest(0.7, 0, 0, 0, out)).toBe(-0.7);
    expect([...out]).toEqual([0, 0, 0.7, 0, 0, 1, -0.7]);
  });

  it("box: faces, edges and corners outside; nearest face inside, ties lowest axis and + first", () => {
    const shape = SHAPES[1];
    const [hx, hy, hz] = shape.half;
    // beyond a corner: q is the corner
    check(shape, 1.3, -0.9, 0.7, out);
    expect([out[0], out[1], out[2]]).toEqual([hx, -hy, hz]);
    // beyond an edge (x, y out, z within): q on the edge
    check(shape, -1.2, 0.8, 0.1, out);
    expect([out[0], out[1], out[2], out[5]]).toEqual([-hx, hy, 0.1, 0]);
    // beyond a face
    check(shape, 0.2, 0.1, 0.9, out);
    expect([...out]).toEqual([0.2, 0.1, hz, 0, 0, 1, 0.9 - hz]);
    // exactly on an edge and a corner: d = 0
    for (const p of [[hx, hy, 0.1], [hx, -hy, -hz], [0.3, 0.2, hz]]) {
      expect(check(shape, p[0], p[1], p[2], out)).toBe(0);
    }
    // inside: the shallowest face; centre → ties: z faces (0.4) win, + before −
    boxClosest(hx, hy, hz, 0, 0, 0, out);
    expect([...out]).toEqual([0, 0, hz, 0, 0, 1, -hz]);
    boxClosest(1, 1, 1, 0, 0, 0, out);
    expect([...out.subarray(3, 6)]).toEqual([1, 0, 0]);
    boxClosest(1, 1, 1, 0.5, 0.5, 0, out);
    expect([...out.subarray(3, 6)]).toEqual([1, 0, 0]);
    boxClosest(1, 1, 1, -0.5, -0.5, 0, out);
    expect([...out.subarray(3, 6)]).toEqual([-1, 0, 0]);
    // inside near the −y face
    check(shape, 0.5, -0.55, 0.1, out);
    expect([out[3], out[4], out[5]]).toEqual([0, -1, 0]);
    expect(out[6]).toBeCloseTo(-0.05, 15);
  });

  it("capsule: the axis, the cap poles and the shaft", () => {
    const shape = SHAPES[2];
    const r = 0.35, hh = 0.5;
    // on the axis inside the shaft: every radial direction; the answer is +x
    expect(check(shape, 0, 0, 0.2, out)).toBeCloseTo(-r, 15);
    expect([out[3], out[4], out[5]]).toEqual([1, 0, 0]);
    // on the axis beyond the caps: the poles
    check(shape, 0, 0, 1.2, out);
    expect([...out]).toEqual([0, 0, hh + r, 0, 0, 1, 1.2 - hh - r]);
    check(shape, 0, 0, -0.6, out);
    expect([out[2], out[5]]).toEqual([-hh - r, -1]);
    expect(out[6]).toBeCloseTo(-0.25, 15);
    // at the segment's end point
    check(shape, 0, 0, hh, out);
    expect(out[6]).toBe(-r);
  });

  it("cylinder: the axis, the rims, the caps and the side", () => {
    const shape = SHAPES[3];
    const r = 0.45, hh = 0.3;
    // the centre: the caps (0.3) are nearer than the side (0.45): +z first
    check(shape, 0, 0, 0, out);
    expect([...out]).toEqual([0, 0, hh, 0, 0, 1, -hh]);
    // on the axis where the side is nearest (a long cylinder): +x
    cylinderClosest(0.1, 1, 0, 0, 0.2, out);
    expect([...out]).toEqual([0.1, 0, 0.2, 1, 0, 0, -0.1]);
    // beyond the rim: q on the rim circle
    check(shape, 0.6, 0.4, 0.5, out);
    expect(Math.hypot(out[0], out[1])).toBeCloseTo(r, 15);
    expect(out[2]).toBe(hh);
    check(shape, -0.3, -0.5, -0.45, out);
    expect(out[2]).toBe(-hh);
    // exactly on the rim and on the axis on a cap
    expect(check(shape, r, 0, hh, out)).toBe(0);
    expect(check(shape, 0, 0, -hh, out)).toBe(0);
    expect([out[3], out[4], out[5]]).toEqual([0, 0, -1]);
    // inside near the side: radial normal
    check(shape, 0.3, 0.3, 0.05, out);
    expect(out[3]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(out[5]).toBe(0);
    // the side / cap tie inside: side first
    cylinderClosest(1, 1, 0.5, 0, 0.5, out);
    expect([out[3], out[4], out[5]]).toEqual([1, 0, 0]);
  });
});

describe("bodies/shapes: bounds and mass properties", () => {
  it("half extents", () => {
    expect(sphereHalfExtents(0.2)).toEqual([0.2, 0.2, 0.2]);
    expect(boxHalfExtents(0.1, 0.2, 0.3)).toEqual([0.1, 0.2, 0.3]);
    expect(capsuleHalfExtents(0.2, 0.5)).toEqual([0.2, 0.2, 0.7]);
    expect(cylinderHalfExtents(0.2, 0.5)).toEqual([0.2, 0.2, 0.5]);
    expect(() => boxHalfExtents(0.1, -1, 0.3)).toThrow("boxHalfExtents: hy (-1) must be > 0");
    expect(() => sphereHalfExtents(NaN)).toThrow(RangeError);
  });

  /** Volume and inertia by Monte Carlo-free midpoint integration over a fine grid. */
  function integrate(inside: (x: number, y: number, z: number) => boolean, half: number[]) {
    const n = 120;
    const h = half.map((e) => (2 * e) / n), dv = h[0] * h[1] * h[2];
    let v = 0, ixx = 0, iyy = 0, izz = 0;
    for (let i = 0; i < n; i++) {
      const x = -half[0] + (i + 0.5) * h[0];
      for (let j = 0; j < n; j++) {
        const y = -half[1] + (j + 0.5) * h[1];
        for (let k = 0; k < n; k++) {
          const z = -half[2] + (k + 0.5) * h[2];
          if (!inside(x, y, z)) continue;
          v += dv, ixx += (y * y + z * z) * dv, iyy += (x * x + z * z) * dv;
          izz += (x * x + y * y) * dv;
        }
      }
    }
    return { volume: v, inertia: [ixx, iyy, izz] };
  }

  it("volume and inertia agree with numerical integration (1 %)", () => {
    const cases = [
      { m: sphereMassProperties(0.7), shape: SHAPES[0] },
      { m: boxMassProperties(1, 0.6, 0.4), shape: SHAPES[1] },
      { m: capsuleMassProperties(0.35, 0.5), shape: SHAPES[2] },
      { m: cylinderMassProperties(0.45, 0.3), shape: SHAPES[3] },
    ];
    for (const { m, shape } of cases) {
      const num = integrate(shape.inside, shape.half);
      expect(Math.abs(m.volume - num.volume) / m.volume).toBeLessThan(0.01);
      for (let k = 0; k < 3; k++) {
        expect(Math.abs(m.inertia[k] - num.inertia[k]) / m.inertia[k]).toBeLessThan(0.01);
      }
    }
  });

  it("closed forms", () => {
    const b = boxMassProperties(0.5, 1, 1.5);
    expect(b).toEqual({ volume: 6, inertia: [6.5, 5, 2.5] });
    const c = cylinderMassProperties(1, 1);
    expect(c.volume).toBeCloseTo(2 * Math.PI, 14);
    expect(c.inertia[0]).toBeCloseTo(2 * Math.PI * (1 / 4 + 1 / 3), 14);
    // a capsule is a cylinder plus a sphere for izz
    const cap = capsuleMassProperties(1, 1), s = sphereMassProperties(1);
    expect(cap.volume).toBeCloseTo(c.volume + s.volume, 13);
    expect(cap.inertia[2]).toBeCloseTo(c.inertia[2] + s.inertia[2], 13);
    expect(() => capsuleMassProperties(0.1, -0.1)).toThrow(
      "capsuleMassProperties: halfHeight (-0.1) must be >= 0",
    );
  });
});
