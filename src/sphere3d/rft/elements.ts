/**
 * Surface elements for the RFT ground: a body shape's surface triangles (wound outward) cut
 * into small triangles, each kept as its centroid, outward unit normal and area.
 *
 * @module
 */

/** Floats per element: centroid xyz, outward normal xyz, area. */
export const STRIDE = 7;

/**
 * Append the elements of a triangle surface (wound outward) to `out`: each triangle whose
 * longest edge exceeds `size` is cut into k² equal triangles (k = ⌈edge / size⌉) by the lines
 * parallel to its sides; degenerate triangles are dropped.
 *
 * @example
 * ```ts
 * import { cutSurface, STRIDE } from "./elements.ts";
 * import { expect } from "expect";
 * const out: number[] = [];
 * cutSurface([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2], 0.5, out); // longest edge √2: 3 × 3
 * expect(out.length / STRIDE).toBe(9);
 * expect(out.slice(3, 7)).toEqual([0, 0, 1, 0.5 / 9]); // normal +z, area (1/2) / 9
 * ```
 */
export function cutSurface(
  v: ArrayLike<number>,
  ix: ArrayLike<number>,
  size: number,
  out: number[],
): void {
  for (let t = 0; t + 2 < ix.length; t += 3) {
    const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
    const ux = v[b] - v[a], uy = v[b + 1] - v[a + 1], uz = v[b + 2] - v[a + 2];
    const wx = v[c] - v[a], wy = v[c + 1] - v[a + 1], wz = v[c + 2] - v[a + 2];
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    const twice = Math.hypot(nx, ny, nz);
    const longest = Math.max(
      Math.hypot(ux, uy, uz),
      Math.hypot(wx, wy, wz),
      Math.hypot(wx - ux, wy - uy, wz - uz),
    );
    if (!(twice > 1e-14 * longest * longest)) continue;
    const k = Math.max(1, Math.ceil(longest / size - 1e-9));
    const area = twice / (2 * k * k), mx = nx / twice, my = ny / twice, mz = nz / twice;
    const put = (i: number, j: number) => {
      // centroid at a + (i/3k)·u + (j/3k)·w, with i, j in thirds of a sub-triangle
      const p = i / (3 * k), r = j / (3 * k);
      out.push(
        v[a] + p * ux + r * wx,
        v[a + 1] + p * uy + r * wy,
        v[a + 2] + p * uz + r * wz,
        mx,
        my,
        mz,
        area,
      );
    };
    for (let i = 0; i < k; i++) {
      for (let j = 0; i + j < k; j++) {
        put(3 * i + 1, 3 * j + 1); // the triangle (i, j), (i+1, j), (i, j+1)
        if (i + j < k - 1) put(3 * i + 2, 3 * j + 2); // and (i+1, j), (i+1, j+1), (i, j+1)
      }
    }
  }
}
