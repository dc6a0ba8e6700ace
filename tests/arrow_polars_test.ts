// An independent reader (Polars, Rust arrow2/polars-arrow) must read Grainlab's files.
import { describe, it } from "node:test";
import { expect } from "expect";
import { Buffer } from "node:buffer";
import pl from "nodejs-polars";
import {
  contactsTable,
  FrameWriter,
  particlesTable,
  readArrow,
  readFrames,
  statsTable,
  writeArrow,
} from "../src/arrow/mod.ts";
import { checkArrowFile } from "../src/arrow/ipc/file.ts";
import { fakeSystem3d } from "./arrow_fixtures.ts";

const read = async (p: string) => pl.readIPC(Buffer.from(await Deno.readFile(p)));

describe("nodejs-polars reads Grainlab Arrow files", () => {
  it("particles: values and dtypes", async () => {
    const dir = await Deno.makeTempDir();
    await writeArrow(`${dir}/p.arrow`, particlesTable(fakeSystem3d(), { time: 0.1 }));
    const df = await read(`${dir}/p.arrow`);
    expect(df.height).toBe(3);
    expect(df.getColumn("x").toArray()).toEqual([0, 0.02, 0.5]);
    expect(df.getColumn("id").toArray()).toEqual([10, 11, 12]);
    expect(df.getColumn("fixed").toArray()).toEqual([false, true, false]);
    expect(String(df.getColumn("x").dtype)).toMatch(/Float64/);
    expect(String(df.getColumn("id").dtype)).toMatch(/UInt32/);
    expect(String(df.getColumn("materialId").dtype)).toMatch(/UInt16/);
    expect(String(df.getColumn("fixed").dtype)).toMatch(/Bool/);
  });

  it("contacts: the kind dictionary becomes a categorical with the right labels", async () => {
    const dir = await Deno.makeTempDir();
    await writeArrow(`${dir}/c.arrow`, contactsTable(fakeSystem3d()));
    const df = await read(`${dir}/c.arrow`);
    expect(df.getColumn("kind").toArray()).toEqual(["particle", "ground"]);
    expect(df.getColumn("j").toArray()).toEqual([11, -1]);
    expect(String(df.getColumn("i").dtype)).toMatch(/Int32/);
  });

  it("stats and frame streams", async () => {
    const dir = await Deno.makeTempDir();
    await writeArrow(
      `${dir}/s.arrow`,
      statsTable([{ time: 0.5, step: 1, stats: { particleContacts: 9 } }]),
    );
    expect((await read(`${dir}/s.arrow`)).getColumn("particleContacts").toArray()).toEqual([9]);
    const w = await FrameWriter.create(`${dir}/f.arrows`);
    for (let k = 0; k < 3; k++) await w.write(fakeSystem3d(), { time: k });
    await w.close();
    const df = pl.readIPCStream(Buffer.from(await Deno.readFile(`${dir}/f.arrows`)));
    expect(df.height).toBe(9);
    expect(df.getColumn("frame").toArray()).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
    expect(df.getColumn("time").toArray()).toEqual([0, 0, 0, 1, 1, 1, 2, 2, 2]);
  });
});

describe("Grainlab reads files Polars writes", () => {
  const df = pl.DataFrame({
    x: [1.5, 2, null],
    s: ["a", "a longer string!", null],
    ok: [true, false, null],
  });

  it("IPC file (schema message, views, nulls), no checksum: readArrow", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeFile(`${dir}/pl.arrow`, df.writeIPC() as unknown as Uint8Array);
    const raw = await Deno.readFile(`${dir}/pl.arrow`);
    expect(checkArrowFile(raw, "pl").schemaMessage?.start).toBe(8);
    expect(checkArrowFile(raw, "pl").checksum.stored).toBe(null);
    const t = await readArrow(`${dir}/pl.arrow`);
    expect([...t.getChild("x")!]).toEqual([1.5, 2, null]);
    expect([...t.getChild("s")!]).toEqual(["a", "a longer string!", null]);
    expect([...t.getChild("ok")!]).toEqual([true, false, null]);
  });

  it("compressed IPC file: a clear error (apache-arrow has no codec)", async () => {
    const dir = await Deno.makeTempDir();
    const bytes = df.writeIPC({ compression: "zstd" }) as unknown as Uint8Array;
    await Deno.writeFile(`${dir}/z.arrow`, bytes);
    await expect(readArrow(`${dir}/z.arrow`)).rejects.toThrow(
      /^readArrow: .*z\.arrow: apache-arrow cannot decode it: .*codec/,
    );
  });

  it("IPC stream: readFrames", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeFile(`${dir}/pl.arrows`, df.writeIPCStream() as unknown as Uint8Array);
    const reader = readFrames(`${dir}/pl.arrows`);
    const frames = await Array.fromAsync(reader);
    expect(frames.map((f) => [f.frame, f.table.numRows])).toEqual([[0, 3]]);
    expect(reader.truncated).toBe(false);
  });
});
