/**
 * Column collapse of star-shaped grains against disks of the same area (star2d): the StarDEM
 * paper's scene (`columnCollapseScene`: a column held by two gates that open at 0.4 s). When
 * the grains have come to rest, the pile's free surface (the highest bounding-circle top in
 * bins one grain wide) is fitted on both flanks. Interlocking crosses stand in a steep pile;
 * disks, which roll, spread into a flat one. {@link collapsePile} runs the scene once for any
 * grain method (stars, clumps of disks, disks); `collapse_clumps.ts` uses it to compare the
 * methods over several seeds.
 *
 * @module
 */
import { cpuUsage } from "node:process";
import { ClumpSystem, columnCollapseScene, StarShape } from "../star2d/mod.ts";
import { finite, integerIn, oneOf, options as checkOptions, positive } from "../math/validate.ts";
import {
  experimentOptions,
  type ExperimentScale,
  type Snapshot,
  snapshot,
  type SurfaceProfile,
  surfaceProfile,
} from "./common.ts";
import { flankAngles } from "./repose.ts";

/** Options of {@link starColumnCollapse}. */
export interface StarCollapseOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /** Grains (the lowest of the scene's layout). @default 160 (ci); 429 (full); 60 (smoke) */
  grains?: number;
  /** Simulated time (s); the gates open at 0.4 s. @default 1.2 (ci); 2.5 (full); 0.5 (smoke) */
  duration?: number;
  /** Star shape preset. @default "cross" */
  shape?: "cross" | "flower" | "peanut" | "butterfly" | "bat" | "flower8";
  /** Boundary nodes per star grain. @default 60 (ci); 200 (full, the paper's); 24 (smoke) */
  nodes?: number;
  /** Seed of the layout and orientations. @default 1 */
  seed?: number;
}

const KEYS = ["grains", "duration", "shape", "nodes", "seed"];

const PRESETS: Record<ExperimentScale, Partial<StarCollapseOptions>> = {
  smoke: { grains: 60, duration: 0.5, nodes: 24 },
  ci: { grains: 160, duration: 1.2, nodes: 60 },
  full: { grains: 429, duration: 2.5, nodes: 200 },
};

/** The collapsed pile of one grain kind. */
export interface CollapsedPile {
  /** "star", "clump" (rigid clumps of disks approximating the star) or "disk" (same area). */
  method: "star" | "clump" | "disk";
  /** Pile angle (degrees): the mean of the two flanks. */
  angle: number;
  /** Left flank (degrees). */
  leftAngle: number;
  /** Right flank (degrees). */
  rightAngle: number;
  /** The free surface. */
  profile: SurfaceProfile;
  /** Kinetic energy at the end (J per metre of depth). */
  kineticEnergy: number;
  /** The pile at the end (grains, angles, outline of the stars, contacts). */
  packing: Snapshot;
  /** Time step of the run (s). */
  timeStep: number;
  /** Steps run. */
  steps: number;
  /** CPU time of the steps (ms, user + system, the whole process). */
  cpuMs: number;
  /**
   * World-frame disks of the clumps at the end (centres x, y interleaved and radii, m), for
   * figures; only for `method: "clump"`.
   */
  clumpDisks?: { positions: Float64Array; radii: Float64Array };
}

/** Result of {@link starColumnCollapse}. */
export interface StarCollapseResult {
  /** The scale run. */
  scale: ExperimentScale;
  /** Area of a grain (m²), star or disk. */
  area: number;
  /** Star grains. */
  stars: CollapsedPile;
  /** Disks of the same area. */
  disks: CollapsedPile;
}

/**
 * Collapses the paper's column of star grains and of disks of the same area and measures the
 * angles of the piles.
 *
 * Tolerance (CI test `tests/experiments_star2d_test.ts`, `scale: "ci"`): the stars' pile is
 * steeper than the disks' by more than 5°.
 *
 * @param options grains, duration, shape, resolution, seed, scale
 * @returns the two piles with their angles and surfaces
 * @throws {RangeError} on a non-positive count or duration
 * @example
 * ```ts
 * import { starColumnCollapse } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = starColumnCollapse({ scale: "smoke", grains: 20, duration: 0.02 });
 * expect(r.stars.packing.positions).toHaveLength(40);
 * expect(r.disks.method).toBe("disk");
 * ```
 */
export function starColumnCollapse(options: StarCollapseOptions = {}): StarCollapseResult {
  const w = "starColumnCollapse";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS, false);
  const grains = integerIn(w, "grains", o.grains, 1, 429);
  const duration = positive(w, "duration", o.duration);
  const nodes = integerIn(w, "nodes", o.nodes, 8, 10000);
  const seed = o.seed ?? 1;
  const shape = StarShape.preset(o.shape ?? "cross", { rMax: 0.005, nodes });
  const run = (method: "star" | "disk") =>
    collapsePile(method, { shape: o.shape, nodes, grains, duration, seed });
  return { scale, area: shape.area, stars: run("star"), disks: run("disk") };
}

/** Options of {@link collapsePile}. */
export interface CollapsePileOptions {
  /** Star shape preset, scaled to r_max = 5 mm (the scene's size). @default "cross" */
  shape?: StarCollapseOptions["shape"];
  /** Boundary nodes of the star grains (`method: "star"`). @default 100 */
  nodes?: number;
  /** Grains (the lowest of the scene's layout, 1 to 429). @default 160 */
  grains?: number;
  /** Simulated time (s); the gates open at 0.4 s. @default 1.2 */
  duration?: number;
  /** Seed of the layout and orientations (the same for every method). @default 1 */
  seed?: number;
  /** Disks per clump for `method: "clump"` (`approximateByDisks`). @default 17 */
  clumpDisks?: number;
  /** Time step (s). @default 1e-4 (the paper's) */
  timeStep?: number;
}

const SHAPES = ["cross", "flower", "peanut", "butterfly", "bat", "flower8"] as const;
const PILE_KEYS = ["shape", "nodes", "grains", "duration", "seed", "clumpDisks", "timeStep"];

/**
 * Runs the paper's column collapse once with one grain method and fits the pile: star grains
 * of a preset shape, clumps of disks approximating it (same area, mass and inertia), or disks
 * of the same area — all on the same layout and orientations for a given seed. The CPU time
 * of the steps is measured too.
 *
 * @param method "star", "clump" or "disk"
 * @param options shape, nodes, grains, duration, seed, disks per clump, time step
 * @returns the pile with its angles, surface, snapshot and cost
 * @throws {RangeError} on an unknown shape, a node count, grain count, duration, disk count
 *   or time step out of range, or a time step above the system's stability bound
 * @example
 * ```ts
 * import { collapsePile } from "./collapse2d.ts";
 * import { expect } from "expect";
 * const p = collapsePile("clump", { grains: 10, duration: 0.01, clumpDisks: 9 });
 * expect(p.clumpDisks?.radii).toHaveLength(90);
 * expect(p.steps).toBe(100);
 * expect(() => collapsePile("clump", { clumpDisks: 0 })).toThrow(/clumpDisks \(0\)/);
 * ```
 */
export function collapsePile(
  method: "star" | "clump" | "disk",
  options: CollapsePileOptions = {},
): CollapsedPile {
  const w = "collapsePile";
  const o = checkOptions<CollapsePileOptions>(w, "options", options, PILE_KEYS);
  if (method !== "star" && method !== "clump" && method !== "disk") {
    throw new RangeError(`${w}: method (${String(method)}) must be "star", "clump" or "disk"`);
  }
  const preset = oneOf(w, "shape", o.shape ?? "cross", SHAPES);
  const nodes = integerIn(w, "nodes", o.nodes ?? 100, 8, 10000);
  const grains = integerIn(w, "grains", o.grains ?? 160, 1, 429);
  const duration = positive(w, "duration", o.duration ?? 1.2);
  const clumpDisks = integerIn(w, "clumpDisks", o.clumpDisks ?? 17, 1, 1024);
  const timeStep = positive(w, "timeStep", o.timeStep ?? 1e-4);
  const seed = finite(w, "seed", o.seed ?? 1);
  const shape = StarShape.preset(preset, { rMax: 0.005, nodes });
  const scene = columnCollapseScene({
    shape,
    method,
    count: grains,
    seed,
    clumpDisks,
    system: { timeStep },
  });
  const s = scene.system;
  const steps = Math.round(duration / timeStep);
  const c0 = cpuUsage();
  scene.advance(steps);
  const c1 = cpuUsage(c0);
  // the box: floor y = 10 mm, walls x = 10 and 590 mm (see columnCollapseScene)
  const r = s.radii;
  const profile = surfaceProfile(s.positions, 2, 0, 1, r, s.count, 0.01, 0.59, 2 * shape.rMax);
  const [left, right] = flankAngles(profile, 0.01);
  const pile: CollapsedPile = {
    method,
    angle: 0.5 * (left + right),
    leftAngle: left,
    rightAngle: right,
    profile,
    kineticEnergy: s.lastStepStats.kineticEnergy,
    packing: snapshot(s, 2, method === "star" ? shape.outline(shape.nodes) : undefined),
    timeStep,
    steps,
    cpuMs: (c1.user + c1.system) / 1e3,
  };
  if (s instanceof ClumpSystem) pile.clumpDisks = worldDisks(s);
  return pile;
}

/** The disks of every clump in the world frame. */
function worldDisks(s: ClumpSystem): { positions: Float64Array; radii: Float64Array } {
  let total = 0;
  const sid = s.shapes, n = s.count;
  for (let i = 0; i < n; i++) total += s.templates[sid[i]].r.length;
  const positions = new Float64Array(2 * total), radii = new Float64Array(total);
  const pos = s.positions, ang = s.angles;
  let k = 0;
  for (let i = 0; i < n; i++) {
    const t = s.templates[sid[i]], c = Math.cos(ang[i]), sn = Math.sin(ang[i]);
    for (let q = 0; q < t.r.length; q++, k++) {
      positions[2 * k] = pos[2 * i] + c * t.x[q] - sn * t.y[q];
      positions[2 * k + 1] = pos[2 * i + 1] + sn * t.x[q] + c * t.y[q];
      radii[k] = t.r[q];
    }
  }
  return { positions, radii };
}
