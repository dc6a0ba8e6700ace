/**
 * Colour scales computed up front (so custom marks need no canvas) and their legends drawn as
 * plain SVG (Plot's own colour legends need a canvas, which linkedom lacks).
 *
 * @module
 */

import * as Plot from "@observablehq/plot";
import { escapeXml } from "./dom.ts";
import type { Panel } from "./figure.ts";
import { plotOptions } from "./options.ts";

/** Options of {@link colorScale}. */
export interface ColorScaleOptions {
  /** "linear", "log" or "categorical". @default "categorical" for ≤ 12 distinct integers, else "linear" */
  type?: "linear" | "log" | "categorical";
  /** Colour scheme name known to Observable Plot. @default "viridis" (linear/log), "tableau10" */
  scheme?: string;
  /** Value range mapped to the ends of the scheme. @default [min, max] of the values */
  domain?: [number, number];
  /** Legend label (column name and unit). */
  label?: string;
  /** Labels for categorical codes (code → label), e.g. material names. */
  labels?: readonly string[];
}

/** A colour scale: value → CSS colour, plus a legend panel. */
export interface ColorScale {
  /** Scale type in use. */
  readonly type: "linear" | "log" | "categorical";
  /** Domain: [min, max] for linear/log, the distinct values for categorical. */
  readonly domain: readonly number[];
  /** Colour of a value. */
  apply(value: number): string;
  /** The legend as an SVG panel. */
  legend(options?: { height?: number }): Panel;
}

/**
 * Builds a colour scale for numeric values.
 *
 * @param values the values to colour (NaN ignored for the domain)
 * @param options type, scheme, domain, label
 * @returns the scale
 * @example
 * ```ts
 * import { colorScale } from "./color.ts";
 * import { expect } from "expect";
 * const s = colorScale([0, 1, 2, 3.5], { label: "speed (m/s)" });
 * expect(s.type).toBe("linear");
 * expect(s.domain).toEqual([0, 3.5]);
 * expect(s.apply(0)).not.toBe(s.apply(3.5));
 * expect(s.apply(NaN)).toBe("#bbb");
 * expect(s.legend().svg).toContain("speed (m/s)");
 * expect(colorScale([0, 1, 1, 2]).type).toBe("categorical");
 * ```
 */
export function colorScale(values: ArrayLike<number>, options: ColorScaleOptions = {}): ColorScale {
  options = plotOptions("colorScale", options, {
    type: ["linear", "log", "categorical"],
    scheme: "string",
    domain: "range",
    label: "string",
    labels: "strings",
  });
  if (values === null || typeof values !== "object" || typeof values.length !== "number") {
    throw new TypeError(`colorScale: values (${String(values)}) must be an array of numbers`);
  }
  if (options.type === "log" && options.domain && !(options.domain[0] > 0)) {
    throw new RangeError(
      `colorScale: options.domain ([${options.domain}]) must be > 0 on a log scale`,
    );
  }
  let lo = Infinity, hi = -Infinity;
  const distinct = new Set<number>();
  for (let i = 0; i < values.length; i++) {
    const v = values[i];
    if (!Number.isFinite(v)) continue;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (distinct.size <= 12) distinct.add(v);
  }
  const allInt = [...distinct].every(Number.isInteger);
  const type = options.type ?? (distinct.size <= 12 && allInt ? "categorical" : "linear");
  const label = options.label ?? "";
  if (type === "categorical") {
    const domain = [...distinct].sort((a, b) => a - b);
    const s = plotScale(options.scheme, () =>
      Plot.scale({
        color: {
          type: "categorical",
          domain,
          scheme: (options.scheme ?? "tableau10") as Plot.ColorScheme,
        },
      }));
    const apply = (v: number) => String(s.apply(v) ?? "#999");
    return {
      type,
      domain,
      apply,
      legend: () =>
        swatches(
          domain.map((v) => ({ label: options.labels?.[v] ?? String(v), color: apply(v) })),
          { title: label },
        ),
    };
  }
  let [d0, d1] = options.domain ?? [lo, hi];
  if (!Number.isFinite(d0) || !Number.isFinite(d1)) [d0, d1] = [0, 1];
  if (type === "log") {
    if (!(d0 > 0)) d0 = d1 > 0 ? d1 * 1e-6 : 1e-6;
    if (!(d1 > d0)) d1 = d0 * 10;
  } else if (!(d1 > d0)) {
    d1 = d0 + (d0 === 0 ? 1 : Math.abs(d0) * 0.01);
  }
  const s = plotScale(options.scheme, () =>
    Plot.scale({
      color: {
        type,
        domain: [d0, d1],
        scheme: (options.scheme ?? "viridis") as Plot.ColorScheme,
        clamp: true,
      },
    }));
  const apply = (v: number) =>
    Number.isFinite(v) && (type !== "log" || v > 0) ? String(s.apply(v)) : "#bbb";
  return {
    type,
    domain: [d0, d1],
    apply,
    legend: (o = {}) => colorBar(apply, [d0, d1], { label, height: o.height, log: type === "log" }),
  };
}

/** Plot's scale, its error on an unknown scheme named as an option's. */
function plotScale<S>(scheme: string | undefined, make: () => S): S {
  try {
    return make();
  } catch (e) {
    throw new RangeError(
      `colorScale: options.scheme (${JSON.stringify(scheme)}) is not a colour scheme Observable ` +
        `Plot knows (${(e as Error).message}); e.g. "viridis", "turbo", "blues", "tableau10"`,
    );
  }
}

/**
 * "Nice" tick values between `lo` and `hi` (steps 1, 2, 5 × 10ⁿ).
 *
 * @param lo lower end
 * @param hi upper end
 * @param count approximate number of ticks @default 5
 * @returns tick values within [lo, hi]
 * @example
 * ```ts
 * import { niceTicks } from "./color.ts";
 * import { expect } from "expect";
 * expect(niceTicks(0, 1)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
 * expect(niceTicks(0, 0.035, 4)).toEqual([0, 0.01, 0.02, 0.03]);
 * ```
 */
export function niceTicks(lo: number, hi: number, count = 5): number[] {
  if (!(hi > lo)) return [lo];
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * mag).find((s) => s >= raw) ?? raw;
  const out: number[] = [];
  for (let t = Math.ceil(lo / step) * step; t <= hi + step * 1e-9; t += step) {
    out.push(Number(t.toPrecision(12)));
  }
  return out;
}

function fmt(v: number): string {
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(1);
  return String(Number(v.toPrecision(4)));
}

/** A vertical colour bar with ticks and a label, as an SVG panel. */
function colorBar(
  apply: (v: number) => string,
  [d0, d1]: [number, number],
  options: { label: string; height?: number; log?: boolean },
): Panel {
  const h = options.height ?? 200, barW = 14, top = 24, bottom = 10, steps = 48;
  const barH = h - top - bottom;
  const toV = (t: number) => options.log ? d0 * (d1 / d0) ** t : d0 + (d1 - d0) * t;
  const parts: string[] = [];
  for (let k = 0; k < steps; k++) {
    const y0 = top + barH * (1 - (k + 1) / steps);
    parts.push(
      `<rect x="0" y="${y0.toFixed(2)}" width="${barW}" height="${
        (barH / steps + 0.6).toFixed(2)
      }"` +
        ` fill="${apply(toV((k + 0.5) / steps))}"/>`,
    );
  }
  const ticks = options.log
    ? Array.from(
      { length: Math.floor(Math.log10(d1)) - Math.ceil(Math.log10(d0)) + 1 },
      (_, k) => 10 ** (Math.ceil(Math.log10(d0)) + k),
    )
    : [
      d0,
      ...niceTicks(d0, d1, 4).filter((t) => Math.min(t - d0, d1 - t) > 0.12 * (d1 - d0)),
      d1,
    ];
  for (const t of ticks) {
    const f = options.log ? Math.log(t / d0) / Math.log(d1 / d0) : (t - d0) / (d1 - d0);
    const y = top + barH * (1 - f);
    parts.push(
      `<line x1="${barW}" x2="${barW + 4}" y1="${y.toFixed(1)}" y2="${
        y.toFixed(1)
      }" stroke="#333"/>`,
      `<text x="${barW + 6}" y="${(y + 3.5).toFixed(1)}" font-size="10" fill="#333">${
        fmt(t)
      }</text>`,
    );
  }
  const width = Math.max(74, Math.ceil(options.label.length * 6.3) + 4);
  return {
    width,
    height: h,
    svg: `<svg width="${width}" height="${h}" font-family="DejaVu Sans, sans-serif">` +
      `<text x="0" y="12" font-size="10" fill="#333">${escapeXml(options.label)}</text>` +
      `<rect x="0" y="${top}" width="${barW}" height="${barH}" fill="none" stroke="#333"/>` +
      parts.join("") + `</svg>`,
  };
}

/**
 * A swatch legend (coloured squares with labels) as an SVG panel.
 *
 * @param items label/colour pairs
 * @param options title and line style (`"line"` draws short lines instead of squares)
 * @returns the legend panel
 * @example
 * ```ts
 * import { swatches } from "./color.ts";
 * import { expect } from "expect";
 * const p = swatches([{ label: "glass", color: "steelblue" }, { label: "sand", color: "orange" }]);
 * expect(p.svg).toContain("glass");
 * expect(p.svg.match(/<rect /g)?.length).toBe(2);
 * expect(p.height).toBe(4 + 2 * 16 + 4);
 * ```
 */
export function swatches(
  items: readonly { label: string; color: string; dash?: string }[],
  options: { title?: string; line?: boolean } = {},
): Panel {
  options = plotOptions("swatches", options, { title: "string", line: "boolean" });
  if (!Array.isArray(items)) {
    throw new TypeError(`swatches: items (${String(items)}) must be an array of { label, color }`);
  }
  const rowH = 16, top = options.title ? 22 : 4;
  const longest = Math.max(4, ...items.map((i) => i.label.length), (options.title ?? "").length);
  const width = Math.min(260, 26 + longest * 6.2);
  const parts = items.map((it, k) => {
    const y = top + k * rowH;
    const mark = options.line
      ? `<line x1="0" x2="18" y1="${y + 6}" y2="${y + 6}" stroke="${it.color}" stroke-width="2.5"${
        it.dash ? ` stroke-dasharray="${it.dash}"` : ""
      }/>`
      : `<rect x="0" y="${y}" width="12" height="12" fill="${it.color}"/>`;
    return mark +
      `<text x="${options.line ? 22 : 16}" y="${y + 10}" font-size="10" fill="#333">${
        escapeXml(it.label)
      }</text>`;
  });
  const height = top + items.length * rowH + 4;
  return {
    width,
    height,
    svg: `<svg width="${width}" height="${height}" font-family="DejaVu Sans, sans-serif">` +
      (options.title
        ? `<text x="0" y="12" font-size="10" fill="#333">${escapeXml(options.title)}</text>`
        : "") +
      parts.join("") + `</svg>`,
  };
}
