/**
 * The sphere3d checkpoint format's names: magic, version, the save options and the decoded
 * state ({@link GranularState}) that capture, encode, decode, check and table import share.
 * Kept apart from the encoder and the decoder so that neither imports the other.
 *
 * @module
 */
import type { ResumeState } from "./core.ts";
import type { Material } from "./material.ts";

/** Magic of sphere3d checkpoints (the first 8 bytes of the file). */
export const SPHERE3D_CHECKPOINT_MAGIC = "GRAINS3D";
/** The sphere3d checkpoint format version this code writes and the newest it reads. */
export const SPHERE3D_CHECKPOINT_VERSION = 1;

export { SAVE_STATE_KEYS as SAVE_KEYS, type SaveStateOptions } from "../math/checkpoint_io.ts";

/** The decoded (or captured) state of a granular system: what a checkpoint holds. */
export interface GranularState {
  /** Number of particles. */
  count: number;
  /** The next stable id. */
  nextId: number;
  /** Simulated time of the system (s). */
  time: number;
  /** Steps taken by the system. */
  stepCount: number;
  /** Neighbour skin setting (m), -1 for "auto". */
  skin: number;
  /** Slots are reordered into cell order at neighbour rebuilds. */
  sort: boolean;
  /** Centres (m), stride 3. */
  pos: Float64Array;
  /** Velocities (m/s), stride 3. */
  vel: Float64Array;
  /** Angular velocities (rad/s), stride 3. */
  ang: Float64Array;
  /** Radii (m). */
  radius: Float64Array;
  /** Stable ids. */
  id: Uint32Array;
  /** Material ids. */
  materialId: Uint16Array;
  /** Fixed flags (0/1). */
  fixed: Uint8Array;
  /** External forces (N) and torques (N·m), stride 3, or null when all zero. */
  external: { force: Float64Array; torque: Float64Array } | null;
  /** The global material. */
  material: Material;
  /** Boundary friction material. */
  boundary: { friction: number; rollingFriction: number };
  /** Sliding friction per material id (length = the number of ids in use). */
  friction: Float64Array;
  /** Rolling friction per material id. */
  rolling: Float64Array;
  /** Tangential histories, or null when not stored. */
  history: {
    slots: number;
    owner: Uint32Array;
    partner: Uint32Array;
    xi: Float64Array;
  } | null;
  /**
   * The step's caches and the settings they belong to, or null (a table import): the forces of
   * the saved state, the neighbour list's reference positions, and the rolling torques the
   * last evaluation left unconsumed (particle slots and stride-3 values; `applyRolling` leaves
   * a torque whose square underflows to zero for the next evaluation).
   */
  cache:
    | (Omit<ResumeState, "forces"> & {
      forces: { force: Float64Array; torque: Float64Array } | null;
      roll: { index: Uint32Array; value: Float64Array };
    })
    | null;
}
