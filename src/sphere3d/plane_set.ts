/**
 * Planar boundaries of a granular system (the ground plane and the faces of the open-top
 * container) in typed-array form, with the candidate grains of each plane and their springs.
 *
 * @module
 */

/** Planar boundaries in typed-array form (built when boundaries change). */
export class PlaneSet {
  /** Number of planes. */
  count = 0;
  /** Axis of each plane's normal (0, 1, 2). */
  axis: Uint8Array = new Uint8Array(8);
  /** +1 when the domain is above the plane along its axis, -1 when below. */
  sign: Float64Array = new Float64Array(8);
  /** Plane offset along its axis (m). */
  offset: Float64Array = new Float64Array(8);
  /** Boundary index used for history partner ids. */
  index: Uint8Array = new Uint8Array(8);
  /** Contact kind recorded. */
  kind: Uint8Array = new Uint8Array(8);

  /**
   * Grains that may touch each plane before the next neighbour rebuild: those of plane q are
   * `candidates[candidateStart[q] .. candidateStart[q + 1]]`, in slot order.
   */
  candidates: Int32Array = new Int32Array(64);
  /** Start of each plane's candidates (planes + 1 entries). */
  candidateStart: Int32Array = new Int32Array(9);
  /**
   * Tangential spring ξ (m) of candidate k against its plane at 3k..3k+2, zero when it has
   * none (see `plane_history.ts`).
   */
  xi: Float64Array = new Float64Array(3 * 64);
  /** 1 when candidate k touched its plane at the last force evaluation (its spring is live). */
  on: Uint8Array = new Uint8Array(64);
  /**
   * The spring columns describe the current candidates; false until a rebuild fills them, and
   * after a removal, a load or a change of the planes, when the table alone holds the springs.
   */
  live = false;

  /** Remove every plane (flush the springs into the table first to keep them). */
  clear(): void {
    this.count = 0;
    this.candidateStart.fill(0);
    this.live = false;
  }

  /** Add one plane. */
  add(axis: number, sign: number, offset: number, index: number, kind: number): void {
    const k = this.count++;
    this.axis[k] = axis;
    this.sign[k] = sign;
    this.offset[k] = offset;
    this.index[k] = index;
    this.kind[k] = kind;
  }
}

/**
 * The first index in [i0, i1) of the ascending `a` whose value is ≥ `v` (i1 if none): where the
 * candidates of a plane reach slot `v`.
 *
 * @example
 * ```ts
 * import { candidateBound } from "./plane_set.ts";
 * import { expect } from "expect";
 * const a = Int32Array.of(2, 5, 5, 9);
 * expect([candidateBound(a, 0, 4, 5), candidateBound(a, 0, 4, 10)]).toEqual([1, 4]);
 * ```
 */
export function candidateBound(a: Int32Array, i0: number, i1: number, v: number): number {
  while (i0 < i1) {
    const m = (i0 + i1) >>> 1;
    if (a[m] < v) i0 = m + 1;
    else i1 = m;
  }
  return i0;
}
