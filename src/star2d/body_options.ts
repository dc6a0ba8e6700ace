/**
 * The public types of the 2D systems' base: the contact and integration parameters every
 * system accepts (`GrainSystemOptions`), the statistics every step leaves (`StepStats`), the
 * initial state of `addGrains` (`GrainInit`) and the check of point lists (`flatten`) that
 * `GrainSystem2.appendGrains` and the clump builders use. Re-exported from `body.ts`.
 *
 * @module
 */

import { finite } from "../math/validate.ts";
import type { StepStatsCore } from "../contact/stats.ts";

/** Contact and integration parameters common to the 2D systems (SI units). */
export interface GrainSystemOptions {
  /** Time step (s); must stay below the stability bound of stiffness and mass. @default 1e-4 */
  timeStep?: number;
  /** Gravity (m/s²). @default [0, -9.81] */
  gravity?: readonly [number, number];
  /** Normal stiffness kn (N/m). @default 1000 */
  normalStiffness?: number;
  /** Tangential stiffness kt (N/m). @default 500 */
  tangentialStiffness?: number;
  /** Normal damping cn (N·s/m). @default 0.1 */
  normalDamping?: number;
  /** Tangential damping ct (N·s/m). @default 0 */
  tangentialDamping?: number;
  /** Grain–grain friction coefficient μ. @default 0.5 */
  friction?: number;
  /** Rotational damping c_r: a torque −c_r·ω on every grain (N·m·s). @default 0 */
  rotationalDamping?: number;
}

/**
 * Statistics of the last step: the shared core (`step`, `time`, `candidatePairs` — the pairs
 * the grid tested in 3×3 neighbourhoods —, `particleContacts` — distinct grain–grain
 * contacts —, `boundaryContacts` — grain–wall contacts —, `maxPenetration`, `maxSpeed`,
 * `kineticEnergy`, in J per metre of depth) and the star2d counters below. The record is
 * reused (copy it to keep it); stage times are in `lastStepProfile`.
 */
export interface StepStats extends StepStatsCore {
  /** Candidate pairs whose bounding circles intersect. */
  boundingHits: number;
  /** Point-in-grain tests (boundary nodes, or disk pairs for disks and clumps). */
  nodeTests: number;
  /** Grain pairs with at least one contact. */
  pairsInContact: number;
  /** Distinct contacts per pair in contact (contacts / pairsInContact). */
  contactsPerPair: number;
}

/** Per-grain initial state accepted by `addGrains` of every system. */
export interface GrainInit {
  /** Centre-of-mass positions (m), as [x, y] pairs or a flat stride-2 array. */
  positions: ArrayLike<number> | readonly (readonly [number, number])[];
  /** Angles (rad), one per grain or one for all. @default 0 */
  angles?: number | ArrayLike<number>;
  /** Velocities (m/s), flat stride 2. @default 0 */
  velocities?: ArrayLike<number>;
  /** Angular velocities (rad/s). @default 0 */
  angularVelocities?: number | ArrayLike<number>;
  /** Areal density (kg/m²): mass = density · area. @default 3.54 (3 mm of 1180 kg/m³) */
  arealDensity?: number;
}

/**
 * Flatten 2D vectors given as `[x, y]` pairs or a flat stride-2 array; every value finite,
 * every pair of exactly 2 components. @internal
 */
export function flatten(
  name: string,
  p: ArrayLike<number> | readonly (readonly [number, number])[],
  what = "positions",
): Float64Array {
  if (p === null || typeof p !== "object" || typeof p.length !== "number") {
    throw new TypeError(`${name}: ${what} (${String(p)}) must be an array`);
  }
  let out: Float64Array;
  if (p.length > 0 && typeof (p as ArrayLike<unknown>)[0] === "object") {
    const pp = p as readonly (readonly [number, number])[];
    out = new Float64Array(2 * pp.length);
    for (let k = 0; k < pp.length; k++) {
      const q = pp[k];
      if (q === null || typeof q !== "object" || q.length !== 2) {
        throw new RangeError(
          `${name}: ${what}[${k}] (${String(q)}) must be a 2D point [x, y] (2 components)`,
        );
      }
      out[2 * k] = finite(name, `${what}[${k}][0]`, q[0]);
      out[2 * k + 1] = finite(name, `${what}[${k}][1]`, q[1]);
    }
    return out;
  }
  const a = p as ArrayLike<number>;
  if (a.length % 2 !== 0) {
    throw new RangeError(`${name}: ${what}.length (${a.length}) must be even (stride 2)`);
  }
  out = new Float64Array(a.length);
  for (let k = 0; k < a.length; k++) out[k] = finite(name, `${what}[${k}]`, a[k]);
  return out;
}
