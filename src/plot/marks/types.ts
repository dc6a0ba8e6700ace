/**
 * What Observable Plot hands a mark's `render`, as Grainlab's marks use it: the scale
 * functions, the scaled channel values, the plot's size and margins and its document; and
 * {@link PlotMark}, a Grainlab mark as Plot sees it.
 *
 * @module
 */

import type { DomDocument, DomElement } from "../dom.ts";

/**
 * The plot's scale functions a mark's `render` receives (the part of Plot's `ScaleFunctions`
 * the marks use): data value → pixels.
 *
 * @example
 * ```ts
 * import type { MarkScales } from "./types.ts";
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
 * import type { MarkValues } from "./types.ts";
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
 * import type { MarkDimensions } from "./types.ts";
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
 * import { type MarkContext } from "./types.ts";
 * import { plotDocument } from "../dom.ts";
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
 * import { grains } from "./grains.ts";
 * import { type PlotMark } from "./types.ts";
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
   * Draws the mark; called by `Plot.plot`, not by users.
   *
   * @internal
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
