/**
 * Rolling resistance: a torque of magnitude μr·fn·r that opposes the relative rolling angular
 * velocity of a contact, regularised so that it can stop the rolling but never reverse it
 * within one step. `rollingTorque` and `rollingScale` are generated (`law3d_gen.ts`) from the
 * single source of the 3D laws, src/contact/law3d_source.ts.
 *
 * @module
 */
export { rollingScale, rollingTorque } from "./law3d_gen.ts";
