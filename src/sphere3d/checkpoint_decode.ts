/**
 * Decoding and checking of sphere3d checkpoints (`decodeGranularState`, `checkState`): every
 * section, field, length and reference is checked before anything is allocated for the
 * system. The format is described in `docs/checkpoint.md`.
 *
 * @module
 */
import {
  decodeChecked,
  expectBytes as sized,
  firstNonFinite,
  historySection,
  numberArray as numbers,
  openCheckpoint,
  record,
} from "../math/checkpoint_io.ts";
import { finite, integerIn, nonNegative, sizeGuard } from "../math/validate.ts";
import type { GridAxisPeriod } from "../math/grid.ts";
import type { ResumeState } from "./core.ts";
import { type Material, resolveMaterial, resolveParticleMaterial } from "./material.ts";
import { MAX_MATERIAL_ID, MAX_PARTICLES } from "./options.ts";
import {
  type GranularState,
  SPHERE3D_CHECKPOINT_MAGIC,
  SPHERE3D_CHECKPOINT_VERSION,
} from "./checkpoint_format.ts";

/** Partner ids from here up name boundaries (see `boundaryPartner`). */
const BOUNDARY_IDS = 0xffffff00;
/** Bytes per particle of the PARTICLE section. */
const PARTICLE_BYTES = 9 * 8 + 8 + 4 + 2 + 1;

/** `v` as a boolean. */
function boolean(where: string, name: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw new TypeError(`${where}: ${name} (${v}) must be a boolean`);
  return v;
}

/** A number written by `jnum` (of `checkpoint.ts`): ±Infinity and NaN as strings. */
function jnumBack(where: string, name: string, v: unknown): number {
  if (typeof v === "number") return v;
  if (v === "Infinity" || v === "-Infinity" || v === "NaN") return Number(v);
  throw new TypeError(`${where}: ${name} (${String(v)}) must be a number`);
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
  return decodeChecked(where, () => decode(bytes, where));
}

function decode(bytes: Uint8Array, where: string): GranularState {
  const c = openCheckpoint(bytes, {
    magic: SPHERE3D_CHECKPOINT_MAGIC,
    maxVersion: SPHERE3D_CHECKPOINT_VERSION,
    where,
    kind: "sphere3d checkpoint",
  });
  for (const tag of c.tags) {
    if (!KNOWN_SECTIONS.includes(tag)) throw new RangeError(`${where}: unknown section ${tag}`);
  }
  const reader = c.reader;

  // META
  const wm = `${where}: META`;
  const meta = record(wm, "META", c.json("META"), META_KEYS, ["spatialSort"]);
  if (typeof meta.writer !== "string") throw new TypeError(`${wm}: writer must be a string`);
  const n = integerIn(wm, "count", meta.count, 0, MAX_PARTICLES);
  const nextId = integerIn(wm, "nextId", meta.nextId, n, 2 ** 32);
  const time = finite(wm, "time", meta.time);
  const stepCount = integerIn(wm, "stepCount", meta.stepCount, 0, Number.MAX_SAFE_INTEGER);
  const skin = meta.neighborSkin === "auto"
    ? -1
    : nonNegative(wm, "neighborSkin", meta.neighborSkin);
  const hasExt = boolean(wm, "externalLoads", meta.externalLoads);
  // absent from files written before slot reordering existed (which never reordered)
  const sort = meta.spatialSort === undefined ? true : boolean(wm, "spatialSort", meta.spatialSort);
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
  const mats = record(wmat, "MATERIAL", c.json("MATERIAL"), [
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
  const history: GranularState["history"] = historySection(
    c,
    where,
    meta.contactHistories !== null,
    32 * entries,
    `${entries} history entries`,
    (rh) => ({
      slots,
      owner: rh.u32s(entries),
      partner: rh.u32s(entries),
      xi: rh.f64s(3 * entries),
    }),
  );
  const s: GranularState = {
    count: n,
    nextId,
    time,
    stepCount,
    skin,
    sort,
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
