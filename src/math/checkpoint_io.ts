/**
 * The plumbing the simulators' checkpoints share on top of the sectioned container of
 * `container.ts`: section encoders (JSON and binary), opening a checkpoint (magic, version,
 * sections by tag, size checks), the `<where>: <what>` error prefixing of decoders, the
 * defensive JSON field readers, and the optional HISTORY section.
 *
 * @module
 */
import { ByteReader, ByteWriter, decodeContainer, type DecodeOptions } from "./container.ts";
import { finite } from "./validate.ts";

/**
 * Options of saving a simulator's state (`GranularSystem.saveGranularState` and
 * `granularStateBytes` in sphere3d, `saveState` and `stateBytes` of the star2d systems).
 */
export interface SaveStateOptions {
  /**
   * Write the persistent tangential contact histories (springs), needed to continue a
   * frictional run exactly; without them the file is smaller and the springs restart at zero.
   * @default true
   */
  includeContactHistories?: boolean;
}

/** Keys of {@link SaveStateOptions}. */
export const SAVE_STATE_KEYS: readonly string[] = ["includeContactHistories"];

/** A typed array a binary section can hold (what `ByteWriter.array` takes). */
export type SectionArray = Parameters<ByteWriter["array"]>[0];

/**
 * The bytes of a JSON section: `JSON.stringify(value)` as UTF-8.
 *
 * @example
 * ```ts
 * import { jsonSection } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * expect(new TextDecoder().decode(jsonSection({ a: 1 }))).toBe('{"a":1}');
 * ```
 */
export function jsonSection(value: unknown, littleEndian = true): Uint8Array {
  const w = new ByteWriter(littleEndian);
  w.text(JSON.stringify(value));
  return w.finish();
}

/**
 * The bytes of a binary section: every element of each array in turn, in the given byte order.
 *
 * @example
 * ```ts
 * import { binarySection } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * const b = binarySection(false, new Uint32Array([1]), new Uint16Array([2]));
 * expect([...b.subarray(0, 6)]).toEqual([0, 0, 0, 1, 0, 2]);
 * ```
 */
export function binarySection(littleEndian: boolean, ...arrays: SectionArray[]): Uint8Array {
  const w = new ByteWriter(littleEndian);
  for (const a of arrays) w.array(a);
  return w.finish();
}

/** The sections of an opened checkpoint (see {@link openCheckpoint}). */
export interface CheckpointSections {
  /** Byte order of the numbers in the sections. */
  readonly littleEndian: boolean;
  /** Tags of the sections, in file order. */
  readonly tags: string[];
  /**
   * A reader of the section `tag` (errors `<where>: section <tag>: <what>`), or null when it is
   * absent and not required; a required absent section throws `<where>: the section <tag> is
   * missing`.
   */
  reader(tag: string, required: true): ByteReader;
  /** As above; null when the optional section is absent. */
  reader(tag: string, required: boolean): ByteReader | null;
  /** The parsed JSON of the required section `tag` (errors `<where>: <tag>: ...`). */
  json(tag: string): unknown;
}

/**
 * Check the container of a checkpoint (magic, byte order, version at most `maxVersion`,
 * checksums, layout; see `decodeContainer`) and give access to its sections.
 *
 * @example
 * ```ts
 * import { encodeContainer } from "./container.ts";
 * import { jsonSection, openCheckpoint } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * const bytes = encodeContainer({ magic: "EXAMPLE1", version: 1 }, [
 *   { tag: "META", bytes: jsonSection({ count: 2 }) },
 * ]);
 * const c = openCheckpoint(bytes, { magic: "EXAMPLE1", maxVersion: 1, where: "demo" });
 * expect(c.tags).toEqual(["META"]);
 * expect(c.json("META")).toEqual({ count: 2 });
 * expect(c.reader("HISTORY", false)).toBe(null);
 * expect(() => c.reader("GRAIN", true)).toThrow("demo: the section GRAIN is missing");
 * ```
 */
export function openCheckpoint(bytes: Uint8Array, options: DecodeOptions): CheckpointSections {
  const c = decodeContainer(bytes, options);
  const where = options.where, le = c.littleEndian;
  function reader(tag: string, required: true): ByteReader;
  function reader(tag: string, required: boolean): ByteReader | null;
  function reader(tag: string, required: boolean): ByteReader | null {
    const b = c.sections.get(tag);
    if (!b) {
      if (required) throw new RangeError(`${where}: the section ${tag} is missing`);
      return null;
    }
    return new ByteReader(b, le, `${where}: section ${tag}`);
  }
  return {
    littleEndian: le,
    tags: [...c.sections.keys()],
    reader,
    json: (tag) => parseJson(`${where}: ${tag}`, reader(tag, true)),
  };
}

/**
 * Throw (through the reader, naming its section) unless exactly `bytes` bytes remain.
 *
 * @example
 * ```ts
 * import { ByteReader } from "./container.ts";
 * import { expectBytes } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * const r = new ByteReader(new Uint8Array(8), true, "demo: section A");
 * expectBytes(r, 8, "one number");
 * expect(() => expectBytes(r, 16, "two numbers")).toThrow(/8 bytes, expected 16 for two numbers/);
 * ```
 */
export function expectBytes(r: ByteReader, bytes: number, what: string): void {
  if (r.remaining !== bytes) r.fail(`${r.remaining} bytes, expected ${bytes} for ${what}`);
}

/**
 * Run a decoder, giving every error it throws the prefix `<where>: ` (errors that have it
 * already pass unchanged; others become a RangeError with the original as `cause`).
 *
 * @example
 * ```ts
 * import { decodeChecked } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * expect(decodeChecked("load: a.bin", () => 3)).toBe(3);
 * expect(() => decodeChecked("load: a.bin", () => JSON.parse("{")))
 *   .toThrow(/^load: a\.bin: /);
 * ```
 */
export function decodeChecked<T>(where: string, decode: () => T): T {
  try {
    return decode();
  } catch (e) {
    const m = (e as Error).message ?? String(e);
    if (m.startsWith(`${where}: `)) throw e;
    throw new RangeError(`${where}: ${m}`, { cause: e });
  }
}

/**
 * The rest of a section parsed as JSON (invalid JSON throws `<where>: invalid JSON (...)`).
 *
 * @example
 * ```ts
 * import { ByteReader } from "./container.ts";
 * import { parseJson } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * const r = new ByteReader(new TextEncoder().encode("[1,2]"), true, "demo");
 * expect(parseJson("demo: META", r)).toEqual([1, 2]);
 * ```
 */
export function parseJson(where: string, r: ByteReader): unknown {
  const t = r.text();
  try {
    return JSON.parse(t);
  } catch (e) {
    throw new RangeError(`${where}: invalid JSON (${(e as Error).message})`);
  }
}

/**
 * `v` as an object with exactly the fields `keys` (a missing or unknown field throws).
 *
 * @example
 * ```ts
 * import { record } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * expect(record("demo", "META", { a: 1 }, ["a"]).a).toBe(1);
 * expect(() => record("demo", "META", { a: 1, b: 2 }, ["a"]))
 *   .toThrow('demo: META has an unknown field "b"');
 * expect(() => record("demo", "META", {}, ["a"])).toThrow('demo: META lacks the field "a"');
 * expect(record("demo", "META", { a: 1, c: 3 }, ["a"], ["c"]).c).toBe(3);
 * ```
 */
export function record(
  where: string,
  name: string,
  v: unknown,
  keys: readonly string[],
  optional: readonly string[] = [],
): Record<string, unknown> {
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new TypeError(`${where}: ${name} must be an object`);
  }
  const o = v as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!keys.includes(k) && !optional.includes(k)) {
      throw new RangeError(`${where}: ${name} has an unknown field "${k}"`);
    }
  }
  for (const k of keys) {
    if (!(k in o)) throw new RangeError(`${where}: ${name} lacks the field "${k}"`);
  }
  return o;
}

/**
 * `v` as an array of finite numbers (of length `n` when given).
 *
 * @example
 * ```ts
 * import { numberArray } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * expect(numberArray("demo", "gravity", [0, -9.81], 2)).toEqual([0, -9.81]);
 * expect(() => numberArray("demo", "gravity", [0], 2))
 *   .toThrow("demo: gravity must be an array of 2 numbers");
 * ```
 */
export function numberArray(where: string, name: string, v: unknown, n?: number): number[] {
  if (!Array.isArray(v) || (n !== undefined && v.length !== n)) {
    throw new TypeError(
      `${where}: ${name} must be an array${n === undefined ? "" : ` of ${n}`} numbers`,
    );
  }
  return v.map((x, k) => finite(where, `${name}[${k}]`, x));
}

/**
 * Index of the first non-finite value of `a`, or -1.
 *
 * @example
 * ```ts
 * import { firstNonFinite } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * expect(firstNonFinite(new Float64Array([1, NaN, Infinity]))).toBe(1);
 * expect(firstNonFinite(new Float64Array([1, 2]))).toBe(-1);
 * ```
 */
export function firstNonFinite(a: Float64Array): number {
  for (let k = 0; k < a.length; k++) if (!Number.isFinite(a[k])) return k;
  return -1;
}

/**
 * The optional HISTORY section of a checkpoint: present exactly when META announces it
 * (`announced`), of exactly `bytes` bytes (`what` names them in the error), read whole by
 * `read`; null when absent.
 *
 * @example
 * ```ts
 * import { encodeContainer } from "./container.ts";
 * import { binarySection, historySection, openCheckpoint } from "./checkpoint_io.ts";
 * import { expect } from "expect";
 * const bytes = encodeContainer({ magic: "EXAMPLE1", version: 1 }, [
 *   { tag: "HISTORY", bytes: binarySection(true, new Float64Array([0.5])) },
 * ]);
 * const c = openCheckpoint(bytes, { magic: "EXAMPLE1", maxVersion: 1, where: "demo" });
 * expect(historySection(c, "demo", true, 8, "1 entry", (r) => r.f64s(1))).toEqual(
 *   new Float64Array([0.5]),
 * );
 * expect(() => historySection(c, "demo", false, 0, "", () => 0))
 *   .toThrow("demo: META and the HISTORY section disagree");
 * ```
 */
export function historySection<T>(
  sections: CheckpointSections,
  where: string,
  announced: boolean,
  bytes: number,
  what: string,
  read: (r: ByteReader) => T,
): T | null {
  const r = sections.reader("HISTORY", false);
  if ((r !== null) !== announced) {
    throw new RangeError(`${where}: META and the HISTORY section disagree`);
  }
  if (!r) return null;
  expectBytes(r, bytes, what);
  const h = read(r);
  r.end();
  return h;
}
