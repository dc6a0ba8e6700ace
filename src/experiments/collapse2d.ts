/**
 * Column collapse of star-shaped grains against disks of the same area (star2d): the StarDEM
 * paper's scene (`columnCollapseScene`: a column held by two gates that open at 0.4 s). When
 * the grains have come to rest, the pile's free surface (the highest bounding-circle top in
 * bins one grain wide) is fitted on both flanks. Interlocking crosses stand in a steep pile;
 * disks, which roll, spread into a flat one.
 *
 * @module
 */
import { columnCollapseScene, StarShape } from "../star2d/mod.ts";
import { integerIn, positive } from "../math/validate.ts";
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
  /** "star" or "disk". */
  method: "star" | "disk";
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
  const pile = (method: "star" | "disk"): CollapsedPile => {
    const scene = columnCollapseScene({ shape, method, count: grains, seed });
    const s = scene.system;
    scene.advance(Math.round(duration / s.timeStep));
    // the box: floor y = 10 mm, walls x = 10 and 590 mm (see columnCollapseScene)
    const r = s.radii;
    const profile = surfaceProfile(s.positions, 2, 0, 1, r, s.count, 0.01, 0.59, 2 * shape.rMax);
    const [left, right] = flankAngles(profile, 0.01);
    return {
      method,
      angle: 0.5 * (left + right),
      leftAngle: left,
      rightAngle: right,
      profile,
      kineticEnergy: s.lastStepStats.kineticEnergy,
      packing: snapshot(s, 2, method === "star" ? shape.outline(nodes) : undefined),
    };
  };
  return { scale, area: shape.area, stars: pile("star"), disks: pile("disk") };
}
