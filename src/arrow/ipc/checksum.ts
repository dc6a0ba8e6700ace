/**
 * The checksum of Grainlab's Arrow files: the key it is stored under ({@link CHECKSUM_KEY}),
 * the sum ({@link crc32}, IEEE 802.3, of the bytes from the end of the schema message to the
 * start of the footer) and its text ({@link hex8}). `checkArrowFile` (file.ts) verifies it,
 * `sealArrowFile` (seal.ts) writes it.
 *
 * @module
 */

export { crc32 } from "../../math/container.ts";

/** Schema metadata key of the checksum that {@link writeArrow} stores (8 hex digits). */
export const CHECKSUM_KEY = "grainlab.crc32";

/**
 * `crc` as the eight lowercase hex digits stored under {@link CHECKSUM_KEY}.
 *
 * @example
 * ```ts
 * import { crc32, hex8 } from "./checksum.ts";
 * import { expect } from "expect";
 * const data = new TextEncoder().encode("123456789");
 * expect(crc32(data)).toBe(0xcbf43926);
 * expect(crc32(data, 4, 9, crc32(data, 0, 4))).toBe(0xcbf43926);
 * expect(hex8(crc32(data))).toBe("cbf43926");
 * expect(hex8(0x1f)).toBe("0000001f");
 * ```
 */
export function hex8(crc: number): string {
  return crc.toString(16).padStart(8, "0");
}
