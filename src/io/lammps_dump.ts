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
import type { GranularSystem } from "../sphere3d/granular_system.ts";
import { coreOf } from "../sphere3d/granular_system.ts";
import type { Material } from "../sphere3d/material.ts";
import { bool, integerIn, options as checkOptions } from "../math/validate.ts";

/** One frame of a LAMMPS dump, as columns. */
export interface LammpsFrame {
  /** The LAMMPS timestep. */
  timestep: number;
  /** The simulated time, when the dump carries `ITEM: TIME`. */
  time: number | null;
  /** Number of atoms. */
  count: number;
  /** Box bounds: lower and upper corner, boundary flags per axis ("pp", "ff", "mm" …). */
  box: { lo: number[]; hi: number[]; flags: string[]; tilt: number[] | null };
  /** Column names, in the dump's order. */
  names: string[];
  /** Every column by name (atom lines in file order). */
  columns: Map<string, Float64Array>;
}

/** The Grainlab export a dump should match (what `exportLammps` returned fits). */
export interface LammpsDumpExpectation {
  /** The exact timesteps of the frames, in order. */
  timesteps?: readonly number[];
  /** Atoms per frame. */
  atoms?: number;
  /** The boundary letter of each axis ("p", "f", "s", "m"): every frame's flags are them doubled. */
  boundary?: readonly string[];
  /** The exact column names, in order. */
  columns?: readonly string[];
  /** The LAMMPS time step (s), to stamp the tables' time. */
  timeStep?: number;
  /** The world's time at export (s), added to the tables' time. @default 0 */
  startTime?: number;
  /** The atom types (type k at index k − 1), to fill the tables' materialId and fixed. */
  types?: readonly { type: number; materialId: number; fixed: boolean }[];
  /** The material, stored in the tables' metadata (so `GranularSystem.fromTable` finds it). */
  material?: Material;
}

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

/** A decimal number as C's printf writes it; anything else is rejected. */
const NUMBER = /^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/;
const INTEGER = /^[-+]?\d+$/;
const NAME = /^[A-Za-z_][A-Za-z0-9_]*(?:\[\d+\])?$/;
const INTEGER_COLUMNS = new Set(["id", "type", "mol", "proc", "procp1", "element"]);

/** Where the parser is in a frame: which line it expects next. */
type Stage =
  | "head"
  | "units"
  | "afterUnits"
  | "time"
  | "afterTime"
  | "timestep"
  | "natomsItem"
  | "natoms"
  | "boxItem"
  | "box"
  | "atomsItem"
  | "atoms";

const WHAT: Record<Stage, string> = {
  head: '"ITEM: TIMESTEP"',
  units: "the units",
  afterUnits: '"ITEM: TIMESTEP"',
  time: "the time",
  afterTime: '"ITEM: TIMESTEP"',
  timestep: "the timestep",
  natomsItem: '"ITEM: NUMBER OF ATOMS"',
  natoms: "the number of atoms",
  boxItem: '"ITEM: BOX BOUNDS"',
  box: "the box bounds",
  atomsItem: '"ITEM: ATOMS"',
  atoms: "atom lines",
};

/**
 * The dump parser, fed one line at a time (without its newline): every check of the module
 * documentation, frame by frame, in constant memory beyond the current frame. `push` returns
 * a frame when its last line arrives; `end` checks the end of the file.
 */
class DumpParser {
  #stage: Stage = "head";
  #line = 0;
  #used = 0;
  #frames = 0;
  #last = -1;
  #first: { names: string; flags: string; ids: Float64Array | null } | null = null;
  // the frame being read
  #time: number | null = null;
  #timestep = 0;
  #count = 0;
  #flags: string[] = [];
  #triclinic = false;
  #lo: number[] = [];
  #hi: number[] = [];
  #tilt: number[] = [];
  #names: string[] = [];
  #cols: Float64Array[] = [];
  #isInt: boolean[] = [];
  #filled = 0;

  constructor(
    readonly where: string,
    readonly ex: LammpsDumpExpectation | undefined,
    readonly same: boolean,
    readonly totalBytes: number,
  ) {}

  #fail(what: string): never {
    throw new RangeError(`${this.where}: line ${this.#line}: ${what}`);
  }

  #int(s: string, what: string): number {
    if (!INTEGER.test(s)) this.#fail(`${what} (${clip(s)}) is not an integer`);
    const v = Number(s);
    if (!Number.isSafeInteger(v) || v < 0) {
      this.#fail(`${what} (${clip(s)}) must be a non-negative integer`);
    }
    return v;
  }

  #num(s: string, what: string): number {
    if (!NUMBER.test(s)) this.#fail(`${what} (${clip(s)}) is not a number`);
    const v = Number(s);
    if (!Number.isFinite(v)) this.#fail(`${what} (${clip(s)}) is not finite`);
    return v;
  }

  /** One line; returns the frame it completes, if any. */
  push(s: string): LammpsFrame | null {
    this.#line++;
    this.#used += s.length + 1;
    const ex = this.ex;
    switch (this.#stage) {
      case "head":
      case "afterUnits":
      case "afterTime": {
        if (s === "ITEM: UNITS" && this.#stage === "head") this.#stage = "units";
        else if (s === "ITEM: TIME" && this.#stage !== "afterTime") this.#stage = "time";
        else if (s === "ITEM: TIMESTEP") this.#stage = "timestep";
        else if (this.#frames > 0 && this.#stage === "head" && !s.startsWith("ITEM:")) {
          this.#fail(`more atom lines than the ${this.#count} announced ("${clip(s)}")`);
        } else this.#fail(`expected "ITEM: TIMESTEP", found "${clip(s)}"`);
        return null;
      }
      case "units":
        this.#stage = "afterUnits";
        return null;
      case "time":
        this.#time = this.#num(s, "the time");
        this.#stage = "afterTime";
        return null;
      case "timestep": {
        const t = this.#int(s, "the timestep");
        if (this.#frames > 0 && t <= this.#last) {
          this.#fail(`timestep ${t} does not follow ${this.#last} (timesteps must increase)`);
        }
        const want = ex?.timesteps;
        if (want && (this.#frames >= want.length || want[this.#frames] !== t)) {
          this.#fail(
            `frame ${this.#frames} is at timestep ${t}, expected ${
              this.#frames < want.length ? want[this.#frames] : "no more frames"
            } (timesteps ${summary(want)})`,
          );
        }
        this.#timestep = t;
        this.#stage = "natomsItem";
        return null;
      }
      case "natomsItem":
        if (s !== "ITEM: NUMBER OF ATOMS") {
          this.#fail(`expected "ITEM: NUMBER OF ATOMS", found "${clip(s)}"`);
        }
        this.#stage = "natoms";
        return null;
      case "natoms": {
        const n = this.#int(s, "the number of atoms");
        if (ex?.atoms !== undefined && n !== ex.atoms) {
          this.#fail(`timestep ${this.#timestep} has ${n} atoms, expected ${ex.atoms}`);
        }
        this.#count = n;
        this.#stage = "boxItem";
        return null;
      }
      case "boxItem": {
        const bm = /^ITEM: BOX BOUNDS( xy xz yz)?((?: [pfsm]{2}){3})$/.exec(s);
        if (!bm) {
          this.#fail(
            `expected "ITEM: BOX BOUNDS" and three boundary flags, found "${clip(s)}"`,
          );
        }
        this.#triclinic = bm[1] !== undefined;
        this.#flags = bm[2].trim().split(" ");
        const flags = this.#flags.join(" ");
        if (this.#first && flags !== this.#first.flags) {
          this.#fail(`boundary flags "${flags}" differ from the first frame's`);
        }
        if (ex?.boundary && this.#flags.some((f, a) => f !== ex.boundary![a].repeat(2))) {
          this.#fail(
            `boundary flags "${flags}", expected "${ex.boundary.map((b) => b + b).join(" ")}"`,
          );
        }
        this.#lo = [], this.#hi = [], this.#tilt = [];
        this.#stage = "box";
        return null;
      }
      case "box": {
        const parts = s.split(" ");
        if (parts.length !== (this.#triclinic ? 3 : 2)) {
          this.#fail(`box bounds need ${this.#triclinic ? 3 : 2} numbers`);
        }
        const lo = this.#num(parts[0], "a box bound"), hi = this.#num(parts[1], "a box bound");
        if (this.#triclinic) this.#tilt.push(this.#num(parts[2], "a tilt factor"));
        if (!(lo <= hi)) this.#fail(`box bound ${lo} is above ${hi}`);
        this.#lo.push(lo), this.#hi.push(hi);
        if (this.#lo.length === 3) this.#stage = "atomsItem";
        return null;
      }
      case "atomsItem": {
        if (!s.startsWith("ITEM: ATOMS ")) {
          this.#fail(`expected "ITEM: ATOMS <columns>", found "${clip(s)}"`);
        }
        const names = s.slice(12).split(" ");
        const seen = new Set<string>();
        for (const c of names) {
          if (!NAME.test(c)) this.#fail(`bad column name "${clip(c)}"`);
          if (seen.has(c)) this.#fail(`column "${c}" appears twice`);
          seen.add(c);
        }
        const joined = names.join(" ");
        if (ex?.columns && joined !== ex.columns.join(" ")) {
          this.#fail(`columns "${joined}", expected "${ex.columns.join(" ")}"`);
        }
        if (this.#first && joined !== this.#first.names) {
          this.#fail(`columns "${joined}" differ from the first frame's "${this.#first.names}"`);
        }
        // Each atom line holds at least one character and one separator per column: a count
        // the rest of the file cannot hold is an error before anything is allocated.
        const room = Math.floor((this.totalBytes - this.#used) / (2 * names.length));
        if (this.#count > room) {
          this.#fail(
            `${this.#count} atoms announced, but the rest of the file holds at most ${room} ` +
              "(file cut short?)",
          );
        }
        this.#names = names;
        this.#cols = names.map(() => new Float64Array(this.#count));
        this.#isInt = names.map((c) => INTEGER_COLUMNS.has(c));
        this.#filled = 0;
        this.#stage = "atoms";
        return this.#count === 0 ? this.#complete() : null;
      }
      case "atoms": {
        if (s.startsWith("ITEM:")) {
          this.#fail(`${this.#count} atoms announced, ${this.#filled} found`);
        }
        const parts = s.split(" ");
        const names = this.#names, i = this.#filled;
        if (parts.length !== names.length) {
          this.#fail(`${parts.length} values for ${names.length} columns`);
        }
        for (let c = 0; c < parts.length; c++) {
          const t = parts[c];
          if (this.#isInt[c]) {
            const v = this.#int(t, `column ${names[c]}`);
            if (v === 0 && (names[c] === "id" || names[c] === "type")) {
              this.#fail(`${names[c]} 0 (LAMMPS counts from 1)`);
            }
            this.#cols[c][i] = v;
          } else this.#cols[c][i] = this.#num(t, `column ${names[c]}`);
        }
        this.#filled++;
        return this.#filled === this.#count ? this.#complete() : null;
      }
    }
  }

  #complete(): LammpsFrame {
    const count = this.#count, names = this.#names;
    const columns = new Map(names.map((c, j) => [c, this.#cols[j]]));
    const id = columns.get("id");
    let sorted: Float64Array | null = null;
    if (id) {
      sorted = Float64Array.from(id).sort();
      for (let i = 1; i < count; i++) {
        if (sorted[i] === sorted[i - 1]) {
          this.#fail(`timestep ${this.#timestep}: atom id ${sorted[i]} appears twice`);
        }
      }
      const ids0 = this.#first?.ids;
      if (this.same && ids0 && (ids0.length !== count || sorted.some((v, i) => v !== ids0[i]))) {
        this.#fail(
          `timestep ${this.#timestep}: the atom ids differ from the first frame's ` +
            "(sameAtoms: false accepts frames with different atoms)",
        );
      }
    }
    this.#first ??= { names: names.join(" "), flags: this.#flags.join(" "), ids: sorted };
    this.#frames++;
    this.#last = this.#timestep;
    this.#stage = "head";
    const time = this.#time;
    this.#time = null;
    return {
      timestep: this.#timestep,
      time,
      count,
      box: {
        lo: this.#lo,
        hi: this.#hi,
        flags: this.#flags,
        tilt: this.#triclinic ? this.#tilt : null,
      },
      names,
      columns,
    };
  }

  /** The end of the file: no frame left half read, and every expected frame seen. */
  end(): void {
    if (this.#stage === "atoms") {
      throw new RangeError(
        `${this.where}: the file ends after ${this.#filled} of the ${this.#count} atoms ` +
          `announced at timestep ${this.#timestep} (file cut short?)`,
      );
    }
    if (this.#stage !== "head") {
      throw new RangeError(`${this.where}: the file ends where ${WHAT[this.#stage]} should be`);
    }
    const want = this.ex?.timesteps;
    if (want && this.#frames !== want.length) {
      throw new RangeError(
        `${this.where}: ${this.#frames} frames, expected ${want.length} (timesteps ${
          summary(want)
        }): file cut short, or the run stopped early?`,
      );
    }
  }
}

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
 * import { parseLammpsDump } from "@grainlab/grainlab/io";
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

function dumpOptions(where: string, options: LammpsDumpOptions) {
  const o = checkOptions<LammpsDumpOptions>(where, "options", options, DUMP_KEYS);
  return {
    o,
    same: bool(where, "sameAtoms", o.sameAtoms, true),
    ex: o.expect === undefined ? undefined : checkExpect(o.expect),
  };
}

/** Throw unless `bytes[0..n)` is ASCII text (printable characters and newlines). */
function checkAscii(where: string, bytes: Uint8Array, n: number, offset: number): void {
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b > 126 || (b < 32 && b !== 10)) {
      throw new RangeError(`${where}: byte ${offset + i} (0x${b.toString(16)}) is not ASCII text`);
    }
  }
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
 * import { parseLammpsDumpBytes } from "@grainlab/grainlab/io";
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
 * import { lammpsDumpFrames } from "@grainlab/grainlab/io";
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
  const w = `readLammpsDump: ${path}`;
  const { chunkBytes, ...rest } = options ?? {};
  const { ex, same } = dumpOptions("readLammpsDump", rest);
  const size = integerIn("readLammpsDump", "chunkBytes", chunkBytes ?? 4 << 20, 1, 1 << 30);
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

/**
 * One frame as an Arrow table with `particlesTable`'s columns (see {@link LammpsDump.tables});
 * Arrow is loaded on first use.
 *
 * @param frame a parsed frame
 * @param expectation the export it came from (types, material, time step), optional
 * @example
 * ```ts
 * import { lammpsFrameTable, parseLammpsDump } from "@grainlab/grainlab/io";
 * import { expect } from "expect";
 * const [f] = parseLammpsDump("ITEM: TIMESTEP\n7\nITEM: NUMBER OF ATOMS\n1\nITEM: BOX BOUNDS " +
 *   "ff ff ff\n0 1\n0 1\n0 1\nITEM: ATOMS id x y z vx vy vz\n3 0.1 0.2 0.3 0 0 -2\n");
 * const t = await lammpsFrameTable(f);
 * expect(t.getChild("id")!.get(0)).toBe(2);
 * expect(t.getChild("speed")!.get(0)).toBe(2);
 * ```
 */
export async function lammpsFrameTable(
  frame: LammpsFrame,
  expectation?: LammpsDumpExpectation,
): Promise<A.Table> {
  const { particlesTable } = await import("../arrow/particles.ts");
  return particlesTable(
    frameSystem("lammpsFrameTable", frame, expectation),
    frameStamp(frame, expectation),
  );
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

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

function summary(a: readonly number[]): string {
  return a.length <= 6
    ? `[${a.join(", ")}]`
    : `[${a.slice(0, 3).join(", ")}, …, ${a.slice(-2).join(", ")}] (${a.length})`;
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
 * import { readLammpsDump } from "@grainlab/grainlab/io";
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
  const max = options?.maxBytes ?? 2 ** 30;
  let size: number;
  try {
    size = (await Deno.stat(path)).size;
  } catch (e) {
    throw new Error(`${w}: ${path}: cannot read the file (${(e as Error).message})`, { cause: e });
  }
  if (size > max) {
    throw new RangeError(
      `${w}: ${path} holds ${size} bytes, more than maxBytes (${max}); read it frame by frame ` +
        "with lammpsDumpFrames, or raise maxBytes",
    );
  }
  const frames: LammpsFrame[] = [];
  for await (const f of lammpsDumpFrames(path, options)) frames.push(f);
  const ex = options.expect;
  const tables: A.Table[] = [];
  for (const f of frames) tables.push(await lammpsFrameTable(f, ex));
  return { frames, tables };
}

function frameStamp(f: LammpsFrame, ex?: LammpsDumpExpectation) {
  const time = f.time ??
    (ex?.timeStep !== undefined ? (ex.startTime ?? 0) + f.timestep * ex.timeStep : undefined);
  return { step: f.timestep, time, simulator: "lammps" };
}

/** A frame as the particle-system shape `particlesTable` reads. */
function frameSystem(w: string, f: LammpsFrame, ex?: LammpsDumpExpectation) {
  const need = (c: string) => {
    const v = f.columns.get(c);
    if (!v) throw new RangeError(`${w}: timestep ${f.timestep}: the dump has no "${c}" column`);
    return v;
  };
  const n = f.count;
  const inter = (names: string[], fallback?: string[]) => {
    const cs = names.map((c, k) =>
      f.columns.get(c) ?? (fallback ? f.columns.get(fallback[k]) : undefined)
    );
    if (cs.some((c) => c === undefined)) return null;
    const out = new Float64Array(3 * n);
    for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) out[3 * i + k] = cs[k]![i];
    return out;
  };
  const id = need("id");
  const positions = inter(["x", "y", "z"], ["xu", "yu", "zu"]);
  if (!positions) {
    throw new RangeError(`${w}: timestep ${f.timestep}: the dump has no x y z columns`);
  }
  const velocities = inter(["vx", "vy", "vz"]) ?? new Float64Array(3 * n);
  const angularVelocities = inter(["omegax", "omegay", "omegaz"]) ?? undefined;
  const radius = f.columns.get("radius");
  const diameter = f.columns.get("diameter");
  const radii = radius ?? (diameter ? diameter.map((d) => d / 2) : undefined);
  const type = f.columns.get("type");
  let materialIds: Uint16Array | undefined, fixed: Uint8Array | undefined;
  if (type && ex?.types) {
    materialIds = new Uint16Array(n);
    fixed = new Uint8Array(n);
    for (let i = 0; i < n; i++) {
      const t = ex.types[type[i] - 1];
      if (!t) {
        throw new RangeError(
          `${w}: timestep ${f.timestep}: atom type ${type[i]} is not in expect.types`,
        );
      }
      materialIds[i] = t.materialId;
      fixed[i] = t.fixed ? 1 : 0;
    }
  }
  return {
    count: n,
    positions,
    velocities,
    angularVelocities,
    radii,
    masses: f.columns.get("mass"),
    ids: Uint32Array.from(id, (v) => v - 1),
    materialIds,
    fixed,
    material: ex?.material,
    dimension: 3,
  };
}

/** Options of {@link loadLammpsFrame}. */
export interface LoadLammpsFrameOptions {
  /** Grainlab stable id = LAMMPS atom id − idOffset. @default 1 (what exportLammps writes) */
  idOffset?: number;
  /** Largest relative difference accepted between a dumped radius and the system's. @default 1e-12 */
  radiusTolerance?: number;
}

const LOAD_KEYS: readonly string[] = ["idOffset", "radiusTolerance"];

/**
 * Load a dumped frame into the system it was exported from: positions, velocities and spins,
 * matched by stable id (LAMMPS id − 1). Every atom must be a particle of the system and every
 * particle must be in the frame, with the same radius; nothing changes unless all checks pass.
 * The tangential springs are cleared (LAMMPS's histories are not in the dump) and the forces
 * recomputed at the next step. To build a new system instead, pass one of
 * {@link readLammpsDump}'s tables to `GranularSystem.fromTable`.
 *
 * @param system the system (usually the one exported)
 * @param frame a frame of {@link parseLammpsDump} / {@link readLammpsDump}
 * @example
 * ```ts
 * import { loadLammpsFrame, parseLammpsDump } from "@grainlab/grainlab/io";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const g = new World().addGranularParticles({ positions: [[0, 0, 1]], radii: 0.02 });
 * const [f] = parseLammpsDump([
 *   "ITEM: TIMESTEP", "5", "ITEM: NUMBER OF ATOMS", "1", "ITEM: BOX BOUNDS ff ff ff",
 *   "-1 1", "-1 1", "0 2", "ITEM: ATOMS id radius x y z vx vy vz", "1 0.02 0 0 0.5 0 0 -1", "",
 * ].join("\n"));
 * loadLammpsFrame(g, f);
 * expect(g.getPosition(0)).toEqual([0, 0, 0.5]);
 * expect(g.getVelocity(0)).toEqual([0, 0, -1]);
 * ```
 */
export function loadLammpsFrame(
  system: GranularSystem,
  frame: LammpsFrame,
  options: LoadLammpsFrameOptions = {},
): void {
  const w = "loadLammpsFrame";
  const o = checkOptions<LoadLammpsFrameOptions>(w, "options", options, LOAD_KEYS);
  const off = integerIn(w, "idOffset", o.idOffset ?? 1, -(2 ** 31), 2 ** 31);
  const tol = o.radiusTolerance ?? 1e-12;
  const core = coreOf.get(system);
  if (!core) throw new TypeError(`${w}: system must be a sphere3d GranularSystem`);
  const c = frame?.columns;
  if (!(c instanceof Map)) throw new TypeError(`${w}: frame must be a parsed LAMMPS frame`);
  const id = c.get("id"), x = c.get("x") ?? c.get("xu"), y = c.get("y") ?? c.get("yu");
  const z = c.get("z") ?? c.get("zu");
  if (!id || !x || !y || !z) {
    throw new RangeError(`${w}: the frame needs the columns id, x, y, z`);
  }
  const v = ["vx", "vy", "vz"].map((k) => c.get(k));
  const om = ["omegax", "omegay", "omegaz"].map((k) => c.get(k));
  const r = c.get("radius") ?? c.get("diameter")?.map((d) => d / 2);
  const n = frame.count;
  if (n !== system.count) {
    throw new RangeError(`${w}: the frame has ${n} atoms, the system ${system.count} particles`);
  }
  // Check everything first: the system changes only if the whole frame fits.
  const slots = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const gid = id[i] - off;
    const s = system.indexOfId(gid);
    if (s < 0) {
      throw new RangeError(`${w}: atom ${id[i]} (Grainlab id ${gid}) is not in the system`);
    }
    if (r && Math.abs(r[i] - system.radii[s]) > tol * system.radii[s]) {
      throw new RangeError(
        `${w}: atom ${id[i]} has radius ${r[i]} in the dump, ${system.radii[s]} in the system`,
      );
    }
    slots[i] = s;
  }
  const ps = core.ps;
  for (let i = 0; i < n; i++) {
    const o3 = 3 * slots[i];
    ps.pos[o3] = x[i], ps.pos[o3 + 1] = y[i], ps.pos[o3 + 2] = z[i];
    if (ps.fixed[slots[i]]) continue;
    for (let k = 0; k < 3; k++) {
      const vk = v[k], wk = om[k];
      if (vk) ps.vel[o3 + k] = vk[i];
      if (wk) ps.ang[o3 + k] = wk[i];
    }
  }
  for (let s = 0; s < ps.count; s++) core.hist.clearSlot(s);
  core.invalidate();
}
