/**
 * Least-squares fits shared by the classic experiments: straight lines, power laws,
 * Beverloo's law, Janssen's saturation curve, exponential tails of histograms, and a
 * one-dimensional minimiser. Pure functions of arrays; every fit rejects inputs that would
 * make it meaningless (too few points, non-finite values) with a RangeError naming the
 * function and the rule.
 *
 * @module
 */
import {
  bool,
  finite,
  integerIn,
  options as checkOptions,
  positive,
  sizeGuard,
} from "../math/validate.ts";

/** A straight-line fit `y = slope·x + intercept`. */
export interface LinearFit {
  /** Slope. */
  slope: number;
  /** Intercept. */
  intercept: number;
  /** Coefficient of determination R² (1 for a perfect fit). */
  r2: number;
  /** Root-mean-square residual (units of y). */
  rms: number;
  /** Standard error of the slope (0 for two points). */
  slopeError: number;
  /** Number of points used. */
  n: number;
}

/**
 * Throw unless `x` and `y` are finite, of equal length, with at least `min` points (the fits'
 * common check; `where` names the caller).
 *
 * @example
 * ```ts
 * import { checkXY } from "./fit.ts";
 * import { expect } from "expect";
 * expect(() => checkXY("f", [0, 1], [1, NaN], 2)).toThrow(/point 1 \(1, NaN\) must be finite/);
 * expect(() => checkXY("f", [0], [1], 2)).toThrow(/at least 2/);
 * ```
 */
export function checkXY(
  where: string,
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  min: number,
): void {
  if (x.length !== y.length) {
    throw new RangeError(`${where}: x has ${x.length} values and y ${y.length}; they must match`);
  }
  if (x.length < min) {
    throw new RangeError(`${where}: ${x.length} points given, at least ${min} are needed`);
  }
  for (let i = 0; i < x.length; i++) {
    if (!Number.isFinite(x[i]) || !Number.isFinite(y[i])) {
      throw new RangeError(`${where}: point ${i} (${x[i]}, ${y[i]}) must be finite`);
    }
  }
}

/**
 * Ordinary (or weighted) least-squares straight line through `(x, y)`.
 *
 * @param x abscissae
 * @param y ordinates, as many as `x`
 * @param weights optional non-negative weights, as many as `x` @default all 1
 * @returns slope, intercept, R², rms residual and the slope's standard error
 * @throws {RangeError} with fewer than two points, mismatched lengths, non-finite values, or
 *   all x equal
 * @example
 * ```ts
 * import { linearFit } from "./fit.ts";
 * import { expect } from "expect";
 * const f = linearFit([0, 1, 2, 3], [1, 3, 5, 7]);
 * expect(f.slope).toBeCloseTo(2, 12);
 * expect(f.intercept).toBeCloseTo(1, 12);
 * expect(f.r2).toBeCloseTo(1, 12);
 * ```
 */
export function linearFit(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
  weights?: ArrayLike<number>,
): LinearFit {
  const w = "linearFit";
  checkXY(w, x, y, 2);
  if (weights !== undefined && weights.length !== x.length) {
    throw new RangeError(`${w}: ${weights.length} weights for ${x.length} points`);
  }
  let sw = 0, sx = 0, sy = 0;
  for (let i = 0; i < x.length; i++) {
    const wi = weights ? weights[i] : 1;
    if (!(wi >= 0 && Number.isFinite(wi))) {
      throw new RangeError(`${w}: weight ${i} (${wi}) must be a finite number >= 0`);
    }
    sw += wi, sx += wi * x[i], sy += wi * y[i];
  }
  if (!(sw > 0)) throw new RangeError(`${w}: the weights sum to ${sw}; it must be > 0`);
  const mx = sx / sw, my = sy / sw;
  let sxx = 0, sxy = 0, syy = 0;
  for (let i = 0; i < x.length; i++) {
    const wi = weights ? weights[i] : 1, dx = x[i] - mx, dy = y[i] - my;
    sxx += wi * dx * dx, sxy += wi * dx * dy, syy += wi * dy * dy;
  }
  if (!(sxx > 0)) throw new RangeError(`${w}: all x values are equal (${mx}); no slope`);
  const slope = sxy / sxx, intercept = my - slope * mx;
  let ss = 0, n = 0;
  for (let i = 0; i < x.length; i++) {
    const wi = weights ? weights[i] : 1, r = y[i] - slope * x[i] - intercept;
    ss += wi * r * r;
    if (wi > 0) n++;
  }
  const r2 = syy > 0 ? 1 - ss / syy : 1;
  const slopeError = n > 2 ? Math.sqrt(ss / (n - 2) / sxx) : 0;
  return { slope, intercept, r2, rms: Math.sqrt(ss / sw), slopeError, n };
}

/**
 * Least-squares line through the origin, y = slope·x: slope = Σxy / Σx², and R² = 1 −
 * SS_res / SS_tot with SS_tot about the mean of y (negative when such a line fits worse than a
 * constant; 1 for a perfect fit).
 *
 * @param x abscissae, not all zero
 * @param y ordinates, as many as `x`
 * @returns the slope and R²
 * @throws {RangeError} with fewer than two points, mismatched lengths, non-finite values, or
 *   all x zero
 * @example
 * ```ts
 * import { originFit } from "./fit.ts";
 * import { expect } from "expect";
 * // y = 2x + 1 on x = 1, 2, 3: the secant through zero is Σxy/Σx² = 34/14
 * const f = originFit([1, 2, 3], [3, 5, 7]);
 * expect(f.slope).toBeCloseTo(34 / 14, 12);
 * expect(f.r2).toBeLessThan(1);
 * expect(originFit([1, 2], [2, 4]).r2).toBe(1);
 * ```
 */
export function originFit(
  x: ArrayLike<number>,
  y: ArrayLike<number>,
): { slope: number; r2: number } {
  checkXY("originFit", x, y, 2);
  let sxx = 0, sxy = 0, sy = 0;
  for (let i = 0; i < x.length; i++) sxx += x[i] * x[i], sxy += x[i] * y[i], sy += y[i];
  if (!(sxx > 0)) throw new RangeError("originFit: all x values are 0; no slope");
  const slope = sxy / sxx, my = sy / y.length;
  let res = 0, tot = 0;
  for (let i = 0; i < x.length; i++) res += (y[i] - slope * x[i]) ** 2, tot += (y[i] - my) ** 2;
  return { slope, r2: tot > 0 ? 1 - res / tot : res === 0 ? 1 : 0 };
}

/** A power law `y = prefactor·x^exponent`, fitted on log–log axes. */
export interface PowerLawFit {
  /** The exponent (the slope on log–log axes). */
  exponent: number;
  /** The prefactor. */
  prefactor: number;
  /** R² of the log–log line. */
  r2: number;
  /** Standard error of the exponent. */
  exponentError: number;
}

/**
 * Fits `y = a·x^b` by a straight line through `(ln x, ln y)`.
 *
 * @param x positive abscissae
 * @param y positive ordinates
 * @returns the exponent b, the prefactor a, R² and the exponent's standard error
 * @throws {RangeError} when a value is not positive, or as {@link linearFit}
 * @example
 * ```ts
 * import { powerLawFit } from "./fit.ts";
 * import { expect } from "expect";
 * const x = [1, 2, 4, 8];
 * const f = powerLawFit(x, x.map((v) => 3 * v ** -0.2));
 * expect(f.exponent).toBeCloseTo(-0.2, 12);
 * expect(f.prefactor).toBeCloseTo(3, 12);
 * ```
 */
export function powerLawFit(x: ArrayLike<number>, y: ArrayLike<number>): PowerLawFit {
  checkXY("powerLawFit", x, y, 2);
  const lx = new Float64Array(x.length), ly = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    if (!(x[i] > 0 && y[i] > 0)) {
      throw new RangeError(`powerLawFit: point ${i} (${x[i]}, ${y[i]}) must be positive`);
    }
    lx[i] = Math.log(x[i]), ly[i] = Math.log(y[i]);
  }
  const f = linearFit(lx, ly);
  return {
    exponent: f.slope,
    prefactor: Math.exp(f.intercept),
    r2: f.r2,
    exponentError: f.slopeError,
  };
}

/**
 * Minimises a function of one variable on `[lo, hi]` by golden-section search (for a
 * unimodal function; otherwise a local minimum).
 *
 * @param f the function
 * @param lo lower end
 * @param hi upper end, > lo
 * @param tolerance stop when the bracket is this narrow @default 1e-10·(|lo| + |hi|) or 1e-12
 * @returns the minimiser
 * @example
 * ```ts
 * import { minimize1d } from "./fit.ts";
 * import { expect } from "expect";
 * expect(minimize1d((x) => (x - 0.3) ** 2, 0, 1)).toBeCloseTo(0.3, 8);
 * ```
 */
export function minimize1d(
  f: (x: number) => number,
  lo: number,
  hi: number,
  tolerance?: number,
): number {
  if (typeof f !== "function") {
    throw new TypeError(`minimize1d: f (${String(f)}) must be a function`);
  }
  if (!(Number.isFinite(lo) && Number.isFinite(hi) && hi > lo)) {
    throw new RangeError(`minimize1d: the bracket [${lo}, ${hi}] must be finite with hi > lo`);
  }
  const tol = tolerance === undefined
    ? Math.max(1e-12, 1e-10 * (Math.abs(lo) + Math.abs(hi)))
    : positive("minimize1d", "tolerance", tolerance);
  const phi = (Math.sqrt(5) - 1) / 2;
  let a = lo, b = hi;
  let c = b - phi * (b - a), d = a + phi * (b - a);
  let fc = f(c), fd = f(d);
  for (let k = 0; k < 500 && b - a > tol; k++) {
    if (fc < fd) {
      b = d, d = c, fd = fc;
      c = b - phi * (b - a);
      fc = f(c);
    } else {
      a = c, c = d, fc = fd;
      d = a + phi * (b - a);
      fd = f(d);
    }
  }
  return 0.5 * (a + b);
}

/** Beverloo's law fitted to measured flow rates. */
export interface BeverlooFit {
  /** Discharge coefficient C of `W = C·ρ_b·√g·(D − k·d)^p` (fitted with p = 5/2 or 3/2). */
  C: number;
  /** Empty-annulus coefficient k (in grain diameters), fitted with the exponent fixed. */
  k: number;
  /** R² of the linearised fit `(W/(ρ_b√g))^{1/p} = C^{1/p}·(D − k·d)`. */
  r2: number;
  /** The exponent of the three-parameter fit (C, k and the exponent free). */
  exponent: number;
  /** k of the three-parameter fit (grain diameters). */
  kFree: number;
  /** C of the three-parameter fit. */
  CFree: number;
  /** The exponent fitted with k fixed at `referenceK` (Beverloo's 1.5 by default). */
  exponentAtReferenceK: number;
  /** The exponent of the law: 5/2 in 3D, 3/2 in 2D. */
  expected: number;
  /**
   * Standard error of the free fit's `exponent`, propagated linearly from `relativeErrors`
   * (NaN when they are not given).
   */
  exponentError: number;
  /** Standard error of `kFree` (grain diameters), likewise; NaN without `relativeErrors`. */
  kFreeError: number;
}

/** Options of {@link beverlooFit}. */
export interface BeverlooFitOptions {
  /** Bulk density ρ_b (kg/m³ in 3D, kg/m² in 2D). */
  bulkDensity: number;
  /** Grain diameter d (m). */
  diameter: number;
  /** Gravity (m/s²). @default 9.81 */
  gravity?: number;
  /** 3 for a circular orifice (exponent 5/2), 2 for a slot in 2D (exponent 3/2). @default 3 */
  dimension?: 2 | 3;
  /** The k (grain diameters) of `exponentAtReferenceK`. @default 1.5 (Beverloo et al. 1961) */
  referenceK?: number;
  /**
   * Relative standard errors of the rates `W` (e.g. 0.02 for ±2 %), one per point: every fit
   * then weights each point by 1/σ², and the free fit's exponent and k get standard errors.
   * @default none (equal weights, errors NaN)
   */
  relativeErrors?: ArrayLike<number>;
}

/**
 * Fits Beverloo's law `W = C·ρ_b·√g·(D − k·d)^{5/2}` (3D; `^{3/2}` in 2D) to mass flow
 * rates `W` (kg/s; kg/(s·m) in 2D) measured at orifice widths `D` (m): C and k by the
 * classic linearisation with the exponent fixed, then C, k and the exponent all free
 * (for each k on a fine scan below the smallest D, a straight line through
 * `(ln(D − k·d), ln W)`; the k with the smallest residual wins), and the exponent alone with
 * k fixed at `referenceK`. Over a narrow range of D the free fit is ill-conditioned (k and
 * the exponent trade off); the fixed-k exponent is the robust check there. With
 * `relativeErrors` the points are weighted by 1/σ² and the free exponent's and k's standard
 * errors are propagated linearly (the refit's derivative with respect to each ln W).
 *
 * @param D orifice widths (m), at least three
 * @param W mass flow rates, positive
 * @param options bulk density, grain diameter, gravity, dimension
 * @returns C, k, R², and the free fit's exponent, k and C
 * @throws {RangeError} with fewer than three points or non-positive values
 * @example
 * ```ts
 * import { beverlooFit } from "./fit.ts";
 * import { expect } from "expect";
 * const d = 0.01, rho = 1500, D = [0.04, 0.06, 0.08, 0.1];
 * const W = D.map((x) => 0.58 * rho * Math.sqrt(9.81) * (x - 1.4 * d) ** 2.5);
 * const f = beverlooFit(D, W, { bulkDensity: rho, diameter: d });
 * expect(f.C).toBeCloseTo(0.58, 6);
 * expect(f.k).toBeCloseTo(1.4, 6);
 * expect(f.exponent).toBeCloseTo(2.5, 2);
 * // with ±2 % on every rate the free exponent is known to about ±0.1 over D/d = 4–10
 * const e = beverlooFit(D, W, { bulkDensity: rho, diameter: d, relativeErrors: [0.02, 0.02, 0.02, 0.02] });
 * expect(e.exponentError).toBeGreaterThan(0.03);
 * expect(e.exponentError).toBeLessThan(0.3);
 * ```
 */
export function beverlooFit(
  D: ArrayLike<number>,
  W: ArrayLike<number>,
  options: BeverlooFitOptions,
): BeverlooFit {
  const w = "beverlooFit";
  checkXY(w, D, W, 3);
  const rho = options.bulkDensity, d = options.diameter, g = options.gravity ?? 9.81;
  const dim = options.dimension ?? 3;
  if (!(rho > 0) || !(d > 0) || !(g > 0)) {
    throw new RangeError(
      `${w}: bulkDensity (${rho}), diameter (${d}) and gravity (${g}) must be > 0`,
    );
  }
  if (dim !== 2 && dim !== 3) throw new RangeError(`${w}: dimension (${dim}) must be 2 or 3`);
  const p = dim === 3 ? 2.5 : 1.5;
  const n = D.length;
  const sig = options.relativeErrors;
  if (sig !== undefined && sig.length !== n) {
    throw new RangeError(`${w}: relativeErrors has ${sig.length} values for ${n} points`);
  }
  let dMin = Infinity;
  const lin = new Float64Array(n), lnW = new Float64Array(n);
  const wt = new Float64Array(n).fill(1);
  for (let i = 0; i < n; i++) {
    if (!(D[i] > 0 && W[i] > 0)) {
      throw new RangeError(`${w}: point ${i} (D ${D[i]}, W ${W[i]}) must be positive`);
    }
    if (sig !== undefined) {
      if (!(sig[i] > 0 && Number.isFinite(sig[i]))) {
        throw new RangeError(`${w}: relativeErrors[${i}] (${sig[i]}) must be a finite number > 0`);
      }
      wt[i] = 1 / (sig[i] * sig[i]);
    }
    dMin = Math.min(dMin, D[i]);
    lin[i] = (W[i] / (rho * Math.sqrt(g))) ** (1 / p);
    lnW[i] = Math.log(W[i]);
  }
  // the linearised variable's relative error is σ/p
  const f = linearFit(D, lin, Float64Array.from(wt, (v, i) => (v * p * p) / (lin[i] * lin[i])));
  const C = f.slope ** p, k = -f.intercept / f.slope / d;
  const kRef = options.referenceK ?? 1.5;
  if (!(kRef * d < dMin)) {
    throw new RangeError(`${w}: referenceK (${kRef}) must be below the smallest D/d (${dMin / d})`);
  }
  const kLo = Math.min(-2, k - 2), kMax = dMin / d - 0.05;
  const free = freeBeverloo(D, lnW, wt, d, kLo, kMax);
  let exponentError = NaN, kFreeError = NaN;
  if (sig !== undefined) {
    // linear propagation: the refit's derivative with respect to each ln W_i
    let ve = 0, vk = 0;
    const h = 1e-4;
    for (let i = 0; i < n; i++) {
      const up = lnW.slice(), dn = lnW.slice();
      up[i] += h, dn[i] -= h;
      const a = freeBeverloo(D, up, wt, d, kLo, kMax), b = freeBeverloo(D, dn, wt, d, kLo, kMax);
      ve += (((a.fit.slope - b.fit.slope) / (2 * h)) * sig[i]) ** 2;
      vk += (((a.k - b.k) / (2 * h)) * sig[i]) ** 2;
    }
    exponentError = Math.sqrt(ve), kFreeError = Math.sqrt(vk);
  }
  return {
    C,
    k,
    r2: f.r2,
    exponent: free.fit.slope,
    kFree: free.k,
    CFree: Math.exp(free.fit.intercept) / (rho * Math.sqrt(g)),
    exponentAtReferenceK: logFit(D, lnW, wt, kRef * d).slope,
    expected: p,
    exponentError,
    kFreeError,
  };
}

/** The straight line through (ln(D − k0), ln W), weighted. */
function logFit(
  D: ArrayLike<number>,
  lnW: Float64Array,
  wt: Float64Array,
  k0: number,
): LinearFit {
  const lx = new Float64Array(D.length);
  for (let i = 0; i < D.length; i++) lx[i] = Math.log(D[i] - k0);
  return linearFit(lx, lnW, wt);
}

/** C, k and the exponent free: the k (diameters) in [kLo, kMax] whose log–log line fits best. */
function freeBeverloo(
  D: ArrayLike<number>,
  lnW: Float64Array,
  wt: Float64Array,
  d: number,
  kLo: number,
  kMax: number,
): { k: number; fit: LinearFit } {
  const rms = (kk: number) => logFit(D, lnW, wt, kk * d).rms;
  let bestK = kLo, best = Infinity;
  for (let s = 0; s <= 400; s++) {
    const kk = kLo + ((kMax - kLo) * s) / 400;
    const r = rms(kk);
    if (r < best) best = r, bestK = kk;
  }
  const step = (kMax - kLo) / 400;
  const k = minimize1d(rms, Math.max(kLo, bestK - step), Math.min(kMax, bestK + step));
  return { k, fit: logFit(D, lnW, wt, k * d) };
}

/** Janssen's saturation curve fitted to apparent masses. */
export interface JanssenFit {
  /** Saturation mass M_sat = ρ_b·A·λ (kg): the apparent mass of an infinitely tall fill. */
  saturationMass: number;
  /** Root-mean-square residual relative to the largest apparent mass. */
  relativeRms: number;
}

/**
 * Fits Janssen's law in its mass form, `M_app = M_sat·(1 − exp(−M/M_sat))` (the apparent
 * mass that the bottom carries against the filled mass M), by least squares in M_sat. With a
 * constant bulk density ρ_b and cross-section A, `M/M_sat = h/λ` and λ = M_sat/(ρ_b·A).
 *
 * @param mass filled masses M (kg), positive
 * @param apparentMass bottom force / g for each fill (kg)
 * @returns the saturation mass and the relative rms residual
 * @throws {RangeError} with fewer than two points or non-positive masses
 * @example
 * ```ts
 * import { janssenFit } from "./fit.ts";
 * import { expect } from "expect";
 * const M = [0.1, 0.2, 0.4, 0.8, 1.6];
 * const f = janssenFit(M, M.map((m) => 0.5 * (1 - Math.exp(-m / 0.5))));
 * expect(f.saturationMass).toBeCloseTo(0.5, 6);
 * ```
 */
export function janssenFit(mass: ArrayLike<number>, apparentMass: ArrayLike<number>): JanssenFit {
  const w = "janssenFit";
  checkXY(w, mass, apparentMass, 2);
  let top = 0, mMax = 0;
  for (let i = 0; i < mass.length; i++) {
    if (!(mass[i] > 0)) throw new RangeError(`${w}: mass ${i} (${mass[i]}) must be > 0`);
    top = Math.max(top, Math.abs(apparentMass[i]));
    mMax = Math.max(mMax, mass[i]);
  }
  const sse = (s: number) => {
    let e = 0;
    for (let i = 0; i < mass.length; i++) {
      const r = apparentMass[i] - s * (1 - Math.exp(-mass[i] / s));
      e += r * r;
    }
    return e;
  };
  // M_sat between 1e-3 and 1e3 times the largest fill, searched in log space.
  const ls = minimize1d((u) => sse(Math.exp(u)), Math.log(1e-3 * mMax), Math.log(1e3 * mMax));
  const s = Math.exp(ls);
  return { saturationMass: s, relativeRms: Math.sqrt(sse(s) / mass.length) / (top || 1) };
}

/** A probability density histogram and the exponential fit of its tail. */
export interface ExponentialTail {
  /** Bin centres. */
  x: Float64Array;
  /** Probability density per bin (integrates to 1 over all values). */
  density: Float64Array;
  /** Count per bin. */
  counts: Float64Array;
  /** Decay rate β of `P(x) ∝ exp(−β·x)` fitted for x above `from`. */
  beta: number;
  /** Standard error of β. */
  betaError: number;
  /** Bins used by the fit. */
  binsUsed: number;
}

/** Options of {@link exponentialTail}. */
export interface ExponentialTailOptions {
  /** Fit the tail above this value. @default 1 */
  from?: number;
  /** Bin width. @default 0.25 */
  binWidth?: number;
  /** Largest value binned (values above are left out of the histogram). @default 6 */
  max?: number;
  /** Bins with fewer counts are left out of the fit. @default 5 */
  minCount?: number;
  /**
   * Throw when fewer than two tail bins can be fitted; false returns β = NaN instead (for
   * small runs). @default true
   */
  strict?: boolean;
}

/**
 * Histograms non-negative values (e.g. contact forces normalised by their mean) as a
 * probability density and fits `ln P = a − β·x` to the bins above `from`, weighting each
 * bin by its count (the Poisson variance of ln P is 1/count).
 *
 * @param values the samples (non-negative)
 * @param options fit start, bin width, range, minimum count
 * @returns the histogram and β
 * @throws {RangeError} when fewer than two tail bins hold `minCount` samples (unless
 *   `strict: false`)
 * @example
 * ```ts
 * import { exponentialTail } from "./fit.ts";
 * import { Rng } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * const rng = new Rng(1);
 * const v = Array.from({ length: 20000 }, () => -Math.log(1 - rng.next()) / 1.5);
 * expect(exponentialTail(v, { from: 0.5 }).beta).toBeCloseTo(1.5, 1);
 * ```
 */
export function exponentialTail(
  values: ArrayLike<number>,
  options: ExponentialTailOptions = {},
): ExponentialTail {
  const w = "exponentialTail";
  options = checkOptions<ExponentialTailOptions>(w, "options", options, [
    "from",
    "binWidth",
    "max",
    "minCount",
    "strict",
  ]);
  if (values === null || typeof values !== "object" || typeof values.length !== "number") {
    throw new TypeError(`${w}: values (${String(values)}) must be an array of numbers`);
  }
  const from = finite(w, "from", options.from ?? 1);
  const bw = positive(w, "binWidth", options.binWidth ?? 0.25);
  const max = finite(w, "max", options.max ?? 6);
  const minCount = integerIn(w, "minCount", options.minCount ?? 5, 1, Number.MAX_SAFE_INTEGER);
  const strict = bool(w, "strict", options.strict, true);
  if (!(max > bw)) {
    throw new RangeError(`${w}: binWidth (${bw}) must be > 0 and max (${max}) above it`);
  }
  sizeGuard(w, `${max / bw} bins (max / binWidth)`, 32 * Math.ceil(max / bw));
  const nb = Math.ceil(max / bw);
  const counts = new Float64Array(nb);
  let n = 0;
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!(v >= 0)) throw new RangeError(`${w}: value ${i} (${v}) must be a number >= 0`);
    n++;
    const b = Math.floor(v / bw);
    if (b < nb) counts[b]++;
  }
  const x = new Float64Array(nb), density = new Float64Array(nb);
  for (let b = 0; b < nb; b++) {
    x[b] = (b + 0.5) * bw;
    density[b] = n > 0 ? counts[b] / (n * bw) : 0;
  }
  const fx: number[] = [], fy: number[] = [], fw: number[] = [];
  for (let b = 0; b < nb; b++) {
    if (x[b] - 0.5 * bw < from - 1e-12 || counts[b] < minCount) continue;
    fx.push(x[b]), fy.push(Math.log(density[b])), fw.push(counts[b]);
  }
  if (fx.length < 2) {
    if (!strict) {
      return { x, density, counts, beta: NaN, betaError: NaN, binsUsed: fx.length };
    }
    throw new RangeError(
      `${w}: only ${fx.length} bins above ${from} hold ${minCount} or more samples; ` +
        `at least 2 are needed (give more samples or a wider binWidth)`,
    );
  }
  const f = linearFit(fx, fy, fw);
  return { x, density, counts, beta: -f.slope, betaError: f.slopeError, binsUsed: fx.length };
}
