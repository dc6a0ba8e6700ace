/**
 * The options of the implicit bar integrator ({@link ImplicitIntegrationOptions},
 * {@link IntegratorOptions}) and their validation into the settings of a run (unknown keys,
 * sizes, the run's memory and work, defaults resolved once).
 *
 * @module
 */

import type { EndContactPotential } from "./barrier.ts";
import {
  type BarParameters,
  type BarProblem,
  guardBarRun,
  resolveBarParameters,
} from "./params.ts";
import { oneOf, options as checkOptions, positive, positiveInteger } from "../math/validate.ts";

/**
 * Implicit time integrator: Newmark (β, γ) (default β = ¼, γ = ½, the trapezoidal rule,
 * energy-exact for linear forces) or implicit Euler (dissipative).
 *
 * @example
 * ```ts
 * import type { IntegratorOptions } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const i: IntegratorOptions = { kind: "newmark", beta: 0.3025, gamma: 0.6 };
 * expect(i.kind).toBe("newmark");
 * ```
 */
export type IntegratorOptions =
  | {
    /** Newmark family. */
    kind: "newmark";
    /** β (–), > 0. @default 0.25 */
    beta?: number;
    /** γ (–), > 0. @default 0.5 */
    gamma?: number;
  }
  | {
    /** Backward (implicit) Euler. */
    kind: "implicit-euler";
  };

/**
 * Options of {@link integrateImplicit}.
 *
 * @example
 * ```ts
 * import type { ImplicitIntegrationOptions } from "./newmark_options.ts";
 * import { expect } from "expect";
 * const o: ImplicitIntegrationOptions = { elements: 50, timeStep: 1e-3, steps: 10 };
 * expect(o.steps).toBe(10);
 * ```
 */
export interface ImplicitIntegrationOptions {
  /** Benchmark setting the initial data: "impact" (v = −V, no gravity) or "bounce" (rest, gravity). @default "impact" */
  problem?: BarProblem;
  /** Number of elements N. */
  elements: number;
  /** Time step h (s). */
  timeStep: number;
  /** Number of steps. */
  steps: number;
  /** Physical parameters (spec §1 defaults). */
  bar?: Partial<BarParameters>;
  /** Mass matrix. @default "consistent" */
  mass?: "consistent" | "lumped";
  /** Contact energy of the end node; `null` for no contact. @default null */
  potential?: EndContactPotential | null;
  /** Integrator. @default { kind: "newmark" } */
  integrator?: IntegratorOptions;
  /** Newton stops when ‖p‖∞/h < tolerance (m/s). @default 1e-9 */
  tolerance?: number;
  /** Newton iteration cap per step. @default 100 */
  maxIterations?: number;
}

/**
 * The function the messages of an implicit run name.
 *
 * @internal
 */
export const WHERE = "integrateImplicit";

const IMPLICIT_KEYS: readonly string[] = [
  "problem",
  "elements",
  "timeStep",
  "steps",
  "bar",
  "mass",
  "potential",
  "integrator",
  "tolerance",
  "maxIterations",
];

/**
 * Validated settings of an implicit run.
 *
 * @internal
 */
export interface ImplicitSettings {
  /** Number of elements N. */
  readonly N: number;
  /** Time step h (s). */
  readonly h: number;
  /** Number of steps. */
  readonly steps: number;
  /** Mass matrix kind. */
  readonly massKind: "consistent" | "lumped";
  /** Newton stops when ‖p‖∞ < tolP = tolerance·h (m). */
  readonly tolP: number;
  /** Newton iteration cap per step. */
  readonly maxIt: number;
  /** Newmark β and γ (1, 1 for implicit Euler). */
  readonly beta: number;
  readonly gamma: number;
  /** Implicit Euler instead of Newmark. */
  readonly euler: boolean;
  /** Contact potential of the end node, or null. */
  readonly pot: EndContactPotential | null;
  /** The potential is collision-filtered (a barrier). */
  readonly filtered: boolean;
  /** The potential is zero at and above this end position (m). */
  readonly activeBelow: number;
  /** Physical parameters. */
  readonly bar: BarParameters;
  /** Gravity (m/s²), 0 for the impact. */
  readonly G: number;
  /** Initial velocity (m/s). */
  readonly v0: number;
}

/**
 * Validate the options (unknown keys, sizes, the run's memory and work) and resolve defaults.
 *
 * @internal
 */
export function resolveImplicitSettings(options: ImplicitIntegrationOptions): ImplicitSettings {
  const where = WHERE;
  const o = checkOptions<ImplicitIntegrationOptions>(where, "options", options, IMPLICIT_KEYS);
  const problem = oneOf(where, "problem", o.problem ?? "impact", ["impact", "bounce"] as const);
  const N = positiveInteger(where, "elements", o.elements);
  const h = positive(where, "timeStep", o.timeStep);
  const steps = positiveInteger(where, "steps", o.steps);
  const massKind = oneOf(where, "mass", o.mass ?? "consistent", ["consistent", "lumped"] as const);
  const tol = positive(where, "tolerance", o.tolerance ?? 1e-9);
  const maxIt = positiveInteger(where, "maxIterations", o.maxIterations ?? 100);
  if (maxIt > 65535) throw new RangeError(`${where}: maxIterations (${maxIt}) must be <= 65535`);
  const integ = checkOptions<IntegratorOptions>(
    where,
    "integrator",
    o.integrator === undefined ? { kind: "newmark" } : o.integrator,
    ["kind", "beta", "gamma"],
  );
  const kind = oneOf(where, "integrator.kind", integ.kind, ["newmark", "implicit-euler"] as const);
  checkOptions(
    where,
    "integrator",
    integ,
    kind === "newmark" ? ["kind", "beta", "gamma"] : ["kind"],
  );
  let beta = 1;
  let gamma = 1;
  if (integ.kind === "newmark") {
    beta = positive(where, "integrator.beta", integ.beta ?? 0.25);
    gamma = positive(where, "integrator.gamma", integ.gamma ?? 0.5);
  }
  const pot = o.potential ?? null;
  const bar = resolveBarParameters(o.bar, where);
  guardBarRun(where, N, steps);
  return {
    N,
    h,
    steps,
    massKind,
    tolP: tol * h,
    maxIt,
    beta,
    gamma,
    euler: kind === "implicit-euler",
    pot,
    filtered: pot !== null && pot.filtered,
    activeBelow: pot ? pot.activeBelow : -Infinity,
    bar,
    G: problem === "bounce" ? bar.gravity : 0,
    v0: problem === "impact" ? -bar.impactSpeed : 0,
  };
}
