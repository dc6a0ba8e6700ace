import { describe, it } from "node:test";
import { expect } from "expect";
import * as A from "apache-arrow";
import {
  contactsTable,
  type Frame,
  FrameWriter,
  particlesTable,
  readArrow,
  readFrames,
  writeArrow,
} from "../src/arrow/mod.ts";
import { checkArrowFile } from "../src/arrow/ipc/file.ts";
import { CHECKSUM_KEY } from "../src/arrow/ipc/checksum.ts";
import { tableFromBytes, tableToArrowFile } from "../src/arrow/io.ts";
import { fakeSystem3d, foreignTable, mixedTable, tableSignature } from "./arrow_fixtures.ts";

describe("writeArrow / readArrow", () => {
  it("round-trips values, types and metadata", async () => {
    const dir = await Deno.makeTempDir();
    const t = particlesTable(fakeSystem3d(), { time: 1.5, step: 3 });
    const bytes = await writeArrow(`${dir}/sub/p.arrow`, t);
    expect(bytes).toBeGreaterThan(100);
    const raw = await Deno.readFile(`${dir}/sub/p.arrow`);
    expect(new TextDecoder().decode(raw.subarray(0, 6))).toBe("ARROW1");
    const back = await readArrow(`${dir}/sub/p.arrow`);
    expect(back.numRows).toBe(3);
    for (const f of t.schema.fields) {
      const g = back.schema.fields.find((x) => x.name === f.name)!;
      expect(String(g.type)).toBe(String(f.type));
      expect(g.metadata.get("unit")).toBe(f.metadata.get("unit"));
      expect([...back.getChild(f.name)!]).toEqual([...t.getChild(f.name)!]);
    }
    expect(back.schema.metadata.get("grainlab.time")).toBe("1.5");
    // no temp files left behind
    expect([...Deno.readDirSync(`${dir}/sub`)].map((e) => e.name)).toEqual(["p.arrow"]);
  });

  it("round-trips the dictionary kind column", async () => {
    const dir = await Deno.makeTempDir();
    await writeArrow(`${dir}/c.arrow`, contactsTable(fakeSystem3d()));
    const back = await readArrow(`${dir}/c.arrow`);
    expect([...back.getChild("kind")!]).toEqual(["particle", "ground"]);
  });

  it("gives a clear error on missing, foreign and truncated files", async () => {
    const dir = await Deno.makeTempDir();
    await expect(readArrow(`${dir}/none.arrow`)).rejects.toThrow(
      `readArrow: ${dir}/none.arrow: does not exist`,
    );
    await Deno.writeTextFile(`${dir}/f.arrow`, "PAR1 definitely parquet");
    await expect(readArrow(`${dir}/f.arrow`)).rejects.toThrow(
      `readArrow: ${dir}/f.arrow: is not an Arrow IPC file`,
    );
    await writeArrow(`${dir}/ok.arrow`, particlesTable(fakeSystem3d()));
    const full = await Deno.readFile(`${dir}/ok.arrow`);
    await Deno.writeFile(`${dir}/cut.arrow`, full.subarray(0, full.length - 40));
    await expect(readArrow(`${dir}/cut.arrow`)).rejects.toThrow(
      new RangeError(
        `readArrow: ${dir}/cut.arrow: is truncated (${
          full.length - 40
        } bytes, no ARROW1 magic at the end)`,
      ),
    );
    await expect(writeArrow(`${dir}/x.arrow`, {} as never)).rejects.toThrow(TypeError);
    await expect(readArrow("")).rejects.toThrow(TypeError);
  });

  it("rejects at once the files that hung it: byte 8 zeroed, bytes 8–11 zeroed", async () => {
    const dir = await Deno.makeTempDir();
    await writeArrow(`${dir}/ok.arrow`, particlesTable(fakeSystem3d()));
    const full = await Deno.readFile(`${dir}/ok.arrow`);
    for (const end of [9, 12]) {
      const bad = full.slice();
      bad.fill(0, 8, end);
      await Deno.writeFile(`${dir}/bad.arrow`, bad);
      const t0 = performance.now();
      await expect(readArrow(`${dir}/bad.arrow`)).rejects.toThrow(
        new RangeError(
          `readArrow: ${dir}/bad.arrow: is corrupt: no continuation marker at byte 8 ` +
            `(a message or the footer was expected)`,
        ),
      );
      expect(performance.now() - t0).toBeLessThan(1000);
    }
  });

  it("stores a checksum of the batches, verifies it on reading and removes it", async () => {
    const dir = await Deno.makeTempDir();
    const t = particlesTable(fakeSystem3d(), { time: 1.5 });
    await writeArrow(`${dir}/p.arrow`, t);
    const raw = await Deno.readFile(`${dir}/p.arrow`);
    const layout = checkArrowFile(raw, "p");
    // The specification's layout: a schema message at byte 8, then the batches.
    expect(layout.schemaMessage?.start).toBe(8);
    expect(layout.checksum.stored).toMatch(/^[0-9a-f]{8}$/);
    expect(layout.checksum.stored).toBe(layout.checksum.computed);
    expect(layout.checksum.positions).toHaveLength(2); // schema message and footer
    // apache-arrow itself sees the key; readArrow hides it again.
    expect(A.tableFromIPC(raw).schema.metadata.get(CHECKSUM_KEY)).toBe(layout.checksum.stored);
    const back = await readArrow(`${dir}/p.arrow`);
    expect(back.schema.metadata.has(CHECKSUM_KEY)).toBe(false);
    expect(tableSignature(back)).toBe(tableSignature(t));
    expect(t.schema.metadata.has(CHECKSUM_KEY)).toBe(false); // the caller's table is untouched
    // x of the first particle is the first 8 bytes of the "x" buffer: flip one of its bits.
    const x = A.tableFromIPC(raw).getChild("x")!.data[0].values as Float64Array;
    const at = x.byteOffset - raw.byteOffset; // (tableFromIPC keeps views onto raw)
    expect(at).toBeGreaterThan(layout.dataStart);
    const bad = raw.slice();
    bad[at + 3] ^= 0x10;
    expect(A.tableFromIPC(bad).getChild("x")!.get(0)).not.toBe(0); // apache-arrow alone: silent
    await Deno.writeFile(`${dir}/bad.arrow`, bad);
    await expect(readArrow(`${dir}/bad.arrow`)).rejects.toThrow(
      new RegExp(`^readArrow: ${dir}/bad.arrow: checksum mismatch: the file stores grainlab.crc32`),
    );
    // The checksum's own text, changed in one copy, makes the two schema copies disagree.
    const text = raw.slice();
    text[layout.checksum.positions[0]] ^= 1;
    expect(() => tableFromBytes(text, "t")).toThrow(/describe different schemas/);
  });

  it("reads files from other writers (no checksum) and multi-batch dictionary tables", () => {
    const foreign = foreignTable();
    const bytes = A.tableToIPC(foreign, "file");
    expect(checkArrowFile(bytes, "f").checksum.stored).toBe(null);
    expect(checkArrowFile(bytes, "f").schemaMessage).toBe(null); // Arrow JS writes none
    expect(tableSignature(tableFromBytes(bytes))).toBe(tableSignature(foreign));
    const mixed = mixedTable();
    const back = tableFromBytes(tableToArrowFile(mixed));
    expect(back.batches.map((b) => b.numRows)).toEqual([3, 3]);
    expect(tableSignature(back)).toBe(tableSignature(mixed));
    expect([...back.getChild("kind")!]).toEqual([
      "particle",
      "body",
      "ground",
      "particle",
      "body",
      "wall",
    ]);
  });

  it("rejects tables apache-arrow cannot write as a file with a RangeError", () => {
    const a = contactsTable(fakeSystem3d()), b = contactsTable(fakeSystem3d());
    // Two batches, each with its own dictionary for "kind": a file cannot replace a dictionary.
    const two = new A.Table(a.schema, [
      a.batches[0],
      new A.RecordBatch(a.schema, b.batches[0].data),
    ]);
    expect(() => tableToArrowFile(two)).toThrow(/^tableToArrowFile: apache-arrow cannot write/);
    expect(() => tableToArrowFile(null as never)).toThrow(TypeError);
  });
});

describe("FrameWriter / readFrames", () => {
  it("streams frames with frame and time columns and reads them back in order", async () => {
    const dir = await Deno.makeTempDir();
    const s = fakeSystem3d();
    const w = await FrameWriter.create(`${dir}/run.arrows`, { metadata: { scene: "test" } });
    for (let k = 0; k < 5; k++) {
      s.positions[2] = 0.01 + k;
      await w.write(s, { time: k * 0.1 });
    }
    const info = await w.close();
    expect(info.frames).toBe(5);
    expect((await Deno.stat(`${dir}/run.arrows`)).size).toBe(info.bytes);
    const frames = [];
    for await (const f of readFrames(`${dir}/run.arrows`)) frames.push(f);
    expect(frames.map((f) => f.frame)).toEqual([0, 1, 2, 3, 4]);
    expect(frames[3].time).toBeCloseTo(0.3, 12);
    expect(frames[4].table.getChild("z")!.get(0)).toBeCloseTo(4.01, 12);
    expect(frames[2].table.getChild("frame")!.get(2)).toBe(2);
    expect(frames[0].table.schema.metadata.get("scene")).toBe("test");
    expect(frames[0].table.schema.metadata.get("grainlab.table")).toBe("frames");
  });

  it("rejects a frame whose columns differ, and writes after close", async () => {
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/r.arrows`);
    await w.write(fakeSystem3d(), { time: 0 });
    const other = { ...fakeSystem3d(), masses: undefined };
    await expect(w.write(other, { time: 1 })).rejects.toThrow(/columns/);
    await w.close();
    await expect(w.write(fakeSystem3d())).rejects.toThrow(/closed/);
  });

  it("reports missing, file-format, empty and garbage files clearly", async () => {
    const dir = await Deno.makeTempDir();
    const drain = (p: string) => Array.fromAsync(readFrames(p));
    await expect(drain(`${dir}/none.arrows`)).rejects.toThrow(
      `readFrames: ${dir}/none.arrows: does not exist`,
    );
    await writeArrow(`${dir}/f.arrow`, particlesTable(fakeSystem3d()));
    await expect(drain(`${dir}/f.arrow`)).rejects.toThrow(
      /f\.arrow: is an Arrow IPC file, not a stream; use readArrow/,
    );
    await Deno.writeFile(`${dir}/empty.arrows`, new Uint8Array(0));
    await expect(drain(`${dir}/empty.arrows`)).rejects.toThrow(/empty\.arrows: is empty/);
    await Deno.writeTextFile(`${dir}/junk.arrows`, "x".repeat(1000));
    await expect(drain(`${dir}/junk.arrows`)).rejects.toThrow(
      new RangeError(
        `readFrames: ${dir}/junk.arrows: is not an Arrow IPC stream (no continuation marker at byte 0)`,
      ),
    );
    // A continuation marker and a huge metadata length: truncated before the schema, no hang.
    await Deno.writeFile(
      `${dir}/huge.arrows`,
      new Uint8Array([255, 255, 255, 255, 0, 0, 0, 0x7f, 1, 2]),
    );
    await expect(drain(`${dir}/huge.arrows`)).rejects.toThrow(
      /huge\.arrows: is truncated \(10 bytes\) before the end of its schema message/,
    );
    expect(() => readFrames("")).toThrow(TypeError);
  });

  it("a stream cut mid-frame gives its complete frames and says it was truncated", async () => {
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/ok.arrows`);
    for (let k = 0; k < 3; k++) await w.write(fakeSystem3d(), { time: k });
    await w.close();
    const full = await Deno.readFile(`${dir}/ok.arrows`);
    const whole = readFrames(`${dir}/ok.arrows`);
    expect(whole.truncated).toBe(undefined); // not read yet
    expect((await Array.fromAsync(whole)).map((f) => f.time)).toEqual([0, 1, 2]);
    expect(whole.truncated).toBe(false);
    expect(whole.truncation).toBe(undefined);
    await Deno.writeFile(`${dir}/cut.arrows`, full.subarray(0, full.length - 100));
    const cut = readFrames(`${dir}/cut.arrows`);
    const frames = await Array.fromAsync(cut);
    expect(frames.map((f) => f.frame)).toEqual([0, 1]);
    expect(cut.truncated).toBe(true);
    expect(cut.count).toBe(2);
    expect(cut.truncation).toMatch(
      /the message at byte \d+ needs \d+ bytes, the file ends at byte \d+; 2 complete frame\(s\)/,
    );
    // The same frames as the intact stream's.
    const intact = await Array.fromAsync(readFrames(`${dir}/ok.arrows`));
    for (const k of [0, 1]) {
      expect(tableSignature(frames[k].table)).toBe(tableSignature(intact[k].table));
    }
  });

  it("checks the frames it reads: a corrupt frame ends the frames, reported with its byte", async () => {
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/ok.arrows`);
    for (let k = 0; k < 2; k++) await w.write(fakeSystem3d(), { time: k });
    await w.close();
    const bad = await Deno.readFile(`${dir}/ok.arrows`);
    const schemaEnd = 8 + new DataView(bad.buffer).getInt32(4, true);
    bad.fill(0, schemaEnd, schemaEnd + 4); // the first frame's continuation marker
    await Deno.writeFile(`${dir}/bad.arrows`, bad);
    const badReader = readFrames(`${dir}/bad.arrows`);
    expect(await Array.fromAsync(badReader)).toEqual([]);
    expect([badReader.corrupt, badReader.truncated]).toEqual([true, true]);
    expect(badReader.corruption).toBe(
      `readFrames: ${dir}/bad.arrows: frame 0 (message at byte ${schemaEnd}) is corrupt: ` +
        `no continuation marker at byte ${schemaEnd}; the 0 frame(s) before it were returned, ` +
        `the rest is unread`,
    );
    await expect(Array.fromAsync(readFrames(`${dir}/bad.arrows`, { strict: true }))).rejects
      .toThrow(new RangeError(badReader.corruption));
    // A frame whose buffers do not fit its body (here: every buffer length set huge).
    const worse = await Deno.readFile(`${dir}/ok.arrows`);
    const metaLength = new DataView(worse.buffer).getInt32(schemaEnd + 4, true);
    const meta = worse.subarray(schemaEnd + 8, schemaEnd + 8 + metaLength);
    const first = A.tableFromIPC(worse).batches[0].data.children[0]; // "frame": 3 × 4 bytes
    expect(first.length).toBe(3);
    // Find the 16-byte Buffer structs (offset, length) of the frame and break the first length.
    const dv = new DataView(meta.buffer, meta.byteOffset, meta.byteLength);
    let at = -1;
    for (let p = 0; p + 32 <= meta.length; p += 8) {
      if (
        dv.getBigInt64(p, true) === 0n && dv.getBigInt64(p + 8, true) === 0n &&
        dv.getBigInt64(p + 16, true) === 0n && dv.getBigInt64(p + 24, true) === 16n
      ) {
        at = p + 24; // validity (0, 0) then values (0, 16): 3 uint32 padded to 16
        break;
      }
    }
    expect(at).toBeGreaterThan(0);
    dv.setBigInt64(at, 1n << 40n, true);
    await Deno.writeFile(`${dir}/worse.arrows`, worse);
    const worseReader = readFrames(`${dir}/worse.arrows`);
    expect(await Array.fromAsync(worseReader)).toEqual([]);
    expect(worseReader.corruption).toMatch(
      /worse\.arrows: frame 0 \(message at byte \d+\) is corrupt: checksum mismatch/,
    );
  });
});

describe("FrameWriter crash safety", () => {
  const frameZs = (frames: Frame[]) => frames.map((f) => f.table.getChild("z")!.get(0));

  it("frames written before an abandoned writer (no close) all read back", async () => {
    const dir = await Deno.makeTempDir();
    const s = fakeSystem3d();
    const w = await FrameWriter.create(`${dir}/run.arrows`);
    for (let k = 0; k < 3; k++) {
      s.positions[2] = k;
      w.write(s, { time: k }); // not awaited
    }
    // Read the file as a crash would leave it: the writer is neither closed nor awaited.
    const reader = readFrames(`${dir}/run.arrows`);
    const frames = await Array.fromAsync(reader);
    expect(frameZs(frames)).toEqual([0, 1, 2]);
    expect(frames.map((f) => f.time)).toEqual([0, 1, 2]);
    expect(reader.truncated).toBe(true);
    expect(reader.truncation).toMatch(/after 3 frame\(s\) with no end-of-stream marker/);
    const info = await w.close();
    expect(info.frames).toBe(3);
    const closed = readFrames(`${dir}/run.arrows`);
    expect(frameZs(await Array.fromAsync(closed))).toEqual([0, 1, 2]);
    expect(closed.truncated).toBe(false);
  });

  it("frames survive a process that exits without awaiting its writes or closing", async () => {
    const dir = await Deno.makeTempDir();
    const script = `${dir}/crash.ts`;
    const mod = new URL("../src/arrow/mod.ts", import.meta.url).href;
    await Deno.writeTextFile(
      script,
      `import { FrameWriter } from ${JSON.stringify(mod)};
const w = await FrameWriter.create(Deno.args[0]);
for (let k = 0; k < 3; k++) {
  w.write({ count: 1, positions: [0, 0, k], velocities: [0, 0, 0] }, { time: k / 10 });
}
Deno.exit(3); // no await, no close
`,
    );
    const config = new URL("../deno.json", import.meta.url).pathname;
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["run", "--allow-all", "--config", config, script, `${dir}/run.arrows`],
      stdout: "piped",
      stderr: "piped",
    }).output();
    expect([
      out.code,
      new TextDecoder().decode(out.stderr).split("\n").filter((l) => /rror/.test(l)),
    ])
      .toEqual([3, []]);
    const reader = readFrames(`${dir}/run.arrows`);
    const frames = await Array.fromAsync(reader);
    expect(frameZs(frames)).toEqual([0, 1, 2]);
    expect(frames.map((f) => f.time)).toEqual([0, 0.1, 0.2]);
    expect(reader.truncated).toBe(true);
  });

  it("sync: false skips the fsync; bad options and empty writers fail clearly", async () => {
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/fast.arrows`, { sync: false });
    await w.write(fakeSystem3d(), { time: 0 });
    expect((await w.close()).frames).toBe(1);
    expect((await Array.fromAsync(readFrames(`${dir}/fast.arrows`))).length).toBe(1);
    await expect(FrameWriter.create(`${dir}/x.arrows`, { sync: "yes" as never })).rejects.toThrow(
      new TypeError("FrameWriter.create: options.sync (yes) must be a boolean"),
    );
    const empty = await FrameWriter.create(`${dir}/empty.arrows`);
    await expect(empty.close()).rejects.toThrow(/no frame was written/);
    await expect(Deno.stat(`${dir}/empty.arrows`)).rejects.toThrow(Deno.errors.NotFound);
  });
});

describe("FrameWriter queueing", () => {
  it("keeps frames in order when writes are not awaited (snapshot taken at call time)", async () => {
    const dir = await Deno.makeTempDir();
    const s = fakeSystem3d();
    const w = await FrameWriter.create(`${dir}/q.arrows`);
    for (let k = 0; k < 20; k++) {
      s.positions[2] = k;
      w.write(s, { time: k }); // not awaited, like an onStep callback
    }
    const info = await w.close();
    expect(info.frames).toBe(20);
    const zs: number[] = [], frames: number[] = [];
    for await (const f of readFrames(`${dir}/q.arrows`)) {
      zs.push(f.table.getChild("z")!.get(0));
      frames.push(f.frame);
    }
    expect(zs).toEqual(Array.from({ length: 20 }, (_, k) => k));
    expect(frames).toEqual(Array.from({ length: 20 }, (_, k) => k));
  });
});
