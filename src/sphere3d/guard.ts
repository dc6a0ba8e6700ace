/**
 * The divergence guard of a granular system: catches an explicit integration that has blown up
 * before it produces nonsense silently, and says why.
 *
 * Four checks, all off the per-contact hot path:
 * 1. **Stable time step** (once, at the first step after the material, the particles or the
 *    step changed): a warning when the substep exceeds 2·√(m_min/k), k the normal stiffness
 *    (for Hertz, its tangent stiffness at an overlap of 5 % of the radius).
 * 2. **Stable damping** (at the first step after the material, the particles or the step
 *    changed): a RangeError before anything moves when a damped contact cannot be integrated
 *    stably ({@link dampedStepBound}). The integrator (`integrate.ts`) is velocity Verlet whose
 *    force evaluation sees the half-step velocity, i.e. leapfrog with the dashpot one half
 *    step behind: for one contact μ·ẍ = −k·x − c·ẋ (μ the effective mass, ω² = k/μ,
 *    γ = c/μ) one substep h maps (x, v) by a matrix of trace 2 − ω²h² − γh and determinant
 *    1 − γh, whose eigenvalues stay in the unit circle iff γh < 2 and ω²h² + 2γh < 4, i.e.
 *    h < 4 / (γ + √(γ² + 4ω²)). Beyond it each bounce of the contact *gains* energy: a
 *    dashpot too strong for its step pumps energy into the bed instead of taking it out.
 *    μ is that of the lightest possible pair — m_min/2 for two of the lightest free grains
 *    (m_min against a wall when only one grain is free) — and the normal and the tangential
 *    dashpots are checked (the tangential one against μ·2/7, a solid sphere's rolling inertia
 *    included). Without damping, or when the spring alone is already beyond its bound
 *    (ω·h ≥ 2), only the warning of check 1 is given (checks 3 and 4 catch that divergence).
 *    The pair bound is necessary, not sufficient: in a dense bed a grain with z contacts has
 *    modes up to ~z times stiffer (with a constant dashpot, damping ∝ stiffness, the stiffest
 *    mode λ must keep λ·(h² + 2h·c/k) < 4), so leave a margin of a few times in ω²h².
 *    Nor does it keep collisions from adding energy: a contact lasting a few steps can
 *    rebound faster than it came in while (ω·h)² + 2·γ·h is between ~2.6 and 4
 *    ({@link collisionRebound}); that gives a warning (once per material, mass and step).
 * 3. **Overlap**: a contact whose overlap exceeds the smaller radius of the pair (the radius of
 *    the grain for a boundary) means grains have passed through each other: it throws.
 * 4. **Speed**: no force in the scene can make a grain faster than the speed bought with all
 *    the energy the scene holds — kinetic, gravitational above the lowest grain, elastic in its
 *    contacts — plus what gravity and the external forces add since then; a grain 10× faster
 *    than that bound throws.
 *
 * @module
 */
import type { ParticleStore } from "./particles.ts";
import type { CoreState } from "./core_types.ts";
import type { DivergenceGuard } from "./guard_state.ts";
import { contactBuffers } from "../contact/record.ts";
import { contactDamping, DampingLaw, restitutionDamping } from "../contact/normal.ts";
import { firstNonFinite } from "./integrate.ts";
import { FP } from "./force_params.ts";

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

/**
 * The largest substep (s) at which a spring–dashpot contact of stiffness `k` (N/m), damping
 * `c` (N·s/m) and effective mass `mu` (kg) is stable under this package's integrator
 * (velocity Verlet, the dashpot seeing the half-step velocity): 4 / (γ + √(γ² + 4ω²)) with
 * ω² = k/μ, γ = c/μ (see the module doc). Without damping it is 2/ω, the undamped bound;
 * without a spring, 2/γ.
 *
 * @example
 * ```ts
 * import { dampedStepBound } from "./guard.ts";
 * import { expect } from "expect";
 * expect(dampedStepBound(1e4, 0, 1)).toBeCloseTo(0.02, 12); // 2/ω
 * expect(dampedStepBound(0, 100, 1)).toBeCloseTo(0.02, 12); // 2/γ
 * // a dashpot makes the step bound smaller than the spring's alone
 * expect(dampedStepBound(1e4, 50, 1)).toBeLessThan(0.02);
 * ```
 */
export function dampedStepBound(k: number, c: number, mu: number): number {
  const w2 = k / mu, g = c / mu, d = g + Math.sqrt(g * g + 4 * w2);
  return d > 0 ? 4 / d : Infinity;
}

/**
 * The rebound speed over the approach speed of a head-on collision of a linear
 * spring–dashpot contact (stiffness `k`, damping `c`, effective mass `mu`) integrated as the
 * step does (velocity Verlet, the force seeing the half-step velocity; the normal force
 * clamped at zero when `clamp`): the largest over 8 phases of the entry into contact within
 * a step. Above 1 every collision *adds* energy — which happens well inside the stability
 * bound {@link dampedStepBound}, where (ω·h)² + 2·γ·h is above ~2.6, since a contact lasts
 * only a few steps there.
 *
 * @example
 * ```ts
 * import { collisionRebound } from "./guard.ts";
 * import { expect } from "expect";
 * // 5 mm grains of 0.84 g (μ = m/2), kn 1e5 N/m, cn 5 N·s/m: fine at 5e-5 s, not at 8e-5 s
 * expect(collisionRebound(1e5, 5, 4.19e-4, 5e-5)).toBeLessThan(1);
 * expect(collisionRebound(1e5, 5, 4.19e-4, 8e-5)).toBeGreaterThan(1.4);
 * ```
 */
export function collisionRebound(
  k: number,
  c: number,
  mu: number,
  h: number,
  clamp = true,
): number {
  const a = (h * k) / mu, b = (h * c) / mu;
  let worst = 0;
  for (let p = 1; p <= 8; p++) {
    // approaching at unit speed; the first drift inside the contact ends p/8 of a step in
    let d = (p / 8) * h, u = 1;
    for (let n = 0; n < 1_000_000 && d > 0; n++) {
      let f = a * d + b * u; // h·F/μ
      if (clamp && f < 0) f = 0;
      u -= f;
      d += h * u;
    }
    if (-u > worst) worst = -u;
  }
  return worst;
}

/**
 * Throw a RangeError naming the bound when a damped contact of the material cannot be
 * integrated stably at substep `h` (see the module doc); nothing happens without damping,
 * without free grains, or when `h` was already checked and nothing changed since.
 */
export function checkDampedStep(core: CoreState, h: number): void {
  const g = core.guard;
  if (!g.stale && g.checkedStep === h) return;
  g.checkedStep = h;
  const m = core.material, ps = core.ps, n = ps.count, mass = ps.mass, fixed = ps.fixed;
  const restitution = m.restitution !== null;
  if (!restitution && m.normalDamping === 0 && m.tangentialDamping === 0) return;
  let mMin = Infinity, free = 0;
  for (let i = 0; i < n; i++) {
    if (fixed[i] !== 0) continue;
    free++;
    if (mass[i] < mMin) mMin = mass[i];
  }
  if (free === 0) return;
  const mu = free > 1 ? 0.5 * mMin : mMin, rMin = core.minRadius;
  const hertz = m.normalContactModel === "hertz", kn = m.normalStiffness;
  // the Hertz law's tangent stiffness and damping at an overlap of 5 % of the radius
  const rEff = 0.5 * rMin, delta = 0.05 * rMin;
  const k = hertz ? 1.5 * kn * Math.sqrt(rEff * delta) : kn;
  const scaled = m.dampingMode === "mass-scaled";
  const law = restitution
    ? (hertz ? DampingLaw.restitutionHertz : DampingLaw.restitutionLinear)
    : (scaled ? DampingLaw.massScaled : DampingLaw.constant);
  const cn0 = restitution
    ? restitutionDamping(m.restitution!, kn, hertz, m.clampNormalForce)
    : m.normalDamping;
  const cn = contactDamping(law, cn0, mu, rEff, delta);
  const what = restitution
    ? `restitution ${m.restitution} (c = ${cn.toPrecision(3)} N·s/m)`
    : `normalDamping ${m.normalDamping}${scaled ? " 1/s" : " N·s/m"}`;
  failDamped(h, k, cn, mu, `the normal dashpot (${what})`, "normalDamping");
  warnRebound(core, h, k, cn, mu, what);
  if (m.tangentialDamping > 0) {
    const kt = m.tangentialStiffness > 0 ? m.tangentialStiffness : 0.5 * kn;
    const ct = scaled ? m.tangentialDamping * mu : m.tangentialDamping;
    failDamped(
      h,
      kt,
      ct,
      (2 / 7) * mu,
      `the tangential dashpot (tangentialDamping ${m.tangentialDamping}${
        scaled ? " 1/s" : " N·s/m"
      })`,
      "tangentialDamping",
    );
  }
}

/**
 * Warn once when a head-on collision of the lightest pair rebounds faster than it came in
 * ({@link collisionRebound} > 1) at a substep the stability bound allows: recomputed only when
 * the stiffness, damping, mass or step changed.
 */
function warnRebound(
  core: CoreState,
  h: number,
  k: number,
  c: number,
  mu: number,
  what: string,
) {
  const g = core.guard, key = g.reboundKey, clamp = core.material.clampNormalForce ? 1 : 0;
  if (key[0] === h && key[1] === k && key[2] === c && key[3] === mu && key[4] === clamp) return;
  key[0] = h, key[1] = k, key[2] = c, key[3] = mu, key[4] = clamp;
  if (!(c > 0) || !((k / mu) * h * h < 4)) return;
  const e = collisionRebound(k, c, mu, h, clamp === 1);
  if (!(e > 1)) return;
  console.warn(
    `GranularSystem: at the substep ${h} s, ${what} makes a head-on collision of the lightest ` +
      `pair (μ = ${mu.toPrecision(3)} kg, k = ${k.toPrecision(3)} N/m) rebound ` +
      `${e.toPrecision(3)} times faster than it came in: each collision adds energy. The step ` +
      `is within the stability bound (ω·h)² + 2·γ·h < 4 (here ` +
      `${((k / mu) * h * h + (2 * c * h) / mu).toPrecision(3)}), but a contact lasts only a few ` +
      `steps; reduce timeStep, raise substeps or lower the damping`,
  );
}

/**
 * Throw when substep `h` exceeds {@link dampedStepBound}(k, c, mu) with c > 0 while the spring
 * alone is stable at `h` (ω·h < 2).
 */
function failDamped(
  h: number,
  k: number,
  c: number,
  mu: number,
  what: string,
  param: string,
): void {
  const w2h2 = (k / mu) * h * h, gh = (c / mu) * h;
  // a spring already unstable on its own is check 1's warning (the speed and overlap checks
  // catch its divergence); this check is about the dashpot
  if (!(c > 0) || !(w2h2 < 4) || w2h2 + 2 * gh < 4) return;
  const bound = dampedStepBound(k, c, mu);
  throw new RangeError(
    `GranularSystem.step: the substep ${h} s is too long for ${what}: a damped contact is ` +
      `stable only while (ω·h)² + 2·γ·h < 4 (ω² = k/μ, γ = c/μ, μ = ${mu.toPrecision(3)} kg ` +
      `the effective mass of the lightest pair, k = ${k.toPrecision(3)} N/m), here ` +
      `${w2h2.toPrecision(3)} + ${(2 * gh).toPrecision(3)} = ${(w2h2 + 2 * gh).toPrecision(3)}; ` +
      `the bound is h < 4/(γ + √(γ² + 4ω²)) = ${bound.toPrecision(3)} s. Beyond it every ` +
      `contact gains energy from nothing: reduce timeStep, raise substeps or lower ${param}`,
  );
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
export function measureGuard(core: CoreState, h: number): void {
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
function pairOverlap(core: CoreState, k: number): number {
  const pos = core.ps.pos, rad = core.ps.radius, p = core.params;
  const a = core.pairs.a[k], b = core.pairs.b[k], oa = 3 * a, ob = 3 * b;
  let dx = pos[oa] - pos[ob], dy = pos[oa + 1] - pos[ob + 1], dz = pos[oa + 2] - pos[ob + 2];
  const px = p[FP.px], py = p[FP.py], pz = p[FP.pz];
  if (px !== 0) dx -= px * Math.round(dx / px);
  if (py !== 0) dy -= py * Math.round(dy / py);
  if (pz !== 0) dz -= pz * Math.round(dz / pz);
  return rad[a] + rad[b] - Math.sqrt(dx * dx + dy * dy + dz * dz);
}

/**
 * The elastic energy (J) of the last force evaluation's contacts: the particle pairs from the
 * neighbour list (the unread steps of a run do not record them), then the boundary contacts
 * of the record — the order of the record when it holds the pairs too.
 */
function contactElasticEnergy(
  core: CoreState,
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
export function checkOverlaps(core: CoreState): void {
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
export function reportTooFast(core: CoreState): never {
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
function diverged(core: CoreState, i: number, what: string): never {
  const m = core.material, h = core.params[FP.dt];
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
export function reportNonFinite(core: CoreState): never {
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
