/**
 * Figures for Grainlab simulations, drawn with Observable Plot into a server-side DOM
 * (linkedom) and rasterised with resvg: grains at true size, force networks, 3D bed
 * projections, height maps and slices, the star-shape distance study, time series and
 * animated GIFs. Every figure is a {@link Figure}: standalone SVG, PNG, `save(path)`, and
 * inline display in Deno Jupyter.
 *
 * The granular layers are Plot marks of their own — {@link grains}, {@link forceChains} and
 * {@link walls} — that combine with Plot's marks in any chart; {@link plotFigure} renders
 * such a chart. {@link particles2d}, {@link forceNetwork} and {@link bed3d} are finished
 * figures built on them.
 *
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { grains, particles2d, plotFigure } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const system = { count: 2, dimension: 2, positions: [0, 0, 1, 0], velocities: [0, 0, 1, 0], radii: [0.5, 0.5] };
 * const fig = particles2d(system, { title: "Two grains" });
 * const dir = await Deno.makeTempDir();
 * await fig.save(`${dir}/grains.png`);
 * expect(Deno.statSync(`${dir}/grains.png`).size).toBeGreaterThan(1000);
 * // the same grains as a layer of your own chart
 * const own = plotFigure({ aspectRatio: 1, marks: [grains(system, { fill: "speed" }), Plot.ruleY([0])] });
 * expect(own.svg.match(/<circle/g)?.length).toBe(2);
 * ```
 *
 * @module
 */
export {
  type DomDocument,
  type DomElement,
  escapeXml,
  parseSVG,
  plotDocument,
  SVG_NS,
} from "./dom.ts";
export { type PngOptions, svgToPNG, svgToRGBA } from "./png.ts";
export {
  base64,
  compose,
  type ComposeOptions,
  Figure,
  type Panel,
  toPNG,
  toSVG,
} from "./figure.ts";
export {
  type ColorScale,
  colorScale,
  type ColorScaleOptions,
  niceTicks,
  swatches,
} from "./color.ts";
export { equalAspectSize, type PanelOptions, plotPanel, type RawLayer } from "./panel.ts";
export type { ParticleSource } from "./source.ts";
export type { ContactsLike, NumArray, ParticleSystemLike } from "../arrow/types.ts";
export {
  bed3d,
  type Bed3dOptions,
  type ParticleFigureOptions,
  particles2d,
  type Particles2dOptions,
} from "./particles.ts";
export { forceNetwork, type ForceNetworkOptions } from "./network.ts";
export { bodyOutlines, type Outline, type OutlineSource } from "./bodies.ts";
export type { BodyShape } from "../sphere3d/bodies/body.ts";
export type {
  MarkContext,
  MarkDimensions,
  MarkScales,
  MarkValues,
  PlotMark,
} from "./marks/types.ts";
export type { ViewName } from "./marks/common.ts";
export { grains, type GrainsMark, type GrainsOptions, systemOutline } from "./marks/grains.ts";
export {
  forceChains,
  type ForceChainsMark,
  type ForceChainsOptions,
  type NetworkSource,
} from "./marks/chains.ts";
export { walls, type WallsMark, type WallsOptions } from "./marks/walls.ts";
export { plotFigure, type PlotFigureOptions } from "./marks/plot_figure.ts";
export { heightMap, type HeightMapOptions, slice3d, type Slice3dOptions } from "./bedmaps.ts";
export {
  distanceErrorFigure,
  type DistanceErrorMapLike,
  type DistanceErrorOptions,
} from "./distance.ts";
export {
  barComparison,
  type BarComparisonOptions,
  lines,
  type LinesOptions,
  type Series,
  type SeriesSource,
  timeSeries,
  type TimeSeriesOptions,
} from "./series.ts";
export { wallsLayer, type WallsLike, wallsOf, withWalls } from "./walls.ts";
export { encodeGif, type GifOptions, type RgbaImage } from "./gif.ts";
export { animate, type AnimateOptions, Animation } from "./animation.ts";
