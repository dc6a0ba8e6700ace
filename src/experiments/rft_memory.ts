/**
 * The memory of the grains' pressure on a plate, calibrated from Grainlab's own DEM. RFT
 * gives the stress on a plate as α(β, γ)·depth from its current motion alone; in the DEM the
 * pressure a plate builds while pushed down persists when it turns to sliding sideways,
 * relaxing over a few grain diameters of travel, and drops fast when the plate moves away
 * (up). An RFT ground models this as a pressure per unit depth with memory, per element:
 * p ← p_RFT + (p_old − p_RFT)·exp(−Δpath/ℓ − Δsep/ℓ_sep), with Δpath = |v|·dt the element's
 * travel and Δsep = max(0, its speed away from the grains along its normal)·dt.
 *
 * A flat square plate (β = 0, 0.4 d thick) in a fresh copy of a settled bed:
 * - **slide runs**, one per approach angle: pushed from just above the surface along the
 *   approach (below the horizontal, towards +x) until its underside is `depth` below the
 *   surface, then moved horizontally (+x); p(x) = σ_z/depth in windows of 0.1 d of travel is
 *   fitted by p∞ + (p0 − p∞)·exp(−x/ℓ), and p0 is compared with σ_z/depth over the push's last
 *   0.1 d (`retained`). The path is centred along the bed and must keep 1 d from its end walls.
 * - **a rise run**: pushed straight down, then moved straight up; p(s) = σ_z/(depth − s) in
 *   windows of 0.02 d of separation s is fitted by p0'·exp(−s/ℓ_eff) (RFT gives no pressure on
 *   a face moving away), and 1/ℓ_sep = 1/ℓ_eff − 1/ℓ with ℓ the slides' mean.
 *
 * The law: the pressure decays along the slide (R² of the exponential well above 0), ℓ of the
 * order of a couple of diameters, and the rise's decay is faster (ℓ_sep < ℓ). The ci preset
 * (about 2,500 grains, two slides and the rise) runs in about fifteen seconds on one core.
 *
 * @module
 */
import { World } from "../sphere3d/mod.ts";
import { positive } from "../math/validate.ts";
import {
  experimentOptions,
  type ExperimentScale,
  G,
  type GrainOptions,
  numberList,
  resolveGrains,
} from "./common.ts";
import { exponentialDecayFit } from "./decay_fit.ts";
import { loadRftBed, type RftBed, rftBedOption, settleRftBed } from "./rft_bed.ts";
import { plateStartLift } from "./rft_intrude.ts";

/**
 * Options of {@link calibrateRftMemory}. Lengths in grain diameters d. The grains are
 * `calibrateRft`'s: softness 1e-3 and rolling friction 0.05 unless given.
 */
export interface RftMemoryOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /** Side of the square plate (d); it is 0.4 d thick. @default 4 */
  plateSize?: number;
  /** Plate speed (m/s); quasi-static below √(g·d). @default 0.1 */
  speed?: number;
  /** Depth of the plate's underside below the bed surface at the end of the push (d). @default 1.5 */
  depth?: number;
  /**
   * The slide runs' approach angles (degrees below the horizontal, each in (0, 90]; 90:
   * straight down). @default [90] (smoke); [90, 45] (ci); [90, 60, 45] (full)
   */
  approaches?: readonly number[];
  /** Horizontal travel of each slide (d), at least 0.3. @default 6 (smoke); 8 (ci); 10 (full) */
  slide?: number;
  /** Rise of the plate after its push (d), in [0.06, depth − 0.1]. @default 0.8 */
  rise?: number;
  /**
   * Bed size: length along the motion, width, depth (d).
   * @default [16, 8, 7] (smoke); [24, 10, 9] (ci, full)
   */
  bed?: readonly [number, number, number];
  /** Called after each run with the runs done and the runs in all. @default none */
  onRun?: (done: number, count: number) => void;
}

/** The result of {@link calibrateRftMemory} (SI units). */
export interface RftMemoryCalibration {
  /** The run size. */
  scale: ExperimentScale;
  /** Memory length ℓ: the mean of the slides' (m). */
  length: number;
  /** Separation length ℓ_sep (m). */
  separation: number;
  /** The slide runs, in the order of `approaches`. */
  slides: Array<{
    /** Approach angle below the horizontal (rad). */
    approach: number;
    /** σ_z/depth over the last 0.1 d of the push (Pa/m). */
    pushPressure: number;
    /** Fitted memory length ℓ (m). */
    length: number;
    /** Fitted pressure per depth at the start of the slide, p0 (Pa/m). */
    p0: number;
    /** Fitted pressure per depth far along the slide, p∞ (Pa/m). */
    pInf: number;
    /** p0 / pushPressure. */
    retained: number;
    /** R² of the exponential fit. */
    r2: number;
    /** Slide travel at each window's middle (m). */
    x: Float64Array;
    /** σ_z/depth in each window (Pa/m). */
    p: Float64Array;
  }>;
  /** The rise run. */
  rise: {
    /** Fitted decay length ℓ_eff of p(s) = p0·exp(−s/ℓ_eff) (m). */
    effectiveLength: number;
    /** Fitted pressure per depth at the start of the rise (Pa/m). */
    p0: number;
    /** R² of the fit. */
    r2: number;
    /** Separation (rise) at each window's middle (m). */
    s: Float64Array;
    /** σ_z/(depth − s) in each window (Pa/m). */
    p: Float64Array;
  };
  /** `{ length, separation }` (m), for an RFT ground's pressure memory. */
  memory: { length: number; separation: number };
  /** Grains in the bed. */
  grains: number;
  /** The medium. */
  medium: {
    /** Name of the medium: the grains and the bed. */
    material: string;
    /** Where the numbers come from. */
    source: "dem";
    /** Grain diameter (m). */
    grainDiameter: number;
    /** Grain–grain friction coefficient. */
    friction: number;
    /** Solid volume fraction of the bed. */
    volumeFraction: number;
    /** Plate speed (m/s). */
    intrusionSpeed: number;
  };
}

const KEYS = ["plateSize", "speed", "depth", "approaches", "slide", "rise", "bed", "onRun"];
const GRAINS = { softness: 1e-3, rollingFriction: 0.05 }; // as calibrateRft's presets
const PRESETS: Record<ExperimentScale, Partial<RftMemoryOptions>> = {
  smoke: { ...GRAINS, approaches: [90], slide: 6, bed: [16, 8, 7] },
  ci: { ...GRAINS, approaches: [90, 45], slide: 8, bed: [24, 10, 9] },
  full: { ...GRAINS, approaches: [90, 60, 45], slide: 10, bed: [24, 10, 9] },
};

/**
 * Calibrate the RFT pressure memory ℓ and ℓ_sep from the DEM (see the module notes).
 *
 * @param options the run (see {@link RftMemoryOptions})
 * @returns ℓ, ℓ_sep, the runs' series and fits, and the medium
 * @throws {RangeError} for bad options, a bed too short or narrow for the plate's travel, or a
 *   rise that decays no faster than the slides
 * @example
 * ```ts
 * import { calibrateRftMemory } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * // bad options are named before any grain is settled
 * await expect(calibrateRftMemory({ scale: "smoke", approaches: [0] }))
 *   .rejects.toThrow(/approaches\[0\] \(0\) must be in \(0, 90\]/);
 * await expect(calibrateRftMemory({ scale: "smoke", slide: 30 })).rejects.toThrow(/bed.*slide/);
 * ```
 */
export async function calibrateRftMemory(
  options: RftMemoryOptions = {},
): Promise<RftMemoryCalibration> {
  const w = "calibrateRftMemory";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS);
  const m = resolveGrains(w, o, { diameter: 0.01 });
  const d = m.d;
  const a = positive(w, "plateSize", o.plateSize ?? 4) * d, t = 0.4 * d;
  const speed = positive(w, "speed", o.speed ?? 0.1);
  const depth = positive(w, "depth", o.depth ?? 1.5) * d;
  const approaches = numberList(w, "approaches", o.approaches, (where, name, x) => {
    if (typeof x !== "number" || !(x > 0 && x <= 90)) {
      throw new RangeError(`${where}: ${name} (${String(x)}) must be in (0, 90] (degrees)`);
    }
    return (x * Math.PI) / 180;
  });
  const slide = positive(w, "slide", o.slide) * d;
  if (slide < 0.3 * d) {
    throw new RangeError(`${w}: slide (${slide / d}) must be >= 0.3 d (three windows of 0.1 d)`);
  }
  const rise = positive(w, "rise", o.rise ?? 0.8) * d;
  if (rise < 0.06 * d || rise > depth - 0.1 * d) {
    throw new RangeError(
      `${w}: rise (${rise / d}) must be in [0.06, depth − 0.1] = [0.06, ${depth / d - 0.1}] d ` +
        "(three windows of 0.02 d, the plate still buried)",
    );
  }
  const dims = rftBedOption(w, o.bed);
  if (0.5 * a + d > 0.5 * dims[1] * d) {
    throw new RangeError(
      `${w}: bed[1] (${dims[1]} d wide) must leave 1 d beside the plate (plateSize ${a / d} d)`,
    );
  }
  if (o.onRun !== undefined && typeof o.onRun !== "function") {
    throw new TypeError(`${w}: onRun (${String(o.onRun)}) must be a function`);
  }
  for (const g of approaches) wallCheck(w, dims[0] * d, d, a, approachX(depth + 0.5 * d, g), slide);
  const bed = settleRftBed(m, dims);
  if (bed.surface - depth < 2 * d) {
    throw new RangeError(
      `${w}: depth (${depth / d} d) must leave 2 d of grains under the plate (the surface is ` +
        `${(bed.surface / d).toFixed(2)} d up): deepen bed[2]`,
    );
  }
  const setup: Setup = {
    w,
    bed,
    a,
    t,
    speed,
    depth,
    makeWorld: () => World.create({ timeStep: m.dt, gravity: [0, 0, -G] }),
  };
  const count = approaches.length + 1;
  const slides: RftMemoryCalibration["slides"] = [];
  for (const g of approaches) {
    slides.push(await slideRun(setup, g, slide));
    o.onRun?.(slides.length, count);
  }
  const length = slides.reduce((s, r) => s + r.length, 0) / slides.length;
  const rise0 = await riseRun(setup, rise);
  o.onRun?.(count, count);
  if (rise0.effectiveLength >= length) {
    throw new RangeError(
      `${w}: the rise's decay length ℓ_eff (${(rise0.effectiveLength / d).toFixed(3)} d) is not ` +
        `below the slides' ℓ (${(length / d).toFixed(3)} d): no separation length makes ` +
        "1/ℓ_sep = 1/ℓ_eff − 1/ℓ positive",
    );
  }
  const separation = 1 / (1 / rise0.effectiveLength - 1 / length);
  return {
    scale,
    length,
    separation,
    slides,
    rise: rise0,
    memory: { length, separation },
    grains: bed.grains,
    medium: {
      ...bed.medium,
      material: `${bed.medium.material}, bed ${dims.join(" × ")} d`,
      source: "dem",
      intrusionSpeed: speed,
    },
  };
}

/** What every run shares (SI units). */
interface Setup {
  w: string;
  bed: RftBed;
  a: number;
  t: number;
  speed: number;
  depth: number;
  makeWorld: () => Promise<World>;
}

/** Horizontal travel of an approach at γ that descends `drop` (m). */
function approachX(drop: number, gamma: number): number {
  return gamma >= Math.PI / 2 - 1e-12 ? 0 : drop / Math.tan(gamma);
}

/** Throw unless a plate of side `a` approaching over `hx` and sliding `slide` (m), the path
 * centred in the bed, stays 1 d from the end walls of a bed `length` long. */
function wallCheck(w: string, length: number, d: number, a: number, hx: number, slide: number) {
  const need = hx + slide + a + 2 * d;
  if (need > length + 1e-9 * d) {
    throw new RangeError(
      `${w}: the bed (bed[0] = ${(length / d).toFixed(1)} d long) is too short for a slide of ` +
        `${(slide / d).toFixed(1)} d: the plate sweeps ${((hx + slide + a) / d).toFixed(1)} d ` +
        `and must stay 1 d from the end walls (bed[0] >= ${(need / d).toFixed(1)})`,
    );
  }
}

/**
 * Loads a fresh copy of the bed and pushes the plate along γ from just above the surface (lifted
 * clear of grains standing above it) until its underside is `depth` deep at x = `xEnd`.
 */
async function push(s: Setup, gamma: number, xEnd: number) {
  const { bed, a, t, speed } = s, d = bed.model.d;
  const world = await s.makeWorld();
  const dt = world.timeStep;
  const sys = loadRftBed(world, bed);
  const zEnd = bed.surface - s.depth + 0.5 * t;
  let zStart = bed.surface + 0.5 * t + 0.5 * d, x0 = xEnd - approachX(zStart - zEnd, gamma);
  for (let round = 0; round < 5; round++) {
    const lift = plateStartLift(sys, x0, zStart, a, t, 0, 0.05 * d);
    if (lift === 0) break;
    zStart += lift, x0 = xEnd - approachX(zStart - zEnd, gamma);
  }
  const vx = speed * Math.cos(gamma), vz = -speed * Math.sin(gamma);
  const steps = Math.ceil((zStart - zEnd) / (-vz * dt));
  x0 = xEnd - steps * dt * vx;
  const plate = world.addBox({
    halfExtents: [0.5 * a, 0.5 * a, 0.5 * t],
    position: [x0, 0, zStart],
    bodyType: "kinematic",
    linearVelocity: [vx, 0, vz],
  });
  const win = Math.max(1, Math.round((0.1 * d) / (speed * dt)));
  let fz = 0;
  for (let k = 0; k < steps; k++) {
    world.step();
    if (k >= steps - win) fz += plate.contactForce[2];
  }
  const depth = bed.surface - (zStart + steps * dt * vz - 0.5 * t); // the underside's, reached
  const mid = depth + 0.5 * (Math.min(win, steps) - 1) * dt * vz; // the window's mean depth
  const pushPressure = fz / Math.min(win, steps) / (a * a) / mid;
  return { world, plate, x0, depth, pushPressure };
}

/** One slide run: push along γ, then slide +x by `slide` (m), the path centred in the bed. */
async function slideRun(
  s: Setup,
  gamma: number,
  slide: number,
): Promise<RftMemoryCalibration["slides"][number]> {
  const { a, speed, bed } = s, d = bed.model.d, lx = bed.size[0];
  const xStart = 0.5 * (approachX(s.depth + 0.5 * d, gamma) - slide);
  const r = await push(s, gamma, xStart);
  const { world, plate } = r;
  if (r.x0 - 0.5 * a < -0.5 * lx + d - 1e-9 * d) { // lifted clear of a grain: the approach grew
    world.close();
    throw new RangeError(
      `${s.w}: the bed (bed[0] = ${(lx / d).toFixed(1)} d long) is too short for a slide of ` +
        `${(slide / d).toFixed(1)} d: lifted clear of the grains, the plate starts ` +
        `${((r.x0 - 0.5 * a + 0.5 * lx) / d).toFixed(2)} d from the end wall (at least 1 d)`,
    );
  }
  const dt = world.timeStep, win = Math.max(1, Math.round((0.1 * d) / (speed * dt)));
  const n = Math.floor(slide / (win * speed * dt) + 1e-9);
  const x = new Float64Array(n), p = new Float64Array(n), area = a * a;
  plate.setVelocity([speed, 0, 0]);
  for (let i = 0; i < n; i++) {
    let fz = 0;
    for (let j = 0; j < win; j++) world.step(), fz += plate.contactForce[2];
    x[i] = (i + 0.5) * win * speed * dt;
    p[i] = fz / win / area / r.depth;
  }
  world.close();
  const f = exponentialDecayFit(x, p, { lengths: [0.05 * d, 20 * d] });
  return {
    approach: gamma,
    pushPressure: r.pushPressure,
    length: f.length,
    p0: f.initial,
    pInf: f.asymptote,
    retained: f.initial / r.pushPressure,
    r2: f.r2,
    x,
    p,
  };
}

/** The rise run: push straight down at x = 0, then up by `rise` (m). */
async function riseRun(s: Setup, rise: number): Promise<RftMemoryCalibration["rise"]> {
  const { a, speed, bed } = s, d = bed.model.d;
  const r = await push(s, Math.PI / 2, 0);
  const { world, plate } = r;
  const dt = world.timeStep, win = Math.max(1, Math.round((0.02 * d) / (speed * dt)));
  const n = Math.floor(rise / (win * speed * dt) + 1e-9);
  const sArr = new Float64Array(n), p = new Float64Array(n), area = a * a;
  plate.setVelocity([0, 0, speed]);
  let kept = 0;
  for (let i = 0; i < n; i++) {
    let fz = 0;
    for (let j = 0; j < win; j++) world.step(), fz += plate.contactForce[2];
    const sep = (i + 0.5) * win * speed * dt;
    if (r.depth - sep <= 0.1 * d) continue; // too shallow: σ_z/depth means little
    sArr[kept] = sep, p[kept] = fz / win / area / (r.depth - sep), kept++;
  }
  world.close();
  const sk = sArr.slice(0, kept), pk = p.slice(0, kept);
  const f = exponentialDecayFit(sk, pk, { asymptote: 0, lengths: [0.01 * d, 20 * d] });
  return { effectiveLength: f.length, p0: f.initial, r2: f.r2, s: sk, p: pk };
}
