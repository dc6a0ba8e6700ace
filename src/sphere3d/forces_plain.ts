/**
 * The plain contact law — linear spring, constant normal damping, no cohesion, an open box, one
 * sliding friction for every material in use and no rolling friction: LAMMPS's
 * `gran/hooke/history`, the law most granular beds are run with. Its pair loop
 * (`pairForcesPlain`, generated in `pair_loops_gen.ts`) gives the bits of the general loop
 * (tests/sphere3d_plain_pairs_test.ts) with the branches and the loads of the other laws gone.
 * `pairForces` picks it when {@link plainLaw} holds.
 *
 * @module
 */
import { type ForceParams, FP } from "./force_params.ts";

export { pairForcesPlain } from "./pair_loops_gen.ts";

/**
 * Whether the force scalars `p` ask for nothing beyond the plain law: linear, constant normal
 * damping (`damping` 0), no cohesion, no periodic axis, one friction (`mu` ≥ 0), no rolling.
 *
 * @example
 * ```ts
 * import { emptyForceParams, FP } from "./force_params.ts";
 * import { expect } from "expect";
 * const p = emptyForceParams(); // mu −1 (frictions differ) and rolling on until resolved
 * expect(plainLaw(p)).toBe(false);
 * p[FP.mu] = 0.5, p[FP.rolling] = 0;
 * expect(plainLaw(p)).toBe(true);
 * p[FP.hertz] = 1;
 * expect(plainLaw(p)).toBe(false);
 * ```
 */
export function plainLaw(p: ForceParams): boolean {
  return p[FP.hertz] === 0 && p[FP.damping] === 0 && p[FP.kc] === 0 && p[FP.px] === 0 &&
    p[FP.py] === 0 && p[FP.pz] === 0 && p[FP.mu] >= 0 && p[FP.rolling] === 0;
}
