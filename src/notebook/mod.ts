/**
 * Notebook support for Deno Jupyter: rich display of systems, worlds and Arrow tables
 * (registered on import for sphere3d, star2d and apache-arrow classes), a progress display
 * that updates one output in a notebook and one line on a terminal, and kernel detection.
 * Nothing here touches `Deno.jupyter` outside a kernel.
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { runWithProgress, show } from "@grainlab/grainlab/notebook";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.05]], radii: 0.01 });
 * g.setGroundPlane(0);
 * await runWithProgress(world, 100, { mode: "none" });
 * const bundle = show(g)[Symbol.for("Jupyter.display")]();
 * console.assert(String(bundle["text/plain"]).includes("1 particles"));
 * ```
 *
 * @module
 */
import { Table } from "apache-arrow";
import { GranularSystem, World } from "../sphere3d/mod.ts";
import { ClumpSystem, DiskSystem, StarSystem } from "../star2d/mod.ts";
import { registerDisplay } from "./display.ts";

export { inNotebook, jupyter, type JupyterApi, type MediaBundle } from "./kernel.ts";
export type { ContactsLike, NumArray, ParticleSystemLike } from "../arrow/types.ts";
export {
  DISPLAY,
  registerDisplay,
  show,
  systemBundle,
  type SystemSummary,
  systemSummary,
  tableBundle,
} from "./display.ts";
export { Progress, type ProgressOptions, runWithProgress, type Steppable } from "./progress.ts";
export {
  type HeadlineOptions,
  type SettledPacking,
  starPacking,
  type StarPackingOptions,
  writeHeadlineFigures,
} from "./headline.ts";

registerDisplay([World, GranularSystem, StarSystem, ClumpSystem, DiskSystem, Table]);
