/**
 * Brazil-nut segregation (sphere3d): a large sphere starts on the floor of a bed of small
 * grains in a box with frictional walls that oscillates vertically, `z_box = A·sin(ωt)`, at
 * dimensionless acceleration `Γ = A·ω²/g`. Under strong shaking the intruder rises to the top.
 *
 * The box is driven in its own frame: there it stands still and every grain feels the
 * gravity `g_eff(t) = −g + A·ω²·sin(ωt)` (the inertial force of the accelerating frame). This
 * is exact for a rigid box — every contact, the walls' included, sees the same relative
 * velocities as in the lab — unlike a floor of fixed grains moved with `setPosition` or a
 * ground plane moved with `setGroundPlane`, whose velocity would not enter the contacts'
 * damping (sphere3d gives fixed grains and planes zero velocity). The gravity is updated every
 * four steps with its value at the middle of the four.
 *
 * The law (observation): for Γ ≥ 2 the intruder reaches the surface — its top above the
 * bed's mean surface height — within a number of cycles; for Γ < 1 the bed never leaves the
 * floor and the intruder stays where it is.
 *
 * @module
 */
import { World } from "../sphere3d/mod.ts";
import { integerIn, nonNegative, positive } from "../math/validate.ts";
import {
  experimentOptions,
  type ExperimentScale,
  G,
  type GrainOptions,
  numberList,
  resolveGrains,
} from "./common.ts";

/** Options of {@link brazilNut}. Lengths in grain diameters d. */
export interface BrazilNutOptions extends GrainOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /**
   * Dimensionless accelerations Γ = A·ω²/g, one run each.
   * @default [0.8, 2, 3] (ci); [0.5, 1, 1.5, 2, 2.5, 3] (full); [0.8, 2.5] (smoke)
   */
  gammas?: ArrayLike<number>;
  /** Shaking frequency (Hz). @default 6 */
  frequency?: number;
  /** Side of the square box (d). @default 7 (ci); 12 (full); 6 (smoke) */
  boxWidth?: number;
  /** Depth of the bed of small grains (d). @default 7 (ci); 16 (full); 5 (smoke) */
  bedDepth?: number;
  /** Intruder diameter (d). @default 3 */
  intruder?: number;
  /** Friction of the box's walls and floor. @default 0.5 */
  wallFriction?: number;
  /** Most cycles per run. @default 20 (ci); 80 (full); 2 (smoke) */
  maxCycles?: number;
  /** Cycles to keep shaking after the intruder has risen (then the run stops). @default 2 */
  afterRise?: number;
}

const KEYS = [
  "gammas",
  "frequency",
  "boxWidth",
  "bedDepth",
  "intruder",
  "wallFriction",
  "maxCycles",
  "afterRise",
];

const PRESETS: Record<ExperimentScale, Partial<BrazilNutOptions>> = {
  smoke: { gammas: [0.8, 2.5], boxWidth: 6, bedDepth: 5, maxCycles: 2 },
  ci: { gammas: [0.8, 2, 3], boxWidth: 7, bedDepth: 7, maxCycles: 20 },
  full: { gammas: [0.5, 1, 1.5, 2, 2.5, 3], boxWidth: 12, bedDepth: 16, maxCycles: 80 },
};

/** One shaking run. */
export interface ShakeRun {
  /** Γ of the run. */
  gamma: number;
  /** Amplitude A (m). */
  amplitude: number;
  /** Time in cycles at each sample (8 per cycle). */
  cycles: Float64Array;
  /** Height of the intruder's centre above the floor (m), per sample. */
  intruderHeight: Float64Array;
  /** Mean surface height of the bed (m): twice the small grains' mean height, per sample. */
  bedHeight: Float64Array;
  /** Cycles until the intruder's top (averaged over two cycles) reached the bed's mean surface; null if never. */
  riseCycles: number | null;
}

/** Result of {@link brazilNut}. */
export interface BrazilNutResult {
  /** The scale run. */
  scale: ExperimentScale;
  /** Intruder radius (m). */
  intruderRadius: number;
  /** Small grains in the bed. */
  grains: number;
  /** One run per Γ. */
  runs: ShakeRun[];
}

/**
 * Shakes a bed with a large intruder at several Γ and records the intruder's height against
 * the bed's surface, cycle by cycle.
 *
 * Tolerances (CI test `tests/experiments_brazil_nut_test.ts`, `scale: "ci"`): for Γ ≥ 2 the
 * intruder's top reaches the bed's mean surface within 20 cycles; for Γ < 1 it never does and
 * its cycle-averaged height changes by less than 0.25 d (the bed only compacts: the heavy
 * intruder's overlap with the floor, about 0.1 d at softness 1e-3, relaxes a little).
 *
 * @param options Γ values, frequency, box, bed, intruder, grain model, scale
 * @returns one run per Γ with the height series and the cycles to rise
 * @throws {RangeError} on a non-positive Γ or size, or an intruder wider than the box allows
 * @example
 * ```ts
 * import { brazilNut } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = brazilNut({ scale: "smoke", gammas: [0.5], maxCycles: 1, bedDepth: 3 });
 * expect(r.runs[0].cycles).toHaveLength(8);
 * expect(r.runs[0].riseCycles).toBeNull();
 * ```
 */
export function brazilNut(options: BrazilNutOptions = {}): BrazilNutResult {
  const w = "brazilNut";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS);
  const m = resolveGrains(w, o, { restitution: 0.7 });
  const d = m.d;
  const gammas = numberList(w, "gammas", o.gammas, positive);
  const f = positive(w, "frequency", o.frequency ?? 6);
  const L = positive(w, "boxWidth", o.boxWidth) * d;
  const depth = positive(w, "bedDepth", o.bedDepth) * d;
  const RI = (positive(w, "intruder", o.intruder ?? 3) * d) / 2;
  if (2 * RI > L - 2 * d) {
    throw new RangeError(`${w}: intruder (${(2 * RI) / d}) must leave 1 d on each side of the box`);
  }
  const muW = nonNegative(w, "wallFriction", o.wallFriction ?? m.friction);
  const maxCycles = integerIn(w, "maxCycles", o.maxCycles, 1, 1e6);
  const afterRise = integerIn(w, "afterRise", o.afterRise ?? 2, 0, 1e6);
  // Steps per cycle: a multiple of 32 (8 samples of 4-step gravity updates), dt at most the
  // grain model's.
  const steps = 32 * Math.ceil(1 / f / m.dt / 32), dt = 1 / f / steps;
  const bed = buildBed(m, L, depth, RI, muW, dt);
  let grains = 0;
  const runs = [...gammas].map((gamma) => {
    const world = new World({ timeStep: dt, gravity: [0, 0, -G] });
    const sys = world.addGranularSystem(m.material);
    sys.loadGranularStateBytes(bed, "brazil nut bed");
    sys.setContainerBox([-L / 2, -L / 2, 0], [L / 2, L / 2, 1e3 * d]);
    sys.setBoundaryMaterial({ friction: muW });
    grains = sys.count - 1;
    const intruderId = sys.ids[sys.count - 1];
    const omega = 2 * Math.PI * f, A = (gamma * G) / (omega * omega);
    const cyc: number[] = [], zi: number[] = [], hb: number[] = [];
    let risen: number | null = null;
    const g = [0, 0, -G];
    for (let c = 0; c < maxCycles; c++) {
      for (let s = 0; s < steps; s += 4) {
        g[2] = -G + A * omega * omega * Math.sin(omega * (c * steps + s + 2) * dt);
        world.gravity = g;
        world.run(4);
        if ((s + 4) % (steps / 8) === 0) {
          const p = sys.positions, k = sys.indexOfId(intruderId);
          let z = 0;
          for (let i = 0; i < sys.count; i++) if (i !== k) z += p[3 * i + 2];
          cyc.push(c + (s + 4) / steps);
          zi.push(p[3 * k + 2]);
          hb.push((2 * z) / (sys.count - 1));
        }
      }
      if (risen === null && c >= 1) {
        // two-cycle averages: a bed shaken at Γ > 2.5 may bounce with period two
        const n = cyc.length, from = n - 16;
        let a = 0, b = 0;
        for (let i = from; i < n; i++) a += zi[i] + RI, b += hb[i];
        if (a >= b) risen = c + 1;
      }
      if (risen !== null && c + 1 >= risen + afterRise) break;
    }
    return {
      gamma,
      amplitude: A,
      cycles: Float64Array.from(cyc),
      intruderHeight: Float64Array.from(zi),
      bedHeight: Float64Array.from(hb),
      riseCycles: risen,
    };
  });
  return { scale, intruderRadius: RI, grains, runs };
}

/** The settled bed with the intruder on the floor, as checkpoint bytes. */
function buildBed(
  m: ReturnType<typeof resolveGrains>,
  L: number,
  depth: number,
  RI: number,
  muW: number,
  dt: number,
): Uint8Array {
  const d = m.d;
  const world = new World({ timeStep: dt, gravity: [0, 0, -G] });
  const sys = world.addGranularSystem(m.material);
  sys.setContainerBox([-L / 2, -L / 2, 0], [L / 2, L / 2, 1e3 * d]);
  sys.setBoundaryMaterial({ friction: muW });
  const spacing = 2.04 * m.rMax;
  const target = Math.round((0.6 * L * L * depth) / ((Math.PI * d ** 3) / 6));
  const perLayer = Math.floor((L - 2 * m.rMax) / spacing + 1e-9) + 1;
  const layers = Math.ceil(target / (perLayer * perLayer)) + 2;
  sys.emitBoxRandom({
    min: [-L / 2, -L / 2, 0],
    max: [L / 2, L / 2, layers * spacing + 2 * RI + 2 * m.rMax],
    minRadius: m.rMin,
    maxRadius: m.rMax,
    spacing,
    maxParticles: target + 4 * perLayer * perLayer,
    seed: m.seed,
  });
  // clear the intruder's place at the bottom centre, then trim the bed to its target count
  sys.removeParticlesInBox([-RI - m.rMax, -RI - m.rMax, -1], [
    RI + m.rMax,
    RI + m.rMax,
    2 * RI + m.rMax,
  ]);
  while (sys.count > target) sys.removeParticle(sys.count - 1);
  sys.addParticle({ position: [0, 0, RI], radius: RI });
  const chunk = Math.max(1, Math.round(m.unit / dt));
  world.run(12 * chunk);
  return sys.granularStateBytes();
}
