/**
 * The work of one thread in a threaded granular step: the same kernels the single-threaded
 * step runs (`forces.ts`, `integrate.ts`), on a range of pairs (whole groups of
 * `groupPairs`, so that no two threads touch one grain), particles or energy blocks. Shared by
 * the main thread and the workers; every result is independent of how the ranges are cut.
 *
 * @module
 */
import type { ContactBuffers } from "../../contact/record.ts";
import type { PairList } from "../../math/grid.ts";
import { type ForceParams, ForceScratch, FP, type FrictionTables, pairForces } from "../forces.ts";
import { PARAMS_LENGTH } from "../force_params.ts";
import { bodyForces } from "../integrate.ts";
import { resolveMaterial } from "../material.ts";
import { StepContext } from "../step_context.ts";
import { STAGES } from "../step_stages.ts";
import { PlaneSet, planeSweep } from "../boundaries.ts";
import { candidateBound } from "../plane_set.ts";
import { ParticleStore } from "../particles.ts";
import { BLOCK_LOG, type PairHistory } from "../pair_history.ts";
import { emptyStats, type StepStats } from "../stats.ts";

/** Job codes of the control words. */
export const Job = {
  /** Pair forces of a range of pairs, added to the particle columns. */
  pairs: 1,
  /** Body forces of a range of particles. */
  body: 2,
  /** Half kick of a range of particles. */
  kick: 3,
  /** Copy pair groups' contacts from the scratch record to their places in the record. */
  copy: 6,
  /** Plane contacts of a range of particles. */
  planes: 7,
  /** Half kick, then drift, of a range of particles. */
  kickDrift: 8,
  /** Half kick, then the kinetic-energy scan, of a range of blocks. */
  kickScan: 10,
  /** Leave the job loop to receive new buffers. */
  rebind: 9,
} as const;

/**
 * The job slots of the shared scalar block `params`, after the force slots (`FP` of
 * `force_params.ts`: one layout, the core's own `params` array, read by every thread).
 */
export const P = {
  gx: FP.size,
  gy: FP.size + 1,
  gz: FP.size + 2,
  count: FP.size + 3,
  h: FP.size + 4,
  maxSpeed: FP.size + 5,
  maxAngular: FP.size + 6,
  pairs: FP.size + 7,
  boundaryFriction: FP.size + 8,
  boundaryRolling: FP.size + 9,
  planes: FP.size + 10,
  /** Drift time of a kick-and-drift job (s). */
  hDrift: FP.size + 11,
  /** 1: a pair job resets the body forces of block g before group g (the first phase). */
  resetForces: FP.size + 12,
  /** The last slot block: its body-force reset runs to the particle count. */
  lastBlock: FP.size + 13,
  size: FP.size + 14,
} as const;

if (P.size > PARAMS_LENGTH) throw new Error("threads: the job slots overflow PARAMS_LENGTH");

/** Doubles per thread in the argument and result blocks. */
export const STRIDE = 8;

/** The shared buffers a thread works on (all backed by SharedArrayBuffers). */
export interface SharedBuffers {
  /** Particle columns by field name of {@link ParticleStore}. */
  ps: Record<string, Float64Array | Uint16Array | Uint8Array | Uint32Array>;
  /** Pair list columns. */
  a: Int32Array;
  /** Second particles. */
  b: Int32Array;
  /** Pair springs. */
  on: Uint8Array;
  /** Pair spring displacements, stride 3. */
  xi: Float64Array;
  /** Friction per material id. */
  friction: Float64Array;
  /** Rolling friction per material id. */
  rolling: Float64Array;
  /** Contact record columns. */
  cb: ContactBuffers;
  /** Scratch contact columns the pair phases write, group g from `groupStart[g]` on. */
  sb: ContactBuffers;
  /** Where group g's contacts go in the record. */
  groupDest: Int32Array;
  /** Positions of the last neighbour rebuild, stride 3. */
  refPos: Float64Array;
  /** Kinetic energy per scan block. */
  blocks: Float64Array;
  /** The core's force scalars ({@link FP}), then those of the current job ({@link P}). */
  params: Float64Array;
  /**
   * Per-thread arguments, stride {@link STRIDE}: range start and end (particles, blocks or
   * candidates; a pair or copy phase: its first and end group, the same for every thread).
   */
  args: Float64Array;
  /** Per-thread results, stride {@link STRIDE}. */
  res: Float64Array;
  /** Start of each pair group, by list position (see `groupPairs`). */
  groupStart: Int32Array;
  /** List position of each pair group, by kind (`PairHistory.groupId`). */
  groupId: Int32Array;
  /** Contacts written per pair group. */
  groupCount: Int32Array;
  /** The next group of a pair phase. */
  counter: Int32Array;
  /** Plane columns (see `PlaneSet`). */
  planes: {
    axis: Uint8Array;
    sign: Float64Array;
    offset: Float64Array;
    index: Uint8Array;
    kind: Uint8Array;
    candidates: Int32Array;
    candidateStart: Int32Array;
    xi: Float64Array;
    on: Uint8Array;
  };
  /** Per plane and thread (q · MAX_THREADS + t): first scratch index and contacts written. */
  planeRanges: Int32Array;
}

/** Most threads (the stride of `planeRanges`). */
export const MAX_THREADS = 64;

/** A thread's view of the shared buffers, as the kernels want them. */
export class ThreadContext {
  /** The particle columns. */
  ps: ParticleStore;
  /** The pair list. */
  pairs: PairList;
  /** The pair springs. */
  ph: PairHistory;
  /** The friction tables. */
  mat: FrictionTables;
  /** The force scalars: the shared `params` block itself. */
  p: ForceParams;
  /** This thread's scratch. */
  readonly sc: ForceScratch = new ForceScratch();
  /** This thread's statistics of a job. */
  readonly stats: StepStats = emptyStats();
  /** The shared buffers. */
  buf: SharedBuffers;
  /** Gravity of the pair job's body-force reset. */
  readonly g: Float64Array = new Float64Array(3);
  /** The planes (the main thread's own, or views in a worker). */
  planes: PlaneSet;
  /** This thread's step context for the particle stages (see {@link ThreadContext.stage}). */
  readonly step: StepContext;

  /**
   * A context over `buf`; the main thread passes its own particle store, pair list and
   * springs (the objects the single-threaded step uses), a worker gets views.
   */
  constructor(
    buf: SharedBuffers,
    ps: ParticleStore | null = null,
    pairs: PairList | null = null,
    ph: PairHistory | null = null,
    mat: FrictionTables | null = null,
    planes: PlaneSet | null = null,
  ) {
    this.buf = buf;
    this.p = buf.params;
    this.ps = ps ?? new ParticleStore();
    this.pairs = pairs ?? ({ a: buf.a, b: buf.b, count: 0 } as PairList);
    this.ph = ph ?? ({ on: buf.on, xi: buf.xi, live: true } as PairHistory);
    this.mat = mat ?? { friction: buf.friction, rolling: buf.rolling };
    this.planes = planes ?? new PlaneSet();
    this.step = new StepContext({
      ps: this.ps,
      pairs: this.pairs,
      pairHist: this.ph,
      planes: this.planes,
      tables: this.mat,
      material: resolveMaterial(),
      gravity: [0, 0, 0],
    });
    if (ps === null) this.rebind(buf);
  }

  /** Point at new buffers (and, in a worker, the views too). */
  rebind(buf: SharedBuffers, views = true): void {
    this.buf = buf;
    this.p = buf.params;
    if (!views) return;
    const ps = this.ps as unknown as Record<string, unknown>;
    for (const [k, v] of Object.entries(buf.ps)) ps[k] = v;
    this.pairs.a = buf.a, this.pairs.b = buf.b;
    this.ph.on = buf.on, this.ph.xi = buf.xi;
    this.mat.friction = buf.friction, this.mat.rolling = buf.rolling;
    const pl = this.planes, bp = buf.planes;
    pl.axis = bp.axis, pl.sign = bp.sign, pl.offset = bp.offset, pl.index = bp.index;
    pl.kind = bp.kind, pl.candidates = bp.candidates, pl.candidateStart = bp.candidateStart;
    pl.xi = bp.xi, pl.on = bp.on;
  }

  /**
   * This thread's step context for a particle or scan-block stage of `step_stages.ts`, loaded
   * from the job's scalars (half kick, drift, speed caps, gravity) and the shared drift
   * reference and scan blocks, its speed-clamp count zeroed.
   */
  stage(): StepContext {
    const s = this.step, q = this.buf.params, m = s.material, g = s.gravity;
    s.h = q[P.h], s.hDrift = q[P.hDrift];
    m.maxSpeed = q[P.maxSpeed], m.maxAngularSpeed = q[P.maxAngular];
    g[0] = q[P.gx], g[1] = q[P.gy], g[2] = q[P.gz];
    s.refPos = this.buf.refPos, s.scanBlocks = this.buf.blocks;
    s.stats.velocityClamps = 0;
    return s;
  }

  /** Zero this thread's pair statistics. */
  resetStats(): void {
    const st = this.stats;
    st.particleContacts =
      st.cohesiveContacts =
      st.maxPenetration =
      st.boundaryContacts =
        0;
    st.activeContactHistories = st.staleContactHistoriesRemoved = 0;
  }

  /**
   * Forces of pairs k0 ≤ k < k1 (whole groups), their contacts written to the scratch record
   * from `w0` on; returns how many. Adds to {@link stats}.
   */
  pairRange(k0: number, k1: number, w0: number): number {
    const w = pairForces(
      this.ps,
      this.pairs,
      this.ph,
      this.mat,
      this.p,
      this.buf.sb,
      this.stats,
      k0,
      k1,
      w0,
    );
    return w - w0;
  }
}

/** Run job `job` as thread `t` (its range is in `args`, its results go to `res`). */
export function runJob(ctx: ThreadContext, job: number, t: number): void {
  const b = ctx.buf, q = b.params, a = b.args, r = b.res, o = t * STRIDE;
  const lo = a[o], hi = a[o + 1];
  ctx.ps.count = q[P.count];
  ctx.pairs.count = q[P.pairs];
  if (job === Job.pairs) {
    // groups lo ≤ g < hi of one phase (kind indices; list position groupId[g]) share no grain
    // with each other nor with another thread's; each writes its contacts from
    // base + groupStart[id] and their number to groupCount[id]. In the first phase (group
    // g = inside block g) the block's body forces are reset first: no pair of another group
    // touches its grains before this one.
    const st = ctx.stats, start = b.groupStart, cnt = b.groupCount, gid = b.groupId;
    const reset = q[P.resetForces] !== 0, n = q[P.count], gv = ctx.g;
    if (reset) gv[0] = q[P.gx], gv[1] = q[P.gy], gv[2] = q[P.gz];
    ctx.resetStats();
    const last = q[P.lastBlock];
    for (let g = lo; g < hi; g++) {
      if (reset) {
        const i0 = g << BLOCK_LOG, e = (g + 1) << BLOCK_LOG;
        bodyForces(ctx.ps, gv, i0 < n ? i0 : n, g === last || e > n ? n : e);
      }
      const id = gid[g];
      cnt[id] = ctx.pairRange(start[id], start[id + 1], start[id]);
    }
    r[o + 1] = st.particleContacts, r[o + 2] = st.cohesiveContacts, r[o + 3] = st.maxPenetration;
    r[o + 4] = st.activeContactHistories, r[o + 5] = st.staleContactHistoriesRemoved;
  } else if (job === Job.copy) {
    const start = b.groupStart, cnt = b.groupCount, dest = b.groupDest, g0 = a[0];
    for (;;) {
      const g = g0 + Atomics.add(b.counter, 0, 1);
      if (g >= a[1]) break;
      copyContacts(b.sb, b.cb, start[g], dest[g], cnt[g]);
    }
  } else if (job === Job.planes) {
    ctx.resetStats();
    const pl = ctx.planes, st = ctx.stats, cs = pl.candidateStart;
    pl.count = q[P.planes];
    const cand = pl.candidates, pr = b.planeRanges;
    for (let k = 0; k < pl.count; k++) {
      const c0 = candidateBound(cand, cs[k], cs[k + 1], lo);
      const c1 = candidateBound(cand, c0, cs[k + 1], hi);
      const w = planeSweep(
        ctx.ps,
        pl,
        k,
        ctx.mat,
        q[P.boundaryFriction],
        q[P.boundaryRolling],
        ctx.p,
        ctx.sc,
        b.sb,
        st,
        c0,
        c1,
        c0,
      );
      const e = 2 * (k * MAX_THREADS + t);
      pr[e] = c0, pr[e + 1] = w - c0;
    }
    r[o + 2] = st.boundaryContacts, r[o + 3] = st.maxPenetration;
    r[o + 4] = st.activeContactHistories, r[o + 5] = st.staleContactHistoriesRemoved;
  } else if (job === Job.body) {
    // the stages of step_stages.ts on this thread's step context, over its range
    const s = ctx.stage();
    s.resetForces = true;
    STAGES.bodyForces.run(s, lo, hi);
  } else if (job === Job.kick) {
    const s = ctx.stage();
    STAGES.kick.run(s, lo, hi);
    r[o] = s.stats.velocityClamps;
  } else if (job === Job.kickDrift) {
    // kick, drift and the reset of the body forces in one pass (`kickDriftReset`)
    const s = ctx.stage();
    STAGES.kickDrift.run(s, lo, hi);
    r[o] = s.stats.velocityClamps, r[o + 1] = s.moved2[0];
  } else if (job === Job.kickScan) {
    const s = ctx.stage(), scan = s.scan;
    scan[0] = scan[2] = 0;
    STAGES.kickScan.run(s, lo, hi);
    r[o + 1] = s.stats.velocityClamps;
    r[o] = scan[0], r[o + 2] = scan[2];
  }
}

/** Copy `n` contacts of `from` starting at `i` into `to` starting at `j`. */
export function copyContacts(
  from: ContactBuffers,
  to: ContactBuffers,
  i: number,
  j: number,
  n: number,
) {
  if (n === 0) return;
  to.i.set(from.i.subarray(i, i + n), j), to.j.set(from.j.subarray(i, i + n), j);
  to.kind.set(from.kind.subarray(i, i + n), j);
  to.boundary.set(from.boundary.subarray(i, i + n), j);
  to.overlap.set(from.overlap.subarray(i, i + n), j);
  to.normalForce.set(from.normalForce.subarray(i, i + n), j);
  to.point.set(from.point.subarray(3 * i, 3 * (i + n)), 3 * j);
  to.normal.set(from.normal.subarray(3 * i, 3 * (i + n)), 3 * j);
  to.tangentialForce.set(from.tangentialForce.subarray(3 * i, 3 * (i + n)), 3 * j);
}
