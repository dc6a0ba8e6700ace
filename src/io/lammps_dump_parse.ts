/**
 * The LAMMPS text dump parser behind `./lammps_dump.ts`: the frame record
 * ({@link LammpsFrame}), what a dump must match ({@link LammpsDumpExpectation}), and
 * {@link DumpParser}, a line-by-line state machine that makes every check listed in the module
 * documentation of `./lammps_dump.ts` in constant memory beyond the current frame.
 *
 * @module
 */
import type { Material } from "../sphere3d/material.ts";

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
export class DumpParser {
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

/** Throw unless `bytes[0..n)` is ASCII text (printable characters and newlines). */
export function checkAscii(where: string, bytes: Uint8Array, n: number, offset: number): void {
  for (let i = 0; i < n; i++) {
    const b = bytes[i];
    if (b > 126 || (b < 32 && b !== 10)) {
      throw new RangeError(`${where}: byte ${offset + i} (0x${b.toString(16)}) is not ASCII text`);
    }
  }
}

/** A line shortened to 40 characters for an error message. */
function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 40)}…` : s;
}

/** A list of timesteps shortened for an error message. */
function summary(a: readonly number[]): string {
  return a.length <= 6
    ? `[${a.join(", ")}]`
    : `[${a.slice(0, 3).join(", ")}, …, ${a.slice(-2).join(", ")}] (${a.length})`;
}
