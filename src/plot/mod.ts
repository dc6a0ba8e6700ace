/**
 * Figures for Grainlab simulations, drawn with Observable Plot into a server-side DOM
 * (linkedom) and rasterised with resvg: grains at true size, force networks, 3D bed
 * projections, height maps and slices, the star-shape distance study, time series and
 * animated GIFs. Every figure is a {@link Figure}: standalone SVG, PNG, `save(path)`, and
 * inline display in Deno Jupyter.
 *
 * {@link particles2d}, {@link forceNetwork} and {@link bed3d} are finished figures. The Plot
 * marks they are built from — {@link grains}, {@link forceChains} and {@link walls} — combine
 * with Plot's own marks in any chart; {@link plotFigure} renders such a chart as a
 * {@link Figure}.
 *
 * @example
 * ```ts
 * import { particles2d } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const system = { count: 2, dimension: 2, positions: [0, 0, 1, 0], velocities: [0, 0, 1, 0], radii: [0.5, 0.5] };
 * const fig = particles2d(system, { title: "Two grains" });
 * const dir = await Deno.makeTempDir();
 * await fig.save(`${dir}/grains.png`);
 * expect(Deno.statSync(`${dir}/grains.png`).size).toBeGreaterThan(1000);
 * expect(fig.svg.match(/<circle/g)?.length).toBe(2);
 * ```
 *
 * @module
 */
export { compose, Figure } from "./figure.ts";
export type { ComposeOptions, Panel } from "./figure.ts";
export type { PngOptions } from "./png.ts";
export type { ColorScale, ColorScaleOptions } from "./color.ts";
export type { ParticleSource } from "./source.ts";
export type { ContactsLike, ParticleSystemLike } from "../arrow/types.ts";
export { bed3d, particles2d } from "./particles.ts";
export type { Bed3dOptions, ParticleFigureOptions, Particles2dOptions } from "./particles.ts";
export { forceNetwork } from "./network.ts";
export type { ForceNetworkOptions } from "./network.ts";
export { bodyOutlines } from "./bodies.ts";
export type { Outline, OutlineSource } from "./bodies.ts";
export type { BodyShape } from "../sphere3d/bodies/body.ts";
export type { NetworkSource } from "./marks/chains.ts";
export { grains, type GrainsMark, type GrainsOptions } from "./marks/grains.ts";
export { forceChains, type ForceChainsMark, type ForceChainsOptions } from "./marks/chains.ts";
export { walls, type WallsMark, type WallsOptions } from "./marks/walls.ts";
export { plotFigure, type PlotFigureOptions } from "./marks/plot_figure.ts";
export type { PlotMark } from "./marks/types.ts";
export type { ViewName } from "./marks/common.ts";
export type { WallsLike } from "./walls.ts";
export { heightMap, slice3d } from "./bedmaps.ts";
export type { HeightMapOptions, Slice3dOptions } from "./bedmaps.ts";
export { distanceErrorFigure } from "./distance.ts";
export type { DistanceErrorMapLike, DistanceErrorOptions } from "./distance.ts";
export { barComparison, lines, timeSeries } from "./series.ts";
export type {
  BarComparisonOptions,
  LinesOptions,
  Series,
  SeriesSource,
  TimeSeriesOptions,
} from "./series.ts";
export { animate, Animation } from "./animation.ts";
export type { AnimateOptions } from "./animation.ts";
export { rftMaps } from "./rft.ts";
export type { RftMapModel, RftMapsOptions } from "./rft.ts";
