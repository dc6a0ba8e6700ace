/**
 * Per-step diagnostic counters of a granular system.
 *
 * @module
 */

/**
 * Diagnostic counters of the last step (names as in the specification, in camelCase).
 * Counts of pairs and contacts are those of the last substep; `maxPenetration` is the maximum
 * over the substeps; lifecycle, wrap and clamp counters add up everything since the previous
 * step ended (so an `emitBox` between two steps shows in the stats of the following step).
 */
export interface StepStats {
  /** Particle-particle candidate pairs tested (the neighbour-list pairs whose distance the step checked). */
  candidatePairs: number;
  /** Particle-object pairs tested (rigid bodies; 0 until bodies exist). */
  rigidCandidatePairs: number;
  /** Particle-triangle pairs tested against meshes (0 until meshes exist). */
  meshTriangleCandidatePairs: number;
  /** Inside tests against mesh triangles (0 until meshes exist). */
  meshInsideTriangleTests: number;
  /** Particle-particle contacts, cohesive ones included. */
  particleContacts: number;
  /** Contacts with the ground plane and container walls. */
  boundaryContacts: number;
  /** Contacts with world objects (0 until bodies exist). */
  rigidContacts: number;
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
  /** Largest contact overlap (m). */
  maxPenetration: number;
  /** Largest particle speed at the end of the step (m/s). */
  maxSpeed: number;
}

/**
 * A fresh, zeroed statistics record.
 *
 * @example
 * ```ts
 * import { emptyStats } from "@grainlab/grainlab/sphere3d";
 * console.assert(emptyStats().particleContacts === 0);
 * ```
 */
export function emptyStats(): StepStats {
  return {
    candidatePairs: 0,
    rigidCandidatePairs: 0,
    meshTriangleCandidatePairs: 0,
    meshInsideTriangleTests: 0,
    particleContacts: 0,
    boundaryContacts: 0,
    rigidContacts: 0,
    cohesiveContacts: 0,
    activeContactHistories: 0,
    staleContactHistoriesRemoved: 0,
    emittedParticles: 0,
    removedParticles: 0,
    wrappedParticles: 0,
    velocityClamps: 0,
    maxPenetration: 0,
    maxSpeed: 0,
  };
}
