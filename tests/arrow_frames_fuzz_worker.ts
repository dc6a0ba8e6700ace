// Worker of tests/arrow_frames_fuzz_test.ts: reads damaged `.arrows` streams with readFrames,
// one case at a time, and posts what each read gave before starting the next, so that the
// test can time every read.
import { readFrames } from "../src/arrow/mod.ts";
import { tableSignature } from "./arrow_fixtures.ts";

/** What the test sends: the stream's bytes, the cases and a folder for the damaged copies. */
export interface FramesFuzzJob {
  bytes: Uint8Array;
  /** Byte positions and what to do there: "flip" (xor 0xff) or "zero". */
  cases: { at: number; op: "flip" | "zero" }[];
  dir: string;
}

/** What one read gave. */
export interface FramesFuzzResult {
  index: number;
  /** The error's class and message, when the read threw. */
  error?: string;
  /** The frames read (frame, time and table signature of each). */
  frames?: string[];
  /** What the reader reported once done. */
  truncated?: boolean;
  corrupt?: boolean;
  /** Its explanation (truncation or corruption). */
  why?: string;
}

/** Reads the frames of `path` and what the reader reports. */
export async function readAll(path: string): Promise<Omit<FramesFuzzResult, "index">> {
  const reader = readFrames(path);
  const frames: string[] = [];
  for await (const f of reader) frames.push(`${f.frame}|${f.time}|${tableSignature(f.table)}`);
  const r = reader as unknown as { corrupt?: boolean; corruption?: string };
  return {
    frames,
    truncated: reader.truncated,
    corrupt: r.corrupt,
    why: r.corruption ?? reader.truncation,
  };
}

// The worker's global scope (this file is type-checked with the window's lib).
const scope = self as unknown as {
  onmessage: (e: MessageEvent<FramesFuzzJob>) => void;
  postMessage(message: FramesFuzzResult | { ready: true }): void;
};

scope.onmessage = async (e: MessageEvent<FramesFuzzJob>) => {
  const job = e.data;
  const path = `${job.dir}/case.arrows`;
  scope.postMessage({ ready: true });
  for (let index = 0; index < job.cases.length; index++) {
    const c = job.cases[index];
    const bytes = job.bytes.slice();
    bytes[c.at] = c.op === "flip" ? bytes[c.at] ^ 0xff : 0;
    let result: FramesFuzzResult;
    try {
      await Deno.writeFile(path, bytes);
      result = { index, ...await readAll(path) };
    } catch (err) {
      const name = err instanceof Error ? err.constructor.name : typeof err;
      result = { index, error: `${name}: ${(err as Error)?.message ?? err}` };
    }
    scope.postMessage(result);
  }
};
