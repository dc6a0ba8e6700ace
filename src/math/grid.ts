/**
 * Uniform cell lists in 2D and 3D, rebuilt every step by a counting sort, and the
 * candidate-pair search built on them. Buffers are owned by the grid and grow by doubling,
 * so a rebuild in a steady scene allocates nothing.
 *
 * Periodic axes: give the cell's lower corner and length per axis; the grid then spans the
 * periodic cell exactly, neighbour cells wrap around, and pair distances use the minimum
 * image. A periodic axis must be at least 3 cells long.
 *
 * @module
 */
import { integerIn, nonNegative } from "./validate.ts";

/**
 * Candidate pairs found by a grid search: `count` pairs `(a[k], b[k])` of particle indices,
 * `a[k] < b[k]` not guaranteed. Arrays grow by doubling; read only the first `count` entries.
 */
export class PairList {
  /** First particle of each pair. */
  a: Int32Array = new Int32Array(1024);
  /** Second particle of each pair. */
  b: Int32Array = new Int32Array(1024);
  /** Number of valid pairs. */
  count = 0;
  /** Number of pair distance tests made by the last search. */
  tested = 0;

  /** Append one pair (grows by doubling). */
  push(i: number, j: number): void {
    if (this.count === this.a.length) this.#grow();
    this.a[this.count] = i;
    this.b[this.count] = j;
    this.count++;
  }

  /** Room for `n` pairs (grows by doubling; the pairs listed stay). */
  reserve(n: number): void {
    integerIn("PairList.reserve", "n", n, 0, 2 ** 30);
    while (this.a.length < n) this.#grow();
  }

  #grow(): void {
    const n = this.a.length * 2;
    const a = new Int32Array(n), b = new Int32Array(n);
    a.set(this.a);
    b.set(this.b);
    this.a = a;
    this.b = b;
  }
}

/** Periodic settings of one grid axis: the cell's lower corner and length (0 = not periodic). */
export interface GridAxisPeriod {
  /** Lower corner of the periodic cell on this axis (m). */
  lo: number;
  /** Length of the periodic cell on this axis (m); 0 disables wrapping. */
  length: number;
}

const MAX_CELLS_PER_ITEM = 4;

/**
 * A 3D uniform cell list. `build` sorts the particle indices by cell; `findPairs` lists every
 * pair whose centre distance is below `r_i + r_j + margin`.
 *
 * @example
 * ```ts
 * import { CellGrid3, PairList } from "./grid.ts";
 * import { expect } from "expect";
 * const pos = new Float64Array([0, 0, 0, 0.019, 0, 0, 1, 1, 1]);
 * const radii = new Float64Array([0.01, 0.01, 0.01]);
 * const grid = new CellGrid3();
 * const pairs = new PairList();
 * grid.build(pos, 3, 0.02);
 * grid.findPairs(pos, radii, 0, pairs);
 * expect(pairs.count).toBe(1);
 * ```
 */
export class CellGrid3 {
  /** Cell counts per axis of the last build. */
  nx = 1;
  /** Cell count along y. */
  ny = 1;
  /** Cell count along z. */
  nz = 1;
  /** Lower corner of the grid. */
  ox = 0;
  /** Lower corner y. */
  oy = 0;
  /** Lower corner z. */
  oz = 0;
  /** Inverse cell size along x. */
  ix = 1;
  /** Inverse cell size along y. */
  iy = 1;
  /** Inverse cell size along z. */
  iz = 1;
  /** Periodic length along x (0 = open). */
  px = 0;
  /** Periodic length along y (0 = open). */
  py = 0;
  /** Periodic length along z (0 = open). */
  pz = 0;
  /** `cellStart[c] .. cellStart[c + 1]` indexes `items` for cell c. */
  cellStart: Int32Array = new Int32Array(2);
  /** Particle indices sorted by cell. */
  items: Int32Array = new Int32Array(1);
  /** Cell index of each particle. */
  cellOf: Int32Array = new Int32Array(1);
  /** Centres in cell order (stride 3), gathered by `build` for cache-friendly searches. */
  sorted: Float64Array = new Float64Array(3);

  /**
   * Sort `count` particles into cells of at least `cellSize`.
   *
   * @param positions centres, stride 3.
   * @param cellSize smallest cell edge (m): at least the largest interaction distance.
   * @param periodic optional per-axis periodic cells `[x, y, z]`.
   */
  build(
    positions: Float64Array,
    count: number,
    cellSize: number,
    periodic?: readonly [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod],
  ): void {
    if (this.cellOf.length < count) {
      this.cellOf = new Int32Array(growTo(this.cellOf.length, count));
      this.items = new Int32Array(this.cellOf.length);
      this.sorted = new Float64Array(3 * this.cellOf.length);
    }
    let minx = Infinity, miny = Infinity, minz = Infinity;
    let maxx = -Infinity, maxy = -Infinity, maxz = -Infinity;
    for (let i = 0, o = 0; i < count; i++, o += 3) {
      const x = positions[o], y = positions[o + 1], z = positions[o + 2];
      if (x < minx) minx = x;
      if (x > maxx) maxx = x;
      if (y < miny) miny = y;
      if (y > maxy) maxy = y;
      if (z < minz) minz = z;
      if (z > maxz) maxz = z;
    }
    if (count === 0) {
      minx =
        miny =
        minz =
        maxx =
        maxy =
        maxz =
          0;
    }
    if (!(cellSize > 0 && cellSize < Infinity)) {
      throw new RangeError(`CellGrid.build: cellSize (${cellSize}) must be a finite number > 0`);
    }
    let cs = cellSize;
    // Keep the number of cells bounded for sparse scenes by coarsening open axes.
    const budget = Math.max(64, MAX_CELLS_PER_ITEM * count);
    for (;;) {
      const ax = axis(minx, maxx, cs, periodic?.[0]);
      const ay = axis(miny, maxy, cs, periodic?.[1]);
      const az = axis(minz, maxz, cs, periodic?.[2]);
      if (ax.n * ay.n * az.n <= budget) {
        this.nx = ax.n, this.ox = ax.o, this.ix = ax.inv, this.px = ax.p;
        this.ny = ay.n, this.oy = ay.o, this.iy = ay.inv, this.py = ay.p;
        this.nz = az.n, this.oz = az.o, this.iz = az.inv, this.pz = az.p;
        break;
      }
      cs *= 1.5;
    }
    const ncell = this.nx * this.ny * this.nz;
    if (this.cellStart.length < ncell + 1) {
      this.cellStart = new Int32Array(growTo(this.cellStart.length, ncell + 1));
    }
    const start = this.cellStart, cellOf = this.cellOf, items = this.items;
    start.fill(0, 0, ncell + 1);
    const nx = this.nx, ny = this.ny, nz = this.nz;
    for (let i = 0, o = 0; i < count; i++, o += 3) {
      const cx = cellCoord(positions[o], this.ox, this.ix, nx, this.px);
      const cy = cellCoord(positions[o + 1], this.oy, this.iy, ny, this.py);
      const cz = cellCoord(positions[o + 2], this.oz, this.iz, nz, this.pz);
      const c = (cz * ny + cy) * nx + cx;
      cellOf[i] = c;
      start[c + 1]++;
    }
    for (let c = 0; c < ncell; c++) start[c + 1] += start[c];
    // Stable scatter: use cellStart as a running cursor, then shift back.
    const sorted = this.sorted;
    for (let i = 0; i < count; i++) {
      const s = start[cellOf[i]]++;
      items[s] = i;
      sorted[3 * s] = positions[3 * i];
      sorted[3 * s + 1] = positions[3 * i + 1];
      sorted[3 * s + 2] = positions[3 * i + 2];
    }
    for (let c = ncell; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
  }

  /**
   * Append every pair closer than `r_i + r_j + margin` to `out` (cleared first). Uses the
   * 13-cell half shell so each pair is visited once. When `uniformRadius > 0` all radii are
   * taken equal to it (the homogeneous fast path) and `radii` is not read.
   */
  findPairs(
    _positions: Float64Array,
    radii: Float64Array,
    margin: number,
    out: PairList,
    uniformRadius = 0,
  ): void {
    out.count = 0;
    if (this.px !== 0 || this.py !== 0 || this.pz !== 0) {
      this.#findPairsPeriodic(radii, margin, out, uniformRadius);
      return;
    }
    // Open grid: the cells of one x-row are contiguous in `items`, so the half shell is five
    // contiguous spans: the rest of the own row, and rows (dy, dz) = (1,0), (-1,1), (0,1), (1,1)
    // over x-1 .. x+1.
    let tested = 0;
    const nx = this.nx, ny = this.ny, nz = this.nz;
    const start = this.cellStart, items = this.items, p = this.sorted;
    const uniform = uniformRadius > 0;
    const cutU = 2 * uniformRadius + margin, cutU2 = cutU * cutU;
    for (let cz = 0; cz < nz; cz++) {
      for (let cy = 0; cy < ny; cy++) {
        const row = (cz * ny + cy) * nx;
        for (let cx = 0; cx < nx; cx++) {
          const c = row + cx;
          const s0 = start[c], s1 = start[c + 1];
          if (s0 === s1) continue;
          const xl = cx > 0 ? cx - 1 : 0, xh = cx + 1 < nx ? cx + 2 : nx;
          for (let k = 0; k < 5; k++) {
            let t0: number, t1: number;
            if (k === 0) {
              t0 = -1;
              t1 = start[c + (cx + 1 < nx ? 2 : 1)];
            } else {
              const jy = cy + ROW_SHELL[2 * k], jz = cz + ROW_SHELL[2 * k + 1];
              if (jy < 0 || jy >= ny || jz >= nz) continue;
              const r = (jz * ny + jy) * nx;
              t0 = start[r + xl];
              t1 = start[r + xh];
              if (t0 === t1) continue;
            }
            if (uniform) {
              for (let s = s0; s < s1; s++) {
                const xi = p[3 * s], yi = p[3 * s + 1], zi = p[3 * s + 2];
                const i = items[s];
                const ts = t0 < 0 ? s + 1 : t0;
                for (let t = ts; t < t1; t++) {
                  const dx = p[3 * t] - xi, dy = p[3 * t + 1] - yi, dz = p[3 * t + 2] - zi;
                  if (dx * dx + dy * dy + dz * dz < cutU2) out.push(i, items[t]);
                }
                tested += t1 - ts;
              }
            } else {
              for (let s = s0; s < s1; s++) {
                const xi = p[3 * s], yi = p[3 * s + 1], zi = p[3 * s + 2];
                const i = items[s], ri = radii[i] + margin;
                const ts = t0 < 0 ? s + 1 : t0;
                for (let t = ts; t < t1; t++) {
                  const dx = p[3 * t] - xi, dy = p[3 * t + 1] - yi, dz = p[3 * t + 2] - zi;
                  const j = items[t], cut = ri + radii[j];
                  if (dx * dx + dy * dy + dz * dz < cut * cut) out.push(i, j);
                }
                tested += t1 - ts;
              }
            }
          }
        }
      }
    }
    out.tested = tested;
  }

  #findPairsPeriodic(
    radii: Float64Array,
    margin: number,
    out: PairList,
    uniformRadius: number,
  ): void {
    let tested = 0;
    const nx = this.nx, ny = this.ny, nz = this.nz;
    const start = this.cellStart;
    for (let cz = 0; cz < nz; cz++) {
      for (let cy = 0; cy < ny; cy++) {
        for (let cx = 0; cx < nx; cx++) {
          const c = (cz * ny + cy) * nx + cx;
          const s0 = start[c], s1 = start[c + 1];
          if (s0 === s1) continue;
          for (let k = 0; k < 14; k++) {
            let jx = cx + HALF_SHELL[3 * k], jy = cy + HALF_SHELL[3 * k + 1];
            let jz = cz + HALF_SHELL[3 * k + 2];
            if (jx < 0 || jx >= nx) {
              if (this.px === 0) continue;
              jx = jx < 0 ? jx + nx : jx - nx;
            }
            if (jy < 0 || jy >= ny) {
              if (this.py === 0) continue;
              jy = jy < 0 ? jy + ny : jy - ny;
            }
            if (jz < 0 || jz >= nz) {
              if (this.pz === 0) continue;
              jz = jz < 0 ? jz + nz : jz - nz;
            }
            const d = (jz * ny + jy) * nx + jx;
            const t0 = d === c ? -1 : start[d], t1 = start[d + 1];
            if (t0 === t1) continue;
            tested += this.#cellPairsPeriodic(s0, s1, t0, t1, radii, margin, out, uniformRadius);
          }
        }
      }
    }
    out.tested = tested;
  }

  #cellPairsPeriodic(
    s0: number,
    s1: number,
    t0: number,
    t1: number,
    radii: Float64Array,
    margin: number,
    out: PairList,
    uniformRadius: number,
  ): number {
    const p = this.sorted, items = this.items, px = this.px, py = this.py, pz = this.pz;
    let tested = 0;
    for (let s = s0; s < s1; s++) {
      const xi = p[3 * s], yi = p[3 * s + 1], zi = p[3 * s + 2];
      const i = items[s];
      const ri = (uniformRadius > 0 ? uniformRadius : radii[i]) + margin;
      for (let t = t0 < 0 ? s + 1 : t0; t < t1; t++) {
        let dx = p[3 * t] - xi, dy = p[3 * t + 1] - yi, dz = p[3 * t + 2] - zi;
        if (px !== 0) dx -= px * Math.round(dx / px);
        if (py !== 0) dy -= py * Math.round(dy / py);
        if (pz !== 0) dz -= pz * Math.round(dz / pz);
        const j = items[t], cut = ri + (uniformRadius > 0 ? uniformRadius : radii[j]);
        tested++;
        if (dx * dx + dy * dy + dz * dz < cut * cut) out.push(i, j);
      }
    }
    return tested;
  }
}

/**
 * A 2D uniform cell list (the same design as {@link CellGrid3}, 4-cell half shell).
 *
 * @example
 * ```ts
 * import { CellGrid2, PairList } from "./grid.ts";
 * import { expect } from "expect";
 * const pos = new Float64Array([0, 0, 1.5, 0, 10, 10]);
 * const r = new Float64Array([1, 1, 1]);
 * const grid = new CellGrid2();
 * const pairs = new PairList();
 * grid.build(pos, 3, 2);
 * grid.findPairs(pos, r, 0, pairs);
 * expect(pairs.count).toBe(1);
 * ```
 */
export class CellGrid2 {
  /** Cell count along x. */
  nx = 1;
  /** Cell count along y. */
  ny = 1;
  /** Lower corner x. */
  ox = 0;
  /** Lower corner y. */
  oy = 0;
  /** Inverse cell size along x. */
  ix = 1;
  /** Inverse cell size along y. */
  iy = 1;
  /** Periodic length along x (0 = open). */
  px = 0;
  /** Periodic length along y (0 = open). */
  py = 0;
  /** `cellStart[c] .. cellStart[c + 1]` indexes `items` for cell c. */
  cellStart: Int32Array = new Int32Array(2);
  /** Particle indices sorted by cell. */
  items: Int32Array = new Int32Array(1);
  /** Cell index of each particle. */
  cellOf: Int32Array = new Int32Array(1);
  /** Centres in `items` order (stride 2): the pair search reads them contiguously. */
  sorted: Float64Array = new Float64Array(2);
  /** Radii in `items` order (filled by `findPairs`). */
  sortedRadii: Float64Array = new Float64Array(1);

  /**
   * Sort `count` particles (centres with stride 2) into cells of at least `cellSize`.
   */
  build(
    positions: Float64Array,
    count: number,
    cellSize: number,
    periodic?: readonly [GridAxisPeriod, GridAxisPeriod],
  ): void {
    if (this.cellOf.length < count) {
      this.cellOf = new Int32Array(growTo(this.cellOf.length, count));
      this.items = new Int32Array(this.cellOf.length);
      this.sorted = new Float64Array(2 * this.cellOf.length);
      this.sortedRadii = new Float64Array(this.cellOf.length);
    }
    let minx = Infinity, miny = Infinity, maxx = -Infinity, maxy = -Infinity;
    for (let i = 0, o = 0; i < count; i++, o += 2) {
      const x = positions[o], y = positions[o + 1];
      if (x < minx) minx = x;
      if (x > maxx) maxx = x;
      if (y < miny) miny = y;
      if (y > maxy) maxy = y;
    }
    if (count === 0) {
      minx =
        miny =
        maxx =
        maxy =
          0;
    }
    if (!(cellSize > 0 && cellSize < Infinity)) {
      throw new RangeError(`CellGrid.build: cellSize (${cellSize}) must be a finite number > 0`);
    }
    let cs = cellSize;
    const budget = Math.max(64, MAX_CELLS_PER_ITEM * count);
    for (;;) {
      const ax = axis(minx, maxx, cs, periodic?.[0]);
      const ay = axis(miny, maxy, cs, periodic?.[1]);
      if (ax.n * ay.n <= budget) {
        this.nx = ax.n, this.ox = ax.o, this.ix = ax.inv, this.px = ax.p;
        this.ny = ay.n, this.oy = ay.o, this.iy = ay.inv, this.py = ay.p;
        break;
      }
      cs *= 1.5;
    }
    const ncell = this.nx * this.ny;
    if (this.cellStart.length < ncell + 1) {
      this.cellStart = new Int32Array(growTo(this.cellStart.length, ncell + 1));
    }
    const start = this.cellStart, cellOf = this.cellOf, items = this.items;
    start.fill(0, 0, ncell + 1);
    for (let i = 0, o = 0; i < count; i++, o += 2) {
      const cx = cellCoord(positions[o], this.ox, this.ix, this.nx, this.px);
      const cy = cellCoord(positions[o + 1], this.oy, this.iy, this.ny, this.py);
      const c = cy * this.nx + cx;
      cellOf[i] = c;
      start[c + 1]++;
    }
    for (let c = 0; c < ncell; c++) start[c + 1] += start[c];
    const sorted = this.sorted;
    for (let i = 0; i < count; i++) {
      const s = start[cellOf[i]]++;
      items[s] = i;
      sorted[2 * s] = positions[2 * i];
      sorted[2 * s + 1] = positions[2 * i + 1];
    }
    for (let c = ncell; c > 0; c--) start[c] = start[c - 1];
    start[0] = 0;
    this.count = count;
  }

  /** Particles sorted by the last `build`. */
  count = 0;

  /**
   * Append every pair closer than `r_i + r_j + margin` to `out` (cleared first), each once:
   * cell by cell, for each of the five half-shell cells, every grain of the cell against every
   * grain of that cell (see {@link findPairRows2}). `positions` must be the centres of the last
   * `build` (the search reads the copy `build` made in cell order).
   */
  findPairs(
    _positions: Float64Array,
    radii: Float64Array,
    margin: number,
    out: PairList,
  ): void {
    this.sortRadii(radii);
    const res = this.#res;
    for (;;) {
      findPairRows2(this, margin, out.a, out.b, 0, this.ny, res);
      if (res[0] <= out.a.length) break;
      out.reserve(res[0]);
    }
    out.count = res[0];
    out.tested = res[1];
  }

  readonly #res: Float64Array = new Float64Array(2);

  /** Copy `radii` into {@link CellGrid2.sortedRadii} in cell order (before a row search). */
  sortRadii(radii: Float64Array): void {
    const n = this.count, items = this.items;
    if (this.sortedRadii.length < n) this.sortedRadii = new Float64Array(this.items.length);
    const rs = this.sortedRadii;
    for (let s = 0; s < n; s++) rs[s] = radii[items[s]];
  }
}

/** What {@link findPairRows2} reads of a 2D grid (a `CellGrid2`, or shared copies of it). */
export interface Grid2View {
  /** Cells along x. */
  nx: number;
  /** Cells along y. */
  ny: number;
  /** Periodic length along x (0 = open). */
  px: number;
  /** Periodic length along y (0 = open). */
  py: number;
  /** Cell starts in `items`. */
  cellStart: Int32Array;
  /** Particles in cell order. */
  items: Int32Array;
  /** Centres in cell order (stride 2). */
  sorted: Float64Array;
  /** Radii in cell order. */
  sortedRadii: Float64Array;
}

/**
 * The pairs closer than `r_i + r_j + margin` whose first grain lies in a cell of rows
 * y0 ≤ y < y1, in cell order (row by row, x within a row), then half-shell order, into
 * `a`, `b` from index 0 — as many as fit; `res` gets the number found (which may exceed the
 * room: then search again with more) and the number of distances tested. The rows of a grid cut
 * into consecutive ranges give, one after another, the pairs of the whole grid in its order.
 *
 * @example
 * ```ts
 * import { CellGrid2, findPairRows2 } from "./grid.ts";
 * import { expect } from "expect";
 * const pos = new Float64Array([0, 0, 0.015, 0, 1, 1]), r = new Float64Array([0.01, 0.01, 0.01]);
 * const g = new CellGrid2();
 * g.build(pos, 3, 0.02);
 * g.sortRadii(r);
 * const a = new Int32Array(4), b = new Int32Array(4), res = new Float64Array(2);
 * findPairRows2(g, 0, a, b, 0, g.ny, res);
 * expect(res[0]).toBe(1);
 * expect([a[0], b[0]].sort()).toEqual([0, 1]);
 * ```
 */
export function findPairRows2(
  g: Grid2View,
  margin: number,
  a: Int32Array,
  b: Int32Array,
  y0: number,
  y1: number,
  res: Float64Array,
): void {
  // checked without allocating (one call per thread and step); the helpers build the error
  nonNegative("findPairRows2", "margin", margin);
  integerIn("findPairRows2", "y0", y0, 0, g.ny);
  integerIn("findPairRows2", "y1", y1, y0, g.ny);
  if (!(res instanceof Float64Array && res.length >= 2)) {
    throw new TypeError(
      `findPairRows2: res (${String(res)}) must be a Float64Array of length >= 2`,
    );
  }
  let tested = 0, w = 0;
  const nx = g.nx,
    ny = g.ny,
    px = g.px,
    py = g.py,
    room = a.length < b.length ? a.length : b.length;
  const start = g.cellStart, items = g.items, p = g.sorted, rs = g.sortedRadii;
  const periodic = px !== 0 || py !== 0;
  for (let cy = y0; cy < y1; cy++) {
    for (let cx = 0; cx < nx; cx++) {
      const c = cy * nx + cx;
      const s0 = start[c], s1 = start[c + 1];
      if (s0 === s1) continue;
      for (let k = 0; k < 5; k++) {
        let jx = cx + HALF_SHELL_2D[2 * k], jy = cy + HALF_SHELL_2D[2 * k + 1];
        if (jx < 0 || jx >= nx) {
          if (px === 0) continue;
          jx = jx < 0 ? jx + nx : jx - nx;
        }
        if (jy < 0 || jy >= ny) {
          if (py === 0) continue;
          jy = jy < 0 ? jy + ny : jy - ny;
        }
        const d = jy * nx + jx;
        const same = k === 0;
        const t0 = start[d], t1 = start[d + 1];
        if (t0 === t1) continue;
        for (let s = s0; s < s1; s++) {
          const xi = p[2 * s], yi = p[2 * s + 1], ri = rs[s];
          const ts = same ? s + 1 : t0;
          tested += t1 - ts;
          if (periodic) {
            for (let t = ts; t < t1; t++) {
              let dx = p[2 * t] - xi, dy = p[2 * t + 1] - yi;
              if (px !== 0) dx -= px * Math.round(dx / px);
              if (py !== 0) dy -= py * Math.round(dy / py);
              const cut = ri + rs[t] + margin;
              if (dx * dx + dy * dy < cut * cut) {
                if (w < room) a[w] = items[s], b[w] = items[t];
                w++;
              }
            }
          } else {
            for (let t = ts; t < t1; t++) {
              const dx = p[2 * t] - xi, dy = p[2 * t + 1] - yi;
              const cut = ri + rs[t] + margin;
              if (dx * dx + dy * dy < cut * cut) {
                if (w < room) a[w] = items[s], b[w] = items[t];
                w++;
              }
            }
          }
        }
      }
    }
  }
  res[0] = w;
  res[1] = tested;
}

// Own cell first, then the 13 forward neighbours (every offset whose first non-zero
// component, in z, y, x order, is positive).
const HALF_SHELL = new Int8Array([
  0,
  0,
  0,
  1,
  0,
  0,
  -1,
  1,
  0,
  0,
  1,
  0,
  1,
  1,
  0,
  -1,
  -1,
  1,
  0,
  -1,
  1,
  1,
  -1,
  1,
  -1,
  0,
  1,
  0,
  0,
  1,
  1,
  0,
  1,
  -1,
  1,
  1,
  0,
  1,
  1,
  1,
  1,
  1,
]);
// Row spans of the open-grid search: (dy, dz) of the four forward rows (entry 0 unused).
const ROW_SHELL = new Int8Array([0, 0, 1, 0, -1, 1, 0, 1, 1, 1]);
const HALF_SHELL_2D = new Int8Array([0, 0, 1, 0, -1, 1, 0, 1, 1, 1]);

function axis(
  min: number,
  max: number,
  cs: number,
  per: GridAxisPeriod | undefined,
): { n: number; o: number; inv: number; p: number } {
  if (per && per.length > 0) {
    const n = Math.floor(per.length / cs);
    if (n < 3) {
      throw new RangeError(
        `periodic length (${per.length}) must be at least 3 interaction cells (3 * ${cs})`,
      );
    }
    return { n, o: per.lo, inv: n / per.length, p: per.length };
  }
  const span = max - min;
  // Non-finite extents (a diverging particle) collapse to one cell; the step reports them.
  const n = Number.isFinite(span) ? Math.min(1 << 24, Math.max(1, Math.floor(span / cs) + 1)) : 1;
  return { n, o: Number.isFinite(min) ? min : 0, inv: 1 / cs, p: 0 };
}

function cellCoord(x: number, o: number, inv: number, n: number, p: number): number {
  let c = Math.floor((x - o) * inv);
  if (p !== 0) {
    c %= n;
    if (c < 0) c += n;
  }
  if (!(c >= 0)) c = 0; // also NaN
  else if (c >= n) c = n - 1;
  return c;
}

function growTo(have: number, need: number): number {
  let n = Math.max(have, 16);
  while (n < need) n *= 2;
  return n;
}
