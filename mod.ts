/**
 * # Grainlab
 *
 * A Deno-native toolkit for simulating granular media with the discrete-element method,
 * built to be driven from Deno Jupyter notebooks.
 *
 * - `@grainlab/grainlab/sphere3d` — 3D spherical grains (linear/Hertz contact, tangential
 *   history friction, rolling friction, cohesion, boundaries, emission and removal).
 * - `@grainlab/grainlab/star2d` — star-shaped, non-convex 2D grains (StarDEM: nodes-to-surface
 *   contacts, first-order distance, walls and drums, disk and clump baselines, the paper's four
 *   scenes).
 * - `@grainlab/grainlab/ipc1d` — the elastic-bar contact benchmarks: incremental potential
 *   contact (barrier) against penalty and DEM spring–dashpot contact and the exact solutions.
 * - `@grainlab/grainlab/experiments` — classic granular experiments (hopper discharge, Janssen,
 *   angle of repose, Brazil nut, force distribution, restitution against speed), each checked
 *   against its published law.
 *
 * The root module is the headline API: the contact laws (pure functions of scalars: normal
 * force and damping, restitution, tangential history friction, rolling resistance, cohesion),
 * the contact records the simulators fill, seeded random numbers ({@link Rng}), and each
 * simulator's entry as a namespace (`sphere3d.World`, `star2d.StarSystem`,
 * `ipc1d.simulateBar`, `experiments.hopperDischarge`, …). Figures, Arrow tables, notebook
 * display and file formats have entries of their own (`./plot`, `./arrow`, `./notebook`,
 * `./io`), so that importing the simulators never loads them.
 *
 * @example
 * ```ts
 * import { sphere3d } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * const world = new sphere3d.World({ timeStep: 1e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.05]], radii: 0.02 });
 * g.setGroundPlane(0);
 * world.run(100);
 * expect(g.count).toBe(1);
 * ```
 *
 * @module
 */
export { Rng } from "./src/math/rng.ts";
export {
  cohesionForce,
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
  mixGeometric,
  normalForce,
  restitutionDamping,
  type RestitutionOptions,
  rollingScale,
  rollingTorque,
  tangentialHistory1,
  tangentialHistory3,
} from "./src/contact/mod.ts";
export {
  CONTACT_KIND_NAMES,
  ContactKind,
  type ContactKindName,
  ContactRecord,
} from "./src/contact/record.ts";
export * as sphere3d from "./src/sphere3d/mod.ts";
export * as star2d from "./src/star2d/mod.ts";
export * as ipc1d from "./src/ipc1d/mod.ts";
export * as experiments from "./src/experiments/mod.ts";
export { VERSION } from "./src/version.ts";
