/**
 * Figures for Grainlab simulations, drawn with Observable Plot into a server-side DOM
 * (linkedom) and rasterised with resvg: grains at true size, force networks, 3D bed
 * projections, height maps and slices, the star-shape distance study, time series and
 * animated GIFs. Every figure is a {@link Figure}: standalone SVG, PNG, `save(path)`, and
 * inline display in Deno Jupyter.
 *
 * @example
 * ```ts
 * import { particles2d } from "@grainlab/grainlab/plot";
 * const system = { count: 2, dimension: 2, positions: [0, 0, 1, 0], velocities: [0, 0, 1, 0], radii: [0.5, 0.5] };
 * const fig = particles2d(system, { title: "Two grains" });
 * const dir = await Deno.makeTempDir();
 * await fig.save(`${dir}/grains.png`);
 * console.assert(fig.svg.includes('xmlns="http://www.w3.org/2000/svg"'));
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
export { forceNetwork, type ForceNetworkOptions, type NetworkSource } from "./network.ts";
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
