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
export type { BoxOptions, ParticleSet, RunOptions, WorldOptions } from "./world.ts";
export { GranularSystem } from "./granular_system.ts";
export { SPHERE3D_CHECKPOINT_MAGIC, SPHERE3D_CHECKPOINT_VERSION } from "./checkpoint.ts";
export type { ParticleTableLike, SaveGranularStateOptions } from "./checkpoint.ts";
export type {
  BodyType,
  EmitBoxOptions,
  EmitBoxRandomOptions,
  EmitCommon,
  Energies,
  ParticleOptions,
  PeriodicAxes,
  Vec3,
} from "./options.ts";
export { DEFAULT_MATERIAL, resolveMaterial, resolveParticleMaterial } from "./material.ts";
export type {
  ContactLever,
  DampingMode,
  Material,
  NormalContactModel,
  ParticleMaterial,
} from "./material.ts";
export { emptyStats } from "./stats.ts";
export type { StepStats } from "./stats.ts";
export {
  CONTACT_KIND_NAMES,
  ContactKind,
  type ContactKindName,
  ContactRecord,
} from "../contact/record.ts";
export type { ProgressOptions, RunOptions as RunLoopOptions } from "../math/progress.ts";
export type { ProfileTotals, StepProfile, StepStatsCore } from "../contact/stats.ts";
export type { HistoryColumns } from "./history.ts";
export { jitteredPacking, regularPacking } from "./emit.ts";
export { MAX_WORLD_XML_BYTES, WORLD_XML_VERSION, worldToXml } from "./xml.ts";
export { worldFromXml } from "./world_xml.ts";
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
  HeightMapOptions,
  MeshOptions,
  Quat,
  SphereOptions,
} from "./bodies/options.ts";
export {
  quatConjugate,
  quatConjugateInto,
  quatFromAxisAngle,
  quatFromMatrix,
  quatMultiply,
  quatMultiplyInto,
  quatNormalize,
  quatNormalizeInto,
  quatRotate,
  quatRotateInto,
  quatRotateInverse,
  quatRotateInverseInto,
  quatToMatrix,
  quatToMatrixInto,
  rpyToQuaternion,
} from "./bodies/quat.ts";
export type { Matrix3, Quaternion, Vector3, WritableNumbers } from "./bodies/quat.ts";
export { principalInertia, rotateInertia } from "./bodies/inertia.ts";
export type { InertiaTensor, PrincipalInertia } from "./bodies/inertia.ts";
export type { PoolSleepOptions } from "./bodies/sleep.ts";
export {
  boxClosest,
  boxHalfExtents,
  boxMassProperties,
  capsuleClosest,
  capsuleHalfExtents,
  capsuleMassProperties,
  CLOSEST,
  cylinderClosest,
  cylinderHalfExtents,
  cylinderMassProperties,
  sphereClosest,
  sphereHalfExtents,
  sphereMassProperties,
} from "./bodies/shapes.ts";
export type { ClosestLayout, HalfExtents, PrimitiveMass } from "./bodies/shapes.ts";
export { TriangleMesh } from "./bodies/mesh.ts";
export type { MeshCounters, MeshMassProperties, TriangleMeshOptions } from "./bodies/mesh.ts";
export { HeightMap } from "./bodies/heightmap.ts";
export type { HeightMapCreateOptions, HeightMapData } from "./bodies/heightmap.ts";
export { parseObj, parseStl, readMeshFile } from "./bodies/mesh_io.ts";
export type { MeshData } from "./bodies/mesh_io.ts";
export * from "./rft/mod.ts";
