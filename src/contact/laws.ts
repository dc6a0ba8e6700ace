/**
 * The contact laws as one toolbox: the pure scalar functions every simulator's contact loops
 * are generated from (`src/contact/law3d_source.ts`), for computing a contact by hand, choosing
 * a damping for a target restitution, or checking a simulation against the law it runs. The
 * root entry exports this module as the namespace `laws`.
 *
 * - normal force: {@link normalForce} (the one law every loop runs), {@link linearNormalForce},
 *   {@link hertzNormalForce}, {@link contactDamping} with the codes of {@link DampingLaw};
 * - restitution and damping: {@link dampingRatio}, {@link linearRestitution},
 *   {@link linearDampingRatio}, {@link hertzRestitution}, {@link restitutionDamping},
 *   {@link linearContactDuration};
 * - geometry and mixing: {@link effectiveRadius}, {@link mixGeometric};
 * - rolling resistance and cohesion: {@link rollingTorque}, {@link cohesionForce}.
 *
 * @example
 * ```ts
 * import { laws } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * // the damping ratio of a linear contact with restitution 0.5, and back
 * const zeta = laws.linearDampingRatio(0.5);
 * expect(laws.linearRestitution(zeta)).toBeCloseTo(0.5, 10);
 * ```
 *
 * @module
 */
export {
  contactDamping,
  DampingLaw,
  dampingRatio,
  effectiveRadius,
  hertzNormalForce,
  hertzRestitution,
  linearContactDuration,
  linearDampingRatio,
  linearNormalForce,
  linearRestitution,
  normalForce,
  restitutionDamping,
  type RestitutionOptions,
} from "./normal.ts";
export { rollingTorque } from "./rolling.ts";
export { cohesionForce } from "./cohesion.ts";
export { mixGeometric } from "./mixing.ts";
