/**
 * The public shapes of the 3D viewer: what {@link view3d} reads (worlds, systems, recorded
 * frames, Arrow tables, boundaries, meshes) and its options and sizes.
 *
 * @module
 */

import type { ParticleSystemLike } from "../arrow/types.ts";
import type { Camera } from "./raster.ts";

/**
 * Boundaries to draw. A sphere3d `GranularSystem` is one (its `groundPlane`, `containerBox` and
 * `periodicBoundary`), so `boundaries: bed` shows a bed's boundaries around recorded frames.
 */
export interface BoundariesLike {
  /** Ground plane height (m), or null. */
  readonly groundPlane?: number | null;
  /** Open-top container box (lower and upper corners, m), or null. */
  readonly containerBox?:
    | { readonly min: ArrayLike<number>; readonly max: ArrayLike<number> }
    | null;
  /**
   * Periodic cell (lower and upper corners, m), or null; `x`, `y`, `z` say which axes wrap
   * (default: those with extent).
   */
  readonly periodicBoundary?: {
    readonly min: ArrayLike<number>;
    readonly max: ArrayLike<number>;
    readonly x?: boolean;
    readonly y?: boolean;
    readonly z?: boolean;
  } | null;
}

/** A sphere3d system as the viewer reads it: particles plus, optionally, boundaries. */
export interface ViewSystem extends ParticleSystemLike, BoundariesLike {
  /** 1 where a grain sleeps (systems that put grains to sleep). */
  readonly sleeping?: ArrayLike<number>;
}

/** A world: its systems, clock and step count (and, for a sphere3d `World`, its rigid bodies). */
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
  /** Triangle meshes to show (terrain, parts that are not bodies of the world). */
  meshes?: readonly ViewMesh[];
  /**
   * Draw the rigid bodies of a world (boxes, spheres, capsules, cylinders, meshes, height maps,
   * posed in every recorded frame), coloured by body type; false leaves them out. An object
   * sets the style: `opacity` in (0, 1] (below 1 the grains show through; default 0.8) and
   * `colors`, a colour `#rrggbb` per body type (default `{ dynamic: "#e08a2c", static:
   * "#8a8f98", kinematic: "#c8489a" }`).
   * @default true
   */
  bodies?: boolean | {
    opacity?: number;
    colors?: { dynamic?: string; static?: string; kinematic?: string };
  };
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
  /** Rigid bodies drawn (0 without). */
  bodies: number;
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
