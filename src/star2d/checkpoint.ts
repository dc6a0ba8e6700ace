/**
 * Checkpoints of the 2D grain systems (`saveState` / `loadState` of {@link GrainSystem2}):
 * grains, parameters, shapes or clump templates, walls, contact histories and the clock, in the
 * sectioned container of `src/math/container.ts` (magic `GRAINS2D`, format version 1; layout
 * in `docs/checkpoint.md`).
 *
 * Walls are stored (unlike sphere3d's boundaries): they belong to the system, and moving walls
 * (spinning segments) carry state — their spin angle and current geometry — that could not be
 * re-applied by hand. Loading replaces the walls.
 *
 * Star shapes are stored with their Fourier coefficients (as scaled), sampling, mass
 * properties and r lookup table: rebuilding a shape from its scaled coefficients reproduces
 * the table only to rounding, and a bit-exact continuation needs the very same table. The
 * loader rebuilds each shape from its coefficients, checks the stored table and properties
 * against it, and installs the stored values.
 *
 * This module imports the system classes for types only (`body.ts` imports it).
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
import { finite, integerIn, nonNegative, positive, sizeGuard } from "../math/validate.ts";
import { StarShape } from "./shape.ts";
import type { GrainSystem2 } from "./body.ts";
import type { StarSystem } from "./system.ts";
import type { ClumpSystem, ClumpTemplate } from "./clump.ts";
import { VERSION } from "../version.ts";

/** Magic of star2d checkpoints (the first 8 bytes of the file). */
export const STAR2D_CHECKPOINT_MAGIC = "GRAINS2D";
/** The star2d checkpoint format version this code writes and the newest it reads. */
export const STAR2D_CHECKPOINT_VERSION = 1;

/** Options of `saveState`. */
export interface SaveStateOptions {
  /**
   * Write the tangential contact histories (springs), needed to continue a frictional run
   * exactly. @default true
   */
  includeContactHistories?: boolean;
}

/** Keys of {@link SaveStateOptions}. */
export const SAVE_STATE_KEYS: readonly string[] = ["includeContactHistories"];

const KINDS = ["StarSystem", "DiskSystem", "ClumpSystem"];
const GRAIN_BYTES = 8 * 9 + 4 + 2;
const MAX_WALLS = 1 << 20;

/** Shape data of a stored star shape (the JSON part; the r table is binary). */
interface ShapeRecord {
  name: string;
  a0: number;
  cos: number[];
  sin: number[];
  nodes: number;
  lutSize: number;
  rMax: number;
  rMin: number;
  area: number;
  centroidX: number;
  centroidY: number;
  polarMoment: number;
}

/** The decoded (or captured) state of a 2D system. */
export interface GrainState {
  /** Class of the system. */
  kind: string;
  /** Constructor parameters. */
  parameters: Record<string, unknown>;
  /** Number of grains. */
  count: number;
  /** Next stable id. */
  nextId: number;
  /** Simulated time (s). */
  time: number;
  /** Steps taken (`lastStepStats.step`). */
  step: number;
  /** Grid cell size (m). */
  cell: number;
  /** History key tolerance (rad). */
  keyTolerance: number;
  /** Columns. */
  pos: Float64Array;
  /** Velocities, stride 2. */
  vel: Float64Array;
  /** Angles. */
  ang: Float64Array;
  /** Angular velocities. */
  omega: Float64Array;
  /** Masses. */
  mass: Float64Array;
  /** Inertias. */
  inertia: Float64Array;
  /** Bounding radii. */
  rmax: Float64Array;
  /** Stable ids. */
  ids: Uint32Array;
  /** Shape or template ids. */
  shape: Uint16Array;
  /** Star shapes (StarSystem). */
  shapes: StarShape[];
  /** Clump templates (ClumpSystem). */
  templates: ClumpTemplate[];
  /** Walls as columns. */
  walls: {
    count: number;
    kind: Int8Array;
    enabled: Uint8Array;
    friction: Float64Array;
    omega: Float64Array;
    geom: Float64Array;
    base: Float64Array;
    spin: Float64Array;
  };
  /** Recorded springs, or null. */
  history: { a: Int32Array; b: Int32Array; key: Float64Array; xi: Float64Array } | null;
}

function parametersOf(sys: GrainSystem2): Record<string, unknown> {
  const p: Record<string, unknown> = {
    timeStep: sys.timeStep,
    gravity: [sys.gravityX, sys.gravityY],
    normalStiffness: sys.kn,
    tangentialStiffness: sys.kt,
    normalDamping: sys.cn,
    tangentialDamping: sys.ct,
    friction: sys.friction,
    rotationalDamping: sys.rotationalDamping,
  };
  if (sys._kind === "StarSystem") {
    const s = sys as StarSystem;
    p.distance = s.distance;
    p.detection = s.detection;
    p.contactPoints = s.contactPoints;
  }
  return p;
}

/** The state of `sys` (views into its columns; encode it before the system steps on). */
export function captureGrainState(sys: GrainSystem2, histories: boolean): GrainState {
  const n = sys.count, w = sys.walls, nw = w.count;
  const kind = sys._kind;
  return {
    kind,
    parameters: parametersOf(sys),
    count: n,
    nextId: sys._nextId,
    time: sys.time,
    step: sys.lastStepStats.step,
    cell: sys._cell,
    keyTolerance: sys._keyTol,
    pos: sys.positions,
    vel: sys.velocities,
    ang: sys.angles,
    omega: sys.angularVelocities,
    mass: sys.masses,
    inertia: sys.inertias,
    rmax: sys.radii,
    ids: sys.ids,
    shape: sys.shapes,
    shapes: kind === "StarSystem" ? [...(sys as StarSystem).starShapes] : [],
    templates: kind === "ClumpSystem" ? [...(sys as ClumpSystem).templates] : [],
    walls: {
      count: nw,
      kind: w.kind.subarray(0, nw),
      enabled: w.enabled.subarray(0, nw),
      friction: w.friction.subarray(0, nw),
      omega: w.omega.subarray(0, nw),
      geom: w.geom.subarray(0, 8 * nw),
      base: w.base.subarray(0, 4 * nw),
      spin: w.spin.subarray(0, nw),
    },
    history: histories ? sys._history.exportRecorded() : null,
  };
}

/** The checkpoint bytes of `s` (little-endian unless told otherwise). */
export function encodeGrainState(s: GrainState, littleEndian = true): Uint8Array {
  const text = (v: unknown) => {
    const w = new ByteWriter(littleEndian);
    w.text(JSON.stringify(v));
    return w.finish();
  };
  const bin = (...arrays: (Float64Array | Uint32Array | Int32Array | Uint16Array)[]) => {
    const w = new ByteWriter(littleEndian);
    for (const a of arrays) w.array(a);
    return w.finish();
  };
  const meta = {
    writer: `grainlab ${VERSION}`,
    kind: s.kind,
    parameters: s.parameters,
    count: s.count,
    nextId: s.nextId,
    time: s.time,
    step: s.step,
    cellSize: s.cell,
    keyTolerance: s.keyTolerance,
    contactHistories: s.history ? { entries: s.history.a.length } : null,
  };
  const w = s.walls;
  const walls = {
    kind: [...w.kind],
    enabled: [...w.enabled],
    friction: [...w.friction],
    omega: [...w.omega],
    geom: [...w.geom],
    base: [...w.base],
    spin: [...w.spin],
  };
  const sections: Section[] = [
    { tag: "META", bytes: text(meta) },
    { tag: "WALLS", bytes: text(walls) },
    {
      tag: "GRAIN",
      bytes: bin(s.pos, s.vel, s.ang, s.omega, s.mass, s.inertia, s.rmax, s.ids, s.shape),
    },
  ];
  if (s.kind === "StarSystem") {
    const shapes: ShapeRecord[] = s.shapes.map((sh) => ({
      name: sh.name,
      a0: sh.a0,
      cos: [...sh.cosCoef],
      sin: [...sh.sinCoef],
      nodes: sh.nodes,
      lutSize: sh.lutSize,
      rMax: sh.rMax,
      rMin: sh.rMin,
      area: sh.area,
      centroidX: sh.centroidX,
      centroidY: sh.centroidY,
      polarMoment: sh.polarMoment,
    }));
    sections.push({ tag: "SHAPES", bytes: text(shapes) });
    sections.push({ tag: "SHAPELUT", bytes: bin(...s.shapes.map((sh) => sh.lutR)) });
  }
  if (s.kind === "ClumpSystem") {
    const templates = s.templates.map((t) => ({
      x: [...t.x],
      y: [...t.y],
      r: [...t.r],
      area: t.area,
      polarMoment: t.polarMoment,
    }));
    sections.push({ tag: "TEMPLATE", bytes: text(templates) });
  }
  if (s.history) {
    const h = s.history;
    sections.push({ tag: "HISTORY", bytes: bin(h.a, h.b, h.key, h.xi) });
  }
  return encodeContainer(
    { magic: STAR2D_CHECKPOINT_MAGIC, version: STAR2D_CHECKPOINT_VERSION, littleEndian },
    sections,
  );
}

// ---------------------------------------------------------------------------------------------
// Decode

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

function numberArray(where: string, name: string, v: unknown, n?: number): number[] {
  if (!Array.isArray(v) || (n !== undefined && v.length !== n)) {
    throw new TypeError(
      `${where}: ${name} must be an array${n === undefined ? "" : ` of ${n}`} numbers`,
    );
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

const PARAM_KEYS = [
  "timeStep",
  "gravity",
  "normalStiffness",
  "tangentialStiffness",
  "normalDamping",
  "tangentialDamping",
  "friction",
  "rotationalDamping",
];
const STAR_KEYS = ["distance", "detection", "contactPoints"];
const META_KEYS = [
  "writer",
  "kind",
  "parameters",
  "count",
  "nextId",
  "time",
  "step",
  "cellSize",
  "keyTolerance",
  "contactHistories",
];
const SHAPE_KEYS = [
  "name",
  "a0",
  "cos",
  "sin",
  "nodes",
  "lutSize",
  "rMax",
  "rMin",
  "area",
  "centroidX",
  "centroidY",
  "polarMoment",
];
const WALL_KEYS = ["kind", "enabled", "friction", "omega", "geom", "base", "spin"];

/**
 * Decode and check star2d checkpoint bytes; throws `<where>: <what>` for anything that is not
 * a well-formed, consistent checkpoint of this format version or older.
 */
export function decodeGrainState(bytes: Uint8Array, where: string): GrainState {
  try {
    return decode(bytes, where);
  } catch (e) {
    const m = (e as Error).message ?? String(e);
    if (m.startsWith(`${where}: `)) throw e;
    throw new RangeError(`${where}: ${m}`, { cause: e });
  }
}

function decode(bytes: Uint8Array, where: string): GrainState {
  const c = decodeContainer(bytes, {
    magic: STAR2D_CHECKPOINT_MAGIC,
    maxVersion: STAR2D_CHECKPOINT_VERSION,
    where,
    kind: "star2d checkpoint",
  });
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
    if (r.remaining !== bytes) r.fail(`${r.remaining} bytes, expected ${bytes} for ${what}`);
  };

  // META
  const wm = `${where}: META`;
  const meta = record(wm, "META", parseJson(wm, reader("META", true)!), META_KEYS);
  if (typeof meta.writer !== "string") throw new TypeError(`${wm}: writer must be a string`);
  const kind = meta.kind;
  if (typeof kind !== "string" || !KINDS.includes(kind)) {
    throw new RangeError(`${wm}: kind (${String(kind)}) must be one of ${KINDS.join(", ")}`);
  }
  const allowed = [
    "META",
    "WALLS",
    "GRAIN",
    "HISTORY",
    ...(kind === "StarSystem" ? ["SHAPES", "SHAPELUT"] : []),
    ...(kind === "ClumpSystem" ? ["TEMPLATE"] : []),
  ];
  for (const tag of c.sections.keys()) {
    if (!allowed.includes(tag)) throw new RangeError(`${where}: unexpected section ${tag}`);
  }
  const star = kind === "StarSystem";
  const wp = `${wm}: parameters`;
  const p = record(
    wp,
    "parameters",
    meta.parameters,
    star ? [...PARAM_KEYS, ...STAR_KEYS] : PARAM_KEYS,
  );
  const parameters: Record<string, unknown> = {
    timeStep: positive(wp, "timeStep", p.timeStep),
    gravity: numberArray(wp, "gravity", p.gravity, 2),
    normalStiffness: positive(wp, "normalStiffness", p.normalStiffness),
    tangentialStiffness: nonNegative(wp, "tangentialStiffness", p.tangentialStiffness),
    normalDamping: nonNegative(wp, "normalDamping", p.normalDamping),
    tangentialDamping: nonNegative(wp, "tangentialDamping", p.tangentialDamping),
    friction: nonNegative(wp, "friction", p.friction),
    rotationalDamping: nonNegative(wp, "rotationalDamping", p.rotationalDamping),
  };
  if (star) {
    const pick = (k: string, ok: string[]) => {
      if (!ok.includes(p[k] as string)) {
        throw new RangeError(`${wp}: ${k} (${String(p[k])}) must be one of ${ok.join(", ")}`);
      }
      parameters[k] = p[k];
    };
    pick("distance", ["first-order", "radial"]);
    pick("detection", ["symmetric", "one-sided"]);
    pick("contactPoints", ["deepest", "all-nodes"]);
  }
  const n = integerIn(wm, "count", meta.count, 0, 2 ** 31 - 1);
  const nextId = integerIn(wm, "nextId", meta.nextId, n, 2 ** 32);
  const time = finite(wm, "time", meta.time);
  const step = integerIn(wm, "step", meta.step, 0, Number.MAX_SAFE_INTEGER);
  const cell = nonNegative(wm, "cellSize", meta.cellSize);
  const keyTolerance = nonNegative(wm, "keyTolerance", meta.keyTolerance);
  let entries = -1;
  if (meta.contactHistories !== null) {
    const h = record(wm, "contactHistories", meta.contactHistories, ["entries"]);
    entries = integerIn(wm, "contactHistories.entries", h.entries, 0, 2 ** 31 - 1);
  }

  // GRAIN
  const rg = reader("GRAIN", true)!;
  sized(rg, n * GRAIN_BYTES, `${n} grains`);
  const pos = rg.f64s(2 * n), vel = rg.f64s(2 * n), ang = rg.f64s(n), omega = rg.f64s(n);
  const mass = rg.f64s(n), inertia = rg.f64s(n), rmax = rg.f64s(n);
  const ids = rg.u32s(n), shape = rg.u16s(n);
  rg.end();

  // WALLS
  const ww = `${where}: WALLS`;
  const wj = record(ww, "WALLS", parseJson(ww, reader("WALLS", true)!), WALL_KEYS);
  if (!Array.isArray(wj.kind) || wj.kind.length > MAX_WALLS) {
    throw new TypeError(`${ww}: kind must be an array of at most ${MAX_WALLS} wall kinds`);
  }
  const nw = wj.kind.length;
  const walls: GrainState["walls"] = {
    count: nw,
    kind: Int8Array.from(wj.kind, (v, k) => integerIn(ww, `kind[${k}]`, v, 0, 2)),
    enabled: Uint8Array.from(
      numberArray(ww, "enabled", wj.enabled, nw),
      (v, k) => integerIn(ww, `enabled[${k}]`, v, 0, 1),
    ),
    friction: Float64Array.from(
      numberArray(ww, "friction", wj.friction, nw),
      (v, k) => nonNegative(ww, `friction[${k}]`, v),
    ),
    omega: Float64Array.from(numberArray(ww, "omega", wj.omega, nw)),
    geom: Float64Array.from(numberArray(ww, "geom", wj.geom, 8 * nw)),
    base: Float64Array.from(numberArray(ww, "base", wj.base, 4 * nw)),
    spin: Float64Array.from(numberArray(ww, "spin", wj.spin, nw)),
  };
  for (let k = 0; k < nw; k++) {
    const g = walls.geom, o = 8 * k, kd = walls.kind[k];
    const bad = kd === 0
      ? !(Math.abs(Math.hypot(g[o + 2], g[o + 3]) - 1) < 1e-9)
      : kd === 1
      ? !(g[o + 4] > 0) || !(Math.hypot(g[o + 2] - g[o], g[o + 3] - g[o + 1]) > 0)
      : !(g[o + 2] > 0);
    if (bad) throw new RangeError(`${ww}: wall ${k} has an invalid geometry`);
  }

  // shapes, templates
  const shapes: StarShape[] = [];
  const templates: ClumpTemplate[] = [];
  if (star) {
    const ws = `${where}: SHAPES`;
    const list = parseJson(ws, reader("SHAPES", true)!);
    if (!Array.isArray(list) || list.length > 65535) {
      throw new TypeError(`${ws}: must be an array of at most 65535 shapes`);
    }
    const recs = list.map((v, k) => {
      const o = record(ws, `shape ${k}`, v, SHAPE_KEYS);
      if (typeof o.name !== "string") {
        throw new TypeError(`${ws}: shape ${k}: name must be a string`);
      }
      return {
        name: o.name,
        a0: finite(ws, `shape ${k}: a0`, o.a0),
        cos: numberArray(ws, `shape ${k}: cos`, o.cos),
        sin: numberArray(ws, `shape ${k}: sin`, o.sin),
        nodes: integerIn(ws, `shape ${k}: nodes`, o.nodes, 3, 2 ** 30),
        lutSize: integerIn(ws, `shape ${k}: lutSize`, o.lutSize, 6, 2 ** 30),
        rMax: positive(ws, `shape ${k}: rMax`, o.rMax),
        rMin: positive(ws, `shape ${k}: rMin`, o.rMin),
        area: positive(ws, `shape ${k}: area`, o.area),
        centroidX: finite(ws, `shape ${k}: centroidX`, o.centroidX),
        centroidY: finite(ws, `shape ${k}: centroidY`, o.centroidY),
        polarMoment: positive(ws, `shape ${k}: polarMoment`, o.polarMoment),
      } as ShapeRecord;
    });
    const rl = reader("SHAPELUT", true)!;
    const total = recs.reduce((s, r) => s + 8 * (r.lutSize + 1), 0);
    sized(rl, total, `the r tables of ${recs.length} shapes`);
    recs.forEach((r, k) => {
      const lut = rl.f64s(r.lutSize + 1);
      shapes.push(rebuildShape(`${ws}: shape ${k}`, r, lut));
    });
    rl.end();
  }
  if (kind === "ClumpSystem") {
    const wt = `${where}: TEMPLATE`;
    const list = parseJson(wt, reader("TEMPLATE", true)!);
    if (!Array.isArray(list) || list.length > 65535) {
      throw new TypeError(`${wt}: must be an array of at most 65535 templates`);
    }
    list.forEach((v, k) => {
      const o = record(wt, `template ${k}`, v, ["x", "y", "r", "area", "polarMoment"]);
      const r = numberArray(wt, `template ${k}: r`, o.r);
      if (r.length < 1 || r.length > 1024) {
        throw new RangeError(`${wt}: template ${k} must have 1 to 1024 disks (${r.length})`);
      }
      r.forEach((x, d) => positive(wt, `template ${k}: r[${d}]`, x));
      templates.push({
        x: Float64Array.from(numberArray(wt, `template ${k}: x`, o.x, r.length)),
        y: Float64Array.from(numberArray(wt, `template ${k}: y`, o.y, r.length)),
        r: Float64Array.from(r),
        area: positive(wt, `template ${k}: area`, o.area),
        polarMoment: positive(wt, `template ${k}: polarMoment`, o.polarMoment),
      });
    });
  }

  // HISTORY
  const rh = reader("HISTORY", false);
  if ((rh !== null) !== (entries >= 0)) {
    throw new RangeError(`${where}: META and the HISTORY section disagree`);
  }
  let history: GrainState["history"] = null;
  if (rh) {
    sized(rh, 24 * entries, `${entries} history entries`);
    history = {
      a: rh.i32s(entries),
      b: rh.i32s(entries),
      key: rh.f64s(entries),
      xi: rh.f64s(entries),
    };
    rh.end();
  }
  const s: GrainState = {
    kind,
    parameters,
    count: n,
    nextId,
    time,
    step,
    cell,
    keyTolerance,
    pos,
    vel,
    ang,
    omega,
    mass,
    inertia,
    rmax,
    ids,
    shape,
    shapes,
    templates,
    walls,
    history,
  };
  checkGrainState(where, s);
  return s;
}

/**
 * A StarShape equal, bit for bit, to the stored one: rebuilt from its scaled coefficients
 * (which validates them), checked against the stored table and mass properties, then given
 * the stored values.
 */
function rebuildShape(where: string, r: ShapeRecord, lut: Float64Array): StarShape {
  sizeGuard(where, `a shape of ${r.lutSize} samples`, 24 * r.lutSize + 16 * r.nodes, 2 ** 30);
  const sh = new StarShape({
    a0: r.a0,
    cos: r.cos,
    sin: r.sin,
    r0: 1,
    nodes: r.nodes,
    lutSize: r.lutSize,
    name: r.name,
  });
  const tol = 1e-9 * sh.rMax;
  for (let k = 0; k <= r.lutSize; k++) {
    if (!(Math.abs(lut[k] - sh.lutR[k]) <= tol)) {
      throw new RangeError(`${where}: r table entry ${k} (${lut[k]}) disagrees with the shape`);
    }
  }
  const props = ["rMax", "rMin", "area", "centroidX", "centroidY", "polarMoment"] as const;
  for (const k of props) {
    const scale = k === "area" ? sh.rMax ** 2 : k === "polarMoment" ? sh.rMax ** 4 : sh.rMax;
    if (!(Math.abs(r[k] - sh[k]) <= 1e-9 * scale)) {
      throw new RangeError(`${where}: ${k} (${r[k]}) disagrees with the shape (${sh[k]})`);
    }
  }
  sh.lutR.set(lut);
  const fields: Record<string, number> = {};
  for (const k of props) fields[k] = r[k];
  Object.assign(sh, fields);
  return sh;
}

function firstNonFinite(a: Float64Array): number {
  for (let k = 0; k < a.length; k++) if (!Number.isFinite(a[k])) return k;
  return -1;
}

/** Check the grains and histories of a decoded state (ids, values, references). */
function checkGrainState(where: string, s: GrainState): void {
  const n = s.count;
  const fin = (name: string, a: Float64Array, stride: number) => {
    const k = firstNonFinite(a);
    if (k >= 0) {
      throw new RangeError(
        `${where}: ${name} of grain ${Math.floor(k / stride)} (${a[k]}) must be finite`,
      );
    }
  };
  fin("position", s.pos, 2);
  fin("velocity", s.vel, 2);
  fin("angle", s.ang, 1);
  fin("angular velocity", s.omega, 1);
  const shapes = s.kind === "StarSystem"
    ? s.shapes.length
    : s.kind === "ClumpSystem"
    ? s.templates.length
    : 1;
  for (let i = 0; i < n; i++) {
    for (
      const [name, a] of [["mass", s.mass], ["inertia", s.inertia], ["radius", s.rmax]] as const
    ) {
      if (!(a[i] > 0 && a[i] < Infinity)) {
        throw new RangeError(`${where}: ${name} of grain ${i} (${a[i]}) must be finite and > 0`);
      }
    }
    if (s.shape[i] >= shapes) {
      throw new RangeError(`${where}: shape of grain ${i} (${s.shape[i]}) is not defined`);
    }
  }
  sizeGuard(where, `an id table for ${s.nextId} ids`, 4 * s.nextId);
  const live = new Uint8Array(s.nextId);
  for (let i = 0; i < n; i++) {
    const id = s.ids[i];
    if (id >= s.nextId) {
      throw new RangeError(`${where}: id of grain ${i} (${id}) must be < nextId (${s.nextId})`);
    }
    if (live[id]) throw new RangeError(`${where}: two grains share the id ${id}`);
    live[id] = 1;
  }
  const h = s.history;
  if (!h) return;
  for (const [name, a] of [["key", h.key], ["spring", h.xi]] as const) {
    const k = firstNonFinite(a);
    if (k >= 0) throw new RangeError(`${where}: history entry ${k} has a non-finite ${name}`);
  }
  const runs = new Set<string>();
  for (let k = 0; k < h.a.length; k++) {
    const a = h.a[k], b = h.b[k];
    if (!(a >= 0 && a < s.nextId && live[a])) {
      throw new RangeError(`${where}: history entry ${k}: id ${a} is not a grain`);
    }
    if (b >= 0 ? !(b < s.nextId && live[b] && b !== a) : -1 - b >= s.walls.count) {
      throw new RangeError(`${where}: history entry ${k}: partner ${b} is not a grain or a wall`);
    }
    if (k === 0 || a !== h.a[k - 1] || b !== h.b[k - 1]) {
      const key = `${a},${b}`;
      if (runs.has(key)) {
        throw new RangeError(`${where}: history entry ${k}: the contacts of ${key} are split`);
      }
      runs.add(key);
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Apply

/**
 * Replace everything `sys` holds (grains, parameters, shapes or templates, walls, histories,
 * clock) with `s`. Statistics other than the step count and time are reset, and the contacts
 * of the last step cleared. Throws (changing nothing) when `s` holds another kind of system.
 */
export function applyGrainState(sys: GrainSystem2, s: GrainState, where: string): void {
  if (s.kind !== sys._kind) {
    throw new RangeError(
      `${where}: the file holds a ${s.kind}, not a ${sys._kind}; load it with ` +
        `${s.kind}.fromState(path)`,
    );
  }
  const n = s.count;
  sys.reserve(n); // allocation first: a failure changes nothing that matters
  const p = s.parameters, g = p.gravity as number[];
  Object.assign(sys, {
    timeStep: p.timeStep,
    gravityX: g[0],
    gravityY: g[1],
    kn: p.normalStiffness,
    kt: p.tangentialStiffness,
    cn: p.normalDamping,
    ct: p.tangentialDamping,
    friction: p.friction,
    rotationalDamping: p.rotationalDamping,
  });
  if (s.kind === "StarSystem") {
    const st = sys as StarSystem;
    Object.assign(st, {
      distance: p.distance,
      detection: p.detection,
      contactPoints: p.contactPoints,
    });
    st._det.settings = {
      firstOrder: p.distance === "first-order",
      symmetric: p.detection === "symmetric",
      allNodes: p.contactPoints === "all-nodes",
    };
    st.starShapes.splice(0, st.starShapes.length, ...s.shapes);
  }
  if (s.kind === "ClumpSystem") {
    const cs = sys as ClumpSystem;
    cs.templates.splice(0, cs.templates.length, ...s.templates);
  }
  sys._pos.set(s.pos);
  sys._vel.set(s.vel);
  sys._ang.set(s.ang);
  sys._omega.set(s.omega);
  sys._mass.set(s.mass);
  sys._inertia.set(s.inertia);
  sys._rmax.set(s.rmax);
  sys._ids.set(s.ids);
  sys._shape.set(s.shape);
  sys.count = n;
  sys._nextId = s.nextId;
  sys._cell = s.cell;
  sys._keyTol = s.keyTolerance;
  sys.time = s.time;
  const w = sys.walls, sw = s.walls, cap = Math.max(8, sw.count);
  w.kind = new Int8Array(cap);
  w.kind.set(sw.kind);
  w.enabled = new Uint8Array(cap);
  w.enabled.set(sw.enabled);
  const grown = (a: Float64Array, stride: number) => {
    const b = new Float64Array(cap * stride);
    b.set(a);
    return b;
  };
  w.friction = grown(sw.friction, 1);
  w.omega = grown(sw.omega, 1);
  w.spin = grown(sw.spin, 1);
  w.geom = grown(sw.geom, 8);
  w.base = grown(sw.base, 4);
  w.count = sw.count;
  const h = s.history;
  if (h) sys._history.importRecorded(h.a, h.b, h.key, h.xi);
  else {sys._history.importRecorded(
      new Int32Array(0),
      new Int32Array(0),
      new Float64Array(0),
      new Float64Array(0),
    );}
  const st = sys.lastStepStats;
  for (const k of Object.keys(st) as (keyof typeof st)[]) st[k] = 0;
  st.step = s.step;
  st.time = s.time;
  const pr = sys.lastStepProfile;
  for (const k of Object.keys(pr) as (keyof typeof pr)[]) pr[k] = 0;
  sys.contacts.count = 0;
}
