/**
 * `sphere3d` — 3D spherical grains: a discrete-element granular system with linear or Hertz
 * normal contact, tangential history friction, rolling friction, cohesion, ground plane,
 * container box, periodic boundaries, emission and removal, stepped deterministically.
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-3, gravity: [0, 0, -9.81] });
 * const sand = world.addGranularBox(
 *   { min: [-0.1, -0.1, 0], max: [0.1, 0.1, 0.1], radius: 0.02, spacing: 0.043, maxParticles: 20 },
 *   { normalStiffness: 5e4, normalDamping: 25, friction: 0.8, substeps: 2 },
 * );
 * sand.setGroundPlane(0);
 * world.run(20);
 * // 16 grains sit on the ground, 4 fall towards them (they land after 25 ms)
 * expect(sand.count).toBe(20);
 * expect(sand.lastStepStats.boundaryContacts).toBe(16);
 * expect(sand.lastStepStats.particleContacts).toBe(0);
 * // each grain on the ground is pressed in by its weight: δ = m·g/kn ≈ 1.05e-5 m
 * expect(sand.lastStepStats.maxPenetration).toBeCloseTo((sand.masses[0] * 9.81) / 5e4, 6);
 * ```
 *
 * @module
 */
export { World } from "./world.ts";
export type { GranularBoxOptions, ParticleSet, WorldOptions } from "./world.ts";
export type { ProgressOptions, RunOptions } from "../math/progress.ts";
export { GranularSystem } from "./granular_system.ts";
export type { ParticleTableLike, SaveStateOptions } from "./checkpoint.ts";
export type { HistoryColumns } from "./history.ts";
export { jitteredPacking } from "./emit.ts";
export type {
  EmitBoxOptions,
  EmitBoxRandomOptions,
  EmitCommon,
  Energies,
  ParticleOptions,
  PeriodicAxes,
  Vec3,
} from "./options.ts";
export type { Material, ParticleMaterial } from "./material.ts";
export type { StepStats } from "./stats.ts";
export type { ProfileTotals, StepProfile, StepStatsCore } from "../contact/stats.ts";
export type { ContactRecord } from "../contact/record.ts";
export { RigidBody } from "./bodies/body.ts";
export type { BodyShape } from "./bodies/body.ts";
export type { RigidBodyType } from "./bodies/body_set.ts";
export { ArticulatedSystem } from "./bodies/articulated.ts";
export type { ArticulatedOptions } from "./bodies/articulated.ts";
export type {
  BodyOptions,
  BoxBodyOptions,
  CapsuleOptions,
  CompoundChild,
  CompoundOptions,
  HeightMapBodyOptions,
  MeshOptions,
  SphereOptions,
} from "./bodies/options.ts";
export type { PoolSleepOptions } from "./bodies/sleep.ts";
// Resistive-force theory (World.addRftGround): the Fourier model (with its generic
// coefficients, RftFourier.GENERIC), tables (RftTable.fromFourier), the fit and the ground.
export { rftElementForce, RftFourier } from "./rft/model.ts";
export type { RftCoefficients, RftElement, RftStressModel } from "./rft/model.ts";
export { RftTable } from "./rft/table.ts";
export type { RftFourierTableOptions, RftSource, RftTableSpec } from "./rft/table.ts";
export { fitRft } from "./rft/fit.ts";
export type { RftFit, RftSamples } from "./rft/fit.ts";
export { RftGround } from "./rft/ground.ts";
export type { RftElementForces, RftGroundOptions } from "./rft/ground.ts";
export { RftHeightMap } from "./rft/surface.ts";
export type { RftDeformOptions } from "./rft/surface.ts";
