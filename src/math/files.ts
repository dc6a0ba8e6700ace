/**
 * File helpers shared by the savers (world XML, VTK, LAMMPS, Arrow): an atomic write and exact
 * number text (the CRC-32 lives in `container.ts`). No dependencies, so that any part may use them. Internal (not re-exported
 * from the package root).
 *
 * @module
 */

/**
 * Write `bytes` to `path` atomically: a temporary file in the same folder, flushed to disk,
 * then renamed over `path`. A reader sees the old file or the new one, never a part. Creates
 * missing parent folders. On failure the temporary file is removed and `path` is untouched.
 *
 * @param path destination file
 * @param bytes the content
 * @param where the caller, for error messages @default "writeFileAtomic"
 * @throws {TypeError} when `path` is not a non-empty string or `bytes` not a Uint8Array
 * @throws {Error} `<where>: <path>: is not a regular file (a directory) …` when something
 *   other than a file is in the way, `<where>: <path>: cannot be written (<why>)` (the
 *   operating system's error as `cause`) when the write fails
 * @example
 * ```ts
 * import { writeFileAtomic } from "./files.ts";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/sub/a.txt`, new TextEncoder().encode("hi"));
 * expect(await Deno.readTextFile(`${dir}/sub/a.txt`)).toBe("hi");
 * expect([...Deno.readDirSync(`${dir}/sub`)].map((e) => e.name)).toEqual(["a.txt"]);
 * await expect(writeFileAtomic(`${dir}/sub`, new Uint8Array(1), "demo")).rejects
 *   .toThrow(`demo: ${dir}/sub: is not a regular file (a directory)`);
 * ```
 */
export async function writeFileAtomic(
  path: string,
  bytes: Uint8Array,
  where = "writeFileAtomic",
): Promise<void> {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`${where}: path (${String(path)}) must be a non-empty string`);
  }
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`${where}: bytes (${typeof bytes}) must be a Uint8Array`);
  }
  const old = await Deno.lstat(path).catch(() => null);
  if (old !== null && !old.isFile && !old.isSymlink) {
    throw new Error(
      `${where}: ${path}: is not a regular file (${fileKind(old)}); give the path of a file`,
    );
  }
  const tmp = `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
    const slash = path.lastIndexOf("/");
    if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
    const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
    try {
      let off = 0;
      while (off < bytes.length) off += await file.write(bytes.subarray(off));
      await file.syncData();
    } finally {
      file.close();
    }
    await Deno.rename(tmp, path);
  } catch (e) {
    await Deno.remove(tmp).catch(() => {});
    throw new Error(`${where}: ${path}: cannot be written (${(e as Error).message})`, {
      cause: e,
    });
  }
}

/**
 * What a file that is not a regular file is, for error messages: "a directory", "a FIFO" …
 *
 * @example
 * ```ts
 * import { fileKind } from "./files.ts";
 * import { expect } from "expect";
 * expect(fileKind(await Deno.stat(await Deno.makeTempDir()))).toBe("a directory");
 * ```
 */
export function fileKind(info: Deno.FileInfo): string {
  if (info.isFile) return "a regular file";
  if (info.isDirectory) return "a directory";
  if (info.isSymlink) return "a symbolic link";
  if (info.isFifo) return "a FIFO";
  if (info.isSocket) return "a socket";
  if (info.isCharDevice) return "a character device";
  if (info.isBlockDevice) return "a block device";
  return "not a regular file";
}

/**
 * Checks, before a reader opens `path`, that it is a regular file — opening a FIFO blocks
 * until a writer comes, reading a device may never end. Throws an Error
 * `<where>: <path>: does not exist`, `… cannot be read: …` or
 * `… is not a regular file (a FIFO); give the path of a file`.
 *
 * @param where the caller, for error messages
 * @param path the file
 * @returns its size in bytes
 * @example
 * ```ts
 * import { regularFile } from "./files.ts";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/a.txt`, "hi");
 * expect(regularFile("demo", `${dir}/a.txt`)).toBe(2);
 * expect(() => regularFile("demo", dir)).toThrow(/is not a regular file \(a directory\)/);
 * expect(() => regularFile("demo", `${dir}/none`)).toThrow(/none: does not exist/);
 * ```
 */
export function regularFile(where: string, path: string): number {
  let info: Deno.FileInfo;
  try {
    info = Deno.statSync(path);
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new Error(`${where}: ${path}: does not exist`);
    throw new Error(`${where}: ${path}: cannot be read: ${(e as Error).message}`);
  }
  if (!info.isFile) {
    throw new Error(
      `${where}: ${path}: is not a regular file (${fileKind(info)}); give the path of a file`,
    );
  }
  return info.size;
}

/**
 * The shortest decimal text that reads back as exactly `x` (JavaScript's own number to
 * string conversion), keeping the sign of -0, which `String(-0)` drops.
 *
 * @example
 * ```ts
 * import { exactNumber } from "./files.ts";
 * import { expect } from "expect";
 * expect(exactNumber(0.1)).toBe("0.1");
 * expect(exactNumber(-0)).toBe("-0");
 * expect(exactNumber(1e21)).toBe("1e+21");
 * expect(Number(exactNumber(5e-324))).toBe(5e-324);
 * ```
 */
export function exactNumber(x: number): string {
  return Object.is(x, -0) ? "-0" : String(x);
}
