/**
 * Building blocks for Grainlab's Arrow tables: typed columns with unit/description metadata,
 * schema metadata, and the checks shared by every table builder.
 *
 * @module
 */

import { CONTACT_KIND_NAMES } from "../contact/record.ts";
import * as A from "apache-arrow";
import { VERSION } from "../version.ts";

/** Prefix reserved by the Arrow specification; never used for Grainlab metadata keys. */
const RESERVED_PREFIX = "ARROW:";

/** One column before it becomes an Arrow vector: name, values, unit and description. */
export interface ColumnSpec {
  /** Column name. */
  name: string;
  /**
   * Element type: a numeric type, `"bool"`, or `"kind"`, a dictionary-encoded string column
   * (Int8 indices).
   */
  type: "float64" | "float32" | "int32" | "uint8" | "uint16" | "uint32" | "bool" | "kind";
  /** Values; typed arrays of the matching type are used without copying. */
  values: ArrayLike<number> | ArrayLike<boolean>;
  /** Physical unit, e.g. "m", "m/s", "N"; "1" for dimensionless counts and flags. */
  unit: string;
  /** One-line description of the column. */
  description: string;
  /** For `"kind"` columns: the dictionary (index → label). */
  labels?: readonly string[];
}

/**
 * The labels of the contact-kind dictionary column, indexed by the shared kind codes
 * (`ContactKind` of `src/contact/record.ts`): the same dictionary in every simulator.
 */
export const CONTACT_KINDS: readonly string[] = CONTACT_KIND_NAMES;

function arrowType(spec: ColumnSpec): A.DataType {
  switch (spec.type) {
    case "float64":
      return new A.Float64();
    case "float32":
      return new A.Float32();
    case "int32":
      return new A.Int32();
    case "uint8":
      return new A.Uint8();
    case "uint16":
      return new A.Uint16();
    case "uint32":
      return new A.Uint32();
    case "bool":
      return new A.Bool();
    case "kind":
      return new A.Dictionary(new A.Utf8(), new A.Int8(), 0, false);
  }
}

const CTORS = {
  float64: Float64Array,
  float32: Float32Array,
  int32: Int32Array,
  uint8: Uint8Array,
  uint16: Uint16Array,
  uint32: Uint32Array,
} as const;

function columnData(spec: ColumnSpec, length: number, type: A.DataType): A.Data {
  const v = spec.values;
  if (v.length < length) {
    throw new RangeError(
      `column "${spec.name}": has ${v.length} values, need at least ${length} (one per row)`,
    );
  }
  if (spec.type === "bool") {
    const bools = Array.from({ length }, (_, i) => Boolean(v[i]));
    return A.vectorFromArray(bools, new A.Bool()).data[0];
  }
  if (spec.type === "kind") {
    const labels = spec.labels ?? CONTACT_KINDS;
    const idx = new Int8Array(length);
    for (let i = 0; i < length; i++) {
      const k = Number(v[i]);
      if (!Number.isInteger(k) || k < 0 || k >= labels.length) {
        throw new RangeError(
          `column "${spec.name}": row ${i} has kind code ${k}, must be an integer in [0, ${
            labels.length - 1
          }]`,
        );
      }
      idx[i] = k;
    }
    const dictionary = A.vectorFromArray([...labels], new A.Utf8());
    return A.makeData({ type: type as A.Dictionary, length, nullCount: 0, data: idx, dictionary });
  }
  const Ctor = CTORS[spec.type];
  // deno-lint-ignore no-explicit-any
  let data: any;
  if (v instanceof Ctor) {
    // Zero-copy: a view onto the caller's memory, trimmed to the row count.
    data = v.length === length ? v : v.subarray(0, length);
  } else {
    data = new Ctor(length);
    for (let i = 0; i < length; i++) data[i] = Number(v[i]);
  }
  return A.makeData({ type: type as A.Float64, length, nullCount: 0, data: data as Float64Array });
}

/**
 * Checks metadata keys (never the reserved `ARROW:` prefix) and returns them as a Map.
 *
 * @param where name of the calling function, for error messages
 * @param metadata key/value pairs
 * @returns the metadata as a Map of strings
 * @throws {RangeError} when a key starts with `ARROW:`
 * @example
 * ```ts
 * import { metadataMap } from "./schema.ts";
 * import { expect } from "expect";
 * expect(metadataMap("demo", { unit: "m", n: 2 })).toEqual(new Map([["unit", "m"], ["n", "2"]]));
 * expect(() => metadataMap("demo", { "ARROW:x": 1 })).toThrow(/reserved by Arrow/);
 * ```
 */
export function metadataMap(
  where: string,
  metadata: Record<string, string | number | undefined>,
): Map<string, string> {
  if (metadata === null || typeof metadata !== "object" || Array.isArray(metadata)) {
    throw new TypeError(
      `${where}: metadata (${String(metadata)}) must be an object of strings and numbers`,
    );
  }
  const m = new Map<string, string>();
  for (const [k, val] of Object.entries(metadata)) {
    if (k.toUpperCase().startsWith(RESERVED_PREFIX)) {
      throw new RangeError(
        `${where}: metadata key "${k}" is invalid: the "${RESERVED_PREFIX}" prefix is reserved by Arrow`,
      );
    }
    if (val !== undefined) m.set(k, String(val));
  }
  return m;
}

/** Schema-level metadata that every Grainlab table carries. */
export interface TableMetadata {
  /** Simulator kind: "sphere3d", "star2d", "ipc1d" or a free label. */
  simulator: string;
  /** Simulated time of the snapshot (s), when known. */
  time?: number;
  /** Step count of the snapshot, when known. */
  step?: number;
  /** The material (serialised as JSON), when known. */
  material?: unknown;
  /** What the table holds: "particles", "contacts", "stats", "bar", "frames". */
  table: string;
  /** Extra key/value pairs (keys must not start with `ARROW:`). */
  extra?: Record<string, string | number>;
}

/**
 * Assembles a Table from column specs: one record batch, field metadata `unit` and
 * `description` on every column, schema metadata `grainlab.*`.
 *
 * @param where name of the calling function, for error messages
 * @param length number of rows
 * @param columns the columns
 * @param meta schema metadata
 * @returns the Arrow table
 * @example
 * ```ts
 * import { buildTable } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const t = buildTable("demo", 2, [
 *   { name: "x", type: "float64", values: new Float64Array([1, 2]), unit: "m", description: "x" },
 * ], { simulator: "demo", table: "demo" });
 * expect(t.numRows).toBe(2);
 * expect([...t.getChild("x")!]).toEqual([1, 2]);
 * expect(t.schema.fields[0].metadata.get("unit")).toBe("m");
 * expect(t.schema.metadata.get("grainlab.simulator")).toBe("demo");
 * ```
 */
export function buildTable(
  where: string,
  length: number,
  columns: readonly ColumnSpec[],
  meta: TableMetadata,
): A.Table {
  if (!Number.isInteger(length) || length < 0) {
    throw new RangeError(`${where}: row count is ${length}, must be a non-negative integer`);
  }
  if (!Array.isArray(columns)) {
    throw new TypeError(`${where}: columns (${String(columns)}) must be an array of column specs`);
  }
  const fields: A.Field[] = [];
  const children: A.Data[] = [];
  for (const c of columns) {
    const type = arrowType(c);
    fields.push(
      new A.Field(
        c.name,
        type,
        false,
        metadataMap(where, { unit: c.unit, description: c.description }),
      ),
    );
    children.push(columnData(c, length, type));
  }
  const schema = new A.Schema(fields, schemaMetadata(where, meta));
  const struct = A.makeData({
    type: new A.Struct(schema.fields),
    length,
    nullCount: 0,
    children,
  });
  return new A.Table(schema, [new A.RecordBatch(schema, struct)]);
}

/**
 * The schema metadata map for a table: Grainlab version, simulator, table kind, time, step,
 * material (JSON) and extras.
 *
 * @param where name of the calling function, for error messages
 * @param meta the metadata
 * @returns a Map with keys prefixed `grainlab.`
 * @example
 * ```ts
 * import { VERSION_KEY, schemaMetadata } from "./schema.ts";
 * import { expect } from "expect";
 * const m = schemaMetadata("demo", { simulator: "sphere3d", table: "particles", time: 0.5 });
 * expect(m.get("grainlab.time")).toBe("0.5");
 * expect(m.get(VERSION_KEY)).toMatch(/^\d+\.\d+\.\d+$/);
 * expect(m.has("grainlab.step")).toBe(false); // absent values are left out
 * ```
 */
export function schemaMetadata(where: string, meta: TableMetadata): Map<string, string> {
  if (meta === null || typeof meta !== "object") {
    throw new TypeError(`${where}: meta (${String(meta)}) must be a TableMetadata object`);
  }
  const m = metadataMap(where, {
    [VERSION_KEY]: VERSION,
    "grainlab.simulator": meta.simulator,
    "grainlab.table": meta.table,
    "grainlab.time": meta.time,
    "grainlab.step": meta.step,
    "grainlab.material": meta.material === undefined ? undefined : safeJson(meta.material),
  });
  for (const [k, v] of metadataMap(where, meta.extra ?? {})) m.set(k, v);
  return m;
}

/** Schema metadata key holding the Grainlab version that wrote a table. */
export const VERSION_KEY = "grainlab.version";

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value, (_k, v) => (typeof v === "bigint" ? String(v) : v)) ?? "null";
  } catch {
    return String(value);
  }
}
