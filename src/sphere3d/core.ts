/**
 * The core of the granular system: its structure-of-arrays state, the step pipeline and the
 * lifecycle primitives (append, swap-remove). A step reads as its stages:
 * begin (statistics, gravity) → per substep: half kick and drift (and wrap) → forces (neighbour
 * list → body forces → pair forces → boundary forces → rolling → history sweep) → half kick →
 * end (statistics, divergence guard). Scratch belongs to the core (`ctx`) and grows only when
 * the particle count grows.
 *
 * @module
 */
import { CellGrid3, type GridAxisPeriod, PairList } from "../math/grid.ts";
import { contactBuffers, type ContactRecord } from "../contact/record.ts";
import {
  addProfile,
  emptyProfile,
  emptyProfileTotals,
  type ProfileTotals,
  resetProfile,
  type StepProfile,
} from "../contact/stats.ts";
import { DampingLaw, restitutionDamping } from "../contact/normal.ts";
import {
  applyRolling,
  type ForceParams,
  type ForceScratch,
  FP,
  type FrictionTables,
} from "./forces.ts";
import { buildPlanes, planeCandidates, PlaneSet } from "./boundaries.ts";
import { type HistoryColumns, HistoryTable } from "./history.ts";
import { flushPairHistories, groupPairs, PairHistory, pullPairHistories } from "./pair_history.ts";
import { flushPlaneHistories, pullPlaneHistories } from "./plane_history.ts";
import { type Material, resolveMaterial } from "./material.ts";
import { ParticleStore } from "./particles.ts";
import { finishScan, scanBlockCount, wrap } from "./integrate.ts";
import type { StepStats } from "./stats.ts";
import { StepContext } from "./step_context.ts";
import { runStage, STAGES } from "./step_stages.ts";
import {
  checkDampedStep,
  checkOverlaps,
  measureGuard,
  reportNonFinite,
  reportTooFast,
  speedLimit,
} from "./guard.ts";
import { nonNegative } from "../math/validate.ts";
import type { EmitCommon } from "./options.ts";
import { bodyContactForces } from "./bodies/contact.ts";
import { PoolSleep } from "./bodies/sleep.ts";
import type { BodyLink, CoreState, EmitSettings, ResumeState } from "./core_types.ts";
import { DivergenceGuard } from "./guard_state.ts";
import { lap, resetStats } from "./core_records.ts";
import { resumeFromCheckpoint } from "./core_resume.ts";
import { detachPairHistories, historyColumns, sortSlots } from "./core_slots.ts";
import {
  appendParticle,
  emitParticles,
  emitSettings,
  ensureFrictionTable,
  recomputeRadii,
  removeSlot,
  removeWhere,
} from "./core_lifecycle.ts";

export type { BodyLink, EmitSettings, ResumeState } from "./core_types.ts";
export { SORT_MIN } from "./core_slots.ts";

/**
 * The state and the step of a granular system. Internal: {@link GranularSystem} owns one and
 * exposes the validated public API.
 */
export class GranularCore implements CoreState {
  /**
   * Neighbour-list skin (m): candidate pairs are found on the cell grid within
   * `r_i + r_j + skin` and reused until some particle has moved more than `skin / 2`, when the
   * grid is rebuilt. 0 rebuilds the grid every substep. Set a number, or `"auto"` for
   * 0.1 × the largest radius. @default "auto"
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.02 });
   * expect(g.neighborSkin).toBeCloseTo(0.002, 15);
   * g.neighborSkin = 0;
   * expect(g.neighborSkin).toBe(0);
   * ```
   */
  get neighborSkin(): number {
    return this.skin >= 0 ? this.skin : 0.1 * this.maxRadius;
  }
  set neighborSkin(skin: number | "auto") {
    this.skin = skin === "auto" ? -1 : nonNegative("neighborSkin", "skin", skin);
    this.invalidate();
  }

  /** The particle columns. */
  readonly ps = new ParticleStore();
  /** Tangential springs keyed by (slot, partner stable id). */
  readonly hist = new HistoryTable();
  /** Cell grid of the neighbour search. */
  readonly grid = new CellGrid3();
  /** Neighbour list: candidate pairs within reach + skin. */
  readonly pairs = new PairList();
  /** Springs of the pairs of {@link pairs}. */
  readonly pairHist = new PairHistory();
  /** Ground and container planes in typed-array form. */
  readonly planes = new PlaneSet();
  /**
   * Record the particle pairs' contacts at this step (false for the steps of a run whose
   * contacts nobody reads: `World.run` without `onStep`, but its last step). Forces, springs
   * and statistics are the same bytes either way.
   */
  recordPairs = true;
  /** The body forces were reset by the fused kick-and-drift pass. */
  forcesReset = false;
  /** The global material, resolved. */
  readonly material: Material;
  /** Sliding and rolling friction per material id. */
  readonly tables: FrictionTables;
  /** Material ids in use + 1 (the used length of `tables`). */
  tableSize = 1;
  /** Friction of the boundary material. */
  boundary = { friction: 0, rollingFriction: 0 };
  /** Ground plane height (m), or null. */
  ground: number | null = null;
  /** Container box corners, or null. */
  container: [[number, number, number], [number, number, number]] | null = null;
  /** Periodic cell per axis (length 0 = open), or null. */
  periodic: [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod] | null = null;
  /** Stage times of the last step (filled while `profile` is on). */
  readonly profileRecord: StepProfile = emptyProfile();
  /** Stage times summed over the steps profiled since `profile` was switched on. */
  readonly profileTotals: ProfileTotals = emptyProfileTotals();
  /** Time the stages of each step. @default false */
  profile = false;
  /** Emissions and removals since the last step, reported in its statistics. */
  pending = { emitted: 0, removed: 0 };
  /** The next stable id. */
  nextId = 0;
  /** Slot of each stable id, -1 once removed. */
  slotOfId = new Int32Array(64).fill(-1);
  /** Force evaluation counter stamped on history entries. */
  stamp = 0;
  /** The forces in the columns belong to the current state. */
  forcesValid = false;
  /** The neighbour list must be rebuilt before the next force evaluation. */
  needRebuild = true;
  /** Neighbour skin (m); -1 for "auto". */
  skin = -1;
  /** Caches of a loaded checkpoint for the first step, or null (see `core_resume.ts`). */
  resume: ResumeState | null = null;
  /** Gravity of the last step (m/s²). */
  gravity: [number, number, number] = [0, 0, 0];
  /** The common radius when all radii are equal, else 0. */
  uniformRadius = 0;
  /** Largest radius (m). */
  maxRadius = 0;
  /** Smallest radius (m). */
  minRadius = 0;
  /** Steps taken. */
  stepCount = 0;
  /** Simulated time of this system (s). */
  time = 0;
  /** Neighbour-list rebuilds since creation. */
  rebuilds = 0;
  /** The world's rigid bodies, or null when the world has none. */
  bodies: BodyLink | null = null;
  /** Time of the current force evaluation since the step began (s): poses the bodies. */
  bodyTau = 0;
  /** Granular pool sleep (off by default). */
  readonly sleep = new PoolSleep();
  /** Restitution damping: e, kn, Hertz, clamp it was computed for, then the coefficient. */
  readonly restitutionCache = new Float64Array([NaN, 0, 0, 0, 0]);
  /** The divergence guard. */
  readonly guard = new DivergenceGuard();
  /**
   * The step context: force parameters, scratch, statistics, contact record, scan and drift
   * reference, the threads; the stages of `step_stages.ts` run on it.
   */
  readonly ctx: StepContext;
  /** The contacts of the last substep (the shared 3D contact record). */
  get contacts(): ContactRecord {
    return this.ctx.contacts;
  }
  /** Statistics of the last step. */
  get stats(): StepStats {
    return this.ctx.stats;
  }
  set stats(stats: StepStats) {
    this.ctx.stats = stats;
  }
  /** Scalars of the force loops, resolved once per force evaluation. */
  get params(): ForceParams {
    return this.ctx.params;
  }
  /** Scratch of the force loops. */
  get scratch(): ForceScratch {
    return this.ctx.scratch;
  }
  /** End-of-step scan: max speed, kinetic energy. */
  get scan(): Float64Array {
    return this.ctx.scan;
  }
  /** Positions at the last neighbour-list build (drift reference). */
  get refPos(): Float64Array {
    return this.ctx.refPos;
  }
  set refPos(ref: Float64Array) {
    this.ctx.refPos = ref;
  }

  /** @internal Use `World.addGranularParticles` / `World.addGranularBox`. */
  constructor(material: Partial<Material> = {}) {
    this.material = resolveMaterial(material);
    const m = this.material;
    this.tables = {
      friction: new Float64Array([m.friction]),
      rolling: new Float64Array([m.rollingFriction]),
    };
    this.ctx = new StepContext({
      ps: this.ps,
      pairs: this.pairs,
      pairHist: this.pairHist,
      planes: this.planes,
      tables: this.tables,
      material: this.material,
      gravity: this.gravity,
    });
    this.boundary = { friction: m.friction, rollingFriction: m.rollingFriction };
    this.materialsChanged();
  }

  // ---- stepping ------------------------------------------------------------------------

  /**
   * Advance by `dt` seconds under `gravity` in `material.substeps` substeps (velocity
   * Verlet). The caller validates `dt` and `gravity`.
   */
  step(dt: number, gravity: ArrayLike<number>): void {
    const prof = this.profile, t0 = prof ? performance.now() : 0;
    if (prof) resetProfile(this.profileRecord);
    // a damping the step cannot integrate is refused before anything moves
    checkDampedStep(this, dt / this.material.substeps);
    if (this.resume !== null) resumeFromCheckpoint(this, gravity);
    this.beginStep(gravity);
    const sub = this.material.substeps, h = dt / sub, link = this.bodies;
    if (link !== null) link.loads.resize(link.set.count);
    this.bodyTau = 0;
    if (!this.forcesValid) this.computeForces(h, 0);
    if (link !== null) {
      link.loads.beginStep();
      this.guard.bodySpeed = link.set.speedScale(this.guard.minMass);
    }
    if (this.guard.stale) measureGuard(this, h);
    for (let s = 0; s < sub; s++) {
      this.kickAndDrift(h);
      this.bodyTau = (s + 1) * h;
      this.computeForces(h, h);
      if (link !== null) link.loads.accumulate(h);
      if (s === sub - 1) this.kickAndScan(h);
      else this.halfKick(h);
    }
    this.time += dt;
    this.endStep();
    if (prof) {
      this.profileRecord.total = performance.now() - t0;
      addProfile(this.profileTotals, this.profileRecord);
    }
  }

  /** Reset the step's counters and pick up a gravity change. */
  beginStep(gravity: ArrayLike<number>): void {
    const g = this.gravity;
    if (g[0] !== gravity[0] || g[1] !== gravity[1] || g[2] !== gravity[2]) {
      g[0] = gravity[0], g[1] = gravity[1], g[2] = gravity[2];
      this.invalidate();
    }
    const st = this.stats;
    resetStats(st);
    st.emittedParticles = this.pending.emitted;
    st.removedParticles = this.pending.removed;
    this.pending.emitted = this.pending.removed = 0;
  }

  /** Half kick of velocities and spins, then the speed clamps. */
  halfKick(h: number): void {
    const t0 = this.profile ? performance.now() : 0;
    this.ctx.h = h * 0.5;
    runStage(this.ctx, STAGES.kick);
    if (this.profile) this.profileRecord.integration += performance.now() - t0;
  }

  /**
   * The half kick, the drift (flagging a stale neighbour list) and the periodic wrap, in one
   * pass over the particles (the same arithmetic per particle as separate passes), which also
   * resets the body forces for the coming evaluation (`kickDriftReset`); with threads it is
   * one parallel job.
   */
  kickAndDrift(h: number): void {
    const t0 = this.profile ? performance.now() : 0, ctx = this.ctx;
    ctx.h = h * 0.5, ctx.hDrift = h;
    runStage(ctx, STAGES.kickDrift);
    const skin = this.neighborSkin;
    this.forcesReset = true;
    if (4 * ctx.moved2[0] >= skin * skin) this.needRebuild = true;
    this.wrapPeriodic();
    if (this.profile) this.profileRecord.integration += performance.now() - t0;
  }

  /**
   * The step's last half kick and the end-of-step kinetic-energy scan in one pass, block by
   * block (`kickScanBlocks`; the same bytes as the two passes); {@link GranularCore.endStep}
   * then finishes the scan.
   */
  kickAndScan(h: number): void {
    const t0 = this.profile ? performance.now() : 0, ctx = this.ctx, scan = ctx.scan;
    const nb = scanBlockCount(this.ps.count);
    if (ctx.scanBlocks.length < nb) ctx.scanBlocks = new Float64Array(2 * nb);
    ctx.h = h * 0.5, ctx.scanCount = nb;
    scan[0] = scan[2] = 0;
    runStage(ctx, STAGES.kickScan);
    if (this.profile) this.profileRecord.integration += performance.now() - t0;
  }

  /** Wrap centres into the periodic cell; a wrap means a neighbour rebuild. */
  wrapPeriodic(): void {
    if (!this.periodic) return;
    const w = wrap(this.ps, this.periodic);
    this.stats.wrappedParticles += w;
    if (w > 0) this.needRebuild = true;
  }

  /**
   * Evaluate every force on the current state: neighbour list, body forces, pair forces,
   * boundary forces, rolling torques, history sweep. `histDt` is the time the tangential
   * springs advance (0 for a re-evaluation of the same state).
   */
  computeForces(h: number, histDt: number): void {
    const ps = this.ps, st = this.stats, p = this.params, prof = this.profile, ctx = this.ctx;
    const pr = this.profileRecord;
    this.prepareParams(h, histDt);
    let t = prof ? performance.now() : 0;
    const skin = this.neighborSkin;
    if (this.needRebuild || skin === 0) this.rebuildNeighbors(skin);
    st.candidatePairs = this.pairs.count;
    if (prof) t = lap(pr, "neighbors", t);
    // the body forces, unless the drift reset them (a rebuild in between permutes them with
    // their grains); with threads, the pair stage's first phase resets them when they are stale
    ctx.resetForces = !this.forcesReset;
    runStage(ctx, STAGES.bodyForces);
    this.forcesReset = false;
    st.particleContacts = st.boundaryContacts = st.cohesiveContacts = 0;
    st.activeContactHistories = 0;
    const rec = ctx.contacts;
    rec.count = 0;
    // room for every pair, so the loop writes the record's columns directly
    rec.reserve(rec.count + this.pairs.count);
    runStage(ctx, STAGES.pairs);
    if (prof) t = lap(pr, "pairForces", t);
    const b = this.boundary;
    ctx.boundaryFriction = b.friction, ctx.boundaryRolling = b.rollingFriction;
    runStage(ctx, STAGES.planes);
    const link = this.bodies;
    st.rigidCandidatePairs = st.rigidContacts = 0;
    st.meshTriangleCandidatePairs = st.meshInsideTriangleTests = 0;
    if (link !== null && link.set.shapes > 0) {
      link.set.poseShapes(this.bodyTau);
      bodyContactForces(
        ps,
        link.set,
        this.grid,
        0.5 * skin,
        this.maxRadius,
        this.hist,
        this.tables,
        b.friction,
        b.rollingFriction,
        p,
        this.scratch,
        link.loads,
        this.contacts,
        st,
      );
    }
    if (this.hasRolling) applyRolling(ps, h);
    if (prof) t = lap(pr, "boundaryForces", t);
    const stamp = p[FP.stamp];
    this.sleep.keepHistories(this.hist, this.slotOfId, ps.count, stamp);
    st.activeContactHistories += this.hist.sweep(ps.count, stamp);
    st.staleContactHistoriesRemoved += this.hist.lastRemoved;
    if (this.hist.overflow) this.hist.widen();
    this.forcesValid = true;
  }

  /** Statistics of the finished step and the divergence guard. */
  endStep(): void {
    const st = this.stats, scan = this.scan;
    const nb = scanBlockCount(this.ps.count);
    // the step's last kick scanned the blocks (`kickAndScan`)
    if (!finishScan(scan, this.ctx.scanBlocks, nb)) reportNonFinite(this);
    st.maxSpeed = scan[0];
    st.kineticEnergy = scan[1];
    this.stepCount++;
    st.step = this.stepCount;
    st.time = this.time;
    const sl = this.sleep;
    if (sl.enabled || sl.sleeping > 0) {
      const woke = sl.update(
        this.ps,
        this.material.density,
        this.bodies?.set ?? null,
        this.contacts,
      );
      if (woke) this.needRebuild = true;
    }
    st.sleepingParticles = sl.sleeping;
    if (st.maxPenetration > this.minRadius) checkOverlaps(this);
    if (st.maxSpeed > speedLimit(this.guard, this.time)) reportTooFast(this);
  }

  /**
   * Rebuild the cell grid and the neighbour list at positions `at` (the current ones, or the
   * reference positions of a loaded checkpoint, which rebuild the saved list exactly).
   */
  rebuildNeighbors(skin: number, at: Float64Array = this.ps.pos): void {
    const ps = this.ps, m = this.material;
    const reach = m.cohesionStiffness > 0 ? m.cohesionMaxDistance : 0;
    const cell = 2 * this.maxRadius + reach + skin;
    // the springs of the old list and candidates go back into the table, then out again for
    // the new ones (the walls' stamped one step back: the sweep drops those nobody takes back)
    flushPairHistories(this.pairHist, this.pairs, this.hist, ps.id, this.stamp >>> 0);
    flushPlaneHistories(this.planes, this.hist, (this.stamp - 1) >>> 0);
    this.grid.build(at, ps.count, cell > 0 ? cell : 1, this.periodic ?? undefined);
    if (at === ps.pos && this.spatialSort && sortSlots(this)) {
      this.grid.build(at, ps.count, cell > 0 ? cell : 1, this.periodic ?? undefined);
    }
    this.grid.findPairs(at, ps.radius, reach + skin, this.pairs, this.uniformRadius);
    planeCandidates(this.planes, at, ps, skin);
    pullPlaneHistories(this.planes, this.hist);
    if (this.sleep.sleeping > 0) this.sleep.filterPairs(this.pairs);
    pullPairHistories(this.pairHist, this.pairs, this.hist, ps.id, ps.fixed);
    groupPairs(this.pairHist, this.pairs, ps.count, at, ps.radius);
    if (this.refPos.length < 3 * ps.count) this.refPos = new Float64Array(3 * ps.capacity);
    this.refPos.set(at.subarray(0, 3 * ps.count));
    this.needRebuild = false;
    this.rebuilds++;
  }

  /** Reorder particle slots into cell order at neighbour rebuilds (see `sortSlots`). */
  spatialSort = true;
  /** Slot reorderings so far. */
  sorts = 0;
  /** Scratch of the reordering. */
  sortF: Float64Array = new Float64Array(0);
  /** Scratch of the reordering (integer columns). */
  sortU: Uint32Array = new Uint32Array(0);
  /** The permutation of the last reordering. */
  sortOrder: Int32Array = new Int32Array(0);

  /**
   * Every live spring as columns, grouped by owner slot: for each particle its table entries
   * (bodies, sleeping pairs), then its wall springs the candidate lists hold (plane order), then
   * the springs the neighbour list holds for it, in list order. Changes nothing.
   */
  historyColumns(): HistoryColumns {
    return historyColumns(this);
  }

  /**
   * The neighbour list's springs no longer match the particle slots (a removal, a load, a
   * reset of the histories): sync them first if `keep`, then let the table alone hold the
   * springs until the next rebuild.
   */
  detachPairHistories(keep: boolean): void {
    detachPairHistories(this, keep);
  }

  /** Resolve the force-loop scalars of this evaluation. */
  prepareParams(h: number, histDt: number): void {
    const p = this.params, m = this.material, sl = this.sleep;
    // pool sleep reads the pairs' contacts at the end of every step
    p[FP.record] = this.recordPairs || sl.enabled || sl.sleeping > 0 ? 1 : 0;
    const kn = m.normalStiffness, hertz = m.normalContactModel === "hertz";
    const clamp = m.clampNormalForce;
    p[FP.kn] = kn;
    p[FP.kt] = m.tangentialStiffness > 0 ? m.tangentialStiffness : 0.5 * m.normalStiffness;
    p[FP.ct] = m.tangentialDamping;
    p[FP.hertz] = hertz ? 1 : 0;
    p[FP.clamp] = clamp ? 1 : 0;
    p[FP.lever] = m.contactLever === "radius" ? 0 : 0.5;
    const scaled = m.dampingMode === "mass-scaled";
    p[FP.ctScaled] = scaled ? 1 : 0;
    if (m.restitution !== null) {
      const rc = this.restitutionCache, h = hertz ? 1 : 0, cl = clamp ? 1 : 0;
      if (rc[0] !== m.restitution || rc[1] !== kn || rc[2] !== h || rc[3] !== cl) {
        rc[0] = m.restitution, rc[1] = kn, rc[2] = h, rc[3] = cl;
        rc[4] = restitutionDamping(m.restitution, kn, hertz, clamp);
      }
      p[FP.cn] = rc[4];
      p[FP.damping] = hertz ? DampingLaw.restitutionHertz : DampingLaw.restitutionLinear;
    } else {
      p[FP.cn] = m.normalDamping;
      p[FP.damping] = scaled ? DampingLaw.massScaled : DampingLaw.constant;
    }
    p[FP.kc] = m.cohesionMaxDistance > 0 ? m.cohesionStiffness : 0;
    p[FP.dmax] = m.cohesionStiffness > 0 ? m.cohesionMaxDistance : 0;
    p[FP.dt] = h;
    p[FP.histDt] = histDt;
    p[FP.stamp] = ++this.stamp >>> 0;
    const per = this.periodic;
    p[FP.px] = per ? per[0].length : 0;
    p[FP.py] = per ? per[1].length : 0;
    p[FP.pz] = per ? per[2].length : 0;
    p[FP.mu] = this.pairMu;
    p[FP.rolling] = this.pairRolling ? 1 : 0;
  }

  /**
   * Every buffer the step writes (for the test that a warmed-up step allocates no new
   * buffer): identities change only when a buffer grows.
   */
  buffers(): object[] {
    const b = contactBuffers(this.contacts);
    return [
      b.i,
      b.point,
      b.normal,
      b.tangentialForce,
      this.pairs.a,
      this.pairs.b,
      this.pairHist.on,
      this.pairHist.xi,
      this.refPos,
      this.scratch.touching,
      this.hist.xi,
      this.ps.pos,
      this.ps.force,
      this.grid.cellStart,
      this.grid.items,
      this.grid.sorted,
    ];
  }

  // ---- internals -----------------------------------------------------------------------

  /** Whether some material id or the boundary has rolling friction (see materialsChanged). */
  hasRolling = false;
  /** `FP.mu`: the friction every material id in use shares, or −1 (materialsChanged). */
  pairMu = -1;
  /** `FP.rolling`: some material id in use has rolling friction (materialsChanged). */
  pairRolling = true;

  /**
   * Recompute {@link hasRolling} and the pair loop's material shortcuts ({@link pairMu},
   * {@link pairRolling}) after the friction tables or the boundary changed.
   */
  materialsChanged(): void {
    const fr = this.tables.friction, rr = this.tables.rolling, n = this.tableSize;
    // one friction for every id in use when its square root of its square is itself (the bits
    // the table lookup gives for two ids)
    let mu = n > 0 ? fr[0] : -1, rolling = false;
    for (let k = 0; k < n; k++) {
      if (fr[k] !== mu) mu = -1;
      if (rr[k] > 0) rolling = true;
    }
    this.pairMu = mu >= 0 && Math.sqrt(mu * mu) === mu ? mu : -1;
    this.pairRolling = rolling;
    this.hasRolling = rolling || this.boundary.rollingFriction > 0;
  }

  /** The state changed outside the step: forces, neighbour list and guard are stale. */
  invalidate(): void {
    this.forcesValid = false;
    this.needRebuild = true;
    this.guard.stale = true;
    this.resume = null;
  }

  /**
   * A boundary (ground, container, periodic cell) changed: forces, neighbour list and guard
   * are stale. Unlike {@link invalidate} this keeps a loaded checkpoint's caches: boundaries
   * are not stored in checkpoints, so they are re-applied after loading, and the first step
   * reuses the caches if they come back as they were at save time.
   */
  boundariesChanged(): void {
    this.forcesValid = false;
    this.needRebuild = true;
    this.guard.stale = true;
  }

  /** Grow the particle columns and the history table to hold `n` particles. */
  reserve(n: number): void {
    this.ps.reserve(n);
    this.hist.reserve(this.ps.capacity);
    this.sleep.reserve(this.ps.capacity);
  }

  /** Append one particle (inputs already validated); returns its slot. */
  append(
    x: number,
    y: number,
    z: number,
    r: number,
    v: ArrayLike<number>,
    a: ArrayLike<number>,
    mid: number,
    fx: boolean,
  ): number {
    return appendParticle(this, x, y, z, r, v, a, mid, fx);
  }

  /** Recompute the radius summaries from the columns (after a removal). */
  recomputeRadii(): void {
    recomputeRadii(this);
  }

  /** Remove slot `i`: the last particle moves into it, its histories follow. */
  removeSlot(i: number): void {
    removeSlot(this, i);
  }

  /** Remove every particle for which `pred(slot)` holds; returns how many. */
  removeWhere(pred: (i: number) => boolean): number {
    return removeWhere(this, pred);
  }

  /** Throw unless `index` is a particle slot; `where` names the caller. */
  index(where: string, index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.ps.count) {
      throw new RangeError(
        `${where}: index (${index}) must be an integer in [0, ${this.ps.count - 1}]`,
      );
    }
  }

  /** Extend the friction tables to material id `id` (new ids get the global material). */
  ensureTable(id: number): void {
    ensureFrictionTable(this, id);
  }

  /** Append emitted particles (centres stride 3; one radius or one per particle). */
  emit(centres: Float64Array, radii: number | Float64Array, c: EmitSettings): number {
    return emitParticles(this, centres, radii, c);
  }

  /** Validate the options every emitter shares. */
  emitCommon(w: string, o: EmitCommon): EmitSettings {
    return emitSettings(w, o);
  }

  /** Rebuild the plane set after the ground or the container changed. */
  rebuildPlanes(): void {
    // the walls' springs wait in the table for the next rebuild's candidates
    flushPlaneHistories(this.planes, this.hist, (this.stamp - 1) >>> 0);
    buildPlanes(this.planes, this.ground, this.container);
    this.boundariesChanged();
  }
}
