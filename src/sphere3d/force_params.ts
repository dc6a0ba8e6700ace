/**
 * The scalars, friction tables and scratch of the force loops of a granular system (pair
 * loops, plane sweeps, grain–body contacts), resolved once per evaluation.
 *
 * @module
 */

/**
 * Slots of the force scalars in a {@link ForceParams} array. Booleans are 0 or 1. The slots
 * from `FP.size` on belong to the threaded step's job scalars (`P` of `threads/kernels.ts`):
 * one layout, filled by the main thread once per force evaluation and read by every thread
 * from the same shared memory.
 *
 * @example
 * ```ts
 * import { emptyForceParams, FP } from "./force_params.ts";
 * import { expect } from "expect";
 * const p = emptyForceParams();
 * p[FP.kn] = 1e5;
 * expect(p[FP.kn]).toBe(1e5);
 * expect(p[FP.clamp]).toBe(1); // the normal force is clamped at zero by default
 * ```
 */
export const FP = {
  /** Normal stiffness. */
  kn: 0,
  /** Normal damping coefficient of the damping law `damping` (N·s/m, 1/s or a restitution factor). */
  cn: 1,
  /** The normal damping law, a `DampingLaw` code of `src/contact/normal.ts` (0 = constant cn). */
  damping: 2,
  /** 1: tangential damping scales with m_eff (`dampingMode: "mass-scaled"`). */
  ctScaled: 3,
  /** 1: the normal force is clamped at zero. */
  clamp: 4,
  /** Lever arm r − lever·δ of the tangential force: 0.5 (overlap centre) or 0 (radius). */
  lever: 5,
  /** Tangential stiffness (resolved, never 0 unless kn is 0). */
  kt: 6,
  /** Tangential damping. */
  ct: 7,
  /** 1: Hertz law, 0: linear. */
  hertz: 8,
  /** Cohesion stiffness. */
  kc: 9,
  /** Cohesion range. */
  dmax: 10,
  /** Substep (s). */
  dt: 11,
  /** Time increment added to the tangential springs (dt, or 0 for a re-evaluation). */
  histDt: 12,
  /** Step stamp for the history table. */
  stamp: 13,
  /** Periodic length x (0 = open). */
  px: 14,
  /** Periodic length y. */
  py: 15,
  /** Periodic length z. */
  pz: 16,
  /**
   * 1: write the particle pairs' contacts to the record (0 on the steps of a run nobody
   * reads: the forces, springs and statistics are the same either way).
   */
  record: 17,
  /**
   * The sliding friction every material id in use shares (so that the pair loop reads no
   * material ids), or −1 when they differ.
   */
  mu: 18,
  /** 1: some material id in use has rolling friction (the pair loop's rolling branch). */
  rolling: 19,
  /** The number of force slots (the threads' job slots follow). */
  size: 20,
} as const;

/** Length of a {@link ForceParams} array: the force slots, then room for the job slots. */
export const PARAMS_LENGTH = 48;

/**
 * The scalars of the force loops, resolved once per evaluation: a `Float64Array` of
 * {@link PARAMS_LENGTH} slots named by {@link FP}, on shared memory (the worker threads read it
 * as it is).
 */
export type ForceParams = Float64Array;

/**
 * Force-loop scalars before the first evaluation resolves them (on a SharedArrayBuffer).
 *
 * @example
 * ```ts
 * import { emptyForceParams, FP } from "./force_params.ts";
 * import { expect } from "expect";
 * const p = emptyForceParams();
 * expect([p[FP.lever], p[FP.mu], p[FP.rolling], p[FP.record]]).toEqual([0.5, -1, 1, 1]);
 * ```
 */
export function emptyForceParams(): ForceParams {
  const p = new Float64Array(new SharedArrayBuffer(8 * PARAMS_LENGTH));
  p[FP.clamp] = 1, p[FP.lever] = 0.5, p[FP.record] = 1, p[FP.mu] = -1, p[FP.rolling] = 1;
  return p;
}

/** Per-material-id friction tables (index = material id). */
export interface FrictionTables {
  /** Sliding friction per id. */
  friction: Float64Array;
  /** Rolling friction per id. */
  rolling: Float64Array;
}

/**
 * The scratch of the force loops, owned by one system's step (no module-level state): spring
 * inputs, one contact record, the tangential force of the current contact and the grains
 * touching the current plane.
 */
export class ForceScratch {
  /** Tangential spring inputs (layout SPRING_IO of `src/contact/tangential.ts`). */
  readonly io: Float64Array = new Float64Array(10);
  /** One contact: point 0–2, normal 3–5, overlap 6, normal force 7, tangential force 8–10. */
  readonly rec: Float64Array = new Float64Array(11);
  /** Tangential force of the current contact (N). */
  readonly ft: Float64Array = new Float64Array(3);
  /** A zero spring for contacts that found no history entry. */
  readonly spare: Float64Array = new Float64Array(3);
  /** Slots of the grains touching the current plane (grown between steps only). */
  touching: Int32Array = new Int32Array(1024);
}

/** The names of the force slots ({@link FP} without `size`). */
export type ForceParamName = Exclude<keyof typeof FP, "size">;

/**
 * Set the slots named in `values` (booleans as 1 or 0) and return `p`: for tests and examples
 * (it walks an object; the step fills the slots directly).
 *
 * @example
 * ```ts
 * import { emptyForceParams, FP, setForceParams } from "./force_params.ts";
 * import { expect } from "expect";
 * const p = setForceParams(emptyForceParams(), { kn: 1e5, hertz: true, rolling: false });
 * expect([p[FP.kn], p[FP.hertz], p[FP.rolling]]).toEqual([1e5, 1, 0]);
 * ```
 */
export function setForceParams(
  p: ForceParams,
  values: Partial<Record<ForceParamName, number | boolean>>,
): ForceParams {
  for (const [k, v] of Object.entries(values)) {
    if (v !== undefined) p[FP[k as ForceParamName]] = +v;
  }
  return p;
}
