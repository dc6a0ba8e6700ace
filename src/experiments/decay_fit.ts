/**
 * A least-squares fit of an exponential decay, y = asymptote + (initial − asymptote)·exp(−x/length),
 * with the asymptote free or given (`calibrateRftMemory` fits its plates' pressure with it).
 *
 * @module
 */
import { checkXY, minimize1d } from "./fit.ts";

/** A fit of `y = asymptote + (initial − asymptote)·exp(−x/length)`. */
export interface ExponentialDecayFit {
  /** Decay length (units of x). */
  length: number;
  /** The fitted value at x = 0. */
  initial: number;
  /** The value far along x (the given one when fixed). */
  asymptote: number;
  /** Coefficient of determination R² (1 for a perfect fit). */
  r2: number;
  /** Root-mean-square residual (units of y). */
  rms: number;
  /** Number of points. */
  n: number;
}

/** Options of {@link exponentialDecayFit}. */
export interface ExponentialDecayOptions {
  /** Fix the asymptote instead of fitting it (e.g. 0 for a decay to nothing). @default fitted */
  asymptote?: number;
  /**
   * The range [min, max] searched for the decay length (units of x), 0 < min < max; a length
   * found at an end of it means the data favour one outside.
   * @default [1e-3, 1e3] × the span of x
   */
  lengths?: readonly [number, number];
}

/**
 * Least-squares fit of an exponential decay `y = y∞ + (y0 − y∞)·exp(−x/ℓ)`: ℓ by a search on
 * a log-spaced grid of 400 lengths refined by golden section, y0 and y∞ (or y0 alone when
 * `asymptote` is given) by linear least squares at each ℓ.
 *
 * @param x abscissae, at least two distinct
 * @param y ordinates, as many as `x`
 * @param options a fixed asymptote, the range of lengths searched
 * @returns ℓ, y0, y∞, R², rms residual and the number of points
 * @throws {RangeError} with too few points (3 free, 2 with a fixed asymptote), mismatched
 *   lengths, non-finite values, all x equal, or a bad range of lengths
 * @example
 * ```ts
 * import { exponentialDecayFit } from "./decay_fit.ts";
 * import { expect } from "expect";
 * const x = Array.from({ length: 50 }, (_, i) => 0.1 * i);
 * const f = exponentialDecayFit(x, x.map((v) => 2 + 5 * Math.exp(-v / 1.3)));
 * expect(f.length).toBeCloseTo(1.3, 6);
 * expect([f.initial, f.asymptote]).toEqual([expect.closeTo(7, 6), expect.closeTo(2, 6)]);
 * const g = exponentialDecayFit(x, x.map((v) => 4 * Math.exp(-v / 0.4)), { asymptote: 0 });
 * expect(g.length).toBeCloseTo(0.4, 6);
 * expect(g.r2).toBeCloseTo(1, 9);
 * ```
 */
export function exponentialDecayFit(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  options: ExponentialDecayOptions = {},
): ExponentialDecayFit {
  const w = "exponentialDecayFit";
  const fixed = options.asymptote;
  if (fixed !== undefined && !Number.isFinite(fixed)) {
    throw new RangeError(`${w}: asymptote (${fixed}) must be a finite number`);
  }
  checkXY(w, x, y, fixed === undefined ? 3 : 2);
  const n = x.length;
  let lo = Infinity, hi = -Infinity, my = 0;
  for (let i = 0; i < n; i++) lo = Math.min(lo, x[i]), hi = Math.max(hi, x[i]), my += y[i] / n;
  if (!(hi > lo)) throw new RangeError(`${w}: all ${n} x are equal (${lo}); no decay is seen`);
  const [l0, l1] = options.lengths ?? [1e-3 * (hi - lo), 1e3 * (hi - lo)];
  if (!(l0 > 0 && l1 > l0 && Number.isFinite(l1))) {
    throw new RangeError(`${w}: lengths ([${l0}, ${l1}]) must have 0 < min < max`);
  }
  // y = c + b·e, e = exp(−x/ℓ): c, b by least squares, then the residual (a second pass,
  // so that an exact fit gives exactly 0)
  let c = 0, b = 0;
  const solve = (ell: number): number => {
    let se = 0, see = 0, sey = 0;
    if (fixed === undefined) { for (let i = 0; i < n; i++) se += Math.exp(-x[i] / ell) / n; }
    for (let i = 0; i < n; i++) {
      const e = Math.exp(-x[i] / ell), ec = fixed === undefined ? e - se : e;
      see += ec * ec, sey += ec * (fixed === undefined ? y[i] - my : y[i] - fixed);
    }
    b = see > 0 ? sey / see : 0;
    c = fixed === undefined ? my - b * se : fixed;
    let ss = 0;
    for (let i = 0; i < n; i++) ss += (y[i] - c - b * Math.exp(-x[i] / ell)) ** 2;
    return ss;
  };
  const grid = 400, step = Math.log(l1 / l0) / (grid - 1);
  let best = 0, bestSs = Infinity;
  for (let k = 0; k < grid; k++) {
    const ss = solve(l0 * Math.exp(k * step));
    if (ss < bestSs) best = k, bestSs = ss;
  }
  const u0 = Math.log(l0) + Math.max(0, best - 1) * step;
  const u1 = Math.log(l0) + Math.min(grid - 1, best + 1) * step;
  const length = Math.exp(minimize1d((u) => solve(Math.exp(u)), u0, u1, 1e-13));
  const ss = solve(length);
  let st = 0;
  for (let i = 0; i < n; i++) st += (y[i] - my) ** 2;
  return {
    length,
    initial: c + b,
    asymptote: c,
    r2: st > 0 ? 1 - ss / st : ss === 0 ? 1 : 0,
    rms: Math.sqrt(ss / n),
    n,
  };
}
