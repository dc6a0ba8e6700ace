/**
 * Schema checks of the Arrow IPC validator: parses a `Schema` flatbuffer (of the footer or of
 * a schema message) into a {@link SchemaDesc} — field types Arrow JS can read, with valid
 * parameters and the right number of children; dictionary encodings whose ids map to one
 * value type; nesting at most 64 deep — and compares two copies of a schema.
 *
 * @module
 */

import { CHECKSUM_KEY } from "./checksum.ts";
import type { Flat, FlatTable } from "./flatbuffer.ts";

/** Deepest field nesting accepted. */
const MAX_DEPTH = 64;
/** Most fields (all levels) one schema may have; bounds work on shared flatbuffer tables. */
const MAX_FIELDS = 100_000;

/** How a type's values are laid out in buffers. */
export type Layout =
  | "null"
  | "fixed"
  | "bool"
  | "binary"
  | "view"
  | "list"
  | "fixedList"
  | "struct"
  | "union";

/** A field's type as the checks need it. */
export interface TypeDesc {
  /** Arrow flatbuffer `Type` code. */
  code: number;
  /** Readable name, for messages. */
  label: string;
  layout: Layout;
  /** Bytes per value ("fixed"), per offset ("binary", "list"). */
  width: number;
  /** "fixedList": values per list. */
  listSize: number;
  /** "union": 0 sparse, 1 dense. */
  mode: number;
  /** "union": the type id of each child. */
  typeIds: number[];
  /** Every parameter, for comparing two copies of a schema. */
  params: unknown[];
}

/** A field's dictionary encoding. */
export interface DictDesc {
  id: number;
  indexWidth: number;
  indexSigned: boolean;
  ordered: boolean;
  kind: number;
}

/** One field of a schema, with its children. */
export interface FieldDesc {
  name: string | null;
  nullable: boolean;
  type: TypeDesc;
  dict: DictDesc | null;
  children: FieldDesc[];
  metadata: [string | null, string | null][];
}

/** A parsed schema. */
export interface SchemaDesc {
  endianness: number;
  fields: FieldDesc[];
  metadata: [string | null, string | null][];
  features: number[];
  /** The value of {@link CHECKSUM_KEY} and where its 8 bytes are, when present. */
  checksum: { value: string; pos: number } | null;
  /** Dictionary id → the value field (a field without its dictionary encoding). */
  dictionaries: Map<number, FieldDesc>;
}

function typeDesc(
  code: number,
  label: string,
  layout: Layout,
  width = 0,
  params: unknown[] = [],
): TypeDesc {
  return { code, label, layout, width, listSize: 0, mode: 0, typeIds: [], params };
}

const TIME_UNITS = ["s", "ms", "us", "ns"];

/**
 * The types without parameters or children, by `Type` code: the arguments of their
 * {@link typeDesc}. NONE (0) reads as Null in Arrow JS.
 */
const PLAIN_TYPES = new Map<number, [code: number, label: string, layout: Layout, width: number]>([
  [0, [1, "Null", "null", 0]],
  [1, [1, "Null", "null", 0]],
  [4, [4, "Binary", "binary", 4]],
  [5, [5, "Utf8", "binary", 4]],
  [6, [6, "Bool", "bool", 0]],
  [19, [19, "LargeBinary", "binary", 8]],
  [20, [20, "LargeUtf8", "binary", 8]],
  [23, [23, "BinaryView", "view", 0]],
  [24, [24, "Utf8View", "view", 0]],
]);

function parseType(
  fb: Flat,
  f: FlatTable,
  code: number,
  children: FieldDesc[],
  path: string,
): TypeDesc {
  const fail = (rule: string): never => fb.fail(`${fb.name}: column ${path}: ${rule}`);
  const params = (): FlatTable => {
    const t = f.table(3, "type");
    if (t === null) fail(`type ${code} has no parameter table`);
    return t!;
  };
  const leaf = (t: TypeDesc): TypeDesc => {
    if (children.length !== 0) {
      fail(`a ${t.label} field must have no children, has ${children.length}`);
    }
    return t;
  };
  const unit = (u: number, names: string[], what: string): string => {
    if (!Number.isInteger(u) || u < 0 || u >= names.length) {
      fail(`${what} unit ${u} is not one of 0..${names.length - 1}`);
    }
    return names[u];
  };
  const plain = PLAIN_TYPES.get(code);
  if (plain !== undefined) return leaf(typeDesc(...plain));
  switch (code) {
    case 2: {
      const t = params();
      const bits = t.i32(0, "bitWidth", 0), signed = t.bool(1, "is_signed");
      if (![8, 16, 32, 64].includes(bits)) fail(`Int bitWidth is ${bits}, must be 8, 16, 32 or 64`);
      return leaf(
        typeDesc(2, `${signed ? "Int" : "Uint"}${bits}`, "fixed", bits / 8, [bits, signed]),
      );
    }
    case 3: {
      const p = params().i16(0, "precision", 0);
      if (p < 0 || p > 2) {
        fail(`FloatingPoint precision is ${p}, must be 0 (half), 1 (single) or 2 (double)`);
      }
      return leaf(typeDesc(3, `Float${16 << p}`, "fixed", 2 << p, [p]));
    }
    case 7: {
      const t = params();
      const precision = t.i32(0, "precision", 0), scale = t.i32(1, "scale", 0);
      const bits = t.i32(2, "bitWidth", 128);
      if (![32, 64, 128, 256].includes(bits)) {
        fail(`Decimal bitWidth is ${bits}, must be 32, 64, 128 or 256`);
      }
      return leaf(typeDesc(7, `Decimal${bits}`, "fixed", bits / 8, [precision, scale, bits]));
    }
    case 8: {
      const u = params().i16(0, "unit", 1);
      unit(u, ["day", "ms"], "Date");
      return leaf(
        typeDesc(8, u === 0 ? "DateDay" : "DateMillisecond", "fixed", u === 0 ? 4 : 8, [u]),
      );
    }
    case 9: {
      const t = params();
      const u = t.i16(0, "unit", 1), bits = t.i32(1, "bitWidth", 32);
      unit(u, TIME_UNITS, "Time");
      if (bits !== 32 && bits !== 64) fail(`Time bitWidth is ${bits}, must be 32 or 64`);
      return leaf(typeDesc(9, `Time${bits}`, "fixed", bits / 8, [u, bits]));
    }
    case 10: {
      const t = params();
      const u = t.i16(0, "unit", 0), tz = t.string(1, "timezone")?.text ?? null;
      return leaf(
        typeDesc(10, `Timestamp[${unit(u, TIME_UNITS, "Timestamp")}]`, "fixed", 8, [u, tz]),
      );
    }
    case 11: {
      const u = params().i16(0, "unit", 0);
      unit(u, ["year-month", "day-time", "month-day-nano"], "Interval");
      return leaf(typeDesc(11, "Interval", "fixed", [4, 8, 16][u], [u]));
    }
    case 12:
    case 21:
    case 17: {
      if (children.length !== 1) {
        fail(`a ${code === 17 ? "Map" : "List"} field must have 1 child, has ${children.length}`);
      }
      const keysSorted = code === 17 ? params().bool(0, "keysSorted") : false;
      if (code === 17) {
        const c = children[0];
        if (c.type.layout !== "struct" || c.dict !== null || c.children.length !== 2) {
          fail(`the child of a Map field must be a struct of 2 fields (key, value)`);
        }
      }
      const label = code === 12 ? "List" : code === 21 ? "LargeList" : "Map";
      return typeDesc(code, label, "list", code === 21 ? 8 : 4, [keysSorted]);
    }
    case 13:
      return typeDesc(13, "Struct", "struct");
    case 14: {
      const t = params();
      const mode = t.i16(0, "mode", 0);
      if (mode !== 0 && mode !== 1) fail(`Union mode is ${mode}, must be 0 (sparse) or 1 (dense)`);
      // Arrow JS reads a missing typeIds vector as [], not as 0, 1, 2 …
      const v = t.vector(1, 4, "typeIds");
      const ids: number[] = [];
      for (let k = 0; k < (v?.count ?? 0); k++) ids.push(fb.dv.getInt32(v!.pos + 4 * k, true));
      if (ids.length !== children.length) {
        fail(`Union has ${ids.length} type ids for ${children.length} children`);
      }
      if (ids.some((x) => x < 0 || x > 127) || new Set(ids).size !== ids.length) {
        fail(`Union type ids [${ids}] must be distinct integers in 0..127`);
      }
      const d = typeDesc(14, mode === 0 ? "SparseUnion" : "DenseUnion", "union", 0, [mode, ids]);
      d.mode = mode;
      d.typeIds = ids;
      return d;
    }
    case 15: {
      const w = params().i32(0, "byteWidth", 0);
      if (w < 1) fail(`FixedSizeBinary byteWidth is ${w}, must be at least 1`);
      return leaf(typeDesc(15, `FixedSizeBinary[${w}]`, "fixed", w, [w]));
    }
    case 16: {
      const n = params().i32(0, "listSize", 0);
      if (n < 0) fail(`FixedSizeList listSize is ${n}, must be at least 0`);
      if (children.length !== 1) {
        fail(`a FixedSizeList field must have 1 child, has ${children.length}`);
      }
      const d = typeDesc(16, `FixedSizeList[${n}]`, "fixedList", 0, [n]);
      d.listSize = n;
      return d;
    }
    case 18: {
      const u = params().i16(0, "unit", 1);
      return leaf(typeDesc(18, `Duration[${unit(u, TIME_UNITS, "Duration")}]`, "fixed", 8, [u]));
    }
  }
  const names: Record<number, string> = {
    22: "RunEndEncoded",
    25: "ListView",
    26: "LargeListView",
  };
  return fail(`type ${names[code] ?? `code ${code}`} is not supported by Arrow JS`);
}

/**
 * The path of a column in error messages: the JSON-quoted names from the top level down,
 * joined by dots (`"a"."b"`); `parent` is "" at the top level.
 */
export function columnPath(parent: string, name: string | null): string {
  const here = JSON.stringify(name ?? "");
  return parent === "" ? here : `${parent}.${here}`;
}

/**
 * Reads the `custom_metadata` key-value pairs in slot `slot` of `t`; with `checksumOf` (the
 * schema, or a message) also the checksum under {@link CHECKSUM_KEY}, which must be 8 lowercase
 * hex digits and appear at most once.
 */
export function keyValues(t: FlatTable, slot: number, checksumOf: string | false = false): {
  pairs: [string | null, string | null][];
  checksum: { value: string; pos: number } | null;
} {
  const pairs: [string | null, string | null][] = [];
  let checksum: { value: string; pos: number } | null = null;
  for (const kv of t.tables(slot, "custom_metadata")) {
    const k = kv.string(0, "key"), v = kv.string(1, "value");
    pairs.push([k?.text ?? null, v?.text ?? null]);
    if (checksumOf !== false && k?.text === CHECKSUM_KEY) {
      if (checksum !== null) {
        t.fb.fail(`${t.fb.name}: the ${checksumOf} metadata has "${CHECKSUM_KEY}" more than once`);
      }
      if (v === null || !/^[0-9a-f]{8}$/.test(v.text)) {
        t.fb.fail(
          `${t.fb.name}: the checksum "${CHECKSUM_KEY}" is ${
            JSON.stringify(v?.text ?? null)
          }, must be 8 lowercase hex digits`,
        );
      }
      checksum = { value: v!.text, pos: v!.pos };
    }
  }
  return { pairs, checksum };
}

/** Parses and checks the `Schema` table `t` of the flatbuffer `fb`. */
export function parseSchema(fb: Flat, t: FlatTable): SchemaDesc {
  const endianness = t.i16(0, "endianness", 0);
  if (endianness !== 0) {
    fb.fail(`${fb.name}: the schema is big-endian; only little-endian is supported`);
  }
  let budget = MAX_FIELDS;
  const dictionaries = new Map<number, FieldDesc>();
  const field = (ft: FlatTable, path: string, depth: number): FieldDesc => {
    if (depth > MAX_DEPTH) {
      fb.fail(`${fb.name}: column ${path} is nested more than ${MAX_DEPTH} deep`);
    }
    if (--budget < 0) fb.fail(`${fb.name}: the schema has more than ${MAX_FIELDS} fields`);
    const name = ft.string(0, "name")?.text ?? null;
    const here = columnPath(path, name);
    const children = ft.tables(5, "children").map((c) => field(c, here, depth + 1));
    const type = parseType(fb, ft, ft.u8(2, "type_type", 0), children, here);
    const d = ft.table(4, "dictionary");
    let dict: DictDesc | null = null;
    if (d !== null) {
      const idx = d.table(1, "indexType");
      const bits = idx === null ? 32 : idx.i32(0, "bitWidth", 0);
      const signed = idx === null ? true : idx.bool(1, "is_signed");
      if (![8, 16, 32, 64].includes(bits)) {
        fb.fail(
          `${fb.name}: column ${here}: dictionary index bitWidth is ${bits}, must be 8, 16, 32 or 64`,
        );
      }
      const kind = d.i16(3, "dictionaryKind", 0);
      if (kind !== 0) {
        fb.fail(`${fb.name}: column ${here}: dictionaryKind ${kind} is not supported`);
      }
      dict = {
        id: d.i64(0, "id", 0),
        indexWidth: bits / 8,
        indexSigned: signed,
        ordered: d.bool(2, "isOrdered"),
        kind,
      };
    }
    const out: FieldDesc = {
      name,
      nullable: ft.bool(1, "nullable"),
      type,
      dict,
      children,
      metadata: keyValues(ft, 6).pairs,
    };
    if (dict !== null) {
      const value: FieldDesc = { ...out, dict: null };
      const seen = dictionaries.get(dict.id);
      if (seen === undefined) dictionaries.set(dict.id, value);
      else if (canonType(seen) !== canonType(value)) {
        fb.fail(
          `${fb.name}: column ${here}: dictionary id ${dict.id} is used with two value types`,
        );
      }
    }
    return out;
  };
  const fields = t.tables(1, "fields").map((f) => field(f, "", 1));
  const { pairs, checksum } = keyValues(t, 2, "schema");
  const fv = t.vector(3, 8, "features");
  const features: number[] = [];
  for (let k = 0; k < (fv?.count ?? 0); k++) features.push(fb.i64(fv!.pos + 8 * k, "feature"));
  return { endianness, fields, metadata: pairs, features, checksum, dictionaries };
}

function canonType(f: FieldDesc): string {
  const strip = (x: FieldDesc): unknown => [x.type.code, x.type.params, x.children.map(strip)];
  return JSON.stringify(strip(f));
}

/** The schema as a string: two copies of one schema give the same string. */
export function canonSchema(s: SchemaDesc): string {
  const field = (f: FieldDesc): unknown => [
    f.name,
    f.nullable,
    f.type.code,
    f.type.params,
    f.dict,
    f.children.map(field),
    f.metadata,
  ];
  return JSON.stringify([s.endianness, s.fields.map(field), s.metadata, s.features]);
}
