/**
 * Short-range cohesion: an attraction that acts while the surface gap is small.
 *
 * @module
 */

/**
 * Cohesive attraction `kc·(dmax − max(0, gap))` while `gap ≤ dmax`, else 0. Either parameter
 * at zero disables cohesion. Overlapping grains (`gap < 0`) feel the full `kc·dmax`.
 *
 * @param kc cohesion stiffness (N/m)
 * @param dmax largest surface gap with cohesion (m)
 * @param gap surface gap (m); negative when overlapping
 * @returns the attractive force magnitude (N), ≥ 0
 * @example
 * ```ts
 * import { cohesionForce } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(cohesionForce(100, 0.001, 0.0005)).toBe(0.05);
 * expect(cohesionForce(100, 0.001, 0.002)).toBe(0);
 * ```
 */
export function cohesionForce(kc: number, dmax: number, gap: number): number {
  if (kc <= 0 || dmax <= 0 || gap > dmax) return 0;
  return kc * (dmax - (gap > 0 ? gap : 0));
}
