/**
 * The "sprite" of a star shape: its implicit function sampled on a 2D grid around the polar
 * centre, so that a node test on the GPU is a few texture reads instead of an atan2 and two
 * table reads (the StarDEM paper's GPU path).
 *
 * Each texel stores, at its centre p (body frame, polar centre at the origin), two RGBA
 * values: A = (d, ∂d/∂x, ∂d/∂y, f) with f = ‖p‖ − r(α) the radial distance and d = f/‖∇f‖ the
 * first-order distance, and B = (n_x, n_y, ‖∇f‖, 0) with n = ∇f/‖∇f‖ the unit outward normal.
 * They come from the exact Fourier sum (r, r′ and r″), not from the tables.
 *
 * Reading a distance at p combines the four surrounding texels c with bilinear weights w_c and
 * a half-gradient correction, d(p) ≈ Σ w_c·(d_c + ½∇d_c·(p − t_c)) (t_c the texel centre):
 * the bilinear error and the first-order Taylor error have opposite signs and equal size for a
 * quadratic, so the sum is exact to second order and the error falls as h³ instead of h². The
 * normal is the bilinear mean of n, renormalised. {@link spriteError} measures what this adds
 * against the CPU's 1D lookup tables.
 *
 * @module
 */

import { Rng } from "../../math/rng.ts";
import { integerIn, options as checkOptions, positive } from "../../math/validate.ts";
import { implicitFieldsAt } from "../sprite.ts";
import { firstOrderDistance, firstOrderNormal, radialDistance } from "../distance.ts";
import { StarShape } from "../shape.ts";
import { flag } from "../options.ts";

/** Default texels per side of a sprite. */
export const DEFAULT_SPRITE_RESOLUTION = 1024;

/**
 * A star shape sampled on an S × S grid over [−L, L]² (body frame, polar centre at the
 * origin), L = r_max·(1 + 4/S): the texture data of the GPU path.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { StarSprite } from "./sprite.ts";
 * import { expect } from "expect";
 * const sprite = new StarSprite(StarShape.preset("cross", { rMax: 0.005 }), 128);
 * expect(sprite.resolution).toBe(128);
 * expect(sprite.a).toHaveLength(4 * 128 * 128);
 * // at an arm's tip (α = π/8, r = r_max) the sampled distance is ~0; inside it is negative
 * const tip = [0.005 * Math.cos(Math.PI / 8), 0.005 * Math.sin(Math.PI / 8)];
 * expect(Math.abs(sprite.distance(tip[0], tip[1], true))).toBeLessThan(1e-7);
 * expect(sprite.distance(0, 0.001, true)).toBeLessThan(0);
 * ```
 */
export class StarSprite {
  /** The shape sampled. */
  readonly shape: StarShape;
  /** Texels per side (S). */
  readonly resolution: number;
  /** Half-width of the sampled square (m): L = r_max·(1 + 4/S). */
  readonly halfWidth: number;
  /** Texel size h = 2L/S (m). */
  readonly texel: number;
  /** Texture A, RGBA per texel, row-major from (−L, −L): (d, ∂d/∂x, ∂d/∂y, f). */
  readonly a: Float32Array<ArrayBuffer>;
  /** Texture B, RGBA per texel: (n_x, n_y, ‖∇f‖, 0). */
  readonly b: Float32Array<ArrayBuffer>;

  /**
   * Sample `shape` at `resolution` texels per side (16 … 8192).
   *
   * @param shape the star shape
   * @param resolution texels per side @default 1024
   */
  constructor(shape: StarShape, resolution: number = DEFAULT_SPRITE_RESOLUTION) {
    if (!(shape instanceof StarShape)) {
      throw new TypeError(`StarSprite: shape (${String(shape)}) must be a StarShape`);
    }
    integerIn("StarSprite", "resolution", resolution, 16, 8192);
    const S = resolution;
    this.shape = shape;
    this.resolution = S;
    this.halfWidth = shape.rMax * (1 + 4 / S);
    this.texel = (2 * this.halfWidth) / S;
    this.a = new Float32Array(4 * S * S);
    this.b = new Float32Array(4 * S * S);
    const L = this.halfWidth, h = this.texel, q = new Float64Array(7);
    for (let v = 0; v < S; v++) {
      const y = -L + (v + 0.5) * h;
      for (let u = 0; u < S; u++) {
        const o = 4 * (v * S + u);
        implicitFieldsAt(shape, -L + (u + 0.5) * h, y, q);
        this.a[o] = q[0], this.a[o + 1] = q[1], this.a[o + 2] = q[2], this.a[o + 3] = q[3];
        this.b[o] = q[4], this.b[o + 1] = q[5], this.b[o + 2] = q[6];
      }
    }
  }

  /**
   * The sprite's distance at (x, y) (body frame, m) as the GPU computes it: first-order when
   * `firstOrder`, else radial; `corrected` adds the half-gradient term (the GPU always does),
   * false gives plain bilinear interpolation.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { StarSprite } from "./sprite.ts";
   * import { expect } from "expect";
   * const circle = StarShape.preset("circle", { rMax: 1 });
   * const s = new StarSprite(circle, 64);
   * expect(s.distance(0.7, 0.7, true)).toBeCloseTo(Math.hypot(0.7, 0.7) - 1, 4);
   * ```
   */
  distance(x: number, y: number, firstOrder: boolean, corrected = true): number {
    flag("StarSprite.distance", "firstOrder", firstOrder);
    flag("StarSprite.distance", "corrected", corrected);
    const S = this.resolution, h = this.texel;
    const cell = texelCell(this, x, y);
    const x0 = cell[0], y0 = cell[1], fx = cell[2], fy = cell[3];
    let sum = 0;
    for (let c = 0; c < 4; c++) {
      const dx = c & 1, dy = c >> 1;
      const w = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy);
      const o = 4 * ((y0 + dy) * S + x0 + dx);
      const px = (fx - dx) * h, py = (fy - dy) * h;
      if (firstOrder) {
        const corr = corrected ? 0.5 * (this.a[o + 1] * px + this.a[o + 2] * py) : 0;
        sum += w * (this.a[o] + corr);
      } else {
        const g = this.b[o + 2];
        const corr = corrected ? 0.5 * g * (this.b[o] * px + this.b[o + 1] * py) : 0;
        sum += w * (this.a[o + 3] + corr);
      }
    }
    return sum;
  }

  /**
   * The sprite's unit outward normal at (x, y) (body frame): the bilinear mean of the texel
   * normals, renormalised; written into `out[0..1]`.
   *
   * @example
   * ```ts
   * import { StarShape } from "@grainlab/grainlab/star2d";
   * import { StarSprite } from "./sprite.ts";
   * import { expect } from "expect";
   * const s = new StarSprite(StarShape.preset("circle", { rMax: 1 }), 64);
   * const n = s.normal(0, 0.9);
   * expect(n[1]).toBeCloseTo(1, 6);
   * ```
   */
  normal(x: number, y: number, out: Float64Array = new Float64Array(2)): Float64Array {
    const S = this.resolution;
    const cell = texelCell(this, x, y);
    const x0 = cell[0], y0 = cell[1], fx = cell[2], fy = cell[3];
    let nx = 0, ny = 0;
    for (let c = 0; c < 4; c++) {
      const dx = c & 1, dy = c >> 1;
      const w = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy);
      const o = 4 * ((y0 + dy) * S + x0 + dx);
      nx += w * this.b[o];
      ny += w * this.b[o + 1];
    }
    const l = Math.sqrt(nx * nx + ny * ny);
    out[0] = l > 0 ? nx / l : 1;
    out[1] = l > 0 ? ny / l : 0;
    return out;
  }

  /** Bytes of the two textures (32 per texel). */
  get bytes(): number {
    return 32 * this.resolution * this.resolution;
  }
}

const CELL = new Float64Array(4);

/**
 * The texels around (x, y) (body frame) that a read combines: the lower-left one (x0, y0),
 * clamped to the grid, and the bilinear fractions (fx, fy), as [x0, y0, fx, fy] in a scratch
 * array that the next call overwrites.
 */
function texelCell(s: StarSprite, x: number, y: number): Float64Array {
  const S = s.resolution, h = s.texel, L = s.halfWidth;
  const tx = (x + L) / h - 0.5, ty = (y + L) / h - 0.5;
  let x0 = Math.floor(tx), y0 = Math.floor(ty);
  x0 = x0 < 0 ? 0 : x0 > S - 2 ? S - 2 : x0;
  y0 = y0 < 0 ? 0 : y0 > S - 2 ? S - 2 : y0;
  CELL[0] = x0;
  CELL[1] = y0;
  CELL[2] = tx - x0;
  CELL[3] = ty - y0;
  return CELL;
}

/** Options of {@linkcode spriteError}. */
export interface SpriteErrorOptions {
  /** Texels per side. @default 1024 */
  resolution?: number;
  /** Keep points whose LUT first-order |distance| is below band·r_max. @default 0.02 */
  band?: number;
  /** Random points tested (seeded). @default 20000 */
  samples?: number;
  /** Seed of the sample points. @default 1 */
  seed?: number;
  /** Reuse a sprite already built (its resolution wins). */
  sprite?: StarSprite;
}

/** What a sprite adds to the distance, against the CPU's 1D lookup tables. */
export interface SpriteErrorReport {
  /** Texels per side. */
  resolution: number;
  /** Texel size (m). */
  texel: number;
  /** Texel size over r_max. */
  texelOverRMax: number;
  /** Half-width of the band tested, band·r_max (m). */
  band: number;
  /** Points tested. */
  samples: number;
  /** Largest |d_sprite − d_LUT| of the first-order distance (m), as the GPU reads it. */
  maxError: number;
  /** Root-mean-square of the same (m). */
  rmsError: number;
  /** maxError / r_max. */
  maxErrorOverRMax: number;
  /** The largest error of plain bilinear interpolation, without the gradient term (m). */
  maxErrorBilinear: number;
  /** Largest |d_sprite − d_LUT| of the radial distance (m). */
  maxRadialError: number;
  /** Largest angle between the sprite's and the LUT's normal (rad). */
  maxNormalError: number;
}

const ERROR_KEYS = ["resolution", "band", "samples", "seed", "sprite"];

/**
 * Measure the distance error a sprite adds against the CPU's 1D lookup tables: random points
 * (seeded) in the band |d| < band·r_max around the boundary — where node tests decide contacts
 * and overlaps — compare the sprite's first-order and radial distances and normal (as the GPU
 * reads them, in float64) with the LUT's.
 *
 * @example
 * ```ts
 * import { StarShape } from "@grainlab/grainlab/star2d";
 * import { spriteError } from "./sprite.ts";
 * import { expect } from "expect";
 * const cross = StarShape.preset("cross", { area: 30e-6 });
 * const e = spriteError(cross, { resolution: 256, samples: 2000 });
 * expect(e.texel).toBeCloseTo((2 * cross.rMax * (1 + 4 / 256)) / 256, 12);
 * expect(e.maxError).toBeLessThan(e.maxErrorBilinear); // the gradient term helps
 * expect(e.maxErrorOverRMax).toBeLessThan(1e-3);
 * ```
 */
export function spriteError(shape: StarShape, options: SpriteErrorOptions = {}): SpriteErrorReport {
  const o = checkOptions<SpriteErrorOptions>("spriteError", "options", options, ERROR_KEYS);
  const sprite = o.sprite ?? new StarSprite(shape, o.resolution ?? DEFAULT_SPRITE_RESOLUTION);
  const band = positive("spriteError", "band", o.band ?? 0.02) * shape.rMax;
  const samples = integerIn("spriteError", "samples", o.samples ?? 20000, 1, 1e8);
  const rng = new Rng(o.seed ?? 1);
  const p = new Float64Array(2), nl = new Float64Array(2), ns = new Float64Array(2);
  let n = 0, max = 0, sq = 0, maxB = 0, maxR = 0, maxN = 0;
  for (let attempt = 0; n < samples && attempt < 1000 * samples; attempt++) {
    // points near the boundary: a random angle, a radius within the band of r(α)
    const al = rng.uniform(0, 2 * Math.PI);
    const rr = shape.radiusLut(al) + rng.uniform(-2 * band, 2 * band);
    // the GPU never samples beyond the bounding circle (its node test rejects ρ ≥ r_max first)
    if (!(rr < shape.rMax)) continue;
    p[0] = rr * Math.cos(al);
    p[1] = rr * Math.sin(al);
    const d = firstOrderDistance(shape, p, { lookup: true });
    if (!(Math.abs(d) < band)) continue;
    n++;
    const e = Math.abs(sprite.distance(p[0], p[1], true) - d);
    const eb = Math.abs(sprite.distance(p[0], p[1], true, false) - d);
    const er = Math.abs(
      sprite.distance(p[0], p[1], false) - radialDistance(shape, p, { lookup: true }),
    );
    firstOrderNormal(shape, p, { lookup: true, out: nl });
    sprite.normal(p[0], p[1], ns);
    const dot = Math.min(1, nl[0] * ns[0] + nl[1] * ns[1]);
    const cross = Math.abs(nl[0] * ns[1] - nl[1] * ns[0]);
    const ang = Math.atan2(cross, dot);
    if (e > max) max = e;
    if (eb > maxB) maxB = eb;
    if (er > maxR) maxR = er;
    if (ang > maxN) maxN = ang;
    sq += e * e;
  }
  return {
    resolution: sprite.resolution,
    texel: sprite.texel,
    texelOverRMax: sprite.texel / shape.rMax,
    band,
    samples: n,
    maxError: max,
    rmsError: Math.sqrt(sq / Math.max(1, n)),
    maxErrorOverRMax: max / shape.rMax,
    maxErrorBilinear: maxB,
    maxRadialError: maxR,
    maxNormalError: maxN,
  };
}
