// Issue #29 ("Nothing silent") for src/arrow, src/io and src/notebook: null options, unknown
// keys, wrong types, non-regular files and paths that are directories give errors that name
// the function, the parameter, the value and the rule — never a raw TypeError from inside,
// never a silent acceptance, never a blocked read.
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  barTable,
  buildTable,
  contactsTable,
  particlesTable,
  StatsRecorder,
  statsTable,
  writeArrow,
} from "../src/arrow/mod.ts";
import { checkArrowFile } from "../src/arrow/ipc/file.ts";
import { metadataMap, schemaMetadata } from "../src/arrow/schema.ts";
import { writeVtk } from "../src/io/mod.ts";
import { canRun, lammpsDumpFrames, readLammpsDump, runLammps } from "../src/io/lammps_api.ts";
import { lammpsFrameTable } from "../src/io/lammps_dump_frames.ts";
import { runWithProgress, tableView, ViewRecorder, writeViewer } from "../src/notebook/mod.ts";
import { Progress } from "../src/math/progress.ts";
import { systemBundle, systemSummary, tableBundle } from "../src/notebook/display.ts";
import { Figure } from "../src/plot/mod.ts";
import { fakeSystem3d } from "./arrow_fixtures.ts";

const one = () => ({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0], radii: [0.1] });
const DUMP = "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS pp pp pp\n" +
  "0 1\n0 1\n0 1\nITEM: ATOMS id x y z\n1 0.5 0.5 0.5\n";

/** Resolves with the outcome of `p`, or "pending" after `ms`. */
function within<T>(p: Promise<T>, ms: number): Promise<T | "pending"> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    p.finally(() => clearTimeout(timer)),
    new Promise<"pending">((r) => timer = setTimeout(() => r("pending"), ms)),
  ]);
}

describe("io: readLammpsDump and lammpsDumpFrames", () => {
  it("readLammpsDump(path, null): a TypeError naming the parameter", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.writeTextFile(`${dir}/dump.txt`, DUMP);
    await expect(readLammpsDump(`${dir}/dump.txt`, null as never)).rejects.toThrow(
      new TypeError("readLammpsDump: options (null) must be an options object"),
    );
    await expect(Array.fromAsync(lammpsDumpFrames(`${dir}/dump.txt`, null as never))).rejects
      .toThrow(new TypeError("lammpsDumpFrames: options (null) must be an options object"));
    await expect(readLammpsDump(`${dir}/dump.txt`, { maxByte: 1 } as never)).rejects.toThrow(
      /^readLammpsDump: unknown option "maxByte" in options; did you mean "maxBytes"\?/,
    );
    await expect(readLammpsDump(`${dir}/dump.txt`, { maxBytes: NaN })).rejects.toThrow(
      /^readLammpsDump: options\.maxBytes \(NaN\) must be a finite number/,
    );
    await expect(readLammpsDump(`${dir}/dump.txt`, { sameAtoms: 1 } as never)).rejects.toThrow(
      new TypeError("readLammpsDump: options.sameAtoms (1) must be a boolean"),
    );
    expect((await readLammpsDump(`${dir}/dump.txt`)).frames.length).toBe(1); // still reads
  });

  it("a FIFO or a directory: a clear error at once, not a blocked read", async () => {
    const dir = await Deno.makeTempDir();
    const fifo = `${dir}/dump.fifo`;
    expect((await new Deno.Command("mkfifo", { args: [fifo] }).output()).success).toBe(true);
    const got = await within(readLammpsDump(fifo).then(() => "read", (e) => String(e)), 3000);
    if (got === "pending") { // the old code blocks: open the FIFO to let it go
      const f = await within(Deno.open(fifo, { write: true }), 1000);
      if (f !== "pending") f.close();
    }
    expect(got).toBe(
      `Error: readLammpsDump: ${fifo}: is not a regular file (a FIFO); give the path of a file`,
    );
    await expect(Array.fromAsync(lammpsDumpFrames(dir))).rejects.toThrow(
      `readLammpsDump: ${dir}: is not a regular file (a directory)`,
    );
  });

  it("lammpsFrameTable, runLammps and canRun name a bad argument", async () => {
    await expect(lammpsFrameTable(null as never)).rejects.toThrow(
      /^lammpsFrameTable: frame \(null\) must be a LammpsFrame/,
    );
    await expect(runLammps(null as never)).rejects.toThrow(
      /^runLammps: exported \(null\) must be the record exportLammps returned/,
    );
    expect(() => canRun(null as never)).toThrow(
      new TypeError("canRun: cmd (null) must be a non-empty string"),
    );
  });
});

describe("arrow: table options are checked by name", () => {
  it("particlesTable, contactsTable, statsTable: null, unknown keys, wrong types", () => {
    const s = fakeSystem3d();
    expect(() => particlesTable(s, null as never)).toThrow(
      new TypeError("particlesTable: options (null) must be an options object"),
    );
    expect(() => particlesTable(s, { copyy: true } as never)).toThrow(
      /^particlesTable: unknown option "copyy" in options; did you mean "copy"\?/,
    );
    expect(() => particlesTable(s, { copy: 1 } as never)).toThrow(
      new TypeError("particlesTable: options.copy (1) must be a boolean"),
    );
    expect(() => particlesTable(s, { time: "0.1" } as never)).toThrow(
      new TypeError("particlesTable: options.time (0.1) must be a number"),
    );
    expect(() => particlesTable(s, { step: -1 })).toThrow(
      new RangeError("particlesTable: options.step (-1) must be an integer >= 0"),
    );
    const withContacts = { ...s, contacts: { count: 0 } } as never;
    expect(() => contactsTable(withContacts, null as never)).toThrow(
      new TypeError("contactsTable: options (null) must be an options object"),
    );
    expect(() => contactsTable(withContacts, { simulatr: "x" } as never)).toThrow(
      /did you mean "simulator"\?/,
    );
    expect(() => statsTable([], null as never)).toThrow(
      new TypeError("statsTable: options (null) must be an options object"),
    );
    expect(() => statsTable([], { sim: "x" } as never)).toThrow(
      /^statsTable: unknown option "sim"/,
    );
  });

  it("barTable options and StatsRecorder.record arguments are named", () => {
    const run = { time: [0, 1], endPosition: [1, 2] };
    expect(() => barTable(run, null as never)).toThrow(
      new TypeError("barTable: options (null) must be an options object"),
    );
    expect(() => barTable(run, { extras: {} } as never)).toThrow(/did you mean "extra"\?/);
    const rec = new StatsRecorder();
    expect(() => rec.record(null as never, {})).toThrow(
      new TypeError("StatsRecorder.record: world (null) must have a numeric time"),
    );
    expect(() => rec.record({ time: 0 }, null as never)).toThrow(/system \(null\)/);
    expect(() => rec.record({ time: 0 }, {}, { energy: "1" } as never)).toThrow(
      new TypeError("StatsRecorder.record: extra.energy (1) must be a number"),
    );
    expect(rec.entries).toEqual([]);
  });

  it("checkArrowFile, metadataMap, schemaMetadata, buildTable: bad arguments are named", () => {
    expect(() => checkArrowFile(null as never, "x")).toThrow(
      new TypeError("checkArrowFile: bytes (null) must be a Uint8Array"),
    );
    expect(() => checkArrowFile(new Uint8Array(8), "x", { verifyChecksm: false } as never)).toThrow(
      /did you mean "verifyChecksum"\?/,
    );
    expect(() => metadataMap("demo", null as never)).toThrow(
      new TypeError("demo: metadata (null) must be an object of strings and numbers"),
    );
    expect(() => schemaMetadata("demo", null as never)).toThrow(
      new TypeError("demo: meta (null) must be a TableMetadata object"),
    );
    expect(() => buildTable("demo", 1, null as never, { simulator: "x", table: "x" })).toThrow(
      new TypeError("demo: columns (null) must be an array of column specs"),
    );
  });
});

describe("writers: a path that is a directory is named, not a raw OS error", () => {
  it("writeArrow, Figure.save, writeVtk, writeViewer", async () => {
    const dir = await Deno.makeTempDir();
    await Deno.mkdir(`${dir}/d.out`);
    const p = `${dir}/d.out`;
    const rule = `${p}: is not a regular file (a directory); give the path of a file`;
    await expect(writeArrow(p, particlesTable(one()))).rejects.toThrow(`writeArrow: ${rule}`);
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"/>';
    await expect(new Figure(svg, 4, 4).save(`${dir}/d.svg`).then(() => Deno.mkdir(`${dir}/x.svg`)))
      .resolves.toBeUndefined();
    await expect(new Figure(svg, 4, 4).save(`${dir}/x.svg`)).rejects.toThrow(
      `Figure.save: ${dir}/x.svg: is not a regular file (a directory)`,
    );
    await Deno.mkdir(`${dir}/v.vtp`);
    const grain = { ...one(), angularVelocities: [0, 0, 0], ids: [0] };
    await expect(writeVtk(`${dir}/v.vtp`, grain)).rejects.toThrow(
      `writeVtk: ${dir}/v.vtp: is not a regular file (a directory)`,
    );
    await Deno.mkdir(`${dir}/v.html`);
    await expect(writeViewer(`${dir}/v.html`, one() as never)).rejects.toThrow(
      `View3D.save: ${dir}/v.html: is not a regular file (a directory)`,
    );
  });
});

describe("notebook: bad arguments and options are named", () => {
  it("systemSummary, systemBundle, tableBundle, tableView, ViewRecorder.fromFrames", async () => {
    expect(() => systemSummary(null as never)).toThrow(
      new TypeError("systemSummary: system is null, must be a particle system object"),
    );
    expect(() => systemBundle(null as never)).toThrow(/^systemBundle: system is null/);
    expect(() => systemBundle(one(), { figur: false } as never)).toThrow(
      /^systemBundle: unknown option "figur" in options; did you mean "figure"\?/,
    );
    const t = particlesTable(one());
    expect(() => tableBundle(t, null as never)).toThrow(
      new TypeError("tableBundle: options (null) must be an options object"),
    );
    expect(() => tableBundle(t, { rowz: 3 } as never)).toThrow(/did you mean "rows"\?/);
    expect(() => tableView(t, { row: 3 } as never)).toThrow(/^tableView: .*did you mean "rows"\?/);
    await expect(ViewRecorder.fromFrames(null as never)).rejects.toThrow(
      /^ViewRecorder\.fromFrames: frames \(null\) must be an iterable of frames/,
    );
  });

  it("Progress and runWithProgress: options by name", async () => {
    expect(() => new Progress(10, null as never)).toThrow(
      new TypeError("Progress: options (null) must be an options object"),
    );
    expect(() => new Progress(10, { mod: "none" } as never)).toThrow(
      /^Progress: unknown option "mod" in options; did you mean "mode"\?/,
    );
    expect(() => new Progress(10, { mode: "silent" } as never)).toThrow(
      /^Progress: options\.mode \("silent"\) must be one of "auto", "notebook", "terminal", "none"/,
    );
    expect(() => new Progress(10, { interval: NaN })).toThrow(RangeError);
    const sim = { step() {} };
    await expect(runWithProgress(sim, 3, { evry: 1 } as never)).rejects.toThrow(
      /^runWithProgress: unknown option "evry" in options; did you mean "every"\?/,
    );
    await expect(runWithProgress(sim, 3, { every: 0, mode: "none" })).rejects.toThrow(
      /^runWithProgress: options\.every \(0\) must be a positive integer/,
    );
    await runWithProgress(sim, 3, { every: 1, mode: "none", label: "ok" }); // still runs
  });
});
