/**
 * The single-wheel test of terramechanics (Wong & Reece's rig): a rigid wheel on a carriage
 * is driven through a bed at a fixed slip ratio s = 1 − v/(ωR) — the carriage speed v and the
 * wheel's angular speed ω are both imposed — under a fixed vertical load W, its height free.
 * Over a slip sweep it gives the drawbar pull DP (the ground's net horizontal force along the
 * travel), the driving torque T and the sinkage z, each a steady-state mean over the part of
 * the travel after a run-in.
 *
 * The ground is the DEM (`ground: "dem"`: one bed settled once, a fresh copy per slip) or an
 * RFT ground (`ground: table`, an {@link RftTable} checked against the grain options), and
 * the scene is otherwise the same: the wheel is kinematic, and its vertical motion is
 * integrated from the measured ground force (`single_wheel_run.ts`). The wheel is a smooth
 * cylinder (no grousers); its friction with the grains is the grains' own.
 *
 * The expected shape (Wong & Reece; Agarwal et al., J. Terramechanics 2019, for RFT): the
 * drawbar pull rises with slip from small or negative at s = 0 and levels off; the sinkage
 * and the torque grow with slip. At ci size the grains are coarse (d = 1 cm: the wheel is 10
 * d across and 3 d wide, the sinkage one or two d).
 *
 * @module
 */
import { type RftGroundOptions, RftTable, World } from "../sphere3d/mod.ts";
import { nonNegative, positive } from "../math/validate.ts";
import { rimAngles } from "./wheel_rim.ts";
import {
  experimentOptions,
  type ExperimentScale,
  G,
  type GrainOptions,
  numberList,
  resolveGrains,
} from "./common.ts";
import {
  checkTableMatchesBed,
  loadRftBed,
  type RftDeformChoice,
  rftDeformOptions,
  rftFrictionOption,
  settleRftBed,
} from "./rft_bed.ts";
import { checkStressMemory } from "../sphere3d/rft/ground_options.ts";
import {
  runWheel,
  type WheelScene,
  type WheelSeries,
  type WheelWindow,
} from "./single_wheel_run.ts";

/** Options of {@link singleWheelTest}. SI units; the bed in grain diameters d. */
export interface SingleWheelOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /**
   * The ground: `"dem"` (a settled bed of the grain options) or a calibrated {@link RftTable}
   * (its grain diameter and friction must match the grain options). @default "dem"
   */
  ground?: "dem" | RftTable;
  /**
   * Slip ratios s = 1 − v/(ωR) of the sweep, in [0, 0.95].
   * @default [0, 0.3, 0.7] (smoke); [0, 0.1, 0.2, 0.3, 0.5, 0.7] (ci, full)
   */
  slips?: readonly number[];
  /** Vertical load W (N); the mass moved vertically is W/g. @default 3 */
  load?: number;
  /** Wheel radius (m). @default 0.05 */
  radius?: number;
  /** Wheel width (m), along the axle (y). @default 0.03 */
  width?: number;
  /** Carriage speed v (m/s); the rim speed is v/(1 − s). @default 0.05 (smoke, ci); 0.02 (full) */
  speed?: number;
  /** Carriage travel of each run (m). @default 0.06 (smoke); 0.1 (ci); 0.2 (full) */
  travel?: number;
  /** Share of the travel before the steady-state window, in [0, 0.9]. @default 0.4 */
  runIn?: number;
  /**
   * Bed width (y) and depth (d), DEM only; its length follows from the travel and the
   * radius. @default [8, 5] (smoke); [10, 6] (ci); [16, 12] (full)
   */
  bed?: readonly [number, number];
  /** Heave damping rate c of the wheel's vertical motion, m·c·z' (1/s). @default 30 */
  heaveDamping?: number;
  /**
   * Time step of the RFT ground's runs (s); the DEM uses the grains' step. Halving it and the
   * element size moves the drawbar pull by under 1 % of W and the sinkage by under 2 % (tested).
   * @default 2e-3
   */
  rftTimeStep?: number;
  /**
   * Largest RFT surface element (m); see `rftTimeStep` for the resolution test.
   * @default radius / 5
   */
  elementSize?: number;
  /**
   * On an RFT ground, a deforming surface (`RftGroundOptions.deform`) along the wheel's track:
   * cells of `cellSize` (d), angle of repose `repose` (rad). @default undefined (flat)
   */
  deform?: RftDeformChoice;
  /**
   * On an RFT ground, the bodies' friction against the grains, which caps each element force's
   * lean from the surface normal at atan μ (see `RftGroundOptions.interfaceFriction`).
   * @default Infinity (no cap: Li et al.'s RFT)
   */
  interfaceFriction?: number;
  /**
   * On an RFT ground, a pressure memory (see `RftGroundOptions.stressMemory`; lengths in m, as
   * `calibrateRftMemory` measures them). @default undefined (none: Li et al.'s RFT)
   */
  stressMemory?: RftGroundOptions["stressMemory"];
}

/** The result of {@link singleWheelTest}. Steady-state means over the window after the run-in. */
export interface SingleWheelResult {
  /** The run size. */
  scale: ExperimentScale;
  /** `"dem"` or `"rft"`. */
  ground: "dem" | "rft";
  /** The imposed slip ratios. */
  slips: Float64Array;
  /** Drawbar pull: the ground's mean force along the travel (N). */
  drawbarPull: Float64Array;
  /** Standard deviation of the drawbar pull's block means (N). */
  drawbarPullStd: Float64Array;
  /** Mean driving torque about the axle (N·m). */
  torque: Float64Array;
  /** Standard deviation of the torque's block means (N·m). */
  torqueStd: Float64Array;
  /** Mean sinkage of the wheel's bottom below the undisturbed surface (m). */
  sinkage: Float64Array;
  /** Standard deviation of the sinkage over the blocks (m). */
  sinkageStd: Float64Array;
  /** Mean vertical ground force (N): W in a steady state. */
  verticalForce: Float64Array;
  /** The slip measured from the wheel's velocities over the window (the imposed one). */
  measuredSlip: Float64Array;
  /**
   * The record of each run, per block of 1 mm of travel: `time` (s) and carriage `travel` (m)
   * at the block's end, the block's mean `drawbarPull` (N), `torque` (N·m) and
   * `verticalForce` (N), the `sinkage` at its end (m) and the `slip` from the wheel's
   * velocities.
   */
  runs: Record<
    "time" | "travel" | "drawbarPull" | "torque" | "verticalForce" | "sinkage" | "slip",
    Float64Array
  >[];
  /**
   * Where the ground carries the wheel: the stress around the rim over the steady window
   * (Wong & Reece's σ(θ) and τ(θ); see `wheel_rim.ts`), per run. `angle`: the bins' centres
   * (rad, 5° apart over [−90°, 90°]), measured from straight down under the axle, positive
   * towards the travel. `normal[i]`: slip i's normal stress (Pa), pressing positive; `shear[i]`
   * its shear stress along the rim's tangent (cos θ, 0, sin θ) (Pa), positive pushing the wheel
   * forward at the bottom. Sampled every step of the window: on a DEM bed the grains' contacts on
   * the rim, on RFT the rim's elements (`RftGround.elementForces`).
   */
  rim: { angle: Float64Array; normal: Float64Array[]; shear: Float64Array[] };
  /** Load W (N). */
  load: number;
  /** Wheel radius (m). */
  radius: number;
  /** Wheel width (m). */
  width: number;
  /** Carriage speed (m/s). */
  speed: number;
  /** Carriage travel of each run (m). */
  travel: number;
  /** Grains in the bed (0 on RFT). */
  grains: number;
  /** The settled bed's coordination number Z (`RftBed.coordination`; 0 on RFT). */
  coordination: number;
  /** Time step of the runs (s). */
  timeStep: number;
  /** Simulated time of all runs (s). */
  simulatedSeconds: number;
  /** Wall time of the runs' stepping (s; the bed's settling left out). */
  wallSeconds: number;
}

const KEYS = [
  "ground",
  "slips",
  "load",
  "radius",
  "width",
  "speed",
  "travel",
  "runIn",
  "bed",
  "heaveDamping",
  "rftTimeStep",
  "elementSize",
  "deform",
  "interfaceFriction",
  "stressMemory",
];
const PRESETS: Record<ExperimentScale, Partial<SingleWheelOptions>> = {
  smoke: { slips: [0, 0.3, 0.7], speed: 0.05, travel: 0.06, bed: [8, 5] },
  ci: { slips: [0, 0.1, 0.2, 0.3, 0.5, 0.7], speed: 0.05, travel: 0.1, bed: [10, 6] },
  full: {
    slips: [0, 0.1, 0.2, 0.3, 0.5, 0.7],
    speed: 0.02,
    travel: 0.2,
    bed: [16, 12],
    diameter: 0.005,
    softness: 5e-4,
  },
};
/** Rotation of the cylinder's axis (body z) onto the world's y. */
const AXLE_Y = [-Math.SQRT1_2, 0, 0, Math.SQRT1_2];

/**
 * Run the single-wheel slip sweep (see the module notes).
 *
 * @example
 * ```ts
 * import { singleWheelTest } from "@grainlab/grainlab/experiments";
 * import { RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const ground = RftTable.fromFourier({ zeta: 0.3, material: "beads" });
 * const r = await singleWheelTest({ scale: "smoke", ground, slips: [0.2] });
 * expect(r.verticalForce[0]).toBeCloseTo(3, 0); // the ground carries the load
 * expect(r.sinkage[0]).toBeGreaterThan(0);
 * ```
 */
export async function singleWheelTest(
  options: SingleWheelOptions = {},
): Promise<SingleWheelResult> {
  const w = "singleWheelTest";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS);
  const m = resolveGrains(w, o, { diameter: 0.01, rollingFriction: 0.05 });
  const ground = o.ground ?? "dem";
  if (ground !== "dem" && !(ground instanceof RftTable)) {
    throw new TypeError(`${w}: ground (${String(ground)}) must be "dem" or an RftTable`);
  }
  if (ground instanceof RftTable) checkTableMatchesBed(w, ground, m);
  const slips = numberList(w, "slips", o.slips, (wh, n, x) => {
    const s = nonNegative(wh, n, x);
    if (s > 0.95) throw new RangeError(`${wh}: ${n} (${s}) must be in [0, 0.95]`);
    return s;
  });
  const load = positive(w, "load", o.load ?? 3);
  const R = positive(w, "radius", o.radius ?? 0.05);
  const width = positive(w, "width", o.width ?? 0.03);
  const speed = positive(w, "speed", o.speed);
  const travel = positive(w, "travel", o.travel);
  const runIn = nonNegative(w, "runIn", o.runIn ?? 0.4);
  if (runIn > 0.9) throw new RangeError(`${w}: runIn (${runIn}) must be in [0, 0.9]`);
  const damping = nonNegative(w, "heaveDamping", o.heaveDamping ?? 30);
  const rftDt = positive(w, "rftTimeStep", o.rftTimeStep ?? 2e-3);
  const elementSize = positive(w, "elementSize", o.elementSize ?? R / 5);
  const deform = rftDeformOptions(w, o.deform, m.d);
  const interfaceFriction = rftFrictionOption(w, o.interfaceFriction);
  const stressMemory = checkStressMemory(w, o.stressMemory);
  const bedSpec = o.bed;
  if (!Array.isArray(bedSpec) || bedSpec.length !== 2) {
    throw new TypeError(`${w}: bed (${String(bedSpec)}) must be [width, depth] (d)`);
  }
  const bedW = positive(w, "bed[0]", bedSpec[0]), bedD = positive(w, "bed[1]", bedSpec[1]);
  if (bedW * m.d < width + 2 * m.d) {
    throw new RangeError(
      `${w}: bed[0] (${bedW} d) must leave a grain each side of the wheel (width ${width} m)`,
    );
  }
  const d = m.d, margin = 2 * d;
  const length = travel + 2 * R + 2 * margin;
  const dem = ground === "dem";
  const bed = dem ? settleRftBed(m, [length / d, bedW, bedD]) : null;
  const surface = bed !== null ? bed.surface : 0;
  // the wheel starts at rest with its bottom on the highest grain (on RFT, on the surface)
  const start = bed !== null ? bed.top : 0;
  const dt = dem ? m.dt : rftDt;
  const steps = Math.ceil(travel / (speed * dt));
  // blocks of 1 mm of travel, at least one step
  const block = Math.max(1, Math.round(1e-3 / (speed * dt)));
  const firstSteady = Math.floor((runIn * steps) / block);
  const n = slips.length;
  const out = {
    drawbarPull: new Float64Array(n),
    drawbarPullStd: new Float64Array(n),
    torque: new Float64Array(n),
    torqueStd: new Float64Array(n),
    sinkage: new Float64Array(n),
    sinkageStd: new Float64Array(n),
    verticalForce: new Float64Array(n),
    measuredSlip: new Float64Array(n),
  };
  const runs: WheelSeries[] = [];
  const rimNormal: Float64Array[] = [], rimShear: Float64Array[] = [];
  let wallMs = 0, simulated = 0;
  for (let i = 0; i < n; i++) {
    const world = await World.create({ timeStep: dt, gravity: [0, 0, -G] });
    const rft = bed === null
      ? world.addRftGround(ground as RftTable, {
        surfaceHeight: surface,
        elementSize,
        implicitDrag: false,
        interfaceFriction,
        ...(stressMemory === null ? {} : { stressMemory }),
        ...(deform === null ? {} : {
          deform: { ...deform, bounds: [-length / 2, -bedW * d / 2, length / 2, bedW * d / 2] },
        }),
      })
      : null;
    const grains = bed !== null ? loadRftBed(world, bed) : null;
    const omega = speed / ((1 - slips[i]) * R);
    const wheel = world.addCylinder({
      radius: R,
      halfHeight: width / 2,
      position: [-length / 2 + margin + R, 0, start + R],
      orientation: AXLE_Y,
      bodyType: "kinematic",
      linearVelocity: [speed, 0, 0],
      angularVelocity: [0, omega, 0],
    });
    const scene: WheelScene = {
      world,
      wheel,
      ground: rft,
      grains,
      width,
      surface,
      floor: bed !== null ? d : -Infinity,
      radius: R,
      load,
      mass: load / G,
      damping,
      speed,
      omega,
      steps,
      block,
      firstSteady,
    };
    try {
      const r = runWheel(w, scene);
      runs.push(r.series);
      rimNormal.push(r.rim.normal), rimShear.push(r.rim.shear);
      wallMs += r.wallMs;
      simulated += steps * dt;
      copyWindow(out, i, r.steady);
    } finally {
      world.close();
    }
  }
  return {
    scale,
    ground: dem ? "dem" : "rft",
    slips,
    ...out,
    runs,
    rim: { angle: rimAngles(), normal: rimNormal, shear: rimShear },
    load,
    radius: R,
    width,
    speed,
    travel,
    grains: bed !== null ? bed.grains : 0,
    coordination: bed !== null ? bed.coordination : 0,
    timeStep: dt,
    simulatedSeconds: simulated,
    wallSeconds: wallMs / 1e3,
  };
}

function copyWindow(
  out: Record<
    | "drawbarPull"
    | "drawbarPullStd"
    | "torque"
    | "torqueStd"
    | "sinkage"
    | "sinkageStd"
    | "verticalForce"
    | "measuredSlip",
    Float64Array
  >,
  i: number,
  s: WheelWindow,
): void {
  out.drawbarPull[i] = s.drawbarPull, out.drawbarPullStd[i] = s.drawbarPullStd;
  out.torque[i] = s.torque, out.torqueStd[i] = s.torqueStd;
  out.sinkage[i] = s.sinkage, out.sinkageStd[i] = s.sinkageStd;
  out.verticalForce[i] = s.verticalForce, out.measuredSlip[i] = s.slip;
}
