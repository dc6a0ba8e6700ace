/**
 * The divergence guard of a granular system: catches an explicit integration that has blown up
 * before it produces nonsense silently, and says why.
 *
 * Three checks, all off the per-contact hot path:
 * 1. **Stable time step** (once, at the first step after the material, the particles or the
 *    step changed): a warning when the substep exceeds 2·√(m_min/k), k the normal stiffness
 *    (for Hertz, its tangent stiffness at an overlap of 5 % of the radius).
 * 2. **Overlap**: a contact whose overlap exceeds the smaller radius of the pair (the radius of
 *    the grain for a boundary) means grains have passed through each other: it throws.
 * 3. **Speed**: no force in the scene can make a grain faster than the speed bought with all
 *    the energy the scene holds — kinetic, gravitational above the lowest grain, elastic in its
 *    contacts — plus what gravity and the external forces add since then; a grain 10× faster
 *    than that bound throws.
 *
 * @module
 */
import type { ParticleStore } from "./particles.ts";

/** State of the guard, owned by one system. */
export class DivergenceGuard {
  /** The reference energy must be re-measured (the user changed the state). */
  stale = true;
  /** The stable-step warning was given. */
  warned = false;
  /** Energy bound on the speed at the reference time (m/s). */
  refSpeed = 0;
  /** Simulated time of the reference (s). */
  refTime = 0;
  /** Largest acceleration from gravity and external forces (m/s²). */
  accel = 0;
  /** Smallest dynamic mass (kg). */
  minMass = 0;
}

/**
 * Measure the reference of the speed check: the speed a grain of the smallest mass would have
 * with all the scene's energy (`elastic`, J, is the energy stored in the contacts).
 */
export function measureReference(
  guard: DivergenceGuard,
  ps: ParticleStore,
  g: ArrayLike<number>,
  elastic: number,
  time: number,
): void {
  const n = ps.count, x = ps.pos, v = ps.vel, m = ps.mass, fixed = ps.fixed, ef = ps.extForce;
  const gn = Math.hypot(g[0], g[1], g[2]);
  const ux = gn > 0 ? -g[0] / gn : 0, uy = gn > 0 ? -g[1] / gn : 0, uz = gn > 0 ? -g[2] / gn : 0;
  let hMin = Infinity, mMin = Infinity, ke = 0, aExt = 0;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    if (fixed[i]) continue;
    const h = ux * x[o] + uy * x[o + 1] + uz * x[o + 2];
    if (h < hMin) hMin = h;
    if (m[i] < mMin) mMin = m[i];
    ke += 0.5 * m[i] * (v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2]);
    const a = Math.hypot(ef[o], ef[o + 1], ef[o + 2]) / m[i];
    if (a > aExt) aExt = a;
  }
  let pe = 0;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    if (fixed[i]) continue;
    pe += m[i] * gn * (ux * x[o] + uy * x[o + 1] + uz * x[o + 2] - hMin);
  }
  guard.minMass = mMin;
  guard.refSpeed = mMin < Infinity ? Math.sqrt((2 * (ke + pe + elastic)) / mMin) : 0;
  guard.accel = gn + aExt;
  guard.refTime = time;
  guard.stale = false;
}

/** The speed (m/s) above which the integration has diverged, at simulated time `time`. */
export function speedLimit(guard: DivergenceGuard, time: number): number {
  return 10 * (guard.refSpeed + guard.accel * (time - guard.refTime)) + 1e-3;
}

/**
 * The stable explicit substep 2·√(m_min/k) for the smallest mass `mMin` and radius `rMin`,
 * with `k` the linear stiffness, or the Hertz tangent stiffness 1.5·kn·√(R·δ) at δ = 5 % of
 * the radius (R = r/2 for two equal grains).
 */
export function stableSubstep(kn: number, hertz: boolean, mMin: number, rMin: number): number {
  const k = hertz ? 1.5 * kn * Math.sqrt(0.5 * rMin * 0.05 * rMin) : kn;
  return k > 0 ? 2 * Math.sqrt(mMin / k) : Infinity;
}

/** The elastic energy (J) stored in the contacts of the linear or Hertz law. */
export function elasticEnergy(
  overlap: Float64Array,
  count: number,
  kn: number,
  hertz: boolean,
  rEff: number,
): number {
  let e = 0;
  for (let k = 0; k < count; k++) {
    const d = overlap[k];
    if (d <= 0) continue;
    e += hertz ? 0.4 * kn * Math.sqrt(rEff) * d * d * Math.sqrt(d) : 0.5 * kn * d * d;
  }
  return e;
}
