/**
 * Physical parameters of the elastic bar benchmarks (spec §1) and their validation.
 *
 * @module
 */

import { options, positive, sizeGuard, workGuard } from "../math/validate.ts";

/**
 * Physical parameters of the bar benchmarks. Defaults are the Doyen–Ern–Piperno set:
 * L = 10 m, E = 900 Pa, ρ = 1 kg/m³, A = 1 m², h0 = 5 m, impact speed 10 m/s, g = 10 m/s².
 *
 * @example
 * ```ts
 * import { type BarParameters } from "@grainlab/grainlab/ipc1d";
 * import { resolveBarParameters } from "./params.ts";
 * import { expect } from "expect";
 * const p: BarParameters = resolveBarParameters({ length: 20 });
 * expect(p.length).toBe(20);
 * expect(p.youngsModulus).toBe(900);
 * ```
 */
export interface BarParameters {
  /** Bar length L (m). @default 10 */
  readonly length: number;
  /** Young's modulus E (Pa). @default 900 */
  readonly youngsModulus: number;
  /** Density ρ (kg/m³). @default 1 */
  readonly density: number;
  /** Cross-section A (m²). @default 1 */
  readonly area: number;
  /** Initial height h0 of the lower (contact) end above the ground (m). @default 5 */
  readonly height: number;
  /** Impact speed V of the "impact" problem (m/s, the bar moves down at −V). @default 10 */
  readonly impactSpeed: number;
  /** Gravity magnitude G of the "bounce" problem (m/s², acts downward). @default 10 */
  readonly gravity: number;
}

/** The default bar (spec §1). */
const DEFAULT_BAR: BarParameters = Object.freeze({
  length: 10,
  youngsModulus: 900,
  density: 1,
  area: 1,
  height: 5,
  impactSpeed: 10,
  gravity: 10,
});

/**
 * Fills in defaults and validates bar parameters (every value finite and > 0).
 *
 * @param bar partial parameters; missing fields take the spec §1 defaults
 * @param where name of the calling function, used in error messages
 * @returns a frozen, complete parameter set
 * @throws {RangeError} when a value is not finite or not > 0
 * @example
 * ```ts
 * import { resolveBarParameters } from "./params.ts";
 * import { expect } from "expect";
 * expect(resolveBarParameters().length).toBe(10);
 * expect(() => resolveBarParameters({ density: -1 })).toThrow(RangeError);
 * ```
 */
export function resolveBarParameters(
  bar?: Partial<BarParameters>,
  where = "resolveBarParameters",
): BarParameters {
  const b = options<Partial<BarParameters>>(where, "bar", bar, BAR_KEYS);
  const out: BarParameters = {
    length: positive(where, "bar.length", b.length ?? DEFAULT_BAR.length),
    youngsModulus: positive(
      where,
      "bar.youngsModulus",
      b.youngsModulus ?? DEFAULT_BAR.youngsModulus,
    ),
    density: positive(where, "bar.density", b.density ?? DEFAULT_BAR.density),
    area: positive(where, "bar.area", b.area ?? DEFAULT_BAR.area),
    height: positive(where, "bar.height", b.height ?? DEFAULT_BAR.height),
    impactSpeed: positive(where, "bar.impactSpeed", b.impactSpeed ?? DEFAULT_BAR.impactSpeed),
    gravity: positive(where, "bar.gravity", b.gravity ?? DEFAULT_BAR.gravity),
  };
  return Object.freeze(out);
}

/** The two benchmark problems: single impact without gravity, periodic bouncing under gravity. */
export type BarProblem = "impact" | "bounce";

/** Keys of {@link BarParameters} (unknown keys are rejected). */
const BAR_KEYS: readonly string[] = Object.keys(DEFAULT_BAR);

/**
 * Throw before a bar run that could not finish: its per-step columns (`bytesPerStep` bytes
 * per sample, `steps + 1` samples) and nodal arrays would need more memory than a run may
 * allocate, or its time steps × nodes exceed 1e11 node updates (hours of computing). The
 * message states the number of steps, the memory or the work. Internal.
 */
export function guardBarRun(
  where: string,
  elements: number,
  steps: number,
  bytesPerStep = 9 * 8 + 2,
): void {
  const what = `a run of ${
    steps < 1e10 ? steps : steps.toExponential(2)
  } time steps on ${elements} elements`;
  sizeGuard(where, what, (steps + 1) * bytesPerStep + (elements + 1) * 24 * 8);
  workGuard(where, what, steps * (elements + 1));
}
