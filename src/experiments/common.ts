/**
 * What the classic experiments share: the grain model (diameter, density, friction,
 * restitution and a dimensionless softness that sets the stiffness and the time step), the
 * run-size presets (`"smoke"`, `"ci"`, `"full"`), option checking, and small measuring
 * helpers (free-surface profiles, time windows).
 *
 * @module
 */
import {
  finite,
  integerIn,
  nonNegative,
  objectOrEmpty,
  oneOf,
  options as checkOptions,
  positive,
  sizeGuard,
} from "../math/validate.ts";

/** Standard gravity used by every experiment (m/s²). */
export const G = 9.81;

/**
 * Run size: `"smoke"` — seconds, for a quick look (no law is checked at this size);
 * `"ci"` — the scenes the tests and the notebook run (minutes in all on two cores), with the
 * tolerances stated in each experiment; `"full"` — the publication-size scenes.
 */
export type ExperimentScale = "smoke" | "ci" | "full";

/** The scales, in increasing size. */
export const SCALES: readonly ExperimentScale[] = ["smoke", "ci", "full"];

/** Grain properties shared by the sphere3d experiments. */
export interface GrainOptions {
  /** Mean grain diameter d (m). @default 0.01 */
  diameter?: number;
  /** Grain density (kg/m³). @default 2500 */
  density?: number;
  /** Sliding friction coefficient between grains. @default 0.5 */
  friction?: number;
  /** Rolling friction coefficient between grains (torque μr·fn·r). @default 0 */
  rollingFriction?: number;
  /** Coefficient of restitution of a head-on collision, in (0, 1]. @default 0.5 */
  restitution?: number;
  /**
   * Softness ε = m·g/(kn·d): the overlap, in diameters, that one grain's weight causes. It
   * sets the normal stiffness kn = m·g/(ε·d) and with it the contact time and time step.
   * @default 1e-3
   */
  softness?: number;
  /** Radii uniform in r̄·[1 − p, 1 + p] (p in [0, 0.3]) to prevent crystallisation. @default 0.1 */
  polydispersity?: number;
  /** Seed of every random choice (layouts, radii). @default 1 */
  seed?: number;
}

/** The keys of {@link GrainOptions}. */
export const GRAIN_KEYS: readonly string[] = [
  "diameter",
  "density",
  "friction",
  "rollingFriction",
  "restitution",
  "softness",
  "polydispersity",
  "seed",
];

/** A resolved grain model: the inputs and what follows from them (SI units). */
export interface GrainModel {
  /** Mean diameter d (m). */
  d: number;
  /** Mean radius (m). */
  r: number;
  /** Smallest radius (m). */
  rMin: number;
  /** Largest radius (m). */
  rMax: number;
  /** Density (kg/m³). */
  density: number;
  /** Mass of a grain of the mean diameter (kg). */
  mass: number;
  /** Normal stiffness (N/m). */
  kn: number;
  /** Binary contact time of the two smallest grains, undamped (s). */
  contactTime: number;
  /** Time step: the contact time / 10 (s). */
  dt: number;
  /** The time unit √(d/g) (s). */
  unit: number;
  /** Sliding friction. */
  friction: number;
  /** Rolling friction. */
  rollingFriction: number;
  /** Restitution. */
  restitution: number;
  /** Softness ε. */
  softness: number;
  /** Polydispersity p. */
  polydispersity: number;
  /** Seed. */
  seed: number;
  /** The sphere3d material of these grains (pass it to `World.addGranularSystem`). */
  material: GrainMaterial;
}

/** The sphere3d material fields an experiment sets (the rest keep sphere3d's defaults). */
export interface GrainMaterial {
  /** Density (kg/m³). */
  density: number;
  /** Normal stiffness (N/m). */
  normalStiffness: number;
  /** Tangential stiffness (N/m): 2/7 of the normal one. */
  tangentialStiffness: number;
  /** Coefficient of restitution (sets the normal damping per contact). */
  restitution: number;
  /** Sliding friction. */
  friction: number;
  /** Rolling friction. */
  rollingFriction: number;
}

/** Grain defaults that an experiment may change. */
export type GrainDefaults = Partial<Record<keyof GrainOptions, number>>;

/**
 * Resolves and checks the grain options of an experiment.
 *
 * @param where the experiment's name, for error messages
 * @param o the user's options (already checked for unknown keys)
 * @param defaults the experiment's own defaults, over the global ones
 * @returns the grain model
 * @example
 * ```ts
 * import { resolveGrains } from "./common.ts";
 * import { expect } from "expect";
 * const g = resolveGrains("demo", { diameter: 0.01, softness: 1e-3 });
 * expect(g.kn).toBeCloseTo((g.mass * 9.81) / (1e-3 * 0.01), 9);
 * expect(g.dt).toBeCloseTo(g.contactTime / 10, 15);
 * expect(() => resolveGrains("demo", { restitution: 1.5 })).toThrow(RangeError);
 * ```
 */
export function resolveGrains(
  where: string,
  o: GrainOptions,
  defaults: GrainDefaults = {},
): GrainModel {
  o = objectOrEmpty<GrainOptions>(where, "options", o);
  defaults = objectOrEmpty<GrainDefaults>(where, "defaults", defaults);
  const pick = (k: keyof GrainOptions, dflt: number) => o[k] ?? defaults[k] ?? dflt;
  const d = positive(where, "diameter", pick("diameter", 0.01));
  const density = positive(where, "density", pick("density", 2500));
  const friction = nonNegative(where, "friction", pick("friction", 0.5));
  const rollingFriction = nonNegative(where, "rollingFriction", pick("rollingFriction", 0));
  const restitution = positive(where, "restitution", pick("restitution", 0.5));
  if (restitution > 1) {
    throw new RangeError(`${where}: restitution (${restitution}) must be in (0, 1]`);
  }
  const softness = positive(where, "softness", pick("softness", 1e-3));
  if (softness > 0.05) {
    throw new RangeError(`${where}: softness (${softness}) must be <= 0.05 (overlaps of 5 % d)`);
  }
  const p = nonNegative(where, "polydispersity", pick("polydispersity", 0.1));
  if (p > 0.3) throw new RangeError(`${where}: polydispersity (${p}) must be in [0, 0.3]`);
  const seed = finite(where, "seed", pick("seed", 1));
  const r = d / 2, mass = (density * Math.PI * d ** 3) / 6;
  const kn = (mass * G) / (softness * d);
  const mMin = mass * (1 - p) ** 3;
  const contactTime = Math.PI * Math.sqrt(mMin / (2 * kn));
  return {
    d,
    r,
    rMin: r * (1 - p),
    rMax: r * (1 + p),
    density,
    mass,
    kn,
    contactTime,
    dt: contactTime / 10,
    unit: Math.sqrt(d / G),
    friction,
    rollingFriction,
    restitution,
    softness,
    polydispersity: p,
    seed,
    material: {
      density,
      normalStiffness: kn,
      tangentialStiffness: (2 / 7) * kn,
      restitution,
      friction,
      rollingFriction,
    },
  };
}

/**
 * Checks an experiment's options object (unknown keys throw naming the nearest valid one)
 * and merges it over the preset of its `scale`.
 *
 * @param where the experiment's name
 * @param value the user's options (may be undefined)
 * @param keys the experiment's own keys (besides `scale` and {@link GRAIN_KEYS})
 * @param presets the options of each scale
 * @param grain whether the experiment takes the {@link GrainOptions} @default true
 * @returns the merged options and the scale
 * @example
 * ```ts
 * import { type ExperimentScale } from "@grainlab/grainlab/experiments";
 * import { experimentOptions } from "./common.ts";
 * import { expect } from "expect";
 * interface DemoOptions { scale?: ExperimentScale; n?: number }
 * const presets = { smoke: { n: 1 }, ci: { n: 2 }, full: { n: 3 } };
 * const given: DemoOptions = { scale: "full" };
 * const { options, scale } = experimentOptions("demo", given, ["n"], presets, false);
 * expect([scale, options.n]).toEqual(["full", 3]);
 * const bad = { m: 1 } as DemoOptions;
 * expect(() => experimentOptions("demo", bad, ["n"], presets, false)).toThrow(/did you mean "n"/);
 * ```
 */
export function experimentOptions<T extends { scale?: ExperimentScale }>(
  where: string,
  value: T | undefined,
  keys: readonly string[],
  presets: Record<ExperimentScale, Partial<T>>,
  grain = true,
): { options: T; scale: ExperimentScale } {
  const allowed = ["scale", ...keys, ...(grain ? GRAIN_KEYS : [])];
  const o = checkOptions<T>(where, "options", value, allowed);
  const scale = oneOf(where, "scale", o.scale ?? "ci", SCALES);
  const merged = { ...presets[scale] } as Record<string, unknown>;
  for (const [k, v] of Object.entries(o)) if (v !== undefined) merged[k] = v;
  return { options: merged as T, scale };
}

/**
 * Reads a list of numbers from options, checking each one.
 *
 * @param where the experiment's name
 * @param name the option's name
 * @param v the value
 * @param check a per-item check (e.g. `positive`) that throws with the item's name
 * @param minLength the fewest items allowed @default 1
 * @returns the numbers as a Float64Array
 * @example
 * ```ts
 * import { numberList } from "./common.ts";
 * import { expect } from "expect";
 * expect([...numberList("demo", "speeds", [1, 2], (w, n, x) => x as number)]).toEqual([1, 2]);
 * expect(() => numberList("demo", "speeds", [], (w, n, x) => x as number)).toThrow(/at least 1/);
 * ```
 */
export function numberList(
  where: string,
  name: string,
  v: unknown,
  check: (where: string, name: string, x: unknown) => number,
  minLength = 1,
): Float64Array {
  if (v === null || typeof v !== "object" || typeof (v as ArrayLike<unknown>).length !== "number") {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be an array of numbers`);
  }
  const a = v as ArrayLike<unknown>;
  if (a.length < minLength) {
    throw new RangeError(`${where}: ${name} has ${a.length} values; at least ${minLength} needed`);
  }
  sizeGuard(where, `${name} (${a.length} values)`, 8 * a.length);
  const out = new Float64Array(a.length);
  for (let i = 0; i < a.length; i++) out[i] = check(where, `${name}[${i}]`, a[i]);
  return out;
}

/** A free-surface profile: the highest grain top in each bin along one axis. */
export interface SurfaceProfile {
  /** Bin centres (m). */
  x: Float64Array;
  /** Highest top (centre + radius) in each bin (m); NaN for an empty bin. */
  top: Float64Array;
}

/**
 * The free surface of a pile: bins of width `binWidth` over `[lo, hi)` along the axis read
 * from `coords` (stride `stride`, offset `axis`), each holding the highest `height + radius`.
 *
 * @param coords positions, stride `stride`
 * @param stride 2 or 3
 * @param axis the horizontal axis read (0 = x)
 * @param up the vertical axis (1 in 2D, 2 in 3D)
 * @param radii the radius to add to each height (a bounding radius for star grains)
 * @param count number of grains
 * @param lo lower end of the binned range (m)
 * @param hi upper end (m)
 * @param binWidth bin width (m)
 * @param skip optional: grains to leave out (e.g. the fixed floor)
 * @returns bin centres and tops
 * @example
 * ```ts
 * import { surfaceProfile } from "./common.ts";
 * import { expect } from "expect";
 * const p = surfaceProfile([0.5, 1, 1.5, 3], 2, 0, 1, [0.5, 0.5], 2, 0, 2, 1);
 * expect([...p.top]).toEqual([1.5, 3.5]);
 * ```
 */
export function surfaceProfile(
  coords: ArrayLike<number>,
  stride: number,
  axis: number,
  up: number,
  radii: ArrayLike<number>,
  count: number,
  lo: number,
  hi: number,
  binWidth: number,
  skip?: (i: number) => boolean,
): SurfaceProfile {
  const w = "surfaceProfile";
  for (const [name, a] of [["coords", coords], ["radii", radii]] as const) {
    if (a === null || typeof a !== "object" || typeof a.length !== "number") {
      throw new TypeError(`${w}: ${name} (${String(a)}) must be an array of numbers`);
    }
  }
  integerIn(w, "stride", stride, 2, 3);
  integerIn(w, "axis", axis, 0, stride - 1);
  integerIn(w, "up", up, 0, stride - 1);
  integerIn(w, "count", count, 0, Math.min(Math.floor(coords.length / stride), radii.length));
  finite(w, "lo", lo);
  if (!(finite(w, "hi", hi) > lo)) throw new RangeError(`${w}: hi (${hi}) must be > lo (${lo})`);
  positive(w, "binWidth", binWidth);
  if (skip !== undefined && typeof skip !== "function") {
    throw new TypeError(`${w}: skip (${String(skip)}) must be a function`);
  }
  sizeGuard(
    w,
    `${(hi - lo) / binWidth} bins of ${binWidth} m`,
    16 * Math.ceil((hi - lo) / binWidth),
  );
  const nb = Math.max(1, Math.ceil((hi - lo) / binWidth));
  const x = new Float64Array(nb), top = new Float64Array(nb).fill(NaN);
  for (let b = 0; b < nb; b++) x[b] = lo + (b + 0.5) * binWidth;
  for (let i = 0; i < count; i++) {
    if (skip && skip(i)) continue;
    const b = Math.floor((coords[stride * i + axis] - lo) / binWidth);
    if (b < 0 || b >= nb) continue;
    const t = coords[stride * i + up] + radii[i];
    if (!(t <= top[b])) top[b] = t;
  }
  return { x, top };
}

/**
 * Evenly spaced values on a logarithmic scale from `a` to `b` inclusive.
 *
 * @example
 * ```ts
 * import { logspace } from "./common.ts";
 * import { expect } from "expect";
 * const v = logspace(0.01, 1, 3);
 * expect(v[1]).toBeCloseTo(0.1, 12);
 * ```
 */
export function logspace(a: number, b: number, n: number): Float64Array {
  positive("logspace", "a", a), positive("logspace", "b", b);
  integerIn("logspace", "n", n, 1, Number.MAX_SAFE_INTEGER);
  sizeGuard("logspace", `${n} values`, 8 * n);
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    out[i] = a * (b / a) ** (n === 1 ? 0 : i / (n - 1));
  }
  return out;
}

/** Contact columns of a {@link Snapshot}: the layout of the shared contact record. */
export interface ContactColumns {
  /** Number of contacts. */
  count: number;
  /** First grain (slot index). */
  i: Int32Array;
  /** Second grain, or −1 for a boundary. */
  j: Int32Array;
  /** Contact kind code (particle 0, ground 1, wall 2, …). */
  kind: Uint8Array;
  /** Boundary index for boundary contacts, else −1. */
  boundary: Int32Array;
  /** Contact points (m), stride = dimension. */
  point: Float64Array;
  /** Unit normals from j (or the boundary) towards i, stride = dimension. */
  normal: Float64Array;
  /** Overlaps (m). */
  overlap: Float64Array;
  /** Normal forces on i (N). */
  normalForce: Float64Array;
  /** Tangential forces on i (N), stride = dimension. */
  tangentialForce: Float64Array;
}

/**
 * A copy of a system's grains and last contacts: what the figures of
 * `@grainlab/grainlab/plot` (`particles2d`, `bed3d`, `forceNetwork`) read.
 */
export interface Snapshot {
  /** Number of grains. */
  count: number;
  /** 2 or 3. */
  dimension: 2 | 3;
  /** Centres (m), stride = dimension. */
  positions: Float64Array;
  /** Velocities (m/s), stride = dimension. */
  velocities: Float64Array;
  /** Radii (m); bounding radii for star grains. */
  radii: Float64Array;
  /** Orientation angles (rad), 2D only. */
  angles?: Float64Array;
  /** Body-frame outline of the star grains (x, y interleaved, m), when they are stars. */
  outline?: Float64Array;
  /** The contacts of the last step. */
  contacts: ContactColumns;
}

/** What {@link snapshot} copies from (a sphere3d or star2d system). */
export interface SnapshotSource {
  /** Number of grains. */
  readonly count: number;
  /** Centres. */
  readonly positions: Float64Array;
  /** Velocities. */
  readonly velocities: Float64Array;
  /** Radii. */
  readonly radii: Float64Array;
  /** Angles (2D). */
  readonly angles?: Float64Array;
  /** The last step's contacts. */
  readonly contacts: Readonly<ContactColumns>;
}

/**
 * Copies a system's grains and last contacts into plain typed arrays.
 *
 * @param system a sphere3d `GranularSystem` or a star2d system
 * @param dimension 3 for sphere3d, 2 for star2d
 * @param outline body-frame outline of star grains, for figures
 * @returns the snapshot
 * @example
 * ```ts
 * import { snapshot } from "./common.ts";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const g = new World().addGranularParticles({ positions: [[0, 0, 0.01]], radii: 0.01 });
 * const s = snapshot(g, 3);
 * expect([s.count, s.contacts.count, s.radii[0]]).toEqual([1, 0, 0.01]);
 * ```
 */
export function snapshot(
  system: SnapshotSource,
  dimension: 2 | 3,
  outline?: Float64Array,
): Snapshot {
  if (
    system === null || typeof system !== "object" || !(system.positions instanceof Float64Array) ||
    system.contacts === null || typeof system.contacts !== "object"
  ) {
    throw new TypeError(
      `snapshot: system (${String(system)}) must be a sphere3d or star2d granular system`,
    );
  }
  if (dimension !== 2 && dimension !== 3) {
    throw new RangeError(`snapshot: dimension (${String(dimension)}) must be 2 or 3`);
  }
  if (outline !== undefined && !(outline instanceof Float64Array)) {
    throw new TypeError(`snapshot: outline (${String(outline)}) must be a Float64Array`);
  }
  const c = system.contacts;
  return {
    count: system.count,
    dimension,
    positions: Float64Array.from(system.positions),
    velocities: Float64Array.from(system.velocities),
    radii: Float64Array.from(system.radii),
    ...(system.angles && dimension === 2 ? { angles: Float64Array.from(system.angles) } : {}),
    ...(outline ? { outline: Float64Array.from(outline) } : {}),
    contacts: {
      count: c.count,
      i: Int32Array.from(c.i),
      j: Int32Array.from(c.j),
      kind: Uint8Array.from(c.kind),
      boundary: Int32Array.from(c.boundary),
      point: Float64Array.from(c.point),
      normal: Float64Array.from(c.normal),
      overlap: Float64Array.from(c.overlap),
      normalForce: Float64Array.from(c.normalForce),
      tangentialForce: Float64Array.from(c.tangentialForce),
    },
  };
}
