/**
 * Time series: energies, contact counts, penetration, and the ipc1d bar's end position and
 * contact force against the analytic curve.
 *
 * @module
 */

import * as Plot from "@observablehq/plot";
import { Table } from "apache-arrow";
import { swatches } from "./color.ts";
import { compose, type Figure } from "./figure.ts";
import { plotPanel } from "./panel.ts";
import { AXES_RULES, plotOptions, type Rule } from "./options.ts";

/** One curve: x and y values, a label, and an optional style. */
export interface Series {
  /** Legend label. */
  label: string;
  /** x values. */
  x: ArrayLike<number>;
  /** y values (same length as x). */
  y: ArrayLike<number>;
  /** CSS colour. @default from the "tableau10" palette */
  color?: string;
  /** SVG dash pattern, e.g. "4,3". @default solid */
  dash?: string;
  /** Draw points instead of a line. @default false */
  points?: boolean;
}

/** Options of {@link lines}. */
export interface LinesOptions {
  /** x-axis label. */
  xLabel?: string;
  /** y-axis label. */
  yLabel?: string;
  /** y scale. @default "linear" */
  yType?: "linear" | "log";
  /** x scale. @default "linear" */
  xType?: "linear" | "log";
  /** Title. */
  title?: string;
  /** Subtitle. */
  subtitle?: string;
  /** Panel width (px). @default 600 */
  width?: number;
  /** Panel height (px). @default 320 */
  height?: number;
  /** At most this many points per curve (evenly subsampled). @default 2000 */
  maxPoints?: number;
  /** Fixed y domain. */
  yDomain?: [number, number];
}

const PALETTE = [
  "#4e79a7",
  "#f28e2c",
  "#e15759",
  "#76b7b2",
  "#59a14f",
  "#edc949",
  "#af7aa1",
  "#ff9da7",
  "#9c755f",
  "#bab0ab",
];

/** The rules of {@link LinesOptions}' keys. */
const LINES_RULES: Readonly<Record<string, Rule>> = {
  ...AXES_RULES,
  subtitle: "string",
  maxPoints: "count",
  yDomain: "range",
};

/**
 * Line chart of several curves with a legend.
 *
 * @param series the curves
 * @param options labels, scale, size
 * @returns the figure; `info.series` and `info.points` count what was drawn
 * @throws {RangeError} when there is no curve or x and y lengths differ
 * @example
 * ```ts
 * import { lines } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const t = [0, 1, 2, 3];
 * const fig = lines([{ label: "a", x: t, y: [0, 1, 4, 9] }, { label: "b", x: t, y: [0, 1, 2, 3], dash: "4,3" }]);
 * expect(fig.info).toMatchObject({ series: 2, points: 8 });
 * expect(fig.svg).toContain('stroke-dasharray="4,3"');
 * expect(() => lines([{ label: "bad", x: [0, 1], y: [0] }])).toThrow(RangeError);
 * ```
 */
export function lines(series: readonly Series[], options: LinesOptions = {}): Figure {
  options = plotOptions("lines", options, LINES_RULES);
  if (!Array.isArray(series) || series.length === 0) {
    throw new RangeError(`lines: series must be a non-empty array`);
  }
  const maxP = options.maxPoints ?? 2000;
  const rows: { x: number; y: number; s: number }[] = [];
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  series.forEach((s, k) => {
    if (s.x.length !== s.y.length) {
      throw new RangeError(
        `lines: series "${s.label}" has ${s.x.length} x values and ${s.y.length} y values`,
      );
    }
    const stride = Math.max(1, Math.ceil(s.x.length / maxP));
    for (let i = 0; i < s.x.length; i += stride) {
      const x = s.x[i], y = s.y[i];
      if (!Number.isFinite(x) || !Number.isFinite(y)) continue;
      if (options.yType === "log" && !(y > 0)) continue;
      if (options.xType === "log" && !(x > 0)) continue;
      rows.push({ x, y, s: k });
      x0 = Math.min(x0, x);
      x1 = Math.max(x1, x);
      y0 = Math.min(y0, y);
      y1 = Math.max(y1, y);
    }
  });
  if (!Number.isFinite(x0)) [x0, x1, y0, y1] = [0, 1, 0, 1];
  if (!(x1 > x0)) x1 = options.xType === "log" ? x0 * 10 : x0 + 1;
  if (!(y1 > y0)) [y0, y1] = [y0 - 0.5 * (Math.abs(y0) || 1), y1 + 0.5 * (Math.abs(y1) || 1)];
  if (options.yType === "log") [y0, y1] = [y0 / 1.4, y1 * 1.4];
  if (options.xType === "log") [x0, x1] = [x0 / 1.15, x1 * 1.15];
  const padY = options.yType === "log" ? 0 : 0.04 * (y1 - y0);
  const color = (k: number) => series[k].color ?? PALETTE[k % PALETTE.length];
  const marks: Plot.Mark[] = [];
  series.forEach((s, k) => {
    const data = rows.filter((r) => r.s === k);
    if (s.points) {
      marks.push(Plot.dot(data, { x: "x", y: "y", r: 2.2, fill: color(k) }));
    } else {
      marks.push(
        Plot.line(data, {
          x: "x",
          y: "y",
          stroke: color(k),
          strokeWidth: 1.8,
          strokeDasharray: s.dash,
        }),
      );
    }
  });
  const panel = plotPanel({
    xDomain: [x0, x1],
    yDomain: options.yDomain ?? [y0 - padY, y1 + padY],
    yType: options.yType,
    xType: options.xType,
    width: options.width ?? 600,
    height: options.height ?? 320,
    xLabel: options.xLabel,
    yLabel: options.yLabel,
    grid: true,
    marks,
  });
  const legend = swatches(
    series.map((s, k) => ({ label: s.label, color: color(k), dash: s.dash })),
    { line: true },
  );
  return compose([panel], {
    title: options.title,
    subtitle: options.subtitle,
    legend,
    info: { series: series.length, points: rows.length },
  });
}

/** Rows with numeric fields, or an Arrow table (e.g. from `statsTable`, `barTable`). */
export type SeriesSource = Table | readonly Record<string, number>[];

/** Options of {@link timeSeries}. */
export interface TimeSeriesOptions extends LinesOptions {
  /** Column on the x axis. @default "time" */
  x?: string;
  /** Columns to draw, one curve each. */
  y: string[];
  /** Legend labels for the columns. @default the column names */
  labels?: string[];
}

function column(where: string, src: SeriesSource, name: string): ArrayLike<number> {
  if (src instanceof Table) {
    const v = src.getChild(name);
    if (!v) {
      throw new RangeError(
        `${where}: no column "${name}"; available: ${
          src.schema.fields.map((f) => f.name).join(", ")
        }`,
      );
    }
    return v.toArray() as ArrayLike<number>;
  }
  if (!Array.isArray(src)) throw new TypeError(`${where}: source must be a Table or an array`);
  if (src.length > 0 && !(name in src[0])) {
    throw new RangeError(`${where}: rows have no field "${name}"`);
  }
  return Float64Array.from(src, (r) => Number(r[name]));
}

function unitOf(src: SeriesSource, name: string): string {
  if (!(src instanceof Table)) return "";
  const u = src.schema.fields.find((f) => f.name === name)?.metadata.get("unit");
  return u && u !== "1" ? u : "";
}

/**
 * Columns of a table (or rows) against time: energies, contact counts, penetration.
 *
 * @param source a stats/bar table or an array of rows
 * @param options x and y columns, labels
 * @returns the figure
 * @throws {RangeError} when a column does not exist
 * @example
 * ```ts
 * import { timeSeries } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const rows = [{ time: 0, contacts: 0 }, { time: 1, contacts: 5 }, { time: 2, contacts: 7 }];
 * const fig = timeSeries(rows, { y: ["contacts"], title: "Contacts" });
 * expect(fig.info).toMatchObject({ series: 1, points: 3 });
 * expect(fig.svg).toContain("Contacts");
 * expect(() => timeSeries(rows, { y: ["energy"] })).toThrow(/no field "energy"/);
 * ```
 */
export function timeSeries(source: SeriesSource, options: TimeSeriesOptions): Figure {
  const where = "timeSeries";
  options = plotOptions(where, options, {
    ...LINES_RULES,
    x: "string",
    y: "strings",
    labels: "strings",
  });
  if (!Array.isArray(options.y) || options.y.length === 0) {
    throw new RangeError(`${where}: options.y must name at least one column`);
  }
  const xName = options.x ?? "time";
  const x = column(where, source, xName);
  const xu = unitOf(source, xName);
  const yu = unitOf(source, options.y[0]);
  return lines(
    options.y.map((name, k) => ({
      label: options.labels?.[k] ?? name,
      x,
      y: column(where, source, name),
    })),
    {
      xLabel: xu ? `${xName} (${xu})` : xName,
      yLabel: options.y.length === 1 ? (yu ? `${options.y[0]} (${yu})` : options.y[0]) : yu,
      ...linesPart(options),
    },
  );
}

/** Options of {@link barComparison}. */
export interface BarComparisonOptions extends LinesOptions {
  /** Column to compare. @default "endPosition" */
  y?: string;
  /** The analytic curve: a run-like object with `time` and the `y` column. */
  analytic?: { readonly time: ArrayLike<number>; readonly [column: string]: unknown };
}

/**
 * ipc1d bar runs against the analytic solution: one curve per run (e.g. IPC, penalty) and
 * the analytic curve dashed.
 *
 * @typeParam R the runs' type (labels → runs with a numeric `time` array)
 * @param runs runs by label, each with `time` and the compared column
 * @param options compared column, analytic curve, labels
 * @returns the figure
 * @throws {RangeError} when a run lacks the column
 * @example
 * ```ts
 * import { barComparison } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const t = [0, 0.5, 1];
 * const fig = barComparison({ ipc: { time: t, endPosition: [5, 0.1, 5] } }, {
 *   analytic: { time: t, endPosition: [5, 0, 5] },
 * });
 * expect(fig.info.series).toBe(2); // the run and the analytic curve
 * expect(fig.svg).toContain("ipc");
 * ```
 */
export function barComparison<R extends Record<string, { readonly time: ArrayLike<number> }>>(
  runs: R,
  options: BarComparisonOptions = {},
): Figure {
  if (runs === null || typeof runs !== "object") {
    throw new TypeError(`barComparison: runs (${String(runs)}) must be an object of named runs`);
  }
  options = plotOptions("barComparison", options, { ...LINES_RULES, y: "string", analytic: "any" });
  const y = options.y ?? "endPosition";
  const units: Record<string, string> = {
    endPosition: "m",
    contactForce: "N",
    energy: "J",
    endVelocity: "m/s",
  };
  const get = (label: string, r: object): ArrayLike<number> => {
    const v = (r as Record<string, unknown>)[y];
    if (!(ArrayBuffer.isView(v) || Array.isArray(v))) {
      throw new RangeError(`barComparison: run "${label}" has no numeric column "${y}"`);
    }
    return v as ArrayLike<number>;
  };
  const series: Series[] = Object.entries(runs).map(([label, r]) => ({
    label,
    x: r.time,
    y: get(label, r),
  }));
  if (options.analytic) {
    series.push({
      label: "analytic",
      x: options.analytic.time,
      y: get("analytic", options.analytic),
      color: "#222",
      dash: "5,4",
    });
  }
  return lines(series, {
    xLabel: "time (s)",
    yLabel: units[y] ? `${y} (${units[y]})` : y,
    ...linesPart(options),
  });
}

/** The {@link LinesOptions} part of a function's options (set keys only). */
function linesPart(options: LinesOptions): LinesOptions {
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(LINES_RULES)) {
    const v = (options as Record<string, unknown>)[k];
    if (v !== undefined) out[k] = v;
  }
  return out as LinesOptions;
}
