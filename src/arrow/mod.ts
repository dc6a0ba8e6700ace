/**
 * Columnar export of Grainlab simulations to Apache Arrow.
 *
 * - {@link particlesTable}, {@link contactsTable}, {@link statsTable}, {@link barTable} turn
 *   simulator state into Arrow tables with `unit` and `description` metadata on every column
 *   and `grainlab.*` schema metadata (version, simulator, time, step, material).
 * - {@link writeArrow} / {@link readArrow} store one table as an Arrow IPC file, atomically,
 *   with a checksum of its data; `readArrow` checks every byte's role before decoding and
 *   throws `readArrow: <path>: <what is wrong>` on a damaged file.
 * - {@link FrameWriter} / {@link readFrames} stream many time steps to one `.arrows` file,
 *   frame by frame, so that a crashed run keeps its frames ({@link FrameReader.truncated}).
 *
 * @example
 * ```ts
 * import { particlesTable, readArrow, writeArrow } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const system = { count: 2, positions: [0, 0, 1, 1, 0, 1], velocities: [0, 0, -1, 0, 0, 0] };
 * const dir = await Deno.makeTempDir();
 * await writeArrow(`${dir}/bed.arrow`, particlesTable(system, { time: 0.1 }));
 * const back = await readArrow(`${dir}/bed.arrow`);
 * expect(back.numRows).toBe(2);
 * expect(back.schema.fields[1].metadata.get("unit")).toBe("m");
 * expect([...back.getChild("vz")!]).toEqual([-1, 0]);
 * ```
 *
 * @module
 */
export { particlesTable } from "./particles.ts";
export type { ParticlesTableOptions } from "./particles.ts";
export { contactsTable } from "./contacts.ts";
export type { ContactsTableOptions } from "./contacts.ts";
export { StatsRecorder, statsTable } from "./stats.ts";
export type { StatsEntry } from "./stats.ts";
export { barTable } from "./bar.ts";
export { readArrow, writeArrow } from "./io.ts";
export { FrameReader, FrameWriter, readFrames } from "./frames.ts";
export type { Frame, FrameStamp, FrameWriterOptions } from "./frames.ts";
export { buildTable } from "./schema.ts";
export type { ColumnSpec, TableMetadata } from "./schema.ts";
export type { ContactsLike, ParticleSystemLike, SnapshotOptions } from "./types.ts";
export { type RftTableData, rftTableFromArrow, rftTableToArrow } from "./rft.ts";
