/**
 * {@link rftMaps}: the resistive-force coefficients α_z(β, γ) and α_x(β, γ) of one or more RFT
 * models (a measured table, its Fourier fit, a scaled generic medium) as colour maps side by
 * side, one row per component, with the values printed in the cells.
 *
 * @module
 */

import * as Plot from "@observablehq/plot";
import { colorScale } from "./color.ts";
import { compose, type Figure, type Panel } from "./figure.ts";
import { plotFigure } from "./marks/plot_figure.ts";
import { plotOptions } from "./options.ts";

/**
 * One model of {@link rftMaps}: a label and anything with `alphaZAt` / `alphaXAt` (N/m³), such
 * as sphere3d's `RftTable` and `RftFourier`.
 */
export interface RftMapModel {
  /** Panel title. */
  label: string;
  /** The stress model: α_z(β, γ) and α_x(β, γ) in N/m³, angles in radians. */
  model: {
    alphaZAt(beta: number, gamma: number): number;
    alphaXAt(beta: number, gamma: number): number;
  };
}

/** Options of {@link rftMaps}. */
export interface RftMapsOptions {
  /** Title above the panels. */
  title?: string;
  /** Subtitle under the title. */
  subtitle?: string;
  /** Side of each square panel (px). @default 340 */
  size?: number;
  /**
   * The β and γ grid of the cells (rad, ascending, in [−π/2, π/2]).
   * @default the first model's own grid if it has `beta` and `gamma` (a table), else 13 points
   */
  grid?: { beta: ArrayLike<number>; gamma: ArrayLike<number> };
  /** Print each cell's value (N/cm³, two decimals, no leading zero). @default true */
  values?: boolean;
}

const HALF_PI = Math.PI / 2;
const DEG = 180 / Math.PI;

/**
 * α_z (top row) and α_x (bottom row) of each model over β (x axis) and γ (y axis), in N/cm³, on
 * one diverging colour scale per row (red up or against the motion, blue the other way), with a
 * legend per row. Each cell is centred on its grid point and reaches halfway to its neighbours.
 *
 * @param models the models, one column each
 * @param options title, panel size, grid, printed values
 * @returns the figure; `info.models` and `info.cells` (per panel) count what was drawn
 * @throws {RangeError} when there is no model, more than six, or the grid is not ascending in
 *   [−π/2, π/2] with at least two points per axis
 * @throws {TypeError} when a model lacks `alphaZAt` / `alphaXAt` or a label
 * @example
 * ```ts
 * import { rftMaps } from "@grainlab/grainlab/plot";
 * import { RftFourier, RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const table = RftTable.fromFourier({ zeta: 0.5, betaCount: 7, gammaCount: 7 });
 * const fig = rftMaps([
 *   { label: "table", model: table },
 *   { label: "generic", model: new RftFourier() },
 * ]);
 * expect(fig.info).toMatchObject({ models: 2, cells: 49 });
 * expect(fig.svg).toContain("α_z: generic");
 * expect(fig.svg).toContain(">.50<"); // α_z(0, π/2) of the table, N/cm³
 * expect(() => rftMaps([])).toThrow(RangeError);
 * ```
 */
export function rftMaps(models: readonly RftMapModel[], options: RftMapsOptions = {}): Figure {
  const where = "rftMaps";
  options = plotOptions(where, options, {
    title: "string",
    subtitle: "string",
    size: "size",
    grid: "object",
    values: "boolean",
  });
  if (!Array.isArray(models) || models.length === 0 || models.length > 6) {
    throw new RangeError(
      `${where}: models (${Array.isArray(models) ? models.length : String(models)}) must be ` +
        `an array of 1 to 6 { label, model }`,
    );
  }
  models.forEach((m, k) => {
    if (
      m === null || typeof m !== "object" || typeof m.label !== "string" ||
      m.model === null || typeof m.model !== "object" ||
      typeof m.model.alphaZAt !== "function" || typeof m.model.alphaXAt !== "function"
    ) {
      throw new TypeError(
        `${where}: models[${k}] must be { label: string, model: { alphaZAt, alphaXAt } }`,
      );
    }
  });
  const first = models[0].model as Partial<{ beta: Float64Array; gamma: Float64Array }>;
  const grid = options.grid ??
    (first.beta && first.gamma ? { beta: first.beta, gamma: first.gamma } : evenGrid(13));
  const beta = axis(where, "grid.beta", grid.beta);
  const gamma = axis(where, "grid.gamma", grid.gamma);
  const size = options.size ?? 340, printValues = options.values ?? true;
  const panels: Panel[] = [];
  const xLo = edge(beta, 0, -1) * DEG, xHi = edge(beta, beta.length - 1, 1) * DEG;
  const yLo = edge(gamma, 0, -1) * DEG, yHi = edge(gamma, gamma.length - 1, 1) * DEG;
  for (const component of ["z", "x"] as const) {
    const cells = models.map(({ model }) => {
      const out: {
        b: number;
        g: number;
        b0: number;
        b1: number;
        g0: number;
        g1: number;
        a: number;
      }[] = [];
      for (let i = 0; i < beta.length; i++) {
        for (let j = 0; j < gamma.length; j++) {
          const a = component === "z"
            ? model.alphaZAt(beta[i], gamma[j])
            : model.alphaXAt(beta[i], gamma[j]);
          out.push({
            b: beta[i] * DEG,
            g: gamma[j] * DEG,
            b0: edge(beta, i, -1) * DEG,
            b1: edge(beta, i, 1) * DEG,
            g0: edge(gamma, j, -1) * DEG,
            g1: edge(gamma, j, 1) * DEG,
            a: a / 1e6,
          });
        }
      }
      return out;
    });
    let m = 0;
    for (const c of cells.flat()) if (Number.isFinite(c.a)) m = Math.max(m, Math.abs(c.a));
    const scale = colorScale([-m, m], {
      type: "linear",
      scheme: "BuRd",
      domain: [-(m || 1), m || 1],
      label: `α_${component} (N/cm³)`,
    });
    models.forEach(({ label }, k) => {
      panels.push(plotFigure({
        width: size,
        height: size,
        marginTop: 28,
        marginLeft: 44,
        x: { label: "β (°)", domain: [xLo, xHi] },
        y: { label: "γ (°)", domain: [yLo, yHi] },
        marks: [
          Plot.rect(cells[k], {
            x1: "b0",
            x2: "b1",
            y1: "g0",
            y2: "g1",
            fill: (c: { a: number }) => scale.apply(c.a),
          }),
          ...(printValues
            ? [
              Plot.text(cells[k], {
                x: "b",
                y: "g",
                text: (c: { a: number }) => c.a.toFixed(2).replace(/^(-?)0\./, "$1."),
                fontSize: Math.max(5, Math.min(10, (0.34 * (size - 64)) / beta.length)),
              }),
            ]
            : []),
          Plot.text([`α_${component}: ${label}`], {
            frameAnchor: "top",
            dy: -20,
            fontWeight: "bold",
          }),
        ],
      }));
    });
    panels.push(scale.legend({ height: size }));
  }
  return compose(panels, {
    columns: models.length + 1,
    title: options.title,
    subtitle: options.subtitle,
    info: { models: models.length, cells: beta.length * gamma.length },
  });
}

/** n evenly spaced angles over [−π/2, π/2]. */
function evenGrid(n: number): { beta: Float64Array; gamma: Float64Array } {
  const a = Float64Array.from({ length: n }, (_, k) => -HALF_PI + (Math.PI * k) / (n - 1));
  return { beta: a, gamma: a };
}

/** The edge of cell k towards side (±1): halfway to the neighbour, or mirrored at the ends. */
function edge(a: Float64Array, k: number, side: -1 | 1): number {
  const n = a[k + side];
  if (n !== undefined) return (a[k] + n) / 2;
  return a[k] + (a[k] - a[k - side]) / 2;
}

/** Checks one grid axis: ≥ 2 finite angles, ascending, within [−π/2, π/2]. */
function axis(where: string, name: string, v: ArrayLike<number> | undefined): Float64Array {
  if (v === undefined || v === null || typeof v !== "object" || typeof v.length !== "number") {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be an array of angles (rad)`);
  }
  const a = Float64Array.from(v);
  if (a.length < 2) throw new RangeError(`${where}: ${name} has ${a.length} points, needs ≥ 2`);
  for (let k = 0; k < a.length; k++) {
    if (!Number.isFinite(a[k]) || Math.abs(a[k]) > HALF_PI + 1e-9 || (k > 0 && a[k] <= a[k - 1])) {
      throw new RangeError(
        `${where}: ${name}[${k}] (${a[k]}) must be finite, ascending and within [−π/2, π/2]`,
      );
    }
  }
  return a;
}
