/**
 * What a LAMMPS export produced ({@link LammpsExport}, {@link LammpsAtomType}): shared by the
 * exporter (`lammps.ts`), the script builder (`lammps_script.ts`) and the runner
 * (`lammps_run.ts`), so that none of them imports another for its types.
 *
 * @module
 */
import type { Material } from "../sphere3d/material.ts";

/** One LAMMPS atom type of an export: the grains of one material id, fixed flag (and size). */
export interface LammpsAtomType {
  /** The LAMMPS type (1-based). */
  type: number;
  /** Grainlab material id of its grains. */
  materialId: number;
  /** Its grains are fixed (`fix freeze`, not integrated). */
  fixed: boolean;
  /** The radius of its grains when types are split by size, else null (m). */
  radius: number | null;
  /** Number of its grains. */
  count: number;
}

/** What `exportLammps` wrote, and what the LAMMPS run will produce. */
export interface LammpsExport {
  /** The folder holding the files. */
  dir: string;
  /** The input script (`<dir>/in.grainlab`). */
  inputFile: string;
  /** The data file (`<dir>/data.grainlab`). */
  dataFile: string;
  /** The dump LAMMPS will write (`<dir>/dump.grainlab.txt`). */
  dumpFile: string;
  /** The log LAMMPS will write (`<dir>/log.lammps`). */
  logFile: string;
  /** Number of atoms. */
  atoms: number;
  /** The LAMMPS time step (s): the world's time step / substeps. */
  timeStep: number;
  /** LAMMPS steps of the run. */
  steps: number;
  /** The LAMMPS timesteps of the dumped frames, in order (the first is 0). */
  timesteps: number[];
  /** The world's time at export (s): a frame's time is `startTime + timestep·timeStep`. */
  startTime: number;
  /** The LAMMPS boundary of each axis: "p" (periodic) or "m" (shrink-wrapped, at least the initial box). */
  boundary: string[];
  /** The dump's columns, in order ({@link LAMMPS_DUMP_COLUMNS}). */
  columns: string[];
  /** The atom types. */
  types: LammpsAtomType[];
  /** The system's material (resolved). */
  material: Material;
  /** True when LAMMPS runs Grainlab's law exactly (see the module documentation). */
  exact: boolean;
  /** Every difference between the LAMMPS scene and Grainlab's, one sentence each. */
  notes: string[];
}
