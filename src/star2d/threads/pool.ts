/**
 * Worker threads for a star2d step (`threads` of `StarSystem` and `ClumpSystem`): the main
 * thread and `threads − 1` workers (`node:worker_threads`, unref'd so that they never keep a
 * finished program alive) share the trig and polar centres, the candidate-pair search, the
 * nodes-to-surface (or disk–disk) tests of the candidate pairs — most of a step — and the pair
 * contacts' forces, and meet through `Atomics.wait`: stepping stays synchronous. `DiskSystem`
 * has no threads: a disk pair is one distance, less than the cost of sharing it.
 *
 * The result does not depend on the thread count:
 * - detection: the pairs are cut into chunks that threads take from a shared counter; each
 *   thread writes the contacts of its chunks into its own rows, and the chunks' places among
 *   the contacts (pair order, the order one thread writes them in) are then known; the threads
 *   copy equal runs of contacts from the rows into the record's columns (made shared), and the
 *   wall contacts, which the main thread detects while the workers start on the pairs, follow;
 * - forces: each thread computes an equal run of the pair contacts (`pairContact2`, with ξ
 *   looked up in a shared copy of the previous springs, which the main thread hashes during
 *   detection); the forces are then added on the threads, each a range of grains taking every
 *   contact in order, so each grain's sum is one thread's; the springs are recorded and the wall
 *   contacts computed on the main thread, in contact order, as on one thread.
 * Integration stays on the main thread (a few per cent of a step). The threads work on the
 * system's own columns, grid and pair list, made shared in place (`adopt`; re-sent when they
 * grow), so a step copies nothing to them. One thread and several give the same bytes.
 *
 * @module
 */
import { WorkerPool } from "../../math/worker_pool.ts";
import { type CellGrid2, findPairRows2, type PairList } from "../../math/grid.ts";
import {
  type ContactHistory,
  CURSOR_WORDS,
  type PreviousSprings,
  type StarContacts,
} from "../contacts.ts";
import type { GrainSystemState } from "../body_state.ts";
import type { GrainStore } from "../grain_store.ts";
import type { GrainDetection } from "../grain_detection.ts";
import { CONTACT_COLUMNS, contactBuffers } from "../../contact/record.ts";
import { shared } from "../../math/shared.ts";
import { contactRange2, lawScalars, PAIR_OUT } from "../body_forces.ts";
import {
  detectChunks,
  GRID_CUTS,
  Info,
  INFO_WORDS,
  Job,
  LAW_TOL,
  MAX_THREADS,
  type PairDetector,
  prepareStars,
  ROW,
  RowSink,
  type SharedContacts,
  type StarShared,
} from "./kernel.ts";
import { forceRange, mergeRows, scatterForces, sharedSprings } from "./forces.ts";
import type { ContactSink } from "../detect.ts";

/** What the worker threads read besides the columns: shapes, sprites and settings, or templates. */
export type ThreadModel = Pick<
  StarShared,
  "kind" | "templates" | "shapes" | "sprites" | "settings" | "sampling" | "centroids"
>;

/** What the threads call back into a system for (`StarSystem`, `ClumpSystem`). @internal */
export interface ThreadHooks {
  /** Detection centres, stride 2. */
  centres(): Float64Array;
  /** Replace the detection centres' column (with its shared copy). */
  setCentres(centres: Float64Array): void;
  /** This thread's detector, bound to the system's columns; its `nodeTests` count the step. */
  detector(): PairDetector;
  /** The wall contacts of this step into `sink`, in detection's view. */
  wallsInto(sink: ContactSink): void;
  /**
   * Fill `keys` with the objects and settings the workers' model depends on (compared by
   * identity from step to step); returns how many.
   */
  keys(keys: unknown[]): number;
  /** The model the workers receive. */
  model(): ThreadModel;
}

/** What a system gives its threads (`StarSystem`, `ClumpSystem`). @internal */
export interface ThreadedGrains {
  /** Grains. */
  count: number;
  /** The columns (the trig ones among them). */
  store: GrainStore;
  /** The detection state (pairs, springs, counts). */
  detectionState: GrainDetection;
  /** The step's contacts. */
  contacts: StarContacts;
  /** What the threads call back into. */
  readonly threadHooks: ThreadHooks;
}

export { MAX_THREADS } from "./kernel.ts";

/** Placeholder columns until `#shareContacts` sets them. */
function emptyContacts(): SharedContacts {
  return {
    i: sharedI32(0),
    j: sharedI32(0),
    kind: new Uint8Array(new SharedArrayBuffer(8)),
    boundary: sharedI32(0),
    point: sharedF64(0),
    normal: sharedF64(0),
    overlap: sharedF64(0),
    normalForce: sharedF64(0),
    tangentialForce: sharedF64(0),
    key: sharedF64(0),
    xi: sharedF64(0),
    ft: sharedF64(0),
  };
}

function sharedF64(n: number): Float64Array {
  return new Float64Array(new SharedArrayBuffer(8 * Math.max(n, 1)));
}

function sharedI32(n: number): Int32Array {
  return new Int32Array(new SharedArrayBuffer(4 * Math.max(n, 1)));
}

/**
 * The threads of one star system. Internal: `StarSystem.threads` creates and closes it.
 */
export class StarThreads extends WorkerPool {
  #buf: StarShared | null = null;
  #sink: RowSink = new RowSink(new Float64Array(0));
  readonly #walls: RowSink = new RowSink(new Float64Array(64 * ROW), true);
  /** The model keys of the buffers sent, and scratch for this step's. */
  #keys: unknown[] = [];
  readonly #keysNow: unknown[] = [];

  /** Start `threads − 1` workers (returns at once; they are awaited at the first job). */
  constructor(threads: number) {
    super(threads, new URL("./worker.ts", import.meta.url));
  }

  /**
   * Make the system's columns shared in place — the threads read the positions, velocities,
   * angles, radii, ids and shape ids and write the trig, the centres, the forces and torques
   * of the system itself — and send them to the workers when some were replaced (they grew).
   * The systems call it at the start of each step.
   */
  adopt(sys: ThreadedGrains): void {
    const buf = this.#prepare(sys, sys.detectionState.pairs.count), st = sys.store;
    st.pos = shared(st.pos), st.vel = shared(st.vel);
    st.ang = shared(st.ang), st.omega = shared(st.omega);
    st.rmax = shared(st.rmax), st.ids = shared(st.ids);
    st.shape = shared(st.shape), st.cos = shared(st.cos);
    st.sin = shared(st.sin);
    st.force = shared(st.force), st.torque = shared(st.torque);
    const ce = sys.threadHooks.centres(), sce = shared(ce);
    if (sce !== ce) sys.threadHooks.setCentres(sce);
    let changed = buf.pos !== st.pos || buf.vel !== st.vel || buf.ang !== st.ang;
    changed ||= buf.omega !== st.omega || buf.rmax !== st.rmax || buf.ids !== st.ids;
    changed ||= buf.shapeId !== st.shape || buf.cos !== st.cos || buf.sin !== st.sin;
    changed ||= buf.force !== st.force || buf.torque !== st.torque || buf.centre !== sce;
    if (!changed) return;
    buf.pos = st.pos, buf.vel = st.vel, buf.ang = st.ang, buf.omega = st.omega;
    buf.rmax = st.rmax, buf.ids = st.ids, buf.shapeId = st.shape;
    buf.cos = st.cos, buf.sin = st.sin, buf.force = st.force, buf.torque = st.torque;
    buf.centre = sce;
    this.#send(buf);
  }

  /**
   * The trig of the angles and the detection centres of star grains (`StarSystem.prepare`),
   * shared among the threads, into the store's `cos`, `sin` and centres (adopted).
   */
  prepareStars(sys: ThreadedGrains): void {
    const buf = this.#prepare(sys, sys.detectionState.pairs.count), info = buf.info;
    info[Info.grains] = sys.count;
    info[Info.threads] = this.threads;
    this.start(Job.prepare);
    prepareStars(buf, 0);
    this.wait();
  }

  /**
   * Detect the pair contacts and then the wall contacts of `sys` into `sys.contacts` (empty on
   * entry), as the single-threaded detection does. Returns false, with nothing written, when a
   * thread's rows overflowed: the buffers have grown and the caller detects this step on one
   * thread.
   */
  detect(sys: ThreadedGrains): boolean {
    const det = sys.threadHooks.detector(), p = sys.detectionState.pairs, P = p.count;
    const T = this.threads;
    const buf = this.#prepare(sys, P);
    // the candidate pairs, shared in place (each chunk orients its pairs by id)
    p.a = shared(p.a), p.b = shared(p.b);
    if (buf.pairA !== p.a || buf.pairB !== p.b) {
      buf.pairA = p.a, buf.pairB = p.b;
      this.#send(buf);
    }
    let size = Math.ceil(P / (16 * T));
    size = size < 16 ? 16 : size > 1024 ? 1024 : size;
    const chunks = Math.ceil(P / size), info = buf.info;
    info[Info.pairs] = P;
    info[Info.chunkSize] = size;
    info[Info.chunks] = chunks;
    Atomics.store(info, Info.counter, 0);
    this.start(Job.detect);
    // the walls here while the workers start on the pairs, then pairs until none are left
    const ws = this.#walls;
    ws.count = 0;
    sys.threadHooks.wallsInto(ws);
    // the springs' hash for this step (`ContactHistory.begin`, which the force pass would
    // otherwise start with) and its copy for the force threads
    const h = sys.detectionState.history;
    h.tolerance = sys.detectionState.keyTol;
    h.begin();
    this.#begun = true;
    this.#histShared = this.#shareHistory(buf, h);
    detectChunks(det, buf, this.#sink, 0);
    this.wait();
    const rows = buf.rows, tally = buf.tally;
    let most = 0;
    for (let t = 0; t < T; t++) if (tally[2 * t] > most) most = tally[2 * t];
    if (ROW * most > rows[0].length) {
      this.#rowsValid = false;
      this.#grow(buf, most);
      det.nodeTests = 0; // the caller counts this step's tests again
      return false;
    }
    // each chunk's place among the contacts, then the rows into the record's columns on the
    // threads (each an equal run of contacts), then the walls' rows after them
    const c = sys.contacts, ch = buf.chunks, off = buf.chunkOff, wr = ws.rows;
    let inContact = 0, pc = 0;
    for (let q = 0; q < chunks; q++) {
      off[q] = pc;
      pc += ch[4 * q + 2];
      inContact += ch[4 * q + 3];
    }
    c.reserve(pc + ws.count);
    this.#shareContacts(sys, buf);
    info[Info.pairContacts] = pc;
    info[Info.threads] = T;
    this.start(Job.merge);
    mergeRows(buf, 0, this.#run);
    this.wait();
    c.count = pc;
    this.#pairContacts = pc;
    this.#rowsValid = true;
    for (let k = 0; k < ws.count; k++) pushRow(c, wr, k);
    let tests = det.nodeTests;
    for (let t = 1; t < T; t++) tests += tally[2 * t + 1];
    det.nodeTests = tests;
    sys.detectionState.pairsInContact = inContact;
    sys.detectionState.nodeTests = tests;
    return true;
  }

  /** This thread's run of the pair contacts (merge and force jobs). */
  readonly #run: Int32Array = new Int32Array(2);

  /**
   * Make the contact record's columns shared (they are replaced when the record grows) and
   * send them to the workers when they changed.
   */
  #shareContacts(sys: ThreadedGrains, buf: StarShared): void {
    const c = sys.contacts;
    const cb = contactBuffers(c) as unknown as Record<string, Float64Array>;
    const con = buf.con as unknown as Record<string, Float64Array>;
    let changed = false;
    for (let f = 0; f < CONTACT_COLUMNS.length; f++) {
      const name = CONTACT_COLUMNS[f];
      const a = cb[name] = shared(cb[name]);
      if (con[name] !== a) con[name] = a, changed = true;
    }
    const sp = c.springs;
    sp.key = shared(sp.key), sp.xi = shared(sp.xi), sp.ft = shared(sp.ft);
    if (con.key !== sp.key || con.xi !== sp.xi || con.ft !== sp.ft) {
      con.key = sp.key, con.xi = sp.xi, con.ft = sp.ft;
      changed = true;
    }
    if (changed) this.#send(buf);
  }

  /** `detect` began this step's springs (`ContactHistory.begin`): the force pass must not. */
  #begun = false;
  /** The previous springs fitted the shared copies (`#shareHistory`). */
  #histShared = false;
  /** The threads' rows hold this step's pair contacts (`detect` succeeded). */
  #rowsValid = false;
  /** Pair contacts of this step (the first contacts of the record). */
  #pairContacts = 0;
  /** Springs and hash slots the shared copies need (when they did not fit). */
  readonly #histNeed: number[] = [0, 0];

  /** Copy the previous springs and their hash for the force threads; false when too small. */
  #shareHistory(buf: StarShared, h: ContactHistory): boolean {
    const prev = h.previousSprings(), n = prev.count, cap = prev.mask + 1, hh = buf.hist;
    const q5 = hh.length / 5;
    if (n > buf.histKeys.length || cap > q5) {
      this.#histNeed[0] = n, this.#histNeed[1] = cap;
      return false;
    }
    buf.histA.set(prev.a.subarray(0, n));
    buf.histB.set(prev.b.subarray(0, n));
    buf.histKeys.set(prev.keys.subarray(0, n));
    buf.histXi.set(prev.xi.subarray(0, n));
    hh.set(prev.ha.subarray(0, cap), 0);
    hh.set(prev.hb.subarray(0, cap), q5);
    hh.set(prev.hs.subarray(0, cap), 2 * q5);
    hh.set(prev.hc.subarray(0, cap), 3 * q5);
    hh.set(prev.hm.subarray(0, cap), 4 * q5);
    buf.info[Info.histCount] = n;
    buf.info[Info.histStamp] = prev.stamp;
    buf.info[Info.histMask] = prev.mask;
    return true;
  }

  /**
   * The contact forces of `sys` when `detect` ran this step (it began the springs): the pair
   * contacts' forces, springs and force columns on the threads (`forceRange`, each an equal run
   * of contacts), then their sums per grain on the threads (`scatterForces`, each a range of
   * grains) while this thread records the springs, then the wall contacts on this thread — the
   * same bytes as `contactForces2`. Returns false when `detect` did not run (the caller runs
   * `contactForces2`).
   */
  forces(sys: ThreadedGrains & GrainSystemState): boolean {
    if (!this.#begun) return false;
    this.#begun = false;
    const n = sys.count, buf = this.#buf!;
    if (!this.#rowsValid || !this.#histShared) {
      // the rows overflowed (detection ran on one thread) or the springs outgrew their copies
      if (!this.#histShared) this.#growHistory(buf);
      sys.store.force.fill(0, 0, 2 * n);
      sys.store.torque.fill(0, 0, n);
      contactRange2(sys, 0);
      return true;
    }
    this.#rowsValid = false;
    lawScalars(sys, buf.law)[LAW_TOL] = sys.detectionState.keyTol;
    this.start(Job.forces);
    forceRange(buf, 0, this.#springs!, this.#cursor, this.#run);
    this.wait();
    // the forces added on the threads, each a range of grains, while this thread also
    // records the springs (in contact order), then the wall contacts after them
    const c = sys.contacts, b = contactBuffers(c), P = this.#pairContacts;
    buf.info[Info.grains] = n;
    this.start(Job.scatter);
    const h = sys.detectionState.history, sp = c.springs;
    h.recordContacts(sys.store.ids, b.i, b.j, sp.key, sp.xi, P);
    scatterForces(buf, 0);
    this.wait();
    contactRange2(sys, P);
    return true;
  }

  /** Shared copies with room for the springs `#shareHistory` found no room for; sent. */
  #growHistory(buf: StarShared): void {
    let n = buf.histKeys.length, q5 = buf.hist.length / 5;
    while (n < this.#histNeed[0]) n *= 2;
    while (q5 < this.#histNeed[1]) q5 *= 2;
    buf.histA = sharedI32(n);
    buf.histB = sharedI32(n);
    buf.histKeys = sharedF64(n);
    buf.histXi = sharedF64(n);
    buf.hist = sharedI32(5 * q5);
    this.#send(buf);
  }

  /** The shared buffers, (re)made and sent when the system outgrew them or changed shapes. */
  #prepare(sys: ThreadedGrains, P: number): StarShared {
    let buf = this.#buf;
    const keys = this.#keysNow, nk = sys.threadHooks.keys(keys), seen = this.#keys;
    let same = buf !== null && buf.cap >= sys.store.capacity && buf.pairCap >= P &&
      nk === seen.length;
    for (let k = 0; same && k < nk; k++) same = keys[k] === seen[k];
    if (same) return buf!;
    const cap = Math.max(sys.store.capacity, buf?.cap ?? 0);
    let pcap = Math.max(1024, buf?.pairCap ?? 0);
    while (pcap < P) pcap *= 2;
    const rowCap = Math.max(4096, pcap, buf === null ? 0 : buf.rows[0].length / ROW);
    const outCap = Math.max(1024, Math.ceil((4 * cap) / this.threads));
    buf = {
      ...sys.threadHooks.model(),
      cap,
      // the system's columns, the grid's and the pair list's arrays: set when adopted
      centre: buf?.centre ?? sharedF64(0),
      cos: buf?.cos ?? sharedF64(0),
      sin: buf?.sin ?? sharedF64(0),
      ang: buf?.ang ?? sharedF64(0),
      rmax: buf?.rmax ?? sharedF64(0),
      ids: buf?.ids ?? new Uint32Array(new SharedArrayBuffer(4)),
      shapeId: buf?.shapeId ?? new Uint16Array(new SharedArrayBuffer(2)),
      pairA: buf?.pairA ?? sharedI32(0),
      pairB: buf?.pairB ?? sharedI32(0),
      pairCap: pcap,
      chunks: sharedI32(4 * (Math.ceil(pcap / 16) + 1)),
      rows: Array.from({ length: this.threads }, () => sharedF64(ROW * rowCap)),
      tally: sharedF64(2 * this.threads),
      info: sharedI32(INFO_WORDS),
      pos: buf?.pos ?? sharedF64(0),
      cellStart: buf?.cellStart ?? sharedI32(0),
      items: buf?.items ?? sharedI32(0),
      sorted: buf?.sorted ?? sharedF64(0),
      sortedRadii: buf?.sortedRadii ?? sharedF64(0),
      gridInfo: sharedF64(GRID_CUTS + MAX_THREADS + 1),
      outA: Array.from({ length: this.threads }, (_, t) => buf?.outA[t] ?? sharedI32(outCap)),
      outB: Array.from({ length: this.threads }, (_, t) => buf?.outB[t] ?? sharedI32(outCap)),
      outRes: sharedF64(2 * this.threads),
      vel: buf?.vel ?? sharedF64(0),
      omega: buf?.omega ?? sharedF64(0),
      chunkOff: sharedI32(Math.ceil(pcap / 16) + 1),
      fout: sharedF64(PAIR_OUT * this.threads * rowCap),
      con: buf?.con ?? emptyContacts(),
      force: buf?.force ?? sharedF64(0),
      torque: buf?.torque ?? sharedF64(0),
      law: sharedF64(8),
      histA: buf?.histA ?? sharedI32(1024),
      histB: buf?.histB ?? sharedI32(1024),
      histKeys: buf?.histKeys ?? sharedF64(1024),
      histXi: buf?.histXi ?? sharedF64(1024),
      hist: buf?.hist ?? sharedI32(5 * 1024),
    };
    this.#keys = keys.slice(0, nk);
    this.#send(buf);
    return buf;
  }

  /**
   * The candidate pairs of `grid` (built this step; `radii` the bounding radii) into `out`,
   * each thread searching a run of grid rows with about equal numbers of grains; the runs are
   * appended in row order — the order of `CellGrid2.findPairs`. Returns false, with nothing
   * written, when a thread's pairs overflowed its buffers (they have grown: search this step on
   * one thread).
   */
  findPairs(
    sys: ThreadedGrains,
    grid: CellGrid2,
    radii: Float64Array,
    margin: number,
    out: PairList,
  ): boolean {
    const buf = this.#prepare(sys, sys.detectionState.pairs.count), T = this.threads;
    const nx = grid.nx, ny = grid.ny, n = grid.count;
    grid.sortRadii(radii);
    // the grid's arrays, shared in place (replaced when the grid grows)
    grid.cellStart = shared(grid.cellStart), grid.items = shared(grid.items);
    grid.sorted = shared(grid.sorted), grid.sortedRadii = shared(grid.sortedRadii);
    if (
      buf.cellStart !== grid.cellStart || buf.items !== grid.items ||
      buf.sorted !== grid.sorted || buf.sortedRadii !== grid.sortedRadii
    ) {
      buf.cellStart = grid.cellStart, buf.items = grid.items;
      buf.sorted = grid.sorted, buf.sortedRadii = grid.sortedRadii;
      this.#send(buf);
    }
    const start = grid.cellStart;
    const gi = buf.gridInfo;
    gi[0] = nx, gi[1] = ny, gi[2] = grid.px, gi[3] = grid.py, gi[4] = margin;
    // row cuts with about n/T grains below each
    gi[GRID_CUTS] = 0;
    let y = 0;
    for (let t = 1; t < T; t++) {
      const target = (n * t) / T;
      while (y < ny && start[y * nx] < target) y++;
      gi[GRID_CUTS + t] = y;
    }
    gi[GRID_CUTS + T] = ny;
    this.start(Job.pairs);
    const r0 = this.#res0;
    findPairRows2(grid, margin, buf.outA[0], buf.outB[0], 0, gi[GRID_CUTS + 1], r0);
    this.wait();
    const res = buf.outRes;
    res[0] = r0[0], res[1] = r0[1];
    let total = 0, tested = 0, over = false;
    for (let t = 0; t < T; t++) {
      const c = res[2 * t];
      if (c > buf.outA[t].length) {
        let cap = buf.outA[t].length;
        while (cap < c) cap *= 2;
        buf.outA[t] = sharedI32(cap), buf.outB[t] = sharedI32(cap);
        over = true;
      }
      total += c, tested += res[2 * t + 1];
    }
    if (over) {
      this.#send(buf);
      return false;
    }
    out.reserve(total);
    let w = 0;
    for (let t = 0; t < T; t++) {
      const c = res[2 * t];
      out.a.set(buf.outA[t].subarray(0, c), w);
      out.b.set(buf.outB[t].subarray(0, c), w);
      w += c;
    }
    out.count = total;
    out.tested = tested;
    return true;
  }

  /** The main thread's search result (its words of `outRes` are written after the wait). */
  readonly #res0: Float64Array = new Float64Array(2);

  /** Room for `rows` rows per thread; sent at once. */
  #grow(buf: StarShared, rows: number): void {
    let cap = buf.rows[0].length / ROW;
    while (cap < rows) cap *= 2;
    buf.rows = Array.from({ length: this.threads }, () => sharedF64(ROW * cap));
    buf.fout = sharedF64(PAIR_OUT * this.threads * cap);
    this.#send(buf);
  }

  /** The shared copies of the previous springs (this thread's view). */
  #springs: PreviousSprings | null = null;
  /** This thread's lookup cursor in the force job. */
  readonly #cursor: Int32Array = new Int32Array(CURSOR_WORDS);

  /** Send the buffers to every worker and wait until each has them. */
  #send(buf: StarShared): void {
    this.#buf = buf;
    this.#springs = sharedSprings(buf);
    this.#sink = new RowSink(buf.rows[0]);
    this.send(buf);
  }
}

/** Append row k of `r` to the contacts (detection's view, as the detector pushes it). */
function pushRow(c: { push: RowSink["push"] }, r: Float64Array, k: number): void {
  const o = ROW * k;
  c.push(r[o], r[o + 1], r[o + 2], r[o + 3], r[o + 4], r[o + 5], r[o + 6], r[o + 7], r[o + 8]);
}
