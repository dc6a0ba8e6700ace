/**
 * Recorded frames of the 3D viewer: {@link ViewRecorder} (frames kept in memory while a
 * simulation runs, or read from a `FrameWriter` stream), snapshots of live sphere3d systems,
 * frames from Arrow tables, and the boundaries to draw.
 *
 * @module
 */

import { options as checkOptions, sizeGuard } from "../math/validate.ts";
import { type BodyPoses, type BodyShapes, hasBodies, readBodies } from "./viewer_bodies.ts";
import type {
  BoundariesLike,
  FrameLike,
  TableLike,
  ViewSystem,
  ViewWorld,
} from "./viewer_types.ts";

/** A frame's force network: particle pairs and boundary contacts with their normal forces. */
export interface Network {
  pi: Uint32Array;
  pj: Uint32Array;
  pf: Float32Array;
  bi: Uint32Array;
  bp: Float32Array;
  bf: Float32Array;
}

/** One recorded frame: positions (float32), radii, colour columns and the force network. */
export interface ViewFrame {
  time: number | null;
  count: number;
  positions: Float32Array;
  radii: Float32Array;
  columns: Map<string, Float32Array>;
  network?: Network;
  /** Poses of the world's rigid bodies. */
  bodies?: BodyPoses;
}

/** Boundaries to draw: the lowest ground plane, container boxes and periodic cells. */
export interface Boundaries {
  ground: number | null;
  containers: { min: number[]; max: number[] }[];
  /** Periodic cells; `axes` says which axes wrap (the others span the grains when drawn). */
  periodic: { min: number[]; max: number[]; axes: boolean[] }[];
}

/** Frames, the boundaries to draw, the rigid bodies' shapes and the bytes held. */
export interface Recording {
  frames: ViewFrame[];
  boundaries: Boundaries;
  bytes: number;
  /** Shapes of the rigid bodies (of the last world recorded with bodies), or null. */
  bodies?: BodyShapes | null;
}

const recordings = new WeakMap<ViewRecorder, Recording>();

/** Options of {@link ViewRecorder}. */
export interface ViewRecorderOptions {
  /** Record each frame's force network (for `network: true`). @default true */
  contacts?: boolean;
  /** Most bytes the recorder may hold. @default 1 GiB */
  maxBytes?: number;
}

/** What `view3d` shows: a world, a system, a recorder, recorded frames or an Arrow table. */
export type ViewSource =
  | ViewWorld
  | ViewSystem
  | ViewRecorder
  | readonly FrameLike[]
  | TableLike;

/**
 * Frames for a 3D view, kept in memory: call {@link record} while a simulation runs (every
 * few steps), then pass the recorder to {@link view3d}. Each frame copies the positions (as
 * float32), radii, speeds, material ids, fixed flags, contact counts, unless
 * `contacts: false` the force network, and the poses of a world's rigid bodies (whose shapes
 * are read once).
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
   * Records one frame: a snapshot of a world (all its systems and its rigid bodies' poses) or
   * of one system. The boundaries of the last recorded systems are the ones the view draws.
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
    frame.time = stamp.time ?? stamp.world?.time ?? world?.time ?? systems[0]?.world?.time ??
      null;
    const bodies = readBodies(world, rec.bodies ?? null);
    if (bodies) frame.bodies = bodies.poses;
    const bytes = frameBytes(frame);
    sizeGuard("ViewRecorder.record", "the recorded frames", rec.bytes + bytes, this.#maxBytes);
    rec.frames.push(frame);
    rec.bytes += bytes;
    rec.boundaries = boundariesOf(systems);
    if (bodies) rec.bodies = bodies.shapes;
    return rec.frames.length - 1;
  }

  /**
   * A recorder filled from recorded frames, e.g. `readFrames(path)` of a `FrameWriter` stream
   * (every numeric column becomes a colour column).
   *
   * @param frames frames (an async or sync iterable of `{ frame, time, table }`)
   * @param options `every`: keep every n-th frame (the last is always kept)
   * @returns the recorder
   * @throws {RangeError} when a frame has no `x`, `y`, `z` or `radius` column, `every` is
   *   not a positive integer, or `frames` is a `FrameReader` that found a damaged frame
   *   (its `corrupt`); a truncated stream (a crashed run) gives its complete frames
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
    if (
      frames === null || typeof frames !== "object" ||
      (!(Symbol.asyncIterator in frames) && !(Symbol.iterator in frames))
    ) {
      throw new TypeError(
        `${where}: frames (${String(frames)}) must be an iterable of frames, e.g. readFrames(path)`,
      );
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
    // A FrameReader that stopped at a damaged frame: say so rather than show part of the run.
    const damaged = frames as { corrupt?: unknown; corruption?: unknown };
    if (damaged.corrupt === true) {
      throw new RangeError(
        `${where}: ${damaged.corruption}; to view the frames before it, pass ` +
          `await Array.fromAsync(reader)`,
      );
    }
    return r;
  }
}

function frameBytes(f: ViewFrame): number {
  let b = f.positions.byteLength + f.radii.byteLength;
  for (const c of f.columns.values()) b += c.byteLength;
  if (f.network) { for (const a of Object.values(f.network)) b += a.byteLength; }
  if (f.bodies) b += f.bodies.pos.byteLength + f.bodies.quat.byteLength;
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
    if (source.systems.length === 0 && !hasBodies(source)) {
      throw new RangeError(`${where}: the world has no granular systems or bodies to show`);
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

/** The boundaries of systems (the lowest ground plane, every container and periodic cell). */
export function boundariesOf(systems: readonly BoundariesLike[]): Boundaries {
  const b: Boundaries = { ground: null, containers: [], periodic: [] };
  for (const s of systems) {
    if (typeof s.groundPlane === "number") {
      b.ground = b.ground === null ? s.groundPlane : Math.min(b.ground, s.groundPlane);
    }
    const box = (v: { readonly min: ArrayLike<number>; readonly max: ArrayLike<number> }) => ({
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
export function recordingOf(where: string, source: unknown): Recording {
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
  frame.time = world?.time ?? systems[0]?.world?.time ?? systems[0]?.time ?? null;
  const bodies = readBodies(world, null);
  if (bodies) frame.bodies = bodies.poses;
  return {
    frames: [frame],
    boundaries: boundariesOf(systems),
    bytes: 0,
    bodies: bodies?.shapes ?? null,
  };
}
