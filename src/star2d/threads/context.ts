/**
 * A worker's side of a threaded star2d step (see `pool.ts`, `worker.ts`): its detectors bound
 * to the shared buffers, its row sink and lookup cursor, and the dispatch of the jobs.
 *
 * @module
 */
import { StarDetector } from "../detect.ts";
import { ClumpDetector } from "../clump_detect.ts";
import { findPairRows2, type Grid2View } from "../../math/grid.ts";
import { CURSOR_WORDS, type PreviousSprings } from "../contacts.ts";
import {
  bindClumpDetector,
  bindDetector,
  detectChunks,
  GRID_CUTS,
  Job,
  Kind,
  type PairDetector,
  prepareStars,
  RowSink,
  type StarShared,
} from "./kernel.ts";
import { forceRange, mergeRows, scatterForces, sharedSprings } from "./forces.ts";

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
