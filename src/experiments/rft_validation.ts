/**
 * RFT against the DEM it came from, on intruders it was not calibrated on (issue #28, items
 * 3a and 3b): the same kinematic intruder runs through a fresh copy of a settled DEM bed and
 * through the RFT ground (`World.addRftGround`, no grains) with a table calibrated on the same
 * grains (`calibrateRft`), and the two force curves come back side by side.
 *
 * - `"cLeg"`: a C-shaped leg (a half ring, the RHex-like arc of Li, Zhang & Goldman 2013) turns
 *   at constant angular speed about a horizontal hip axis (y) above the surface, sweeping
 *   through the bed convex side first: force (x, z) and hip torque against the leg's angle.
 * - `"plate"`: a thin square plate tilted by β, pushed along γ as the calibration pushes its
 *   plates, at a (β, γ) that is not one of the calibration's pairs: force against depth.
 *
 * The DEM force is averaged over windows of steps; the RFT world steps once per window (its
 * time step is the window's length), starting from the window's mean pose, so both curves are
 * sampled at the same poses over the same simulated time. The agreement is the rms difference
 * over the windows in which the intruder is below the surface, as a fraction of the DEM
 * curve's peak |F| of that component. The cost ratio is the DEM run's wall time over the RFT
 * run's, the RFT run timed on repeated passes once its loop is compiled (settling the bed and
 * calibrating are not counted). With `beds` > 1 the DEM curve is the mean over beds of
 * different seeds, and `demScatter` says how far one bed's curve is from it.
 *
 * @module
 */
import { type RftGroundOptions, RftTable, World } from "../sphere3d/mod.ts";
import { positive } from "../math/validate.ts";
import {
  experimentOptions,
  type ExperimentScale,
  G,
  GRAIN_KEYS,
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
import { calibrateRft } from "./rft_calibration.ts";
import {
  cLegMesh,
  cLegScene,
  type IntruderScene,
  lowestZ,
  plateScene,
  submergedRange,
} from "./rft_intruders.ts";

/** Options of {@link rftValidation}. Lengths in grain diameters d unless stated. */
export interface RftValidationOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /** The intruder: a C-shaped leg turning about its hip, or a tilted plate. @default "cLeg" */
  intruder?: "cLeg" | "plate";
  /**
   * The RFT table; its grain diameter and friction, where it records them, must match the
   * grains'. @default calibrateRft at the same scale and grain options
   */
  table?: RftTable;
  /**
   * Bed: length (x), width (y), depth (d).
   * @default [14, 7, 6] (smoke); [20, 10, 9] (ci); [28, 14, 12] (full)
   */
  bed?: readonly [number, number, number];
  /**
   * The leg's tip speed ω·2R, or the plate's speed (m/s); quasi-static well below √(g·d).
   * @default 0.1 (smoke, ci); 0.05 (full)
   */
  speed?: number;
  /**
   * Force windows: the leg's tip or the plate travels this far per window (d).
   * @default 0.25
   */
  window?: number;
  /** Largest edge of the RFT surface elements (d). @default 0.5 */
  elementSize?: number;
  /** C-leg: radius of the arc's centre line (d). @default 2.5 (smoke); 3.5 (ci, full) */
  legRadius?: number;
  /** C-leg: radial thickness (d). @default 0.8 */
  legThickness?: number;
  /** C-leg: width along the hip axis (d). @default 2 (smoke); 2.5 (ci, full) */
  legWidth?: number;
  /** C-leg: height of the hip axis above the surface (d). @default 2.5 (smoke); 3.5 (ci, full) */
  hipHeight?: number;
  /** Plate: tilt β (rad), in [−π/2, π/2]. @default 35° */
  beta?: number;
  /** Plate: direction of motion γ below the horizontal (rad), in (0.05, π/2]. @default 65° */
  gamma?: number;
  /** Plate: side of the square plate (d); it is 0.4 d thick. @default 3 (smoke); 4 (ci); 6 (full) */
  plateSize?: number;
  /** Plate: travel of the centre past full immersion (d). @default 2 (smoke); 4 (ci); 6 (full) */
  travel?: number;
  /**
   * DEM beds to average (an integer ≥ 1): bed k is settled with the seed `seed + k`, the
   * intruder runs through each, and the DEM curve is their mean (see
   * {@link RftValidation.demScatter}). @default 1
   */
  beds?: number;
  /**
   * Height of the intruder's lowest point above the surface line at the start (d), ≥ 0. Lower
   * than the beds' highest grain top, the intruder starts inside a grain and the first DEM step
   * may stop in the divergence guard. @default that top + 0.05 d (the plate: at least 0.5 d)
   */
  startHeight?: number;
  /**
   * Run the RFT side on a deforming surface (`RftGroundOptions.deform`) over the bed's area:
   * cells of `cellSize` (d), angle of repose `repose` (rad). @default undefined (flat RFT)
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

/** The result of {@link rftValidation}. */
export interface RftValidation {
  /** The run size. */
  scale: ExperimentScale;
  /** The intruder. */
  intruder: "cLeg" | "plate";
  /** What `position` holds: the leg's angle or the plate centre's depth. */
  positionName: "angle" | "depth";
  /**
   * Each window's mean pose: the leg's angle (rad; 0 = hip-to-tip chord straight down,
   * growing as the tip swings from +x through the bottom to −x) or the depth of the plate's
   * centre below the surface (m).
   */
  position: Float64Array;
  /** Depth of the intruder's lowest point below the surface in each window (m; < 0 above). */
  lowest: Float64Array;
  /**
   * The DEM bed's force on the intruder per window, world frame: `fx` (N, +x), `fz` (N, up),
   * `ty` (N·m, about y: about the hip for the leg, about the centre for the plate).
   */
  dem: { fx: Float64Array; fz: Float64Array; ty: Float64Array };
  /** The RFT ground's force per window, as `dem`. */
  rft: { fx: Float64Array; fz: Float64Array; ty: Float64Array };
  /** Rms of RFT − DEM over the submerged windows, over the DEM peak |F| of that component. */
  rms: { x: number; z: number };
  /** DEM beds averaged into `dem`. */
  beds: number;
  /**
   * With more than one bed, the DEM's own scatter on the same scale as `rms`: the rms of each
   * bed's curve about the beds' mean over the submerged windows (pooled over the beds, with
   * the beds − 1 correction), over the mean's peak — what one bed's curve is off by; the mean's
   * own uncertainty is this over √beds. Null with one bed.
   */
  demScatter: { x: number; z: number } | null;
  /**
   * How far the highest grain top of the beds stands above their surface line (m): by default
   * the intruder starts with its lowest point 0.05 d above that (placed lower, it could start
   * inside a grain and stop the first step in the divergence guard; see `startHeight`).
   */
  clearance: number;
  /** The DEM curve's peak |F| over the submerged windows (N). */
  peak: { x: number; z: number };
  /**
   * Wall time of a DEM run (the beds' mean) over the RFT run's, for the same simulated time;
   * the RFT run timed once its loop is compiled (see `cost`).
   */
  costRatio: number;
  /**
   * Wall times (s) and steps of the runs: `demSeconds` per bed; `rftSeconds` the mean of the
   * identical RFT passes after the first (repeated until 10,000 steps, at most 200 passes),
   * `rftColdSeconds` the first's (which includes compiling the ground's loop: a few dozen steps
   * do not amortise it).
   */
  cost: {
    demSeconds: number;
    rftSeconds: number;
    rftColdSeconds: number;
    demSteps: number;
    rftSteps: number;
  };
  /** The leg's tip speed or the plate's speed over √(g·d). */
  speedRatio: number;
  /** Grains in the bed. */
  grains: number;
  /** The RFT table used. */
  table: RftTable;
}

const KEYS = [
  "intruder",
  "table",
  "bed",
  "speed",
  "window",
  "elementSize",
  "legRadius",
  "legThickness",
  "legWidth",
  "hipHeight",
  "beta",
  "gamma",
  "plateSize",
  "travel",
  "beds",
  "startHeight",
  "deform",
  "interfaceFriction",
  "stressMemory",
];
const DEG = Math.PI / 180;
const PRESETS: Record<ExperimentScale, Partial<RftValidationOptions>> = {
  smoke: {
    bed: [14, 7, 6],
    speed: 0.1,
    legRadius: 2.5,
    legWidth: 2,
    hipHeight: 2.5,
    plateSize: 3,
    travel: 2,
    softness: 1e-3,
    rollingFriction: 0.05,
  },
  ci: {
    bed: [20, 10, 9],
    speed: 0.1,
    legRadius: 3.5,
    legWidth: 2.5,
    hipHeight: 3.5,
    plateSize: 4,
    travel: 4,
    softness: 1e-3,
    rollingFriction: 0.05,
  },
  full: {
    bed: [28, 14, 12],
    speed: 0.05,
    legRadius: 3.5,
    legWidth: 2.5,
    hipHeight: 3.5,
    plateSize: 6,
    travel: 6,
    softness: 5e-4,
    rollingFriction: 0.05,
  },
};

/**
 * Run one intruder through the DEM bed and through the RFT ground (see the module notes).
 *
 * @example
 * ```ts
 * import { rftValidation } from "@grainlab/grainlab/experiments";
 * import { RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * // a horizontal plate pushed straight down on the generic medium
 * const table = RftTable.fromFourier({ zeta: 0.3 });
 * const v = await rftValidation({
 *   scale: "smoke", intruder: "plate", beta: 0, gamma: Math.PI / 2, table, travel: 1,
 * });
 * expect(v.dem.fz.length).toBe(v.rft.fz.length);
 * expect(v.rft.fz[v.rft.fz.length - 1]).toBeGreaterThan(0); // the ground holds it
 * ```
 */
export async function rftValidation(options: RftValidationOptions = {}): Promise<RftValidation> {
  const w = "rftValidation";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS);
  const intruder = o.intruder ?? "cLeg";
  if (intruder !== "cLeg" && intruder !== "plate") {
    throw new RangeError(`${w}: intruder ("${String(intruder)}") must be "cLeg" or "plate"`);
  }
  const m = resolveGrains(w, o, { diameter: 0.01 });
  const d = m.d;
  if (o.table !== undefined && !(o.table instanceof RftTable)) {
    throw new TypeError(`${w}: table (${String(o.table)}) must be an RftTable (calibrateRft)`);
  }
  if (o.table !== undefined) checkTableMatchesBed(w, o.table, m);
  const dims = rftBedOption(w, o.bed);
  const speed = positive(w, "speed", o.speed);
  const win = positive(w, "window", o.window ?? 0.25) * d;
  const elementSize = positive(w, "elementSize", o.elementSize ?? 0.5) * d;
  const startHeight = o.startHeight;
  if (
    startHeight !== undefined &&
    (typeof startHeight !== "number" || !(startHeight >= 0) || !Number.isFinite(startHeight))
  ) {
    throw new RangeError(
      `${w}: startHeight (${String(startHeight)}) must be a finite number ≥ 0 (d)`,
    );
  }
  const lift = (clear: number, least: number) =>
    startHeight !== undefined ? startHeight * d : Math.max(least, clear + 0.05 * d);
  const deform = rftDeformOptions(w, o.deform, d);
  const interfaceFriction = rftFrictionOption(w, o.interfaceFriction);
  const stressMemory = checkStressMemory(w, o.stressMemory);
  const beds = o.beds ?? 1;
  if (typeof beds !== "number" || !Number.isInteger(beds) || beds < 1) {
    throw new RangeError(`${w}: beds (${String(beds)}) must be an integer ≥ 1`);
  }
  // check the intruder's own options before any work
  const leg = intruder === "cLeg" ? legOptions(w, o) : null;
  const plate = intruder === "plate" ? plateOptions(w, o) : null;

  // the intruder's geometry, checked against the bed before any work; its start (found once
  // per clearance) puts its lowest point above the grains that stand `clear` above the surface
  // line, and the scene is then placed on a bed's surface
  let placer: (clear: number) => (surface: number) => IntruderScene;
  if (leg !== null) {
    const R = leg.radius * d, hip = leg.hip * d;
    const mesh = cLegMesh({
      radius: R,
      thickness: leg.thickness * d,
      width: leg.width * d,
      segments: 32,
    });
    if (leg.width * d > (dims[1] - 2) * d) {
      throw new RangeError(
        `${w}: legWidth (${leg.width}) must leave 1 d to each side wall (bed width ${dims[1]} d)`,
      );
    }
    const range = submergedRange(mesh.vertices, hip);
    if (range === null) {
      throw new RangeError(
        `${w}: hipHeight (${leg.hip}) must be below the leg's reach (2·legRadius + thickness/2)`,
      );
    }
    const deepest = 2 * leg.radius + 0.5 * leg.thickness - leg.hip;
    if (deepest + 1.5 > dims[2]) {
      throw new RangeError(
        `${w}: the leg reaches ${deepest.toFixed(1)} d deep; it must stay 1.5 d above the ` +
          `floor (bed depth ${dims[2]} d): raise hipHeight (${leg.hip})`,
      );
    }
    const reach = Math.max(2 * R, R + 0.5 * leg.thickness * d);
    if (reach + d > (dims[0] * d) / 2) {
      throw new RangeError(
        `${w}: the bed (${dims[0]} d long) is too short for the leg's sweep (±${
          (reach / d).toFixed(1)
        } d from the hip)`,
      );
    }
    const omega = speed / (2 * R), margin = win / (2 * R);
    const theta1 = range[1] + margin;
    placer = (clear) => {
      // turn back from the first dip until the lowest point clears the grains' tops
      let theta0 = range[0] - margin;
      const h = lift(clear, 0);
      while (theta0 > -Math.PI && hip + lowestZ(mesh.vertices, theta0) < h) {
        theta0 -= 0.001;
      }
      return (surface) =>
        cLegScene(mesh, surface + hip, surface, omega, theta0, (theta1 - theta0) / omega);
    };
  } else {
    const p = plate!;
    placer = (clear) => {
      const above = lift(clear, 0.5 * d);
      return (surface) =>
        plateScene(p.size * d, 0.4 * d, p.beta, p.gamma, speed, surface, above, p.travel * d);
    };
    // the lowest point ends travel + 2·reach below the surface; keep 1.5 d of grains under it
    const reach = 0.5 * p.size * Math.abs(Math.sin(p.beta)) + 0.2 * Math.cos(p.beta);
    const below = p.travel + 2 * reach + 1.5;
    if (below > dims[2]) {
      throw new RangeError(
        `${w}: travel (${p.travel}) takes the plate's lowest point to ${
          (below - 1.5).toFixed(1)
        } d deep; it must stay 1.5 d above the floor (bed depth ${dims[2]} d)`,
      );
    }
    const dx = placer(d)(0).duration * speed * Math.cos(p.gamma);
    if (dx / 2 + 0.5 * p.size * d + d > (dims[0] * d) / 2) {
      throw new RangeError(
        `${w}: the bed (${dims[0]} d long) is too short for γ = ${p.gamma.toFixed(3)} rad: ` +
          `the plate travels ${(dx / d).toFixed(1)} d`,
      );
    }
  }

  const table = o.table ?? (await calibrateRft({ scale, ...grainOptions(o) })).table;
  // the beds first: the intruder starts above the highest grain top of any of them
  const bedList = [settleRftBed(m, dims)];
  for (let b = 1; b < beds; b++) bedList.push(settleRftBed({ ...m, seed: m.seed + b }, dims));
  const bed = bedList[0], { surface } = bed;
  const clear = Math.max(...bedList.map((b) => b.top - b.surface));
  const place = placer(clear);
  const scene = place(surface), travelSpeed = speed;
  const W = Math.max(1, Math.round(win / (travelSpeed * m.dt)));
  const windows = Math.floor(Math.round(scene.duration / m.dt) / W);
  if (windows < 3) {
    throw new RangeError(`${w}: window (${o.window ?? 0.25} d) leaves ${windows} windows; < 3`);
  }

  // DEM: the intruder through a fresh copy of each bed; the curve is the beds' mean
  const runs: ForceCurve[] = [];
  let demSeconds = 0;
  for (let b = 0; b < beds; b++) {
    const bedB = bedList[b];
    const demWorld = await World.create({ timeStep: m.dt, gravity: [0, 0, -G] });
    loadRftBed(demWorld, bedB);
    const demBody = place(bedB.surface).add(demWorld, 0);
    const run = curve(windows);
    const t0 = performance.now();
    for (let k = 0; k < windows; k++) {
      let fx = 0, fz = 0, ty = 0;
      for (let j = 0; j < W; j++) {
        demWorld.step();
        const f = demBody.contactForce, t = demBody.contactTorque;
        fx += f[0], fz += f[2], ty += t[1];
      }
      run.fx[k] = fx / W, run.fz[k] = fz / W, run.ty[k] = ty / W;
    }
    demSeconds += (performance.now() - t0) / 1000;
    demWorld.close();
    runs.push(run);
  }
  const dem = curve(windows);
  for (const run of runs) {
    for (let k = 0; k < windows; k++) {
      dem.fx[k] += run.fx[k] / beds, dem.fz[k] += run.fz[k] / beds, dem.ty[k] += run.ty[k] / beds;
    }
  }
  demSeconds /= beds;

  // RFT: one step per window, from the window's mean pose. The pass repeats in fresh worlds
  // (the same curves) until 10,000 steps were timed after the first, which compiles the
  // ground's loop: the warm cost is the mean of the later passes
  const dtR = W * m.dt, tMid = 0.5 * (W - 1) * m.dt;
  const rft = curve(windows);
  const passes = 1 + Math.min(200, Math.ceil(10000 / windows));
  let rftSeconds = 0, rftColdSeconds = 0;
  for (let pass = 0; pass < passes; pass++) {
    const rftWorld = await World.create({ timeStep: dtR, gravity: [0, 0, -G] });
    const ground = rftWorld.addRftGround(table, {
      surfaceHeight: surface,
      elementSize,
      interfaceFriction,
      ...(stressMemory === null ? {} : { stressMemory }),
      ...(deform === null ? {} : {
        deform: {
          ...deform,
          bounds: [-bed.size[0] / 2, -bed.size[1] / 2, bed.size[0] / 2, bed.size[1] / 2],
        },
      }),
    });
    // one step a window early cuts the elements and starts the engine, outside the clock
    const rftBody = scene.add(rftWorld, tMid - dtR);
    rftWorld.step();
    const t1 = performance.now();
    for (let k = 0; k < windows; k++) {
      rftWorld.step();
      const f = ground.force(rftBody), t = ground.torque(rftBody);
      rft.fx[k] = f[0], rft.fz[k] = f[2], rft.ty[k] = t[1];
    }
    const seconds = (performance.now() - t1) / 1000;
    if (pass === 0) rftColdSeconds = seconds;
    else rftSeconds += seconds / (passes - 1);
    rftWorld.close();
  }

  const position = new Float64Array(windows), lowest = new Float64Array(windows);
  for (let k = 0; k < windows; k++) {
    const t = k * dtR + tMid;
    position[k] = scene.position(t), lowest[k] = scene.lowest(t);
  }
  const x = compare(dem.fx, rft.fx, lowest), z = compare(dem.fz, rft.fz, lowest);
  let demScatter: { x: number; z: number } | null = null;
  if (beds > 1) {
    // pooled: Σ over beds of the squared rms about the mean, over beds − 1
    const pool = (a: Float64Array, pick: (c: ForceCurve) => Float64Array) => {
      let sum = 0;
      for (const run of runs) sum += compare(a, pick(run), lowest).rms ** 2;
      return Math.sqrt(sum / (beds - 1));
    };
    demScatter = { x: pool(dem.fx, (c) => c.fx), z: pool(dem.fz, (c) => c.fz) };
  }
  return {
    scale,
    intruder,
    positionName: intruder === "cLeg" ? "angle" : "depth",
    position,
    lowest,
    dem,
    rft,
    rms: { x: x.rms, z: z.rms },
    beds,
    demScatter,
    clearance: clear,
    peak: { x: x.peak, z: z.peak },
    costRatio: demSeconds / Math.max(rftSeconds, 1e-6),
    cost: { demSeconds, rftSeconds, rftColdSeconds, demSteps: windows * W, rftSteps: windows },
    speedRatio: speed / Math.sqrt(G * d),
    grains: bed.grains,
    table,
  };
}

/** Force (N) and torque (N·m) columns per window. */
type ForceCurve = { fx: Float64Array; fz: Float64Array; ty: Float64Array };

function curve(n: number): ForceCurve {
  return { fx: new Float64Array(n), fz: new Float64Array(n), ty: new Float64Array(n) };
}

/** Rms of b − a and the peak |a| over the windows with `lowest` > 0. */
function compare(a: Float64Array, b: Float64Array, lowest: Float64Array) {
  let s = 0, n = 0, peak = 0;
  for (let k = 0; k < a.length; k++) {
    if (!(lowest[k] > 0)) continue;
    s += (b[k] - a[k]) ** 2, n++;
    peak = Math.max(peak, Math.abs(a[k]));
  }
  const rms = n > 0 ? Math.sqrt(s / n) : 0;
  return { rms: peak > 0 ? rms / peak : rms === 0 ? 0 : Infinity, peak };
}

function grainOptions(o: RftValidationOptions): GrainOptions {
  const g: Record<string, unknown> = {};
  for (const k of GRAIN_KEYS) {
    const v = (o as Record<string, unknown>)[k];
    if (v !== undefined) g[k] = v;
  }
  return g as GrainOptions;
}

function legOptions(w: string, o: RftValidationOptions) {
  const radius = positive(w, "legRadius", o.legRadius);
  const thickness = positive(w, "legThickness", o.legThickness ?? 0.8);
  const width = positive(w, "legWidth", o.legWidth);
  const hip = positive(w, "hipHeight", o.hipHeight);
  if (!(thickness < radius)) {
    throw new RangeError(`${w}: legThickness (${thickness}) must be < legRadius (${radius})`);
  }
  return { radius, thickness, width, hip };
}

function plateOptions(w: string, o: RftValidationOptions) {
  const beta = o.beta ?? 35 * DEG, gamma = o.gamma ?? 65 * DEG;
  if (typeof beta !== "number" || !(Math.abs(beta) <= Math.PI / 2)) {
    throw new RangeError(`${w}: beta (${String(beta)}) must be in [−π/2, π/2] (rad)`);
  }
  if (typeof gamma !== "number" || !(gamma > 0.05 && gamma <= Math.PI / 2)) {
    throw new RangeError(`${w}: gamma (${String(gamma)}) must be in (0.05, π/2] (rad)`);
  }
  const size = positive(w, "plateSize", o.plateSize);
  const travel = positive(w, "travel", o.travel);
  return { beta, gamma, size, travel };
}
