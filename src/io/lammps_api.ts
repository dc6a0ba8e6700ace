/**
 * The LAMMPS bridge as the io entry offers it, the namespace `lammps`: a sphere3d system
 * exported as a LAMMPS data file and input script that run Grainlab's contact law
 * ({@link exportLammps}), LAMMPS run on it ({@link runLammps}, when {@link canRun} finds
 * `mpirun` and `lmp`), and its dumps read back — as Arrow frames ({@link readLammpsDump},
 * {@link parseLammpsDump}, {@link lammpsDumpFrames}) or into a system
 * ({@link loadLammpsFrame}). See docs/lammps.md.
 *
 * @example
 * ```ts
 * import { lammps } from "@grainlab/grainlab/io";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const bed = world.addGranularBox(
 *   { min: [0, 0, 0], max: [0.2, 0.2, 0.1], radius: 0.02, spacing: 0.045 },
 *   { contactLever: "radius" },
 * );
 * bed.setContainerBox([0, 0, 0], [0.2, 0.2, 0.3]);
 * const dir = await Deno.makeTempDir();
 * const ex = await lammps.exportLammps(dir, world, { steps: 1000, dumpEvery: 500 });
 * expect(ex.atoms).toBe(bed.count);
 * expect(ex.timesteps).toEqual([0, 500, 1000]);
 * ```
 *
 * @module
 */
export { exportLammps } from "./lammps.ts";
export type { ExportLammpsOptions, LammpsAtomType, LammpsExport } from "./lammps.ts";
export { canRun, runLammps } from "./lammps_run.ts";
export type { LammpsRun, RunLammpsOptions } from "./lammps_run.ts";
export { lammpsDumpFrames, parseLammpsDump, readLammpsDump } from "./lammps_dump.ts";
export type { LammpsDump, LammpsDumpOptions, LammpsDumpStreamOptions } from "./lammps_dump.ts";
export type { LammpsDumpExpectation, LammpsFrame } from "./lammps_dump_parse.ts";
export { loadLammpsFrame } from "./lammps_dump_frames.ts";
export type { LoadLammpsFrameOptions } from "./lammps_dump_frames.ts";
