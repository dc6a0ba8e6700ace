/**
 * The triangles of a body's mesh or height-map shape, for the engine's collider, the body's
 * world-frame shapes and the viewer.
 *
 * @module
 */
import type { TriangleMesh } from "./mesh.ts";
import type { HeightMap } from "./heightmap.ts";

/**
 * The triangles of a mesh or height map in its own frame (height maps: two per cell): the
 * mesh's own arrays, or a new vertex and index array built from the height map's grid.
 *
 * @example
 * ```ts
 * import { triangles } from "./mesh_triangles.ts";
 * import { HeightMap } from "./heightmap.ts";
 * import { expect } from "expect";
 * const h = HeightMap.create({ heights: new Array(9).fill(0), nx: 3, ny: 3, sizeX: 1, sizeY: 1 });
 * const t = triangles(h);
 * expect(t.indices.length).toBe(3 * 8); // 2 × 2 cells, two triangles each
 * ```
 */
export function triangles(o: TriangleMesh | HeightMap): {
  vertices: Float64Array;
  indices: Uint32Array;
} {
  if ("indices" in o) return { vertices: o.vertices, indices: o.indices };
  const h = o as HeightMap, nx = h.nx, ny = h.ny;
  const vertices = new Float64Array(3 * nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const k = j * nx + i;
      vertices[3 * k] = -0.5 * h.sizeX + (i * h.sizeX) / (nx - 1);
      vertices[3 * k + 1] = -0.5 * h.sizeY + (j * h.sizeY) / (ny - 1);
      vertices[3 * k + 2] = h.heights[k];
    }
  }
  const indices = new Uint32Array(6 * (nx - 1) * (ny - 1));
  let t = 0;
  for (let j = 0; j + 1 < ny; j++) {
    for (let i = 0; i + 1 < nx; i++) {
      const a = j * nx + i, b = a + 1, c = a + nx + 1, d = a + nx;
      indices[t++] = a, indices[t++] = b, indices[t++] = c;
      indices[t++] = a, indices[t++] = c, indices[t++] = d;
    }
  }
  return { vertices, indices };
}
