/**
 * The stages of a granular step, each a function `run(ctx, lo, hi)` over an index range of the
 * step context (particles, pairs or scan blocks), listed in one table, {@link STAGES}, and run by
 * one runner, {@link runStage}: inline over the stage's whole range [0, n) when the context has
 * no threads, else by the pool's threaded version of the stage (`threads/pool.ts`), which cuts
 * the range over the threads its own fixed way: each thread runs the particle stages' own `run`
 * on its part (on a step context of its own, `ThreadContext.stage`), and the pair and wall
 * kernels, which write a scratch record, for the `pairs` and `planes` stages. The core's
 * step (`core.ts`) calls the runner per stage; nothing here allocates.
 *
 * | stage        | range            | work                                                   |
 * | ------------ | ---------------- | ------------------------------------------------------ |
 * | `kickDrift`  | particles        | half kick, drift, body-force reset; largest move       |
 * | `bodyForces` | particles        | gravity and external loads (when the drift did not)    |
 * | `pairs`      | neighbour pairs  | pair contacts: forces, springs, record, statistics     |
 * | `planes`     | particles        | ground and container contacts                          |
 * | `kick`       | particles        | half kick                                              |
 * | `kickScan`   | scan blocks      | the last half kick and the kinetic-energy scan         |
 *
 * @module
 */
import { contactBuffers } from "../contact/record.ts";
import { pairForces } from "./forces.ts";
import { planeSweep } from "./boundaries.ts";
import { bodyForces, kick, kickDriftReset, kickScanBlocks } from "./integrate.ts";
import { candidateBound } from "./plane_set.ts";
import type { StagePool, StepContext } from "./step_context.ts";

/**
 * One stage of the step: its range, its inline run over a part of it, its threaded version.
 *
 * @example
 * ```ts
 * import { STAGES, type Stage } from "./step_stages.ts";
 * import { expect } from "expect";
 * const s: Stage = STAGES.kick;
 * expect(s.name).toBe("kick");
 * ```
 */
export interface Stage {
  /** The stage's name (as in {@link STAGES}). */
  readonly name: string;
  /** The end n of the stage's range [0, n). */
  size(ctx: StepContext): number;
  /** The stage's work on lo ≤ index < hi (one thread). */
  run(ctx: StepContext, lo: number, hi: number): void;
  /** The stage split over the pool's threads (same bytes as one inline run). */
  threaded(pool: StagePool, ctx: StepContext): void;
}

const particles = (ctx: StepContext): number => ctx.ps.count;

/**
 * The stages of a step, in the order a substep runs them (`kickDrift`, then the force
 * evaluation `bodyForces`, `pairs`, `planes`, then `kick`, or `kickScan` at the step's last
 * substep). Built once.
 *
 * @example
 * ```ts
 * import { STAGES } from "./step_stages.ts";
 * import { expect } from "expect";
 * expect(Object.keys(STAGES)).toEqual(["kickDrift", "bodyForces", "pairs", "planes", "kick", "kickScan"]);
 * ```
 */
export const STAGES = {
  kickDrift: {
    name: "kickDrift",
    size: particles,
    run(ctx: StepContext, lo: number, hi: number): void {
      const m = ctx.material;
      ctx.stats.velocityClamps += kickDriftReset(
        ctx.ps,
        ctx.h,
        ctx.hDrift,
        m.maxSpeed,
        m.maxAngularSpeed,
        ctx.refPos,
        ctx.gravity,
        ctx.moved2,
        lo,
        hi,
      );
    },
    threaded: (pool: StagePool, ctx: StepContext): void => pool.kickDrift(ctx),
  },
  bodyForces: {
    name: "bodyForces",
    size: particles,
    run(ctx: StepContext, lo: number, hi: number): void {
      if (ctx.resetForces) bodyForces(ctx.ps, ctx.gravity, lo, hi);
    },
    // the pair stage's first phase resets each block's body forces before its pairs
    threaded: (): void => {},
  },
  pairs: {
    name: "pairs",
    size: (ctx: StepContext): number => ctx.pairs.count,
    run(ctx: StepContext, lo: number, hi: number): void {
      const rec = ctx.contacts;
      rec.count = pairForces(
        ctx.ps,
        ctx.pairs,
        ctx.pairHist,
        ctx.tables,
        ctx.params,
        contactBuffers(rec),
        ctx.stats,
        lo,
        hi,
        rec.count,
      );
    },
    threaded: (pool: StagePool, ctx: StepContext): void => pool.pairForces(ctx),
  },
  planes: {
    name: "planes",
    size: particles,
    run(ctx: StepContext, lo: number, hi: number): void {
      const pl = ctx.planes, rec = ctx.contacts, cs = pl.candidateStart, cand = pl.candidates;
      // room for every candidate, so the sweeps write the record's columns directly
      rec.reserve(rec.count + cs[pl.count]);
      const cb = contactBuffers(rec);
      let w = rec.count;
      // one call per plane: a single hot loop per function lets V8 optimise it from its entry
      for (let q = 0; q < pl.count; q++) {
        const c0 = candidateBound(cand, cs[q], cs[q + 1], lo);
        const c1 = candidateBound(cand, c0, cs[q + 1], hi);
        w = planeSweep(
          ctx.ps,
          pl,
          q,
          ctx.tables,
          ctx.boundaryFriction,
          ctx.boundaryRolling,
          ctx.params,
          ctx.scratch,
          cb,
          ctx.stats,
          c0,
          c1,
          w,
        );
      }
      rec.count = w;
    },
    threaded: (pool: StagePool, ctx: StepContext): void => pool.planeForces(ctx),
  },
  kick: {
    name: "kick",
    size: particles,
    run(ctx: StepContext, lo: number, hi: number): void {
      const m = ctx.material;
      ctx.stats.velocityClamps += kick(ctx.ps, ctx.h, m.maxSpeed, m.maxAngularSpeed, lo, hi);
    },
    threaded: (pool: StagePool, ctx: StepContext): void => pool.kick(ctx),
  },
  kickScan: {
    name: "kickScan",
    size: (ctx: StepContext): number => ctx.scanCount,
    run(ctx: StepContext, lo: number, hi: number): void {
      const m = ctx.material;
      ctx.stats.velocityClamps += kickScanBlocks(
        ctx.ps,
        ctx.h,
        m.maxSpeed,
        m.maxAngularSpeed,
        lo,
        hi,
        ctx.scanBlocks,
        ctx.scan,
      );
    },
    threaded: (pool: StagePool, ctx: StepContext): void => pool.kickScan(ctx),
  },
} as const satisfies Record<string, Stage>;

/**
 * Run stage `s` of the step context `ctx`: inline over [0, n) without threads, else split over
 * the pool's threads. The only place the step asks whether it has threads.
 *
 * @example
 * ```ts
 * import { runStage, type Stage } from "./step_stages.ts";
 * import type { StepContext } from "./step_context.ts";
 * import { expect } from "expect";
 * const seen: number[] = [];
 * const s: Stage = {
 *   name: "probe",
 *   size: () => 7,
 *   run: (_ctx, lo, hi) => void seen.push(lo, hi),
 *   threaded: () => {},
 * };
 * runStage({ pool: null } as StepContext, s);
 * expect(seen).toEqual([0, 7]);
 * ```
 */
export function runStage(ctx: StepContext, s: Stage): void {
  const pool = ctx.pool;
  if (pool === null) s.run(ctx, 0, s.size(ctx));
  else s.threaded(pool, ctx);
}
