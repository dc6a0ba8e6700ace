/**
 * Particle figures at true size: 2D grains (discs or star outlines) and 3D beds seen from the
 * side or from the top, coloured by any column; density cells beyond a few thousand particles.
 *
 * @module
 */

import { colorScale, type ColorScaleOptions } from "./color.ts";
import { compose, type Figure, type Panel } from "./figure.ts";
import { equalAspectSize, plotPanel, px, type RawLayer } from "./panel.ts";
import { wallsLayer, type WallsLike, wallsOf, withWalls } from "./walls.ts";
import {
  bounds,
  labelOf,
  type ParticleColumns,
  particleColumns,
  type ParticleSource,
} from "./source.ts";

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

/** Outlines are drawn with at most this many vertices (keeps figures of many grains small). */
const MAX_VERTICES = 50;

/** One planar view of the particles: which coordinates go across, up, and along depth. */
interface View {
  a: string;
  b: string;
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

function grainsLayer(
  cols: ParticleColumns,
  view: View,
  order: ArrayLike<number>,
  color: (i: number) => string,
  options: Particles2dOptions,
): RawLayer {
  const A = cols.get(view.a), B = cols.get(view.b);
  const R = cols.has("radius") ? cols.get("radius") : undefined;
  const ang = cols.has("angle") ? cols.get("angle") : undefined;
  return {
    raw(sx, sy, k) {
      const out: string[] = [];
      const stroke = k * 0.002 > 0 ? "#333" : "none";
      for (let o = 0; o < order.length; o++) {
        const i = order[o];
        const poly = options.outline?.(i);
        const world = poly ? undefined : options.worldOutline?.(i);
        const c = color(i);
        if (world && world.length >= 6) {
          let d = "";
          const step = 2 * Math.max(1, Math.ceil(world.length / 2 / MAX_VERTICES));
          for (let v = 0; v < world.length; v += step) {
            d += `${v === 0 ? "M" : "L"}${px(sx(world[v]))},${px(sy(world[v + 1]))}`;
          }
          out.push(`<path d="${d}Z" fill="${c}" stroke="${stroke}" stroke-width="0.4"/>`);
        } else if (poly && poly.length >= 6) {
          const th = ang ? ang[i] : 0, cs = Math.cos(th), sn = Math.sin(th);
          let d = "";
          const step = 2 * Math.max(1, Math.ceil(poly.length / 2 / MAX_VERTICES));
          for (let v = 0; v < poly.length; v += step) {
            const x = A[i] + cs * poly[v] - sn * poly[v + 1];
            const y = B[i] + sn * poly[v] + cs * poly[v + 1];
            d += `${v === 0 ? "M" : "L"}${px(sx(x))},${px(sy(y))}`;
          }
          out.push(`<path d="${d}Z" fill="${c}" stroke="${stroke}" stroke-width="0.4"/>`);
        } else {
          const r = R ? R[i] * k : 2;
          out.push(
            `<circle cx="${px(sx(A[i]))}" cy="${px(sy(B[i]))}" r="${px(Math.max(r, 0.3))}" ` +
              `fill="${c}" stroke="${stroke}" stroke-width="0.4"/>`,
          );
        }
        if (options.orientation && ang && R) {
          const th = ang[i];
          out.push(
            `<line x1="${px(sx(A[i]))}" y1="${px(sy(B[i]))}" x2="${
              px(sx(A[i] + R[i] * Math.cos(th)))
            }" y2="${px(sy(B[i] + R[i] * Math.sin(th)))}" stroke="#000" stroke-width="0.8"/>`,
          );
        }
      }
      return out.join("");
    },
  };
}

function densityLayer(
  cols: ParticleColumns,
  view: View,
  dom: { x: [number, number]; y: [number, number] },
): { layer: RawLayer; legend: Panel; cells: number } {
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
  let cells = 0;
  for (const c of count) if (c > 0) cells++;
  return {
    cells,
    legend: scale.legend(),
    layer: {
      raw(sx, sy, k) {
        const out: string[] = [];
        const w = px(h * k + 0.3);
        for (let cy = 0; cy < ny; cy++) {
          for (let cx = 0; cx < nx; cx++) {
            const c = count[cy * nx + cx];
            if (c === 0) continue;
            const x = dom.x[0] + cx * h, y = dom.y[0] + (cy + 1) * h;
            out.push(
              `<rect x="${px(sx(x))}" y="${px(sy(y))}" width="${w}" height="${w}" fill="${
                scale.apply(c)
              }"/>`,
            );
          }
        }
        return out.join("");
      },
    },
  };
}

function viewPanel(
  cols: ParticleColumns,
  view: View,
  options: Particles2dOptions,
  maxW: number,
  maxH: number,
): { panel: Panel; legend?: Panel; drawn: number; density: boolean } {
  const A = cols.get(view.a), B = cols.get(view.b);
  const R = cols.has("radius") ? cols.get("radius") : undefined;
  const walls = view.name === "plane" && options.walls !== false
    ? (options.walls ?? undefined)
    : undefined;
  const dom = options.domain ?? withWalls(walls, bounds(A, B, R, cols.n));
  const size = equalAspectSize(dom.x, dom.y, { maxWidth: maxW, maxHeight: maxH });
  const maxP = options.maxParticles ?? 4000;
  let layer: RawLayer, legend: Panel | undefined, drawn: number;
  const density = cols.n > maxP;
  if (density) {
    const d = densityLayer(cols, view, dom);
    layer = d.layer;
    legend = d.legend;
    drawn = d.cells;
  } else {
    const { color, legend: lg } = colorsFor(cols, options, view.depth);
    legend = lg;
    // Far particles first, so nearer ones are drawn on top.
    const order = Uint32Array.from({ length: cols.n }, (_, i) => i);
    if (view.depth) {
      const D = cols.get(view.depth);
      const sign = view.name === "top" ? 1 : -1;
      order.sort((i, j) => sign * (D[i] - D[j]));
    }
    layer = grainsLayer(cols, view, order, color, options);
    drawn = cols.n;
  }
  const panel = plotPanel({
    xDomain: dom.x,
    yDomain: dom.y,
    width: size.width,
    height: size.height,
    xLabel: labelOf(cols, view.a),
    yLabel: labelOf(cols, view.b),
    title: view.name === "plane" ? undefined : `${view.name} view`,
    marks: walls ? [wallsLayer(walls, dom), layer] : [layer],
  });
  return { panel, legend, drawn, density };
}

/**
 * 2D grains at their true size in data units (equal scales): discs of `radius`, or star
 * outlines rotated by `angle` when `outline` is given; coloured by any column. Beyond
 * `maxParticles` it draws particle density per cell instead.
 *
 * @param source a star2d system or a 2D particles table
 * @param options colour, outlines, size, title
 * @returns the figure; `info.drawn` counts grains (or density cells) drawn
 * @throws {RangeError} when the colour column does not exist
 * @example
 * ```ts
 * import { particles2d } from "@grainlab/grainlab/plot";
 * const system = {
 *   count: 2, dimension: 2, positions: [0, 0, 1, 0], velocities: [0, 0, 1, 0], radii: [0.5, 0.5],
 * };
 * const fig = particles2d(system, { color: "speed" });
 * console.assert((fig.svg.match(/<circle/g) ?? []).length === 2);
 * ```
 */
export function particles2d(source: ParticleSource, options: Particles2dOptions = {}): Figure {
  const cols = particleColumns("particles2d", source);
  const r = viewPanel(
    cols,
    { a: "x", b: "y", name: "plane" },
    { worldOutline: systemOutline(source), walls: wallsOf(source), ...options },
    options.width ?? 560,
    options.height ?? 480,
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
  side: { a: "x", b: "z", depth: "y", name: "side" },
  front: { a: "y", b: "z", depth: "x", name: "front" },
  top: { a: "x", b: "y", depth: "z", name: "top" },
};

/**
 * A 3D bed as orthographic projections (side x–z, front y–z, top x–y), spheres at their true
 * size, nearer spheres over farther ones, coloured by any column or by "depth".
 *
 * @param source a sphere3d system or a 3D particles table
 * @param options views, colour, size, title
 * @returns the figure; `info.drawn` counts grains drawn per view
 * @throws {RangeError} when the source is 2D or a view name is unknown
 * @example
 * ```ts
 * import { bed3d } from "@grainlab/grainlab/plot";
 * const system = { count: 2, positions: [0, 0, 0.1, 0.2, 0, 0.1], velocities: [0, 0, 0, 0, 0, 0], radii: [0.1, 0.1] };
 * const fig = bed3d(system, { color: "depth" });
 * console.assert((fig.svg.match(/<circle/g) ?? []).length === 4);
 * ```
 */
export function bed3d(source: ParticleSource, options: Bed3dOptions = {}): Figure {
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
      cols,
      view,
      options,
      options.width ?? (views.length > 1 ? 420 : 560),
      options.height ?? 420,
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

/**
 * The world-frame outline function of a star2d system (its `outline(i)` method), if any.
 *
 * @param source a system or table
 * @returns `i => outline` or undefined
 */
export function systemOutline(
  source: unknown,
): ((i: number) => ArrayLike<number>) | undefined {
  const s = source as { outline?: (i: number) => ArrayLike<number>; count?: number };
  if (typeof s?.outline !== "function" || typeof s.count !== "number") return undefined;
  return (i) => s.outline!(i);
}
