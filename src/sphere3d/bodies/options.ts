/**
 * Options of the rigid bodies a {@link World} can hold, and their validation. Every `add…`
 * validates everything before it touches the world, so a failed call leaves it unchanged.
 *
 * @module
 */
import { finite, oneOf, options as checkOptions } from "../../math/validate.ts";
import { float32Positive as positive, float32Vec3 as vec3 } from "./float32.ts";
import type { Vec3 } from "../options.ts";
import { BodyKind, type RigidBodyType } from "./body_set.ts";
import { shapeNamed } from "./shape_table.ts";

/** A unit quaternion `[x, y, z, w]`. */
export type Quat = [number, number, number, number];

/**
 * Pose, motion and mass options shared by every body. The rigid-body engine (Rapier) works in
 * float32: every number must be within its range (|x| ≤ 3.4·10³⁸), and sizes, density, mass and
 * the volume and inertia they give must be normal float32 numbers (1.18·10⁻³⁸ … 3.4·10³⁸);
 * anything else is refused when the body is added (see `float32.ts`).
 */
export interface BodyOptions {
  /** Body origin in the world (m). @default [0, 0, 0] */
  position?: Vec3;
  /** Orientation as a quaternion `[x, y, z, w]` (normalised here; not zero). @default [0, 0, 0, 1] */
  orientation?: readonly number[];
  /**
   * `"dynamic"` (moved by gravity, grains and other bodies), `"static"` (never moves) or
   * `"kinematic"` (moved by script: `setVelocity` / `setKinematicTarget`). @default "dynamic"
   */
  bodyType?: RigidBodyType;
  /** Density (kg/m³) of the body's shapes; ignored when `mass` is given. @default 1000 */
  density?: number;
  /** Total mass (kg), > 0; the inertia follows from the shapes. @default from `density` */
  mass?: number;
  /** Initial linear velocity of the centre of mass (m/s). @default [0, 0, 0] */
  linearVelocity?: Vec3;
  /** Initial angular velocity (rad/s). @default [0, 0, 0] */
  angularVelocity?: Vec3;
  /** A name shown in errors, tables and the viewer. @default "body<id>" */
  name?: string;
}

/** Options of `World.addSphere`. */
export interface SphereOptions extends BodyOptions {
  /** Radius (m), > 0. */
  radius: number;
}

/** Options of `World.addBox`. */
export interface BoxBodyOptions extends BodyOptions {
  /** Half extents along the body's x, y, z (m), each > 0. */
  halfExtents: Vec3;
}

/** Options of `World.addCapsule` and `World.addCylinder` (axis along the body's z). */
export interface CapsuleOptions extends BodyOptions {
  /** Radius (m), > 0. */
  radius: number;
  /** Half the length of the axis segment (capsule) or of the cylinder (m), > 0. */
  halfHeight: number;
}

/** One primitive child of a compound body, posed in the body frame. */
export type CompoundChild =
  & { position?: Vec3; orientation?: readonly number[] }
  & (
    | { shape: "sphere"; radius: number }
    | { shape: "box"; halfExtents: Vec3 }
    | { shape: "capsule"; radius: number; halfHeight: number }
    | { shape: "cylinder"; radius: number; halfHeight: number }
  );

/** Options of `World.addCompound`. */
export interface CompoundOptions extends BodyOptions {
  /** The primitive children (at least one). */
  children: readonly CompoundChild[];
}

/** Options of `World.addMesh`: a closed triangle mesh in the body frame. */
export interface MeshOptions extends BodyOptions {
  /** Vertex coordinates xyz (m), flat; or use `file`. */
  vertices?: ArrayLike<number>;
  /** Triangle vertex indices, flat, counter-clockwise seen from outside; or use `file`. */
  indices?: ArrayLike<number>;
  /** An `.obj` or `.stl` (binary or ASCII) file instead of `vertices`/`indices`. */
  file?: string;
  /** Scale applied to the file's coordinates (e.g. 0.001 for millimetres). @default 1 */
  scale?: number;
}

/** Options of `World.addHeightMap`: static terrain z = h(x, y). */
export interface HeightMapBodyOptions {
  /** Heights (m), row-major with x fastest, length nx·ny. */
  heights: ArrayLike<number>;
  /** Samples along x, ≥ 2. */
  nx: number;
  /** Samples along y, ≥ 2. */
  ny: number;
  /** Extent along x (m), > 0. */
  sizeX: number;
  /** Extent along y (m), > 0. */
  sizeY: number;
  /** World position of the map's centre (heights are added to its z). @default [0, 0, 0] */
  center?: Vec3;
  /** A name. @default "heightmap<id>" */
  name?: string;
}

/** Common body keys (for the unknown-key check). */
export const BODY_KEYS: readonly string[] = [
  "position",
  "orientation",
  "bodyType",
  "density",
  "mass",
  "linearVelocity",
  "angularVelocity",
  "name",
];

/** Validated common body settings. */
export interface BodySettings {
  /** Body kind code. */
  kind: number;
  /** Origin. */
  position: number[];
  /** Unit quaternion. */
  orientation: number[];
  /** Density or null. */
  density: number | null;
  /** Mass or null. */
  mass: number | null;
  /** Linear velocity. */
  linearVelocity: number[];
  /** Angular velocity. */
  angularVelocity: number[];
  /** Name or null. */
  name: string | null;
}

/** Validate an options object with the body keys plus `extra`. */
export function bodyOptions<T extends BodyOptions>(
  where: string,
  value: T,
  extra: readonly string[],
): { o: T; s: BodySettings } {
  if (value === undefined) {
    throw new TypeError(`${where}: options (undefined) must be an options object`);
  }
  const o = checkOptions<T>(where, "options", value, [...BODY_KEYS, ...extra]);
  const type = oneOf(where, "bodyType", o.bodyType ?? "dynamic", [
    "dynamic",
    "static",
    "kinematic",
  ]) as RigidBodyType;
  if (o.mass !== undefined) positive(where, "mass", o.mass);
  const density = o.mass === undefined ? positive(where, "density", o.density ?? 1000) : null;
  if (o.name !== undefined && typeof o.name !== "string") {
    throw new TypeError(`${where}: name (${String(o.name)}) must be a string`);
  }
  return {
    o,
    s: {
      kind: BodyKind[type],
      position: o.position === undefined ? [0, 0, 0] : vec3(where, "position", o.position),
      orientation: quaternion(where, "orientation", o.orientation),
      density,
      mass: o.mass === undefined ? null : o.mass,
      linearVelocity: o.linearVelocity === undefined
        ? [0, 0, 0]
        : vec3(where, "linearVelocity", o.linearVelocity),
      angularVelocity: o.angularVelocity === undefined
        ? [0, 0, 0]
        : vec3(where, "angularVelocity", o.angularVelocity),
      name: o.name ?? null,
    },
  };
}

/** A unit quaternion from `[x, y, z, w]` (normalised); undefined gives the identity. */
export function quaternion(where: string, name: string, v: unknown): number[] {
  if (v === undefined) return [0, 0, 0, 1];
  if (v === null || typeof v !== "object" || (v as ArrayLike<unknown>).length !== 4) {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be a quaternion [x, y, z, w]`);
  }
  const a = v as ArrayLike<unknown>;
  const q = [0, 1, 2, 3].map((k) => finite(where, `${name}[${k}]`, a[k]));
  const n = Math.hypot(q[0], q[1], q[2], q[3]);
  if (!(n > 1e-12)) {
    throw new RangeError(`${where}: ${name} ([${q.join(", ")}]) must not be the zero quaternion`);
  }
  return q.map((x) => x / n);
}

/** Validate one primitive: returns its kind code and parameters. */
export function primitive(
  where: string,
  shape: string,
  o: { radius?: unknown; halfExtents?: unknown; halfHeight?: unknown },
): { kind: number; param: number[] } {
  const e = shapeNamed(where, shape, true);
  return { kind: e.kind, param: e.params(where, o) };
}
