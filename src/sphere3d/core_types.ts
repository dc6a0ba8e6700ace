/**
 * Plain types of the granular core (`core.ts`): the state its split-off files share
 * ({@link CoreState}), the link to the world's rigid bodies, the caches a loaded checkpoint
 * carries into its first step, and the validated emitter settings. Re-exported from `core.ts`.
 *
 * @module
 */
import type { CellGrid3, GridAxisPeriod, PairList } from "../math/grid.ts";
import type { ContactRecord } from "../contact/record.ts";
import type { BodySet } from "./bodies/body_set.ts";
import type { BodyLoads } from "./bodies/contact.ts";
import type { PoolSleep } from "./bodies/sleep.ts";
import type { ForceParams, FrictionTables } from "./force_params.ts";
import type { DivergenceGuard } from "./guard_state.ts";
import type { HistoryTable } from "./history.ts";
import type { Material } from "./material.ts";
import type { PairHistory } from "./pair_history.ts";
import type { ParticleStore } from "./particles.ts";
import type { PlaneSet } from "./plane_set.ts";

/**
 * The state of a granular core that its split-off files (`core_lifecycle.ts`,
 * `core_resume.ts`, `core_slots.ts`, `guard.ts`) read and change. `GranularCore` implements it;
 * those files take it rather than the class, so that none of them imports `core.ts`.
 */
export interface CoreState {
  /** The particle columns. */
  readonly ps: ParticleStore;
  /** Tangential springs keyed by stable ids. */
  readonly hist: HistoryTable;
  /** The cell grid of the neighbour search. */
  readonly grid: CellGrid3;
  /** The neighbour list. */
  readonly pairs: PairList;
  /** The springs held beside the neighbour list. */
  readonly pairHist: PairHistory;
  /** The ground plane and the container's walls. */
  readonly planes: PlaneSet;
  /** The resolved material. */
  readonly material: Material;
  /** Per-pair friction tables of the material ids. */
  readonly tables: FrictionTables;
  /** Material ids in use + 1 (the used length of `tables`). */
  tableSize: number;
  /** Ground plane height (m), or null. */
  ground: number | null;
  /** Container corners (m), or null. */
  container: [[number, number, number], [number, number, number]] | null;
  /** Periodic cell, or null. */
  periodic: [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod] | null;
  /** Particles emitted and removed since the last step. */
  pending: { emitted: number; removed: number };
  /** The next stable id. */
  nextId: number;
  /** Slot of each stable id, −1 when gone. */
  slotOfId: Int32Array;
  /** Force evaluation counter stamped on history entries. */
  stamp: number;
  /** The force columns hold the forces of the current state. */
  forcesValid: boolean;
  /** The neighbour list must be rebuilt before the next force evaluation. */
  needRebuild: boolean;
  /** Caches a loaded checkpoint carries into its first step, or null. */
  resume: ResumeState | null;
  /** Gravity of the last step (m/s²). */
  gravity: [number, number, number];
  /** The one radius of all particles (m), 0 when they differ. */
  uniformRadius: number;
  /** Largest radius (m). */
  maxRadius: number;
  /** Smallest radius (m). */
  minRadius: number;
  /** Steps taken. */
  stepCount: number;
  /** Simulated time (s). */
  time: number;
  /** Slot reorderings so far. */
  sorts: number;
  /** Scratch of the reordering. */
  sortF: Float64Array;
  /** Scratch of the reordering (integer columns). */
  sortU: Uint32Array;
  /** The permutation of the last reordering. */
  sortOrder: Int32Array;
  /** Pool sleep of grains resting on bodies. */
  readonly sleep: PoolSleep;
  /** The divergence guard's state. */
  readonly guard: DivergenceGuard;
  /** The contacts of the last step. */
  readonly contacts: ContactRecord;
  /** The force parameters of the step context. */
  readonly params: ForceParams;
  /** The neighbour-list skin (m). */
  readonly neighborSkin: number;
  /** Forget the neighbour list and the forces (the state changed). */
  invalidate(): void;
  /** Make room for `n` particles. */
  reserve(n: number): void;
  /** Refresh what depends on the material. */
  materialsChanged(): void;
  /** Rebuild the neighbour list with `skin`, at positions `at`. */
  rebuildNeighbors(skin: number, at?: Float64Array): void;
}

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
