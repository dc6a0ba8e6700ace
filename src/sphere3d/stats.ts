/**
 * Per-step diagnostic counters of a granular system: the shared core of every simulator
 * (`src/contact/stats.ts`) plus the counters of the sphere3d specification.
 *
 * @module
 */
import type { StepStatsCore } from "../contact/stats.ts";

/**
 * Diagnostic counters of the last step: the shared {@link StepStatsCore} (`step`, `time`,
 * `candidatePairs`, `particleContacts`, `boundaryContacts`, `maxPenetration`, `maxSpeed`,
 * `kineticEnergy`) and the specification's counters (in camelCase). Counts of pairs and
 * contacts are those of the last substep; `maxPenetration` is the maximum over the substeps;
 * lifecycle, wrap and clamp counters add up everything since the previous step ended (so an
 * `emitBox` between two steps shows in the stats of the following step). Units of every field
 * are in `STAT_FIELDS`.
 */
export interface StepStats extends StepStatsCore {
  /** Particle–shape pairs tested against rigid bodies (grains in the cells of a shape's box). */
  rigidCandidatePairs: number;
  /** Particle–triangle pairs tested against meshes and height maps. */
  meshTriangleCandidatePairs: number;
  /** Inside/outside tests against mesh triangles. */
  meshInsideTriangleTests: number;
  /** Contacts with rigid bodies, meshes and height maps. */
  rigidContacts: number;
  /** Grains asleep at the end of the step (granular pool sleep; 0 when off). */
  sleepingParticles: number;
  /** Particle pairs with non-zero cohesion. */
  cohesiveContacts: number;
  /** Tangential contact histories alive after the step. */
  activeContactHistories: number;
  /** Histories discarded because their contact ended. */
  staleContactHistoriesRemoved: number;
  /** Particles added by `emitBox` / `emitBoxRandom`. */
  emittedParticles: number;
  /** Particles removed by `removeParticlesBelowZ` / `removeParticlesInBox`. */
  removedParticles: number;
  /** Periodic-boundary wraps. */
  wrappedParticles: number;
  /** Linear or angular speed clamps. */
  velocityClamps: number;
}

/**
 * A fresh, zeroed statistics record.
 *
 * @example
 * ```ts
 * import { emptyStats } from "./stats.ts";
 * import { expect } from "expect";
 * expect(emptyStats().particleContacts).toBe(0);
 * expect(emptyStats().kineticEnergy).toBe(0);
 * ```
 */
export function emptyStats(): StepStats {
  return {
    step: 0,
    time: 0,
    candidatePairs: 0,
    rigidCandidatePairs: 0,
    meshTriangleCandidatePairs: 0,
    meshInsideTriangleTests: 0,
    particleContacts: 0,
    boundaryContacts: 0,
    rigidContacts: 0,
    sleepingParticles: 0,
    cohesiveContacts: 0,
    activeContactHistories: 0,
    staleContactHistoriesRemoved: 0,
    emittedParticles: 0,
    removedParticles: 0,
    wrappedParticles: 0,
    velocityClamps: 0,
    maxPenetration: 0,
    maxSpeed: 0,
    kineticEnergy: 0,
  };
}
