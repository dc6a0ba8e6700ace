/**
 * A surface that heaps and ruts, for the RFT ground (`RftGroundOptions.deform`): a height map
 * of square cells over a rectangle of the free surface. Flat RFT measures every element's depth
 * from one plane; here the depth is measured from the map, so an intruder that pushes grains
 * ahead of itself meets them again, and a foot that steps into a rut finds it.
 *
 * The rules, per ground step (after the step's forces, so the next step sees the change):
 * - **Occupied cells.** Every element below the map's surface stamps the cells under its
 *   footprint: an element of size s = √(2·area) with normal n reaches s·√(1 − n_x²)/2 to either
 *   side along x, s·√(1 − n_y²)/2 along y and s·√(1 − n_z²)/2 up and down (a face across the
 *   motion covers a line of cells). A cell keeps the lowest and the highest point stamped in it
 *   (the body's extent there, the top clipped to the surface) and the velocity of its lowest
 *   element. While a body occupies a cell, the cell keeps the height it had when the body came:
 *   the depth of the body's elements there is measured from it, as flat RFT measures from the
 *   undisturbed surface.
 * - **Displacement.** The volume a body takes up in a cell (its extent there times the cell's
 *   area) is pushed out as it grows: to the ±x and ±y neighbours in proportion to max(±v_x, 0) +
 *   |v_z|/4 and max(±v_y, 0) + |v_z|/4 of the lowest element (its vertical motion spreads
 *   evenly), each share carried across occupied cells to the first free cell in its direction
 *   (the heap travels in front of the body). A share carried past the map's edge is lost
 *   (`lost`). A body cutting in from above (a leg, a wheel) displaces the column from the
 *   surface down to its lowest point; a buried plate, its own thickness.
 * - **Release.** A cell the body has left drops by the most volume the body took up there: the
 *   grains close over the void (the rut).
 * - **Slumping.** Between free neighbours (along x and y), a step steeper than the angle of
 *   repose gives half its excess to the lower cell; every cell that changed is visited, and
 *   visited again while it moves, until no step exceeds the angle by more than 10⁻³ of a cell
 *   (at most 2²⁰ visits a step; what is left waits for the next step): grains do not stand
 *   steeper than repose after a step. Occupied cells neither give nor take (the body holds
 *   them).
 *
 * Volume is conserved: the grains' volume above the base height (`volume`) plus `lost` stays
 * zero to rounding. Compaction is not modelled (RFT's α already holds it); the map is a
 * bookkeeping of where the displaced grains go. Outside the rectangle the surface is flat at the
 * base height. Heights between cell centres are bilinear.
 *
 * @module
 */

/** Options of a deforming RFT surface (`RftGroundOptions.deform`). */
export interface RftDeformOptions {
  /** Side of a square cell of the height map (m); about the element size or larger. */
  cellSize: number;
  /**
   * The rectangle the map covers, [xMin, yMin, xMax, yMax] (m); outside it the surface is flat.
   */
  bounds: readonly [number, number, number, number];
  /** Angle of repose (rad): steeper slopes between free cells slump. @default 0.5 (28.6°) */
  repose?: number;
}

/** Most cell visits of the slumping per step. */
const MAX_MOVES = 1 << 20;

/**
 * The height map of a deforming RFT surface (see the module notes): made by
 * `World.addRftGround` with `deform`, read through `RftGround.surface`.
 *
 * @example
 * ```ts
 * import { RftHeightMap } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const map = new RftHeightMap(0, { cellSize: 0.01, bounds: [-0.1, -0.1, 0.1, 0.1] });
 * // a body from the surface to 2 cm deep, moving along +x: its cell's grains are pushed ahead
 * map.begin();
 * map.stamp(0.005, 0.005, -0.01, 0, 0, 0.01, 0.1, 0, 0); // a vertical face, 0 … −2 cm
 * map.end();
 * expect(map.heightAt(0.005, 0.005)).toBe(0); // depths there are measured from the old surface
 * expect(map.cellHeight(10, 10)).toBe(-0.02); // the grains under the body
 * expect(map.cellHeight(11, 10)).toBeGreaterThan(0); // a heap in front (slumped)
 * expect(map.cellHeight(9, 10)).toBe(0); // nothing behind
 * expect(map.volume + map.lost).toBeCloseTo(0, 12); // nothing made or lost
 * ```
 */
export class RftHeightMap {
  /** Cells along x. */
  readonly nx: number;
  /** Cells along y. */
  readonly ny: number;
  /** Side of a cell (m). */
  readonly cellSize: number;
  /** The rectangle covered, [xMin, yMin, xMax, yMax] (m). */
  readonly bounds: readonly [number, number, number, number];
  /** Height of the flat surface around the map (m). */
  readonly base: number;
  /** Angle of repose (rad). */
  readonly repose: number;
  /** No cell is higher than this (m): an upper bound kept for culling. */
  maxHeight: number;
  /** Volume pushed past the map's edge (m³). */
  lost = 0;
  /** Per cell: the surface heights are measured from (m). */
  readonly #h: Float64Array;
  /** Per cell: the most height the body occupying it has taken up (m), 0 when free. */
  readonly #fill: Float64Array;
  /** Per cell: the step it was last stamped in. */
  readonly #stamp: Int32Array;
  /** Per cell: the lowest and highest stamps of this step, and the lowest's velocity. */
  readonly #low: Float64Array;
  readonly #high: Float64Array;
  readonly #vel: Float64Array;
  /** Cells stamped this step, and those occupied after the last. */
  #occ: Int32Array;
  #nOcc = 0;
  #prev: Int32Array;
  #nPrev = 0;
  #step = 0;
  /** Cells waiting to slump: a ring of one slot per cell, each cell at most once. */
  readonly #queue: Int32Array;
  readonly #queued: Uint8Array;
  #head = 0;
  #tail = 0;
  #waiting = 0;

  /** A flat map at `base` (m) over `options.bounds` (validated here, named `deform.*`). */
  constructor(base: number, options: RftDeformOptions) {
    const w = "World.addRftGround";
    if (options === null || typeof options !== "object" || Array.isArray(options)) {
      throw new TypeError(`${w}: deform (${String(options)}) must be an options object`);
    }
    for (const k of Object.keys(options)) {
      if (k !== "cellSize" && k !== "bounds" && k !== "repose") {
        throw new RangeError(
          `${w}: unknown option "deform.${k}" (valid: cellSize, bounds, repose)`,
        );
      }
    }
    const c = options.cellSize;
    if (typeof c !== "number" || !(c > 0) || !Number.isFinite(c)) {
      throw new RangeError(`${w}: deform.cellSize (${String(c)}) must be a finite number > 0 (m)`);
    }
    const b = options.bounds;
    if (
      !Array.isArray(b) || b.length !== 4 ||
      !b.every((v) => typeof v === "number" && Number.isFinite(v))
    ) {
      throw new TypeError(
        `${w}: deform.bounds (${
          String(b)
        }) must be four finite numbers [xMin, yMin, xMax, yMax] (m)`,
      );
    }
    if (!(b[2] > b[0]) || !(b[3] > b[1])) {
      throw new RangeError(
        `${w}: deform.bounds (${b.join(", ")}) must have xMax > xMin and yMax > yMin`,
      );
    }
    const nx = Math.ceil((b[2] - b[0]) / c - 1e-9), ny = Math.ceil((b[3] - b[1]) / c - 1e-9);
    if (nx * ny > 1 << 24) {
      throw new RangeError(
        `${w}: deform.bounds / deform.cellSize give ${nx} × ${ny} cells (at most 2²⁴)`,
      );
    }
    const repose = options.repose ?? 0.5;
    if (typeof repose !== "number" || !(repose > 0 && repose < Math.PI / 2)) {
      throw new RangeError(`${w}: deform.repose (${String(repose)}) must be in (0, π/2) (rad)`);
    }
    this.nx = nx, this.ny = ny, this.cellSize = c, this.base = base, this.repose = repose;
    this.bounds = [b[0], b[1], b[0] + nx * c, b[1] + ny * c];
    this.maxHeight = base;
    const n = nx * ny;
    this.#h = new Float64Array(n).fill(base);
    this.#fill = new Float64Array(n);
    this.#stamp = new Int32Array(n).fill(-1);
    this.#low = new Float64Array(n);
    this.#high = new Float64Array(n);
    this.#vel = new Float64Array(3 * n);
    this.#queue = new Int32Array(n);
    this.#queued = new Uint8Array(n);
    this.#occ = new Int32Array(64);
    this.#prev = new Int32Array(64);
  }

  /** Height of cell (i, j)'s grains (m), less the room a body occupying it takes up there. */
  cellHeight(i: number, j: number): number {
    const c = i + this.nx * j;
    return this.#h[c] - this.#fill[c];
  }

  /** The grains' heights (m), cell (i, j) at `i + nx·j` (a copy). */
  heights(): Float64Array {
    const out = new Float64Array(this.nx * this.ny);
    for (let c = 0; c < out.length; c++) out[c] = this.#h[c] - this.#fill[c];
    return out;
  }

  /** Volume of the grains above the base height over the map (m³); negative for a net hole. */
  get volume(): number {
    let s = 0;
    for (let c = 0; c < this.#h.length; c++) s += this.#h[c] - this.#fill[c] - this.base;
    return s * this.cellSize * this.cellSize;
  }

  /** The surface that depths at (x, y) are measured from (m), bilinear between cell centres. */
  heightAt(x: number, y: number): number {
    const c = this.cellSize, u = (x - this.bounds[0]) / c - 0.5, v = (y - this.bounds[1]) / c - 0.5;
    const i = Math.floor(u), j = Math.floor(v);
    if (!(i >= -1 && j >= -1 && i < this.nx && j < this.ny)) return this.base;
    const fu = u - i, fv = v - j;
    return (1 - fv) * ((1 - fu) * this.#at(i, j) + fu * this.#at(i + 1, j)) +
      fv * ((1 - fu) * this.#at(i, j + 1) + fu * this.#at(i + 1, j + 1));
  }

  #at(i: number, j: number): number {
    return i >= 0 && j >= 0 && i < this.nx && j < this.ny ? this.#h[i + this.nx * j] : this.base;
  }

  /** Start a step's stamps. */
  begin(): void {
    this.#step++;
    this.#nOcc = 0;
  }

  /**
   * Stamp the cells under an element at (x, y, z) (m) whose footprint reaches `hx`, `hy`, `hz`
   * (m) to either side, moving at (vx, vy, vz) (m/s).
   */
  stamp(
    x: number,
    y: number,
    z: number,
    hx: number,
    hy: number,
    hz: number,
    vx: number,
    vy: number,
    vz: number,
  ): void {
    const c = this.cellSize, x0 = this.bounds[0], y0 = this.bounds[1];
    const i0 = Math.max(0, Math.floor((x - hx - x0) / c));
    const i1 = Math.min(this.nx - 1, Math.floor((x + hx - x0) / c));
    const j0 = Math.max(0, Math.floor((y - hy - y0) / c));
    const j1 = Math.min(this.ny - 1, Math.floor((y + hy - y0) / c));
    const st = this.#stamp, low = this.#low, high = this.#high, vel = this.#vel;
    const step = this.#step, zl = z - hz, zh = z + hz;
    for (let j = j0; j <= j1; j++) {
      for (let i = i0; i <= i1; i++) {
        const k = i + this.nx * j;
        if (st[k] !== step) {
          st[k] = step;
          if (this.#nOcc === this.#occ.length) this.#occ = grow(this.#occ);
          this.#occ[this.#nOcc++] = k;
          high[k] = zh;
        } else {
          if (zh > high[k]) high[k] = zh;
          if (!(zl < low[k])) continue;
        }
        low[k] = zl, vel[3 * k] = vx, vel[3 * k + 1] = vy, vel[3 * k + 2] = vz;
      }
    }
  }

  /** End a step: displace, release and slump (see the module notes). */
  end(): void {
    const h = this.#h, fill = this.#fill, st = this.#stamp, step = this.#step;
    // the cells the bodies left drop to the ruts
    for (let n = 0; n < this.#nPrev; n++) {
      const k = this.#prev[n];
      if (st[k] === step) continue;
      if (fill[k] > 0) h[k] -= fill[k], this.#touch(k);
      fill[k] = 0;
    }
    // displacement, in the order the cells were first stamped
    const low = this.#low, high = this.#high, vel = this.#vel;
    for (let n = 0; n < this.#nOcc; n++) {
      const k = this.#occ[n], taken = Math.min(high[k], h[k]) - low[k];
      if (!(taken > fill[k])) continue;
      const dv = taken - fill[k];
      fill[k] = taken;
      const vx = vel[3 * k], vy = vel[3 * k + 1], q = 0.25 * Math.abs(vel[3 * k + 2]);
      const px = Math.max(vx, 0) + q, mx = Math.max(-vx, 0) + q;
      const py = Math.max(vy, 0) + q, my = Math.max(-vy, 0) + q;
      const sum = px + mx + py + my;
      if (sum > 0) {
        this.#carry(k, 1, 0, (dv * px) / sum);
        this.#carry(k, -1, 0, (dv * mx) / sum);
        this.#carry(k, 0, 1, (dv * py) / sum);
        this.#carry(k, 0, -1, (dv * my) / sum);
      } else {
        this.#carry(k, 1, 0, 0.25 * dv);
        this.#carry(k, -1, 0, 0.25 * dv);
        this.#carry(k, 0, 1, 0.25 * dv);
        this.#carry(k, 0, -1, 0.25 * dv);
      }
    }
    this.#slump();
    // this step's cells are the next step's occupied ones
    const t = this.#prev;
    this.#prev = this.#occ, this.#nPrev = this.#nOcc;
    this.#occ = t.length >= this.#prev.length ? t : new Int32Array(this.#prev.length);
  }

  /** Carry a height `dh` (m) from cell k along (di, dj) to the first free cell. */
  #carry(k: number, di: number, dj: number, dh: number): void {
    if (!(dh > 0)) return;
    let i = k % this.nx, j = (k - i) / this.nx;
    const st = this.#stamp, step = this.#step;
    for (;;) {
      i += di, j += dj;
      if (i < 0 || j < 0 || i >= this.nx || j >= this.ny) {
        this.lost += dh * this.cellSize * this.cellSize;
        return;
      }
      const c = i + this.nx * j;
      if (st[c] === step) continue;
      this.#h[c] += dh;
      if (this.#h[c] > this.maxHeight) this.maxHeight = this.#h[c];
      this.#touch(c);
      return;
    }
  }

  /** Queue free cell k for slumping (once). */
  #touch(k: number): void {
    if (this.#queued[k] === 1 || this.#stamp[k] === this.#step) return;
    this.#queued[k] = 1;
    this.#queue[this.#tail] = k;
    this.#tail = this.#tail + 1 === this.#queue.length ? 0 : this.#tail + 1;
    this.#waiting++;
  }

  /**
   * Slump the queued cells: each gives to or takes from its free neighbours until no step
   * between them exceeds repose (by more than the tolerance); a cell that moved queues its
   * neighbours and itself again. At most {@link MAX_MOVES} cell visits per step.
   */
  #slump(): void {
    const h = this.#h, st = this.#stamp, step = this.#step, nx = this.nx, ny = this.ny;
    const lim = Math.tan(this.repose) * this.cellSize, tol = 1e-3 * this.cellSize;
    const queue = this.#queue, queued = this.#queued;
    for (let visits = 0; this.#waiting > 0 && visits < MAX_MOVES; visits++) {
      const k = queue[this.#head];
      this.#head = this.#head + 1 === queue.length ? 0 : this.#head + 1;
      this.#waiting--;
      queued[k] = 0;
      if (st[k] === step) continue; // a body came since it was queued: it holds the cell
      const i = k % nx, j = (k - i) / nx;
      let moved = false;
      for (let d = 0; d < 4; d++) {
        const ii = d === 0 ? i + 1 : d === 1 ? i - 1 : i;
        const jj = d === 2 ? j + 1 : d === 3 ? j - 1 : j;
        if (ii < 0 || jj < 0 || ii >= nx || jj >= ny) continue;
        const c = ii + nx * jj;
        if (st[c] === step) continue;
        const diff = h[k] - h[c];
        const excess = Math.abs(diff) - lim;
        if (!(excess > tol)) continue;
        const t = diff > 0 ? 0.5 * excess : -0.5 * excess;
        h[k] -= t, h[c] += t;
        this.#touch(c);
        moved = true;
      }
      if (moved) this.#touch(k);
    }
    // what the cap left waiting slumps at the next step
  }
}

function grow(a: Int32Array): Int32Array {
  const b = new Int32Array(2 * a.length);
  b.set(a);
  return b;
}
