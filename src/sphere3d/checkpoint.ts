/**
 * Checkpoints of a granular system (`saveGranularState` / `loadGranularState`): the particle
 * state, the materials, the tangential contact histories and the step's caches, in the
 * sectioned container of `src/math/container.ts` (magic `GRAINS3D`, format version 1; the
 * layout is documented in `docs/checkpoint.md`). Also the rebuild of a system from an exported
 * particles table (`GranularSystem.fromTable`).
 *
 * Loading decodes and checks the whole file first, then allocates, then swaps the new state
 * in: a corrupt, truncated or future-version file throws `loadGranularState: <path>: <what>`
 * and leaves the system as it was.
 *
 * Capture, encode and apply live here; decoding and checking in `checkpoint_decode.ts`, the
 * table import in `checkpoint_table.ts` (both re-exported here), the file plumbing shared with
 * star2d in `src/math/checkpoint_io.ts`.
 *
 * @module
 */
import { encodeContainer, type Section } from "../math/container.ts";
import { binarySection, jsonSection, type SectionArray } from "../math/checkpoint_io.ts";
import { sizeGuard } from "../math/validate.ts";
import type { GranularCore } from "./core.ts";
import { emptyStats } from "./stats.ts";
import { BYTES_PER_PARTICLE } from "./options.ts";
import { VERSION } from "../version.ts";
import { checkState } from "./checkpoint_decode.ts";
import {
  type GranularState,
  SPHERE3D_CHECKPOINT_MAGIC,
  SPHERE3D_CHECKPOINT_VERSION,
} from "./checkpoint_format.ts";

export { checkState, decodeGranularState } from "./checkpoint_decode.ts";
export { type ParticleTableLike, stateFromTable } from "./checkpoint_table.ts";
export {
  type GranularState,
  SAVE_KEYS,
  type SaveStateOptions,
  SPHERE3D_CHECKPOINT_MAGIC,
  SPHERE3D_CHECKPOINT_VERSION,
} from "./checkpoint_format.ts";

/** Entries per particle of a fresh history table (as `HistoryTable` starts). */
const DEFAULT_SLOTS = 8;

// ---------------------------------------------------------------------------------------------
// Capture and encode

/**
 * Entries per particle the loaded table needs: the table's own, widened (doubling, at most
 * 255) until the owner with the most springs fits — the springs held by the neighbour list
 * come on top of the table's.
 */
function entriesPerOwner(slots: number, owner: Uint32Array, slotOfId: Int32Array): number {
  const per = new Uint16Array(slotOfId.length);
  let most = 0;
  for (let k = 0; k < owner.length; k++) {
    const c = ++per[owner[k]];
    if (c > most) most = c;
  }
  while (slots < most && slots < 255) slots = Math.min(255, slots * 2);
  return slots;
}

/** The state of `core` as views into its columns (encode it before the system steps on). */
export function captureState(core: GranularCore, histories: boolean): GranularState {
  const ps = core.ps, n = ps.count, v3 = (a: Float64Array) => a.subarray(0, 3 * n);
  let ext = false;
  for (let k = 0; k < 3 * n && !ext; k++) ext = ps.extForce[k] !== 0 || ps.extTorque[k] !== 0;
  const h = histories ? core.historyColumns() : null;
  const r = core.resume;
  const forces = { force: v3(ps.force), torque: v3(ps.torque) };
  const roll = leftoverRolling(ps.roll, n);
  const cache: GranularState["cache"] = r ? { ...r, forces: r.forces ? forces : null, roll } : {
    gravity: [...core.gravity],
    ground: core.ground,
    container: core.container,
    periodic: core.periodic,
    forces: core.forcesValid ? forces : null,
    refPos: core.needRebuild || core.neighborSkin === 0 ? null : v3(core.refPos),
    roll,
    guard: {
      stale: core.guard.stale,
      warned: core.guard.warned,
      refSpeed: core.guard.refSpeed,
      refTime: core.guard.refTime,
      accel: core.guard.accel,
      minMass: core.guard.minMass,
    },
  };
  return {
    count: n,
    nextId: core.nextId,
    time: core.time,
    stepCount: core.stepCount,
    skin: core.skin,
    sort: core.spatialSort,
    pos: v3(ps.pos),
    vel: v3(ps.vel),
    ang: v3(ps.ang),
    radius: ps.radius.subarray(0, n),
    id: ps.id.subarray(0, n),
    materialId: ps.materialId.subarray(0, n),
    fixed: ps.fixed.subarray(0, n),
    external: ext ? { force: v3(ps.extForce), torque: v3(ps.extTorque) } : null,
    material: { ...core.material },
    boundary: { ...core.boundary },
    friction: core.tables.friction.subarray(0, core.tableSize),
    rolling: core.tables.rolling.subarray(0, core.tableSize),
    history: h
      ? {
        slots: entriesPerOwner(core.hist.slots, h.owner, core.slotOfId),
        owner: h.owner,
        partner: h.partner,
        xi: h.displacement,
      }
      : null,
    cache,
  };
}

/** The particles whose rolling-torque accumulator is not +0 (slots, stride-3 values). */
function leftoverRolling(roll: Float64Array, n: number) {
  const slots: number[] = [];
  for (let i = 0; i < n; i++) {
    const o = 3 * i;
    if (!Object.is(roll[o], 0) || !Object.is(roll[o + 1], 0) || !Object.is(roll[o + 2], 0)) {
      slots.push(i);
    }
  }
  const index = Uint32Array.from(slots), value = new Float64Array(3 * slots.length);
  slots.forEach((i, k) => value.set(roll.subarray(3 * i, 3 * i + 3), 3 * k));
  return { index, value };
}

/** A finite number as itself; ±Infinity and NaN as strings (JSON has no such numbers). */
function jnum(v: number): number | string {
  return Number.isFinite(v) ? v : String(v);
}

/** The checkpoint bytes of `s` (little-endian unless told otherwise). */
export function encodeGranularState(s: GranularState, littleEndian = true): Uint8Array {
  const c = s.cache;
  const meta = {
    writer: `grainlab ${VERSION}`,
    count: s.count,
    nextId: s.nextId,
    time: s.time,
    stepCount: s.stepCount,
    neighborSkin: s.skin < 0 ? "auto" : s.skin,
    spatialSort: s.sort,
    externalLoads: s.external !== null,
    contactHistories: s.history
      ? { slots: s.history.slots, entries: s.history.owner.length }
      : null,
    cache: c
      ? {
        gravity: c.gravity,
        ground: c.ground,
        container: c.container,
        periodic: c.periodic ? c.periodic.map((a) => [a.lo, a.length]) : null,
        forces: c.forces !== null,
        neighborList: c.refPos !== null,
        rollingTorques: c.roll.index.length,
        guard: {
          stale: c.guard.stale,
          warned: c.guard.warned,
          refSpeed: jnum(c.guard.refSpeed),
          refTime: jnum(c.guard.refTime),
          accel: jnum(c.guard.accel),
          minMass: jnum(c.guard.minMass),
        },
      }
      : null,
  };
  const materials = {
    material: s.material,
    boundary: s.boundary,
    particleMaterials: { friction: [...s.friction], rollingFriction: [...s.rolling] },
  };
  const text = (v: unknown) => jsonSection(v, littleEndian);
  const bin = (...arrays: SectionArray[]) => binarySection(littleEndian, ...arrays);
  const sections: Section[] = [
    { tag: "META", bytes: text(meta) },
    { tag: "MATERIAL", bytes: text(materials) },
    {
      tag: "PARTICLE",
      bytes: bin(s.pos, s.vel, s.ang, s.radius, s.id, s.materialId, s.fixed),
    },
  ];
  if (s.external) {
    sections.push({ tag: "EXTERNAL", bytes: bin(s.external.force, s.external.torque) });
  }
  if (c?.forces) sections.push({ tag: "FORCES", bytes: bin(c.forces.force, c.forces.torque) });
  if (c?.refPos) sections.push({ tag: "NEIGHBOR", bytes: bin(c.refPos) });
  if (c && c.roll.index.length > 0) {
    sections.push({ tag: "ROLL", bytes: bin(c.roll.index, c.roll.value) });
  }
  if (s.history) {
    const h = s.history;
    sections.push({ tag: "HISTORY", bytes: bin(h.owner, h.partner, h.xi) });
  }
  return encodeContainer(
    { magic: SPHERE3D_CHECKPOINT_MAGIC, version: SPHERE3D_CHECKPOINT_VERSION, littleEndian },
    sections,
  );
}

// ---------------------------------------------------------------------------------------------
// Apply

/**
 * Replace everything `core` holds (particles, materials, histories, caches, clock) with `s`,
 * all or nothing: checks, then allocates every new array, then swaps them in. Boundaries (ground,
 * container, periodic cell), the name and the profiling flag are kept. Step statistics and the
 * contacts of the last step are reset.
 */
export function applyGranularState(core: GranularCore, s: GranularState, where: string): void {
  const slotOf = checkState(where, s);
  const ps = core.ps, n = s.count;
  const cap = ps.capacityFor(n);
  const slots = s.history?.slots ?? DEFAULT_SLOTS;
  sizeGuard(
    where,
    `room for ${n} particles (capacity ${cap})`,
    cap * (BYTES_PER_PARTICLE + 32 * Math.max(0, slots - DEFAULT_SLOTS)),
  );
  // allocate (a failure here changes nothing)
  const growColumns = ps.prepare(cap);
  const h = s.history;
  const m = h ? h.owner.length : 0;
  const ownerSlot = new Int32Array(m), partner = new Int32Array(m);
  for (let k = 0; k < m; k++) {
    ownerSlot[k] = slotOf[h!.owner[k]];
    partner[k] = h!.partner[k] | 0;
  }
  const commitHistory = core.hist.prepareLoad(
    cap,
    slots,
    ownerSlot,
    partner,
    h ? h.xi : new Float64Array(0),
    core.stamp >>> 0,
  );
  const friction = Float64Array.from(s.friction), rolling = Float64Array.from(s.rolling);
  const stats = emptyStats();
  // commit (nothing below throws)
  growColumns?.();
  core.detachPairHistories(false);
  commitHistory();
  Object.assign(core.material, s.material);
  ps.pos.set(s.pos);
  ps.vel.set(s.vel);
  ps.ang.set(s.ang);
  ps.radius.set(s.radius);
  ps.id.set(s.id);
  ps.materialId.set(s.materialId);
  ps.fixed.set(s.fixed);
  if (s.external) {
    ps.extForce.set(s.external.force);
    ps.extTorque.set(s.external.torque);
  } else {
    ps.extForce.fill(0, 0, 3 * n);
    ps.extTorque.fill(0, 0, 3 * n);
  }
  const f = s.cache?.forces;
  if (f) {
    ps.force.set(f.force);
    ps.torque.set(f.torque);
  } else {
    ps.force.fill(0, 0, 3 * n);
    ps.torque.fill(0, 0, 3 * n);
  }
  ps.roll.fill(0, 0, 3 * n);
  const roll = s.cache?.roll;
  if (roll) {
    for (let j = 0; j < roll.index.length; j++) {
      ps.roll.set(roll.value.subarray(3 * j, 3 * j + 3), 3 * roll.index[j]);
    }
  }
  ps.count = n;
  for (let i = 0; i < n; i++) ps.setMass(i, core.material.density);
  core.tables.friction = friction;
  core.tables.rolling = rolling;
  core.tableSize = friction.length;
  core.boundary = { ...s.boundary };
  core.materialsChanged();
  core.slotOfId = slotOf;
  core.nextId = s.nextId;
  core.recomputeRadii();
  core.skin = s.skin;
  core.spatialSort = s.sort;
  core.time = s.time;
  core.stepCount = s.stepCount;
  core.stats = stats;
  core.pending.emitted = core.pending.removed = 0;
  core.contacts.count = 0;
  core.invalidate();
  const c = s.cache;
  core.resume = c
    ? {
      gravity: [c.gravity[0], c.gravity[1], c.gravity[2]],
      ground: c.ground,
      container: c.container,
      periodic: c.periodic,
      forces: c.forces !== null,
      refPos: c.refPos ? Float64Array.from(c.refPos) : null,
      guard: { ...c.guard },
    }
    : null;
}
