/**
 * The ONE statistics core every simulator fills after a step: the same names and units in
 * sphere3d and star2d ({@link StepStatsCore}), extended per simulator, with each field's unit
 * and meaning declared once in {@link STAT_FIELDS} (read by `statsTable`), and the optional
 * per-stage timing {@link StepProfile}.
 *
 * @module
 */

/**
 * Fields every simulator's `lastStepStats` has, with these names and units.
 *
 * @example
 * ```ts
 * import type { StepStatsCore } from "./stats.ts";
 * import { expect } from "expect";
 * const s: StepStatsCore = {
 *   step: 1, time: 1e-3, candidatePairs: 4, particleContacts: 2, boundaryContacts: 1,
 *   maxPenetration: 1e-5, maxSpeed: 0.1, kineticEnergy: 2e-4,
 * };
 * expect(s.particleContacts + s.boundaryContacts).toBe(3);
 * ```
 */
export interface StepStatsCore {
  /** Steps taken by the system so far (1). */
  step: number;
  /** Simulated time at the end of the step (s). */
  time: number;
  /** Candidate particle pairs whose distance the step tested (1). */
  candidatePairs: number;
  /** Particle–particle contacts (1). */
  particleContacts: number;
  /** Contacts with boundaries: ground, walls, container faces (1). */
  boundaryContacts: number;
  /** Largest overlap of any contact (m). */
  maxPenetration: number;
  /** Largest particle speed at the end of the step (m/s). */
  maxSpeed: number;
  /** Kinetic energy, translational plus rotational (J; per metre of depth in 2D). */
  kineticEnergy: number;
}

/**
 * Stage times of one step in milliseconds (like Box2D's `b2Profile`), filled only while
 * profiling is on (`world.profile = true` in sphere3d, `system.profile = true` in star2d).
 *
 * @example
 * ```ts
 * import { emptyProfile } from "./stats.ts";
 * import { expect } from "expect";
 * expect(emptyProfile().total).toBe(0);
 * ```
 */
export interface StepProfile {
  /** Grid rebuild and candidate-pair search (ms). */
  neighbors: number;
  /** Particle–particle detection and forces (ms). */
  pairForces: number;
  /** Particle–boundary detection and forces (ms). */
  boundaryForces: number;
  /** Integration of velocities and positions, wraps and clamps (ms). */
  integration: number;
  /** The whole step (ms). */
  total: number;
}

/**
 * A zeroed profile record.
 *
 * @example
 * ```ts
 * import { emptyProfile } from "./stats.ts";
 * import { expect } from "expect";
 * expect(Object.keys(emptyProfile())).toEqual([
 *   "neighbors", "pairForces", "boundaryForces", "integration", "total",
 * ]);
 * ```
 */
export function emptyProfile(): StepProfile {
  return { neighbors: 0, pairForces: 0, boundaryForces: 0, integration: 0, total: 0 };
}

/**
 * Zero the stage times of a step profile in place.
 *
 * @example
 * ```ts
 * import { emptyProfile, resetProfile } from "./stats.ts";
 * import { expect } from "expect";
 * const p = { ...emptyProfile(), pairForces: 0.5, total: 1 };
 * resetProfile(p);
 * expect(p).toEqual(emptyProfile());
 * ```
 */
export function resetProfile(p: StepProfile): void {
  p.neighbors =
    p.pairForces =
    p.boundaryForces =
    p.integration =
    p.total =
      0;
}

/**
 * Stage times summed over the steps taken while profiling was on (ms), and how many steps
 * that was: `profileTotals` of a sphere3d granular system or a star2d system. Switching
 * `profile` on zeroes it, so a run's breakdown is one division away.
 *
 * @example
 * ```ts
 * import { addProfile, emptyProfile, emptyProfileTotals } from "./stats.ts";
 * import { expect } from "expect";
 * const t = emptyProfileTotals();
 * const p = emptyProfile();
 * p.pairForces = 0.75, p.total = 1;
 * addProfile(t, p);
 * addProfile(t, p);
 * expect([t.steps, t.pairForces / t.steps, t.total]).toEqual([2, 0.75, 2]);
 * ```
 */
export interface ProfileTotals extends StepProfile {
  /** Steps summed (1). */
  steps: number;
}

/**
 * A zeroed {@link ProfileTotals}.
 *
 * @example
 * ```ts
 * import { emptyProfileTotals } from "./stats.ts";
 * import { expect } from "expect";
 * expect(emptyProfileTotals().steps).toBe(0);
 * ```
 */
export function emptyProfileTotals(): ProfileTotals {
  return { neighbors: 0, pairForces: 0, boundaryForces: 0, integration: 0, total: 0, steps: 0 };
}

/**
 * Add one step's stage times `p` to the totals `t` (and count the step).
 *
 * @example
 * ```ts
 * import { addProfile, emptyProfile, emptyProfileTotals } from "./stats.ts";
 * import { expect } from "expect";
 * const t = emptyProfileTotals();
 * addProfile(t, { ...emptyProfile(), integration: 0.5, total: 0.5 });
 * expect([t.steps, t.integration]).toEqual([1, 0.5]);
 * ```
 */
export function addProfile(t: ProfileTotals, p: Readonly<StepProfile>): void {
  t.neighbors += p.neighbors;
  t.pairForces += p.pairForces;
  t.boundaryForces += p.boundaryForces;
  t.integration += p.integration;
  t.total += p.total;
  t.steps++;
}

/**
 * Zero the totals in place.
 *
 * @example
 * ```ts
 * import { addProfile, emptyProfile, emptyProfileTotals, resetProfileTotals } from "./stats.ts";
 * import { expect } from "expect";
 * const t = emptyProfileTotals();
 * addProfile(t, emptyProfile());
 * resetProfileTotals(t);
 * expect(t).toEqual(emptyProfileTotals());
 * ```
 */
export function resetProfileTotals(t: ProfileTotals): void {
  resetProfile(t);
  t.steps = 0;
}

/** Unit and meaning of a statistics field. */
export interface StatField {
  /** SI unit, "1" for counts and ratios. */
  unit: string;
  /** One line saying what it counts or measures. */
  description: string;
}

const f = (unit: string, description: string): StatField => ({ unit, description });

/**
 * Units and descriptions of every statistics field of every simulator (the shared core first,
 * then sphere3d's and star2d's own, then the profile's `*Ms` names used in tables).
 *
 * @example
 * ```ts
 * import { STAT_FIELDS } from "./stats.ts";
 * import { expect } from "expect";
 * expect(STAT_FIELDS.maxPenetration.unit).toBe("m");
 * expect(STAT_FIELDS.kineticEnergy.unit).toBe("J");
 * ```
 */
export const STAT_FIELDS: Readonly<Record<string, StatField>> = Object.freeze({
  step: f("1", "steps taken by the system so far"),
  time: f("s", "simulated time at the end of the step"),
  candidatePairs: f("1", "candidate particle pairs whose distance the step tested"),
  particleContacts: f("1", "particle-particle contacts"),
  boundaryContacts: f("1", "contacts with boundaries (ground, walls, container faces)"),
  maxPenetration: f("m", "largest overlap of any contact"),
  maxSpeed: f("m/s", "largest particle speed at the end of the step"),
  kineticEnergy: f("J", "kinetic energy, translational plus rotational"),
  // sphere3d
  rigidCandidatePairs: f("1", "particle-body pairs tested"),
  meshTriangleCandidatePairs: f("1", "particle-triangle pairs tested against meshes"),
  meshInsideTriangleTests: f("1", "inside tests against mesh triangles"),
  rigidContacts: f("1", "contacts with rigid bodies"),
  sleepingParticles: f("1", "grains asleep (granular pool sleep) at the end of the step"),
  cohesiveContacts: f("1", "particle pairs with non-zero cohesion"),
  activeContactHistories: f("1", "tangential contact histories alive after the step"),
  staleContactHistoriesRemoved: f("1", "histories discarded because their contact ended"),
  emittedParticles: f("1", "particles emitted since the previous step"),
  removedParticles: f("1", "particles removed since the previous step"),
  wrappedParticles: f("1", "periodic-boundary wraps"),
  velocityClamps: f("1", "linear or angular speed clamps"),
  // star2d
  boundingHits: f("1", "candidate pairs whose bounding circles intersect"),
  nodeTests: f("1", "point-in-grain tests (boundary nodes, or disk pairs)"),
  pairsInContact: f("1", "grain pairs with at least one contact"),
  contactsPerPair: f("1", "distinct contacts per pair in contact"),
  // energies (sphere3d energy())
  potentialEnergy: f("J", "gravitational potential energy"),
  elasticEnergy: f("J", "elastic energy stored in contacts"),
  totalEnergy: f("J", "sum of kinetic, potential and elastic energy"),
  dissipatedEnergy: f("J", "energy dissipated by damping and friction so far"),
  // profile (StepProfile fields, as table columns)
  neighborsMs: f("ms", "wall-clock time of the neighbour search"),
  pairForcesMs: f("ms", "wall-clock time of particle-particle detection and forces"),
  boundaryForcesMs: f("ms", "wall-clock time of particle-boundary detection and forces"),
  integrationMs: f("ms", "wall-clock time of the integration"),
  totalMs: f("ms", "wall-clock time of the whole step"),
});
