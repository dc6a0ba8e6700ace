/**
 * Observable Plot marks for granular systems: {@link grains} (true-size discs, spheres seen in
 * projection, star outlines), {@link forceChains} (the force network as segments between
 * particle centres) and {@link walls} (star2d planes, segments and drums). They read the
 * simulators' typed-array columns (or Arrow tables), snapshot them when created, and draw with
 * the plot's x and y scales, so they combine with Plot's own marks in one chart, e.g.
 * `Plot.plot({ aspectRatio: 1, marks: [walls(sys), grains(sys, { fill: "speed" }), Plot.ruleY([0])] })`.
 *
 * Their x/y channels carry the grains' full extents, so Plot's automatic domains fit whole
 * grains; `aspectRatio: 1` keeps discs round. {@link plotFigure} renders such a chart with the
 * server-side DOM into a {@link Figure}.
 *
 * @module
 */

import * as Plot from "@observablehq/plot";
import { Table } from "apache-arrow";
import { ContactKind } from "../contact/record.ts";
import { checkSystem, type ContactsLike, type ParticleSystemLike } from "../arrow/types.ts";
import { type ColorScale, colorScale } from "./color.ts";
import { type DomDocument, type DomElement, plotDocument, SVG_NS } from "./dom.ts";
import { Figure, toSVG } from "./figure.ts";
import { px } from "./panel.ts";
import { labelOf, type ParticleColumns, particleColumns, type ParticleSource } from "./source.ts";
import { type WallsLike, wallsOf } from "./walls.ts";

/** A projection of a 3D source: side (x–z), front (y–z) or top (x–y). 2D sources draw x–y. */
export type ViewName = "side" | "front" | "top";

/** Axes of each view: across, up, along the view (depth), and which depth is nearest. */
const VIEW_AXES: Record<ViewName, { a: string; b: string; depth: string; nearLow: boolean }> = {
  // seen from −y: small y is near
  side: { a: "x", b: "z", depth: "y", nearLow: true },
  // seen from −x: small x is near
  front: { a: "y", b: "z", depth: "x", nearLow: true },
  // seen from above: large z is near
  top: { a: "x", b: "y", depth: "z", nearLow: false },
};

/** Resolves the axes a source is drawn on; throws for an unknown view. */
function axesOf(where: string, dim: 2 | 3, view: string | undefined) {
  if (view !== undefined && !(view in VIEW_AXES)) {
    throw new RangeError(`${where}: options.view is "${view}", must be side, front or top`);
  }
  if (dim === 2) return { a: "x", b: "y", depth: undefined, nearLow: false };
  return VIEW_AXES[(view ?? "side") as ViewName];
}

/** Throws a RangeError naming the first non-finite value of a column. */
function checkFinite(where: string, name: string, values: ArrayLike<number>, n: number): void {
  for (let i = 0; i < n; i++) {
    if (!Number.isFinite(values[i])) {
      throw new RangeError(`${where}: ${name}[${i}] is ${values[i]}, must be a finite number`);
    }
  }
}

/**
 * Checks that the position columns of a view (and the radii, when present) are finite.
 *
 * @param where calling function, for the message
 * @param cols particle columns
 * @param a column across
 * @param b column up
 * @throws {RangeError} naming the column and the index of the first NaN or infinity
 */
export function checkColumns(where: string, cols: ParticleColumns, a: string, b: string): void {
  checkFinite(where, a, cols.get(a), cols.n);
  checkFinite(where, b, cols.get(b), cols.n);
  if (cols.has("radius")) {
    const r = cols.get("radius");
    for (let i = 0; i < cols.n; i++) {
      if (!(r[i] >= 0 && Number.isFinite(r[i]))) {
        throw new RangeError(`${where}: radius[${i}] is ${r[i]}, must be a finite number >= 0`);
      }
    }
  }
}

/** A channel of a custom mark: values and the scale they go through. */
type ChannelSpec = {
  value: ArrayLike<unknown>;
  scale?: string | null;
  label?: string;
  filter?: null;
};

/**
 * The plot's scale functions a mark's `render` receives (the part of Plot's `ScaleFunctions`
 * the marks use): data value → pixels.
 *
 * @example
 * ```ts
 * import type { MarkScales } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const scales: MarkScales = { x: (v) => 100 * v, y: (v) => 200 - 100 * v };
 * expect([scales.x!(1), scales.y!(1)]).toEqual([100, 100]);
 * ```
 */
export interface MarkScales {
  /** The x scale. */
  x?: (value: number) => number;
  /** The y scale. */
  y?: (value: number) => number;
}

/**
 * The scaled channel values a mark's `render` receives, by channel name: pixels for channels
 * on the x and y scales, CSS colours for `fill` and `stroke` on the color scale.
 *
 * @example
 * ```ts
 * import type { MarkValues } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const values: MarkValues = { x: [10, 20], y: [5, 5], fill: ["red", "blue"] };
 * expect(values.x?.length).toBe(2);
 * ```
 */
export interface MarkValues {
  /** Centres across (px). */
  x?: ArrayLike<number>;
  /** Centres up (px). */
  y?: ArrayLike<number>;
  /** Start or lower extent across (px). */
  x1?: ArrayLike<number>;
  /** End or upper extent across (px). */
  x2?: ArrayLike<number>;
  /** Start or lower extent up (px). */
  y1?: ArrayLike<number>;
  /** End or upper extent up (px). */
  y2?: ArrayLike<number>;
  /** Fill colours. */
  fill?: ArrayLike<unknown>;
  /** Stroke colours. */
  stroke?: ArrayLike<unknown>;
}

/**
 * The plot's size and margins (px), as a mark's `render` receives them.
 *
 * @example
 * ```ts
 * import type { MarkDimensions } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const d: MarkDimensions = { width: 640, height: 400, marginTop: 20, marginRight: 20, marginBottom: 30, marginLeft: 40 };
 * expect(d.width - d.marginLeft - d.marginRight).toBe(580); // the frame's width
 * ```
 */
export interface MarkDimensions {
  /** Outer width (px). */
  width: number;
  /** Outer height (px). */
  height: number;
  /** Top margin (px). */
  marginTop: number;
  /** Right margin (px). */
  marginRight: number;
  /** Bottom margin (px). */
  marginBottom: number;
  /** Left margin (px). */
  marginLeft: number;
}

/**
 * What a mark's `render` gets from the plot besides scales: the document to create SVG
 * nodes in (the shared linkedom document of {@link plotFigure}, or a browser's).
 *
 * @example
 * ```ts
 * import { type MarkContext, plotDocument } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const context: MarkContext = { document: plotDocument() };
 * const g = context.document.createElementNS("http://www.w3.org/2000/svg", "g");
 * expect(g.tagName.toLowerCase()).toBe("g");
 * ```
 */
export interface MarkContext {
  /** The plot's document. */
  document: DomDocument;
}

/**
 * A Grainlab mark as Observable Plot sees it: an instance of Plot's `Mark` with a `render`
 * method; put it in the `marks` of any `Plot.plot`.
 *
 * @example
 * ```ts
 * import { grains, type PlotMark } from "@grainlab/grainlab/plot";
 * import * as Plot from "@observablehq/plot";
 * import { expect } from "expect";
 * const m: PlotMark = grains({ count: 1, dimension: 2, positions: [0, 0], velocities: [0, 0], radii: [1] });
 * expect(m).toBeInstanceOf(Plot.Mark);
 * expect(typeof m.render).toBe("function");
 * ```
 */
export interface PlotMark {
  /**
   * Renders a new plot with this mark first (Plot's `mark.plot(options)`); needs a `document`
   * option outside a browser — prefer {@link plotFigure}.
   */
  // deno-lint-ignore no-explicit-any
  plot(options?: object): any;
  /**
   * Draws the mark; called by `Plot.plot`.
   *
   * @param index indices of the data to draw
   * @param scales the plot's scale functions
   * @param values the scaled channel values
   * @param dimensions the plot's size and margins
   * @param context the plot's document
   * @returns an SVG group
   */
  render(
    index: number[],
    scales: MarkScales,
    values: MarkValues,
    dimensions: MarkDimensions,
    context: MarkContext,
  ): DomElement;
}

function range(n: number): Uint32Array {
  const r = new Uint32Array(n);
  for (let i = 0; i < n; i++) r[i] = i;
  return r;
}

function create(doc: DomDocument, name: string, attrs: Record<string, string | number>) {
  const e = doc.createElementNS(SVG_NS, name);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  return e;
}

function append(parent: DomElement, child: DomElement): void {
  (parent as unknown as { appendChild(c: unknown): void }).appendChild(child);
}

const fin = Number.isFinite;

/** Wraps the mark's group in a clip path of the plot's frame. */
function clipToFrame(doc: DomDocument, g: DomElement, d: MarkDimensions, id: string): void {
  const clip = create(doc, "clipPath", { id });
  append(
    clip,
    create(doc, "rect", {
      x: d.marginLeft,
      y: d.marginTop,
      width: Math.max(0, d.width - d.marginLeft - d.marginRight),
      height: Math.max(0, d.height - d.marginTop - d.marginBottom),
    }),
  );
  append(g, clip);
  g.setAttribute("clip-path", `url(#${id})`);
}

let clipCounter = 0;

function scalesXY(where: string, scales: MarkScales) {
  const sx = scales.x, sy = scales.y;
  if (typeof sx !== "function" || typeof sy !== "function") {
    throw new Error(`${where}: the plot needs x and y scales (a projection is not supported)`);
  }
  return { sx: sx as (v: number) => number, sy: sy as (v: number) => number };
}

// ---------------------------------------------------------------------------------------------
// grains

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

const CSS_NAMED = new Set(
  ("aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue " +
    "blueviolet brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk " +
    "crimson cyan darkblue darkcyan darkgoldenrod darkgray darkgreen darkgrey darkkhaki " +
    "darkmagenta darkolivegreen darkorange darkorchid darkred darksalmon darkseagreen " +
    "darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue " +
    "dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite " +
    "gold goldenrod gray green greenyellow grey honeydew hotpink indianred indigo ivory khaki " +
    "lavender lavenderblush lawngreen lemonchiffon lightblue lightcoral lightcyan " +
    "lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon lightseagreen " +
    "lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen " +
    "magenta maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen " +
    "mediumslateblue mediumspringgreen mediumturquoise mediumvioletred midnightblue mintcream " +
    "mistyrose moccasin navajowhite navy oldlace olive olivedrab orange orangered orchid " +
    "palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum " +
    "powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown " +
    "seagreen seashell sienna silver skyblue slateblue slategray slategrey snow springgreen " +
    "steelblue tan teal thistle tomato turquoise violet wheat white whitesmoke yellow " +
    "yellowgreen none currentcolor transparent").split(" "),
);

/** Whether a string is a CSS colour (hex, functional notation or a named colour). */
function isCssColor(s: string): boolean {
  const v = s.trim().toLowerCase();
  return /^#[0-9a-f]{3,8}$/.test(v) ||
    /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(.*\)$/.test(v) ||
    CSS_NAMED.has(v);
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
 * import { grains } from "@grainlab/grainlab/plot";
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
class GrainsLayer extends Plot.Mark implements GrainsMark {
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
    // @ts-expect-error: Plot's typings leave out Mark's (data, channels, options) constructor
    super(range(n), channels, {});
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
  render(
    index: number[],
    scales: MarkScales,
    values: MarkValues,
    dimensions: MarkDimensions,
    context: MarkContext,
  ): DomElement {
    const { sx, sy } = scalesXY("grains", scales);
    const doc = context.document;
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
        if (Math.abs(rx - ry) <= 0.02 * Math.max(rx, ry) + 0.5) {
          append(
            g,
            create(doc, "circle", { cx: px(cx), cy: px(cy), r: px(Math.max(rx, minR)), fill }),
          );
        } else {
          append(
            g,
            create(doc, "ellipse", {
              cx: px(cx),
              cy: px(cy),
              rx: px(Math.max(rx, minR)),
              ry: px(Math.max(ry, minR)),
              fill,
            }),
          );
        }
      } else {
        append(g, create(doc, "circle", { cx: px(cx), cy: px(cy), r: 2, fill }));
      }
      if (o.orientation && this.#angle && this.#radius) {
        const th = this.#angle[i], r = this.#radius[i];
        const u = sx(this.#x[i] + r * Math.cos(th)), w = sy(this.#y[i] + r * Math.sin(th));
        if (fin(u) && fin(w)) {
          append(
            g,
            create(doc, "line", {
              x1: px(cx),
              y1: px(cy),
              x2: px(u),
              y2: px(w),
              stroke: "#000",
              "stroke-width": 0.8,
            }),
          );
        }
      }
    }
    if (o.clip) clipToFrame(doc, g, dimensions, `grainlab-clip-${++clipCounter}`);
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
 * import { grains, plotFigure } from "@grainlab/grainlab/plot";
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
  return new GrainsLayer(source, options);
}

/**
 * The world-frame outline function of a star2d system (its `outline(i)` method), if any.
 *
 * @param source a system or table
 * @returns `i => outline` or undefined
 * @example
 * ```ts
 * import { systemOutline } from "@grainlab/grainlab/plot";
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

// ---------------------------------------------------------------------------------------------
// force chains

/** A system with contacts, or a pair of tables from `particlesTable` and `contactsTable`. */
export type NetworkSource = ParticleSystemLike | { particles: Table; contacts: Table };

/** Options of {@link forceChains}. */
export interface ForceChainsOptions {
  /** For 3D sources, the projection; 2D sources always draw x–y. @default "side" */
  view?: ViewName;
  /**
   * Colour of the chains: a CSS colour, "force" to map the normal force (N) through the
   * plot's color scale, or a function of the force returning a colour.
   * @default the force on the `scheme` (light = weak), independent of the plot's color scale
   */
  stroke?: string | ((force: number) => string);
  /** Colour scheme of the default stroke. @default "ylorrd" */
  scheme?: string;
  /** Width of the strongest chain (px). @default 6 */
  maxWidth?: number;
  /** Width of a chain of zero force (px). @default 0.4 */
  minWidth?: number;
  /** Force (N) drawn at `maxWidth` and at the dark end of the scheme. @default the largest drawn */
  maxForce?: number;
  /** Also draw particle–boundary contacts (centre → contact point). @default true */
  boundaries?: boolean;
  /** Draw at most this many contacts, the strongest. @default 20000 */
  maxContacts?: number;
  /** Stroke opacity, 0…1. @default 1 */
  strokeOpacity?: number;
  /** Clip the chains to the plot's frame. @default false */
  clip?: boolean;
}

/** Contact columns gathered from a system's record or from a pair of tables. */
interface Network {
  n: number;
  dim: 2 | 3;
  /** position of particle slot `s` along axis `k` */
  pos: (s: number, k: number) => number;
  m: number;
  i: (r: number) => number;
  /** slot of j, or −1 for a boundary contact */
  j: (r: number) => number;
  f: (r: number) => number;
  point: (r: number, k: number) => number;
}

function networkOf(where: string, source: NetworkSource): Network {
  if (
    typeof source === "object" && source !== null && "particles" in source &&
    source.particles instanceof Table && source.contacts instanceof Table
  ) {
    const pt = source.particles, ct = source.contacts;
    const cols = particleColumns(where, pt);
    const axes = cols.dim === 3 ? ["x", "y", "z"] : ["x", "y"];
    const P = axes.map((a) => cols.get(a));
    const ids = cols.has("id") ? cols.get("id") : undefined;
    const slot = new Map<number, number>();
    for (let s = 0; s < cols.n; s++) slot.set(ids ? ids[s] : s, s);
    const col = (name: string) => {
      const v = ct.getChild(name);
      if (!v) throw new TypeError(`${where}: contacts table has no column "${name}"`);
      return v.toArray() as ArrayLike<number>;
    };
    const I = col("i"), J = col("j"), F = col("normalForce");
    const pts = axes.map((a) => col(`p${a}`));
    const lookup = (id: number, r: number, name: string) => {
      const s = slot.get(id);
      if (s === undefined) {
        throw new RangeError(`${where}: contacts.${name}[${r}] is id ${id}, not a particle id`);
      }
      return s;
    };
    return {
      n: cols.n,
      dim: cols.dim,
      pos: (s, k) => P[k][s],
      m: ct.numRows,
      i: (r) => lookup(I[r], r, "i"),
      j: (r) => (J[r] >= 0 ? lookup(J[r], r, "j") : -1),
      f: (r) => F[r],
      point: (r, k) => pts[k][r],
    };
  }
  const s = source as ParticleSystemLike;
  if (typeof s !== "object" || s === null || !s.contacts) {
    throw new TypeError(
      `${where}: source has no contacts; pass a system with contacts or { particles, contacts } tables`,
    );
  }
  const dim = checkSystem(where, s);
  const c: ContactsLike = s.contacts;
  const n = s.count, m = c.count;
  if (!Number.isInteger(m) || m < 0) {
    throw new TypeError(`${where}: contacts.count is ${m}, must be a non-negative integer`);
  }
  for (
    const [name, arr, stride] of [
      ["i", c.i, 1],
      ["j", c.j, 1],
      ["kind", c.kind, 1],
      ["normalForce", c.normalForce, 1],
      ["point", c.point, dim],
    ] as const
  ) {
    if (!arr || arr.length < m * stride) {
      throw new RangeError(
        `${where}: contacts.${name} has ${arr?.length ?? 0} values, need ${m * stride}`,
      );
    }
  }
  const P = s.positions;
  const slotOk = (v: number, r: number, name: string) => {
    if (!(Number.isInteger(v) && v >= 0 && v < n)) {
      throw new RangeError(
        `${where}: contacts.${name}[${r}] is ${v}, must be a particle slot in [0, ${n})`,
      );
    }
    return v;
  };
  return {
    n,
    dim,
    pos: (p, k) => P[p * dim + k],
    m,
    i: (r) => slotOk(c.i[r], r, "i"),
    // Only particle contacts join two centres; every other kind (ground, wall, body …, and
    // star2d's former wall code with j = wall index) runs to the contact point.
    j: (r) => (c.kind[r] === ContactKind.particle ? slotOk(c.j[r], r, "j") : -1),
    f: (r) => c.normalForce[r],
    point: (r, k) => c.point[r * dim + k],
  };
}

/**
 * The mark {@link forceChains} returns: one segment per contact, width ∝ normal force.
 * Channels `x1`, `y1` (centre of i, m), `x2`, `y2` (centre of j or the contact point, m) and,
 * with `stroke: "force"`, `stroke` (N).
 *
 * @example
 * ```ts
 * import { forceChains } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const system = {
 *   count: 2, dimension: 2, positions: [0, 0, 1, 0], velocities: [0, 0, 0, 0], radii: [0.5, 0.5],
 *   contacts: { count: 1, i: [1], j: [0], kind: [0], point: [0.5, 0], normal: [1, 0], overlap: [0.01], normalForce: [3], tangentialForce: [0, 0] },
 * };
 * const m = forceChains(system);
 * expect([m.links, m.maxForce]).toEqual([1, 3]);
 * ```
 */
export interface ForceChainsMark extends PlotMark {
  /** Number of segments drawn. */
  readonly links: number;
  /** Largest normal force among them (N); 0 when there are none. */
  readonly maxForce: number;
  /** The colour scale of the default stroke (light = weak), for a legend; else undefined. */
  readonly colorScale: ColorScale | undefined;
}

/** The implementation of {@link ForceChainsMark}. */
class ForceChainsLayer extends Plot.Mark implements ForceChainsMark {
  readonly links: number;
  readonly maxForce: number;
  readonly colorScale: ColorScale | undefined;
  #force: Float64Array;
  #stroke: string | string[] | undefined;
  #options: ForceChainsOptions;
  #scaleForce: number;

  constructor(source: NetworkSource, options: ForceChainsOptions = {}) {
    const where = "forceChains";
    const net = networkOf(where, source);
    const { a, b } = axesOf(where, net.dim, options.view);
    const ka = "xyz".indexOf(a), kb = "xyz".indexOf(b);
    const withBoundaries = options.boundaries ?? true;
    const maxC = options.maxContacts ?? 20000;
    if (!(Number.isInteger(maxC) && maxC >= 0)) {
      throw new RangeError(`${where}: options.maxContacts is ${maxC}, must be an integer >= 0`);
    }
    const rows: number[] = [], ends: number[] = [];
    for (let r = 0; r < net.m; r++) {
      const i = net.i(r), j = net.j(r);
      if (j < 0 && !withBoundaries) continue;
      const f = net.f(r);
      if (!(f > 0)) continue;
      if (!Number.isFinite(f)) {
        throw new RangeError(`${where}: contacts.normalForce[${r}] is ${f}, must be finite`);
      }
      rows.push(r);
      ends.push(i, j);
    }
    // weakest first (strong chains drawn on top); keep the strongest maxContacts
    let order = Array.from(rows.keys()).sort((p, q) => net.f(rows[p]) - net.f(rows[q]));
    if (order.length > maxC) order = order.slice(order.length - maxC);
    const m = order.length;
    const A0 = new Float64Array(m), B0 = new Float64Array(m);
    const A1 = new Float64Array(m), B1 = new Float64Array(m), F = new Float64Array(m);
    let maxF = 0;
    for (let k = 0; k < m; k++) {
      const q = order[k], r = rows[q], i = ends[2 * q], j = ends[2 * q + 1];
      A0[k] = net.pos(i, ka);
      B0[k] = net.pos(i, kb);
      A1[k] = j >= 0 ? net.pos(j, ka) : net.point(r, ka);
      B1[k] = j >= 0 ? net.pos(j, kb) : net.point(r, kb);
      if (![A0[k], B0[k], A1[k], B1[k]].every(fin)) {
        const end = j >= 0 ? `the centre of particle ${j}` : "the contact point";
        throw new RangeError(
          `${where}: contact ${r} runs from (${A0[k]}, ${B0[k]}) to ${end} (${A1[k]}, ${
            B1[k]
          }); coordinates must be finite`,
        );
      }
      F[k] = net.f(r);
      maxF = Math.max(maxF, F[k]);
    }
    const fMax = options.maxForce ?? maxF;
    if (options.maxForce !== undefined && !(fMax > 0 && Number.isFinite(fMax))) {
      throw new RangeError(`${where}: options.maxForce is ${fMax}, must be a positive number`);
    }
    const label = (k: string) => `${k} (m)`;
    const channels: Record<string, ChannelSpec> = {
      x1: { value: A0, scale: "x", label: label(a) },
      y1: { value: B0, scale: "y", label: label(b) },
      x2: { value: A1, scale: "x", label: label(a) },
      y2: { value: B1, scale: "y", label: label(b) },
    };
    let stroke: string | string[] | undefined;
    let scale: ColorScale | undefined;
    const s = options.stroke;
    if (s === "force") {
      channels.stroke = { value: F, scale: "color", label: "normal force (N)" };
    } else if (typeof s === "function") {
      stroke = Array.from(F, (f) => String(s(f)));
    } else if (typeof s === "string") {
      if (!isCssColor(s)) {
        throw new RangeError(
          `${where}: options.stroke is "${s}", must be a CSS colour, "force" or a function`,
        );
      }
      stroke = s;
    } else if (s === undefined) {
      scale = colorScale(F, {
        type: "linear",
        scheme: options.scheme ?? "ylorrd",
        domain: [0, fMax || 1],
        label: "normal force (N)",
      });
      stroke = Array.from(F, (f) => scale!.apply(f));
    } else {
      throw new TypeError(`${where}: options.stroke must be a CSS colour, "force" or a function`);
    }
    // @ts-expect-error: Plot's typings leave out Mark's (data, channels, options) constructor
    super(range(m), channels, {});
    this.links = m;
    this.maxForce = maxF;
    this.colorScale = scale;
    this.#force = F;
    this.#stroke = stroke;
    this.#options = options;
    this.#scaleForce = fMax || 1;
  }

  /** Draws the chains (called by `Plot.plot`). */
  render(
    index: number[],
    _scales: MarkScales,
    values: MarkValues,
    dimensions: MarkDimensions,
    context: MarkContext,
  ): DomElement {
    const doc = context.document;
    const o = this.#options;
    const wMax = o.maxWidth ?? 6, wMin = o.minWidth ?? 0.4;
    const g = create(doc, "g", { "aria-label": "force chains", "stroke-linecap": "round" });
    if (o.strokeOpacity !== undefined) g.setAttribute("stroke-opacity", String(o.strokeOpacity));
    const X1 = values.x1!, Y1 = values.y1!, X2 = values.x2!, Y2 = values.y2!, S = values.stroke;
    const sorted = Array.from(index).sort((p, q) => p - q); // weakest first
    for (const k of sorted) {
      const x1 = X1[k], y1 = Y1[k], x2 = X2[k], y2 = Y2[k];
      if (!fin(x1) || !fin(y1) || !fin(x2) || !fin(y2)) continue;
      const w = wMin + (wMax - wMin) * Math.min(1, this.#force[k] / this.#scaleForce);
      const st = this.#stroke;
      const stroke = typeof st === "string"
        ? st
        : st
        ? st[k]
        : S?.[k] != null
        ? String(S[k])
        : "#bbb";
      append(
        g,
        create(doc, "line", {
          x1: px(x1),
          y1: px(y1),
          x2: px(x2),
          y2: px(y2),
          stroke,
          "stroke-width": px(w),
        }),
      );
    }
    if (o.clip) clipToFrame(doc, g, dimensions, `grainlab-clip-${++clipCounter}`);
    return g;
  }
}

/**
 * A Plot mark of the force network: a segment between the centres of every particle pair in
 * contact, width (and by default colour) proportional to the normal force; boundary contacts
 * (ground, walls) run from the centre to the contact point.
 *
 * @param source a system with `contacts` (sphere3d or star2d), or `{ particles, contacts }`
 *   tables from `particlesTable` and `contactsTable`
 * @param options view (3D), colours, widths, which contacts
 * @returns the mark; `links` and `maxForce` (N) say what it draws
 * @throws {TypeError} when the source has no contacts
 * @throws {RangeError} when a contact refers to a particle that does not exist or a drawn
 *   coordinate or force is not finite
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { forceChains, grains, plotFigure } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const system = {
 *   count: 2, dimension: 2, positions: [0, 0.5, 1, 0.5], velocities: [0, 0, 0, 0], radii: [0.5, 0.5],
 *   contacts: {
 *     count: 2, i: [1, 0], j: [0, -1], kind: [0, 2], point: [0.5, 0.5, 0, 0], normal: [1, 0, 0, 1],
 *     overlap: [0.01, 0.01], normalForce: [3, 1], tangentialForce: [0, 0, 0, 0],
 *   },
 * };
 * const fig = plotFigure({
 *   aspectRatio: 1,
 *   marks: [grains(system, { fill: "#eee" }), forceChains(system), Plot.ruleY([0])],
 * });
 * expect(fig.svg.match(/<line/g)!.length).toBeGreaterThanOrEqual(2);
 * ```
 */
export function forceChains(
  source: NetworkSource,
  options: ForceChainsOptions = {},
): ForceChainsMark {
  return new ForceChainsLayer(source, options);
}

// ---------------------------------------------------------------------------------------------
// walls

/** Options of {@link walls}. */
export interface WallsOptions {
  /** Colour of the walls. @default "#555" */
  stroke?: string;
  /** Width of planes and drums (px). @default 2 */
  strokeWidth?: number;
  /** Thinnest drawn segment (px); segments are drawn at their true thickness. @default 1.5 */
  minThickness?: number;
}

/** Plane, segment and drum kinds of star2d's `Walls`. */
const PLANE = 0, SEGMENT = 1, DRUM = 2;

/**
 * The mark {@link walls} returns: the enabled walls, snapshotted. Channels `x1`, `x2`, `y1`,
 * `y2` give their extents (a plane only constrains the axis it faces).
 *
 * @example
 * ```ts
 * import { walls } from "@grainlab/grainlab/plot";
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
class WallsLayer extends Plot.Mark implements WallsMark {
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
      const g = geom.subarray(o, o + 8);
      const n = kind[q] === PLANE ? 4 : kind[q] === SEGMENT ? 5 : 3;
      checkFinite(where, `geometry of wall ${k}`, g, n);
      if (kind[q] === PLANE) {
        if (Math.abs(g[2]) > 0.5) x1[q] = x2[q] = g[0];
        if (Math.abs(g[3]) > 0.5) y1[q] = y2[q] = g[1];
      } else if (kind[q] === SEGMENT) {
        const h = g[4];
        x1[q] = Math.min(g[0], g[2]) - h;
        x2[q] = Math.max(g[0], g[2]) + h;
        y1[q] = Math.min(g[1], g[3]) - h;
        y2[q] = Math.max(g[1], g[3]) + h;
      } else if (kind[q] === DRUM) {
        [x1[q], x2[q], y1[q], y2[q]] = [g[0] - g[2], g[0] + g[2], g[1] - g[2], g[1] + g[2]];
      }
    }
    // @ts-expect-error: Plot's typings leave out Mark's (data, channels, options) constructor
    super(range(m), {
      x1: { value: x1, scale: "x", filter: null },
      x2: { value: x2, scale: "x", filter: null },
      y1: { value: y1, scale: "y", filter: null },
      y2: { value: y2, scale: "y", filter: null },
    }, {});
    this.count = m;
    this.#kind = kind;
    this.#geom = geom;
    this.#options = options;
  }

  /** Draws the walls (called by `Plot.plot`). */
  render(
    index: number[],
    scales: MarkScales,
    _values: MarkValues,
    dimensions: MarkDimensions,
    context: MarkContext,
  ): DomElement {
    const { sx, sy } = scalesXY("walls", scales);
    const doc = context.document;
    const o = this.#options;
    const color = o.stroke ?? "#555", sw = o.strokeWidth ?? 2, minT = o.minThickness ?? 1.5;
    const g = create(doc, "g", { "aria-label": "walls", fill: "none" });
    const d = dimensions;
    const frame = {
      x: [d.marginLeft, d.width - d.marginRight] as [number, number],
      y: [d.marginTop, d.height - d.marginBottom] as [number, number],
    };
    const line = (x1: number, y1: number, x2: number, y2: number, width: number, cap = false) => {
      if (![x1, y1, x2, y2, width].every(fin)) return;
      append(
        g,
        create(doc, "line", {
          x1: px(x1),
          y1: px(y1),
          x2: px(x2),
          y2: px(y2),
          stroke: color,
          "stroke-width": px(width),
          ...(cap ? { "stroke-linecap": "round" } : {}),
        }),
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
        const attrs = { stroke: color, "stroke-width": sw, fill: "none" };
        append(
          g,
          Math.abs(rx - ry) <= 0.02 * Math.max(rx, ry) + 0.5
            ? create(doc, "circle", { cx: px(cx), cy: px(cy), r: px(rx), ...attrs })
            : create(doc, "ellipse", { cx: px(cx), cy: px(cy), rx: px(rx), ry: px(ry), ...attrs }),
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
 * import { plotFigure, walls } from "@grainlab/grainlab/plot";
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
  return new WallsLayer(source, options);
}

/** Liang–Barsky: the part of the line p + t·d, t in [t0, t1], inside the rectangle; null if none. */
function clipLine(
  x0: number,
  y0: number,
  dx: number,
  dy: number,
  rect: { x: [number, number]; y: [number, number] },
  t0: number,
  t1: number,
): [number, number, number, number] | null {
  if (![x0, y0, dx, dy].every(fin) || (dx === 0 && dy === 0)) return null;
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
  if (!(t0 <= t1) || !fin(t0) || !fin(t1)) return null;
  return [x0 + t0 * dx, y0 + t0 * dy, x0 + t1 * dx, y0 + t1 * dy];
}

// ---------------------------------------------------------------------------------------------
// cells (density maps): compact rectangles with literal colours

/** Rectangles in data units with their CSS colours, drawn compactly (density maps); internal. */
export class CellsMark extends Plot.Mark implements PlotMark {
  #fill: readonly string[];

  /**
   * @param cells rectangles (data units) and their fill colours
   */
  constructor(cells: readonly { x1: number; x2: number; y1: number; y2: number; fill: string }[]) {
    const col = (k: "x1" | "x2" | "y1" | "y2") => Float64Array.from(cells, (c) => c[k]);
    // @ts-expect-error: Plot's typings leave out Mark's (data, channels, options) constructor
    super(range(cells.length), {
      x1: { value: col("x1"), scale: "x" },
      x2: { value: col("x2"), scale: "x" },
      y1: { value: col("y1"), scale: "y" },
      y2: { value: col("y2"), scale: "y" },
    }, {});
    this.#fill = cells.map((c) => c.fill);
  }

  /**
   * Draws the cells, each 0.3 px larger so that neighbours leave no seams.
   *
   * @param index cells to draw
   * @param _scales the plot's scale functions
   * @param values scaled extents
   * @param _dimensions the plot's size
   * @param context the plot's document
   * @returns an SVG group
   */
  render(
    index: number[],
    _scales: MarkScales,
    values: MarkValues,
    _dimensions: MarkDimensions,
    context: MarkContext,
  ): DomElement {
    const doc = context.document;
    const g = create(doc, "g", { "aria-label": "cells" });
    const X1 = values.x1!, X2 = values.x2!, Y1 = values.y1!, Y2 = values.y2!;
    for (const k of index) {
      const x = Math.min(X1[k], X2[k]), y = Math.min(Y1[k], Y2[k]);
      const w = Math.abs(X2[k] - X1[k]) + 0.3, h = Math.abs(Y2[k] - Y1[k]) + 0.3;
      if (![x, y, w, h].every(fin)) continue;
      append(
        g,
        create(doc, "rect", {
          x: px(x),
          y: px(y),
          width: px(w),
          height: px(h),
          fill: this.#fill[k],
        }),
      );
    }
    return g;
  }
}

// ---------------------------------------------------------------------------------------------

/**
 * Options of {@link plotFigure}: any `Plot.plot` options (see Observable Plot's documentation);
 * the ones listed are the most used.
 *
 * @example
 * ```ts
 * import type { PlotFigureOptions } from "@grainlab/grainlab/plot";
 * import * as Plot from "@observablehq/plot";
 * import { expect } from "expect";
 * const options: PlotFigureOptions = { aspectRatio: 1, marks: [Plot.ruleY([0])], x: { domain: [0, 1] } };
 * expect(options.marks?.length).toBe(1);
 * ```
 */
export interface PlotFigureOptions {
  /** The marks, in drawing order: Grainlab's and Plot's. */
  marks?: readonly unknown[];
  /** Outer width (px). @default 640 */
  width?: number;
  /** Outer height (px). @default from the aspect ratio or 400 */
  height?: number;
  /** Pixels per unit of y over pixels per unit of x; 1 keeps discs round. */
  aspectRatio?: number;
  /** Any other `Plot.plot` option (scales `x`, `y`, `color`, margins, `style` …). */
  [option: string]: unknown;
}

/**
 * Renders a Plot chart with the shared server-side DOM (linkedom) as a {@link Figure}:
 * `Plot.plot(options)` with `document` filled in, made standalone (xmlns). Use it for charts
 * that mix {@link grains}, {@link forceChains} and {@link walls} with Plot's own marks.
 *
 * @param options `Plot.plot` options (marks, scales, size, `aspectRatio` …)
 * @returns the figure
 * @throws {TypeError} when Plot returns an HTML `<figure>` (a `title`, `caption` or colour
 *   `legend`): put titles on with `compose` and legends with `colorScale(...).legend()`
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { plotFigure } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const fig = plotFigure({ width: 300, height: 200, marks: [Plot.dot([[1, 2], [3, 4]])] });
 * expect([fig.width, fig.height]).toEqual([300, 200]);
 * expect(fig.svg).toContain('xmlns="http://www.w3.org/2000/svg"');
 * ```
 */
export function plotFigure(options: PlotFigureOptions): Figure {
  const el = Plot.plot(
    { document: plotDocument(), ...options } as unknown as Plot.PlotOptions,
  ) as unknown as DomElement;
  if (el.tagName.toLowerCase() !== "svg") {
    throw new TypeError(
      `plotFigure: Plot returned a <${el.tagName.toLowerCase()}> (title, caption or legend), ` +
        `not an <svg>; use compose(...) for titles and colorScale(...).legend() for legends`,
    );
  }
  const width = Number(el.getAttribute("width")), height = Number(el.getAttribute("height"));
  return new Figure(toSVG(el), width, height);
}
