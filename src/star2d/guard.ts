/**
 * The divergence guard of the 2D grain systems (after sphere3d's `guard.ts`): an explicit
 * integration that blows up throws, naming the grain, the step and the cure, before it produces
 * nonsense silently. Internal (not re-exported).
 *
 * Checks, all off the per-contact hot path:
 * 1. **Stable time step** (`stableTimeStep`): the bound of `addGrains`, also applied by the
 *    `timeStep` setter and when a checkpoint is loaded.
 * 2. **Walls**: a spinning wall whose surface moves more than the smallest grain's bounding
 *    radius in one step cannot be followed by any contact: it throws before the step.
 * 3. **Overlap**: a contact deeper than the bounding radius of the smaller grain (of the grain,
 *    for a wall) means grains passed through each other: it throws (only scanned when the
 *    step's largest overlap exceeds the smallest bounding radius).
 * 4. **Speed**: no force in the scene can make a grain faster than the speed bought with all
 *    the energy the scene held at the reference — kinetic (with rotation), gravitational above
 *    the lowest grain, elastic in its contacts — plus what gravity adds since and the speed of
 *    the walls' surfaces; a grain 10× faster than that throws. The reference is measured again
 *    whenever the state changed outside the step (grains added, a checkpoint loaded, a column
 *    written through its view, a wall added, moved or switched, gravity or the contact law
 *    changed: fingerprints tell).
 *
 * @module
 */
import type { GrainSystemState } from "./body_state.ts";
import type { GrainGuard } from "./guard_state.ts";
import { contactBuffers, ContactKind, type ContactRecord } from "../contact/record.ts";

const DRUM = 2, SEGMENT = 1;
/** Weights of the position fingerprint (irrational, so that moves rarely cancel). */
const FY = Math.SQRT2, FA = Math.sqrt(3);

/**
 * The stable time step (s) of a contact between two grains of mass `mass`, inertia `inertia`
 * and lever arm `lever` (from the centre of mass to the farthest boundary point): the bound
 * (2/ω)·(√(1 + ζ²) − ζ) of an explicit damped spring, with ω = √(k/m_eff),
 * ζ = cn / (2√(k·m_eff)), m_eff = m* / 2, m* = 1/(1/m + ℓ²/I) and k = max(kn, kt). Returns the
 * bound, ζ and m* in `out` [bound, zeta, mStar, k]. @internal
 *
 * @example
 * ```ts
 * import { stableTimeStep } from "./guard.ts";
 * import { expect } from "expect";
 * // an undamped disk of 1 kg (I = ½ m r², r = 1): m* = 1/3 kg, ω = √(2k / m*)
 * const b = stableTimeStep(600, 0, 0, 1, 0.5, 1);
 * expect(b[0]).toBeCloseTo(2 / Math.sqrt(600 / (1 / 6)), 12);
 * expect(b[2]).toBeCloseTo(1 / 3, 12);
 * ```
 */
export function stableTimeStep(
  kn: number,
  kt: number,
  cn: number,
  mass: number,
  inertia: number,
  lever: number,
  out: Float64Array = new Float64Array(4),
): Float64Array {
  const mStar = 1 / (1 / mass + (lever * lever) / inertia);
  const k = Math.max(kn, kt), mEff = mStar / 2;
  const w = Math.sqrt(k / mEff), zeta = cn / (2 * Math.sqrt(k * mEff));
  out[0] = (2 / w) * (Math.sqrt(1 + zeta * zeta) - zeta);
  out[1] = zeta;
  out[2] = mStar;
  out[3] = k;
  return out;
}

/**
 * Throw when `dt` exceeds the stability bound of any of `n` grains (masses, inertias and
 * `lever(i)`), naming the grain of the smallest bound. @internal
 */
export function checkStableSteps(
  where: string,
  dt: number,
  kn: number,
  kt: number,
  cn: number,
  n: number,
  mass: ArrayLike<number>,
  inertia: ArrayLike<number>,
  lever: (i: number) => number,
): void {
  const b = new Float64Array(4);
  let worst = -1, wb = Infinity;
  for (let i = 0; i < n; i++) {
    stableTimeStep(kn, kt, cn, mass[i], inertia[i], lever(i), b);
    if (b[0] < wb) wb = b[0], worst = i;
  }
  if (worst < 0 || !(dt > wb)) return;
  stableTimeStep(kn, kt, cn, mass[worst], inertia[worst], lever(worst), b);
  throw new RangeError(unstableMessage(where, dt, b, cn, mass[worst], `, grain ${worst}`));
}

/**
 * The message of a time step above the stability bound `b` (from {@link stableTimeStep}).
 * @internal
 */
export function unstableMessage(
  where: string,
  dt: number,
  b: Float64Array,
  cn: number,
  mass: number,
  of = "",
): string {
  return `${where}: timeStep (${dt} s) exceeds the stability bound ${b[0].toPrecision(3)} s = ` +
    `(2/ω)(√(1+ζ²) − ζ) for stiffness k = ${b[3]} N/m, normal damping ${cn} N·s/m ` +
    `(ζ = ${b[1].toPrecision(3)}) and effective grain mass m* = ${b[2].toPrecision(3)} kg ` +
    `(mass ${mass.toPrecision(3)} kg${of}); reduce timeStep, stiffness or damping`;
}

/**
 * Before the forces of a step (the contacts of the current positions are detected): measure
 * the reference again when the state changed outside the step, and check the walls' speed.
 * @internal
 */
export function guardBeforeForces(sys: GrainSystemState): void {
  const g = sys.guard;
  if (g.viewsOut && !g.stale) {
    // the user held a view of the columns: did the state change since the last step?
    const f = fingerprint(sys);
    if (f.ke !== g.endKe || f.fp !== g.endFp) g.stale = true;
  }
  g.viewsOut = false;
  const wp = scenePrint(sys);
  if (wp !== g.scenePrint) g.stale = true;
  if (g.stale) measureReference(sys);
  g.scenePrint = wp;
  checkWalls(sys);
}

/**
 * A fingerprint of the scene's forces that stays the same while the walls only spin: gravity,
 * the contact parameters, and the walls' kinds, switches, friction, spins and the geometry that
 * spinning does not move (a segment's initial ends, pivot and thickness; a plane's or a
 * drum's own).
 */
function scenePrint(sys: GrainSystemState): number {
  const w = sys.walls, geo = w.geom, base = w.base;
  let h = w.count + sys.gravityX + FY * sys.gravityY + FA * sys.kn + Math.E * sys.kt +
    Math.PI * sys.friction;
  for (let k = 0; k < w.count; k++) {
    const o = 8 * k, b = 4 * k;
    let s = w.kind[k] + FY * w.enabled[k] + FA * w.friction[k] + Math.PI * w.omega[k];
    if (w.kind[k] === SEGMENT) {
      s += base[b] + FY * base[b + 1] + FA * base[b + 2] + Math.E * base[b + 3] +
        geo[o + 4] + FY * geo[o + 5] + FA * geo[o + 6];
    } else s += geo[o] + FY * geo[o + 1] + FA * geo[o + 2] + Math.E * geo[o + 3];
    h = h * 1.000001 + (k + 1) * s;
  }
  return h;
}

const scratch = { ke: 0, fp: 0 };

/** Kinetic energy and position fingerprint with the arithmetic of the end-of-step statistics. */
function fingerprint(sys: GrainSystemState): { ke: number; fp: number } {
  const pos = sys.store.pos,
    vel = sys.store.vel,
    om = sys.store.omega,
    m = sys.store.mass,
    I = sys.store.inertia;
  const ang = sys.store.ang;
  let ke = 0, fp = 0;
  for (let i = 0; i < sys.count; i++) {
    const vx = vel[2 * i], vy = vel[2 * i + 1], v2 = vx * vx + vy * vy;
    ke += 0.5 * (m[i] * v2 + I[i] * om[i] * om[i]);
    fp += positionWeight(pos[2 * i], pos[2 * i + 1], ang[i]);
  }
  scratch.ke = ke;
  scratch.fp = fp;
  return scratch;
}

/** One grain's term of the position fingerprint (the statistics sum it). @internal */
export function positionWeight(x: number, y: number, a: number): number {
  return x + FY * y + FA * a;
}

/**
 * The reference of the speed check from the current state and the contacts detected at it
 * (`contacts`, by default the step's own).
 */
function measureReference(sys: GrainSystemState, contacts: ContactRecord = sys.contacts): void {
  const g = sys.guard, n = sys.count;
  const pos = sys.store.pos,
    vel = sys.store.vel,
    om = sys.store.omega,
    m = sys.store.mass,
    I = sys.store.inertia;
  const r = sys.store.rmax, gx = sys.gravityX, gy = sys.gravityY, gn = Math.hypot(gx, gy);
  const ux = gn > 0 ? -gx / gn : 0, uy = gn > 0 ? -gy / gn : 0;
  let hMin = Infinity, mMin = Infinity, rMin = Infinity, ke = 0;
  for (let i = 0; i < n; i++) {
    const h = ux * pos[2 * i] + uy * pos[2 * i + 1];
    if (h < hMin) hMin = h;
    if (m[i] < mMin) mMin = m[i];
    if (r[i] < rMin) rMin = r[i];
    const vx = vel[2 * i], vy = vel[2 * i + 1];
    ke += 0.5 * (m[i] * (vx * vx + vy * vy) + I[i] * om[i] * om[i]);
  }
  let pe = 0;
  for (let i = 0; i < n; i++) pe += m[i] * gn * (ux * pos[2 * i] + uy * pos[2 * i + 1] - hMin);
  // elastic energy of the detected contacts: ½·kn·δ², and at most ½·(μ·kn·δ)²/kt in the spring
  const c = contacts, b = contactBuffers(c), ov = b.overlap;
  let mu = sys.friction;
  const w = sys.walls;
  for (let k = 0; k < w.count; k++) mu = Math.max(mu, w.friction[k]);
  const kn = sys.kn, kt = sys.kt;
  const per = 0.5 * kn * (1 + (kt > 0 ? (mu * mu * kn) / kt : 0));
  let el = 0;
  for (let k = 0; k < c.count; k++) el += per * ov[k] * ov[k];
  g.minMass = mMin;
  g.minRadius = rMin;
  g.refSpeed = n > 0 ? Math.sqrt((2 * (ke + pe + el)) / mMin) : 0;
  g.accel = gn;
  g.elapsed = 0;
  g.stale = false;
}

/**
 * The fastest surface of the enabled spinning walls (m/s) into `wallSpeed`; throws when one
 * moves more than the smallest grain's bounding radius in a step.
 */
function checkWalls(
  sys: GrainSystemState,
  where = `${sys.systemKind}.step`,
  step = sys.lastStepStats.step + 1,
): void {
  const w = sys.walls, g = sys.guard, geo = w.geom, dt = sys.timeStep;
  let vMax = 0;
  for (let k = 0; k < w.count; k++) {
    const om = Math.abs(w.omega[k]);
    if (om === 0 || w.enabled[k] === 0) continue;
    const o = 8 * k;
    let reach: number;
    if (w.kind[k] === DRUM) reach = geo[o + 2];
    else if (w.kind[k] === SEGMENT) {
      const px = geo[o + 5], py = geo[o + 6];
      reach = Math.max(
        Math.hypot(geo[o] - px, geo[o + 1] - py),
        Math.hypot(geo[o + 2] - px, geo[o + 3] - py),
      ) + geo[o + 4];
    } else continue;
    const v = om * reach;
    if (v > vMax) vMax = v;
    if (sys.count > 0 && v * dt > g.minRadius) {
      const what = w.kind[k] === DRUM ? "a drum" : "a segment";
      throw new RangeError(
        `${where}: wall ${k} (${what} spinning at ${w.omega[k]} rad/s) moves its ` +
          `surface at ${v.toPrecision(3)} m/s, ${(v * dt).toPrecision(3)} m in a step of ` +
          `${dt} s, more than the smallest grain's bounding radius ${g.minRadius} m: no contact ` +
          `can follow it (at step ${step}). Lower its omega below ` +
          `${Number((g.minRadius / (dt * reach)).toPrecision(3))} rad/s or timeStep below ` +
          `${Number((g.minRadius / v).toPrecision(3))} s`,
      );
    }
  }
  g.wallSpeed = vMax;
}

/** The speed (m/s) above which the integration has diverged. @internal */
export function speedLimit(g: GrainGuard): number {
  return 10 * (g.refSpeed + g.accel * g.elapsed + g.wallSpeed) + 1e-3;
}

/**
 * After the statistics of a step: throw when a grain is faster than the scene can drive it or
 * a contact is deeper than a grain's size. `v2max` is the largest squared speed, `maxOv` the
 * deepest overlap; `ke` and `fp` the end-of-step fingerprint. @internal
 */
export function guardAfterStep(
  sys: GrainSystemState,
  v2max: number,
  maxOv: number,
  ke: number,
  fp: number,
): void {
  const g = sys.guard;
  g.endKe = ke;
  g.endFp = fp;
  g.elapsed += sys.timeStep;
  if (maxOv > g.minRadius) checkOverlaps(sys);
  const lim = speedLimit(g);
  if (v2max > lim * lim) reportTooFast(sys, lim);
}

/** Throw naming the first contact of `c` deeper than its grains' size, if any. */
function checkOverlaps(
  sys: GrainSystemState,
  c: ContactRecord = sys.contacts,
  where?: string,
  step?: number,
): void {
  const b = contactBuffers(c), r = sys.store.rmax, ids = sys.store.ids;
  for (let k = 0; k < c.count; k++) {
    const i = b.i[k], j = b.j[k], d = b.overlap[k];
    if (b.kind[k] === ContactKind.particle) {
      const lim = Math.min(r[i], r[j]);
      if (d > lim) {
        diverged(
          sys,
          i,
          `overlaps grain ${j} (id ${ids[j]}) by ${d.toPrecision(3)} m, more than the smaller ` +
            `bounding radius ${lim} m: the grains passed through each other`,
          where,
          step,
        );
      }
    } else if (d > r[i]) {
      diverged(
        sys,
        i,
        `overlaps wall ${b.boundary[k]} by ${d.toPrecision(3)} m, more than its bounding ` +
          `radius ${r[i]} m: it passed through the wall`,
        where,
        step,
      );
    }
  }
}

/** Throw naming the fastest grain (its velocity as the columns hold it). */
function reportTooFast(
  sys: GrainSystemState,
  lim: number,
  where?: string,
  step?: number,
): never {
  const v = sys.store.vel;
  let best = -1, i = 0;
  for (let k = 0; k < sys.count; k++) {
    const s2 = v[2 * k] * v[2 * k] + v[2 * k + 1] * v[2 * k + 1];
    if (s2 > best) best = s2, i = k;
  }
  diverged(
    sys,
    i,
    `moves at ${Math.sqrt(best).toPrecision(3)} m/s, faster than any force in the scene can ` +
      `drive it (bound ${lim.toPrecision(3)} m/s from the energy the scene held ` +
      `${sys.guard.elapsed.toPrecision(3)} s earlier, gravity and the walls' speed)`,
    where,
    step,
  );
}

/** Throw the divergence error for grain `i`: what happened, when, and the likely cure. */
function diverged(
  sys: GrainSystemState,
  i: number,
  what: string,
  where = `${sys.systemKind}.step`,
  step = sys.lastStepStats.step,
): never {
  const dt = sys.timeStep;
  const b = stableTimeStep(
    sys.kn,
    sys.kt,
    sys.cn,
    sys.store.mass[i],
    sys.store.inertia[i],
    sys.leverArm(i),
  );
  const bound = b[0];
  const allNodes = (sys as { contactPoints?: string }).contactPoints === "all-nodes";
  throw new RangeError(
    `${where}: the integration diverged ${step === sys.lastStepStats.step ? "at" : "by"} ` +
      `step ${step}: grain ${i} ` +
      `(id ${sys.store.ids[i]}) ${what}. The time step ${dt} s is ` +
      `${(dt / bound).toPrecision(2)}× the stability bound ${bound.toPrecision(3)} s of one ` +
      `contact of this grain` +
      (allNodes
        ? ` (with contactPoints "all-nodes" every node inside the other grain is a contact: ` +
          `a pair acts as several springs, stiffer than the bound assumes)`
        : "") +
      `; lower timeStep below ${Number((0.5 * Math.min(dt, bound)).toPrecision(2))} s, or soften ` +
      `the contact (normalStiffness)`,
  );
}

// ---- the GPU system (its host holds the guard; the state lives on the GPU) ----------------

/** How the guard reaches a GPU system. @internal */
export interface GpuGuardAccess {
  /** The CPU system that holds the parameters, walls, columns and the guard. */
  host: GrainSystemState;
  /** Read the GPU's state back into the host's columns. */
  readState(): Promise<void>;
  /** The contacts at the host's positions (detected on the host, without stepping). */
  contactsNow(): ContactRecord;
  /** The caller, for messages (`StarSystemGpu.run`). */
  where: string;
}

/**
 * Before a GPU run from step `step`: when the scene changed (grains added, a system loaded, a
 * wall added, moved or switched), read the state back (the host's columns may be behind) and
 * measure the reference with the contacts detected on the host — once per change; then check
 * the walls' speed. @internal
 */
export async function guardBeforeGpuRun(a: GpuGuardAccess, step: number): Promise<void> {
  const host = a.host, g = host.guard;
  const wp = scenePrint(host);
  if (wp !== g.scenePrint) g.stale = true;
  if (g.stale) {
    await a.readState();
    measureReference(host, a.contactsNow());
  }
  g.scenePrint = wp;
  g.viewsOut = false; // the host's columns are copies: writing them changes nothing on the GPU
  checkWalls(host, a.where, step + 1);
}

/**
 * After the statistics readback of a GPU run of `steps` steps ending at step `step`: throw
 * when the last step's deepest overlap `maxOv` exceeds the smallest bounding radius, or its
 * fastest grain (`maxSpeed`) the speed limit. Only on that path is the state read back and
 * its contacts detected on the host, to name the grain. @internal
 */
export async function guardAfterGpuRun(
  a: GpuGuardAccess,
  steps: number,
  maxSpeed: number,
  maxOv: number,
  step: number,
): Promise<void> {
  const host = a.host, where = a.where, g = host.guard;
  g.elapsed += steps * host.timeStep;
  const lim = speedLimit(g);
  if (!(maxOv > g.minRadius) && !(maxSpeed > lim)) return;
  await a.readState();
  if (maxSpeed > lim) reportTooFast(host, lim, where, step);
  // the contacts of the state read back, detected on the host, name the grain
  checkOverlaps(host, a.contactsNow(), where, step);
  throw new RangeError(
    `${where}: the integration diverged by step ${step}: a contact overlaps by ` +
      `${maxOv.toPrecision(3)} m, more than the smallest grain's bounding radius ` +
      `${g.minRadius} m: grains passed through each other or a wall. Lower timeStep, or ` +
      `soften the contact (normalStiffness)`,
  );
}
