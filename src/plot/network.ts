/**
 * Force-network figures: a segment between the centres of every contact pair, width and
 * colour proportional to the normal force (arching in hoppers, load chains in packings).
 *
 * @module
 */

import { Table } from "apache-arrow";
import { contactsTable } from "../arrow/contacts.ts";
import { particlesTable } from "../arrow/particles.ts";
import type { ParticleSystemLike } from "../arrow/types.ts";
import { colorScale } from "./color.ts";
import { compose, type Figure } from "./figure.ts";
import { equalAspectSize, plotPanel, px, type RawLayer } from "./panel.ts";
import { systemOutline } from "./particles.ts";
import { bounds, particleColumns } from "./source.ts";
import { wallsLayer, type WallsLike, wallsOf, withWalls } from "./walls.ts";

/** A system with contacts, or a pair of tables from `particlesTable` and `contactsTable`. */
export type NetworkSource = ParticleSystemLike | { particles: Table; contacts: Table };

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
 * colour proportional to the normal force; boundary contacts run to the contact point.
 *
 * @param source a system with `contacts`, or `{ particles, contacts }` tables
 * @param options view, widths, colours, title
 * @returns the figure; `info.links` counts segments drawn, `info.maxForce` the largest force (N)
 * @throws {TypeError} when the source has no contacts
 * @example
 * ```ts
 * import { forceNetwork } from "@grainlab/grainlab/plot";
 * const system = {
 *   count: 3, dimension: 2, positions: [0, 0, 1, 0, 2, 0], velocities: [0, 0, 0, 0, 0, 0],
 *   radii: [0.5, 0.5, 0.5],
 *   contacts: {
 *     count: 2, i: [0, 1], j: [1, 2], kind: [0, 0], point: [0.5, 0, 1.5, 0], normal: [1, 0, 1, 0],
 *     overlap: [0.01, 0.02], normalForce: [1, 2], tangentialForce: [0, 0],
 *   },
 * };
 * const fig = forceNetwork(system);
 * console.assert(fig.info.links === 2 && fig.info.maxForce === 2);
 * ```
 */
export function forceNetwork(source: NetworkSource, options: ForceNetworkOptions = {}): Figure {
  const where = "forceNetwork";
  let pt: Table, ct: Table;
  if (
    typeof source === "object" && source !== null && "particles" in source &&
    source.particles instanceof Table && source.contacts instanceof Table
  ) {
    pt = source.particles;
    ct = source.contacts;
  } else {
    const s = source as ParticleSystemLike;
    if (!s?.contacts) throw new TypeError(`${where}: source has no contacts`);
    pt = particlesTable(s);
    ct = contactsTable(s);
  }
  const cols = particleColumns(where, pt);
  const worldOutline = cols.dim === 2 ? systemOutline(source) : undefined;
  const [an, bn] = cols.dim === 3 ? AXES[options.view ?? "side"] : ["x", "y"];
  const A = cols.get(an), B = cols.get(bn);
  const R = cols.has("radius") ? cols.get("radius") : undefined;
  const ids = cols.get("id");
  const slot = new Map<number, number>();
  for (let i = 0; i < cols.n; i++) slot.set(ids[i], i);
  const I = ct.getChild("i")!.toArray() as Int32Array,
    J = ct.getChild("j")!.toArray() as Int32Array;
  const F = ct.getChild("normalForce")!.toArray() as Float64Array;
  const PA = ct.getChild(`p${an}`)!.toArray() as Float64Array;
  const PB = ct.getChild(`p${bn}`)!.toArray() as Float64Array;
  const withBoundaries = options.boundaries ?? true;
  type Link = { a0: number; b0: number; a1: number; b1: number; f: number };
  let links: Link[] = [];
  let maxF = 0;
  for (let r = 0; r < ct.numRows; r++) {
    const i = slot.get(I[r]);
    if (i === undefined) continue;
    const j = J[r] >= 0 ? slot.get(J[r]) : undefined;
    if (J[r] >= 0 && j === undefined) continue;
    if (j === undefined && !withBoundaries) continue;
    const f = F[r];
    if (!(f > 0)) continue;
    maxF = Math.max(maxF, f);
    links.push(
      j === undefined
        ? { a0: A[i], b0: B[i], a1: PA[r], b1: PB[r], f }
        : { a0: A[i], b0: B[i], a1: A[j], b1: B[j], f },
    );
  }
  links.sort((p, q) => p.f - q.f);
  const maxC = options.maxContacts ?? 20000;
  if (links.length > maxC) links = links.slice(links.length - maxC);
  const scale = colorScale(links.map((l) => l.f), {
    type: "linear",
    scheme: options.scheme ?? "ylorrd",
    domain: [0, maxF || 1],
    label: "normal force (N)",
  });
  const wMax = options.maxWidth ?? 6, wMin = options.minWidth ?? 0.4;
  const walls = cols.dim === 2 && options.walls !== false
    ? (options.walls ?? wallsOf(source))
    : undefined;
  const dom = withWalls(walls, bounds(A, B, R, cols.n));
  const size = equalAspectSize(dom.x, dom.y, {
    maxWidth: options.width ?? 560,
    maxHeight: options.height ?? 480,
  });
  const grains: RawLayer = {
    raw(sx, sy, k) {
      if (options.grains === false || cols.n > 20000) return "";
      const ang = cols.has("angle") ? cols.get("angle") : undefined;
      const out: string[] = [];
      for (let i = 0; i < cols.n; i++) {
        const poly = options.outline?.(i);
        const world = poly ? undefined : worldOutline?.(i);
        if (world && world.length >= 6) {
          let d = "";
          const step = 2 * Math.max(1, Math.ceil(world.length / 100));
          for (let v = 0; v < world.length; v += step) {
            d += `${v ? "L" : "M"}${px(sx(world[v]))},${px(sy(world[v + 1]))}`;
          }
          out.push(`<path d="${d}Z"/>`);
        } else if (poly && poly.length >= 6) {
          const th = ang ? ang[i] : 0, c = Math.cos(th), s = Math.sin(th);
          let d = "";
          for (let v = 0; v < poly.length; v += 2) {
            d += `${v ? "L" : "M"}${px(sx(A[i] + c * poly[v] - s * poly[v + 1]))},${
              px(sy(B[i] + s * poly[v] + c * poly[v + 1]))
            }`;
          }
          out.push(`<path d="${d}Z"/>`);
        } else {
          out.push(
            `<circle cx="${px(sx(A[i]))}" cy="${px(sy(B[i]))}" r="${px((R ? R[i] : 0.01) * k)}"/>`,
          );
        }
      }
      return `<g fill="#eceff3" stroke="#b8c0cc" stroke-width="0.5">${out.join("")}</g>`;
    },
  };
  const chains: RawLayer = {
    raw(sx, sy) {
      const out: string[] = [];
      for (const l of links) {
        const w = wMin + (wMax - wMin) * (l.f / (maxF || 1));
        out.push(
          `<line x1="${px(sx(l.a0))}" y1="${px(sy(l.b0))}" x2="${px(sx(l.a1))}" y2="${
            px(sy(l.b1))
          }" stroke="${scale.apply(l.f)}" stroke-width="${px(w)}"/>`,
        );
      }
      return `<g stroke-linecap="round">${out.join("")}</g>`;
    },
  };
  const panel = plotPanel({
    xDomain: dom.x,
    yDomain: dom.y,
    width: size.width,
    height: size.height,
    xLabel: `${an} (m)`,
    yLabel: `${bn} (m)`,
    marks: walls ? [wallsLayer(walls, dom), grains, chains] : [grains, chains],
  });
  return compose([panel], {
    title: options.title,
    subtitle: options.subtitle,
    legend: scale.legend(),
    info: { links: links.length, maxForce: maxF, particles: cols.n },
  });
}
