/**
 * Closed triangle meshes as rigid-body shapes: validation (a closed, consistently wound,
 * outward-facing 2-manifold; the checks and the pseudo-normals are in `mesh_check.ts`), a
 * uniform triangle grid built once, closest point with the inside/outside sign from
 * angle-weighted pseudo-normals, and mass properties from the closed surface. Float64, local
 * frame; `closest` allocates nothing. The OBJ/STL readers are in `mesh_io.ts`.
 *
 * @module
 */
import { options as checkOptions, positive, sizeGuard } from "../../math/validate.ts";
import { closestOnTriangle } from "./triangle.ts";
import { checkClosedMesh, det3 } from "./mesh_check.ts";

/** Options of {@link TriangleMesh.create}. */
export interface TriangleMeshOptions {
  /** Name of the calling function in error messages. @default "addMesh" */
  where?: string;
  /** The file the mesh came from, named in error messages. @default none */
  source?: string;
}

/** Mass properties of a closed mesh of uniform density. */
export interface MeshMassProperties {
  /** Enclosed volume (m³). */
  volume: number;
  /** Mass (kg) = density · volume. */
  mass: number;
  /** Centre of mass in the mesh frame (m). */
  centerOfMass: [number, number, number];
  /**
   * Inertia tensor about the centre of mass, `[ixx, iyy, izz, ixy, ixz, iyz]` (kg·m²), with
   * the tensor's off-diagonal entries (ixy = −∫ρ·x·y dV).
   */
  inertia: [number, number, number, number, number, number];
}

/** Candidate counters: `[0]` triangles tested, `[1]` inside/outside decisions made. */
export type MeshCounters = Float64Array | Int32Array | Uint32Array;

/** Upper bound on grid cells per triangle (the grid aims at about 2 cells per triangle). */
const CELLS_PER_TRIANGLE = 2;
/** Largest number of grid cells along one axis. */
const MAX_CELLS_PER_AXIS = 1024;

// scratch of closestOnTriangle (one candidate) and the best candidate so far
const TRI_SCRATCH = new Float64Array(8);

/**
 * A closed triangle mesh (a rigid-body shape) in its local frame. Build it with
 * {@link TriangleMesh.create} or {@link TriangleMesh.box}.
 *
 * @example
 * ```ts
 * import { TriangleMesh } from "./mesh.ts";
 * import { expect } from "expect";
 * // a tetrahedron with outward winding
 * const mesh = TriangleMesh.create(
 *   [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
 *   [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
 * );
 * expect(mesh.triangleCount).toBe(4);
 * expect(mesh.massProperties(6).mass).toBeCloseTo(1, 14); // volume 1/6
 * const out = new Float64Array(7);
 * expect(mesh.closest(0.2, 0.2, -0.5, 1, out)).toBe(true);
 * expect([...out]).toEqual([0.2, 0.2, 0, 0, 0, -1, 0.5]);
 * ```
 */
export class TriangleMesh {
  /** Vertex coordinates, stride 3 (m). */
  readonly vertices: Float64Array;
  /** Triangle vertex indices, stride 3, wound counter-clockwise seen from outside. */
  readonly indices: Uint32Array;
  /** Number of vertices. */
  readonly vertexCount: number;
  /** Number of triangles. */
  readonly triangleCount: number;
  /** Lower corner of the local bounding box of the triangles (m). */
  readonly boundsMin: readonly [number, number, number];
  /** Upper corner of the local bounding box of the triangles (m). */
  readonly boundsMax: readonly [number, number, number];
  /** Unit outward normal of each triangle, stride 3. */
  readonly faceNormals: Float64Array;
  /** Cells of the triangle grid along x, y, z. */
  readonly gridSize: readonly [number, number, number];

  // angle-weighted pseudo-normals: per half-edge 3t+k (edge k of triangle t), per vertex
  #edgeNormals: Float64Array;
  #vertexNormals: Float64Array;
  // the grid: cell c holds triangles cellTris[cellStart[c] .. cellStart[c+1])
  #cellStart: Uint32Array;
  #cellTris: Uint32Array;
  #nx: number;
  #ny: number;
  #nz: number;
  #min: Float64Array;
  #max: Float64Array;
  #inv: Float64Array;
  // per-query marks so that a triangle in several cells is tested once
  #stamps: Uint32Array;
  #stamp = 0;
  #best = new Float64Array(8);

  private constructor(
    vertices: Float64Array,
    indices: Uint32Array,
    min: number[],
    max: number[],
    faceNormals: Float64Array,
    edgeNormals: Float64Array,
    vertexNormals: Float64Array,
  ) {
    this.vertices = vertices;
    this.indices = indices;
    this.vertexCount = vertices.length / 3;
    this.triangleCount = indices.length / 3;
    this.boundsMin = Object.freeze([min[0], min[1], min[2]] as [number, number, number]);
    this.boundsMax = Object.freeze([max[0], max[1], max[2]] as [number, number, number]);
    this.faceNormals = faceNormals;
    this.#edgeNormals = edgeNormals;
    this.#vertexNormals = vertexNormals;
    this.#min = Float64Array.from(min);
    this.#max = Float64Array.from(max);
    this.#stamps = new Uint32Array(this.triangleCount);
    // grid dimensions: about CELLS_PER_TRIANGLE cells per triangle, cells roughly cubic
    const T = this.triangleCount;
    const ext = [max[0] - min[0], max[1] - min[1], max[2] - min[2]];
    const target = Math.max(1, CELLS_PER_TRIANGLE * T);
    let cell = Math.cbrt((ext[0] * ext[1] * ext[2]) / target);
    let dims = ext.map((e) => Math.min(MAX_CELLS_PER_AXIS, Math.max(1, Math.ceil(e / cell))));
    while (dims[0] * dims[1] * dims[2] > 4 * target) {
      cell *= 1.25;
      dims = ext.map((e) => Math.min(MAX_CELLS_PER_AXIS, Math.max(1, Math.ceil(e / cell))));
    }
    this.#nx = dims[0], this.#ny = dims[1], this.#nz = dims[2];
    this.gridSize = Object.freeze([dims[0], dims[1], dims[2]] as [number, number, number]);
    this.#inv = Float64Array.from(ext, (e, k) => dims[k] / e);
    const cells = dims[0] * dims[1] * dims[2];
    const counts = new Uint32Array(cells + 1);
    this.#forEachCell((c) => counts[c + 1]++);
    for (let c = 0; c < cells; c++) counts[c + 1] += counts[c];
    sizeGuard("TriangleMesh", "the triangle grid", 4 * counts[cells]);
    const fill = counts.slice(0, cells);
    const tris = new Uint32Array(counts[cells]);
    this.#forEachCell((c, t) => tris[fill[c]++] = t);
    this.#cellStart = counts;
    this.#cellTris = tris;
  }

  /** Visit every (cell, triangle) pair of the grid: the cells the triangle's plane crosses. */
  #forEachCell(visit: (cell: number, tri: number) => void): void {
    const v = this.vertices, idx = this.indices, n = this.faceNormals;
    const min = this.#min, inv = this.#inv, nx = this.#nx, ny = this.#ny, nz = this.#nz;
    const size = [1 / inv[0], 1 / inv[1], 1 / inv[2]];
    for (let t = 0; t < this.triangleCount; t++) {
      const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2];
      const lo = [0, 0, 0], hi = [0, 0, 0];
      for (let k = 0; k < 3; k++) {
        const x0 = Math.min(v[a + k], v[b + k], v[c + k]);
        const x1 = Math.max(v[a + k], v[b + k], v[c + k]);
        const dim = k === 0 ? nx : k === 1 ? ny : nz;
        lo[k] = cellIndex(x0, min[k], inv[k], dim);
        hi[k] = cellIndex(x1, min[k], inv[k], dim);
      }
      const fx = n[3 * t], fy = n[3 * t + 1], fz = n[3 * t + 2];
      // half-size of a cell projected on the normal, with a margin for rounding
      const reach = (0.5 * (Math.abs(fx) * size[0] + Math.abs(fy) * size[1] +
            Math.abs(fz) * size[2])) * (1 + 1e-9) + 1e-12 * (size[0] + size[1] + size[2]);
      for (let k = lo[2]; k <= hi[2]; k++) {
        const cz = min[2] + (k + 0.5) * size[2];
        for (let j = lo[1]; j <= hi[1]; j++) {
          const cy = min[1] + (j + 0.5) * size[1];
          for (let i = lo[0]; i <= hi[0]; i++) {
            const cx = min[0] + (i + 0.5) * size[0];
            const dist = (cx - v[a]) * fx + (cy - v[a + 1]) * fy + (cz - v[a + 2]) * fz;
            if (Math.abs(dist) <= reach) visit((k * ny + j) * nx + i, t);
          }
        }
      }
    }
  }

  /**
   * Validate and build a mesh from a flat xyz vertex list and a flat triangle index list.
   * The triangles must form a closed 2-manifold: every edge shared by exactly two triangles
   * that run along it in opposite directions (consistent winding), every vertex's triangles a
   * single fan, and the winding must face outward (counter-clockwise seen from outside:
   * positive enclosed volume). An inward-wound mesh is reported, not flipped.
   *
   * @param vertices `[x0, y0, z0, x1, …]` (m), finite
   * @param indices `[a0, b0, c0, a1, …]`, integers into the vertex list
   * @throws {TypeError} when an argument is not an array of numbers
   * @throws {RangeError} naming `where`, the source file, the element and the rule: an empty
   *   mesh, a length not a multiple of 3, a non-finite coordinate, an index out of range or
   *   not an integer, a zero-area triangle, an open or non-manifold surface, an inconsistent
   *   or inward winding, a surface enclosing no volume
   * @example
   * ```ts
   * import { TriangleMesh } from "./mesh.ts";
   * import { expect } from "expect";
   * const box = TriangleMesh.box(1, 1, 1);
   * // drop the last triangle: the surface has a hole
   * expect(() => TriangleMesh.create(box.vertices, box.indices.subarray(0, 33)))
   *   .toThrow(/closed 2-manifold/);
   * ```
   */
  static create(
    vertices: ArrayLike<number>,
    indices: ArrayLike<number>,
    options?: TriangleMeshOptions,
  ): TriangleMesh {
    const o = checkOptions<TriangleMeshOptions>("TriangleMesh.create", "options", options, [
      "where",
      "source",
    ]);
    const where = (o.where ?? "addMesh") + (o.source !== undefined ? ` (${o.source})` : "");
    const c = checkClosedMesh(where, vertices, indices);
    return new TriangleMesh(
      c.vertices,
      c.indices,
      c.min,
      c.max,
      c.faceNormals,
      c.edgeNormals,
      c.vertexNormals,
    );
  }

  /**
   * The 12-triangle mesh of a box with half extents (hx, hy, hz) centred at the origin,
   * outward winding (vertex k has coordinates (±hx, ±hy, ±hz) with bit 0, 1, 2 of k set for +).
   *
   * @throws {RangeError} when a half extent is not a finite number > 0
   * @example
   * ```ts
   * import { TriangleMesh } from "./mesh.ts";
   * import { expect } from "expect";
   * const box = TriangleMesh.box(1, 2, 3);
   * expect(box.triangleCount).toBe(12);
   * expect(box.boundsMax).toEqual([1, 2, 3]);
   * expect(box.massProperties(1).volume).toBeCloseTo(48, 12);
   * ```
   */
  static box(hx: number, hy: number, hz: number): TriangleMesh {
    const where = "TriangleMesh.box";
    positive(where, "hx", hx), positive(where, "hy", hy), positive(where, "hz", hz);
    const v: number[] = [];
    for (let k = 0; k < 8; k++) v.push(k & 1 ? hx : -hx, k & 2 ? hy : -hy, k & 4 ? hz : -hz);
    // −x, +x, −y, +y, −z, +z
    const f = [
      [0, 4, 6, 0, 6, 2],
      [1, 3, 7, 1, 7, 5],
      [0, 1, 5, 0, 5, 4],
      [2, 6, 7, 2, 7, 3],
      [0, 2, 3, 0, 3, 1],
      [4, 5, 7, 4, 7, 6],
    ].flat();
    return TriangleMesh.create(v, f, { where });
  }

  /**
   * The closest point of the mesh surface to p = (px, py, pz) among the triangles that can be
   * within `reach` of p (those in the grid cells overlapping the box p ± reach). Returns false,
   * leaving `out` untouched, when no triangle is within `reach`. Otherwise writes `CLOSEST`'s
   * layout into `out` (length ≥ 7): the closest point q, the unit normal n and the signed
   * distance d with p = q + d·n. Outside (d > 0), n = (p − q)/|p − q|; inside (the point has
   * crossed the surface, d < 0), n = (q − p)/|q − p|, the outward direction that leaves the
   * solid fastest (for a face the face normal). Inside/outside is decided by the angle-weighted
   * pseudo-normal of the closest feature (face, edge or vertex). A point on the surface gets
   * d = 0 and the feature's pseudo-normal. Allocates nothing.
   *
   * @param reach search radius (m), ≥ 0 (Infinity searches every triangle)
   * @param counters optional: `counters[0]` += candidate triangles tested, `counters[1]` +=
   *   inside/outside decisions made (1 per call that returns true)
   * @throws {RangeError} when `reach` is negative or NaN
   * @example
   * ```ts
   * import { TriangleMesh } from "./mesh.ts";
   * import { expect } from "expect";
   * const box = TriangleMesh.box(1, 1, 1), out = new Float64Array(7);
   * const counters = new Float64Array(2);
   * // a grain centre that has crossed the +x face
   * expect(box.closest(0.9, 0.2, 0.3, 0.5, out, counters)).toBe(true);
   * expect(out[6]).toBeCloseTo(-0.1, 15);
   * expect([...out.subarray(3, 6)]).toEqual([1, 0, 0]);
   * expect(counters[0]).toBeGreaterThan(0);
   * // far away: nothing within reach, no triangle tested
   * counters.fill(0);
   * expect(box.closest(5, 5, 5, 0.5, out, counters)).toBe(false);
   * expect(counters[0]).toBe(0);
   * ```
   */
  closest(
    px: number,
    py: number,
    pz: number,
    reach: number,
    out: Float64Array,
    counters?: MeshCounters,
  ): boolean {
    if (!(reach >= 0)) {
      throw new RangeError(`TriangleMesh.closest: reach (${reach}) must be >= 0`);
    }
    const min = this.#min, max = this.#max, inv = this.#inv;
    if (
      px + reach < min[0] || px - reach > max[0] || py + reach < min[1] ||
      py - reach > max[1] || pz + reach < min[2] || pz - reach > max[2]
    ) return false;
    const nx = this.#nx, ny = this.#ny, nz = this.#nz;
    const i0 = cellIndex(px - reach, min[0], inv[0], nx);
    const i1 = cellIndex(px + reach, min[0], inv[0], nx);
    const j0 = cellIndex(py - reach, min[1], inv[1], ny);
    const j1 = cellIndex(py + reach, min[1], inv[1], ny);
    const k0 = cellIndex(pz - reach, min[2], inv[2], nz);
    const k1 = cellIndex(pz + reach, min[2], inv[2], nz);
    let stamp = this.#stamp + 1;
    const stamps = this.#stamps;
    if (stamp >= 0xffffffff) stamps.fill(0), stamp = 1;
    this.#stamp = stamp;
    const v = this.vertices, idx = this.indices, fn = this.faceNormals;
    const start = this.#cellStart, tris = this.#cellTris;
    const s = TRI_SCRATCH, best = this.#best;
    let bestD2 = reach * reach, bestT = -1, bestRegion = 0, tested = 0;
    for (let k = k0; k <= k1; k++) {
      for (let j = j0; j <= j1; j++) {
        const row = (k * ny + j) * nx;
        for (let c = row + i0; c <= row + i1; c++) {
          for (let e = start[c], end = start[c + 1]; e < end; e++) {
            const t = tris[e];
            if (stamps[t] === stamp) continue;
            stamps[t] = stamp;
            tested++;
            const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], cc = 3 * idx[3 * t + 2];
            const ax = v[a], ay = v[a + 1], az = v[a + 2];
            // the plane distance bounds the distance from below
            const h = (px - ax) * fn[3 * t] + (py - ay) * fn[3 * t + 1] +
              (pz - az) * fn[3 * t + 2];
            if (h * h > bestD2) continue;
            const region = closestOnTriangle(
              ax,
              ay,
              az,
              v[b],
              v[b + 1],
              v[b + 2],
              v[cc],
              v[cc + 1],
              v[cc + 2],
              px,
              py,
              pz,
              s,
            );
            const d2 = s[3];
            if (d2 < bestD2 || (bestT < 0 && d2 <= bestD2)) {
              bestD2 = d2, bestT = t, bestRegion = region;
              for (let q = 0; q < 8; q++) best[q] = s[q];
            }
          }
        }
      }
    }
    if (counters !== undefined) counters[0] += tested;
    if (bestT < 0) return false;
    if (counters !== undefined) counters[1] += 1;
    const qx = best[0], qy = best[1], qz = best[2];
    out[0] = qx;
    out[1] = qy;
    out[2] = qz;
    if (bestRegion === 0) {
      // face: the plane distance and the face normal (exact for axis-aligned faces)
      out[3] = best[4];
      out[4] = best[5];
      out[5] = best[6];
      out[6] = best[7];
      return true;
    }
    let N: Float64Array, o: number;
    if (bestRegion <= 3) N = this.#edgeNormals, o = 3 * (3 * bestT + bestRegion - 1);
    else N = this.#vertexNormals, o = 3 * idx[3 * bestT + bestRegion - 4];
    const dx = px - qx, dy = py - qy, dz = pz - qz;
    const dist = Math.sqrt(bestD2);
    if (dist === 0) {
      out[3] = N[o];
      out[4] = N[o + 1];
      out[5] = N[o + 2];
      out[6] = 0;
    } else if (dx * N[o] + dy * N[o + 1] + dz * N[o + 2] >= 0) {
      out[3] = dx / dist;
      out[4] = dy / dist;
      out[5] = dz / dist;
      out[6] = dist;
    } else {
      out[3] = -dx / dist;
      out[4] = -dy / dist;
      out[5] = -dz / dist;
      out[6] = -dist;
    }
    return true;
  }

  /**
   * Mass, centre of mass and inertia tensor (about the centre of mass) of the solid the mesh
   * bounds, at uniform `density`, from the closed surface (signed tetrahedra to a reference
   * point: the divergence theorem).
   *
   * @param density kg/m³, > 0
   * @throws {RangeError} when the density is not a finite number > 0
   * @example
   * ```ts
   * import { TriangleMesh } from "./mesh.ts";
   * import { expect } from "expect";
   * const m = TriangleMesh.box(0.5, 1, 1.5).massProperties(2);
   * expect(m.mass).toBeCloseTo(12, 12);
   * expect(m.inertia[0]).toBeCloseTo(13, 12); // m (b² + c²) / 12 with b = 2, c = 3
   * expect(m.inertia[3]).toBeCloseTo(0, 12);
   * ```
   */
  massProperties(density: number): MeshMassProperties {
    const rho = positive("TriangleMesh.massProperties", "density", density);
    const v = this.vertices, idx = this.indices;
    const ox = 0.5 * (this.#min[0] + this.#max[0]);
    const oy = 0.5 * (this.#min[1] + this.#max[1]);
    const oz = 0.5 * (this.#min[2] + this.#max[2]);
    // Σ det, Σ det·s, Σ det·(a aᵀ + b bᵀ + c cᵀ + s sᵀ) with s = a + b + c
    let vol6 = 0, mx = 0, my = 0, mz = 0;
    let cxx = 0, cyy = 0, czz = 0, cxy = 0, cxz = 0, cyz = 0;
    for (let t = 0; t < this.triangleCount; t++) {
      const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2];
      const ax = v[a] - ox, ay = v[a + 1] - oy, az = v[a + 2] - oz;
      const bx = v[b] - ox, by = v[b + 1] - oy, bz = v[b + 2] - oz;
      const qx = v[c] - ox, qy = v[c + 1] - oy, qz = v[c + 2] - oz;
      const det = det3(ax, ay, az, bx, by, bz, qx, qy, qz);
      const sx = ax + bx + qx, sy = ay + by + qy, sz = az + bz + qz;
      vol6 += det;
      mx += det * sx, my += det * sy, mz += det * sz;
      cxx += det * (ax * ax + bx * bx + qx * qx + sx * sx);
      cyy += det * (ay * ay + by * by + qy * qy + sy * sy);
      czz += det * (az * az + bz * bz + qz * qz + sz * sz);
      cxy += det * (ax * ay + bx * by + qx * qy + sx * sy);
      cxz += det * (ax * az + bx * bz + qx * qz + sx * sz);
      cyz += det * (ay * az + by * bz + qy * qz + sy * sz);
    }
    const volume = vol6 / 6;
    // centroid: ∫x dV = Σ det·s / 24; second moments ∫x xᵀ dV = Σ … / 120
    const gx = mx / 24 / volume, gy = my / 24 / volume, gz = mz / 24 / volume;
    const sxx = cxx / 120 - volume * gx * gx, syy = cyy / 120 - volume * gy * gy;
    const szz = czz / 120 - volume * gz * gz, sxy = cxy / 120 - volume * gx * gy;
    const sxz = cxz / 120 - volume * gx * gz, syz = cyz / 120 - volume * gy * gz;
    return {
      volume,
      mass: rho * volume,
      centerOfMass: [gx + ox, gy + oy, gz + oz],
      inertia: [
        rho * (syy + szz),
        rho * (sxx + szz),
        rho * (sxx + syy),
        -rho * sxy + 0,
        -rho * sxz + 0,
        -rho * syz + 0,
      ],
    };
  }
}

/** Cell of coordinate x on one axis, clamped to [0, n − 1]. */
function cellIndex(x: number, min: number, inv: number, n: number): number {
  const i = Math.floor((x - min) * inv);
  return i < 0 ? 0 : i >= n ? n - 1 : i;
}
