/**
 * {@link plotFigure}: a Plot chart — Grainlab's marks with Plot's own — rendered with the
 * shared server-side DOM (linkedom) into a {@link Figure}.
 *
 * @module
 */

import * as Plot from "@observablehq/plot";
import { type DomElement, plotDocument } from "../dom.ts";
import { Figure, toSVG } from "../figure.ts";

/**
 * Options of {@link plotFigure}: any `Plot.plot` options (see Observable Plot's documentation);
 * the ones listed are the most used.
 *
 * @example
 * ```ts
 * import type { PlotFigureOptions } from "./plot_figure.ts";
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
 * import { plotFigure } from "./plot_figure.ts";
 * import { expect } from "expect";
 * const fig = plotFigure({ width: 300, height: 200, marks: [Plot.dot([[1, 2], [3, 4]])] });
 * expect([fig.width, fig.height]).toEqual([300, 200]);
 * expect(fig.svg).toContain('xmlns="http://www.w3.org/2000/svg"');
 * ```
 */
export function plotFigure(options: PlotFigureOptions): Figure {
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(
      `plotFigure: options (${String(options)}) must be Observable Plot's options object`,
    );
  }
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
