/**
 * Normal contact laws: pure functions of scalars, shared by every simulator.
 *
 * Sign conventions: `overlap` δ > 0 when the surfaces interpenetrate; `vn` is the relative
 * normal velocity, positive when the surfaces separate. The repulsive force never pulls.
 *
 * @module
 */

/**
 * Linear spring–dashpot: `f = max(0, kn·δ − cn·vn)`.
 *
 * @param kn normal stiffness (N/m)
 * @param cn normal damping (N·s/m)
 * @param overlap δ (m)
 * @param vn relative normal velocity (m/s), positive when separating
 * @returns the repulsive normal force (N), never negative
 * @example
 * ```ts
 * import { linearNormalForce } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(linearNormalForce(1e5, 0, 1e-3, 0)).toBe(100);
 * expect(linearNormalForce(1e5, 1e6, 1e-3, 1)).toBe(0); // clamped, never pulls
 * ```
 */
export function linearNormalForce(kn: number, cn: number, overlap: number, vn: number): number {
  return normalForce(false, kn, cn, 0, overlap, vn);
}

/**
 * Hertz law with linear damping: `f = max(0, kn·√R_eff·δ^1.5 − cn·vn)`.
 *
 * @param kn stiffness (N/m^1.5 per √m, i.e. N/m² here) multiplying √R_eff·δ^1.5
 * @param cn normal damping (N·s/m)
 * @param rEff effective radius (m), r₁r₂/(r₁+r₂); a particle's own radius against a wall
 * @param overlap δ (m)
 * @param vn relative normal velocity (m/s), positive when separating
 * @example
 * ```ts
 * import { hertzNormalForce } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * const f = hertzNormalForce(1e5, 0, 0.01, 1e-4, 0);
 * expect(f).toBeCloseTo(0.01, 12); // 1e5 · √0.01 · (1e-4)^1.5 = 1e5 · 0.1 · 1e-6 N
 * ```
 */
export function hertzNormalForce(
  kn: number,
  cn: number,
  rEff: number,
  overlap: number,
  vn: number,
): number {
  return normalForce(true, kn, cn, rEff, overlap, vn);
}

/**
 * Either normal law, chosen by a flag: `max(0, kn·δ − cn·vn)` (linear) or
 * `max(0, kn·√R_eff·δ^1.5 − cn·vn)` (Hertz). Hot loops call this one function, so that the
 * choice costs a branch and both laws inline (two calls in a conditional expression can stay
 * out of line, which boxes their floating-point arguments).
 *
 * @param hertz true for the Hertz law
 * @param rEff effective radius (m); unused by the linear law
 * @example
 * ```ts
 * import { normalForce } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(normalForce(false, 1e5, 0, 0, 1e-3, 0)).toBe(100);
 * // Hertz: 1e5 · √(0.01 · 1e-4) · 1e-4 = 1e5 · 1e-3 · 1e-4 = 0.01 N
 * expect(normalForce(true, 1e5, 0, 0.01, 1e-4, 0)).toBeCloseTo(0.01, 12);
 * ```
 */
export function normalForce(
  hertz: boolean,
  kn: number,
  cn: number,
  rEff: number,
  overlap: number,
  vn: number,
): number {
  const elastic = hertz ? kn * Math.sqrt(rEff * overlap) * overlap : kn * overlap;
  const f = elastic - cn * vn;
  return f > 0 ? f : 0;
}

/**
 * Effective radius of two spheres (or disks), `r₁r₂/(r₁+r₂)`.
 *
 * @example
 * ```ts
 * import { effectiveRadius } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(effectiveRadius(0.02, 0.02)).toBe(0.01);
 * ```
 */
export function effectiveRadius(r1: number, r2: number): number {
  return (r1 * r2) / (r1 + r2);
}

/**
 * Damping ratio ζ = cn / (2√(kn·m_eff)) of a linear spring–dashpot contact.
 *
 * @example
 * ```ts
 * import { dampingRatio } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(dampingRatio(1e5, 0, 1)).toBeCloseTo(0, 15);
 * ```
 */
export function dampingRatio(kn: number, cn: number, effectiveMass: number): number {
  return cn / (2 * Math.sqrt(kn * effectiveMass));
}

/**
 * Coefficient of restitution of a linear spring–dashpot contact without the no-pull clamp,
 * `e = exp(−πζ/√(1−ζ²))` (0 when ζ ≥ 1).
 *
 * @example
 * ```ts
 * import { linearRestitution } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(linearRestitution(0)).toBe(1);
 * ```
 */
export function linearRestitution(zeta: number): number {
  if (zeta >= 1) return 0;
  return Math.exp((-Math.PI * zeta) / Math.sqrt(1 - zeta * zeta));
}

/**
 * Contact duration of a linear spring–dashpot contact without the clamp,
 * `t_c = π / (ω₀√(1−ζ²))` with ω₀ = √(kn/m_eff).
 *
 * @example
 * ```ts
 * import { linearContactDuration } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(linearContactDuration(1, 0, 1)).toBeCloseTo(Math.PI, 15);
 * ```
 */
export function linearContactDuration(kn: number, cn: number, effectiveMass: number): number {
  const w0 = Math.sqrt(kn / effectiveMass);
  const z = dampingRatio(kn, cn, effectiveMass);
  return z >= 1 ? Infinity : Math.PI / (w0 * Math.sqrt(1 - z * z));
}
