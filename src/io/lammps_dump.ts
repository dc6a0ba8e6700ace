/**
 * Reading LAMMPS text dumps (`dump custom`, `write_dump`) back: {@link parseLammpsDump} (frames
 * as typed-array columns, no dependencies), {@link readLammpsDump} (a file, frames as Arrow
 * tables too) and {@link loadLammpsFrame} (a frame into the `GranularSystem` it was exported
 * from).
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
import { bool, integerIn, options as checkOptions, sizeGuard } from "../math/validate.ts";

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
  /** Largest file accepted (bytes). @default 4 GiB */
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
  const o = checkOptions<LammpsDumpOptions>("parseLammpsDump", "options", options, DUMP_KEYS);
  const same = bool("parseLammpsDump", "sameAtoms", o.sameAtoms, true);
  const ex = o.expect === undefined ? undefined : checkExpect(o.expect);
  if (typeof text !== "string") throw new TypeError(`${w}: text must be a string`);
  if (text.length === 0) throw new RangeError(`${w}: the file is empty`);
  if (!text.endsWith("\n")) {
    throw new RangeError(`${w}: the file does not end with a newline (cut inside its last line)`);
  }
  const lines = text.split("\n");
  lines.pop(); // after the final newline
  const frames: LammpsFrame[] = [];
  let k = 0;
  const expectLine = (what: string): string => {
    if (k >= lines.length) throw new RangeError(`${w}: the file ends where ${what} should be`);
    return lines[k++];
  };
  const int = (s: string, what: string): number => {
    if (!INTEGER.test(s)) {
      throw new RangeError(`${w}: line ${k}: ${what} (${clip(s)}) is not an integer`);
    }
    const v = Number(s);
    if (!Number.isSafeInteger(v) || v < 0) {
      throw new RangeError(`${w}: line ${k}: ${what} (${clip(s)}) must be a non-negative integer`);
    }
    return v;
  };
  const num = (s: string, what: string): number => {
    if (!NUMBER.test(s)) {
      throw new RangeError(`${w}: line ${k}: ${what} (${clip(s)}) is not a number`);
    }
    const v = Number(s);
    if (!Number.isFinite(v)) {
      throw new RangeError(`${w}: line ${k}: ${what} (${clip(s)}) is not finite`);
    }
    return v;
  };
  let ids0: Float64Array | null = null;
  while (k < lines.length) {
    let line = expectLine("ITEM: TIMESTEP");
    let time: number | null = null;
    if (line === "ITEM: UNITS") {
      expectLine("the units");
      line = expectLine("ITEM: TIMESTEP");
    }
    if (line === "ITEM: TIME") {
      time = num(expectLine("the time"), "the time");
      line = expectLine("ITEM: TIMESTEP");
    }
    if (line !== "ITEM: TIMESTEP") {
      throw new RangeError(`${w}: line ${k}: expected "ITEM: TIMESTEP", found "${clip(line)}"`);
    }
    const timestep = int(expectLine("the timestep"), "the timestep");
    if (frames.length > 0 && timestep <= frames[frames.length - 1].timestep) {
      throw new RangeError(
        `${w}: line ${k}: timestep ${timestep} does not follow ${
          frames[frames.length - 1].timestep
        } (timesteps must increase)`,
      );
    }
    line = expectLine("ITEM: NUMBER OF ATOMS");
    if (line !== "ITEM: NUMBER OF ATOMS") {
      throw new RangeError(
        `${w}: line ${k}: expected "ITEM: NUMBER OF ATOMS", found "${clip(line)}"`,
      );
    }
    const count = int(expectLine("the number of atoms"), "the number of atoms");
    line = expectLine("ITEM: BOX BOUNDS");
    const bm = /^ITEM: BOX BOUNDS( xy xz yz)?((?: [pfsm]{2}){3})$/.exec(line);
    if (!bm) {
      throw new RangeError(
        `${w}: line ${k}: expected "ITEM: BOX BOUNDS" and three boundary flags, found "${
          clip(line)
        }"`,
      );
    }
    const triclinic = bm[1] !== undefined;
    const flags = bm[2].trim().split(" ");
    if (frames.length > 0 && flags.join(" ") !== frames[0].box.flags.join(" ")) {
      throw new RangeError(
        `${w}: line ${k}: boundary flags "${flags.join(" ")}" differ from the first frame's`,
      );
    }
    if (ex?.boundary && flags.some((f, a) => f !== `${ex.boundary![a]}${ex.boundary![a]}`)) {
      throw new RangeError(
        `${w}: line ${k}: boundary flags "${flags.join(" ")}", expected "${
          ex.boundary.map((b) => b + b).join(" ")
        }"`,
      );
    }
    const lo: number[] = [], hi: number[] = [], tilt: number[] = [];
    for (let a = 0; a < 3; a++) {
      const parts = expectLine("the box bounds").split(" ");
      if (parts.length !== (triclinic ? 3 : 2)) {
        throw new RangeError(`${w}: line ${k}: box bounds need ${triclinic ? 3 : 2} numbers`);
      }
      lo.push(num(parts[0], "a box bound"));
      hi.push(num(parts[1], "a box bound"));
      if (triclinic) tilt.push(num(parts[2], "a tilt factor"));
      if (!(lo[a] <= hi[a])) {
        throw new RangeError(`${w}: line ${k}: box bound ${lo[a]} is above ${hi[a]}`);
      }
    }
    line = expectLine("ITEM: ATOMS");
    if (!line.startsWith("ITEM: ATOMS ")) {
      throw new RangeError(
        `${w}: line ${k}: expected "ITEM: ATOMS <columns>", found "${clip(line)}"`,
      );
    }
    const names = line.slice(12).split(" ");
    const seen = new Set<string>();
    for (const c of names) {
      if (!NAME.test(c)) throw new RangeError(`${w}: line ${k}: bad column name "${clip(c)}"`);
      if (seen.has(c)) throw new RangeError(`${w}: line ${k}: column "${c}" appears twice`);
      seen.add(c);
    }
    if (ex?.columns && names.join(" ") !== ex.columns.join(" ")) {
      throw new RangeError(
        `${w}: line ${k}: columns "${names.join(" ")}", expected "${ex.columns.join(" ")}"`,
      );
    }
    if (frames.length > 0 && names.join(" ") !== frames[0].names.join(" ")) {
      throw new RangeError(
        `${w}: line ${k}: columns "${names.join(" ")}" differ from the first frame's "${
          frames[0].names.join(" ")
        }"`,
      );
    }
    if (count > lines.length - k) {
      throw new RangeError(
        `${w}: line ${k}: ${count} atoms announced, but only ${lines.length - k} lines remain ` +
          "(file cut short?)",
      );
    }
    const cols = names.map(() => new Float64Array(count));
    const isInt = names.map((c) => INTEGER_COLUMNS.has(c));
    for (let i = 0; i < count; i++) {
      const l = lines[k++];
      if (l.startsWith("ITEM:")) {
        throw new RangeError(`${w}: line ${k}: ${count} atoms announced, ${i} found`);
      }
      const parts = l.split(" ");
      if (parts.length !== names.length) {
        throw new RangeError(
          `${w}: line ${k}: ${parts.length} values for ${names.length} columns`,
        );
      }
      for (let c = 0; c < parts.length; c++) {
        const s = parts[c];
        if (isInt[c]) {
          const v = int(s, `column ${names[c]}`);
          if (v === 0 && (names[c] === "id" || names[c] === "type")) {
            throw new RangeError(`${w}: line ${k}: ${names[c]} 0 (LAMMPS counts from 1)`);
          }
          cols[c][i] = v;
        } else cols[c][i] = num(s, `column ${names[c]}`);
      }
    }
    if (k < lines.length && !lines[k].startsWith("ITEM:")) {
      throw new RangeError(
        `${w}: line ${k + 1}: more atom lines than the ${count} announced ("${clip(lines[k])}")`,
      );
    }
    const columns = new Map(names.map((c, j) => [c, cols[j]]));
    const id = columns.get("id");
    if (id) {
      const sorted = Float64Array.from(id).sort();
      for (let i = 1; i < count; i++) {
        if (sorted[i] === sorted[i - 1]) {
          throw new RangeError(`${w}: timestep ${timestep}: atom id ${sorted[i]} appears twice`);
        }
      }
      if (same) {
        if (ids0 === null) ids0 = sorted;
        else if (ids0.length !== count || sorted.some((v, i) => v !== ids0![i])) {
          throw new RangeError(
            `${w}: timestep ${timestep}: the atom ids differ from the first frame's ` +
              "(sameAtoms: false accepts frames with different atoms)",
          );
        }
      }
    }
    frames.push({
      timestep,
      time,
      count,
      box: { lo, hi, flags, tilt: triclinic ? tilt : null },
      names,
      columns,
    });
  }
  if (ex?.timesteps) {
    const got = frames.map((f) => f.timestep);
    if (got.length !== ex.timesteps.length || got.some((t, i) => t !== ex.timesteps![i])) {
      throw new RangeError(
        `${w}: frames at timesteps ${summary(got)}, expected ${summary(ex.timesteps)}` +
          (got.length < ex.timesteps.length ? " (file cut short, or the run stopped early?)" : ""),
      );
    }
  }
  if (ex?.atoms !== undefined) {
    for (const f of frames) {
      if (f.count !== ex.atoms) {
        throw new RangeError(
          `${w}: timestep ${f.timestep} has ${f.count} atoms, expected ${ex.atoms}`,
        );
      }
    }
  }
  return frames;
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
  for (let i = 0; i < bytes.length; i++) {
    const b = bytes[i];
    if (b > 126 || (b < 32 && b !== 10)) {
      throw new RangeError(
        `parseLammpsDump: ${name}: byte ${i} (0x${b.toString(16)}) is not ASCII text`,
      );
    }
  }
  return parseLammpsDump(new TextDecoder().decode(bytes), options, name);
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
  const max = options?.maxBytes ?? 4 * 2 ** 30;
  let size: number;
  try {
    size = (await Deno.stat(path)).size;
  } catch (e) {
    throw new Error(`${w}: ${path}: cannot read the file (${(e as Error).message})`, { cause: e });
  }
  sizeGuard(w, `the dump ${path}`, size, max);
  const frames = parseLammpsDumpBytes(await Deno.readFile(path), options, path);
  const { particlesTable } = await import("../arrow/particles.ts");
  const ex = options.expect;
  const tables = frames.map((f) => particlesTable(frameSystem(w, f, ex), frameStamp(f, ex)));
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
