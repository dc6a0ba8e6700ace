/**
 * Insertion and removal of grains for `GranularSystem`: the all-or-nothing growth of
 * the particle columns with the contact-history table, the validation of `addParticle`,
 * `emitBox` and `emitBoxRandom`, and removal by index, height or box. The class keeps the
 * documented methods; they call these functions with their core. Internal: not re-exported.
 *
 * @module
 */

import type { GranularCore } from "./core.ts";
import {
  bool,
  corners,
  finite,
  integerIn,
  options as checkOptions,
  positive,
  sizeGuard,
  vec3,
} from "../math/validate.ts";
import { guardPacking, jitteredPacking, regularPacking } from "./emit.ts";
import type { EmitBoxOptions, EmitBoxRandomOptions, ParticleOptions, Vec3 } from "./options.ts";
import {
  BYTES_PER_PARTICLE,
  EMIT_BOX_KEYS,
  EMIT_BOX_RANDOM_KEYS,
  MAX_MATERIAL_ID,
  MAX_PARTICLES,
  PARTICLE_KEYS,
} from "./options.ts";

/**
 * Grow the particle columns and the contact-history table together to hold `n` particles,
 * all or nothing: check the memory it would need, allocate every new array, then swap them
 * all in. A failure leaves the system as it was. `where` names the caller in errors.
 * @internal
 */
export function reserveParticles(c: GranularCore, where: string, n: number): void {
  const ps = c.ps, hist = c.hist;
  if (n <= ps.capacity && hist.capacity >= ps.capacity) return;
  if (n > MAX_PARTICLES) {
    throw new RangeError(
      `${where}: ${n} particles would exceed the most one system holds (${MAX_PARTICLES})`,
    );
  }
  const cap = ps.capacityFor(n);
  sizeGuard(where, `room for ${n} particles (capacity ${cap})`, cap * BYTES_PER_PARTICLE);
  const growColumns = ps.prepare(cap);
  const growHistory = hist.prepare(cap);
  growColumns?.();
  growHistory?.();
}

/**
 * `GranularSystem.addParticle`: validate one particle's options, make room, append it and
 * return its local index.
 * @internal
 */
export function addParticle(c: GranularCore, options: ParticleOptions): number {
  const w = "addParticle";
  checkOptions(w, "options", options, PARTICLE_KEYS);
  if (options === undefined) {
    throw new TypeError(`${w}: options (undefined) must be an options object`);
  }
  const p = vec3(w, "position", options.position);
  const r = positive(w, "radius", options.radius);
  const v = options.velocity === undefined ? [0, 0, 0] : vec3(w, "velocity", options.velocity);
  const a = options.angularVelocity === undefined
    ? [0, 0, 0]
    : vec3(w, "angularVelocity", options.angularVelocity);
  const mid = integerIn(w, "materialId", options.materialId ?? 0, 0, MAX_MATERIAL_ID);
  const fx = bool(w, "fixed", options.fixed, false);
  reserveParticles(c, w, c.ps.count + 1);
  return c.append(p[0], p[1], p[2], r, v, a, mid, fx);
}

/** `GranularSystem.emitBox`: a regular grid of equal spheres; returns the number emitted. @internal */
export function emitBox(c: GranularCore, options: EmitBoxOptions): number {
  const w = "emitBox";
  const e = c.emitCommon(w, emitOptions(w, options, EMIT_BOX_KEYS));
  const r = positive(w, "radius", options.radius);
  if (e.max === 0) return 0;
  const n = guardPacking(w, e.lo, e.hi, r, e.spacing, e.max);
  reserveParticles(c, w, c.ps.count + n);
  const centres = regularPacking(e.lo, e.hi, r, e.spacing, e.max);
  return c.emit(centres, r, e);
}

/**
 * `GranularSystem.emitBoxRandom`: a seeded jittered grid with radii in
 * `[minRadius, maxRadius]`; returns the number emitted.
 * @internal
 */
export function emitBoxRandom(c: GranularCore, options: EmitBoxRandomOptions): number {
  const w = "emitBoxRandom";
  const e = c.emitCommon(w, emitOptions(w, options, EMIT_BOX_RANDOM_KEYS));
  const r0 = positive(w, "minRadius", options.minRadius);
  const r1 = positive(w, "maxRadius", options.maxRadius);
  if (r1 < r0) throw new RangeError(`${w}: maxRadius (${r1}) must be >= minRadius (${r0})`);
  if (e.spacing < 2 * r1) {
    throw new RangeError(
      `Cannot emit particles: spacing (${e.spacing}) must be >= 2 * maxRadius (${2 * r1})`,
    );
  }
  const seed = options.seed;
  if (typeof seed !== "bigint") finite(w, "seed", seed);
  if (e.max === 0) return 0;
  const n = guardPacking(w, e.lo, e.hi, r1, e.spacing, e.max);
  reserveParticles(c, w, c.ps.count + n);
  const { positions, radii } = jitteredPacking(e.lo, e.hi, r0, r1, e.spacing, e.max, seed);
  return c.emit(positions, radii, e);
}

/** Check an emitter's options object (required; unknown keys throw). */
function emitOptions<T extends object>(where: string, options: T, keys: readonly string[]): T {
  if (options === undefined) {
    throw new TypeError(`${where}: options (undefined) must be an options object`);
  }
  return checkOptions<T>(where, "options", options, keys);
}

/**
 * `GranularSystem.removeParticle`: remove particle `index` (the last one moves into it) and
 * drop the contact histories with it as partner.
 * @internal
 */
export function removeParticle(c: GranularCore, index: number): void {
  c.index("removeParticle", index);
  const dead = c.ps.id[index];
  c.removeSlot(index);
  c.hist.dropPartners(c.ps.count, (id) => id === dead);
}

/** `GranularSystem.removeParticlesBelowZ`: remove centres below `z`; returns how many. @internal */
export function removeParticlesBelowZ(c: GranularCore, z: number): number {
  finite("removeParticlesBelowZ", "z", z);
  const pos = c.ps.pos;
  return c.removeWhere((i) => pos[3 * i + 2] < z);
}

/**
 * `GranularSystem.removeParticlesInBox`: remove centres in the closed box `[min, max]`;
 * returns how many.
 * @internal
 */
export function removeParticlesInBox(c: GranularCore, min: Vec3, max: Vec3): number {
  const [lo, hi] = corners("removeParticlesInBox", min, max);
  const pos = c.ps.pos;
  return c.removeWhere((i) => {
    const o = 3 * i;
    return pos[o] >= lo[0] && pos[o] <= hi[0] && pos[o + 1] >= lo[1] && pos[o + 1] <= hi[1] &&
      pos[o + 2] >= lo[2] && pos[o + 2] <= hi[2];
  });
}
