/**
 * File helpers shared by the savers (world XML, VTK, checkpoints): an atomic write and the
 * CRC-32 checksum. No dependencies, so that any part may use them. Internal (not re-exported
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
 * @throws {TypeError} when `path` is not a non-empty string or `bytes` not a Uint8Array
 * @example
 * ```ts
 * import { writeFileAtomic } from "./files.ts";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * await writeFileAtomic(`${dir}/sub/a.txt`, new TextEncoder().encode("hi"));
 * expect(await Deno.readTextFile(`${dir}/sub/a.txt`)).toBe("hi");
 * expect([...Deno.readDirSync(`${dir}/sub`)].map((e) => e.name)).toEqual(["a.txt"]);
 * ```
 */
export async function writeFileAtomic(path: string, bytes: Uint8Array): Promise<void> {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`writeFileAtomic: path (${String(path)}) must be a non-empty string`);
  }
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`writeFileAtomic: bytes (${typeof bytes}) must be a Uint8Array`);
  }
  const slash = path.lastIndexOf("/");
  if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
  const tmp = `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
  try {
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
    throw e;
  }
}

const CRC_TABLE: Uint32Array = (() => {
  const t = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    t[n] = c >>> 0;
  }
  return t;
})();

/**
 * CRC-32 (IEEE 802.3, as in zlib and PNG) of `bytes`, continuing from `crc` (a previous
 * result) so that long inputs can be summed in pieces. It detects every change of one byte
 * and every burst of changed bits up to 32 bits long.
 *
 * @param bytes the data
 * @param crc the CRC of the bytes before these @default 0
 * @returns the CRC as an unsigned 32-bit integer
 * @example
 * ```ts
 * import { crc32 } from "./files.ts";
 * import { expect } from "expect";
 * const data = new TextEncoder().encode("123456789");
 * expect(crc32(data)).toBe(0xcbf43926);
 * expect(crc32(data.subarray(4), crc32(data.subarray(0, 4)))).toBe(0xcbf43926);
 * ```
 */
export function crc32(bytes: Uint8Array, crc = 0): number {
  const t = CRC_TABLE;
  let c = ~crc;
  for (let i = 0; i < bytes.length; i++) c = t[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return ~c >>> 0;
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
