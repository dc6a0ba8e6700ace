/**
 * The options and per-grain input of the 2D systems: the contact and integration parameters
 * every system accepts (`GrainSystemOptions`), the initial state of `addGrains`
 * (`GrainInit`) and the validation of per-grain input (points, per-grain values) that
 * `GrainSystem2._append` and the clump builders use. Re-exported from `body.ts`.
 *
 * @module
 */

import { finite } from "../math/validate.ts";

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
 * One value per grain from a number (for all) or an array of length n; all finite.
 * @internal
 */
export function perGrain(
  name: string,
  what: string,
  v: number | ArrayLike<number> | undefined,
  n: number,
): Float64Array {
  const out = new Float64Array(n);
  if (v === undefined) return out;
  if (typeof v === "number") return out.fill(finite(name, what, v));
  if (v === null || typeof v !== "object" || typeof v.length !== "number") {
    throw new TypeError(`${name}: ${what} (${String(v)}) must be a number or an array`);
  }
  if (v.length !== n) {
    throw new RangeError(`${name}: ${what}.length (${v.length}) must equal the grain count ${n}`);
  }
  for (let k = 0; k < n; k++) out[k] = finite(name, `${what}[${k}]`, v[k]);
  return out;
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
