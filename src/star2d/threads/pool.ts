/**
 * Worker threads for the star2d detection (`threads` of `StarSystem` and `ClumpSystem`): the
 * main thread and `threads − 1` workers (`node:worker_threads`, unref'd so that they never keep
 * a finished program alive) run the nodes-to-surface (or disk–disk) tests of the candidate
 * pairs, which are most of a step, and meet through `Atomics.wait` — stepping stays
 * synchronous. `DiskSystem` has no threads: a disk pair is one distance, less than the cost of
 * sharing it.
 *
 * The result does not depend on the thread count: the pairs are cut into chunks that threads
 * take from a shared counter, each thread writes the contacts of its chunks into its own rows,
 * and the main thread then appends the chunks' rows in pair order — the order one thread
 * writes them in — followed by the wall contacts, which it detects itself while the workers
 * start on the pairs. Forces, histories and integration then run on the main thread as before
 * (a few per cent of a packing step). One thread and several give the same bytes.
 *
 * @module
 */
import { WorkerPool } from "../../math/worker_pool.ts";
import { type CellGrid2, findPairRows2, type PairList } from "../../math/grid.ts";
import type { StarContacts } from "../contacts.ts";
import {
  detectChunks,
  GRID_CUTS,
  Info,
  INFO_WORDS,
  Job,
  MAX_THREADS,
  type PairDetector,
  prepareStars,
  ROW,
  RowSink,
  type StarShared,
} from "./kernel.ts";
import type { ContactSink } from "../detect.ts";

/** What the worker threads read besides the columns: shapes, sprites and settings, or templates. */
export type ThreadModel = Pick<
  StarShared,
  "kind" | "templates" | "shapes" | "sprites" | "settings" | "sampling" | "centroids"
>;

/** What a system gives its threads (`StarSystem`, `ClumpSystem`). @internal */
export interface ThreadedGrains {
  /** Grains. */
  count: number;
  /** Column capacity. */
  _cap: number;
  /** Candidate pairs of this step. */
  _pairs: PairList;
  /** Stable ids. */
  _ids: Uint32Array;
  /** Angles. */
  _ang: Float64Array;
  /** Bounding radii. */
  _rmax: Float64Array;
  /** Shape or template id per grain. */
  _shape: Uint16Array;
  /** Centres of mass, stride 2. */
  _pos: Float64Array;
  /** cos of the angles. */
  _cos: Float64Array;
  /** sin of the angles. */
  _sin: Float64Array;
  /** The step's contacts. */
  contacts: StarContacts;
  /** Pairs with at least one contact (statistics). */
  _pairsInContact: number;
  /** Node (or disk-pair) tests (statistics). */
  _nodeTests: number;
  /** Detection centres, stride 2. */
  _threadCentres(): Float64Array;
  /** This thread's detector, bound to the system's columns; its `nodeTests` count the step. */
  _threadDetector(): PairDetector;
  /** The wall contacts of this step into `sink`, in detection's view. */
  _wallsInto(sink: ContactSink): void;
  /**
   * Fill `keys` with the objects and settings the workers' model depends on (compared by
   * identity from step to step); returns how many.
   */
  _threadKeys(keys: unknown[]): number;
  /** The model the workers receive. */
  _threadModel(): ThreadModel;
}

export { MAX_THREADS } from "./kernel.ts";

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

  /** The buffers this step's angles, trig, shape ids and centres were left in, or null. */
  #prepared: StarShared | null = null;

  /**
   * The trig of the angles and the detection centres of star grains (`StarSystem.prepare`),
   * shared among the threads, into the system's `_cos`, `_sin` and `centres` (stride 2) — and
   * left in the shared columns for this step's detection.
   */
  prepareStars(sys: ThreadedGrains, centres: Float64Array): void {
    const n = sys.count, buf = this.#prepare(sys, sys._pairs.count), info = buf.info;
    buf.pos.set(sys._pos.subarray(0, 2 * n));
    buf.ang.set(sys._ang.subarray(0, n));
    buf.shapeId.set(sys._shape.subarray(0, n));
    info[Info.grains] = n;
    info[Info.threads] = this.threads;
    this.start(Job.prepare);
    prepareStars(buf, 0);
    this.wait();
    sys._cos.set(buf.cos.subarray(0, n));
    sys._sin.set(buf.sin.subarray(0, n));
    centres.set(buf.centre.subarray(0, 2 * n));
    this.#prepared = buf;
  }

  /**
   * Detect the pair contacts and then the wall contacts of `sys` into `sys.contacts` (empty on
   * entry), as the single-threaded detection does. Returns false, with nothing written, when a
   * thread's rows overflowed: the buffers have grown and the caller detects this step on one
   * thread.
   */
  detect(sys: ThreadedGrains): boolean {
    const det = sys._threadDetector(), p = sys._pairs, P = p.count, n = sys.count;
    const T = this.threads;
    const buf = this.#prepare(sys, P);
    // the columns detection reads, copied for the workers (the prepare job left the angles,
    // their trig, the shape ids and the centres there already)
    if (this.#prepared !== buf) {
      buf.centre.set(sys._threadCentres().subarray(0, 2 * n));
      buf.cos.set(sys._cos.subarray(0, n));
      buf.sin.set(sys._sin.subarray(0, n));
      buf.ang.set(sys._ang.subarray(0, n));
      buf.shapeId.set(sys._shape.subarray(0, n));
    }
    this.#prepared = null;
    buf.rmax.set(sys._rmax.subarray(0, n));
    buf.ids.set(sys._ids.subarray(0, n));
    const A = p.a, B = p.b, ids = sys._ids, pa = buf.pa, pb = buf.pb;
    for (let k = 0; k < P; k++) {
      const a = A[k], b = B[k];
      if (ids[a] > ids[b]) pa[k] = b, pb[k] = a;
      else pa[k] = a, pb[k] = b;
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
    sys._wallsInto(ws);
    detectChunks(det, buf, this.#sink, 0);
    this.wait();
    const rows = buf.rows, tally = buf.tally;
    let most = 0;
    for (let t = 0; t < T; t++) if (tally[2 * t] > most) most = tally[2 * t];
    if (ROW * most > rows[0].length) {
      this.#grow(buf, most);
      det.nodeTests = 0; // the caller counts this step's tests again
      return false;
    }
    const c = sys.contacts, ch = buf.chunks;
    let inContact = 0;
    for (let q = 0; q < chunks; q++) {
      const r = rows[ch[4 * q]], first = ch[4 * q + 1], cnt = ch[4 * q + 2];
      inContact += ch[4 * q + 3];
      for (let k = first; k < first + cnt; k++) pushRow(c, r, k);
    }
    const wr = ws.rows;
    for (let k = 0; k < ws.count; k++) pushRow(c, wr, k);
    let tests = det.nodeTests;
    for (let t = 1; t < T; t++) tests += tally[2 * t + 1];
    det.nodeTests = tests;
    sys._pairsInContact = inContact;
    sys._nodeTests = tests;
    return true;
  }

  /** The shared buffers, (re)made and sent when the system outgrew them or changed shapes. */
  #prepare(sys: ThreadedGrains, P: number): StarShared {
    let buf = this.#buf;
    const keys = this.#keysNow, nk = sys._threadKeys(keys), seen = this.#keys;
    let same = buf !== null && buf.cap >= sys._cap && buf.pa.length >= P && nk === seen.length;
    for (let k = 0; same && k < nk; k++) same = keys[k] === seen[k];
    if (same) return buf!;
    const cap = Math.max(sys._cap, buf?.cap ?? 0);
    let pcap = Math.max(1024, buf?.pa.length ?? 0);
    while (pcap < P) pcap *= 2;
    const rowCap = Math.max(4096, pcap, buf === null ? 0 : buf.rows[0].length / ROW);
    const outCap = Math.max(1024, Math.ceil((4 * cap) / this.threads));
    buf = {
      ...sys._threadModel(),
      cap,
      centre: sharedF64(2 * cap),
      cos: sharedF64(cap),
      sin: sharedF64(cap),
      ang: sharedF64(cap),
      rmax: sharedF64(cap),
      ids: new Uint32Array(new SharedArrayBuffer(4 * cap)),
      shapeId: new Uint16Array(new SharedArrayBuffer(2 * cap)),
      pa: sharedI32(pcap),
      pb: sharedI32(pcap),
      chunks: sharedI32(4 * (Math.ceil(pcap / 16) + 1)),
      rows: Array.from({ length: this.threads }, () => sharedF64(ROW * rowCap)),
      tally: sharedF64(2 * this.threads),
      info: sharedI32(INFO_WORDS),
      pos: sharedF64(2 * cap),
      // a grid of n grains has at most max(64, 4n) cells (`CellGrid2.build`)
      cellStart: sharedI32(Math.max(64, 4 * cap) + 1),
      items: sharedI32(cap),
      sorted: sharedF64(2 * cap),
      sortedRadii: sharedF64(cap),
      gridInfo: sharedF64(GRID_CUTS + MAX_THREADS + 1),
      outA: Array.from({ length: this.threads }, (_, t) => buf?.outA[t] ?? sharedI32(outCap)),
      outB: Array.from({ length: this.threads }, (_, t) => buf?.outB[t] ?? sharedI32(outCap)),
      outRes: sharedF64(2 * this.threads),
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
    const buf = this.#prepare(sys, sys._pairs.count), T = this.threads;
    const nx = grid.nx, ny = grid.ny, n = grid.count, start = grid.cellStart;
    if (ny * nx + 1 > buf.cellStart.length || n > buf.items.length) return false;
    grid.sortRadii(radii);
    buf.cellStart.set(start.subarray(0, nx * ny + 1));
    buf.items.set(grid.items.subarray(0, n));
    buf.sorted.set(grid.sorted.subarray(0, 2 * n));
    buf.sortedRadii.set(grid.sortedRadii.subarray(0, n));
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
    this.#send(buf);
  }

  /** Send the buffers to every worker and wait until each has them. */
  #send(buf: StarShared): void {
    this.#buf = buf;
    this.#sink = new RowSink(buf.rows[0]);
    this.send(buf);
  }
}

/** Append row k of `r` to the contacts (detection's view, as the detector pushes it). */
function pushRow(c: { push: RowSink["push"] }, r: Float64Array, k: number): void {
  const o = ROW * k;
  c.push(r[o], r[o + 1], r[o + 2], r[o + 3], r[o + 4], r[o + 5], r[o + 6], r[o + 7], r[o + 8]);
}
