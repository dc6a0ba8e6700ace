/**
 * The float32 range of the rigid-body engine. Rapier stores and integrates everything in
 * float32: a number beyond ±3.4·10³⁸ becomes ±Infinity there, a positive one below
 * 1.18·10⁻³⁸ (the smallest normal float32) becomes 0 or a denormal. Such a size, mass or
 * inertia would give a dynamic body of mass 0 (which Rapier treats as immovable or NaN) or
 * crash the engine later (`RuntimeError: unreachable`, after which the engine stays
 * unusable); these checks refuse the input before Rapier sees it, naming the parameter, the
 * value and the range. Internal (the `World.add…` methods and `RigidBody` setters call them).
 *
 * @module
 */
import { finite, positive, vec3 } from "../../math/validate.ts";
import { ShapeKind } from "./body_set.ts";
import {
  boxMassProperties,
  capsuleMassProperties,
  cylinderMassProperties,
  sphereMassProperties,
} from "./shapes.ts";
import type { TriangleMesh } from "./mesh.ts";

/** The largest finite float32, 3.4028234663852886e38. */
export const FLOAT32_MAX = 3.4028234663852886e38;
/** The smallest positive normal float32, 1.1754943508222875e-38. */
export const FLOAT32_MIN = 1.1754943508222875e-38;

const RANGE = `[${FLOAT32_MIN.toPrecision(3)}, ${FLOAT32_MAX.toPrecision(3)}]`;

/**
 * A finite number whose magnitude float32 can hold (|x| ≤ 3.4·10³⁸); otherwise a RangeError
 * naming the parameter (a TypeError for a non-number).
 *
 * @example
 * ```ts
 * import { float32Finite } from "./float32.ts";
 * import { expect } from "expect";
 * expect(float32Finite("f", "x", -2.5)).toBe(-2.5);
 * expect(() => float32Finite("f", "x", 1e308)).toThrow(/x \(1e\+308\) is beyond the float32/);
 * ```
 */
export function float32Finite(where: string, name: string, v: unknown): number {
  const x = finite(where, name, v);
  if (!(Math.abs(x) <= FLOAT32_MAX)) {
    throw new RangeError(
      `${where}: ${name} (${x}) is beyond the float32 range of the rigid-body engine ` +
        `(|x| <= ${FLOAT32_MAX.toPrecision(3)})`,
    );
  }
  return x;
}

/**
 * A positive number that float32 holds as a normal number (in [1.18·10⁻³⁸, 3.4·10³⁸]), so
 * that the engine neither rounds it to 0 nor to Infinity.
 *
 * @example
 * ```ts
 * import { float32Positive } from "./float32.ts";
 * import { expect } from "expect";
 * expect(float32Positive("f", "radius", 0.1)).toBe(0.1);
 * expect(() => float32Positive("f", "radius", 1e-120)).toThrow(/radius \(1e-120\) must be in/);
 * expect(() => float32Positive("f", "radius", -1)).toThrow(/radius \(-1\) must be > 0/);
 * ```
 */
export function float32Positive(where: string, name: string, v: unknown, unit = ""): number {
  const x = positive(where, name, v);
  if (!(x >= FLOAT32_MIN && x <= FLOAT32_MAX)) {
    throw new RangeError(
      `${where}: ${name} (${x}${unit}) must be in ${RANGE}${unit}, the float32 range of the ` +
        `rigid-body engine (it would become ${Math.fround(x)} there)`,
    );
  }
  return x;
}

/**
 * A 3-vector of numbers float32 holds (see {@link float32Finite}).
 *
 * @example
 * ```ts
 * import { float32Vec3 } from "./float32.ts";
 * import { expect } from "expect";
 * expect(float32Vec3("f", "v", [1, 2, 3])).toEqual([1, 2, 3]);
 * expect(() => float32Vec3("f", "v", [0, 0, 1e39])).toThrow(/v\[2\] \(1e\+39\)/);
 * ```
 */
export function float32Vec3(where: string, name: string, v: unknown): [number, number, number] {
  const a = vec3(where, name, v);
  for (let k = 0; k < 3; k++) float32Finite(where, `${name}[${k}]`, a[k]);
  return a;
}

/** A shape as the mass check reads it (the fields of a `ShapeSpec`). */
export interface MassShape {
  /** {@link ShapeKind}. */
  kind: number;
  /** Parameters. */
  param: number[];
  /** Origin in the body frame. */
  position: number[];
  /** Mesh (or height map) of a mesh shape. */
  object: unknown;
}

/**
 * Check that the engine can represent a dynamic body's mass properties: every shape's volume
 * and unit-density inertia (what Rapier computes first, at density 1), the density, the mass
 * and the inertia about the body origin, each a normal float32 (in [1.18·10⁻³⁸, 3.4·10³⁸]).
 * `density` is used when `mass` is null. Throws a RangeError naming the quantity.
 *
 * @example
 * ```ts
 * import { checkBodyMass } from "./float32.ts";
 * import { expect } from "expect";
 * const ball = { kind: 0, param: [0.1], position: [0, 0, 0], object: null };
 * expect(checkBodyMass("add", [ball], 1000, null)).toBeCloseTo(4.19, 2);
 * expect(() => checkBodyMass("add", [ball], null, 1e300)).toThrow(/mass \(1e\+300 kg\)/);
 * const huge = { kind: 1, param: [1e20, 1e20, 1e20], position: [0, 0, 0], object: null };
 * expect(() => checkBodyMass("add", [huge], 1000, null)).toThrow(/volume/);
 * ```
 */
export function checkBodyMass(
  where: string,
  shapes: readonly MassShape[],
  density: number | null,
  mass: number | null,
): number {
  let volume = 0, inertia = 0;
  const units: { v: number; i: number }[] = [];
  for (let s = 0; s < shapes.length; s++) {
    const sh = shapes[s], p = sh.param, name = shapes.length > 1 ? `shape ${s} ` : "";
    let v: number, i: number[], ox = 0, oy = 0, oz = 0;
    if (sh.kind === ShapeKind.sphere) ({ volume: v, inertia: i } = sphereMassProperties(p[0]));
    else if (sh.kind === ShapeKind.box) {
      ({ volume: v, inertia: i } = boxMassProperties(p[0], p[1], p[2]));
    } else if (sh.kind === ShapeKind.capsule) {
      ({ volume: v, inertia: i } = capsuleMassProperties(p[0], p[1]));
    } else if (sh.kind === ShapeKind.cylinder) {
      ({ volume: v, inertia: i } = cylinderMassProperties(p[0], p[1]));
    } else if (sh.kind === ShapeKind.mesh) {
      const mp = (sh.object as TriangleMesh).massProperties(1);
      v = mp.volume, i = [mp.inertia[0], mp.inertia[1], mp.inertia[2]];
      ox = mp.centerOfMass[0], oy = mp.centerOfMass[1], oz = mp.centerOfMass[2];
    } else continue;
    float32Positive(where, `${name}volume`, v, " m³");
    const iMax = Math.max(i[0], i[1], i[2]), iMin = Math.min(i[0], i[1], i[2]);
    float32Positive(where, `${name}inertia at density 1 (smallest moment)`, iMin, " kg·m²");
    float32Positive(where, `${name}inertia at density 1 (largest moment)`, iMax, " kg·m²");
    const dx = sh.position[0] + ox, dy = sh.position[1] + oy, dz = sh.position[2] + oz;
    volume += v;
    inertia += iMax + v * (dx * dx + dy * dy + dz * dz);
    units.push({ v, i: iMin });
  }
  if (units.length === 0) return 0;
  float32Positive(where, "volume", volume, " m³");
  if (mass !== null) float32Positive(where, "mass", mass, " kg");
  const rho = mass !== null ? mass / volume : density!;
  float32Positive(where, mass !== null ? "mass / volume (the density)" : "density", rho, " kg/m³");
  const m = mass ?? rho * volume;
  float32Positive(where, "mass", m, " kg");
  float32Positive(where, "inertia (largest moment about the body origin)", rho * inertia, " kg·m²");
  for (const u of units) {
    float32Positive(where, "inertia (smallest moment of a shape)", rho * u.i, " kg·m²");
  }
  return m;
}

/** A body as {@link checkBodyInput} reads it (the fields of `BodySettings`). */
export interface BodyInput {
  /** Body kind code (`BodyKind`). */
  kind: number;
  /** Origin. */
  position: number[];
  /** Linear velocity. */
  linearVelocity: number[];
  /** Angular velocity. */
  angularVelocity: number[];
  /** Density or null. */
  density: number | null;
  /** Mass or null. */
  mass: number | null;
}

/** Explicit mass properties (e.g. a URDF `<inertial>`). */
export interface MassInput {
  /** Mass (kg). */
  mass: number;
  /** Centre of mass in the body frame (m). */
  com: number[];
  /** Principal moments (kg·m²). */
  principal: number[];
}

/**
 * Check everything a new body hands the engine against the float32 range: pose, velocities,
 * shape sizes and offsets, mesh vertices and height-map samples, and (dynamic bodies) the
 * mass properties, explicit ones (`mp`) or those the density or mass give the shapes
 * ({@link checkBodyMass}). Throws a RangeError naming the body, the quantity and the range.
 *
 * @example
 * ```ts
 * import { checkBodyInput } from "./float32.ts";
 * import { expect } from "expect";
 * const body = {
 *   kind: 0, position: [0, 0, 1e308], linearVelocity: [0, 0, 0], angularVelocity: [0, 0, 0],
 *   density: 1000, mass: null,
 * };
 * const ball = { kind: 0, param: [0.1], position: [0, 0, 0], object: null };
 * expect(() => checkBodyInput("add", body, [ball])).toThrow(/position\[2\] \(1e\+308\)/);
 * ```
 */
export function checkBodyInput(
  where: string,
  s: BodyInput,
  shapes: readonly MassShape[],
  mp?: MassInput,
): void {
  float32Vec3(where, "position", s.position);
  float32Vec3(where, "linearVelocity", s.linearVelocity);
  float32Vec3(where, "angularVelocity", s.angularVelocity);
  for (let k = 0; k < shapes.length; k++) {
    const sh = shapes[k], w = shapes.length > 1 ? `${where}: shape ${k}` : where, p = sh.param;
    float32Vec3(w, "position", sh.position);
    if (sh.kind === ShapeKind.sphere) float32Positive(w, "radius", p[0], " m");
    else if (sh.kind === ShapeKind.box) {
      for (let a = 0; a < 3; a++) float32Positive(w, `halfExtents[${a}]`, p[a], " m");
    } else if (sh.kind === ShapeKind.capsule || sh.kind === ShapeKind.cylinder) {
      float32Positive(w, "radius", p[0], " m");
      float32Positive(w, "halfHeight", p[1], " m");
    } else {
      const o = sh.object as {
        vertices?: ArrayLike<number>;
        heights?: ArrayLike<number>;
        sizeX?: number;
        sizeY?: number;
      };
      if (o.sizeX !== undefined) float32Positive(w, "sizeX", o.sizeX, " m");
      if (o.sizeY !== undefined) float32Positive(w, "sizeY", o.sizeY, " m");
      const a = o.vertices ?? o.heights ?? [], name = o.vertices ? "vertices" : "heights";
      for (let i = 0; i < a.length; i++) {
        if (!(Math.abs(a[i]) <= FLOAT32_MAX)) float32Finite(w, `${name}[${i}]`, a[i]);
      }
    }
  }
  if (s.kind !== 0) return; // static and kinematic bodies have no mass in the engine
  if (mp !== undefined) {
    float32Positive(where, "mass", mp.mass, " kg");
    float32Vec3(where, "centre of mass", mp.com);
    for (let k = 0; k < 3; k++) {
      float32Positive(where, `principal inertia[${k}]`, mp.principal[k], " kg·m²");
    }
    return;
  }
  checkBodyMass(where, shapes, s.density, s.mass);
}
