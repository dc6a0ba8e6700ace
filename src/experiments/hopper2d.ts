/**
 * Beverloo's law in 2D and clogging by star grains (star2d): a flat-bottomed silo whose floor
 * is two thick segments leaving a slot of width D (the clear gap between their rounded ends),
 * filled with a settled packing of three grain sizes (0.85, 1 and 1.15 times the middle one,
 * in equal numbers). Grains that fall 3 d below the floor are counted and dropped back onto the
 * fill at random places, so each run flows at a constant fill height for as long as its rate
 * needs. Every slot of the sweep has the same fill height, in a silo at least 4.5 slot widths
 * wide. The grain size d is the diameter of the disk with the middle size's area.
 *
 * The law: the mass flow rate `W = C·ρ_b·√g·(D − k·d)^{3/2}` through a slot in 2D (ρ_b the
 * areal bulk density). The sweep over D runs disks and fits C, k and the exponent (a jam in a
 * sweep run is broken, as experiments do with a puff of air, and its dead time left out, so
 * the rate is the rate while flowing); at the
 * smallest slot, crosses and disks of the same areas (the same layout and size of each grain)
 * run several seeds each and report how often the slot jams — the arching of non-convex grains
 * that the StarDEM paper shows.
 *
 * @module
 */
import { DiskSystem, type GrainSystem2, StarShape, StarSystem } from "../star2d/mod.ts";
import { Rng } from "../math/rng.ts";
import { integerIn, nonNegative, positive } from "../math/validate.ts";
import type { BeverlooFit } from "./fit.ts";
import { experimentOptions, type ExperimentScale, G, numberList } from "./common.ts";
import { fitFlowingRates, steadyRate } from "./hopper.ts";

/** Options of {@link slotHopper}. Lengths are in grain diameters d, times in √(d/g). */
export interface SlotHopperOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /**
   * Slot widths D/d of the Beverloo sweep (disks), at least three; the smallest is also the
   * clogging slot. @default [4, 6, 8, 10] (ci); [4, 5, 6, 8, 10, 12] (full); [5, 6, 7] (smoke)
   */
  slots?: ArrayLike<number>;
  /** Least silo width of the sweep (d); see `siloPerSlot`. @default 20 (ci); 24 (full); 14 (smoke) */
  siloWidth?: number;
  /**
   * Each sweep run's silo is at least this many slot widths wide (and `siloWidth` at least):
   * the flow above a flat floor draws on about two slot widths either side of the slot, and
   * nearer side walls speed the widest slots up. 0: every run has `siloWidth`.
   * @default 4.5 (ci, full); 0 (smoke)
   */
  siloPerSlot?: number;
  /**
   * Fill height (d), the same for every slot (the rate grows with the head of grains above the
   * slot; below about 3 slot widths the free surface's crater also slows it).
   * @default 24 (ci); 36 (full); 8 (smoke)
   */
  fillHeight?: number;
  /** Shortest sweep run (√(d/g)). @default 20 (ci); 40 (full); 4 (smoke) */
  duration?: number;
  /**
   * Each sweep run lasts at least `duration` and until this many grains have passed after the
   * start-up (2 √(d/g)), at most `maxDuration`. @default 400 (ci); 2500 (full); 0 (smoke)
   */
  minGrains?: number;
  /** Longest sweep run (√(d/g)). @default 150 (ci); 800 (full); 4 × duration (smoke) */
  maxDuration?: number;
  /** Clogging runs per grain kind at the smallest slot (seeds seed, seed + 1, …). @default 3 (ci); 10 (full); 1 (smoke) */
  clogTrials?: number;
  /** Length of a clogging run (√(d/g)). @default 40 (ci); 100 (full); 4 (smoke) */
  clogDuration?: number;
  /** Silo width of the clogging runs (d). @default smallest slot + 12 */
  clogSiloWidth?: number;
  /** Fill height of the clogging runs (d). @default 16 (ci); 20 (full); 8 (smoke) */
  clogFillHeight?: number;
  /** No grain through the slot for this long (√(d/g)) while grains remain: jammed. @default 5 */
  clogTime?: number;
  /** Friction between grains and with the walls. @default 0.5 */
  friction?: number;
  /** Star shape of the clogging comparison. @default "cross" */
  shape?: "cross" | "flower" | "peanut" | "butterfly" | "bat" | "flower8";
  /** Boundary nodes per star grain. @default 40 (ci); 100 (full); 24 (smoke) */
  nodes?: number;
  /** Middle grain size: the bounding radius of the star (m); d follows from its area. @default 0.005 */
  rMax?: number;
  /** Seed of the layouts, sizes and orientations. @default 1 */
  seed?: number;
}

const KEYS = [
  "slots",
  "siloWidth",
  "siloPerSlot",
  "fillHeight",
  "duration",
  "minGrains",
  "maxDuration",
  "clogTrials",
  "clogDuration",
  "clogSiloWidth",
  "clogFillHeight",
  "clogTime",
  "friction",
  "shape",
  "nodes",
  "rMax",
  "seed",
];

const PRESETS: Record<ExperimentScale, Partial<SlotHopperOptions>> = {
  smoke: {
    slots: [5, 6, 7],
    siloWidth: 14,
    siloPerSlot: 0,
    fillHeight: 8,
    duration: 4,
    minGrains: 0,
    clogTrials: 1,
    clogDuration: 4,
    clogFillHeight: 8,
    nodes: 24,
  },
  ci: {
    slots: [4, 6, 8, 10],
    siloWidth: 20,
    siloPerSlot: 4.5,
    fillHeight: 24,
    duration: 20,
    minGrains: 400,
    maxDuration: 150,
    clogTrials: 3,
    clogDuration: 40,
    clogFillHeight: 16,
    nodes: 40,
  },
  full: {
    slots: [4, 5, 6, 8, 10, 12],
    siloWidth: 24,
    siloPerSlot: 4.5,
    fillHeight: 36,
    duration: 40,
    minGrains: 2000,
    maxDuration: 1200,
    clogTrials: 10,
    clogDuration: 60,
    clogFillHeight: 20,
    nodes: 60,
  },
};

/** Relative sizes of the three grain classes (length scale; equal numbers). */
const SIZES = [0.85, 1, 1.15];
/** Floor thickness (d). */
const FLOOR = 0.3;
/** Start-up transient left out of the rate (√(d/g)). */
const START_UP = 2;

/** One run through the slot. */
export interface SlotRun {
  /** "disk" or "star". */
  method: "disk" | "star";
  /** Slot width D (m). */
  slot: number;
  /** Seed of the layout. */
  seed: number;
  /** Grains in the silo. */
  grains: number;
  /** Time since the slot opened (s), every 0.1 √(d/g); flowing time when jams were broken. */
  time: Float64Array;
  /** Grains through the slot so far. */
  passed: Float64Array;
  /** Mass through the slot so far (kg). */
  discharged: Float64Array;
  /** Steady mass flow rate (kg/s) after the start-up, up to the jam if any; NaN if too short. */
  flowRate: number;
  /** Relative standard error of `flowRate` (batch means); NaN if unknown. */
  flowRateError: number;
  /** True when the slot jammed (no grain through for `clogTime`). */
  jammed: boolean;
  /** Time of the last grain through before the jam (s), or NaN. */
  jamTime: number;
  /** Jams: 0 or 1 for a clogging run; for a sweep run, the jams that were broken. */
  jams: number;
}

/** Clogging runs of one grain kind at the smallest slot. */
export interface SlotClogging {
  /** "star" or "disk". */
  method: "star" | "disk";
  /** The runs. */
  runs: SlotRun[];
  /** Fraction of the runs that jammed within `clogDuration`. */
  jamFraction: number;
  /** Mean number of grains through the slot per run. */
  meanPassed: number;
}

/** Result of {@link slotHopper}. */
export interface SlotHopperResult {
  /** The scale run. */
  scale: ExperimentScale;
  /** Grain size d: the diameter of the disk with the middle size's area (m). */
  diameter: number;
  /** Areal bulk density of the settled disk fill ρ_b (kg/m²). */
  bulkDensity: number;
  /** Slot widths D (m). */
  slots: Float64Array;
  /** Steady flow rate of the disks at each slot (kg/s). */
  flowRates: Float64Array;
  /** Relative standard errors of the flow rates. */
  flowRateErrors: Float64Array;
  /** Beverloo's 2D law fitted to the flowing runs (exponent 3/2), weighted by their errors. */
  fit: BeverlooFit;
  /** The sweep's runs (disks). */
  runs: SlotRun[];
  /** Crosses (or the chosen star shape) at the smallest slot. */
  stars: SlotClogging;
  /** Disks of the same areas at the smallest slot. */
  disks: SlotClogging;
}

interface Silo {
  method: "disk" | "star";
  width: number;
  height: number;
  slot: number;
  d: number;
  friction: number;
  shapes: StarShape[];
  seed: number;
}

interface Filled {
  sys: GrainSystem2;
  gate: number;
  height: number;
  mass: number;
}

/** Build the silo, lay the grains on a jittered grid, settle them on the closed gate. */
function fillSilo(s: Silo): Filled {
  const { d, width: L, slot: D } = s;
  const t = FLOOR * d, opts = { friction: s.friction, rotationalDamping: 1e-12 };
  const sys: GrainSystem2 = s.method === "star" ? new StarSystem(opts) : new DiskSystem(opts);
  const rng = new Rng(s.seed * 104729 + 17);
  const rBound = s.method === "star" ? s.shapes[2].rMax : (SIZES[2] * d) / 2;
  const sp = 2.05 * rBound;
  const perRow = Math.floor((L - 2 * rBound) / sp) + 1;
  // grains for a packing fraction of 0.8 (areas of the three sizes in equal numbers)
  const meanArea = (Math.PI * d * d * (SIZES[0] ** 2 + SIZES[1] ** 2 + SIZES[2] ** 2)) / 12;
  const n = Math.round((0.8 * L * s.height) / meanArea);
  const x0 = -L / 2 + rBound + (L - 2 * rBound - (perRow - 1) * sp) / 2;
  const kinds: number[][] = [[], [], []];
  for (let k = 0; k < n; k++) {
    const row = Math.floor(k / perRow), col = k % perRow;
    const x = x0 + col * sp + rng.uniform(-0.02, 0.02) * d;
    const y = t / 2 + rBound + 0.05 * d + row * sp;
    kinds[Math.floor(rng.uniform(0, 3))].push(x, y);
  }
  for (let c = 0; c < 3; c++) {
    if (kinds[c].length === 0) continue;
    const angles = Array.from({ length: kinds[c].length / 2 }, () => rng.uniform(0, 2 * Math.PI));
    if (sys instanceof StarSystem) {
      sys.addGrains({ shape: s.shapes[c], positions: kinds[c], angles });
    } else if (sys instanceof DiskSystem) {
      sys.addGrains({ radius: Math.sqrt(s.shapes[c].area / Math.PI), positions: kinds[c], angles });
    }
  }
  const f = s.friction;
  sys.walls.addPlane({ point: [-L / 2, 0], normal: [1, 0], friction: f });
  sys.walls.addPlane({ point: [L / 2, 0], normal: [-1, 0], friction: f });
  const e = D / 2 + t / 2;
  sys.walls.addSegment({ from: [-L / 2 - t, 0], to: [-e, 0], thickness: t, friction: f });
  sys.walls.addSegment({ from: [e, 0], to: [L / 2 + t, 0], thickness: t, friction: f });
  const gate = sys.walls.addSegment({ from: [-e, 0], to: [e, 0], thickness: t, friction: f });
  // settle: until nearly at rest (mean speed below 1 % of √(g·d)), at most 40 √(d/g)
  const unit = Math.sqrt(d / G), chunk = Math.max(1, Math.round(unit / sys.timeStep));
  let mass = 0;
  for (let i = 0; i < sys.count; i++) mass += sys.masses[i];
  const rest = 0.5 * mass * 1e-4 * G * d;
  for (let k = 0; k < 40; k++) {
    sys.run(chunk);
    if (k >= 5 && sys.lastStepStats.kineticEnergy < rest) break;
  }
  return { sys, gate, height: fillHeight(sys, t / 2), mass };
}

/** Twice the mean height of the grains above the floor's top `y0` (m). */
function fillHeight(sys: GrainSystem2, y0: number): number {
  const p = sys.positions;
  let y = 0, c = 0;
  for (let i = 0; i < sys.count; i++) if (p[2 * i + 1] > y0) y += p[2 * i + 1], c++;
  return c > 0 ? 2 * (y / c - y0) : 0;
}

/**
 * Open the gate and run: grains 3 d below the floor are counted and dropped back onto the
 * fill. Stops at `maxTime`, or after `minTime` of flow once `minGrains` passed after the
 * start-up, or on a jam (times in s). With `unjam`, a jam is broken instead, as experiments do
 * with a puff of air: the grains within 1.5 D of the slot's middle are dropped back onto the
 * fill, the dead time (`clogTime`) is cut out of the record and the flow goes on.
 */
function flow(
  s: Silo,
  f: Filled,
  plan: { minTime: number; maxTime: number; minGrains: number; clogTime: number; unjam: boolean },
): SlotRun {
  const { sys } = f, d = s.d, L = s.width, unit = Math.sqrt(d / G);
  sys.walls.setEnabled(f.gate, false);
  const rng = new Rng(s.seed * 7919 + Math.round((s.slot / d) * 100) + 3);
  const yDrop = (FLOOR * d) / 2 + f.height + 1.5 * d;
  const every = Math.max(1, Math.round((0.1 * unit) / sys.timeStep));
  const t: number[] = [0], np: number[] = [0], mp: number[] = [0];
  const t0 = sys.time, startUp = START_UP * unit, clog = plan.clogTime * unit;
  const reach = 1.5 * s.slot;
  let passed = 0, mass = 0, counted = 0, lastOut = 0, jammed = false, jams = 0, cut = 0;
  for (;;) {
    const now = sys.time - t0 - cut; // flowing time
    if (sys.time - t0 >= plan.maxTime - 1e-12) break;
    if (now >= plan.minTime - 1e-12 && counted >= plan.minGrains) break;
    sys.run(every);
    const p = sys.positions, ms = sys.masses;
    let ng = 0;
    for (let i = 0; i < sys.count; i++) {
      if (p[2 * i + 1] < -3 * d) {
        ng++, mass += ms[i];
        dropOnTop(sys, i, rng, L, yDrop, d);
      }
    }
    const tf = sys.time - t0 - cut;
    if (ng > 0) {
      passed += ng;
      lastOut = tf;
      if (lastOut > startUp) counted += ng;
    }
    t.push(tf), np.push(passed), mp.push(mass);
    if (tf - lastOut > clog) {
      jams++;
      if (!plan.unjam) {
        jammed = true;
        break;
      }
      // cut the dead time out of the record, then clear the arch
      while (t.length > 1 && t[t.length - 1] > lastOut + 1e-12) t.pop(), np.pop(), mp.pop();
      cut += tf - lastOut;
      const q = sys.positions;
      for (let i = 0; i < sys.count; i++) {
        const x = q[2 * i], y = q[2 * i + 1];
        if (y > -3 * d && x * x + y * y < reach * reach) dropOnTop(sys, i, rng, L, yDrop, d);
      }
    }
  }
  const time = Float64Array.from(t), dis = Float64Array.from(mp);
  const rate = steadyRate(time, dis, startUp, jammed ? lastOut : time[time.length - 1]);
  return {
    method: s.method,
    slot: s.slot,
    seed: s.seed,
    grains: sys.count,
    time,
    passed: Float64Array.from(np),
    discharged: dis,
    flowRate: rate.rate,
    flowRateError: rate.error,
    jammed,
    jamTime: jammed ? lastOut : NaN,
    jams,
  };
}

/** Put grain i at rest at a random place from `y0` up, its bounding circle clear of others. */
function dropOnTop(sys: GrainSystem2, i: number, rng: Rng, L: number, y0: number, d: number) {
  const p = sys.positions, v = sys.velocities, w = sys.angularVelocities, r = sys.radii;
  const ri = r[i], half = L / 2 - ri;
  for (let attempt = 0;; attempt++) {
    const y = y0 + ri + (Math.min(attempt, 200) / 200) * 10 * d + rng.uniform(0, 2 * d);
    const x = rng.uniform(-half, half);
    let clear = true;
    for (let j = 0; j < sys.count && clear; j++) {
      if (j === i) continue;
      const dx = p[2 * j] - x, dy = p[2 * j + 1] - y, gap = ri + r[j] + 0.05 * d;
      if (dx * dx + dy * dy < gap * gap) clear = false;
    }
    if (clear) {
      p[2 * i] = x, p[2 * i + 1] = y;
      v[2 * i] = 0, v[2 * i + 1] = 0, w[i] = 0;
      return;
    }
  }
}

/**
 * A 2D silo discharging through a slot, checked against Beverloo's 2D law, and the clogging of
 * its smallest slot by star grains against disks of the same areas. Disks sweep the slot width
 * (each run at a constant fill height, the same for every slot, in a silo at least
 * `siloPerSlot` slot widths wide, long enough to count `minGrains`); C, k and the exponent are
 * fitted together. Then crosses and disks (the same layouts, each disk with its cross's area)
 * run `clogTrials` seeds each at the smallest slot for `clogDuration`.
 *
 * Tolerances (CI test `tests/experiments_hopper2d_test.ts`, `scale: "ci"`: D/d = 4, 6, 8, 10 in
 * silos 20, 27, 36 and 45 d wide, filled 24 d high, 400 grains per rate, ±2–4 %): the free
 * fit's exponent within 20 % of 3/2 and within two of its standard errors (measured
 * 1.37 ± 0.20, −8.6 %, k = 1.65 ± 0.61: at this size the error is ±0.2, so 20 % is as tight as
 * is honest); with k fixed at Beverloo's 1.5 the exponent within 10 % (1.42); with the
 * exponent fixed, R² above 0.99 and C in [0.5, 1.5] (C = 0.95, k = 1.26, R² 0.9996); crosses
 * jam the smallest slot in more runs than disks, and the disks pass 1.5 times as many grains
 * (2/3 against 0/3 runs; 52 against 154 grains).
 *
 * The `"full"` preset (D/d = 4, 5, 6, 8, 10, 12 in silos 24–54 d wide, filled 36 d high, 2,000
 * grains per rate, ±0.7–2.2 %) gives the exponent 1.47 ± 0.07 (−2 %), k = 1.70 ± 0.23,
 * C = 1.02; with the exponent fixed, C = 1.09, k = 1.60 (R² 0.9998). Seed 2: 1.42 ± 0.06 (−5 %),
 * k = 1.88 ± 0.21; fixed: C = 1.09, k = 1.61 (R² 0.9995). (4.6–5.8 min on a busy 2-core
 * machine.)
 *
 * Why the silo widens with the slot and the fill is deep: the former full preset (one silo
 * 26 d wide filled 20 d high for every slot) gave 1.66 ± 0.08 (+10.5 %). The smallest,
 * intermittent slots were not the cause: leaving them out made the exponent higher still (1.73
 * from 5 d, 1.90 from 6 d). The widest slots flowed too fast: at the same 20 d fill, widening
 * the silo from 26 to 52 d slowed the 12 d slot by 9 % and the 10 d slot by 5 %, widening it
 * to 40 d slowed the 8 d slot by 1.5 % and left the 6 d slot unchanged — side walls within
 * about two slot widths of the slot's edges speed the flow up. The rate also grows with the
 * head of grains above the slot, for every slot alike (26 d silo, 20 → 36 d fill: +7 % at 5 d,
 * +9 % at 8 d; +16 % at 8 d up to 52 d, with no sign of saturating), and below a fill of about
 * 3 slot widths the free surface's crater slows the widest slot by a few per cent more (12 d
 * slot, 52 d silo: +12 % from 20 to 36 d, +4 % from 36 to 52 d). Hence one fill height for
 * every slot (the same head), deep enough for the widest (3 D), in silos at least 4.5 slot
 * widths wide (at 12 d, 52 and 76 d wide silos give the same rate within 0.1 %). The fill
 * height stays within about 1 d during a run (grains are recycled), and the rate has no drift
 * over 8,000 grains (8 d slot), so neither a changing fill nor the 2 √(d/g) start-up biases it.

 * @param options slots, silo, durations, clogging runs, grains, scale
 * @returns the sweep's runs, rates and fit, and the clogging runs of stars and disks
 * @throws {RangeError} on fewer than three slots, a slot below 2 d or one that does not fit
 * @example
 * ```ts
 * import { slotHopper } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = slotHopper({
 *   scale: "smoke", slots: [5, 6, 8], fillHeight: 5, siloWidth: 12, duration: 4, clogDuration: 1,
 * });
 * expect(r.flowRates).toHaveLength(3);
 * expect(r.flowRates[2]).toBeGreaterThan(r.flowRates[0]); // a wider slot flows faster
 * expect(r.stars.runs).toHaveLength(1);
 * ```
 */
export function slotHopper(options: SlotHopperOptions = {}): SlotHopperResult {
  const w = "slotHopper";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS, false);
  const Dd = numberList(w, "slots", o.slots, positive, 3);
  const dMin = Math.min(...Dd);
  if (dMin < 2) throw new RangeError(`${w}: slots (smallest ${dMin}) must be >= 2 (d)`);
  const minWidth = positive(w, "siloWidth", o.siloWidth);
  const perSlot = nonNegative(w, "siloPerSlot", o.siloPerSlot ?? 4.5);
  const widthOf = (D: number) => Math.max(minWidth, perSlot * D);
  for (const D of Dd) {
    if (widthOf(D) < D + 4) {
      throw new RangeError(
        `${w}: the silo (${widthOf(D)}, from siloWidth and siloPerSlot) must be >= the slot ` +
          `+ 4 (${D + 4})`,
      );
    }
  }
  const height = positive(w, "fillHeight", o.fillHeight);
  const duration = positive(w, "duration", o.duration);
  const maxDuration = positive(w, "maxDuration", o.maxDuration ?? 4 * duration);
  if (maxDuration < duration) {
    throw new RangeError(`${w}: maxDuration (${maxDuration}) must be >= duration (${duration})`);
  }
  const minGrains = integerIn(w, "minGrains", o.minGrains ?? 0, 0, 1e9);
  const trials = integerIn(w, "clogTrials", o.clogTrials, 1, 1000);
  const clogDuration = positive(w, "clogDuration", o.clogDuration);
  const clogWidth = positive(w, "clogSiloWidth", o.clogSiloWidth ?? dMin + 12);
  if (clogWidth < dMin + 4) {
    throw new RangeError(
      `${w}: clogSiloWidth (${clogWidth}) must be >= the smallest slot + 4 (${dMin + 4})`,
    );
  }
  const clogHeight = positive(w, "clogFillHeight", o.clogFillHeight ?? height);
  const clogTime = positive(w, "clogTime", o.clogTime ?? 5);
  const friction = positive(w, "friction", o.friction ?? 0.5);
  const nodes = integerIn(w, "nodes", o.nodes, 8, 10000);
  const rMax = positive(w, "rMax", o.rMax ?? 0.005);
  const seed = integerIn(w, "seed", o.seed ?? 1, 0, 2 ** 31);
  const base = StarShape.preset(o.shape ?? "cross", { rMax, nodes });
  const shapes = SIZES.map((f) =>
    StarShape.preset(o.shape ?? "cross", { area: base.area * f * f, nodes })
  );
  const d = 2 * Math.sqrt(base.area / Math.PI), unit = Math.sqrt(d / G);
  const silo = (method: "disk" | "star", D: number, wd: number, h: number, sd: number): Silo => ({
    method,
    width: wd * d,
    height: h * d,
    slot: D * d,
    d,
    friction,
    shapes,
    seed: sd,
  });
  const runs: SlotRun[] = [];
  let bulkDensity = NaN;
  for (let k = 0; k < Dd.length; k++) {
    const s = silo("disk", Dd[k], widthOf(Dd[k]), height, seed);
    const f = fillSilo(s);
    if (k === 0) bulkDensity = f.mass / (s.width * f.height);
    runs.push(flow(s, f, {
      minTime: duration * unit,
      maxTime: maxDuration * unit,
      minGrains,
      clogTime,
      unjam: true,
    }));
  }
  const clogging = (method: "disk" | "star"): SlotClogging => {
    const out: SlotRun[] = [];
    for (let t = 0; t < trials; t++) {
      const s = silo(method, dMin, clogWidth, clogHeight, seed + t);
      const T = clogDuration * unit;
      out.push(
        flow(s, fillSilo(s), { minTime: T, maxTime: T, minGrains: 0, clogTime, unjam: false }),
      );
    }
    let jams = 0, passed = 0;
    for (const r of out) {
      if (r.jammed) jams++;
      passed += r.passed[r.passed.length - 1];
    }
    return { method, runs: out, jamFraction: jams / trials, meanPassed: passed / trials };
  };
  const slots = Dd.map((v) => v * d);
  const flowRates = Float64Array.from(runs, (r) => r.flowRate);
  const flowRateErrors = Float64Array.from(runs, (r) => r.flowRateError);
  const fit = fitFlowingRates(w, "slots", slots, flowRates, flowRateErrors, {
    bulkDensity,
    diameter: d,
    gravity: G,
    dimension: 2,
  });
  return {
    scale,
    diameter: d,
    bulkDensity,
    slots,
    flowRates,
    flowRateErrors,
    fit,
    runs,
    stars: clogging("star"),
    disks: clogging("disk"),
  };
}
