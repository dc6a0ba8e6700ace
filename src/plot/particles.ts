/**
 * Particle figures at true size: 2D grains (discs or star outlines) and 3D beds seen from the
 * side or from the top, coloured by any column; density cells beyond a few thousand particles.
 *
 * @module
 */

import { colorScale, type ColorScaleOptions } from "./color.ts";
import { compose, type Figure, type Panel } from "./figure.ts";
import { CellsMark } from "./marks/cells.ts";
import { checkColumns, type ViewName } from "./marks/common.ts";
import { grains, type GrainsMark } from "./marks/grains.ts";
import { walls } from "./marks/walls.ts";
import { equalAspectFrame, plotPanel } from "./panel.ts";
import { type WallsLike, wallsOf, withWalls } from "./walls.ts";
import {
  bounds,
  labelOf,
  type ParticleColumns,
  particleColumns,
  type ParticleSource,
} from "./source.ts";
import { FIGURE_RULES, plotOptions, type Rule } from "./options.ts";

/** Options shared by the particle figures. */
export interface ParticleFigureOptions {
  /** Column that sets the colour, "depth" (3D: distance along the view axis) or "none". @default "speed" */
  color?: string;
  /** Colour scale options (type, scheme, domain, labels). */
  colorScale?: ColorScaleOptions;
  /** Constant fill when `color` is "none". @default "#4682b4" */
  fill?: string;
  /** Title above the figure. */
  title?: string;
  /** Subtitle under the title. */
  subtitle?: string;
  /** Maximum panel width (px). @default 560 */
  width?: number;
  /** Maximum panel height (px). @default 480 */
  height?: number;
  /** Above this many particles, draw density cells instead of grains. @default 4000 */
  maxParticles?: number;
  /** Fixed x/y domains (data units) instead of the bounding box. */
  domain?: { x: [number, number]; y: [number, number] };
}

/** Options of {@link particles2d}. */
export interface Particles2dOptions extends ParticleFigureOptions {
  /**
   * Body-frame outline of grain `i` (x, y interleaved, m), rotated by its `angle` and moved to
   * its centre; `undefined` draws a disc. @default discs of `radius`
   */
  outline?: (i: number) => ArrayLike<number> | undefined;
  /**
   * World-frame outline of grain `i` (x, y interleaved, m), drawn as is.
   * @default `source.outline(i)` when the source is a star2d `StarSystem`
   */
  worldOutline?: (i: number) => ArrayLike<number> | undefined;
  /** Walls to draw (star2d `Walls`), or false. @default `source.walls` when present */
  walls?: WallsLike | false;
  /** Draw a line from the centre along the orientation (shows rotation). @default false */
  orientation?: boolean;
}

/** One planar view of the particles: which coordinates go across and up, and its name. */
interface View {
  a: string;
  b: string;
  /** the grains mark's view for 3D sources */
  mark?: ViewName;
  depth?: string;
  name: string;
}

function colorsFor(
  cols: ParticleColumns,
  options: ParticleFigureOptions,
  depthName: string | undefined,
): { color: (i: number) => string; legend?: Panel } {
  const name = options.color ?? (cols.has("speed") ? "speed" : "none");
  if (name === "none") {
    const f = options.fill ?? "#4682b4";
    return { color: () => f };
  }
  const col = name === "depth" ? depthName : name;
  if (!col) throw new RangeError(`color "depth" needs a 3D source`);
  const values = cols.get(col);
  const scale = colorScale(values, {
    label: name === "depth" ? `depth: ${labelOf(cols, col)}` : labelOf(cols, col),
    ...(name === "materialId" ? { type: "categorical" as const } : {}),
    ...options.colorScale,
  });
  return { color: (i) => scale.apply(values[i]), legend: scale.legend() };
}

/** Particle density per square cell, as Plot rectangles with their colours. */
function densityMark(
  cols: ParticleColumns,
  view: View,
  dom: { x: [number, number]; y: [number, number] },
): { mark: CellsMark; legend: Panel; cells: number } {
  const A = cols.get(view.a), B = cols.get(view.b);
  const nx = 64;
  const h = (dom.x[1] - dom.x[0]) / nx;
  const ny = Math.max(1, Math.ceil((dom.y[1] - dom.y[0]) / h));
  const count = new Float64Array(nx * ny);
  for (let i = 0; i < cols.n; i++) {
    const cx = Math.min(nx - 1, Math.max(0, Math.floor((A[i] - dom.x[0]) / h)));
    const cy = Math.min(ny - 1, Math.max(0, Math.floor((B[i] - dom.y[0]) / h)));
    count[cy * nx + cx]++;
  }
  const scale = colorScale(count.filter((c) => c > 0), {
    type: "linear",
    scheme: "blues",
    label: "particles per cell",
  });
  const cells: { x1: number; x2: number; y1: number; y2: number; fill: string }[] = [];
  for (let cy = 0; cy < ny; cy++) {
    for (let cx = 0; cx < nx; cx++) {
      const c = count[cy * nx + cx];
      if (c === 0) continue;
      const x = dom.x[0] + cx * h, y = dom.y[0] + cy * h;
      cells.push({ x1: x, x2: x + h, y1: y, y2: y + h, fill: scale.apply(c) });
    }
  }
  return {
    cells: cells.length,
    legend: scale.legend(),
    mark: new CellsMark(cells),
  };
}

function viewPanel(
  source: ParticleSource,
  cols: ParticleColumns,
  view: View,
  options: Particles2dOptions,
  maxW: number,
  maxH: number,
  where: string,
): { panel: Panel; legend?: Panel; drawn: number; density: boolean } {
  checkColumns(where, cols, view.a, view.b);
  const A = cols.get(view.a), B = cols.get(view.b);
  const R = cols.has("radius") ? cols.get("radius") : undefined;
  const wallSource = view.name === "plane" && options.walls !== false
    ? (options.walls ?? undefined)
    : undefined;
  const dom = options.domain ?? withWalls(wallSource, bounds(A, B, R, cols.n));
  const frame = equalAspectFrame(dom, { maxWidth: maxW, maxHeight: maxH });
  const maxP = options.maxParticles ?? 4000;
  let mark: GrainsMark | CellsMark, legend: Panel | undefined, drawn: number;
  const density = cols.n > maxP;
  if (density) {
    const d = densityMark(cols, view, dom);
    mark = d.mark;
    legend = d.legend;
    drawn = d.cells;
  } else {
    const { color, legend: lg } = colorsFor(cols, options, view.depth);
    legend = lg;
    mark = grains(source, {
      view: view.mark,
      fill: color,
      outline: options.outline,
      worldOutline: options.worldOutline,
      orientation: options.orientation,
    });
    drawn = cols.n;
  }
  const panel = plotPanel({
    ...frame,
    xLabel: labelOf(cols, view.a),
    yLabel: labelOf(cols, view.b),
    title: view.name === "plane" ? undefined : `${view.name} view`,
    marks: wallSource ? [walls(wallSource), mark] : [mark],
  });
  return { panel, legend, drawn, density };
}

const PARTICLES2D_RULES: Readonly<Record<string, Rule>> = {
  ...FIGURE_RULES,
  outline: "function",
  worldOutline: "function",
  walls: "any",
  orientation: "boolean",
};

/**
 * 2D grains at their true size in data units (equal scales): discs of `radius`, or star
 * outlines rotated by `angle` when `outline` is given; coloured by any column. Beyond
 * `maxParticles` it draws particle density per cell instead. A thin wrapper over `Plot.plot`
 * with the {@link walls} and {@link grains} marks, a title and a colour legend.
 *
 * No particles draw an empty frame (or the walls); grains that all sit at one point get a
 * small frame around it.
 *
 * @param source a star2d system or a 2D particles table
 * @param options colour, outlines, size, title
 * @returns the figure; `info.drawn` counts grains (or density cells) drawn
 * @throws {RangeError} when the colour column does not exist, or a position or radius is NaN
 *   or infinite (naming the column and the index)
 * @example
 * ```ts
 * import { particles2d } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const system = {
 *   count: 2, dimension: 2, positions: [0, 0, 1, 0], velocities: [0, 0, 1, 0], radii: [0.5, 0.5],
 * };
 * const fig = particles2d(system, { color: "speed" });
 * expect(fig.svg.match(/<circle/g)?.length).toBe(2);
 * expect(fig.info).toEqual({ particles: 2, drawn: 2, mode: "grains" });
 * ```
 */
export function particles2d(source: ParticleSource, options: Particles2dOptions = {}): Figure {
  options = plotOptions("particles2d", options, PARTICLES2D_RULES);
  const cols = particleColumns("particles2d", source);
  const r = viewPanel(
    source,
    cols,
    { a: "x", b: "y", name: "plane", ...(cols.dim === 3 ? { mark: "top" as const } : {}) },
    { walls: wallsOf(source), ...options },
    options.width ?? 560,
    options.height ?? 480,
    "particles2d",
  );
  return compose([r.panel], {
    title: options.title,
    subtitle: options.subtitle,
    legend: r.legend,
    info: { particles: cols.n, drawn: r.drawn, mode: r.density ? "density" : "grains" },
  });
}

/** Options of {@link bed3d}. */
export interface Bed3dOptions extends ParticleFigureOptions {
  /** Views to draw, side by side: "side" (x–z), "front" (y–z), "top" (x–y). @default ["side", "top"] */
  views?: ("side" | "front" | "top")[];
}

const VIEWS: Record<string, View> = {
  side: { a: "x", b: "z", depth: "y", name: "side", mark: "side" },
  front: { a: "y", b: "z", depth: "x", name: "front", mark: "front" },
  top: { a: "x", b: "y", depth: "z", name: "top", mark: "top" },
};

/**
 * A 3D bed as orthographic projections (side x–z, front y–z, top x–y), spheres at their true
 * size, nearer spheres over farther ones, coloured by any column or by "depth". A thin
 * wrapper over one `Plot.plot` with the {@link grains} mark per view.
 *
 * @param source a sphere3d system or a 3D particles table
 * @param options views, colour, size, title
 * @returns the figure; `info.drawn` counts grains drawn per view
 * @throws {RangeError} when the source is 2D, a view name is unknown, or a position or radius
 *   is NaN or infinite
 * @example
 * ```ts
 * import { bed3d } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const system = { count: 2, positions: [0, 0, 0.1, 0.2, 0, 0.1], velocities: [0, 0, 0, 0, 0, 0], radii: [0.1, 0.1] };
 * const fig = bed3d(system, { color: "depth" });
 * expect(fig.svg.match(/<circle/g)?.length).toBe(4); // two views of two spheres
 * expect(fig.info.views).toBe("side,top");
 * ```
 */
export function bed3d(source: ParticleSource, options: Bed3dOptions = {}): Figure {
  options = plotOptions("bed3d", options, { ...FIGURE_RULES, views: "any" });
  if (
    options.views !== undefined && (!Array.isArray(options.views) || options.views.length === 0)
  ) {
    throw new TypeError(
      `bed3d: options.views (${String(options.views)}) must be an array of "side", "front", "top"`,
    );
  }
  const cols = particleColumns("bed3d", source);
  if (cols.dim !== 3) throw new RangeError(`bed3d: source is 2D, need a 3D system or table`);
  const views = options.views ?? ["side", "top"];
  const panels: Panel[] = [];
  let legend: Panel | undefined;
  let drawn = 0;
  for (const v of views) {
    const view = VIEWS[v];
    if (!view) throw new RangeError(`bed3d: view "${v}" is unknown; use side, front or top`);
    const r = viewPanel(
      source,
      cols,
      view,
      options,
      options.width ?? (views.length > 1 ? 420 : 560),
      options.height ?? 420,
      "bed3d",
    );
    panels.push(r.panel);
    legend ??= r.legend;
    drawn = r.drawn;
  }
  return compose(panels, {
    title: options.title,
    subtitle: options.subtitle,
    legend,
    info: { particles: cols.n, drawn, views: views.join(",") },
  });
}
