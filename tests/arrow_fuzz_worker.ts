// Worker of tests/arrow_fuzz_test.ts: reads damaged Arrow bytes, one case at a time, and posts
// the outcome of each read before starting the next, so that the test can time every read.
import { readFrames } from "../src/arrow/mod.ts";
import { tableFromBytes } from "../src/arrow/io.ts";
import { tableSignature } from "./arrow_fixtures.ts";

/** One damaged copy: `bytes[at]` replaced by `op(bytes[at])`, or `bytes` cut to `cut` bytes. */
export interface FuzzCase {
  /** Byte to change (mutation cases). */
  at?: number;
  /** Mutation: "zero", "ones", "flip" (xor 1) or "inc" (+1 mod 256). */
  op?: "zero" | "ones" | "flip" | "inc";
  /** Length to cut the bytes to (truncation cases). */
  cut?: number;
}

/** What the test sends: the bytes, how to read them, and the cases. */
export interface FuzzJob {
  /** "file": tableFromBytes; "stream": readFrames on a file in `dir`. */
  reader: "file" | "stream";
  bytes: Uint8Array;
  cases: FuzzCase[];
  /** Folder for the stream cases' files. */
  dir?: string;
}

/** The outcome of one case. */
export interface FuzzResult {
  index: number;
  /** "error": threw an Error; "same": read back the original; "different": anything else. */
  outcome: "error" | "same" | "different";
  /** The error's class and message, or what was read. */
  detail: string;
  /** Stream reads: the frames read and whether the reader said `truncated`. */
  frames?: string[];
  truncated?: boolean;
}

const OPS = {
  zero: () => 0,
  ones: () => 0xff,
  flip: (v: number) => v ^ 1,
  inc: (v: number) => (v + 1) & 0xff,
};

function damaged(bytes: Uint8Array, c: FuzzCase): Uint8Array {
  if (c.cut !== undefined) return bytes.slice(0, c.cut);
  const out = bytes.slice();
  out[c.at!] = OPS[c.op!](out[c.at!]);
  return out;
}

async function frameSignatures(path: string): Promise<{ frames: string[]; truncated: boolean }> {
  const reader = readFrames(path);
  const frames: string[] = [];
  for await (const f of reader) frames.push(`${f.frame}|${f.time}|${tableSignature(f.table)}`);
  return { frames, truncated: reader.truncated! };
}

// The worker's global scope (this file is type-checked with the window's lib).
const scope = self as unknown as {
  onmessage: (e: MessageEvent<FuzzJob>) => void;
  postMessage(message: FuzzResult | { ready: true }): void;
};

scope.onmessage = async (e: MessageEvent<FuzzJob>) => {
  const job = e.data;
  let reference: string;
  if (job.reader === "file") {
    reference = tableSignature(tableFromBytes(job.bytes, "case"));
  } else {
    await Deno.writeFile(`${job.dir}/reference.arrows`, job.bytes);
    reference = JSON.stringify(await frameSignatures(`${job.dir}/reference.arrows`));
  }
  scope.postMessage({ ready: true });
  for (let index = 0; index < job.cases.length; index++) {
    const bytes = damaged(job.bytes, job.cases[index]);
    let result: FuzzResult;
    try {
      if (job.reader === "file") {
        const sig = tableSignature(tableFromBytes(bytes, "case"));
        result = {
          index,
          outcome: sig === reference ? "same" : "different",
          detail: sig.slice(0, 2000),
        };
      } else {
        const path = `${job.dir}/case.arrows`;
        await Deno.writeFile(path, bytes);
        const got = await frameSignatures(path);
        result = {
          index,
          outcome: JSON.stringify(got) === reference ? "same" : "different",
          detail: `${got.frames.length} frames, truncated ${got.truncated}`,
          frames: got.frames,
          truncated: got.truncated,
        };
      }
    } catch (err) {
      const name = err instanceof Error ? err.constructor.name : typeof err;
      result = { index, outcome: "error", detail: `${name}: ${(err as Error)?.message ?? err}` };
    }
    scope.postMessage(result);
  }
};
