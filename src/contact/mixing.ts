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
 * console.assert(mixGeometric(0.5, 0.5) === 0.5);
 * console.assert(Math.abs(mixGeometric(0.25, 1) - 0.5) < 1e-15);
 * ```
 */
export function mixGeometric(a: number, b: number): number {
  return a === b ? a : Math.sqrt(a * b);
}
