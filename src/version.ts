/**
 * The Grainlab version, kept equal to `deno.json`'s.
 *
 * @example
 * ```ts
 * import { VERSION } from "@grainlab/grainlab";
 * console.assert(/^\d+\.\d+\.\d+$/.test(VERSION));
 * ```
 */
export const VERSION = "0.1.0";
