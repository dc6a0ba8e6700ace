/**
 * Lifecycle primitives of the granular core (`core.ts`): append a particle, swap-remove slots,
 * emit a batch, grow the friction tables, keep the radius summaries, and validate the options
 * every emitter shares. Inputs reaching these functions are validated already, except the
 * emitter options that {@link emitSettings} checks.
 *
 * @module
 */
import type { CoreState, EmitSettings } from "./core_types.ts";
import { detachPairHistories } from "./core_slots.ts";
import { bool, corners, integerIn, positive, vec3 } from "../math/validate.ts";
import { type EmitCommon, MAX_MATERIAL_ID } from "./options.ts";

/**
 * Append one particle (inputs already validated, room reserved); returns its slot.
 * @internal
 */
export function appendParticle(
  core: CoreState,
  x: number,
  y: number,
  z: number,
  r: number,
  v: ArrayLike<number>,
  a: ArrayLike<number>,
  mid: number,
  fx: boolean,
): number {
  const ps = core.ps, i = ps.count;
  const o = 3 * i;
  ps.pos[o] = x, ps.pos[o + 1] = y, ps.pos[o + 2] = z;
  for (let k = 0; k < 3; k++) {
    ps.vel[o + k] = fx ? 0 : v[k];
    ps.ang[o + k] = fx ? 0 : a[k];
    ps.force[o + k] =
      ps.torque[o + k] =
      ps.extForce[o + k] =
      ps.extTorque[o + k] =
        0;
  }
  ps.radius[i] = r;
  ps.materialId[i] = mid;
  ensureFrictionTable(core, mid);
  ps.fixed[i] = fx ? 1 : 0;
  const id = core.nextId++;
  ps.id[i] = id;
  if (id >= core.slotOfId.length) {
    const s = new Int32Array(Math.max(2 * core.slotOfId.length, id + 1)).fill(-1);
    s.set(core.slotOfId);
    core.slotOfId = s;
  }
  core.slotOfId[id] = i;
  ps.setMass(i, core.material.density);
  core.hist.clearSlot(i);
  ps.count++;
  radiiChanged(core, r, ps.count === 1);
  core.invalidate();
  return i;
}

/**
 * Update the radius summaries after appending a particle of radius `r`.
 * @internal
 */
export function radiiChanged(core: CoreState, r: number, first: boolean): void {
  if (first) {
    core.uniformRadius = r;
    core.maxRadius = r;
    core.minRadius = r;
    return;
  }
  if (r !== core.uniformRadius) core.uniformRadius = 0;
  if (r > core.maxRadius) core.maxRadius = r;
  if (r < core.minRadius) core.minRadius = r;
}

/**
 * Recompute the radius summaries from the columns (after a removal or a load).
 * @internal
 */
export function recomputeRadii(core: CoreState): void {
  const ps = core.ps;
  core.maxRadius = 0;
  core.minRadius = ps.count > 0 ? Infinity : 0;
  core.uniformRadius = ps.count > 0 ? ps.radius[0] : 0;
  for (let i = 0; i < ps.count; i++) {
    const r = ps.radius[i];
    if (r > core.maxRadius) core.maxRadius = r;
    if (r < core.minRadius) core.minRadius = r;
    if (r !== core.uniformRadius) core.uniformRadius = 0;
  }
}

/**
 * Remove slot `i`: the last particle moves into it, its histories follow.
 * @internal
 */
export function removeSlot(core: CoreState, i: number): void {
  if (core.pairHist.live || core.planes.live) detachPairHistories(core, true);
  const ps = core.ps, last = ps.count - 1;
  core.slotOfId[ps.id[i]] = -1;
  if (core.sleep.asleep[i] === 1) core.sleep.wake(ps, i, core.material.density);
  if (i !== last) {
    core.sleep.moveSlot(last, i);
    ps.moveSlot(last, i);
    core.hist.moveSlot(last, i);
    core.slotOfId[ps.id[i]] = i;
  } else core.hist.clearSlot(i);
  ps.count--;
  recomputeRadii(core);
  core.invalidate();
}

/**
 * Remove every particle for which `pred(slot)` holds; returns how many.
 * @internal
 */
export function removeWhere(core: CoreState, pred: (i: number) => boolean): number {
  let removed = 0;
  for (let i = core.ps.count - 1; i >= 0; i--) {
    if (pred(i)) {
      removeSlot(core, i);
      removed++;
    }
  }
  if (removed > 0) {
    const slot = core.slotOfId;
    core.hist.dropPartners(core.ps.count, (id) => slot[id] < 0);
    core.pending.removed += removed;
  }
  return removed;
}

/**
 * Extend the friction tables to material id `id` (new ids get the global material).
 * @internal
 */
export function ensureFrictionTable(core: CoreState, id: number): void {
  if (id < core.tableSize) return;
  const t = core.tables, m = core.material;
  let n = t.friction.length;
  if (id >= n) {
    while (n <= id) n *= 2;
    const f = new Float64Array(n), r = new Float64Array(n);
    f.set(t.friction);
    r.set(t.rolling);
    t.friction = f;
    t.rolling = r;
  }
  for (let k = core.tableSize; k <= id; k++) {
    t.friction[k] = m.friction;
    t.rolling[k] = m.rollingFriction;
  }
  core.tableSize = id + 1;
  core.materialsChanged();
}

/**
 * Append emitted particles (centres stride 3; one radius or one per particle); returns how many.
 * @internal
 */
export function emitParticles(
  core: CoreState,
  centres: Float64Array,
  radii: number | Float64Array,
  c: EmitSettings,
): number {
  const n = centres.length / 3;
  core.reserve(core.ps.count + n);
  for (let k = 0; k < n; k++) {
    const r = typeof radii === "number" ? radii : radii[k];
    appendParticle(
      core,
      centres[3 * k],
      centres[3 * k + 1],
      centres[3 * k + 2],
      r,
      c.v,
      c.a,
      c.mid,
      c.fx,
    );
  }
  core.pending.emitted += n;
  return n;
}

/**
 * Validate the options every emitter shares; `w` names the emitter in messages.
 * @internal
 */
export function emitSettings(w: string, o: EmitCommon): EmitSettings {
  if (o === null || typeof o !== "object") {
    throw new TypeError(`${w}: options (${String(o)}) must be an object`);
  }
  const [lo, hi] = corners(w, o.min, o.max);
  const spacing = positive(w, "spacing", o.spacing);
  const max = integerIn(w, "maxParticles", o.maxParticles, 0, 2 ** 31 - 1);
  const v = o.velocity === undefined ? [0, 0, 0] : vec3(w, "velocity", o.velocity);
  const a = o.angularVelocity === undefined
    ? [0, 0, 0]
    : vec3(w, "angularVelocity", o.angularVelocity);
  const mid = integerIn(w, "materialId", o.materialId ?? 0, 0, MAX_MATERIAL_ID);
  const fx = bool(w, "fixed", o.fixed, false);
  return { lo, hi, spacing, max, v, a, mid, fx };
}
