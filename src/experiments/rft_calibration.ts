/**
 * RFT calibration from Grainlab's own DEM (Li, Zhang & Goldman, Science 2013, did it with
 * experiments and DEM): a thin kinematic plate, tilted by β, is pushed slowly through a settled
 * bed along the direction γ (below the horizontal, towards +x); the grains' force on it grows
 * linearly with depth once it is submerged, F = α·A·|z| + const, and the slope over a depth
 * window gives α_z and α_x at (β, γ) (α_x positive against the horizontal motion; for a plate
 * moving straight down, along the horizontal part of its leading face's normal, as in
 * `sphere3d/rft/model.ts`). Each pair gets a fresh copy of the same settled bed. The samples
 * give the scale ζ of Li et al.'s generic medium that fits best and, from five pairs on, a fit
 * of the Fourier form; either becomes a `"dem"` {@link RftTable}.
 *
 * The law (RFT): the force on the plate is linear in depth (R² of each window fit), α of the
 * order of a few tenths of N/cm³ for a horizontal plate pushed down (glass beads, Li et al.).
 * At smoke size little is checked: a few hundred coarse grains. The ci preset (1,650 grains,
 * 7 pairs) runs in about half a minute on one core.
 *
 * @module
 */
import { type RftFit, type RftTable, World } from "../sphere3d/mod.ts";
import {
  fitRft,
  RFT_GENERIC,
  rftAlphaX,
  rftAlphaZ,
  rftTableFromFourier,
} from "../sphere3d/rft/mod.ts";
import { positive } from "../math/validate.ts";

import {
  experimentOptions,
  type ExperimentScale,
  G,
  type GrainOptions,
  resolveGrains,
} from "./common.ts";
import { linearFit } from "./fit.ts";
import { loadRftBed, settleRftBed } from "./rft_bed.ts";

/** Options of {@link calibrateRft}. Lengths in grain diameters d. */
export interface RftCalibrationOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /**
   * The (β, γ) pairs (rad), γ ∈ (0, π/2] (the plate moves down).
   * @default [[0, π/2], [π/4, π/2], [0, π/4]] (smoke); 7 pairs over β ∈ {0, ±π/4, π/2},
   * γ ∈ {π/2, π/4} (ci); β ∈ {0, ±π/4, ±π/2} × γ ∈ {π/2, 3π/8, π/4} (full)
   */
  pairs?: readonly (readonly [number, number])[];
  /** Side of the square plate (d); it is 0.4 d thick. @default 3 (smoke); 4 (ci); 6 (full) */
  plateSize?: number;
  /** Plate speed (m/s); quasi-static below √(g·d). @default 0.1 (smoke, ci); 0.05 (full) */
  speed?: number;
  /**
   * Depth window of the fit, [from, to] in d below the plate's full immersion.
   * @default [0.5, 3] (smoke); [0.5, 5] (ci); [0.5, 7] (full)
   */
  window?: readonly [number, number];
  /**
   * Bed size: length along the motion, width, depth (d); grains fill it at a volume fraction
   * of about 0.6. @default [12, 8, 7] (smoke); [16, 10, 9] (ci); [24, 14, 12] (full)
   */
  bed?: readonly [number, number, number];
}

/** The result of {@link calibrateRft}. */
export interface RftCalibration {
  /** The run size. */
  scale: ExperimentScale;
  /** The samples: α (N/m³) at each pair, and the R² of each linear depth fit. */
  samples: {
    beta: Float64Array;
    gamma: Float64Array;
    alphaZ: Float64Array;
    alphaX: Float64Array;
    r2Z: Float64Array;
    r2X: Float64Array;
  };
  /** Scale of the generic medium that fits the samples best (least squares over α_z, α_x). */
  zeta: number;
  /** The Fourier fit, from five pairs on (else null). */
  fit: RftFit | null;
  /** A `"dem"` table: the fit sampled on a grid, or ζ × the generic medium. */
  table: RftTable;
  /** Grains in the bed. */
  grains: number;
}

const KEYS = ["pairs", "plateSize", "speed", "window", "bed"];
const H = Math.PI / 2, Q = Math.PI / 4;
const PRESETS: Record<ExperimentScale, Partial<RftCalibrationOptions>> = {
  smoke: {
    pairs: [[0, H], [Q, H], [0, Q]],
    plateSize: 3,
    speed: 0.1,
    window: [0.5, 3],
    bed: [12, 8, 7],
    softness: 1e-3,
    rollingFriction: 0.05,
  },
  ci: {
    pairs: [[0, H], [Q, H], [-Q, H], [H, H], [0, Q], [Q, Q], [-Q, Q]],
    plateSize: 4,
    speed: 0.1,
    window: [0.5, 5],
    bed: [16, 10, 9],
    softness: 1e-3,
    rollingFriction: 0.05,
  },
  full: {
    pairs: [-H, -Q, 0, Q, H].flatMap((b) =>
      [H, (3 * Q) / 2, Q].map((g) => [b, g] as [number, number])
    ),
    plateSize: 6,
    speed: 0.05,
    window: [0.5, 7],
    bed: [24, 14, 12],
    softness: 5e-4,
    rollingFriction: 0.05,
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
  const pairs = checkPairs(w, o.pairs);
  const a = positive(w, "plateSize", o.plateSize) * d, t = 0.4 * d;
  const speed = positive(w, "speed", o.speed);
  const [from, to] = range(w, "window", o.window);
  const bedSpec = o.bed ?? [12, 8, 7];
  if (!Array.isArray(bedSpec) || bedSpec.length !== 3) {
    throw new TypeError(`${w}: bed (${String(bedSpec)}) must be [length, width, depth] (d)`);
  }
  const dims = [0, 1, 2].map((k) => positive(w, `bed[${k}]`, bedSpec[k])) as [
    number,
    number,
    number,
  ];
  const bed = settleRftBed(m, dims);
  const { surface, grains } = bed, lx = bed.size[0];
  const n = pairs.length;
  const samples = {
    beta: new Float64Array(n),
    gamma: new Float64Array(n),
    alphaZ: new Float64Array(n),
    alphaX: new Float64Array(n),
    r2Z: new Float64Array(n),
    r2X: new Float64Array(n),
  };
  for (let p = 0; p < n; p++) {
    const [beta, gamma] = pairs[p];
    const world = await World.create({ timeStep: m.dt, gravity: [0, 0, -G] });
    loadRftBed(world, bed);
    const r = intrude(world, d, surface, lx, a, t, beta, gamma, speed, from, to);
    samples.beta[p] = beta, samples.gamma[p] = gamma;
    samples.alphaZ[p] = r.alphaZ, samples.alphaX[p] = r.alphaX;
    samples.r2Z[p] = r.r2Z, samples.r2X[p] = r.r2X;
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
  const meta = { ...bed.medium, source: "dem" as const, intrusionSpeed: speed };
  if (fit === null && !(zeta > 0)) {
    throw new RangeError(`${w}: the DEM samples give ζ = ${zeta} (<= 0); no table can be made`);
  }
  const table = fit !== null
    ? rftTableFromFourier({ ...meta, coefficients: fit.coefficients })
    : rftTableFromFourier({ ...meta, zeta });
  return { scale, samples, zeta, fit, table, grains };
}

/** One plate run: α_z, α_x (N/m³) and the R² of their depth fits. */
function intrude(
  world: World,
  d: number,
  surface: number,
  lx: number,
  a: number,
  t: number,
  beta: number,
  gamma: number,
  speed: number,
  from: number,
  to: number,
): { alphaZ: number; alphaX: number; r2Z: number; r2X: number } {
  const dt = world.timeStep;
  // the plate's line rises by β towards +x: a turn of −β about y
  const s = Math.sin(-beta / 2), c = Math.cos(-beta / 2);
  const reach = 0.5 * a * Math.abs(Math.sin(beta)) + 0.5 * t; // lowest point below the centre
  const vx = speed * Math.cos(gamma), vz = -speed * Math.sin(gamma);
  // the centre's depth below the surface when the plate is just submerged: `reach`
  const zStart = surface + reach + 0.5 * d, zEnd = surface - reach - to * d;
  const steps = Math.ceil((zStart - zEnd) / (-vz * dt));
  const x0 = -0.5 * steps * dt * vx;
  if (Math.abs(x0) + 0.5 * a + d > lx / 2) {
    throw new RangeError(
      `calibrateRft: the bed (${(lx / d).toFixed(1)} d long) is too short for γ = ` +
        `${gamma.toFixed(3)} rad: the plate travels ${((2 * Math.abs(x0)) / d).toFixed(1)} d`,
    );
  }
  const plate = world.addBox({
    halfExtents: [0.5 * a, 0.5 * a, 0.5 * t],
    position: [x0, 0, zStart],
    orientation: [0, s, 0, c],
    bodyType: "kinematic",
    linearVelocity: [vx, 0, vz],
  });
  // α_x is positive against the horizontal motion (+x); moving straight down, against the
  // horizontal part of the leading (lower) face's normal, R·(0, 0, −1) = (sin β, 0, −cos β)
  const ex = gamma < H - 1e-9 ? 1 : Math.sign(Math.sin(beta)) || 1;
  const area = a * a, W = Math.max(1, Math.round((0.1 * d) / (speed * dt)));
  const depth: number[] = [], fz: number[] = [], fx: number[] = [];
  for (let k = 0; k + W <= steps; k += W) {
    let sz = 0, sx = 0;
    for (let j = 0; j < W; j++) {
      world.step();
      const f = plate.contactForce;
      sz += f[2] / W, sx += f[0] / W;
    }
    // the centre's depth at the middle of the window, past full immersion
    const zc = zStart + (k + 0.5 * W) * dt * vz;
    const past = surface - reach - zc;
    if (past >= from * d && past <= to * d) {
      depth.push(surface - zc);
      fz.push(sz / area);
      fx.push((-sx * ex) / area);
    }
  }
  world.close();
  if (depth.length < 3) {
    throw new RangeError(
      `calibrateRft: only ${depth.length} force windows in the depth window; widen it`,
    );
  }
  const lz = linearFit(depth, fz), lxf = linearFit(depth, fx);
  return { alphaZ: lz.slope, alphaX: lxf.slope, r2Z: lz.r2, r2X: lxf.r2 };
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
    if (typeof g !== "number" || !(g > 0.05 && g <= H)) {
      throw new RangeError(`${w}: pairs[${k}][1] (γ = ${String(g)}) must be in (0.05, π/2]`);
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
