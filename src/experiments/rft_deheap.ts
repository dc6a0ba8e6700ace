/**
 * An RFT table for the deforming surface. `calibrateRft`'s plates push up heaps ahead of them
 * in the DEM bed, so the α measured on them already hold the heaps' effect. A deforming RFT
 * surface (`RftGroundOptions.deform`) builds those heaps itself and measures depth from them: the
 * measured α would count the heaps twice. `deheapRftTable` removes them: it runs every (β, γ)
 * pair of the table as the calibration ran it (the same plate, speed, paths and depth window,
 * `plateRun`), on the flat RFT ground with the table and on the deforming one, and divides each
 * α by the ratio of the two fitted α. The heaps are kinematic (they do not depend on α), so on
 * the plate's faces the ratio does not depend on α either: on the deforming surface the
 * returned table gives the calibration plates the flat table's force, except for what the
 * plate's edges add (their (β, γ) are other pairs', scaled by those pairs' ratios) — a few
 * per cent on a 15° grid where a component is mostly the faces', more where the edges make most
 * of it (a vertical plate's lift moving sideways).
 *
 * @module
 */
import { RftTable, World } from "../sphere3d/mod.ts";
import { positive } from "../math/validate.ts";
import { G } from "./common.ts";
import { rftBedOption, type RftDeformChoice, rftDeformOptions } from "./rft_bed.ts";
import { plateRun } from "./rft_intrude.ts";

/** Options of {@link deheapRftTable}: the calibration's plate runs, lengths in grain diameters. */
export interface RftDeheapOptions {
  /** The deforming surface the table is for. @default { cellSize: 0.5, repose: 0.5 } */
  deform?: RftDeformChoice;
  /** Plate side (d); the plate is 0.4 d thick, as in `calibrateRft`. @default 4 */
  plateSize?: number;
  /** Plate speed (m/s). @default the table's intrusion speed, else 0.1 */
  speed?: number;
  /** Depth window past full immersion [from, to] (d). @default [0, 2] */
  window?: readonly [number, number];
  /** Bed length, width, depth (d): the deforming map covers its area. @default [20, 10, 9] */
  bed?: readonly [number, number, number];
  /** RFT surface elements (d). @default 0.5 */
  elementSize?: number;
}

/** The result of {@link deheapRftTable}. */
export interface RftDeheap {
  /** The de-heaped table: each α divided by `ratioZ`, `ratioX` (laid out as the table's α). */
  table: RftTable;
  /**
   * The deforming run's fitted α over the flat run's, per pair: what the heaps add. 1 (α kept
   * as measured) where the flat fit is under 10⁻⁶ of the largest or the two differ in sign.
   */
  ratioZ: Float64Array;
  /** The same for α_x. */
  ratioX: Float64Array;
}

const KEYS = ["deform", "plateSize", "speed", "window", "bed", "elementSize"];

/**
 * De-heap `table` for a deforming surface (see the module notes). The table must record its
 * grain diameter (the plate and the cells are in diameters).
 *
 * @example
 * ```ts
 * import { deheapRftTable } from "@grainlab/grainlab/experiments";
 * import { RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * // β and γ at −90°, −45°, 0, 45°, 90°: pair (β, γ) at index 5·i + j
 * const table = RftTable.fromFourier({
 *   zeta: 0.5, grainDiameter: 0.01, friction: 0.5, betaCount: 5, gammaCount: 5,
 * });
 * const { table: flatter, ratioZ } = await deheapRftTable(table);
 * // a flat plate moving down at 45° meets the heap it pushes: its α_z is divided by > 1.1
 * expect(ratioZ[5 * 2 + 3]).toBeGreaterThan(1.1);
 * expect(flatter.alphaZ[5 * 2 + 3]).toBeLessThan(table.alphaZ[5 * 2 + 3]);
 * // pushed straight down, it stands in its own cells and the heap forms beside it
 * expect(ratioZ[5 * 2 + 4]).toBe(1);
 * ```
 */
export async function deheapRftTable(
  table: RftTable,
  options: RftDeheapOptions = {},
): Promise<RftDeheap> {
  const w = "deheapRftTable";
  if (!(table instanceof RftTable)) {
    throw new TypeError(`${w}: table (${String(table)}) must be an RftTable`);
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`${w}: options (${String(options)}) must be an options object`);
  }
  for (const k of Object.keys(options)) {
    if (!KEYS.includes(k)) {
      throw new RangeError(`${w}: unknown option "${k}" (valid: ${KEYS.join(", ")})`);
    }
  }
  const d = table.grainDiameter;
  if (d === null) {
    throw new RangeError(`${w}: table.grainDiameter (null) must be known: plates are sized in d`);
  }
  const deform = rftDeformOptions(w, options.deform ?? { cellSize: 0.5, repose: 0.5 }, d)!;
  const side = positive(w, "plateSize", options.plateSize ?? 4) * d;
  const speed = positive(w, "speed", options.speed ?? table.intrusionSpeed ?? 0.1);
  const win = options.window ?? [0, 2];
  if (!Array.isArray(win) || win.length !== 2 || !(win[0] >= 0) || !(win[1] > win[0])) {
    throw new RangeError(`${w}: window (${String(win)}) must be [from, to] with 0 ≤ from < to`);
  }
  const [lx, ly, lz] = rftBedOption(w, options.bed ?? [20, 10, 9]);
  const size: [number, number, number] = [lx * d, ly * d, lz * d];
  const elementSize = positive(w, "elementSize", options.elementSize ?? 0.5) * d;
  // one step per force window of the calibration (0.1 d of travel)
  const dt = (0.1 * d) / speed;
  const bed = {
    rft: true as const,
    model: { d },
    surface: 0,
    size,
    volumeFraction: table.volumeFraction ?? 0.6,
  };
  const bounds = [-size[0] / 2, -size[1] / 2, size[0] / 2, size[1] / 2] as const;
  const world = (model: RftTable, deforming: boolean) => async () => {
    const world = await World.create({ timeStep: dt, gravity: [0, 0, -G] });
    world.addRftGround(model, {
      surfaceHeight: 0,
      elementSize,
      ...(deforming ? { deform: { ...deform, bounds } } : {}),
    });
    return world;
  };
  const nb = table.beta.length, ng = table.gamma.length, n = nb * ng;
  const runOf = (k: number) => ({
    side,
    thickness: 0.4 * d,
    beta: table.beta[Math.floor(k / ng)],
    gamma: table.gamma[k % ng],
    speed,
    window: [win[0] * d, win[1] * d] as const,
    throughOrigin: true,
  });
  // each pair on the flat and on the deforming surface, with the table
  const flatWorld = world(table, false), deformWorld = world(table, true);
  const flatZ = new Float64Array(n), flatX = new Float64Array(n);
  const ratioZ = new Float64Array(n).fill(1), ratioX = new Float64Array(n).fill(1);
  for (let k = 0; k < n; k++) {
    const flat = await plateRun(bed, runOf(k), flatWorld);
    const deformed = await plateRun(bed, runOf(k), deformWorld);
    flatZ[k] = flat.alphaZ, flatX[k] = flat.alphaX;
    ratioZ[k] = deformed.alphaZ / flat.alphaZ, ratioX[k] = deformed.alphaX / flat.alphaX;
  }
  let big = 0;
  for (let k = 0; k < n; k++) big = Math.max(big, Math.abs(flatZ[k]), Math.abs(flatX[k]));
  const az = Float64Array.from(table.alphaZ), ax = Float64Array.from(table.alphaX);
  for (let k = 0; k < n; k++) {
    // a pair is corrected where its flat fit is clear of zero and the deforming one agrees
    if (!(Math.abs(flatZ[k]) > 1e-6 * big && ratioZ[k] > 0)) ratioZ[k] = 1;
    if (!(Math.abs(flatX[k]) > 1e-6 * big && ratioX[k] > 0)) ratioX[k] = 1;
    az[k] /= ratioZ[k], ax[k] /= ratioX[k];
  }
  const spec = table.toSpec();
  const out = new RftTable({
    ...spec,
    alphaZ: az,
    alphaX: ax,
    material: `${spec.material}, de-heaped for a deforming surface (cells ${
      (deform.cellSize / d).toFixed(2)
    } d, repose ${(deform.repose ?? 0.5).toFixed(3)} rad)`,
  });
  return { table: out, ratioZ, ratioX };
}
