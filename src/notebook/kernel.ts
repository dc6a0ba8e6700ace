/**
 * Kernel detection: `Deno.jupyter` exists only under `deno jupyter`; everything else in
 * Grainlab checks here first and never touches it outside a kernel.
 *
 * @module
 */

/** Media bundle as Jupyter expects it: MIME type → content. */
export type MediaBundle = Record<string, string | object>;

/** The subset of `Deno.jupyter` Grainlab uses. */
export interface JupyterApi {
  /** Displays a value or (with `raw`) a media bundle; `update` replaces the output `display_id`. */
  display(
    obj: unknown,
    options?: { raw?: boolean; update?: boolean; display_id?: string },
  ): Promise<void>;
}

let cached: JupyterApi | null | undefined;

/**
 * The kernel's Jupyter API, or `null` outside a Deno Jupyter kernel. The lookup happens once;
 * outside a kernel `Deno.jupyter` is never used.
 *
 * @returns the API or null
 * @example
 * ```ts
 * import { jupyter } from "./kernel.ts";
 * import { expect } from "expect";
 * expect(jupyter()).toBeNull(); // not in a kernel here
 * expect(jupyter()).toBe(jupyter()); // looked up once
 * ```
 */
export function jupyter(): JupyterApi | null {
  if (cached !== undefined) return cached;
  cached = null;
  try {
    // The getter throws outside `deno jupyter`.
    const api = (Deno as unknown as { jupyter?: JupyterApi }).jupyter;
    if (api && typeof api.display === "function") cached = api;
  } catch {
    cached = null;
  }
  return cached;
}

/**
 * Whether code runs inside a Deno Jupyter kernel.
 *
 * @returns true in a kernel
 * @example
 * ```ts
 * import { inNotebook } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * expect(inNotebook()).toBe(false); // `deno test`, not `deno jupyter`
 * ```
 */
export function inNotebook(): boolean {
  return jupyter() !== null;
}
