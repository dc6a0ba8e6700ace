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
 * @module
 */
import {
  ByteReader,
  ByteWriter,
  decodeContainer,
  encodeContainer,
  type Section,
} from "../math/container.ts";
import { finite, integerIn, nonNegative, sizeGuard } from "../math/validate.ts";
import type { GridAxisPeriod } from "../math/grid.ts";
import type { GranularCore, ResumeState } from "./core.ts";
import { type Material, resolveMaterial, resolveParticleMaterial } from "./material.ts";
import { emptyStats } from "./stats.ts";
import { BYTES_PER_PARTICLE, MAX_MATERIAL_ID, MAX_PARTICLES } from "./options.ts";
import { VERSION } from "../version.ts";

/** Magic of sphere3d checkpoints (the first 8 bytes of the file). */
export const SPHERE3D_CHECKPOINT_MAGIC = "GRAINS3D";
/** The sphere3d checkpoint format version this code writes and the newest it reads. */
export const SPHERE3D_CHECKPOINT_VERSION = 1;

/** Options of `GranularSystem.saveGranularState`. */
export interface SaveGranularStateOptions {
  /**
   * Write the persistent tangential contact histories (springs), needed to continue a
   * frictional run exactly; without them the file is smaller and the springs restart at zero.
   * @default true
   */
  includeContactHistories?: boolean;
}

/** Keys of {@link SaveGranularStateOptions}. */
export const SAVE_KEYS: readonly string[] = ["includeContactHistories"];

/** Entries per particle of a fresh history table (as `HistoryTable` starts). */
const DEFAULT_SLOTS = 8;
/** Partner ids from here up name boundaries (see `boundaryPartner`). */
const BOUNDARY_IDS = 0xffffff00;
/** Bytes per particle of the PARTICLE section. */
const PARTICLE_BYTES = 9 * 8 + 8 + 4 + 2 + 1;

/** The decoded (or captured) state of a granular system: what a checkpoint holds. */
export interface GranularState {
  /** Number of particles. */
  count: number;
  /** The next stable id. */
  nextId: number;
  /** Simulated time of the system (s). */
  time: number;
  /** Steps taken by the system. */
  stepCount: number;
  /** Neighbour skin setting (m), -1 for "auto". */
  skin: number;
  /** Centres (m), stride 3. */
  pos: Float64Array;
  /** Velocities (m/s), stride 3. */
  vel: Float64Array;
  /** Angular velocities (rad/s), stride 3. */
  ang: Float64Array;
  /** Radii (m). */
  radius: Float64Array;
  /** Stable ids. */
  id: Uint32Array;
  /** Material ids. */
  materialId: Uint16Array;
  /** Fixed flags (0/1). */
  fixed: Uint8Array;
  /** External forces (N) and torques (N·m), stride 3, or null when all zero. */
  external: { force: Float64Array; torque: Float64Array } | null;
  /** The global material. */
  material: Material;
  /** Boundary friction material. */
  boundary: { friction: number; rollingFriction: number };
  /** Sliding friction per material id (length = the number of ids in use). */
  friction: Float64Array;
  /** Rolling friction per material id. */
  rolling: Float64Array;
  /** Tangential histories, or null when not stored. */
  history: {
    slots: number;
    owner: Uint32Array;
    partner: Uint32Array;
    xi: Float64Array;
  } | null;
  /**
   * The step's caches and the settings they belong to, or null (a table import): the forces of
   * the saved state, the neighbour list's reference positions, and the rolling torques the
   * last evaluation left unconsumed (particle slots and stride-3 values; `applyRolling` leaves
   * a torque whose square underflows to zero for the next evaluation).
   */
  cache:
    | (Omit<ResumeState, "forces"> & {
      forces: { force: Float64Array; torque: Float64Array } | null;
      roll: { index: Uint32Array; value: Float64Array };
    })
    | null;
}

// ---------------------------------------------------------------------------------------------
// Capture and encode

/** The state of `core` as views into its columns (encode it before the system steps on). */
export function captureState(core: GranularCore, histories: boolean): GranularState {
  const ps = core.ps, n = ps.count, v3 = (a: Float64Array) => a.subarray(0, 3 * n);
  let ext = false;
  for (let k = 0; k < 3 * n && !ext; k++) ext = ps.extForce[k] !== 0 || ps.extTorque[k] !== 0;
  const h = histories ? core.hist.columns(n, ps.id) : null;
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
      ? { slots: core.hist.slots, owner: h.owner, partner: h.partner, xi: h.displacement }
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
  const text = (v: unknown) => {
    const w = new ByteWriter(littleEndian);
    w.text(JSON.stringify(v));
    return w.finish();
  };
  const bin = (...arrays: (Float64Array | Uint32Array | Uint16Array | Uint8Array)[]) => {
    const w = new ByteWriter(littleEndian);
    for (const a of arrays) w.array(a);
    return w.finish();
  };
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
// Decode and check

/** An object with exactly `keys` (missing or unknown keys throw). */
function record(where: string, name: string, v: unknown, keys: readonly string[]) {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new TypeError(`${where}: ${name} must be an object`);
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!keys.includes(k)) throw new RangeError(`${where}: ${name} has an unknown field "${k}"`);
  }
  for (const k of keys) {
    if (!(k in o)) throw new RangeError(`${where}: ${name} lacks the field "${k}"`);
  }
  return o;
}

function boolean(where: string, name: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw new TypeError(`${where}: ${name} (${v}) must be a boolean`);
  return v;
}

/** A number written by {@link jnum}. */
function jnumBack(where: string, name: string, v: unknown): number {
  if (typeof v === "number") return v;
  if (v === "Infinity" || v === "-Infinity" || v === "NaN") return Number(v);
  throw new TypeError(`${where}: ${name} (${String(v)}) must be a number`);
}

function numbers(where: string, name: string, v: unknown, n: number): number[] {
  if (!Array.isArray(v) || v.length !== n) {
    throw new TypeError(`${where}: ${name} must be an array of ${n} numbers`);
  }
  return v.map((x, k) => finite(where, `${name}[${k}]`, x));
}

function parseJson(where: string, r: ByteReader): unknown {
  const t = r.text();
  try {
    return JSON.parse(t);
  } catch (e) {
    throw new RangeError(`${where}: invalid JSON (${(e as Error).message})`);
  }
}

const META_KEYS = [
  "writer",
  "count",
  "nextId",
  "time",
  "stepCount",
  "neighborSkin",
  "externalLoads",
  "contactHistories",
  "cache",
];
const CACHE_KEYS = [
  "gravity",
  "ground",
  "container",
  "periodic",
  "forces",
  "neighborList",
  "rollingTorques",
  "guard",
];
const GUARD_KEYS = ["stale", "warned", "refSpeed", "refTime", "accel", "minMass"];
const KNOWN_SECTIONS = [
  "META",
  "MATERIAL",
  "PARTICLE",
  "EXTERNAL",
  "FORCES",
  "NEIGHBOR",
  "ROLL",
  "HISTORY",
];

/**
 * Decode and check checkpoint bytes; throws `<where>: <what>` (where is e.g.
 * `loadGranularState: /tmp/bed.bin`) for anything that is not a well-formed, consistent
 * checkpoint of this format version or older.
 */
export function decodeGranularState(bytes: Uint8Array, where: string): GranularState {
  try {
    return decode(bytes, where);
  } catch (e) {
    const m = (e as Error).message ?? String(e);
    if (m.startsWith(`${where}: `)) throw e;
    throw new RangeError(`${where}: ${m}`, { cause: e });
  }
}

function decode(bytes: Uint8Array, where: string): GranularState {
  const c = decodeContainer(bytes, {
    magic: SPHERE3D_CHECKPOINT_MAGIC,
    maxVersion: SPHERE3D_CHECKPOINT_VERSION,
    where,
    kind: "sphere3d checkpoint",
  });
  for (const tag of c.sections.keys()) {
    if (!KNOWN_SECTIONS.includes(tag)) throw new RangeError(`${where}: unknown section ${tag}`);
  }
  const le = c.littleEndian;
  const reader = (tag: string, required: boolean): ByteReader | null => {
    const b = c.sections.get(tag);
    if (!b) {
      if (required) throw new RangeError(`${where}: the section ${tag} is missing`);
      return null;
    }
    return new ByteReader(b, le, `${where}: section ${tag}`);
  };
  const sized = (r: ByteReader, bytes: number, what: string) => {
    if (r.remaining !== bytes) {
      r.fail(`${r.remaining} bytes, expected ${bytes} for ${what}`);
    }
  };

  // META
  const wm = `${where}: META`;
  const meta = record(wm, "META", parseJson(wm, reader("META", true)!), META_KEYS);
  if (typeof meta.writer !== "string") throw new TypeError(`${wm}: writer must be a string`);
  const n = integerIn(wm, "count", meta.count, 0, MAX_PARTICLES);
  const nextId = integerIn(wm, "nextId", meta.nextId, n, 2 ** 32);
  const time = finite(wm, "time", meta.time);
  const stepCount = integerIn(wm, "stepCount", meta.stepCount, 0, Number.MAX_SAFE_INTEGER);
  const skin = meta.neighborSkin === "auto"
    ? -1
    : nonNegative(wm, "neighborSkin", meta.neighborSkin);
  const hasExt = boolean(wm, "externalLoads", meta.externalLoads);
  let slots = 0, entries = 0;
  if (meta.contactHistories !== null) {
    const h = record(wm, "contactHistories", meta.contactHistories, ["slots", "entries"]);
    slots = integerIn(wm, "contactHistories.slots", h.slots, 1, 255);
    entries = integerIn(wm, "contactHistories.entries", h.entries, 0, slots * n);
  }
  let cacheMeta: Record<string, unknown> | null = null;
  if (meta.cache !== null) cacheMeta = record(wm, "cache", meta.cache, CACHE_KEYS);

  // MATERIAL
  const wmat = `${where}: MATERIAL`;
  const mats = record(wmat, "MATERIAL", parseJson(wmat, reader("MATERIAL", true)!), [
    "material",
    "boundary",
    "particleMaterials",
  ]);
  if (mats.material === null || typeof mats.material !== "object") {
    throw new TypeError(`${wmat}: material must be an object`);
  }
  const material = resolveMaterial(mats.material as Partial<Material>, wmat);
  const boundary = resolveParticleMaterial(
    record(wmat, "boundary", mats.boundary, ["friction", "rollingFriction"]) as never,
    `${wmat}: boundary`,
  );
  const pm = record(wmat, "particleMaterials", mats.particleMaterials, [
    "friction",
    "rollingFriction",
  ]);
  if (!Array.isArray(pm.friction) || !Array.isArray(pm.rollingFriction)) {
    throw new TypeError(`${wmat}: particleMaterials must hold two arrays`);
  }
  const tableSize = pm.friction.length;
  if (tableSize < 1 || tableSize > MAX_MATERIAL_ID + 1 || pm.rollingFriction.length !== tableSize) {
    throw new RangeError(
      `${wmat}: particleMaterials must hold 1 to ${MAX_MATERIAL_ID + 1} entries, as many ` +
        `rolling as sliding coefficients (${tableSize}, ${pm.rollingFriction.length})`,
    );
  }
  const friction = Float64Array.from(
    pm.friction,
    (v, k) => nonNegative(wmat, `particleMaterials.friction[${k}]`, v),
  );
  const rolling = Float64Array.from(
    pm.rollingFriction,
    (v, k) => nonNegative(wmat, `particleMaterials.rollingFriction[${k}]`, v),
  );

  // PARTICLE
  const rp = reader("PARTICLE", true)!;
  sized(rp, n * PARTICLE_BYTES, `${n} particles`);
  const pos = rp.f64s(3 * n), vel = rp.f64s(3 * n), ang = rp.f64s(3 * n);
  const radius = rp.f64s(n), id = rp.u32s(n), materialId = rp.u16s(n), fixed = rp.u8s(n);
  rp.end();

  // EXTERNAL
  const re = reader("EXTERNAL", false);
  if ((re !== null) !== hasExt) {
    throw new RangeError(`${where}: META says externalLoads ${hasExt}, the section disagrees`);
  }
  let external: GranularState["external"] = null;
  if (re) {
    sized(re, 48 * n, `${n} particles`);
    external = { force: re.f64s(3 * n), torque: re.f64s(3 * n) };
    re.end();
  }

  // cache: FORCES, NEIGHBOR
  const rf = reader("FORCES", false), rn = reader("NEIGHBOR", false);
  const rr = reader("ROLL", false);
  let cache: GranularState["cache"] = null;
  if (cacheMeta === null) {
    if (rf || rn || rr) throw new RangeError(`${where}: cache sections without a cache in META`);
  } else {
    const wc = `${wm}: cache`;
    const gravity = numbers(wc, "gravity", cacheMeta.gravity, 3) as [number, number, number];
    const ground = cacheMeta.ground === null ? null : finite(wc, "ground", cacheMeta.ground);
    let container: ResumeState["container"] = null;
    if (cacheMeta.container !== null) {
      const b = cacheMeta.container;
      if (!Array.isArray(b) || b.length !== 2) {
        throw new TypeError(`${wc}: container must be null or two corners`);
      }
      container = [
        numbers(wc, "container[0]", b[0], 3) as [number, number, number],
        numbers(wc, "container[1]", b[1], 3) as [number, number, number],
      ];
    }
    let periodic: ResumeState["periodic"] = null;
    if (cacheMeta.periodic !== null) {
      const p = cacheMeta.periodic;
      if (!Array.isArray(p) || p.length !== 3) {
        throw new TypeError(`${wc}: periodic must be null or three [lo, length] axes`);
      }
      periodic = p.map((a, k) => {
        const [lo, length] = numbers(wc, `periodic[${k}]`, a, 2);
        nonNegative(wc, `periodic[${k}] length`, length);
        return { lo, length };
      }) as [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod];
    }
    const hasForces = boolean(wc, "forces", cacheMeta.forces);
    const hasList = boolean(wc, "neighborList", cacheMeta.neighborList);
    if ((rf !== null) !== hasForces || (rn !== null) !== hasList) {
      throw new RangeError(`${where}: the cache sections disagree with META`);
    }
    const g = record(wc, "guard", cacheMeta.guard, GUARD_KEYS);
    const guard = {
      stale: boolean(wc, "guard.stale", g.stale),
      warned: boolean(wc, "guard.warned", g.warned),
      refSpeed: jnumBack(wc, "guard.refSpeed", g.refSpeed),
      refTime: jnumBack(wc, "guard.refTime", g.refTime),
      accel: jnumBack(wc, "guard.accel", g.accel),
      minMass: jnumBack(wc, "guard.minMass", g.minMass),
    };
    let forces: { force: Float64Array; torque: Float64Array } | null = null;
    if (rf) {
      sized(rf, 48 * n, `${n} particles`);
      forces = { force: rf.f64s(3 * n), torque: rf.f64s(3 * n) };
      rf.end();
    }
    let refPos: Float64Array | null = null;
    if (rn) {
      sized(rn, 24 * n, `${n} particles`);
      refPos = rn.f64s(3 * n);
      rn.end();
    }
    const k = integerIn(wc, "rollingTorques", cacheMeta.rollingTorques, 0, n);
    if ((rr !== null) !== k > 0) {
      throw new RangeError(`${where}: META says rollingTorques ${k}, the ROLL section disagrees`);
    }
    const roll: { index: Uint32Array; value: Float64Array } = {
      index: new Uint32Array(0),
      value: new Float64Array(0),
    };
    if (rr) {
      sized(rr, 28 * k, `${k} rolling torques`);
      roll.index = rr.u32s(k);
      roll.value = rr.f64s(3 * k);
      rr.end();
      for (let j = 0; j < k; j++) {
        if (roll.index[j] >= n || (j > 0 && roll.index[j] <= roll.index[j - 1])) {
          throw new RangeError(
            `${where}: section ROLL: particle ${roll.index[j]} (entry ${j}) must be below ` +
              `${n} and above the previous entry's`,
          );
        }
      }
    }
    cache = { gravity, ground, container, periodic, forces, refPos, roll, guard };
  }

  // HISTORY
  const rh = reader("HISTORY", false);
  if ((rh !== null) !== (meta.contactHistories !== null)) {
    throw new RangeError(`${where}: META and the HISTORY section disagree`);
  }
  let history: GranularState["history"] = null;
  if (rh) {
    sized(rh, 32 * entries, `${entries} history entries`);
    history = {
      slots,
      owner: rh.u32s(entries),
      partner: rh.u32s(entries),
      xi: rh.f64s(3 * entries),
    };
    rh.end();
  }
  const s: GranularState = {
    count: n,
    nextId,
    time,
    stepCount,
    skin,
    pos,
    vel,
    ang,
    radius,
    id,
    materialId,
    fixed,
    external,
    material,
    boundary,
    friction,
    rolling,
    history,
    cache,
  };
  checkState(where, s);
  return s;
}

/** Index of the first non-finite value of `a`, or -1. */
function firstNonFinite(a: Float64Array): number {
  for (let k = 0; k < a.length; k++) if (!Number.isFinite(a[k])) return k;
  return -1;
}

/**
 * Check what the columns must satisfy for the simulator (finite values, positive radii, unique
 * ids below `nextId`, material ids with a friction entry, consistent histories), and return
 * the slot of each stable id (length ≥ `nextId`, -1 for ids not in use).
 */
export function checkState(where: string, s: GranularState): Int32Array<ArrayBuffer> {
  const n = s.count;
  const finiteColumn = (name: string, a: Float64Array | undefined, stride: number) => {
    if (!a) return;
    const k = firstNonFinite(a);
    if (k >= 0) {
      throw new RangeError(
        `${where}: ${name} of particle ${Math.floor(k / stride)} (${a[k]}) must be finite`,
      );
    }
  };
  finiteColumn("position", s.pos, 3);
  finiteColumn("velocity", s.vel, 3);
  finiteColumn("angular velocity", s.ang, 3);
  finiteColumn("external force", s.external?.force, 3);
  finiteColumn("external torque", s.external?.torque, 3);
  finiteColumn("force", s.cache?.forces?.force, 3);
  finiteColumn("torque", s.cache?.forces?.torque, 3);
  finiteColumn("neighbour reference position", s.cache?.refPos ?? undefined, 3);
  finiteColumn("carried rolling torque", s.cache?.roll.value, 3);
  for (let i = 0; i < n; i++) {
    const r = s.radius[i];
    if (!(r > 0 && r < Infinity)) {
      throw new RangeError(`${where}: radius of particle ${i} (${r}) must be finite and > 0`);
    }
    if (s.fixed[i] > 1) {
      throw new RangeError(`${where}: fixed flag of particle ${i} (${s.fixed[i]}) must be 0 or 1`);
    }
    if (s.materialId[i] >= s.friction.length) {
      throw new RangeError(
        `${where}: material id of particle ${i} (${s.materialId[i]}) has no particle material ` +
          `(${s.friction.length} defined)`,
      );
    }
  }
  sizeGuard(where, `an id table for ${s.nextId} ids`, 4 * s.nextId);
  const slotOf = new Int32Array(Math.max(64, s.nextId)).fill(-1);
  for (let i = 0; i < n; i++) {
    const id = s.id[i];
    if (id >= s.nextId) {
      throw new RangeError(`${where}: id of particle ${i} (${id}) must be < nextId (${s.nextId})`);
    }
    if (slotOf[id] >= 0) {
      throw new RangeError(`${where}: particles ${slotOf[id]} and ${i} share the id ${id}`);
    }
    slotOf[id] = i;
  }
  const h = s.history;
  if (h) {
    const k0 = firstNonFinite(h.xi);
    if (k0 >= 0) {
      throw new RangeError(`${where}: history entry ${Math.floor(k0 / 3)} has a non-finite spring`);
    }
    const m = h.owner.length, per = new Int32Array(n + 1);
    for (let k = 0; k < m; k++) {
      const o = h.owner[k], p = h.partner[k];
      const slot = o < s.nextId ? slotOf[o] : -1;
      if (slot < 0) {
        throw new RangeError(`${where}: history entry ${k}: owner id ${o} is not a particle`);
      }
      if (p < BOUNDARY_IDS && !(p > o && p < s.nextId && slotOf[p] >= 0)) {
        throw new RangeError(
          `${where}: history entry ${k}: partner id ${p} must be a particle with an id above ` +
            `its owner's (${o}), or a boundary`,
        );
      }
      if (++per[slot + 1] > h.slots) {
        throw new RangeError(`${where}: particle id ${o} has more than ${h.slots} history entries`);
      }
    }
    // the partners of each owner, grouped, must be distinct
    for (let i = 0; i < n; i++) per[i + 1] += per[i];
    const at = per.slice(0, n), grouped = new Uint32Array(m);
    for (let k = 0; k < m; k++) grouped[at[slotOf[h.owner[k]]]++] = h.partner[k];
    for (let i = 0; i < n; i++) {
      for (let a = per[i]; a < per[i + 1]; a++) {
        for (let b = per[i]; b < a; b++) {
          if (grouped[a] === grouped[b]) {
            throw new RangeError(
              `${where}: particle id ${s.id[i]} has two history entries for partner ${grouped[a]}`,
            );
          }
        }
      }
    }
  }
  return slotOf;
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

// ---------------------------------------------------------------------------------------------
// Arrow tables

/** The parts of a particles table (an Apache Arrow `Table`, or any look-alike) `fromTable` reads. */
export interface ParticleTableLike {
  /** Number of rows (particles). */
  readonly numRows: number;
  /** A column by name, or null when absent. */
  getChild(name: string): { toArray(): ArrayLike<unknown> } | null;
  /** Schema metadata (`grainlab.material`, `grainlab.time`, `grainlab.step` are read). */
  readonly schema?: { readonly metadata?: { get(key: string): string | undefined } };
}

/**
 * The state held by a particles table (`particlesTable` of `@grainlab/grainlab/arrow`):
 * columns `x`, `y`, `z`, `radius` (required), `id`, `vx`, `vy`, `vz`, `wx`, `wy`, `wz`,
 * `materialId`, `fixed` (optional; ids default to the row numbers, the rest to 0) and, if
 * present, `mass`, which must agree with the material's density.
 */
export function stateFromTable(
  where: string,
  table: ParticleTableLike,
  material: Material,
): GranularState {
  if (table === null || typeof table !== "object" || typeof table.getChild !== "function") {
    throw new TypeError(`${where}: table (${String(table)}) must be a particles table`);
  }
  const n = integerIn(where, "table.numRows", table.numRows, 0, MAX_PARTICLES);
  sizeGuard(where, `${n} particles`, n * BYTES_PER_PARTICLE);
  const column = (name: string, required: boolean): ArrayLike<unknown> | null => {
    const c = table.getChild(name);
    if (!c) {
      if (required) throw new RangeError(`${where}: the table has no column "${name}"`);
      return null;
    }
    const a = c.toArray();
    if (a.length !== n) {
      throw new RangeError(`${where}: column "${name}" has ${a.length} values, not ${n}`);
    }
    return a;
  };
  const num = (name: string, a: ArrayLike<unknown>, i: number) => {
    const v = a[i];
    return typeof v === "bigint" ? Number(v) : finite(where, `${name}[${i}]`, v);
  };
  const vec = (names: string[], required: boolean) => {
    const out = new Float64Array(3 * n);
    names.forEach((name, k) => {
      const a = column(name, required);
      if (a) { for (let i = 0; i < n; i++) out[3 * i + k] = num(name, a, i); }
    });
    return out;
  };
  const pos = vec(["x", "y", "z"], true);
  const vel = vec(["vx", "vy", "vz"], false);
  const ang = vec(["wx", "wy", "wz"], false);
  const rc = column("radius", true)!;
  const radius = new Float64Array(n);
  for (let i = 0; i < n; i++) radius[i] = num("radius", rc, i);
  const id = new Uint32Array(n);
  const ic = column("id", false);
  let nextId = n;
  if (ic) {
    nextId = 0;
    for (let i = 0; i < n; i++) {
      id[i] = integerIn(where, `id[${i}]`, num("id", ic, i), 0, 2 ** 32 - 2);
      if (id[i] >= nextId) nextId = id[i] + 1;
    }
  } else for (let i = 0; i < n; i++) id[i] = i;
  const materialId = new Uint16Array(n);
  const mc = column("materialId", false);
  let tableSize = 1;
  if (mc) {
    for (let i = 0; i < n; i++) {
      materialId[i] = integerIn(
        where,
        `materialId[${i}]`,
        num("materialId", mc, i),
        0,
        MAX_MATERIAL_ID,
      );
      if (materialId[i] >= tableSize) tableSize = materialId[i] + 1;
    }
  }
  const fixed = new Uint8Array(n);
  const fc = column("fixed", false);
  if (fc) {
    for (let i = 0; i < n; i++) {
      const v = fc[i];
      if (v === true || v === 1) fixed[i] = 1;
      else if (!(v === false || v === 0 || v === null)) {
        throw new TypeError(`${where}: fixed[${i}] (${String(v)}) must be a boolean`);
      }
    }
  }
  const mass = column("mass", false);
  if (mass) {
    for (let i = 0; i < n; i++) {
      const r = radius[i], want = material.density * (4 / 3) * Math.PI * r * r * r;
      const got = num("mass", mass, i);
      if (!(Math.abs(got - want) <= 1e-9 * want)) {
        throw new RangeError(
          `${where}: mass[${i}] (${got} kg) disagrees with the material's density ` +
            `${material.density} kg/m³ (${want} kg); pass the material the table was written with`,
        );
      }
    }
  }
  const meta = table.schema?.metadata;
  const t = Number(meta?.get("grainlab.time") ?? 0), st = Number(meta?.get("grainlab.step") ?? 0);
  return {
    count: n,
    nextId,
    time: Number.isFinite(t) ? t : 0,
    stepCount: Number.isSafeInteger(st) && st >= 0 ? st : 0,
    skin: -1,
    pos,
    vel,
    ang,
    radius,
    id,
    materialId,
    fixed,
    external: null,
    material,
    boundary: { friction: material.friction, rollingFriction: material.rollingFriction },
    friction: new Float64Array(tableSize).fill(material.friction),
    rolling: new Float64Array(tableSize).fill(material.rollingFriction),
    history: null,
    cache: null,
  };
}
