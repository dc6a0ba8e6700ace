/**
 * Plot panels: an Observable Plot chart rendered into the shared linkedom document, with
 * equal-aspect framing, Grainlab's margins and style, and "raw" layers (raster-like maps of
 * many cells written as SVG text with the panel's scales). Grains, force chains and walls are
 * real Plot marks (`marks/`) and go in as such.
 *
 * @module
 */

import * as Plot from "@observablehq/plot";
import { type DomDocument, type DomElement, plotDocument } from "./dom.ts";
import type { Panel } from "./figure.ts";
import { AXES_RULES, plotOptions } from "./options.ts";

/** A layer drawn as SVG text in data coordinates, using the panel's scales. */
export interface RawLayer {
  /**
   * Returns SVG markup.
   *
   * @param sx maps data x to pixels
   * @param sy maps data y to pixels
   * @param k pixels per data unit along x (equals y's in an equal-aspect panel)
   */
  raw(sx: (x: number) => number, sy: (y: number) => number, k: number): string;
}

/** Options of {@link plotPanel}. */
export interface PanelOptions {
  /** x domain (data units). */
  xDomain: [number, number];
  /** y domain (data units). */
  yDomain: [number, number];
  /** Width (px). @default 560 */
  width?: number;
  /** Height (px). @default 360 */
  height?: number;
  /** x-axis label. */
  xLabel?: string;
  /** y-axis label. */
  yLabel?: string;
  /** y scale type. @default "linear" */
  yType?: "linear" | "log";
  /** x scale type. @default "linear" */
  xType?: "linear" | "log";
  /** Draw grid lines. @default false */
  grid?: boolean;
  /** Marks in drawing order: Plot marks and raw layers. */
  marks: (RawLayer | object)[];
  /** Panel title, drawn inside the top margin. */
  title?: string;
}

const MARGIN = { top: 22, right: 14, bottom: 36, left: 54 };

/**
 * Width and height giving equal pixels per unit on both axes, within size limits.
 *
 * @param xDomain x range (data units)
 * @param yDomain y range (data units)
 * @param options maximum width and height (px)
 * @returns width and height (px) including margins
 * @example
 * ```ts
 * import { equalAspectSize } from "./panel.ts";
 * import { expect } from "expect";
 * const { width, height } = equalAspectSize([0, 2], [0, 1], { maxWidth: 454 });
 * // 386 px across 2 m: 193 px per metre on both axes, plus the margins
 * expect({ width, height }).toEqual({ width: 454, height: 193 + 58 });
 * expect(() => equalAspectSize([0, 0], [0, 1])).toThrow(RangeError);
 * ```
 */
export function equalAspectSize(
  xDomain: [number, number],
  yDomain: [number, number],
  options: { maxWidth?: number; maxHeight?: number } = {},
): { width: number; height: number } {
  options = plotOptions("equalAspectSize", options, { maxWidth: "size", maxHeight: "size" });
  for (const [name, d] of [["xDomain", xDomain], ["yDomain", yDomain]] as const) {
    if (!Array.isArray(d) || d.length !== 2) {
      throw new TypeError(`equalAspectSize: ${name} (${String(d)}) must be [lo, hi]`);
    }
  }
  const maxW = options.maxWidth ?? 560, maxH = options.maxHeight ?? 520;
  const dx = xDomain[1] - xDomain[0], dy = yDomain[1] - yDomain[0];
  if (!(dx > 0) || !(dy > 0)) {
    throw new RangeError(`equalAspectSize: domains [${xDomain}] × [${yDomain}] must be non-empty`);
  }
  const innerW = maxW - MARGIN.left - MARGIN.right, innerH = maxH - MARGIN.top - MARGIN.bottom;
  const k = Math.min(innerW / dx, innerH / dy);
  return {
    width: Math.round(k * dx + MARGIN.left + MARGIN.right),
    height: Math.round(k * dy + MARGIN.top + MARGIN.bottom),
  };
}

/**
 * The domains and equal-aspect size ({@link equalAspectSize}) of a panel, as the first options
 * of {@link plotPanel}: `plotPanel({ ...equalAspectFrame(dom, limits), xLabel, marks })`.
 *
 * @param dom x and y domains (data units)
 * @param limits maximum width and height (px)
 * @returns `xDomain`, `yDomain`, `width` and `height` (px, including margins)
 * @throws {RangeError} when a domain is empty
 */
export function equalAspectFrame(
  dom: { x: [number, number]; y: [number, number] },
  limits: { maxWidth?: number; maxHeight?: number },
): { xDomain: [number, number]; yDomain: [number, number]; width: number; height: number } {
  const { width, height } = equalAspectSize(dom.x, dom.y, limits);
  return { xDomain: dom.x, yDomain: dom.y, width, height };
}

let tokenCounter = 0;

/**
 * Renders a Plot chart as an SVG panel; raw layers become placeholders filled after
 * serialisation.
 *
 * @param options domains, size, labels and marks
 * @returns the panel
 * @example
 * ```ts
 * import { plotPanel } from "./panel.ts";
 * import { expect } from "expect";
 * const p = plotPanel({
 *   xDomain: [0, 1], yDomain: [0, 1], width: 200, height: 200, marks: [
 *     { raw: (sx, sy, k) => `<circle cx="${sx(0.5)}" cy="${sy(0.5)}" r="${0.25 * k}"/>` },
 *   ],
 * });
 * expect(p.svg).toContain('xmlns="http://www.w3.org/2000/svg"');
 * // the inner frame is 200 − 54 − 14 = 132 px wide: centre at 54 + 66, radius 132 / 4
 * expect(p.svg).toContain('<circle cx="120" cy="93" r="33"/>');
 * ```
 */
export function plotPanel(options: PanelOptions): Panel {
  options = plotOptions("plotPanel", options, {
    ...AXES_RULES,
    xDomain: "range",
    yDomain: "range",
    grid: "boolean",
    marks: "any",
  });
  if (!Array.isArray(options.marks)) {
    throw new TypeError(`plotPanel: options.marks (${String(options.marks)}) must be an array`);
  }
  const width = options.width ?? 560, height = options.height ?? 360;
  const chunks = new Map<string, string>();
  const marks: object[] = options.marks.map((m) => {
    if (!isRaw(m)) return m;
    const token = `gl${++tokenCounter}`;
    return Plot.dot([0], {
      x: () => options.xDomain[0],
      y: () => options.yDomain[0],
      render: (
        _index: number[],
        scales: { x?: (v: number) => number; y?: (v: number) => number },
        _values: unknown,
        _dims: unknown,
        context: { document: DomDocument },
      ) => {
        const sx = scales.x!, sy = scales.y!;
        const k = Math.abs(sx(options.xDomain[1]) - sx(options.xDomain[0])) /
          (options.xDomain[1] - options.xDomain[0]);
        chunks.set(token, m.raw(sx, sy, k));
        const g = context.document.createElementNS("http://www.w3.org/2000/svg", "g");
        g.setAttribute("data-gl", token);
        return g as never;
      },
    } as Plot.DotOptions);
  });
  if (options.title) {
    marks.push(
      Plot.text([options.title], {
        frameAnchor: "top-left",
        dy: -MARGIN.top + 4,
        dx: 0,
        fontSize: 12,
        fontWeight: "bold",
        lineAnchor: "top",
      }),
    );
  }
  const el = Plot.plot({
    document: plotDocument() as never,
    width,
    height,
    marginTop: MARGIN.top,
    marginRight: MARGIN.right,
    marginBottom: MARGIN.bottom,
    marginLeft: MARGIN.left,
    style: { fontFamily: "DejaVu Sans, sans-serif", fontSize: "10px", background: "white" },
    x: {
      domain: options.xDomain,
      label: options.xLabel ?? null,
      grid: options.grid,
      type: options.xType ?? "linear",
      ...(options.xType === "log" ? { tickFormat: logTick } : {}),
    },
    y: {
      domain: options.yDomain,
      label: options.yLabel ?? null,
      type: options.yType ?? "linear",
      grid: options.grid,
      ...(options.yType === "log" ? { tickFormat: logTick } : {}),
    },
    marks: marks as Plot.Markish[],
  }) as unknown as DomElement;
  let svg = el.outerHTML;
  svg = svg.replace(
    /<g data-gl="(gl\d+)"\s*(?:\/>|><\/g>)/g,
    (_m, t: string) => `<g>${chunks.get(t) ?? ""}</g>`,
  );
  if (!/^<svg[^>]*\sxmlns=/.test(svg)) {
    svg = svg.replace(/^<svg/, `<svg xmlns="http://www.w3.org/2000/svg"`);
  }
  return { svg, width, height };
}

function isRaw(m: unknown): m is RawLayer {
  return typeof m === "object" && m !== null && typeof (m as RawLayer).raw === "function";
}

/** Formats a pixel coordinate compactly. */
export function px(v: number): string {
  return (Math.round(v * 100) / 100).toString();
}

/** Log-axis tick labels: 1, 2 and 5 × 10ⁿ, others (3, 4, 6 … × 10ⁿ) left blank. */
function logTick(v: number): string {
  const n = Math.floor(Math.log10(v) + 1e-9), m = Math.round(v / 10 ** n);
  if (Math.abs(v / 10 ** n - m) > 1e-6 || ![1, 2, 5].includes(m)) return "";
  return n >= -3 && n <= 4 ? String(Number(v.toPrecision(1))) : `${m}e${n}`;
}
