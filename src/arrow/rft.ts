/**
 * `rftTableToArrow` and `rftTableFromArrow`: an RFT table (`RftTable` of
 * `@grainlab/grainlab/sphere3d`) as an Arrow table and back — one row per (β, γ) grid point,
 * β-major, with the medium in the schema metadata. The table is described by its shape
 * ({@link RftTableData}), so this module does not import the simulator; `new RftTable(data)`
 * checks what comes back.
 *
 * @module
 */

import type * as A from "apache-arrow";
import { buildTable } from "./schema.ts";

/**
 * An RFT table's data, as `RftTable` holds it and its constructor takes it: the grid (rad), α
 * (N/m³, β-major) and the medium.
 */
export interface RftTableData {
  /** Plate angles β (rad). */
  beta: ArrayLike<number>;
  /** Velocity angles γ (rad). */
  gamma: ArrayLike<number>;
  /** α_z (N/m³) at (beta[i], gamma[j]) in entry `i * gamma.length + j`. */
  alphaZ: ArrayLike<number>;
  /** α_x (N/m³), laid out as `alphaZ`. */
  alphaX: ArrayLike<number>;
  /** Name of the medium. */
  material: string;
  /** Where the numbers come from: "generic" or "dem". */
  source: "generic" | "dem";
  /** Grain diameter (m), when known. */
  grainDiameter?: number | null;
  /** Grain–grain friction coefficient, when known. */
  friction?: number | null;
  /** Intrusion speed (m/s), when known. */
  intrusionSpeed?: number | null;
  /** Solid volume fraction, when known. */
  volumeFraction?: number | null;
}

/** The schema metadata keys of the medium (`grainlab.rft.*`), by `RftTable` field. */
const META = {
  material: "grainlab.rft.material",
  source: "grainlab.rft.source",
  grainDiameter: "grainlab.rft.grainDiameter",
  friction: "grainlab.rft.friction",
  intrusionSpeed: "grainlab.rft.intrusionSpeed",
  volumeFraction: "grainlab.rft.volumeFraction",
} as const;

/**
 * One row per grid point of `table`, β-major (`i * gamma.length + j`): `beta`, `gamma` (rad),
 * `alphaZ`, `alphaX` (N/m³); the schema carries `grainlab.table` = "rft", the grid sizes and
 * the medium (`grainlab.rft.material`, `.source`, `.grainDiameter`, `.friction`,
 * `.intrusionSpeed`, `.volumeFraction` when known). Write it with `writeArrow`.
 *
 * @param table the RFT table (an `RftTable`, or data of its shape)
 * @returns an Arrow table with `beta.length × gamma.length` rows
 * @throws {TypeError} when `table` does not have the shape of an RFT table
 * @example
 * ```ts
 * import { rftTableFromArrow, rftTableToArrow } from "@grainlab/grainlab/arrow";
 * import { tableFromBytes, tableToArrowFile } from "./io.ts";
 * import { RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const t = RftTable.fromFourier({ zeta: 0.4, betaCount: 5, gammaCount: 3, grainDiameter: 0.003 });
 * const arrow = rftTableToArrow(t);
 * expect(arrow.numRows).toBe(15);
 * expect(arrow.schema.fields[2].metadata.get("unit")).toBe("N/m^3");
 * const back = rftTableFromArrow(tableFromBytes(tableToArrowFile(arrow)));
 * expect(new RftTable(back).toSpec()).toEqual(t.toSpec());
 * ```
 */
export function rftTableToArrow(table: RftTableData): A.Table {
  const where = "rftTableToArrow";
  if (table === null || typeof table !== "object") {
    throw new TypeError(`${where}: table (${String(table)}) must be an RftTable`);
  }
  for (const k of ["beta", "gamma", "alphaZ", "alphaX"] as const) {
    const v = table[k] as unknown;
    if (!Array.isArray(v) && !ArrayBuffer.isView(v)) {
      throw new TypeError(`${where}: table.${k} (${String(v)}) must be an array of numbers`);
    }
  }
  const nb = table.beta.length, ng = table.gamma.length, n = nb * ng;
  if (table.alphaZ.length !== n || table.alphaX.length !== n) {
    throw new RangeError(`${where}: alphaZ and alphaX must hold beta.length × gamma.length = ${n}`);
  }
  const beta = new Float64Array(n), gamma = new Float64Array(n);
  for (let i = 0; i < nb; i++) {
    for (let j = 0; j < ng; j++) {
      beta[i * ng + j] = table.beta[i], gamma[i * ng + j] = table.gamma[j];
    }
  }
  const extra: Record<string, string | number> = {
    "grainlab.rft.betaCount": nb,
    "grainlab.rft.gammaCount": ng,
  };
  for (const [field, key] of Object.entries(META)) {
    const v = table[field as keyof typeof META];
    if (v !== null && v !== undefined) extra[key] = v;
  }
  return buildTable("rftTableToArrow", n, [
    { name: "beta", type: "float64", values: beta, unit: "rad", description: "plate angle β" },
    {
      name: "gamma",
      type: "float64",
      values: gamma,
      unit: "rad",
      description: "velocity angle γ below the horizontal",
    },
    {
      name: "alphaZ",
      type: "float64",
      values: Float64Array.from(table.alphaZ),
      unit: "N/m^3",
      description: "vertical stress per depth α_z (up positive)",
    },
    {
      name: "alphaX",
      type: "float64",
      values: Float64Array.from(table.alphaX),
      unit: "N/m^3",
      description: "horizontal stress per depth α_x (against the motion positive)",
    },
  ], { simulator: "sphere3d", table: "rft", extra });
}

/**
 * The data of an Arrow table written by {@link rftTableToArrow} (e.g. read back with
 * `readArrow`), for `new RftTable(data)`, which checks the grid and the values; every missing
 * or inconsistent part of the file throws naming it.
 *
 * @param arrow the Arrow table
 * @returns the table's data (absent medium fields are left out)
 * @throws {TypeError} when a column or a metadata key is missing
 * @throws {RangeError} when the rows are not the β-major grid the sizes say
 * @example
 * ```ts
 * import { rftTableFromArrow, rftTableToArrow } from "@grainlab/grainlab/arrow";
 * import { RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const arrow = rftTableToArrow(RftTable.fromFourier({ betaCount: 3, gammaCount: 3 }));
 * const table = new RftTable(rftTableFromArrow(arrow));
 * expect(table.alphaZAt(0, Math.PI / 2)).toBeCloseTo(1e6, 6);
 * expect(() => rftTableFromArrow(arrow.select(["beta", "gamma", "alphaZ"])))
 *   .toThrow(/column "alphaX" is missing/);
 * ```
 */
export function rftTableFromArrow(arrow: A.Table): RftTableData {
  const where = "rftTableFromArrow";
  if (arrow === null || typeof arrow !== "object" || typeof arrow.getChild !== "function") {
    throw new TypeError(`${where}: arrow (${String(arrow)}) must be an apache-arrow Table`);
  }
  const meta = arrow.schema.metadata;
  if (meta.get("grainlab.table") !== "rft") {
    throw new TypeError(
      `${where}: grainlab.table (${String(meta.get("grainlab.table"))}) must be "rft"`,
    );
  }
  const count = (key: string): number => {
    const v = Number(meta.get(key));
    if (!Number.isInteger(v) || v < 2) {
      throw new RangeError(`${where}: ${key} (${String(meta.get(key))}) must be an integer >= 2`);
    }
    return v;
  };
  const nb = count("grainlab.rft.betaCount"), ng = count("grainlab.rft.gammaCount");
  if (arrow.numRows !== nb * ng) {
    throw new RangeError(
      `${where}: ${arrow.numRows} rows, must be betaCount × gammaCount = ${nb * ng}`,
    );
  }
  const column = (name: string): Float64Array => {
    const c = arrow.getChild(name);
    if (c === null) throw new TypeError(`${where}: column "${name}" is missing`);
    return Float64Array.from(c.toArray() as ArrayLike<number>);
  };
  const B = column("beta"), Gm = column("gamma");
  const alphaZ = column("alphaZ"), alphaX = column("alphaX");
  const beta = new Float64Array(nb), gamma = new Float64Array(ng);
  for (let i = 0; i < nb; i++) beta[i] = B[i * ng];
  for (let j = 0; j < ng; j++) gamma[j] = Gm[j];
  for (let k = 0; k < nb * ng; k++) {
    if (B[k] !== beta[Math.floor(k / ng)] || Gm[k] !== gamma[k % ng]) {
      throw new RangeError(`${where}: row ${k} (β ${B[k]}, γ ${Gm[k]}) is not on the β-major grid`);
    }
  }
  const spec: Record<string, unknown> = { beta, gamma, alphaZ, alphaX };
  for (const [field, key] of Object.entries(META)) {
    const v = meta.get(key);
    if (v === undefined) continue;
    spec[field] = field === "material" || field === "source" ? v : Number(v);
  }
  if (spec.material === undefined) {
    throw new TypeError(`${where}: metadata ${META.material} is missing`);
  }
  if (spec.source === undefined) {
    throw new TypeError(`${where}: metadata ${META.source} is missing`);
  }
  return spec as unknown as RftTableData;
}
