/**
 * Normal contact laws: pure functions of scalars, shared by every simulator.
 *
 * Sign conventions: `overlap` δ > 0 when the surfaces interpenetrate; `vn` is the relative
 * normal velocity, positive when the surfaces separate. The repulsive force never pulls.
 *
 * `normalForce` and `contactDamping` are generated (`law3d_gen.ts`) from the single source of
 * the 3D laws, src/contact/law3d_source.ts, as are the hot loops that apply them.
 *
 * @module
 */
import { normalForce } from "./law3d_gen.ts";

export { contactDamping, normalForce } from "./law3d_gen.ts";

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
 * import { laws } from "@grainlab/grainlab";
 * const { linearNormalForce } = laws;
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
 * import { laws } from "@grainlab/grainlab";
 * const { hertzNormalForce } = laws;
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
 * How a contact's normal damping coefficient follows from the material, as numbers for the
 * hot loops ({@link contactDamping}): `constant` — cn in N·s/m; `massScaled` — cn = γ·m_eff
 * with γ in 1/s (LAMMPS's `gamma_n`); `restitutionLinear` — cn = c·√m_eff with
 * c = 2ζ√kn ({@link restitutionDamping}); `restitutionHertz` — cn = c·√(m_eff·√(R_eff·δ))
 * with c = 2ζ·√(1.25·kn) (LIGGGHTS's Hertz damping).
 *
 * @example
 * ```ts
 * import { laws } from "@grainlab/grainlab";
 * const { DampingLaw } = laws;
 * import { expect } from "expect";
 * expect(DampingLaw.constant).toBe(0);
 * expect(DampingLaw.massScaled).toBe(1);
 * ```
 */
export const DampingLaw = {
  /** cn given in N·s/m, the same for every contact. */
  constant: 0,
  /** cn = γ·m_eff, γ in 1/s. */
  massScaled: 1,
  /** cn = c·√m_eff from a coefficient of restitution, linear law. */
  restitutionLinear: 2,
  /** cn = c·√(m_eff·√(R_eff·δ)) from a coefficient of restitution, Hertz law (LIGGGHTS). */
  restitutionHertz: 3,
} as const;

/**
 * Effective radius of two spheres (or disks), `r₁r₂/(r₁+r₂)`.
 *
 * @example
 * ```ts
 * import { laws } from "@grainlab/grainlab";
 * const { effectiveRadius } = laws;
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
 * import { laws } from "@grainlab/grainlab";
 * const { dampingRatio } = laws;
 * import { expect } from "expect";
 * expect(dampingRatio(1e5, 0, 1)).toBeCloseTo(0, 15);
 * ```
 */
export function dampingRatio(kn: number, cn: number, effectiveMass: number): number {
  return cn / (2 * Math.sqrt(kn * effectiveMass));
}

/** Options of {@link linearRestitution} and {@link linearDampingRatio}. */
export interface RestitutionOptions {
  /**
   * The contact force is clamped at zero (never pulls), as in Grainlab by default and in
   * LAMMPS with `limit_damping`: the grains then part when the force vanishes, before the
   * overlap does, and rebound a little faster. @default false
   */
  clamped?: boolean;
}

/**
 * Coefficient of restitution of a linear spring–dashpot contact of damping ratio ζ.
 *
 * Without the clamp (the textbook value, LAMMPS without `limit_damping`):
 * `e = exp(−πζ/√(1−ζ²))`, 0 when ζ ≥ 1. With the no-pull clamp (Grainlab's default law) the
 * contact ends when the force kn·δ + cn·δ̇ reaches zero, which gives (Schwager & Pöschel 2007)
 * `e = exp(−2ζ/√(1−ζ²) · atan(√(1−ζ²)/ζ))` for ζ < 1, `e^−2` at ζ = 1 and
 * `e = exp(−2ζ/√(ζ²−1) · atanh(√(ζ²−1)/ζ))` above: never zero, always above the unclamped value.
 *
 * @param zeta damping ratio ζ = cn / (2√(kn·m_eff)), ≥ 0
 * @example
 * ```ts
 * import { laws } from "@grainlab/grainlab";
 * const { linearRestitution } = laws;
 * import { expect } from "expect";
 * expect(linearRestitution(0)).toBe(1);
 * expect(linearRestitution(0.1)).toBeCloseTo(0.7292, 4);
 * expect(linearRestitution(0.1, { clamped: true })).toBeCloseTo(0.7441, 4);
 * expect(linearRestitution(1)).toBe(0);
 * expect(linearRestitution(1, { clamped: true })).toBeCloseTo(Math.exp(-2), 12);
 * ```
 */
export function linearRestitution(zeta: number, options: RestitutionOptions = {}): number {
  if (!options.clamped) {
    if (zeta >= 1) return 0;
    return Math.exp((-Math.PI * zeta) / Math.sqrt(1 - zeta * zeta));
  }
  if (zeta <= 0) return 1;
  if (zeta < 1) {
    const s = Math.sqrt(1 - zeta * zeta);
    return Math.exp(((-2 * zeta) / s) * Math.atan(s / zeta));
  }
  if (zeta === 1) return Math.exp(-2);
  const s = Math.sqrt(zeta * zeta - 1);
  return Math.exp(((-2 * zeta) / s) * Math.atanh(s / zeta));
}

/**
 * The damping ratio ζ that gives a linear spring–dashpot contact the coefficient of
 * restitution `e`: the inverse of {@link linearRestitution}. Unclamped it is LIGGGHTS's
 * `ζ = −ln e / √(π² + ln² e)`; clamped it is found by bisection (to 1e-15 relative).
 *
 * @param e coefficient of restitution in (0, 1]
 * @example
 * ```ts
 * import { laws } from "@grainlab/grainlab";
 * const { linearDampingRatio, linearRestitution } = laws;
 * import { expect } from "expect";
 * expect(linearDampingRatio(1)).toBe(0);
 * const z = linearDampingRatio(0.5, { clamped: true });
 * expect(linearRestitution(z, { clamped: true })).toBeCloseTo(0.5, 12);
 * expect(z).toBeGreaterThan(linearDampingRatio(0.5)); // the clamp needs more damping
 * ```
 */
export function linearDampingRatio(e: number, options: RestitutionOptions = {}): number {
  if (!(e > 0 && e <= 1)) {
    throw new RangeError(`linearDampingRatio: e (${e}) must be in (0, 1]`);
  }
  if (e === 1) return 0;
  const l = Math.log(e);
  const unclamped = -l / Math.sqrt(Math.PI * Math.PI + l * l);
  if (!options.clamped) return unclamped;
  // e(ζ) decreases monotonically from 1 to 0; the clamped ζ lies above the unclamped one.
  let lo = unclamped, hi = Math.max(1, 2 * unclamped);
  while (linearRestitution(hi, options) > e) hi *= 2;
  for (let k = 0; k < 200 && hi - lo > 1e-15 * hi; k++) {
    const mid = 0.5 * (lo + hi);
    if (linearRestitution(mid, options) > e) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/**
 * Coefficient of restitution of the Hertz contact with LIGGGHTS's damping,
 * `m·δ'' = −(kn·√R·δ^1.5 + 2ζ·√(1.25·kn)·√(m·√(R·δ))·δ')`, found by integrating the
 * dimensionless equation (RK4, relative accuracy ≈ 1e-5). The rebound does not depend on the
 * impact speed, the mass, the radius or kn: only on ζ and the clamp. Unclamped it is close to
 * {@link linearRestitution}(ζ) — LIGGGHTS's design; clamped it is higher.
 *
 * @param zeta the damping ratio of the law, ≥ 0
 * @example
 * ```ts
 * import { laws } from "@grainlab/grainlab";
 * const { hertzRestitution, linearDampingRatio } = laws;
 * import { expect } from "expect";
 * expect(hertzRestitution(linearDampingRatio(0.3))).toBeCloseTo(0.3, 4);
 * expect(hertzRestitution(linearDampingRatio(0.3), { clamped: true })).toBeCloseTo(0.397, 3);
 * ```
 */
export function hertzRestitution(zeta: number, options: RestitutionOptions = {}): number {
  if (!(zeta >= 0 && zeta < Infinity)) {
    throw new RangeError(`hertzRestitution: zeta (${zeta}) must be a finite number >= 0`);
  }
  const clamped = options.clamped ?? false;
  const c = 2 * zeta * Math.sqrt(1.25), h = 1e-3;
  // Units: m = kn·√R = R = 1 and impact speed 1; the contact lasts about 3.2.
  const force = (x: number, v: number) =>
    x > 0 ? x * Math.sqrt(x) + c * Math.sqrt(Math.sqrt(x)) * v : 0;
  const acc = (x: number, v: number) => {
    const f = force(x, v);
    return clamped && f < 0 ? 0 : -f;
  };
  let x = 0, v = 1;
  for (let i = 0; i < 1e7; i++) {
    const k1v = acc(x, v);
    const k2x = v + 0.5 * h * k1v, k2v = acc(x + 0.5 * h * v, v + 0.5 * h * k1v);
    const k3x = v + 0.5 * h * k2v, k3v = acc(x + 0.5 * h * k2x, v + 0.5 * h * k2v);
    const k4x = v + h * k3v, k4v = acc(x + h * k3x, v + h * k3v);
    const nx = x + (h / 6) * (v + 2 * k2x + 2 * k3x + k4x);
    const nv = v + (h / 6) * (k1v + 2 * k2v + 2 * k3v + k4v);
    if (i > 10) {
      // The contact ends when the overlap vanishes or, clamped, when the force does.
      if (nx <= 0) return -(v + (x / (x - nx)) * (nv - v));
      if (clamped) {
        const f1 = force(nx, nv);
        if (f1 <= 0) {
          const f0 = force(x, v);
          return -(v + (f0 / (f0 - f1)) * (nv - v));
        }
      }
    }
    x = nx, v = nv;
    if (v < 0 && !(x > 0)) return -v;
  }
  return 0; // overdamped: the grains never part within the integration window
}

/**
 * The coefficient c of the restitution damping laws of {@link DampingLaw}: the linear law's
 * cn = c·√m_eff with c = 2ζ√kn and ζ = {@link linearDampingRatio}(e) (so that a head-on
 * collision rebounds with exactly `e`, clamped or not); the Hertz law's
 * cn = c·√(m_eff·√(R_eff·δ)) with c = 2ζ·√(1.25·kn) — LIGGGHTS's
 * `2√(5/6)·ζ·√(S_n·m_eff)` with S_n = 1.5·kn·√(R_eff·δ) — and, unclamped, LIGGGHTS's
 * ζ = {@link linearDampingRatio}(e) (rebound `e` to 1e-5); clamped, ζ is calibrated with
 * {@link hertzRestitution} so that the clamped rebound is `e` too (LIGGGHTS's ζ would give
 * 0.397 for 0.3).
 *
 * @param e coefficient of restitution in (0, 1]
 * @param kn normal stiffness (N/m linear, N/m² Hertz)
 * @param hertz the Hertz law
 * @param clamped the contact force is clamped at zero
 * @example
 * ```ts
 * import { laws } from "@grainlab/grainlab";
 * const { linearDampingRatio, restitutionDamping } = laws;
 * import { expect } from "expect";
 * const c = restitutionDamping(0.5, 1e5, false, false);
 * expect(c).toBeCloseTo(2 * linearDampingRatio(0.5) * Math.sqrt(1e5), 12);
 * expect(restitutionDamping(1, 1e5, true, true)).toBe(0);
 * ```
 */
export function restitutionDamping(
  e: number,
  kn: number,
  hertz: boolean,
  clamped: boolean,
): number {
  if (!hertz) return 2 * linearDampingRatio(e, { clamped }) * Math.sqrt(kn);
  let zeta = linearDampingRatio(e);
  if (clamped && e < 1) {
    // The clamped rebound exceeds the unclamped one: more damping is needed.
    let lo = zeta, hi = Math.max(2 * zeta, 0.05);
    while (hertzRestitution(hi, { clamped: true }) > e && hi < 1e3) hi *= 2;
    for (let k = 0; k < 60 && hi - lo > 1e-9 * hi; k++) {
      const mid = 0.5 * (lo + hi);
      if (hertzRestitution(mid, { clamped: true }) > e) lo = mid;
      else hi = mid;
    }
    zeta = 0.5 * (lo + hi);
  }
  return 2 * zeta * Math.sqrt(1.25 * kn);
}

/**
 * Contact duration of a linear spring–dashpot contact without the clamp,
 * `t_c = π / (ω₀√(1−ζ²))` with ω₀ = √(kn/m_eff).
 *
 * @example
 * ```ts
 * import { laws } from "@grainlab/grainlab";
 * const { linearContactDuration } = laws;
 * import { expect } from "expect";
 * expect(linearContactDuration(1, 0, 1)).toBeCloseTo(Math.PI, 15);
 * ```
 */
export function linearContactDuration(kn: number, cn: number, effectiveMass: number): number {
  const w0 = Math.sqrt(kn / effectiveMass);
  const z = dampingRatio(kn, cn, effectiveMass);
  return z >= 1 ? Infinity : Math.PI / (w0 * Math.sqrt(1 - z * z));
}
