/**
 * How `scripts/test.ts` reads a test stage's end: whether a process that a signal killed had
 * already reported every test as passed. Mesa's software Vulkan (lavapipe) now and then aborts
 * the WebGPU doc-example process at exit, while the runtime tears the device down ("corrupted
 * size vs. prev_size in fastbins", SIGABRT), after the runner printed `ok | 20 passed | 0
 * failed`. Such a stage is rerun once, loudly; a second crash, a failed test or a missing
 * summary stays a failure.
 *
 * @module
 */

/** The end of a stage's process, as `Deno.Command#output()` reports it. */
export interface StageEnd {
  /** Whether the process exited with code 0. */
  success: boolean;
  /** The exit code (128 + the signal's number when a signal killed it). */
  code: number;
  /** The signal that killed the process, or `null`. */
  signal: string | null;
}

/** Signals a native library's crash at teardown raises. */
const CRASH_SIGNALS = new Set(["SIGABRT", "SIGSEGV", "SIGBUS"]);
/** 128 + SIGABRT (6), SIGBUS (7), SIGSEGV (11): how a shell reports the same deaths. */
const CRASH_CODES = new Set([134, 135, 139]);

/**
 * Whether the stage's runner reported every test as passed (`ok | N passed | 0 failed`, N > 0)
 * and the process then died of a crash signal: a crash after the tests, not a failed test.
 *
 * @param text The stage's stdout and stderr.
 * @param end How the process ended.
 * @returns `true` only for a crash after an all-passed summary.
 * @example
 * ```ts
 * import { crashedAfterPassing } from "./stage_verdict.ts";
 * const text = "ok | 20 passed | 0 failed (10s)\ncorrupted size vs. prev_size in fastbins\n";
 * if (!crashedAfterPassing(text, { success: false, code: 134, signal: "SIGABRT" })) {
 *   throw new Error("an abort after an all-passed summary is a crash after the tests");
 * }
 * ```
 */
export function crashedAfterPassing(text: string, end: StageEnd): boolean {
  if (end.success) return false;
  const crashed = (end.signal !== null && CRASH_SIGNALS.has(end.signal)) ||
    CRASH_CODES.has(end.code);
  if (!crashed) return false;
  const summaries = [...text.matchAll(/(ok|FAILED) \| (\d+) passed[^|\n]*\| (\d+) failed/g)];
  if (summaries.length !== 1) return false;
  const [, verdict, passed, failed] = summaries[0];
  return verdict === "ok" && Number(passed) > 0 && Number(failed) === 0;
}
