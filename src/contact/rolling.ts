/**
 * Rolling resistance: a torque of magnitude μr·fn·r that opposes the relative rolling angular
 * velocity of a contact, regularised so that it can stop the rolling but never reverse it
 * within one step.
 *
 * @module
 */

/**
 * Magnitude of the rolling-resistance torque `μr·fn·r` (N·m).
 *
 * @param muR rolling-friction coefficient (dimensionless)
 * @param fn normal force (N)
 * @param r the particle's radius (m)
 * @example
 * ```ts
 * import { rollingTorque } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(rollingTorque(0.1, 10, 0.02)).toBeCloseTo(0.02, 15); // 0.1 · 10 N · 0.02 m
 * ```
 */
export function rollingTorque(muR: number, fn: number, r: number): number {
  return muR * fn * r;
}

/**
 * Scale factor in [0, 1] for the rolling torques of one contact so that, applied for `dt`,
 * they reduce the relative rolling speed `omegaRel` (rad/s) at most to zero.
 *
 * @param angularDecel the relative angular deceleration the unscaled torques would cause,
 *   Σ τ/I over the two bodies (rad/s²)
 * @example
 * ```ts
 * import { rollingScale } from "./rolling.ts";
 * import { expect } from "expect";
 * expect(rollingScale(100, 1e-3, 1)).toBe(1);
 * expect(rollingScale(100, 1e-3, 0.05)).toBe(0.5);
 * ```
 */
export function rollingScale(angularDecel: number, dt: number, omegaRel: number): number {
  const stop = angularDecel * dt;
  if (stop <= omegaRel) return 1;
  return stop > 0 ? omegaRel / stop : 0;
}
