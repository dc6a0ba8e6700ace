/**
 * Per-particle state and materials of `GranularSystem`: the validated setters of velocity,
 * spin, position, fixed flag and external loads (each invalidates what the step cached), the
 * per-id friction table, and the energies. The class keeps the documented methods and calls
 * these with its core. Internal: not re-exported.
 *
 * @module
 */

import type { GranularCore } from "./core.ts";
import { type ParticleMaterial, resolveParticleMaterial } from "./material.ts";
import { integerIn, requiredBool, vec3 } from "../math/validate.ts";
import type { Energies, Vec3 } from "./options.ts";
import { MAX_MATERIAL_ID } from "./options.ts";

/** `GranularSystem.setVelocity` (m/s); ignored for fixed particles. @internal */
export function setVelocity(c: GranularCore, index: number, velocity: Vec3): void {
  c.index("setVelocity", index);
  const v = vec3("setVelocity", "velocity", velocity);
  if (c.ps.fixed[index]) return;
  c.ps.vel.set(v, 3 * index);
  c.guard.stale = true;
}

/** `GranularSystem.setAngularVelocity` (rad/s); ignored for fixed particles. @internal */
export function setAngularVelocity(c: GranularCore, index: number, angularVelocity: Vec3): void {
  c.index("setAngularVelocity", index);
  const v = vec3("setAngularVelocity", "angularVelocity", angularVelocity);
  if (c.ps.fixed[index]) return;
  c.ps.ang.set(v, 3 * index);
  c.guard.stale = true;
}

/** `GranularSystem.setPosition` (m); wakes a sleeping grain. @internal */
export function setPosition(c: GranularCore, index: number, position: Vec3): void {
  c.index("setPosition", index);
  c.ps.pos.set(vec3("setPosition", "position", position), 3 * index);
  const sl = c.sleep;
  if (sl.asleep[index] === 1) sl.wake(c.ps, index, c.material.density);
  c.invalidate();
}

/** `GranularSystem.setParticleFixed`: fixing zeroes velocities and forces. @internal */
export function setParticleFixed(c: GranularCore, index: number, fixed: boolean): void {
  c.index("setParticleFixed", index);
  const f = requiredBool("setParticleFixed", "fixed", fixed);
  const ps = c.ps;
  ps.fixed[index] = f ? 1 : 0;
  if (f) {
    for (const a of [ps.vel, ps.ang, ps.extForce, ps.extTorque, ps.force, ps.torque]) {
      a.fill(0, 3 * index, 3 * index + 3);
    }
  }
  ps.setMass(index, c.material.density);
  c.invalidate();
}

/** `GranularSystem.setExternalForce` (N); ignored for fixed particles. @internal */
export function setExternalForce(c: GranularCore, index: number, force: Vec3): void {
  c.index("setExternalForce", index);
  const f = vec3("setExternalForce", "force", force);
  if (c.ps.fixed[index]) return;
  c.ps.extForce.set(f, 3 * index);
  c.invalidate();
}

/** `GranularSystem.setExternalTorque` (N·m); ignored for fixed particles. @internal */
export function setExternalTorque(c: GranularCore, index: number, torque: Vec3): void {
  c.index("setExternalTorque", index);
  const t = vec3("setExternalTorque", "torque", torque);
  if (c.ps.fixed[index]) return;
  c.ps.extTorque.set(t, 3 * index);
  c.invalidate();
}

/** `GranularSystem.setParticleMaterial`: the friction parameters of id `id`. @internal */
export function setParticleMaterial(c: GranularCore, id: number, material: ParticleMaterial): void {
  integerIn("setParticleMaterial", "id", id, 0, MAX_MATERIAL_ID);
  const m = resolveParticleMaterial(material, "setParticleMaterial");
  c.ensureTable(id);
  c.tables.friction[id] = m.friction;
  c.tables.rolling[id] = m.rollingFriction;
  c.materialsChanged();
}

/** `GranularSystem.getParticleMaterial`: the global values for ids not in the table. @internal */
export function getParticleMaterial(c: GranularCore, id: number): Required<ParticleMaterial> {
  integerIn("getParticleMaterial", "id", id, 0, MAX_MATERIAL_ID);
  if (id >= c.tableSize) {
    return {
      friction: c.material.friction,
      rollingFriction: c.material.rollingFriction,
    };
  }
  return { friction: c.tables.friction[id], rollingFriction: c.tables.rolling[id] };
}

/** `GranularSystem.setParticleMaterialId`: assign material id `id` to `index`. @internal */
export function setParticleMaterialId(c: GranularCore, index: number, id: number): void {
  c.index("setParticleMaterialId", index);
  integerIn("setParticleMaterialId", "materialId", id, 0, MAX_MATERIAL_ID);
  c.ensureTable(id);
  c.ps.materialId[index] = id;
}

/**
 * `GranularSystem.energy`: kinetic, rotational and gravitational energies (J) of the dynamic
 * grains under the gravity of the last step.
 * @internal
 */
export function energy(c: GranularCore): Energies {
  const ps = c.ps, g = c.gravity;
  let k = 0, r = 0, u = 0;
  for (let i = 0; i < ps.count; i++) {
    if (ps.fixed[i]) continue;
    const o = 3 * i, m = ps.mass[i], rad = ps.radius[i];
    const v = ps.vel, w = ps.ang, x = ps.pos;
    k += 0.5 * m * (v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2]);
    r += 0.2 * m * rad * rad * (w[o] * w[o] + w[o + 1] * w[o + 1] + w[o + 2] * w[o + 2]);
    u -= m * (g[0] * x[o] + g[1] * x[o + 1] + g[2] * x[o + 2]);
  }
  return { kinetic: k, rotational: r, potential: u };
}
