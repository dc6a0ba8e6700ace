/**
 * Arrow IPC files: atomic `writeArrow` and defensive `readArrow`.
 *
 * `readArrow` (and `tableFromBytes`) check the whole file before apache-arrow decodes it —
 * framing, footer, schema, every message and every buffer (see {@link checkArrowFile}) — and
 * throw a `RangeError` `readArrow: <path>: <what is wrong>` rather than hang or return a
 * different table.
 *
 * **Checksum.** Arrow IPC has none, so `writeArrow` adds one: the schema metadata key
 * `grainlab.crc32` ({@link CHECKSUM_KEY}) holds the CRC-32 (IEEE, as in zlib), as 8 lowercase
 * hex digits, of the file bytes from the end of the schema message to the start of the footer
 * — the dictionary batches, the record batches and the end-of-stream marker. The file has the
 * specification's layout: `ARROW1\0\0`, a schema message, the batches, the end-of-stream
 * marker, the footer (whose schema is a second copy), the footer length and `ARROW1`. The
 * schema and the checksum text are covered by the two schema copies, which `readArrow`
 * requires to agree, and the footer's blocks by their agreement with the messages. `readArrow`
 * verifies the checksum when the key is there and removes the key from the table it returns;
 * files from other writers (pyarrow, Arrow JS's own `tableToIPC`, …) get the structural checks
 * only.
 *
 * @module
 */

import * as A from "apache-arrow";
import { regularFile, writeFileAtomic as sharedWrite } from "../math/files.ts";
import { checkArrowFile, CHECKSUM_KEY, sealArrowFile } from "./ipc.ts";

export {
  type ArrowFileLayout,
  checkArrowFile,
  type CheckArrowFileOptions,
  CHECKSUM_KEY,
} from "./ipc.ts";

/**
 * Writes bytes to `path` atomically: a temporary file in the same folder, flushed to disk, then
 * a rename; creates missing parent folders (the one implementation of `src/math/files.ts`).
 *
 * @example
 * ```ts
 * import { writeFileAtomic } from "./io.ts";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a.bin`, new Uint8Array([1, 2]));
 * expect(Array.from(await Deno.readFile(`${dir}/a.bin`))).toEqual([1, 2]);
 * ```
 */
export const writeFileAtomic: (path: string, bytes: Uint8Array) => Promise<void> = sharedWrite;

/**
 * The bytes {@link writeArrow} writes: an Arrow IPC file in the specification's layout (with a
 * schema message) whose schema metadata holds the checksum {@link CHECKSUM_KEY}.
 *
 * @param table the table
 * @returns the file's bytes
 * @throws {TypeError} when `table` is not an apache-arrow Table
 * @throws {RangeError} when apache-arrow cannot write it (e.g. two batches with different
 *   dictionaries for one column, which the file format does not allow)
 * @example
 * ```ts
 * import { particlesTable } from "@grainlab/grainlab/arrow";
 * import { checkArrowFile, tableFromBytes, tableToArrowFile } from "./io.ts";
 * import { expect } from "expect";
 * const t = particlesTable({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] });
 * const bytes = tableToArrowFile(t);
 * expect(tableFromBytes(bytes).getChild("z")!.get(0)).toBe(1);
 * const { footerStart } = checkArrowFile(bytes, "demo");
 * bytes[footerStart - 12] ^= 1; // one flipped bit in the last record batch's body…
 * expect(() => tableFromBytes(bytes)).toThrow(/checksum mismatch/); // …is caught
 * ```
 */
export function tableToArrowFile(table: A.Table): Uint8Array {
  return encodeFile("tableToArrowFile", table);
}

function encodeFile(where: string, table: A.Table): Uint8Array {
  if (!(table instanceof A.Table)) {
    throw new TypeError(`${where}: table is ${typeof table}, must be an apache-arrow Table`);
  }
  const meta = new Map(table.schema.metadata);
  meta.set(CHECKSUM_KEY, "00000000"); // a placeholder of the final length
  const schema = new A.Schema(table.schema.fields, meta, table.schema.dictionaries);
  const withKey = new A.Table(schema, table.batches.map((b) => new A.RecordBatch(schema, b.data)));
  // Arrow JS writes files without the schema message; take it from a stream of no batches
  // (schema message + 8-byte end-of-stream marker) and let sealArrowFile insert it.
  let file: Uint8Array, stream: Uint8Array;
  try {
    file = A.tableToIPC(withKey, "file");
    stream = A.tableToIPC(new A.Table(schema), "stream");
  } catch (e) {
    // e.g. batches with different dictionaries for one column: a file cannot replace one
    throw new RangeError(`${where}: apache-arrow cannot write the table: ${(e as Error).message}`);
  }
  return sealArrowFile(file, stream.subarray(0, stream.length - 8));
}

/**
 * Writes a table as an Arrow IPC **file** (magic `ARROW1`, footer) with a checksum of its data
 * (see the module documentation), atomically.
 *
 * @param path destination, conventionally ending in `.arrow`
 * @param table the table (from `particlesTable`, `contactsTable`, …)
 * @returns the number of bytes written
 * @throws {TypeError} when `table` is not an Arrow table
 * @throws {RangeError} when apache-arrow cannot write it (see {@link tableToArrowFile})
 * @example
 * ```ts
 * import { particlesTable, readArrow, writeArrow } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * const t = particlesTable({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] });
 * await writeArrow(`${dir}/p.arrow`, t);
 * const back = await readArrow(`${dir}/p.arrow`);
 * expect(back.getChild("z")!.get(0)).toBe(1);
 * expect(back.schema.metadata.has("grainlab.crc32")).toBe(false); // verified, then removed
 * ```
 */
export async function writeArrow(path: string, table: A.Table): Promise<number> {
  const bytes = encodeFile("writeArrow", table);
  await sharedWrite(path, bytes, "writeArrow");
  return bytes.length;
}

/**
 * Reads an Arrow IPC file written by {@link writeArrow} (or any Arrow IPC file), checking it
 * completely first and verifying its checksum when it has one.
 *
 * @param path the file
 * @returns the table, with its field and schema metadata (less the checksum key)
 * @throws {Error} `readArrow: <path>: does not exist` (or cannot be read, or is not a regular
 *   file: a directory, a FIFO …)
 * @throws {RangeError} `readArrow: <path>: <what is wrong>` when the file is truncated,
 *   corrupt, fails its checksum or is not an Arrow IPC file
 * @example
 * ```ts
 * import { readArrow } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/x.arrow`, "not arrow");
 * await expect(readArrow(`${dir}/x.arrow`)).rejects.toThrow(/x\.arrow: is not an Arrow IPC file/);
 * ```
 */
export async function readArrow(path: string): Promise<A.Table> {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`readArrow: path is ${String(path)}, must be a non-empty string`);
  }
  regularFile("readArrow", path); // before reading: reading a FIFO blocks
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error(`readArrow: ${path}: does not exist`);
    }
    throw new Error(`readArrow: ${path}: cannot be read: ${(e as Error).message}`);
  }
  return decodeFile("readArrow", bytes, path);
}

/**
 * Decodes Arrow IPC file bytes with the checks of {@link readArrow}.
 *
 * @param bytes the file's bytes
 * @param label what to call them in error messages @default "<bytes>"
 * @returns the table (less the checksum key in its metadata)
 * @throws {TypeError} when `bytes` is not a Uint8Array
 * @throws {RangeError} `tableFromBytes: <label>: <what is wrong>`
 * @example
 * ```ts
 * import * as A from "apache-arrow";
 * import { tableFromBytes } from "./io.ts";
 * import { expect } from "expect";
 * const bytes = A.tableToIPC(A.tableFromArrays({ x: new Int32Array([4, 5]) }), "file");
 * expect([...tableFromBytes(bytes).getChild("x")!]).toEqual([4, 5]);
 * expect(() => tableFromBytes(bytes.subarray(0, 100), "cut")).toThrow(/^tableFromBytes: cut: is truncated/);
 * ```
 */
export function tableFromBytes(bytes: Uint8Array, label = "<bytes>"): A.Table {
  return decodeFile("tableFromBytes", bytes, label);
}

function decodeFile(where: string, bytes: Uint8Array, label: string): A.Table {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`${where}: bytes is ${typeof bytes}, must be a Uint8Array`);
  }
  const prefix = `${where}: ${label}`;
  const layout = checkArrowFile(bytes, prefix);
  let table: A.Table;
  try {
    table = A.tableFromIPC(bytes);
  } catch (e) {
    throw new RangeError(`${prefix}: apache-arrow cannot decode it: ${(e as Error).message}`);
  }
  if (
    table.numRows !== layout.rows || table.numCols !== layout.columns ||
    table.batches.length !== layout.batches
  ) {
    throw new RangeError(
      `${prefix}: decoded ${table.batches.length} batches, ${table.numRows} rows and ` +
        `${table.numCols} columns, the file has ${layout.batches}, ${layout.rows} and ${layout.columns}`,
    );
  }
  table.schema.metadata.delete(CHECKSUM_KEY);
  return table;
}
