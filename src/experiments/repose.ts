/**
 * Angle of repose (sphere3d): grains poured from a line source onto a rough floor (a layer of
 * fixed grains) build a ridge in a slab a few grains deep between two frictionless walls
 * (mirrors: a slice of an infinitely long ridge). Grains that roll off the floor's ends are
 * taken out. When the
 * pouring stops and the ridge has come to rest, its free surface (the highest grain top in
 * bins one diameter wide) is fitted with a straight line on each flank; the angle of repose
 * is the mean of the two slopes.
 *
 * The teaching point is the sweep over rolling resistance: frictional spheres that roll
 * freely form low heaps (about 20° or less), far below sand or glass beads; a rolling
 * friction of a few hundredths to tenths raises the angle into the range of real materials
 * (Zhou et al., Physica A 269 (1999) 536). A sweep over sliding friction at a fixed rolling
 * friction shows its weaker effect.
 *
 * @module
 */
import { World } from "../sphere3d/mod.ts";
import { integerIn, nonNegative, positive } from "../math/validate.ts";
import { linearFit } from "./fit.ts";
import {
  experimentOptions,
  type ExperimentScale,
  G,
  type GrainModel,
  type GrainOptions,
  numberList,
  resolveGrains,
  type SurfaceProfile,
  surfaceProfile,
} from "./common.ts";

/** Options of {@link angleOfRepose}. Lengths in grain diameters d, times in √(d/g). */
export interface ReposeOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /**
   * Rolling friction coefficients swept at the grains' `friction`.
   * @default [0, 0.1, 0.3] (ci); [0, 0.02, 0.05, 0.1, 0.2, 0.3] (full); [0, 0.2] (smoke)
   */
  rollingFrictions?: ArrayLike<number>;
  /** Sliding friction coefficients swept at `sweepRolling`. @default [0.3] (ci); [0.2, 0.3, 0.8] (full); [] (smoke) */
  frictions?: ArrayLike<number>;
  /** Rolling friction of the sliding-friction sweep. @default 0.1 */
  sweepRolling?: number;
  /** Grains poured per heap. @default 500 (ci); 2500 (full); 150 (smoke) */
  grains?: number;
  /** Depth of the slab between the frictionless walls (d), an integer ≥ 2. @default 4 (ci, smoke); 6 (full) */
  slabDepth?: number;
  /** Half-length of the rough floor (d). @default 22 (ci); 40 (full); 12 (smoke) */
  floorHalfLength?: number;
  /** Pouring rate (grains per √(d/g)). @default 30 */
  pourRate?: number;
}

const KEYS = [
  "rollingFrictions",
  "frictions",
  "sweepRolling",
  "grains",
  "slabDepth",
  "floorHalfLength",
  "pourRate",
];

const PRESETS: Record<ExperimentScale, Partial<ReposeOptions>> = {
  smoke: { rollingFrictions: [0, 0.2], frictions: [], grains: 150, floorHalfLength: 12 },
  ci: { rollingFrictions: [0, 0.1, 0.3], frictions: [0.3], grains: 500, floorHalfLength: 22 },
  full: {
    rollingFrictions: [0, 0.02, 0.05, 0.1, 0.2, 0.3],
    frictions: [0.2, 0.3, 0.8],
    grains: 2500,
    slabDepth: 6,
    floorHalfLength: 40,
  },
};

/** One heap. */
export interface Heap {
  /** Sliding friction. */
  friction: number;
  /** Rolling friction. */
  rollingFriction: number;
  /** Angle of repose (degrees): the mean of the two flanks. */
  angle: number;
  /** Angle of the left flank (degrees). */
  leftAngle: number;
  /** Angle of the right flank (degrees). */
  rightAngle: number;
  /** Free-surface profile (m): bin centres along x and the highest grain top. */
  profile: SurfaceProfile;
  /** Simulated time of the pour and the rest (s). */
  time: number;
  /** Grains on the floor at the end. */
  grains: number;
  /** Positions of the grains at the end (m), stride 3 (for figures). */
  positions: Float64Array;
  /** Radii at the end (m). */
  radii: Float64Array;
}

/** Result of {@link angleOfRepose}. */
export interface ReposeResult {
  /** The scale run. */
  scale: ExperimentScale;
  /** Heaps of the rolling-friction sweep, in the order given. */
  rolling: Heap[];
  /** Heaps of the sliding-friction sweep. */
  sliding: Heap[];
}

/**
 * Pours heaps on a rough floor and measures their angle of repose, sweeping rolling friction
 * (and sliding friction).
 *
 * Tolerances (CI test `tests/experiments_repose_test.ts`, `scale: "ci"`): the angle grows
 * with rolling friction (each step by more than 1°); without rolling friction it stays between
 * 8° and 24°; with μr = 0.3 it exceeds the free-rolling angle by more than 8°. Small heaps are
 * noisy: the two flanks of one heap differ by up to 7°.
 *
 * @param options sweeps, heap size, slab, floor, grain model, scale
 * @returns one heap per case with its angle and profile
 * @throws {RangeError} on negative friction, a slab thinner than 2 d or too few grains
 * @example
 * ```ts
 * import { angleOfRepose } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = angleOfRepose({ scale: "smoke", rollingFrictions: [0.2], grains: 60, floorHalfLength: 8 });
 * expect(r.rolling[0].angle).toBeGreaterThan(5);
 * expect(r.rolling[0].angle).toBeLessThan(60);
 * ```
 */
export function angleOfRepose(options: ReposeOptions = {}): ReposeResult {
  const w = "angleOfRepose";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS);
  const base = resolveGrains(w, o);
  const rolls = numberList(w, "rollingFrictions", o.rollingFrictions, nonNegative, 0);
  const fricts = numberList(w, "frictions", o.frictions ?? [], nonNegative, 0);
  const sweepRolling = nonNegative(w, "sweepRolling", o.sweepRolling ?? 0.1);
  const grains = integerIn(w, "grains", o.grains, 20, 1e7);
  const slab = integerIn(w, "slabDepth", o.slabDepth ?? 4, 2, 1000);
  const X = positive(w, "floorHalfLength", o.floorHalfLength);
  const rate = positive(w, "pourRate", o.pourRate ?? 30);
  const heap = (friction: number, rollingFriction: number) =>
    pour(
      resolveGrains(w, { ...o, friction, rollingFriction }),
      grains,
      slab,
      X,
      rate,
    );
  return {
    scale,
    rolling: [...rolls].map((mr) => heap(base.friction, mr)),
    sliding: [...fricts].map((mu) => heap(mu, sweepRolling)),
  };
}

/** Pour one heap and measure it. */
function pour(m: GrainModel, total: number, slab: number, X: number, rate: number): Heap {
  const d = m.d, Wy = slab * d, Xm = X * d;
  const world = new World({ timeStep: m.dt, gravity: [0, 0, -G] });
  const sys = world.addGranularSystem(m.material);
  // the rough floor: fixed grains of the mean size, touching on a square grid
  const nx = Math.floor((2 * Xm) / d);
  for (let a = 0; a < nx; a++) {
    for (let b = 0; b < slab; b++) {
      sys.addParticle({
        position: [-Xm + (a + 0.5) * d, (b + 0.5) * d, 0],
        radius: m.r,
        fixed: true,
      });
    }
  }
  sys.setContainerBox([-Xm - 10 * d, 0, -20 * d], [Xm + 10 * d, Wy, 1e3 * d]);
  sys.setBoundaryMaterial({ friction: 0 });
  const spacing = 2.04 * m.rMax;
  const every = Math.max(1, Math.round(m.unit / 10 / m.dt));
  let poured = 0, batch = 0, nextPour = 0;
  const interval = m.unit / rate; // s per grain
  const slow2 = 0.09 * G * d; // (0.3·√(g·d))²: grains slower than this belong to the heap
  // The source (4.6 d wide, two layers) drops grains from 2 d above the heap's apex at
  // 0.5·√(g·d), once the previous batch has left the space.
  const pourHeight = () => {
    let top = m.r, clear = -Infinity;
    const pos = sys.positions, v = sys.velocities, rad = sys.radii, fx = sys.fixed;
    for (let i = 0; i < sys.count; i++) {
      if (Math.abs(pos[3 * i]) > 3 * d || fx[i]) continue;
      const t = pos[3 * i + 2] + rad[i];
      const s2 = v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2;
      if (s2 < slow2) top = Math.max(top, t);
      clear = Math.max(clear, t);
    }
    const z0 = top + 2 * d;
    return clear < z0 ? z0 : NaN;
  };
  while (poured < total) {
    const z0 = world.time >= nextPour ? pourHeight() : NaN;
    if (z0 > 0) {
      const n = sys.emitBoxRandom({
        min: [-2.3 * d, 0, z0],
        max: [2.3 * d, Wy, z0 + 2 * spacing + 2 * m.rMax],
        minRadius: m.rMin,
        maxRadius: m.rMax,
        spacing,
        maxParticles: total - poured,
        seed: m.seed + 104729 * ++batch,
        velocity: [0, 0, -0.5 * Math.sqrt(G * d)],
      });
      poured += n;
      nextPour = world.time + n * interval;
    }
    world.run(every);
    sys.removeParticlesBelowZ(-2 * d);
  }
  // come to rest: mean speed below 1 % of √(g·d), at most 10 √(d/g)
  const chunk = Math.max(1, Math.round(m.unit / m.dt));
  for (let k = 0; k < 10; k++) {
    world.run(chunk);
    sys.removeParticlesBelowZ(-2 * d);
    const free = sys.count - nx * slab;
    if (sys.lastStepStats.kineticEnergy < 0.5 * free * m.mass * 1e-4 * G * d) break;
  }
  const fixed = sys.fixed;
  const profile = surfaceProfile(
    sys.positions,
    3,
    0,
    2,
    sys.radii,
    sys.count,
    -Xm,
    Xm,
    d,
    (i) => fixed[i] === 1,
  );
  const [left, right] = flankAngles(profile, m.r);
  const keep: number[] = [], radii: number[] = [];
  for (let i = 0; i < sys.count; i++) {
    if (fixed[i]) continue;
    keep.push(sys.positions[3 * i], sys.positions[3 * i + 1], sys.positions[3 * i + 2]);
    radii.push(sys.radii[i]);
  }
  return {
    time: world.time,
    friction: m.friction,
    rollingFriction: m.rollingFriction,
    angle: 0.5 * (left + right),
    leftAngle: left,
    rightAngle: right,
    profile,
    grains: radii.length,
    positions: Float64Array.from(keep),
    radii: Float64Array.from(radii),
  };
}

/**
 * Angles (degrees) of the two flanks of a heap's surface profile: from the apex (the highest
 * bin) outwards, a straight line through the bins whose height above `floorTop` lies between
 * 20 % and 80 % of the apex's (the rounded top and the thin toe or run-out left out).
 *
 * @param profile the surface profile
 * @param floorTop the height of bare floor (m)
 * @returns [left angle, right angle] in degrees (NaN for a flank with fewer than 3 bins)
 * @example
 * ```ts
 * import { flankAngles } from "./repose.ts";
 * import { expect } from "expect";
 * const x = Float64Array.from({ length: 21 }, (_, i) => i - 10);
 * const top = x.map((v) => 10 - Math.abs(v));
 * const [l, r] = flankAngles({ x, top }, 0);
 * expect(l).toBeCloseTo(45, 9);
 * expect(r).toBeCloseTo(45, 9);
 * ```
 */
export function flankAngles(profile: SurfaceProfile, floorTop: number): [number, number] {
  const { x, top } = profile;
  let apex = -1;
  for (let b = 0; b < top.length; b++) if (top[b] > (apex < 0 ? -Infinity : top[apex])) apex = b;
  if (apex < 0) return [NaN, NaN];
  const H = top[apex] - floorTop;
  const flank = (dir: number) => {
    const xs: number[] = [], ys: number[] = [];
    for (let i = apex + dir; i >= 0 && i < top.length; i += dir) {
      const h = top[i] - floorTop;
      if (!Number.isFinite(h)) continue;
      if (h < 0.2 * H) break;
      if (h <= 0.8 * H) xs.push(x[i]), ys.push(top[i]);
    }
    if (xs.length < 3) return NaN;
    return (Math.atan(Math.abs(linearFit(xs, ys).slope)) * 180) / Math.PI;
  };
  return [flank(-1), flank(1)];
}
