/**
 * Granular systems built from explicit particle sets and from regular box packings: the
 * options of `World.addGranularParticles` and `World.addGranularBox`, their validation and
 * the systems they fill (the world then adopts them).
 *
 * @module
 */
import { GranularSystem } from "./granular_system.ts";
import type { Vec3 } from "./options.ts";
import { type Material, resolveMaterial } from "./material.ts";
import { guardPacking, regularPacking } from "./emit.ts";
import {
  bool,
  corners,
  finite,
  integerIn,
  options as checkOptions,
  positive,
  requiredBool,
  vec3,
} from "../math/validate.ts";

const PARTICLE_SET_KEYS: readonly string[] = [
  "positions",
  "radii",
  "velocities",
  "materialIds",
  "fixed",
];
const BOX_KEYS: readonly string[] = [
  "min",
  "max",
  "radius",
  "spacing",
  "maxParticles",
  "velocity",
  "angularVelocity",
  "materialId",
  "fixed",
];

/** A required options object: `undefined` throws too. */
function required<T extends object>(
  where: string,
  name: string,
  value: T,
  keys: readonly string[],
): T {
  if (value === undefined) {
    throw new TypeError(`${where}: ${name} (undefined) must be an options object`);
  }
  return checkOptions<T>(where, name, value, keys);
}

/** Explicit particles for {@link World.addGranularParticles}. */
export interface ParticleSet {
  /** Centres (m): `[x, y, z][]` or a flat array of length 3n. At least one particle. */
  positions: ArrayLike<ArrayLike<number>> | ArrayLike<number>;
  /** Radii (m): one number for all, or one per particle; > 0. */
  radii: number | ArrayLike<number>;
  /** Initial velocities (m/s), same layout as positions. @default all zero */
  velocities?: ArrayLike<ArrayLike<number>> | ArrayLike<number>;
  /** Material ids, one per particle. @default all 0 */
  materialIds?: ArrayLike<number>;
  /** Fixed flags, one per particle: booleans, or the numbers 0 and 1. @default none fixed */
  fixed?: ArrayLike<boolean | number>;
}

/** Options of {@link World.addGranularBox}: equal spheres on a regular grid in a box. */
export interface GranularBoxOptions {
  /** Minimum corner (m). */
  min: Vec3;
  /** Maximum corner (m), above `min` on every axis. */
  max: Vec3;
  /** Particle radius (m), > 0. */
  radius: number;
  /** Grid spacing between centres (m), > 0 (keep it > 2·radius to start without overlap). */
  spacing: number;
  /** Most particles; 0 means no cap. @default 0 */
  maxParticles?: number;
  /** Initial velocity (m/s). @default [0, 0, 0] */
  velocity?: Vec3;
  /** Initial angular velocity (rad/s). @default [0, 0, 0] */
  angularVelocity?: Vec3;
  /** Material id. @default 0 */
  materialId?: number;
  /** Create fixed particles (a rough bed). @default false */
  fixed?: boolean;
}

/**
 * A new granular system holding `particles` with `material`, validated as
 * `World.addGranularParticles` documents (the world sets its profile and threads).
 *
 * @internal
 */
export function granularFromParticles(
  particles: ParticleSet,
  material: Partial<Material>,
): GranularSystem {
  const w = "addGranularParticles";
  required(w, "particles", particles, PARTICLE_SET_KEYS);
  resolveMaterial(material, w);
  const pos = flatVectors(w, "positions", particles.positions);
  const n = pos.length / 3;
  if (n === 0) throw new RangeError(`${w}: positions (empty) must hold at least one particle`);
  const radii = new Float64Array(n);
  if (typeof particles.radii === "number") {
    radii.fill(positive(w, "radii", particles.radii));
  } else {
    const r = particles.radii;
    if (r === null || typeof r !== "object" || typeof r.length !== "number") {
      throw new TypeError(`${w}: radii (${String(r)}) must be a number or an array`);
    }
    if (r.length !== n) {
      throw new RangeError(`${w}: radii (length ${r.length}) must match positions (${n})`);
    }
    for (let i = 0; i < n; i++) radii[i] = positive(w, `radii[${i}]`, r[i]);
  }
  let vel: Float64Array | null = null;
  if (particles.velocities !== undefined) {
    vel = flatVectors(w, "velocities", particles.velocities);
    if (vel.length !== 3 * n) {
      throw new RangeError(`${w}: velocities (${vel.length / 3}) must match positions (${n})`);
    }
  }
  const mids = optionalColumn(
    w,
    "materialIds",
    particles.materialIds,
    n,
    (v, name) => integerIn(w, name, v, 0, 65535),
  );
  const fixed = optionalColumn(
    w,
    "fixed",
    particles.fixed,
    n,
    (v, name) => v === 0 || v === 1 ? v : requiredBool(w, name, v) ? 1 : 0,
  );
  const sys = new GranularSystem(material);
  sys.reserveParticles(n);
  for (let i = 0; i < n; i++) {
    sys.addParticle({
      position: pos.subarray(3 * i, 3 * i + 3),
      radius: radii[i],
      velocity: vel ? vel.subarray(3 * i, 3 * i + 3) : undefined,
      materialId: mids ? mids[i] : 0,
      fixed: fixed ? fixed[i] === 1 : false,
    });
  }
  return sys;
}

/**
 * A new granular system holding the regular packing of `box` with `material`, validated as
 * `World.addGranularBox` documents (the world sets its profile and threads).
 *
 * @internal
 */
export function granularFromBox(
  box: GranularBoxOptions,
  material: Partial<Material>,
): GranularSystem {
  const w = "addGranularBox";
  required(w, "box", box, BOX_KEYS);
  resolveMaterial(material, w);
  const [lo, hi] = corners(w, box.min, box.max);
  const r = positive(w, "radius", box.radius);
  const s = positive(w, "spacing", box.spacing);
  const cap = integerIn(w, "maxParticles", box.maxParticles ?? 0, 0, 2 ** 31 - 1);
  const v = box.velocity === undefined ? [0, 0, 0] : vec3(w, "velocity", box.velocity);
  const a = box.angularVelocity === undefined
    ? [0, 0, 0]
    : vec3(w, "angularVelocity", box.angularVelocity);
  const mid = integerIn(w, "materialId", box.materialId ?? 0, 0, 65535);
  const fx = bool(w, "fixed", box.fixed, false);
  guardPacking(w, lo, hi, r, s, cap === 0 ? Infinity : cap);
  const centres = regularPacking(lo, hi, r, s, cap === 0 ? Infinity : cap);
  const n = centres.length / 3;
  if (n === 0) {
    throw new RangeError(
      `${w}: the box (${lo} .. ${hi}) holds no sphere of radius ${r}; enlarge it or shrink the radius`,
    );
  }
  const sys = new GranularSystem(material);
  sys.reserveParticles(n);
  for (let i = 0; i < n; i++) {
    sys.addParticle({
      position: centres.subarray(3 * i, 3 * i + 3),
      radius: r,
      velocity: v,
      angularVelocity: a,
      materialId: mid,
      fixed: fx,
    });
  }
  return sys;
}

function flatVectors(w: string, name: string, v: unknown): Float64Array {
  if (v === null || typeof v !== "object" || typeof (v as ArrayLike<unknown>).length !== "number") {
    throw new TypeError(
      `${w}: ${name} (${String(v)}) must be an array of [x, y, z] or a flat array`,
    );
  }
  const a = v as ArrayLike<unknown>;
  if (a.length > 0 && typeof a[0] === "object" && a[0] !== null) {
    const out = new Float64Array(3 * a.length);
    for (let i = 0; i < a.length; i++) out.set(vec3(w, `${name}[${i}]`, a[i]), 3 * i);
    return out;
  }
  if (a.length % 3 !== 0) {
    throw new RangeError(`${w}: ${name} (flat length ${a.length}) must be a multiple of 3`);
  }
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = finite(w, `${name}[${i}]`, a[i]);
  return out;
}

function optionalColumn(
  w: string,
  name: string,
  v: ArrayLike<unknown> | undefined,
  n: number,
  read: (x: never, name: string) => number,
): Int32Array | null {
  if (v === undefined) return null;
  if (v === null || typeof v !== "object" || typeof v.length !== "number") {
    throw new TypeError(`${w}: ${name} (${String(v)}) must be an array`);
  }
  if (v.length !== n) {
    throw new RangeError(`${w}: ${name} (length ${v.length}) must match positions (${n})`);
  }
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) out[i] = read(v[i] as never, `${name}[${i}]`);
  return out;
}
