/**
 * Checkpoints of the 2D grain systems (`saveState` / `loadState` of `GrainSystem2`):
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
 * This module imports the system classes for types only (`body.ts` imports it). Capture,
 * encode and apply live here; decoding and checking in `checkpoint_decode.ts` (re-exported
 * here), the file plumbing shared with sphere3d in `src/math/checkpoint_io.ts`.
 *
 * @module
 */
import { encodeContainer, type Section } from "../math/container.ts";
import { binarySection, jsonSection, type SectionArray } from "../math/checkpoint_io.ts";
import type { GrainSystemState } from "./body_state.ts";
import type { StarDetector } from "./detect.ts";
import type { StarShape } from "./shape.ts";
import type { ClumpTemplate } from "./clump_template.ts";
import { VERSION } from "../version.ts";
import { resetProfile } from "../contact/stats.ts";

export { decodeGrainState } from "./checkpoint_decode.ts";
export {
  type GrainState,
  SAVE_STATE_KEYS,
  type SaveStateOptions,
  type ShapeRecord,
  STAR2D_CHECKPOINT_MAGIC,
  STAR2D_CHECKPOINT_VERSION,
} from "./checkpoint_format.ts";
import {
  type GrainState,
  type ShapeRecord,
  STAR2D_CHECKPOINT_MAGIC,
  STAR2D_CHECKPOINT_VERSION,
} from "./checkpoint_format.ts";

/** What a checkpoint writes and restores of a `StarSystem` beyond the shared state. */
interface StarSystemParts {
  /** The distance: first-order or radial. */
  distance: "first-order" | "radial";
  /** Symmetric or one-sided detection. */
  detection: "symmetric" | "one-sided";
  /** The deepest node per contact or all nodes. */
  contactPoints: "deepest" | "all-nodes";
  /** The node tests (their settings follow the three above). */
  readonly detector: StarDetector;
  /** Registered shapes, indexed by the `shapes` column. */
  readonly starShapes: StarShape[];
}

/** What a checkpoint writes and restores of a `ClumpSystem` beyond the shared state. */
interface ClumpSystemParts {
  /** Registered templates, indexed by the `shapes` column. */
  readonly templates: ClumpTemplate[];
}

function parametersOf(sys: GrainSystemState): Record<string, unknown> {
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
  if (sys.systemKind === "StarSystem") {
    const s = sys as GrainSystemState & StarSystemParts;
    p.distance = s.distance;
    p.detection = s.detection;
    p.contactPoints = s.contactPoints;
  }
  return p;
}

/** The state of `sys` (views into its columns; encode it before the system steps on). */
export function captureGrainState(sys: GrainSystemState, histories: boolean): GrainState {
  const n = sys.count, w = sys.walls, nw = w.count;
  const kind = sys.systemKind;
  return {
    kind,
    parameters: parametersOf(sys),
    count: n,
    nextId: sys.store.nextId,
    time: sys.time,
    step: sys.lastStepStats.step,
    cell: sys.detectionState.cell,
    keyTolerance: sys.detectionState.keyTol,
    pos: sys.positions,
    vel: sys.velocities,
    ang: sys.angles,
    omega: sys.angularVelocities,
    mass: sys.masses,
    inertia: sys.inertias,
    rmax: sys.radii,
    ids: sys.ids,
    shape: sys.shapes,
    shapes: kind === "StarSystem"
      ? [...(sys as GrainSystemState & StarSystemParts).starShapes]
      : [],
    templates: kind === "ClumpSystem"
      ? [...(sys as GrainSystemState & ClumpSystemParts).templates]
      : [],
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
    history: histories ? sys.detectionState.history.exportRecorded() : null,
  };
}

/** The checkpoint bytes of `s` (little-endian unless told otherwise). */
export function encodeGrainState(s: GrainState, littleEndian = true): Uint8Array {
  const text = (v: unknown) => jsonSection(v, littleEndian);
  const bin = (...arrays: SectionArray[]) => binarySection(littleEndian, ...arrays);
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
// Apply

/**
 * Replace everything `sys` holds (grains, parameters, shapes or templates, walls, histories,
 * clock) with `s`. Statistics other than the step count and time are reset, and the contacts
 * of the last step cleared. Throws (changing nothing) when `s` holds another kind of system.
 */
export function applyGrainState(sys: GrainSystemState, s: GrainState, where: string): void {
  if (s.kind !== sys.systemKind) {
    throw new RangeError(
      `${where}: the file holds a ${s.kind}, not a ${sys.systemKind}; load it with ` +
        `${s.kind}.fromState(path)`,
    );
  }
  const n = s.count;
  sys.reserve(n); // allocation first: a failure changes nothing that matters
  const p = s.parameters, g = p.gravity as number[];
  // the decoder checked the time step against the stored grains (`checkGrainState`)
  sys.setTimeStepUnchecked(p.timeStep as number);
  Object.assign(sys, {
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
    const st = sys as GrainSystemState & StarSystemParts;
    Object.assign(st, {
      distance: p.distance,
      detection: p.detection,
      contactPoints: p.contactPoints,
    });
    st.detector.settings = {
      firstOrder: p.distance === "first-order",
      symmetric: p.detection === "symmetric",
      allNodes: p.contactPoints === "all-nodes",
    };
    st.starShapes.splice(0, st.starShapes.length, ...s.shapes);
  }
  if (s.kind === "ClumpSystem") {
    const cs = sys as GrainSystemState & ClumpSystemParts;
    cs.templates.splice(0, cs.templates.length, ...s.templates);
  }
  sys.store.pos.set(s.pos);
  sys.store.vel.set(s.vel);
  sys.store.ang.set(s.ang);
  sys.store.omega.set(s.omega);
  sys.store.mass.set(s.mass);
  sys.store.inertia.set(s.inertia);
  sys.store.rmax.set(s.rmax);
  sys.store.ids.set(s.ids);
  sys.store.shape.set(s.shape);
  sys.count = n;
  sys.store.nextId = s.nextId;
  sys.detectionState.cell = s.cell;
  sys.detectionState.keyTol = s.keyTolerance;
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
  if (h) sys.detectionState.history.importRecorded(h.a, h.b, h.key, h.xi);
  else {sys.detectionState.history.importRecorded(
      new Int32Array(0),
      new Int32Array(0),
      new Float64Array(0),
      new Float64Array(0),
    );}
  const st = sys.lastStepStats;
  for (const k of Object.keys(st) as (keyof typeof st)[]) st[k] = 0;
  st.step = s.step;
  st.time = s.time;
  resetProfile(sys.lastStepProfile);
  sys.contacts.count = 0;
  sys.guard.stale = true;
}
