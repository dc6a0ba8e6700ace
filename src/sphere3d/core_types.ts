/**
 * Plain types of the granular core (`core.ts`): the link to the world's rigid bodies, the
 * caches a loaded checkpoint carries into its first step, and the validated emitter settings.
 * Re-exported from `core.ts`.
 *
 * @module
 */
import type { GridAxisPeriod } from "../math/grid.ts";
import type { BodySet } from "./bodies/body_set.ts";
import type { BodyLoads } from "./bodies/contact.ts";

/** The world's bodies as one granular system sees them: their columns and its loads on them. */
export interface BodyLink {
  /** The world's body columns (posed per force evaluation). */
  set: BodySet;
  /** This system's loads on the bodies. */
  loads: BodyLoads;
}

/**
 * What a loaded checkpoint carries into the first step after loading: the step's caches at save
 * time and the settings they were computed under. The first step reuses them only when those
 * settings match the system's then (boundaries re-applied as they were, the same gravity) and
 * nothing else changed since the load; otherwise it recomputes (see `resumeFromCheckpoint` in
 * `core_resume.ts`).
 */
export interface ResumeState {
  /** Gravity the carried forces were computed under (m/s²). */
  gravity: [number, number, number];
  /** Ground plane height at save time (compared, never applied). */
  ground: number | null;
  /** Container corners at save time (compared, never applied). */
  container: [[number, number, number], [number, number, number]] | null;
  /** Periodic cell at save time (compared, never applied). */
  periodic: [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod] | null;
  /** The force and torque columns hold the forces of the saved state. */
  forces: boolean;
  /** Positions (stride 3) at which the saved neighbour list was built, or null to rebuild. */
  refPos: Float64Array | null;
  /** The divergence guard at save time. */
  guard: {
    stale: boolean;
    warned: boolean;
    refSpeed: number;
    refTime: number;
    accel: number;
    minMass: number;
  };
}

/** Validated settings shared by the emitters. */
export interface EmitSettings {
  /** Box corners. */
  lo: number[];
  /** Upper corner. */
  hi: number[];
  /** Grid spacing (m). */
  spacing: number;
  /** Most particles to emit. */
  max: number;
  /** Initial velocity. */
  v: number[];
  /** Initial angular velocity. */
  a: number[];
  /** Material id. */
  mid: number;
  /** Fixed flag. */
  fx: boolean;
}
