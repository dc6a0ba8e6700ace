/**
 * scripts/stage_verdict.ts: a stage is rerun only when the process died of a crash signal
 * after the runner had reported every test as passed.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { crashedAfterPassing, testSummaries } from "../scripts/stage_verdict.ts";

const OK = "running 20 tests\nok | 20 passed | 0 failed (10s)\n";
const ABORT = { success: false, code: 134, signal: "SIGABRT" };

describe("crashedAfterPassing", () => {
  it("is true for an abort after an all-passed summary (signal or shell code)", () => {
    expect(crashedAfterPassing(OK + "corrupted size vs. prev_size in fastbins\n", ABORT)).toBe(
      true,
    );
    expect(crashedAfterPassing(OK, { success: false, code: 139, signal: null })).toBe(true);
    expect(crashedAfterPassing(OK, { success: false, code: 1, signal: "SIGSEGV" })).toBe(true);
  });
  it("is false for a clean exit, a plain failure exit or a non-crash signal", () => {
    expect(crashedAfterPassing(OK, { success: true, code: 0, signal: null })).toBe(false);
    expect(crashedAfterPassing(OK, { success: false, code: 1, signal: null })).toBe(false);
    expect(crashedAfterPassing(OK, { success: false, code: 143, signal: "SIGTERM" })).toBe(false);
    expect(crashedAfterPassing(OK, { success: false, code: 137, signal: "SIGKILL" })).toBe(false);
  });
  it("is false when a test failed, none ran, or the summary is missing or repeated", () => {
    const failed = "FAILED | 19 passed | 1 failed (10s)\n";
    expect(crashedAfterPassing(failed, ABORT)).toBe(false);
    expect(crashedAfterPassing("ok | 0 passed | 0 failed (0ms)\n", ABORT)).toBe(false);
    expect(crashedAfterPassing("running 20 tests\ncorrupted size\n", ABORT)).toBe(false);
    expect(crashedAfterPassing(OK + failed, ABORT)).toBe(false);
  });
  it("reads summaries with step counts", () => {
    const steps = "ok | 3 passed (12 steps) | 0 failed (1s)\n";
    expect(crashedAfterPassing(steps, ABORT)).toBe(true);
  });
});

describe("testSummaries", () => {
  it("reads verdict and counts, steps where counted, in order", () => {
    const text =
      "FAILED | 19 passed | 1 failed (10s)\nok | 3 passed (12 steps) | 0 failed (2 steps)\n";
    expect(testSummaries(text)).toEqual([
      { ok: false, passed: 19, failed: 1 },
      { ok: true, passed: 12, failed: 2 },
    ]);
    expect(testSummaries("no summary here")).toEqual([]);
  });
});
