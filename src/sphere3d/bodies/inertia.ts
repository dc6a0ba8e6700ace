/**
 * Inertia tensors as six numbers `[ixx, iyy, izz, ixy, ixz, iyz]` (kg·m², about the centre of
 * mass, the order of URDF's `<inertia>` attributes regrouped as diagonal then off-diagonal):
 * rotating a tensor into another frame and finding its principal moments and axes (what a
 * rigid-body engine such as Rapier takes as "principal angular inertia" and its local frame).
 *
 * @module
 */
import { finite } from "../../math/validate.ts";
import { type Quaternion, quatFromMatrix, quatToMatrixInto, type Vector3 } from "./quat.ts";

/** A symmetric inertia tensor `[ixx, iyy, izz, ixy, ixz, iyz]` (kg·m²). */
export type InertiaTensor = [number, number, number, number, number, number];

/** Principal moments and axes of an inertia tensor: `I = R · diag(moments) · Rᵀ`. */
export interface PrincipalInertia {
  /** The principal moments (kg·m²), ascending. */
  moments: Vector3;
  /** The rotation `R` whose columns are the principal axes, as a unit quaternion `[x,y,z,w]`. */
  frame: Quaternion;
}

function tensor6(where: string, name: string, t: unknown): InertiaTensor {
  if (t === null || typeof t !== "object" || (t as ArrayLike<number>).length !== 6) {
    throw new TypeError(
      `${where}: ${name} must be an array of 6 numbers [ixx, iyy, izz, ixy, ixz, iyz]`,
    );
  }
  const a = t as ArrayLike<unknown>;
  const out = [0, 0, 0, 0, 0, 0] as InertiaTensor;
  for (let k = 0; k < 6; k++) out[k] = finite(where, `${name}[${k}]`, a[k]);
  return out;
}

/** The full row-major matrix of a six-number tensor. */
function full(t: InertiaTensor): number[] {
  const [xx, yy, zz, xy, xz, yz] = t;
  return [xx, xy, xz, xy, yy, yz, xz, yz, zz];
}

/**
 * The tensor `R I Rᵀ`: a tensor given in a frame rotated by the unit quaternion `q`, expressed
 * in the outer frame (URDF: the `<inertial>` origin's `rpy` frame → the link frame).
 *
 * @param inertia `[ixx, iyy, izz, ixy, ixz, iyz]` (kg·m²) in the rotated frame.
 * @param q `[x, y, z, w]`, the rotated frame's orientation in the outer frame (norm 1 ± 1e-6).
 * @example
 * ```ts
 * import { rotateInertia } from "./inertia.ts";
 * import { rpyToQuaternion } from "./quat.ts";
 * import { expect } from "expect";
 * // a rod along x (small ixx) turned 90° about z lies along y (small iyy)
 * const t = rotateInertia([0.001, 0.05, 0.05, 0, 0, 0], rpyToQuaternion([0, 0, Math.PI / 2]));
 * expect(t[0]).toBeCloseTo(0.05, 12);
 * expect(t[1]).toBeCloseTo(0.001, 12);
 * expect(t[3]).toBeCloseTo(0, 12);
 * ```
 */
export function rotateInertia(inertia: ArrayLike<number>, q: ArrayLike<number>): InertiaTensor {
  const where = "rotateInertia";
  const t = tensor6(where, "inertia", inertia);
  if (q === null || typeof q !== "object" || q.length !== 4) {
    throw new TypeError(`${where}: q must be an array of 4 numbers [x, y, z, w]`);
  }
  const u = [0, 0, 0, 0];
  for (let k = 0; k < 4; k++) u[k] = finite(where, `q[${k}]`, q[k]);
  const n = Math.hypot(u[0], u[1], u[2], u[3]);
  if (!(Math.abs(n - 1) <= 1e-6)) {
    throw new RangeError(`${where}: q ([${u.join(", ")}]) must be a unit quaternion (norm ${n})`);
  }
  const r = quatToMatrixInto(new Array<number>(9), u);
  const m = full(t);
  // RI = R·I, then (R·I)·Rᵀ
  const ri = new Array<number>(9);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      ri[3 * i + j] = r[3 * i] * m[j] + r[3 * i + 1] * m[3 + j] + r[3 * i + 2] * m[6 + j];
    }
  }
  const e = (i: number, j: number): number =>
    ri[3 * i] * r[3 * j] + ri[3 * i + 1] * r[3 * j + 1] + ri[3 * i + 2] * r[3 * j + 2];
  return [e(0, 0), e(1, 1), e(2, 2), e(0, 1), e(0, 2), e(1, 2)];
}

/**
 * Principal moments (ascending) and principal axes of a symmetric tensor, by cyclic Jacobi
 * rotations (deterministic; converged to round-off). Any symmetric tensor is accepted: a
 * moment ≤ 0 means the tensor is not positive definite (not a physical inertia).
 *
 * @param inertia `[ixx, iyy, izz, ixy, ixz, iyz]` (kg·m²).
 * @example
 * ```ts
 * import { principalInertia } from "./inertia.ts";
 * import { quatToMatrix } from "./quat.ts";
 * import { expect } from "expect";
 * const p = principalInertia([2, 2, 1, 1, 0, 0]); // eigenvalues 1, 1, 3
 * expect(p.moments[0]).toBeCloseTo(1, 12);
 * expect(p.moments[2]).toBeCloseTo(3, 12);
 * // the axis of the largest moment is (1, 1, 0)/√2: the third column of R
 * const r = quatToMatrix(p.frame);
 * expect(Math.abs(r[2])).toBeCloseTo(Math.SQRT1_2, 12);
 * expect(Math.abs(r[5])).toBeCloseTo(Math.SQRT1_2, 12);
 * ```
 */
export function principalInertia(inertia: ArrayLike<number>): PrincipalInertia {
  const a = full(tensor6("principalInertia", "inertia", inertia));
  const v = [1, 0, 0, 0, 1, 0, 0, 0, 1];
  const scale = Math.hypot(...a);
  for (let sweep = 0; sweep < 64; sweep++) {
    const off = Math.hypot(a[1], a[2], a[5]);
    if (off === 0 || off <= 1e-17 * scale) break;
    for (const [p, q] of [[0, 1], [0, 2], [1, 2]]) {
      const apq = a[3 * p + q];
      if (apq === 0) continue;
      const theta = (a[3 * q + q] - a[3 * p + p]) / (2 * apq);
      const t = (theta >= 0 ? 1 : -1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
      const c = 1 / Math.sqrt(t * t + 1), s = t * c;
      // A ← Jᵀ A J and V ← V J with J = identity but J[p][p] = J[q][q] = c, J[p][q] = s = −J[q][p]
      for (let k = 0; k < 3; k++) {
        const akp = a[3 * k + p], akq = a[3 * k + q];
        a[3 * k + p] = c * akp - s * akq;
        a[3 * k + q] = s * akp + c * akq;
        const vkp = v[3 * k + p], vkq = v[3 * k + q];
        v[3 * k + p] = c * vkp - s * vkq;
        v[3 * k + q] = s * vkp + c * vkq;
      }
      for (let k = 0; k < 3; k++) {
        const apk = a[3 * p + k], aqk = a[3 * q + k];
        a[3 * p + k] = c * apk - s * aqk;
        a[3 * q + k] = s * apk + c * aqk;
      }
      a[3 * p + q] = a[3 * q + p] = 0;
    }
  }
  const order = [0, 1, 2].sort((i, j) => a[4 * i] - a[4 * j]);
  const r = new Array<number>(9);
  for (let col = 0; col < 3; col++) {
    for (let row = 0; row < 3; row++) r[3 * row + col] = v[3 * row + order[col]];
  }
  const det = r[0] * (r[4] * r[8] - r[5] * r[7]) - r[1] * (r[3] * r[8] - r[5] * r[6]) +
    r[2] * (r[3] * r[7] - r[4] * r[6]);
  if (det < 0) { for (let row = 0; row < 3; row++) r[3 * row + 2] = -r[3 * row + 2]; }
  return {
    moments: [a[4 * order[0]], a[4 * order[1]], a[4 * order[2]]],
    frame: quatFromMatrix(r),
  };
}
