/**
 * Validation of closed triangle meshes: the vertex and index lists checked element by element,
 * then the surface checked to be a closed, consistently wound, outward-facing 2-manifold
 * (edges paired, vertex fans single, positive enclosed volume), with the face normals and the
 * angle-weighted pseudo-normals of edges and vertices that `TriangleMesh` keeps. Every
 * failure names the caller, the source file, the element and the rule.
 *
 * @module
 */
import { triangleNormal } from "./triangle.ts";
import { sizeGuard } from "../../math/validate.ts";

/**
 * A checked closed mesh: the arrays `TriangleMesh` is built from.
 *
 * @internal
 */
export interface ClosedMesh {
  /** Vertex coordinates, stride 3 (m). */
  vertices: Float64Array;
  /** Triangle vertex indices, stride 3, wound counter-clockwise seen from outside. */
  indices: Uint32Array;
  /** Lower corner of the bounding box of the vertices the triangles use (m). */
  min: number[];
  /** Upper corner of that bounding box (m). */
  max: number[];
  /** Unit outward normal of each triangle, stride 3. */
  faceNormals: Float64Array;
  /** Angle-weighted pseudo-normal per half-edge 3t + k (edge k of triangle t), stride 3. */
  edgeNormals: Float64Array;
  /** Angle-weighted pseudo-normal per vertex, stride 3. */
  vertexNormals: Float64Array;
}

/**
 * Check `vertices` and `indices` as `TriangleMesh.create` documents (a closed, consistently
 * wound, outward-facing 2-manifold enclosing a volume) and derive the normals.
 *
 * @param where the caller and source named in messages
 * @throws {TypeError} when an argument is not an array of numbers
 * @throws {RangeError} for every rule `TriangleMesh.create` lists
 * @internal
 */
export function checkClosedMesh(
  where: string,
  vertices: ArrayLike<number>,
  indices: ArrayLike<number>,
): ClosedMesh {
  const verts = floatList(where, "vertices", vertices);
  const V = verts.length / 3;
  if (!Number.isInteger(V)) {
    throw new RangeError(
      `${where}: vertices (length ${verts.length}) must be a flat xyz list (a multiple of 3)`,
    );
  }
  const idx = indexList(where, indices, V);
  const T = idx.length / 3;
  for (let k = 0; k < verts.length; k++) {
    if (!Number.isFinite(verts[k])) {
      throw new RangeError(
        `${where}: vertices[${k}] (${verts[k]}), coordinate ${"xyz"[k % 3]} of vertex ` +
          `${Math.floor(k / 3)}, must be a finite number`,
      );
    }
  }
  // bounds of the vertices the triangles use
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < idx.length; k++) {
    const a = 3 * idx[k];
    for (let c = 0; c < 3; c++) {
      if (verts[a + c] < min[c]) min[c] = verts[a + c];
      if (verts[a + c] > max[c]) max[c] = verts[a + c];
    }
  }
  // face normals; zero-area triangles
  const faceNormals = new Float64Array(3 * T);
  for (let t = 0; t < T; t++) {
    const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2];
    const twice = triangleNormal(
      verts[a],
      verts[a + 1],
      verts[a + 2],
      verts[b],
      verts[b + 1],
      verts[b + 2],
      verts[c],
      verts[c + 1],
      verts[c + 2],
      faceNormals,
      3 * t,
    );
    let longest = 0;
    for (const [p, q] of [[a, b], [b, c], [c, a]]) {
      const dx = verts[q] - verts[p], dy = verts[q + 1] - verts[p + 1];
      const dz = verts[q + 2] - verts[p + 2];
      longest = Math.max(longest, dx * dx + dy * dy + dz * dz);
    }
    if (!(twice > 1e-12 * longest)) {
      throw new RangeError(
        `${where}: triangle ${t} (vertices ${idx[3 * t]}, ${idx[3 * t + 1]}, ${
          idx[3 * t + 2]
        }) has zero area (degenerate); every triangle must have a positive area`,
      );
    }
  }
  const twin = pairEdges(where, idx, V);
  checkVertexFans(where, idx, V, twin);
  // winding: the signed enclosed volume must be positive
  const scale = Math.max(max[0] - min[0], max[1] - min[1], max[2] - min[2]);
  const ox = 0.5 * (min[0] + max[0]), oy = 0.5 * (min[1] + max[1]), oz = 0.5 * (min[2] + max[2]);
  let six = 0;
  for (let t = 0; t < T; t++) {
    const a = 3 * idx[3 * t], b = 3 * idx[3 * t + 1], c = 3 * idx[3 * t + 2];
    six += det3(
      verts[a] - ox,
      verts[a + 1] - oy,
      verts[a + 2] - oz,
      verts[b] - ox,
      verts[b + 1] - oy,
      verts[b + 2] - oz,
      verts[c] - ox,
      verts[c + 1] - oy,
      verts[c + 2] - oz,
    );
  }
  const volume = six / 6;
  if (!(Math.abs(volume) > 1e-12 * scale * scale * scale)) {
    throw new RangeError(
      `${where}: the closed surface encloses no volume (${volume} m³); a mesh body must ` +
        `bound a solid`,
    );
  }
  if (volume < 0) {
    throw new RangeError(
      `${where}: the triangles are wound inward (signed volume ${volume} m³ < 0); the ` +
        `winding must be counter-clockwise seen from outside (swap two indices of every ` +
        `triangle)`,
    );
  }
  const { edgeNormals, vertexNormals } = pseudoNormals(verts, idx, faceNormals, twin);
  return { vertices: verts, indices: idx, min, max, faceNormals, edgeNormals, vertexNormals };
}

/**
 * a · (b × c): six times the signed volume of the tetrahedron (0, a, b, c).
 *
 * @internal
 */
export function det3(
  ax: number,
  ay: number,
  az: number,
  bx: number,
  by: number,
  bz: number,
  cx: number,
  cy: number,
  cz: number,
): number {
  return ax * (by * cz - bz * cy) + ay * (bz * cx - bx * cz) + az * (bx * cy - by * cx);
}

/** A copy of an array of numbers as a Float64Array; a TypeError for anything else. */
function floatList(where: string, name: string, a: ArrayLike<number>): Float64Array {
  if (a === null || typeof a !== "object" || typeof a.length !== "number") {
    throw new TypeError(`${where}: ${name} (${String(a)}) must be an array of numbers`);
  }
  if (a.length === 0) {
    throw new RangeError(
      `${where}: the mesh is empty (${name} has length 0); a closed mesh needs at least 4 ` +
        `vertices and 4 triangles`,
    );
  }
  // the list, then the normals and adjacency built from it (about 10 numbers per entry)
  sizeGuard(where, `a mesh with ${a.length} ${name}`, 80 * a.length);
  const out = new Float64Array(a.length);
  for (let k = 0; k < a.length; k++) {
    const x = a[k];
    if (typeof x !== "number") {
      throw new TypeError(`${where}: ${name}[${k}] (${String(x)}) must be a number`);
    }
    out[k] = x;
  }
  return out;
}

/** The triangle index list, checked: a multiple of 3, integers in [0, V − 1]. */
function indexList(where: string, indices: ArrayLike<number>, V: number): Uint32Array {
  const f = floatList(where, "indices", indices);
  if (f.length % 3 !== 0) {
    throw new RangeError(
      `${where}: indices (length ${f.length}) must be a flat triangle list (a multiple of 3)`,
    );
  }
  for (let k = 0; k < f.length; k++) {
    const x = f[k];
    if (!Number.isInteger(x) || x < 0 || x >= V) {
      throw new RangeError(
        `${where}: indices[${k}] (${x}), corner ${k % 3} of triangle ${Math.floor(k / 3)}, ` +
          `must be an integer vertex index in [0, ${V - 1}]`,
      );
    }
  }
  return Uint32Array.from(f);
}

/**
 * Pair every half-edge (edge k of triangle t, index 3t + k, from corner k to corner k + 1)
 * with the half-edge running the other way in the neighbouring triangle; throws unless the
 * surface is a closed, consistently wound 2-manifold along its edges.
 */
function pairEdges(where: string, idx: Uint32Array, V: number): Int32Array {
  const H = idx.length;
  const twin = new Int32Array(H).fill(-1);
  const first = new Map<number, number>();
  const rule = "a closed 2-manifold needs every edge shared by exactly two triangles";
  const tri = (h: number) => {
    const t = Math.floor(h / 3);
    return `triangle ${t} (${idx[3 * t]}, ${idx[3 * t + 1]}, ${idx[3 * t + 2]})`;
  };
  for (let h = 0; h < H; h++) {
    const a = idx[h], b = idx[h - (h % 3) + ((h % 3) + 1) % 3];
    const key = a < b ? a * V + b : b * V + a;
    const g = first.get(key);
    if (g === undefined) {
      first.set(key, h);
      continue;
    }
    if (twin[g] !== -1) {
      throw new RangeError(
        `${where}: the mesh is not a closed 2-manifold: edge (${a < b ? a : b}, ${
          a < b ? b : a
        }) is used by more ` +
          `than two triangles (${tri(g)}, ${tri(twin[g])} and ${tri(h)}); ${rule}`,
      );
    }
    if (idx[g] === a) {
      throw new RangeError(
        `${where}: inconsistent winding: ${tri(g)} and ${tri(h)} both run along edge ` +
          `${a}→${b} in the same direction; neighbouring triangles must run along their ` +
          `shared edge in opposite directions (a consistently wound closed 2-manifold)`,
      );
    }
    twin[g] = h, twin[h] = g;
  }
  for (let h = 0; h < H; h++) {
    if (twin[h] === -1) {
      const a = idx[h], b = idx[h - (h % 3) + ((h % 3) + 1) % 3];
      throw new RangeError(
        `${where}: the mesh is not a closed 2-manifold: edge (${a}, ${b}) of ${tri(h)} ` +
          `belongs to no other triangle (the surface has a hole or a missing triangle); ${rule}`,
      );
    }
  }
  return twin;
}

/** Throw unless the triangles around each vertex form one fan (no pinched vertices). */
function checkVertexFans(where: string, idx: Uint32Array, V: number, twin: Int32Array): void {
  const valence = new Uint32Array(V), out = new Int32Array(V).fill(-1);
  for (let h = 0; h < idx.length; h++) valence[idx[h]]++, out[idx[h]] = h;
  for (let v = 0; v < V; v++) {
    const h0 = out[v];
    if (h0 < 0) continue;
    // next half-edge leaving v: the twin of the half-edge entering v in the same triangle
    let h = h0, steps = 0;
    do {
      const prev = h - (h % 3) + ((h % 3) + 2) % 3;
      h = twin[prev];
      steps++;
    } while (h !== h0 && steps <= valence[v]);
    if (steps !== valence[v]) {
      throw new RangeError(
        `${where}: the mesh is not a closed 2-manifold: vertex ${v} joins ${
          valence[v]
        } triangles that form more than one fan (a pinched vertex); the triangles around ` +
          `each vertex must form a single closed fan`,
      );
    }
  }
}

/** Angle-weighted pseudo-normals of the edges (per half-edge) and vertices. */
function pseudoNormals(
  v: Float64Array,
  idx: Uint32Array,
  fn: Float64Array,
  twin: Int32Array,
): { edgeNormals: Float64Array; vertexNormals: Float64Array } {
  const H = idx.length, V = v.length / 3;
  const edgeNormals = new Float64Array(3 * H), vertexNormals = new Float64Array(3 * V);
  for (let h = 0; h < H; h++) {
    const t = Math.floor(h / 3), u = Math.floor(twin[h] / 3);
    normalizeInto(
      edgeNormals,
      3 * h,
      fn[3 * t] + fn[3 * u],
      fn[3 * t + 1] + fn[3 * u + 1],
      fn[3 * t + 2] + fn[3 * u + 2],
      fn,
      3 * t,
    );
  }
  const fallback = new Int32Array(V);
  for (let h = 0; h < H; h++) {
    const t = Math.floor(h / 3), k = h % 3;
    const p = 3 * idx[h], a = 3 * idx[3 * t + (k + 1) % 3], b = 3 * idx[3 * t + (k + 2) % 3];
    const ux = v[a] - v[p], uy = v[a + 1] - v[p + 1], uz = v[a + 2] - v[p + 2];
    const wx = v[b] - v[p], wy = v[b + 1] - v[p + 1], wz = v[b + 2] - v[p + 2];
    const cx = uy * wz - uz * wy, cy = uz * wx - ux * wz, cz = ux * wy - uy * wx;
    const angle = Math.atan2(Math.sqrt(cx * cx + cy * cy + cz * cz), ux * wx + uy * wy + uz * wz);
    const o = 3 * idx[h];
    vertexNormals[o] += angle * fn[3 * t];
    vertexNormals[o + 1] += angle * fn[3 * t + 1];
    vertexNormals[o + 2] += angle * fn[3 * t + 2];
    fallback[idx[h]] = t;
  }
  for (let i = 0; i < V; i++) {
    const o = 3 * i;
    normalizeInto(
      vertexNormals,
      o,
      vertexNormals[o],
      vertexNormals[o + 1],
      vertexNormals[o + 2],
      fn,
      3 * fallback[i],
    );
  }
  return { edgeNormals, vertexNormals };
}

/** out[o..o+2] = (x, y, z)/|(x, y, z)|, or fallback[f..f+2] when the vector vanishes. */
function normalizeInto(
  out: Float64Array,
  o: number,
  x: number,
  y: number,
  z: number,
  fallback: Float64Array,
  f: number,
): void {
  const len = Math.sqrt(x * x + y * y + z * z);
  if (len > 1e-12) {
    out[o] = x / len + 0, out[o + 1] = y / len + 0, out[o + 2] = z / len + 0;
  } else {
    out[o] = fallback[f], out[o + 1] = fallback[f + 1], out[o + 2] = fallback[f + 2];
  }
}
