/**
 * What the threads of a star2d step share (see `pool.ts`): the system's own columns, grid and
 * candidate pairs (made shared in place, `StarThreads.adopt`), one row buffer of contacts per
 * thread and the chunk table that puts the rows back in pair order, the system's contact
 * record (shared in place) and a copy of the previous springs; and the jobs of the trig and
 * centres ({@link prepareStars}) and of detection ({@link detectChunks}: chunks of pairs from a
 * shared counter), which the main thread and the workers both run. The force jobs are in
 * `forces.ts`, a worker's side in `context.ts`.
 *
 * @module
 */
import type {
  ContactSink,
  DetectorSettings,
  DetectShape,
  DetectSprite,
  StarDetector,
  StarSampling,
} from "../detect.ts";
import type { ClumpDetector, ClumpDisks } from "../clump_detect.ts";
import type { ContactBuffers } from "../../contact/record.ts";

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
