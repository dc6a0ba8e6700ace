/**
 * Small helpers for 3-vectors stored in typed arrays with stride 3, and for reading
 * user-supplied vectors at the API boundary.
 *
 * @module
 */

/** A 3-vector as a user passes it: `[x, y, z]` or any array-like of three numbers. */
export type Vec3Like = ArrayLike<number>;

/**
 * Read a 3-vector from user input, checking length and finiteness.
 *
 * @param name the parameter name used in error messages.
 * @example
 * ```ts
 * import { readVec3 } from "@grainlab/grainlab";
 * const [x, y, z] = readVec3("gravity", [0, 0, -9.81]);
 * console.assert(z === -9.81 && x === 0 && y === 0);
 * ```
 */
export function readVec3(name: string, v: unknown): [number, number, number] {
  if (v === null || typeof v !== "object" || typeof (v as ArrayLike<number>).length !== "number") {
    throw new TypeError(`${name} (${String(v)}) must be an array of 3 numbers`);
  }
  const a = v as ArrayLike<unknown>;
  if (a.length !== 3) {
    throw new RangeError(`${name} (length ${a.length}) must have exactly 3 components`);
  }
  const out: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const x = a[k];
    if (typeof x !== "number" || !Number.isFinite(x)) {
      throw new RangeError(`${name}[${k}] (${String(x)}) must be a finite number`);
    }
    out[k] = x;
  }
  return out;
}

/**
 * Euclidean norm of the 3-vector at `a[o..o+2]`.
 *
 * @example
 * ```ts
 * import { norm3 } from "@grainlab/grainlab";
 * console.assert(norm3(new Float64Array([3, 4, 0]), 0) === 5);
 * ```
 */
export function norm3(a: ArrayLike<number>, o: number): number {
  const x = a[o], y = a[o + 1], z = a[o + 2];
  return Math.sqrt(x * x + y * y + z * z);
}

/**
 * Dot product of the 3-vectors at `a[oa..]` and `b[ob..]`.
 *
 * @example
 * ```ts
 * import { dot3 } from "@grainlab/grainlab";
 * console.assert(dot3([1, 2, 3], 0, [4, 5, 6], 0) === 32);
 * ```
 */
export function dot3(a: ArrayLike<number>, oa: number, b: ArrayLike<number>, ob: number): number {
  return a[oa] * b[ob] + a[oa + 1] * b[ob + 1] + a[oa + 2] * b[ob + 2];
}
