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
import type { ForceParams } from "./force_params.ts";

export { pairForcesPlain } from "./pair_loops_gen.ts";

/**
 * Whether the force scalars `p` ask for nothing beyond the plain law: linear, constant normal
 * damping (`damping` 0), no cohesion, no periodic axis, one friction (`mu` ≥ 0), no rolling.
 *
 * @example
 * ```ts
 * import { emptyForceParams } from "./force_params.ts";
 * import { expect } from "expect";
 * const p = emptyForceParams(); // mu −1 (frictions differ) and rolling on until resolved
 * expect(plainLaw(p)).toBe(false);
 * p.mu = 0.5, p.rolling = false;
 * expect(plainLaw(p)).toBe(true);
 * p.hertz = true;
 * expect(plainLaw(p)).toBe(false);
 * ```
 */
export function plainLaw(p: ForceParams): boolean {
  return !p.hertz && p.damping === 0 && p.kc === 0 && p.px === 0 && p.py === 0 &&
    p.pz === 0 && p.mu >= 0 && !p.rolling;
}
