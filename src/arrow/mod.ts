/**
 * Columnar export of Grainlab simulations to Apache Arrow.
 *
 * - {@link particlesTable}, {@link contactsTable}, {@link statsTable}, {@link barTable} turn
 *   simulator state into Arrow tables with `unit` and `description` metadata on every column
 *   and `grainlab.*` schema metadata (version, simulator, time, step, material).
 * - {@link writeArrow} / {@link readArrow} store one table as an Arrow IPC file, atomically.
 * - {@link FrameWriter} / {@link readFrames} stream many time steps to one `.arrows` file.
 *
 * @example
 * ```ts
 * import { particlesTable, readArrow, writeArrow } from "@grainlab/grainlab/arrow";
 * const system = { count: 2, positions: [0, 0, 1, 1, 0, 1], velocities: [0, 0, -1, 0, 0, 0] };
 * const dir = await Deno.makeTempDir();
 * await writeArrow(`${dir}/bed.arrow`, particlesTable(system, { time: 0.1 }));
 * const back = await readArrow(`${dir}/bed.arrow`);
 * console.assert(back.numRows === 2 && back.schema.fields[1].metadata.get("unit") === "m");
 * ```
 *
 * @module
 */
export { particlesTable, type ParticlesTableOptions } from "./particles.ts";
export { contactsTable, type ContactsTableOptions } from "./contacts.ts";
export { type StatsEntry, StatsRecorder, statsTable } from "./stats.ts";
export { type BarRunLike, barTable } from "./bar.ts";
export { readArrow, writeArrow, writeFileAtomic } from "./io.ts";
export {
  type Frame,
  type FrameStamp,
  FrameWriter,
  type FrameWriterOptions,
  readFrames,
} from "./frames.ts";
export {
  buildTable,
  type ColumnSpec,
  type ColumnType,
  CONTACT_KINDS,
  metadataMap,
  schemaMetadata,
  type TableMetadata,
  VERSION_KEY,
} from "./schema.ts";
export {
  checkSystem,
  type ContactsLike,
  dimensionOf,
  type NumArray,
  type ParticleSystemLike,
  type SnapshotOptions,
} from "./types.ts";
