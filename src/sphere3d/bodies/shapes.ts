/**
 * Rigid-body primitives in their local frame (centred at the origin; capsule and cylinder axis
 * along local z): the closest surface point to a query point with the outward normal and the
 * signed distance, the local bounding box and the unit-density mass properties. Pure float64
 * geometry; the closest-point functions allocate nothing and do not validate (they run in the
 * grain–body contact loop), the other helpers validate their arguments.
 *
 * Closest-point results go into a caller-supplied `Float64Array` of length ≥ 7 with the layout
 * {@link CLOSEST}: the closest surface point q, the unit outward normal n and the signed
 * distance d (> 0 outside, < 0 inside, |d| = |p − q|), always with p = q + d·n.
 *
 * @module
 */
import { nonNegative, positive } from "../../math/validate.ts";

/**
 * Layout of a closest-point result (shared by the primitives, `TriangleMesh.closest` and
 * `HeightMap.closest`): `out[qx..qz]` the closest surface point q, `out[nx..nz]` the unit outward
 * normal n (outside: (p − q)/|p − q|; inside: the direction that leaves the shape fastest,
 * (q − p)/|q − p|, the outward normal of the nearest face), `out[d]` the signed distance
 * (> 0 outside, < 0 inside), so that p = q + d·n. `length` is the array length needed.
 *
 * @example
 * ```ts
 * import { CLOSEST, sphereClosest } from "./shapes.ts";
 * import { expect } from "expect";
 * const out = new Float64Array(CLOSEST.length);
 * sphereClosest(1, 0, 3, 0, out);
 * expect(out[CLOSEST.qy]).toBe(1);
 * expect(out[CLOSEST.ny]).toBe(1);
 * expect(out[CLOSEST.d]).toBe(2);
 * ```
 */
export const CLOSEST: ClosestLayout = Object.freeze(
  { qx: 0, qy: 1, qz: 2, nx: 3, ny: 4, nz: 5, d: 6, length: 7 } as const,
);

/** The type of {@link CLOSEST}: the index of each field of a closest-point result. */
export interface ClosestLayout {
  /** Closest point, x. */
  readonly qx: 0;
  /** Closest point, y. */
  readonly qy: 1;
  /** Closest point, z. */
  readonly qz: 2;
  /** Unit normal, x. */
  readonly nx: 3;
  /** Unit normal, y. */
  readonly ny: 4;
  /** Unit normal, z. */
  readonly nz: 5;
  /** Signed distance. */
  readonly d: 6;
  /** Array length needed. */
  readonly length: 7;
}

/** Local axis-aligned half extents `[x, y, z]` of a primitive (m). */
export type HalfExtents = [number, number, number];

/** Volume and principal inertia of a primitive of unit density (multiply both by the density). */
export interface PrimitiveMass {
  /** Volume (m³) = mass at density 1 kg/m³. */
  volume: number;
  /** Inertia diagonal `[ixx, iyy, izz]` about the centre (kg·m² per kg/m³). */
  inertia: [number, number, number];
}

/**
 * Closest point of a sphere of `radius` centred at the origin to p = (px, py, pz); writes
 * {@link CLOSEST} into `out`. At the centre itself the normal is (0, 0, 1).
 *
 * @param radius sphere radius (m), > 0 (not checked)
 * @returns the signed distance d
 * @example
 * ```ts
 * import { sphereClosest } from "./shapes.ts";
 * import { expect } from "expect";
 * const out = new Float64Array(7);
 * expect(sphereClosest(0.5, 0, 0, 0.2, out)).toBeCloseTo(-0.3, 15);
 * expect([...out]).toEqual([0, 0, 0.5, 0, 0, 1, out[6]]);
 * ```
 */
export function sphereClosest(
  radius: number,
  px: number,
  py: number,
  pz: number,
  out: Float64Array,
): number {
  const len = Math.sqrt(px * px + py * py + pz * pz);
  let nx = 0, ny = 0, nz = 1;
  if (len > 0) nx = px / len, ny = py / len, nz = pz / len;
  const d = len - radius;
  out[0] = radius * nx;
  out[1] = radius * ny;
  out[2] = radius * nz;
  out[3] = nx;
  out[4] = ny;
  out[5] = nz;
  out[6] = d;
  return d;
}

/**
 * Closest point of a box with half extents (hx, hy, hz) centred at the origin to p; writes
 * {@link CLOSEST} into `out`. Outside: p clamped to the box (a face, edge or corner point).
 * Inside (or on the surface): the nearest face, q = p projected on it, n its outward normal;
 * ties go to the lowest axis, the + side before the − side.
 *
 * @returns the signed distance d
 * @example
 * ```ts
 * import { boxClosest } from "./shapes.ts";
 * import { expect } from "expect";
 * const out = new Float64Array(7);
 * // beyond the corner (1, 2, 3): the distance to the corner
 * expect(boxClosest(1, 2, 3, 4, 6, 3, out)).toBe(5);
 * expect([...out.subarray(0, 6)]).toEqual([1, 2, 3, 0.6, 0.8, 0]);
 * // inside, nearest the +y face
 * expect(boxClosest(1, 2, 3, 0, 1.5, 0, out)).toBe(-0.5);
 * expect([...out.subarray(0, 6)]).toEqual([0, 2, 0, 0, 1, 0]);
 * ```
 */
export function boxClosest(
  hx: number,
  hy: number,
  hz: number,
  px: number,
  py: number,
  pz: number,
  out: Float64Array,
): number {
  if (px > hx || px < -hx || py > hy || py < -hy || pz > hz || pz < -hz) {
    const qx = px > hx ? hx : px < -hx ? -hx : px;
    const qy = py > hy ? hy : py < -hy ? -hy : py;
    const qz = pz > hz ? hz : pz < -hz ? -hz : pz;
    const dx = px - qx, dy = py - qy, dz = pz - qz;
    const d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    out[0] = qx;
    out[1] = qy;
    out[2] = qz;
    out[3] = dx / d;
    out[4] = dy / d;
    out[5] = dz / d;
    out[6] = d;
    return d;
  }
  // inside: depth below each of the six faces, the shallowest wins (first on ties)
  let depth = hx - px, axis = 0, sign = 1;
  let t = hx + px;
  if (t < depth) depth = t, sign = -1;
  t = hy - py;
  if (t < depth) depth = t, axis = 1, sign = 1;
  t = hy + py;
  if (t < depth) depth = t, axis = 1, sign = -1;
  t = hz - pz;
  if (t < depth) depth = t, axis = 2, sign = 1;
  t = hz + pz;
  if (t < depth) depth = t, axis = 2, sign = -1;
  out[0] = axis === 0 ? sign * hx : px;
  out[1] = axis === 1 ? sign * hy : py;
  out[2] = axis === 2 ? sign * hz : pz;
  out[3] = axis === 0 ? sign : 0;
  out[4] = axis === 1 ? sign : 0;
  out[5] = axis === 2 ? sign : 0;
  const d = 0 - depth;
  out[6] = d;
  return d;
}

/**
 * Closest point of a capsule (the segment from (0, 0, −halfHeight) to (0, 0, +halfHeight)
 * swept by `radius`) to p; writes {@link CLOSEST} into `out`. On the axis segment itself every
 * radial direction is nearest: the normal is then (1, 0, 0).
 *
 * @param radius capsule radius (m), > 0 (not checked)
 * @param halfHeight half the length of the axis segment (m), ≥ 0 (not checked)
 * @returns the signed distance d
 * @example
 * ```ts
 * import { capsuleClosest } from "./shapes.ts";
 * import { expect } from "expect";
 * const out = new Float64Array(7);
 * // above the top cap
 * expect(capsuleClosest(0.5, 1, 0, 0, 2, out)).toBe(0.5);
 * expect([...out.subarray(0, 6)]).toEqual([0, 0, 1.5, 0, 0, 1]);
 * // beside the shaft, inside
 * expect(capsuleClosest(0.5, 1, 0, -0.25, 0.3, out)).toBe(-0.25);
 * expect([...out.subarray(3, 6)]).toEqual([0, -1, 0]);
 * ```
 */
export function capsuleClosest(
  radius: number,
  halfHeight: number,
  px: number,
  py: number,
  pz: number,
  out: Float64Array,
): number {
  const cz = pz > halfHeight ? halfHeight : pz < -halfHeight ? -halfHeight : pz;
  const vz = pz - cz;
  const len = Math.sqrt(px * px + py * py + vz * vz);
  let nx = 1, ny = 0, nz = 0;
  if (len > 0) nx = px / len, ny = py / len, nz = vz / len;
  const d = len - radius;
  out[0] = radius * nx;
  out[1] = radius * ny;
  out[2] = cz + radius * nz;
  out[3] = nx;
  out[4] = ny;
  out[5] = nz;
  out[6] = d;
  return d;
}

/**
 * Closest point of a solid cylinder (axis z, flat caps at z = ±halfHeight) to p; writes
 * {@link CLOSEST} into `out`. Outside: the side, a cap or a rim edge. Inside: the nearest of
 * the side and the two caps (ties: side, then the +z cap, then the −z cap); on the axis the
 * side's normal is (1, 0, 0).
 *
 * @param radius cylinder radius (m), > 0 (not checked)
 * @param halfHeight half the cylinder's length (m), > 0 (not checked)
 * @returns the signed distance d
 * @example
 * ```ts
 * import { cylinderClosest } from "./shapes.ts";
 * import { expect } from "expect";
 * const out = new Float64Array(7);
 * // beyond the upper rim at (1, 0, 1)
 * expect(cylinderClosest(1, 1, 4, 0, 5, out)).toBe(5);
 * expect([...out.subarray(0, 6)]).toEqual([1, 0, 1, 0.6, 0, 0.8]);
 * // inside near the bottom cap
 * expect(cylinderClosest(1, 1, 0, 0, -0.75, out)).toBe(-0.25);
 * expect([...out.subarray(0, 6)]).toEqual([0, 0, -1, 0, 0, -1]);
 * ```
 */
export function cylinderClosest(
  radius: number,
  halfHeight: number,
  px: number,
  py: number,
  pz: number,
  out: Float64Array,
): number {
  const rho = Math.sqrt(px * px + py * py);
  const az = pz < 0 ? -pz : pz;
  const s = pz < 0 ? -1 : 1;
  let d: number;
  if (rho <= radius && az <= halfHeight) {
    // inside: side, +z cap, −z cap (first wins ties)
    const side = radius - rho, top = halfHeight - pz, bottom = halfHeight + pz;
    if (side <= top && side <= bottom) {
      let ux = 1, uy = 0;
      if (rho > 0) ux = px / rho, uy = py / rho;
      out[0] = radius * ux;
      out[1] = radius * uy;
      out[2] = pz;
      out[3] = ux;
      out[4] = uy;
      out[5] = 0;
      d = 0 - side;
    } else {
      const up = top <= bottom;
      out[0] = px;
      out[1] = py;
      out[2] = up ? halfHeight : -halfHeight;
      out[3] = 0;
      out[4] = 0;
      out[5] = up ? 1 : -1;
      d = 0 - (up ? top : bottom);
    }
  } else if (rho <= radius) {
    // above or below a cap
    out[0] = px;
    out[1] = py;
    out[2] = s * halfHeight;
    out[3] = 0;
    out[4] = 0;
    out[5] = s;
    d = az - halfHeight;
  } else if (az <= halfHeight) {
    // beside the side
    const ux = px / rho, uy = py / rho;
    out[0] = radius * ux;
    out[1] = radius * uy;
    out[2] = pz;
    out[3] = ux;
    out[4] = uy;
    out[5] = 0;
    d = rho - radius;
  } else {
    // beyond a rim edge
    const qx = (radius * px) / rho, qy = (radius * py) / rho, qz = s * halfHeight;
    const dx = px - qx, dy = py - qy, dz = pz - qz;
    d = Math.sqrt(dx * dx + dy * dy + dz * dz);
    out[0] = qx;
    out[1] = qy;
    out[2] = qz;
    out[3] = dx / d;
    out[4] = dy / d;
    out[5] = dz / d;
  }
  out[6] = d;
  return d;
}

/**
 * Local half extents of a sphere: `[r, r, r]`.
 *
 * @param radius sphere radius (m), > 0
 * @throws {RangeError} when the radius is not a finite number > 0
 * @example
 * ```ts
 * import { sphereHalfExtents } from "./shapes.ts";
 * import { expect } from "expect";
 * expect(sphereHalfExtents(0.5)).toEqual([0.5, 0.5, 0.5]);
 * ```
 */
export function sphereHalfExtents(radius: number): HalfExtents {
  const r = positive("sphereHalfExtents", "radius", radius);
  return [r, r, r];
}

/**
 * Local half extents of a box: its half extents.
 *
 * @throws {RangeError} when a half extent is not a finite number > 0
 * @example
 * ```ts
 * import { boxHalfExtents } from "./shapes.ts";
 * import { expect } from "expect";
 * expect(boxHalfExtents(1, 2, 3)).toEqual([1, 2, 3]);
 * ```
 */
export function boxHalfExtents(hx: number, hy: number, hz: number): HalfExtents {
  const where = "boxHalfExtents";
  return [positive(where, "hx", hx), positive(where, "hy", hy), positive(where, "hz", hz)];
}

/**
 * Local half extents of a capsule (axis z): `[r, r, halfHeight + r]`.
 *
 * @throws {RangeError} when the radius is not > 0 or the half height is negative
 * @example
 * ```ts
 * import { capsuleHalfExtents } from "./shapes.ts";
 * import { expect } from "expect";
 * expect(capsuleHalfExtents(0.5, 1)).toEqual([0.5, 0.5, 1.5]);
 * ```
 */
export function capsuleHalfExtents(radius: number, halfHeight: number): HalfExtents {
  const r = positive("capsuleHalfExtents", "radius", radius);
  const h = nonNegative("capsuleHalfExtents", "halfHeight", halfHeight);
  return [r, r, h + r];
}

/**
 * Local half extents of a cylinder (axis z): `[r, r, halfHeight]`.
 *
 * @throws {RangeError} when the radius or the half height is not > 0
 * @example
 * ```ts
 * import { cylinderHalfExtents } from "./shapes.ts";
 * import { expect } from "expect";
 * expect(cylinderHalfExtents(0.5, 1)).toEqual([0.5, 0.5, 1]);
 * ```
 */
export function cylinderHalfExtents(radius: number, halfHeight: number): HalfExtents {
  const r = positive("cylinderHalfExtents", "radius", radius);
  const h = positive("cylinderHalfExtents", "halfHeight", halfHeight);
  return [r, r, h];
}

/**
 * Volume and inertia diagonal of a solid sphere of unit density: V = 4/3·π·r³,
 * I = 2/5·V·r² about every axis.
 *
 * @throws {RangeError} when the radius is not a finite number > 0
 * @example
 * ```ts
 * import { sphereMassProperties } from "./shapes.ts";
 * import { expect } from "expect";
 * const { volume, inertia } = sphereMassProperties(1);
 * expect(volume).toBeCloseTo((4 / 3) * Math.PI, 14);
 * expect(inertia[2]).toBeCloseTo(0.4 * volume, 14);
 * ```
 */
export function sphereMassProperties(radius: number): PrimitiveMass {
  const r = positive("sphereMassProperties", "radius", radius);
  const volume = (4 / 3) * Math.PI * r * r * r;
  const i = 0.4 * volume * r * r;
  return { volume, inertia: [i, i, i] };
}

/**
 * Volume and inertia diagonal of a solid box of unit density with half extents (hx, hy, hz):
 * V = 8·hx·hy·hz, ixx = V·(hy² + hz²)/3 and so on.
 *
 * @throws {RangeError} when a half extent is not a finite number > 0
 * @example
 * ```ts
 * import { boxMassProperties } from "./shapes.ts";
 * import { expect } from "expect";
 * const { volume, inertia } = boxMassProperties(0.5, 1, 1.5);
 * expect(volume).toBe(6);
 * expect(inertia).toEqual([6.5, 5, 2.5]);
 * ```
 */
export function boxMassProperties(hx: number, hy: number, hz: number): PrimitiveMass {
  const where = "boxMassProperties";
  positive(where, "hx", hx), positive(where, "hy", hy), positive(where, "hz", hz);
  const volume = 8 * hx * hy * hz;
  const x2 = hx * hx, y2 = hy * hy, z2 = hz * hz;
  return {
    volume,
    inertia: [(volume * (y2 + z2)) / 3, (volume * (x2 + z2)) / 3, (volume * (x2 + y2)) / 3],
  };
}

/**
 * Volume and inertia diagonal of a solid capsule of unit density (axis z: a cylinder of
 * length 2·halfHeight and two hemispherical caps of `radius`): with Vc = 2π·r²·h and
 * Vs = 4/3·π·r³, izz = Vc·r²/2 + Vs·2r²/5 and
 * ixx = iyy = Vc·(r²/4 + h²/3) + Vs·(2r²/5 + h² + 3hr/4).
 *
 * @throws {RangeError} when the radius is not > 0 or the half height is negative
 * @example
 * ```ts
 * import { capsuleMassProperties, sphereMassProperties } from "./shapes.ts";
 * import { expect } from "expect";
 * // a capsule of zero length is a sphere
 * const c = capsuleMassProperties(0.3, 0), s = sphereMassProperties(0.3);
 * expect(c.volume).toBeCloseTo(s.volume, 15);
 * expect(c.inertia[0]).toBeCloseTo(s.inertia[0], 15);
 * ```
 */
export function capsuleMassProperties(radius: number, halfHeight: number): PrimitiveMass {
  const r = positive("capsuleMassProperties", "radius", radius);
  const h = nonNegative("capsuleMassProperties", "halfHeight", halfHeight);
  const vc = 2 * Math.PI * r * r * h, vs = (4 / 3) * Math.PI * r * r * r;
  const r2 = r * r;
  const izz = (vc * r2) / 2 + (vs * 2 * r2) / 5;
  const ixx = vc * (r2 / 4 + (h * h) / 3) + vs * ((2 * r2) / 5 + h * h + (3 * h * r) / 4);
  return { volume: vc + vs, inertia: [ixx, ixx, izz] };
}

/**
 * Volume and inertia diagonal of a solid cylinder of unit density (axis z): V = 2π·r²·h,
 * izz = V·r²/2, ixx = iyy = V·(r²/4 + h²/3) with h the half height.
 *
 * @throws {RangeError} when the radius or the half height is not > 0
 * @example
 * ```ts
 * import { cylinderMassProperties } from "./shapes.ts";
 * import { expect } from "expect";
 * const { volume, inertia } = cylinderMassProperties(1, 0.5);
 * expect(volume).toBeCloseTo(Math.PI, 15);
 * expect(inertia[2]).toBeCloseTo(Math.PI / 2, 15);
 * expect(inertia[0]).toBeCloseTo(Math.PI * (1 / 4 + 1 / 12), 15);
 * ```
 */
export function cylinderMassProperties(radius: number, halfHeight: number): PrimitiveMass {
  const r = positive("cylinderMassProperties", "radius", radius);
  const h = positive("cylinderMassProperties", "halfHeight", halfHeight);
  const volume = 2 * Math.PI * r * r * h;
  const ixx = volume * ((r * r) / 4 + (h * h) / 3);
  return { volume, inertia: [ixx, ixx, (volume * r * r) / 2] };
}
