/**
 * Tangential friction with a persistent history spring (Cundall–Strack): the accumulated
 * tangential displacement ξ of a contact is rotated onto the current tangent plane, advanced
 * by the relative tangential velocity, turned into a spring–dashpot force and capped by the
 * Coulomb limit μ·fn; when the cap is active the spring is rescaled so that it holds exactly
 * the sliding force.
 *
 * `tangentialSpring3` and the 2D `tangentialHistory1` are generated (`law3d_gen.ts`) from the
 * single source of the contact laws, src/contact/law3d_source.ts, as are the hot loops that
 * apply them.
 *
 * @module
 */
import { tangentialSpring3 } from "./law3d_gen.ts";

export { tangentialHistory1, tangentialSpring3 } from "./law3d_gen.ts";

/**
 * Layout of the `io` array of `tangentialSpring3`: the unit normal at 0–2, the relative
 * tangential velocity at 3–5, then dt, kt, ct and μ·fn.
 */
export const SPRING_IO = {
  /** Unit normal, x (y, z follow). */
  normal: 0,
  /** Relative tangential velocity, x (y, z follow). */
  velocity: 3,
  /** Time step (s). */
  dt: 6,
  /** Tangential stiffness (N/m). */
  kt: 7,
  /** Tangential damping (N·s/m). */
  ct: 8,
  /** Coulomb limit μ·fn (N). */
  muFn: 9,
} as const;

const IO = new Float64Array(10);

/**
 * One step of the 3D tangential history spring (the same law as {@link tangentialSpring3},
 * with scalar arguments). Updates ξ in `state[s..s+2]` and writes the tangential force on the
 * first body into `out[0..2]`.
 *
 * @param state history storage; ξ (m) at `s`, `s+1`, `s+2`
 * @param nx unit contact normal, x (the y and z components follow)
 * @param vtx relative tangential velocity of the first body with respect to the second (m/s)
 * @param dt time step (s)
 * @param kt tangential spring stiffness (N/m)
 * @param ct tangential damping (N·s/m)
 * @param muFn Coulomb limit μ·fn (N)
 * @param out receives the force (N) at `out[0..2]`
 * @returns 1 when the contact slides (Coulomb cap active), else 0
 * @example
 * ```ts
 * import { tangentialHistory3 } from "./tangential.ts";
 * import { expect } from "expect";
 * const xi = new Float64Array(3), f = new Float64Array(3);
 * // Sticking: the spring force opposes the accumulated displacement.
 * tangentialHistory3(xi, 0, 0, 0, 1, 1, 0, 0, 1e-3, 1000, 0, 10, f);
 * expect(f[0]).toBeCloseTo(-1, 12);
 * expect(xi[0]).toBe(1e-3);
 * ```
 */
export function tangentialHistory3(
  state: Float64Array,
  s: number,
  nx: number,
  ny: number,
  nz: number,
  vtx: number,
  vty: number,
  vtz: number,
  dt: number,
  kt: number,
  ct: number,
  muFn: number,
  out: Float64Array,
): number {
  IO[0] = nx, IO[1] = ny, IO[2] = nz, IO[3] = vtx, IO[4] = vty, IO[5] = vtz;
  IO[6] = dt, IO[7] = kt, IO[8] = ct, IO[9] = muFn;
  return tangentialSpring3(state, s, IO, out);
}
