/**
 * A robot on both grounds: the six-legged RHex-like robot of `examples/assets/rhex6.urdf`
 * (a 0.16 m torso, 0.64 kg in all, six 0.07 m spoke legs turning all the way round about hips
 * along y) walks under the same PD gait on a settled DEM bed (`settleRftBed`) or on an RFT
 * ground calibrated from such a bed; the per-cycle body height and forward speed of the two
 * runs can be set side by side, and their wall times give the cost ratio DEM/RFT.
 *
 * The gait is RHex's "Buehler clock" with alternating tripods: each leg sweeps the stance arc
 * [−sweep/2, sweep/2] about straight down at a slow constant rate during one half of the period
 * and turns the rest of the circle, 2π − sweep, during the other half; the tripod of the
 * front-left, middle-right and rear-left legs runs half a period out of phase with that of the
 * front-right, middle-left and rear-right ones, so one tripod is always in stance. The targets
 * are a function of time alone, the same on both grounds; a controller at 1 kHz hands each hip
 * its target angle (taken within π of the measured one, the joints being continuous) and rate
 * to the joint's PD motor.
 *
 * The robot starts at rest with its lowest leg tip 2 mm above the highest grain of the bed (on
 * RFT, above the surface: a leg placed into a grain that stands above the surface line would
 * stop the first step in the divergence guard), near the −x end of the bed, stands for half a
 * period on all six legs at the gait's starting angles, then walks towards +x (time, travel and
 * cycles count from there); a DEM bed too short for the walk is an error, not a fall off its
 * end. On the RFT ground the surface is at z = 0 and no grains exist. Heights are the
 * torso's centre of mass above the surface (the bed's: the mean top of its highest grains).
 *
 * @module
 */
import { quatMatrix } from "../sphere3d/bodies/body_set.ts";
import { type RftGroundOptions, type RftHeightMap, RftTable, World } from "../sphere3d/mod.ts";
import { bool, integerIn, positive } from "../math/validate.ts";
import {
  experimentOptions,
  type ExperimentScale,
  G,
  type GrainOptions,
  resolveGrains,
} from "./common.ts";
import {
  checkTableMatchesBed,
  loadRftBed,
  rftBedOption,
  type RftDeformChoice,
  rftDeformOptions,
  rftFrictionOption,
  settleRftBed,
} from "./rft_bed.ts";
import { checkStressMemory } from "../sphere3d/rft/ground_options.ts";

/** Options of {@link robotOnGround}. */
export interface RobotOnGroundOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /**
   * The ground: `"dem"` (a settled bed of the grains) or an RFT table calibrated on the same
   * grains (its grain diameter and friction must match theirs). @default "dem"
   */
  ground?: "dem" | RftTable;
  /** Gait period (s). @default 0.4 (smoke); 0.5 (ci, full) */
  period?: number;
  /** Stance sweep of each leg about straight down (rad), in (0, π]. @default 0.8 */
  sweep?: number;
  /** Gait cycles walked (≥ 2: the first is the start). @default 2 (smoke); 3 (ci); 5 (full) */
  cycles?: number;
  /** Hip PD gains [kp (N·m/rad), kd (N·m·s/rad)]. @default [2, 0.02] */
  gains?: readonly [number, number];
  /**
   * DEM bed: length along the walk, width, depth (d); not used on an RFT ground (checked
   * there only when given). The robot needs about 0.32 m of length
   * plus its walk (about 0.11 m per cycle) and a width of at least 0.18 m. @default [40, 14, 4]
   * (smoke, with d = 1.5 cm grains); [80, 20, 5] (ci); [120, 26, 7] (full)
   */
  bed?: readonly [number, number, number];
  /** Time step of the RFT run (s); the DEM run steps at the grains' time step. @default 1e-3 */
  rftTimeStep?: number;
  /**
   * The RFT ground's `implicitDrag` (see `World.addRftGround`). Off by default here: the legs
   * never rest, and applied explicitly at 1 ms the RFT forces give the walk of a 0.19 ms step,
   * where the engine's isotropic implicit damping slows the robot a little. @default false
   */
  implicitDrag?: boolean;
  /**
   * On an RFT ground, a deforming surface (`RftGroundOptions.deform`) over the strip the robot
   * walks: cells of `cellSize` (d), angle of repose `repose` (rad). @default undefined (flat)
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

/** The result of {@link robotOnGround}. */
export interface RobotOnGroundResult {
  /** The run size. */
  scale: ExperimentScale;
  /** Which ground the robot walked on. */
  ground: "dem" | "rft";
  /** Gait period (s), stance sweep (rad) and cycles walked. */
  gait: { period: number; sweep: number; cycles: number };
  /** The time step (s). */
  timeStep: number;
  /** Grains in the bed (0 on the RFT ground). */
  grains: number;
  /** Samples, 40 per cycle and one at the start: time (s). */
  time: Float64Array;
  /** Forward (x) travel of the torso's centre of mass since the start (m), per sample. */
  x: Float64Array;
  /** Height of the torso's centre of mass above the surface (m), per sample. */
  height: Float64Array;
  /** Mean forward speed over each cycle (m/s): its travel over the period. */
  cycleSpeed: Float64Array;
  /** Mean height of the torso's centre of mass above the surface over each cycle (m). */
  cycleHeight: Float64Array;
  /** Mean forward speed over the cycles after the first (m/s). */
  meanSpeed: number;
  /** Mean height over the cycles after the first (m). */
  meanHeight: number;
  /** The lowest the torso's lowest corner came above the surface, over the walk (m). */
  minClearance: number;
  /**
   * Where in the stride the ground pushes: its force on the six legs over the cycles after the
   * first, by hip angle, in 36 bins of 10° (`angle`: the bins' centres, deg; 0 is straight down,
   * the angle growing as a grounded leg sweeps backwards, so the stance arc straddles 0 and the
   * fast return comes down in front from about 300°). `x` (forward) and `z` (up) are each bin's
   * impulse over the window divided by the window's length (N): the bins sum to the legs' mean
   * force, and with `torsoForce` the z sums carry the robot's weight.
   */
  legForceByAngle: { angle: Float64Array; x: Float64Array; z: Float64Array };
  /** The ground's mean force on the torso over the same window, [x, z] (N): zero unless it touches. */
  torsoForce: [number, number];
  /** Wall time of the walk (s), without building the scene or settling the bed. */
  wallTime: number;
  /** With `deform`, the deforming surface after the walk (its ruts and heaps); else null. */
  surface: RftHeightMap | null;
}

const KEYS = [
  "ground",
  "period",
  "sweep",
  "cycles",
  "gains",
  "bed",
  "rftTimeStep",
  "implicitDrag",
  "deform",
  "interfaceFriction",
  "stressMemory",
];
const PRESETS: Record<ExperimentScale, Partial<RobotOnGroundOptions>> = {
  smoke: { period: 0.4, cycles: 2, bed: [40, 14, 4], diameter: 0.015, rollingFriction: 0.05 },
  ci: { period: 0.5, cycles: 3, bed: [80, 20, 5], rollingFriction: 0.05 },
  full: { period: 0.5, cycles: 5, bed: [120, 26, 7], rollingFriction: 0.05 },
};
const TAU = 2 * Math.PI;
/** Gait phases (cycles) of the legs in URDF joint order: two alternating tripods. */
const PHASES = [0, 0.5, 0.5, 0, 0, 0.5]; // front, middle, rear; left then right
/** Leg reach from the hip (m), hips ahead of and behind the torso's centre (m). */
const LEG = 0.07, HIP_X = 0.08, HIP_Z = 0.015;
const CONTROL_PERIOD = 1e-3;
const SAMPLES_PER_CYCLE = 40;

/**
 * The gait's target angle (rad, modulo 2π; 0 is straight down, positive sweeps a grounded leg
 * backwards) and rate (rad/s) of a leg of the given phase at time t.
 */
function gaitTarget(t: number, phase: number, period: number, sweep: number, out: number[]) {
  const tau = (((t / period + phase) % 1) + 1) % 1;
  if (tau < 0.5) {
    out[0] = -sweep / 2 + 2 * sweep * tau;
    out[1] = (2 * sweep) / period;
  } else {
    out[0] = sweep / 2 + 2 * (TAU - sweep) * (tau - 0.5);
    out[1] = (2 * (TAU - sweep)) / period;
  }
}

/**
 * Walk the RHex-like robot on a DEM bed or on an RFT ground (see the module notes).
 *
 * @example
 * ```ts
 * import { robotOnGround } from "@grainlab/grainlab/experiments";
 * import { RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * // smoke size: grains of d = 1.5 cm, so the table must say so
 * const table = RftTable.fromFourier({ zeta: 0.35, grainDiameter: 0.015, friction: 0.5 });
 * const r = await robotOnGround({ scale: "smoke", ground: table });
 * expect(r.meanSpeed).toBeGreaterThan(0); // it walks forward
 * expect(r.minClearance).toBeGreaterThan(0); // on its legs, the torso above the sand
 * ```
 */
export async function robotOnGround(
  options: RobotOnGroundOptions = {},
): Promise<RobotOnGroundResult> {
  const w = "robotOnGround";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS);
  const m = resolveGrains(w, o, { diameter: 0.01 });
  const ground = o.ground ?? "dem";
  if (ground !== "dem" && !(ground instanceof RftTable)) {
    throw new TypeError(`${w}: ground (${String(ground)}) must be "dem" or an RftTable`);
  }
  const period = positive(w, "period", o.period);
  const sweep = positive(w, "sweep", o.sweep ?? 0.8);
  if (!(sweep <= Math.PI)) throw new RangeError(`${w}: sweep (${sweep}) must be in (0, π] rad`);
  const cycles = integerIn(w, "cycles", o.cycles, 2, 1000);
  const gains = o.gains ?? [2, 0.02];
  if (!Array.isArray(gains) || gains.length !== 2) {
    throw new TypeError(`${w}: gains (${String(gains)}) must be [kp, kd]`);
  }
  const kp = positive(w, "gains[0]", gains[0]), kd = positive(w, "gains[1]", gains[1]);
  // the bed is checked where there is one, or where it was given
  const dims: [number, number, number] = ground === "dem" || options?.bed !== undefined
    ? bedSize(w, o.bed, m.d)
    : [0, 0, 0];
  const rftDt = positive(w, "rftTimeStep", o.rftTimeStep ?? 1e-3);
  const implicitDrag = bool(w, "implicitDrag", o.implicitDrag, false);
  const deform = rftDeformOptions(w, o.deform, m.d);
  const interfaceFriction = rftFrictionOption(w, o.interfaceFriction);
  const stressMemory = checkStressMemory(w, o.stressMemory);
  if (ground !== "dem") checkTableMatchesBed(w, ground, m);

  const dt = ground === "dem" ? m.dt : rftDt;
  const world = await World.create({ timeStep: dt, gravity: [0, 0, -G] });
  let surface = 0, top = 0, grains = 0, xMax = Infinity;
  let surfaceMap: RftHeightMap | null = null;
  if (ground === "dem") {
    const bed = settleRftBed(m, dims);
    loadRftBed(world, bed);
    surface = bed.surface, top = bed.top, grains = bed.grains;
    xMax = bed.size[0] / 2 - HIP_X - LEG;
  } else {
    // a deforming surface covers the strip the robot can reach walking at up to 1 m/s
    const span = HIP_X + LEG + 0.05, ahead = span + cycles * period + period;
    surfaceMap = world.addRftGround(ground, {
      surfaceHeight: 0,
      elementSize: 0.5 * m.d,
      implicitDrag,
      interfaceFriction,
      ...(stressMemory === null ? {} : { stressMemory }),
      ...(deform === null ? {} : { deform: { ...deform, bounds: [-span, -0.15, ahead, 0.15] } }),
    }).surface;
  }
  const x0 = ground === "dem" ? -dims[0] * m.d / 2 + HIP_X + LEG + m.d : 0;
  const target = [0, 0], q = new Float64Array(6), qd = new Float64Array(6);
  const q0 = PHASES.map((p) => (gaitTarget(0, p, period, sweep, target), target[0]));
  const reach = Math.max(...q0.map((a) => LEG * Math.cos(a))) + HIP_Z;
  const urdf = await Deno.readTextFile(
    new URL("../../examples/assets/rhex6.urdf", import.meta.url),
  );
  const robot = await world.addArticulatedSystem(urdf, {
    base: "floating",
    // the lowest foot 2 mm above the highest grain (on RFT, above the surface)
    position: [x0, 0, top + reach + 0.002],
    jointPositions: q0,
  });
  robot.setPdGains(kp, kd);
  const torso = robot.link("torso"), half = torso.shapes[0].halfExtents!;
  const legs = ["front", "middle", "rear"].flatMap((r) => [`${r}_left`, `${r}_right`])
    .map((name) => robot.link(name)); // in the hips' (the joints') order
  const BINS = 36, binX = new Float64Array(BINS), binZ = new Float64Array(BINS);
  let torsoX = 0, torsoZ = 0, window = 0;
  const R = new Float64Array(9);
  const clearance = () => {
    const r = torso.orientation;
    quatMatrix(r[0], r[1], r[2], r[3], R, 0);
    const reachDown = Math.abs(R[6]) * half[0] + Math.abs(R[7]) * half[1] +
      Math.abs(R[8]) * half[2];
    return torso.position[2] - reachDown - surface;
  };

  const control = (t: number, rate: number) => {
    const hips = robot.generalizedCoordinate; // [x, y, z, qw, qx, qy, qz, hips…]
    for (let j = 0; j < 6; j++) {
      gaitTarget(t, PHASES[j], period, sweep, target);
      let e = target[0] - hips[7 + j];
      e -= TAU * Math.round(e / TAU);
      q[j] = hips[7 + j] + e, qd[j] = rate * target[1];
    }
    robot.setPdTarget(q, qd);
  };

  // stand: half a period on all six legs at the gait's starting angles, then walk
  const t0 = performance.now(), stand = period / 2;
  let nextControl = 0;
  while (world.time < stand - 1e-12) {
    if (world.time >= nextControl - 1e-12) control(0, 0), nextControl += CONTROL_PERIOD;
    world.step();
  }
  const n = cycles * SAMPLES_PER_CYCLE;
  const time = new Float64Array(n + 1), x = new Float64Array(n + 1);
  const height = new Float64Array(n + 1);
  const start = world.time, xStart = torso.centerOfMass[0];
  height[0] = torso.centerOfMass[2] - surface;
  let minClearance = clearance(), sample = 1;
  const end = cycles * period;
  nextControl = start;
  while (sample <= n) {
    const t = world.time;
    if (t >= nextControl - 1e-12) control(t - start, 1), nextControl += CONTROL_PERIOD;
    world.step();
    const c = clearance();
    if (c < minClearance) minClearance = c;
    if (world.time - start > period + 1e-12) {
      // the ground's push by hip angle, over the cycles after the first (as meanSpeed)
      const hips = robot.generalizedCoordinate;
      for (let j = 0; j < 6; j++) {
        const a = hips[7 + j] - TAU * Math.floor(hips[7 + j] / TAU);
        const k = Math.min(BINS - 1, Math.floor((a / TAU) * BINS));
        const f = legs[j].contactForce;
        binX[k] += f[0] * dt, binZ[k] += f[2] * dt;
      }
      const f = torso.contactForce;
      torsoX += f[0] * dt, torsoZ += f[2] * dt, window += dt;
    }
    if (world.time - start >= (sample * end) / n - 1e-12) {
      const com = torso.centerOfMass;
      time[sample] = world.time - start;
      x[sample] = com[0] - xStart, height[sample] = com[2] - surface;
      if (!Number.isFinite(com[0] + com[2])) {
        throw new RangeError(`${w}: the robot's state became non-finite at t = ${world.time} s`);
      }
      if (com[0] > xMax) {
        throw new RangeError(
          `${w}: the bed (${dims[0]} d long) is too short for the walk: the torso reached ` +
            `x = ${com[0].toFixed(3)} m at t = ${
              (world.time - start).toFixed(3)
            } s, beyond which its ` +
            "legs leave the bed; lengthen bed[0] or walk fewer cycles",
        );
      }
      sample++;
    }
  }
  const wallTime = (performance.now() - t0) / 1000;
  world.close();
  const cycleSpeed = new Float64Array(cycles), cycleHeight = new Float64Array(cycles);
  for (let k = 0; k < cycles; k++) {
    const a = k * SAMPLES_PER_CYCLE, b = a + SAMPLES_PER_CYCLE;
    cycleSpeed[k] = (x[b] - x[a]) / (time[b] - time[a]);
    let h = 0;
    for (let s = a + 1; s <= b; s++) h += height[s];
    cycleHeight[k] = h / SAMPLES_PER_CYCLE;
  }
  const meanSpeed = (x[n] - x[SAMPLES_PER_CYCLE]) / (time[n] - time[SAMPLES_PER_CYCLE]);
  let meanHeight = 0;
  for (let k = 1; k < cycles; k++) meanHeight += cycleHeight[k] / (cycles - 1);
  return {
    scale,
    ground: ground === "dem" ? "dem" : "rft",
    gait: { period, sweep, cycles },
    timeStep: dt,
    grains,
    time,
    x,
    height,
    cycleSpeed,
    cycleHeight,
    meanSpeed,
    meanHeight,
    minClearance,
    legForceByAngle: {
      angle: Float64Array.from({ length: BINS }, (_, k) => (k + 0.5) * (360 / BINS)),
      x: binX.map((v) => v / window),
      z: binZ.map((v) => v / window),
    },
    torsoForce: [torsoX / window, torsoZ / window],
    wallTime,
    surface: surfaceMap,
  };
}

function bedSize(w: string, v: unknown, d: number): [number, number, number] {
  const dims = rftBedOption(w, v);
  if (dims[1] * d < 0.18) {
    throw new RangeError(
      `${w}: bed[1] (${dims[1]} d = ${dims[1] * d} m) must be at least 0.18 m: the legs ` +
        "reach 0.08 m to each side",
    );
  }
  if (dims[0] * d < 2 * (HIP_X + LEG + d)) {
    throw new RangeError(
      `${w}: bed[0] (${dims[0]} d = ${dims[0] * d} m) must be longer than the robot's reach ` +
        `(${2 * (HIP_X + LEG + d)} m)`,
    );
  }
  if (dims[2] < 3) throw new RangeError(`${w}: bed[2] (${dims[2]} d) must be at least 3 d`);
  return dims;
}
