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
import type { GranularCore } from "./core.ts";
import { contactBuffers } from "../contact/record.ts";
import { firstNonFinite } from "./integrate.ts";

/** State of the guard, owned by one system. */
export class DivergenceGuard {
  /** The reference energy must be re-measured (the user changed the state). */
  stale = true;
  /** The stable-step warning was given. */
  warned = false;
  /** Energy bound on the speed at the reference time (m/s). */
  /** Speed scale of the grains driven by rigid bodies (m/s), refreshed every step. */
  bodySpeed = 0;
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
  return 10 * (guard.refSpeed + guard.accel * (time - guard.refTime) + guard.bodySpeed) + 1e-3;
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
    if (d > 0) e += overlapEnergy(d, kn, hertz, rEff);
  }
  return e;
}

/** Elastic energy (J) of one overlap d > 0 (see {@link elasticEnergy}). */
function overlapEnergy(d: number, kn: number, hertz: boolean, rEff: number): number {
  return hertz ? 0.4 * kn * Math.sqrt(rEff) * d * d * Math.sqrt(d) : 0.5 * kn * d * d;
}

/** Re-measure the divergence guard's reference, and warn once about an unstable step. */
export function measureGuard(core: GranularCore, h: number): void {
  const ps = core.ps, m = core.material, g = core.guard;
  const hertz = m.normalContactModel === "hertz";
  const el = contactElasticEnergy(core, m.normalStiffness, hertz, 0.5 * core.minRadius);
  measureReference(g, ps, core.gravity, el, core.time);
  if (g.warned || ps.count === 0) return;
  const bound = stableSubstep(m.normalStiffness, hertz, g.minMass, core.minRadius);
  if (h > bound) {
    g.warned = true;
    console.warn(
      `GranularSystem: the substep ${h} s exceeds the stable bound 2·sqrt(m_min/k_n) = ` +
        `${bound.toPrecision(3)} s (m_min ${g.minMass.toPrecision(3)} kg, k_n ` +
        `${m.normalStiffness}); the run may diverge: reduce timeStep or raise substeps`,
    );
  }
}

/**
 * Overlap (m) of pair k of the neighbour list at the current positions, with the arithmetic of
 * the pair loop (`forces.ts`): after a step, the positions its last force evaluation saw.
 */
function pairOverlap(core: GranularCore, k: number): number {
  const pos = core.ps.pos, rad = core.ps.radius, p = core.params;
  const a = core.pairs.a[k], b = core.pairs.b[k], oa = 3 * a, ob = 3 * b;
  let dx = pos[oa] - pos[ob], dy = pos[oa + 1] - pos[ob + 1], dz = pos[oa + 2] - pos[ob + 2];
  if (p.px !== 0) dx -= p.px * Math.round(dx / p.px);
  if (p.py !== 0) dy -= p.py * Math.round(dy / p.py);
  if (p.pz !== 0) dz -= p.pz * Math.round(dz / p.pz);
  return rad[a] + rad[b] - Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/**
 * The elastic energy (J) of the last force evaluation's contacts: the particle pairs from the
 * neighbour list (the unread steps of a run do not record them), then the boundary contacts
 * of the record — the order of the record when it holds the pairs too.
 */
function contactElasticEnergy(
  core: GranularCore,
  kn: number,
  hertz: boolean,
  rEff: number,
): number {
  const n = core.pairs.count;
  let e = 0;
  for (let k = 0; k < n; k++) {
    const d = pairOverlap(core, k);
    if (d > 0) e += overlapEnergy(d, kn, hertz, rEff);
  }
  const c = core.contacts, b = contactBuffers(c);
  for (let k = 0; k < c.count; k++) {
    const d = b.overlap[k];
    if (b.j[k] < 0 && d > 0) e += overlapEnergy(d, kn, hertz, rEff);
  }
  return e;
}

/** Throw naming the first contact whose overlap exceeds the smaller radius, if any. */
export function checkOverlaps(core: GranularCore): void {
  const r = core.ps.radius, n = core.pairs.count, pa = core.pairs.a, pb = core.pairs.b;
  // the particle pairs from the list (in the record's order when it holds them), then the rest
  for (let k = 0; k < n; k++) {
    const i = pa[k], j = pb[k], lim = Math.min(r[i], r[j]), d = pairOverlap(core, k);
    if (d > lim) {
      diverged(
        core,
        i,
        `overlaps particle ${j} (id ${core.ps.id[j]}) by ${d.toPrecision(3)} m, more than its ` +
          `radius ${lim}`,
      );
    }
  }
  const c = core.contacts, b = contactBuffers(c);
  for (let k = 0; k < c.count; k++) {
    const i = b.i[k];
    if (b.j[k] >= 0 || !(b.overlap[k] > r[i])) continue;
    diverged(
      core,
      i,
      `overlaps a boundary by ${b.overlap[k].toPrecision(3)} m, more than its radius ${r[i]}`,
    );
  }
}

/** Throw naming the fastest particle: it moves faster than the scene's energy allows. */
export function reportTooFast(core: GranularCore): never {
  const ps = core.ps, v = ps.vel;
  let best = 0, i = 0;
  for (let k = 0, o = 0; k < ps.count; k++, o += 3) {
    const s2 = v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2];
    if (s2 > best) best = s2, i = k;
  }
  diverged(
    core,
    i,
    `moves at ${Math.sqrt(best).toPrecision(3)} m/s, faster than any force in the scene ` +
      `can drive it (bound ${speedLimit(core.guard, core.time).toPrecision(3)} m/s from the ` +
      `energy the scene holds)`,
  );
}

/** Throw the divergence error for particle `i`: what happened, when, and the likely cure. */
function diverged(core: GranularCore, i: number, what: string): never {
  const m = core.material, h = core.params.dt;
  const bound = stableSubstep(
    m.normalStiffness,
    m.normalContactModel === "hertz",
    core.guard.minMass,
    core.minRadius,
  );
  throw new RangeError(
    `GranularSystem.step: the integration diverged at step ${core.stepCount}: particle ${i} ` +
      `(id ${core.ps.id[i]}) ${what}. The substep ${h} s is ` +
      `${h > bound ? "above" : "below"} the stable bound 2·sqrt(m_min/k_n) = ` +
      `${bound.toPrecision(3)} s; reduce timeStep, raise substeps or soften the contact`,
  );
}

/** Throw naming the first particle with a non-finite state. */
export function reportNonFinite(core: GranularCore): never {
  const ps = core.ps, i = firstNonFinite(ps), x = ps.pos, v = ps.vel, o = 3 * i;
  throw new RangeError(
    i < 0
      ? "GranularSystem.step: the state became non-finite"
      : `GranularSystem.step: particle ${i} (id ${ps.id[i]}) has a non-finite state ` +
        `after step ${core.stepCount + 1} (position ${x[o]}, ${x[o + 1]}, ${x[o + 2]}; ` +
        `velocity ${v[o]}, ${v[o + 1]}, ${v[o + 2]}); reduce the time step, raise substeps ` +
        `or soften the contact`,
  );
}
