/**
 * `io` — persistence and interchange: VTK files for ParaView (grains and contacts as `.vtp`,
 * time series as `.pvd`). (World XML scenes: `world.exportToXml` / `World.fromXml` in
 * sphere3d.) The scale-out path to LAMMPS is the namespace `lammps`: `lammps.exportLammps`
 * (data file + input script), `lammps.runLammps` (`mpirun -np N lmp`),
 * `lammps.readLammpsDump` (frames as Arrow tables) and `lammps.loadLammpsFrame`.
 *
 * Not re-exported from the package root, so that importing the simulators never loads it.
 * The sphere3d types its signatures take (`World`, `GranularSystem`, `Material`) are exported
 * by `@grainlab/grainlab/sphere3d`, not re-exported here. URDF files are read by
 * `world.addArticulatedSystem` (sphere3d).
 *
 * @example
 * ```ts
 * import { writeVtk, writeVtkContacts } from "@grainlab/grainlab/io";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const sand = world.addGranularBox(
 *   { min: [0, 0, 0], max: [0.2, 0.2, 0.1], radius: 0.02, spacing: 0.045 },
 * );
 * sand.setGroundPlane(0);
 * world.run(100);
 * const dir = await Deno.makeTempDir();
 * await writeVtk(`${dir}/grains.vtp`, sand, { time: world.time });
 * await writeVtkContacts(`${dir}/contacts.vtp`, sand);
 * expect((await Deno.stat(`${dir}/grains.vtp`)).size).toBeGreaterThan(16 * 8 * 11);
 * ```
 *
 * @module
 */
export { writeVtk, writeVtkContacts } from "./vtk.ts";
export { VtkSeriesWriter } from "./vtk_series.ts";
export type { VtkContactSource, VtkOptions, VtkParticleSource } from "./vtk.ts";
export type { VtkSeriesOptions } from "./vtk_series.ts";
// The LAMMPS bridge (export, run, read back) as one namespace.
export * as lammps from "./lammps_api.ts";
