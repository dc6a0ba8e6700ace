/**
 * Notebook support for Deno Jupyter: rich display of systems and worlds (registered on import
 * for the sphere3d and star2d classes), explicit rich views of Arrow tables ({@link tableView};
 * apache-arrow's own classes are left untouched), a progress display that updates one output
 * in a notebook and one line on a terminal, kernel detection, and an interactive 3D view of
 * sphere3d grains ({@link view3d}: WebGL through three.js, bundled into the output; also as a
 * standalone page, {@link writeViewer}). Nothing here touches `Deno.jupyter` outside a kernel.
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { particlesTable } from "@grainlab/grainlab/arrow";
 * import { runWithProgress, show, tableView } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.05]], radii: 0.01 });
 * g.setGroundPlane(0);
 * await runWithProgress(world, 100, { mode: "none" });
 * const bundle = show(g)[Symbol.for("Jupyter.display")]();
 * expect(bundle["text/plain"]).toMatch(/^sphere3d: 1 particles, t = 0\.01 s, step 100/);
 * const table = tableView(particlesTable(g))[Symbol.for("Jupyter.display")]();
 * expect(table["text/plain"]).toMatch(/^Arrow table: 1 rows/);
 * ```
 *
 * @module
 */
import { GranularSystem, World } from "../sphere3d/mod.ts";
import { ClumpSystem, DiskSystem, StarSystem } from "../star2d/mod.ts";
import { registerDisplay } from "./display.ts";

export { inNotebook } from "./kernel.ts";
export type { MediaBundle } from "./kernel.ts";
export type { ContactsLike, ParticleSystemLike } from "../arrow/types.ts";
export { show, tableView } from "./display.ts";
export type { TableViewOptions } from "./display.ts";
export { runWithProgress } from "./progress.ts";
export type { ProgressOptions, Steppable } from "./progress.ts";
export { View3D, view3d, ViewRecorder, writeViewer } from "./viewer.ts";
export type { ViewRecorderOptions, ViewSource } from "./viewer.ts";
export type { Camera } from "./raster.ts";
// The viewer's option and source types, all of them (viewer_types.ts holds nothing else).
export type * from "./viewer_types.ts";

// The library's own classes only: apache-arrow's Table is not patched (use tableView or show).
registerDisplay([World, GranularSystem, StarSystem, ClumpSystem, DiskSystem]);
