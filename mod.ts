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
 * The root module is the headline API: each simulator's main classes and functions
 * ({@link World} and {@link GranularSystem}; {@link StarSystem}, {@link StarShape},
 * {@link ClumpSystem} and {@link DiskSystem}; the bar study {@link simulateBar},
 * {@link compareBar} and {@link convergenceStudy}), the contact laws as one namespace,
 * `laws` (pure functions of scalars: normal force and damping, restitution, rolling
 * resistance, cohesion, mixing — `laws.hertzNormalForce`, `laws.linearDampingRatio`, …), the
 * contact records the simulators fill and seeded random numbers ({@link Rng}). Everything
 * else a simulator offers (option and result types, bodies, walls, scenes, experiments) is in
 * its entry, and figures, Arrow tables, notebook display and file formats have entries of
 * their own (`./plot`, `./arrow`, `./notebook`, `./io`), so that importing the simulators
 * never loads them.
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.05]], radii: 0.02 });
 * g.setGroundPlane(0);
 * world.run(100);
 * expect(g.count).toBe(1);
 * ```
 *
 * @module
 */
export { World } from "./src/sphere3d/world.ts";
export { GranularSystem } from "./src/sphere3d/granular_system.ts";
export { StarSystem } from "./src/star2d/system.ts";
export { StarShape } from "./src/star2d/shape.ts";
export { ClumpSystem, DiskSystem } from "./src/star2d/clump.ts";
export { simulateBar } from "./src/ipc1d/simulate.ts";
export { compareBar, convergenceStudy } from "./src/ipc1d/study.ts";
export { Rng } from "./src/math/rng.ts";
export * as laws from "./src/contact/laws.ts";
export {
  CONTACT_KIND_NAMES,
  ContactKind,
  type ContactKindName,
  ContactRecord,
} from "./src/contact/record.ts";
export { VERSION } from "./src/version.ts";
