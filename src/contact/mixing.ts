/**
 * Mixing rules for friction coefficients of two different materials. `mixGeometric` is
 * generated (`law3d_gen.ts`) from the single source of the 3D laws,
 * src/contact/law3d_source.ts, as is the mixing written into the hot loops.
 *
 * @module
 */
export { mixGeometric } from "./law3d_gen.ts";
