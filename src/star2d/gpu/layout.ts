/**
 * Byte layouts of the GPU buffers, mirrored from the WGSL structs in `wgsl_common.ts`, and
 * their encoders: grains, shape tables, the per-step wall block and the uniform parameters.
 * Internal to the GPU path.
 *
 * @module
 */

import type { StarShape } from "../shape.ts";
import type { Walls } from "../walls.ts";
import { MAX_WALLS } from "./wgsl_common.ts";

/** Bytes of one `Grain` record: tile (2 i32), frac (2 f32), vel (2), ang, omega, turns, shape, 1/m, 1/I. */
export const GRAIN_BYTES = 48;
/** Bytes of one `Pose` record: tile, polar centre, trig, cell, frac, vel (2 words each), shape, r_max, angle, ω. */
export const POSE_BYTES = 64;
/** Bytes of the `Params` uniform. */
export const PARAMS_BYTES = 96;
/** Bytes of one step's wall block (4 vec4 per wall). */
export const WALL_BLOCK_BYTES = 64 * MAX_WALLS;
/** Words of a shape header. */
export const SHAPE_HEADER_WORDS = 16;

/** The per-grain values a {@link writeGrain} call stores. */
export interface GrainValues {
  /** Centre-of-mass x (m). */
  x: number;
  /** Centre-of-mass y (m). */
  y: number;
  /** Velocity x (m/s). */
  vx: number;
  /** Velocity y (m/s). */
  vy: number;
  /** Angle (rad), unwrapped. */
  angle: number;
  /** Angular velocity (rad/s). */
  omega: number;
  /** Shape index. */
  shape: number;
  /** Mass (kg). */
  mass: number;
  /** Moment of inertia (kg·m²). */
  inertia: number;
}

/**
 * Store grain values at byte offset `o` of `dv`: the position as an integer tile of side `q`
 * plus a float32 fraction; the angle wrapped into [−π, π) with the whole turns counted apart.
 */
export function writeGrain(dv: DataView, o: number, q: number, g: GrainValues): void {
  const tx = Math.floor(g.x / q), ty = Math.floor(g.y / q);
  dv.setInt32(o, tx, true);
  dv.setInt32(o + 4, ty, true);
  dv.setFloat32(o + 8, g.x - tx * q, true);
  dv.setFloat32(o + 12, g.y - ty * q, true);
  dv.setFloat32(o + 16, g.vx, true);
  dv.setFloat32(o + 20, g.vy, true);
  const turns = Math.floor((g.angle + Math.PI) / (2 * Math.PI));
  dv.setFloat32(o + 24, g.angle - 2 * Math.PI * turns, true);
  dv.setFloat32(o + 28, g.omega, true);
  dv.setInt32(o + 32, turns, true);
  dv.setUint32(o + 36, g.shape, true);
  dv.setFloat32(o + 40, 1 / g.mass, true);
  dv.setFloat32(o + 44, 1 / g.inertia, true);
}

/** Where each shape's data starts in the shape table, and the table's words. */
export interface ShapeTable {
  /** The table: headers, then nodes and lookup tables. */
  words: Uint32Array<ArrayBuffer>;
}

/** Sprite geometry of a shape for its header (0 when the system uses the 1D tables). */
export interface SpriteGeometry {
  /** Texture layer. */
  layer: number;
  /** Half-width L of the sampled square (m). */
  halfWidth: number;
  /** Texel size (m). */
  texel: number;
  /** Texels per side. */
  resolution: number;
}

/**
 * Encode the shapes: a 16-word header per shape (nodes, node offset, LUT size, LUT offset,
 * LUT scale, r_max, centroid x/y, r_min, sprite layer, half-width, texel, resolution), then per
 * shape its nodes (x, y interleaved) and its r and r′ tables (lutSize + 1 samples each).
 */
export function encodeShapes(
  shapes: readonly StarShape[],
  sprites: readonly (SpriteGeometry | null)[],
): ShapeTable {
  let words = SHAPE_HEADER_WORDS * shapes.length;
  for (const s of shapes) words += 2 * s.nodes + 2 * (s.lutSize + 1);
  const buf = new ArrayBuffer(4 * Math.max(words, 16));
  const u = new Uint32Array(buf), f = new Float32Array(buf);
  let off = SHAPE_HEADER_WORDS * shapes.length;
  shapes.forEach((s, k) => {
    const h = SHAPE_HEADER_WORDS * k, sp = sprites[k];
    u[h] = s.nodes;
    u[h + 1] = off;
    for (let i = 0; i < s.nodes; i++) {
      f[off + 2 * i] = s.nodeX[i];
      f[off + 2 * i + 1] = s.nodeY[i];
    }
    off += 2 * s.nodes;
    u[h + 2] = s.lutSize;
    u[h + 3] = off;
    f.set(s.lutR, off);
    f.set(s.lutDr, off + s.lutSize + 1);
    off += 2 * (s.lutSize + 1);
    f[h + 4] = s.lutScale;
    f[h + 5] = s.rMax;
    f[h + 6] = s.centroidX;
    f[h + 7] = s.centroidY;
    f[h + 8] = s.rMin;
    u[h + 9] = sp?.layer ?? 0;
    f[h + 10] = sp?.halfWidth ?? 0;
    f[h + 11] = sp?.texel ?? 0;
    u[h + 12] = sp?.resolution ?? 0;
  });
  return { words: u };
}

/**
 * Encode the enabled state and geometry of the walls, as they are now, into one step's block
 * at byte offset `o` of `dv`. Each wall: (kind, enabled, origin tile x, y) as integers, then
 * its geometry relative to the origin tile's corner, then (friction, ω). Plane: point, normal;
 * segment: ends, (half thickness, −, pivot); drum: centre, radius, (−, −, pivot).
 */
export function writeWalls(dv: DataView, o: number, q: number, walls: Walls): void {
  const g = walls.geom;
  for (let w = 0; w < walls.count; w++) {
    const b = o + 64 * w, k = walls.kind[w], s = 8 * w;
    const tx = Math.floor(g[s] / q), ty = Math.floor(g[s + 1] / q);
    const ox = tx * q, oy = ty * q;
    dv.setUint32(b, k, true);
    dv.setUint32(b + 4, walls.enabled[w], true);
    dv.setInt32(b + 8, tx, true);
    dv.setInt32(b + 12, ty, true);
    const v = WALL_SCRATCH.fill(0);
    if (k === 0) {
      v[0] = g[s] - ox, v[1] = g[s + 1] - oy, v[2] = g[s + 2], v[3] = g[s + 3];
    } else if (k === 1) {
      v[0] = g[s] - ox, v[1] = g[s + 1] - oy, v[2] = g[s + 2] - ox, v[3] = g[s + 3] - oy;
      v[4] = g[s + 4], v[6] = g[s + 5] - ox, v[7] = g[s + 6] - oy;
    } else {
      v[0] = g[s] - ox, v[1] = g[s + 1] - oy, v[2] = g[s + 2];
      v[6] = g[s + 5] - ox, v[7] = g[s + 6] - oy;
    }
    for (let k2 = 0; k2 < 8; k2++) dv.setFloat32(b + 16 + 4 * k2, v[k2], true);
    dv.setFloat32(b + 48, walls.friction[w], true);
    dv.setFloat32(b + 52, walls.omega[w], true);
    dv.setFloat32(b + 56, 0, true);
    dv.setFloat32(b + 60, 0, true);
  }
}

const WALL_SCRATCH = new Float64Array(8);

/** Values of the `Params` uniform. */
export interface ParamValues {
  /** Grains. */
  n: number;
  /** Buckets of the grid hash (a power of two). */
  buckets: number;
  /** History slots per grain. */
  slots: number;
  /** Shapes. */
  shapeCount: number;
  /** Cell side in tiles. */
  cellTiles: number;
  /** Walls. */
  wallCount: number;
  /** Word offset of the statistics in the torque buffer. */
  statsOff: number;
  /** Word offset of the entries in a history buffer (after the counts). */
  entriesOff: number;
  /** Word offset of the sorted grains in the grid buffer. */
  sortedOff: number;
  /** Neighbour slots per grain. */
  nbrSlots: number;
  /** Tile size (m). */
  q: number;
  /** Time step (s). */
  dt: number;
  /** Gravity x (m/s²). */
  gx: number;
  /** Gravity y (m/s²). */
  gy: number;
  /** Normal stiffness (N/m). */
  kn: number;
  /** Tangential stiffness (N/m). */
  kt: number;
  /** Normal damping (N·s/m). */
  cn: number;
  /** Tangential damping (N·s/m). */
  ct: number;
  /** Grain friction. */
  mu: number;
  /** Rotational damping (N·m·s). */
  cr: number;
  /** History key tolerance (rad). */
  keyTol: number;
}

/** Encode the `Params` uniform. */
export function encodeParams(p: ParamValues): ArrayBuffer {
  const buf = new ArrayBuffer(PARAMS_BYTES), dv = new DataView(buf);
  const u = [
    p.n,
    p.buckets,
    p.slots,
    p.shapeCount,
    p.cellTiles,
    p.wallCount,
    p.statsOff,
    p.entriesOff,
    p.sortedOff,
    p.nbrSlots,
    0,
    0,
  ];
  u.forEach((v, k) => dv.setUint32(4 * k, v, true));
  const f = [p.q, p.dt, p.gx, p.gy, p.kn, p.kt, p.cn, p.ct, p.mu, p.cr, p.keyTol, 0];
  f.forEach((v, k) => dv.setFloat32(48 + 4 * k, v, true));
  return buf;
}
