/**
 * A granular state from an exported particles table (`GranularSystem.fromTable`).
 *
 * @module
 */
import { finite, integerIn, sizeGuard } from "../math/validate.ts";
import type { Material } from "./material.ts";
import { BYTES_PER_PARTICLE, MAX_MATERIAL_ID, MAX_PARTICLES } from "./options.ts";
import type { GranularState } from "./checkpoint_format.ts";

/** The parts of a particles table (an Apache Arrow `Table`, or any look-alike) `fromTable` reads. */
export interface ParticleTableLike {
  /** Number of rows (particles). */
  readonly numRows: number;
  /** A column by name, or null when absent. */
  getChild(name: string): { toArray(): ArrayLike<unknown> } | null;
  /** Schema metadata (`grainlab.material`, `grainlab.time`, `grainlab.step` are read). */
  readonly schema?: { readonly metadata?: { get(key: string): string | undefined } };
}

/**
 * The state held by a particles table (`particlesTable` of `@grainlab/grainlab/arrow`):
 * columns `x`, `y`, `z`, `radius` (required), `id`, `vx`, `vy`, `vz`, `wx`, `wy`, `wz`,
 * `materialId`, `fixed` (optional; ids default to the row numbers, the rest to 0) and, if
 * present, `mass`, which must agree with the material's density.
 */
export function stateFromTable(
  where: string,
  table: ParticleTableLike,
  material: Material,
): GranularState {
  if (table === null || typeof table !== "object" || typeof table.getChild !== "function") {
    throw new TypeError(`${where}: table (${String(table)}) must be a particles table`);
  }
  const n = integerIn(where, "table.numRows", table.numRows, 0, MAX_PARTICLES);
  sizeGuard(where, `${n} particles`, n * BYTES_PER_PARTICLE);
  const column = (name: string, required: boolean): ArrayLike<unknown> | null => {
    const c = table.getChild(name);
    if (!c) {
      if (required) throw new RangeError(`${where}: the table has no column "${name}"`);
      return null;
    }
    const a = c.toArray();
    if (a.length !== n) {
      throw new RangeError(`${where}: column "${name}" has ${a.length} values, not ${n}`);
    }
    return a;
  };
  const num = (name: string, a: ArrayLike<unknown>, i: number) => {
    const v = a[i];
    return typeof v === "bigint" ? Number(v) : finite(where, `${name}[${i}]`, v);
  };
  const vec = (names: string[], required: boolean) => {
    const out = new Float64Array(3 * n);
    names.forEach((name, k) => {
      const a = column(name, required);
      if (a) { for (let i = 0; i < n; i++) out[3 * i + k] = num(name, a, i); }
    });
    return out;
  };
  const pos = vec(["x", "y", "z"], true);
  const vel = vec(["vx", "vy", "vz"], false);
  const ang = vec(["wx", "wy", "wz"], false);
  const rc = column("radius", true)!;
  const radius = new Float64Array(n);
  for (let i = 0; i < n; i++) radius[i] = num("radius", rc, i);
  const id = new Uint32Array(n);
  const ic = column("id", false);
  let nextId = n;
  if (ic) {
    nextId = 0;
    for (let i = 0; i < n; i++) {
      id[i] = integerIn(where, `id[${i}]`, num("id", ic, i), 0, 2 ** 32 - 2);
      if (id[i] >= nextId) nextId = id[i] + 1;
    }
  } else for (let i = 0; i < n; i++) id[i] = i;
  const materialId = new Uint16Array(n);
  const mc = column("materialId", false);
  let tableSize = 1;
  if (mc) {
    for (let i = 0; i < n; i++) {
      materialId[i] = integerIn(
        where,
        `materialId[${i}]`,
        num("materialId", mc, i),
        0,
        MAX_MATERIAL_ID,
      );
      if (materialId[i] >= tableSize) tableSize = materialId[i] + 1;
    }
  }
  const fixed = new Uint8Array(n);
  const fc = column("fixed", false);
  if (fc) {
    for (let i = 0; i < n; i++) {
      const v = fc[i];
      if (v === true || v === 1) fixed[i] = 1;
      else if (!(v === false || v === 0 || v === null)) {
        throw new TypeError(`${where}: fixed[${i}] (${String(v)}) must be a boolean`);
      }
    }
  }
  const mass = column("mass", false);
  if (mass) {
    for (let i = 0; i < n; i++) {
      const r = radius[i], want = material.density * (4 / 3) * Math.PI * r * r * r;
      const got = num("mass", mass, i);
      if (!(Math.abs(got - want) <= 1e-9 * want)) {
        throw new RangeError(
          `${where}: mass[${i}] (${got} kg) disagrees with the material's density ` +
            `${material.density} kg/m³ (${want} kg); pass the material the table was written with`,
        );
      }
    }
  }
  const meta = table.schema?.metadata;
  const t = Number(meta?.get("grainlab.time") ?? 0), st = Number(meta?.get("grainlab.step") ?? 0);
  return {
    count: n,
    nextId,
    time: Number.isFinite(t) ? t : 0,
    stepCount: Number.isSafeInteger(st) && st >= 0 ? st : 0,
    skin: -1,
    sort: true,
    pos,
    vel,
    ang,
    radius,
    id,
    materialId,
    fixed,
    external: null,
    material,
    boundary: { friction: material.friction, rollingFriction: material.rollingFriction },
    friction: new Float64Array(tableSize).fill(material.friction),
    rolling: new Float64Array(tableSize).fill(material.rollingFriction),
    history: null,
    cache: null,
  };
}
