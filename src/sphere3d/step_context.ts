/**
 * The step context of a granular system (after Box2D v3's `b2StepContext`): what the stages of a
 * step read and write, gathered in one object built once per system — the force parameters (the
 * one shared `Float64Array` layout of `force_params.ts`), the scratch of the force loops, the
 * step statistics, the contact record, the end-of-step scan, the drift reference, references to
 * the system's columns and lists, and the worker threads (or null). The stages
 * (`step_stages.ts`) take it with an index range; nothing in it is allocated during a step.
 *
 * @module
 */
import type { PairList } from "../math/grid.ts";
import { ContactRecord } from "../contact/record.ts";
import { emptyForceParams, type ForceParams, ForceScratch, type FrictionTables } from "./forces.ts";
import type { Material } from "./material.ts";
import type { PairHistory } from "./pair_history.ts";
import type { ParticleStore } from "./particles.ts";
import type { PlaneSet } from "./plane_set.ts";
import { emptyStats, type StepStats } from "./stats.ts";

/**
 * The threaded versions of the stages (implemented by `GranularThreads` of `threads/pool.ts`):
 * each splits its stage over the threads with its own fixed partitioning and folds the threads'
 * results into the context in a fixed order, so that one thread and several give the same bytes.
 *
 * @example
 * ```ts
 * import type { StagePool } from "./step_context.ts";
 * import { expect } from "expect";
 * const calls: string[] = [];
 * const pool: Partial<StagePool> = { kick: () => void calls.push("kick") };
 * pool.kick!(null!);
 * expect(calls).toEqual(["kick"]);
 * ```
 */
export interface StagePool {
  /** Half kick `ctx.h`, drift `ctx.hDrift` and the body-force reset; fills `ctx.moved2[0]`. */
  kickDrift(ctx: StepContext): void;
  /** Half kick `ctx.h` of every particle. */
  kick(ctx: StepContext): void;
  /** Half kick `ctx.h` and the kinetic-energy scan over `ctx.scanCount` blocks. */
  kickScan(ctx: StepContext): void;
  /** Pair forces of the neighbour list (and the body-force reset when `ctx.resetForces`). */
  pairForces(ctx: StepContext): void;
  /** Plane contacts. */
  planeForces(ctx: StepContext): void;
}

/** The columns and lists of a system that a step context refers to (never replaced objects). */
export interface StepInputs {
  /** The particle columns. */
  ps: ParticleStore;
  /** The neighbour list. */
  pairs: PairList;
  /** The springs of the neighbour list. */
  pairHist: PairHistory;
  /** The ground and container planes. */
  planes: PlaneSet;
  /** Friction per material id. */
  tables: FrictionTables;
  /** The resolved global material. */
  material: Material;
  /** Gravity (m/s²), updated in place. */
  gravity: [number, number, number];
}

/**
 * Everything the stages of one system's step share. Built once (`GranularCore` owns one);
 * the per-stage scalars ({@link StepContext.h}, {@link StepContext.hDrift},
 * {@link StepContext.resetForces}, {@link StepContext.scanCount}) are set just before a stage
 * runs.
 *
 * @example
 * ```ts
 * import { StepContext } from "./step_context.ts";
 * import { ParticleStore } from "./particles.ts";
 * import { PairList } from "../math/grid.ts";
 * import { PairHistory } from "./pair_history.ts";
 * import { PlaneSet } from "./plane_set.ts";
 * import { resolveMaterial } from "./material.ts";
 * import { FP } from "./force_params.ts";
 * import { expect } from "expect";
 * const ctx = new StepContext({
 *   ps: new ParticleStore(),
 *   pairs: new PairList(),
 *   pairHist: new PairHistory(),
 *   planes: new PlaneSet(),
 *   tables: { friction: Float64Array.of(0.5), rolling: Float64Array.of(0) },
 *   material: resolveMaterial({}),
 *   gravity: [0, 0, -9.81],
 * });
 * expect(ctx.pool).toBe(null);
 * expect(ctx.params[FP.lever]).toBe(0.5);
 * ```
 */
export class StepContext {
  /** The particle columns. */
  readonly ps: ParticleStore;
  /** The neighbour list. */
  readonly pairs: PairList;
  /** The springs of the neighbour list. */
  readonly pairHist: PairHistory;
  /** The ground and container planes. */
  readonly planes: PlaneSet;
  /** Friction per material id. */
  readonly tables: FrictionTables;
  /** The resolved global material. */
  readonly material: Material;
  /** Gravity (m/s²). */
  readonly gravity: [number, number, number];
  /** The force scalars ({@link FP} slots; the threads' job slots follow), shared memory. */
  readonly params: ForceParams = emptyForceParams();
  /** Scratch of the force loops. */
  readonly scratch: ForceScratch = new ForceScratch();
  /** The contacts of the last substep (the shared 3D contact record). */
  readonly contacts: ContactRecord = new ContactRecord(3);
  /** Statistics of the step (replaced by a checkpoint load). */
  stats: StepStats = emptyStats();
  /** The worker threads sharing the step, or null (every stage inline over its whole range). */
  pool: StagePool | null = null;
  /** End-of-step scan: max speed, kinetic energy. */
  readonly scan: Float64Array = new Float64Array(3);
  /** Kinetic energy per block of the end-of-step scan. */
  scanBlocks: Float64Array = new Float64Array(16);
  /** Positions at the last neighbour-list build (drift reference). */
  refPos: Float64Array = new Float64Array(0);
  /** The largest squared move since the last rebuild, from the kick-and-drift stage. */
  readonly moved2: Float64Array = new Float64Array(1);
  /** Half-kick time of the next kick stage (s). */
  h = 0;
  /** Drift time of the next kick-and-drift stage (s). */
  hDrift = 0;
  /** The pair stage resets the body forces first (the drift did not). */
  resetForces = false;
  /** Energy-scan blocks of the next kick-and-scan stage. */
  scanCount = 0;
  /** Sliding friction of the boundary material (set before the plane stage). */
  boundaryFriction = 0;
  /** Rolling friction of the boundary material (set before the plane stage). */
  boundaryRolling = 0;

  /** A context over a system's columns and lists `s`. */
  constructor(s: StepInputs) {
    this.ps = s.ps, this.pairs = s.pairs, this.pairHist = s.pairHist, this.planes = s.planes;
    this.tables = s.tables, this.material = s.material, this.gravity = s.gravity;
  }
}
