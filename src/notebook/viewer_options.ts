/**
 * Options of the 3D viewer: the known keys, the plain settings (size, first frame, speed,
 * title, background, switches), the boundaries to draw and the camera.
 *
 * @module
 */

import { options as checkOptions } from "../math/validate.ts";
import type { Camera } from "./raster.ts";
import { type Boundaries, boundariesOf } from "./viewer_frames.ts";
import type { View3DOptions } from "./viewer_types.ts";

/** The keys {@link View3DOptions} may have. */
export const OPTION_KEYS: string[] = [
  "color",
  "scales",
  "network",
  "showNetwork",
  "boundaries",
  "meshes",
  "bodies",
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

/** The plain settings, validated. */
export interface Settings {
  width: number;
  height: number;
  initialFrame: number;
  fps: number;
  title: string;
  background: string;
}

/** The plain options: size, first frame, speed, title, background, switches. */
export function viewSettings(where: string, o: View3DOptions, nFrames: number): Settings {
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

/** The boundaries to draw: the source's, none, or those of the object given. */
export function boundariesOption(where: string, o: View3DOptions, own: Boundaries): Boundaries {
  if (o.boundaries === undefined || o.boundaries === true) return own;
  if (o.boundaries === false) return { ground: null, containers: [], periodic: [] };
  if (typeof o.boundaries !== "object" || o.boundaries === null) {
    throw new TypeError(`${where}: boundaries must be a boolean or a system with boundaries`);
  }
  return boundariesOf([o.boundaries]);
}

/** Three finite numbers, or a RangeError naming the option. */
export function vec3Of(where: string, name: string, v: unknown): [number, number, number] {
  const a = v as ArrayLike<number>;
  if (!a || a.length !== 3 || ![0, 1, 2].every((k) => Number.isFinite(a[k]))) {
    throw new RangeError(`${where}: ${name} (${String(v)}) must be 3 finite numbers`);
  }
  return [a[0], a[1], a[2]];
}

/** The camera: as given, else looking at the framed box from the front right, above. */
export function viewCamera(
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
