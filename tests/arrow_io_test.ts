import { describe, it } from "node:test";
import { expect } from "expect";
import {
  contactsTable,
  FrameWriter,
  particlesTable,
  readArrow,
  readFrames,
  writeArrow,
} from "../src/arrow/mod.ts";
import { fakeSystem3d } from "./arrow_fixtures.ts";

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
    await expect(readArrow(`${dir}/none.arrow`)).rejects.toThrow(/does not exist/);
    await Deno.writeTextFile(`${dir}/f.arrow`, "PAR1 definitely parquet");
    await expect(readArrow(`${dir}/f.arrow`)).rejects.toThrow(/not an Arrow IPC file/);
    await writeArrow(`${dir}/ok.arrow`, particlesTable(fakeSystem3d()));
    const full = await Deno.readFile(`${dir}/ok.arrow`);
    await Deno.writeFile(`${dir}/cut.arrow`, full.subarray(0, full.length - 40));
    await expect(readArrow(`${dir}/cut.arrow`)).rejects.toThrow(/truncated/);
    await expect(writeArrow(`${dir}/x.arrow`, {} as never)).rejects.toThrow(TypeError);
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

  it("reports missing, file-format and truncated streams", async () => {
    const dir = await Deno.makeTempDir();
    const drain = async (p: string) => {
      for await (const _ of readFrames(p)) { /* drain */ }
    };
    await expect(drain(`${dir}/none.arrows`)).rejects.toThrow(/does not exist/);
    await writeArrow(`${dir}/f.arrow`, particlesTable(fakeSystem3d()));
    await expect(drain(`${dir}/f.arrow`)).rejects.toThrow(/use readArrow/);
    const w = await FrameWriter.create(`${dir}/ok.arrows`);
    await w.write(fakeSystem3d(), { time: 0 });
    await w.write(fakeSystem3d(), { time: 1 });
    await w.close();
    const full = await Deno.readFile(`${dir}/ok.arrows`);
    await Deno.writeFile(`${dir}/cut.arrows`, full.subarray(0, full.length - 100));
    await expect(drain(`${dir}/cut.arrows`)).rejects.toThrow(/truncated or corrupt/);
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
