/**
 * Worker threads for the granular step. The main thread and `threads − 1` workers
 * (`node:worker_threads`, unref'd so that they never keep a finished program alive) share the
 * particle columns, the neighbour list and the contact record through SharedArrayBuffers and
 * meet at each phase through `Atomics.wait` — so a threaded step is as synchronous as a
 * single-threaded one: no `await` anywhere.
 *
 * Every phase is cut so that its result does not depend on the cut: the neighbour list is
 * ordered in groups of particle-slot blocks (`groupPairs`): the pairs inside each block, then
 * those joining blocks b and b + 1 for even b, then for odd b — within each of these three
 * phases no two groups share a grain, so threads take whole groups and add forces straight
 * into the columns, each grain meeting its pairs in list order, as one thread does; the rare
 * remaining pairs run on the main thread. Integration is per particle and the kinetic energy
 * is summed over fixed blocks of particles. One thread and several give the same bytes.
 *
 * Each thread owns one contiguous run of blocks (cut by pair counts at every step) and does
 * their groups and their grains' integration, so the same grains stay in the same core's cache
 * step after step. (Handing groups out from a shared counter balanced better on paper but
 * moved every block between the cores each step, so a thread seldom found its grains in its
 * cache and the worker's share of a kick ran much slower than the main thread's.)
 *
 * @module
 */
import { WorkerPool } from "../../math/worker_pool.ts";
import { CONTACT_COLUMNS, type ContactBuffers, contactBuffers } from "../../contact/record.ts";
import { shared } from "../../math/shared.ts";
import { FP } from "../force_params.ts";
import type { StagePool, StepContext } from "../step_context.ts";
import { BLOCK_LOG } from "../pair_history.ts";
import { SCAN_BLOCK } from "../integrate.ts";
import {
  copyContacts,
  Job,
  MAX_THREADS,
  P,
  runJob,
  type SharedBuffers,
  STRIDE,
  ThreadContext,
} from "./kernels.ts";

export { MAX_THREADS } from "./kernels.ts";

// the block cuts serve the energy scan too: each thread kicks and scans the grains it owns
if (SCAN_BLOCK !== 1 << BLOCK_LOG) {
  throw new Error(`threads: SCAN_BLOCK (${SCAN_BLOCK}) must be a slot block (${1 << BLOCK_LOG})`);
}

const PS_FIELDS = [
  "pos",
  "vel",
  "ang",
  "force",
  "torque",
  "roll",
  "extForce",
  "extTorque",
  "radius",
  "mass",
  "invMass",
  "invInertia",
  "materialId",
  "fixed",
  "id",
] as const;

/**
 * The threads of one granular system. Internal: `GranularSystem.threads` and the World's
 * `threads` option create and close it.
 */
export class GranularThreads extends WorkerPool implements StagePool {
  #buf: SharedBuffers | null = null;
  #ctx: ThreadContext | null = null;

  /** Start `threads − 1` workers (returns at once; they are awaited at the first job). */
  constructor(threads: number) {
    super(threads, new URL("./worker.ts", import.meta.url));
  }

  /**
   * Body forces (unless `ctx.resetForces` is false: {@link GranularThreads.kickDrift} reset
   * them), then the forces of the pairs of the (grouped) neighbour list: the intra-block, even
   * and odd inter-block groups on every thread, the remaining pairs on this one.
   */
  pairForces(ctx: StepContext): void {
    const buf = this.#prepare(ctx), q = buf.params, rec = ctx.contacts;
    const n = ctx.pairs.count, reset = ctx.resetForces;
    const g = ctx.gravity;
    q[P.gx] = g[0], q[P.gy] = g[1], q[P.gz] = g[2];
    const ph = ctx.pairHist, start = buf.groupStart, B = ph.blocks, G = ph.groups;
    const even = Math.ceil((B - 1) / 2), base = rec.count;
    this.#scratchRecord(n);
    this.#cutBlocks(start, ph.groupId, B);
    // three parallel phases over whole groups, then the far pairs here; the first (one group
    // per block) also resets each block's body forces before its pairs when they are stale
    if (B === 0 && reset) {
      this.#split(ctx.ps.count);
      this.#run(Job.body);
    }
    q[P.resetForces] = reset ? 1 : 0, q[P.lastBlock] = B - 1;
    this.#phase(0, B, 1, 0, ctx);
    q[P.resetForces] = 0;
    this.#phase(B, B + even, 2, 0, ctx);
    this.#phase(B + even, G - 1, 2, 1, ctx);
    const k0 = start[G - 1];
    buf.groupCount[G - 1] = 0;
    if (n > k0) {
      const tc = this.#ctx!, st = tc.stats;
      tc.resetStats();
      buf.groupCount[G - 1] = tc.pairRange(k0, n, k0);
      mergeStats(
        ctx,
        st.particleContacts,
        st.cohesiveContacts,
        st.maxPenetration,
        st.activeContactHistories,
        st.staleContactHistoriesRemoved,
      );
    }
    if (q[FP.record] === 0) return; // no contacts were written
    // the groups' contacts, in list order, copied from the scratch record on every thread
    const cnt = buf.groupCount, dest = buf.groupDest;
    let w = base;
    for (let k = 0; k < G; k++) dest[k] = w, w += cnt[k];
    const a = buf.args;
    for (let t = 0; t < this.threads; t++) a[t * STRIDE] = 0, a[t * STRIDE + 1] = G;
    Atomics.store(buf.counter, 0, 0);
    this.#run(Job.copy);
    rec.count = w;
  }

  /**
   * Pair groups g0 ≤ g < g1 (no two share a grain) on every thread: group g0 + i joins the
   * blocks from `step`·i + `parity` on, and goes to the thread that owns that block (see
   * {@link GranularThreads.#cutBlocks}), so that each thread works on the grains it
   * integrates, step after step, in its own cache.
   */
  #phase(g0: number, g1: number, step: number, parity: number, ctx: StepContext): void {
    if (g1 <= g0) return;
    const buf = this.#buf!, a = buf.args, cut = this.#cut, T = this.threads;
    for (let t = 0; t < T; t++) {
      const lo = Math.ceil((cut[t] - parity) / step), hi = Math.ceil((cut[t + 1] - parity) / step);
      a[t * STRIDE] = Math.min(g1, g0 + Math.max(0, lo));
      a[t * STRIDE + 1] = t === T - 1 ? g1 : Math.min(g1, g0 + Math.max(0, hi));
    }
    this.#run(Job.pairs);
    const r = buf.res;
    for (let t = 0; t < this.threads; t++) {
      const o = t * STRIDE;
      mergeStats(ctx, r[o + 1], r[o + 2], r[o + 3], r[o + 4], r[o + 5]);
    }
  }

  /** Room for `n` pairs' contacts in the scratch record (new columns mean a rebind). */
  #scratchRecord(n: number): void {
    const buf = this.#buf!;
    if (buf.sb.i.length >= n && buf.groupDest.length >= buf.groupStart.length) return;
    let cap = Math.max(1024, buf.sb.i.length);
    while (cap < n) cap *= 2;
    buf.sb = sharedRecord(cap);
    buf.groupDest = new Int32Array(new SharedArrayBuffer(4 * buf.groupStart.length));
    this.send(buf);
  }

  /**
   * The plane contacts, each thread taking the candidates among the particle slots it owns;
   * the contacts are appended in plane order, then candidate order — the single-threaded order.
   */
  planeForces(ctx: StepContext): void {
    const planes = ctx.planes, nq = planes.count, cs = planes.candidateStart;
    if (nq === 0 || cs[nq] === 0) return;
    const buf = this.#prepare(ctx), q = buf.params, T = this.threads;
    q[P.boundaryFriction] = ctx.boundaryFriction, q[P.boundaryRolling] = ctx.boundaryRolling;
    this.#scratchRecord(cs[nq]);
    q[P.planes] = nq;
    // each thread the candidates among the grains it owns (the block cuts of the pair phases):
    // their columns are in its cache, and it alone writes their forces (an even cut of the
    // candidates instead made the threads trade cache lines; the floor's candidates all sit in
    // the first blocks, so the cut is uneven in candidates, and still faster than the even cut)
    this.#splitBlocks(ctx.ps.count, BLOCK_LOG);
    this.#run(Job.planes);
    const r = buf.res, st = ctx.stats, pr = buf.planeRanges, rec = ctx.contacts;
    for (let t = 0; t < T; t++) {
      const o = t * STRIDE;
      st.boundaryContacts += r[o + 2];
      if (r[o + 3] > st.maxPenetration) st.maxPenetration = r[o + 3];
      st.activeContactHistories += r[o + 4];
      st.staleContactHistoriesRemoved += r[o + 5];
    }
    rec.reserve(rec.count + cs[nq]);
    const cb = contactBuffers(rec);
    let w = rec.count;
    for (let k = 0; k < nq; k++) {
      for (let t = 0; t < T; t++) {
        const e = 2 * (k * MAX_THREADS + t), c = pr[e + 1];
        copyContacts(buf.sb, cb, pr[e], w, c);
        w += c;
      }
    }
    rec.count = w;
  }

  /** Half kick `ctx.h` of every particle; adds the speed clamps applied to the statistics. */
  kick(ctx: StepContext): void {
    const buf = this.#prepare(ctx), q = buf.params, m = ctx.material;
    q[P.h] = ctx.h, q[P.maxSpeed] = m.maxSpeed, q[P.maxAngular] = m.maxAngularSpeed;
    this.#splitBlocks(ctx.ps.count, BLOCK_LOG);
    this.#run(Job.kick);
    let c = 0;
    for (let t = 0; t < this.threads; t++) c += buf.res[t * STRIDE];
    ctx.stats.velocityClamps += c;
  }

  /**
   * Half kick `ctx.h`, then drift `ctx.hDrift`, of every particle, and the reset of its body
   * forces for the coming evaluation, in one pass (`kickDriftReset`); adds the speed clamps
   * applied to the statistics and puts the largest squared move in `ctx.moved2[0]`.
   */
  kickDrift(ctx: StepContext): void {
    const buf = this.#prepare(ctx), q = buf.params, m = ctx.material, g = ctx.gravity;
    q[P.h] = ctx.h, q[P.hDrift] = ctx.hDrift;
    q[P.maxSpeed] = m.maxSpeed, q[P.maxAngular] = m.maxAngularSpeed;
    q[P.gx] = g[0], q[P.gy] = g[1], q[P.gz] = g[2];
    this.#splitBlocks(ctx.ps.count, BLOCK_LOG);
    this.#run(Job.kickDrift);
    let c = 0, max2 = 0;
    for (let t = 0; t < this.threads; t++) {
      c += buf.res[t * STRIDE];
      if (buf.res[t * STRIDE + 1] > max2) max2 = buf.res[t * STRIDE + 1];
    }
    ctx.stats.velocityClamps += c;
    ctx.moved2[0] = max2;
  }

  /**
   * The last half kick `ctx.h` of a step and the end-of-step scan over `ctx.scanCount` blocks,
   * in one pass: each thread kicks and then scans whole blocks. Fills `ctx.scan` (before
   * `finishScan`) and adds the speed clamps applied to the statistics.
   */
  kickScan(ctx: StepContext): void {
    const buf = this.#prepare(ctx), q = buf.params, m = ctx.material, out = ctx.scan;
    q[P.h] = ctx.h, q[P.maxSpeed] = m.maxSpeed, q[P.maxAngular] = m.maxAngularSpeed;
    this.#splitBlocks(ctx.scanCount, 0);
    this.#run(Job.kickScan);
    let c = 0;
    out[0] = out[2] = 0;
    for (let t = 0; t < this.threads; t++) {
      const o = t * STRIDE;
      if (buf.res[o] > out[0]) out[0] = buf.res[o];
      out[2] += buf.res[o + 2];
      c += buf.res[o + 1];
    }
    ctx.stats.velocityClamps += c;
  }

  /** Block cuts: thread t owns the slot blocks cut[t] ≤ b < cut[t + 1]. */
  #cut: Int32Array = new Int32Array(MAX_THREADS + 1);

  /**
   * Cut the `B` slot blocks into one contiguous run per thread with about equal numbers of
   * intra-block pairs (`start`: the group starts of the list, `id`: the groups' positions).
   * The cut changes only which thread does a block's work, never the order of any sum.
   */
  #cutBlocks(start: Int32Array, id: Int32Array, B: number): void {
    const cut = this.#cut, T = this.threads;
    let total = 0;
    for (let b = 0; b < B; b++) total += start[id[b] + 1] - start[id[b]];
    cut[0] = 0;
    let b = 0, below = 0; // intra-block pairs of the blocks before b
    for (let t = 1; t < T; t++) {
      const target = (total * t) / T;
      while (b < B && below + start[id[b] + 1] - start[id[b]] <= target) {
        below += start[id[b] + 1] - start[id[b]], b++;
      }
      // the block that straddles the target goes to the side it leaves less work on
      if (b < B && below + start[id[b] + 1] - start[id[b]] - target < target - below) {
        below += start[id[b] + 1] - start[id[b]], b++;
      }
      cut[t] = b;
    }
    cut[T] = B;
  }

  /**
   * Ranges of [0, n) per thread in `args` along the block cuts: slots (`log` =
   * `BLOCK_LOG`) or energy-scan blocks, which are the slot blocks (`log` = 0). An even split
   * before the first cut.
   */
  #splitBlocks(n: number, log: number): void {
    const a = this.#buf!.args, T = this.threads, cut = this.#cut;
    if (cut[T] === 0) return this.#split(n);
    for (let t = 0; t < T; t++) {
      const c0 = cut[t] << log, c1 = cut[t + 1] << log;
      a[t * STRIDE] = Math.min(n, c0);
      a[t * STRIDE + 1] = t === T - 1 ? n : Math.min(n, c1);
    }
  }

  /** Ranges of [0, n) per thread in `args`. */
  #split(n: number): void {
    const a = this.#buf!.args, T = this.threads;
    for (let t = 0; t < T; t++) {
      a[t * STRIDE] = Math.floor((n * t) / T), a[t * STRIDE + 1] = Math.floor((n * (t + 1)) / T);
    }
  }

  /** Run `job` on every thread (the main thread takes range 0) and wait for all. */
  #run(job: number): void {
    this.start(job);
    runJob(this.#ctx!, job, 0);
    this.wait();
  }

  /**
   * Make every array the threads touch shared, (re)send them to the workers when one was
   * replaced (a column grew), and rebuild the per-particle pair index after a rebuild.
   */
  #prepare(step: StepContext): SharedBuffers {
    const ps = step.ps as unknown as Record<string, Float64Array>;
    for (const f of PS_FIELDS) ps[f] = shared(ps[f]);
    const pl = step.pairs, ph = step.pairHist, tb = step.tables;
    pl.a = shared(pl.a), pl.b = shared(pl.b), ph.on = shared(ph.on), ph.xi = shared(ph.xi);
    tb.friction = shared(tb.friction), tb.rolling = shared(tb.rolling);
    const cb = contactBuffers(step.contacts) as unknown as Record<string, Float64Array>;
    for (const f of CONTACT_COLUMNS) cb[f] = shared(cb[f]);
    step.refPos = shared(step.refPos);
    step.scanBlocks = shared(step.scanBlocks);
    ph.groupStart = shared(ph.groupStart);
    ph.groupId = shared(ph.groupId);
    const pls = step.planes;
    pls.axis = shared(pls.axis), pls.sign = shared(pls.sign), pls.offset = shared(pls.offset);
    pls.index = shared(pls.index), pls.kind = shared(pls.kind);
    pls.candidates = shared(pls.candidates), pls.candidateStart = shared(pls.candidateStart);
    pls.xi = shared(pls.xi), pls.on = shared(pls.on);
    let buf = this.#buf;
    if (buf === null) {
      buf = {
        ps: {},
        a: pl.a,
        b: pl.b,
        on: ph.on,
        xi: ph.xi,
        friction: tb.friction,
        rolling: tb.rolling,
        cb: { ...contactBuffers(step.contacts) },
        refPos: step.refPos,
        blocks: step.scanBlocks,
        sb: sharedRecord(1024),
        groupDest: new Int32Array(new SharedArrayBuffer(4 * ph.groupStart.length)),
        groupStart: ph.groupStart,
        groupId: ph.groupId,
        planes: {
          axis: pls.axis,
          sign: pls.sign,
          offset: pls.offset,
          index: pls.index,
          kind: pls.kind,
          candidates: pls.candidates,
          candidateStart: pls.candidateStart,
          xi: pls.xi,
          on: pls.on,
        },
        planeRanges: new Int32Array(new SharedArrayBuffer(4 * 2 * 8 * MAX_THREADS)),
        groupCount: new Int32Array(new SharedArrayBuffer(4 * ph.groupStart.length)),
        counter: new Int32Array(new SharedArrayBuffer(64)),
        params: step.params,
        args: new Float64Array(new SharedArrayBuffer(8 * STRIDE * MAX_THREADS)),
        res: new Float64Array(new SharedArrayBuffer(8 * STRIDE * MAX_THREADS)),
      };
    }
    const ctx = this.#ctx;
    // compare and refresh without allocating: a changed array means a rebind
    let changed = this.#buf !== buf;
    for (let k = 0; k < PS_FIELDS.length; k++) {
      const f = PS_FIELDS[k];
      if (buf.ps[f] !== ps[f]) buf.ps[f] = ps[f], changed = true;
    }
    const cbNow = contactBuffers(step.contacts) as unknown as Record<string, Float64Array>;
    const cbBuf = buf.cb as unknown as Record<string, Float64Array>;
    for (let k = 0; k < CONTACT_COLUMNS.length; k++) {
      const f = CONTACT_COLUMNS[k];
      if (cbBuf[f] !== cbNow[f]) cbBuf[f] = cbNow[f], changed = true;
    }
    if (
      buf.a !== pl.a || buf.b !== pl.b || buf.on !== ph.on || buf.xi !== ph.xi ||
      buf.friction !== tb.friction || buf.rolling !== tb.rolling || buf.refPos !== step.refPos ||
      buf.blocks !== step.scanBlocks || buf.groupStart !== ph.groupStart ||
      buf.groupId !== ph.groupId ||
      buf.planes.axis !== pls.axis ||
      buf.planes.sign !== pls.sign || buf.planes.offset !== pls.offset ||
      buf.planes.index !== pls.index || buf.planes.kind !== pls.kind ||
      buf.planes.candidates !== pls.candidates ||
      buf.planes.candidateStart !== pls.candidateStart || buf.planes.xi !== pls.xi ||
      buf.planes.on !== pls.on ||
      buf.groupCount.length < ph.groupStart.length || buf.params !== step.params
    ) {
      if (buf.groupCount.length < ph.groupStart.length) {
        buf.groupCount = new Int32Array(new SharedArrayBuffer(4 * ph.groupStart.length));
      }
      buf.groupStart = ph.groupStart, buf.groupId = ph.groupId;
      const bp = buf.planes;
      bp.axis = pls.axis, bp.sign = pls.sign, bp.offset = pls.offset, bp.index = pls.index;
      bp.kind = pls.kind, bp.candidates = pls.candidates, bp.candidateStart = pls.candidateStart;
      bp.xi = pls.xi, bp.on = pls.on;
      buf.a = pl.a, buf.b = pl.b, buf.on = ph.on, buf.xi = ph.xi;
      buf.friction = tb.friction, buf.rolling = tb.rolling;
      buf.refPos = step.refPos, buf.blocks = step.scanBlocks, buf.params = step.params;
      changed = true;
    }
    if (changed) {
      this.#buf = buf;
      if (ctx === null) {
        this.#ctx = new ThreadContext(buf, step.ps, pl, ph, tb, step.planes);
      } else ctx.rebind(buf, false);
      this.send(buf);
    }
    buf.params[P.count] = step.ps.count;
    buf.params[P.pairs] = pl.count;
    return buf;
  }
}

/** Fold one thread's pair statistics into the step's. */
function mergeStats(
  step: StepContext,
  contacts: number,
  cohesive: number,
  maxPen: number,
  live: number,
  dropped: number,
): void {
  const st = step.stats;
  st.particleContacts += contacts;
  st.cohesiveContacts += cohesive;
  if (maxPen > st.maxPenetration) st.maxPenetration = maxPen;
  st.activeContactHistories += live;
  st.staleContactHistoriesRemoved += dropped;
}

/** Contact columns on SharedArrayBuffers for `cap` 3D contacts. */
function sharedRecord(cap: number): ContactBuffers {
  const f = (n: number) => new Float64Array(new SharedArrayBuffer(8 * n));
  const i = (n: number) => new Int32Array(new SharedArrayBuffer(4 * n));
  return {
    capacity: cap,
    i: i(cap),
    j: i(cap),
    kind: new Uint8Array(new SharedArrayBuffer(cap)),
    boundary: i(cap),
    point: f(3 * cap),
    normal: f(3 * cap),
    overlap: f(cap),
    normalForce: f(cap),
    tangentialForce: f(3 * cap),
  };
}
