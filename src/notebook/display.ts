/**
 * Rich display of simulator objects and tables in Deno Jupyter (`Symbol.for("Jupyter.display")`):
 * a system shows a compact summary plus a figure; a table (through {@link tableView} or
 * {@link show}) its schema with units and first rows.
 *
 * @module
 */

import { Table } from "apache-arrow";
import { checkSystem, dimensionOf, type ParticleSystemLike } from "../arrow/types.ts";
import { bool, options as checkOptions } from "../math/validate.ts";
import { escapeXml } from "../plot/dom.ts";
import { base64 } from "../plot/figure.ts";
import { bed3d, particles2d } from "../plot/particles.ts";
import type { MediaBundle } from "./kernel.ts";

/** The display symbol Deno's kernel looks for. */
export const DISPLAY: unique symbol = Symbol.for("Jupyter.display") as never;

/** Key facts about a particle system. */
export interface SystemSummary {
  /** "sphere3d" or "star2d" (by dimension). */
  kind: string;
  /** Live particles. */
  count: number;
  /** Simulated time (s), when known. */
  time?: number;
  /** Step count, when known. */
  step?: number;
  /** Largest speed (m/s). */
  maxSpeed: number;
  /** Mean radius (m). */
  meanRadius: number;
  /** Total mass (kg). */
  totalMass: number;
  /** Contacts of the last step. */
  contacts: number;
  /** Bounding box of the centres, [min, max] per axis (m). */
  bounds: [number, number][];
}

/**
 * Computes the summary shown for a system.
 *
 * @param system a sphere3d or star2d system
 * @param world optional world for time and step
 * @returns the summary
 * @example
 * ```ts
 * import { systemSummary } from "./display.ts";
 * import { expect } from "expect";
 * const s = systemSummary({ count: 1, positions: [0, 0, 1], velocities: [3, 4, 0], radii: [0.1] });
 * expect(s).toMatchObject({ kind: "sphere3d", count: 1, maxSpeed: 5, meanRadius: 0.1, contacts: 0 });
 * expect(s.bounds).toEqual([[0, 0], [0, 0], [1, 1]]);
 * ```
 */
export function systemSummary(
  system: ParticleSystemLike,
  world?: { time?: number; stepCount?: number },
): SystemSummary {
  checkSystem("systemSummary", system);
  if (world !== undefined && (world === null || typeof world !== "object")) {
    throw new TypeError(`systemSummary: world (${String(world)}) must be a world object`);
  }
  const d = dimensionOf(system), n = system.count;
  let maxSpeed = 0, rSum = 0, mSum = 0;
  const b: [number, number][] = Array.from({ length: d }, () => [Infinity, -Infinity]);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < d; k++) {
      const v = system.velocities[i * d + k], p = system.positions[i * d + k];
      s += v * v;
      b[k][0] = Math.min(b[k][0], p);
      b[k][1] = Math.max(b[k][1], p);
    }
    maxSpeed = Math.max(maxSpeed, Math.sqrt(s));
    rSum += system.radii?.[i] ?? 0;
    mSum += system.masses?.[i] ?? 0;
  }
  const w = world ?? system.world;
  const stats = system.lastStepStats as Record<string, unknown> | undefined;
  return {
    kind: d === 3 ? "sphere3d" : "star2d",
    count: n,
    time: w?.time ?? system.time ?? (stats?.time as number | undefined),
    step: w?.stepCount ?? system.stepCount ?? (stats?.step as number | undefined),
    maxSpeed,
    meanRadius: n ? rSum / n : 0,
    totalMass: mSum,
    contacts: system.contacts?.count ?? 0,
    bounds: b.map(([lo, hi]) => (n ? [lo, hi] : [0, 0]) as [number, number]),
  };
}

function fmt(v: number | undefined, unit = ""): string {
  if (v === undefined || !Number.isFinite(v)) return "–";
  const a = Math.abs(v);
  const s = a !== 0 && (a < 1e-3 || a >= 1e5)
    ? v.toExponential(3)
    : String(Number(v.toPrecision(5)));
  return unit ? `${s} ${unit}` : s;
}

/**
 * The display bundle of a system: a text summary and HTML with a summary table and a figure
 * (side + top views in 3D, the grains in 2D) as an `<img>`.
 *
 * @param system a sphere3d or star2d system
 * @param options world for time/step; `figure: false` for text only
 * @returns the media bundle
 * @example
 * ```ts
 * import { systemBundle } from "./display.ts";
 * import { expect } from "expect";
 * const b = systemBundle({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0], radii: [0.1] });
 * expect(b["text/plain"]).toMatch(/^sphere3d: 1 particles, /);
 * const svg = atob(String(b["text/html"]).match(/data:image\/svg\+xml;base64,([^"]+)/)![1]);
 * expect(svg.match(/<circle/g)?.length).toBe(2); // side and top views
 * const text = systemBundle({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] }, { figure: false });
 * expect(String(text["text/html"])).not.toContain("<img");
 * ```
 */
export function systemBundle(
  system: ParticleSystemLike,
  options: { world?: { time?: number; stepCount?: number }; figure?: boolean } = {},
): MediaBundle {
  options = checkOptions<{ world?: { time?: number; stepCount?: number }; figure?: boolean }>(
    "systemBundle",
    "options",
    options,
    ["world", "figure"],
  );
  bool("systemBundle", "options.figure", options.figure, true);
  checkSystem("systemBundle", system);
  const s = systemSummary(system, options.world);
  const axes = s.bounds.length === 3 ? ["x", "y", "z"] : ["x", "y"];
  const text = `${s.kind}: ${s.count} particles, t = ${fmt(s.time, "s")}, step ${
    s.step ?? "–"
  }, ${s.contacts} contacts, max speed ${fmt(s.maxSpeed, "m/s")}`;
  const rows: [string, string][] = [
    ["particles", String(s.count)],
    ["time", fmt(s.time, "s")],
    ["step", String(s.step ?? "–")],
    ["contacts (last step)", String(s.contacts)],
    ["max speed", fmt(s.maxSpeed, "m/s")],
    ["mean radius", fmt(s.meanRadius, "m")],
    ["total mass", fmt(s.totalMass, "kg")],
    ...s.bounds.map((
      b,
      k,
    ): [string, string] => [`${axes[k]} range`, `${fmt(b[0])} … ${fmt(b[1])} m`]),
  ];
  let fig = "";
  if (options.figure !== false && s.count > 0) {
    const f = s.kind === "sphere3d"
      ? bed3d(system, { views: ["side", "top"], width: 320, height: 300 })
      : particles2d(system, { width: 420, height: 360 });
    // an <img>, not inline SVG, which nbconvert, GitHub and untrusted JupyterLab strip
    const src = f.svg.length < 350_000
      ? `data:image/svg+xml;base64,${base64(new TextEncoder().encode(f.svg))}`
      : `data:image/png;base64,${base64(f.toPNG({ scale: 1 }))}`;
    fig = `<img alt="${escapeXml(`${s.kind}, ${s.count} particles`)}" width="${f.width}" ` +
      `height="${f.height}" style="max-width:100%;height:auto" src="${src}">`;
  }
  const html = `<div style="display:flex;gap:16px;align-items:flex-start;font-family:sans-serif">` +
    `<table style="font-size:12px"><caption style="font-weight:bold;text-align:left">${s.kind}</caption>` +
    rows.map(([k, v]) =>
      `<tr><td>${escapeXml(k)}</td><td style="text-align:right">${escapeXml(v)}</td></tr>`
    )
      .join("") +
    `</table><div>${fig}</div></div>`;
  return { "text/plain": text, "text/html": html };
}

/**
 * The display bundle of an Arrow table: schema (name, type, unit, description), schema
 * metadata and the first rows.
 *
 * @param table an Arrow table
 * @param options rows to show
 * @returns the media bundle
 * @example
 * ```ts
 * import { particlesTable } from "@grainlab/grainlab/arrow";
 * import { tableBundle } from "./display.ts";
 * import { expect } from "expect";
 * const t = particlesTable({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] });
 * const html = String(tableBundle(t)["text/html"]);
 * expect(html).toContain("<th>z</th>");
 * expect(html).toContain("<i>m</i>"); // units under the names
 * expect(tableBundle(t)["text/plain"]).toMatch(/^Arrow table: 1 rows × \d+ columns \(id, x, y, z/);
 * ```
 */
export function tableBundle(table: Table, options: TableViewOptions = {}): MediaBundle {
  const where = "tableBundle";
  if (!(table instanceof Table)) {
    throw new TypeError(`${where}: table is ${String(table)}, must be an Arrow Table`);
  }
  options = checkOptions<TableViewOptions>(where, "options", options, ["rows"]);
  const rows = options.rows ?? 8;
  if (!(Number.isInteger(rows) && rows >= 0)) {
    throw new RangeError(`${where}: options.rows is ${rows}, must be an integer >= 0`);
  }
  const n = Math.min(table.numRows, rows);
  const fields = table.schema.fields;
  const meta = [...table.schema.metadata].filter(([k]) => k !== "grainlab.material");
  const cell = (v: unknown) => {
    if (typeof v === "number") return fmt(v);
    if (typeof v === "bigint") return String(v);
    return escapeXml(String(v));
  };
  const head = fields.map((f) => `<th>${escapeXml(f.name)}</th>`).join("");
  const units = fields.map((f) => `<td><i>${escapeXml(f.metadata.get("unit") ?? "")}</i></td>`)
    .join("");
  const body = Array.from({ length: n }, (_, r) => {
    const row = table.get(r) as Record<string, unknown> | null;
    return `<tr>${fields.map((f) => `<td>${cell(row?.[f.name])}</td>`).join("")}</tr>`;
  }).join("");
  const html = `<div style="font-family:sans-serif;font-size:12px">` +
    `<div><b>Arrow table</b>: ${table.numRows} rows × ${fields.length} columns` +
    (meta.length
      ? ` — ${meta.map(([k, v]) => `${escapeXml(k)}=${escapeXml(v)}`).join(", ")}`
      : "") +
    `</div><table><thead><tr>${head}</tr><tr>${units}</tr></thead><tbody>${body}</tbody></table></div>`;
  const text = `Arrow table: ${table.numRows} rows × ${fields.length} columns (${
    fields.map((f) => f.name).join(", ")
  })`;
  return { "text/plain": text, "text/html": html };
}

/** Options of {@link tableView} and {@link tableBundle}. */
export interface TableViewOptions {
  /** First rows to show. @default 8 */
  rows?: number;
}

/**
 * An Arrow table as a displayable value: shown in a notebook cell (as the cell's value or
 * through `Deno.jupyter.display`) with its schema, units, metadata and first rows. Importing
 * the notebook module does not change apache-arrow's `Table`; wrap a table in this (or
 * {@link show}) to display it richly.
 *
 * @param table an Arrow table (`particlesTable`, `readArrow`, …)
 * @param options rows to show
 * @returns an object with `Symbol.for("Jupyter.display")`
 * @throws {TypeError} when `table` is not an Arrow Table
 * @throws {RangeError} when `rows` is not an integer >= 0
 * @example
 * ```ts
 * import { particlesTable } from "@grainlab/grainlab/arrow";
 * import { tableView } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const t = particlesTable({ count: 3, positions: [0, 0, 1, 0, 0, 2, 0, 0, 3], velocities: new Array(9).fill(0) });
 * const b = tableView(t, { rows: 2 })[Symbol.for("Jupyter.display")]();
 * expect(String(b["text/html"]).match(/<tr>/g)?.length).toBe(2 + 2); // names, units, 2 rows
 * expect(() => tableView({} as never)).toThrow(TypeError);
 * ```
 */
export function tableView(
  table: Table,
  options: TableViewOptions = {},
): { [k: symbol]: () => MediaBundle } {
  if (!(table instanceof Table)) {
    throw new TypeError(`tableView: table is ${String(table)}, must be an Arrow Table`);
  }
  options = checkOptions<TableViewOptions>("tableView", "options", options, ["rows"]);
  const rows = options.rows ?? 8;
  if (!(Number.isInteger(rows) && rows >= 0)) {
    throw new RangeError(`tableView: options.rows is ${rows}, must be an integer >= 0`);
  }
  return { [DISPLAY]: () => tableBundle(table, { rows }) };
}

/**
 * Wraps a value so that it displays richly in a notebook cell: systems (summary + figure),
 * Arrow tables (schema + rows), anything already displayable as itself.
 *
 * @param value a system, a table, a figure…
 * @param options world (time/step) for systems
 * @returns an object with `Symbol.for("Jupyter.display")`
 * @example
 * ```ts
 * import { show } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const d = show({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0], radii: [0.1] });
 * expect(d[Symbol.for("Jupyter.display")]()["text/plain"]).toMatch(/^sphere3d: 1 particles/);
 * expect(show(42)[Symbol.for("Jupyter.display")]()).toEqual({ "text/plain": "42" });
 * ```
 */
export function show(
  value: unknown,
  options: { world?: { time?: number; stepCount?: number } } = {},
): { [k: symbol]: () => MediaBundle } {
  return {
    [DISPLAY]: () => bundleOf(value, options.world),
  };
}

function bundleOf(
  value: unknown,
  world?: { time?: number; stepCount?: number },
  own = true,
): MediaBundle {
  if (value instanceof Table) return tableBundle(value);
  const v = value as Record<symbol, unknown> & ParticleSystemLike;
  if (own && v && typeof v[DISPLAY] === "function") return (v[DISPLAY] as () => MediaBundle)();
  if (v && typeof v.count === "number" && v.positions && v.velocities) {
    return systemBundle(v, { world });
  }
  const w = value as { systems?: readonly ParticleSystemLike[]; time?: number; stepCount?: number };
  if (w && Array.isArray(w.systems)) return worldBundle(w);
  return { "text/plain": String(value) };
}

function worldBundle(
  world: { systems?: readonly ParticleSystemLike[]; time?: number; stepCount?: number },
): MediaBundle {
  const systems = world.systems ?? [];
  const head = `World: t = ${fmt(world.time, "s")}, step ${
    world.stepCount ?? "–"
  }, ${systems.length} system(s)`;
  const parts = systems.map((s) => systemBundle(s, { world }));
  return {
    "text/plain": [head, ...parts.map((p) => `  ${p["text/plain"]}`)].join("\n"),
    "text/html": `<div style="font-family:sans-serif"><b>${escapeXml(head)}</b>${
      parts.map((p) => p["text/html"]).join("")
    }</div>`,
  };
}

/**
 * Gives classes (simulator systems, worlds) a `Symbol.for("Jupyter.display")` method so that
 * their instances display themselves as a cell's value or through `Deno.jupyter.display`.
 * Already-displayable classes are left alone. It patches the classes' prototypes: use it for
 * your own classes, not for other libraries' (wrap those values in {@link show} or
 * {@link tableView} instead).
 *
 * @param classes constructors whose instances should display richly
 * @returns the number of classes patched
 * @example
 * ```ts
 * import { registerDisplay } from "./display.ts";
 * import { expect } from "expect";
 * class Probe { count = 1; positions = [0, 0, 1]; velocities = [0, 0, 0]; }
 * expect(registerDisplay([Probe])).toBe(1);
 * expect(registerDisplay([Probe])).toBe(0); // already displayable: left alone
 * const p = new Probe() as unknown as Record<symbol, () => Record<string, string>>;
 * expect(p[Symbol.for("Jupyter.display")]()["text/plain"]).toMatch(/^sphere3d: 1 particles/);
 * ```
 */
export function registerDisplay(
  classes: readonly (abstract new (...a: never[]) => unknown)[],
): number {
  let patched = 0;
  for (const C of classes) {
    const proto = C?.prototype as Record<symbol, unknown> | undefined;
    if (!proto || Object.prototype.hasOwnProperty.call(proto, DISPLAY)) continue;
    Object.defineProperty(proto, DISPLAY, {
      value: function (this: unknown) {
        return bundleOf(this, undefined, false);
      },
      configurable: true,
      writable: true,
    });
    patched++;
  }
  return patched;
}
