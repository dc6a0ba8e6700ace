/**
 * Byte-array helpers shared by the file writers (Arrow streams, GIF): {@link concatBytes}
 * joins chunks. No dependencies, so that any part may use it.
 *
 * @module
 */

/**
 * Joins byte arrays into one new array, in order.
 *
 * @param parts the chunks (left unchanged)
 * @returns a new array holding every chunk, one after the other
 * @example
 * ```ts
 * import { concatBytes } from "./bytes.ts";
 * import { expect } from "expect";
 * const joined = concatBytes([Uint8Array.of(1, 2), new Uint8Array(0), Uint8Array.of(3)]);
 * expect([...joined]).toEqual([1, 2, 3]);
 * expect(concatBytes([]).length).toBe(0);
 * ```
 */
export function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((s, p) => s + p.length, 0));
  let off = 0;
  for (const p of parts) {
    out.set(p, off);
    off += p.length;
  }
  return out;
}
