/**
 * Maps of 3D beds: the height of the free surface over the floor, and thin slices.
 *
 * @module
 */

import { colorScale } from "./color.ts";
import { compose, type Figure } from "./figure.ts";
import { equalAspectFrame, plotPanel, px, type RawLayer } from "./panel.ts";
import { bounds, labelOf, particleColumns, type ParticleSource } from "./source.ts";
import { checkColumns } from "./marks/common.ts";
import type { ParticleFigureOptions } from "./particles.ts";
import { FIGURE_RULES, plotOptions } from "./options.ts";

/** Options of {@link heightMap}. */
export interface HeightMapOptions {
  /** Cells across x. @default 40 */
  cells?: number;
  /** Colour scheme. @default "viridis" */
  scheme?: string;
  /** Title. */
  title?: string;
  /** Subtitle. */
  subtitle?: string;
  /** Maximum panel width (px). @default 520 */
  width?: number;
}

/** The most cells along x {@link heightMap} draws. */
const MAX_CELLS = 1000;

/**
 * Height of the free surface: for each x–y cell, the highest sphere top (z + radius) over it.
 * Empty cells stay blank.
 *
 * @param source a sphere3d system or a 3D particles table
 * @param options cells, scheme, title
 * @returns the figure; `info.maxHeight` and `info.meanHeight` (m) over filled cells
 * @throws {RangeError} when the source is 2D or `cells` is not an integer ≥ 2
 * @example
 * ```ts
 * import { heightMap } from "@grainlab/grainlab/plot";
 * const s = { count: 2, positions: [0, 0, 0.1, 1, 1, 0.3], velocities: [0, 0, 0, 0, 0, 0], radii: [0.1, 0.1] };
 * import { expect } from "expect";
 * const fig = heightMap(s, { cells: 4 });
 * expect(Number(fig.info.maxHeight)).toBeCloseTo(0.4, 12); // top of the higher sphere: 0.3 + 0.1
 * expect(() => heightMap(s, { cells: 1 })).toThrow(RangeError);
 * ```
 */
export function heightMap(source: ParticleSource, options: HeightMapOptions = {}): Figure {
  const where = "heightMap";
  options = plotOptions(where, options, {
    cells: "count",
    scheme: "string",
    title: "string",
    subtitle: "string",
    width: "size",
  });
  const cols = particleColumns(where, source);
  if (cols.dim !== 3) throw new RangeError(`${where}: source is 2D, need a 3D bed`);
  const nx = options.cells ?? 40;
  if (!Number.isInteger(nx) || nx < 2 || nx > MAX_CELLS) {
    throw new RangeError(
      `${where}: options.cells is ${nx}, must be an integer in [2, ${MAX_CELLS}]`,
    );
  }
  checkColumns(where, cols, "x", "y");
  checkColumns(where, cols, "z", "z");
  const X = cols.get("x"), Y = cols.get("y"), Z = cols.get("z");
  const R = cols.has("radius") ? cols.get("radius") : undefined;
  const dom = bounds(X, Y, R, cols.n, 0);
  const h = (dom.x[1] - dom.x[0]) / nx;
  const ny = Math.max(1, Math.ceil((dom.y[1] - dom.y[0]) / h - 1e-9));
  const top = new Float64Array(nx * ny).fill(NaN);
  for (let i = 0; i < cols.n; i++) {
    const r = R ? R[i] : 0;
    // every cell the sphere's footprint touches
    const cx0 = Math.max(0, Math.floor((X[i] - r - dom.x[0]) / h));
    const cx1 = Math.min(nx - 1, Math.floor((X[i] + r - dom.x[0]) / h));
    const cy0 = Math.max(0, Math.floor((Y[i] - r - dom.y[0]) / h));
    const cy1 = Math.min(ny - 1, Math.floor((Y[i] + r - dom.y[0]) / h));
    for (let cy = cy0; cy <= cy1; cy++) {
      for (let cx = cx0; cx <= cx1; cx++) {
        const k = cy * nx + cx, z = Z[i] + r;
        if (!(top[k] >= z)) top[k] = z;
      }
    }
  }
  let sum = 0, filled = 0, max = -Infinity;
  for (const t of top) {
    if (Number.isFinite(t)) {
      sum += t;
      filled++;
      max = Math.max(max, t);
    }
  }
  const scale = colorScale(top, {
    type: "linear",
    scheme: options.scheme ?? "viridis",
    label: "surface height (m)",
  });
  const yDom: [number, number] = [dom.y[0], dom.y[0] + ny * h];
  const frame = equalAspectFrame(
    { x: dom.x, y: yDom },
    { maxWidth: options.width ?? 520, maxHeight: 460 },
  );
  const layer: RawLayer = {
    raw(sx, sy, k) {
      const out: string[] = [];
      const w = px(h * k + 0.3);
      for (let cy = 0; cy < ny; cy++) {
        for (let cx = 0; cx < nx; cx++) {
          const t = top[cy * nx + cx];
          if (!Number.isFinite(t)) continue;
          out.push(
            `<rect x="${px(sx(dom.x[0] + cx * h))}" y="${px(sy(dom.y[0] + (cy + 1) * h))}" ` +
              `width="${w}" height="${w}" fill="${scale.apply(t)}"/>`,
          );
        }
      }
      return out.join("");
    },
  };
  const panel = plotPanel({
    ...frame,
    xLabel: "x (m)",
    yLabel: "y (m)",
    marks: [layer],
  });
  return compose([panel], {
    title: options.title,
    subtitle: options.subtitle,
    legend: scale.legend(),
    info: {
      cells: filled,
      maxHeight: filled ? max : NaN,
      meanHeight: filled ? sum / filled : NaN,
    },
  });
}

/** Options of {@link slice3d}. */
export interface Slice3dOptions extends ParticleFigureOptions {
  /** Axis normal to the slice. @default "y" */
  axis?: "x" | "y" | "z";
  /** Position of the slice plane along `axis` (m). @default the middle of the bed */
  at?: number;
}

/**
 * A planar cut through a 3D bed: every sphere the plane crosses drawn as its circle of
 * intersection (true size), coloured by any column.
 *
 * @param source a sphere3d system or a 3D particles table
 * @param options axis, position, colour, title
 * @returns the figure; `info.cut` counts spheres the plane crosses
 * @throws {RangeError} when the source is 2D
 * @example
 * ```ts
 * import { slice3d } from "@grainlab/grainlab/plot";
 * const s = { count: 2, positions: [0, 0, 0.1, 0, 0.5, 0.1], velocities: [0, 0, 0, 0, 0, 0], radii: [0.1, 0.1] };
 * import { expect } from "expect";
 * const fig = slice3d(s, { axis: "y", at: 0.05 });
 * expect(fig.info).toEqual({ cut: 1, at: 0.05 }); // only the sphere at y = 0 reaches y = 0.05
 * expect(fig.svg.match(/<circle/g)?.length).toBe(1);
 * ```
 */
export function slice3d(source: ParticleSource, options: Slice3dOptions = {}): Figure {
  const where = "slice3d";
  options = plotOptions(where, options, {
    ...FIGURE_RULES,
    axis: ["x", "y", "z"],
    at: "number",
  });
  const cols = particleColumns(where, source);
  if (cols.dim !== 3) throw new RangeError(`${where}: source is 2D, need a 3D bed`);
  const axis = options.axis ?? "y";
  if (!["x", "y", "z"].includes(axis)) {
    throw new RangeError(`${where}: options.axis is "${axis}", must be x, y or z`);
  }
  const [an, bn] = axis === "x" ? ["y", "z"] : axis === "y" ? ["x", "z"] : ["x", "y"];
  checkColumns(where, cols, an, bn);
  checkColumns(where, cols, axis, axis);
  if (options.at !== undefined && !Number.isFinite(options.at)) {
    throw new RangeError(`${where}: options.at is ${options.at}, must be a finite number (m)`);
  }
  const C = cols.get(axis), A = cols.get(an), B = cols.get(bn);
  const R = cols.has("radius") ? cols.get("radius") : new Float64Array(cols.n).fill(0.01);
  let lo = Infinity, hi = -Infinity;
  for (let i = 0; i < cols.n; i++) {
    lo = Math.min(lo, C[i]);
    hi = Math.max(hi, C[i]);
  }
  const at = options.at ?? (cols.n > 0 ? (lo + hi) / 2 : 0);
  const cut: number[] = [], rc: number[] = [];
  for (let i = 0; i < cols.n; i++) {
    const d = C[i] - at;
    if (Math.abs(d) < R[i]) {
      cut.push(i);
      rc.push(Math.sqrt(R[i] * R[i] - d * d));
    }
  }
  const dom = options.domain ?? bounds(A, B, R, cols.n);
  const frame = equalAspectFrame(dom, {
    maxWidth: options.width ?? 560,
    maxHeight: options.height ?? 480,
  });
  const colorName = options.color ?? "speed";
  const values = colorName === "none" ? undefined : cols.get(colorName);
  const scale = values
    ? colorScale(cut.map((i) => values[i]), {
      label: labelOf(cols, colorName),
      ...options.colorScale,
    })
    : undefined;
  const layer: RawLayer = {
    raw(sx, sy, k) {
      return cut.map((i, m) =>
        `<circle cx="${px(sx(A[i]))}" cy="${px(sy(B[i]))}" r="${px(rc[m] * k)}" fill="${
          scale && values ? scale.apply(values[i]) : options.fill ?? "#4682b4"
        }" stroke="#333" stroke-width="0.4"/>`
      ).join("");
    },
  };
  const panel = plotPanel({
    ...frame,
    xLabel: `${an} (m)`,
    yLabel: `${bn} (m)`,
    title: `slice ${axis} = ${Number(at.toPrecision(4))} m`,
    marks: [layer],
  });
  return compose([panel], {
    title: options.title,
    subtitle: options.subtitle,
    legend: scale?.legend(),
    info: { cut: cut.length, at },
  });
}
