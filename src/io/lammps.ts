/**
 * The scale-out path: export a sphere3d scene to LAMMPS (GRANULAR package, MPI) and read its
 * results back.
 *
 * {@link exportLammps} writes a data file (`data.grainlab`: atoms, types, velocities and spins)
 * and an input script (`in.grainlab`) that reproduce the system's scene and contact law:
 * `pair_style gran/hooke/history` (or `gran/hertz/history`), with `limit_damping` when the
 * normal force is clamped at zero (Grainlab's default, like the specification); Grainlab's
 * damping (absolute, mass-scaled or from a restitution coefficient) and tangential stiffness
 * converted to LAMMPS's `γn`, `γt`, `kt` for every pair of atom types (`pair_style hybrid` when
 * the types need different coefficients); `fix wall/gran` for the ground plane and the
 * container; periodic boundaries; gravity; fixed grains (`fix freeze`, left out of the
 * integration); and a custom dump of ids, types, radii, masses, positions, velocities and
 * spins at full precision. {@link runLammps} runs it (`mpirun -np N lmp -in in.grainlab`),
 * `readLammpsDump` (`./lammps_dump.ts`) reads the frames back as Arrow tables.
 *
 * **Atom ids.** LAMMPS atom id = Grainlab stable id + 1 (LAMMPS ids start at 1).
 *
 * **Exactness.** LAMMPS's classic granular styles are Grainlab's law when: the normal law is
 * linear; the tangential lever arm is the full radius (`contactLever: "radius"`, LAMMPS's
 * convention); there is no rolling friction, cohesion, speed clamp or external force; and each
 * atom type's damping can be written as LAMMPS's `m_eff·γ` — always with
 * `dampingMode: "mass-scaled"`, otherwise when the grains come in few sizes (one type per size,
 * at most `maxTypes`). Everything else is exported as the nearest LAMMPS scene, with one line
 * per difference in {@link LammpsExport.notes} (and as comments in the script); `exact: true`
 * turns any difference into an error. What remains even in an exact export: LAMMPS rotates a
 * contact's tangential spring onto the new tangent plane without restoring its length
 * (Grainlab keeps the length), a difference of second order in the rotation per step; and
 * tangential springs present at export time are not carried over (they restart at zero).
 *
 * @module
 */
import type { World } from "../sphere3d/world.ts";
import type { GranularSystem } from "../sphere3d/granular_system.ts";
import { writeFileAtomic } from "../math/files.ts";
import { bool, integerIn, options as checkOptions, positive } from "../math/validate.ts";
import { buildExport } from "./lammps_script.ts";
import type { LammpsExport } from "./lammps_types.ts";

export type { LammpsAtomType, LammpsExport } from "./lammps_types.ts";

/** Options of {@link exportLammps}. */
export interface ExportLammpsOptions {
  /** World steps to run in LAMMPS (each is `substeps` LAMMPS steps), ≥ 1. */
  steps: number;
  /** Dump a frame every this many world steps (frame 0 is the initial state). @default steps */
  dumpEvery?: number;
  /** Index of the system in `world.systems` to export. @default 0 (the only one) */
  system?: number;
  /** Throw instead of exporting a scene that LAMMPS cannot reproduce exactly. @default false */
  exact?: boolean;
  /**
   * Most atom types when grains are split by size (one type per radius, material id and fixed
   * flag). More distinct sizes than this share a type, and LAMMPS damps them with the type's
   * mean mass (unless damping is mass-scaled, where sizes need no types). @default 8
   */
  maxTypes?: number;
  /**
   * Hertz only: LAMMPS's Hertz styles scale the damping and the tangential stiffness with
   * √(R_eff·δ); they are converted to match Grainlab's at this overlap (m).
   * @default 1 % of the mean radius
   */
  hertzReferenceOverlap?: number;
  /**
   * Neighbour skin of the LAMMPS run (m); it changes the speed, never the result. LAMMPS
   * rebuilds its lists at a higher cost than Grainlab, so its best skin is larger.
   * @default the larger of the system's `neighborSkin` and 0.4 × the largest radius
   */
  neighborSkin?: number;
}

const EXPORT_KEYS: readonly string[] = [
  "steps",
  "dumpEvery",
  "system",
  "exact",
  "maxTypes",
  "hertzReferenceOverlap",
  "neighborSkin",
];

/**
 * Export a world's granular system to LAMMPS: a data file and an input script in `dir`
 * (created if missing; files written atomically) that run `options.steps` world steps and dump
 * frames every `dumpEvery` world steps. Run it with {@link runLammps} or
 * `mpirun -np 2 lmp -in in.grainlab` in `dir`; read the frames with `readLammpsDump`.
 *
 * @param dir destination folder
 * @param world the world (time step, gravity) holding the system
 * @param options steps, dump interval, which system, exactness
 * @returns the files, the expected frames and the differences from Grainlab's run
 * @throws {RangeError} on bad options, an empty system, walls on periodic axes, or (with
 * `exact: true`) a scene LAMMPS cannot reproduce exactly
 * @example
 * ```ts
 * import { lammps } from "@grainlab/grainlab/io";
 * const { exportLammps } = lammps;
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularBox(
 *   { min: [0, 0, 0], max: [0.2, 0.2, 0.1], radius: 0.02, spacing: 0.045 },
 *   { contactLever: "radius" },
 * );
 * g.setContainerBox([0, 0, 0], [0.2, 0.2, 0.3]);
 * const dir = await Deno.makeTempDir();
 * const exp = await exportLammps(dir, world, { steps: 1000, dumpEvery: 250 });
 * expect(exp.atoms).toBe(g.count);
 * expect(exp.timesteps).toEqual([0, 250, 500, 750, 1000]);
 * expect(exp.exact).toBe(true);
 * const script = await Deno.readTextFile(exp.inputFile);
 * expect(script).toContain("pair_style gran/hooke/history");
 * expect(script).toContain("limit_damping");
 * ```
 */
export async function exportLammps(
  dir: string,
  world: World,
  options: ExportLammpsOptions,
): Promise<LammpsExport> {
  const w = "exportLammps";
  if (typeof dir !== "string" || dir.length === 0) {
    throw new TypeError(`${w}: dir (${String(dir)}) must be a non-empty string`);
  }
  if (options === undefined) {
    throw new TypeError(`${w}: options (undefined) must be an options object`);
  }
  const o = checkOptions<ExportLammpsOptions>(w, "options", options, EXPORT_KEYS);
  const systems = world?.systems;
  if (!Array.isArray(systems)) throw new TypeError(`${w}: world must be a sphere3d World`);
  const index = integerIn(w, "system", o.system ?? 0, 0, Math.max(0, systems.length - 1));
  const sys: GranularSystem | undefined = systems[index];
  if (sys === undefined) throw new RangeError(`${w}: the world has no granular system`);
  if (sys.count === 0) throw new RangeError(`${w}: system ${index} has no particles`);
  const steps = integerIn(w, "steps", o.steps, 1, 1e12);
  const every = integerIn(w, "dumpEvery", o.dumpEvery ?? steps, 1, 1e12);
  if (steps / every > 1e6) {
    throw new RangeError(
      `${w}: dumpEvery (${every}) gives ${Math.floor(steps / every) + 1} frames for ${steps} ` +
        "steps; at most a million frames",
    );
  }
  if (sys.fixed.every((f) => f !== 0)) {
    throw new RangeError(`${w}: every grain of system ${index} is fixed: nothing would move`);
  }
  const exactOnly = bool(w, "exact", o.exact, false);
  const maxTypes = integerIn(w, "maxTypes", o.maxTypes ?? 8, 1, 64);
  const { text: files, exp } = buildExport(w, dir, world, sys, {
    steps,
    every,
    maxTypes,
    hertzRef: o.hertzReferenceOverlap === undefined
      ? undefined
      : positive(w, "hertzReferenceOverlap", o.hertzReferenceOverlap),
    skin: o.neighborSkin === undefined ? undefined : positive(w, "neighborSkin", o.neighborSkin),
  });
  if (exactOnly && !exp.exact) {
    throw new RangeError(
      `${w}: LAMMPS cannot reproduce this scene exactly (exact: true): ${exp.notes.join("; ")}`,
    );
  }
  const enc = new TextEncoder();
  await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(exp.dataFile, enc.encode(files.data), "exportLammps");
  await writeFileAtomic(exp.inputFile, enc.encode(files.input), "exportLammps");
  return exp;
}
