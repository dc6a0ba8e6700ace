/**
 * Checks Arrow IPC bytes before apache-arrow decodes them, and the checksum that
 * {@link writeArrow} stores.
 *
 * apache-arrow trusts every length and offset it reads, so a damaged file can make it loop
 * for ever or return a silently different table. The checks here read the IPC framing and
 * the flatbuffer metadata with a small reader of their own, in which every offset is checked
 * against the bounds of its flatbuffer before it is followed, and nothing is allocated from
 * a length before that length has been checked against the bytes that are there:
 *
 * - **file framing**: `ARROW1` magic at both ends, the footer length and the footer inside
 *   the file;
 * - **footer**: version V4 or V5, the schema, and the dictionary and record-batch blocks —
 *   each block must point at a message of its kind in the stream part of the file, with the
 *   same metadata and body lengths, 8-byte aligned, and every message of the stream must be
 *   listed, in order;
 * - **messages**: continuation marker, metadata length (a multiple of 8, inside the file),
 *   the `Message` flatbuffer, its version (the footer's), its body length (a multiple of 8,
 *   inside the file);
 * - **schema**: field types Arrow JS can read, with valid parameters (bit widths, units,
 *   precisions), the right number of children, dictionary encodings whose ids map to one
 *   value type; nesting at most 64 deep; when the stream starts with a schema message (the
 *   specification's layout, and the one {@link writeArrow} writes) it must describe the same
 *   schema as the footer;
 * - **record and dictionary batches**: one field node per column in schema order and one
 *   buffer per slot of each column's layout, no more, no fewer; every buffer inside the body
 *   and 8-byte aligned; node lengths equal to the batch length at the top level and
 *   consistent below (struct and sparse-union children at least as long as the parent,
 *   fixed-size lists `length × listSize`); null counts at most the length and equal to the
 *   zero bits of the validity bitmap; validity, value, offset and view buffers large enough
 *   for the length; offsets non-decreasing and inside the data or child they index; union
 *   type ids declared by the type and dense-union offsets inside their child; dictionary
 *   indices inside their dictionary. Compressed bodies get the range and count checks only.
 *
 * **Checksum.** Arrow IPC has no checksum of its own, so a flipped bit inside a data buffer
 * reads back as a different number. {@link writeArrow} stores, in the schema's custom
 * metadata under {@link CHECKSUM_KEY} (`grainlab.crc32`), eight lowercase hex digits: the
 * CRC-32 (IEEE 802.3, the zlib/PNG polynomial) of the file bytes from the end of the schema
 * message (byte 8 when the stream has none) to the start of the footer — every dictionary
 * batch, record batch and the end-of-stream marker. Those bytes do not depend on the schema
 * metadata, so the value is well defined. The schema itself (names, types, metadata, the
 * checksum value) is covered by its two copies, the schema message and the footer, which must
 * agree; the rest of the footer (the blocks) is checked against the messages it points to.
 * {@link checkArrowFile} verifies the checksum when the key is present; files from other
 * writers get the structural checks only.
 *
 * @module
 */

/** Schema metadata key of the checksum that {@link writeArrow} stores (8 hex digits). */
export const CHECKSUM_KEY = "grainlab.crc32";

/** The longest column (or batch) Arrow JS can address, in rows. */
const MAX_ROWS = 2 ** 31 - 1;
/** Deepest field nesting accepted. */
const MAX_DEPTH = 64;
/** Most fields (all levels) one schema may have; bounds work on shared flatbuffer tables. */
const MAX_FIELDS = 100_000;

const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"
const CONTINUATION = 0xffffffff;
const V4 = 3, V5 = 4; // MetadataVersion codes
const HEADER_SCHEMA = 1, HEADER_DICTIONARY = 2, HEADER_RECORD_BATCH = 3;
const HEADER_NAMES = ["NONE", "Schema", "DictionaryBatch", "RecordBatch", "Tensor", "SparseTensor"];

// ---------------------------------------------------------------------------------------------
// CRC-32

/** Slicing-by-8 tables: `CRC_TABLES[k * 256 + b]` is the CRC of byte `b` followed by `k` zeros. */
const CRC_TABLES = (() => {
  const t = new Uint32Array(8 * 256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  for (let n = 0; n < 256; n++) {
    for (let k = 1; k < 8; k++) {
      t[k * 256 + n] = (t[(k - 1) * 256 + n] >>> 8) ^ t[t[(k - 1) * 256 + n] & 0xff];
    }
  }
  return t;
})();

/**
 * CRC-32 (IEEE 802.3, as in zlib and PNG) of `bytes[start, end)`, continuing from `crc` (the
 * result of a previous call) so that a long input can be summed in pieces.
 *
 * @param bytes the data
 * @param start first byte @default 0
 * @param end one past the last byte @default bytes.length
 * @param crc the CRC of the bytes before `start` @default 0 (nothing before)
 * @returns the CRC as an unsigned 32-bit integer
 * @example
 * ```ts
 * import { crc32 } from "./ipc.ts";
 * import { expect } from "expect";
 * const data = new TextEncoder().encode("123456789");
 * expect(crc32(data)).toBe(0xcbf43926);
 * expect(crc32(data, 4, 9, crc32(data, 0, 4))).toBe(0xcbf43926);
 * ```
 */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length, crc = 0): number {
  const t = CRC_TABLES;
  let c = ~crc;
  let i = start;
  for (; i + 8 <= end; i += 8) {
    const lo = c ^ (bytes[i] | bytes[i + 1] << 8 | bytes[i + 2] << 16 | bytes[i + 3] << 24);
    const hi = bytes[i + 4] | bytes[i + 5] << 8 | bytes[i + 6] << 16 | bytes[i + 7] << 24;
    c = t[1792 + (lo & 0xff)] ^ t[1536 + (lo >>> 8 & 0xff)] ^ t[1280 + (lo >>> 16 & 0xff)] ^
      t[1024 + (lo >>> 24)] ^ t[768 + (hi & 0xff)] ^ t[512 + (hi >>> 8 & 0xff)] ^
      t[256 + (hi >>> 16 & 0xff)] ^ t[hi >>> 24];
  }
  for (; i < end; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
}

/** `crc` as the eight lowercase hex digits stored under {@link CHECKSUM_KEY}. */
function hex8(crc: number): string {
  return crc.toString(16).padStart(8, "0");
}

// ---------------------------------------------------------------------------------------------
// A bounded flatbuffer reader

type Fail = (message: string) => never;

/** One flatbuffer: `bytes[start, end)`. Every read is checked against those bounds. */
class Flat {
  readonly dv: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
    readonly name: string,
    readonly fail: Fail,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  need(pos: number, size: number, what: string): void {
    if (!(pos >= this.start && size >= 0 && pos + size <= this.end)) {
      this.fail(
        `${this.name}: ${what} (bytes ${pos}..${pos + size}) lies outside its flatbuffer ` +
          `(bytes ${this.start}..${this.end})`,
      );
    }
  }

  u8(pos: number): number {
    return this.dv.getUint8(pos);
  }

  /** A signed 64-bit integer as a number; throws outside ±2^53. */
  i64(pos: number, what: string): number {
    const lo = this.dv.getUint32(pos, true), hi = this.dv.getInt32(pos + 4, true);
    if (hi >= 0x200000 || hi < -0x200000) {
      this.fail(`${this.name}: ${what} is out of range (high word 0x${(hi >>> 0).toString(16)})`);
    }
    return hi * 4294967296 + lo;
  }

  /** Follows the forward offset stored at `pos`. */
  ref(pos: number, what: string): number {
    this.need(pos, 4, `the offset of ${what}`);
    const o = this.dv.getInt32(pos, true);
    const target = pos + o;
    if (o <= 0 || target >= this.end) {
      this.fail(`${this.name}: ${what} has offset ${o} at byte ${pos}, outside its flatbuffer`);
    }
    return target;
  }

  root(what: string): FlatTable {
    return this.table(this.ref(this.start, what), what);
  }

  table(pos: number, what: string): FlatTable {
    this.need(pos, 4, what);
    const vt = pos - this.dv.getInt32(pos, true);
    this.need(vt, 4, `the vtable of ${what}`);
    const vtSize = this.dv.getUint16(vt, true), size = this.dv.getUint16(vt + 2, true);
    if (vtSize < 4 || vtSize % 2 !== 0 || vtSize >= 0x8000 || size < 4 || size >= 0x8000) {
      this.fail(`${this.name}: the vtable of ${what} is invalid (sizes ${vtSize} and ${size})`);
    }
    this.need(vt, vtSize, `the vtable of ${what}`);
    this.need(pos, size, what);
    return new FlatTable(this, pos, vt, vtSize, size, what);
  }
}

/** One flatbuffer table; slots are the field numbers of the schema (0-based). */
class FlatTable {
  constructor(
    readonly fb: Flat,
    readonly pos: number,
    readonly vt: number,
    readonly vtSize: number,
    readonly size: number,
    readonly what: string,
  ) {}

  /** Byte position of slot `slot` (`size` bytes), or -1 when absent. */
  at(slot: number, size: number, name: string): number {
    const entry = 4 + 2 * slot;
    if (entry + 2 > this.vtSize) return -1;
    const o = this.fb.dv.getUint16(this.vt + entry, true);
    if (o === 0) return -1;
    if (o >= 0x8000 || o + size > this.size) {
      this.fb.fail(
        `${this.fb.name}: ${this.what}.${name} at table offset ${o} lies outside the table ` +
          `(${this.size} bytes)`,
      );
    }
    return this.pos + o;
  }

  bool(slot: number, name: string): boolean {
    const p = this.at(slot, 1, name);
    return p >= 0 && this.fb.u8(p) !== 0;
  }

  u8(slot: number, name: string, fallback: number): number {
    const p = this.at(slot, 1, name);
    return p < 0 ? fallback : this.fb.u8(p);
  }

  i16(slot: number, name: string, fallback: number): number {
    const p = this.at(slot, 2, name);
    return p < 0 ? fallback : this.fb.dv.getInt16(p, true);
  }

  i32(slot: number, name: string, fallback: number): number {
    const p = this.at(slot, 4, name);
    return p < 0 ? fallback : this.fb.dv.getInt32(p, true);
  }

  i64(slot: number, name: string, fallback: number): number {
    const p = this.at(slot, 8, name);
    return p < 0 ? fallback : this.fb.i64(p, `${this.what}.${name}`);
  }

  table(slot: number, name: string): FlatTable | null {
    const p = this.at(slot, 4, name);
    if (p < 0) return null;
    const what = `${this.what}.${name}`;
    return this.fb.table(this.fb.ref(p, what), what);
  }

  /** A vector of `elemSize`-byte elements: the position of the first and the count. */
  vector(slot: number, elemSize: number, name: string): { pos: number; count: number } | null {
    const p = this.at(slot, 4, name);
    if (p < 0) return null;
    const what = `${this.what}.${name}`;
    const v = this.fb.ref(p, what);
    this.fb.need(v, 4, `the length of ${what}`);
    const count = this.fb.dv.getInt32(v, true);
    if (count < 0) this.fb.fail(`${this.fb.name}: ${what} has length ${count}`);
    this.fb.need(v + 4, count * elemSize, `${what} (${count} elements)`);
    return { pos: v + 4, count };
  }

  tables(slot: number, name: string): FlatTable[] {
    const v = this.vector(slot, 4, name);
    if (v === null) return [];
    const out: FlatTable[] = [];
    for (let k = 0; k < v.count; k++) {
      const what = `${this.what}.${name}[${k}]`;
      out.push(this.fb.table(this.fb.ref(v.pos + 4 * k, what), what));
    }
    return out;
  }

  string(slot: number, name: string): { text: string; pos: number; length: number } | null {
    const v = this.vector(slot, 1, name);
    if (v === null) return null;
    let text: string;
    try {
      text = UTF8.decode(this.fb.bytes.subarray(v.pos, v.pos + v.count));
    } catch {
      this.fb.fail(`${this.fb.name}: ${this.what}.${name} is not valid UTF-8`);
    }
    return { text, pos: v.pos, length: v.count };
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

// ---------------------------------------------------------------------------------------------
// Schema

/** How a type's values are laid out in buffers. */
type Layout =
  | "null"
  | "fixed"
  | "bool"
  | "binary"
  | "view"
  | "list"
  | "fixedList"
  | "struct"
  | "union";

interface TypeDesc {
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

interface DictDesc {
  id: number;
  indexWidth: number;
  indexSigned: boolean;
  ordered: boolean;
  kind: number;
}

interface FieldDesc {
  name: string | null;
  nullable: boolean;
  type: TypeDesc;
  dict: DictDesc | null;
  children: FieldDesc[];
  metadata: [string | null, string | null][];
}

interface SchemaDesc {
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
  switch (code) {
    case 0: // NONE: Arrow JS reads it as Null
    case 1:
      return leaf(typeDesc(1, "Null", "null"));
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
    case 4:
      return leaf(typeDesc(4, "Binary", "binary", 4));
    case 5:
      return leaf(typeDesc(5, "Utf8", "binary", 4));
    case 6:
      return leaf(typeDesc(6, "Bool", "bool"));
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
    case 19:
      return leaf(typeDesc(19, "LargeBinary", "binary", 8));
    case 20:
      return leaf(typeDesc(20, "LargeUtf8", "binary", 8));
    case 23:
      return leaf(typeDesc(23, "BinaryView", "view"));
    case 24:
      return leaf(typeDesc(24, "Utf8View", "view"));
  }
  const names: Record<number, string> = {
    22: "RunEndEncoded",
    25: "ListView",
    26: "LargeListView",
  };
  return fail(`type ${names[code] ?? `code ${code}`} is not supported by Arrow JS`);
}

function keyValues(t: FlatTable, slot: number, schemaLevel = false): {
  pairs: [string | null, string | null][];
  checksum: { value: string; pos: number } | null;
} {
  const pairs: [string | null, string | null][] = [];
  let checksum: { value: string; pos: number } | null = null;
  for (const kv of t.tables(slot, "custom_metadata")) {
    const k = kv.string(0, "key"), v = kv.string(1, "value");
    pairs.push([k?.text ?? null, v?.text ?? null]);
    if (schemaLevel && k?.text === CHECKSUM_KEY) {
      if (checksum !== null) {
        t.fb.fail(`${t.fb.name}: the schema metadata has "${CHECKSUM_KEY}" more than once`);
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

function parseSchema(fb: Flat, t: FlatTable): SchemaDesc {
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
    const here = path === "" ? JSON.stringify(name ?? "") : `${path}.${JSON.stringify(name ?? "")}`;
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
  const { pairs, checksum } = keyValues(t, 2, true);
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
function canonSchema(s: SchemaDesc): string {
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

// ---------------------------------------------------------------------------------------------
// Messages

interface BatchDesc {
  fb: Flat;
  length: number;
  nodes: { pos: number; count: number };
  buffers: { pos: number; count: number };
  compressed: boolean;
  variadic: number[];
}

interface MessageDesc {
  /** Byte position of the continuation marker (or of the metadata, for a bare message). */
  offset: number;
  /** Metadata length, without the 8-byte prefix, padding included. */
  metaLength: number;
  version: number;
  header: number;
  bodyLength: number;
  schema?: SchemaDesc;
  batch?: BatchDesc;
  dictId?: number;
  isDelta?: boolean;
}

function parseBatch(fb: Flat, t: FlatTable | null, what: string): BatchDesc {
  if (t === null) fb.fail(`${fb.name}: the ${what} has no RecordBatch table`);
  const length = t!.i64(0, "length", 0);
  if (length < 0 || length > MAX_ROWS) {
    fb.fail(`${fb.name}: the ${what} length ${length} is out of range`);
  }
  const nodes = t!.vector(1, 16, "nodes") ?? { pos: 0, count: 0 };
  const buffers = t!.vector(2, 16, "buffers") ?? { pos: 0, count: 0 };
  const c = t!.table(3, "compression");
  if (c !== null) {
    const codec = c.u8(0, "codec", 0), method = c.u8(1, "method", 0);
    if (codec > 1 || method !== 0) {
      fb.fail(`${fb.name}: compression codec ${codec} / method ${method} is not supported`);
    }
  }
  const vv = t!.vector(4, 8, "variadicBufferCounts");
  const variadic: number[] = [];
  for (let k = 0; k < (vv?.count ?? 0); k++) {
    const n = fb.i64(vv!.pos + 8 * k, "variadic buffer count");
    if (n < 0 || n > buffers.count) {
      fb.fail(`${fb.name}: variadic buffer count ${n} is out of range`);
    }
    variadic.push(n);
  }
  return { fb, length, nodes, buffers, compressed: c !== null, variadic };
}

/** Parses the `Message` flatbuffer in `bytes[start, end)`. */
function parseMessage(
  bytes: Uint8Array,
  start: number,
  end: number,
  offset: number,
  fail: Fail,
): MessageDesc {
  const fb = new Flat(bytes, start, end, `message at byte ${offset}`, fail);
  const m = fb.root("Message");
  const version = m.i16(0, "version", 0);
  if (version !== V4 && version !== V5) {
    fail(`${fb.name}: metadata version code ${version} is not V4 (3) or V5 (4)`);
  }
  const header = m.u8(1, "header_type", 0);
  const bodyLength = m.i64(3, "bodyLength", 0);
  if (bodyLength < 0 || bodyLength % 8 !== 0) {
    fail(`${fb.name}: body length ${bodyLength} must be a non-negative multiple of 8`);
  }
  keyValues(m, 4); // bounds of the message's custom metadata
  const h = m.table(2, "header");
  const out: MessageDesc = { offset, metaLength: end - start, version, header, bodyLength };
  if (h === null) fail(`${fb.name}: has no header`);
  if (header === HEADER_SCHEMA) {
    if (bodyLength !== 0) {
      fail(`${fb.name}: a schema message has body length ${bodyLength}, must be 0`);
    }
    out.schema = parseSchema(fb, h!);
  } else if (header === HEADER_RECORD_BATCH) {
    out.batch = parseBatch(fb, h, "record batch");
  } else if (header === HEADER_DICTIONARY) {
    out.dictId = h!.i64(0, "id", 0);
    out.batch = parseBatch(fb, h!.table(1, "data"), "dictionary batch");
    out.isDelta = h!.bool(2, "isDelta");
  } else {
    fail(`${fb.name}: header type ${HEADER_NAMES[header] ?? header} is not supported`);
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Batch bodies

const POPCOUNT = (() => {
  const t = new Uint8Array(256);
  for (let i = 1; i < 256; i++) t[i] = (i & 1) + t[i >> 1];
  return t;
})();

/** Checks a record batch (or dictionary batch) body against the fields it must hold. */
class BodyCheck {
  ni = 0;
  bi = 0;
  vi = 0;
  readonly dv: DataView;
  constructor(
    readonly b: BatchDesc,
    readonly body: Uint8Array,
    readonly version: number,
    readonly dictLengths: ReadonlyMap<number, number>,
    readonly fail: Fail,
    readonly where: string,
  ) {
    this.dv = new DataView(body.buffer, body.byteOffset, body.byteLength);
  }

  run(fields: readonly FieldDesc[]): void {
    for (const f of fields) {
      const path = JSON.stringify(f.name ?? "");
      const n = this.visit(f, path);
      if (n !== this.b.length) {
        this.bad(path, `has ${n} rows, the batch has ${this.b.length}`);
      }
    }
    if (this.ni !== this.b.nodes.count) {
      this.fail(
        `${this.where}: has ${this.b.nodes.count} field nodes, the schema needs ${this.ni}`,
      );
    }
    if (this.bi !== this.b.buffers.count) {
      this.fail(`${this.where}: has ${this.b.buffers.count} buffers, the schema needs ${this.bi}`);
    }
    if (this.vi !== this.b.variadic.length) {
      this.fail(
        `${this.where}: has ${this.b.variadic.length} variadic buffer counts, the schema needs ${this.vi}`,
      );
    }
  }

  bad(path: string, rule: string): never {
    return this.fail(`${this.where}: column ${path} ${rule}`);
  }

  node(path: string): { length: number; nulls: number } {
    if (this.ni >= this.b.nodes.count) {
      this.fail(`${this.where}: has ${this.b.nodes.count} field nodes, the schema needs more`);
    }
    const p = this.b.nodes.pos + 16 * this.ni++;
    const length = this.b.fb.i64(p, `the length of column ${path}`);
    const nulls = this.b.fb.i64(p + 8, `the null count of column ${path}`);
    if (length < 0 || length > MAX_ROWS) this.bad(path, `has length ${length}, out of range`);
    if (nulls < 0 || nulls > length) {
      this.bad(path, `has null count ${nulls}, must be in 0..${length}`);
    }
    return { length, nulls };
  }

  buffer(path: string, what: string): { offset: number; length: number } {
    if (this.bi >= this.b.buffers.count) {
      this.fail(`${this.where}: has ${this.b.buffers.count} buffers, the schema needs more`);
    }
    const p = this.b.buffers.pos + 16 * this.bi++;
    const offset = this.b.fb.i64(p, `the ${what} buffer offset of column ${path}`);
    const length = this.b.fb.i64(p + 8, `the ${what} buffer length of column ${path}`);
    if (offset < 0 || length < 0 || offset + length > this.body.length) {
      this.bad(
        path,
        `${what} buffer (offset ${offset}, ${length} bytes) lies outside the ${this.body.length}-byte body`,
      );
    }
    if (length > 0 && offset % 8 !== 0) {
      this.bad(path, `${what} buffer offset ${offset} is not a multiple of 8`);
    }
    if (this.b.compressed && length > 0) {
      if (length < 8) {
        this.bad(
          path,
          `compressed ${what} buffer has ${length} bytes, fewer than its 8-byte prefix`,
        );
      }
      const raw = this.i64(offset);
      if (raw < -1) this.bad(path, `compressed ${what} buffer declares ${raw} uncompressed bytes`);
    }
    return { offset, length };
  }

  i64(pos: number): number {
    const lo = this.dv.getUint32(pos, true), hi = this.dv.getInt32(pos + 4, true);
    if (hi >= 0x200000 || hi < -0x200000) return hi < 0 ? -Infinity : Infinity;
    return hi * 4294967296 + lo;
  }

  /** Reads the validity buffer; returns a test for slot validity (null when all are valid). */
  validity(path: string, length: number, nulls: number): ((i: number) => boolean) | null {
    const buf = this.buffer(path, "validity");
    if (nulls === 0 || this.b.compressed) return null;
    const need = Math.ceil(length / 8);
    if (buf.length < need) this.bad(path, `validity buffer has ${buf.length} bytes, needs ${need}`);
    let set = 0;
    const full = length >> 3;
    for (let k = 0; k < full; k++) set += POPCOUNT[this.body[buf.offset + k]];
    if (length & 7) set += POPCOUNT[this.body[buf.offset + full] & ((1 << (length & 7)) - 1)];
    if (length - set !== nulls) {
      this.bad(path, `has null count ${nulls}, its validity bitmap has ${length - set} nulls`);
    }
    const base = buf.offset, body = this.body;
    return (i) => (body[base + (i >> 3)] >> (i & 7) & 1) === 1;
  }

  sized(path: string, what: string, buf: { length: number }, need: number): void {
    if (!this.b.compressed && buf.length < need) {
      this.bad(path, `${what} buffer has ${buf.length} bytes, needs ${need}`);
    }
  }

  /** Checks `length + 1` offsets of `width` bytes: non-decreasing, from ≥ 0; returns the last. */
  offsets(path: string, length: number, width: number): number {
    const buf = this.buffer(path, "offsets");
    if (this.b.compressed || (length === 0 && buf.length === 0)) return 0;
    this.sized(path, "offsets", buf, (length + 1) * width);
    const read = (k: number) =>
      width === 4 ? this.dv.getInt32(buf.offset + 4 * k, true) : this.i64(buf.offset + 8 * k);
    let prev = read(0);
    if (prev < 0) this.bad(path, `first offset is ${prev}, must be at least 0`);
    for (let k = 1; k <= length; k++) {
      const o = read(k);
      if (o < prev) this.bad(path, `offset ${k} (${o}) is less than offset ${k - 1} (${prev})`);
      prev = o;
    }
    return prev;
  }

  visit(f: FieldDesc, path: string): number {
    const { length, nulls } = this.node(path);
    const t = f.type;
    if (f.dict !== null) {
      const valid = this.validity(path, length, nulls);
      const buf = this.buffer(path, "indices");
      const w = f.dict.indexWidth;
      this.sized(path, "indices", buf, length * w);
      if (this.b.compressed) return length;
      const size = this.dictLengths.get(f.dict.id) ?? 0;
      for (let i = 0; i < length; i++) {
        if (valid !== null && !valid(i)) continue;
        const p = buf.offset + i * w;
        const k = w === 1
          ? (f.dict.indexSigned ? this.dv.getInt8(p) : this.dv.getUint8(p))
          : w === 2
          ? (f.dict.indexSigned ? this.dv.getInt16(p, true) : this.dv.getUint16(p, true))
          : w === 4
          ? (f.dict.indexSigned ? this.dv.getInt32(p, true) : this.dv.getUint32(p, true))
          : this.i64(p);
        if (!(k >= 0 && k < size)) {
          this.bad(
            path,
            `row ${i} has dictionary index ${k}, dictionary ${f.dict.id} has ${size} values`,
          );
        }
      }
      return length;
    }
    switch (t.layout) {
      case "null":
        return length;
      case "fixed": {
        this.validity(path, length, nulls);
        this.sized(path, "values", this.buffer(path, "values"), length * t.width);
        return length;
      }
      case "bool": {
        this.validity(path, length, nulls);
        this.sized(path, "values", this.buffer(path, "values"), Math.ceil(length / 8));
        return length;
      }
      case "binary": {
        this.validity(path, length, nulls);
        const last = this.offsets(path, length, t.width);
        const data = this.buffer(path, "data");
        this.sized(path, "data", data, last);
        return length;
      }
      case "view": {
        const valid = this.validity(path, length, nulls);
        const views = this.buffer(path, "views");
        this.sized(path, "views", views, 16 * length);
        if (this.vi >= this.b.variadic.length) {
          this.bad(path, `needs a variadic buffer count, the batch has ${this.b.variadic.length}`);
        }
        const count = this.b.variadic[this.vi++];
        const data: number[] = [];
        for (let k = 0; k < count; k++) data.push(this.buffer(path, `variadic data ${k}`).length);
        if (this.b.compressed) return length;
        for (let i = 0; i < length; i++) {
          if (valid !== null && !valid(i)) continue;
          const p = views.offset + 16 * i;
          const n = this.dv.getInt32(p, true);
          if (n < 0) this.bad(path, `row ${i} has view length ${n}`);
          if (n <= 12) continue;
          const k = this.dv.getInt32(p + 8, true), o = this.dv.getInt32(p + 12, true);
          if (k < 0 || k >= count || o < 0 || o + n > data[k]) {
            this.bad(path, `row ${i} views buffer ${k} at ${o} (${n} bytes), outside the data`);
          }
        }
        return length;
      }
      case "list": {
        this.validity(path, length, nulls);
        const last = this.offsets(path, length, t.width);
        const child = this.visit(
          f.children[0],
          `${path}.${JSON.stringify(f.children[0].name ?? "")}`,
        );
        if (last > child) this.bad(path, `offsets reach ${last}, its child has ${child} values`);
        return length;
      }
      case "fixedList": {
        this.validity(path, length, nulls);
        const child = this.visit(
          f.children[0],
          `${path}.${JSON.stringify(f.children[0].name ?? "")}`,
        );
        if (child < length * t.listSize) {
          this.bad(path, `has ${length} lists of ${t.listSize}, its child has ${child} values`);
        }
        return length;
      }
      case "struct": {
        this.validity(path, length, nulls);
        for (const c of f.children) {
          const cp = `${path}.${JSON.stringify(c.name ?? "")}`;
          const n = this.visit(c, cp);
          if (n < length) this.bad(cp, `has ${n} values, its struct has ${length}`);
        }
        return length;
      }
      case "union": {
        if (this.version < V5) this.validity(path, length, nulls);
        else if (nulls !== 0) this.bad(path, `is a union with null count ${nulls}, must be 0`);
        const ids = this.buffer(path, "type ids");
        this.sized(path, "type ids", ids, length);
        const offs = t.mode === 1 ? this.buffer(path, "offsets") : null;
        if (offs !== null) this.sized(path, "offsets", offs, 4 * length);
        const sizes = f.children.map((c) =>
          this.visit(c, `${path}.${JSON.stringify(c.name ?? "")}`)
        );
        if (t.mode === 0) {
          sizes.forEach((n, k) => {
            if (n < length) this.bad(path, `child ${k} has ${n} values, the union has ${length}`);
          });
        }
        if (this.b.compressed) return length;
        for (let i = 0; i < length; i++) {
          const id = this.dv.getInt8(ids.offset + i);
          const k = t.typeIds.indexOf(id);
          if (k < 0) this.bad(path, `row ${i} has type id ${id}, not one of [${t.typeIds}]`);
          if (offs !== null) {
            const o = this.dv.getInt32(offs.offset + 4 * i, true);
            if (o < 0 || o >= sizes[k]) {
              this.bad(path, `row ${i} has offset ${o} into child ${k} of ${sizes[k]} values`);
            }
          }
        }
        return length;
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Files

/** What {@link checkArrowFile} found in a valid Arrow IPC file. */
export interface ArrowFileLayout {
  /** Metadata version code of the footer: 3 (V4) or 4 (V5). */
  version: number;
  /** Bytes of the schema message at byte 8, or null when the stream part has none (Arrow JS). */
  schemaMessage: { start: number; end: number } | null;
  /** First byte covered by the checksum: the end of the schema message, else 8. */
  dataStart: number;
  /** First byte of the footer flatbuffer (one past the last byte covered by the checksum). */
  footerStart: number;
  /** Number of record batches. */
  batches: number;
  /** Total rows of all record batches. */
  rows: number;
  /** Number of dictionary batches. */
  dictionaries: number;
  /** Number of columns (top-level fields). */
  columns: number;
  /** Byte position of each footer block (24-byte Block struct), dictionaries first. */
  blockPositions: number[];
  /**
   * The checksum: stored (null when absent), computed (null when not asked for), and where the
   * stored text is (in the footer, then in the schema message).
   */
  checksum: { stored: string | null; computed: string | null; positions: number[] };
}

/** Options of {@link checkArrowFile}. */
export interface CheckArrowFileOptions {
  /** Verify the stored checksum when there is one. @default true */
  verifyChecksum?: boolean;
  /** Compute the checksum even when not verifying it. @default false */
  computeChecksum?: boolean;
}

/**
 * Checks Arrow IPC **file** bytes completely (see the module documentation) without decoding
 * any values, and verifies the checksum {@link writeArrow} stores. Linear in the file size;
 * never loops on bad lengths.
 *
 * @param bytes the whole file
 * @param prefix start of every error message, e.g. `"readArrow: run/p.arrow"`
 * @param options whether to verify the checksum
 * @returns the file's layout
 * @throws {RangeError} `"<prefix>: <what is wrong>"` at the first problem
 * @example
 * ```ts
 * import * as A from "apache-arrow";
 * import { checkArrowFile } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const bytes = A.tableToIPC(A.tableFromArrays({ x: new Float64Array([1, 2, 3]) }), "file");
 * expect(checkArrowFile(bytes, "demo").rows).toBe(3);
 * const bad = bytes.slice();
 * bad.fill(0, 8, 12); // the first message's continuation marker
 * expect(() => checkArrowFile(bad, "demo")).toThrow(/^demo: .*continuation marker/);
 * ```
 */
export function checkArrowFile(
  bytes: Uint8Array,
  prefix: string,
  options: CheckArrowFileOptions = {},
): ArrowFileLayout {
  const fail: Fail = (message) => {
    throw new RangeError(`${prefix}: ${message}`);
  };
  const n = bytes.length;
  const magicAt = (pos: number) => MAGIC.every((b, k) => bytes[pos + k] === b);
  if (n < 6 || !magicAt(0)) {
    fail(`is not an Arrow IPC file (no ARROW1 magic at the start; ${n} bytes)`);
  }
  if (n < 8 + 8 + 4 + 6 || !magicAt(n - 6)) {
    fail(`is truncated (${n} bytes, no ARROW1 magic at the end)`);
  }
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const footerLength = dv.getInt32(n - 10, true);
  const footerStart = n - 10 - footerLength;
  if (footerLength <= 0 || footerStart < 8) {
    fail(`is corrupt: footer length ${footerLength} does not fit in the ${n}-byte file`);
  }

  // Footer.
  const ffb = new Flat(bytes, footerStart, n - 10, "footer", fail);
  const footer = ffb.root("Footer");
  const version = footer.i16(0, "version", 0);
  if (version !== V4 && version !== V5) {
    fail(`footer: metadata version code ${version} is not V4 (3) or V5 (4)`);
  }
  const st = footer.table(1, "schema");
  if (st === null) fail(`footer: has no schema`);
  const schema = parseSchema(ffb, st!);
  const blockList = (slot: number, name: string) => {
    const v = footer.vector(slot, 24, name);
    const out: { at: number; offset: number; meta: number; body: number }[] = [];
    for (let k = 0; k < (v?.count ?? 0); k++) {
      const at = v!.pos + 24 * k;
      out.push({
        at,
        offset: ffb.i64(at, `${name}[${k}].offset`),
        meta: dv.getInt32(at + 8, true),
        body: ffb.i64(at + 16, `${name}[${k}].bodyLength`),
      });
    }
    return out;
  };
  const dictBlocks = blockList(2, "dictionaries");
  const batchBlocks = blockList(3, "recordBatches");
  keyValues(footer, 4);

  // The stream part: [8, footerStart).
  const messages: MessageDesc[] = [];
  let schemaMessage: { start: number; end: number } | null = null;
  let pos = 8;
  let eos = false;
  while (pos < footerStart) {
    if (footerStart - pos < 8) {
      fail(`has ${footerStart - pos} stray bytes at ${pos}, before the footer`);
    }
    if (dv.getUint32(pos, true) !== CONTINUATION) {
      fail(
        `is corrupt: no continuation marker at byte ${pos} (a message or the footer was expected)`,
      );
    }
    const len = dv.getInt32(pos + 4, true);
    if (len === 0) {
      eos = true;
      pos += 8;
      break;
    }
    if (len < 0 || len % 8 !== 0 || pos + 8 + len > footerStart) {
      fail(
        `message at byte ${pos}: metadata length ${len} must be a positive multiple of 8 ending before the footer (byte ${footerStart})`,
      );
    }
    const m = parseMessage(bytes, pos + 8, pos + 8 + len, pos, fail);
    const end = pos + 8 + len + m.bodyLength;
    if (end > footerStart) {
      fail(
        `message at byte ${pos}: its ${m.bodyLength}-byte body runs past the footer (byte ${footerStart})`,
      );
    }
    if (m.version !== version) {
      fail(
        `message at byte ${pos}: metadata version ${m.version} differs from the footer's ${version}`,
      );
    }
    if (m.header === HEADER_SCHEMA) {
      if (pos !== 8) fail(`message at byte ${pos}: a second schema message`);
      if (canonSchema(m.schema!) !== canonSchema(schema)) {
        fail(`the schema message at byte 8 and the footer describe different schemas`);
      }
      schemaMessage = { start: 8, end };
    } else {
      messages.push(m);
    }
    pos = end;
  }
  if (eos && pos !== footerStart) {
    fail(`has ${footerStart - pos} bytes between the end-of-stream marker and the footer`);
  }

  // Footer blocks ↔ messages.
  const matchBlocks = (
    blocks: { at: number; offset: number; meta: number; body: number }[],
    header: number,
    name: string,
  ) => {
    const ms = messages.filter((m) => m.header === header);
    if (blocks.length !== ms.length) {
      fail(`footer: lists ${blocks.length} ${name}, the file has ${ms.length}`);
    }
    blocks.forEach((b, k) => {
      const m = ms[k];
      if (b.offset !== m.offset || b.meta !== m.metaLength + 8 || b.body !== m.bodyLength) {
        fail(
          `footer: ${name}[${k}] (offset ${b.offset}, metadata ${b.meta}, body ${b.body}) does not match ` +
            `the message at byte ${m.offset} (metadata ${m.metaLength + 8}, body ${m.bodyLength})`,
        );
      }
    });
  };
  matchBlocks(dictBlocks, HEADER_DICTIONARY, "dictionary batches");
  matchBlocks(batchBlocks, HEADER_RECORD_BATCH, "record batches");

  // Dictionaries: final lengths (Arrow JS loads them all before the first batch).
  const dictLengths = new Map<number, number>();
  for (const m of messages) {
    if (m.header !== HEADER_DICTIONARY) continue;
    const id = m.dictId!;
    if (!schema.dictionaries.has(id)) {
      fail(`message at byte ${m.offset}: dictionary id ${id} is not in the schema`);
    }
    const before = dictLengths.get(id);
    if (before !== undefined && !m.isDelta) {
      fail(`message at byte ${m.offset}: replaces dictionary ${id}, which an IPC file may not do`);
    }
    const total = (before ?? 0) + m.batch!.length;
    if (total > MAX_ROWS) fail(`dictionary ${id} has ${total} values, out of range`);
    dictLengths.set(id, total);
  }
  let rows = 0;
  for (const m of messages) {
    const bodyStart = m.offset + 8 + m.metaLength;
    const body = bytes.subarray(bodyStart, bodyStart + m.bodyLength);
    const fields = m.header === HEADER_DICTIONARY
      ? [schema.dictionaries.get(m.dictId!)!]
      : schema.fields;
    const what = m.header === HEADER_DICTIONARY
      ? `dictionary batch at byte ${m.offset}`
      : `record batch at byte ${m.offset}`;
    new BodyCheck(m.batch!, body, version, dictLengths, fail, what).run(fields);
    if (m.header === HEADER_RECORD_BATCH) rows += m.batch!.length;
  }

  // Checksum.
  const dataStart = schemaMessage?.end ?? 8;
  const verify = options.verifyChecksum ?? true;
  const computed = verify || options.computeChecksum
    ? hex8(crc32(bytes, dataStart, footerStart))
    : null;
  const stored = schema.checksum?.value ?? null;
  const positions = [schema.checksum?.pos];
  if (schemaMessage !== null) {
    // Both copies agree (checked above), so the message's copy has the same value.
    const fb = new Flat(bytes, 16, 8 + dv.getInt32(12, true) + 8, "schema message", fail);
    const header = fb.root("Message").table(2, "header")!;
    positions.push(keyValues(header, 2, true).checksum?.pos);
  }
  if (stored !== null && verify && stored !== computed) {
    fail(
      `checksum mismatch: the file stores ${CHECKSUM_KEY} = ${stored}, its data sums to ${computed} ` +
        `(the file was changed or damaged after it was written)`,
    );
  }
  return {
    version,
    schemaMessage,
    dataStart,
    footerStart,
    batches: batchBlocks.length,
    rows,
    dictionaries: dictBlocks.length,
    columns: schema.fields.length,
    blockPositions: [...dictBlocks, ...batchBlocks].map((b) => b.at),
    checksum: {
      stored,
      computed,
      positions: positions.filter((p): p is number => p !== undefined),
    },
  };
}

/**
 * Turns Arrow JS file bytes (which have no schema message) into the specification's layout
 * with a schema message at byte 8, and stores the checksum in both copies of the schema. The
 * schema's metadata must hold {@link CHECKSUM_KEY} with a placeholder of 8 hex digits.
 *
 * @param file `tableToIPC(table, "file")` of a table whose schema metadata has the placeholder
 * @param schemaMessage the table's schema message (the first message of its IPC stream)
 * @returns the new file bytes, checked with {@link checkArrowFile}
 * @example
 * ```ts
 * import * as A from "apache-arrow";
 * import { CHECKSUM_KEY, checkArrowFile, sealArrowFile } from "./ipc.ts";
 * import { expect } from "expect";
 * const t0 = A.tableFromArrays({ x: new Float64Array([1, 2]) });
 * const schema = new A.Schema(t0.schema.fields, new Map([[CHECKSUM_KEY, "00000000"]]));
 * const t = new A.Table(schema, t0.batches.map((b) => new A.RecordBatch(schema, b.data)));
 * const stream = A.tableToIPC(new A.Table(schema), "stream");
 * const sealed = sealArrowFile(A.tableToIPC(t, "file"), stream.subarray(0, stream.length - 8));
 * const layout = checkArrowFile(sealed, "demo");
 * expect(layout.checksum.stored).toBe(layout.checksum.computed);
 * expect(layout.schemaMessage).not.toBeNull();
 * ```
 */
export function sealArrowFile(file: Uint8Array, schemaMessage: Uint8Array): Uint8Array {
  const where = "sealArrowFile";
  const before = checkArrowFile(file, `${where}: the file`, { verifyChecksum: false });
  if (before.schemaMessage !== null) {
    throw new RangeError(`${where}: the file already has a schema message`);
  }
  const s = schemaMessage.length;
  const out = new Uint8Array(file.length + s);
  out.set(file.subarray(0, 8), 0);
  out.set(schemaMessage, 8);
  out.set(file.subarray(8), 8 + s);
  const dv = new DataView(out.buffer, out.byteOffset, out.byteLength);
  for (const at of before.blockPositions) {
    const p = at + s;
    const offset = dv.getUint32(p, true) + dv.getUint32(p + 4, true) * 4294967296 + s;
    dv.setUint32(p, offset % 4294967296, true);
    dv.setUint32(p + 4, Math.floor(offset / 4294967296), true);
  }
  const mid = checkArrowFile(out, `${where}: the sealed file`, {
    verifyChecksum: false,
    computeChecksum: true,
  });
  if (mid.schemaMessage === null || mid.checksum.positions.length !== 2) {
    throw new RangeError(
      `${where}: the schema message and footer must both hold "${CHECKSUM_KEY}"`,
    );
  }
  const text = new TextEncoder().encode(mid.checksum.computed!);
  for (const p of mid.checksum.positions) out.set(text, p);
  checkArrowFile(out, `${where}: the sealed file`);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Streams

/** One message of an IPC stream, parsed by {@link IpcStreamChecker.message}. */
export interface IpcMessage {
  /** "schema", "dictionary" or "batch". */
  readonly kind: "schema" | "dictionary" | "batch";
  /** Body length in bytes (0 for a schema). */
  readonly bodyLength: number;
  /** Rows of a record or dictionary batch. */
  readonly rows: number;
  /** @internal */
  readonly desc: MessageDesc;
}

/**
 * Checks an Arrow IPC **stream** message by message, as it is read: the first message must be
 * a schema, the others dictionary or record batches whose bodies fit the schema (the same
 * checks as {@link checkArrowFile}'s).
 *
 * @example
 * ```ts
 * import * as A from "apache-arrow";
 * import { IpcStreamChecker } from "./ipc.ts";
 * import { expect } from "expect";
 * const s = A.tableToIPC(A.tableFromArrays({ x: new Float64Array([1, 2]) }), "stream");
 * const dv = new DataView(s.buffer, s.byteOffset);
 * const check = new IpcStreamChecker("demo");
 * let pos = 0, kinds: string[] = [];
 * while (dv.getInt32(pos + 4, true) !== 0) {
 *   const len = dv.getInt32(pos + 4, true);
 *   const m = check.message(s.subarray(pos + 8, pos + 8 + len), pos);
 *   const body = s.subarray(pos + 8 + len, pos + 8 + len + m.bodyLength);
 *   check.body(m, body);
 *   kinds.push(m.kind);
 *   pos += 8 + len + m.bodyLength;
 * }
 * expect(kinds).toEqual(["schema", "batch"]);
 * ```
 */
export class IpcStreamChecker {
  #prefix: string;
  #schema: SchemaDesc | null = null;
  #version = 0;
  #dictLengths = new Map<number, number>();

  /**
   * A checker for one stream.
   *
   * @param prefix start of every error message, e.g. `"readFrames: run.arrows"`
   */
  constructor(prefix: string) {
    this.#prefix = prefix;
  }

  /** True once the schema message has been read. */
  get hasSchema(): boolean {
    return this.#schema !== null;
  }

  #fail: Fail = (message) => {
    throw new RangeError(`${this.#prefix}: ${message}`);
  };

  /**
   * Parses one message's metadata flatbuffer (the bytes after its 8-byte prefix, padding
   * included).
   *
   * @param metadata the metadata bytes
   * @param offset the message's byte position in the stream, for error messages
   * @returns the message's kind and body length
   * @throws {RangeError} when the metadata is invalid or out of order
   */
  message(metadata: Uint8Array, offset: number): IpcMessage {
    const m = parseMessage(metadata, 0, metadata.length, offset, this.#fail);
    if (this.#schema === null) {
      if (m.header !== HEADER_SCHEMA) {
        this.#fail(`message at byte ${offset}: the stream must start with a schema message`);
      }
      this.#schema = m.schema!;
      this.#version = m.version;
    } else {
      if (m.header === HEADER_SCHEMA) {
        this.#fail(`message at byte ${offset}: a second schema message`);
      }
      if (m.version !== this.#version) {
        this.#fail(
          `message at byte ${offset}: metadata version ${m.version} differs from the schema's`,
        );
      }
      if (m.header === HEADER_DICTIONARY && !this.#schema.dictionaries.has(m.dictId!)) {
        this.#fail(`message at byte ${offset}: dictionary id ${m.dictId} is not in the schema`);
      }
    }
    const kind = m.header === HEADER_SCHEMA
      ? "schema"
      : m.header === HEADER_DICTIONARY
      ? "dictionary"
      : "batch";
    return { kind, bodyLength: m.bodyLength, rows: m.batch?.length ?? 0, desc: m };
  }

  /**
   * Checks a message's body against the schema (and the dictionaries read so far).
   *
   * @param message the message from {@link message}
   * @param body its body bytes (`message.bodyLength` of them)
   * @throws {RangeError} when the body does not fit the schema
   */
  body(message: IpcMessage, body: Uint8Array): void {
    const m = message.desc;
    if (body.length !== m.bodyLength) {
      this.#fail(
        `message at byte ${m.offset}: body has ${body.length} bytes, needs ${m.bodyLength}`,
      );
    }
    if (m.header === HEADER_SCHEMA) return;
    const schema = this.#schema!;
    if (m.header === HEADER_DICTIONARY) {
      const id = m.dictId!;
      const lengths = new Map(this.#dictLengths);
      new BodyCheck(
        m.batch!,
        body,
        m.version,
        lengths,
        this.#fail,
        `dictionary batch at byte ${m.offset}`,
      )
        .run([schema.dictionaries.get(id)!]);
      const total = (m.isDelta ? this.#dictLengths.get(id) ?? 0 : 0) + m.batch!.length;
      if (total > MAX_ROWS) this.#fail(`dictionary ${id} has ${total} values, out of range`);
      this.#dictLengths.set(id, total);
    } else {
      new BodyCheck(
        m.batch!,
        body,
        m.version,
        this.#dictLengths,
        this.#fail,
        `record batch at byte ${m.offset}`,
      )
        .run(schema.fields);
    }
  }
}
