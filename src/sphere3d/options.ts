/**
 * Option and result types of the granular system API.
 *
 * @module
 */

/** A 3-vector given by the user: `[x, y, z]` or any array-like of three numbers. */
export type Vec3 = ArrayLike<number>;

/** Options of {@link GranularSystem.addParticle}. */
export interface ParticleOptions {
  /** Centre in the world frame (m). */
  position: Vec3;
  /** Radius (m), > 0. */
  radius: number;
  /** Initial velocity (m/s). @default [0, 0, 0] */
  velocity?: Vec3;
  /** Initial angular velocity (rad/s). @default [0, 0, 0] */
  angularVelocity?: Vec3;
  /** Material id in [0, 65535]. @default 0 */
  materialId?: number;
  /** Create a fixed (static) particle. @default false */
  fixed?: boolean;
}

/** Options shared by the emitters. */
export interface EmitCommon {
  /** Minimum box corner (m). */
  min: Vec3;
  /** Maximum box corner (m); above `min` on every axis. */
  max: Vec3;
  /** Grid spacing between centres (m), > 0. */
  spacing: number;
  /** Most particles this call emits; 0 emits none. */
  maxParticles: number;
  /** Initial velocity (m/s). @default [0, 0, 0] */
  velocity?: Vec3;
  /** Initial angular velocity (rad/s). @default [0, 0, 0] */
  angularVelocity?: Vec3;
  /** Material id. @default 0 */
  materialId?: number;
  /** Emit fixed particles. @default false */
  fixed?: boolean;
}

/** Options of {@link GranularSystem.emitBox}: a regular grid of equal spheres. */
export interface EmitBoxOptions extends EmitCommon {
  /** Particle radius (m), > 0. */
  radius: number;
}

/** Options of {@link GranularSystem.emitBoxRandom}: a seeded jittered grid. */
export interface EmitBoxRandomOptions extends EmitCommon {
  /** Smallest radius (m), > 0. */
  minRadius: number;
  /** Largest radius (m), ≥ minRadius; spacing must be ≥ 2·maxRadius. */
  maxRadius: number;
  /** Random seed: the same seed and options give the same particles. */
  seed: number | bigint;
}

/** Which axes a periodic boundary wraps. */
export interface PeriodicAxes {
  /** Wrap along x. @default false */
  x?: boolean;
  /** Wrap along y. @default false */
  y?: boolean;
  /** Wrap along z. @default false */
  z?: boolean;
}

/** Energies of a system (J). */
export interface Energies {
  /** Translational kinetic energy Σ ½mv². */
  kinetic: number;
  /** Rotational kinetic energy Σ ½Iω². */
  rotational: number;
  /** Gravitational potential energy −Σ m g·x (zero at the origin). */
  potential: number;
}

/** The largest material id (ids are 16-bit). */
export const MAX_MATERIAL_ID = 65535;

/** Keys of {@link ParticleOptions} (unknown keys are rejected). Internal. */
export const PARTICLE_KEYS: readonly string[] = [
  "position",
  "radius",
  "velocity",
  "angularVelocity",
  "materialId",
  "fixed",
];

/** Keys of {@link EmitCommon}. Internal. */
const EMIT_COMMON_KEYS: readonly string[] = [
  "min",
  "max",
  "spacing",
  "maxParticles",
  "velocity",
  "angularVelocity",
  "materialId",
  "fixed",
];

/** Keys of {@link EmitBoxOptions}. Internal. */
export const EMIT_BOX_KEYS: readonly string[] = [...EMIT_COMMON_KEYS, "radius"];

/** Keys of {@link EmitBoxRandomOptions}. Internal. */
export const EMIT_BOX_RANDOM_KEYS: readonly string[] = [
  ...EMIT_COMMON_KEYS,
  "minRadius",
  "maxRadius",
  "seed",
];

/** Keys of {@link PeriodicAxes}. Internal. */
export const PERIODIC_AXES_KEYS: readonly string[] = ["x", "y", "z"];

/**
 * Bytes one particle slot occupies in a granular system: the particle columns (8 stride-3
 * and 4 scalar Float64Arrays, material id, fixed flag, stable id), its share of the contact
 * history table at the initial 8 entries per particle (partner, stamp, ξ) and the
 * neighbour-list reference positions. Used to state what a request would need.
 */
export const BYTES_PER_PARTICLE = 8 * 3 * 8 + 4 * 8 + 2 + 1 + 4 + (1 + 8 * (4 + 4 + 24)) + 3 * 8 +
  4;

/** The largest number of particles one system may hold (the ids and slots are 32-bit). */
export const MAX_PARTICLES = 2 ** 31 - 1;
