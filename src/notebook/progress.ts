/**
 * Progress for long runs in a notebook: the shared {@link Progress} display (from
 * `src/math/progress.ts`, the one every simulator's `run` uses) and `runWithProgress`, a run
 * loop with a periodic callback.
 *
 * @module
 */

import { Progress, PROGRESS_KEYS, type ProgressOptions } from "../math/progress.ts";
import { options as checkOptions, positiveInteger } from "../math/validate.ts";

export { Progress, type ProgressOptions };

/** Something that steps: a sphere3d `World` or a star2d system. */
export interface Steppable {
  /** Advances one step. */
  step(): void;
}

/**
 * Runs `steps` steps of a world or system with a {@link Progress} display and an optional
 * callback every `every` steps (e.g. to record statistics or frames).
 *
 * @param sim a `World` (sphere3d) or a star2d system: anything with `step()`
 * @param steps number of steps
 * @param options label, callback, interval
 * @returns resolves when done (after the last display update)
 * @throws {RangeError} when `steps` is not a non-negative integer
 * @example
 * ```ts
 * import { runWithProgress } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * let n = 0;
 * await runWithProgress({ step: () => n++ }, 50, { every: 10, onEvery: () => {}, mode: "none" });
 * expect(n).toBe(50);
 * ```
 */
export async function runWithProgress(
  sim: Steppable,
  steps: number,
  options: ProgressOptions & {
    /** Call `onEvery` after every this many steps. @default 100 */
    every?: number;
    /** Callback with the number of steps done in this run. */
    onEvery?: (done: number) => void;
    /** Status text for the progress line. */
    status?: () => string;
  } = {},
): Promise<void> {
  if (!Number.isInteger(steps) || steps < 0) {
    throw new RangeError(`runWithProgress: steps is ${steps}, must be a non-negative integer`);
  }
  if (typeof sim?.step !== "function") {
    throw new TypeError(`runWithProgress: sim must have a step() method`);
  }
  const where = "runWithProgress";
  options = checkOptions(where, "options", options, [
    ...PROGRESS_KEYS,
    "every",
    "onEvery",
    "status",
  ]);
  const every = positiveInteger(where, "options.every", options.every ?? 100);
  for (const k of ["onEvery", "status"] as const) {
    if (options[k] !== undefined && typeof options[k] !== "function") {
      throw new TypeError(`${where}: options.${k} (${String(options[k])}) must be a function`);
    }
  }
  if (steps === 0) return;
  const { label, interval, mode } = options;
  const p = new Progress(steps, { label, interval, mode });
  for (let k = 1; k <= steps; k++) {
    sim.step();
    if (k % every === 0 || k === steps) {
      options.onEvery?.(k);
      p.update(k, options.status?.());
    }
  }
  await p.done(options.status?.());
}
