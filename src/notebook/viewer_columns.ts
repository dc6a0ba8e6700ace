/**
 * Colour columns of the 3D viewer: the built-in columns, the values of a column per frame,
 * colour scales (a 256-entry lookup table or categories) and their HTML legends.
 *
 * @module
 */

import { nearest, options as checkOptions } from "../math/validate.ts";
import { colorScale } from "../plot/color.ts";
import { escapeXml } from "../plot/dom.ts";
import type { ViewFrame } from "./viewer_frames.ts";
import type { View3DOptions, ViewScale } from "./viewer_types.ts";

interface ColumnSpec {
  name: string;
  key: string;
  label: string;
  categorical?: string[];
}

const BUILT_IN: Record<string, Omit<ColumnSpec, "name">> = {
  height: { key: "z", label: "height z (m)" },
  z: { key: "z", label: "z (m)" },
  x: { key: "x", label: "x (m)" },
  y: { key: "y", label: "y (m)" },
  speed: { key: "speed", label: "speed (m/s)" },
  radius: { key: "radius", label: "radius (m)" },
  material: { key: "materialId", label: "material id", categorical: [] },
  materialId: { key: "materialId", label: "material id", categorical: [] },
  contacts: { key: "contacts", label: "contacts per grain" },
  sleeping: { key: "sleeping", label: "sleeping", categorical: ["awake", "asleep"] },
  fixed: { key: "fixed", label: "fixed", categorical: ["free", "fixed"] },
  id: { key: "id", label: "id" },
  system: { key: "system", label: "system", categorical: [] },
};

function columnValues(f: ViewFrame, key: string): Float32Array | null {
  const axis = ["x", "y", "z"].indexOf(key);
  if (axis >= 0) {
    const v = new Float32Array(f.count);
    for (let i = 0; i < f.count; i++) v[i] = f.positions[3 * i + axis];
    return v;
  }
  return f.columns.get(key) ?? null;
}

function hexOf(css: string): string {
  const m = css.match(/^rgb\(\s*(\d+),\s*(\d+),\s*(\d+)\s*\)$/);
  if (m) return m.slice(1, 4).map((v) => Number(v).toString(16).padStart(2, "0")).join("");
  const h = css.match(/^#([0-9a-f]{6})$/i);
  if (h) return h[1].toLowerCase();
  const s = css.match(/^#([0-9a-f])([0-9a-f])([0-9a-f])$/i);
  if (s) return (s[1] + s[1] + s[2] + s[2] + s[3] + s[3]).toLowerCase();
  return "bbbbbb";
}

/** A number with 3 significant digits (exponential when very small or large). */
export function fmt(v: number): string {
  const a = Math.abs(v);
  if (a !== 0 && (a < 1e-3 || a >= 1e5)) return v.toExponential(2);
  return String(Number(v.toPrecision(3)));
}

/** A colour column as the page reads it: scale type, domain, lookup table or categories, legend. */
export interface ColumnHead {
  name: string;
  label: string;
  type: "linear" | "log" | "categorical";
  domain: number[];
  lut: string | null;
  categories: { value: number; color: string; label: string }[] | null;
  legend: string;
}

function buildColumn(
  spec: ColumnSpec,
  values: (Float32Array | null)[],
  scale: ViewScale,
): ColumnHead {
  const distinct = new Set<number>();
  let lo = Infinity, hi = -Infinity;
  for (const v of values) {
    if (!v) continue;
    for (let i = 0; i < v.length; i++) {
      const x = v[i];
      if (!Number.isFinite(x)) continue;
      if (x < lo) lo = x;
      if (x > hi) hi = x;
      if (distinct.size <= 24) distinct.add(x);
    }
  }
  const label = escapeXml(scale.label ?? spec.label);
  const title = `<div style="font-weight:600;margin-bottom:2px">${label}</div>`;
  if (spec.categorical && distinct.size <= 24) {
    const domain = [...distinct].sort((a, b) => a - b);
    if (domain.length === 0) domain.push(0);
    const s = colorScale(domain, {
      type: "categorical",
      scheme: scale.scheme ?? "tableau10",
    });
    const categories = domain.map((value) => ({
      value,
      color: `#${hexOf(s.apply(value))}`,
      label: spec.categorical![value] ?? String(value),
    }));
    const items = categories.map((c) =>
      `<div style="display:flex;align-items:center;gap:4px"><span style="display:inline-block;` +
      `width:10px;height:10px;border-radius:5px;background:${c.color}"></span>${
        escapeXml(c.label)
      }</div>`
    ).join("");
    return {
      name: spec.name,
      label: spec.label,
      type: "categorical",
      domain,
      lut: null,
      categories,
      legend: title + items,
    };
  }
  const type = scale.type ?? "linear";
  if (scale.domain) [lo, hi] = scale.domain;
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) [lo, hi] = [0, 1];
  if (type === "log") {
    if (!(lo > 0)) lo = hi > 0 ? hi * 1e-6 : 1e-6;
    if (!(hi > lo)) hi = lo * 10;
  } else if (!(hi > lo)) hi = lo + (lo === 0 ? 1 : Math.abs(lo) * 0.01);
  const s = colorScale([lo, hi], { type, domain: [lo, hi], scheme: scale.scheme ?? "viridis" });
  let lut = "";
  for (let k = 0; k < 256; k++) {
    const t = k / 255;
    const v = type === "log" ? lo * Math.pow(hi / lo, t) : lo + (hi - lo) * t;
    lut += hexOf(s.apply(k === 0 ? lo : k === 255 ? hi : v));
  }
  const stops = Array.from({ length: 17 }, (_, k) => {
    const j = Math.round((k * 255) / 16);
    return `#${lut.slice(6 * j, 6 * j + 6)} ${((100 * k) / 16).toFixed(2)}%`;
  }).join(",");
  const legend = title +
    `<div class="glv-ramp" style="width:170px;height:12px;background:linear-gradient(to right,${stops})"></div>` +
    `<div style="display:flex;justify-content:space-between;width:170px"><span>${
      fmt(lo)
    }</span><span>${fmt(hi)}</span></div>`;
  return {
    name: spec.name,
    label: spec.label,
    type,
    domain: [lo, hi],
    lut,
    categories: null,
    legend,
  };
}

/** The colour columns asked for, their values per frame (null where a frame lacks one). */
export function resolveColumns(
  where: string,
  frames: readonly ViewFrame[],
  o: View3DOptions,
): { columns: ColumnHead[]; values: (Float32Array | null)[][] } {
  const wanted = o.color === undefined ? ["height"] : typeof o.color === "string" ? [o.color] : [
    ...o.color,
  ];
  if (wanted.length === 0 || !wanted.every((c) => typeof c === "string")) {
    throw new TypeError(`${where}: color must be a column name or a non-empty list of names`);
  }
  const available = new Set(["height", "x", "y", "z"]);
  for (const f of frames) {
    for (const k of f.columns.keys()) available.add(k);
  }
  for (const [name, spec] of Object.entries(BUILT_IN)) {
    if (available.has(spec.key)) available.add(name);
  }
  const specs: ColumnSpec[] = wanted.map((name) => {
    const b = BUILT_IN[name];
    const key = b?.key ?? name;
    if (!available.has(key)) {
      const list = [...available].sort();
      const near = nearest(name, list);
      throw new RangeError(
        `${where}: color column ${JSON.stringify(name)} is not in these frames` +
          (near ? `; did you mean ${JSON.stringify(near)}?` : "") +
          ` (available: ${list.join(", ")})`,
      );
    }
    return { name, key, label: b?.label ?? name, categorical: b?.categorical };
  });
  const scales = o.scales ?? {};
  if (typeof scales !== "object" || scales === null) {
    throw new TypeError(`${where}: scales must be an object of column name → scale settings`);
  }
  const values = specs.map((s) => frames.map((f) => columnValues(f, s.key)));
  const columns = specs.map((s, k) => {
    const name = `scales.${s.name}`;
    const sc = checkOptions<ViewScale>(where, name, scales[s.name], [
      "type",
      "domain",
      "scheme",
      "label",
    ]);
    if (sc.type !== undefined && sc.type !== "linear" && sc.type !== "log") {
      throw new RangeError(`${where}: ${name}.type (${sc.type}) must be "linear" or "log"`);
    }
    const d = sc.domain;
    if (
      d !== undefined &&
      !(Array.isArray(d) && d.length === 2 && d.every(Number.isFinite) && d[1] > d[0] &&
        (sc.type !== "log" || d[0] > 0))
    ) {
      throw new RangeError(
        `${where}: ${name}.domain (${String(d)}) must be [min, max], finite, min < max` +
          (sc.type === "log" ? ", min > 0" : ""),
      );
    }
    try {
      return buildColumn(s, values[k], sc);
    } catch (e) {
      throw new RangeError(`${where}: ${name}.scheme (${sc.scheme}): ${(e as Error).message}`);
    }
  });
  return { columns, values };
}
