/**
 * The notebook entry point: {@link simulateBar} runs one benchmark with one contact model
 * and integrator and returns plot-ready columns plus the spec §7.2 metrics against the exact
 * solution. Runs that create energy (the stiff-barrier / stiff-penalty blow-up of spec §6)
 * are flagged with a message.
 *
 * @module
 */

import { type AnalyticBarSolution, analyticSolution } from "./analytic.ts";
import { ipcPotential, resolutionRatio } from "./barrier.ts";
import {
  type BarMetrics,
  barMetrics,
  type ContactIntervalList,
  contactIntervals,
} from "./metrics.ts";
import { type BarTrajectory, integrateImplicit, type IntegratorOptions } from "./newmark.ts";
import {
  type BarParameters,
  type BarProblem,
  guardBarRun,
  resolveBarParameters,
} from "./params.ts";
import { demSteps, integrateDem, penaltyPotential } from "./penalty.ts";
import {
  finite,
  nonNegative,
  oneOf,
  options as checkOptions,
  positive,
  positiveInteger,
} from "../math/validate.ts";

/**
 * Contact model of the bar end against the ground.
 *
 * - `ipc`: barrier B = κ·A·b(d) (physical form, κ in Pa) or κ·b₂₀₂₀(d) ("2020", κ in N/m);
 *   implicit, collision-filtered, never penetrates.
 * - `penalty`: ½·k_p·A·min(y0, 0)², implicit in the same Newmark potential, no filter.
 * - `dem`: explicit spring–dashpot A·max(0, k_n δ + c_n δ̇), velocity Verlet, lumped mass.
 * - `none`: no contact (the bar passes through the ground).
 *
 * @example
 * ```ts
 * import type { ContactOptions } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const c: ContactOptions[] = [
 *   { kind: "ipc", dHat: "dx", kappa: 90 },
 *   { kind: "penalty", stiffness: 1e4 },
 *   { kind: "dem", stiffness: 1e5, damping: 0.3 },
 * ];
 * expect(c).toHaveLength(3);
 * ```
 */
export type ContactOptions =
  | {
    /** Incremental Potential Contact barrier. */
    kind: "ipc";
    /** Activation distance d̂ (m), or "dx" for d̂ = Δx (the resolved path). @default "dx" */
    dHat?: number | "dx";
    /** Barrier stiffness κ (Pa; N/m for the "2020" form), ≥ 0. @default 0.1·E */
    kappa?: number;
    /** Barrier form. @default "physical" */
    barrier?: "physical" | "2020";
  }
  | {
    /** Implicit quadratic penalty. */
    kind: "penalty";
    /** Penalty stiffness k_p (Pa/m), ≥ 0. @default 1e4 */
    stiffness?: number;
  }
  | {
    /** Explicit spring–dashpot (DEM-like). */
    kind: "dem";
    /** Normal stiffness k_n (Pa/m), > 0. @default 1e5 */
    stiffness?: number;
    /** Damping ratio ζ (–), ≥ 0. @default 0 */
    damping?: number;
    /** Explicit step factor C_r (–), > 0. @default 0.2 */
    timeStepFactor?: number;
  }
  | {
    /** No contact. */
    kind: "none";
  };

/**
 * Options of {@link simulateBar}. Defaults are the spec's resolved path: consistent mass,
 * IPC with d̂ = Δx and κ = 0.1E, trapezoidal Newmark, Courant 0.5.
 *
 * @example
 * ```ts
 * import type { SimulateBarOptions } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const o: SimulateBarOptions = { problem: "bounce", elements: 100, tEnd: 16 };
 * expect(o.elements).toBe(100);
 * ```
 */
export interface SimulateBarOptions {
  /** Benchmark. @default "impact" */
  problem?: BarProblem;
  /** Number of elements N (Δx = L/N). @default 100 */
  elements?: number;
  /** Contact model. @default { kind: "ipc", dHat: "dx", kappa: 0.1·E } */
  contact?: ContactOptions;
  /** Implicit integrator (ignored by `dem`). @default { kind: "newmark", beta: 0.25, gamma: 0.5 } */
  integrator?: IntegratorOptions;
  /** Mass matrix; `dem` requires "lumped". @default "consistent" ("lumped" for dem) */
  mass?: "consistent" | "lumped";
  /** Courant number h·c/Δx of implicit runs (ignored by `dem`). @default 0.5 */
  courant?: number;
  /** Horizon (s). @default 2 for impact, 16 for bounce */
  tEnd?: number;
  /** Physical parameters (spec §1 defaults). */
  bar?: Partial<BarParameters>;
  /** Newton settings of implicit runs. */
  newton?: {
    /** Stop when ‖p‖∞/h < tolerance (m/s). @default 1e-9 */
    tolerance?: number;
    /** Iteration cap per step. @default 100 */
    maxIterations?: number;
  };
  /** Relative energy gain (𝓔 − 𝓔_ex)/𝓔_ex above which the run is flagged as blown up. @default 0.05 */
  energyGrowthThreshold?: number;
}

/**
 * Result of {@link simulateBar}: the trajectory columns (all `Float64Array`, index n ↔ tₙ),
 * the exact reference sampled on the same grid, metrics and diagnostics.
 *
 * @example
 * ```ts
 * import { simulateBar, type BarRun } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const run: BarRun = simulateBar({ elements: 20 });
 * expect(run.time.length).toBe(run.exactEndPosition.length);
 * expect(run.energyBlowUp).toBe(false);
 * ```
 */
export interface BarRun extends BarTrajectory {
  /** Benchmark. */
  readonly problem: BarProblem;
  /** Short description of the configuration, e.g. "IPC d̂=0.1 κ=90 newmark". */
  readonly label: string;
  /** Number of elements N. */
  readonly elements: number;
  /** Element size Δx (m). */
  readonly dx: number;
  /** Exact end position on the step grid (m). */
  readonly exactEndPosition: Float64Array;
  /** Exact contact force on the step grid (N). */
  readonly exactContactForce: Float64Array;
  /** Exact total energy (J). */
  readonly exactEnergy: number;
  /** Spec §7.2 error measures. */
  readonly metrics: BarMetrics;
  /** Contact intervals (F > 1 % of ρcVA). */
  readonly intervals: ContactIntervalList;
  /** Mean Newton iterations (linear solves) per step; 0 for `dem`. */
  readonly newtonPerStep: number;
  /** Spec §6 resolution ratio R of an IPC run (physical form), `null` otherwise. */
  readonly resolutionRatio: number | null;
  /** True when the energy grew beyond `energyGrowthThreshold`. */
  readonly energyBlowUp: boolean;
  /** Human-readable diagnostics (energy blow-up, unconverged Newton steps). */
  readonly warnings: string[];
}

/**
 * Runs one elastic-bar benchmark.
 *
 * @param options problem, mesh, contact model, integrator, step, horizon
 * @returns plot-ready columns, metrics against the exact solution and diagnostics
 * @throws {RangeError} for non-positive sizes, d̂ ≤ 0, κ < 0, Courant ≤ 0, NaN values
 * @throws {TypeError} for unknown problem, contact, integrator or mass kinds
 * @example
 * ```ts
 * import { simulateBar } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const run = simulateBar({
 *   problem: "impact", elements: 100,
 *   contact: { kind: "ipc", dHat: "dx", kappa: 0.1 * 900 },
 *   integrator: { kind: "newmark" }, courant: 0.5,
 * });
 * expect(run.metrics.minGap).toBeGreaterThan(0);
 * expect(run.metrics.contactCyclesFirst).toBe(1);
 * expect(run.metrics.meanVelocityAfter).toBeCloseTo(10, 1);
 * ```
 */
export function simulateBar(options?: SimulateBarOptions): BarRun {
  const where = "simulateBar";
  const o = checkOptions<SimulateBarOptions>(where, "options", options, SIMULATE_BAR_KEYS);
  const problem = oneOf(where, "problem", o.problem ?? "impact", ["impact", "bounce"] as const);
  const N = positiveInteger(where, "elements", o.elements ?? 100);
  const bar = resolveBarParameters(o.bar, where);
  const tEnd = positive(where, "tEnd", o.tEnd ?? (problem === "impact" ? 2 : 16));
  const courant = positive(where, "courant", o.courant ?? 0.5);
  const threshold = positive(where, "energyGrowthThreshold", o.energyGrowthThreshold ?? 0.05);
  const contact = checkOptions<ContactOptions>(
    where,
    "contact",
    o.contact === undefined ? { kind: "ipc" } : o.contact,
    CONTACT_KEYS.all,
  );
  checkOptions(
    where,
    "contact",
    contact,
    CONTACT_KEYS[oneOf(where, "contact.kind", contact.kind, CONTACT_KINDS)],
  );
  const newton = checkOptions<NonNullable<SimulateBarOptions["newton"]>>(
    where,
    "newton",
    o.newton,
    NEWTON_KEYS,
  );
  const solution: AnalyticBarSolution = analyticSolution(problem, bar);
  const dx = bar.length / N;
  const c = solution.constants.waveSpeed;
  let label: string;
  let ratio: number | null = null;
  let traj: BarTrajectory;
  const integrator = checkOptions<IntegratorOptions>(
    where,
    "integrator",
    o.integrator === undefined ? { kind: "newmark" } : o.integrator,
    INTEGRATOR_KEYS.all,
  );
  checkOptions(
    where,
    "integrator",
    integrator,
    INTEGRATOR_KEYS[oneOf(where, "integrator.kind", integrator.kind, INTEGRATOR_KINDS)],
  );
  const integLabel = integrator.kind === "newmark"
    ? (integrator.beta ?? 0.25) === 0.25 && (integrator.gamma ?? 0.5) === 0.5
      ? "newmark"
      : `newmark β=${integrator.beta ?? 0.25} γ=${integrator.gamma ?? 0.5}`
    : "implicit Euler";

  if (contact.kind === "dem") {
    const mass = o.mass ?? "lumped";
    if (mass !== "lumped") {
      throw new RangeError(
        `${where}: mass (${JSON.stringify(mass)}) must be "lumped" for contact.kind "dem"`,
      );
    }
    const kn = positive(where, "contact.stiffness", contact.stiffness ?? 1e5);
    const zeta = nonNegative(where, "contact.damping", contact.damping ?? 0);
    const cr = positive(where, "contact.timeStepFactor", contact.timeStepFactor ?? 0.2);
    guardBarRun(where, N, demSteps(N, bar, kn, cr, tEnd), RUN_BYTES_PER_STEP);
    traj = integrateDem({
      problem,
      elements: N,
      tEnd,
      stiffness: kn,
      damping: zeta,
      timeStepFactor: cr,
      bar,
    });
    label = `DEM k_n=${fmt(kn)} ζ=${zeta}`;
  } else {
    const mass = oneOf(where, "mass", o.mass ?? "consistent", ["consistent", "lumped"] as const);
    const hMax = (courant * dx) / c;
    const steps = Math.ceil(tEnd / hMax - 1e-9);
    guardBarRun(where, N, steps, RUN_BYTES_PER_STEP);
    let potential = null;
    if (contact.kind === "ipc") {
      const dHatIn = contact.dHat ?? "dx";
      let dHat: number;
      if (dHatIn === "dx") dHat = dx;
      else if (typeof dHatIn === "number") dHat = positive(where, "contact.dHat", dHatIn);
      else {
        throw new TypeError(
          `${where}: contact.dHat (${JSON.stringify(dHatIn)}) must be a number (m) or "dx"`,
        );
      }
      const kappa = nonNegative(where, "contact.kappa", contact.kappa ?? 0.1 * bar.youngsModulus);
      const form = oneOf(
        where,
        "contact.barrier",
        contact.barrier ?? "physical",
        [
          "physical",
          "2020",
        ] as const,
      );
      potential = ipcPotential({ kappa, dHat, area: bar.area, form });
      const kPhys = form === "physical" ? kappa : (kappa * dHat) / bar.area;
      if (kPhys > 0) {
        ratio = resolutionRatio({
          kappa: kPhys,
          dHat,
          dx,
          youngsModulus: bar.youngsModulus,
          pressure: solution.constants.impedance * solution.constants.impactSpeed / bar.area,
        });
      }
      label = `IPC d̂=${fmt(dHat)} κ=${fmt(kappa)}${form === "2020" ? " (2020)" : ""} ${integLabel}`;
    } else if (contact.kind === "penalty") {
      const kp = nonNegative(where, "contact.stiffness", contact.stiffness ?? 1e4);
      potential = penaltyPotential({ stiffness: kp, area: bar.area });
      label = `penalty k_p=${fmt(kp)} ${integLabel}`;
    } else {
      label = `no contact ${integLabel}`;
    }
    traj = integrateImplicit({
      problem,
      elements: N,
      timeStep: tEnd / steps,
      steps,
      bar,
      mass,
      potential,
      integrator,
      tolerance: positive(where, "newton.tolerance", newton.tolerance ?? 1e-9),
      maxIterations: positiveInteger(where, "newton.maxIterations", newton.maxIterations ?? 100),
    });
    if (mass === "lumped") label += " lumped";
  }

  const n = traj.time.length;
  const exactEndPosition = new Float64Array(n);
  const exactContactForce = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    exactEndPosition[i] = solution.endPosition(traj.time[i]);
    exactContactForce[i] = solution.contactForce(traj.time[i]);
  }
  const metrics = barMetrics(traj, solution);
  const intervals = contactIntervals(traj, {
    threshold: 0.01 * solution.constants.impedance * solution.constants.impactSpeed,
  });
  const warnings: string[] = [];
  const energyBlowUp = metrics.maxEnergyGain > threshold;
  if (energyBlowUp) {
    warnings.push(
      `energy blow-up: the total energy grew to ${
        (1 + metrics.maxEnergyGain).toFixed(2)
      }× its exact value (gain ${(100 * metrics.maxEnergyGain).toFixed(1)} % > ${
        100 * threshold
      } %), with ${metrics.contactCyclesFirst} contact cycles in the first impact. ` +
        (ratio !== null
          ? `The barrier layer is under-resolved (resolution ratio R = ${ratio.toFixed(1)}; ` +
            `spec §6: R ≲ 3 is clean): use d̂ ≈ Δx, a smaller κ, or a dissipative integrator.`
          : `The contact is too stiff for the mesh and step: lower the stiffness, ` +
            `add damping or reduce the step.`),
    );
  }
  if (traj.unconvergedSteps > 0) {
    warnings.push(
      `${traj.unconvergedSteps} Newton step(s) did not reach the tolerance within the iteration cap`,
    );
  }
  let its = 0;
  for (let i = 0; i < traj.newtonIterations.length; i++) its += traj.newtonIterations[i];
  const newtonPerStep = traj.newtonIterations.length > 0 ? its / traj.newtonIterations.length : 0;
  return {
    ...traj,
    problem,
    label,
    elements: N,
    dx,
    exactEndPosition,
    exactContactForce,
    exactEnergy: solution.constants.totalEnergy,
    metrics,
    intervals,
    newtonPerStep,
    resolutionRatio: ratio,
    energyBlowUp,
    warnings,
  };
}

/** Keys of {@link SimulateBarOptions} (unknown keys are rejected). */
export const SIMULATE_BAR_KEYS: readonly string[] = [
  "problem",
  "elements",
  "contact",
  "integrator",
  "mass",
  "courant",
  "tEnd",
  "bar",
  "newton",
  "energyGrowthThreshold",
];

const CONTACT_KINDS = ["ipc", "penalty", "dem", "none"] as const;

/** Keys of each contact kind, and of all kinds (checked first, so that a typo is named). */
const CONTACT_KEYS: Readonly<Record<(typeof CONTACT_KINDS)[number] | "all", readonly string[]>> = {
  ipc: ["kind", "dHat", "kappa", "barrier"],
  penalty: ["kind", "stiffness"],
  dem: ["kind", "stiffness", "damping", "timeStepFactor"],
  none: ["kind"],
  all: ["kind", "dHat", "kappa", "barrier", "stiffness", "damping", "timeStepFactor"],
};

const INTEGRATOR_KINDS = ["newmark", "implicit-euler"] as const;

/** Keys of each integrator kind, and of all kinds. */
const INTEGRATOR_KEYS: Readonly<
  Record<(typeof INTEGRATOR_KINDS)[number] | "all", readonly string[]>
> = {
  newmark: ["kind", "beta", "gamma"],
  "implicit-euler": ["kind"],
  all: ["kind", "beta", "gamma"],
};

const NEWTON_KEYS: readonly string[] = ["tolerance", "maxIterations"];

/** Bytes per time step of a run: the 9 trajectory columns, 2 exact ones, Newton counts. */
const RUN_BYTES_PER_STEP = 11 * 8 + 2;

/** Compact number formatting for labels. */
function fmt(x: number): string {
  finite("simulateBar", "value", x);
  if (x !== 0 && (Math.abs(x) >= 1e4 || Math.abs(x) < 1e-2)) {
    return x.toExponential(0).replace("e+", "e");
  }
  return String(Number(x.toPrecision(4)));
}
