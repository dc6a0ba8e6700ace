/**
 * The {@link walls} mark: star2d's walls — planes as lines across the plot's frame, thick
 * segments at their true thickness, drums as circles — snapshotted when created.
 *
 * @module
 */

import type { DomElement } from "../dom.ts";
import { px } from "../panel.ts";
import { clipLine, DRUM, PLANE, SEGMENT, wallExtent, type WallsLike, wallsOf } from "../walls.ts";
import {
  append,
  checkFinite,
  circleOrEllipse,
  create,
  fin,
  GrainlabMark,
  type MarkDraw,
  scalesXY,
  svgLine,
} from "./common.ts";
import type { PlotMark } from "./types.ts";
import { plotOptions } from "../options.ts";

/** Options of {@link walls}. */
export interface WallsOptions {
  /** Colour of the walls. @default "#555" */
  stroke?: string;
  /** Width of planes and drums (px). @default 2 */
  strokeWidth?: number;
  /** Thinnest drawn segment (px); segments are drawn at their true thickness. @default 1.5 */
  minThickness?: number;
}

/**
 * The mark {@link walls} returns: the enabled walls, snapshotted. Channels `x1`, `x2`, `y1`,
 * `y2` give their extents (a plane only constrains the axis it faces).
 *
 * @example
 * ```ts
 * import { walls } from "./walls.ts";
 * import { expect } from "expect";
 * const floor = { count: 2, kind: [0, 0], enabled: [1, 0], geom: new Array(16).fill(0).fill(1, 3, 4) };
 * expect(walls(floor).count).toBe(1); // the disabled wall is left out
 * ```
 */
export interface WallsMark extends PlotMark {
  /** Number of enabled walls drawn. */
  readonly count: number;
}

/** The implementation of {@link WallsMark}. */
class WallsLayer extends GrainlabMark implements WallsMark {
  readonly count: number;
  #kind: Int8Array;
  #geom: Float64Array;
  #options: WallsOptions;

  constructor(source: WallsLike | { walls: WallsLike }, options: WallsOptions = {}) {
    const where = "walls";
    const w = wallsOf(source) ?? wallsOf({ walls: source });
    if (!w) {
      throw new TypeError(`${where}: source must be star2d Walls or a system with walls`);
    }
    const idx: number[] = [];
    for (let k = 0; k < w.count; k++) if (w.enabled[k]) idx.push(k);
    const m = idx.length;
    const kind = new Int8Array(m), geom = new Float64Array(8 * m);
    const x1 = new Float64Array(m).fill(NaN), x2 = new Float64Array(m).fill(NaN);
    const y1 = new Float64Array(m).fill(NaN), y2 = new Float64Array(m).fill(NaN);
    for (let q = 0; q < m; q++) {
      const k = idx[q], o = 8 * q;
      kind[q] = w.kind[k];
      for (let v = 0; v < 8; v++) geom[o + v] = w.geom[8 * k + v];
      const n = kind[q] === PLANE ? 4 : kind[q] === SEGMENT ? 5 : 3;
      checkFinite(where, `geometry of wall ${k}`, geom.subarray(o, o + 8), n);
      // a plane only constrains the axis it faces; the other extent stays NaN
      const e = wallExtent(kind[q], geom, o);
      if (e.x) [x1[q], x2[q]] = e.x;
      if (e.y) [y1[q], y2[q]] = e.y;
    }
    super(m, {
      x1: { value: x1, scale: "x", filter: null },
      x2: { value: x2, scale: "x", filter: null },
      y1: { value: y1, scale: "y", filter: null },
      y2: { value: y2, scale: "y", filter: null },
    });
    this.count = m;
    this.#kind = kind;
    this.#geom = geom;
    this.#options = options;
  }

  /** Draws the walls (called by `Plot.plot`). */
  protected draw({ index, scales, dimensions, doc }: MarkDraw): DomElement {
    const { sx, sy } = scalesXY("walls", scales);
    const o = this.#options;
    const color = o.stroke ?? "#555", sw = o.strokeWidth ?? 2, minT = o.minThickness ?? 1.5;
    const g = create(doc, "g", { "aria-label": "walls", fill: "none" });
    const d = dimensions;
    const frame = {
      x: [d.marginLeft, d.width - d.marginRight] as [number, number],
      y: [d.marginTop, d.height - d.marginBottom] as [number, number],
    };
    // drops lines with a non-finite end (a plane line clipped from bad input) or width
    const line = (x1: number, y1: number, x2: number, y2: number, width: number, cap = false) => {
      if (![x1, y1, x2, y2, width].every(fin)) return;
      const attrs = { stroke: color, "stroke-width": px(width) };
      append(
        g,
        svgLine(doc, x1, y1, x2, y2, cap ? { ...attrs, "stroke-linecap": "round" } : attrs),
      );
    };
    for (const q of index) {
      const G = this.#geom, b = 8 * q;
      const kind = this.#kind[q];
      if (kind === PLANE) {
        // the line through the plane's point along its tangent (−ny, nx), in pixels
        const x0 = sx(G[b]), y0 = sy(G[b + 1]);
        const dx = sx(G[b] - G[b + 3]) - x0, dy = sy(G[b + 1] + G[b + 2]) - y0;
        const seg = clipLine(x0, y0, dx, dy, frame, -Infinity, Infinity);
        if (seg) line(seg[0], seg[1], seg[2], seg[3], sw);
      } else if (kind === SEGMENT) {
        const ax = sx(G[b]), ay = sy(G[b + 1]), bx = sx(G[b + 2]), by = sy(G[b + 3]);
        // half-thickness in pixels, measured along the segment's normal
        const len = Math.hypot(G[b + 2] - G[b], G[b + 3] - G[b + 1]) || 1;
        const nx = -(G[b + 3] - G[b + 1]) / len, ny = (G[b + 2] - G[b]) / len, h = G[b + 4];
        const hp = Math.hypot(sx(G[b] + nx * h) - ax, sy(G[b + 1] + ny * h) - ay);
        line(ax, ay, bx, by, Math.max(minT, 2 * hp), true);
      } else if (kind === DRUM) {
        const cx = sx(G[b]), cy = sy(G[b + 1]);
        const rx = Math.abs(sx(G[b] + G[b + 2]) - cx), ry = Math.abs(sy(G[b + 1] + G[b + 2]) - cy);
        if (![cx, cy, rx, ry].every(fin)) continue;
        append(
          g,
          circleOrEllipse(doc, cx, cy, rx, ry, 0, {
            stroke: color,
            "stroke-width": sw,
            fill: "none",
          }),
        );
      }
    }
    return g;
  }
}

/**
 * A Plot mark of star2d walls: planes as lines across the plot's frame, thick segments at
 * their true thickness, drums as circles. Planes widen the plot's domain only along the axis
 * they face; segments and drums by their whole extent.
 *
 * @param source star2d `Walls`, or a system with `walls`
 * @param options colour and widths
 * @returns the mark
 * @throws {TypeError} when the source has no walls
 * @throws {RangeError} when a wall's geometry is not finite
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { plotFigure } from "./plot_figure.ts";
 * import { walls } from "./walls.ts";
 * import { expect } from "expect";
 * const box = {
 *   count: 2, kind: [0, 2], enabled: [1, 1],
 *   geom: [0, 0, 0, 1, 0, 0, 0, 0, 0, 1, 1, 0, 0, 0, 1, 0],
 * };
 * const fig = plotFigure({ aspectRatio: 1, marks: [walls(box), Plot.dot([[0, 1]])] });
 * expect(fig.svg).toContain('stroke="#555"');
 * expect(fig.svg.match(/<circle/g)!.length).toBe(2); // the drum and the dot
 * ```
 */
export function walls(
  source: WallsLike | { walls: WallsLike },
  options: WallsOptions = {},
): WallsMark {
  options = plotOptions("walls", options, {
    stroke: "any",
    strokeWidth: "nonNegative",
    minThickness: "nonNegative",
  });
  return new WallsLayer(source, options);
}
