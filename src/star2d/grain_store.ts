/**
 * The per-grain state of a 2D rigid-grain system (`GrainSystem2`) as a structure of arrays:
 * named typed-array columns of one row per grain slot, grown together by doubling — the
 * counterpart of sphere3d's `ParticleStore`.
 *
 * @module
 */

/** Which per-step columns a store carries besides the grains' own. */
export interface GrainStoreColumns {
  /** `cos` and `sin` of the angles (star grains, clumps). */
  trig?: boolean;
  /** Detection centres, stride 2 (star grains' polar centres). */
  centre?: boolean;
}

/**
 * The columns of a 2D grain system, `capacity` rows each (stride 2 for `pos`, `vel`, `force`
 * and `centre`). A column is replaced when the store grows: read it again from the store after
 * `grow` (hot loops cache the columns in locals at their start). The threads may replace a
 * column by a shared copy of the same values (`StarThreads.adopt`).
 *
 * @example
 * ```ts
 * import { GrainStore } from "./grain_store.ts";
 * import { expect } from "expect";
 * const s = new GrainStore({ trig: true });
 * s.grow(16, 0);
 * s.pos[0] = 1;
 * s.grow(32, 1); // keeps the first row
 * expect(s.capacity).toBe(32);
 * expect(s.pos.length).toBe(64);
 * expect(s.pos[0]).toBe(1);
 * expect(s.cos.length).toBe(32);
 * expect(s.centre.length).toBe(0); // not asked for
 * ```
 */
export class GrainStore {
  /** Rows allocated. */
  capacity = 0;
  /** The next stable id to give (ids are never reused). */
  nextId = 0;
  /** Centres of mass (m), stride 2. */
  pos: Float64Array = new Float64Array(0);
  /** Velocities (m/s), stride 2. */
  vel: Float64Array = new Float64Array(0);
  /** Angles (rad), unwrapped. */
  ang: Float64Array = new Float64Array(0);
  /** Angular velocities (rad/s). */
  omega: Float64Array = new Float64Array(0);
  /** Masses (kg). */
  mass: Float64Array = new Float64Array(0);
  /** Moments of inertia about the centre of mass (kg·m²). */
  inertia: Float64Array = new Float64Array(0);
  /** Bounding radii r_max about the detection centre (m). */
  rmax: Float64Array = new Float64Array(0);
  /** Forces of the step (N), stride 2. */
  force: Float64Array = new Float64Array(0);
  /** Torques of the step (N·m). */
  torque: Float64Array = new Float64Array(0);
  /** Stable ids. */
  ids: Uint32Array = new Uint32Array(0);
  /** Shape (or template) id per grain. */
  shape: Uint16Array = new Uint16Array(0);
  /** cos of the angles (per step; empty unless `trig`). */
  cos: Float64Array = new Float64Array(0);
  /** sin of the angles (per step; empty unless `trig`). */
  sin: Float64Array = new Float64Array(0);
  /** Detection centres, stride 2 (per step; empty unless `centre`). */
  centre: Float64Array = new Float64Array(0);
  readonly #trig: boolean;
  readonly #centre: boolean;

  /** An empty store; `columns` adds the per-step columns of a kind of system. */
  constructor(columns: GrainStoreColumns = {}) {
    this.#trig = columns.trig === true;
    this.#centre = columns.centre === true;
  }

  /**
   * Reallocate every column to `capacity` rows, keeping the first `count` rows of the grains'
   * columns; the per-step columns (`cos`, `sin`, `centre`) start afresh (zeros), being
   * recomputed every step.
   */
  grow(capacity: number, count: number): void {
    const f = (a: Float64Array, s: number) => {
      const b = new Float64Array(capacity * s);
      b.set(a.subarray(0, count * s));
      return b;
    };
    this.pos = f(this.pos, 2);
    this.vel = f(this.vel, 2);
    this.ang = f(this.ang, 1);
    this.omega = f(this.omega, 1);
    this.mass = f(this.mass, 1);
    this.inertia = f(this.inertia, 1);
    this.rmax = f(this.rmax, 1);
    this.force = f(this.force, 2);
    this.torque = f(this.torque, 1);
    const ids = new Uint32Array(capacity);
    ids.set(this.ids.subarray(0, count));
    this.ids = ids;
    const sh = new Uint16Array(capacity);
    sh.set(this.shape.subarray(0, count));
    this.shape = sh;
    if (this.#centre) this.centre = new Float64Array(2 * capacity);
    if (this.#trig) {
      this.cos = new Float64Array(capacity);
      this.sin = new Float64Array(capacity);
    }
    this.capacity = capacity;
  }
}
