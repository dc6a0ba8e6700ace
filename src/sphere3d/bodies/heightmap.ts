/**
 * Height-map terrain z = h(x, y) as a rigid-body shape: a regular grid of heights, each cell
 * split into two triangles along its (i, j)–(i+1, j+1) diagonal; piecewise-linear height,
 * closest point with signed distance (below the surface is inside). Float64, local frame;
 * `closest` allocates nothing.
 *
 * @module
 */
import {
  options as checkOptions,
  positive,
  positiveInteger,
  sizeGuard,
} from "../../math/validate.ts";
import { closestOnTriangle } from "./triangle.ts";
import type { MeshCounters } from "./mesh.ts";

/** The grid of a height map. */
export interface HeightMapData {
  /** Heights (m), row-major with x fastest: `heights[j * nx + i]` at (x_i, y_j); finite. */
  heights: ArrayLike<number>;
  /** Grid points along x, integer ≥ 2. */
  nx: number;
  /** Grid points along y, integer ≥ 2. */
  ny: number;
  /** Extent along x (m), > 0: x runs over [−sizeX/2, sizeX/2]. */
  sizeX: number;
  /** Extent along y (m), > 0: y runs over [−sizeY/2, sizeY/2]. */
  sizeY: number;
}

/** Options of {@link HeightMap.create}. */
export interface HeightMapCreateOptions {
  /** Name of the calling function in error messages. @default "addHeightMap" */
  where?: string;
}

const TRI_SCRATCH = new Float64Array(8);

/**
 * Height-map terrain in its local frame: grid point (i, j) lies at
 * x_i = −sizeX/2 + i·sizeX/(nx − 1), y_j = −sizeY/2 + j·sizeY/(ny − 1), z = heights[j·nx + i];
 * cell (i, j) holds the triangles (i,j)→(i+1,j)→(i+1,j+1) and (i,j)→(i+1,j+1)→(i,j+1),
 * normals pointing up. Build it with {@link HeightMap.create}.
 *
 * @example
 * ```ts
 * import { HeightMap } from "./heightmap.ts";
 * import { expect } from "expect";
 * // a ramp rising along x: h = x + 1 on [−1, 1]²
 * const map = HeightMap.create({ heights: [0, 2, 0, 2], nx: 2, ny: 2, sizeX: 2, sizeY: 2 });
 * expect(map.heightAt(0.5, 0)).toBe(1.5);
 * expect(map.boundsMax).toEqual([1, 1, 2]);
 * ```
 */
export class HeightMap {
  /** Heights (m), row-major with x fastest. */
  readonly heights: Float64Array;
  /** Grid points along x. */
  readonly nx: number;
  /** Grid points along y. */
  readonly ny: number;
  /** Extent along x (m). */
  readonly sizeX: number;
  /** Extent along y (m). */
  readonly sizeY: number;
  /** Lowest height (m). */
  readonly minHeight: number;
  /** Highest height (m). */
  readonly maxHeight: number;
  /** Lower corner of the local bounding box (m). */
  readonly boundsMin: readonly [number, number, number];
  /** Upper corner of the local bounding box (m). */
  readonly boundsMax: readonly [number, number, number];
  /** Number of triangles, 2·(nx − 1)·(ny − 1). */
  readonly triangleCount: number;

  #xs: Float64Array;
  #ys: Float64Array;
  #x0: number;
  #x1: number;
  #y0: number;
  #y1: number;
  #invDx: number;
  #invDy: number;
  #best = new Float64Array(8);

  private constructor(heights: Float64Array, nx: number, ny: number, sx: number, sy: number) {
    this.heights = heights;
    this.nx = nx;
    this.ny = ny;
    this.sizeX = sx;
    this.sizeY = sy;
    let lo = Infinity, hi = -Infinity;
    for (let k = 0; k < heights.length; k++) {
      if (heights[k] < lo) lo = heights[k];
      if (heights[k] > hi) hi = heights[k];
    }
    this.minHeight = lo;
    this.maxHeight = hi;
    this.#xs = Float64Array.from({ length: nx }, (_, i) => -0.5 * sx + (i * sx) / (nx - 1));
    this.#ys = Float64Array.from({ length: ny }, (_, j) => -0.5 * sy + (j * sy) / (ny - 1));
    this.#x0 = this.#xs[0], this.#x1 = this.#xs[nx - 1];
    this.#y0 = this.#ys[0], this.#y1 = this.#ys[ny - 1];
    this.#invDx = (nx - 1) / sx;
    this.#invDy = (ny - 1) / sy;
    this.boundsMin = Object.freeze([this.#x0, this.#y0, lo] as [number, number, number]);
    this.boundsMax = Object.freeze([this.#x1, this.#y1, hi] as [number, number, number]);
    this.triangleCount = 2 * (nx - 1) * (ny - 1);
  }

  /**
   * Validate and build a height map.
   *
   * @throws {TypeError} when the data is not an object or `heights` not an array of numbers
   * @throws {RangeError} naming `where`, the field and the rule: nx or ny not an integer ≥ 2,
   *   a size not > 0, `heights` not of length nx·ny, a non-finite height (named by its index)
   * @example
   * ```ts
   * import { HeightMap } from "./heightmap.ts";
   * import { expect } from "expect";
   * expect(() => HeightMap.create({ heights: [0, 0, NaN, 0], nx: 2, ny: 2, sizeX: 1, sizeY: 1 }))
   *   .toThrow("heights[2] (NaN)");
   * ```
   */
  static create(data: HeightMapData, options?: HeightMapCreateOptions): HeightMap {
    const o = checkOptions<HeightMapCreateOptions>(
      "HeightMap.create",
      "options",
      options,
      ["where"],
    );
    const where = o.where ?? "addHeightMap";
    const d = checkOptions<HeightMapData>(where, "height map", data, [
      "heights",
      "nx",
      "ny",
      "sizeX",
      "sizeY",
    ]);
    const nx = positiveInteger(where, "nx", d.nx, 2);
    const ny = positiveInteger(where, "ny", d.ny, 2);
    const sx = positive(where, "sizeX", d.sizeX);
    const sy = positive(where, "sizeY", d.sizeY);
    const h = d.heights;
    if (h === null || typeof h !== "object" || typeof h.length !== "number") {
      throw new TypeError(`${where}: heights (${String(h)}) must be an array of numbers`);
    }
    // the samples, then the engine's triangles (xyz per sample, two triangles per cell)
    sizeGuard(where, `a height map of ${nx} × ${ny} samples`, 56 * nx * ny);
    if (h.length !== nx * ny) {
      throw new RangeError(
        `${where}: heights (length ${h.length}) must hold nx·ny = ${nx}·${ny} = ${
          nx * ny
        } values (row-major, x fastest)`,
      );
    }
    const heights = new Float64Array(h.length);
    for (let k = 0; k < h.length; k++) {
      const v = h[k];
      if (typeof v !== "number") {
        throw new TypeError(`${where}: heights[${k}] (${String(v)}) must be a number`);
      }
      if (!Number.isFinite(v)) {
        throw new RangeError(
          `${where}: heights[${k}] (${v}) at grid point (i = ${k % nx}, j = ${
            Math.floor(k / nx)
          }) must be a finite number`,
        );
      }
      heights[k] = v;
    }
    return new HeightMap(heights, nx, ny, sx, sy);
  }

  /**
   * The surface height at (x, y), linear on each triangle; a point outside the extent takes
   * the height at the nearest point of the extent.
   *
   * @example
   * ```ts
   * import { HeightMap } from "./heightmap.ts";
   * import { expect } from "expect";
   * // one cell, heights 0 except 1 at (+½, +½): the diagonal triangles make h = min(x, y) + ½
   * const map = HeightMap.create({ heights: [0, 0, 0, 1], nx: 2, ny: 2, sizeX: 1, sizeY: 1 });
   * expect(map.heightAt(0.25, -0.25)).toBe(0.25);
   * expect(map.heightAt(0.5, 0.5)).toBe(1);
   * ```
   */
  heightAt(x: number, y: number): number {
    const xs = this.#xs, ys = this.#ys, nx = this.nx, H = this.heights;
    if (x < this.#x0) x = this.#x0;
    else if (x > this.#x1) x = this.#x1;
    if (y < this.#y0) y = this.#y0;
    else if (y > this.#y1) y = this.#y1;
    let i = Math.floor((x - this.#x0) * this.#invDx);
    let j = Math.floor((y - this.#y0) * this.#invDy);
    if (i > nx - 2) i = nx - 2;
    else if (i < 0) i = 0;
    if (j > this.ny - 2) j = this.ny - 2;
    else if (j < 0) j = 0;
    const fx = (x - xs[i]) / (xs[i + 1] - xs[i]), fy = (y - ys[j]) / (ys[j + 1] - ys[j]);
    const k = j * nx + i;
    const h00 = H[k], h10 = H[k + 1], h01 = H[k + nx], h11 = H[k + nx + 1];
    return fx >= fy
      ? h00 + (h10 - h00) * fx + (h11 - h10) * fy
      : h00 + (h11 - h01) * fx + (h01 - h00) * fy;
  }

  /**
   * The closest point of the surface to p = (px, py, pz) among the triangles of the cells that
   * overlap the box p ± reach. Returns false, leaving `out` untouched, when no triangle is
   * within `reach`. Otherwise writes `CLOSEST`'s layout into `out` (length ≥ 7): the closest
   * point q, the unit normal n, the signed distance d, with p = q + d·n. A point below the
   * surface (inside the extent) is inside: d < 0 and n = (q − p)/|q − p| points up out of the
   * ground (the normal of the nearest triangle when the point lies under its face). Outside
   * the xy extent a point is always outside (no skirt). For points over a face the result is
   * the plane's: on a flat map n = (0, 0, 1) and d = pz − h exactly. Allocates nothing.
   *
   * @param reach search radius (m), ≥ 0
   * @param counters optional: `counters[0]` += triangles tested, `counters[1]` += inside/outside
   *   decisions made (1 per call that returns true)
   * @throws {RangeError} when `reach` is negative or NaN
   * @example
   * ```ts
   * import { HeightMap } from "./heightmap.ts";
   * import { expect } from "expect";
   * const flat = HeightMap.create({
   *   heights: new Float64Array(16).fill(0.5), nx: 4, ny: 4, sizeX: 3, sizeY: 3,
   * });
   * const out = new Float64Array(7), counters = new Float64Array(2);
   * expect(flat.closest(0.3, 0.1, 0.45, 0.1, out, counters)).toBe(true);
   * expect([...out.subarray(3)]).toEqual([0, 0, 1, 0.45 - 0.5]);
   * expect(counters[0]).toBe(2); // the two triangles of one cell
   * expect(flat.closest(0.3, 0.1, 2, 0.1, out)).toBe(false);
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
      throw new RangeError(`HeightMap.closest: reach (${reach}) must be >= 0`);
    }
    const x0 = this.#x0, x1 = this.#x1, y0 = this.#y0, y1 = this.#y1;
    if (
      px + reach < x0 || px - reach > x1 || py + reach < y0 || py - reach > y1 ||
      pz - reach > this.maxHeight || pz + reach < this.minHeight
    ) return false;
    const nx = this.nx, ny = this.ny, H = this.heights, xs = this.#xs, ys = this.#ys;
    const i0 = clampCell(Math.floor((px - reach - x0) * this.#invDx), nx - 2);
    const i1 = clampCell(Math.floor((px + reach - x0) * this.#invDx), nx - 2);
    const j0 = clampCell(Math.floor((py - reach - y0) * this.#invDy), ny - 2);
    const j1 = clampCell(Math.floor((py + reach - y0) * this.#invDy), ny - 2);
    const s = TRI_SCRATCH, best = this.#best;
    let bestD2 = reach * reach, found = false, bestRegion = 0, tested = 0;
    const zlo = pz - reach, zhi = pz + reach;
    for (let j = j0; j <= j1; j++) {
      const ya = ys[j], yb = ys[j + 1];
      for (let i = i0; i <= i1; i++) {
        const k = j * nx + i;
        const h00 = H[k], h10 = H[k + 1], h01 = H[k + nx], h11 = H[k + nx + 1];
        const lo = Math.min(h00, h10, h01, h11), hi = Math.max(h00, h10, h01, h11);
        if (zlo > hi || zhi < lo) continue;
        const xa = xs[i], xb = xs[i + 1];
        tested += 2;
        // (i,j) → (i+1,j) → (i+1,j+1)
        let region = closestOnTriangle(xa, ya, h00, xb, ya, h10, xb, yb, h11, px, py, pz, s);
        if (s[3] < bestD2 || (!found && s[3] <= bestD2)) {
          bestD2 = s[3], found = true, bestRegion = region;
          for (let q = 0; q < 8; q++) best[q] = s[q];
        }
        // (i,j) → (i+1,j+1) → (i,j+1)
        region = closestOnTriangle(xa, ya, h00, xb, yb, h11, xa, yb, h01, px, py, pz, s);
        if (s[3] < bestD2 || (!found && s[3] <= bestD2)) {
          bestD2 = s[3], found = true, bestRegion = region;
          for (let q = 0; q < 8; q++) best[q] = s[q];
        }
      }
    }
    if (counters !== undefined) counters[0] += tested;
    if (!found) return false;
    if (counters !== undefined) counters[1] += 1;
    const within = px >= x0 && px <= x1 && py >= y0 && py <= y1;
    const qx = best[0], qy = best[1], qz = best[2];
    out[0] = qx;
    out[1] = qy;
    out[2] = qz;
    if (bestRegion === 0) {
      // over (or under) a face: the plane's distance and normal; below the plane of a face
      // is below the surface when the point lies over the map (no skirt outside it)
      const plane = best[7];
      const sign = plane < 0 && !within ? -1 : 1;
      out[3] = sign * best[4] + 0;
      out[4] = sign * best[5] + 0;
      out[5] = sign * best[6] + 0;
      out[6] = sign * plane;
      return true;
    }
    const dx = px - qx, dy = py - qy, dz = pz - qz;
    const dist = Math.sqrt(bestD2);
    if (dist === 0) {
      out[3] = best[4];
      out[4] = best[5];
      out[5] = best[6];
      out[6] = 0;
    } else if (within && pz < this.heightAt(px, py)) {
      out[3] = -dx / dist;
      out[4] = -dy / dist;
      out[5] = -dz / dist;
      out[6] = -dist;
    } else {
      out[3] = dx / dist;
      out[4] = dy / dist;
      out[5] = dz / dist;
      out[6] = dist;
    }
    return true;
  }
}

function clampCell(i: number, max: number): number {
  return i < 0 ? 0 : i > max ? max : i;
}
