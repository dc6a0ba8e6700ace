/**
 * Distances from a point to the boundary of a star shape: the radial distance f(p), the
 * paper's first-order (Taubin) distance f/‖∇f‖ with its normal, and the exact Euclidean
 * distance found numerically (ground truth), plus an error map comparing them.
 *
 * All three are signed: negative inside, positive outside. Points are given in the shape's
 * frame (polar centre at the origin, angle 0) unless a `pose` is passed.
 *
 * @module
 */

import { StarShape } from "./shape.ts";
import {
  bool,
  finite,
  options as checkOptions,
  positive,
  positiveInteger,
  sizeGuard,
  workGuard,
} from "../math/validate.ts";

/** The most points of {@linkcode distanceErrorMap}: 2048², about a minute of exact distances. */
const MAX_MAP_POINTS = 2048 * 2048;
const POSE_KEYS: readonly string[] = ["x", "y", "angle"];
const DISTANCE_KEYS: readonly string[] = ["pose", "lookup"];
const NORMAL_KEYS: readonly string[] = ["pose", "lookup", "out"];
const MAP_KEYS: readonly string[] = ["resolution", "extent", "band"];

/**
 * Check the arguments of a distance function: the shape, the point, the options (keys, the
 * pose's numbers, `lookup` a boolean, `out` a Float64Array of length ≥ 2).
 */
function checkArgs<T extends NormalOptions>(
  where: string,
  shape: unknown,
  p: ArrayLike<number>,
  options: unknown,
  keys: readonly string[],
): T {
  if (!(shape instanceof StarShape)) {
    throw new TypeError(`${where}: shape (${String(shape)}) must be a StarShape`);
  }
  checkPoint(where, p);
  const o = checkOptions<T>(where, "options", options, keys);
  if (o.pose !== undefined) {
    const q = checkOptions<StarPose>(where, "pose", o.pose, POSE_KEYS);
    for (const k of POSE_KEYS) {
      const v = q[k as keyof StarPose];
      if (v !== undefined) finite(where, `pose.${k}`, v);
    }
  }
  bool(where, "lookup", o.lookup, false);
  if (o.out !== undefined && !(o.out instanceof Float64Array && o.out.length >= 2)) {
    throw new TypeError(`${where}: out (${String(o.out)}) must be a Float64Array of length >= 2`);
  }
  return o;
}

const TWO_PI = 2 * Math.PI;

/** Where the shape sits: polar centre (m) and rotation (rad). */
export interface StarPose {
  /** Polar centre x (m). @default 0 */
  x?: number;
  /** Polar centre y (m). @default 0 */
  y?: number;
  /** Rotation (rad). @default 0 */
  angle?: number;
}

/** Options of {@linkcode starDistance} (and of the distance functions it dispatches to). */
export interface DistanceOptions {
  /**
   * Which distance: `"radial"` — f(p) = ‖p − c‖ − r(α(p)); `"firstOrder"` — the paper's
   * first-order (Taubin) estimate f/‖∇f‖, what the simulation uses; `"exact"` — the Euclidean
   * distance to the boundary, found numerically (the ground truth, slow).
   * @default "firstOrder"
   */
  method?: "radial" | "firstOrder" | "exact";
  /** Pose of the shape. @default identity */
  pose?: StarPose;
  /**
   * Use the lookup tables (as the simulation does) instead of the Fourier sum; radial and
   * first-order distances only. @default false
   */
  lookup?: boolean;
}

/** Options of {@linkcode firstOrderNormal}. */
export interface NormalOptions extends DistanceOptions {
  /** Receives the unit normal ∇f/‖∇f‖ at `out[0..1]`. @default a new Float64Array(2) */
  out?: Float64Array;
}

function local(p: ArrayLike<number>, pose: StarPose | undefined, out: Float64Array): void {
  let x = p[0] - (pose?.x ?? 0), y = p[1] - (pose?.y ?? 0);
  const a = pose?.angle ?? 0;
  if (a !== 0) {
    const c = Math.cos(a), s = Math.sin(a);
    const bx = c * x + s * y, by = -s * x + c * y;
    x = bx;
    y = by;
  }
  out[0] = x;
  out[1] = y;
}

const tmp = new Float64Array(2);

function checkPoint(name: string, p: ArrayLike<number>): void {
  if (!(p && p.length >= 2 && Number.isFinite(p[0]) && Number.isFinite(p[1]))) {
    throw new RangeError(`${name}: point (${p && Array.from(p)}) must be two finite numbers`);
  }
}

/**
 * The radial distance d_r = f(p) = ‖p − c‖ − r(α(p)) (m), signed.
 *
 * @example
 * ```ts
 * import { radialDistance } from "./distance.ts";
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const circle = StarShape.preset("circle", { rMax: 1 });
 * expect(radialDistance(circle, [2, 0])).toBeCloseTo(1, 12);
 * ```
 */
export function radialDistance(
  shape: StarShape,
  p: ArrayLike<number>,
  options: DistanceOptions = {},
): number {
  options = checkArgs("radialDistance", shape, p, options, DISTANCE_KEYS);
  local(p, options.pose, tmp);
  const x = tmp[0], y = tmp[1];
  const rho = Math.sqrt(x * x + y * y);
  const a = Math.atan2(y, x);
  return rho - (options.lookup ? shape.radiusLut(a) : shape.radiusAt(a));
}

/**
 * The analytic gradient ∇f = e_ρ − (r′/ρ)·e_α of the implicit function
 * f(p) = ‖p − c‖ − r(α(p)) (whose value is {@linkcode radialDistance}), in the frame of `p`;
 * not normalised: ‖∇f‖ = √(1 + (r′/ρ)²). Zero at the polar centre.
 *
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { implicitGradient } from "./distance.ts";
 * import { expect } from "expect";
 * const g = implicitGradient(StarShape.preset("circle", { rMax: 1 }), [0, 3]);
 * expect(g[0]).toBeCloseTo(0, 15);
 * expect(g[1]).toBeCloseTo(1, 15);
 * ```
 */
export function implicitGradient(
  shape: StarShape,
  p: ArrayLike<number>,
  options: NormalOptions = {},
): Float64Array {
  options = checkArgs("implicitGradient", shape, p, options, NORMAL_KEYS);
  const out = options.out ?? new Float64Array(2);
  local(p, options.pose, tmp);
  const x = tmp[0], y = tmp[1];
  const rho2 = x * x + y * y, rho = Math.sqrt(rho2);
  if (rho === 0) {
    out[0] = 0;
    out[1] = 0;
    return out;
  }
  const a = Math.atan2(y, x);
  const dr = options.lookup ? shape.derivativeLut(a) : shape.derivativeAt(a);
  const gx = x / rho + (dr * y) / rho2, gy = y / rho - (dr * x) / rho2;
  const ang = options.pose?.angle ?? 0;
  const c = Math.cos(ang), s = Math.sin(ang);
  out[0] = c * gx - s * gy;
  out[1] = s * gx + c * gy;
  return out;
}

/**
 * The first-order (Taubin) distance d = f(p)/‖∇f(p)‖ (m), signed, with
 * ‖∇f‖ = √(1 + (r′/ρ)²).
 *
 * @example
 * ```ts
 * import { exactDistance, firstOrderDistance, radialDistance } from "./distance.ts";
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const cross = StarShape.preset("cross", { rMax: 1 });
 * const d = firstOrderDistance(cross, [0.9, 0.05]); // 0.0919
 * // close to the exact distance (0.0935), unlike the radial one (0.161)
 * expect(d).toBeCloseTo(exactDistance(cross, [0.9, 0.05]), 2);
 * expect(radialDistance(cross, [0.9, 0.05])).toBeGreaterThan(0.15);
 * ```
 */
export function firstOrderDistance(
  shape: StarShape,
  p: ArrayLike<number>,
  options: DistanceOptions = {},
): number {
  options = checkArgs("firstOrderDistance", shape, p, options, DISTANCE_KEYS);
  local(p, options.pose, tmp);
  const x = tmp[0], y = tmp[1];
  const rho = Math.sqrt(x * x + y * y);
  if (rho === 0) return -shape.rMin;
  const a = Math.atan2(y, x);
  const r = options.lookup ? shape.radiusLut(a) : shape.radiusAt(a);
  const dr = options.lookup ? shape.derivativeLut(a) : shape.derivativeAt(a);
  const q = dr / rho;
  return (rho - r) / Math.sqrt(1 + q * q);
}

/**
 * The unit normal ∇f/‖∇f‖ at p, in the frame of `p` (outward on the boundary).
 *
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { firstOrderNormal } from "./distance.ts";
 * import { expect } from "expect";
 * const n = firstOrderNormal(StarShape.preset("circle", { rMax: 1 }), [0, 2]);
 * expect(n[1]).toBeCloseTo(1, 12);
 * ```
 */
export function firstOrderNormal(
  shape: StarShape,
  p: ArrayLike<number>,
  options: NormalOptions = {},
): Float64Array {
  options = checkArgs("firstOrderNormal", shape, p, options, NORMAL_KEYS);
  // The gradient is rotated into the frame of p, which keeps its length: normalise after.
  const out = implicitGradient(shape, p, options);
  const g = Math.sqrt(out[0] * out[0] + out[1] * out[1]);
  if (g > 0) {
    out[0] /= g;
    out[1] /= g;
  }
  return out;
}

// Dense sampling of the boundary for the exact distance, cached per shape.
const exactCache = new WeakMap<StarShape, Float64Array>();
const EXACT_SAMPLES = 4096;

function boundarySamples(shape: StarShape): Float64Array {
  let s = exactCache.get(shape);
  if (!s) {
    s = new Float64Array(2 * EXACT_SAMPLES);
    for (let k = 0; k < EXACT_SAMPLES; k++) {
      const a = (TWO_PI * k) / EXACT_SAMPLES, r = shape.radiusAt(a);
      s[2 * k] = r * Math.cos(a);
      s[2 * k + 1] = r * Math.sin(a);
    }
    exactCache.set(shape, s);
  }
  return s;
}

function dist2At(shape: StarShape, x: number, y: number, a: number): number {
  const r = shape.radiusAt(a);
  const dx = r * Math.cos(a) - x, dy = r * Math.sin(a) - y;
  return dx * dx + dy * dy;
}

/**
 * The exact Euclidean distance from p to the boundary curve (m), signed (negative inside):
 * the curve is sampled at 4,096 angles, every local minimum of the sampled distance within
 * 1.5× the best one is refined by golden-section search on the exact Fourier curve.
 *
 * @example
 * ```ts
 * import { exactDistance } from "./distance.ts";
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const circle = StarShape.preset("circle", { rMax: 1 });
 * expect(exactDistance(circle, [0, 0.25])).toBeCloseTo(-0.75, 9);
 * ```
 */
export function exactDistance(
  shape: StarShape,
  p: ArrayLike<number>,
  options: { pose?: StarPose } = {},
): number {
  options = checkArgs("exactDistance", shape, p, options, ["pose"]);
  local(p, options.pose, tmp);
  const x = tmp[0], y = tmp[1];
  const s = boundarySamples(shape);
  const n = EXACT_SAMPLES;
  let best = Infinity;
  const d2 = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const dx = s[2 * k] - x, dy = s[2 * k + 1] - y;
    d2[k] = dx * dx + dy * dy;
    if (d2[k] < best) best = d2[k];
  }
  const h = TWO_PI / n;
  let refined = Infinity;
  for (let k = 0; k < n; k++) {
    const prev = d2[(k + n - 1) % n], next = d2[(k + 1) % n];
    if (d2[k] > prev || d2[k] > next || d2[k] > best * 2.25 + 1e-300) continue;
    // Golden-section search on [a − h, a + h].
    let lo = (k - 1) * h, hi = (k + 1) * h;
    const g = 0.6180339887498949;
    let c = hi - g * (hi - lo), d = lo + g * (hi - lo);
    let fc = dist2At(shape, x, y, c), fd = dist2At(shape, x, y, d);
    for (let it = 0; it < 80 && hi - lo > 1e-15; it++) {
      if (fc < fd) {
        hi = d;
        d = c;
        fd = fc;
        c = hi - g * (hi - lo);
        fc = dist2At(shape, x, y, c);
      } else {
        lo = c;
        c = d;
        fc = fd;
        d = lo + g * (hi - lo);
        fd = dist2At(shape, x, y, d);
      }
    }
    const m = Math.min(fc, fd, d2[k]);
    if (m < refined) refined = m;
  }
  const dist = Math.sqrt(refined);
  const rho = Math.sqrt(x * x + y * y);
  const inside = rho < shape.radiusAt(Math.atan2(y, x));
  return inside ? -dist : dist;
}

/** Options of {@linkcode distanceErrorMap}. */
export interface DistanceErrorMapOptions {
  /** Grid points per axis over [−extent, extent]². @default 200 */
  resolution?: number;
  /** Half-width of the square sampled, in units of r_max. @default 1.2 */
  extent?: number;
  /** Keep only points whose exact |distance| is below band·r_max. @default Infinity */
  band?: number;
}

/** Columns of a distance-error map (see {@linkcode distanceErrorMap}). */
export interface DistanceErrorMap {
  /** Number of points kept. */
  count: number;
  /** Point x (m). */
  x: Float64Array;
  /** Point y (m). */
  y: Float64Array;
  /** Exact signed distance (m). */
  exact: Float64Array;
  /** First-order signed distance (m). */
  firstOrder: Float64Array;
  /** Radial signed distance (m). */
  radial: Float64Array;
  /** Relative error |d_fo − d_gt| / |d_gt| of each point. */
  firstOrderError: Float64Array;
  /** Relative error |d_r − d_gt| / |d_gt| of each point. */
  radialError: Float64Array;
  /** Largest first-order relative error. */
  maxFirstOrderError: number;
  /** Largest radial relative error. */
  maxRadialError: number;
}

/**
 * Sample the three distances on a grid around a shape (the paper's Figure 3): the columns
 * feed the error maps; the maxima reproduce the paper's comparison.
 *
 * @example
 * ```ts
 * import { distanceErrorMap, StarShape } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const m = distanceErrorMap(StarShape.preset("cross", { rMax: 1 }), { resolution: 40 });
 * expect(m.count).toBe(1600);
 * expect(m.maxRadialError).toBeGreaterThanOrEqual(m.maxFirstOrderError);
 * ```
 */
export function distanceErrorMap(
  shape: StarShape,
  options: DistanceErrorMapOptions = {},
): DistanceErrorMap {
  const w = "distanceErrorMap";
  if (!(shape instanceof StarShape)) {
    throw new TypeError(`${w}: shape (${String(shape)}) must be a StarShape`);
  }
  const o = checkOptions<DistanceErrorMapOptions>(w, "options", options, MAP_KEYS);
  const res = positiveInteger(w, "resolution", o.resolution ?? 200, 2);
  const ext = positive(w, "extent", o.extent ?? 1.2);
  const band = o.band ?? Infinity;
  if (typeof band !== "number" || !(band > 0)) {
    throw new RangeError(`${w}: band (${String(band)}) must be a number > 0 (or Infinity)`);
  }
  // seven columns of res² points, each an exact distance (a root search)
  sizeGuard(w, `a map of ${res}² points (7 columns)`, 56 * res * res, 2 ** 30);
  workGuard(w, `a map of ${res}² points`, res * res, MAX_MAP_POINTS);
  const cap = res * res;
  const x = new Float64Array(cap), y = new Float64Array(cap), ex = new Float64Array(cap);
  const fo = new Float64Array(cap), ra = new Float64Array(cap);
  const efo = new Float64Array(cap), era = new Float64Array(cap);
  let n = 0, mfo = 0, mra = 0;
  const R = shape.rMax, p = new Float64Array(2);
  for (let iy = 0; iy < res; iy++) {
    for (let ix = 0; ix < res; ix++) {
      p[0] = (-ext + (2 * ext * (ix + 0.5)) / res) * R;
      p[1] = (-ext + (2 * ext * (iy + 0.5)) / res) * R;
      const d = exactDistance(shape, p);
      if (!(Math.abs(d) < band * R) || d === 0) continue;
      const a = firstOrderDistance(shape, p), b = radialDistance(shape, p);
      x[n] = p[0];
      y[n] = p[1];
      ex[n] = d;
      fo[n] = a;
      ra[n] = b;
      efo[n] = Math.abs(a - d) / Math.abs(d);
      era[n] = Math.abs(b - d) / Math.abs(d);
      if (efo[n] > mfo) mfo = efo[n];
      if (era[n] > mra) mra = era[n];
      n++;
    }
  }
  return {
    count: n,
    x: x.subarray(0, n),
    y: y.subarray(0, n),
    exact: ex.subarray(0, n),
    firstOrder: fo.subarray(0, n),
    radial: ra.subarray(0, n),
    firstOrderError: efo.subarray(0, n),
    radialError: era.subarray(0, n),
    maxFirstOrderError: mfo,
    maxRadialError: mra,
  };
}
