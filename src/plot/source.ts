/**
 * Particle columns for figures, read from a simulator system or from an Arrow table
 * (`particlesTable`, `readArrow`) alike.
 *
 * @module
 */

import { Table } from "apache-arrow";
import { particlesTable } from "../arrow/particles.ts";
import type { ParticleSystemLike } from "../arrow/types.ts";

/** Anything a particle figure can draw: a simulator system or a particles table. */
export type ParticleSource = ParticleSystemLike | Table;

/** Numeric columns of a particle snapshot, by name (x, y, z, radius, speed, …). */
export interface ParticleColumns {
  /** Number of particles. */
  n: number;
  /** 2 or 3. */
  dim: 2 | 3;
  /** Column lookup; throws naming the available columns when absent. */
  get(name: string): ArrayLike<number>;
  /** Whether a column exists. */
  has(name: string): boolean;
  /** Column names. */
  names: string[];
  /** Unit of a column ("" when unknown). */
  unit(name: string): string;
}

/**
 * Reads particle columns from a system or a table.
 *
 * @param where calling function, for error messages
 * @param source the system or table
 * @returns the columns
 * @throws {TypeError} when `source` is neither
 */
export function particleColumns(where: string, source: ParticleSource): ParticleColumns {
  const table = source instanceof Table ? source : particlesTable(source as ParticleSystemLike);
  if (!table.getChild("x") || !table.getChild("y")) {
    throw new TypeError(`${where}: source must have x and y columns (a particles table)`);
  }
  const cache = new Map<string, ArrayLike<number>>();
  const names = table.schema.fields.map((f) => f.name);
  return {
    n: table.numRows,
    dim: table.getChild("z") ? 3 : 2,
    names,
    has: (name) => names.includes(name),
    unit: (name) => table.schema.fields.find((f) => f.name === name)?.metadata.get("unit") ?? "",
    get(name) {
      let c = cache.get(name);
      if (c) return c;
      const v = table.getChild(name);
      if (!v) {
        throw new RangeError(
          `${where}: no column "${name}"; available: ${names.join(", ")}`,
        );
      }
      const arr = v.toArray() as ArrayLike<number | boolean>;
      c = typeof arr[0] === "boolean"
        ? Float64Array.from(arr as ArrayLike<boolean>, Number)
        : (arr as ArrayLike<number>);
      cache.set(name, c);
      return c;
    },
  };
}

/** Label "name (unit)" for an axis or legend. */
export function labelOf(cols: ParticleColumns, name: string): string {
  const u = cols.unit(name);
  return u && u !== "1" ? `${name} (${u})` : name;
}

/**
 * Bounding box of discs in two coordinates, padded by a fraction of the larger side. Never
 * empty: no (finite) particles give [−1, 1]²; particles all at one point without size get a
 * small box around it; an axis of zero width gets 2 % of the other's.
 */
export function bounds(
  a: ArrayLike<number>,
  b: ArrayLike<number>,
  r: ArrayLike<number> | undefined,
  n: number,
  pad = 0.04,
): { x: [number, number]; y: [number, number] } {
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let i = 0; i < n; i++) {
    const ri = r && Number.isFinite(r[i]) ? r[i] : 0;
    if (!Number.isFinite(a[i]) || !Number.isFinite(b[i])) continue;
    x0 = Math.min(x0, a[i] - ri);
    x1 = Math.max(x1, a[i] + ri);
    y0 = Math.min(y0, b[i] - ri);
    y1 = Math.max(y1, b[i] + ri);
  }
  if (!Number.isFinite(x0)) return { x: [-1, 1], y: [-1, 1] };
  const span = Math.max(x1 - x0, y1 - y0);
  if (!(span > 0)) {
    // every particle at one point, without size: a box of 1 mm, or 10 % of the distance
    // from the origin when that is larger
    const h = Math.max(5e-4, 0.05 * Math.max(Math.abs(x0), Math.abs(y0)));
    return { x: [x0 - h, x0 + h], y: [y0 - h, y0 + h] };
  }
  const s = span * pad;
  const grow = (lo: number, hi: number): [number, number] => {
    const e = hi - lo > 0 ? s : Math.max(s, 0.02 * span);
    return [lo - e, hi + e];
  };
  return { x: grow(x0, x1), y: grow(y0, y1) };
}
