/**
 * Surface elements for the RFT ground: a body shape's surface triangles (wound outward) cut
 * into small triangles, each kept as its centroid, outward unit normal and area.
 *
 * @module
 */

/** Floats per element: centroid xyz, outward normal xyz, area. */
export const STRIDE = 7;

/**
 * Elements per culling chunk of the RFT ground: a shape's elements are grouped by `CHUNK`
 * consecutive ones (its last chunk may hold fewer), each group with a sphere around its
 * centroids, and a group wholly above the surface is skipped.
 */
export const CHUNK = 32;

/**
 * Append the elements of a triangle surface (wound outward) to `out`. A triangle with an obtuse
 * corner is first split by the altitude from that corner into two right triangles. A triangle
 * is then cut into rows parallel to its shortest edge, m = ⌈(altitude onto that edge) / size⌉
 * of them, and each row into pieces at most `size` long along the row lines: the pieces tile
 * the triangle (their areas and first moments sum to the triangle's), a sliver becomes about 2m
 * pieces and a well-shaped triangle about m². A piece is at most `size` high and `size` long
 * along its row; the rows' slant can make its longest edge up to about twice `size`. A right
 * triangle with legs of at most `size` stays whole. Degenerate triangles are dropped.
 *
 * @example
 * ```ts
 * import { cutSurface, STRIDE } from "./elements.ts";
 * import { expect } from "expect";
 * const out: number[] = [];
 * // legs 1: 2 rows from the corner (0, 1, 0), of 1 and 3 pieces, each a right triangle
 * cutSurface([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2], 0.5, out);
 * expect(out.length / STRIDE).toBe(4);
 * expect(out.slice(3, 6)).toEqual([0, 0, 1]); // the normal: +z
 * let area = 0;
 * for (let e = 0; e < out.length; e += STRIDE) area += out[e + 6];
 * expect(area).toBeCloseTo(0.5, 12);
 * ```
 */
export function cutSurface(
  v: ArrayLike<number>,
  ix: ArrayLike<number>,
  size: number,
  out: number[],
): void {
  for (let t = 0; t + 2 < ix.length; t += 3) {
    const p = [ix[t], ix[t + 1], ix[t + 2]].flatMap((i) => [v[3 * i], v[3 * i + 1], v[3 * i + 2]]);
    const u = sub(p, 3, 0), w = sub(p, 6, 0), n = cross(u, w);
    const twice = Math.hypot(n[0], n[1], n[2]);
    const longest = Math.max(len(u), len(w), len(sub(p, 6, 3)));
    if (!(twice > 1e-14 * longest * longest)) continue;
    const normal = [n[0] / twice, n[1] / twice, n[2] / twice];
    // an obtuse corner c (the corners in turn): split at the foot f of its altitude
    let split = false;
    for (let c = 0; c < 3 && !split; c++) {
      const a = 3 * ((c + 1) % 3), b = 3 * ((c + 2) % 3), ca = sub(p, a, 3 * c);
      const cb = sub(p, b, 3 * c), ab = sub(p, b, a);
      if (dot(ca, cb) >= -1e-9 * len(ca) * len(cb)) continue;
      const s = -dot(ca, ab) / dot(ab, ab); // the foot: a + s·(b − a), 0 < s < 1
      const f = [0, 1, 2].map((k) => p[a + k] + s * ab[k]);
      const C = p.slice(3 * c, 3 * c + 3), A = p.slice(a, a + 3), B = p.slice(b, b + 3);
      cutRows([...C, ...A, ...f], normal, size, out);
      cutRows([...C, ...f, ...B], normal, size, out);
      split = true;
    }
    if (!split) cutRows(p, normal, size, out);
  }
}

/** The rows of one triangle `p` (9 coordinates, no obtuse corner), see {@link cutSurface}. */
function cutRows(p: number[], normal: number[], size: number, out: number[]): void {
  const ab = len(sub(p, 3, 0)), ac = len(sub(p, 6, 0)), bc = len(sub(p, 6, 3));
  // the apex a faces the shortest edge bc; rows of at most `size` along the apex's altitude
  let a = 0, b = 3, c = 6, base = bc;
  if (ab < base && ab <= ac) a = 6, b = 0, c = 3, base = ab;
  else if (ac < base) a = 3, b = 6, c = 0, base = ac;
  const twice = len(cross(sub(p, 3, 0), sub(p, 6, 0)));
  const rows = Math.max(1, Math.ceil(twice / base / size - 1e-9));
  // a point of row line j (0 at the apex), a fraction s along it from the b side
  const at = (j: number, s: number) =>
    [0, 1, 2].map((k) => p[a + k] + (j / rows) * (p[b + k] - p[a + k] + s * (p[c + k] - p[b + k])));
  const piece = (q: number[], r: number[], x: number[]) => {
    const n = cross(sub([...q, ...r], 3, 0), sub([...q, ...x], 3, 0));
    out.push(
      (q[0] + r[0] + x[0]) / 3,
      (q[1] + r[1] + x[1]) / 3,
      (q[2] + r[2] + x[2]) / 3,
      normal[0],
      normal[1],
      normal[2],
      0.5 * Math.hypot(n[0], n[1], n[2]),
    );
  };
  // row j lies between line j − 1 (nTop segments) and line j (nBottom segments)
  let nTop = 0;
  for (let j = 1; j <= rows; j++) {
    const nBottom = Math.max(1, Math.ceil((base * j) / (rows * size) - 1e-9));
    let i = 0, k = 0;
    while (i < nTop || k < nBottom) {
      if (k < nBottom && (i >= nTop || (k + 1) * nTop <= (i + 1) * nBottom)) {
        piece(at(j - 1, nTop ? i / nTop : 0), at(j, k / nBottom), at(j, (k + 1) / nBottom));
        k++;
      } else {
        piece(at(j - 1, i / nTop), at(j, k / nBottom), at(j - 1, (i + 1) / nTop));
        i++;
      }
    }
    nTop = nBottom;
  }
}

const sub = (
  p: number[],
  i: number,
  j: number,
) => [p[i] - p[j], p[i + 1] - p[j + 1], p[i + 2] - p[j + 2]];
const dot = (x: number[], y: number[]) => x[0] * y[0] + x[1] * y[1] + x[2] * y[2];
const len = (x: number[]) => Math.hypot(x[0], x[1], x[2]);
const cross = (x: number[], y: number[]) => [
  x[1] * y[2] - x[2] * y[1],
  x[2] * y[0] - x[0] * y[2],
  x[0] * y[1] - x[1] * y[0],
];
