// Damaged Arrow files and streams: every byte changed several ways, and every truncation. Each
// read must end (within a time bound) with an error, or give back exactly what was written —
// never hang, never return something else silently. Reads run in workers; a worker that takes
// longer than READ_TIMEOUT_MS over one case fails the test with that case.
import { describe, it } from "node:test";
import { expect } from "expect";
import * as A from "apache-arrow";
import pl from "nodejs-polars";
import { FrameWriter, readFrames } from "../src/arrow/mod.ts";
import { tableFromBytes, tableToArrowFile } from "../src/arrow/io.ts";
import { foreignTable, mixedTable, tableSignature } from "./arrow_fixtures.ts";
import type { FuzzCase, FuzzJob, FuzzResult } from "./arrow_fuzz_worker.ts";
import { fuzzInWorkers } from "./fuzz_workers.ts";

/** Longest one read may take before the test calls it a hang (ms). */
const READ_TIMEOUT_MS = 10_000;
/** Longest a worker may take to load (it is type-checked on first use) (ms). */
const STARTUP_MS = 120_000;
const WORKERS = 2;
const OPS: FuzzCase["op"][] = ["zero", "ones", "flip", "inc"];

/** Every byte × every mutation that changes it. */
function mutations(bytes: Uint8Array, ops = OPS): FuzzCase[] {
  const out: FuzzCase[] = [];
  const apply = {
    zero: () => 0,
    ones: () => 0xff,
    flip: (v: number) => v ^ 1,
    inc: (v: number) => (v + 1) & 0xff,
  };
  for (let at = 0; at < bytes.length; at++) {
    for (const op of ops) if (apply[op!](bytes[at]) !== bytes[at]) out.push({ at, op });
  }
  return out;
}

/** Every length shorter than the whole. */
function truncations(bytes: Uint8Array): FuzzCase[] {
  return Array.from({ length: bytes.length }, (_, cut) => ({ cut }));
}

/** Runs the cases in workers; returns one result per case, in order. Fails on a hang. */
async function fuzz(
  reader: FuzzJob["reader"],
  bytes: Uint8Array,
  cases: FuzzCase[],
): Promise<{ case: FuzzCase; result: FuzzResult }[]> {
  const results = await fuzzInWorkers<FuzzCase, FuzzResult>(
    new URL("./arrow_fuzz_worker.ts", import.meta.url),
    cases,
    (mine, dir) => ({ reader, bytes, cases: mine, dir }) satisfies FuzzJob,
    {
      workers: WORKERS,
      caseTimeoutMs: READ_TIMEOUT_MS,
      startupMs: STARTUP_MS,
      what: `${reader} read`,
    },
  );
  return cases.map((c, k) => ({ case: c, result: results[k] }));
}

function tally(rs: { result: FuzzResult }[]): Record<string, number> {
  const t: Record<string, number> = {};
  for (const { result } of rs) t[result.outcome] = (t[result.outcome] ?? 0) + 1;
  return t;
}

describe("readArrow / tableFromBytes on damaged files", () => {
  const bytes = tableToArrowFile(mixedTable());

  it("the fuzzed file is the one written, and reads back", () => {
    expect(tableSignature(tableFromBytes(bytes))).toBe(tableSignature(mixedTable()));
    expect(bytes.length).toBeGreaterThan(3000);
  });

  it("every byte zeroed, set to 0xFF, xor 1 and +1: an error or the same table", async () => {
    const rs = await fuzz("file", bytes, mutations(bytes));
    const different = rs.filter((r) => r.result.outcome === "different");
    expect(different.map((r) => r.case)).toEqual([]);
    // Errors are RangeErrors that name the input: "tableFromBytes: case: <what is wrong>".
    const unclear = rs.filter((r) =>
      r.result.outcome === "error" && !/^RangeError: tableFromBytes: case: /.test(r.result.detail)
    );
    expect(unclear.map((r) => [r.case, r.result.detail])).toEqual([]);
    // The checksum leaves only padding and unread flatbuffer bytes without effect.
    const t = tally(rs);
    expect(t.error).toBeGreaterThan(0.8 * rs.length);
    console.log(`  ${bytes.length} bytes, ${rs.length} mutations:`, t);
  });

  it("every truncation: an error", async () => {
    const rs = await fuzz("file", bytes, truncations(bytes));
    expect(rs.filter((r) => r.result.outcome !== "error").map((r) => r.case)).toEqual([]);
    expect(rs.filter((r) => !/^RangeError: tableFromBytes: case: /.test(r.result.detail)))
      .toEqual([]);
  });

  it("the cases of issue #8: byte 8 zeroed, bytes 8–11 zeroed", () => {
    for (const [from, to] of [[8, 9], [8, 12]]) {
      const b = bytes.slice();
      b.fill(0, from, to);
      expect(() => tableFromBytes(b, "x")).toThrow(/^tableFromBytes: x: .*continuation marker/);
    }
  });
});

describe("files from another writer (apache-arrow's tableToIPC, no checksum)", () => {
  const table = foreignTable();
  const bytes = A.tableToIPC(table, "file");

  it("read back (strings, nulls, lists)", () => {
    expect(tableSignature(tableFromBytes(bytes))).toBe(tableSignature(table));
    expect(tableFromBytes(bytes).getChild("name")!.get(1)).toBe(null);
  });

  it("damaged: never hang, only RangeErrors (values may change: there is no checksum)", async () => {
    const rs = await fuzz("file", bytes, [
      ...mutations(bytes, ["ones", "flip"]),
      ...truncations(bytes),
    ]);
    const unclear = rs.filter((r) =>
      r.result.outcome === "error" && !/^RangeError: tableFromBytes: case: /.test(r.result.detail)
    );
    expect(unclear.map((r) => [r.case, r.result.detail])).toEqual([]);
    console.log(`  ${bytes.length} bytes, ${rs.length} cases:`, tally(rs));
  });
});

describe("files Polars writes (schema message, Utf8View, nulls; no checksum)", () => {
  const df = pl.DataFrame({ x: [1.5, null], s: ["a", "a string of 20 bytes"], ok: [true, null] });
  const bytes = new Uint8Array(df.writeIPC() as unknown as Uint8Array);

  it("damaged: never hang, only RangeErrors", async () => {
    expect([...tableFromBytes(bytes).getChild("s")!]).toEqual(["a", "a string of 20 bytes"]);
    const rs = await fuzz("file", bytes, [...mutations(bytes, ["flip"]), ...truncations(bytes)]);
    const unclear = rs.filter((r) =>
      r.result.outcome === "error" && !/^RangeError: tableFromBytes: case: /.test(r.result.detail)
    );
    expect(unclear.map((r) => [r.case, r.result.detail])).toEqual([]);
    console.log(`  ${bytes.length} bytes, ${rs.length} cases:`, tally(rs));
  });
});

describe("readFrames on damaged streams", () => {
  /** A 2-frame stream of one particle and the signatures of its frames. */
  const stream = (async () => {
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
    const s = { count: 1, positions: new Float64Array([0, 0, 1]), velocities: new Float64Array(3) };
    for (let k = 0; k < 2; k++) {
      s.positions[2] = k;
      await w.write(s, { time: k / 10 });
    }
    await w.close();
    const bytes = await Deno.readFile(`${dir}/run.arrows`);
    const complete: string[] = [];
    for await (const f of readFrames(`${dir}/run.arrows`)) {
      complete.push(`${f.frame}|${f.time}|${tableSignature(f.table)}`);
    }
    await Deno.remove(dir, { recursive: true });
    return { bytes, complete };
  })();

  it("every truncation: the complete frames, flagged truncated, or an error before the schema ends", async () => {
    const { bytes, complete } = await stream;
    const rs = await fuzz("stream", bytes, truncations(bytes));
    const schemaEnd = 8 + new DataView(bytes.buffer).getInt32(4, true);
    for (const { case: c, result } of rs) {
      if (c.cut! < schemaEnd) {
        expect([c.cut, result.outcome, result.detail]).toEqual([
          c.cut,
          "error",
          expect.stringMatching(/^RangeError: readFrames: .*(is empty|is truncated)/),
        ]);
      } else {
        expect([c.cut, result.truncated]).toEqual([c.cut, true]);
        expect(result.frames).toEqual(complete.slice(0, result.frames!.length));
      }
    }
    // Cut inside the last frame: the first; cut inside the end marker: both.
    expect(rs[bytes.length - 20].result.frames).toHaveLength(1);
    expect(rs[bytes.length - 4].result.frames).toHaveLength(2);
  });

  it("every byte xor 1: never a hang, errors are clear", async () => {
    const { bytes } = await stream;
    const rs = await fuzz("stream", bytes, mutations(bytes, ["flip"]));
    const unclear = rs.filter((r) =>
      r.result.outcome === "error" && !/^(Range)?Error: readFrames: /.test(r.result.detail)
    );
    expect(unclear.map((r) => [r.case, r.result.detail])).toEqual([]);
    console.log(`  ${bytes.length} bytes, ${rs.length} mutations:`, tally(rs));
  });
});
