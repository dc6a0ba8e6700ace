/**
 * Structural ("duck") types of the simulator objects the Arrow and plot layers read. They
 * match sphere3d's and star2d's `GranularSystem` without importing them.
 *
 * @module
 */

import { options as checkOptions } from "../math/validate.ts";

/** Force network of the last step (slot indices; `j` is −1 for boundary contacts). */
export interface ContactsLike {
  /** Number of contacts. */
  readonly count: number;
  /** First particle slot. */
  readonly i: ArrayLike<number>;
  /** Second particle slot, −1 for a boundary. */
  readonly j: ArrayLike<number>;
  /** Kind code (`ContactKind`): 0 particle, 1 ground, 2 wall, 3 body, 4 mesh, 5 heightMap. */
  readonly kind: ArrayLike<number>;
  /** Boundary index (plane, wall, body), −1 for particle contacts. */
  readonly boundary?: ArrayLike<number>;
  /** Contact point, stride = dimension. */
  readonly point: ArrayLike<number>;
  /** Unit normal from j (or the boundary) towards i, stride = dimension. */
  readonly normal: ArrayLike<number>;
  /** Overlap (m). */
  readonly overlap: ArrayLike<number>;
  /** Normal force magnitude (N). */
  readonly normalForce: ArrayLike<number>;
  /** Tangential force on i, stride = dimension (N). */
  readonly tangentialForce: ArrayLike<number>;
}

/** A particle system of sphere3d (stride 3) or star2d (stride 2). */
export interface ParticleSystemLike {
  /** Number of live particles. */
  readonly count: number;
  /** Centres, interleaved with stride 2 or 3 (m). */
  readonly positions: ArrayLike<number>;
  /** Velocities, same stride (m/s). */
  readonly velocities: ArrayLike<number>;
  /** Radii (m); for star grains the bounding radius. */
  readonly radii?: ArrayLike<number>;
  /** Masses (kg). */
  readonly masses?: ArrayLike<number>;
  /** Material index per particle. */
  readonly materialIds?: ArrayLike<number>;
  /** 1 where the particle is fixed. */
  readonly fixed?: ArrayLike<number>;
  /** Stable particle ids. */
  readonly ids?: ArrayLike<number>;
  /** Angular velocities: stride 3 in 3D, one scalar per particle in 2D (rad/s). */
  readonly angularVelocities?: ArrayLike<number>;
  /** Orientation angles (rad), 2D star grains only. */
  readonly angles?: ArrayLike<number>;
  /** Spatial dimension, when the system states it. */
  readonly dimension?: number;
  /** Resolved material fields. */
  readonly material?: unknown;
  /** Counters of the last step (an object of numbers). */
  readonly lastStepStats?: object;
  /** Force network of the last step. */
  readonly contacts?: ContactsLike;
  /** Simulated time (s), for systems that keep their own clock (star2d). */
  readonly time?: number;
  /** Steps taken, for systems that count them. */
  readonly stepCount?: number;
  /** The owning world, if the system links back to it. */
  readonly world?: { readonly time?: number; readonly stepCount?: number };
}

/** Snapshot time and step, read from a world-like object or given directly. */
export interface SnapshotOptions {
  /** A world (anything with `time` and `stepCount`) to stamp time and step from. */
  world?: { readonly time?: number; readonly stepCount?: number };
  /** Simulated time (s). @default world.time, system.world.time or absent */
  time?: number;
  /** Step number. @default world.stepCount, system.world.stepCount or absent */
  step?: number;
  /** Simulator label for the schema metadata. @default "sphere3d" in 3D, "star2d" in 2D */
  simulator?: string;
}

/**
 * Dimension (2 or 3) of a particle system: its `dimension` field, else 2 when it has
 * per-particle `angles`, else 3.
 *
 * @param system the system
 * @returns 2 or 3
 * @example
 * ```ts
 * import { dimensionOf } from "./types.ts";
 * import { expect } from "expect";
 * expect(dimensionOf({ count: 1, positions: [0, 0], velocities: [0, 0], angles: [0] })).toBe(2);
 * expect(dimensionOf({ count: 1, positions: [0, 0, 0], velocities: [0, 0, 0] })).toBe(3);
 * ```
 */
export function dimensionOf(system: ParticleSystemLike): 2 | 3 {
  if (system.dimension === 2 || system.dimension === 3) return system.dimension;
  if (system.angles !== undefined) return 2;
  return 3;
}

/**
 * Validates a particle system's shape for reading: count and array lengths.
 *
 * @param where calling function's name
 * @param system the object to check
 * @returns the dimension, 2 or 3
 * @throws {TypeError} when `system` is not an object with `count`, `positions`, `velocities`
 * @throws {RangeError} when arrays are shorter than `count × dimension`
 * @example
 * ```ts
 * import { checkSystem } from "./types.ts";
 * import { expect } from "expect";
 * expect(checkSystem("demo", { count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] })).toBe(3);
 * expect(() => checkSystem("demo", { count: 2, positions: [0, 0, 1], velocities: [0, 0, 0] }))
 *   .toThrow("demo: system.positions has 3 values, need count × 3 = 6");
 * ```
 */
export function checkSystem(where: string, system: ParticleSystemLike): 2 | 3 {
  if (typeof system !== "object" || system === null) {
    throw new TypeError(`${where}: system is ${String(system)}, must be a particle system object`);
  }
  const n = system.count;
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`${where}: system.count is ${n}, must be a non-negative integer`);
  }
  if (!system.positions || !system.velocities) {
    throw new TypeError(`${where}: system must have positions and velocities arrays`);
  }
  const d = dimensionOf(system);
  for (const key of ["positions", "velocities"] as const) {
    if (system[key].length < n * d) {
      throw new RangeError(
        `${where}: system.${key} has ${system[key].length} values, need count × ${d} = ${n * d}`,
      );
    }
  }
  return d;
}

/**
 * Time and step stamped on a snapshot: explicit options, then the world, then the system's
 * own clock or its `lastStepStats`.
 */
export function snapshotStamp(
  system: ParticleSystemLike | undefined,
  options: SnapshotOptions,
): { time?: number; step?: number } {
  const w = options.world ?? system?.world;
  const num = (...v: unknown[]) => v.find((x): x is number => typeof x === "number");
  return {
    time: num(options.time, w?.time, system?.time, statsField(system, "time")),
    step: num(options.step, w?.stepCount, system?.stepCount, statsField(system, "step")),
  };
}

/**
 * Checks the options of a snapshot table (`particlesTable`, `contactsTable`): an object whose
 * keys are {@link SnapshotOptions}' (and `extra`), with `time` a number, `step` a non-negative
 * integer, `simulator` a non-empty string and `world` an object. Internal.
 *
 * @param where the caller, for messages
 * @param options what the caller passed (`undefined` gives `{}`)
 * @param extra the caller's other keys
 * @returns the options, typed
 * @throws {TypeError} when `options` is not an object or a value has the wrong type
 * @throws {RangeError} on an unknown key (naming the nearest valid one) or a bad `step`
 * @example
 * ```ts
 * import { snapshotOptions } from "./types.ts";
 * import { expect } from "expect";
 * expect(snapshotOptions("demo", { time: 1 })).toEqual({ time: 1 });
 * expect(snapshotOptions("demo", undefined)).toEqual({});
 * expect(() => snapshotOptions("demo", { tme: 1 })).toThrow(/did you mean "time"\?/);
 * expect(() => snapshotOptions("demo", { step: 1.5 })).toThrow(RangeError);
 * ```
 */
export function snapshotOptions<T extends SnapshotOptions>(
  where: string,
  options: unknown,
  extra: readonly string[] = [],
): T {
  const o = checkOptions<T>(where, "options", options, [
    "world",
    "time",
    "step",
    "simulator",
    ...extra,
  ]);
  if (o.time !== undefined && typeof o.time !== "number") {
    throw new TypeError(`${where}: options.time (${String(o.time)}) must be a number`);
  }
  if (o.step !== undefined && !(Number.isInteger(o.step) && o.step >= 0)) {
    throw new RangeError(`${where}: options.step (${String(o.step)}) must be an integer >= 0`);
  }
  if (o.simulator !== undefined && (typeof o.simulator !== "string" || o.simulator === "")) {
    throw new TypeError(
      `${where}: options.simulator (${String(o.simulator)}) must be a non-empty string`,
    );
  }
  if (o.world !== undefined && (o.world === null || typeof o.world !== "object")) {
    throw new TypeError(`${where}: options.world (${String(o.world)}) must be a world object`);
  }
  return o;
}

/** A field of `lastStepStats`, when present. */
function statsField(system: ParticleSystemLike | undefined, key: string): unknown {
  const st = system?.lastStepStats as Record<string, unknown> | undefined;
  return st?.[key];
}
