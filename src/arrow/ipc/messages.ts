/**
 * Message metadata of the Arrow IPC validator: parses one `Message` flatbuffer (version,
 * header, body length) and, for record and dictionary batches, the batch table (length, field
 * nodes, buffers, compression, variadic buffer counts) into a {@link MessageDesc}.
 *
 * @module
 */

import { type Fail, Flat, type FlatTable } from "./flatbuffer.ts";
import { keyValues, parseSchema, type SchemaDesc } from "./schema.ts";

/** The longest column (or batch) Arrow JS can address, in rows. */
export const MAX_ROWS = 2 ** 31 - 1;
/** MetadataVersion codes. */
export const V4 = 3, V5 = 4;
/** MessageHeader codes. */
export const HEADER_SCHEMA = 1, HEADER_DICTIONARY = 2, HEADER_RECORD_BATCH = 3;
const HEADER_NAMES = ["NONE", "Schema", "DictionaryBatch", "RecordBatch", "Tensor", "SparseTensor"];

/** A record batch table: its length and where its field nodes and buffers are. */
export interface BatchDesc {
  fb: Flat;
  length: number;
  nodes: { pos: number; count: number };
  buffers: { pos: number; count: number };
  compressed: boolean;
  variadic: number[];
}

/** A parsed message. */
export interface MessageDesc {
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
  /**
   * The message-level checksum under `grainlab.crc32` (in the `Message`'s own custom
   * metadata, which `FrameWriter` fills) and where its 8 bytes are, when present.
   */
  checksum: { value: string; pos: number } | null;
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
export function parseMessage(
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
  const { checksum } = keyValues(m, 4, "message"); // bounds, and the checksum when there
  const h = m.table(2, "header");
  const out: MessageDesc = {
    offset,
    metaLength: end - start,
    version,
    header,
    bodyLength,
    checksum,
  };
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
