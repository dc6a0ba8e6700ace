/**
 * Checks of an Arrow IPC **stream**, message by message as it is read
 * ({@link IpcStreamChecker}).
 *
 * @module
 */

import { checkBatchBody } from "./batches.ts";
import type { Fail } from "./flatbuffer.ts";
import {
  HEADER_DICTIONARY,
  HEADER_SCHEMA,
  MAX_ROWS,
  type MessageDesc,
  parseMessage,
} from "./messages.ts";
import type { SchemaDesc } from "./schema.ts";

/** One message of an IPC stream, parsed by {@link IpcStreamChecker.message}. */
export interface IpcMessage {
  /** "schema", "dictionary" or "batch". */
  readonly kind: "schema" | "dictionary" | "batch";
  /** Body length in bytes (0 for a schema). */
  readonly bodyLength: number;
  /** Rows of a record or dictionary batch. */
  readonly rows: number;
  /**
   * The `grainlab.crc32` checksum the message holds — a schema message in its schema's
   * metadata, a batch in the message's own metadata — and where its 8 bytes are in the
   * metadata bytes given to {@link IpcStreamChecker.message}; null when it has none.
   */
  readonly checksum: { value: string; pos: number } | null;
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
 * import { IpcStreamChecker } from "../ipc.ts";
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
    const checksum = kind === "schema" ? m.schema!.checksum : m.checksum;
    return { kind, bodyLength: m.bodyLength, rows: m.batch?.length ?? 0, checksum, desc: m };
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
    checkBatchBody(m, body, this.#schema!, this.#dictLengths, this.#fail);
    if (m.header === HEADER_DICTIONARY) {
      const id = m.dictId!;
      const total = (m.isDelta ? this.#dictLengths.get(id) ?? 0 : 0) + m.batch!.length;
      if (total > MAX_ROWS) this.#fail(`dictionary ${id} has ${total} values, out of range`);
      this.#dictLengths.set(id, total);
    }
  }
}
