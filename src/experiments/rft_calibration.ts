/**
 * RFT calibration from Grainlab's own DEM (Li, Zhang & Goldman, Science 2013, did it with
 * experiments and DEM): a thin kinematic plate, tilted by β, is pushed slowly through a settled
 * bed along the direction γ (below the horizontal, towards +x); the force per unit area divided
 * by depth, σ = α·|z| fitted through zero over a depth window from the plate's full immersion to
 * 2 d below it (the depths where legs and wheels work), gives α_z and α_x at (β, γ) (`fit:
 * "slope"` takes the slope of σ = α·|z| + c past 0.5 d instead, which leaves out the grains'
 * extra resistance near the surface; α_x positive against the horizontal motion; for a plate
 * moving straight down, along the horizontal part of its leading face's normal, as in
 * `sphere3d/rft/model.ts`). Each pair gets a fresh copy of the same settled bed. The samples
 * give the scale ζ of Li et al.'s generic medium that fits best and, from five pairs on, a fit
 * of the Fourier form; either becomes a `"dem"` {@link RftTable}.
 *
 * The law (RFT): the force on the plate grows in proportion to depth (R² of each window fit,
 * through zero for the secant), α of the order of a few tenths of N/cm³ for a horizontal plate
 * pushed down (glass beads, Li et al.). At smoke size little is checked: a few hundred coarse
 * grains. The ci preset (2,063 grains, 10 pairs and the quasi-static repeat) runs in about half
 * a minute on one core, the full 13 × 13 grid in about ten minutes.
 *
 * @module
 */
import { World } from "../sphere3d/mod.ts";
import {
  fitRft,
  RFT_GENERIC,
  rftAlphaX,
  rftAlphaZ,
  type RftFit,
  RftTable,
  rftTableFromFourier,
  type RftTableSpec,
} from "../sphere3d/rft/mod.ts";
import { positive } from "../math/validate.ts";

import {
  experimentOptions,
  type ExperimentScale,
  G,
  type GrainOptions,
  resolveGrains,
} from "./common.ts";
import { rftBedOption, settleRftBed } from "./rft_bed.ts";
import { plateRun } from "./rft_intrude.ts";

/** Options of {@link calibrateRft}. Lengths in grain diameters d. */
export interface RftCalibrationOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /**
   * The (β, γ) pairs (rad), each in [−π/2, π/2] (γ > 0: the plate moves down). Ignored when
   * `grid` is set.
   * @default [[0, π/2], [π/4, π/2], [0, π/4]] (smoke); 10 pairs over β ∈ {0, ±π/4, π/2},
   * γ ∈ {π/2, π/4, 0, −π/2} (ci); the full preset uses `grid`
   */
  pairs?: readonly (readonly [number, number])[];
  /**
   * A full grid instead of `pairs`: [β count, γ count], each evenly spaced over [−π/2, π/2]
   * inclusive. β = π/2 is the plate of β = −π/2 (β has period π), so it is copied, not run:
   * (βcount − 1)·γcount runs. The table is then the measured grid itself.
   * @default undefined (smoke, ci); [13, 13] (full: 12 × 13 runs, steps of 15°)
   */
  grid?: readonly [number, number];
  /** Side of the square plate (d); it is 0.4 d thick. @default 3 (smoke); 4 (ci, full) */
  plateSize?: number;
  /** Plate speed (m/s); quasi-static below √(g·d). @default 0.1 */
  speed?: number;
  /**
   * Depth window of the fit, [from, to] in d below the plate's full immersion.
   * @default [0, 2]
   */
  window?: readonly [number, number];
  /**
   * Bed size: length along the motion, width, depth (d); grains fill it at a volume fraction
   * of about 0.6. @default [12, 8, 7] (smoke); [20, 10, 9] (ci, full)
   */
  bed?: readonly [number, number, number];
  /**
   * How α comes from each pair's force per area σ against depth z over the window: `"slope"`,
   * the slope of σ = α·z + c (the linear growth past full immersion, the intercept left out);
   * `"secant"`, σ = α·z through zero (what RFT itself predicts at those depths, the shallow
   * part included: pair it with a window over the depths the intruders reach).
   * @default "secant"
   */
  fit?: "slope" | "secant";
  /**
   * Repeat a pair at half the speed and report both α (the quasi-static check): the plate
   * pushed straight down, (0, π/2), if it is among the pairs, else the first pair.
   * @default false (smoke); true (ci, full)
   */
  quasiStatic?: boolean;
  /** Called after each run with the runs done and the runs in all. @default none */
  onPair?: (done: number, count: number) => void;
}

/** The result of {@link calibrateRft}. */
export interface RftCalibration {
  /** The run size. */
  scale: ExperimentScale;
  /**
   * The samples: α (N/m³) at each pair, the R² of each linear depth fit, and the inertial
   * number (v/side)·d/√(P/ρ) with P = φρg|z| at the middle of the depth window.
   */
  samples: {
    beta: Float64Array;
    gamma: Float64Array;
    alphaZ: Float64Array;
    alphaX: Float64Array;
    r2Z: Float64Array;
    r2X: Float64Array;
    inertial: Float64Array;
  };
  /** Scale of the generic medium that fits the samples best (least squares over α_z, α_x). */
  zeta: number;
  /** The Fourier fit, from five pairs on (else null). */
  fit: RftFit | null;
  /**
   * A `"dem"` table: the measured grid (with `grid`), else the fit sampled on a grid, or
   * ζ × the generic medium.
   */
  table: RftTable;
  /** The quasi-static check: the pair pushed straight down (else the first) at half the speed. */
  quasiStatic: {
    /** The pair's β (rad). */
    beta: number;
    /** The pair's γ (rad). */
    gamma: number;
    /** The two speeds (m/s). */
    speeds: [number, number];
    /** α_z at each speed (N/m³). */
    alphaZ: [number, number];
    /** α_x at each speed (N/m³). */
    alphaX: [number, number];
    /** |α_z(v) − α_z(v/2)| / |α_z(v)|. */
    difference: number;
    /** The inertial number at each speed. */
    inertial: [number, number];
  } | null;
  /** Grains in the bed. */
  grains: number;
  /** The bed's solid volume fraction. */
  volumeFraction: number;
}

const KEYS = [
  "pairs",
  "grid",
  "plateSize",
  "speed",
  "window",
  "fit",
  "bed",
  "quasiStatic",
  "onPair",
];
const H = Math.PI / 2, Q = Math.PI / 4;
const PRESETS: Record<ExperimentScale, Partial<RftCalibrationOptions>> = {
  smoke: {
    pairs: [[0, H], [Q, H], [0, Q]],
    plateSize: 3,
    speed: 0.1,
    window: [0, 2],
    bed: [12, 8, 7],
    softness: 1e-3,
    rollingFriction: 0.05,
    quasiStatic: false,
  },
  ci: {
    pairs: [[0, H], [Q, H], [-Q, H], [H, H], [0, Q], [Q, Q], [-Q, Q], [0, 0], [H, 0], [0, -H]],
    plateSize: 4,
    speed: 0.1,
    window: [0, 2],
    bed: [20, 10, 9],
    softness: 1e-3,
    rollingFriction: 0.05,
    quasiStatic: true,
  },
  full: {
    grid: [13, 13],
    plateSize: 4,
    speed: 0.1,
    window: [0, 2],
    bed: [20, 10, 9],
    softness: 1e-3,
    rollingFriction: 0.05,
    quasiStatic: true,
  },
};

/**
 * Calibrate RFT from the DEM (see the module notes).
 *
 * @example
 * ```ts
 * import { calibrateRft } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const c = await calibrateRft({ scale: "smoke", pairs: [[0, Math.PI / 2]] });
 * expect(c.samples.alphaZ[0]).toBeGreaterThan(0); // the bed holds a plate pushed down
 * expect(c.table.source).toBe("dem");
 * ```
 */
export async function calibrateRft(
  options: RftCalibrationOptions = {},
): Promise<RftCalibration> {
  const w = "calibrateRft";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS);
  const m = resolveGrains(w, o, { diameter: 0.01 });
  const d = m.d;
  const grid = o.grid === undefined ? null : checkGrid(w, o.grid);
  const pairs = grid === null ? checkPairs(w, o.pairs) : gridPairs(grid);
  const a = positive(w, "plateSize", o.plateSize) * d, t = 0.4 * d;
  const speed = positive(w, "speed", o.speed);
  const [from, to] = range(w, "window", o.window);
  const fitKind = o.fit ?? "secant";
  if (fitKind !== "slope" && fitKind !== "secant") {
    throw new RangeError(`${w}: fit ("${String(fitKind)}") must be "slope" or "secant"`);
  }
  const dims = rftBedOption(w, o.bed ?? [12, 8, 7]);
  const quasi = o.quasiStatic ?? false;
  if (typeof quasi !== "boolean") {
    throw new TypeError(`${w}: quasiStatic (${String(quasi)}) must be a boolean`);
  }
  if (o.onPair !== undefined && typeof o.onPair !== "function") {
    throw new TypeError(`${w}: onPair (${String(o.onPair)}) must be a function`);
  }
  const bed = settleRftBed(m, dims);
  const makeWorld = () => World.create({ timeStep: m.dt, gravity: [0, 0, -G] });
  const plate = (beta: number, gamma: number, v: number) =>
    plateRun(bed, {
      side: a,
      thickness: t,
      beta,
      gamma,
      speed: v,
      window: [from * d, to * d],
      throughOrigin: fitKind === "secant",
    }, makeWorld);
  const n = pairs.length;
  const samples = {
    beta: new Float64Array(n),
    gamma: new Float64Array(n),
    alphaZ: new Float64Array(n),
    alphaX: new Float64Array(n),
    r2Z: new Float64Array(n),
    r2X: new Float64Array(n),
    inertial: new Float64Array(n),
  };
  const total = n + (quasi ? 1 : 0);
  for (let p = 0; p < n; p++) {
    const [beta, gamma] = pairs[p];
    const r = await plate(beta, gamma, speed);
    samples.beta[p] = beta, samples.gamma[p] = gamma;
    samples.alphaZ[p] = r.alphaZ, samples.alphaX[p] = r.alphaX;
    samples.r2Z[p] = r.r2Z, samples.r2X[p] = r.r2X, samples.inertial[p] = r.inertial;
    o.onPair?.(p + 1, total);
  }
  let quasiStatic: RftCalibration["quasiStatic"] = null;
  if (quasi) {
    // the plate pushed straight down (ζ's pair: a large, well-measured force), else the first
    const down = pairs.findIndex(([b, g]) => Math.abs(b) < 1e-12 && Math.abs(g - H) < 1e-12);
    const q = down >= 0 ? down : 0, [beta, gamma] = pairs[q];
    const slow = await plate(beta, gamma, speed / 2);
    o.onPair?.(total, total);
    quasiStatic = {
      beta,
      gamma,
      speeds: [speed, speed / 2],
      alphaZ: [samples.alphaZ[q], slow.alphaZ],
      alphaX: [samples.alphaX[q], slow.alphaX],
      difference: Math.abs(samples.alphaZ[q] - slow.alphaZ) / Math.abs(samples.alphaZ[q]),
      inertial: [samples.inertial[q], slow.inertial],
    };
  }
  // ζ: least squares of the generic medium over both components
  let num = 0, den = 0;
  for (let p = 0; p < n; p++) {
    const gz = rftAlphaZ(samples.beta[p], samples.gamma[p], RFT_GENERIC);
    const gx = rftAlphaX(samples.beta[p], samples.gamma[p], RFT_GENERIC);
    num += samples.alphaZ[p] * gz + samples.alphaX[p] * gx;
    den += gz * gz + gx * gx;
  }
  const zeta = num / den;
  let fit: RftFit | null = null;
  if (n >= 5) {
    try {
      fit = fitRft(samples);
    } catch {
      fit = null; // pairs that do not determine the nine terms: ζ only
    }
  }
  const meta = {
    ...bed.medium,
    material: `${bed.medium.material}, bed ${dims.join(" × ")} d`,
    source: "dem" as const,
    intrusionSpeed: speed,
  };
  if (grid === null && fit === null && !(zeta > 0)) {
    throw new RangeError(`${w}: the DEM samples give ζ = ${zeta} (<= 0); no table can be made`);
  }
  const table = grid !== null
    ? measuredTable(grid, samples, meta)
    : fit !== null
    ? rftTableFromFourier({ ...meta, coefficients: fit.coefficients })
    : rftTableFromFourier({ ...meta, zeta });
  return {
    scale,
    samples,
    zeta,
    fit,
    table,
    quasiStatic,
    grains: bed.grains,
    volumeFraction: bed.volumeFraction,
  };
}

/** The angles of a grid axis: `n` evenly spaced over [−π/2, π/2]. */
function axis(n: number): Float64Array {
  const v = new Float64Array(n);
  for (let i = 0; i < n; i++) v[i] = -H + (i * Math.PI) / (n - 1);
  v[n - 1] = H;
  return v;
}

function gridPairs([nb, ng]: [number, number]): [number, number][] {
  const beta = axis(nb), gamma = axis(ng), out: [number, number][] = [];
  for (let i = 0; i < nb - 1; i++) for (let j = 0; j < ng; j++) out.push([beta[i], gamma[j]]);
  return out;
}

/** The measured grid as a table; row β = π/2 repeats β = −π/2. */
function measuredTable(
  [nb, ng]: [number, number],
  s: { alphaZ: Float64Array; alphaX: Float64Array },
  meta: Omit<RftTableSpec, "beta" | "gamma" | "alphaZ" | "alphaX">,
): RftTable {
  const alphaZ = new Float64Array(nb * ng), alphaX = new Float64Array(nb * ng);
  alphaZ.set(s.alphaZ), alphaX.set(s.alphaX);
  alphaZ.set(s.alphaZ.subarray(0, ng), (nb - 1) * ng);
  alphaX.set(s.alphaX.subarray(0, ng), (nb - 1) * ng);
  return new RftTable({ ...meta, beta: axis(nb), gamma: axis(ng), alphaZ, alphaX });
}

function checkGrid(w: string, v: unknown): [number, number] {
  if (!Array.isArray(v) || v.length !== 2) {
    throw new TypeError(`${w}: grid (${String(v)}) must be [β count, γ count]`);
  }
  return v.map((n, k) => {
    if (!Number.isInteger(n) || n < 3 || n > 91) {
      throw new RangeError(`${w}: grid[${k}] (${String(n)}) must be an integer in [3, 91]`);
    }
    return n;
  }) as [number, number];
}

function checkPairs(w: string, v: unknown): [number, number][] {
  if (!Array.isArray(v) || v.length === 0) {
    throw new TypeError(`${w}: pairs (${String(v)}) must be a non-empty array of [β, γ] pairs`);
  }
  return v.map((pair, k) => {
    if (!Array.isArray(pair) || pair.length !== 2) {
      throw new TypeError(`${w}: pairs[${k}] (${String(pair)}) must be a [β, γ] pair (rad)`);
    }
    const [b, g] = pair;
    if (typeof b !== "number" || !(Math.abs(b) <= H)) {
      throw new RangeError(`${w}: pairs[${k}][0] (β = ${String(b)}) must be in [−π/2, π/2]`);
    }
    if (typeof g !== "number" || !(Math.abs(g) <= H)) {
      throw new RangeError(`${w}: pairs[${k}][1] (γ = ${String(g)}) must be in [−π/2, π/2]`);
    }
    return [b, g] as [number, number];
  });
}

function range(w: string, name: string, v: unknown): [number, number] {
  if (!Array.isArray(v) || v.length !== 2) {
    throw new TypeError(`${w}: ${name} (${String(v)}) must be a [from, to] pair (d)`);
  }
  const [f, t] = v;
  if (typeof f !== "number" || typeof t !== "number" || !(f >= 0) || !(t > f)) {
    throw new RangeError(`${w}: ${name} ([${f}, ${t}]) must have 0 <= from < to (d)`);
  }
  return [f, t];
}
