/**
 * The angle of repose of star grains against clumps of disks approximating the same grain
 * (star2d): the StarDEM paper's column collapse (`columnCollapseScene`) run with star grains
 * of several resolutions, with clumps of several disk counts (`approximateByDisks`: the same
 * area, mass and inertia) and with disks of the same area, every method on the same layout
 * and the same orientations for a given seed, over several seeds. Each pile's flanks are
 * fitted as in {@link starColumnCollapse}; the CPU time of every run is measured, so that a
 * method's accuracy (its angle against the finest star grains') can be set against its cost.
 *
 * @module
 */
import { StarShape } from "../star2d/mod.ts";
import { finite, integerIn, positive } from "../math/validate.ts";
import { experimentOptions, type ExperimentScale, numberList } from "./common.ts";
import { type CollapsedPile, collapsePile } from "./collapse2d.ts";

/** Options of {@link clumpColumnCollapse}. */
export interface ClumpCollapseOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /**
   * Grains (the lowest of the scene's layout, 1 to 429).
   * @default 160 (ci); 429 (full); 80 (smoke)
   */
  grains?: number;
  /** Simulated time (s); the gates open at 0.4 s. @default 1.2 (ci); 2.5 (full); 0.7 (smoke) */
  duration?: number;
  /** Star shape preset, scaled to r_max = 5 mm (the scene's size). @default "cross" */
  shape?: "cross" | "flower" | "peanut" | "butterfly" | "bat" | "flower8";
  /**
   * Boundary nodes of the star grains, one method per entry (may be empty); the first is the
   * reference of the relative costs. @default [100, 200]
   */
  starNodes?: number[];
  /** Disks per clump, one method per entry (may be empty). @default [9, 17, 33] */
  clumpDisks?: number[];
  /** Run disks of the same area too. @default true */
  equalAreaDisks?: boolean;
  /**
   * Seeds of the layouts and orientations; every method runs every seed.
   * @default [1, 2, 3] (ci, full); [1] (smoke)
   */
  seeds?: number[];
  /** Time step of the star grains and disks (s). @default 1e-4 (the paper's) */
  timeStep?: number;
  /**
   * Time step of the clumps (s). A contact between two clumps is several disk springs at
   * once, so clumps of many disks need a smaller step (33-disk crosses blow up at 1e-4 s).
   * @default timeStep for clumps of up to 17 disks, timeStep / 2 for more
   */
  clumpTimeStep?: number;
}

const KEYS = [
  "grains",
  "duration",
  "shape",
  "starNodes",
  "clumpDisks",
  "equalAreaDisks",
  "seeds",
  "timeStep",
  "clumpTimeStep",
];

const PRESETS: Record<ExperimentScale, Partial<ClumpCollapseOptions>> = {
  smoke: { grains: 80, duration: 0.7, seeds: [1] },
  ci: { grains: 160, duration: 1.2, seeds: [1, 2, 3] },
  full: { grains: 429, duration: 2.5, seeds: [1, 2, 3] },
};

/** One method (grain model) of {@link clumpColumnCollapse}, over all seeds. */
export interface CollapseMethod {
  /** "star", "clump" or "disk". */
  method: "star" | "clump" | "disk";
  /** A label for tables, e.g. "star, 100 nodes", "clump, 17 disks", "disk, same area". */
  label: string;
  /** Boundary nodes (star), disks per grain (clump) or 1 (disk). */
  resolution: number;
  /** Time step (s). */
  timeStep: number;
  /**
   * Pile angle of each seed (degrees), in the order of `seeds`; NaN where a flank spans fewer
   * than 3 bins (a pile too small to fit, as at `scale: "smoke"`: a plumbing run only).
   */
  angles: Float64Array;
  /** Mean pile angle over the seeds (degrees; NaN when any seed's is). */
  angle: number;
  /** Sample standard deviation of the pile angle over the seeds (degrees; 0 for one seed). */
  angleStd: number;
  /** Smallest pile angle over the seeds (degrees). */
  angleMin: number;
  /** Largest pile angle over the seeds (degrees). */
  angleMax: number;
  /** Largest kinetic energy at the end over the seeds (J per metre of depth). */
  kineticEnergy: number;
  /** CPU time per simulated 0.1 s (ms), mean over the seeds. */
  cost: number;
  /** CPU time per step (ms), mean over the seeds. */
  costPerStep: number;
  /** `cost` over the first star method's (NaN without star methods). */
  relativeCost: number;
  /** The pile of the first seed (surface, snapshot, clump disks), for figures. */
  pile: CollapsedPile;
}

/** Result of {@link clumpColumnCollapse}. */
export interface ClumpCollapseResult {
  /** The scale run. */
  scale: ExperimentScale;
  /** Grains per pile. */
  grains: number;
  /** Simulated time of each run (s). */
  duration: number;
  /** Area of a grain (m²), for every method. */
  area: number;
  /** The seeds run. */
  seeds: Float64Array;
  /** Stars (in the order of `starNodes`), then clumps (`clumpDisks`), then disks. */
  methods: CollapseMethod[];
}

/**
 * Collapses the paper's column of star grains, of clumps of disks approximating the same star
 * shape and of disks of the same area, seed by seed, and measures each method's pile angle
 * (mean and spread over the seeds) and cost (CPU time per simulated 0.1 s). Every method sees
 * the same layout and the same orientations for a given seed; the runs are single-threaded
 * and deterministic (the costs are not: they are CPU times of this process).
 *
 * Tolerance (CI test `tests/experiments_collapse_clumps_test.ts`, `scale: "ci"`, seeds 1–3):
 * the mean angle of the 17-disk clumps lies within 8° of the 100-node star grains' (measured:
 * 4.4°), and both lie more than 10° above the disks' (15°, 20°). At full size (429 grains,
 * 2.5 s, seeds 1–5) the clumps of 9, 17 and 33 disks stand 2.4, 2.4 and 3.8° (± 0.5–1.3)
 * steeper than 200-node star grains (11.4 ± 1.2°) on every seed: more disks do not close the
 * gap.
 *
 * @param options grains, duration, shape, star resolutions, clump disk counts, seeds, steps
 * @returns one entry per method, with angles, spread, cost and the first seed's pile
 * @throws {RangeError} on a count, duration or time step out of range, a node count outside
 *   [8, 10000], a disk count outside [1, 1024], a non-finite seed, or no method at all
 * @example
 * ```ts
 * import { clumpColumnCollapse } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = clumpColumnCollapse({
 *   scale: "smoke", grains: 12, duration: 0.02, starNodes: [24], clumpDisks: [9],
 * });
 * const labels = r.methods.map((m) => m.label);
 * expect(labels).toEqual(["star, 24 nodes", "clump, 9 disks", "disk, same area"]);
 * expect(r.methods[0].relativeCost).toBe(1);
 * expect(() => clumpColumnCollapse({ clumpDisks: [0] })).toThrow(/clumpDisks\[0\] \(0\)/);
 * ```
 */
export function clumpColumnCollapse(options: ClumpCollapseOptions = {}): ClumpCollapseResult {
  const w = "clumpColumnCollapse";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS, false);
  const grains = integerIn(w, "grains", o.grains, 1, 429);
  const duration = positive(w, "duration", o.duration);
  const starNodes = numberList(w, "starNodes", o.starNodes ?? [100, 200], nodeCount, 0);
  const clumpDisks = numberList(w, "clumpDisks", o.clumpDisks ?? [9, 17, 33], diskCount, 0);
  const seeds = numberList(w, "seeds", o.seeds, finite, 1);
  const withDisks = o.equalAreaDisks ?? true;
  if (typeof withDisks !== "boolean") {
    throw new TypeError(`${w}: equalAreaDisks (${String(withDisks)}) must be a boolean`);
  }
  if (starNodes.length + clumpDisks.length === 0 && !withDisks) {
    throw new RangeError(
      `${w}: starNodes ([]), clumpDisks ([]) and equalAreaDisks (false) leave no method to run`,
    );
  }
  const dt = positive(w, "timeStep", o.timeStep ?? 1e-4);
  const clumpDt = o.clumpTimeStep === undefined
    ? undefined
    : positive(w, "clumpTimeStep", o.clumpTimeStep);
  const preset = o.shape ?? "cross";
  // every method has the star's area (the node count only sets where contacts are probed)
  const area = StarShape.preset(preset, { rMax: 0.005 }).area;

  const specs: { method: "star" | "clump" | "disk"; res: number; dt: number }[] = [];
  for (const n of starNodes) specs.push({ method: "star", res: n, dt });
  for (const n of clumpDisks) {
    specs.push({ method: "clump", res: n, dt: clumpDt ?? (n > 17 ? dt / 2 : dt) });
  }
  if (withDisks) specs.push({ method: "disk", res: 1, dt });

  const methods: CollapseMethod[] = specs.map(({ method, res, dt: step }) => {
    const angles = new Float64Array(seeds.length);
    let cpu = 0, steps = 0, ke = 0, first: CollapsedPile | undefined;
    for (let k = 0; k < seeds.length; k++) {
      const p = collapsePile(method, {
        shape: preset,
        nodes: method === "star" ? res : undefined,
        grains,
        duration,
        seed: seeds[k],
        clumpDisks: method === "clump" ? res : undefined,
        timeStep: step,
      });
      angles[k] = p.angle;
      cpu += p.cpuMs;
      steps += p.steps;
      ke = Math.max(ke, p.kineticEnergy);
      if (k === 0) first = p;
    }
    let mean = 0;
    for (const a of angles) mean += a / angles.length;
    let ss = 0;
    for (const a of angles) ss += (a - mean) ** 2;
    const cost = (cpu / seeds.length) * (0.1 / duration);
    return {
      method,
      label: method === "star"
        ? `star, ${res} nodes`
        : method === "clump"
        ? `clump, ${res} disks`
        : "disk, same area",
      resolution: res,
      timeStep: step,
      angles,
      angle: mean,
      angleStd: angles.length > 1 ? Math.sqrt(ss / (angles.length - 1)) : 0,
      angleMin: Math.min(...angles),
      angleMax: Math.max(...angles),
      kineticEnergy: ke,
      cost,
      costPerStep: cpu / steps,
      relativeCost: NaN,
      pile: first as CollapsedPile,
    };
  });
  const star = methods.find((m) => m.method === "star");
  for (const m of methods) m.relativeCost = star ? m.cost / star.cost : NaN;
  return { scale, grains, duration, area, seeds, methods };
}

/** A star grain's node count: an integer in [8, 10000]. */
function nodeCount(where: string, name: string, v: unknown): number {
  return integerIn(where, name, v, 8, 10000);
}

/** A clump's disk count: an integer in [1, 1024]. */
function diskCount(where: string, name: string, v: unknown): number {
  return integerIn(where, name, v, 1, 1024);
}
