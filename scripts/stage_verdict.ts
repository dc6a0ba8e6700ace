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

/** A test runner's summary line: `ok | 3 passed (12 steps) | 0 failed (1s)`. */
const SUMMARY =
  /(ok|FAILED) \| (\d+) passed(?: \((\d+) steps?\))? \| (\d+) failed(?: \((\d+) steps?\))?/g;

/** One summary line of `deno test`, counting steps where the runner counts them. */
export interface TestSummary {
  /** Whether the runner said `ok` (else `FAILED`). */
  ok: boolean;
  /** Tests (or steps) passed. */
  passed: number;
  /** Tests (or steps) failed. */
  failed: number;
}

/**
 * Every `deno test` summary line in a stage's output, in order.
 *
 * @param text The stage's stdout and stderr.
 * @returns The summaries; steps counted where the runner counts them.
 * @example
 * ```ts
 * import { testSummaries } from "./stage_verdict.ts";
 * const [s] = testSummaries("ok | 3 passed (12 steps) | 0 failed (1s)");
 * if (s.passed !== 12 || s.failed !== 0 || !s.ok) throw new Error("steps are what is counted");
 * ```
 */
export function testSummaries(text: string): TestSummary[] {
  return [...text.matchAll(SUMMARY)].map((m) => ({
    ok: m[1] === "ok",
    passed: Number(m[3] ?? m[2]),
    failed: Number(m[5] ?? m[4]),
  }));
}

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
  const summaries = testSummaries(text);
  if (summaries.length !== 1) return false;
  const { ok, passed, failed } = summaries[0];
  return ok && passed > 0 && failed === 0;
}
