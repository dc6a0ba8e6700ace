/**
 * Force-network figures: a segment between the centres of every contact pair, width and
 * colour proportional to the normal force (arching in hoppers, load chains in packings).
 *
 * @module
 */

import * as Plot from "@observablehq/plot";
import type { Table } from "apache-arrow";
import type { Outline } from "./bodies.ts";
import type { ParticleSystemLike } from "../arrow/types.ts";
import { compose, type Figure } from "./figure.ts";
import { forceChains, isTablePair, type NetworkSource } from "./marks/chains.ts";
import { checkColumns } from "./marks/common.ts";
import { grains } from "./marks/grains.ts";
import { walls } from "./marks/walls.ts";
import { equalAspectFrame, plotPanel } from "./panel.ts";
import { bounds, particleColumns, type ParticleSource } from "./source.ts";
import { type WallsLike, wallsOf, withWalls } from "./walls.ts";
import { plotOptions } from "./options.ts";

export type { NetworkSource };

/** Options of {@link forceNetwork}. */
export interface ForceNetworkOptions {
  /** For 3D sources: the projection, "side" (x–z), "front" (y–z) or "top" (x–y). @default "side" */
  view?: "side" | "front" | "top";
  /** Width of the strongest chain (px). @default 6 */
  maxWidth?: number;
  /** Width of the weakest drawn chain (px). @default 0.4 */
  minWidth?: number;
  /** Colour scheme for the force (light = weak, dark = strong). @default "ylorrd" */
  scheme?: string;
  /** Also draw grain-to-boundary contacts (centre → contact point). @default true */
  boundaries?: boolean;
  /** Draw the grains faintly underneath. @default true */
  grains?: boolean;
  /** Draw at most this many contacts, the strongest. @default 20000 */
  maxContacts?: number;
  /** Body-frame outline of grain `i` for star grains (see `particles2d`). */
  outline?: (i: number) => ArrayLike<number> | undefined;
  /** Walls to draw in 2D (star2d `Walls`), or false. @default `source.walls` when present */
  walls?: WallsLike | false;
  /** Outlines of rigid bodies to draw on top (see `bodyOutlines`), in the view's axes. */
  outlines?: readonly Outline[];
  /** Title above the figure. */
  title?: string;
  /** Subtitle. */
  subtitle?: string;
  /** Maximum panel width (px). @default 560 */
  width?: number;
  /** Maximum panel height (px). @default 480 */
  height?: number;
}

const AXES = { side: ["x", "z"], front: ["y", "z"], top: ["x", "y"] } as const;

/**
 * The force network of the last step: contact pairs joined centre to centre, line width and
 * colour proportional to the normal force; boundary contacts run to the contact point. A thin
 * wrapper over `Plot.plot` with the {@link walls}, {@link grains} (faint) and
 * {@link forceChains} marks, a title and a force legend.
 *
 * @param source a system with `contacts`, or `{ particles, contacts }` tables
 * @param options view, widths, colours, title
 * @returns the figure; `info.links` counts segments drawn, `info.maxForce` the largest force (N)
 * @throws {TypeError} when the source has no contacts
 * @throws {RangeError} when a contact refers to a missing particle, or a position is not finite
 * @example
 * ```ts
 * import { forceNetwork } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const system = {
 *   count: 3, dimension: 2, positions: [0, 0, 1, 0, 2, 0], velocities: [0, 0, 0, 0, 0, 0],
 *   radii: [0.5, 0.5, 0.5],
 *   contacts: {
 *     count: 2, i: [0, 1], j: [1, 2], kind: [0, 0], point: [0.5, 0, 1.5, 0], normal: [1, 0, 1, 0],
 *     overlap: [0.01, 0.02], normalForce: [1, 2], tangentialForce: [0, 0, 0, 0],
 *   },
 * };
 * const fig = forceNetwork(system);
 * expect(fig.info).toEqual({ links: 2, maxForce: 2, particles: 3 });
 * ```
 */
export function forceNetwork(source: NetworkSource, options: ForceNetworkOptions = {}): Figure {
  const where = "forceNetwork";
  options = plotOptions(where, options, {
    view: ["side", "front", "top"],
    maxWidth: "positive",
    minWidth: "nonNegative",
    scheme: "string",
    boundaries: "boolean",
    grains: "boolean",
    maxContacts: "count",
    outline: "function",
    walls: "any",
    outlines: "any",
    title: "string",
    subtitle: "string",
    width: "size",
    height: "size",
  });
  const tables = isTablePair(source);
  const particles: ParticleSource = tables
    ? (source as { particles: Table }).particles
    : (source as ParticleSystemLike);
  if (!tables && !(source as ParticleSystemLike)?.contacts) {
    throw new TypeError(`${where}: source has no contacts`);
  }
  const cols = particleColumns(where, particles);
  const [an, bn] = cols.dim === 3 ? AXES[options.view ?? "side"] ?? [] : ["x", "y"];
  if (!an || !bn) {
    throw new RangeError(`${where}: options.view is "${options.view}", must be side, front or top`);
  }
  checkColumns(where, cols, an, bn);
  const view = cols.dim === 3 ? options.view ?? "side" : undefined;
  const chains = forceChains(source, {
    view,
    maxWidth: options.maxWidth,
    minWidth: options.minWidth,
    scheme: options.scheme,
    boundaries: options.boundaries,
    maxContacts: options.maxContacts,
  });
  const A = cols.get(an), B = cols.get(bn);
  const R = cols.has("radius") ? cols.get("radius") : undefined;
  const wallSource = cols.dim === 2 && options.walls !== false
    ? (options.walls ?? wallsOf(source))
    : undefined;
  const dom = withWalls(wallSource, bounds(A, B, R, cols.n));
  for (const o of options.outlines ?? []) {
    for (let k = 0; k < o.x.length; k++) {
      dom.x[0] = Math.min(dom.x[0], o.x[k]), dom.x[1] = Math.max(dom.x[1], o.x[k]);
      dom.y[0] = Math.min(dom.y[0], o.y[k]), dom.y[1] = Math.max(dom.y[1], o.y[k]);
    }
  }
  const frame = equalAspectFrame(dom, {
    maxWidth: options.width ?? 560,
    maxHeight: options.height ?? 480,
  });
  const marks: object[] = [];
  if (wallSource) marks.push(walls(wallSource));
  if (options.grains !== false && cols.n > 0 && cols.n <= 20000) {
    marks.push(
      grains(particles, {
        view,
        fill: "#eceff3",
        stroke: "#b8c0cc",
        strokeWidth: 0.5,
        outline: options.outline,
      }),
    );
  }
  marks.push(chains);
  for (const o of options.outlines ?? []) {
    const pts = o.x.map((x, k) => ({ x, y: o.y[k] }));
    marks.push(Plot.line(pts, { x: "x", y: "y", stroke: "#2b3440", strokeWidth: 1.5 }));
  }
  const panel = plotPanel({
    ...frame,
    xLabel: `${an} (m)`,
    yLabel: `${bn} (m)`,
    marks,
  });
  return compose([panel], {
    title: options.title,
    subtitle: options.subtitle,
    legend: chains.colorScale?.legend(),
    info: { links: chains.links, maxForce: chains.maxForce, particles: cols.n },
  });
}
