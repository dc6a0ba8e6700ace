/**
 * Mixing rules for friction coefficients of two different materials.
 *
 * @module
 */

/**
 * Geometric-mean mixing `√(a·b)`; equal inputs return that value exactly.
 *
 * @example
 * ```ts
 * import { mixGeometric } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(mixGeometric(0.5, 0.5)).toBe(0.5);
 * expect(mixGeometric(0.25, 1)).toBeCloseTo(0.5, 15);
 * ```
 */
export function mixGeometric(a: number, b: number): number {
  return a === b ? a : Math.sqrt(a * b);
}
