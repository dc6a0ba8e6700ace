/**
 * Checks of Arrow IPC **file** bytes ({@link checkArrowFile}): the framing, the footer and its
 * blocks, every message of the stream part, the bodies and the checksum.
 *
 * @module
 */

import { checkBatchBody } from "./batches.ts";
import { CHECKSUM_KEY, crc32, hex8 } from "./checksum.ts";
import { type Fail, Flat } from "./flatbuffer.ts";
import {
  HEADER_DICTIONARY,
  HEADER_RECORD_BATCH,
  HEADER_SCHEMA,
  MAX_ROWS,
  type MessageDesc,
  parseMessage,
  V4,
  V5,
} from "./messages.ts";
import { canonSchema, keyValues, parseSchema } from "./schema.ts";
import { bool, options as checkOptions } from "../../math/validate.ts";

const MAGIC = [0x41, 0x52, 0x52, 0x4f, 0x57, 0x31]; // "ARROW1"
const CONTINUATION = 0xffffffff;

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
 * import { checkArrowFile } from "./file.ts";
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
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`checkArrowFile: bytes (${String(bytes)}) must be a Uint8Array`);
  }
  options = checkOptions<CheckArrowFileOptions>("checkArrowFile", "options", options, [
    "verifyChecksum",
    "computeChecksum",
  ]);
  bool("checkArrowFile", "options.verifyChecksum", options.verifyChecksum, true);
  bool("checkArrowFile", "options.computeChecksum", options.computeChecksum, false);
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
    checkBatchBody(m, body, schema, dictLengths, fail); // m.version is the footer's (above)
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
    positions.push(keyValues(header, 2, "schema").checksum?.pos);
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
