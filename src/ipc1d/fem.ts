/**
 * P1 finite elements for the bar (spec §4): consistent and lumped mass, stiffness, gravity
 * load and symmetric tridiagonal algebra. Nodes i = 0..N, node 0 is the contact end,
 * Δx = L/N, rest coordinates Xᵢ = iΔx.
 *
 * @module
 */

import { type BarParameters, resolveBarParameters } from "./params.ts";
import { positiveInteger, sizeGuard } from "../math/validate.ts";

/**
 * A symmetric tridiagonal matrix: `diag` (length n) and `off` (length n − 1, entry (i, i+1)).
 *
 * @example
 * ```ts
 * import type { SymmetricTridiagonal } from "./fem.ts";
 * import { expect } from "expect";
 * const a: SymmetricTridiagonal = { diag: new Float64Array([2, 2]), off: new Float64Array([-1]) };
 * expect(a.off.length).toBe(a.diag.length - 1);
 * ```
 */
export interface SymmetricTridiagonal {
  /** Diagonal entries. */
  readonly diag: Float64Array;
  /** Super-/sub-diagonal entries. */
  readonly off: Float64Array;
}

/**
 * The discretised bar: element size, matrices and nodal quantities.
 *
 * @example
 * ```ts
 * import { barMatrices, type BarMatrices } from "./fem.ts";
 * import { expect } from "expect";
 * const m: BarMatrices = barMatrices(10);
 * expect(m.dx).toBe(1);
 * expect(m.nodalMass).toHaveLength(11);
 * ```
 */
export interface BarMatrices {
  /** Number of elements N. */
  readonly elements: number;
  /** Element size Δx = L/N (m). */
  readonly dx: number;
  /** Axial stiffness E·A (N). */
  readonly axialStiffness: number;
  /** Consistent mass (ρAΔx/6)·tridiag(1, 4, 1), end diagonals 2 (kg). */
  readonly consistentMass: SymmetricTridiagonal;
  /** Lumped mass ρAΔx·diag(½, 1, …, 1, ½) (kg). */
  readonly lumpedMass: SymmetricTridiagonal;
  /** Stiffness (EA/Δx)·tridiag(−1, 2, −1), end diagonals 1 (N/m). */
  readonly stiffness: SymmetricTridiagonal;
  /** Nodal masses mᵢ = row sums of either mass matrix (kg); the gravity load is mᵢ·g. */
  readonly nodalMass: Float64Array;
  /** Rest coordinates Xᵢ = iΔx (m). */
  readonly restPositions: Float64Array;
}

/**
 * Assembles the P1 bar matrices.
 *
 * @param elements number of elements N ≥ 1
 * @param bar physical parameters (spec §1 defaults)
 * @returns matrices and nodal data
 * @throws {RangeError} when `elements` is not a positive integer
 * @example
 * ```ts
 * import { barMatrices } from "./fem.ts";
 * import { expect } from "expect";
 * const m = barMatrices(100);
 * const total = m.nodalMass.reduce((a, b) => a + b, 0);
 * expect(total).toBeCloseTo(10, 12);
 * ```
 */
export function barMatrices(elements: number, bar?: Partial<BarParameters>): BarMatrices {
  const N = positiveInteger("barMatrices", "elements", elements);
  const p = resolveBarParameters(bar, "barMatrices");
  sizeGuard("barMatrices", `the matrices of ${N} elements`, (N + 1) * 8 * 9);
  const dx = p.length / N;
  const rhoA = p.density * p.area;
  const EA = p.youngsModulus * p.area;
  const n = N + 1;
  const cd = new Float64Array(n);
  const co = new Float64Array(N);
  const ld = new Float64Array(n);
  const kd = new Float64Array(n);
  const ko = new Float64Array(N);
  const me = (rhoA * dx) / 6;
  const ke = EA / dx;
  for (let e = 0; e < N; e++) {
    cd[e] += 2 * me;
    cd[e + 1] += 2 * me;
    co[e] = me;
    ld[e] += 0.5 * rhoA * dx;
    ld[e + 1] += 0.5 * rhoA * dx;
    kd[e] += ke;
    kd[e + 1] += ke;
    ko[e] = -ke;
  }
  const rest = new Float64Array(n);
  for (let i = 0; i < n; i++) rest[i] = i * dx;
  return {
    elements: N,
    dx,
    axialStiffness: EA,
    consistentMass: { diag: cd, off: co },
    lumpedMass: { diag: ld, off: new Float64Array(N) },
    stiffness: { diag: kd, off: ko },
    nodalMass: ld.slice(),
    restPositions: rest,
  };
}

/**
 * out = A·x for a symmetric tridiagonal A (no allocation; `out` must not alias `x`).
 *
 * @param a the matrix
 * @param x input vector (length n)
 * @param out output vector (length n)
 * @returns `out`
 * @example
 * ```ts
 * import { tridiagonalMultiply } from "./fem.ts";
 * import { expect } from "expect";
 * const a = { diag: new Float64Array([2, 2, 2]), off: new Float64Array([-1, -1]) };
 * const y = tridiagonalMultiply(a, new Float64Array([1, 1, 1]), new Float64Array(3));
 * expect(y[0]).toBe(1);
 * expect(y[1]).toBe(0);
 * expect(y[2]).toBe(1);
 * ```
 */
export function tridiagonalMultiply(
  a: SymmetricTridiagonal,
  x: Float64Array,
  out: Float64Array,
): Float64Array {
  const n = checkTridiagonal("tridiagonalMultiply", a);
  vector("tridiagonalMultiply", "x", x, n);
  vector("tridiagonalMultiply", "out", out, n);
  const d = a.diag;
  const o = a.off;
  if (n === 1) {
    out[0] = d[0] * x[0];
    return out;
  }
  out[0] = d[0] * x[0] + o[0] * x[1];
  for (let i = 1; i < n - 1; i++) out[i] = o[i - 1] * x[i - 1] + d[i] * x[i] + o[i] * x[i + 1];
  out[n - 1] = o[n - 2] * x[n - 2] + d[n - 1] * x[n - 1];
  return out;
}

/**
 * The quadratic form xᵀ·A·x of a symmetric tridiagonal A (no allocation).
 *
 * @param a the matrix
 * @param x the vector
 * @returns xᵀAx
 * @example
 * ```ts
 * import { barMatrices, tridiagonalQuadraticForm } from "./fem.ts";
 * import { expect } from "expect";
 * const m = barMatrices(8);
 * // a rigid velocity of 10 m/s: ½·vᵀMv = ½·m·V² = 500 J
 * const v = new Float64Array(9).fill(10);
 * expect(0.5 * tridiagonalQuadraticForm(m.consistentMass, v)).toBeCloseTo(500, 9);
 * ```
 */
export function tridiagonalQuadraticForm(a: SymmetricTridiagonal, x: Float64Array): number {
  vector("tridiagonalQuadraticForm", "x", x, checkTridiagonal("tridiagonalQuadraticForm", a));
  const d = a.diag;
  const o = a.off;
  let s = 0;
  for (let i = 0; i < d.length; i++) s += d[i] * x[i] * x[i];
  for (let i = 0; i < o.length; i++) s += 2 * o[i] * x[i] * x[i + 1];
  return s;
}

/**
 * Solves A·x = b for a symmetric tridiagonal, diagonally dominant or SPD A with the Thomas
 * algorithm (no pivoting). No allocation: pass a scratch array of length n.
 *
 * @param a the matrix
 * @param b right-hand side (length n)
 * @param out solution (length n; may alias `b`)
 * @param scratch work array (length n)
 * @returns `out`
 * @example
 * ```ts
 * import { solveTridiagonal } from "./fem.ts";
 * import { expect } from "expect";
 * const a = { diag: new Float64Array([4, 4, 4]), off: new Float64Array([1, 1]) };
 * const x = solveTridiagonal(a, new Float64Array([5, 6, 5]), new Float64Array(3), new Float64Array(3));
 * expect([...x]).toEqual([1, 1, 1]);
 * ```
 */
export function solveTridiagonal(
  a: SymmetricTridiagonal,
  b: Float64Array,
  out: Float64Array,
  scratch: Float64Array,
): Float64Array {
  const n = checkTridiagonal("solveTridiagonal", a);
  vector("solveTridiagonal", "b", b, n);
  vector("solveTridiagonal", "out", out, n);
  vector("solveTridiagonal", "scratch", scratch, n);
  const d = a.diag;
  const o = a.off;
  // forward elimination: scratch holds the modified super-diagonal c'ᵢ, out holds d'ᵢ
  let piv = d[0];
  scratch[0] = n > 1 ? o[0] / piv : 0;
  out[0] = b[0] / piv;
  for (let i = 1; i < n; i++) {
    piv = d[i] - o[i - 1] * scratch[i - 1];
    scratch[i] = i < n - 1 ? o[i] / piv : 0;
    out[i] = (b[i] - o[i - 1] * out[i - 1]) / piv;
  }
  for (let i = n - 2; i >= 0; i--) out[i] -= scratch[i] * out[i + 1];
  return out;
}

/**
 * Elastic energy U(y) = Σₑ (EA/(2Δx))·(y_{e+1} − yₑ − Δx)² of nodal positions y (J).
 *
 * @param m the discretised bar
 * @param y nodal positions (m), length N + 1
 * @returns U (J)
 * @example
 * ```ts
 * import { barMatrices, elasticEnergy } from "./fem.ts";
 * import { expect } from "expect";
 * const m = barMatrices(10);
 * const y = m.restPositions.map((x) => 5 + x * (1 - 1 / 3)); // uniform strain −1/3
 * expect(elasticEnergy(m, y)).toBeCloseTo(500, 9);
 * ```
 */
export function elasticEnergy(m: BarMatrices, y: Float64Array): number {
  if (m === null || typeof m !== "object" || !Number.isInteger(m.elements)) {
    throw new TypeError(`elasticEnergy: m (${String(m)}) must be the BarMatrices of barMatrices`);
  }
  vector("elasticEnergy", "y", y, m.elements + 1);
  const dx = m.dx;
  let s = 0;
  for (let e = 0; e < m.elements; e++) {
    const t = y[e + 1] - y[e] - dx;
    s += t * t;
  }
  return (0.5 * m.axialStiffness * s) / dx;
}

/** The size n of a symmetric tridiagonal matrix: `diag` of length n ≥ 1, `off` of n − 1. */
function checkTridiagonal(where: string, a: SymmetricTridiagonal): number {
  if (a === null || typeof a !== "object" || !a.diag || !a.off) {
    throw new TypeError(`${where}: a (${String(a)}) must be a { diag, off } matrix`);
  }
  const n = a.diag.length;
  if (!(n >= 1) || a.off.length < n - 1) {
    throw new RangeError(
      `${where}: a.off (length ${a.off.length}) must hold n − 1 = ${n - 1} entries ` +
        `(a.diag has ${n})`,
    );
  }
  return n;
}

/** Throw unless `v` is a Float64Array of length ≥ `n`. */
function vector(where: string, name: string, v: Float64Array, n: number): void {
  if (!(v instanceof Float64Array)) {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be a Float64Array`);
  }
  if (v.length < n) {
    throw new RangeError(`${where}: ${name} (length ${v.length}) must hold ${n} entries`);
  }
}
