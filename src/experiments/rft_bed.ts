/**
 * The settled bed the terradynamics experiments share: grains poured into a box and settled
 * once, kept as state bytes so that every intrusion (a calibration pair, a validation run, a
 * wheel or a robot) starts from a fresh copy of the same bed, the check that an RFT table
 * describes the grains of the bed it is compared with, and the options of the RFT side's
 * deforming surface.
 *
 * @module
 */
import { type GranularSystem, type RftTable, World } from "../sphere3d/mod.ts";
import { G, type GrainModel } from "./common.ts";
import { positive } from "../math/validate.ts";

/** A settled bed, ready to be loaded into fresh worlds. */
export interface RftBed {
  /** The grains. */
  model: GrainModel;
  /** Bed length along x, width along y, fill depth (m); the box is centred on x = y = 0. */
  size: [number, number, number];
  /** The free surface: the mean top of the highest 5 % of the grains, less d/2 (m). */
  surface: number;
  /**
   * The highest grain top (m), above `surface` by up to about a diameter: an intruder placed
   * lower may start inside a grain.
   */
  top: number;
  /** Grains in the bed. */
  grains: number;
  /** Solid volume fraction below the surface. */
  volumeFraction: number;
  /**
   * Coordination number Z: twice the grain–grain contacts over the grains, at the settling's
   * last step.
   */
  coordination: number;
  /** The settled state (`GranularSystem.granularStateBytes`). */
  state: Uint8Array;
  /** The medium, as an RFT table's metadata records it. */
  medium: {
    material: string;
    grainDiameter: number;
    friction: number;
    volumeFraction: number;
  };
}

/**
 * Pours grains into a box of `bed` = [length, width, depth] diameters (volume fraction about
 * 0.6 once settled) and lets them settle for 25 √(d/g).
 *
 * @param model the grains
 * @param bed the box: length (x), width (y), fill depth (d)
 * @returns the bed
 * @example
 * ```ts
 * import { resolveGrains } from "./common.ts";
 * import { settleRftBed } from "./rft_bed.ts";
 * import { expect } from "expect";
 * const bed = settleRftBed(resolveGrains("demo", { diameter: 0.01 }), [6, 4, 3]);
 * expect(bed.surface).toBeGreaterThan(0.01);
 * expect(bed.top).toBeGreaterThan(bed.surface); // grains stand above the surface line
 * expect(bed.volumeFraction).toBeGreaterThan(0.4);
 * expect(bed.coordination).toBeGreaterThan(3); // a packing at rest, walls not counted
 * ```
 */
export function settleRftBed(
  model: GrainModel,
  bed: readonly [number, number, number],
): RftBed {
  const d = model.d;
  const [lx, ly, lz] = [bed[0] * d, bed[1] * d, bed[2] * d];
  const world = new World({ timeStep: model.dt, gravity: [0, 0, -G] });
  const sys = addBedSystem(world, model, [lx, ly]);
  const target = Math.round((0.6 * lx * ly * lz) / ((Math.PI * d ** 3) / 6));
  sys.emitBoxRandom({
    min: [-lx / 2, -ly / 2, 0],
    max: [lx / 2, ly / 2, 4 * lz],
    minRadius: model.rMin,
    maxRadius: model.rMax,
    spacing: 2.04 * model.rMax,
    maxParticles: target,
    seed: model.seed,
  });
  world.run(Math.round((25 * model.unit) / model.dt));
  const grains = sys.count;
  const p = sys.positions, r = sys.radii, tops = new Float64Array(grains);
  let solid = 0;
  for (let i = 0; i < grains; i++) tops[i] = p[3 * i + 2] + r[i];
  tops.sort().reverse();
  const nTop = Math.max(1, Math.round(grains / 20));
  let top = 0;
  for (let i = 0; i < nTop; i++) top += tops[i];
  const surface = top / nTop - 0.5 * d;
  for (let i = 0; i < grains; i++) {
    if (p[3 * i + 2] < surface) solid += (4 / 3) * Math.PI * r[i] ** 3;
  }
  const volumeFraction = solid / (lx * ly * surface);
  const c = sys.contacts;
  let pairs = 0;
  for (let k = 0; k < c.count; k++) if (c.j[k] >= 0) pairs++;
  const state = sys.granularStateBytes();
  world.close();
  return {
    model,
    size: [lx, ly, surface],
    surface,
    top: tops[0],
    grains,
    volumeFraction,
    coordination: (2 * pairs) / grains,
    state,
    medium: {
      material: `DEM bed: d ${d} m, friction ${model.friction}, rolling ${model.rollingFriction}`,
      grainDiameter: d,
      friction: model.friction,
      volumeFraction,
    },
  };
}

/**
 * Adds the bed's granular system to a world (box walls, grain material) and loads the
 * settled state into it.
 *
 * @param world the world
 * @param bed the settled bed
 * @returns the granular system
 * @example
 * ```ts
 * import { resolveGrains } from "./common.ts";
 * import { loadRftBed, settleRftBed } from "./rft_bed.ts";
 * import { World } from "../sphere3d/mod.ts";
 * import { expect } from "expect";
 * const bed = settleRftBed(resolveGrains("demo", { diameter: 0.01 }), [6, 4, 3]);
 * const world = new World({ timeStep: bed.model.dt, gravity: [0, 0, -9.81] });
 * expect(loadRftBed(world, bed).count).toBe(bed.grains);
 * world.close();
 * ```
 */
export function loadRftBed(world: World, bed: RftBed): GranularSystem {
  const sys = addBedSystem(world, bed.model, [bed.size[0], bed.size[1]]);
  sys.loadGranularStateBytes(bed.state);
  return sys;
}

function addBedSystem(world: World, m: GrainModel, [lx, ly]: [number, number]): GranularSystem {
  const sys = world.addGranularSystem(m.material);
  sys.setContainerBox([-lx / 2, -ly / 2, 0], [lx / 2, ly / 2, 1e3 * m.d]);
  sys.setBoundaryMaterial({ friction: m.friction });
  return sys;
}

/**
 * Checks that an RFT table was calibrated on grains like the bed's: its grain diameter and
 * friction, where it records them, must match the bed's to 1 %; otherwise throws a
 * RangeError naming the field and both values. A table without those fields (the generic
 * medium, or one typed in by hand) passes.
 *
 * @param where the caller's name, for the message
 * @param table the RFT table
 * @param model the bed's grains
 * @example
 * ```ts
 * import { resolveGrains } from "./common.ts";
 * import { checkTableMatchesBed } from "./rft_bed.ts";
 * import { RftTable } from "../sphere3d/mod.ts";
 * import { expect } from "expect";
 * const t = RftTable.fromFourier({ zeta: 0.3, material: "beads", grainDiameter: 0.01 });
 * checkTableMatchesBed("demo", t, resolveGrains("demo", { diameter: 0.01 }));
 * expect(() => checkTableMatchesBed("demo", t, resolveGrains("demo", { diameter: 0.02 })))
 *   .toThrow(/grainDiameter/);
 * ```
 */
export function checkTableMatchesBed(where: string, table: RftTable, model: GrainModel): void {
  const pairs: [string, number | null, number][] = [
    ["grainDiameter", table.grainDiameter, model.d],
    ["friction", table.friction, model.friction],
  ];
  for (const [field, t, b] of pairs) {
    if (t !== null && Math.abs(t - b) > 0.01 * Math.max(Math.abs(t), Math.abs(b), 1e-12)) {
      throw new RangeError(
        `${where}: the RFT table's ${field} (${t}, material "${table.material}") does not ` +
          `match the bed's (${b}): calibrate the table on these grains or use matching grains`,
      );
    }
  }
}

/**
 * The experiments' choice of a deforming RFT surface (`RftGroundOptions.deform`) over the area
 * they use: cells of `cellSize` grain diameters, angle of repose `repose`.
 */
export interface RftDeformChoice {
  /** Side of a cell (d). @default 0.5 */
  cellSize?: number;
  /** Angle of repose (rad). @default 0.5 */
  repose?: number;
}

/**
 * Check an experiment's `deform` option: null for none, else the cell size in metres (grain
 * diameter `d`) and the repose where given.
 *
 * @example
 * ```ts
 * import { rftDeformOptions } from "./rft_bed.ts";
 * import { expect } from "expect";
 * expect(rftDeformOptions("f", { cellSize: 2 }, 0.01)).toEqual({ cellSize: 0.02 });
 * expect(rftDeformOptions("f", undefined, 0.01)).toBe(null);
 * expect(() => rftDeformOptions("f", { size: 1 } as never, 0.01)).toThrow(/deform\.size/);
 * ```
 */
export function rftDeformOptions(
  w: string,
  v: RftDeformChoice | undefined,
  d: number,
): { cellSize: number; repose?: number } | null {
  if (v === undefined) return null;
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new TypeError(`${w}: deform (${String(v)}) must be { cellSize?, repose? }`);
  }
  for (const k of Object.keys(v)) {
    if (k !== "cellSize" && k !== "repose") {
      throw new RangeError(`${w}: unknown option "deform.${k}" (valid: cellSize, repose)`);
    }
  }
  const cellSize = positive(w, "deform.cellSize", v.cellSize ?? 0.5) * d;
  return v.repose === undefined ? { cellSize } : { cellSize, repose: v.repose };
}

/**
 * Check an experiment's `bed` option: [length, width, depth] in grain diameters, each a finite
 * number > 0, and no more grains than a system holds (about 0.6 of the box filled, as
 * {@link settleRftBed} fills it).
 *
 * @example
 * ```ts
 * import { rftBedOption } from "./rft_bed.ts";
 * import { expect } from "expect";
 * expect(rftBedOption("demo", [20, 10, 9])).toEqual([20, 10, 9]);
 * expect(() => rftBedOption("demo", [20, 10])).toThrow(/bed \(20,10\) must be \[length/);
 * expect(() => rftBedOption("demo", [20, -1, 9])).toThrow(/bed\[1\] \(-1\)/);
 * expect(() => rftBedOption("demo", [1e9, 10, 9])).toThrow(/would hold about/);
 * ```
 */
export function rftBedOption(w: string, v: unknown): [number, number, number] {
  if (!Array.isArray(v) || v.length !== 3) {
    throw new TypeError(`${w}: bed (${String(v)}) must be [length, width, depth] (d)`);
  }
  const bed: [number, number, number] = [
    positive(w, "bed[0]", v[0]),
    positive(w, "bed[1]", v[1]),
    positive(w, "bed[2]", v[2]),
  ];
  const grains = (0.6 * bed[0] * bed[1] * bed[2]) / (Math.PI / 6);
  if (!(grains <= MAX_GRAINS)) {
    throw new RangeError(
      `${w}: bed (${bed.join(" × ")} d) would hold about ${grains.toExponential(2)} grains; ` +
        `at most ${MAX_GRAINS} fit a granular system`,
    );
  }
  return bed;
}

/** The most grains one granular system holds (its emitters' limit). */
const MAX_GRAINS = 2 ** 31 - 1;

/**
 * Check an experiment's `interfaceFriction` option (see `RftGroundOptions.interfaceFriction`):
 * a number ≥ 0, `Infinity` (the default) for no cap.
 *
 * @example
 * ```ts
 * import { rftFrictionOption } from "./rft_bed.ts";
 * import { expect } from "expect";
 * expect(rftFrictionOption("demo", undefined)).toBe(Infinity);
 * expect(rftFrictionOption("demo", 0.5)).toBe(0.5);
 * expect(() => rftFrictionOption("demo", -1)).toThrow(/interfaceFriction \(-1\)/);
 * ```
 */
export function rftFrictionOption(w: string, v: unknown): number {
  if (v === undefined) return Infinity;
  if (typeof v !== "number" || !(v >= 0)) {
    throw new RangeError(`${w}: interfaceFriction (${String(v)}) must be a number >= 0`);
  }
  return v;
}
