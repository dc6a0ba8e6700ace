/**
 * The {@link forceChains} mark: the force network as one segment per contact, between the
 * centres of the two particles (or from the centre to the contact point for boundary
 * contacts), width and by default colour proportional to the normal force. It reads a
 * system's contact record or a pair of Arrow tables.
 *
 * @module
 */

import { Table } from "apache-arrow";
import { ContactKind } from "../../contact/record.ts";
import { checkSystem, type ContactsLike, type ParticleSystemLike } from "../../arrow/types.ts";
import { type ColorScale, colorScale } from "../color.ts";
import type { DomElement } from "../dom.ts";
import { px } from "../panel.ts";
import { particleColumns } from "../source.ts";
import {
  append,
  axesOf,
  type ChannelSpec,
  clipToFrame,
  create,
  fin,
  GrainlabMark,
  isCssColor,
  type MarkDraw,
  svgLine,
  type ViewName,
} from "./common.ts";
import type { PlotMark } from "./types.ts";
import { plotOptions } from "../options.ts";

/** A system with contacts, or a pair of tables from `particlesTable` and `contactsTable`. */
export type NetworkSource = ParticleSystemLike | { particles: Table; contacts: Table };

/** Options of {@link forceChains}. */
export interface ForceChainsOptions {
  /** For 3D sources, the projection; 2D sources always draw x–y. @default "side" */
  view?: ViewName;
  /**
   * Colour of the chains: a CSS colour, "force" to map the normal force (N) through the
   * plot's color scale, or a function of the force returning a colour.
   * @default the force on the `scheme` (light = weak), independent of the plot's color scale
   */
  stroke?: string | ((force: number) => string);
  /** Colour scheme of the default stroke. @default "ylorrd" */
  scheme?: string;
  /** Width of the strongest chain (px). @default 6 */
  maxWidth?: number;
  /** Width of a chain of zero force (px). @default 0.4 */
  minWidth?: number;
  /** Force (N) drawn at `maxWidth` and at the dark end of the scheme. @default the largest drawn */
  maxForce?: number;
  /** Also draw particle–boundary contacts (centre → contact point). @default true */
  boundaries?: boolean;
  /** Draw at most this many contacts, the strongest. @default 20000 */
  maxContacts?: number;
  /** Stroke opacity, 0…1. @default 1 */
  strokeOpacity?: number;
  /** Clip the chains to the plot's frame. @default false */
  clip?: boolean;
}

/** Contact columns gathered from a system's record or from a pair of tables. */
interface Network {
  n: number;
  dim: 2 | 3;
  /** position of particle slot `s` along axis `k` */
  pos: (s: number, k: number) => number;
  m: number;
  i: (r: number) => number;
  /** slot of j, or −1 for a boundary contact */
  j: (r: number) => number;
  f: (r: number) => number;
  point: (r: number, k: number) => number;
}

/**
 * Whether a source is a pair of tables (from `particlesTable` and `contactsTable`).
 *
 * @param source a network source, or anything
 * @returns true for `{ particles, contacts }` Arrow tables
 */
export function isTablePair(source: unknown): source is { particles: Table; contacts: Table } {
  return typeof source === "object" && source !== null && "particles" in source &&
    source.particles instanceof Table &&
    (source as { contacts?: unknown }).contacts instanceof Table;
}

function networkOf(where: string, source: NetworkSource): Network {
  if (isTablePair(source)) {
    const pt = source.particles, ct = source.contacts;
    const cols = particleColumns(where, pt);
    const axes = cols.dim === 3 ? ["x", "y", "z"] : ["x", "y"];
    const P = axes.map((a) => cols.get(a));
    const ids = cols.has("id") ? cols.get("id") : undefined;
    const slot = new Map<number, number>();
    for (let s = 0; s < cols.n; s++) slot.set(ids ? ids[s] : s, s);
    const col = (name: string) => {
      const v = ct.getChild(name);
      if (!v) throw new TypeError(`${where}: contacts table has no column "${name}"`);
      return v.toArray() as ArrayLike<number>;
    };
    const I = col("i"), J = col("j"), F = col("normalForce");
    const pts = axes.map((a) => col(`p${a}`));
    const lookup = (id: number, r: number, name: string) => {
      const s = slot.get(id);
      if (s === undefined) {
        throw new RangeError(`${where}: contacts.${name}[${r}] is id ${id}, not a particle id`);
      }
      return s;
    };
    return {
      n: cols.n,
      dim: cols.dim,
      pos: (s, k) => P[k][s],
      m: ct.numRows,
      i: (r) => lookup(I[r], r, "i"),
      j: (r) => (J[r] >= 0 ? lookup(J[r], r, "j") : -1),
      f: (r) => F[r],
      point: (r, k) => pts[k][r],
    };
  }
  const s = source as ParticleSystemLike;
  if (typeof s !== "object" || s === null || !s.contacts) {
    throw new TypeError(
      `${where}: source has no contacts; pass a system with contacts or { particles, contacts } tables`,
    );
  }
  const dim = checkSystem(where, s);
  const c: ContactsLike = s.contacts;
  const n = s.count, m = c.count;
  if (!Number.isInteger(m) || m < 0) {
    throw new TypeError(`${where}: contacts.count is ${m}, must be a non-negative integer`);
  }
  for (
    const [name, arr, stride] of [
      ["i", c.i, 1],
      ["j", c.j, 1],
      ["kind", c.kind, 1],
      ["normalForce", c.normalForce, 1],
      ["point", c.point, dim],
    ] as const
  ) {
    if (!arr || arr.length < m * stride) {
      throw new RangeError(
        `${where}: contacts.${name} has ${arr?.length ?? 0} values, need ${m * stride}`,
      );
    }
  }
  const P = s.positions;
  const slotOk = (v: number, r: number, name: string) => {
    if (!(Number.isInteger(v) && v >= 0 && v < n)) {
      throw new RangeError(
        `${where}: contacts.${name}[${r}] is ${v}, must be a particle slot in [0, ${n})`,
      );
    }
    return v;
  };
  return {
    n,
    dim,
    pos: (p, k) => P[p * dim + k],
    m,
    i: (r) => slotOk(c.i[r], r, "i"),
    // Only particle contacts join two centres; every other kind (ground, wall, body …, and
    // star2d's former wall code with j = wall index) runs to the contact point.
    j: (r) => (c.kind[r] === ContactKind.particle ? slotOk(c.j[r], r, "j") : -1),
    f: (r) => c.normalForce[r],
    point: (r, k) => c.point[r * dim + k],
  };
}

/**
 * The mark {@link forceChains} returns: one segment per contact, width ∝ normal force.
 * Channels `x1`, `y1` (centre of i, m), `x2`, `y2` (centre of j or the contact point, m) and,
 * with `stroke: "force"`, `stroke` (N).
 *
 * @example
 * ```ts
 * import { forceChains } from "./chains.ts";
 * import { expect } from "expect";
 * const system = {
 *   count: 2, dimension: 2, positions: [0, 0, 1, 0], velocities: [0, 0, 0, 0], radii: [0.5, 0.5],
 *   contacts: { count: 1, i: [1], j: [0], kind: [0], point: [0.5, 0], normal: [1, 0], overlap: [0.01], normalForce: [3], tangentialForce: [0, 0] },
 * };
 * const m = forceChains(system);
 * expect([m.links, m.maxForce]).toEqual([1, 3]);
 * ```
 */
export interface ForceChainsMark extends PlotMark {
  /** Number of segments drawn. */
  readonly links: number;
  /** Largest normal force among them (N); 0 when there are none. */
  readonly maxForce: number;
  /** The colour scale of the default stroke (light = weak), for a legend; else undefined. */
  readonly colorScale: ColorScale | undefined;
}

/** The implementation of {@link ForceChainsMark}. */
class ForceChainsLayer extends GrainlabMark implements ForceChainsMark {
  readonly links: number;
  readonly maxForce: number;
  readonly colorScale: ColorScale | undefined;
  #force: Float64Array;
  #stroke: string | string[] | undefined;
  #options: ForceChainsOptions;
  #scaleForce: number;

  constructor(source: NetworkSource, options: ForceChainsOptions = {}) {
    const where = "forceChains";
    const net = networkOf(where, source);
    const { a, b } = axesOf(where, net.dim, options.view);
    const ka = "xyz".indexOf(a), kb = "xyz".indexOf(b);
    const withBoundaries = options.boundaries ?? true;
    const maxC = options.maxContacts ?? 20000;
    if (!(Number.isInteger(maxC) && maxC >= 0)) {
      throw new RangeError(`${where}: options.maxContacts is ${maxC}, must be an integer >= 0`);
    }
    const rows: number[] = [], ends: number[] = [];
    for (let r = 0; r < net.m; r++) {
      const i = net.i(r), j = net.j(r);
      if (j < 0 && !withBoundaries) continue;
      const f = net.f(r);
      if (!(f > 0)) continue;
      if (!Number.isFinite(f)) {
        throw new RangeError(`${where}: contacts.normalForce[${r}] is ${f}, must be finite`);
      }
      rows.push(r);
      ends.push(i, j);
    }
    // weakest first (strong chains drawn on top); keep the strongest maxContacts
    let order = Array.from(rows.keys()).sort((p, q) => net.f(rows[p]) - net.f(rows[q]));
    if (order.length > maxC) order = order.slice(order.length - maxC);
    const m = order.length;
    const A0 = new Float64Array(m), B0 = new Float64Array(m);
    const A1 = new Float64Array(m), B1 = new Float64Array(m), F = new Float64Array(m);
    let maxF = 0;
    for (let k = 0; k < m; k++) {
      const q = order[k], r = rows[q], i = ends[2 * q], j = ends[2 * q + 1];
      A0[k] = net.pos(i, ka);
      B0[k] = net.pos(i, kb);
      A1[k] = j >= 0 ? net.pos(j, ka) : net.point(r, ka);
      B1[k] = j >= 0 ? net.pos(j, kb) : net.point(r, kb);
      if (![A0[k], B0[k], A1[k], B1[k]].every(fin)) {
        const end = j >= 0 ? `the centre of particle ${j}` : "the contact point";
        throw new RangeError(
          `${where}: contact ${r} runs from (${A0[k]}, ${B0[k]}) to ${end} (${A1[k]}, ${
            B1[k]
          }); coordinates must be finite`,
        );
      }
      F[k] = net.f(r);
      maxF = Math.max(maxF, F[k]);
    }
    const fMax = options.maxForce ?? maxF;
    if (options.maxForce !== undefined && !(fMax > 0 && Number.isFinite(fMax))) {
      throw new RangeError(`${where}: options.maxForce is ${fMax}, must be a positive number`);
    }
    const label = (k: string) => `${k} (m)`;
    const channels: Record<string, ChannelSpec> = {
      x1: { value: A0, scale: "x", label: label(a) },
      y1: { value: B0, scale: "y", label: label(b) },
      x2: { value: A1, scale: "x", label: label(a) },
      y2: { value: B1, scale: "y", label: label(b) },
    };
    let stroke: string | string[] | undefined;
    let scale: ColorScale | undefined;
    const s = options.stroke;
    if (s === "force") {
      channels.stroke = { value: F, scale: "color", label: "normal force (N)" };
    } else if (typeof s === "function") {
      stroke = Array.from(F, (f) => String(s(f)));
    } else if (typeof s === "string") {
      if (!isCssColor(s)) {
        throw new RangeError(
          `${where}: options.stroke is "${s}", must be a CSS colour, "force" or a function`,
        );
      }
      stroke = s;
    } else if (s === undefined) {
      scale = colorScale(F, {
        type: "linear",
        scheme: options.scheme ?? "ylorrd",
        domain: [0, fMax || 1],
        label: "normal force (N)",
      });
      stroke = Array.from(F, (f) => scale!.apply(f));
    } else {
      throw new TypeError(`${where}: options.stroke must be a CSS colour, "force" or a function`);
    }
    super(m, channels);
    this.links = m;
    this.maxForce = maxF;
    this.colorScale = scale;
    this.#force = F;
    this.#stroke = stroke;
    this.#options = options;
    this.#scaleForce = fMax || 1;
  }

  /** Draws the chains (called by `Plot.plot`). */
  protected draw({ index, values, dimensions, doc }: MarkDraw): DomElement {
    const o = this.#options;
    const wMax = o.maxWidth ?? 6, wMin = o.minWidth ?? 0.4;
    const g = create(doc, "g", { "aria-label": "force chains", "stroke-linecap": "round" });
    if (o.strokeOpacity !== undefined) g.setAttribute("stroke-opacity", String(o.strokeOpacity));
    const X1 = values.x1!, Y1 = values.y1!, X2 = values.x2!, Y2 = values.y2!, S = values.stroke;
    const sorted = Array.from(index).sort((p, q) => p - q); // weakest first
    for (const k of sorted) {
      const x1 = X1[k], y1 = Y1[k], x2 = X2[k], y2 = Y2[k];
      if (!fin(x1) || !fin(y1) || !fin(x2) || !fin(y2)) continue;
      const w = wMin + (wMax - wMin) * Math.min(1, this.#force[k] / this.#scaleForce);
      const st = this.#stroke;
      const stroke = typeof st === "string"
        ? st
        : st
        ? st[k]
        : S?.[k] != null
        ? String(S[k])
        : "#bbb";
      append(g, svgLine(doc, x1, y1, x2, y2, { stroke, "stroke-width": px(w) }));
    }
    if (o.clip) clipToFrame(doc, g, dimensions);
    return g;
  }
}

/**
 * A Plot mark of the force network: a segment between the centres of every particle pair in
 * contact, width (and by default colour) proportional to the normal force; boundary contacts
 * (ground, walls) run from the centre to the contact point.
 *
 * @param source a system with `contacts` (sphere3d or star2d), or `{ particles, contacts }`
 *   tables from `particlesTable` and `contactsTable`
 * @param options view (3D), colours, widths, which contacts
 * @returns the mark; `links` and `maxForce` (N) say what it draws
 * @throws {TypeError} when the source has no contacts
 * @throws {RangeError} when a contact refers to a particle that does not exist or a drawn
 *   coordinate or force is not finite
 * @example
 * ```ts
 * import * as Plot from "@observablehq/plot";
 * import { forceChains } from "./chains.ts";
 * import { grains } from "./grains.ts";
 * import { plotFigure } from "./plot_figure.ts";
 * import { expect } from "expect";
 * const system = {
 *   count: 2, dimension: 2, positions: [0, 0.5, 1, 0.5], velocities: [0, 0, 0, 0], radii: [0.5, 0.5],
 *   contacts: {
 *     count: 2, i: [1, 0], j: [0, -1], kind: [0, 2], point: [0.5, 0.5, 0, 0], normal: [1, 0, 0, 1],
 *     overlap: [0.01, 0.01], normalForce: [3, 1], tangentialForce: [0, 0, 0, 0],
 *   },
 * };
 * const fig = plotFigure({
 *   aspectRatio: 1,
 *   marks: [grains(system, { fill: "#eee" }), forceChains(system), Plot.ruleY([0])],
 * });
 * expect(fig.svg.match(/<line/g)!.length).toBeGreaterThanOrEqual(2);
 * ```
 */
export function forceChains(
  source: NetworkSource,
  options: ForceChainsOptions = {},
): ForceChainsMark {
  options = plotOptions("forceChains", options, {
    view: "any",
    stroke: "any",
    scheme: "string",
    maxWidth: "positive",
    minWidth: "nonNegative",
    maxForce: "positive",
    boundaries: "boolean",
    maxContacts: "count",
    strokeOpacity: "nonNegative",
    clip: "boolean",
  });
  return new ForceChainsLayer(source, options);
}
