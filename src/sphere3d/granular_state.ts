/**
 * The checkpoint plumbing of `GranularSystem`: writing a system's state to a file or to bytes,
 * loading it back, and turning an exported particles table into a checked state. The encoding,
 * decoding and checks themselves live in `checkpoint.ts`; the class keeps the documented
 * methods and calls these with its core. Internal: not re-exported.
 *
 * @module
 */

import type { GranularCore } from "./core.ts";
import {
  applyGranularState,
  captureState,
  checkState,
  decodeGranularState,
  encodeGranularState,
  type GranularState,
  type ParticleTableLike,
  SAVE_KEYS,
  type SaveStateOptions,
  stateFromTable,
} from "./checkpoint.ts";
import { notRegular, writeFileAtomicSync } from "../math/container.ts";
import { type Material, resolveMaterial } from "./material.ts";
import { bool, options as checkOptions } from "../math/validate.ts";

/**
 * `GranularSystem.saveGranularState`: check the path, encode the state and write it
 * atomically; errors name `saveGranularState` and the path.
 * @internal
 */
export function saveGranularState(
  c: GranularCore,
  path: string,
  options: SaveStateOptions,
): void {
  const w = "saveGranularState";
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`${w}: path (${String(path)}) must be a non-empty string`);
  }
  const bytes = granularStateBytes(c, options);
  let info: Deno.FileInfo | null = null;
  try {
    info = Deno.statSync(path);
  } catch { /* a new file */ }
  // a folder fails obscurely; a FIFO or a device would be replaced by a file
  if (info !== null && !info.isFile) throw new TypeError(`${w}: ${path}: ${notRegular(info)}`);
  try {
    writeFileAtomicSync(path, bytes);
  } catch (e) {
    throw new Error(`${w}: ${path}: cannot write the file (${(e as Error).message})`, {
      cause: e,
    });
  }
}

/** `GranularSystem.granularStateBytes`: check the options and encode the state. @internal */
export function granularStateBytes(
  c: GranularCore,
  options: SaveStateOptions,
): Uint8Array {
  const o = checkOptions<SaveStateOptions>(
    "saveGranularState",
    "options",
    options,
    SAVE_KEYS,
  );
  const h = bool("saveGranularState", "includeContactHistories", o.includeContactHistories, true);
  return encodeGranularState(captureState(c, h));
}

/**
 * Decode checkpoint `bytes` into the core (all or nothing; errors start with `where`) and wake
 * every grain: pool sleep is not in checkpoints.
 * @internal
 */
export function loadGranularState(c: GranularCore, bytes: Uint8Array, where: string): void {
  applyGranularState(c, decodeGranularState(bytes, where), where);
  c.sleep.clear(); // pool sleep is not in checkpoints: every loaded grain is awake
}

/**
 * The checked state of `GranularSystem.fromTable`: the material is `material`, else the
 * table's `grainlab.material` metadata, else the defaults. Every check runs here, before the
 * caller changes any world.
 * @internal
 */
export function stateOfTable(
  where: string,
  table: ParticleTableLike,
  material: Partial<Material> | undefined,
): GranularState {
  let m: Partial<Material> = material ?? {};
  if (material === undefined) {
    const json = table?.schema?.metadata?.get("grainlab.material");
    if (json !== undefined) {
      try {
        m = JSON.parse(json);
      } catch (e) {
        throw new RangeError(
          `${where}: the table's grainlab.material metadata is not JSON (${(e as Error).message})`,
        );
      }
    }
  }
  const state = stateFromTable(where, table, resolveMaterial(m, where));
  checkState(where, state); // every check runs before the world changes
  return state;
}
