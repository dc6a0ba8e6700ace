/**
 * The closest point of one triangle to a query point, with the Voronoi region it lies in (face,
 * edge or vertex): the kernel shared by `TriangleMesh.closest` and `HeightMap.closest`. Float64,
 * allocation-free. Internal (not re-exported from the package).
 *
 * @module
 */

/**
 * Layout of the scratch array that {@link closestOnTriangle} fills (length ≥ 8): the closest
 * point q, its squared distance to p, the triangle's unit normal (right-handed winding a→b→c)
 * and the signed distance of p from the triangle's plane along that normal.
 *
 * @example
 * ```ts
 * import { TRI } from "./triangle.ts";
 * import { expect } from "expect";
 * expect(TRI.dist2).toBe(3);
 * expect(TRI.length).toBe(8);
 * ```
 */
export const TRI: {
  readonly qx: 0;
  readonly qy: 1;
  readonly qz: 2;
  readonly dist2: 3;
  readonly nx: 4;
  readonly ny: 5;
  readonly nz: 6;
  readonly plane: 7;
  readonly length: 8;
} = Object.freeze(
  { qx: 0, qy: 1, qz: 2, dist2: 3, nx: 4, ny: 5, nz: 6, plane: 7, length: 8 } as const,
);

/**
 * Region codes returned by {@link closestOnTriangle}: the face interior (0), the edges
 * a→b, b→c, c→a (1, 2, 3), the vertices a, b, c (4, 5, 6).
 *
 * @example
 * ```ts
 * import { REGION } from "./triangle.ts";
 * import { expect } from "expect";
 * expect(REGION.face).toBe(0);
 * expect(REGION.vertexA).toBe(4);
 * ```
 */
export const REGION: {
  readonly face: 0;
  readonly edgeAB: 1;
  readonly edgeBC: 2;
  readonly edgeCA: 3;
  readonly vertexA: 4;
  readonly vertexB: 5;
  readonly vertexC: 6;
} = Object.freeze(
  {
    face: 0,
    edgeAB: 1,
    edgeBC: 2,
    edgeCA: 3,
    vertexA: 4,
    vertexB: 5,
    vertexC: 6,
  } as const,
);

/**
 * A point whose projection on the plane lies within this fraction of the longest edge outside
 * the triangle still counts as a face-region point. It makes the answer on an edge shared by
 * two coplanar triangles (a box face's diagonal, a flat height-map cell) the exact plane
 * answer from both sides; the closest point then lies at most 1e-13 · edge outside the
 * triangle.
 */
const FACE_TOLERANCE = 1e-13;

/**
 * Write the unit normal of triangle a→b→c (right-handed: (b − a) × (c − a), normalised) into
 * `out[k..k+2]`. Axis-aligned triangles give exact ±1/0 components (never −0).
 *
 * @returns twice the triangle's area (the length of the cross product)
 * @example
 * ```ts
 * import { triangleNormal } from "./triangle.ts";
 * import { expect } from "expect";
 * const n = new Float64Array(3);
 * expect(triangleNormal(0, 0, 0, 2, 0, 0, 0, 3, 0, n, 0)).toBe(6);
 * expect([...n]).toEqual([0, 0, 1]);
 * ```
 */
export function triangleNormal(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
  out: Float64Array,
  k: number,
): number {
  const ux = bx - ax, uy = by - ay, uz = bz - az;
  const vx = cx - ax, vy = cy - ay, vz = cz - az;
  const nx = uy * vz - uz * vy, ny = uz * vx - ux * vz, nz = ux * vy - uy * vx;
  const len = Math.sqrt(nx * nx + ny * ny + nz * nz);
  // + 0 turns −0 into 0 so that axis-aligned normals compare equal to literals
  out[k] = nx / len + 0;
  out[k + 1] = ny / len + 0;
  out[k + 2] = nz / len + 0;
  return len;
}

/**
 * The closest point of triangle a→b→c to p. Writes the layout {@link TRI} into `out` and
 * returns the {@link REGION} code of the closest feature. The triangle must not be degenerate.
 * In the face region the closest point is p projected on the plane and `dist2` = plane², so
 * that for an axis-aligned face the distance is exactly the coordinate difference.
 *
 * @example
 * ```ts
 * import { closestOnTriangle, REGION, TRI } from "./triangle.ts";
 * import { expect } from "expect";
 * const s = new Float64Array(TRI.length);
 * // above the face
 * expect(closestOnTriangle(0, 0, 0, 1, 0, 0, 0, 1, 0, 0.2, 0.2, 0.5, s)).toBe(REGION.face);
 * expect(s[TRI.plane]).toBe(0.5);
 * // beyond vertex b
 * expect(closestOnTriangle(0, 0, 0, 1, 0, 0, 0, 1, 0, 2, -1, 0, s)).toBe(REGION.vertexB);
 * expect(s[TRI.dist2]).toBe(2);
 * ```
 */
export function closestOnTriangle(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
  px: number,
  py: number,
  pz: number,
  out: Float64Array,
): number {
  triangleNormal(ax, ay, az, bx, by, bz, cx, cy, cz, out, 4);
  const nx = out[4], ny = out[5], nz = out[6];
  // edges e0 = b − a, e1 = c − b, e2 = a − c and their squared lengths
  const e0x = bx - ax, e0y = by - ay, e0z = bz - az;
  const e1x = cx - bx, e1y = cy - by, e1z = cz - bz;
  const e2x = ax - cx, e2y = ay - cy, e2z = az - cz;
  const l0 = e0x * e0x + e0y * e0y + e0z * e0z;
  const l1 = e1x * e1x + e1y * e1y + e1z * e1z;
  const l2 = e2x * e2x + e2y * e2y + e2z * e2z;
  const apx = px - ax, apy = py - ay, apz = pz - az;
  const bpx = px - bx, bpy = py - by, bpz = pz - bz;
  const cpx = px - cx, cpy = py - cy, cpz = pz - cz;
  const plane = apx * nx + apy * ny + apz * nz;
  out[7] = plane;
  // in-plane outward edge normals m = e × n (length |e|): s = (p − v)·m / |e|
  const s0 = apx * (e0y * nz - e0z * ny) + apy * (e0z * nx - e0x * nz) +
    apz * (e0x * ny - e0y * nx);
  const s1 = bpx * (e1y * nz - e1z * ny) + bpy * (e1z * nx - e1x * nz) +
    bpz * (e1x * ny - e1y * nx);
  const s2 = cpx * (e2y * nz - e2z * ny) + cpy * (e2z * nx - e2x * nz) +
    cpz * (e2x * ny - e2y * nx);
  const tol = FACE_TOLERANCE * Math.sqrt(l0 > l1 ? (l0 > l2 ? l0 : l2) : l1 > l2 ? l1 : l2);
  if (s0 <= tol * Math.sqrt(l0) && s1 <= tol * Math.sqrt(l1) && s2 <= tol * Math.sqrt(l2)) {
    out[0] = px - plane * nx;
    out[1] = py - plane * ny;
    out[2] = pz - plane * nz;
    out[3] = plane * plane;
    return 0;
  }
  // outside the triangle's prism: the nearest point of the three edges (first wins ties)
  let region = 0, best = Infinity, qx = 0, qy = 0, qz = 0;
  // edge a→b
  let t = (apx * e0x + apy * e0y + apz * e0z) / l0;
  let x: number, y: number, z: number, r: number;
  if (t <= 0) x = ax, y = ay, z = az, r = 4;
  else if (t >= 1) x = bx, y = by, z = bz, r = 5;
  else x = ax + t * e0x, y = ay + t * e0y, z = az + t * e0z, r = 1;
  let dx = px - x, dy = py - y, dz = pz - z, d2 = dx * dx + dy * dy + dz * dz;
  if (d2 < best) best = d2, qx = x, qy = y, qz = z, region = r;
  // edge b→c
  t = (bpx * e1x + bpy * e1y + bpz * e1z) / l1;
  if (t <= 0) x = bx, y = by, z = bz, r = 5;
  else if (t >= 1) x = cx, y = cy, z = cz, r = 6;
  else x = bx + t * e1x, y = by + t * e1y, z = bz + t * e1z, r = 2;
  dx = px - x, dy = py - y, dz = pz - z, d2 = dx * dx + dy * dy + dz * dz;
  if (d2 < best) best = d2, qx = x, qy = y, qz = z, region = r;
  // edge c→a
  t = (cpx * e2x + cpy * e2y + cpz * e2z) / l2;
  if (t <= 0) x = cx, y = cy, z = cz, r = 6;
  else if (t >= 1) x = ax, y = ay, z = az, r = 4;
  else x = cx + t * e2x, y = cy + t * e2y, z = cz + t * e2z, r = 3;
  dx = px - x, dy = py - y, dz = pz - z, d2 = dx * dx + dy * dy + dz * dz;
  if (d2 < best) best = d2, qx = x, qy = y, qz = z, region = r;
  out[0] = qx;
  out[1] = qy;
  out[2] = qz;
  out[3] = best;
  return region;
}
