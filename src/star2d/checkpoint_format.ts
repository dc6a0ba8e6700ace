/**
 * The star2d checkpoint format's names: magic, version, the save options and the decoded
 * state ({@link GrainState}) shared by the encoder (`checkpoint.ts`) and the decoder
 * (`checkpoint_decode.ts`), so that neither imports the other.
 *
 * @module
 */
import type { StarShape } from "./shape.ts";
import type { ClumpTemplate } from "./clump_template.ts";

/** Magic of star2d checkpoints (the first 8 bytes of the file). */
export const STAR2D_CHECKPOINT_MAGIC = "GRAINS2D";
/** The star2d checkpoint format version this code writes and the newest it reads. */
export const STAR2D_CHECKPOINT_VERSION = 1;

export { SAVE_STATE_KEYS, type SaveStateOptions } from "../math/checkpoint_io.ts";

/** Shape data of a stored star shape (the JSON part; the r table is binary). */
export interface ShapeRecord {
  name: string;
  a0: number;
  cos: number[];
  sin: number[];
  nodes: number;
  lutSize: number;
  rMax: number;
  rMin: number;
  area: number;
  centroidX: number;
  centroidY: number;
  polarMoment: number;
}

/** The decoded (or captured) state of a 2D system. */
export interface GrainState {
  /** Class of the system. */
  kind: string;
  /** Constructor parameters. */
  parameters: Record<string, unknown>;
  /** Number of grains. */
  count: number;
  /** Next stable id. */
  nextId: number;
  /** Simulated time (s). */
  time: number;
  /** Steps taken (`lastStepStats.step`). */
  step: number;
  /** Grid cell size (m). */
  cell: number;
  /** History key tolerance (rad). */
  keyTolerance: number;
  /** Columns. */
  pos: Float64Array;
  /** Velocities, stride 2. */
  vel: Float64Array;
  /** Angles. */
  ang: Float64Array;
  /** Angular velocities. */
  omega: Float64Array;
  /** Masses. */
  mass: Float64Array;
  /** Inertias. */
  inertia: Float64Array;
  /** Bounding radii. */
  rmax: Float64Array;
  /** Stable ids. */
  ids: Uint32Array;
  /** Shape or template ids. */
  shape: Uint16Array;
  /** Star shapes (StarSystem). */
  shapes: StarShape[];
  /** Clump templates (ClumpSystem). */
  templates: ClumpTemplate[];
  /** Walls as columns. */
  walls: {
    count: number;
    kind: Int8Array;
    enabled: Uint8Array;
    friction: Float64Array;
    omega: Float64Array;
    geom: Float64Array;
    base: Float64Array;
    spin: Float64Array;
  };
  /** Recorded springs, or null. */
  history: { a: Int32Array; b: Int32Array; key: Float64Array; xi: Float64Array } | null;
}
