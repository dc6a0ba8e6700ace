/**
 * What the threads of a star2d step share (see `pool.ts`): the system's own columns, grid and
 * candidate pairs (made shared in place, `StarThreads.adopt`), one row buffer of contacts per
 * thread and the chunk table that puts the rows back in pair order, the system's contact
 * record (shared in place) and a copy of the previous springs. Both the main thread and the
 * workers run the jobs: {@link detectChunks} (chunks of pairs from a shared counter),
 * {@link mergeRows}, {@link forceRange} and {@link scatterForces} (fixed shares).
 *
 * @module
 */
import {
  type ContactSink,
  type DetectorSettings,
  type DetectShape,
  type DetectSprite,
  StarDetector,
  type StarSampling,
} from "../detect.ts";
import { ClumpDetector, type ClumpDisks } from "../clump_detect.ts";
import { findPairRows2, type Grid2View } from "../../math/grid.ts";
import { type ContactBuffers, ContactKind } from "../../contact/record.ts";
import { PAIR_OUT, pairContact2 } from "../body_forces.ts";
import { CURSOR_WORDS, findPrevious, type PreviousSprings } from "../contacts.ts";

/** Kinds of detection the threads run. */
export const enum Kind {
  /** Star grains, nodes to surface (`StarDetector`). */
  star = 0,
  /** Clumps of disks (`ClumpDetector`). */
  clump = 1,
}

/** A pair detector the threads can share the pairs of. */
export interface PairDetector {
  /** Tests since the last reset. */
  nodeTests: number;
  /** Where contacts go. */
  out: ContactSink | null;
  /** Detect the contacts of a and b (ids[a] < ids[b]); returns how many were added. */
  pair(a: number, b: number): number;
}

/** Most threads of one system (the main one included). */
export const MAX_THREADS = 64;

/** Doubles per contact row: i, j, kind, px, py, nx, ny, overlap, key. */
export const ROW = 9;

/** Jobs of the control word. */
export const enum Job {
  /** Leave the job loop: new buffers wait in the message queue (`REBIND` of worker_pool). */
  rebind = 9,
  /** Detect chunks of pairs. */
  detect = 2,
  /** Trig of the angles and detection centres of a range of star grains. */
  prepare = 3,
  /** The candidate pairs of a range of grid rows. */
  pairs = 4,
  /** The forces of a run of the pair contacts (`forceRange`). */
  forces = 5,
  /** The contact rows of a run of the pair contacts into the record's columns (`mergeRows`). */
  merge = 6,
  /** The pair forces added to a range of grains (`scatterForces`). */
  scatter = 7,
}

/** Word of `law` after the contact-law scalars: the history key tolerance (rad; 0 exact). */
export const LAW_TOL = 6;

/** Words of `gridInfo`: nx, ny, px, py, margin, then the row cuts from {@link GRID_CUTS} on. */
export const GRID_CUTS = 8;

/** `info` words. */
export const enum Info {
  /** Candidate pairs this step. */
  pairs = 0,
  /** Pairs per chunk. */
  chunkSize = 1,
  /** Chunks this step. */
  chunks = 2,
  /** The next chunk to take (Atomics.add). */
  counter = 3,
  /** Grains this step (the prepare job). */
  grains = 4,
  /** Threads of the pool (the prepare job's split). */
  threads = 5,
  /** The stamp of the previous springs' hash (`hist`). */
  histStamp = 6,
  /** Hash size − 1 of `hist`. */
  histMask = 7,
  /** Pair contacts this step (the force job's split). */
  pairContacts = 8,
  /** Springs of the previous step (`histKeys`). */
  histCount = 9,
}

/** Words of `info`. */
export const INFO_WORDS = 10;

/**
 * The buffers the threads share (sent to every worker at each rebind): the system's columns
 * (positions, velocities, angles and their trig, centres, radii, ids, shape ids, forces,
 * torques), the grid's arrays, the candidate pairs and the contact record are the system's own,
 * made shared in place; the rest belongs to the threads.
 */
export interface StarShared {
  /** What the workers detect ({@link Kind}). */
  kind: number;
  /** Grain capacity of the columns. */
  cap: number;
  /** Detection centres (polar centres of stars, centres of mass of clumps), stride 2. */
  centre: Float64Array;
  /** cos of the angles. */
  cos: Float64Array;
  /** sin of the angles. */
  sin: Float64Array;
  /** Angles (rad). */
  ang: Float64Array;
  /** Bounding radii (m). */
  rmax: Float64Array;
  /** Stable ids. */
  ids: Uint32Array;
  /** Shape id per grain. */
  shapeId: Uint16Array;
  /** Centres of mass (stride 2; read by the prepare job of star grains). */
  pos: Float64Array;
  /** The grid of this step: cell starts (room for the most cells a grid of `cap` grains has). */
  cellStart: Int32Array;
  /** The grid's grains in cell order. */
  items: Int32Array;
  /** The grid's centres in cell order (stride 2). */
  sorted: Float64Array;
  /** The grid's bounding radii in cell order. */
  sortedRadii: Float64Array;
  /** The grid's scalars and the threads' row cuts (see {@link GRID_CUTS}). */
  gridInfo: Float64Array;
  /** Per thread: the candidate pairs found in its rows (first grains). */
  outA: Int32Array[];
  /** Per thread: the candidate pairs found in its rows (second grains). */
  outB: Int32Array[];
  /** Per thread: pairs found (may exceed the room: overflow), distances tested. */
  outRes: Float64Array;
  /** Per shape id: the centroid of the shape about its polar centre (x, y), for stars. */
  centroids: Float64Array;
  /** The candidate pairs' first grains (the system's `PairList`, shared in place). */
  pairA: Int32Array;
  /** The candidate pairs' second grains. */
  pairB: Int32Array;
  /** Room for candidate pairs of the chunk tables. */
  pairCap: number;
  /** Per chunk: thread, first row, rows, pairs in contact. */
  chunks: Int32Array;
  /** Per thread: its contact rows, {@link ROW} doubles each. */
  rows: Float64Array[];
  /** Per thread: rows written (may exceed the capacity: overflow), node tests. */
  tally: Float64Array;
  /** See {@link Info}. */
  info: Int32Array;
  /** Clump templates by id (plain copies in the workers; empty for stars). */
  templates: ClumpDisks[];
  /** Shapes by id (plain copies in the workers). */
  shapes: DetectShape[];
  /** Sprites by shape id (empty: none). */
  sprites: DetectSprite[];
  /** Detection settings. */
  settings: DetectorSettings;
  /** Node-test sampling. */
  sampling: StarSampling;
  /** Velocities (stride 2; the force job). */
  vel: Float64Array;
  /** Angular velocities (the force job). */
  omega: Float64Array;
  /** Per chunk: the index of its first row among this step's contacts. */
  chunkOff: Int32Array;
  /** Per pair contact: the {@link PAIR_OUT} words of `pairContact2`. */
  fout: Float64Array;
  /** The system's contact record (its columns made shared; see `StarThreads`). */
  con: SharedContacts;
  /** The system's forces (stride 2; made shared). */
  force: Float64Array;
  /** The system's torques (made shared). */
  torque: Float64Array;
  /** The contact-law scalars (`Law` of `body_forces.ts`) and {@link LAW_TOL}. */
  law: Float64Array;
  /** The previous step's springs' first ids (a copy of the system's `ContactHistory`). */
  histA: Int32Array;
  /** Their second ids. */
  histB: Int32Array;
  /** Their keys. */
  histKeys: Float64Array;
  /** The previous step's ξ. */
  histXi: Float64Array;
  /** Their hash: ha, hb, hs, hc, hm of `PreviousSprings`, each a fifth of the array. */
  hist: Int32Array;
}

/**
 * The columns of a star2d contact record the threads write (the record's own, made shared; see
 * `StarThreads`): the shared ones and the history key, spring and signed tangential force.
 */
export type SharedContacts = Omit<ContactBuffers, "capacity"> & {
  /** History keys. */
  key: Float64Array;
  /** Springs ξ. */
  xi: Float64Array;
  /** Signed tangential forces. */
  ft: Float64Array;
};

/** Thread `t`'s equal run lo ≤ k < hi of the step's pair contacts into `run`. */
function contactRun(info: Int32Array, t: number, run: Int32Array): void {
  const P = info[Info.pairContacts], T = info[Info.threads];
  run[0] = Math.floor((P * t) / T), run[1] = Math.floor((P * (t + 1)) / T);
}

/**
 * Thread `t`'s run of the pair contacts, from whichever thread's rows hold them, into the
 * record's columns at their index — what `StarContacts.push` writes for each row.
 */
export function mergeRows(b: StarShared, t: number, run: Int32Array): void {
  const ch = b.chunks, off = b.chunkOff, info = b.info, chunks = info[Info.chunks], c = b.con;
  const ci = c.i, cj = c.j, kind = c.kind, bd = c.boundary, pt = c.point, nr = c.normal;
  const ov = c.overlap, key = c.key;
  contactRun(info, t, run);
  const lo = run[0], hi = run[1];
  for (let q = 0; q < chunks; q++) {
    const k0 = off[q], cnt = ch[4 * q + 2];
    if (k0 + cnt <= lo) continue;
    if (k0 >= hi) break;
    const rows = b.rows[ch[4 * q]], first = ch[4 * q + 1];
    const r0 = lo > k0 ? lo - k0 : 0, r1 = hi < k0 + cnt ? hi - k0 : cnt;
    for (let r = r0, o = ROW * (first + r0), k = k0 + r0; r < r1; r++, o += ROW, k++) {
      // a pair row (kind 0): the record keeps the normal from j towards i
      ci[k] = rows[o];
      cj[k] = rows[o + 1];
      kind[k] = ContactKind.particle;
      bd[k] = -1;
      pt[2 * k] = rows[o + 3];
      pt[2 * k + 1] = rows[o + 4];
      nr[2 * k] = -rows[o + 5];
      nr[2 * k + 1] = -rows[o + 6];
      ov[k] = rows[o + 7];
      key[k] = rows[o + 8];
    }
  }
}

/**
 * The forces of thread `t`'s run of the pair contacts (`mergeRows` wrote them): ξ looked up in
 * the previous springs, then `pairContact2` — the arithmetic of one thread — with the
 * contact's ξ, normal and tangential forces written to the record and the rest to `fout`. The
 * caller records the springs and adds the forces in contact order.
 */
export function forceRange(
  b: StarShared,
  t: number,
  prev: PreviousSprings,
  cursor: Int32Array,
  run: Int32Array,
): void {
  const info = b.info, c = b.con;
  const pos = b.pos, vel = b.vel, om = b.omega, ids = b.ids, law = b.law, out = b.fout;
  const ci = c.i, cj = c.j, pt = c.point, nr = c.normal, ov = c.overlap, key = c.key;
  const xi = c.xi, fnA = c.normalForce, ftA = c.ft, ftV = c.tangentialForce;
  const tol = law[LAW_TOL];
  prev.count = info[Info.histCount], prev.stamp = info[Info.histStamp];
  prev.mask = info[Info.histMask];
  const hx = prev.xi;
  cursor.fill(0);
  contactRun(info, t, run);
  for (let k = run[0], w = PAIR_OUT * k; k < run[1]; k++, w += PAIR_OUT) {
    const i = ci[k], j = cj[k];
    const e = findPrevious(prev, cursor, ids[i], ids[j], key[k], tol);
    xi[k] = e >= 0 ? hx[e] : 0;
    const nx = nr[2 * k], ny = nr[2 * k + 1];
    pairContact2(pos, vel, om, i, j, pt[2 * k], pt[2 * k + 1], nx, ny, ov[k], law, xi, k, out, w);
    const ft = out[w + 1];
    fnA[k] = out[w];
    ftA[k] = ft;
    ftV[2 * k] = ft * ny;
    ftV[2 * k + 1] = ft * -nx;
  }
}

/**
 * The forces and torques of thread `t`'s range of grains: zeroed, then the pair contacts'
 * (`fout`) added in contact order — each grain's sum in the order of one thread, so the bytes
 * do not depend on how the grains are shared out.
 */
export function scatterForces(b: StarShared, t: number): void {
  const info = b.info, n = info[Info.grains], T = info[Info.threads];
  const P = info[Info.pairContacts], g0 = Math.floor((n * t) / T);
  const g1 = Math.floor((n * (t + 1)) / T);
  const F = b.force, Q = b.torque, ci = b.con.i, cj = b.con.j, out = b.fout;
  F.fill(0, 2 * g0, 2 * g1);
  Q.fill(0, g0, g1);
  for (let k = 0, w = 0; k < P; k++, w += PAIR_OUT) {
    const i = ci[k], j = cj[k];
    if (i >= g0 && i < g1) {
      F[2 * i] += out[w + 2];
      F[2 * i + 1] += out[w + 3];
      Q[i] += out[w + 4];
    }
    if (j >= g0 && j < g1) {
      F[2 * j] -= out[w + 2];
      F[2 * j + 1] -= out[w + 3];
      Q[j] -= out[w + 5];
    }
  }
}

/** A view of the shared copies of the previous springs for {@link forceRange}. */
export function sharedSprings(b: StarShared): PreviousSprings {
  const hh = b.hist, q5 = hh.length / 5;
  return {
    count: 0,
    a: b.histA,
    b: b.histB,
    keys: b.histKeys,
    xi: b.histXi,
    ha: hh.subarray(0, q5),
    hb: hh.subarray(q5, 2 * q5),
    hs: hh.subarray(2 * q5, 3 * q5),
    hc: hh.subarray(3 * q5, 4 * q5),
    hm: hh.subarray(4 * q5),
    stamp: 0,
    mask: 0,
  };
}

/**
 * A thread's contact rows in a fixed shared buffer: rows past the capacity are counted, not
 * written (the pool then grows the buffers and detects that step again on one thread).
 */
export class RowSink implements ContactSink {
  count = 0;
  /** The rows (9 doubles each). */
  rows: Float64Array;
  /** Grow (doubling) instead of counting rows past the capacity. */
  readonly growable: boolean;

  /** A sink over `rows`. */
  constructor(rows: Float64Array, growable = false) {
    this.rows = rows;
    this.growable = growable;
  }

  /** Append one contact (see `StarContacts.push`). */
  push(
    i: number,
    j: number,
    kind: number,
    px: number,
    py: number,
    nx: number,
    ny: number,
    overlap: number,
    key: number,
  ): void {
    const o = ROW * this.count++;
    let r = this.rows;
    if (o + ROW > r.length) {
      if (!this.growable) return;
      r = new Float64Array(Math.max(2 * r.length, 64 * ROW));
      r.set(this.rows);
      this.rows = r;
    }
    r[o] = i;
    r[o + 1] = j;
    r[o + 2] = kind;
    r[o + 3] = px;
    r[o + 4] = py;
    r[o + 5] = nx;
    r[o + 6] = ny;
    r[o + 7] = overlap;
    r[o + 8] = key;
  }
}

/** A shape's detection fields as a plain object (what a worker receives). */
export function plainShape(s: DetectShape): DetectShape {
  return {
    nodes: s.nodes,
    nodeX: s.nodeX,
    nodeY: s.nodeY,
    lutSize: s.lutSize,
    lutR: s.lutR,
    lutDr: s.lutDr,
    lutScale: s.lutScale,
    round: s.round,
  };
}

/** A sprite's detection fields as a plain object; the sampled fields only when read. */
export function plainSprite(s: DetectSprite, withFields: boolean): DetectSprite {
  return {
    resolution: s.resolution,
    invCell: s.invCell,
    halfWidth: s.halfWidth,
    cell: s.cell,
    classes: s.classes,
    fields: withFields ? s.fields : new Float32Array(0),
    rejects: s.rejects,
  };
}

/** A template's disks as a plain object (what a worker receives). */
export function plainDisks(t: ClumpDisks): ClumpDisks {
  return { x: t.x, y: t.y, r: t.r };
}

/** Point a clump detector at the shared columns. */
export function bindClumpDetector(det: ClumpDetector, b: StarShared): void {
  det.pos = b.centre;
  det.cos = b.cos;
  det.sin = b.sin;
  det.rmax = b.rmax;
  det.shapeId = b.shapeId;
  det.templates = b.templates;
}

/** Point a detector at the shared columns. */
export function bindDetector(det: StarDetector, b: StarShared): void {
  det.centre = b.centre;
  det.cos = b.cos;
  det.sin = b.sin;
  det.ang = b.ang;
  det.rmax = b.rmax;
  det.ids = b.ids;
  det.shapeId = b.shapeId;
  det.shapeList = b.shapes;
  det.sprites = b.sprites;
  det.settings = b.settings;
  det.sampling = b.sampling;
}

/**
 * Detect chunks of pairs taken from the shared counter into thread `t`'s rows, recording each
 * chunk's rows in the chunk table. `det` must read the same geometry as the shared columns.
 */
export function detectChunks(det: PairDetector, b: StarShared, sink: RowSink, t: number): void {
  const info = b.info, A = b.pairA, B = b.pairB, ids = b.ids, ch = b.chunks;
  const pairs = info[Info.pairs], size = info[Info.chunkSize], chunks = info[Info.chunks];
  const out = det.out;
  det.out = sink;
  sink.count = 0;
  const tests0 = det.nodeTests;
  for (;;) {
    const c = Atomics.add(info, Info.counter, 1);
    if (c >= chunks) break;
    const k0 = c * size, k1 = k0 + size < pairs ? k0 + size : pairs;
    const first = sink.count;
    let inContact = 0;
    for (let k = k0; k < k1; k++) {
      // each pair oriented so that ids[a] < ids[b], as on one thread
      const a = A[k], c = B[k];
      if ((ids[a] > ids[c] ? det.pair(c, a) : det.pair(a, c)) > 0) inContact++;
    }
    ch[4 * c] = t;
    ch[4 * c + 1] = first;
    ch[4 * c + 2] = sink.count - first;
    ch[4 * c + 3] = inContact;
  }
  b.tally[2 * t] = sink.count;
  b.tally[2 * t + 1] = det.nodeTests - tests0;
  det.out = out;
}

/**
 * The cos `C` and sin `S` of the angles and the polar centres `ce` = x_G − R(θ)·g (stride 2) of
 * star grains lo ≤ i < hi, g the centroid of grain i's shape about its polar centre
 * (`centroids`, stride 2 by shape id): `StarSystem.prepare` on one thread, each thread's share
 * with threads — one arithmetic, the same bytes.
 */
export function polarCentres(
  pos: Float64Array,
  ang: Float64Array,
  sid: Uint16Array,
  centroids: Float64Array,
  C: Float64Array,
  S: Float64Array,
  ce: Float64Array,
  lo: number,
  hi: number,
): void {
  for (let i = lo; i < hi; i++) {
    const a = ang[i], c = Math.cos(a), s = Math.sin(a);
    C[i] = c;
    S[i] = s;
    const k = 2 * sid[i], gx = centroids[k], gy = centroids[k + 1];
    ce[2 * i] = pos[2 * i] - (c * gx - s * gy);
    ce[2 * i + 1] = pos[2 * i + 1] - (s * gx + c * gy);
  }
}

/** Thread `t`'s share of {@link polarCentres}, into the shared columns. */
export function prepareStars(b: StarShared, t: number): void {
  const n = b.info[Info.grains], T = b.info[Info.threads];
  const lo = Math.floor((n * t) / T), hi = Math.floor((n * (t + 1)) / T);
  polarCentres(b.pos, b.ang, b.shapeId, b.centroids, b.cos, b.sin, b.centre, lo, hi);
}

/** A worker's view: a detector bound to the shared buffers and its row sink. */
export class WorkerContext {
  readonly star: StarDetector = new StarDetector();
  readonly clump: ClumpDetector = new ClumpDetector();
  det: PairDetector;
  buf: StarShared;
  sink: RowSink;
  readonly t: number;

  /** Bind to `buf` as thread `t`. */
  constructor(buf: StarShared, t: number) {
    this.t = t;
    this.buf = buf;
    this.sink = new RowSink(buf.rows[t]);
    this.det = this.star;
    this.springs = sharedSprings(buf);
    this.rebind(buf);
  }

  /** The shared copies of the previous springs. */
  springs: PreviousSprings;
  /** The force job's lookup cursor. */
  readonly cursor: Int32Array = new Int32Array(CURSOR_WORDS);
  /** This thread's run of the pair contacts. */
  readonly run2: Int32Array = new Int32Array(2);

  /** New buffers after a rebind. */
  rebind(buf: StarShared): void {
    this.buf = buf;
    this.springs = sharedSprings(buf);
    this.res = buf.outRes.subarray(2 * this.t, 2 * this.t + 2);
    this.sink = new RowSink(buf.rows[this.t]);
    if (buf.kind === Kind.clump) {
      bindClumpDetector(this.clump, buf);
      this.det = this.clump;
    } else {
      bindDetector(this.star, buf);
      this.det = this.star;
    }
  }

  /** The shared grid as `findPairRows2` reads it. */
  readonly grid: Grid2View = {
    nx: 0,
    ny: 0,
    px: 0,
    py: 0,
    cellStart: new Int32Array(0),
    items: new Int32Array(0),
    sorted: new Float64Array(0),
    sortedRadii: new Float64Array(0),
  };
  /** This thread's two words of `outRes`. */
  res: Float64Array = new Float64Array(2);

  /** Run one job. */
  run(job: number): void {
    if (job === Job.detect) detectChunks(this.det, this.buf, this.sink, this.t);
    else if (job === Job.forces) {
      forceRange(this.buf, this.t, this.springs, this.cursor, this.run2);
    } else if (job === Job.merge) mergeRows(this.buf, this.t, this.run2);
    else if (job === Job.scatter) scatterForces(this.buf, this.t);
    else if (job === Job.prepare) prepareStars(this.buf, this.t);
    else if (job === Job.pairs) {
      const b = this.buf, gi = b.gridInfo, g = this.grid, t = this.t;
      g.nx = gi[0], g.ny = gi[1], g.px = gi[2], g.py = gi[3];
      g.cellStart = b.cellStart, g.items = b.items, g.sorted = b.sorted;
      g.sortedRadii = b.sortedRadii;
      findPairRows2(
        g,
        gi[4],
        b.outA[t],
        b.outB[t],
        gi[GRID_CUTS + t],
        gi[GRID_CUTS + t + 1],
        this.res,
      );
    }
  }
}
