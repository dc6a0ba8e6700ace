/**
 * The star-shape distance study (StarDEM, Figure 3): maps of the first-order and radial
 * distance errors relative to the exact Euclidean distance around a shape.
 *
 * @module
 */

import { colorScale } from "./color.ts";
import { compose, type Figure, type Panel } from "./figure.ts";
import { equalAspectFrame, plotPanel, px, type RawLayer } from "./panel.ts";
import { plotOptions } from "./options.ts";

/** Sampled distances around a shape (the shape of star2d's `distanceErrorMap` result). */
export interface DistanceErrorMapLike {
  /** Number of points. */
  count: number;
  /** Point x (m), on a regular grid. */
  x: ArrayLike<number>;
  /** Point y (m). */
  y: ArrayLike<number>;
  /** Relative error of the first-order distance. */
  firstOrderError: ArrayLike<number>;
  /** Relative error of the radial distance. */
  radialError: ArrayLike<number>;
}

/** Options of {@link distanceErrorFigure}. */
export interface DistanceErrorOptions {
  /** The shape's outline (x, y interleaved, m), drawn over the maps. */
  outline?: ArrayLike<number>;
  /** Error range of the logarithmic colour scale. @default [1e-4, 1] */
  domain?: [number, number];
  /** Title. @default "Distance error relative to the exact Euclidean distance" */
  title?: string;
  /** Subtitle. */
  subtitle?: string;
  /** Maximum width of each map (px). @default 360 */
  width?: number;
  /** Colour scheme. @default "magma" */
  scheme?: string;
}

function gridStep(v: ArrayLike<number>): number {
  const u = Float64Array.from(new Set(Array.from(v))).sort();
  let step = Infinity;
  for (let k = 1; k < u.length; k++) step = Math.min(step, u[k] - u[k - 1]);
  return Number.isFinite(step) ? step : 1;
}

/**
 * Side-by-side maps of the first-order and radial distance errors around a star shape, on a
 * shared logarithmic colour scale, with the outline drawn on top.
 *
 * @param map sampled distances (e.g. star2d's `distanceErrorMap(shape)`)
 * @param options outline, colour domain, title
 * @returns the figure; `info.maxFirstOrderError`, `info.maxRadialError`, `info.points`
 * @throws {RangeError} when the map is empty
 * @example
 * ```ts
 * import { distanceErrorFigure } from "@grainlab/grainlab/plot";
 * const map = {
 *   count: 4, x: [-1, 1, -1, 1], y: [-1, -1, 1, 1],
 *   firstOrderError: [0.01, 0.02, 0.01, 0.02], radialError: [0.1, 0.3, 0.1, 0.2],
 * };
 * import { expect } from "expect";
 * const fig = distanceErrorFigure(map);
 * expect(fig.info).toMatchObject({ maxFirstOrderError: 0.02, maxRadialError: 0.3 });
 * expect(fig.svg.match(/<rect /g)!.length).toBeGreaterThanOrEqual(8); // 4 cells in each map
 * ```
 */
export function distanceErrorFigure(
  map: DistanceErrorMapLike,
  options: DistanceErrorOptions = {},
): Figure {
  const where = "distanceErrorFigure";
  options = plotOptions(where, options, {
    outline: "any",
    domain: "range",
    title: "string",
    subtitle: "string",
    width: "size",
    scheme: "string",
  });
  if (!map || !(map.count > 0)) throw new RangeError(`${where}: map has no points`);
  const n = map.count;
  const hx = gridStep(Array.prototype.slice.call(map.x, 0, n));
  const hy = gridStep(Array.prototype.slice.call(map.y, 0, n));
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  let mfo = 0, mra = 0;
  for (let i = 0; i < n; i++) {
    x0 = Math.min(x0, map.x[i] - hx / 2);
    x1 = Math.max(x1, map.x[i] + hx / 2);
    y0 = Math.min(y0, map.y[i] - hy / 2);
    y1 = Math.max(y1, map.y[i] + hy / 2);
    mfo = Math.max(mfo, map.firstOrderError[i]);
    mra = Math.max(mra, map.radialError[i]);
  }
  const scale = colorScale([], {
    type: "log",
    domain: options.domain ?? [1e-4, 1],
    scheme: options.scheme ?? "magma",
    label: "relative error",
  });
  const frame = equalAspectFrame({ x: [x0, x1], y: [y0, y1] }, {
    maxWidth: options.width ?? 360,
    maxHeight: options.width ?? 360,
  });
  const outline: RawLayer = {
    raw(sx, sy) {
      const o = options.outline;
      if (!o || o.length < 6) return "";
      let d = "";
      for (let v = 0; v < o.length; v += 2) {
        d += `${v ? "L" : "M"}${px(sx(o[v]))},${px(sy(o[v + 1]))}`;
      }
      return `<path d="${d}Z" fill="none" stroke="#0af" stroke-width="1.5"/>`;
    },
  };
  const panel = (values: ArrayLike<number>, title: string): Panel => {
    const layer: RawLayer = {
      raw(sx, sy, k) {
        const w = px(hx * k + 0.35), hh = px(hy * k + 0.35);
        const out: string[] = [];
        for (let i = 0; i < n; i++) {
          out.push(
            `<rect x="${px(sx(map.x[i] - hx / 2))}" y="${
              px(sy(map.y[i] + hy / 2))
            }" width="${w}" ` +
              `height="${hh}" fill="${scale.apply(Math.max(values[i], 1e-300))}"/>`,
          );
        }
        return out.join("");
      },
    };
    return plotPanel({
      ...frame,
      xLabel: "x (m)",
      yLabel: "y (m)",
      title,
      marks: [layer, outline],
    });
  };
  return compose(
    [
      panel(map.firstOrderError, `first-order (max ${mfo.toExponential(1)})`),
      panel(map.radialError, `radial (max ${mra.toExponential(1)})`),
    ],
    {
      title: options.title ?? "Distance error relative to the exact Euclidean distance",
      subtitle: options.subtitle,
      legend: scale.legend(),
      info: { points: n, maxFirstOrderError: mfo, maxRadialError: mra },
    },
  );
}
