/**
 * A small binary container for checkpoints: a fixed header (magic, byte order, format
 * version, file length), a table of named sections with their offsets, lengths and CRC-32s, a
 * CRC-32 of the header and table, then the sections, each aligned to 8 bytes. Written
 * atomically (temporary file, fsync, rename); read defensively: every length and offset is
 * checked before it is used and every byte of a valid file is covered by a checksum or must
 * be zero, so a corrupt, truncated or future-version file throws a `RangeError`
 * `<where>: <what is wrong>` instead of yielding different data. The layout is documented in
 * `docs/checkpoint.md`.
 *
 * Low level on purpose: the simulators import it (they may not import `src/io` or Arrow); the
 * simulators' own (de)serialisers (`src/sphere3d/checkpoint.ts`, `src/star2d/checkpoint.ts`)
 * decide what goes into the sections, with {@link ByteWriter} and {@link ByteReader}.
 *
 * @module
 */

/** Bytes of the fixed header. */
export const HEADER_BYTES = 32;
/** Bytes of one section-table entry. */
export const ENTRY_BYTES = 32;
/** The most sections one container may hold. */
export const MAX_SECTIONS = 64;
/** Byte-order flag of little-endian files. */
export const LITTLE_ENDIAN = 1;
/** Byte-order flag of big-endian files. */
export const BIG_ENDIAN = 2;

const HOST_LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

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
 * CRC-32 (IEEE 802.3, the zlib/PNG polynomial) of `bytes[start, end)`, continuing from `crc`.
 *
 * @param bytes the data
 * @param start first byte @default 0
 * @param end one past the last byte @default bytes.length
 * @param crc the CRC of the bytes before `start` @default 0
 * @returns the CRC as an unsigned 32-bit integer
 * @example
 * ```ts
 * import { crc32 } from "./container.ts";
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

// ---------------------------------------------------------------------------------------------
// Container

/** One named section: up to 8 characters of `A-Z`, `0-9`, `_`, and its bytes. */
export interface Section {
  /** Name, 1–8 characters of `A-Z0-9_`. */
  tag: string;
  /** Content. */
  bytes: Uint8Array;
}

/** What {@link encodeContainer} writes besides the sections. */
export interface ContainerHeader {
  /** Format magic: exactly 8 ASCII characters, e.g. `"GRAINS3D"`. */
  magic: string;
  /** Format version, an integer ≥ 1. */
  version: number;
  /** Byte order of every number in the file. @default true (little-endian) */
  littleEndian?: boolean;
}

/** A decoded container: its header and its sections by tag (views into the file bytes). */
export interface DecodedContainer {
  /** Format version. */
  version: number;
  /** Byte order of the numbers in the sections. */
  littleEndian: boolean;
  /** Sections by tag, in file order. */
  sections: Map<string, Uint8Array>;
}

const align8 = (n: number) => (n + 7) & ~7;

function checkTag(tag: string): void {
  if (typeof tag !== "string" || !/^[A-Z0-9_]{1,8}$/.test(tag)) {
    throw new RangeError(`encodeContainer: section tag (${String(tag)}) must be 1-8 of A-Z0-9_`);
  }
}

/**
 * The bytes of a container holding `sections` in order.
 *
 * @example
 * ```ts
 * import { decodeContainer, encodeContainer } from "./container.ts";
 * import { expect } from "expect";
 * const bytes = encodeContainer({ magic: "EXAMPLE1", version: 1 }, [
 *   { tag: "A", bytes: new Uint8Array([1, 2, 3]) },
 * ]);
 * expect(bytes.length).toBe(32 + 32 + 8 + 8); // header, one entry, header CRC, padded section
 * const c = decodeContainer(bytes, { magic: "EXAMPLE1", maxVersion: 1, where: "demo" });
 * expect([...c.sections.get("A")!]).toEqual([1, 2, 3]);
 * bytes[73] ^= 1; // one flipped bit in the section
 * expect(() => decodeContainer(bytes, { magic: "EXAMPLE1", maxVersion: 1, where: "demo" }))
 *   .toThrow(/demo: section A: checksum mismatch/);
 * ```
 */
export function encodeContainer(header: ContainerHeader, sections: readonly Section[]): Uint8Array {
  const { magic, version } = header;
  const le = header.littleEndian ?? true;
  if (typeof magic !== "string" || !/^[\x20-\x7e]{8}$/.test(magic)) {
    throw new RangeError(`encodeContainer: magic (${String(magic)}) must be 8 ASCII characters`);
  }
  if (!Number.isInteger(version) || version < 1 || version > 0xffffffff) {
    throw new RangeError(`encodeContainer: version (${version}) must be an integer >= 1`);
  }
  if (sections.length > MAX_SECTIONS) {
    throw new RangeError(`encodeContainer: ${sections.length} sections exceed ${MAX_SECTIONS}`);
  }
  const seen = new Set<string>();
  for (const s of sections) {
    checkTag(s.tag);
    if (seen.has(s.tag)) throw new RangeError(`encodeContainer: duplicate section ${s.tag}`);
    seen.add(s.tag);
  }
  const n = sections.length;
  const tableEnd = HEADER_BYTES + ENTRY_BYTES * n;
  let off = align8(tableEnd + 4);
  const offsets: number[] = [];
  for (const s of sections) {
    offsets.push(off);
    off = align8(off + s.bytes.length);
  }
  const total = off;
  const out = new Uint8Array(total);
  const dv = new DataView(out.buffer);
  for (let k = 0; k < 8; k++) out[k] = magic.charCodeAt(k);
  out[8] = le ? LITTLE_ENDIAN : BIG_ENDIAN;
  dv.setUint32(12, version, le);
  dv.setUint32(16, n, le);
  setU64(dv, 24, total, le);
  sections.forEach((s, k) => {
    const e = HEADER_BYTES + ENTRY_BYTES * k;
    for (let c = 0; c < s.tag.length; c++) out[e + c] = s.tag.charCodeAt(c);
    setU64(dv, e + 8, offsets[k], le);
    setU64(dv, e + 16, s.bytes.length, le);
    out.set(s.bytes, offsets[k]);
    dv.setUint32(e + 24, crc32(s.bytes), le);
  });
  dv.setUint32(tableEnd, crc32(out, 0, tableEnd), le);
  return out;
}

/** Options of {@link decodeContainer}. */
export interface DecodeOptions {
  /** The expected magic (8 ASCII characters). */
  magic: string;
  /** The newest format version this reader understands. */
  maxVersion: number;
  /** Prefix of error messages, e.g. `loadGranularState: /tmp/bed.bin`. */
  where: string;
  /** A name for the format in messages. @default "checkpoint" */
  kind?: string;
}

/**
 * Check a container and return its sections (views into `bytes`). Throws a RangeError
 * `<where>: <what is wrong>` for anything but a well-formed file: wrong magic, unknown byte
 * order, a version newer than `maxVersion`, truncation or trailing bytes, a bad header or
 * section checksum, misplaced sections, non-zero padding, duplicate or malformed tags.
 *
 * @example
 * ```ts
 * import { decodeContainer, encodeContainer } from "./container.ts";
 * import { expect } from "expect";
 * const bytes = encodeContainer({ magic: "EXAMPLE1", version: 2 }, []);
 * const opts = { magic: "EXAMPLE1", maxVersion: 1, where: "demo" };
 * expect(() => decodeContainer(bytes, opts)).toThrow(/format version 2 is newer/);
 * expect(() => decodeContainer(bytes.subarray(0, 20), opts)).toThrow(/truncated/);
 * ```
 */
export function decodeContainer(bytes: Uint8Array, options: DecodeOptions): DecodedContainer {
  const { magic, maxVersion, where } = options;
  const kind = options.kind ?? "checkpoint";
  const fail = (what: string): never => {
    throw new RangeError(`${where}: ${what}`);
  };
  if (!(bytes instanceof Uint8Array)) fail(`bytes must be a Uint8Array`);
  const size = bytes.length;
  if (size < 8) fail(`truncated: the file has ${size} bytes, not even the 8-byte magic`);
  for (let k = 0; k < 8; k++) {
    if (bytes[k] !== magic.charCodeAt(k)) {
      const got = Array.from(bytes.subarray(0, 8), (b) => b.toString(16).padStart(2, "0"));
      fail(`not a ${kind} (magic ${got.join(" ")}, expected "${magic}")`);
    }
  }
  if (size < HEADER_BYTES + 8) {
    fail(`truncated: the file has ${size} bytes, fewer than the ${HEADER_BYTES + 8}-byte header`);
  }
  const flag = bytes[8];
  if (flag !== LITTLE_ENDIAN && flag !== BIG_ENDIAN) {
    fail(`unknown byte-order flag ${flag} (1 little-endian, 2 big-endian)`);
  }
  const le = flag === LITTLE_ENDIAN;
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const version = dv.getUint32(12, le);
  if (version > maxVersion) {
    fail(
      `format version ${version} is newer than this reader supports (${maxVersion}); ` +
        `update Grainlab to read it`,
    );
  }
  if (version < 1) fail(`format version ${version} is invalid (versions start at 1)`);
  if (bytes[9] !== 0 || bytes[10] !== 0 || bytes[11] !== 0 || dv.getUint32(20, le) !== 0) {
    fail(`reserved header bytes are not zero`);
  }
  const n = dv.getUint32(16, le);
  if (n > MAX_SECTIONS) fail(`section count ${n} exceeds ${MAX_SECTIONS}`);
  const tableEnd = HEADER_BYTES + ENTRY_BYTES * n;
  const dataStart = align8(tableEnd + 4);
  const total = getU64(dv, 24, le);
  if (total !== size) {
    fail(
      total > size
        ? `truncated: the header gives a length of ${total} bytes, the file has ${size}`
        : `the header gives a length of ${total} bytes, the file has ${size} (trailing bytes)`,
    );
  }
  if (size < dataStart) {
    fail(`truncated: ${n} section entries need ${dataStart} bytes, the file has ${size}`);
  }
  const headCrc = crc32(bytes, 0, tableEnd);
  const storedHead = dv.getUint32(tableEnd, le);
  if (headCrc !== storedHead) {
    fail(`header checksum mismatch (stored ${hex(storedHead)}, computed ${hex(headCrc)})`);
  }
  checkZero(bytes, tableEnd + 4, dataStart, fail, "header padding");
  const sections = new Map<string, Uint8Array>();
  let expect = dataStart;
  for (let k = 0; k < n; k++) {
    const e = HEADER_BYTES + ENTRY_BYTES * k;
    let tag = "";
    let k2 = 0;
    for (; k2 < 8 && bytes[e + k2] !== 0; k2++) tag += String.fromCharCode(bytes[e + k2]);
    for (let z = k2; z < 8; z++) {
      if (bytes[e + z] !== 0) fail(`section ${k}: malformed tag`);
    }
    if (!/^[A-Z0-9_]{1,8}$/.test(tag)) fail(`section ${k}: malformed tag`);
    if (sections.has(tag)) fail(`section ${tag} appears twice`);
    const off = getU64(dv, e + 8, le), len = getU64(dv, e + 16, le);
    if (dv.getUint32(e + 28, le) !== 0) fail(`section ${tag}: reserved bytes are not zero`);
    if (off !== expect) fail(`section ${tag}: offset ${off} should be ${expect}`);
    if (len > size - off) {
      fail(`truncated: section ${tag} needs bytes ${off}..${off + len}, the file has ${size}`);
    }
    const end = off + len;
    const c = crc32(bytes, off, end), stored = dv.getUint32(e + 24, le);
    if (c !== stored) {
      fail(`section ${tag}: checksum mismatch (stored ${hex(stored)}, computed ${hex(c)})`);
    }
    expect = align8(end);
    if (expect > size) fail(`truncated: section ${tag} padding runs past the end of the file`);
    checkZero(bytes, end, expect, fail, `section ${tag} padding`);
    sections.set(tag, bytes.subarray(off, end));
  }
  if (expect !== size) fail(`${size - expect} bytes after the last section`);
  return { version, littleEndian: le, sections };
}

function checkZero(
  bytes: Uint8Array,
  from: number,
  to: number,
  fail: (w: string) => never,
  what: string,
): void {
  for (let k = from; k < to; k++) if (bytes[k] !== 0) fail(`${what} is not zero`);
}

function hex(v: number): string {
  return v.toString(16).padStart(8, "0");
}

function setU64(dv: DataView, at: number, v: number, le: boolean): void {
  dv.setBigUint64(at, BigInt(v), le);
}

/** A u64 as a number; values beyond 2^53 become Infinity (never a valid length). */
function getU64(dv: DataView, at: number, le: boolean): number {
  const v = dv.getBigUint64(at, le);
  return v > BigInt(Number.MAX_SAFE_INTEGER) ? Infinity : Number(v);
}

// ---------------------------------------------------------------------------------------------
// Section payloads

type Typed = Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array;

/**
 * Builds a section's bytes: numbers and typed arrays in one byte order, strings as UTF-8.
 *
 * @example
 * ```ts
 * import { ByteReader, ByteWriter } from "./container.ts";
 * import { expect } from "expect";
 * const w = new ByteWriter();
 * w.u32(2);
 * w.array(new Float64Array([0.5, -1]));
 * const r = new ByteReader(w.finish(), true, "demo");
 * const n = r.u32();
 * expect([...r.f64s(n)]).toEqual([0.5, -1]);
 * r.end();
 * ```
 */
export class ByteWriter {
  #chunks: Uint8Array[] = [];
  #length = 0;
  readonly #le: boolean;

  /** A writer in the given byte order. @param littleEndian @default true */
  constructor(littleEndian = true) {
    this.#le = littleEndian;
  }

  /** Bytes written so far. */
  get length(): number {
    return this.#length;
  }

  #push(b: Uint8Array): void {
    this.#chunks.push(b);
    this.#length += b.length;
  }

  /** An unsigned 32-bit integer. */
  u32(v: number): void {
    const b = new Uint8Array(4);
    new DataView(b.buffer).setUint32(0, v, this.#le);
    this.#push(b);
  }

  /** A 64-bit float. */
  f64(v: number): void {
    const b = new Uint8Array(8);
    new DataView(b.buffer).setFloat64(0, v, this.#le);
    this.#push(b);
  }

  /** Every element of a typed array, in the writer's byte order (copied). */
  array(a: Typed): void {
    const size = a.BYTES_PER_ELEMENT;
    const b = new Uint8Array(a.buffer, a.byteOffset, a.length * size).slice();
    if (size > 1 && this.#le !== HOST_LITTLE) swapBytes(b, size);
    this.#push(b);
  }

  /** A string as UTF-8 (no length prefix: write one first if the section holds more). */
  text(s: string): void {
    this.#push(new TextEncoder().encode(s));
  }

  /** The bytes written. */
  finish(): Uint8Array {
    const out = new Uint8Array(this.#length);
    let o = 0;
    for (const c of this.#chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

/**
 * Reads a section written by {@link ByteWriter}: every read checks that enough bytes remain
 * before allocating, and throws a RangeError `<where>: <what>` otherwise.
 *
 * @example
 * ```ts
 * import { ByteReader } from "./container.ts";
 * import { expect } from "expect";
 * const r = new ByteReader(new Uint8Array(6), true, "demo: section X");
 * expect(r.u32()).toBe(0);
 * expect(() => r.f64s(1)).toThrow(/demo: section X: truncated: 8 bytes needed at 4, 2 left/);
 * ```
 */
export class ByteReader {
  readonly #b: Uint8Array;
  readonly #dv: DataView;
  readonly #le: boolean;
  readonly #where: string;
  #at = 0;

  /** A reader over `bytes` in the given byte order; `where` prefixes error messages. */
  constructor(bytes: Uint8Array, littleEndian: boolean, where: string) {
    this.#b = bytes;
    this.#dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#le = littleEndian;
    this.#where = where;
  }

  /** Bytes not yet read. */
  get remaining(): number {
    return this.#b.length - this.#at;
  }

  /** Throw `<where>: <what>`. */
  fail(what: string): never {
    throw new RangeError(`${this.#where}: ${what}`);
  }

  #need(bytes: number): number {
    if (!(Number.isSafeInteger(bytes) && bytes >= 0 && bytes <= this.remaining)) {
      this.fail(`truncated: ${bytes} bytes needed at ${this.#at}, ${this.remaining} left`);
    }
    const at = this.#at;
    this.#at += bytes;
    return at;
  }

  /** An unsigned 32-bit integer. */
  u32(): number {
    return this.#dv.getUint32(this.#need(4), this.#le);
  }

  /** A 64-bit float. */
  f64(): number {
    return this.#dv.getFloat64(this.#need(8), this.#le);
  }

  #array<T extends Typed>(n: number, size: number, make: (b: ArrayBuffer) => T): T {
    const at = this.#need(n * size);
    const b = this.#b.slice(at, at + n * size);
    if (size > 1 && this.#le !== HOST_LITTLE) swapBytes(b, size);
    return make(b.buffer);
  }

  /** `n` 64-bit floats. */
  f64s(n: number): Float64Array {
    return this.#array(n, 8, (b) => new Float64Array(b));
  }
  /** `n` unsigned 32-bit integers. */
  u32s(n: number): Uint32Array {
    return this.#array(n, 4, (b) => new Uint32Array(b));
  }
  /** `n` signed 32-bit integers. */
  i32s(n: number): Int32Array {
    return this.#array(n, 4, (b) => new Int32Array(b));
  }
  /** `n` unsigned 16-bit integers. */
  u16s(n: number): Uint16Array {
    return this.#array(n, 2, (b) => new Uint16Array(b));
  }
  /** `n` bytes. */
  u8s(n: number): Uint8Array {
    return this.#array(n, 1, (b) => new Uint8Array(b));
  }

  /** The rest of the section as UTF-8 text (invalid UTF-8 throws). */
  text(): string {
    const at = this.#need(this.remaining);
    try {
      return new TextDecoder("utf-8", { fatal: true }).decode(this.#b.subarray(at));
    } catch {
      this.fail(`invalid UTF-8 text`);
    }
  }

  /** Throw unless every byte was read. */
  end(): void {
    if (this.remaining !== 0) this.fail(`${this.remaining} unexpected bytes at the end`);
  }
}

function swapBytes(b: Uint8Array, size: number): void {
  for (let o = 0; o < b.length; o += size) {
    for (let i = 0, j = size - 1; i < j; i++, j--) {
      const t = b[o + i];
      b[o + i] = b[o + j];
      b[o + j] = t;
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Files

/**
 * Write `bytes` to `path` atomically: a temporary file in the same folder, written in full and
 * flushed to disk (fsync), then renamed over `path` (and the folder flushed, where the system
 * allows). A crash leaves either the old file or the new one, never a partial file. Creates
 * missing parent folders.
 *
 * @example
 * ```ts
 * import { writeFileAtomicSync } from "./container.ts";
 * import { expect } from "expect";
 * const dir = Deno.makeTempDirSync();
 * writeFileAtomicSync(`${dir}/sub/a.bin`, new Uint8Array([1, 2]));
 * expect([...Deno.readFileSync(`${dir}/sub/a.bin`)]).toEqual([1, 2]);
 * expect([...Deno.readDirSync(`${dir}/sub`)].map((e) => e.name)).toEqual(["a.bin"]);
 * ```
 */
export function writeFileAtomicSync(path: string, bytes: Uint8Array): void {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`writeFileAtomicSync: path (${String(path)}) must be a non-empty string`);
  }
  // the rename would replace whatever is there: a device (/dev/null), a pipe, a folder's entry
  const kind = nonRegular(path);
  if (kind) {
    throw new Error(
      `writeFileAtomicSync: ${path} is ${kind}, not a regular file: refusing to replace it`,
    );
  }
  const slash = path.lastIndexOf("/");
  const dir = slash > 0 ? path.slice(0, slash) : slash === 0 ? "/" : ".";
  if (slash > 0) Deno.mkdirSync(dir, { recursive: true });
  const tmp = `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    const file = Deno.openSync(tmp, { write: true, create: true, truncate: true });
    try {
      let off = 0;
      while (off < bytes.length) off += file.writeSync(bytes.subarray(off));
      file.syncSync();
    } finally {
      file.close();
    }
    Deno.renameSync(tmp, path);
  } catch (e) {
    try {
      Deno.removeSync(tmp);
    } catch { /* never created, or already renamed */ }
    throw e;
  }
  try {
    const d = Deno.openSync(dir, { read: true });
    try {
      d.syncSync();
    } finally {
      d.close();
    }
  } catch { /* folders cannot be opened or flushed on every system */ }
}

/**
 * Read a whole file for a decoder; a missing or unreadable file throws an Error
 * `<where>: cannot read the file (<reason>)` with the original error as its cause.
 *
 * @example
 * ```ts
 * import { readFileForDecode } from "./container.ts";
 * import { expect } from "expect";
 * expect(() => readFileForDecode("/nonexistent/x.bin", "load: /nonexistent/x.bin"))
 *   .toThrow(/load: \/nonexistent\/x.bin: cannot read the file/);
 * ```
 */
export function readFileForDecode(path: string, where: string): Uint8Array {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`${where}: path (${String(path)}) must be a non-empty string`);
  }
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    throw new Error(`${where}: cannot read the file (${(e as Error).message})`, { cause: e });
  }
  // a FIFO or a device would block the read or never end; a folder fails obscurely
  if (!info.isFile) throw new TypeError(`${where}: ${notRegular(info)}`);
  try {
    return Deno.readFileSync(path);
  } catch (e) {
    throw new Error(`${where}: cannot read the file (${(e as Error).message})`, { cause: e });
  }
}

/**
 * Why a path that is not a regular file cannot be read as one, e.g. `not a regular file (a
 * FIFO); give the path of a file`.
 *
 * @example
 * ```ts
 * import { notRegular } from "./container.ts";
 * import { expect } from "expect";
 * expect(notRegular(Deno.statSync(Deno.makeTempDirSync()))).toMatch(/a directory/);
 * ```
 */
export function notRegular(info: Deno.FileInfo): string {
  return `not a regular file (${kindOf(info)}); give the path of a file`;
}

/** What a file that is not a regular one is: "a directory", "a FIFO", … */
function kindOf(info: Deno.FileInfo): string {
  return info.isDirectory
    ? "a directory"
    : info.isFifo
    ? "a FIFO"
    : info.isCharDevice
    ? "a character device"
    : info.isBlockDevice
    ? "a block device"
    : info.isSocket
    ? "a socket"
    : "not a file";
}

/**
 * What `path` is when it exists and is not a regular file ("a directory", "a FIFO", …),
 * following symbolic links; `""` for a regular file, and for a path that is missing or cannot
 * be inspected (the read or write then reports it).
 */
function nonRegular(path: string): string {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch {
    return "";
  }
  return info.isFile ? "" : kindOf(info);
}
