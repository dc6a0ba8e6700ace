/**
 * Small helpers for 3-vectors stored in typed arrays with stride 3. (User-supplied vectors are
 * read and checked at the API boundary by `vec3` of `validate.ts`.)
 *
 * @module
 */

/**
 * Euclidean norm of the 3-vector at `a[o..o+2]`.
 *
 * @example
 * ```ts
 * import { norm3 } from "./vec.ts";
 * import { expect } from "expect";
 * expect(norm3(new Float64Array([3, 4, 0]), 0)).toBe(5);
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
 * import { dot3 } from "./vec.ts";
 * import { expect } from "expect";
 * expect(dot3([1, 2, 3], 0, [4, 5, 6], 0)).toBe(32);
 * ```
 */
export function dot3(a: ArrayLike<number>, oa: number, b: ArrayLike<number>, ob: number): number {
  return a[oa] * b[ob] + a[oa + 1] * b[ob + 1] + a[oa + 2] * b[ob + 2];
}
