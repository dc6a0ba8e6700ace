/**
 * The per-step records of the granular core (`core.ts`): resetting the statistics at the start
 * of a step and timing a stage (the profile is reset by `resetProfile` of `src/contact/stats.ts`).
 *
 * @module
 */
import type { StepProfile } from "../contact/stats.ts";
import type { StepStats } from "./stats.ts";

/**
 * Add the time since `t0` to stage `k` of the profile; returns now.
 * @internal
 */
export function lap(p: StepProfile, k: keyof StepProfile, t0: number): number {
  const t = performance.now();
  p[k] += t - t0;
  return t;
}

/**
 * Zero the counters and maxima a step fills (the step number and time are set at its end).
 * @internal
 */
export function resetStats(s: StepStats): void {
  s.candidatePairs =
    s.particleContacts =
    s.boundaryContacts =
    s.cohesiveContacts =
      0;
  s.activeContactHistories = s.staleContactHistoriesRemoved = 0;
  s.emittedParticles =
    s.removedParticles =
    s.wrappedParticles =
    s.velocityClamps =
      0;
  s.maxPenetration = s.maxSpeed = s.kineticEnergy = 0;
}
