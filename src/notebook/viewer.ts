/**
 * An interactive 3D view of sphere3d grains, built on three.js (WebGL): {@link view3d} returns
 * a {@link View3D} that a Deno Jupyter cell shows (`Deno.jupyter.display(view)`), and
 * {@link writeViewer} writes the same view as one standalone HTML file to open in a browser.
 *
 * Grains are instanced spheres at their true radius, coloured by a column (height, speed,
 * material id, contacts per grain, sleeping, fixed, any numeric column of recorded frames)
 * with a legend; the ground plane, the container and the periodic cell are drawn as in the
 * simulation; force chains are cylinders whose width is proportional to the normal force.
 * Drag to orbit, shift- or right-drag to pan, wheel to zoom, double-click to reset; a time slider
 * with play/pause steps through recorded frames ({@link ViewRecorder}, or the frames of a
 * `FrameWriter` stream read back with `readFrames`).
 *
 * The page needs nothing from the network: three.js (the exact-pinned npm package, tree-shaken
 * and minified when `deno bundle` is available) and the frames (positions quantised to 16 bits
 * over the scene's bounding box, radii and colour columns as float32, all gzipped and base64)
 * are inside the HTML. A still image drawn in Deno stands in for the view where no script runs
 * (GitHub, `nbconvert` without a browser) until WebGL has drawn.
 *
 * @module
 */

import { gzipSync } from "node:zlib";
import type { ParticleSystemLike } from "../arrow/types.ts";
import { writeFileAtomic } from "../arrow/io.ts";
import { nearest, options as checkOptions, sizeGuard } from "../math/validate.ts";
import { colorScale } from "../plot/color.ts";
import { escapeXml } from "../plot/dom.ts";
import { base64 } from "../plot/figure.ts";
import { VERSION } from "../version.ts";
import { DISPLAY } from "./display.ts";
import type { MediaBundle } from "./kernel.ts";
import { type Camera, encodePNG, renderSpheres } from "./raster.ts";
import { threeSource } from "./three_source.ts";
import { viewerClient } from "./viewer_client.ts";

export type { Camera } from "./raster.ts";

/** Box corners as the simulators report them. */
export interface BoxLike {
  /** Lower corner (m). */
  readonly min: ArrayLike<number>;
  /** Upper corner (m). */
  readonly max: ArrayLike<number>;
}

/**
 * Boundaries to draw. A sphere3d `GranularSystem` is one (its `groundPlane`, `containerBox` and
 * `periodicBoundary`), so `boundaries: bed` shows a bed's boundaries around recorded frames.
 */
export interface BoundariesLike {
  /** Ground plane height (m), or null. */
  readonly groundPlane?: number | null;
  /** Open-top container box, or null. */
  readonly containerBox?: BoxLike | null;
  /** Periodic cell, or null; `x`, `y`, `z` say which axes wrap (default: those with extent). */
  readonly periodicBoundary?:
    | (BoxLike & { readonly x?: boolean; readonly y?: boolean; readonly z?: boolean })
    | null;
}

/** A sphere3d system as the viewer reads it: particles plus, optionally, boundaries. */
export interface ViewSystem extends ParticleSystemLike, BoundariesLike {
  /** 1 where a grain sleeps (systems that put grains to sleep). */
  readonly sleeping?: ArrayLike<number>;
}

/** A world: its systems, clock and step count. */
export interface ViewWorld {
  /** The granular systems. */
  readonly systems: readonly ViewSystem[];
  /** Simulated time (s). */
  readonly time?: number;
  /** Steps taken. */
  readonly stepCount?: number;
}

/** A recorded frame as `readFrames` returns it: an Arrow table of particle rows. */
export interface FrameLike {
  /** Frame number. */
  readonly frame: number;
  /** Simulated time (s). */
  readonly time: number;
  /** The rows: `x`, `y`, `z`, `radius` and any other numeric columns. */
  readonly table: TableLike;
}

/** The part of an Arrow table the viewer reads. */
export interface TableLike {
  /** Rows. */
  readonly numRows: number;
  /** Column by name. */
  getChild(name: string): { toArray(): ArrayLike<number | bigint> } | null;
  /** Field names and types. */
  readonly schema: {
    readonly fields: readonly { readonly name: string; readonly type: unknown }[];
  };
}

/** What {@link view3d} shows: a world, a system, a recorder, recorded frames or an Arrow table. */
export type ViewSource =
  | ViewWorld
  | ViewSystem
  | ViewRecorder
  | readonly FrameLike[]
  | TableLike;

/** A static triangle mesh shown in the scene (bodies, terrain, height maps). */
export interface ViewMesh {
  /** Vertex coordinates, stride 3 (m). */
  vertices: ArrayLike<number>;
  /** Triangle vertex indices, 3 per triangle. */
  indices: ArrayLike<number>;
  /** Colour `#rrggbb`. @default "#8a8f98" */
  color?: string;
  /** Opacity in (0, 1]. @default 1 */
  opacity?: number;
}

/** Colour scale settings of one column. */
export interface ViewScale {
  /** "linear" or "log" (categorical columns ignore it). @default "linear" */
  type?: "linear" | "log";
  /** Value range mapped to the ends of the scheme. @default [min, max] over all frames */
  domain?: [number, number];
  /** Observable Plot colour scheme. @default "viridis" (categorical: "tableau10") */
  scheme?: string;
  /** Legend title. @default the column name with its unit */
  label?: string;
}

/** Options of {@link view3d} and {@link writeViewer}. */
export interface View3DOptions {
  /**
   * Colour column(s); the first is shown first, the others are offered in a menu. Built in:
   * `"height"` (= `"z"`), `"x"`, `"y"`, `"speed"`, `"radius"`, `"material"` (material id),
   * `"contacts"` (contacts per grain in the last step), `"sleeping"`, `"fixed"`, `"id"`,
   * `"system"` (which system of a world); recorded Arrow frames add their numeric columns.
   * @default "height"
   */
  color?: string | readonly string[];
  /** Colour scale settings per column name. */
  scales?: Record<string, ViewScale>;
  /**
   * Offer the force network (a "force chains" switch), from the frames' contacts: cylinders
   * from centre to centre (or to the boundary contact point), width ∝ normal force.
   * @default false
   */
  network?: boolean;
  /** Show the force chains at first (implies `network`). @default false */
  showNetwork?: boolean;
  /** Boundaries: true = those of the source's systems, false = none, or a system to copy them from. @default true */
  boundaries?: boolean | BoundariesLike;
  /** Triangle meshes to show (rigid bodies, terrain). */
  meshes?: readonly ViewMesh[];
  /** Title above the view. */
  title?: string;
  /** Width of the view (px). @default 720 */
  width?: number;
  /** Height of the view (px). @default 480 */
  height?: number;
  /** Background colour `#rrggbb`. @default "#f3f4f6" */
  background?: string;
  /** Camera; the default looks at the grains from the front right, above. */
  camera?: Partial<Camera>;
  /** Frame shown first; negative counts from the end. @default -1 (the last) */
  frame?: number;
  /** Frames per second when playing. @default 8 */
  fps?: number;
  /** Draw a still image that stands in where no script runs. @default true */
  poster?: boolean;
  /** Tree-shake and minify three.js with `deno bundle` when it can. @default true */
  bundle?: boolean;
}

const OPTION_KEYS = [
  "color",
  "scales",
  "network",
  "showNetwork",
  "boundaries",
  "meshes",
  "title",
  "width",
  "height",
  "background",
  "camera",
  "frame",
  "fps",
  "poster",
  "bundle",
];

/** Sizes and contents of a {@link View3D}. */
export interface ViewInfo {
  /** Frames. */
  frames: number;
  /** Grains in the largest frame. */
  grains: number;
  /** Colour columns offered. */
  columns: string[];
  /** Whether force chains are included. */
  network: boolean;
  /** Bytes of the notebook HTML (the whole output). */
  bytes: number;
  /** Bytes of the embedded frame data (gzipped, base64). */
  dataBytes: number;
  /** Bytes of the embedded three.js (gzipped, base64). */
  threeBytes: number;
  /** Bytes of the still image (PNG, base64); 0 without one. */
  posterBytes: number;
  /** How three.js was embedded: "bundle" (tree-shaken, minified) or "raw". */
  three: "bundle" | "raw";
}

// ---- recorded frames ---------------------------------------------------------------------

interface Network {
  pi: Uint32Array;
  pj: Uint32Array;
  pf: Float32Array;
  bi: Uint32Array;
  bp: Float32Array;
  bf: Float32Array;
}

interface ViewFrame {
  time: number | null;
  count: number;
  positions: Float32Array;
  radii: Float32Array;
  columns: Map<string, Float32Array>;
  network?: Network;
}

interface Boundaries {
  ground: number | null;
  containers: { min: number[]; max: number[] }[];
  /** Periodic cells; `axes` says which axes wrap (the others span the grains when drawn). */
  periodic: { min: number[]; max: number[]; axes: boolean[] }[];
}

interface Recording {
  frames: ViewFrame[];
  boundaries: Boundaries;
  bytes: number;
}

const recordings = new WeakMap<ViewRecorder, Recording>();

/** Options of {@link ViewRecorder}. */
export interface ViewRecorderOptions {
  /** Record each frame's force network (for `network: true`). @default true */
  contacts?: boolean;
  /** Most bytes the recorder may hold. @default 1 GiB */
  maxBytes?: number;
}

/**
 * Frames for a 3D view, kept in memory: call {@link record} while a simulation runs (every
 * few steps), then pass the recorder to {@link view3d}. Each frame copies the positions (as
 * float32), radii, speeds, material ids, fixed flags, contact counts and, unless
 * `contacts: false`, the force network.
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { ViewRecorder } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-3 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.5]], radii: 0.01 });
 * const rec = new ViewRecorder();
 * for (let k = 0; k < 3; k++) {
 *   world.run(100);
 *   rec.record(world);
 * }
 * expect(rec.length).toBe(3);
 * expect(rec.times[2]).toBeCloseTo(0.3, 12);
 * expect(() => rec.record({} as never)).toThrow(TypeError);
 * ```
 */
export class ViewRecorder {
  #contacts: boolean;
  #maxBytes: number;

  /**
   * An empty recorder.
   *
   * @param options contacts and memory limit
   * @throws {RangeError} on unknown options or a bad limit
   */
  constructor(options: ViewRecorderOptions = {}) {
    const o = checkOptions<ViewRecorderOptions>("ViewRecorder", "options", options, [
      "contacts",
      "maxBytes",
    ]);
    if (o.contacts !== undefined && typeof o.contacts !== "boolean") {
      throw new TypeError(`ViewRecorder: contacts (${String(o.contacts)}) must be a boolean`);
    }
    this.#contacts = o.contacts ?? true;
    this.#maxBytes = o.maxBytes ?? 2 ** 30;
    if (!(this.#maxBytes > 0)) {
      throw new RangeError(`ViewRecorder: maxBytes (${o.maxBytes}) must be > 0`);
    }
    recordings.set(this, {
      frames: [],
      boundaries: { ground: null, containers: [], periodic: [] },
      bytes: 0,
    });
  }

  /** Frames recorded. */
  get length(): number {
    return recordings.get(this)!.frames.length;
  }

  /** Simulated time of each frame (s; NaN where unknown). */
  get times(): number[] {
    return recordings.get(this)!.frames.map((f) => f.time ?? NaN);
  }

  /** Bytes held. */
  get bytes(): number {
    return recordings.get(this)!.bytes;
  }

  /**
   * Records one frame: a snapshot of a world (all its systems) or of one system. The
   * boundaries of the last recorded systems are the ones the view draws.
   *
   * @param source a sphere3d `World` or `GranularSystem` (or objects of their shape)
   * @param stamp the frame's time (default: the world's)
   * @returns the frame's index
   * @throws {TypeError} when `source` is not a world or a 3D particle system
   * @throws {RangeError} when the recorder would exceed `maxBytes`
   */
  record(
    source: ViewWorld | ViewSystem,
    stamp: { time?: number; world?: { readonly time?: number } } = {},
  ): number {
    const rec = recordings.get(this)!;
    const { systems, world } = systemsOf("ViewRecorder.record", source);
    const frame = snapshot("ViewRecorder.record", systems, this.#contacts);
    frame.time = stamp.time ?? stamp.world?.time ?? world?.time ?? systems[0].world?.time ?? null;
    const bytes = frameBytes(frame);
    sizeGuard("ViewRecorder.record", "the recorded frames", rec.bytes + bytes, this.#maxBytes);
    rec.frames.push(frame);
    rec.bytes += bytes;
    rec.boundaries = boundariesOf(systems);
    return rec.frames.length - 1;
  }

  /**
   * A recorder filled from recorded frames, e.g. `readFrames(path)` of a `FrameWriter` stream
   * (every numeric column becomes a colour column).
   *
   * @param frames frames (an async or sync iterable of `{ frame, time, table }`)
   * @param options `every`: keep every n-th frame (the last is always kept)
   * @returns the recorder
   * @throws {RangeError} when a frame has no `x`, `y`, `z` or `radius` column, or `every` is
   *   not a positive integer
   * @example
   * ```ts
   * import { FrameWriter, readFrames } from "@grainlab/grainlab/arrow";
   * import { ViewRecorder } from "@grainlab/grainlab/notebook";
   * import { expect } from "expect";
   * const dir = await Deno.makeTempDir();
   * const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
   * for (let k = 0; k < 5; k++) {
   *   await w.write({ count: 1, positions: [0, 0, 1 - 0.1 * k], velocities: [0, 0, -k], radii: [0.01] }, { time: k });
   * }
   * await w.close();
   * const rec = await ViewRecorder.fromFrames(readFrames(`${dir}/run.arrows`), { every: 2 });
   * expect(rec.times).toEqual([0, 2, 4]);
   * ```
   */
  static async fromFrames(
    frames: AsyncIterable<FrameLike> | Iterable<FrameLike>,
    options: { every?: number; maxBytes?: number } = {},
  ): Promise<ViewRecorder> {
    const where = "ViewRecorder.fromFrames";
    const o = checkOptions<{ every?: number; maxBytes?: number }>(where, "options", options, [
      "every",
      "maxBytes",
    ]);
    const every = o.every ?? 1;
    if (!(Number.isInteger(every) && every >= 1)) {
      throw new RangeError(`${where}: every (${every}) must be a positive integer`);
    }
    const r = new ViewRecorder({ maxBytes: o.maxBytes }); // later record() calls keep contacts
    const rec = recordings.get(r)!;
    let k = 0, pending: ViewFrame | null = null;
    for await (const f of frames as AsyncIterable<FrameLike>) {
      const frame = tableFrame(where, f.table, f.time);
      if (k++ % every === 0) {
        rec.frames.push(frame);
        rec.bytes += frameBytes(frame);
        sizeGuard(where, "the recorded frames", rec.bytes, r.#maxBytes);
        pending = null;
      } else pending = frame;
    }
    if (pending) {
      rec.frames.push(pending);
      rec.bytes += frameBytes(pending);
    }
    return r;
  }
}

function frameBytes(f: ViewFrame): number {
  let b = f.positions.byteLength + f.radii.byteLength;
  for (const c of f.columns.values()) b += c.byteLength;
  if (f.network) { for (const a of Object.values(f.network)) b += a.byteLength; }
  return b + 256;
}

function isWorld(v: unknown): v is ViewWorld {
  return typeof v === "object" && v !== null && Array.isArray((v as ViewWorld).systems);
}

function isSystem(v: unknown): v is ViewSystem {
  const s = v as ViewSystem;
  return typeof v === "object" && v !== null && typeof s.count === "number" && !!s.positions;
}

function systemsOf(
  where: string,
  source: unknown,
): { systems: readonly ViewSystem[]; world?: ViewWorld } {
  if (isWorld(source)) {
    if (source.systems.length === 0) {
      throw new RangeError(`${where}: the world has no granular systems to show`);
    }
    return { systems: source.systems, world: source };
  }
  if (isSystem(source)) return { systems: [source] };
  throw new TypeError(
    `${where}: source (${describe(source)}) must be a sphere3d World or GranularSystem`,
  );
}

function describe(v: unknown): string {
  if (v === null || typeof v !== "object") return String(v);
  return v.constructor?.name ?? "object";
}

/** One frame from live systems (concatenated in order). */
function snapshot(where: string, systems: readonly ViewSystem[], contacts: boolean): ViewFrame {
  let n = 0;
  for (const s of systems) {
    if (!isSystem(s)) throw new TypeError(`${where}: ${describe(s)} is not a particle system`);
    const d = s.dimension ?? (s.angles !== undefined ? 2 : 3);
    if (d !== 3) {
      throw new RangeError(
        `${where}: a ${d}D system cannot be shown in 3D (view3d shows sphere3d grains); ` +
          `draw 2D grains with particles2d from @grainlab/grainlab/plot`,
      );
    }
    if (!s.radii) throw new TypeError(`${where}: the system has no radii`);
    if (s.positions.length < 3 * s.count || s.radii.length < s.count) {
      throw new RangeError(`${where}: the system's arrays are shorter than count (${s.count})`);
    }
    n += s.count;
  }
  const positions = new Float32Array(3 * n), radii = new Float32Array(n);
  const speed = new Float32Array(n), contactCount = new Float32Array(n);
  const optional: Record<string, Float32Array | null> = {
    materialId: systems.every((s) => s.materialIds) ? new Float32Array(n) : null,
    fixed: systems.every((s) => s.fixed) ? new Float32Array(n) : null,
    id: systems.every((s) => s.ids) ? new Float32Array(n) : null,
    sleeping: systems.some((s) => s.sleeping) ? new Float32Array(n) : null,
    system: systems.length > 1 ? new Float32Array(n) : null,
  };
  const pi: number[] = [], pj: number[] = [], pf: number[] = [];
  const bi: number[] = [], bp: number[] = [], bf: number[] = [];
  let off = 0;
  systems.forEach((s, si) => {
    const m = s.count, p = s.positions, v = s.velocities;
    for (let i = 0; i < m; i++) {
      const o = off + i;
      positions[3 * o] = p[3 * i], positions[3 * o + 1] = p[3 * i + 1];
      positions[3 * o + 2] = p[3 * i + 2];
      radii[o] = s.radii![i];
      speed[o] = Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
      if (optional.materialId) optional.materialId[o] = s.materialIds![i];
      if (optional.fixed) optional.fixed[o] = s.fixed![i];
      if (optional.id) optional.id[o] = s.ids![i];
      if (optional.sleeping) optional.sleeping[o] = s.sleeping ? (s.sleeping[i] ? 1 : 0) : 0;
      if (optional.system) optional.system[o] = si;
    }
    const c = s.contacts;
    if (c) {
      for (let k = 0; k < c.count; k++) {
        const i = c.i[k], j = c.j[k];
        if (!(i >= 0 && i < m)) continue;
        contactCount[off + i]++;
        if (c.kind[k] === 0 && j >= 0 && j < m) {
          contactCount[off + j]++;
          if (contacts) pi.push(off + i), pj.push(off + j), pf.push(c.normalForce[k]);
        } else if (j < 0 && contacts) {
          bi.push(off + i), bf.push(c.normalForce[k]);
          bp.push(c.point[3 * k], c.point[3 * k + 1], c.point[3 * k + 2]);
        }
      }
    }
    off += m;
  });
  const columns = new Map<string, Float32Array>([["speed", speed], ["radius", radii]]);
  if (systems.some((s) => s.contacts)) columns.set("contacts", contactCount);
  for (const [k, v] of Object.entries(optional)) if (v) columns.set(k, v);
  const frame: ViewFrame = { time: null, count: n, positions, radii, columns };
  if (contacts && systems.some((s) => s.contacts)) {
    frame.network = {
      pi: Uint32Array.from(pi),
      pj: Uint32Array.from(pj),
      pf: Float32Array.from(pf),
      bi: Uint32Array.from(bi),
      bp: Float32Array.from(bp),
      bf: Float32Array.from(bf),
    };
  }
  return frame;
}

/** One frame from an Arrow table of particle rows (particlesTable, readFrames). */
function tableFrame(where: string, table: TableLike, time: number): ViewFrame {
  if (!table || typeof table.getChild !== "function" || typeof table.numRows !== "number") {
    throw new TypeError(`${where}: a frame's table (${describe(table)}) must be an Arrow Table`);
  }
  const n = table.numRows;
  const col = (name: string): ArrayLike<number | bigint> => {
    const c = table.getChild(name);
    if (!c) {
      throw new RangeError(
        `${where}: the frame has no "${name}" column (a 3D particles table has x, y, z, radius)`,
      );
    }
    return c.toArray();
  };
  const x = col("x"), y = col("y"), z = col("z"), r = col("radius");
  const positions = new Float32Array(3 * n), radii = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    positions[3 * i] = Number(x[i]), positions[3 * i + 1] = Number(y[i]);
    positions[3 * i + 2] = Number(z[i]);
    radii[i] = Number(r[i]);
  }
  const columns = new Map<string, Float32Array>([["radius", radii]]);
  for (const f of table.schema.fields) {
    if (["frame", "time", "x", "y", "z", "radius"].includes(f.name)) continue;
    const c = table.getChild(f.name);
    if (!c) continue;
    const a = c.toArray();
    if (!(ArrayBuffer.isView(a) || Array.isArray(a))) continue;
    const v = new Float32Array(n);
    let ok = true;
    for (let i = 0; i < n && ok; i++) {
      const e = a[i];
      if (typeof e === "number") v[i] = e;
      else if (typeof e === "bigint") v[i] = Number(e);
      else if (typeof e === "boolean") v[i] = e ? 1 : 0;
      else ok = false;
    }
    if (ok) columns.set(f.name, v);
  }
  return { time: Number.isFinite(time) ? time : null, count: n, positions, radii, columns };
}

function boundariesOf(systems: readonly BoundariesLike[]): Boundaries {
  const b: Boundaries = { ground: null, containers: [], periodic: [] };
  for (const s of systems) {
    if (typeof s.groundPlane === "number") {
      b.ground = b.ground === null ? s.groundPlane : Math.min(b.ground, s.groundPlane);
    }
    const box = (v: BoxLike) => ({
      min: Array.from(v.min).slice(0, 3),
      max: Array.from(v.max).slice(0, 3),
    });
    if (s.containerBox) b.containers.push(box(s.containerBox));
    const p = s.periodicBoundary;
    if (p) {
      const axes = [p.x, p.y, p.z].map((a, k) => a ?? (Number(p.max[k]) > Number(p.min[k])));
      b.periodic.push({ ...box(p), axes });
    }
  }
  return b;
}

/** Frames and boundaries of any source view3d accepts. */
function recordingOf(where: string, source: unknown): Recording {
  if (source instanceof ViewRecorder) {
    const rec = recordings.get(source)!;
    if (rec.frames.length === 0) throw new RangeError(`${where}: the recorder has no frames`);
    return rec;
  }
  if (Array.isArray(source) && source.length > 0 && source.every((f) => f && f.table)) {
    return {
      frames: source.map((f: FrameLike) => tableFrame(where, f.table, f.time)),
      boundaries: { ground: null, containers: [], periodic: [] },
      bytes: 0,
    };
  }
  const t = source as TableLike;
  if (t && typeof t.getChild === "function" && typeof t.numRows === "number") {
    return {
      frames: [tableFrame(where, t, NaN)],
      boundaries: { ground: null, containers: [], periodic: [] },
      bytes: 0,
    };
  }
  const { systems, world } = systemsOf(where, source);
  const frame = snapshot(where, systems, true);
  frame.time = world?.time ?? systems[0].world?.time ?? systems[0].time ?? null;
  return { frames: [frame], boundaries: boundariesOf(systems), bytes: 0 };
}

// ---- columns and colours -------------------------------------------------------------------

interface ColumnSpec {
  name: string;
  key: string;
  label: string;
  categorical?: string[];
}

const BUILT_IN: Record<string, Omit<ColumnSpec, "name">> = {
  height: { key: "z", label: "height z (m)" },
  z: { key: "z", label: "z (m)" },
  x: { key: "x", label: "x (m)" },
  y: { key: "y", label: "y (m)" },
  speed: { key: "speed", label: "speed (m/s)" },
  radius: { key: "radius", label: "radius (m)" },
  material: { key: "materialId", label: "material id", categorical: [] },
  materialId: { key: "materialId", label: "material id", categorical: [] },
  contacts: { key: "contacts", label: "contacts per grain" },
  sleeping: { key: "sleeping", label: "sleeping", categorical: ["awake", "asleep"] },
  fixed: { key: "fixed", label: "fixed", categorical: ["free", "fixed"] },
  id: { key: "id", label: "id" },
  system: { key: "system", label: "system", categorical: [] },
};

function columnValues(f: ViewFrame, key: string): Float32Array | null {
  const axis = ["x", "y", "z"].indexOf(key);
  if (axis >= 0) {
    const v = new Float32Array(f.count);
    for (let i = 0; i < f.count; i++) v[i] = f.positions[3 * i + axis];
    return v;
  }
  return f.columns.get(key) ?? null;
}

function hexOf(css: string): string {
  const m = css.match(/^rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)$/);
  if (m) return m.slice(1, 4).map((v) => Number(v).toString(16).padStart(2, "0")).join("");
  const h = css.match(/^#([0-9a-f]{6})$/i);
  if (h) return h[1].toLowerCase();
  const s = css.match(/^#([0-9a-f])([0-9a-f])([0-9a-f])$/i);
  if (s) return (s[1] + s[1] + s[2] + s[2] + s[3] + s[3]).toLowerCase();
  return "bbbbbb";
}

function fmt(v: number): string {
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(2);
  return String(Number(v.toPrecision(3)));
}

interface ColumnHead {
  name: string;
  label: string;
  type: "linear" | "log" | "categorical";
  domain: number[];
  lut: string | null;
  categories: { value: number; color: string; label: string }[] | null;
  legend: string;
}

function buildColumn(
  spec: ColumnSpec,
  values: (Float32Array | null)[],
  scale: ViewScale,
): ColumnHead {
  const distinct = new Set<number>();
  let lo = Infinity, hi = -Infinity;
  for (const v of values) {
    if (!v) continue;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (!Number.isFinite(x)) continue;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
      if (distinct.size <= 24) distinct.add(x);
    }
  }
  const label = escapeXml(scale.label ?? spec.label);
  const title = `<div style="font-weight:600;margin-bottom:2px">${label}</div>`;
  if (spec.categorical && distinct.size <= 24) {
    const domain = [...distinct].sort((a, b) => a - b);
    if (domain.length === 0) domain.push(0);
    const s = colorScale(domain, {
      type: "categorical",
      scheme: scale.scheme ?? "tableau10",
    });
    const categories = domain.map((value) => ({
      value,
      color: `#${hexOf(s.apply(value))}`,
      label: spec.categorical![value] ?? String(value),
    }));
    const items = categories.map((c) =>
      `<div style="display:flex;align-items:center;gap:4px"><span style="display:inline-block;` +
      `width:10px;height:10px;border-radius:5px;background:${c.color}"></span>${
        escapeXml(c.label)
      }</div>`
    ).join("");
    return {
      name: spec.name,
      label: spec.label,
      type: "categorical",
      domain,
      lut: null,
      categories,
      legend: title + items,
    };
  }
  const type = scale.type ?? "linear";
  if (scale.domain) [lo, hi] = scale.domain;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (type === "log") {
    if (!(lo > 0)) lo = hi > 0 ? hi * 1e-6 : 1e-6;
    if (!(hi > lo)) hi = lo * 10;
  } else if (!(hi > lo)) hi = lo + (lo === 0 ? 1 : Math.abs(lo) * 0.01);
  const s = colorScale([lo, hi], { type, domain: [lo, hi], scheme: scale.scheme ?? "viridis" });
  let lut = "";
  for (let k = 0; k < 256; k++) {
    const t = k / 255;
    const v = type === "log" ? lo * Math.pow(hi / lo, t) : lo + (hi - lo) * t;
    lut += hexOf(s.apply(k === 0 ? lo : k === 255 ? hi : v));
  }
  const stops = Array.from({ length: 17 }, (_, k) => {
    const j = Math.round((k * 255) / 16);
    return `#${lut.slice(6 * j, 6 * j + 6)} ${((100 * k) / 16).toFixed(2)}%`;
  }).join(",");
  const legend = title +
    `<div class="glv-ramp" style="width:170px;height:12px;background:linear-gradient(to right,${stops})"></div>` +
    `<div style="display:flex;justify-content:space-between;width:170px"><span>${
      fmt(lo)
    }</span><span>${fmt(hi)}</span></div>`;
  return {
    name: spec.name,
    label: spec.label,
    type,
    domain: [lo, hi],
    lut,
    categories: null,
    legend,
  };
}

// ---- the view ----------------------------------------------------------------------------------

interface Built {
  head: Record<string, unknown>;
  bin: string;
  three: { name: string; data: string }[];
  threeKind: "bundle" | "raw";
  poster: string;
  alt: string;
  text: string;
  title: string;
  width: number;
  height: number;
  background: string;
  columns: ColumnHead[];
  frames: number;
  initialFrame: number;
  network: boolean;
  grains: number;
}

const threeCache = new Map<string, { name: string; data: string }[]>();

/**
 * An interactive 3D view, made by {@link view3d}: shown by `Deno.jupyter.display(view)` (or as
 * a cell's value), written as a standalone page by {@link View3D.save}.
 *
 * @example
 * ```ts
 * import { DISPLAY, view3d } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const grains = { count: 2, positions: [0, 0, 0.01, 0.02, 0, 0.01], velocities: [0, 0, 0, 0, 0, 1], radii: [0.01, 0.01] };
 * const view = view3d(grains, { color: ["height", "speed"], poster: false });
 * const bundle = view[DISPLAY](); // what Deno.jupyter.display(view) shows
 * expect(bundle["text/plain"]).toMatch(/^3D view: 2 grains, 1 frame/);
 * expect(bundle["text/html"]).toContain('class="glv-slider"');
 * expect(view.info.columns).toEqual(["height", "speed"]);
 * expect(view.document()).toMatch(/^<!doctype html>/);
 * ```
 */
export class View3D {
  #b: Built;
  #html?: string;

  /**
   * Encodes a view; the same as {@link view3d}.
   *
   * @param source a world, a system, a recorder, a list of recorded frames or an Arrow table
   * @param options colour columns, network, boundaries, meshes, size, camera, first frame
   */
  constructor(source: ViewSource, options: View3DOptions = {}) {
    this.#b = build(source, options);
  }

  /** Sizes and contents. */
  get info(): ViewInfo {
    const b = this.#b;
    return {
      frames: b.frames,
      grains: b.grains,
      columns: b.columns.map((c) => c.name),
      network: b.network,
      bytes: new TextEncoder().encode(this.html()).length,
      dataBytes: b.bin.length,
      threeBytes: b.three.reduce((a, m) => a + m.data.length, 0),
      posterBytes: b.poster.length,
      three: b.threeKind,
    };
  }

  /**
   * The view as an HTML fragment (what a notebook shows): the still image, legend and controls,
   * the embedded data and the script that starts it.
   *
   * @returns HTML
   */
  html(): string {
    return this.#html ??= this.#fragment(false);
  }

  /**
   * The view as a standalone HTML page. It reads `#frame=N&color=name&forces=1` from its URL.
   *
   * @returns the page
   */
  document(): string {
    const b = this.#b;
    const title = escapeXml(b.title || "Grainlab 3D view");
    return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
      `<meta name="viewport" content="width=device-width,initial-scale=1">` +
      `<title>${title}</title><style>body{margin:12px;font-family:system-ui,sans-serif;` +
      `background:#fff}</style></head><body>\n${this.#fragment(true)}\n` +
      `<p style="color:#777;font:12px system-ui,sans-serif;max-width:${b.width}px">${
        escapeXml(b.text)
      } — Grainlab ${VERSION}, three.js ${escapeXml(String(b.head.threeVersion))}; ` +
      `link to a frame with #frame=N&amp;color=name&amp;forces=1.</p>\n</body></html>\n`;
  }

  /**
   * Writes the standalone page (atomically).
   *
   * @param path the file, conventionally ending in `.html`
   * @returns the path and its size in bytes
   * @throws {TypeError} when `path` is not a non-empty string
   */
  async save(path: string): Promise<{ path: string; bytes: number }> {
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(`View3D.save: path (${String(path)}) must be a non-empty string`);
    }
    const bytes = new TextEncoder().encode(this.document());
    await writeFileAtomic(path, bytes);
    return { path, bytes: bytes.length };
  }

  /**
   * Rich display in Jupyter: the interactive view as HTML (with its still image inside, for
   * front ends that run no scripts) and a text summary.
   *
   * @returns the media bundle
   */
  [DISPLAY](): MediaBundle {
    return { "text/plain": this.#b.text, "text/html": this.html() };
  }

  #fragment(standalone: boolean): string {
    const b = this.#b;
    const head = JSON.stringify({ ...b.head, standalone }).replace(/</g, "\\u003c");
    const initial = b.columns[Number(b.head.initialColumn)];
    const many = b.frames > 1;
    const options = b.columns.map((c, k) =>
      `<option value="${k}"${k === Number(b.head.initialColumn) ? " selected" : ""}>${
        escapeXml(c.name)
      }</option>`
    ).join("");
    const parts = [
      `<div class="grainlab-view" style="width:${b.width}px;max-width:100%;` +
      `font:12px/1.4 system-ui,sans-serif;color:#222">`,
      b.title
        ? `<div style="font-weight:600;font-size:14px;margin:2px 0 4px">${escapeXml(b.title)}</div>`
        : "",
      `<div class="glv-stage" style="position:relative;width:100%;aspect-ratio:${b.width}/${b.height};` +
      `background:${escapeXml(b.background)};overflow:hidden;border-radius:4px">`,
      b.poster
        ? `<img class="glv-poster" alt="${
          escapeXml(b.alt)
        }" width="${b.width}" height="${b.height}" ` +
          `style="position:absolute;left:0;top:0;width:100%;height:100%" ` +
          `src="data:image/png;base64,${b.poster}">`
        : "",
      `<div class="glv-legend" data-column="${escapeXml(initial.name)}" style="position:absolute;` +
      `right:8px;top:8px;background:#ffffffd9;padding:4px 6px;border-radius:4px;` +
      `pointer-events:none">${initial.legend}</div>`,
      `<div style="position:absolute;left:8px;bottom:6px;color:#666;font-size:11px;` +
      `pointer-events:none">drag: orbit · shift/right-drag: pan · wheel: zoom · double-click: reset</div>`,
      `</div>`,
      `<div class="glv-bar" style="display:none;flex-wrap:wrap;gap:4px 8px;align-items:center;margin-top:4px">`,
      `<button class="glv-play" type="button" style="width:34px${
        many ? "" : ";display:none"
      }">▶</button>`,
      `<input class="glv-slider" type="range" min="0" max="${b.frames - 1}" step="1" ` +
      `value="${b.initialFrame}" style="flex:1${many ? "" : ";display:none"}">`,
      `<span class="glv-time" style="white-space:nowrap;${many ? "" : "flex:1"}"></span>`,
      `<label>colour <select class="glv-color">${options}</select></label>`,
      b.network ? `<label><input class="glv-forces" type="checkbox"> force chains</label>` : "",
      `</div>`,
      `<script type="application/json" class="glv-head">${head}</script>`,
      ...b.three.map((m) =>
        `<script type="application/octet-stream" class="glv-three" data-name="${m.name}">${m.data}</script>`
      ),
      `<script type="application/octet-stream" class="glv-bin">${b.bin}</script>`,
      `<script>(${viewerClient.toString()})(document.currentScript.parentElement)` +
      `.catch(function (e) { console.error("grainlab view3d:", e); });</script>`,
      `</div>`,
    ];
    return parts.join("\n");
  }
}

/** Appends typed arrays into one buffer, each at a 4-byte aligned offset. */
class Packer {
  #chunks: Uint8Array[] = [];
  #size = 0;
  add(a: ArrayBufferView): number {
    const off = this.#size;
    this.#chunks.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    this.#size += a.byteLength;
    const pad = (4 - (this.#size % 4)) % 4;
    if (pad) {
      this.#chunks.push(new Uint8Array(pad));
      this.#size += pad;
    }
    return off;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.#size);
    let o = 0;
    for (const c of this.#chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

function vec3Of(where: string, name: string, v: unknown): [number, number, number] {
  const a = v as ArrayLike<number>;
  if (!a || a.length !== 3 || ![0, 1, 2].every((k) => Number.isFinite(a[k]))) {
    throw new RangeError(`${where}: ${name} (${String(v)}) must be 3 finite numbers`);
  }
  return [a[0], a[1], a[2]];
}

/**
 * An interactive 3D view of grains: of a sphere3d `World` or `GranularSystem` (the current
 * state, with its force network), of a {@link ViewRecorder} (frames recorded in memory), or
 * of recorded Arrow frames (`await Array.fromAsync(readFrames(path))`, or
 * {@link ViewRecorder.fromFrames}). See the module documentation for what it shows.
 *
 * One view of 20,000 grains (one frame, two colour columns) is about 0.8 MB of HTML: 0.18 MB
 * of three.js (tree-shaken, minified, gzipped), 0.42 MB of frame data and 0.2 MB of still
 * image. Each further frame adds, per grain and before gzip, 6 bytes of position, 4 per colour
 * column and 4 of radius when the radii changed.
 *
 * @param source a world, a system, a recorder, a list of recorded frames or an Arrow table
 * @param options colour columns, network, boundaries, meshes, size, camera, first frame
 * @returns the view: display it, or `save(path)` it as a standalone page
 * @throws {TypeError} when `source` is none of these, or an option has the wrong type
 * @throws {RangeError} on an unknown option or colour column, a 2D system, or sizes out of range
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { view3d, ViewRecorder } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 2e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.05], [0.03, 0, 0.05]], radii: 0.01 });
 * g.setGroundPlane(0);
 * g.setContainerBox([-0.1, -0.1, 0], [0.1, 0.1, 0.2]);
 * const rec = new ViewRecorder();
 * for (let k = 0; k < 4; k++) {
 *   world.run(250);
 *   rec.record(world);
 * }
 * const view = view3d(rec, { color: ["speed", "height", "contacts"], network: true });
 * expect(view.info).toMatchObject({ frames: 4, grains: 2, network: true });
 * expect(view.info.bytes).toBeLessThan(600_000); // three.js, data and still image, all inline
 * expect(() => view3d(rec, { color: "sped" })).toThrow(/did you mean "speed"/);
 * expect(() => view3d(rec, { widht: 300 } as never)).toThrow(/did you mean "width"/);
 * ```
 */
export function view3d(source: ViewSource, options: View3DOptions = {}): View3D {
  return new View3D(source, options);
}

/**
 * Encodes a view: the header the page reads, the packed frames, three.js and the still image.
 * The stages: options → colour columns → scene geometry (bounds, boundaries, camera) →
 * packed meshes and frames → three.js → still image.
 */
function build(source: ViewSource, options: View3DOptions): Built {
  const where = "view3d";
  const o = checkOptions<View3DOptions>(where, "options", options, OPTION_KEYS);
  const rec = recordingOf(where, source);
  const frames = rec.frames;
  const settings = viewSettings(where, o, frames.length);
  const { columns, values } = resolveColumns(where, frames, o);
  const network = (o.network ?? false) || (o.showNetwork ?? false);
  const geo = sceneGeometry(where, frames, boundariesOption(where, o, rec.boundaries));
  const camera = viewCamera(where, o.camera, geo.frame, settings.width, settings.height);
  let est = 0, maxCount = 0, maxContacts = 0;
  for (const f of frames) {
    est += f.count * (6 + 4 + 4 * columns.length);
    maxCount = Math.max(maxCount, f.count);
    if (network && f.network) {
      est += 12 * f.network.pi.length + 20 * f.network.bi.length;
      maxContacts = Math.max(maxContacts, f.network.pi.length + f.network.bi.length);
    }
  }
  sizeGuard(where, "the view's frame data", est, 2 ** 30);
  const pack = new Packer();
  const meshes = packMeshes(where, o.meshes ?? [], pack);
  const frameHeads = packFrames(frames, values, geo.quant, network, pack);
  const bin = base64(new Uint8Array(gzipSync(pack.bytes(), { level: 9 })));
  const three = embeddedThree(o.bundle ?? true);
  let maxForce = 0;
  for (const f of network ? frames : []) {
    for (const v of f.network?.pf ?? []) maxForce = Math.max(maxForce, v);
    for (const v of f.network?.bf ?? []) maxForce = Math.max(maxForce, v);
  }
  const head = {
    version: 1,
    title: settings.title,
    width: settings.width,
    height: settings.height,
    background: settings.background,
    threeVersion: three.version,
    three: { version: three.version, kind: three.kind },
    frames: frameHeads,
    quant: geo.quant,
    columns,
    initialColumn: 0,
    initialFrame: settings.initialFrame,
    fps: settings.fps,
    camera,
    boundaries: { ground: geo.ground, boxes: geo.boxes },
    meshes,
    network: network && maxContacts > 0
      ? { maxForce: maxForce || 1, maxWidth: 0.6 * geo.meanRadius, color: "#b2182b" }
      : null,
    showNetwork: o.showNetwork ?? false,
    maxContacts: network ? maxContacts : 0,
    maxCount,
    // sphere detail: finer for few grains, coarser for many
    sphere: maxCount <= 2000
      ? [24, 16]
      : maxCount <= 10000
      ? [16, 12]
      : maxCount <= 60000
      ? [12, 8]
      : [8, 6],
  };
  const first = frames[0].time, last = frames.at(-1)!.time;
  const shown = frames[settings.initialFrame].time;
  const when = frames.length > 1 && first !== null && last !== null
    ? ` (t = ${fmt(first)} … ${fmt(last)} s)`
    : shown !== null
    ? ` (t = ${fmt(shown)} s)`
    : "";
  const text = `3D view: ${maxCount} grains, ${frames.length} frame${
    frames.length > 1 ? "s" : ""
  }${when}; colour: ${columns.map((c) => c.name).join(", ")}${network ? "; force chains" : ""}`;
  const poster = (o.poster ?? true)
    ? posterImage(
      frames[settings.initialFrame],
      columns[0],
      values[0][settings.initialFrame],
      geo,
      camera,
      settings,
    )
    : "";
  return {
    head,
    bin,
    three: three.data,
    threeKind: three.kind,
    poster,
    alt: `${text} (still image; the interactive view needs a browser with JavaScript and WebGL)`,
    text,
    title: settings.title,
    width: settings.width,
    height: settings.height,
    background: settings.background,
    columns,
    frames: frames.length,
    initialFrame: settings.initialFrame,
    network: head.network !== null,
    grains: maxCount,
  };
}

interface Settings {
  width: number;
  height: number;
  initialFrame: number;
  fps: number;
  title: string;
  background: string;
}

/** The plain options: size, first frame, speed, title, background, switches. */
function viewSettings(where: string, o: View3DOptions, nFrames: number): Settings {
  const int = (name: string, v: unknown, lo: number, hi: number, d: number) => {
    if (v === undefined) return d;
    if (typeof v !== "number" || !Number.isInteger(v) || v < lo || v > hi) {
      throw new RangeError(`${where}: ${name} (${String(v)}) must be an integer in [${lo}, ${hi}]`);
    }
    return v;
  };
  const frame = int("frame", o.frame, -nFrames, nFrames - 1, -1);
  const fps = o.fps ?? 8;
  if (typeof fps !== "number" || !(fps > 0 && fps <= 60)) {
    throw new RangeError(`${where}: fps (${String(o.fps)}) must be in (0, 60]`);
  }
  for (const k of ["network", "showNetwork", "poster", "bundle"] as const) {
    if (o[k] !== undefined && typeof o[k] !== "boolean") {
      throw new TypeError(`${where}: ${k} (${String(o[k])}) must be a boolean`);
    }
  }
  const title = o.title ?? "";
  if (typeof title !== "string") throw new TypeError(`${where}: title must be a string`);
  const background = o.background ?? "#f3f4f6";
  if (typeof background !== "string" || !/^#[0-9a-fA-F]{6}$/.test(background)) {
    throw new TypeError(`${where}: background (${String(background)}) must be a colour #rrggbb`);
  }
  return {
    width: int("width", o.width, 120, 4096, 720),
    height: int("height", o.height, 120, 4096, 480),
    initialFrame: frame < 0 ? nFrames + frame : frame,
    fps,
    title,
    background,
  };
}

/** The colour columns asked for, their values per frame (null where a frame lacks one). */
function resolveColumns(
  where: string,
  frames: readonly ViewFrame[],
  o: View3DOptions,
): { columns: ColumnHead[]; values: (Float32Array | null)[][] } {
  const wanted = o.color === undefined ? ["height"] : typeof o.color === "string" ? [o.color] : [
    ...o.color,
  ];
  if (wanted.length === 0 || !wanted.every((c) => typeof c === "string")) {
    throw new TypeError(`${where}: color must be a column name or a non-empty list of names`);
  }
  const available = new Set(["height", "x", "y", "z"]);
  for (const f of frames) {
    for (const k of f.columns.keys()) available.add(k);
  }
  for (const [name, spec] of Object.entries(BUILT_IN)) {
    if (available.has(spec.key)) available.add(name);
  }
  const specs: ColumnSpec[] = wanted.map((name) => {
    const b = BUILT_IN[name];
    const key = b?.key ?? name;
    if (!available.has(key)) {
      const list = [...available].sort();
      const near = nearest(name, list);
      throw new RangeError(
        `${where}: color column ${JSON.stringify(name)} is not in these frames` +
          (near ? `; did you mean ${JSON.stringify(near)}?` : "") +
          ` (available: ${list.join(", ")})`,
      );
    }
    return { name, key, label: b?.label ?? name, categorical: b?.categorical };
  });
  const scales = o.scales ?? {};
  if (typeof scales !== "object" || scales === null) {
    throw new TypeError(`${where}: scales must be an object of column name → scale settings`);
  }
  const values = specs.map((s) => frames.map((f) => columnValues(f, s.key)));
  const columns = specs.map((s, k) => {
    const name = `scales.${s.name}`;
    const sc = checkOptions<ViewScale>(where, name, scales[s.name], [
      "type",
      "domain",
      "scheme",
      "label",
    ]);
    if (sc.type !== undefined && sc.type !== "linear" && sc.type !== "log") {
      throw new RangeError(`${where}: ${name}.type (${sc.type}) must be "linear" or "log"`);
    }
    const d = sc.domain;
    if (
      d !== undefined &&
      !(Array.isArray(d) && d.length === 2 && d.every(Number.isFinite) && d[1] > d[0] &&
        (sc.type !== "log" || d[0] > 0))
    ) {
      throw new RangeError(
        `${where}: ${name}.domain (${String(d)}) must be [min, max], finite, min < max` +
          (sc.type === "log" ? ", min > 0" : ""),
      );
    }
    try {
      return buildColumn(s, values[k], sc);
    } catch (e) {
      throw new RangeError(`${where}: ${name}.scheme (${sc.scheme}): ${(e as Error).message}`);
    }
  });
  return { columns, values };
}

/** The boundaries to draw: the source's, none, or those of the object given. */
function boundariesOption(where: string, o: View3DOptions, own: Boundaries): Boundaries {
  if (o.boundaries === undefined || o.boundaries === true) return own;
  if (o.boundaries === false) return { ground: null, containers: [], periodic: [] };
  if (typeof o.boundaries !== "object" || o.boundaries === null) {
    throw new TypeError(`${where}: boundaries must be a boolean or a system with boundaries`);
  }
  return boundariesOf([o.boundaries]);
}

interface Geometry {
  /** Quantisation of positions: x = min + q · scale. */
  quant: { min: number[]; scale: number[] };
  /** Outlined boxes (container, periodic cell). */
  boxes: { min: number[]; max: number[]; color: string; kind: string }[];
  /** Ground plane quad, or null. */
  ground: { z: number; extent: number[] } | null;
  /** What the camera frames: [lo, hi] corners. */
  frame: [number[], number[]];
  /** Mean grain radius (m). */
  meanRadius: number;
}

/** Bounds over all frames, the 16-bit quantisation, boundary outlines and the framed box. */
function sceneGeometry(where: string, frames: readonly ViewFrame[], bounds: Boundaries): Geometry {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  let rMax = 0, rSum = 0, rN = 0;
  frames.forEach((f, fi) => {
    const at = frames.length > 1 ? ` of frame ${fi}` : "";
    for (let i = 0; i < f.count; i++) {
      for (let k = 0; k < 3; k++) {
        const v = f.positions[3 * i + k];
        if (!Number.isFinite(v)) {
          throw new RangeError(`${where}: grain ${i}${at} has a non-finite position (${v})`);
        }
        if (v < lo[k]) lo[k] = v;
        if (v > hi[k]) hi[k] = v;
      }
      const r = f.radii[i];
      if (!(r >= 0 && Number.isFinite(r))) {
        throw new RangeError(`${where}: grain ${i}${at} has radius ${r}, must be finite and >= 0`);
      }
      rMax = Math.max(rMax, r);
      rSum += r;
      rN++;
    }
  });
  if (rN === 0) lo.fill(0), hi.fill(0);
  const quant = { min: lo, scale: lo.map((l, k) => (hi[k] > l ? (hi[k] - l) / 65535 : 0)) };
  const boxes = [
    ...bounds.containers.map((b) => ({ ...b, color: "#5b6270", kind: "container" })),
    // a periodic cell: its wrapped axes as simulated, the others spanning the grains
    ...bounds.periodic.map((b) => ({
      min: b.min.map((v, k) => (b.axes[k] ? v : (rN ? lo[k] - rMax : -0.5))),
      max: b.max.map((v, k) => (b.axes[k] ? v : (rN ? hi[k] + rMax : 0.5))),
      color: "#3b7dd8",
      kind: "periodic",
    })),
  ];
  for (const b of boxes) {
    vec3Of(where, `${b.kind} box min`, b.min);
    vec3Of(where, `${b.kind} box max`, b.max);
  }
  // the grains, and the boundaries' footprint up to the grains' top
  const fLo = lo.map((v) => v - rMax), fHi = hi.map((v) => v + rMax);
  if (rN === 0) fLo.fill(-0.5), fHi.fill(0.5);
  for (const b of boxes) {
    for (let k = 0; k < 2; k++) {
      fLo[k] = Math.min(fLo[k], b.min[k]);
      fHi[k] = Math.max(fHi[k], b.max[k]);
    }
    fLo[2] = Math.min(fLo[2], b.min[2]);
  }
  let ground: Geometry["ground"] = null;
  if (bounds.ground !== null) {
    fLo[2] = Math.min(fLo[2], bounds.ground);
    const m = 0.15 * Math.max(fHi[0] - fLo[0], fHi[1] - fLo[1], fHi[2] - fLo[2], 1e-6);
    ground = { z: bounds.ground, extent: [fLo[0] - m, fLo[1] - m, fHi[0] + m, fHi[1] + m] };
  }
  return { quant, boxes, ground, frame: [fLo, fHi], meanRadius: rN ? rSum / rN : 1 };
}

/** The camera: as given, else looking at the framed box from the front right, above. */
function viewCamera(
  where: string,
  given: Partial<Camera> | undefined,
  [fLo, fHi]: [number[], number[]],
  width: number,
  height: number,
): Camera {
  const c = checkOptions<Partial<Camera>>(where, "camera", given, [
    "position",
    "target",
    "up",
    "fov",
  ]);
  const fov = c.fov ?? 35;
  if (typeof fov !== "number" || !(fov > 1 && fov < 170)) {
    throw new RangeError(`${where}: camera.fov (${String(c.fov)}) must be in (1, 170) degrees`);
  }
  const target = c.target
    ? vec3Of(where, "camera.target", c.target)
    : [0, 1, 2].map((k) => (fLo[k] + fHi[k]) / 2) as [number, number, number];
  // far enough that the box's bounding sphere fits the narrower field of view
  const radius = 0.5 * Math.hypot(fHi[0] - fLo[0], fHi[1] - fLo[1], fHi[2] - fLo[2]);
  const dist = (Math.max(radius, 1e-6) / Math.sin((fov * Math.PI) / 360)) *
    Math.max(1, height / width) * 0.92;
  const dir = [0.55, -1.1, 0.75], dl = Math.hypot(...dir);
  return {
    position: c.position
      ? vec3Of(where, "camera.position", c.position)
      : [0, 1, 2].map((k) => target[k] + (dist * dir[k]) / dl) as [number, number, number],
    target,
    up: c.up ? vec3Of(where, "camera.up", c.up) : [0, 0, 1],
    fov,
  };
}

/** Validates and packs the triangle meshes. */
function packMeshes(where: string, meshes: readonly ViewMesh[], pack: Packer) {
  if (!Array.isArray(meshes)) throw new TypeError(`${where}: meshes must be an array`);
  return meshes.map((m, k) => {
    const name = `meshes[${k}]`;
    const mo = checkOptions<ViewMesh>(where, name, m, ["vertices", "indices", "color", "opacity"]);
    const v = Float32Array.from(mo.vertices ?? [], Number);
    const ix = Uint32Array.from(mo.indices ?? [], Number);
    const nv = v.length / 3;
    if (!Number.isInteger(nv) || nv === 0 || !v.every(Number.isFinite)) {
      throw new RangeError(`${where}: ${name}.vertices must be finite numbers, 3 per vertex`);
    }
    if (ix.length % 3 !== 0 || ix.length === 0 || ix.some((i) => i >= nv)) {
      throw new RangeError(
        `${where}: ${name}.indices must be 3 per triangle, each below the ${nv} vertices`,
      );
    }
    const opacity = mo.opacity ?? 1;
    if (!(opacity > 0 && opacity <= 1)) {
      throw new RangeError(`${where}: ${name}.opacity (${opacity}) must be in (0, 1]`);
    }
    const color = mo.color ?? "#8a8f98";
    if (typeof color !== "string" || !/^#[0-9a-fA-F]{6}$/.test(color)) {
      throw new TypeError(`${where}: ${name}.color (${String(color)}) must be a colour #rrggbb`);
    }
    return { vertices: pack.add(v), nv, indices: pack.add(ix), ni: ix.length, color, opacity };
  });
}

/** Packs each frame: quantised positions, radii (shared with the frame before when equal),
 * colour values and, with `network`, the contacts. */
function packFrames(
  frames: readonly ViewFrame[],
  values: (Float32Array | null)[][],
  quant: Geometry["quant"],
  network: boolean,
  pack: Packer,
): Record<string, unknown>[] {
  let prev: Float32Array | null = null;
  return frames.map((f, fi) => {
    const qp = new Uint16Array(3 * f.count);
    for (let i = 0; i < f.count; i++) {
      for (let k = 0; k < 3; k++) {
        const s = quant.scale[k];
        qp[3 * i + k] = s > 0 ? Math.round((f.positions[3 * i + k] - quant.min[k]) / s) : 0;
      }
    }
    const same = prev !== null && prev.length === f.count && prev.every((r, i) => r === f.radii[i]);
    prev = f.radii;
    const head: Record<string, unknown> = {
      t: f.time,
      n: f.count,
      pos: pack.add(qp),
      rad: same ? -1 : pack.add(f.radii),
      vals: values.map((v) => pack.add(v[fi] ?? new Float32Array(f.count).fill(NaN))),
    };
    if (network && f.network) {
      const w = f.network;
      head.pc = { m: w.pi.length, i: pack.add(w.pi), j: pack.add(w.pj), f: pack.add(w.pf) };
      head.bc = { m: w.bi.length, i: pack.add(w.bi), p: pack.add(w.bp), f: pack.add(w.bf) };
    }
    return head;
  });
}

/** three.js to embed, gzipped and base64 (once per process and kind). */
function embeddedThree(bundle: boolean) {
  const three = threeSource({ bundle });
  const key = `${three.kind}/${three.version}`;
  let data = threeCache.get(key);
  if (!data) {
    data = three.modules.map((m) => ({
      name: m.name,
      data: base64(new Uint8Array(gzipSync(new TextEncoder().encode(m.code), { level: 9 }))),
    }));
    threeCache.set(key, data);
  }
  return { data, kind: three.kind, version: three.version };
}

const rgb = (hex: string): [number, number, number] =>
  [0, 2, 4].map((k) => parseInt(hex.replace(/^#/, "").slice(k, k + 2), 16)) as [
    number,
    number,
    number,
  ];

/** The still image (PNG, base64): the first colour column on the frame shown first. */
function posterImage(
  f: ViewFrame,
  c: ColumnHead,
  vals: Float32Array | null,
  geo: Geometry,
  camera: Camera,
  settings: Settings,
): string {
  const colors = new Uint8Array(3 * f.count);
  const catIndex = new Map((c.categories ?? []).map((k, j) => [k.value, j]));
  for (let i = 0; i < f.count; i++) {
    const v = vals ? vals[i] : NaN;
    let hex = "bbbbbb";
    if (c.type === "categorical") {
      const j = catIndex.get(v);
      if (j !== undefined) hex = c.categories![j].color.slice(1);
    } else if (Number.isFinite(v) && (c.type !== "log" || v > 0)) {
      const [a, b] = c.domain;
      const t = c.type === "log" ? Math.log(v / a) / Math.log(b / a) : (v - a) / (b - a || 1);
      const k = Math.round(255 * Math.min(1, Math.max(0, t)));
      hex = c.lut!.slice(6 * k, 6 * k + 6);
    }
    colors.set(rgb(hex), 3 * i);
  }
  const img = renderSpheres(
    {
      count: f.count,
      positions: f.positions,
      radii: f.radii,
      colors,
      lines: geo.boxes.map((b) => ({ segments: boxEdges(b.min, b.max), color: rgb(b.color) })),
      floor: geo.ground
        ? {
          z: geo.ground.z,
          extent: geo.ground.extent as [number, number, number, number],
          color: [216, 216, 208],
        }
        : undefined,
      background: rgb(settings.background),
    },
    camera,
    settings.width,
    settings.height,
  );
  return base64(encodePNG(img));
}

function boxEdges(a: number[], b: number[]): number[] {
  const c = (i: number) => [i & 1 ? b[0] : a[0], i & 2 ? b[1] : a[1], i & 4 ? b[2] : a[2]];
  const out: number[] = [];
  for (let i = 0; i < 8; i++) {
    for (const bit of [1, 2, 4]) if (!(i & bit)) out.push(...c(i), ...c(i | bit));
  }
  return out;
}

/**
 * Writes a 3D view as one standalone HTML file (three.js and the frames inside; no network
 * needed) to open in a browser: `writeViewer("out/viewer.html", recorder)`.
 *
 * @param path the file, conventionally ending in `.html`
 * @param source what {@link view3d} takes
 * @param options what {@link view3d} takes
 * @returns the path and the file's size in bytes
 * @throws what {@link view3d} throws; a TypeError when `path` is not a non-empty string
 * @example
 * ```ts
 * import { writeViewer } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * const grains = { count: 1, positions: [0, 0, 0.01], velocities: [0, 0, 0], radii: [0.01] };
 * const { path, bytes } = await writeViewer(`${dir}/view.html`, grains, { title: "One grain" });
 * const page = await Deno.readTextFile(path);
 * expect(new TextEncoder().encode(page).length).toBe(bytes);
 * expect(page).toContain("<title>One grain</title>");
 * expect(page).not.toMatch(/<script[^>]+src=/); // nothing loaded from elsewhere
 * ```
 */
export function writeViewer(
  path: string,
  source: ViewSource,
  options: View3DOptions = {},
): Promise<{ path: string; bytes: number }> {
  if (typeof path !== "string" || path.length === 0) {
    return Promise.reject(
      new TypeError(`writeViewer: path (${String(path)}) must be a non-empty string`),
    );
  }
  try {
    return view3d(source, options).save(path);
  } catch (e) {
    return Promise.reject(e);
  }
}
