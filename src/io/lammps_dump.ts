/**
 * Reading LAMMPS text dumps (`dump custom`, `write_dump`) back: {@link parseLammpsDump} (frames
 * as typed-array columns, no dependencies), {@link readLammpsDump} (a file, frames as Arrow
 * tables too), {@link lammpsDumpFrames} (a file of any size, frame by frame) and
 * {@link loadLammpsFrame} (a frame into the `GranularSystem` it was exported from).
 *
 * **What the reader detects.** A LAMMPS text dump has no checksum, so the reader checks
 * everything the format does fix: the `ITEM:` structure and its order; that the file ends
 * with a newline (a file cut inside its last line); the atom count of each frame against its
 * atom lines; one value per column on every line; every value a finite decimal number (ids
 * and types positive integers) — no stray characters, `nan` or `inf`; no duplicate or
 * malformed column names; the same columns and boundary flags in every frame; unique ids, and
 * the same ids in every frame (unless `sameAtoms: false`); increasing timesteps; ordered box
 * bounds; and, when given the export it came from (`expect`), the exact list of timesteps, the
 * atom count, the columns and the boundary flags — which catches a file cut at a frame
 * boundary and a mutated timestep, count or header. **What it cannot detect:** a changed
 * character that leaves every value a valid number — one digit turned into another, a sign
 * flipped, a decimal point turned into a digit, an exponent digit changed — gives a different
 * number silently (a position, a velocity, a type, a box bound). A LAMMPS text dump carries no
 * checksum, so such a value cannot be told from the true one; keep checksums of the files (or
 * use LAMMPS binary or restart files) where that matters.
 *
 * @module
 */
import type * as A from "apache-arrow";
import { bool, integerIn, options as checkOptions } from "../math/validate.ts";
import { regularFile } from "../math/files.ts";
import {
  checkAscii,
  DumpParser,
  type LammpsDumpExpectation,
  type LammpsFrame,
} from "./lammps_dump_parse.ts";
import { lammpsFrameTable } from "./lammps_dump_frames.ts";

/** Options of {@link parseLammpsDump} and {@link readLammpsDump}. */
export interface LammpsDumpOptions {
  /** What the dump must hold (the export it came from). */
  expect?: LammpsDumpExpectation;
  /** Require the same atom ids in every frame. @default true */
  sameAtoms?: boolean;
  /**
   * Largest file `readLammpsDump` accepts (bytes): it holds every frame in memory (about 200
   * bytes per atom and frame); read bigger dumps frame by frame with `lammpsDumpFrames`.
   * @default 1 GiB
   */
  maxBytes?: number;
}

const DUMP_KEYS: readonly string[] = ["expect", "sameAtoms", "maxBytes"];
const EXPECT_KEYS: readonly string[] = [
  "timesteps",
  "atoms",
  "boundary",
  "columns",
  "timeStep",
  "startTime",
  "types",
  "material",
  // the other fields of an export record are accepted and ignored
  "dir",
  "inputFile",
  "dataFile",
  "dumpFile",
  "logFile",
  "steps",
  "exact",
  "notes",
];
/**
 * Parse the text of a LAMMPS dump (`dump custom` / `dump atom` / `write_dump`, orthogonal or
 * triclinic box) into frames. Strict: any departure from the format throws a RangeError naming
 * the line and what is wrong (see the module documentation for what is and is not detected).
 *
 * @param text the whole file
 * @param options the expected export, same-atoms check
 * @param name the file name for error messages
 * @example
 * ```ts
 * import { lammps } from "@grainlab/grainlab/io";
 * const { parseLammpsDump } = lammps;
 * import { expect } from "expect";
 * const text = [
 *   "ITEM: TIMESTEP", "0", "ITEM: NUMBER OF ATOMS", "2", "ITEM: BOX BOUNDS ff ff ff",
 *   "-1 1", "-1 1", "-1 1", "ITEM: ATOMS id x y z", "1 0 0 0.5", "2 0.1 0 0.5", "",
 * ].join("\n");
 * const [f] = parseLammpsDump(text);
 * expect(f.count).toBe(2);
 * expect([...f.columns.get("x")!]).toEqual([0, 0.1]);
 * expect(() => parseLammpsDump(text.replace("0.1", "0.x"))).toThrow(/not a number/);
 * expect(() => parseLammpsDump(text.slice(0, -3))).toThrow(/newline/);
 * ```
 */
export function parseLammpsDump(
  text: string,
  options: LammpsDumpOptions = {},
  name = "<text>",
): LammpsFrame[] {
  const w = `parseLammpsDump: ${name}`;
  const { ex, same } = dumpOptions("parseLammpsDump", options);
  if (typeof text !== "string") throw new TypeError(`${w}: text must be a string`);
  if (text.length === 0) throw new RangeError(`${w}: the file is empty`);
  if (!text.endsWith("\n")) {
    throw new RangeError(`${w}: the file does not end with a newline (cut inside its last line)`);
  }
  const parser = new DumpParser(w, ex, same, text.length);
  const frames: LammpsFrame[] = [];
  for (
    let start = 0, nl = text.indexOf("\n");
    nl >= 0;
    start = nl + 1, nl = text.indexOf("\n", start)
  ) {
    const f = parser.push(text.slice(start, nl));
    if (f) frames.push(f);
  }
  parser.end();
  return frames;
}

function dumpOptions(where: string, options: LammpsDumpOptions, keys = DUMP_KEYS) {
  const o = checkOptions<LammpsDumpOptions>(where, "options", options, keys);
  if (o.maxBytes !== undefined) integerIn(where, "options.maxBytes", o.maxBytes, 1, 2 ** 53);
  return {
    o,
    same: bool(where, "options.sameAtoms", o.sameAtoms, true),
    ex: o.expect === undefined ? undefined : checkExpect(o.expect),
  };
}
/**
 * {@link parseLammpsDump} on the bytes of a dump file: they must be text (ASCII, as LAMMPS
 * writes; any other byte is an error).
 *
 * @param bytes the file's bytes
 * @param options the expected export, same-atoms check
 * @param name the file name for error messages
 * @example
 * ```ts
 * import { parseLammpsDumpBytes } from "./lammps_dump.ts";
 * import { expect } from "expect";
 * const text = "ITEM: TIMESTEP\n0\nITEM: NUMBER OF ATOMS\n0\nITEM: BOX BOUNDS ff ff ff\n" +
 *   "0 1\n0 1\n0 1\nITEM: ATOMS id x y z\n";
 * const bytes = new TextEncoder().encode(text);
 * expect(parseLammpsDumpBytes(bytes)[0].count).toBe(0);
 * bytes[3] = 0xff;
 * expect(() => parseLammpsDumpBytes(bytes)).toThrow(/not ASCII text/);
 * ```
 */
export function parseLammpsDumpBytes(
  bytes: Uint8Array,
  options: LammpsDumpOptions = {},
  name = "<bytes>",
): LammpsFrame[] {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`parseLammpsDump: ${name}: bytes must be a Uint8Array`);
  }
  checkAscii(`parseLammpsDump: ${name}`, bytes, bytes.length, 0);
  return parseLammpsDump(new TextDecoder().decode(bytes), options, name);
}

/** Options of {@link lammpsDumpFrames}. */
export interface LammpsDumpStreamOptions extends LammpsDumpOptions {
  /** Bytes read at a time. @default 4 MiB */
  chunkBytes?: number;
}

/** The longest line accepted (a file without newlines is not a dump). */
const MAX_LINE = 1 << 20;

/**
 * Read a LAMMPS dump frame by frame, in chunks: the same checks as {@link parseLammpsDump},
 * but only one frame in memory at a time, for dumps of any size. A damaged file throws when
 * the reader reaches the damage; the frames before it have been yielded.
 *
 * @param path the dump file
 * @param options the expected export, same-atoms check, chunk size
 * @example
 * ```ts
 * import { lammps } from "@grainlab/grainlab/io";
 * const { lammpsDumpFrames } = lammps;
 * import { expect } from "expect";
 * const path = `${await Deno.makeTempDir()}/dump.txt`;
 * const frame = (t: number) => `ITEM: TIMESTEP\n${t}\nITEM: NUMBER OF ATOMS\n1\n` +
 *   `ITEM: BOX BOUNDS pp pp pp\n0 1\n0 1\n0 1\nITEM: ATOMS id x y z\n1 0.5 0.5 ${t / 100}\n`;
 * await Deno.writeTextFile(path, frame(0) + frame(10) + frame(20));
 * const z: number[] = [];
 * for await (const f of lammpsDumpFrames(path, { chunkBytes: 16 })) z.push(f.columns.get("z")![0]);
 * expect(z).toEqual([0, 0.1, 0.2]);
 * ```
 */
export async function* lammpsDumpFrames(
  path: string,
  options: LammpsDumpStreamOptions = {},
): AsyncGenerator<LammpsFrame, void, undefined> {
  const where = "lammpsDumpFrames";
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`${where}: path (${String(path)}) must be a non-empty string`);
  }
  const w = `readLammpsDump: ${path}`;
  const { ex, same, o } = dumpOptions(where, options, [...DUMP_KEYS, "chunkBytes"]);
  const chunkBytes = (o as LammpsDumpStreamOptions).chunkBytes;
  const size = integerIn(where, "options.chunkBytes", chunkBytes ?? 4 << 20, 1, 1 << 30);
  regularFile("readLammpsDump", path); // before opening: opening a FIFO blocks
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    throw new Error(`${w}: cannot read the file (${(e as Error).message})`, { cause: e });
  }
  try {
    const total = (await file.stat()).size;
    if (total === 0) throw new RangeError(`${w}: the file is empty`);
    const parser = new DumpParser(w, ex, same, total);
    const buf = new Uint8Array(size), dec = new TextDecoder();
    let carry = "", offset = 0;
    for (;;) {
      const n = await file.read(buf);
      if (n === null) break;
      checkAscii(w, buf, n, offset);
      offset += n;
      const text = carry + dec.decode(buf.subarray(0, n));
      let start = 0;
      for (let nl = text.indexOf("\n"); nl >= 0; nl = text.indexOf("\n", start)) {
        const f = parser.push(text.slice(start, nl));
        start = nl + 1;
        if (f) yield f;
      }
      carry = text.slice(start);
      if (carry.length > MAX_LINE) {
        throw new RangeError(`${w}: a line longer than ${MAX_LINE} bytes (not a LAMMPS dump)`);
      }
    }
    if (carry.length > 0) {
      throw new RangeError(`${w}: the file does not end with a newline (cut inside its last line)`);
    }
    parser.end();
  } finally {
    file.close();
  }
}
function checkExpect(e: LammpsDumpExpectation): LammpsDumpExpectation {
  const where = "parseLammpsDump";
  const o = checkOptions<LammpsDumpExpectation>(where, "expect", e, EXPECT_KEYS);
  if (o.timesteps !== undefined && !Array.isArray(o.timesteps)) {
    throw new TypeError(`${where}: expect.timesteps must be an array of timesteps`);
  }
  if (o.atoms !== undefined) integerIn(where, "expect.atoms", o.atoms, 0, 2 ** 53);
  if (o.boundary !== undefined && !(Array.isArray(o.boundary) && o.boundary.length === 3)) {
    throw new TypeError(`${where}: expect.boundary must be three boundary letters`);
  }
  if (o.columns !== undefined && !Array.isArray(o.columns)) {
    throw new TypeError(`${where}: expect.columns must be an array of column names`);
  }
  return o;
}
/** A LAMMPS dump read back: the frames as columns and as Arrow tables. */
export interface LammpsDump {
  /** The frames as parsed columns. */
  frames: LammpsFrame[];
  /**
   * One Arrow table per frame with the columns of `particlesTable`: `id` (Grainlab stable id =
   * LAMMPS id − 1), `x`, `y`, `z`, `vx`, `vy`, `vz`, `speed`, `radius`, `mass`, `materialId`,
   * `fixed` (from `expect.types`, else 0), `wx`, `wy`, `wz`; schema metadata `grainlab.simulator`
   * = "lammps", the step (LAMMPS timestep) and time (with `expect.timeStep`).
   */
  tables: A.Table[];
}

/**
 * Read a LAMMPS dump file: {@link parseLammpsDump} on its text, then one Arrow table per frame
 * (Arrow is loaded on first use). Pass the export record as `expect` to check the frames
 * against it and to fill material ids, fixed flags, times and the material.
 *
 * @param path the dump file
 * @param options expectation and checks
 * @example
 * ```ts
 * import { lammps } from "@grainlab/grainlab/io";
 * const { readLammpsDump } = lammps;
 * import { expect } from "expect";
 * const path = `${await Deno.makeTempDir()}/dump.txt`;
 * await Deno.writeTextFile(path, [
 *   "ITEM: TIMESTEP", "100", "ITEM: NUMBER OF ATOMS", "1", "ITEM: BOX BOUNDS pp pp mm",
 *   "0 1", "0 1", "0 2", "ITEM: ATOMS id type radius mass x y z vx vy vz omegax omegay omegaz",
 *   "1 1 0.02 0.05 0.5 0.5 0.02 0 0 -0.5 0 3 0", "",
 * ].join("\n"));
 * const dump = await readLammpsDump(path, { expect: { timesteps: [100], timeStep: 1e-4 } });
 * const t = dump.tables[0];
 * expect(t.getChild("id")!.get(0)).toBe(0); // Grainlab id = LAMMPS id − 1
 * expect(t.getChild("speed")!.get(0)).toBe(0.5);
 * expect(t.getChild("wy")!.get(0)).toBe(3);
 * expect(t.schema.metadata.get("grainlab.time")).toBe("0.01");
 * ```
 */
export async function readLammpsDump(
  path: string,
  options: LammpsDumpOptions = {},
): Promise<LammpsDump> {
  const w = "readLammpsDump";
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`${w}: path (${String(path)}) must be a non-empty string`);
  }
  const { o } = dumpOptions(w, options);
  const max = o.maxBytes ?? 2 ** 30;
  const size = regularFile(w, path); // before opening: opening a FIFO blocks
  if (size > max) {
    throw new RangeError(
      `${w}: ${path} holds ${size} bytes, more than maxBytes (${max}); read it frame by frame ` +
        "with lammpsDumpFrames, or raise maxBytes",
    );
  }
  const frames: LammpsFrame[] = [];
  for await (const f of lammpsDumpFrames(path, o)) frames.push(f);
  const ex = o.expect;
  const tables: A.Table[] = [];
  for (const f of frames) tables.push(await lammpsFrameTable(f, ex));
  return { frames, tables };
}
