/**
 * The distribution of normal contact forces in a static packing, for spheres (sphere3d) and
 * for star-shaped grains against disks of the same area (star2d). A packing settles under
 * gravity in a box; each grain–grain contact's normal force is divided by the mean force of
 * the contacts at the same depth (slabs two diameters thick: the mean grows with depth under
 * gravity), the top slab left out. The law: above the mean, `P(f/⟨f⟩) ∝ exp(−β·f/⟨f⟩)` with
 * β between 1 and 2 (Mueth, Jaeger & Nagel 1998; Radjai et al. 1996).
 *
 * @module
 */
import { World } from "../sphere3d/mod.ts";
import { DiskSystem, StarShape, StarSystem } from "../star2d/mod.ts";
import { Rng } from "../math/rng.ts";
import { integerIn, positive } from "../math/validate.ts";
import { type ExponentialTail, exponentialTail } from "./fit.ts";
import {
  experimentOptions,
  type ExperimentScale,
  G,
  type GrainOptions,
  resolveGrains,
  type Snapshot,
  snapshot,
} from "./common.ts";

/** Forces normalised by their depth's mean, with the fitted tail. */
export interface ForceSample {
  /** Normal force of each grain–grain contact divided by the mean at its depth. */
  forces: Float64Array;
  /** Histogram (probability density) and exponential tail fit above the mean (β NaN when too few contacts). */
  tail: ExponentialTail;
  /** Grains in the packing. */
  grains: number;
  /** Mean contacts per grain (coordination, counting each contact twice). */
  coordination: number;
  /** The settled packing and its contacts (for force-network figures). */
  packing: Snapshot;
}

/**
 * Divides each force by the mean force of the contacts whose height lies in the same slab;
 * slabs below `skipAbove` only (the top layer's few, small forces are left out).
 *
 * @param forces normal forces (N)
 * @param heights contact heights (m)
 * @param slab slab thickness (m)
 * @param skipAbove contacts higher than this are left out (m)
 * @returns the normalised forces of the contacts kept
 * @example
 * ```ts
 * import { normaliseBySlab } from "./force_distribution.ts";
 * import { expect } from "expect";
 * const f = normaliseBySlab([1, 3, 10, 30], [0.1, 0.2, 1.1, 1.2], 1, 2);
 * expect([...f]).toEqual([0.5, 1.5, 0.5, 1.5]);
 * ```
 */
export function normaliseBySlab(
  forces: ArrayLike<number>,
  heights: ArrayLike<number>,
  slab: number,
  skipAbove: number,
): Float64Array {
  let lo = Infinity;
  for (let k = 0; k < heights.length; k++) lo = Math.min(lo, heights[k]);
  const ns = Math.max(1, Math.ceil((skipAbove - lo) / slab) + 1);
  const sum = new Float64Array(ns), n = new Float64Array(ns);
  const slabOf = (h: number) => Math.min(ns - 1, Math.floor((h - lo) / slab));
  for (let k = 0; k < forces.length; k++) {
    if (heights[k] > skipAbove || !(forces[k] > 0)) continue;
    const s = slabOf(heights[k]);
    sum[s] += forces[k], n[s]++;
  }
  const out: number[] = [];
  for (let k = 0; k < forces.length; k++) {
    if (heights[k] > skipAbove || !(forces[k] > 0)) continue;
    const s = slabOf(heights[k]);
    out.push((forces[k] * n[s]) / sum[s]);
  }
  return Float64Array.from(out);
}

/** Options of {@link forceDistribution}. Lengths in grain diameters d. */
export interface ForceDistributionOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /** Grains in the packing. @default 1000 (ci); 6000 (full); 200 (smoke) */
  grains?: number;
  /** Side of the square box (d). @default 8 (ci); 16 (full); 6 (smoke) */
  boxWidth?: number;
}

const KEYS_3D = ["grains", "boxWidth"];

const PRESETS_3D: Record<ExperimentScale, Partial<ForceDistributionOptions>> = {
  smoke: { grains: 200, boxWidth: 6 },
  ci: { grains: 1000, boxWidth: 8 },
  full: { grains: 6000, boxWidth: 16 },
};

/** Result of {@link forceDistribution}. */
export interface ForceDistributionResult extends ForceSample {
  /** The scale run. */
  scale: ExperimentScale;
  /** The settled packing and its contacts (for force-network figures). */
  packing: Snapshot;
}

/**
 * Settles a packing of spheres under gravity in a box and measures the distribution of the
 * normal contact forces normalised by their depth's mean.
 *
 * Tolerance (CI test `tests/experiments_forces_test.ts`, `scale: "ci"`): β of the tail above
 * the mean between 1 and 2.5 (literature 1–2), the density at 2⟨f⟩ below 0.25.
 *
 * @param options packing size, box, grain model, scale
 * @returns the normalised forces, histogram, β and the settled packing
 * @throws {RangeError} on a non-positive size
 * @example
 * ```ts
 * import { forceDistribution } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = forceDistribution({ scale: "smoke", grains: 150 });
 * expect(r.forces.length).toBeGreaterThan(100);
 * expect(r.tail.beta).toBeGreaterThan(0);
 * ```
 */
export function forceDistribution(
  options: ForceDistributionOptions = {},
): ForceDistributionResult {
  const w = "forceDistribution";
  const { options: o, scale } = experimentOptions(w, options, KEYS_3D, PRESETS_3D);
  const m = resolveGrains(w, o);
  const d = m.d;
  const n = integerIn(w, "grains", o.grains, 20, 1e7);
  const L = positive(w, "boxWidth", o.boxWidth) * d;
  if (L < 3 * d) throw new RangeError(`${w}: boxWidth (${L / d}) must be >= 3 (d)`);
  const world = new World({ timeStep: m.dt, gravity: [0, 0, -G] });
  const sys = world.addGranularSystem(m.material);
  sys.setContainerBox([-L / 2, -L / 2, 0], [L / 2, L / 2, 1e3 * d]);
  sys.setBoundaryMaterial({ friction: m.friction });
  const spacing = 2.04 * m.rMax;
  const perLayer = Math.floor((L - 2 * m.rMax) / spacing + 1e-9) + 1;
  const layers = Math.ceil(n / (perLayer * perLayer)) + 1;
  sys.emitBoxRandom({
    min: [-L / 2, -L / 2, 0],
    max: [L / 2, L / 2, layers * spacing + 2 * m.rMax],
    minRadius: m.rMin,
    maxRadius: m.rMax,
    spacing,
    maxParticles: n,
    seed: m.seed,
  });
  // settle: until the mean speed is below 1 % of √(g·d) (at least 10, at most 30 √(d/g))
  const chunk = Math.max(1, Math.round(m.unit / m.dt));
  for (let k = 0; k < 30; k++) {
    world.run(chunk);
    if (k >= 10 && sys.lastStepStats.kineticEnergy < 0.5 * n * m.mass * 1e-4 * G * d) break;
  }
  const c = sys.contacts;
  const cj = c.j, f = c.normalForce, pt = c.point, pos = sys.positions;
  const fs: number[] = [], hs: number[] = [];
  let top = 0;
  for (let i = 0; i < sys.count; i++) top = Math.max(top, pos[3 * i + 2]);
  let pairs = 0;
  for (let k = 0; k < c.count; k++) {
    if (cj[k] < 0) continue;
    pairs++;
    fs.push(f[k]), hs.push(pt[3 * k + 2]);
  }
  const forces = normaliseBySlab(fs, hs, 2 * d, top - 2 * d);
  return {
    scale,
    packing: snapshot(sys, 3),
    forces,
    tail: exponentialTail(forces, { from: 1, binWidth: 0.2, max: 6, strict: false }),
    grains: sys.count,
    coordination: (2 * pairs) / sys.count,
  };
}

/** Options of {@link starForceDistribution}. */
export interface StarForceOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /** Grains in each packing. @default 300 (ci); 1500 (full); 90 (smoke) */
  grains?: number;
  /** Grains per row of the initial grid (sets the box width, 10.5 mm per grain). @default 15 (ci, smoke); 30 (full) */
  perRow?: number;
  /** Star shape preset. @default "cross" */
  shape?: "cross" | "flower" | "peanut" | "butterfly" | "bat" | "flower8";
  /** Grain area (m²); the disks have the same. @default 30e-6 */
  area?: number;
  /**
   * Boundary nodes per star grain; fewer than about 60 on a cross miss contacts (arms pass
   * between nodes) and leave a few deep, strong ones. @default 60 (ci); 100 (full); 40 (smoke)
   */
  nodes?: number;
  /** Settling steps of 0.1 ms. @default 5000 (ci); 10000 (full); 1500 (smoke) */
  steps?: number;
  /** Seed of the layout and orientations. @default 3 */
  seed?: number;
}

const KEYS_2D = ["grains", "perRow", "shape", "area", "nodes", "steps", "seed"];

const PRESETS_2D: Record<ExperimentScale, Partial<StarForceOptions>> = {
  smoke: { grains: 90, perRow: 15, nodes: 40, steps: 1500 },
  ci: { grains: 300, perRow: 15, nodes: 60, steps: 5000 },
  full: { grains: 1500, perRow: 30, nodes: 100, steps: 10000 },
};

/** Result of {@link starForceDistribution}. */
export interface StarForceResult {
  /** The scale run. */
  scale: ExperimentScale;
  /** The star packing's forces. */
  stars: ForceSample;
  /** The disk packing's forces (disks of the stars' area). */
  disks: ForceSample;
}

/**
 * Settles a packing of star-shaped grains (crosses by default) and one of disks of the same
 * area on the same layout, in a box, and measures their normal-force distributions.
 *
 * Tolerance (CI test, `scale: "ci"`): β of each tail above the mean between 0.8 and 2.5.
 *
 * @param options packing size, shape, resolution, settling, seed, scale
 * @returns the stars' and the disks' normalised forces, histograms and β
 * @throws {RangeError} on a non-positive size
 * @example
 * ```ts
 * import { starForceDistribution } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = starForceDistribution({ scale: "smoke", grains: 45, steps: 600 });
 * expect(r.stars.grains).toBe(45);
 * expect(r.disks.tail.density.length).toBe(30); // bins of 0.2 up to 6 (β is NaN: too few)
 * ```
 */
export function starForceDistribution(options: StarForceOptions = {}): StarForceResult {
  const w = "starForceDistribution";
  const merged = experimentOptions(w, options, KEYS_2D, PRESETS_2D, false);
  const o = merged.options;
  const n = integerIn(w, "grains", o.grains, 4, 1e6);
  const perRow = integerIn(w, "perRow", o.perRow, 2, 1e4);
  const area = positive(w, "area", o.area ?? 30e-6);
  const nodes = integerIn(w, "nodes", o.nodes, 8, 10000);
  const steps = integerIn(w, "steps", o.steps, 1, 1e8);
  const shapeName = o.shape ?? "cross";
  const shape = StarShape.preset(shapeName, { area, nodes });
  const rng = new Rng(o.seed ?? 3);
  const pitch = 2.1 * shape.rMax;
  const positions: number[] = [], angles: number[] = [];
  for (let k = 0; k < n; k++) {
    const ix = k % perRow, iy = Math.floor(k / perRow);
    positions.push(
      (1.3 + ix + 0.4 * (iy % 2) + rng.uniform(-0.1, 0.1)) * pitch,
      (1.5 + iy) * pitch,
    );
    angles.push(rng.uniform(0, 2 * Math.PI));
  }
  const width = (perRow + 1.8) * pitch;
  const settings = { timeStep: 1e-4, friction: 0.5, rotationalDamping: 1e-8 };
  const stars = new StarSystem(settings);
  stars.addGrains({ shape, positions, angles });
  const disks = new DiskSystem(settings);
  disks.addGrains({ radius: Math.sqrt(area / Math.PI), positions, angles });
  const sample = (s: StarSystem | DiskSystem, outline?: Float64Array): ForceSample => {
    s.walls.addBox({ min: [0, 0], max: [width, 10], friction: 0.5 });
    s.run(steps);
    const c = s.contacts, cj = c.j, f = c.normalForce, pt = c.point, pos = s.positions;
    let top = 0;
    for (let i = 0; i < s.count; i++) top = Math.max(top, pos[2 * i + 1]);
    const fs: number[] = [], hs: number[] = [];
    for (let k = 0; k < c.count; k++) {
      if (cj[k] < 0) continue;
      fs.push(f[k]), hs.push(pt[2 * k + 1]);
    }
    const forces = normaliseBySlab(fs, hs, 2 * pitch, top - 2 * pitch);
    return {
      packing: snapshot(s, 2, outline),
      forces,
      tail: exponentialTail(forces, { from: 1, binWidth: 0.2, max: 6, strict: false }),
      grains: s.count,
      coordination: (2 * fs.length) / s.count,
    };
  };
  return {
    scale: merged.scale,
    stars: sample(stars, shape.outline(nodes)),
    disks: sample(disks),
  };
}
