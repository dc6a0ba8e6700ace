/**
 * Fit of measured α_z, α_x (a table or scattered points) to Li et al.'s Fourier form: least
 * squares for the five z coefficients and the four x coefficients, the scale ζ of the generic
 * medium that fits best, and the coefficients of determination R² of both.
 *
 * @module
 */
import { RFT_GENERIC, rftAlphaX, rftAlphaZ } from "./model.ts";
import type { RftCoefficients } from "./model.ts";
import { RftTable } from "./table.ts";

/** Scattered RFT measurements: α (N/m³) at (β, γ) (rad), four arrays of one length. */
export interface RftSamples {
  /** Plate angles β (rad). */
  beta: ArrayLike<number>;
  /** Velocity angles γ (rad). */
  gamma: ArrayLike<number>;
  /** α_z (N/m³). */
  alphaZ: ArrayLike<number>;
  /** α_x (N/m³). */
  alphaX: ArrayLike<number>;
}

/** The result of {@link fitRft}. */
export interface RftFit {
  /** The least-squares Fourier coefficients (N/m³). */
  coefficients: RftCoefficients;
  /** Scale ζ of the generic medium that fits α_z and α_x together best (least squares). */
  zeta: number;
  /** R² of the Fourier fit: α_z, α_x, and both together. */
  r2: { z: number; x: number; all: number };
  /** R² of ζ × the generic medium (both components together). */
  zetaR2: number;
  /** Number of (β, γ) points fitted. */
  points: number;
}

/** The z basis: 1, cos 2β, sin(2β+γ), sin γ, sin(−2β+γ). */
function zBasis(b: number, g: number, out: Float64Array): void {
  out[0] = 1, out[1] = Math.cos(2 * b), out[2] = Math.sin(2 * b + g);
  out[3] = Math.sin(g), out[4] = Math.sin(g - 2 * b);
}

/** The x basis: cos(2β+γ), cos γ, cos(−2β+γ), sin 2β. */
function xBasis(b: number, g: number, out: Float64Array): void {
  out[0] = Math.cos(2 * b + g), out[1] = Math.cos(g), out[2] = Math.cos(g - 2 * b);
  out[3] = Math.sin(2 * b);
}

/** Least squares by the normal equations (Gaussian elimination, partial pivoting). */
function leastSquares(
  n: number,
  m: number,
  basis: (k: number, out: Float64Array) => void,
  y: (k: number) => number,
  what: string,
): Float64Array {
  const A = new Float64Array(m * m), r = new Float64Array(m), f = new Float64Array(m);
  for (let k = 0; k < n; k++) {
    basis(k, f);
    const yk = y(k);
    for (let i = 0; i < m; i++) {
      r[i] += f[i] * yk;
      for (let j = 0; j < m; j++) A[i * m + j] += f[i] * f[j];
    }
  }
  let scale = 0;
  for (let i = 0; i < m; i++) scale = Math.max(scale, A[i * m + i]);
  for (let c = 0; c < m; c++) {
    let p = c;
    for (let i = c + 1; i < m; i++) if (Math.abs(A[i * m + c]) > Math.abs(A[p * m + c])) p = i;
    if (!(Math.abs(A[p * m + c]) > 1e-12 * scale)) {
      throw new RangeError(
        `fitRft: the (β, γ) points do not determine the ${what} coefficients (${n} points; ` +
          "spread them over more plate and velocity angles)",
      );
    }
    if (p !== c) {
      for (let j = 0; j < m; j++) {
        const t = A[c * m + j];
        A[c * m + j] = A[p * m + j], A[p * m + j] = t;
      }
      const t = r[c];
      r[c] = r[p], r[p] = t;
    }
    for (let i = c + 1; i < m; i++) {
      const q = A[i * m + c] / A[c * m + c];
      for (let j = c; j < m; j++) A[i * m + j] -= q * A[c * m + j];
      r[i] -= q * r[c];
    }
  }
  const x = new Float64Array(m);
  for (let i = m - 1; i >= 0; i--) {
    let s = r[i];
    for (let j = i + 1; j < m; j++) s -= A[i * m + j] * x[j];
    x[i] = s / A[i * m + i];
  }
  return x;
}

/** R² = 1 − SS_res / SS_tot (1 when the data are constant and reproduced). */
function rSquared(y: ArrayLike<number>, fit: ArrayLike<number>): number {
  let mean = 0;
  for (let k = 0; k < y.length; k++) mean += y[k];
  mean /= y.length;
  let res = 0, tot = 0;
  for (let k = 0; k < y.length; k++) {
    res += (y[k] - fit[k]) ** 2;
    tot += (y[k] - mean) ** 2;
  }
  return tot > 0 ? 1 - res / tot : res === 0 ? 1 : 0;
}

/** Flatten a table's grid (or check samples) into four point arrays. */
function points(data: RftTable | RftSamples): RftSamples {
  if (data instanceof RftTable) {
    const nb = data.beta.length, ng = data.gamma.length;
    const beta = new Float64Array(nb * ng), gamma = new Float64Array(nb * ng);
    for (let i = 0; i < nb; i++) {
      for (let j = 0; j < ng; j++) {
        beta[i * ng + j] = data.beta[i], gamma[i * ng + j] = data.gamma[j];
      }
    }
    return { beta, gamma, alphaZ: data.alphaZ, alphaX: data.alphaX };
  }
  if (data === null || typeof data !== "object") {
    throw new TypeError(`fitRft: data (${String(data)}) must be an RftTable or RftSamples`);
  }
  const names = ["beta", "gamma", "alphaZ", "alphaX"] as const;
  let n = -1;
  for (const k of names) {
    const a = data[k] as unknown;
    if (!Array.isArray(a) && !ArrayBuffer.isView(a)) {
      throw new TypeError(`fitRft: ${k} (${String(a)}) must be an array of numbers`);
    }
    const arr = a as ArrayLike<unknown>;
    if (n >= 0 && arr.length !== n) {
      throw new RangeError(`fitRft: ${k} (length ${arr.length}) must have beta's length (${n})`);
    }
    n = arr.length;
    for (let i = 0; i < arr.length; i++) {
      if (typeof arr[i] !== "number" || !Number.isFinite(arr[i])) {
        throw new RangeError(`fitRft: ${k}[${i}] (${String(arr[i])}) must be a finite number`);
      }
    }
  }
  if (n < 5) throw new RangeError(`fitRft: beta (length ${n}) must have at least 5 points`);
  return data;
}

/**
 * Fit a table or scattered samples to the Fourier form (see the module notes).
 *
 * @example
 * ```ts
 * import { fitRft, RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const fit = fitRft(RftTable.fromFourier({ zeta: 0.5, betaCount: 9, gammaCount: 9 }));
 * expect(fit.zeta).toBeCloseTo(0.5, 10);
 * expect(fit.coefficients.B01).toBeCloseTo(0.5 * 0.358e6, 3);
 * expect(fit.r2.all).toBeCloseTo(1, 12);
 * expect(() => fitRft({ beta: [0], gamma: [0], alphaZ: [1], alphaX: [0] })).toThrow(/at least 5/);
 * ```
 */
export function fitRft(data: RftTable | RftSamples): RftFit {
  const p = points(data), n = p.beta.length;
  const B = p.beta, G = p.gamma, Z = p.alphaZ, X = p.alphaX;
  const cz = leastSquares(n, 5, (k, f) => zBasis(B[k], G[k], f), (k) => Z[k], "α_z");
  const cx = leastSquares(n, 4, (k, f) => xBasis(B[k], G[k], f), (k) => X[k], "α_x");
  const coefficients: RftCoefficients = {
    A00: cz[0],
    A10: cz[1],
    B11: cz[2],
    B01: cz[3],
    Bm11: cz[4],
    C11: cx[0],
    C01: cx[1],
    Cm11: cx[2],
    D10: cx[3],
  };
  const fz = new Float64Array(n), fx = new Float64Array(n);
  const gz = new Float64Array(n), gx = new Float64Array(n);
  let num = 0, den = 0;
  for (let k = 0; k < n; k++) {
    fz[k] = rftAlphaZ(B[k], G[k], coefficients);
    fx[k] = rftAlphaX(B[k], G[k], coefficients);
    gz[k] = rftAlphaZ(B[k], G[k], RFT_GENERIC);
    gx[k] = rftAlphaX(B[k], G[k], RFT_GENERIC);
    num += Z[k] * gz[k] + X[k] * gx[k];
    den += gz[k] * gz[k] + gx[k] * gx[k];
  }
  const zeta = num / den;
  const both = (a: ArrayLike<number>, b: ArrayLike<number>) => [...Array.from(a), ...Array.from(b)];
  const y = both(Z, X);
  return {
    coefficients,
    zeta,
    r2: { z: rSquared(Z, fz), x: rSquared(X, fx), all: rSquared(y, both(fz, fx)) },
    zetaR2: rSquared(y, both(gz, gx).map((v) => zeta * v)),
    points: n,
  };
}
