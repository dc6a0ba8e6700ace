/**
 * Arrow IPC files: atomic `writeArrow` and defensive `readArrow`.
 *
 * @module
 */

import * as A from "apache-arrow";

const MAGIC = new TextEncoder().encode("ARROW1");

/**
 * Writes bytes to `path` atomically: a temporary file in the same folder, then a rename.
 * Creates missing parent folders.
 *
 * @param path destination file
 * @param bytes the content
 * @example
 * ```ts
 * import { writeFileAtomic } from "@grainlab/grainlab/arrow";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/a.bin`, new Uint8Array([1, 2]));
 * console.assert((await Deno.readFile(`${dir}/a.bin`)).length === 2);
 * ```
 */
export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`writeFileAtomic: path is ${String(path)}, must be a non-empty string`);
  }
  const slash = path.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
  const tmp = `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    await Deno.writeFile(tmp, bytes);
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Writes a table as an Arrow IPC **file** (magic `ARROW1`, footer), atomically.
 *
 * @param path destination, conventionally ending in `.arrow`
 * @param table the table (from `particlesTable`, `contactsTable`, …)
 * @returns the number of bytes written
 * @throws {TypeError} when `table` is not an Arrow table
 * @example
 * ```ts
 * import { particlesTable, readArrow, writeArrow } from "@grainlab/grainlab/arrow";
 * const dir = await Deno.makeTempDir();
 * const t = particlesTable({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] });
 * await writeArrow(`${dir}/p.arrow`, t);
 * console.assert((await readArrow(`${dir}/p.arrow`)).getChild("z")!.get(0) === 1);
 * ```
 */
export async function writeArrow(path: string, table: A.Table): Promise<number> {
  if (!(table instanceof A.Table)) {
    throw new TypeError(`writeArrow: table is ${typeof table}, must be an apache-arrow Table`);
  }
  const bytes = A.tableToIPC(table, "file");
  await writeFileAtomic(path, bytes);
  return bytes.length;
}

/**
 * Reads an Arrow IPC file written by {@link writeArrow} (or any Arrow IPC file).
 *
 * @param path the file
 * @returns the table, with its field and schema metadata
 * @throws {Error} with the path and the reason when the file is missing, truncated or not an
 *   Arrow IPC file
 * @example
 * ```ts
 * import { readArrow } from "@grainlab/grainlab/arrow";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/x.arrow`, "not arrow");
 * let message = "";
 * try { await readArrow(`${dir}/x.arrow`); } catch (e) { message = String(e); }
 * console.assert(message.includes("not an Arrow IPC file"));
 * ```
 */
export async function readArrow(path: string): Promise<A.Table> {
  let bytes: Uint8Array;
  try {
    bytes = await Deno.readFile(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) {
      throw new Error(`readArrow: ${path} does not exist`);
    }
    throw new Error(`readArrow: cannot read ${path}: ${(e as Error).message}`);
  }
  return tableFromBytes(bytes, path);
}

/** Parses IPC file bytes, checking magic and footer first. */
export function tableFromBytes(bytes: Uint8Array, label = "<bytes>"): A.Table {
  const startsWith = (off: number) => MAGIC.every((b, k) => bytes[off + k] === b);
  if (bytes.length < 6 || !startsWith(0)) {
    throw new Error(
      `readArrow: ${label} is not an Arrow IPC file (no ARROW1 magic at the start; ${bytes.length} bytes)`,
    );
  }
  if (bytes.length < 12 + 8 || !startsWith(bytes.length - 6)) {
    throw new Error(
      `readArrow: ${label} is truncated (${bytes.length} bytes, no ARROW1 magic at the end)`,
    );
  }
  const footerLen = new DataView(bytes.buffer, bytes.byteOffset + bytes.length - 10, 4)
    .getInt32(0, true);
  if (footerLen <= 0 || footerLen > bytes.length - 18) {
    throw new Error(`readArrow: ${label} is corrupt (footer length ${footerLen})`);
  }
  try {
    return A.tableFromIPC(bytes);
  } catch (e) {
    throw new Error(`readArrow: ${label} is corrupt: ${(e as Error).message}`);
  }
}
