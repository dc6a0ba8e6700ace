/**
 * Star shapes: a polar centre c and a smooth 2π-periodic radius r(α) given as a Fourier sum,
 * with the lookup tables of r and r′ used in the hot loop, the boundary nodes used for contact
 * detection, and the mass properties of the actual shape.
 *
 * Frames: a shape lives in its body frame, polar centre at the origin, α measured from the
 * body x axis. The centre of mass is generally not the polar centre (`centroidX/Y`).
 *
 * @module
 */

import { Rng } from "../math/rng.ts";
import { options as checkOptions, ownEntry, sizeGuard, workGuard } from "../math/validate.ts";

const SHAPE_KEYS: readonly string[] = [
  "a0",
  "cos",
  "sin",
  "r0",
  "rMax",
  "area",
  "nodes",
  "lutSize",
  "name",
];
const PRESET_KEYS: readonly string[] = ["rMax", "area", "nodes", "lutSize"];

/**
 * The most memory a shape's lookup tables (r, r′ and the sampling scratch, 24 bytes per
 * sample) may take: 1 GiB, about 45 million samples, 2,000 times the default.
 */
const LUT_BYTES_LIMIT = 2 ** 30;

/**
 * The most terms of the Fourier series a shape may evaluate while building its tables: 1e8,
 * a few seconds (2,500 coefficients at the default lutSize; a preset has at most 11).
 */
const SERIES_WORK_LIMIT = 1e8;

/** The most memory a fresh outline may take: 1 GiB, 67 million vertices. */
const OUTLINE_BYTES_LIMIT = 2 ** 30;

const TWO_PI = 2 * Math.PI;

/** Options of {@linkcode StarShape}: Fourier coefficients, size, sampling. */
export interface StarShapeOptions {
  /** Constant term of the sum r̂(α) = a0 + Σ cos[k−1]·cos kα + sin[k−1]·sin kα. @default 1 */
  a0?: number;
  /** Cosine coefficients a₁, a₂, … (dimensionless). @default [] */
  cos?: readonly number[];
  /** Sine coefficients b₁, b₂, … (dimensionless). @default [] */
  sin?: readonly number[];
  /**
   * Scale r0 (m): r(α) = r0·r̂(α), the form r0·(1 + Σ aₖcos kα + bₖ sin kα).
   * Used when neither `rMax` nor `area` is given. @default 1
   */
  r0?: number;
  /** Bounding radius (m): scale r̂ so that its maximum equals `rMax`. */
  rMax?: number;
  /** Area (m²): scale r̂ so that the enclosed area equals `area`. */
  area?: number;
  /** Boundary nodes used by the nodes-to-surface detection. @default 100 */
  nodes?: number;
  /** Samples of the r and r′ lookup tables; at least 2·nodes. @default 20000 */
  lutSize?: number;
  /** A label, e.g. the preset name. @default "custom" */
  name?: string;
}

/** Names of the built-in shapes of {@linkcode StarShape.preset}. */
export type StarPresetName =
  | "circle"
  | "cross"
  | "butterfly"
  | "bat"
  | "flower"
  | "flower-cos"
  | "flower8"
  | "peanut"
  | "rock"
  | "blob"
  | "pear";

/** Size and sampling options of a preset (one of `rMax`, `area`; default `rMax` = 5 mm). */
export interface StarPresetOptions {
  /** Bounding radius (m). @default 0.005 */
  rMax?: number;
  /** Area (m²); overrides `rMax`. */
  area?: number;
  /** Boundary nodes. @default 100 */
  nodes?: number;
  /** Lookup-table samples. @default 20000 */
  lutSize?: number;
}

/**
 * Fourier coefficients of the presets, before normalisation (from the reference
 * configurations). The paper's cross `1 + cos 4α` pinches to r = 0 at α = π/4 + kπ/2 and is
 * rejected by validation; the preset uses `2 + sin 4α` as the reference code does.
 */
export const STAR_PRESETS: Readonly<
  Record<StarPresetName, { a0: number; cos: readonly number[]; sin: readonly number[] }>
> = {
  circle: { a0: 1, cos: [], sin: [] },
  cross: { a0: 2, cos: [], sin: [0, 0, 0, 1] },
  butterfly: { a0: 3, cos: [], sin: [0, 1, 0, 0, 0, 0, 1] },
  bat: { a0: 3, cos: [], sin: [0, 0, 0, 0, 1, 0, 0, 1] },
  flower: { a0: 2, cos: [], sin: [0, 0, 0, 0, 0, 1] },
  "flower-cos": { a0: 2, cos: [0, 0, 0, 0, 0, 1], sin: [] },
  flower8: { a0: 2, cos: [], sin: [0, 0, 0, 0, 0, 0, 0, 1] },
  peanut: { a0: 2, cos: [], sin: [0, 1] },
  rock: { a0: 2.2, cos: [0.4, 0, 0.5], sin: [0, 0, 0, 0, 0, 0.3] },
  blob: { a0: 2.2, cos: [0, 0.3, 0, 0, 0.5], sin: [0, 0.4] },
  pear: { a0: 5.1, cos: [2, 2], sin: [-1] },
};

/**
 * A star-shaped grain outline: r(α) as a Fourier sum, validated to stay positive.
 *
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const s = new StarShape({ a0: 2, sin: [0, 0, 0, 1], rMax: 0.005 });
 * expect(s.rMax).toBeCloseTo(0.005, 12);
 * expect(s.radiusAt(Math.PI / 8)).toBeCloseTo(0.005, 12);
 * expect(s.nodes).toBe(100);
 * expect(s.lutSize).toBe(20000);
 * ```
 */
export class StarShape {
  /** Label of the shape. */
  readonly name: string;
  /** Constant term after scaling (m). */
  readonly a0: number;
  /** Cosine coefficients after scaling (m). */
  readonly cosCoef: Float64Array;
  /** Sine coefficients after scaling (m). */
  readonly sinCoef: Float64Array;
  /** Bounding radius r_max (m): the largest r(α). */
  readonly rMax: number;
  /** Smallest r(α) (m). */
  readonly rMin: number;
  /** Enclosed area (m²). */
  readonly area: number;
  /** Centre of mass in the body frame, x (m), relative to the polar centre. */
  readonly centroidX: number;
  /** Centre of mass in the body frame, y (m). */
  readonly centroidY: number;
  /** Polar second moment of area about the centre of mass (m⁴); inertia = density · this. */
  readonly polarMoment: number;
  /** Number of boundary nodes. */
  readonly nodes: number;
  /** Body-frame node x (m), relative to the polar centre; node k at α = 2πk/nodes. */
  readonly nodeX: Float64Array;
  /** Body-frame node y (m). */
  readonly nodeY: Float64Array;
  /** Lookup-table sample count. */
  readonly lutSize: number;
  /** r at α = 2πk/lutSize (m), with one wrap-around entry (length lutSize + 1). */
  readonly lutR: Float64Array;
  /** r′ = dr/dα at the same samples (m/rad), length lutSize + 1. */
  readonly lutDr: Float64Array;
  /** lutSize / 2π: multiply an angle by this to get a table coordinate. */
  readonly lutScale: number;
  /**
   * The lookup table is one constant radius with a zero derivative (a circle): a node test
   * needs no angle (no atan2) and gives the same bytes as the table read.
   */
  readonly round: boolean;

  /** Build and validate a shape; throws `RangeError` naming the offending value. */
  constructor(options: StarShapeOptions = {}) {
    options = checkOptions<StarShapeOptions>("StarShape", "options", options, SHAPE_KEYS);
    const a0 = options.a0 ?? 1;
    const cos = coefficients("cos", options.cos), sin = coefficients("sin", options.sin);
    const nodes = options.nodes ?? 100;
    const lutSize = options.lutSize ?? 20000;
    const name = options.name === undefined ? "custom" : options.name;
    // the name is stored in checkpoints: what could not be read back is refused here
    if (typeof name !== "string") {
      throw new TypeError(`StarShape: name (${String(name)}) must be a string`);
    }
    this.name = name;
    const all = [a0, ...cos, ...sin];
    for (const v of all) {
      if (!Number.isFinite(v)) {
        throw new RangeError(`StarShape: Fourier coefficient (${v}) must be finite`);
      }
    }
    if (!Number.isInteger(nodes) || nodes < 3) {
      throw new RangeError(`StarShape: nodes (${nodes}) must be an integer >= 3`);
    }
    if (!Number.isInteger(lutSize) || lutSize < 2 * nodes) {
      throw new RangeError(
        `StarShape: lutSize (${lutSize}) must be an integer >= 2 * nodes (${2 * nodes})`,
      );
    }
    sizeGuard(
      "StarShape",
      `lookup tables of lutSize ${lutSize} samples`,
      24 * lutSize + 16 * nodes,
      LUT_BYTES_LIMIT,
    );
    // every sample of r and r′ and every node sums the whole series
    workGuard(
      "StarShape",
      `${cos.length + sin.length} Fourier coefficients on lutSize ${lutSize} and ${nodes} nodes`,
      (cos.length + sin.length + 1) * (2 * lutSize + nodes),
      SERIES_WORK_LIMIT,
    );
    for (const [key, v] of [["r0", options.r0], ["rMax", options.rMax], ["area", options.area]]) {
      if (v !== undefined && !(typeof v === "number" && Number.isFinite(v) && v > 0)) {
        throw new RangeError(`StarShape: ${key} (${v}) must be > 0`);
      }
    }
    // Sample the unit sum on the table grid to validate, normalise and integrate.
    const raw = new Float64Array(lutSize);
    let mx = -Infinity, mn = Infinity, mnAt = 0;
    for (let k = 0; k < lutSize; k++) {
      const v = fourier(a0, cos, sin, (TWO_PI * k) / lutSize);
      raw[k] = v;
      if (v > mx) mx = v;
      if (v < mn) mn = v, mnAt = (TWO_PI * k) / lutSize;
    }
    if (!(mx > 0) || !(mn > 1e-9 * Math.abs(mx))) {
      const hint = mn <= 0 && mn > -1e-9
        ? " (it pinches to zero: the paper's cross 1 + cos 4α does; use the preset 'cross', 2 + sin 4α)"
        : "";
      throw new RangeError(
        `StarShape: radius r(α) (${mn.toPrecision(6)} at α = ${
          mnAt.toFixed(4)
        }) must stay > 0 everywhere${hint}`,
      );
    }
    let area1 = 0;
    for (let k = 0; k < lutSize; k++) area1 += raw[k] * raw[k];
    area1 *= Math.PI / lutSize; // ½∫r̂² dα
    let scale: number;
    if (options.area !== undefined) scale = Math.sqrt(options.area / area1);
    else if (options.rMax !== undefined) scale = options.rMax / mx;
    else scale = options.r0 ?? 1;
    this.a0 = a0 * scale;
    this.cosCoef = Float64Array.from(cos, (v) => v * scale);
    this.sinCoef = Float64Array.from(sin, (v) => v * scale);
    this.rMax = mx * scale;
    this.rMin = mn * scale;
    this.nodes = nodes;
    this.lutSize = lutSize;
    this.lutScale = lutSize / TWO_PI;
    this.lutR = new Float64Array(lutSize + 1);
    this.lutDr = new Float64Array(lutSize + 1);
    let a = 0, mx1 = 0, my1 = 0, j0 = 0;
    for (let k = 0; k < lutSize; k++) {
      const al = (TWO_PI * k) / lutSize;
      const r = raw[k] * scale;
      this.lutR[k] = r;
      this.lutDr[k] = this.derivativeAt(al);
      const r2 = r * r;
      a += r2;
      mx1 += r2 * r * Math.cos(al);
      my1 += r2 * r * Math.sin(al);
      j0 += r2 * r2;
    }
    this.lutR[lutSize] = this.lutR[0];
    this.lutDr[lutSize] = this.lutDr[0];
    let round = true;
    for (let k = 0; k <= lutSize && round; k++) {
      round = this.lutR[k] === this.lutR[0] && Object.is(this.lutDr[k], 0);
    }
    this.round = round;
    const h = TWO_PI / lutSize;
    this.area = 0.5 * a * h;
    this.centroidX = (mx1 * h) / 3 / this.area;
    this.centroidY = (my1 * h) / 3 / this.area;
    this.polarMoment = 0.25 * j0 * h -
      this.area * (this.centroidX * this.centroidX + this.centroidY * this.centroidY);
    this.nodeX = new Float64Array(nodes);
    this.nodeY = new Float64Array(nodes);
    for (let k = 0; k < nodes; k++) {
      const al = (TWO_PI * k) / nodes;
      const r = this.radiusAt(al);
      this.nodeX[k] = r * Math.cos(al);
      this.nodeY[k] = r * Math.sin(al);
    }
  }

  /**
   * A built-in shape by name, sized by `rMax` (default 5 mm) or `area`.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const cross = StarShape.preset("cross", { area: 30e-6 });
   * expect(cross.area).toBeCloseTo(30e-6, 12);
   * expect(cross.rMax).toBeCloseTo(4.37e-3, 5); // the reference R = 4.37 mm
   * ```
   */
  static preset(name: StarPresetName, options: StarPresetOptions = {}): StarShape {
    const p = ownEntry("StarShape.preset", "name", name, STAR_PRESETS);
    options = checkOptions<StarPresetOptions>("StarShape.preset", "options", options, PRESET_KEYS);
    return new StarShape({
      a0: p.a0,
      cos: p.cos,
      sin: p.sin,
      name,
      nodes: options.nodes,
      lutSize: options.lutSize,
      ...(options.area !== undefined ? { area: options.area } : { rMax: options.rMax ?? 0.005 }),
    });
  }

  /**
   * A seeded random shape as in the reference code: 8–11 harmonics with coefficients uniform
   * in [−1, 1], and a constant term large enough to keep r(α) ≥ 30 % of its mean.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const a = StarShape.random(7, { rMax: 0.005 }), b = StarShape.random(7, { rMax: 0.005 });
   * expect(a.radiusAt(1)).toBe(b.radiusAt(1));
   * expect(a.rMin).toBeGreaterThan(0);
   * ```
   */
  static random(seed: number, options: StarPresetOptions = {}): StarShape {
    options = checkOptions<StarPresetOptions>("StarShape.random", "options", options, PRESET_KEYS);
    const rng = new Rng(seed);
    const k = 8 + Math.floor(rng.next() * 4);
    const cos: number[] = [], sin: number[] = [];
    for (let i = 0; i < k; i++) {
      cos.push(rng.uniform(-1, 1) / (i + 1));
      sin.push(rng.uniform(-1, 1) / (i + 1));
    }
    let mn = Infinity;
    for (let i = 0; i < 4096; i++) mn = Math.min(mn, fourier(0, cos, sin, (TWO_PI * i) / 4096));
    const a0 = Math.max(1, -mn / 0.7);
    return new StarShape({
      a0,
      cos,
      sin,
      name: `random-${seed}`,
      nodes: options.nodes,
      lutSize: options.lutSize,
      ...(options.area !== undefined ? { area: options.area } : { rMax: options.rMax ?? 0.005 }),
    });
  }

  /**
   * r(α) from the Fourier sum (m), exact; α in radians, any value.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * expect(new StarShape({ r0: 2 }).radiusAt(0.3)).toBe(2);
   * ```
   */
  radiusAt(alpha: number): number {
    let r = this.a0;
    const c = this.cosCoef, s = this.sinCoef;
    for (let k = 0; k < c.length; k++) r += c[k] * Math.cos((k + 1) * alpha);
    for (let k = 0; k < s.length; k++) r += s[k] * Math.sin((k + 1) * alpha);
    return r;
  }

  /**
   * r′(α) = dr/dα from the Fourier sum (m/rad), exact.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new StarShape({ a0: 2, sin: [0, 0, 0, 1] });
   * expect(s.derivativeAt(0)).toBeCloseTo(4, 12);
   * ```
   */
  derivativeAt(alpha: number): number {
    let d = 0;
    const c = this.cosCoef, s = this.sinCoef;
    for (let k = 0; k < c.length; k++) d -= (k + 1) * c[k] * Math.sin((k + 1) * alpha);
    for (let k = 0; k < s.length; k++) d += (k + 1) * s[k] * Math.cos((k + 1) * alpha);
    return d;
  }

  /**
   * r(α) interpolated linearly in the lookup table (m), as used in the hot loop.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = StarShape.preset("flower");
   * expect(Math.abs(s.radiusLut(1.234) - s.radiusAt(1.234))).toBeLessThan(1e-6 * s.rMax);
   * ```
   */
  radiusLut(alpha: number): number {
    let t = alpha * this.lutScale;
    const n = this.lutSize;
    t -= n * Math.floor(t / n);
    const k = t | 0, u = t - k;
    return this.lutR[k] + u * (this.lutR[k + 1] - this.lutR[k]);
  }

  /**
   * r′(α) interpolated linearly in the lookup table (m/rad).
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = StarShape.preset("cross");
   * expect(Math.abs(s.derivativeLut(0.5) - s.derivativeAt(0.5))).toBeLessThan(1e-5 * s.rMax);
   * ```
   */
  derivativeLut(alpha: number): number {
    let t = alpha * this.lutScale;
    const n = this.lutSize;
    t -= n * Math.floor(t / n);
    const k = t | 0, u = t - k;
    return this.lutDr[k] + u * (this.lutDr[k + 1] - this.lutDr[k]);
  }

  /**
   * The outline as a closed polygon of `n` vertices (body frame, polar centre at the origin),
   * x and y interleaved; pass `out` to reuse a buffer of length ≥ 2n.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const poly = StarShape.preset("circle", { rMax: 1 }).outline(4);
   * expect(poly).toHaveLength(8);
   * expect(poly[0]).toBeCloseTo(1, 15);
   * ```
   */
  outline(n: number = 100, out?: Float64Array): Float64Array {
    if (!Number.isInteger(n) || n < 3) {
      throw new RangeError(`StarShape.outline: n (${n}) must be an integer >= 3`);
    }
    if (out !== undefined && !(out instanceof Float64Array)) {
      throw new TypeError(`StarShape.outline: out (${String(out)}) must be a Float64Array`);
    }
    if (out === undefined) {
      sizeGuard("StarShape.outline", `an outline of ${n} vertices`, 16 * n, OUTLINE_BYTES_LIMIT);
    }
    const o = out ?? new Float64Array(2 * n);
    if (o.length < 2 * n) {
      throw new RangeError(`StarShape.outline: out.length (${o.length}) must be >= ${2 * n}`);
    }
    for (let k = 0; k < n; k++) {
      const al = (TWO_PI * k) / n;
      const r = this.radiusAt(al);
      o[2 * k] = r * Math.cos(al);
      o[2 * k + 1] = r * Math.sin(al);
    }
    return o;
  }
}

function fourier(
  a0: number,
  cos: readonly number[],
  sin: readonly number[],
  alpha: number,
): number {
  let r = a0;
  for (let k = 0; k < cos.length; k++) r += cos[k] * Math.cos((k + 1) * alpha);
  for (let k = 0; k < sin.length; k++) r += sin[k] * Math.sin((k + 1) * alpha);
  return r;
}

/** Fourier coefficients: an array of numbers (checked finite later), or [] when omitted. */
function coefficients(name: string, v: unknown): readonly number[] {
  if (v === undefined) return [];
  if (v === null || typeof v !== "object" || typeof (v as ArrayLike<number>).length !== "number") {
    throw new TypeError(`StarShape: ${name} (${String(v)}) must be an array of numbers`);
  }
  return Array.from(v as ArrayLike<number>);
}
