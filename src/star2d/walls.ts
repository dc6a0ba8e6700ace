/**
 * Walls and containers for the 2D systems: half-planes, boxes (four half-planes), thick line
 * segments (capsules, for hoppers and lifters) and rotating drums, each with its own friction,
 * optionally spinning about a pivot. Grains touch a wall where their boundary nodes (star
 * grains) or disks (disks, clumps) cross its surface; a wall's distance is exact, which is what
 * the first-order distance f/‖∇f‖ gives for a plane.
 *
 * @module
 */

import { bool, finite, nonNegative, options as checkOptions, positive } from "../math/validate.ts";
import { flag } from "./options.ts";

const PLANE = 0, SEGMENT = 1, DRUM = 2;

/** A required options object: `undefined` and `null` throw a TypeError, unknown keys a RangeError. */
function required<T extends object>(where: string, value: T, keys: readonly string[]): T {
  if (value === undefined) {
    throw new TypeError(`${where}: options (undefined) must be an options object`);
  }
  return checkOptions<T>(where, "options", value, keys);
}

/** Options common to every wall. */
export interface WallCommonOptions {
  /** Friction coefficient grain–wall (dimensionless). @default 0.5 */
  friction?: number;
}

/** A half-plane: grains live on the side the normal points to. */
export interface PlaneOptions extends WallCommonOptions {
  /** A point of the wall surface (m). */
  point: readonly [number, number];
  /** Normal pointing into the free side (any length > 0). */
  normal: readonly [number, number];
}

/** A thick line segment (a capsule of diameter `thickness`), touched from both sides. */
export interface SegmentOptions extends WallCommonOptions {
  /** First end (m). */
  from: readonly [number, number];
  /** Second end (m). */
  to: readonly [number, number];
  /** Full thickness (m). @default 0.002 */
  thickness?: number;
  /** Spin about `pivot` at `omega` (rad/s, counter-clockwise). @default 0 */
  omega?: number;
  /** Pivot of the spin (m). @default [0, 0] */
  pivot?: readonly [number, number];
}

/** A rotating drum: grains live inside a circle turning at `omega` about its centre. */
export interface DrumOptions extends WallCommonOptions {
  /** Centre (m). */
  centre: readonly [number, number];
  /** Inner radius (m). */
  radius: number;
  /** Angular speed (rad/s, counter-clockwise). @default 0 */
  omega?: number;
}

/** An axis-aligned box container built from half-planes. */
export interface BoxOptions extends WallCommonOptions {
  /** Lower-left corner (m). */
  min: readonly [number, number];
  /** Upper-right corner (m). */
  max: readonly [number, number];
  /** Leave the top open. @default true */
  openTop?: boolean;
}

/**
 * The walls of a system. Geometry is kept in flat arrays so that the hot loop reads it
 * without objects; `signedDistance` writes the surface normal into `nx`, `ny`.
 *
 * @example
 * ```ts
 * import { Walls } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const w = new Walls();
 * const floor = w.addPlane({ point: [0, 0], normal: [0, 1] });
 * expect(w.signedDistance(floor, 3, 0.25)).toBe(0.25);
 * expect(w.ny).toBe(1);
 * ```
 */
export class Walls {
  /** Number of walls (enabled or not). */
  count = 0;
  /** Wall kind per wall: 0 plane, 1 segment, 2 drum. */
  kind: Int8Array = new Int8Array(8);
  /** 1 when the wall takes part in contacts. */
  enabled: Uint8Array = new Uint8Array(8);
  /** Friction coefficient per wall. */
  friction: Float64Array = new Float64Array(8);
  /** Angular speed per wall (rad/s). */
  omega: Float64Array = new Float64Array(8);
  /** Geometry, stride 8: plane (px, py, nx, ny); segment (ax, ay, bx, by, h, pivx, pivy, -); drum (cx, cy, R). */
  geom: Float64Array = new Float64Array(64);
  /** Initial geometry of spinning segments (ax, ay, bx, by), stride 4. */
  base: Float64Array = new Float64Array(32);
  /** Accumulated spin angle per wall (rad). */
  spin: Float64Array = new Float64Array(8);
  /** Normal x written by {@linkcode Walls.signedDistance} (points into the free side). */
  nx = 0;
  /** Normal y written by {@linkcode Walls.signedDistance}. */
  ny = 0;
  /**
   * Scratch of {@linkcode Walls.probe}: [0] signed distance (m), [1..2] unit normal, [3..4]
   * the query point read by `probeAt`.
   */
  readonly res: Float64Array = new Float64Array(5);

  #push(where: string, kind: number, friction: number | undefined, omega: number): number {
    const mu = nonNegative(where, "friction", friction ?? 0.5);
    finite(where, "omega", omega);
    if (this.count === this.kind.length) {
      const n = 2 * this.count;
      const g = (a: Float64Array, s: number) => {
        const b = new Float64Array(n * s);
        b.set(a);
        return b;
      };
      const k = new Int8Array(n), e = new Uint8Array(n);
      k.set(this.kind);
      e.set(this.enabled);
      this.kind = k;
      this.enabled = e;
      this.friction = g(this.friction, 1);
      this.omega = g(this.omega, 1);
      this.spin = g(this.spin, 1);
      this.geom = g(this.geom, 8);
      this.base = g(this.base, 4);
    }
    const w = this.count++;
    this.kind[w] = kind;
    this.enabled[w] = 1;
    this.friction[w] = mu;
    this.omega[w] = omega;
    return w;
  }

  /** Throw unless `w` is the index of a wall. */
  #wall(where: string, w: number): void {
    if (!(Number.isInteger(w) && w >= 0 && w < this.count)) {
      throw new RangeError(`${where}: w (${w}) must be a wall index in [0, ${this.count})`);
    }
  }

  /**
   * Add a half-plane; returns its index.
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * expect(w.addPlane({ point: [0, 0.01], normal: [0, 2], friction: 0.3 })).toBe(0);
   * ```
   */
  addPlane(options: PlaneOptions): number {
    required("Walls.addPlane", options, ["point", "normal", "friction"]);
    const [px, py] = vec("Walls.addPlane: point", options.point);
    const [nx, ny] = vec("Walls.addPlane: normal", options.normal);
    const n = Math.sqrt(nx * nx + ny * ny);
    if (!(n > 0)) {
      throw new RangeError(`Walls.addPlane: normal ([${nx}, ${ny}]) must have length > 0`);
    }
    const w = this.#push("Walls.addPlane", PLANE, options.friction, 0);
    this.geom.set([px, py, nx / n, ny / n], 8 * w);
    return w;
  }

  /**
   * Add a thick segment; returns its index. Throws for a zero-length segment.
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * const s = w.addSegment({ from: [0, 0], to: [1, 0], thickness: 0.02 });
   * expect(w.signedDistance(s, 0.5, 0.11)).toBeCloseTo(0.1, 12);
   * ```
   */
  addSegment(options: SegmentOptions): number {
    required("Walls.addSegment", options, [
      "from",
      "to",
      "thickness",
      "omega",
      "pivot",
      "friction",
    ]);
    const [ax, ay] = vec("Walls.addSegment: from", options.from);
    const [bx, by] = vec("Walls.addSegment: to", options.to);
    const len = Math.sqrt((bx - ax) ** 2 + (by - ay) ** 2);
    if (!(len > 0)) {
      throw new RangeError(
        `Walls.addSegment: segment length (${len}) from [${ax}, ${ay}] to [${bx}, ${by}] must be > 0`,
      );
    }
    const t = positive("Walls.addSegment", "thickness", options.thickness ?? 0.002);
    const [qx, qy] = vec("Walls.addSegment: pivot", options.pivot ?? [0, 0]);
    const w = this.#push("Walls.addSegment", SEGMENT, options.friction, options.omega ?? 0);
    this.geom.set([ax, ay, bx, by, t / 2, qx, qy, 0], 8 * w);
    this.base.set([ax, ay, bx, by], 4 * w);
    return w;
  }

  /**
   * Add a rotating drum (grains inside); returns its index.
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * const d = w.addDrum({ centre: [0, 0], radius: 1, omega: 2 });
   * expect(w.signedDistance(d, 0.5, 0)).toBe(0.5);
   * expect(w.nx).toBe(-1);
   * ```
   */
  addDrum(options: DrumOptions): number {
    required("Walls.addDrum", options, ["centre", "radius", "omega", "friction"]);
    const [cx, cy] = vec("Walls.addDrum: centre", options.centre);
    const r = positive("Walls.addDrum", "radius", options.radius);
    const w = this.#push("Walls.addDrum", DRUM, options.friction, options.omega ?? 0);
    this.geom.set([cx, cy, r, 0, 0, cx, cy, 0], 8 * w);
    return w;
  }

  /**
   * Add a box container (floor and two sides, plus a lid unless `openTop`); returns the
   * indices of its half-planes.
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * expect(w.addBox({ min: [0, 0], max: [1, 1] })).toHaveLength(3);
   * ```
   */
  addBox(options: BoxOptions): number[] {
    required("Walls.addBox", options, ["min", "max", "openTop", "friction"]);
    const closed = !bool("Walls.addBox", "openTop", options.openTop, true);
    const [x0, y0] = vec("Walls.addBox: min", options.min);
    const [x1, y1] = vec("Walls.addBox: max", options.max);
    if (!(x1 > x0 && y1 > y0)) {
      throw new RangeError(
        `Walls.addBox: max ([${x1}, ${y1}]) must exceed min ([${x0}, ${y0}]) on both axes`,
      );
    }
    const f = options.friction;
    const out = [
      this.addPlane({ point: [x0, y0], normal: [0, 1], friction: f }),
      this.addPlane({ point: [x0, y0], normal: [1, 0], friction: f }),
      this.addPlane({ point: [x1, y0], normal: [-1, 0], friction: f }),
    ];
    if (closed) {
      out.push(this.addPlane({ point: [x0, y1], normal: [0, -1], friction: f }));
    }
    return out;
  }

  /**
   * Enable or disable a wall (e.g. remove the gates of a column collapse).
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * const g = w.addPlane({ point: [0, 0], normal: [1, 0] });
   * w.setEnabled(g, false);
   * expect(w.enabled[g]).toBe(0);
   * ```
   */
  setEnabled(wall: number, on: boolean): void {
    if (!(Number.isInteger(wall) && wall >= 0 && wall < this.count)) {
      throw new RangeError(`Walls.setEnabled: wall (${wall}) must be in [0, ${this.count})`);
    }
    this.enabled[wall] = flag("Walls.setEnabled", "on", on) ? 1 : 0;
  }

  /**
   * Signed distance (m) from (x, y) to wall `w`: positive on the free side. Also writes the
   * unit normal pointing into the free side into `nx`, `ny`.
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * w.addPlane({ point: [0, 1], normal: [0, -1] });
   * expect(w.signedDistance(0, 0, 0.5)).toBe(0.5);
   * expect(w.ny).toBe(-1);
   * ```
   */
  signedDistance(w: number, x: number, y: number): number {
    this.#wall("Walls.signedDistance", w);
    this.probe(w, x, y);
    this.nx = this.res[1];
    this.ny = this.res[2];
    return this.res[0];
  }

  /**
   * Allocation-free form of {@linkcode Walls.signedDistance} for hot loops: writes the signed
   * distance and the unit normal into `res[0..2]`.
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * w.addDrum({ centre: [0, 0], radius: 1 });
   * w.probe(0, 0.25, 0);
   * expect(w.res[0]).toBe(0.75);
   * expect(w.res[1]).toBe(-1);
   * ```
   */
  probe(w: number, x: number, y: number): void {
    this.#wall("Walls.probe", w);
    this.res[3] = x;
    this.res[4] = y;
    this.probeAt(w);
  }

  /** {@linkcode Walls.probe} at the point `res[3..4]` (no double crosses a call boundary). */
  probeAt(w: number): void {
    const g = this.geom, o = 8 * w, res = this.res;
    const x = res[3], y = res[4];
    const k = this.kind[w];
    if (k === PLANE) {
      const nx = g[o + 2], ny = g[o + 3];
      res[0] = (x - g[o]) * nx + (y - g[o + 1]) * ny;
      res[1] = nx;
      res[2] = ny;
      return;
    }
    if (k === SEGMENT) {
      const ax = g[o], ay = g[o + 1], ex = g[o + 2] - ax, ey = g[o + 3] - ay;
      let t = ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey);
      t = t < 0 ? 0 : t > 1 ? 1 : t;
      const dx = x - ax - t * ex, dy = y - ay - t * ey;
      const d = Math.sqrt(dx * dx + dy * dy);
      if (d > 0) {
        res[1] = dx / d;
        res[2] = dy / d;
      } else {
        const l = Math.sqrt(ex * ex + ey * ey);
        res[1] = -ey / l;
        res[2] = ex / l;
      }
      res[0] = d - g[o + 4];
      return;
    }
    const dx = g[o] - x, dy = g[o + 1] - y;
    const d = Math.sqrt(dx * dx + dy * dy);
    if (d > 0) {
      res[1] = dx / d;
      res[2] = dy / d;
    } else {
      res[1] = 1;
      res[2] = 0;
    }
    res[0] = g[o + 2] - d;
  }

  /**
   * Velocity x of wall `w`'s surface at (x, y) (m/s).
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * const d = w.addDrum({ centre: [0, 0], radius: 1, omega: 2 });
   * expect(w.velocityX(d, 0, 1)).toBe(-2);
   * expect(w.velocityY(d, 1, 0)).toBe(2);
   * ```
   */
  velocityX(w: number, _x: number, y: number): number {
    this.#wall("Walls.velocityX", w);
    const om = this.omega[w];
    return om === 0 ? 0 : -om * (y - this.geom[8 * w + 6]);
  }

  /**
   * Velocity y of wall `w`'s surface at (x, y) (m/s).
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * expect(w.velocityY(w.addPlane({ point: [0, 0], normal: [0, 1] }), 1, 0)).toBe(0);
   * ```
   */
  velocityY(w: number, x: number, _y: number): number {
    this.#wall("Walls.velocityY", w);
    const om = this.omega[w];
    return om === 0 ? 0 : om * (x - this.geom[8 * w + 5]);
  }

  /**
   * Advance spinning walls by `dt` (s): segments rotate about their pivot; a drum's surface
   * moves but its geometry does not change.
   *
   * @example
   * ```ts
   * import { Walls } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const w = new Walls();
   * const s = w.addSegment({ from: [1, 0], to: [2, 0], omega: Math.PI / 2 });
   * w.advance(1);
   * expect(w.geom[0]).toBeCloseTo(0, 12);
   * expect(w.geom[1]).toBeCloseTo(1, 12);
   * expect(s).toBe(0);
   * ```
   */
  advance(dt: number): void {
    nonNegative("Walls.advance", "dt", dt);
    for (let w = 0; w < this.count; w++) {
      const om = this.omega[w];
      if (om === 0) continue;
      this.spin[w] += om * dt;
      if (this.kind[w] !== SEGMENT) continue;
      const o = 8 * w, b = 4 * w, g = this.geom;
      const c = Math.cos(this.spin[w]), s = Math.sin(this.spin[w]);
      const px = g[o + 5], py = g[o + 6];
      for (let e = 0; e < 2; e++) {
        const x = this.base[b + 2 * e] - px, y = this.base[b + 2 * e + 1] - py;
        g[o + 2 * e] = px + c * x - s * y;
        g[o + 2 * e + 1] = py + s * x + c * y;
      }
    }
  }
}

function vec(name: string, v: readonly [number, number] | undefined): [number, number] {
  if (!v || v.length !== 2 || !Number.isFinite(v[0]) || !Number.isFinite(v[1])) {
    throw new RangeError(`${name} (${v}) must be two finite numbers`);
  }
  return [v[0], v[1]];
}
