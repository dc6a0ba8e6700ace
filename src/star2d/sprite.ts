/**
 * The CPU "sprite" of a star shape: its body-frame square [−r_max, r_max]² cut into S × S
 * cells, so that a node test needs neither an atan2 nor a sqrt to decide most nodes.
 *
 * Two layers, both built once per shape and resolution (and cached on the shape):
 *
 * - **Cell classes** (`classes`, one byte per cell): 0 when every point of the cell is outside
 *   the shape as the 1D lookup table defines it (ρ ≥ r_LUT(α) with a margin), 2 when every
 *   point is inside, 1 otherwise. The bounds are rigorous for the table: a cell's polar
 *   extent [ρ_min, ρ_max] × [α_min, α_max] is compared with the minimum and maximum of the
 *   piecewise-linear r_LUT over [α_min, α_max] (its samples in the interval and its end
 *   values), each cell widened by 10⁻⁶ of its size against round-off. A node in a class-0
 *   cell is rejected with one byte read; every other node takes the usual test, so detection
 *   with `sampling: "lut"` gives the same bytes with or without the classes.
 * - **Sampled fields** (`fields`, for `sampling: "sprite"`): at each cell centre the
 *   first-order distance d = f/‖∇f‖ with its gradient, the radial distance f and the unit
 *   normal n = ∇f/‖∇f‖ (from the exact Fourier sum: r, r′ and r″), float32, six per cell —
 *   the layout of the GPU sprite (`StarSprite`). A read combines the four surrounding
 *   centres c with bilinear weights w_c and a half-gradient correction,
 *   d(p) ≈ Σ w_c·(d_c + ½∇d_c·(p − t_c)), which makes the error fall as h³ instead of h²;
 *   the normal is the bilinear mean of n, renormalised. {@link spriteAccuracy} measures
 *   what this costs against the table.
 *
 * @module
 */

import { Rng } from "../math/rng.ts";
import { integerIn, options as checkOptions, positive } from "../math/validate.ts";
import { flag } from "./options.ts";
import { StarShape } from "./shape.ts";

const TWO_PI = 2 * Math.PI;

/** Default cells per side of a CPU sprite (64 KiB of classes, 1.5 MiB of fields). */
export const DEFAULT_CPU_SPRITE_RESOLUTION = 256;

/** Floats per cell of {@link ShapeSprite.fields}: d, ∂d/∂x, ∂d/∂y, f, n_x, n_y. */
export const SPRITE_FIELDS = 6;

/** Angular sectors of {@link ShapeSprite.sectorMax} (a power of two). */
export const SPRITE_SECTORS = 128;

/**
 * Detection uses a sprite's cell classes to reject nodes only when at least this share of
 * the cells inside the shape's bounding disc is wholly outside the shape
 * ({@link ShapeSprite.discOutsideShare}). Below it (circles, nearly round shapes) almost every
 * node in a lens lies in a boundary cell, so the byte read is pure overhead. Above it the
 * cells save step time, the more the larger the share (least for nearly round shapes, most for
 * crosses and random many-coefficient shapes); the measurement is in docs/benchmarks.md.
 *
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { CELL_REJECT_MIN_SHARE, ShapeSprite } from "./sprite.ts";
 * import { expect } from "expect";
 * const circle = ShapeSprite.of(StarShape.preset("circle"), 64);
 * expect(circle.discOutsideShare).toBeLessThan(CELL_REJECT_MIN_SHARE);
 * expect(circle.rejects).toBe(false); // every lens node of a circle is tested directly
 * expect(ShapeSprite.of(StarShape.preset("cross"), 64).rejects).toBe(true);
 * ```
 */
export const CELL_REJECT_MIN_SHARE = 0.01;

/** Cell class: every point outside the shape (node rejected without a test). */
export const CELL_OUTSIDE = 0;
/** Cell class: the boundary crosses the cell (or may, within the margins). */
export const CELL_BOUNDARY = 1;
/** Cell class: every point inside the shape. */
export const CELL_INSIDE = 2;

const cache = new WeakMap<StarShape, Map<number, ShapeSprite>>();

/**
 * A star shape's CPU sprite: cell classes for rejecting nodes and, on request, the sampled
 * distance fields. Build it with {@link ShapeSprite.of} to share one per shape and resolution.
 *
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { CELL_OUTSIDE, ShapeSprite } from "./sprite.ts";
 * import { expect } from "expect";
 * const cross = StarShape.preset("cross", { rMax: 0.005 });
 * const s = ShapeSprite.of(cross, 128);
 * expect(s.resolution).toBe(128);
 * expect(s.classAt(0, 0)).toBe(2); // the centre is inside
 * expect(s.classAt(0.0049, 0.0049)).toBe(CELL_OUTSIDE); // beyond the bounding circle
 * ```
 */
export class ShapeSprite {
  /** The shape sampled. */
  readonly shape: StarShape;
  /** Cells per side (S). */
  readonly resolution: number;
  /** Half-width of the square (m): r_max. */
  readonly halfWidth: number;
  /** Cell size h = 2·r_max/S (m). */
  readonly cell: number;
  /** 1/h (1/m). */
  readonly invCell: number;
  /** Class of each cell, row-major from (−r_max, −r_max): 0 outside, 1 boundary, 2 inside. */
  readonly classes: Uint8Array;
  /** Fraction of the cells of each class [outside, boundary, inside]. */
  readonly classShare: readonly [number, number, number];
  /**
   * Share of the cells whose centre lies inside the bounding disc (radius r_max) that are
   * wholly outside the shape: 0 for a circle, about 1 − area/(π·r_max²) for a shape much
   * larger than a cell.
   */
  readonly discOutsideShare: number;
  /**
   * Detection rejects nodes by these cell classes (`discOutsideShare` ≥
   * {@link CELL_REJECT_MIN_SHARE}); otherwise every node in a lens takes the table test
   * directly. Either way the results are the same bytes.
   */
  readonly rejects: boolean;
  /**
   * Largest radius over runs of angular sectors, a circular sparse table: entry
   * `l·SPRITE_SECTORS + i` bounds r(α) (table and exact curve, with a 1e-6·r_max margin) over
   * the 2^l sectors from sector i on (sector k spans [2πk, 2π(k+1))/SPRITE_SECTORS).
   * Detection does not use it: a pair rejection built on it (the largest radii of both grains
   * over their lens angles against the centre distance) was exact but, on settled beds of
   * crosses, flowers and random shapes, removed few node tests and made the step slower
   * (docs/benchmarks.md).
   */
  readonly sectorMax: Float64Array;
  #fields: Float32Array | null = null;

  /**
   * Classify the cells of `shape` at `resolution` cells per side (16 … 4096).
   *
   * @param shape the star shape
   * @param resolution cells per side @default 256
   */
  constructor(shape: StarShape, resolution: number = DEFAULT_CPU_SPRITE_RESOLUTION) {
    if (!(shape instanceof StarShape)) {
      throw new TypeError(`ShapeSprite: shape (${String(shape)}) must be a StarShape`);
    }
    integerIn("ShapeSprite", "resolution", resolution, 16, 4096);
    const S = resolution;
    this.shape = shape;
    this.resolution = S;
    this.halfWidth = shape.rMax;
    this.cell = (2 * shape.rMax) / S;
    this.invCell = S / (2 * shape.rMax);
    this.classes = new Uint8Array(S * S);
    const lut = shape.lutR, n = shape.lutSize, scale = shape.lutScale;
    let lutMin = Infinity, lutMax = 0;
    for (let k = 0; k < n; k++) {
      if (lut[k] < lutMin) lutMin = lut[k];
      if (lut[k] > lutMax) lutMax = lut[k];
    }
    const L = this.halfWidth, h = this.cell, pad = 1e-6 * h, tol = 1e-9 * L;
    const count = [0, 0, 0];
    let disc = 0, discOut = 0;
    for (let v = 0; v < S; v++) {
      const y0 = -L + v * h - pad, y1 = -L + (v + 1) * h + pad;
      for (let u = 0; u < S; u++) {
        const x0 = -L + u * h - pad, x1 = -L + (u + 1) * h + pad;
        // polar extent of the cell
        const nx = x0 > 0 ? x0 : x1 < 0 ? x1 : 0, ny = y0 > 0 ? y0 : y1 < 0 ? y1 : 0;
        const rhoMin = Math.sqrt(nx * nx + ny * ny);
        const fx = Math.max(-x0, x1), fy = Math.max(-y0, y1);
        const rhoMax = Math.sqrt(fx * fx + fy * fy);
        let rLo = lutMin, rHi = lutMax;
        if (rhoMin > 0) {
          const ac = Math.atan2(0.5 * (y0 + y1), 0.5 * (x0 + x1));
          let dLo = 0, dHi = 0;
          for (let c = 0; c < 4; c++) {
            const cx = c & 1 ? x1 : x0, cy = c & 2 ? y1 : y0;
            let d = Math.atan2(cy, cx) - ac;
            d -= TWO_PI * Math.round(d / TWO_PI);
            if (d < dLo) dLo = d;
            if (d > dHi) dHi = d;
          }
          // r_LUT is linear between samples: its extremes over [a0, a1] are at the samples
          // inside and at the two ends (bounded by their neighbouring samples).
          let t0 = (ac + dLo) * scale, t1 = (ac + dHi) * scale;
          const shift = n * Math.floor(t0 / n);
          t0 -= shift;
          t1 -= shift;
          const k0 = Math.floor(t0), k1 = Math.ceil(t1);
          rLo = Infinity;
          rHi = 0;
          for (let k = k0; k <= k1; k++) {
            const r = lut[k % n];
            if (r < rLo) rLo = r;
            if (r > rHi) rHi = r;
          }
        }
        const cls = rhoMin > rHi + tol
          ? CELL_OUTSIDE
          : rhoMax < rLo - tol
          ? CELL_INSIDE
          : CELL_BOUNDARY;
        this.classes[v * S + u] = cls;
        count[cls]++;
        const cx = 0.5 * (x0 + x1), cy = 0.5 * (y0 + y1);
        if (cx * cx + cy * cy < L * L) {
          disc++;
          if (cls === CELL_OUTSIDE) discOut++;
        }
      }
    }
    this.classShare = [count[0] / (S * S), count[1] / (S * S), count[2] / (S * S)];
    this.discOutsideShare = discOut / disc;
    this.rejects = this.discOutsideShare >= CELL_REJECT_MIN_SHARE;
    this.sectorMax = sectorTable(shape);
  }

  /**
   * The sprite of `shape` at `resolution`, built on first use and shared afterwards (cached
   * per shape object).
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { ShapeSprite } from "./sprite.ts";
   * import { expect } from "expect";
   * const shape = StarShape.preset("flower");
   * expect(ShapeSprite.of(shape, 64)).toBe(ShapeSprite.of(shape, 64));
   * ```
   */
  static of(shape: StarShape, resolution: number = DEFAULT_CPU_SPRITE_RESOLUTION): ShapeSprite {
    if (!(shape instanceof StarShape)) {
      throw new TypeError(`ShapeSprite.of: shape (${String(shape)}) must be a StarShape`);
    }
    let m = cache.get(shape);
    if (!m) cache.set(shape, m = new Map());
    let s = m.get(resolution);
    if (!s) m.set(resolution, s = new ShapeSprite(shape, resolution));
    return s;
  }

  /**
   * The class of the cell holding the body-frame point (x, y): 0 outside (also beyond the
   * square), 1 boundary, 2 inside.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { ShapeSprite } from "./sprite.ts";
   * import { expect } from "expect";
   * const s = ShapeSprite.of(StarShape.preset("circle", { rMax: 1 }), 64);
   * expect(s.classAt(0.2, 0.1)).toBe(2);
   * expect(s.classAt(0.999, 0)).toBe(1);
   * expect(s.classAt(3, 0)).toBe(0);
   * ```
   */
  classAt(x: number, y: number): number {
    const S = this.resolution;
    const u = Math.floor((x + this.halfWidth) * this.invCell);
    const v = Math.floor((y + this.halfWidth) * this.invCell);
    if (!(u >= 0 && u < S && v >= 0 && v < S)) return CELL_OUTSIDE;
    return this.classes[v * S + u];
  }

  /**
   * The sampled fields, six float32 per cell centre (d, ∂d/∂x, ∂d/∂y, f, n_x, n_y),
   * row-major; computed on first use (24 bytes per cell).
   */
  get fields(): Float32Array {
    return this.#fields ??= sampleFields(this.shape, this.resolution, this.halfWidth, this.cell);
  }

  /**
   * The sprite's signed distance at the body-frame point (x, y) (m): first-order when
   * `firstOrder`, else radial; half-gradient corrected bilinear read of the cell centres.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { ShapeSprite } from "./sprite.ts";
   * import { expect } from "expect";
   * const s = ShapeSprite.of(StarShape.preset("circle", { rMax: 1 }), 128);
   * expect(s.distance(0.6, 0.7, true)).toBeCloseTo(Math.hypot(0.6, 0.7) - 1, 5);
   * ```
   */
  distance(x: number, y: number, firstOrder: boolean): number {
    flag("ShapeSprite.distance", "firstOrder", firstOrder);
    spriteRead(this, x, y, firstOrder, READ);
    return READ[0];
  }

  /**
   * The sprite's unit outward normal at the body-frame point (x, y), into `out[0..1]`.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { ShapeSprite } from "./sprite.ts";
   * import { expect } from "expect";
   * const n = ShapeSprite.of(StarShape.preset("circle", { rMax: 1 }), 64).normal(0, 0.95);
   * expect(n[1]).toBeCloseTo(1, 6);
   * ```
   */
  normal(x: number, y: number, out: Float64Array = new Float64Array(2)): Float64Array {
    spriteRead(this, x, y, true, READ);
    out[0] = READ[1];
    out[1] = READ[2];
    return out;
  }
}

const READ = new Float64Array(3);

/** The circular sparse table of {@link ShapeSprite.sectorMax}. */
function sectorTable(shape: StarShape): Float64Array {
  const M = SPRITE_SECTORS, levels = Math.log2(M) + 1;
  const t = new Float64Array(levels * M);
  const lut = shape.lutR, n = shape.lutSize;
  for (let i = 0; i < M; i++) {
    // samples bounding the sector, both ends included
    const k0 = Math.floor((i * n) / M), k1 = Math.ceil(((i + 1) * n) / M);
    let mx = 0;
    for (let k = k0; k <= k1; k++) if (lut[k % n] > mx) mx = lut[k % n];
    t[i] = mx + 1e-6 * shape.rMax;
  }
  for (let l = 1; l < levels; l++) {
    const half = 1 << (l - 1);
    for (let i = 0; i < M; i++) {
      const a = t[(l - 1) * M + i], b = t[(l - 1) * M + ((i + half) & (M - 1))];
      t[l * M + i] = a > b ? a : b;
    }
  }
  return t;
}

/**
 * The largest radius of the sprite's shape over body-frame angles [a0, a1] (a1 ≥ a0), from
 * the sector table; r_max when the interval spans every sector. @internal
 */
export function sectorRangeMax(table: Float64Array, a0: number, a1: number): number {
  const M = SPRITE_SECTORS, sc = M / TWO_PI;
  const s0 = Math.floor(a0 * sc), len = Math.floor(a1 * sc) - s0 + 1;
  const top = Math.log2(M);
  if (!(len < M)) return table[top * M];
  const l = 31 - Math.clz32(len);
  const i = s0 & (M - 1), j = (s0 + len - (1 << l)) & (M - 1);
  const x = table[l * M + i], y = table[l * M + j];
  return x > y ? x : y;
}

/**
 * Read the sprite at body-frame (x, y): `out[0]` the distance (first-order or radial),
 * `out[1..2]` the unit normal. Allocation-free; the hot loop of detection inlines the same
 * arithmetic. @internal
 */
export function spriteRead(
  s: ShapeSprite,
  x: number,
  y: number,
  firstOrder: boolean,
  out: Float64Array,
): void {
  const S = s.resolution, h = s.cell, F = s.fields;
  const tx = (x + s.halfWidth) * s.invCell - 0.5, ty = (y + s.halfWidth) * s.invCell - 0.5;
  let x0 = Math.floor(tx), y0 = Math.floor(ty);
  x0 = x0 < 0 ? 0 : x0 > S - 2 ? S - 2 : x0;
  y0 = y0 < 0 ? 0 : y0 > S - 2 ? S - 2 : y0;
  const fx = tx - x0, fy = ty - y0;
  let d = 0, nx = 0, ny = 0;
  for (let c = 0; c < 4; c++) {
    const ox = c & 1, oy = c >> 1;
    const w = (ox ? fx : 1 - fx) * (oy ? fy : 1 - fy);
    const o = SPRITE_FIELDS * ((y0 + oy) * S + x0 + ox);
    const px = (fx - ox) * h, py = (fy - oy) * h;
    if (firstOrder) d += w * (F[o] + 0.5 * (F[o + 1] * px + F[o + 2] * py));
    else {
      // ∇f = ‖∇f‖·n and ‖∇f‖ = f/d
      d += w * (F[o + 3] + 0.5 * (F[o + 4] * px + F[o + 5] * py) * gradNorm(F, o));
    }
    nx += w * F[o + 4];
    ny += w * F[o + 5];
  }
  const l = Math.sqrt(nx * nx + ny * ny);
  out[0] = d;
  out[1] = l > 0 ? nx / l : 1;
  out[2] = l > 0 ? ny / l : 0;
}

/** ‖∇f‖ at a sample: f/d where both are non-zero, else 1. */
function gradNorm(F: Float32Array, o: number): number {
  const d = F[o], f = F[o + 3];
  return d !== 0 && f !== 0 ? f / d : 1;
}

/** Sample d, ∇d, f and n at the cell centres from the exact Fourier sum. */
function sampleFields(shape: StarShape, S: number, L: number, h: number): Float32Array {
  const F = new Float32Array(SPRITE_FIELDS * S * S), q = new Float64Array(7);
  for (let v = 0; v < S; v++) {
    const y = -L + (v + 0.5) * h;
    for (let u = 0; u < S; u++) {
      const o = SPRITE_FIELDS * (v * S + u);
      implicitFieldsAt(shape, -L + (u + 0.5) * h, y, q);
      for (let k = 0; k < SPRITE_FIELDS; k++) F[o + k] = q[k];
    }
  }
  return F;
}

/**
 * The implicit function of `shape` and what the sprites store, at (x, y) in the body frame
 * (m), from the exact Fourier sum (r, r′, r″ by the angle-addition recurrence): `out[0]` the
 * first-order distance d = f/‖∇f‖, `out[1..2]` ∇d, `out[3]` f = ρ − r(α), `out[4..5]` the unit
 * normal ∇f/‖∇f‖, `out[6]` ‖∇f‖. At the polar centre: d = f = −r_min, n = (1, 0).
 *
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { implicitFieldsAt } from "./sprite.ts";
 * import { expect } from "expect";
 * const out = new Float64Array(7);
 * implicitFieldsAt(StarShape.preset("circle", { rMax: 1 }), 2, 0, out);
 * expect(out[0]).toBeCloseTo(1, 12); // one unit outside the unit circle
 * expect(out[4]).toBeCloseTo(1, 12);
 * ```
 */
export function implicitFieldsAt(shape: StarShape, x: number, y: number, out: Float64Array): void {
  const rho = Math.sqrt(x * x + y * y);
  if (rho === 0) {
    out[0] = out[3] = -shape.rMin;
    out[1] = out[2] = out[5] = 0;
    out[4] = out[6] = 1;
    return;
  }
  const a0 = shape.a0, cs = shape.cosCoef, sn = shape.sinCoef;
  const K = Math.max(cs.length, sn.length);
  const c1 = x / rho, s1 = y / rho;
  let r = a0, r1 = 0, r2 = 0, ck = 1, sk = 0;
  for (let k = 1; k <= K; k++) {
    const c = ck * c1 - sk * s1;
    sk = sk * c1 + ck * s1;
    ck = c;
    const ak = k <= cs.length ? cs[k - 1] : 0, bk = k <= sn.length ? sn[k - 1] : 0;
    r += ak * ck + bk * sk;
    r1 += k * (bk * ck - ak * sk);
    r2 -= k * k * (ak * ck + bk * sk);
  }
  const f = rho - r, q = r1 / rho, g = Math.sqrt(1 + q * q);
  const d = f / g;
  // ∂g/∂ρ and (1/ρ)∂g/∂α·ρ of g = √(1 + (r′/ρ)²); e_ρ = (c1, s1), e_α = (−s1, c1)
  const dgRho = -(r1 * r1) / (g * rho * rho * rho);
  const dgAl = (r1 * r2) / (g * rho * rho);
  const ddRho = (g - f * dgRho) / (g * g);
  const ddAl = (-r1 * g - f * dgAl) / (g * g) / rho;
  out[0] = d;
  out[1] = ddRho * c1 - ddAl * s1;
  out[2] = ddRho * s1 + ddAl * c1;
  out[3] = f;
  out[4] = (c1 + q * s1) / g;
  out[5] = (s1 - q * c1) / g;
  out[6] = g;
}

/** Options of {@linkcode spriteAccuracy}. */
export interface SpriteAccuracyOptions {
  /** Cells per side. @default 256 */
  resolution?: number;
  /** Keep points whose table first-order |distance| is below band·r_max. @default 0.02 */
  band?: number;
  /** Random points tested (seeded). @default 20000 */
  samples?: number;
  /** Seed of the sample points. @default 1 */
  seed?: number;
}

/** What a CPU sprite costs in accuracy against the 1D lookup table. */
export interface SpriteAccuracyReport {
  /** Cells per side. */
  resolution: number;
  /** Cell size over r_max. */
  cellOverRMax: number;
  /** Points tested. */
  samples: number;
  /** Largest |d_sprite − d_LUT| of the first-order distance, over r_max. */
  maxFirstOrderError: number;
  /** Root-mean-square of the same, over r_max. */
  rmsFirstOrderError: number;
  /** Largest |f_sprite − f_LUT| of the radial distance, over r_max. */
  maxRadialError: number;
  /** Largest angle between the sprite's and the table's normal (rad). */
  maxNormalError: number;
  /** Points whose inside/outside verdict differs (sprite first-order d vs table f). */
  verdictFlips: number;
  /** Largest |d_LUT| among the flipped points, over r_max (0 when none). */
  maxFlipDistance: number;
  /** Points of the band in class-0 cells that the table puts inside (must be 0). */
  classErrors: number;
}

const ACCURACY_KEYS = ["resolution", "band", "samples", "seed"];

/**
 * Measure what a CPU sprite costs against the 1D lookup table: random points (seeded) in the
 * band |d| < band·r_max around the boundary — where node tests decide contacts and overlaps
 * — compare the sprite's first-order and radial distances, normal and inside/outside verdict
 * with the table's, and check the cell classes (no table-inside point may sit in a class-0
 * cell).
 *
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { spriteAccuracy } from "./sprite.ts";
 * import { expect } from "expect";
 * const cross = StarShape.preset("cross", { area: 30e-6 });
 * const e = spriteAccuracy(cross, { resolution: 256, samples: 2000 });
 * expect(e.classErrors).toBe(0);
 * expect(e.maxFirstOrderError).toBeLessThan(1e-3); // of r_max
 * ```
 */
export function spriteAccuracy(
  shape: StarShape,
  options: SpriteAccuracyOptions = {},
): SpriteAccuracyReport {
  const where = "spriteAccuracy";
  const o = checkOptions<SpriteAccuracyOptions>(where, "options", options, ACCURACY_KEYS);
  const sprite = ShapeSprite.of(
    shape,
    integerIn(where, "resolution", o.resolution ?? DEFAULT_CPU_SPRITE_RESOLUTION, 16, 4096),
  );
  const R = shape.rMax;
  const band = positive(where, "band", o.band ?? 0.02) * R;
  const samples = integerIn(where, "samples", o.samples ?? 20000, 1, 1e8);
  const rng = new Rng(o.seed ?? 1);
  const rd = new Float64Array(3);
  let n = 0, max = 0, sq = 0, maxR = 0, maxN = 0, flips = 0, maxFlip = 0, classErr = 0;
  for (let attempt = 0; n < samples && attempt < 1000 * samples; attempt++) {
    const al = rng.uniform(0, TWO_PI);
    const rr = shape.radiusLut(al) + rng.uniform(-2 * band, 2 * band);
    if (!(rr > 0 && rr < R)) continue;
    const x = rr * Math.cos(al), y = rr * Math.sin(al);
    // the table's values, as detection computes them
    const rho = Math.sqrt(x * x + y * y), a = Math.atan2(y, x);
    const r = shape.radiusLut(a), q = shape.derivativeLut(a) / rho;
    const g = Math.sqrt(1 + q * q), f = rho - r, d = f / g;
    if (!(Math.abs(d) < band)) continue;
    n++;
    const nx = (x + q * y) / (rho * g), ny = (y - q * x) / (rho * g);
    spriteRead(sprite, x, y, true, rd);
    const e = Math.abs(rd[0] - d);
    const dot = Math.min(1, nx * rd[1] + ny * rd[2]);
    const ang = Math.atan2(Math.abs(nx * rd[2] - ny * rd[1]), dot);
    if ((rd[0] < 0) !== (f < 0)) {
      flips++;
      if (Math.abs(d) > maxFlip) maxFlip = Math.abs(d);
    }
    if (f < 0 && sprite.classAt(x, y) === CELL_OUTSIDE) classErr++;
    spriteRead(sprite, x, y, false, rd);
    const er = Math.abs(rd[0] - f);
    if (e > max) max = e;
    if (er > maxR) maxR = er;
    if (ang > maxN) maxN = ang;
    sq += e * e;
  }
  return {
    resolution: sprite.resolution,
    cellOverRMax: sprite.cell / R,
    samples: n,
    maxFirstOrderError: max / R,
    rmsFirstOrderError: Math.sqrt(sq / Math.max(1, n)) / R,
    maxRadialError: maxR / R,
    maxNormalError: maxN,
    verdictFlips: flips,
    maxFlipDistance: maxFlip / R,
    classErrors: classErr,
  };
}
