/**
 * Clogging of a 2D hopper by star-shaped grains against disks of the same area (star2d): the
 * StarDEM paper's narrow-gap outlet scene (`archesScene`: grains fall into a V hopper with a
 * 30 mm gap, about three grain diameters). Grains below the gap's height have passed; the
 * outlet has jammed when none passes for `jamTime` while grains remain above. Non-convex
 * crosses interlock into arches that disks of the same area do not form: they flow slower and
 * jam more often.
 *
 * @module
 */
import { archesScene, StarShape } from "../star2d/mod.ts";
import { integerIn, positive } from "../math/validate.ts";
import { experimentOptions, type ExperimentScale } from "./common.ts";

/** Height of the arches scene's gap (m): the plates end at y = 200 mm. */
const GAP_Y = 0.2;

/** Options of {@link starClogging}. */
export interface StarCloggingOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /** Grains (the lowest of the scene's layout). @default 150 (ci); 279 (full); 60 (smoke) */
  grains?: number;
  /** Runs per grain kind (seeds 1, 2, …). @default 2 (ci); 10 (full); 1 (smoke) */
  trials?: number;
  /** Longest run (s). @default 1.2 (ci); 3 (full); 0.5 (smoke) */
  duration?: number;
  /** No grain through the gap for this long (s) while grains remain above: jammed. @default 0.3 */
  jamTime?: number;
  /** Star shape preset. @default "cross" */
  shape?: "cross" | "flower" | "peanut" | "butterfly" | "bat" | "flower8";
  /** Boundary nodes per star grain. @default 60 (ci); 100 (full); 24 (smoke) */
  nodes?: number;
}

const KEYS = ["grains", "trials", "duration", "jamTime", "shape", "nodes"];

const PRESETS: Record<ExperimentScale, Partial<StarCloggingOptions>> = {
  smoke: { grains: 60, trials: 1, duration: 0.5, nodes: 24 },
  ci: { grains: 150, trials: 2, duration: 1.2, nodes: 60 },
  full: { grains: 279, trials: 10, duration: 3, nodes: 100 },
};

/** One outlet run. */
export interface OutletRun {
  /** Seed of the layout. */
  seed: number;
  /** Time (s), every 10 ms. */
  time: Float64Array;
  /** Grains through the gap so far. */
  passed: Float64Array;
  /** True when the outlet jammed. */
  jammed: boolean;
  /** Grains per second while flowing: passed / (last passage − first passage). */
  flowRate: number;
}

/** The runs of one grain kind. */
export interface OutletSeries {
  /** "star" or "disk". */
  method: "star" | "disk";
  /** The runs. */
  runs: OutletRun[];
  /** Fraction of the runs that jammed. */
  jamFraction: number;
  /** Mean flow rate over the runs (grains/s). */
  flowRate: number;
  /** Fraction of the grains through the gap at the end, mean over the runs. */
  passedFraction: number;
}

/** Result of {@link starClogging}. */
export interface StarCloggingResult {
  /** The scale run. */
  scale: ExperimentScale;
  /** Grains per run. */
  grains: number;
  /** Star grains. */
  stars: OutletSeries;
  /** Disks of the same area. */
  disks: OutletSeries;
}

/**
 * Runs the arches scene with star grains and with disks of equal area, several seeds each,
 * and reports how often the outlet jams and how fast the grains pass.
 *
 * Tolerance (CI test `tests/experiments_star2d_test.ts`, `scale: "ci"`): the disks flow at
 * least 1.5 times faster than the stars; the stars jam at least as often as the disks.
 *
 * @param options grains, trials, duration, jam criterion, shape, scale
 * @returns the runs and the jam fraction and flow rate of each grain kind
 * @throws {RangeError} on a non-positive count or duration
 * @example
 * ```ts
 * import { starClogging } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = starClogging({ scale: "smoke", grains: 20, duration: 0.05 });
 * expect(r.stars.runs).toHaveLength(1);
 * expect(r.disks.runs[0].time.length).toBe(5);
 * ```
 */
export function starClogging(options: StarCloggingOptions = {}): StarCloggingResult {
  const w = "starClogging";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS, false);
  const grains = integerIn(w, "grains", o.grains, 1, 279);
  const trials = integerIn(w, "trials", o.trials, 1, 1000);
  const duration = positive(w, "duration", o.duration);
  const jamTime = positive(w, "jamTime", o.jamTime ?? 0.3);
  const nodes = integerIn(w, "nodes", o.nodes, 8, 10000);
  const shape = StarShape.preset(o.shape ?? "cross", { rMax: 0.005, nodes });
  const series = (method: "star" | "disk"): OutletSeries => {
    const runs: OutletRun[] = [];
    for (let t = 0; t < trials; t++) {
      const scene = archesScene({ shape, method, count: grains, seed: 1 + t });
      const s = scene.system;
      const chunk = Math.max(1, Math.round(0.01 / s.timeStep));
      const time: number[] = [], passed: number[] = [];
      let first = NaN, last = NaN, jammed = false, prev = 0;
      while (s.time < duration - 1e-9) {
        scene.advance(chunk);
        const p = s.positions;
        let below = 0;
        for (let i = 0; i < s.count; i++) if (p[2 * i + 1] < GAP_Y) below++;
        time.push(s.time), passed.push(below);
        if (below > prev) {
          if (Number.isNaN(first)) first = s.time;
          last = s.time;
        }
        prev = below;
        if (below === s.count) break;
        if (!Number.isNaN(last) && s.time - last > jamTime) {
          jammed = true;
          break;
        }
      }
      const span = last - first;
      runs.push({
        seed: 1 + t,
        time: Float64Array.from(time),
        passed: Float64Array.from(passed),
        jammed,
        flowRate: span > 0 ? prev / span : 0,
      });
    }
    let jams = 0, rate = 0, frac = 0;
    for (const r of runs) {
      if (r.jammed) jams++;
      rate += r.flowRate;
      frac += r.passed.length ? r.passed[r.passed.length - 1] / grains : 0;
    }
    return {
      method,
      runs,
      jamFraction: jams / trials,
      flowRate: rate / trials,
      passedFraction: frac / trials,
    };
  };
  return { scale, grains, stars: series("star"), disks: series("disk") };
}
