/**
 * The {@link grains} mark: particles at their true size in data units — discs (2D), spheres
 * seen in projection (3D, nearer over farther) or star outlines (star2d) — filled with a
 * constant colour or by a column through the plot's color scale.
 *
 * @module
 */

import { labelOf, particleColumns, type ParticleSource } from "../source.ts";
import type { DomElement } from "../dom.ts";
import { px } from "../panel.ts";
import {
  append,
  axesOf,
  type ChannelSpec,
  checkColumns,
  checkFinite,
  circleOrEllipse,
  clipToFrame,
  create,
  fin,
  GrainlabMark,
  isCssColor,
  type MarkDraw,
  scalesXY,
  svgLine,
  type ViewName,
} from "./common.ts";
import type { PlotMark } from "./types.ts";
import { plotOptions } from "../options.ts";

/** Options of {@link grains}. */
export interface GrainsOptions {
  /** For 3D sources, the projection; 2D sources always draw x–y. @default "side" */
  view?: ViewName;
  /**
   * Fill: a column of the particles ("speed", "z", "materialId", …; "depth" = the coordinate
   * along the view) mapped through the plot's color scale, a CSS colour, one value per
   * particle, or a function of the particle index. Values that are all CSS colours are drawn
   * as they are; numbers go through the plot's color scale. @default "#4682b4"
   */
  fill?: string | ArrayLike<number | string> | ((i: number) => number | string);
  /** Fill opacity, 0…1. @default 1 */
  fillOpacity?: number;
  /** Outline colour of each grain. @default "#333" */
  stroke?: string;
  /** Outline width (px). @default 0.4 */
  strokeWidth?: number;
  /**
   * Body-frame outline of grain `i` (x, y interleaved, m), rotated by its `angle` and moved to
   * its centre; `undefined` draws a disc. 2D only. @default discs of `radius`
   */
  outline?: (i: number) => ArrayLike<number> | undefined;
  /**
   * World-frame outline of grain `i` (x, y interleaved, m), drawn as is. 2D only.
   * @default `source.outline(i)` when the source is a star2d `StarSystem`
   */
  worldOutline?: (i: number) => ArrayLike<number> | undefined;
  /** Draw star outlines when the source has them; false draws discs. @default true */
  outlines?: boolean;
  /** Draw a line from the centre along the orientation `angle` (2D). @default false */
  orientation?: boolean;
  /** Outlines are drawn with at most this many vertices. @default 50 */
  maxVertices?: number;
  /** Smallest drawn disc radius (px), so that tiny grains stay visible. @default 0.3 */
  minRadius?: number;
  /** Clip the grains to the plot's frame. @default false */
  clip?: boolean;
}

/** Resolves a fill/stroke option into a constant colour or a channel. */
function paint(
  where: string,
  name: string,
  option: string | ArrayLike<number | string> | ((i: number) => number | string) | undefined,
  fallback: string,
  n: number,
  column?: (col: string) => { values: ArrayLike<number>; label: string } | undefined,
): { constant: string } | { channel: ChannelSpec } {
  if (option === undefined) return { constant: fallback };
  if (typeof option === "string") {
    const col = column?.(option);
    if (col) return { channel: { value: col.values, scale: "auto", label: col.label } };
    if (isCssColor(option)) return { constant: option };
    throw new RangeError(
      `${where}: options.${name} is "${option}", which is neither a column nor a CSS colour`,
    );
  }
  if (typeof option === "function") {
    return { channel: { value: Array.from({ length: n }, (_, i) => option(i)), scale: "auto" } };
  }
  if (typeof option === "object" && option !== null && typeof option.length === "number") {
    if (option.length < n) {
      throw new RangeError(
        `${where}: options.${name} has ${option.length} values, need one per item (${n})`,
      );
    }
    return { channel: { value: Array.prototype.slice.call(option, 0, n), scale: "auto" } };
  }
  throw new TypeError(
    `${where}: options.${name} must be a column name, a CSS colour, an array or a function`,
  );
}

/**
 * The mark {@link grains} returns: particles at true size, drawn with the plot's scales.
 * Its data are particle indices; its channels `x`, `y` (centres, m), `x1`, `x2`, `y1`, `y2`
 * (extents, m) and `fill` (when coloured by a column).
 *
 * @example
 * ```ts
 * import { grains } from "./grains.ts";
 * import { expect } from "expect";
 * const m = grains({ count: 1, positions: [0, 0, 0.5], velocities: [0, 0, 0], radii: [0.1] });
 * expect(m.count).toBe(1);
 * expect([m.xColumn, m.yColumn]).toEqual(["x", "z"]); // 3D: the side view by default
 * ```
 */
export interface GrainsMark extends PlotMark {
  /** Number of particles in the mark. */
  readonly count: number;
  /** The column the mark's x axis shows, e.g. "x". */
  readonly xColumn: string;
  /** The column the mark's y axis shows, e.g. "y" or "z". */
  readonly yColumn: string;
}

/** The implementation of {@link GrainsMark}. */
class GrainsLayer extends GrainlabMark implements GrainsMark {
  readonly count: number;
  readonly xColumn: string;
  readonly yColumn: string;
  #radius: Float64Array | undefined;
  #angle: Float64Array | undefined;
  #x: Float64Array;
  #y: Float64Array;
  #rank: Float64Array | undefined;
  #polys: (Float64Array | undefined)[] | undefined;
  #fill: string | undefined;
  #options: GrainsOptions;

  constructor(source: ParticleSource, options: GrainsOptions = {}) {
    const where = "grains";
    const cols = particleColumns(where, source);
    const { a, b, depth, nearLow } = axesOf(where, cols.dim, options.view);
    checkColumns(where, cols, a, b);
    const n = cols.n;
    const X = Float64Array.from(cols.get(a)), Y = Float64Array.from(cols.get(b));
    const R = cols.has("radius") ? Float64Array.from(cols.get("radius")) : undefined;
    const ang = cols.dim === 2 && cols.has("angle")
      ? Float64Array.from(cols.get("angle"))
      : undefined;
    const maxV = options.maxVertices ?? 50;
    if (!(Number.isInteger(maxV) && maxV >= 3)) {
      throw new RangeError(`${where}: options.maxVertices is ${maxV}, must be an integer >= 3`);
    }
    // Outlines, snapshotted now (the system moves on), subsampled to maxVertices.
    let polys: (Float64Array | undefined)[] | undefined;
    if (cols.dim === 2 && options.outlines !== false) {
      const world = options.worldOutline ?? systemOutline(source);
      if (options.outline || world) {
        polys = new Array(n);
        for (let i = 0; i < n; i++) {
          const body = options.outline?.(i);
          const w = body ? undefined : world?.(i);
          const src = body ?? w;
          if (!src || src.length < 6) continue;
          const step = 2 * Math.max(1, Math.ceil(src.length / 2 / maxV));
          const out = new Float64Array(2 * Math.ceil(src.length / step));
          const th = body && ang ? ang[i] : 0, c = Math.cos(th), s = Math.sin(th);
          for (let v = 0, o = 0; v + 1 < src.length; v += step, o += 2) {
            out[o] = body ? X[i] + c * src[v] - s * src[v + 1] : src[v];
            out[o + 1] = body ? Y[i] + s * src[v] + c * src[v + 1] : src[v + 1];
          }
          checkFinite(where, `outline of grain ${i}`, out, out.length);
          polys[i] = out;
        }
      }
    }
    // Extents (for the scales' domains and the radii in pixels).
    const x1 = new Float64Array(n), x2 = new Float64Array(n);
    const y1 = new Float64Array(n), y2 = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const p = polys?.[i];
      if (p) {
        let lx = Infinity, hx = -Infinity, ly = Infinity, hy = -Infinity;
        for (let v = 0; v < p.length; v += 2) {
          lx = Math.min(lx, p[v]);
          hx = Math.max(hx, p[v]);
          ly = Math.min(ly, p[v + 1]);
          hy = Math.max(hy, p[v + 1]);
        }
        [x1[i], x2[i], y1[i], y2[i]] = [lx, hx, ly, hy];
      } else {
        const r = R ? R[i] : 0;
        [x1[i], x2[i], y1[i], y2[i]] = [X[i] - r, X[i] + r, Y[i] - r, Y[i] + r];
      }
    }
    const column = (name: string) => {
      const col = name === "depth" ? depth : name;
      if (name === "depth" && !col) {
        throw new RangeError(`${where}: options.fill "depth" needs a 3D source`);
      }
      if (!col || !cols.has(col)) return undefined;
      const label = name === "depth" ? `depth: ${labelOf(cols, col)}` : labelOf(cols, col);
      return { values: Float64Array.from(cols.get(col)), label };
    };
    const fill = paint(where, "fill", options.fill, "#4682b4", n, column);
    const channels: Record<string, ChannelSpec> = {
      x: { value: X, scale: "x", label: labelOf(cols, a) },
      y: { value: Y, scale: "y", label: labelOf(cols, b) },
      x1: { value: x1, scale: "x", label: labelOf(cols, a) },
      x2: { value: x2, scale: "x", label: labelOf(cols, a) },
      y1: { value: y1, scale: "y", label: labelOf(cols, b) },
      y2: { value: y2, scale: "y", label: labelOf(cols, b) },
    };
    if ("channel" in fill) channels.fill = fill.channel;
    super(n, channels);
    this.count = n;
    this.xColumn = a;
    this.yColumn = b;
    this.#x = X;
    this.#y = Y;
    this.#radius = R;
    this.#angle = ang;
    this.#polys = polys;
    this.#fill = "constant" in fill ? fill.constant : undefined;
    this.#options = options;
    if (depth) {
      // far grains first, so that nearer ones are drawn over them
      const D = cols.get(depth);
      this.#rank = Float64Array.from({ length: n }, (_, i) => (nearLow ? -D[i] : D[i]));
    }
  }

  /** Draws the grains (called by `Plot.plot`). */
  protected draw({ index, scales, values, dimensions, doc }: MarkDraw): DomElement {
    const { sx, sy } = scalesXY("grains", scales);
    const o = this.#options;
    const X = values.x!, Y = values.y!;
    const X1 = values.x1!, X2 = values.x2!, Y1 = values.y1!, Y2 = values.y2!;
    const F = values.fill;
    const stroke = o.stroke ?? "#333", sw = o.strokeWidth ?? 0.4, minR = o.minRadius ?? 0.3;
    const g = create(doc, "g", { "aria-label": "grains", stroke, "stroke-width": sw });
    if (o.fillOpacity !== undefined) g.setAttribute("fill-opacity", String(o.fillOpacity));
    const order = Array.from(index);
    const rank = this.#rank;
    if (rank) order.sort((i, j) => rank[i] - rank[j]);
    for (const i of order) {
      const cx = X[i], cy = Y[i];
      if (!fin(cx) || !fin(cy)) continue;
      const fill = this.#fill ?? (F && F[i] != null ? String(F[i]) : "#bbb");
      const poly = this.#polys?.[i];
      if (poly) {
        let d = "";
        let ok = true;
        for (let v = 0; v < poly.length; v += 2) {
          const u = sx(poly[v]), w = sy(poly[v + 1]);
          if (!fin(u) || !fin(w)) ok = false;
          d += `${v === 0 ? "M" : "L"}${px(u)},${px(w)}`;
        }
        if (ok) append(g, create(doc, "path", { d: d + "Z", fill }));
      } else if (this.#radius) {
        const rx = Math.abs(X2[i] - X1[i]) / 2, ry = Math.abs(Y2[i] - Y1[i]) / 2;
        if (!fin(rx) || !fin(ry)) continue;
        append(g, circleOrEllipse(doc, cx, cy, rx, ry, minR, { fill }));
      } else {
        append(g, create(doc, "circle", { cx: px(cx), cy: px(cy), r: 2, fill }));
      }
      if (o.orientation && this.#angle && this.#radius) {
        const th = this.#angle[i], r = this.#radius[i];
        const u = sx(this.#x[i] + r * Math.cos(th)), w = sy(this.#y[i] + r * Math.sin(th));
        if (fin(u) && fin(w)) {
          append(g, svgLine(doc, cx, cy, u, w, { stroke: "#000", "stroke-width": 0.8 }));
        }
      }
    }
    if (o.clip) clipToFrame(doc, g, dimensions);
    return g;
  }
}

/**
 * A Plot mark of particles at their true size in data units: discs (2D) or spheres seen in
 * projection (3D, nearer over farther), or star outlines for star2d systems; filled with a
 * constant colour or by a column through the plot's color scale. Use it in any `Plot.plot`
 * (render server-side with {@link plotFigure}); `aspectRatio: 1` keeps discs round, otherwise
 * they are drawn as ellipses of their true extent on each axis.
 *
 * @param source a sphere3d or star2d system, or a particles table (`particlesTable`, `readArrow`)
 * @param options view (3D), fill, stroke, outlines, clip
 * @returns the mark
 * @throws {RangeError} when a position or radius is NaN or infinite (naming the column and
 *   index), the view is unknown, or `fill` names neither a column nor a colour
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { grains } from "./grains.ts";
 * import { plotFigure } from "./plot_figure.ts";
 * import { expect } from "expect";
 * const system = { count: 2, dimension: 2, positions: [0, 0, 1, 0], velocities: [0, 0, 1, 0], radii: [0.5, 0.5] };
 * const fig = plotFigure({
 *   aspectRatio: 1,
 *   marks: [grains(system, { fill: "speed" }), Plot.ruleY([0])],
 * });
 * expect(fig.svg.match(/<circle/g)?.length).toBe(2);
 * ```
 */
export function grains(source: ParticleSource, options: GrainsOptions = {}): GrainsMark {
  options = plotOptions("grains", options, {
    view: "any",
    fill: "any",
    fillOpacity: "nonNegative",
    stroke: "any",
    strokeWidth: "nonNegative",
    outline: "function",
    worldOutline: "function",
    outlines: "any",
    orientation: "boolean",
    maxVertices: "count",
    minRadius: "nonNegative",
    clip: "boolean",
  });
  return new GrainsLayer(source, options);
}

/**
 * The world-frame outline function of a star2d system (its `outline(i)` method), if any.
 *
 * @param source a system or table
 * @returns `i => outline` or undefined
 * @example
 * ```ts
 * import { systemOutline } from "./grains.ts";
 * import { expect } from "expect";
 * expect(systemOutline({ count: 1, outline: () => [0, 0, 1, 0, 0, 1] })?.(0)).toEqual([0, 0, 1, 0, 0, 1]);
 * expect(systemOutline({ count: 1 })).toBeUndefined();
 * ```
 */
export function systemOutline(
  source: unknown,
): ((i: number) => ArrayLike<number>) | undefined {
  const s = source as { outline?: (i: number) => ArrayLike<number>; count?: number };
  if (typeof s?.outline !== "function" || typeof s.count !== "number") return undefined;
  return (i) => s.outline!(i);
}
