// Issue #29 ("Nothing silent") for the `.arrows` streams: FrameWriter keeps an existing file
// until its first frame is complete, rejects bad options and stamps by name, readFrames
// reports damaged frames (format 2 checksums) and still reads format-1 streams, and the
// readers refuse FIFOs and other non-regular files instead of blocking.
import { describe, it } from "node:test";
import { expect } from "expect";
import * as A from "apache-arrow";
import { FrameWriter, readArrow, readFrames, writeArrow } from "../src/arrow/mod.ts";
import { particlesTable } from "../src/arrow/particles.ts";
import { fakeSystem3d, tableSignature } from "./arrow_fixtures.ts";

const one = () => ({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] });

/** Resolves with the outcome of `p`, or "pending" after `ms`. */
function within<T>(p: Promise<T>, ms: number): Promise<T | "pending"> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<"pending">((r) => timer = setTimeout(() => r("pending"), ms)),
  ]);
}

async function mkfifo(path: string): Promise<void> {
  const out = await new Deno.Command("mkfifo", { args: [path] }).output();
  if (!out.success) throw new Error(`mkfifo failed: ${new TextDecoder().decode(out.stderr)}`);
}

/** Unblocks a reader stuck on a FIFO (old code): opens it for writing and closes it. */
async function release(fifo: string): Promise<void> {
  const f = await within(Deno.open(fifo, { write: true }), 1000);
  if (f !== "pending") f.close();
}

describe("readFrames: checksums (format 2)", () => {
  it("a damaged frame: the frames before it, corrupt reported with its index", async () => {
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
    const s = fakeSystem3d();
    for (let k = 0; k < 4; k++) {
      s.positions[2] = k;
      await w.write(s, { time: k + 0.25 });
    }
    await w.close();
    const good = await Deno.readFile(`${dir}/run.arrows`);
    const frames = await Array.fromAsync(readFrames(`${dir}/run.arrows`));
    // A byte of frame 2's data: its time column (2.25, found nowhere else).
    const needle = new Uint8Array(new Float64Array([2.25]).buffer);
    let at = -1;
    for (let p = 0; p < good.length - 8; p++) {
      if (needle.every((b, j) => good[p + j] === b)) {
        at = p;
        break;
      }
    }
    expect(at).toBeGreaterThan(0);
    const bad = good.slice();
    bad[at + 6] ^= 0x01; // time 2.25 becomes 2.2500000000000036: was read back silently
    await Deno.writeFile(`${dir}/bad.arrows`, bad);
    const reader = readFrames(`${dir}/bad.arrows`);
    const got = await Array.fromAsync(reader);
    expect(got.map((f) => f.frame)).toEqual([0, 1]);
    got.forEach((f, k) => expect(tableSignature(f.table)).toBe(tableSignature(frames[k].table)));
    expect(reader.corrupt).toBe(true);
    expect(reader.truncated).toBe(true);
    expect(reader.corruption).toMatch(
      new RegExp(
        `^readFrames: ${dir}/bad\\.arrows: frame 2 \\(message at byte \\d+\\) is corrupt: ` +
          `checksum mismatch: .*; the 2 frame\\(s\\) before it were returned`,
      ),
    );
    // The intact stream says so too; the checksum key is not in the tables returned.
    const intact = readFrames(`${dir}/run.arrows`);
    const all = await Array.fromAsync(intact);
    expect([intact.corrupt, intact.truncated, all.length]).toEqual([false, false, 4]);
    expect(all[0].table.schema.metadata.has("grainlab.crc32")).toBe(false);
    expect(all[0].table.schema.metadata.get("grainlab.frames.format")).toBe("2");
    expect(all[0].table.batches[0].metadata.has("grainlab.crc32")).toBe(false);
  });

  it("streams without checksums (format 1, other writers) still read back", async () => {
    const dir = await Deno.makeTempDir();
    // A format-1 stream: a plain Arrow IPC stream of frames, as FrameWriter wrote before.
    const t = particlesTable(fakeSystem3d());
    const bytes = A.tableToIPC(new A.Table([t.batches[0], t.batches[0]]), "stream");
    await Deno.writeFile(`${dir}/old.arrows`, bytes);
    const reader = readFrames(`${dir}/old.arrows`);
    const got = await Array.fromAsync(reader);
    expect(got.length).toBe(2);
    expect([reader.corrupt, reader.truncated]).toEqual([false, false]);
    expect(got[1].table.getChild("z")!.get(0)).toBe(0.01);
  });

  it("bad options of readFrames are named", () => {
    expect(() => readFrames("x.arrows", null as never)).toThrow(
      new TypeError("readFrames: options (null) must be an options object"),
    );
    expect(() => readFrames("x.arrows", { strikt: true } as never)).toThrow(
      /^readFrames: unknown option "strikt" in options; did you mean "strict"\?/,
    );
    expect(() => readFrames("x.arrows", { strict: 1 } as never)).toThrow(
      new TypeError("readFrames: options.strict (1) must be a boolean"),
    );
  });
});

describe("FrameWriter.create keeps an existing file until the first frame is complete", () => {
  it("close() with no frame leaves the old file as it was", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/run.arrows`, "the user's old run");
    const w = await FrameWriter.create(`${dir}/run.arrows`);
    expect(await Deno.readTextFile(`${dir}/run.arrows`)).toBe("the user's old run");
    await expect(w.close()).rejects.toThrow(
      `FrameWriter.close: no frame was written to ${dir}/run.arrows (it is left as it was)`,
    );
    expect(await Deno.readTextFile(`${dir}/run.arrows`)).toBe("the user's old run");
    expect([...Deno.readDirSync(dir)].map((e) => e.name)).toEqual(["run.arrows"]); // no temp
  });

  it("a failed first frame leaves the old file; the first frame replaces it", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/run.arrows`, "old");
    const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
    await expect(w.write({ count: 1 } as never)).rejects.toThrow(/positions and velocities/);
    expect(await Deno.readTextFile(`${dir}/run.arrows`)).toBe("old");
    await w.write(one(), { time: 0 });
    const reader = readFrames(`${dir}/run.arrows`); // readable at once, before close
    expect((await Array.fromAsync(reader)).length).toBe(1);
    expect(reader.truncated).toBe(true);
    await w.close();
    expect([...Deno.readDirSync(dir)].map((e) => e.name)).toEqual(["run.arrows"]);
  });

  it("a folder that cannot be written: the path and the reason, not a raw OS error", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/file`, "x");
    await expect(FrameWriter.create(`${dir}/file/run.arrows`)).rejects.toThrow(
      new RegExp(`^FrameWriter\\.create: ${dir}/file/run\\.arrows: cannot create its folder`),
    );
  });

  it("refuses a path that is a directory", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.mkdir(`${dir}/d.arrows`);
    await expect(FrameWriter.create(`${dir}/d.arrows`)).rejects.toThrow(
      `FrameWriter.create: ${dir}/d.arrows exists and is not a regular file (a directory)`,
    );
  });
});

describe("FrameWriter: bad options and stamps are named", () => {
  it("create: null options, an unknown option (nearest named), wrong types", async () => {
    const dir = await Deno.makeTempDir();
    const p = `${dir}/x.arrows`;
    await expect(FrameWriter.create(p, null as never)).rejects.toThrow(
      new TypeError("FrameWriter.create: options (null) must be an options object"),
    );
    await expect(FrameWriter.create(p, { synch: false } as never)).rejects.toThrow(
      /^FrameWriter\.create: unknown option "synch" in options; did you mean "sync"\?/,
    );
    await expect(FrameWriter.create(p, { simulator: 3 } as never)).rejects.toThrow(
      new TypeError("FrameWriter.create: options.simulator (3) must be a non-empty string"),
    );
    await expect(FrameWriter.create(p, { metadata: null } as never)).rejects.toThrow(
      /^FrameWriter\.create: options\.metadata \(null\) must be an object/,
    );
    await expect(FrameWriter.create(p, { metadata: { a: {} } } as never)).rejects.toThrow(
      /^FrameWriter\.create: options\.metadata\["a"\] \(\[object Object\]\) must be a string or a number/,
    );
    await expect(FrameWriter.create(p, { metadata: { "grainlab.crc32": "x" } })).rejects.toThrow(
      /"grainlab\.crc32" is reserved/,
    );
    await expect(FrameWriter.create(null as never)).rejects.toThrow(
      new TypeError("FrameWriter.create: path (null) must be a non-empty string"),
    );
    expect([...Deno.readDirSync(dir)]).toEqual([]);
  });

  it("write: a null system or stamp, an unknown stamp key, a wrong time", async () => {
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/x.arrows`, { sync: false });
    await expect(w.write(null as never)).rejects.toThrow(
      new TypeError("FrameWriter.write: system (null) must be a particle system object"),
    );
    await expect(w.write(one(), null as never)).rejects.toThrow(
      new TypeError("FrameWriter.write: stamp (null) must be an options object"),
    );
    await expect(w.write(one(), { tim: 1 } as never)).rejects.toThrow(
      /^FrameWriter\.write: unknown option "tim" in stamp; did you mean "time"\?/,
    );
    await expect(w.write(one(), { time: "1" } as never)).rejects.toThrow(
      new TypeError("FrameWriter.write: stamp.time (1) must be a number"),
    );
    await expect(w.write(one(), { time: Infinity })).rejects.toThrow(RangeError);
    expect(w.frames).toBe(0);
    await w.write(one(), { time: 1 }); // the writer is still usable
    expect((await w.close()).frames).toBe(1);
  });
});

describe("readers refuse non-regular files instead of blocking", () => {
  it("readArrow and readFrames on a FIFO and a directory: a clear error at once", async () => {
    const dir = await Deno.makeTempDir();
    await writeArrow(`${dir}/ok.arrow`, particlesTable(one()));
    expect((await readArrow(`${dir}/ok.arrow`)).numRows).toBe(1);
    const fifo = `${dir}/pipe.arrow`;
    await mkfifo(fifo);
    const arrow = await within(readArrow(fifo).then(() => "read", (e) => e), 3000);
    const frames = await within(
      Array.fromAsync(readFrames(fifo)).then(() => "read", (e) => e),
      3000,
    );
    if (arrow === "pending" || frames === "pending") {
      await release(fifo);
      await release(fifo);
    }
    expect(String(arrow)).toBe(
      `Error: readArrow: ${fifo}: is not a regular file (a FIFO); give the path of a file`,
    );
    expect(String(frames)).toBe(
      `Error: readFrames: ${fifo}: is not a regular file (a FIFO); give the path of a file`,
    );
    await expect(readArrow(dir)).rejects.toThrow(
      `readArrow: ${dir}: is not a regular file (a directory)`,
    );
  });
});

describe("ViewRecorder.fromFrames says when a stream is damaged", () => {
  it("a FrameReader that stopped at a corrupt frame throws; its frames as an array still view", async () => {
    const { ViewRecorder } = await import("../src/notebook/mod.ts");
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
    for (let k = 0; k < 3; k++) {
      await w.write({ count: 1, positions: [0, 0, k], velocities: [0, 0, 0], radii: [0.1] }, {
        time: k,
      });
    }
    const { bytes } = await w.close();
    const file = await Deno.readFile(`${dir}/run.arrows`);
    file[bytes - 20] ^= 0xff; // the last frame
    await Deno.writeFile(`${dir}/run.arrows`, file);
    await expect(ViewRecorder.fromFrames(readFrames(`${dir}/run.arrows`))).rejects.toThrow(
      /^ViewRecorder\.fromFrames: readFrames: .*run\.arrows: frame 2 \(message at byte \d+\) is corrupt/,
    );
    const good = await Array.fromAsync(readFrames(`${dir}/run.arrows`));
    expect((await ViewRecorder.fromFrames(good)).times).toEqual([0, 1]);
  });
});
