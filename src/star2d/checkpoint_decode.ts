/**
 * Decoding and checking of star2d checkpoints (`decodeGrainState`): every section, field,
 * length and reference is checked, and star shapes are rebuilt bit for bit, before anything
 * of the system is touched. The format is described in `docs/checkpoint.md`.
 *
 * @module
 */
import { GRAIN_SYSTEM_KEYS, STAR_OPTION_KEYS } from "./options.ts";
import {
  decodeChecked,
  expectBytes as sized,
  firstNonFinite,
  historySection,
  numberArray,
  openCheckpoint,
  record,
} from "../math/checkpoint_io.ts";
import { finite, integerIn, nonNegative, positive, sizeGuard } from "../math/validate.ts";
import { StarShape } from "./shape.ts";
import { checkStableSteps } from "./guard.ts";
import type { ClumpTemplate } from "./clump_template.ts";
import {
  type GrainState,
  type ShapeRecord,
  STAR2D_CHECKPOINT_MAGIC,
  STAR2D_CHECKPOINT_VERSION,
} from "./checkpoint_format.ts";

const KINDS = ["StarSystem", "DiskSystem", "ClumpSystem"];
const GRAIN_BYTES = 8 * 9 + 4 + 2;
const MAX_WALLS = 1 << 20;

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
  return decodeChecked(where, () => decode(bytes, where));
}

function decode(bytes: Uint8Array, where: string): GrainState {
  const c = openCheckpoint(bytes, {
    magic: STAR2D_CHECKPOINT_MAGIC,
    maxVersion: STAR2D_CHECKPOINT_VERSION,
    where,
    kind: "star2d checkpoint",
  });
  const reader = c.reader;

  // META
  const wm = `${where}: META`;
  const meta = record(wm, "META", c.json("META"), META_KEYS);
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
  for (const tag of c.tags) {
    if (!allowed.includes(tag)) throw new RangeError(`${where}: unexpected section ${tag}`);
  }
  const star = kind === "StarSystem";
  const wp = `${wm}: parameters`;
  const p = record(
    wp,
    "parameters",
    meta.parameters,
    star ? [...GRAIN_SYSTEM_KEYS, ...STAR_OPTION_KEYS] : GRAIN_SYSTEM_KEYS,
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
  const wj = record(ww, "WALLS", c.json("WALLS"), WALL_KEYS);
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
    const list = c.json("SHAPES");
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
    const list = c.json("TEMPLATE");
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
  const history: GrainState["history"] = historySection(
    c,
    where,
    entries >= 0,
    24 * entries,
    `${entries} history entries`,
    (rh) => ({
      a: rh.i32s(entries),
      b: rh.i32s(entries),
      key: rh.f64s(entries),
      xi: rh.f64s(entries),
    }),
  );
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

/**
 * Throw when the stored time step exceeds the stability bound of a stored grain, as
 * `addGrains` would have (lever: the bounding radius, plus the centroid offset of a star shape).
 */
function checkStableStep(where: string, s: GrainState): void {
  const p = s.parameters, star = s.kind === "StarSystem";
  const off = s.shapes.map((sh) =>
    Math.sqrt(sh.centroidX * sh.centroidX + sh.centroidY * sh.centroidY)
  );
  checkStableSteps(
    where,
    p.timeStep as number,
    p.normalStiffness as number,
    p.tangentialStiffness as number,
    p.normalDamping as number,
    s.count,
    s.mass,
    s.inertia,
    (i) => s.rmax[i] + (star ? off[s.shape[i]] : 0),
  );
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
  checkStableStep(`${where}: META: parameters`, s);
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
