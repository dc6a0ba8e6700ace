/**
 * The Grainlab version, kept equal to `deno.json`'s.
 *
 * @example
 * ```ts
 * import { VERSION } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(VERSION).toMatch(/^\d+\.\d+\.\d+$/);
 * ```
 */
export const VERSION = "0.1.0";
