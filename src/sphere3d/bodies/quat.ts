/**
 * Quaternion helpers for rigid-body poses. A quaternion is `[x, y, z, w]` (vector part first,
 * as in Rapier and three.js) and a unit quaternion `q` rotates a vector `v` as `q v q*`.
 * Matrices are 3×3, row-major (`m[3 * row + col]`).
 *
 * Two flavours of each operation:
 *
 * - convenience functions (`quatMultiply`, `quatRotate`, …) check their arguments and return a
 *   new array;
 * - `…Into` variants write into `out` at `outOffset`, read their inputs at their own offsets
 *   (so that they work on stride-4 / stride-3 `Float64Array` columns), allocate nothing and do
 *   not validate: they are meant for per-step loops. `out` may be one of the inputs (every
 *   input is read before anything is written).
 *
 * @module
 */
import { finite, vec3 } from "../../math/validate.ts";

/** A quaternion `[x, y, z, w]`. */
export type Quaternion = [number, number, number, number];

/** A 3-vector `[x, y, z]`. */
export type Vector3 = [number, number, number];

/** A 3×3 matrix, row-major: `[m00, m01, m02, m10, m11, m12, m20, m21, m22]`. */
export type Matrix3 = [number, number, number, number, number, number, number, number, number];

/** Anything indexable that numbers can be written into (`number[]`, `Float64Array`, …). */
export interface WritableNumbers {
  /** Element `index`. */
  [index: number]: number;
  /** Number of elements. */
  readonly length: number;
}

/** Check an array-like of 4 finite numbers and copy it. */
function quat4(where: string, name: string, q: unknown): Quaternion {
  if (q === null || typeof q !== "object" || typeof (q as ArrayLike<number>).length !== "number") {
    throw new TypeError(`${where}: ${name} (${String(q)}) must be an array of 4 numbers`);
  }
  const a = q as ArrayLike<unknown>;
  if (a.length !== 4) {
    throw new RangeError(`${where}: ${name} (length ${a.length}) must have exactly 4 components`);
  }
  return [
    finite(where, `${name}[0]`, a[0]),
    finite(where, `${name}[1]`, a[1]),
    finite(where, `${name}[2]`, a[2]),
    finite(where, `${name}[3]`, a[3]),
  ];
}

/** Check a unit quaternion (norm within 1e-6 of 1) and copy it. */
function unitQuat(where: string, name: string, q: unknown): Quaternion {
  const r = quat4(where, name, q);
  const n = Math.hypot(r[0], r[1], r[2], r[3]);
  if (!(Math.abs(n - 1) <= 1e-6)) {
    throw new RangeError(
      `${where}: ${name} ([${r.join(", ")}]) must be a unit quaternion (its norm is ${n}; ` +
        "normalise it with quatNormalize)",
    );
  }
  return r;
}

/**
 * The quaternion of URDF roll-pitch-yaw angles (rad): fixed-axis rotations about x by `roll`,
 * then about y by `pitch`, then about z by `yaw`, i.e. `R = Rz(yaw)·Ry(pitch)·Rx(roll)`.
 *
 * @param rpy `[roll, pitch, yaw]` (rad).
 * @returns The unit quaternion `[x, y, z, w]`.
 * @example
 * ```ts
 * import { quatRotate, rpyToQuaternion } from "./quat.ts";
 * import { expect } from "expect";
 * // a yaw of 90° turns x into y
 * const q = rpyToQuaternion([0, 0, Math.PI / 2]);
 * expect(q[2]).toBeCloseTo(Math.SQRT1_2, 12);
 * expect(q[3]).toBeCloseTo(Math.SQRT1_2, 12);
 * const v = quatRotate(q, [1, 0, 0]);
 * expect(v[0]).toBeCloseTo(0, 12);
 * expect(v[1]).toBeCloseTo(1, 12);
 * ```
 */
export function rpyToQuaternion(rpy: ArrayLike<number>): Quaternion {
  const [roll, pitch, yaw] = vec3("rpyToQuaternion", "rpy", rpy);
  const cr = Math.cos(roll / 2), sr = Math.sin(roll / 2);
  const cp = Math.cos(pitch / 2), sp = Math.sin(pitch / 2);
  const cy = Math.cos(yaw / 2), sy = Math.sin(yaw / 2);
  // qz(yaw) ⊗ qy(pitch) ⊗ qx(roll)
  return [
    sr * cp * cy - cr * sp * sy,
    cr * sp * cy + sr * cp * sy,
    cr * cp * sy - sr * sp * cy,
    cr * cp * cy + sr * sp * sy,
  ];
}

/**
 * The rotation of `angle` (rad) about `axis` (any non-zero length; it is normalised).
 *
 * @example
 * ```ts
 * import { quatFromAxisAngle } from "./quat.ts";
 * import { expect } from "expect";
 * const q = quatFromAxisAngle([0, 2, 0], Math.PI);
 * expect(q[1]).toBeCloseTo(1, 12);
 * expect(q[3]).toBeCloseTo(0, 12);
 * ```
 */
export function quatFromAxisAngle(axis: ArrayLike<number>, angle: number): Quaternion {
  const where = "quatFromAxisAngle";
  const [x, y, z] = vec3(where, "axis", axis);
  const a = finite(where, "angle", angle);
  const n = Math.hypot(x, y, z);
  if (!(n > 0)) throw new RangeError(`${where}: axis ([${x}, ${y}, ${z}]) must not be zero`);
  const s = Math.sin(a / 2) / n;
  return [x * s, y * s, z * s, Math.cos(a / 2)];
}

/**
 * `out = a ⊗ b` (the rotation `b` followed by `a`), allocation-free; see the module notes on
 * offsets and aliasing.
 *
 * @returns `out`.
 * @example
 * ```ts
 * import { quatMultiplyInto } from "./quat.ts";
 * import { expect } from "expect";
 * // two stride-4 columns: body orientations and the shape offsets in their frames
 * const body = new Float64Array([0, 0, 0, 1, 0, 0, Math.SQRT1_2, Math.SQRT1_2]);
 * const local = new Float64Array([0, 0, Math.SQRT1_2, Math.SQRT1_2]);
 * const world = new Float64Array(8);
 * for (let b = 0; b < 2; b++) quatMultiplyInto(world, body, local, 4 * b, 4 * b, 0);
 * expect(world[6]).toBeCloseTo(1, 12); // 90° + 90° about z = 180°
 * expect(world[7]).toBeCloseTo(0, 12);
 * ```
 */
export function quatMultiplyInto<T extends WritableNumbers>(
  out: T,
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  outOffset = 0,
  aOffset = 0,
  bOffset = 0,
): T {
  const ax = a[aOffset], ay = a[aOffset + 1], az = a[aOffset + 2], aw = a[aOffset + 3];
  const bx = b[bOffset], by = b[bOffset + 1], bz = b[bOffset + 2], bw = b[bOffset + 3];
  out[outOffset] = aw * bx + ax * bw + ay * bz - az * by;
  out[outOffset + 1] = aw * by - ax * bz + ay * bw + az * bx;
  out[outOffset + 2] = aw * bz + ax * by - ay * bx + az * bw;
  out[outOffset + 3] = aw * bw - ax * bx - ay * by - az * bz;
  return out;
}

/**
 * `a ⊗ b`: the rotation `b` followed by `a` (so a child frame's orientation in the world is
 * `quatMultiply(parentInWorld, childInParent)`).
 *
 * @example
 * ```ts
 * import { quatMultiply, rpyToQuaternion } from "./quat.ts";
 * import { expect } from "expect";
 * const yaw = rpyToQuaternion([0, 0, 0.3]);
 * const q = quatMultiply(yaw, yaw);
 * const twice = rpyToQuaternion([0, 0, 0.6]);
 * for (let k = 0; k < 4; k++) expect(q[k]).toBeCloseTo(twice[k], 14);
 * ```
 */
export function quatMultiply(a: ArrayLike<number>, b: ArrayLike<number>): Quaternion {
  const qa = quat4("quatMultiply", "a", a), qb = quat4("quatMultiply", "b", b);
  return quatMultiplyInto([0, 0, 0, 0], qa, qb);
}

/**
 * `out = q*`, the conjugate (the inverse rotation of a unit quaternion), allocation-free.
 *
 * @returns `out`.
 * @example
 * ```ts
 * import { quatConjugateInto } from "./quat.ts";
 * import { expect } from "expect";
 * const q = [0.5, 0.5, 0.5, 0.5];
 * expect(quatConjugateInto(q, q)).toEqual([-0.5, -0.5, -0.5, 0.5]);
 * ```
 */
export function quatConjugateInto<T extends WritableNumbers>(
  out: T,
  q: ArrayLike<number>,
  outOffset = 0,
  qOffset = 0,
): T {
  const x = q[qOffset], y = q[qOffset + 1], z = q[qOffset + 2], w = q[qOffset + 3];
  out[outOffset] = -x;
  out[outOffset + 1] = -y;
  out[outOffset + 2] = -z;
  out[outOffset + 3] = w;
  return out;
}

/**
 * The conjugate `q*`: for a unit quaternion, the inverse rotation.
 *
 * @example
 * ```ts
 * import { quatConjugate, quatMultiply, rpyToQuaternion } from "./quat.ts";
 * import { expect } from "expect";
 * const q = rpyToQuaternion([0.1, 0.2, 0.3]);
 * const one = quatMultiply(q, quatConjugate(q));
 * expect(one[3]).toBeCloseTo(1, 14);
 * ```
 */
export function quatConjugate(q: ArrayLike<number>): Quaternion {
  return quatConjugateInto([0, 0, 0, 0], quat4("quatConjugate", "q", q));
}

/**
 * `out = q / |q|`, allocation-free.
 *
 * @returns `out`.
 * @throws {RangeError} when `|q|` is zero or not finite.
 * @example
 * ```ts
 * import { quatNormalizeInto } from "./quat.ts";
 * import { expect } from "expect";
 * const cols = new Float64Array([0, 0, 0, 2, 0, 3, 0, 4]);
 * quatNormalizeInto(cols, cols, 4, 4);
 * expect(Array.from(cols.subarray(4))).toEqual([0, 0.6, 0, 0.8]);
 * ```
 */
export function quatNormalizeInto<T extends WritableNumbers>(
  out: T,
  q: ArrayLike<number>,
  outOffset = 0,
  qOffset = 0,
): T {
  const x = q[qOffset], y = q[qOffset + 1], z = q[qOffset + 2], w = q[qOffset + 3];
  const n = Math.sqrt(x * x + y * y + z * z + w * w);
  if (!(n > 0 && n < Infinity)) {
    throw new RangeError(
      `quatNormalizeInto: q ([${x}, ${y}, ${z}, ${w}]) must have a finite, non-zero norm`,
    );
  }
  out[outOffset] = x / n;
  out[outOffset + 1] = y / n;
  out[outOffset + 2] = z / n;
  out[outOffset + 3] = w / n;
  return out;
}

/**
 * `q / |q|`.
 *
 * @throws {RangeError} when `q` is zero.
 * @example
 * ```ts
 * import { quatNormalize } from "./quat.ts";
 * import { expect } from "expect";
 * expect(quatNormalize([0, 0, 3, 4])).toEqual([0, 0, 0.6, 0.8]);
 * ```
 */
export function quatNormalize(q: ArrayLike<number>): Quaternion {
  const r = quat4("quatNormalize", "q", q);
  if (!(Math.hypot(r[0], r[1], r[2], r[3]) > 0)) {
    throw new RangeError(`quatNormalize: q ([${r.join(", ")}]) must not be zero`);
  }
  return quatNormalizeInto([0, 0, 0, 0], r);
}

/**
 * `out = q v q*`: the vector `v` rotated by the unit quaternion `q`, allocation-free.
 *
 * @returns `out`.
 * @example
 * ```ts
 * import { quatRotateInto } from "./quat.ts";
 * import { expect } from "expect";
 * const q = [0, 0, Math.SQRT1_2, Math.SQRT1_2]; // 90° about z
 * const v = new Float64Array([0, 0, 0, 2, 0, 0]); // two stride-3 vectors
 * quatRotateInto(v, q, v, 3, 0, 3);
 * expect(v[3]).toBeCloseTo(0, 12);
 * expect(v[4]).toBeCloseTo(2, 12);
 * ```
 */
export function quatRotateInto<T extends WritableNumbers>(
  out: T,
  q: ArrayLike<number>,
  v: ArrayLike<number>,
  outOffset = 0,
  qOffset = 0,
  vOffset = 0,
): T {
  const qx = q[qOffset], qy = q[qOffset + 1], qz = q[qOffset + 2], qw = q[qOffset + 3];
  const vx = v[vOffset], vy = v[vOffset + 1], vz = v[vOffset + 2];
  // v' = v + w t + q_v × t with t = 2 (q_v × v)
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[outOffset] = vx + qw * tx + (qy * tz - qz * ty);
  out[outOffset + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[outOffset + 2] = vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

/**
 * The vector `v` rotated by the unit quaternion `q` (`q` must have norm 1 within 1e-6).
 *
 * @example
 * ```ts
 * import { quatFromAxisAngle, quatRotate } from "./quat.ts";
 * import { expect } from "expect";
 * const v = quatRotate(quatFromAxisAngle([1, 0, 0], Math.PI / 2), [0, 1, 0]);
 * expect(v[2]).toBeCloseTo(1, 12); // y turns into z about x
 * ```
 */
export function quatRotate(q: ArrayLike<number>, v: ArrayLike<number>): Vector3 {
  const u = unitQuat("quatRotate", "q", q);
  return quatRotateInto([0, 0, 0], u, vec3("quatRotate", "v", v));
}

/**
 * `out = q* v q`: the vector `v` rotated by the inverse of the unit quaternion `q` (a world
 * vector expressed in the body frame of orientation `q`), allocation-free.
 *
 * @returns `out`.
 * @example
 * ```ts
 * import { quatRotateInverseInto } from "./quat.ts";
 * import { expect } from "expect";
 * const q = [0, 0, Math.SQRT1_2, Math.SQRT1_2]; // body turned 90° about z
 * const local = quatRotateInverseInto([0, 0, 0], q, [0, 1, 0]);
 * expect(local[0]).toBeCloseTo(1, 12); // world y is the body's x
 * ```
 */
export function quatRotateInverseInto<T extends WritableNumbers>(
  out: T,
  q: ArrayLike<number>,
  v: ArrayLike<number>,
  outOffset = 0,
  qOffset = 0,
  vOffset = 0,
): T {
  const qx = -q[qOffset], qy = -q[qOffset + 1], qz = -q[qOffset + 2], qw = q[qOffset + 3];
  const vx = v[vOffset], vy = v[vOffset + 1], vz = v[vOffset + 2];
  const tx = 2 * (qy * vz - qz * vy);
  const ty = 2 * (qz * vx - qx * vz);
  const tz = 2 * (qx * vy - qy * vx);
  out[outOffset] = vx + qw * tx + (qy * tz - qz * ty);
  out[outOffset + 1] = vy + qw * ty + (qz * tx - qx * tz);
  out[outOffset + 2] = vz + qw * tz + (qx * ty - qy * tx);
  return out;
}

/**
 * The vector `v` rotated by the inverse of the unit quaternion `q`.
 *
 * @example
 * ```ts
 * import { quatRotate, quatRotateInverse, rpyToQuaternion } from "./quat.ts";
 * import { expect } from "expect";
 * const q = rpyToQuaternion([0.4, -0.2, 1.1]);
 * const back = quatRotateInverse(q, quatRotate(q, [1, 2, 3]));
 * expect(back[1]).toBeCloseTo(2, 12);
 * ```
 */
export function quatRotateInverse(q: ArrayLike<number>, v: ArrayLike<number>): Vector3 {
  const u = unitQuat("quatRotateInverse", "q", q);
  return quatRotateInverseInto([0, 0, 0], u, vec3("quatRotateInverse", "v", v));
}

/**
 * `out[outOffset..+8]` = the row-major rotation matrix of the unit quaternion `q`,
 * allocation-free.
 *
 * @returns `out`.
 * @example
 * ```ts
 * import { quatToMatrixInto } from "./quat.ts";
 * import { expect } from "expect";
 * const m = quatToMatrixInto(new Float64Array(9), [0, 0, 0, 1]);
 * expect(Array.from(m)).toEqual([1, 0, 0, 0, 1, 0, 0, 0, 1]);
 * ```
 */
export function quatToMatrixInto<T extends WritableNumbers>(
  out: T,
  q: ArrayLike<number>,
  outOffset = 0,
  qOffset = 0,
): T {
  const x = q[qOffset], y = q[qOffset + 1], z = q[qOffset + 2], w = q[qOffset + 3];
  const o = outOffset;
  out[o] = 1 - 2 * (y * y + z * z);
  out[o + 1] = 2 * (x * y - z * w);
  out[o + 2] = 2 * (x * z + y * w);
  out[o + 3] = 2 * (x * y + z * w);
  out[o + 4] = 1 - 2 * (x * x + z * z);
  out[o + 5] = 2 * (y * z - x * w);
  out[o + 6] = 2 * (x * z - y * w);
  out[o + 7] = 2 * (y * z + x * w);
  out[o + 8] = 1 - 2 * (x * x + y * y);
  return out;
}

/**
 * The row-major rotation matrix of the unit quaternion `q`.
 *
 * @example
 * ```ts
 * import { quatFromAxisAngle, quatToMatrix } from "./quat.ts";
 * import { expect } from "expect";
 * const m = quatToMatrix(quatFromAxisAngle([0, 0, 1], Math.PI / 2));
 * // the first column is the image of x: y
 * expect(m[0]).toBeCloseTo(0, 12);
 * expect(m[3]).toBeCloseTo(1, 12);
 * ```
 */
export function quatToMatrix(q: ArrayLike<number>): Matrix3 {
  const u = unitQuat("quatToMatrix", "q", q);
  return quatToMatrixInto([0, 0, 0, 0, 0, 0, 0, 0, 0], u);
}

/**
 * The unit quaternion of a rotation matrix (row-major, orthonormal with determinant +1 within
 * 1e-6), with `w >= 0`.
 *
 * @example
 * ```ts
 * import { quatFromMatrix } from "./quat.ts";
 * import { expect } from "expect";
 * // 90° about z: x → y, y → −x
 * const q = quatFromMatrix([0, -1, 0, 1, 0, 0, 0, 0, 1]);
 * expect(q[2]).toBeCloseTo(Math.SQRT1_2, 12);
 * expect(q[3]).toBeCloseTo(Math.SQRT1_2, 12);
 * ```
 */
export function quatFromMatrix(m: ArrayLike<number>): Quaternion {
  const where = "quatFromMatrix";
  if (m === null || typeof m !== "object" || m.length !== 9) {
    throw new TypeError(`${where}: m must be an array of 9 numbers (a row-major 3×3 matrix)`);
  }
  const a: number[] = [];
  for (let k = 0; k < 9; k++) a.push(finite(where, `m[${k}]`, m[k]));
  // orthonormality: M Mᵀ = I and det = +1
  let err = 0;
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      const d = a[3 * i] * a[3 * j] + a[3 * i + 1] * a[3 * j + 1] + a[3 * i + 2] * a[3 * j + 2];
      err = Math.max(err, Math.abs(d - (i === j ? 1 : 0)));
    }
  }
  const det = a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
    a[2] * (a[3] * a[7] - a[4] * a[6]);
  if (!(err <= 1e-6) || !(Math.abs(det - 1) <= 1e-6)) {
    throw new RangeError(
      `${where}: m must be a rotation matrix (orthonormal, determinant +1); ` +
        `|M Mᵀ − I| = ${err}, det = ${det}`,
    );
  }
  // Shepperd: take the largest of 4w², 4x², 4y², 4z² for a well-conditioned square root
  const tr = a[0] + a[4] + a[8];
  let x: number, y: number, z: number, w: number;
  if (tr >= a[0] && tr >= a[4] && tr >= a[8]) {
    const s = 2 * Math.sqrt(1 + tr);
    w = s / 4;
    x = (a[7] - a[5]) / s;
    y = (a[2] - a[6]) / s;
    z = (a[3] - a[1]) / s;
  } else if (a[0] >= a[4] && a[0] >= a[8]) {
    const s = 2 * Math.sqrt(1 + a[0] - a[4] - a[8]);
    x = s / 4;
    w = (a[7] - a[5]) / s;
    y = (a[1] + a[3]) / s;
    z = (a[2] + a[6]) / s;
  } else if (a[4] >= a[8]) {
    const s = 2 * Math.sqrt(1 + a[4] - a[0] - a[8]);
    y = s / 4;
    w = (a[2] - a[6]) / s;
    x = (a[1] + a[3]) / s;
    z = (a[5] + a[7]) / s;
  } else {
    const s = 2 * Math.sqrt(1 + a[8] - a[0] - a[4]);
    z = s / 4;
    w = (a[3] - a[1]) / s;
    x = (a[2] + a[6]) / s;
    y = (a[5] + a[7]) / s;
  }
  const sign = w < 0 ? -1 : 1;
  const n = sign / Math.hypot(x, y, z, w);
  return [x * n, y * n, z * n, w * n];
}
