/**
 * Walls of 2D scenes (star2d `Walls`: planes, thick segments, drums): finding them on a
 * source, their extents, fitting a domain around them, and clipping plane lines to a
 * rectangle. The `walls` mark (`marks/walls.ts`) draws them.
 *
 * @module
 */

import { px, type RawLayer } from "./panel.ts";

/** The shape of star2d's `Walls`: flat geometry arrays, stride 8. */
export interface WallsLike {
  /** Number of walls. */
  readonly count: number;
  /** 0 plane, 1 segment, 2 drum. */
  readonly kind: ArrayLike<number>;
  /** 1 when the wall is active. */
  readonly enabled: ArrayLike<number>;
  /** Plane (px, py, nx, ny); segment (ax, ay, bx, by, half-thickness, …); drum (cx, cy, R); stride 8. */
  readonly geom: ArrayLike<number>;
}

/** Plane, segment and drum kinds of star2d's `Walls` (`WallsLike.kind`). */
export const PLANE = 0, SEGMENT = 1, DRUM = 2;

/**
 * The walls of a source, if it has star2d-style walls.
 *
 * @param source anything
 * @returns its walls or undefined
 * @example
 * ```ts
 * import { wallsOf } from "./walls.ts";
 * import { expect } from "expect";
 * const floor = { count: 1, kind: [0], enabled: [1], geom: [0, 0, 0, 1, 0, 0, 0, 0] };
 * expect(wallsOf({ walls: floor })).toBe(floor);
 * expect(wallsOf({})).toBeUndefined();
 * ```
 */
export function wallsOf(source: unknown): WallsLike | undefined {
  const w = (source as { walls?: WallsLike })?.walls;
  if (w && typeof w.count === "number" && w.geom && w.kind && w.enabled) return w;
  return undefined;
}

/**
 * The extent of one wall on each axis (m): a segment's end points widened by its
 * half-thickness, a drum's circle; a plane only has an extent (its point) along the axis it
 * faces (|normal component| > 0.5). An axis without an extent, and an unknown kind, give none.
 *
 * @param kind the wall's kind (`PLANE`, `SEGMENT`, `DRUM`)
 * @param g the walls' geometry, stride 8
 * @param o offset of the wall's geometry in `g`
 * @returns `[lo, hi]` along x and along y, where the wall has one
 */
export function wallExtent(
  kind: number,
  g: ArrayLike<number>,
  o: number,
): { x?: [number, number]; y?: [number, number] } {
  if (kind === PLANE) {
    const e: { x?: [number, number]; y?: [number, number] } = {};
    if (Math.abs(g[o + 2]) > 0.5) e.x = [g[o], g[o]];
    if (Math.abs(g[o + 3]) > 0.5) e.y = [g[o + 1], g[o + 1]];
    return e;
  }
  if (kind === SEGMENT) {
    const h = g[o + 4]; // half the thickness
    return {
      x: [Math.min(g[o], g[o + 2]) - h, Math.max(g[o], g[o + 2]) + h],
      y: [Math.min(g[o + 1], g[o + 3]) - h, Math.max(g[o + 1], g[o + 3]) + h],
    };
  }
  if (kind === DRUM) {
    return {
      x: [g[o] - g[o + 2], g[o] + g[o + 2]],
      y: [g[o + 1] - g[o + 2], g[o + 1] + g[o + 2]],
    };
  }
  return {};
}

/**
 * Grows a domain to include the finite walls (segments, drums) and the lines of planes.
 *
 * @param walls the walls
 * @param dom the domain to grow
 * @returns the grown domain
 * @example
 * ```ts
 * import { withWalls } from "./walls.ts";
 * import { expect } from "expect";
 * const drum = { count: 1, kind: [2], enabled: [1], geom: [0, 0, 1, 0, 0, 0, 0, 0] };
 * const dom = withWalls(drum, { x: [-0.5, 0.5], y: [-0.5, 0.5] });
 * expect(dom.x[0]).toBeCloseTo(-1.04, 12); // the drum (radius 1) plus 2 % padding
 * expect(dom.y[1]).toBeCloseTo(1.04, 12);
 * ```
 */
export function withWalls(
  walls: WallsLike | undefined,
  dom: { x: [number, number]; y: [number, number] },
): { x: [number, number]; y: [number, number] } {
  if (!walls) return dom;
  let [x0, x1] = dom.x, [y0, y1] = dom.y;
  for (let w = 0; w < walls.count; w++) {
    if (!walls.enabled[w]) continue;
    const e = wallExtent(walls.kind[w], walls.geom, 8 * w);
    if (e.x) [x0, x1] = [Math.min(x0, e.x[0]), Math.max(x1, e.x[1])];
    if (e.y) [y0, y1] = [Math.min(y0, e.y[0]), Math.max(y1, e.y[1])];
  }
  const pad = 0.02 * Math.max(x1 - x0, y1 - y0);
  return { x: [x0 - pad, x1 + pad], y: [y0 - pad, y1 + pad] };
}

/**
 * A raw layer drawing the enabled walls in dark grey: planes as lines across the domain,
 * segments at their thickness, drums as circles. Prefer the `walls` mark, which
 * combines with any Plot chart.
 *
 * @param walls the walls
 * @param dom the panel's domain (planes are clipped to it)
 * @returns the layer
 * @example
 * ```ts
 * import { wallsLayer } from "./walls.ts";
 * const floor = { count: 1, kind: [0], enabled: [1], geom: [0, 0, 0, 1, 0, 0, 0, 0] };
 * import { expect } from "expect";
 * const svg = wallsLayer(floor, { x: [-1, 1], y: [-1, 1] }).raw((x) => x, (y) => -y, 1);
 * expect(svg).toBe('<line x1="1" y1="0" x2="-1" y2="0" stroke="#555" stroke-width="2"/>'); // across the domain
 * ```
 */
export function wallsLayer(
  walls: WallsLike,
  dom: { x: [number, number]; y: [number, number] },
): RawLayer {
  return {
    raw(sx, sy, k) {
      const g = walls.geom, out: string[] = [];
      const span = 2 * Math.hypot(dom.x[1] - dom.x[0], dom.y[1] - dom.y[0]);
      for (let w = 0; w < walls.count; w++) {
        if (!walls.enabled[w]) continue;
        const o = 8 * w;
        if (walls.kind[w] === PLANE) {
          // the line through (px, py) along the tangent (−ny, nx), clipped to the domain
          const tx = -g[o + 3], ty = g[o + 2];
          const x0 = g[o] - span * tx, y0 = g[o + 1] - span * ty;
          const seg = clipLine(x0, y0, g[o] + span * tx - x0, g[o + 1] + span * ty - y0, dom, 0, 1);
          if (!seg) continue;
          out.push(
            `<line x1="${px(sx(seg[0]))}" y1="${px(sy(seg[1]))}" x2="${px(sx(seg[2]))}" y2="${
              px(sy(seg[3]))
            }" stroke="#555" stroke-width="2"/>`,
          );
        } else if (walls.kind[w] === SEGMENT) {
          out.push(
            `<line x1="${px(sx(g[o]))}" y1="${px(sy(g[o + 1]))}" x2="${px(sx(g[o + 2]))}" y2="${
              px(sy(g[o + 3]))
            }" stroke="#555" stroke-width="${
              px(Math.max(1.5, 2 * g[o + 4] * k))
            }" stroke-linecap="round"/>`,
          );
        } else if (walls.kind[w] === DRUM) {
          out.push(
            `<circle cx="${px(sx(g[o]))}" cy="${px(sy(g[o + 1]))}" r="${px(g[o + 2] * k)}" ` +
              `fill="none" stroke="#555" stroke-width="2"/>`,
          );
        }
      }
      return out.join("");
    },
  };
}

/**
 * Liang–Barsky: the part of the line p + t·d, t in [t0, t1], inside a rectangle. Lines
 * parallel to an edge and outside it miss; so does an empty parameter range. Non-finite input
 * is not checked: it gives non-finite end points (or null), which callers drop or draw as
 * they are.
 *
 * @param x0 point p across
 * @param y0 point p up
 * @param dx direction d across (the whole segment when t runs over [0, 1])
 * @param dy direction d up
 * @param rect the rectangle, `[lo, hi]` on each axis
 * @param t0 start of the parameter range (−Infinity for a line unbounded backwards)
 * @param t1 end of the parameter range (Infinity for a line unbounded forwards)
 * @returns the clipped end points `[x0, y0, x1, y1]`, or null when the line misses
 */
export function clipLine(
  x0: number,
  y0: number,
  dx: number,
  dy: number,
  rect: { x: [number, number]; y: [number, number] },
  t0: number,
  t1: number,
): [number, number, number, number] | null {
  const edges: [number, number][] = [
    [-dx, x0 - rect.x[0]],
    [dx, rect.x[1] - x0],
    [-dy, y0 - rect.y[0]],
    [dy, rect.y[1] - y0],
  ];
  for (const [p, q] of edges) {
    if (p === 0) {
      if (q < 0) return null;
    } else {
      const t = q / p;
      if (p < 0) t0 = Math.max(t0, t);
      else t1 = Math.min(t1, t);
    }
  }
  if (t0 > t1) return null;
  return [x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy];
}
