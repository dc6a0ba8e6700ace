/**
 * Frames of a LAMMPS dump put to use: {@link lammpsFrameTable} (a frame as an Arrow table with
 * `particlesTable`'s columns) and {@link loadLammpsFrame} (a frame into the `GranularSystem`
 * it was exported from).
 *
 * @module
 */
import type * as A from "apache-arrow";
import type { GranularSystem } from "../sphere3d/granular_system.ts";
import { coreOf } from "../sphere3d/granular_system.ts";
import { integerIn, options as checkOptions } from "../math/validate.ts";
import type { LammpsDumpExpectation, LammpsFrame } from "./lammps_dump_parse.ts";

/**
 * One frame as an Arrow table with `particlesTable`'s columns (see {@link LammpsDump.tables});
 * Arrow is loaded on first use.
 *
 * @param frame a parsed frame
 * @param expectation the export it came from (types, material, time step), optional
 * @example
 * ```ts
 * import { lammps } from "@grainlab/grainlab/io";
 * const { parseLammpsDump } = lammps;
 * import { lammpsFrameTable } from "./lammps_dump_frames.ts";
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
  if (frame === null || typeof frame !== "object" || !(frame.columns instanceof Map)) {
    throw new TypeError(
      `lammpsFrameTable: frame (${String(frame)}) must be a LammpsFrame (from parseLammpsDump)`,
    );
  }
  const { particlesTable } = await import("../arrow/particles.ts");
  return particlesTable(
    frameSystem("lammpsFrameTable", frame, expectation),
    frameStamp(frame, expectation),
  );
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
 * import { lammps } from "@grainlab/grainlab/io";
 * const { loadLammpsFrame, parseLammpsDump } = lammps;
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
  core.detachPairHistories(false);
  for (let s = 0; s < ps.count; s++) core.hist.clearSlot(s);
  core.invalidate();
}
