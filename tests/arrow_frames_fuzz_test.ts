// Damaged `.arrows` streams (issue #29): a stream of 8 frames, every byte flipped (xor 0xff)
// and zeroed. Each read must give back exactly the frames written, or the frames before the
// damage with the damage reported (corrupt or truncated), or a clear error naming the file —
// never a silently different frame, never a hang, never a raw error from the internals. Reads
// run in workers; one that takes longer than READ_TIMEOUT_MS fails the test with its case.
import { describe, it } from "node:test";
import { expect } from "expect";
import { FrameWriter } from "../src/arrow/mod.ts";
import { type FramesFuzzJob, type FramesFuzzResult, readAll } from "./arrow_frames_fuzz_worker.ts";
import { fuzzInWorkers } from "./fuzz_workers.ts";

/** Longest one read may take before the test calls it a hang (ms). */
const READ_TIMEOUT_MS = 10_000;
/** Longest a worker may take to load (it is type-checked on first use) (ms). */
const STARTUP_MS = 120_000;
const WORKERS = 2;
const FRAMES = 8;

/** The stream: FRAMES frames of 2 grains, written by FrameWriter. */
async function stream(dir: string): Promise<Uint8Array> {
  const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
  const s = {
    count: 2,
    positions: new Float64Array([0, 0, 1, 0.5, 0, 1]),
    velocities: new Float64Array(6),
  };
  for (let k = 0; k < FRAMES; k++) {
    s.positions[2] = 1 - k / 16;
    s.velocities[5] = -k / 4;
    await w.write(s, { time: k / 100 });
  }
  await w.close();
  return await Deno.readFile(`${dir}/run.arrows`);
}

/** Runs the cases in workers; returns one result per case, in order. Fails on a hang. */
function fuzz(bytes: Uint8Array, cases: FramesFuzzJob["cases"]): Promise<FramesFuzzResult[]> {
  return fuzzInWorkers<FramesFuzzJob["cases"][number], FramesFuzzResult>(
    new URL("./arrow_frames_fuzz_worker.ts", import.meta.url),
    cases,
    (mine, dir) => ({ bytes, cases: mine, dir }) satisfies FramesFuzzJob,
    { workers: WORKERS, caseTimeoutMs: READ_TIMEOUT_MS, startupMs: STARTUP_MS },
  );
}

describe("readFrames on a damaged stream (every byte flipped and zeroed)", () => {
  it("gives the frames written, or the frames before the damage and a report, or a clear error", async () => {
    const dir = await Deno.makeTempDir();
    const bytes = await stream(dir);
    const original = await readAll(`${dir}/run.arrows`);
    await Deno.remove(dir, { recursive: true });
    expect(original.frames).toHaveLength(FRAMES);
    expect([original.truncated, original.corrupt]).toEqual([false, false]);

    const cases: FramesFuzzJob["cases"] = [];
    for (let at = 0; at < bytes.length; at++) {
      cases.push({ at, op: "flip" });
      if (bytes[at] !== 0) cases.push({ at, op: "zero" });
    }
    const t0 = performance.now();
    const results = await fuzz(bytes, cases);
    const seconds = (performance.now() - t0) / 1000;

    const silent: unknown[] = [], unclear: unknown[] = [], unreported: unknown[] = [];
    const tally = { same: 0, reported: 0, error: 0 };
    results.forEach((r, k) => {
      const c = cases[k];
      if (r.error !== undefined) {
        tally.error++;
        // Only before the first frame (nothing to return): a RangeError naming the file.
        if (!/^RangeError: readFrames: \/.*case\.arrows: /.test(r.error)) {
          unclear.push([c, r.error]);
        }
        return;
      }
      const frames = r.frames!;
      const same = frames.length === FRAMES &&
        frames.every((f, j) => f === original.frames![j]);
      if (same && !r.corrupt && !r.truncated) {
        tally.same++;
        return;
      }
      // Anything else must be the frames before the damage, reported.
      if (!frames.every((f, j) => f === original.frames![j])) silent.push([c, frames.length]);
      else if (r.corrupt !== true && r.truncated !== true) unreported.push([c, frames.length]);
      else if (r.corrupt && !r.why!.includes(`case.arrows: frame ${frames.length} (message at`)) {
        unclear.push([c, r.why]); // the report names the file and the damaged frame
      } else tally.reported++;
    });
    console.log(
      `  ${bytes.length} bytes, ${cases.length} cases in ${seconds.toFixed(1)} s:`,
      tally,
      { silent: silent.length, unreported: unreported.length, unclear: unclear.length },
    );
    expect(silent).toEqual([]);
    expect(unreported).toEqual([]);
    expect(unclear).toEqual([]);
  });
});
