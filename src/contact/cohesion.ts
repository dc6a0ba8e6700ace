/**
 * Short-range cohesion: an attraction that acts while the surface gap is small.
 * `cohesionForce` is generated (`law3d_gen.ts`) from the single source of the 3D laws,
 * src/contact/law3d_source.ts.
 *
 * @module
 */
export { cohesionForce } from "./law3d_gen.ts";
