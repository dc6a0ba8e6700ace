/**
 * Plumbing shared by Grainlab's Plot marks — `grains` (`grains.ts`), `forceChains`
 * (`chains.ts`), `walls` (`walls.ts`) and the density cells (`cells.ts`): the
 * {@link GrainlabMark} base (Plot's `Mark` over the indices 0 … n − 1, its `render` passed on
 * to the mark's `draw`), views of 3D sources, validation of columns and colours, and the SVG
 * helpers the marks draw with.
 *
 * The marks read the simulators' typed-array columns (or Arrow tables), snapshot them when
 * created, and draw with the plot's x and y scales, so they combine with Plot's own marks in
 * one chart, e.g.
 * `Plot.plot({ aspectRatio: 1, marks: [walls(sys), grains(sys, { fill: "speed" }), Plot.ruleY([0])] })`.
 * Their x/y channels carry the grains' full extents, so Plot's automatic domains fit whole
 * grains; `aspectRatio: 1` keeps discs round. `plotFigure` (`plot_figure.ts`) renders such a
 * chart with the server-side DOM into a `Figure`.
 *
 * @module
 */

import * as Plot from "@observablehq/plot";
import { type DomDocument, type DomElement, SVG_NS } from "../dom.ts";
import { px } from "../panel.ts";
import type { ParticleColumns } from "../source.ts";
import type { MarkDimensions, MarkScales, MarkValues, PlotMark } from "./types.ts";

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

/**
 * Resolves the axes a source is drawn on.
 *
 * @param where calling function, for the message
 * @param dim 2 or 3
 * @param view the view of a 3D source (2D sources always draw x–y)
 * @returns the columns across (`a`) and up (`b`), the depth column and which depth is near
 * @throws {RangeError} for an unknown view
 */
export function axesOf(
  where: string,
  dim: 2 | 3,
  view: string | undefined,
): { a: string; b: string; depth: string | undefined; nearLow: boolean } {
  if (view !== undefined && !(view in VIEW_AXES)) {
    throw new RangeError(`${where}: options.view is "${view}", must be side, front or top`);
  }
  if (dim === 2) return { a: "x", b: "y", depth: undefined, nearLow: false };
  return VIEW_AXES[(view ?? "side") as ViewName];
}

/**
 * Throws a RangeError naming the first non-finite value of a column.
 *
 * @param where calling function, for the message
 * @param name the column's name
 * @param values the column
 * @param n how many values to check
 */
export function checkFinite(
  where: string,
  name: string,
  values: ArrayLike<number>,
  n: number,
): void {
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

/**
 * Whether a string is a CSS colour (hex, functional notation or a named colour).
 *
 * @param s the string
 * @returns true for a colour
 */
export function isCssColor(s: string): boolean {
  const v = s.trim().toLowerCase();
  return /^#[0-9a-f]{3,8}$/.test(v) ||
    /^(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(.*\)$/.test(v) ||
    CSS_NAMED.has(v);
}

/** A channel of a custom mark: values and the scale they go through. */
export type ChannelSpec = {
  value: ArrayLike<unknown>;
  scale?: string | null;
  label?: string;
  filter?: null;
};

/** The arguments of a mark's `render`, by name, as {@link GrainlabMark}'s `draw` gets them. */
export interface MarkDraw {
  /** Indices of the data to draw. */
  index: number[];
  /** The plot's scale functions. */
  scales: MarkScales;
  /** The scaled channel values. */
  values: MarkValues;
  /** The plot's size and margins. */
  dimensions: MarkDimensions;
  /** The plot's document. */
  doc: DomDocument;
}

function range(n: number): Uint32Array {
  const r = new Uint32Array(n);
  for (let i = 0; i < n; i++) r[i] = i;
  return r;
}

/**
 * The base of Grainlab's marks: a Plot `Mark` whose data are the indices 0 … count − 1 and
 * whose channels are given; Plot's `render` calls go to the subclass's `draw`.
 */
export abstract class GrainlabMark extends Plot.Mark implements PlotMark {
  /**
   * @param count number of items (the mark's data are their indices)
   * @param channels the mark's channels, one value per item
   */
  constructor(count: number, channels: Record<string, ChannelSpec>) {
    // @ts-expect-error: Plot's typings leave out Mark's (data, channels, options) constructor
    super(range(count), channels, {});
  }

  /**
   * Draws the mark; called by `Plot.plot` with the arguments of {@link PlotMark}'s `render`.
   *
   * @param args indices of the data to draw, the plot's scale functions, the scaled channel
   *   values, the plot's size and margins, and its document
   * @returns an SVG group
   */
  render(...args: Parameters<PlotMark["render"]>): DomElement {
    const [index, scales, values, dimensions, context] = args;
    return this.draw({ index, scales, values, dimensions, doc: context.document });
  }

  /**
   * Draws the mark into a new SVG group.
   *
   * @param r what Plot passed to `render`
   * @returns the group
   */
  protected abstract draw(r: MarkDraw): DomElement;
}

/**
 * The plot's x and y scales.
 *
 * @param where calling mark, for the message
 * @param scales the scales `render` received
 * @returns the x (`sx`) and y (`sy`) scale functions
 * @throws {Error} when the plot has no x or y scale (a projection)
 */
export function scalesXY(
  where: string,
  scales: MarkScales,
): { sx: (v: number) => number; sy: (v: number) => number } {
  const sx = scales.x, sy = scales.y;
  if (typeof sx !== "function" || typeof sy !== "function") {
    throw new Error(`${where}: the plot needs x and y scales (a projection is not supported)`);
  }
  return { sx: sx as (v: number) => number, sy: sy as (v: number) => number };
}

/** `Number.isFinite`. */
export const fin: (v: unknown) => boolean = Number.isFinite;

/**
 * A new SVG element with attributes, in the plot's document.
 *
 * @param doc the document
 * @param name the element's name
 * @param attrs attributes, in order
 * @returns the element
 */
export function create(
  doc: DomDocument,
  name: string,
  attrs: Record<string, string | number>,
): DomElement {
  const e = doc.createElementNS(SVG_NS, name);
  for (const k in attrs) e.setAttribute(k, String(attrs[k]));
  return e;
}

/**
 * Appends a child element.
 *
 * @param parent the parent
 * @param child the child
 */
export function append(parent: DomElement, child: DomElement): void {
  (parent as unknown as { appendChild(c: unknown): void }).appendChild(child);
}

/**
 * An SVG line between two points (px), with further attributes after the end points.
 *
 * @param doc the document
 * @param x1 start across (px)
 * @param y1 start up (px)
 * @param x2 end across (px)
 * @param y2 end up (px)
 * @param attrs stroke and other attributes
 * @returns the `<line>`
 */
export function svgLine(
  doc: DomDocument,
  x1: number,
  y1: number,
  x2: number,
  y2: number,
  attrs: Record<string, string | number>,
): DomElement {
  return create(doc, "line", { x1: px(x1), y1: px(y1), x2: px(x2), y2: px(y2), ...attrs });
}

/**
 * A circle when the radii across and up (px) agree within 2 % + 0.5 px (an equal-aspect
 * plot), else an ellipse of both; radii drawn at least `minRadius`.
 *
 * @param doc the document
 * @param cx centre across (px)
 * @param cy centre up (px)
 * @param rx radius across (px)
 * @param ry radius up (px)
 * @param minRadius smallest drawn radius (px)
 * @param attrs fill, stroke and other attributes, after the geometry
 * @returns the `<circle>` or `<ellipse>`
 */
export function circleOrEllipse(
  doc: DomDocument,
  cx: number,
  cy: number,
  rx: number,
  ry: number,
  minRadius: number,
  attrs: Record<string, string | number>,
): DomElement {
  const centre = { cx: px(cx), cy: px(cy) };
  return Math.abs(rx - ry) <= 0.02 * Math.max(rx, ry) + 0.5
    ? create(doc, "circle", { ...centre, r: px(Math.max(rx, minRadius)), ...attrs })
    : create(doc, "ellipse", {
      ...centre,
      rx: px(Math.max(rx, minRadius)),
      ry: px(Math.max(ry, minRadius)),
      ...attrs,
    });
}

let clipCounter = 0;

/**
 * Clips a mark's group to the plot's frame: appends a clip path of the frame (with a new id)
 * and refers to it.
 *
 * @param doc the document
 * @param g the mark's group
 * @param d the plot's size and margins
 */
export function clipToFrame(doc: DomDocument, g: DomElement, d: MarkDimensions): void {
  const id = `grainlab-clip-${++clipCounter}`;
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
