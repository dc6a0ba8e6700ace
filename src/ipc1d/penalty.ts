/**
 * Penalty contact for the same bar (spec §8): an implicit quadratic penalty used inside the
 * Newmark incremental potential (no collision filter), and an explicit DEM-like
 * spring–dashpot integrated with velocity Verlet on the lumped mass. Both act only when the
 * end penetrates (δ = −y0 > 0), so both penetrate; stiff ones chatter, dashpots dissipate.
 *
 * @module
 */

import { normalForce } from "../contact/law3d_gen.ts";
import type { EndContactPotential } from "./barrier.ts";
import { barMatrices, elasticEnergy } from "./fem.ts";
import { type BarTrajectory, energyColumns } from "./newmark.ts";
import {
  type BarParameters,
  type BarProblem,
  guardBarRun,
  resolveBarParameters,
} from "./params.ts";
import {
  nonNegative,
  oneOf,
  options as checkOptions,
  positive,
  positiveInteger,
} from "../math/validate.ts";

/**
 * Options of {@link penaltyPotential}.
 *
 * @example
 * ```ts
 * import type { PenaltyPotentialOptions } from "./penalty.ts";
 * import { expect } from "expect";
 * const o: PenaltyPotentialOptions = { stiffness: 1e4 };
 * expect(o.stiffness).toBe(1e4);
 * ```
 */
export interface PenaltyPotentialOptions {
  /** Penalty stiffness per area k_p (Pa/m). */
  stiffness: number;
  /** Contact face area A (m²). @default 1 */
  area?: number;
}

/**
 * Quadratic penalty energy ½·k_p·A·min(d, 0)² of the bar end (J), C¹ with a jump of the
 * Hessian at d = 0. Used unfiltered in the implicit integrator.
 *
 * @param options stiffness and area
 * @returns the potential
 * @throws {RangeError} for stiffness < 0 or area ≤ 0
 * @example
 * ```ts
 * import { penaltyPotential } from "./penalty.ts";
 * import { expect } from "expect";
 * const p = penaltyPotential({ stiffness: 1e4 });
 * expect(p.force(-0.01)).toBe(100);
 * expect(p.force(0.01)).toBe(0);
 * expect(p.filtered).toBe(false);
 * ```
 */
export function penaltyPotential(options: PenaltyPotentialOptions): EndContactPotential {
  const where = "penaltyPotential";
  const o = checkOptions<PenaltyPotentialOptions>(where, "options", options, ["stiffness", "area"]);
  const k = nonNegative(where, "stiffness", o.stiffness) * positive(where, "area", o.area ?? 1);
  return {
    filtered: false,
    activeBelow: 0,
    energy: (d) => (d < 0 ? 0.5 * k * d * d : 0),
    gradient: (d) => (d < 0 ? k * d : 0),
    hessian: (d) => (d < 0 ? k : 0),
    force: (d) => (d < 0 ? -k * d : 0),
  };
}

/**
 * Options of {@link integrateDem}.
 *
 * @example
 * ```ts
 * import type { DemIntegrationOptions } from "./penalty.ts";
 * import { expect } from "expect";
 * const o: DemIntegrationOptions = { elements: 100, stiffness: 1e5, damping: 0.3, tEnd: 2 };
 * expect(o.damping).toBe(0.3);
 * ```
 */
export interface DemIntegrationOptions {
  /** Benchmark (initial data and gravity). @default "impact" */
  problem?: BarProblem;
  /** Number of elements N. */
  elements: number;
  /** Horizon (s). */
  tEnd: number;
  /** Normal stiffness per area k_n (Pa/m). */
  stiffness: number;
  /** Damping ratio ζ (–) of the end node on the spring: c_n = 2ζ√(k_n A m₀)/A. @default 0 */
  damping?: number;
  /** Step factor C_r: h = C_r·2/√(ω_el² + ω_c²); C_r ≤ 0.2 recommended (0.9 gains energy). @default 0.2 */
  timeStepFactor?: number;
  /** Physical parameters (spec §1 defaults). */
  bar?: Partial<BarParameters>;
}

/**
 * Explicit DEM-like spring–dashpot contact (spec §8) with velocity Verlet on the lumped
 * mass. The contact force A·max(0, k_n δ + c_n δ̇) (no adhesion) uses the half-step velocity
 * for δ̇ = −v₀. `newtonIterations` is empty.
 *
 * @param options discretisation, contact law, step factor
 * @returns time columns (contact energy = ½k_nAδ²)
 * @throws {RangeError} for non-positive sizes, stiffness, horizon or step factor, or ζ < 0
 * @example
 * ```ts
 * import { integrateDem } from "./penalty.ts";
 * import { expect } from "expect";
 * const r = integrateDem({ elements: 50, tEnd: 2, stiffness: 1e4 });
 * expect(r.minIterateGap).toBeLessThan(0); // a penalty always penetrates
 * ```
 */
export function integrateDem(options: DemIntegrationOptions): BarTrajectory {
  const where = "integrateDem";
  const o = checkOptions<DemIntegrationOptions>(where, "options", options, DEM_KEYS);
  const problem = oneOf(where, "problem", o.problem ?? "impact", ["impact", "bounce"] as const);
  const N = positiveInteger(where, "elements", o.elements);
  const tEnd = positive(where, "tEnd", o.tEnd);
  const kn = positive(where, "stiffness", o.stiffness);
  const zeta = nonNegative(where, "damping", o.damping ?? 0);
  const cr = positive(where, "timeStepFactor", o.timeStepFactor ?? 0.2);
  const bar = resolveBarParameters(o.bar, where);
  const steps = demSteps(N, bar, kn, cr, tEnd);
  guardBarRun(where, N, steps);
  const mats = barMatrices(N, bar);
  const A = bar.area;
  const m0 = mats.nodalMass[0];
  const h = tEnd / steps;
  const cn = (2 * zeta * Math.sqrt(kn * A * m0)) / A;
  const G = problem === "bounce" ? bar.gravity : 0;
  const n = N + 1;
  const X = mats.restPositions;
  const m = mats.nodalMass;
  const ke = mats.axialStiffness / mats.dx;

  const y = new Float64Array(n);
  const v = new Float64Array(n);
  const acc = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = bar.height + X[i];
    v[i] = problem === "impact" ? -bar.impactSpeed : 0;
  }
  let fc = 0;
  const accel = (vh0: number): void => {
    for (let i = 0; i < n; i++) acc[i] = -m[i] * G;
    for (let e = 0; e < N; e++) {
      const f = ke * (y[e + 1] - y[e] - mats.dx); // tension > 0 pulls the nodes together
      acc[e] += f;
      acc[e + 1] -= f;
    }
    const delta = -y[0];
    // the 3D normal law (linear, clamped), with δ̇ = −v₀: vn = v₀ separates
    fc = delta > 0 ? A * normalForce(false, kn, cn, 0, delta, vh0) : 0;
    acc[0] += fc;
    for (let i = 0; i < n; i++) acc[i] /= m[i];
  };

  const cols = energyColumns(steps);
  let minGap = y[0];
  const record = (k: number): void => {
    let kin = 0;
    let pe = 0;
    for (let i = 0; i < n; i++) {
      kin += m[i] * v[i] * v[i];
      pe += m[i] * y[i];
    }
    const delta = Math.max(0, -y[0]);
    cols.time[k] = k * h;
    cols.endPosition[k] = y[0];
    cols.endVelocity[k] = v[0];
    cols.contactForce[k] = fc;
    cols.kinetic[k] = 0.5 * kin;
    cols.elastic[k] = elasticEnergy(mats, y);
    cols.potential[k] = G * pe;
    cols.contactEnergy[k] = 0.5 * kn * A * delta * delta;
    cols.energy[k] = cols.kinetic[k] + cols.elastic[k] + cols.potential[k] + cols.contactEnergy[k];
    if (!Number.isFinite(cols.energy[k])) {
      throw new Error(`${where}: the run diverged at t = ${k * h} s (non-finite energy)`);
    }
  };
  accel(v[0]);
  record(0);
  for (let s = 0; s < steps; s++) {
    for (let i = 0; i < n; i++) {
      v[i] += 0.5 * h * acc[i];
      y[i] += h * v[i];
    }
    if (y[0] < minGap) minGap = y[0];
    accel(v[0]);
    for (let i = 0; i < n; i++) v[i] += 0.5 * h * acc[i];
    record(s + 1);
  }
  return {
    timeStep: h,
    ...cols,
    newtonIterations: new Uint16Array(0),
    minIterateGap: minGap,
    unconvergedSteps: 0,
    positions: y,
    velocities: v,
  };
}

const DEM_KEYS: readonly string[] = [
  "problem",
  "elements",
  "tEnd",
  "stiffness",
  "damping",
  "timeStepFactor",
  "bar",
];

/**
 * Steps of an explicit DEM run of {@link integrateDem} (h = C_r·2/√(ω_el² + ω_c²) rounded
 * down to divide `tEnd`), computed without allocating. Internal.
 */
export function demSteps(
  elements: number,
  bar: BarParameters,
  stiffness: number,
  timeStepFactor: number,
  tEnd: number,
): number {
  const dx = bar.length / elements;
  const c = Math.sqrt(bar.youngsModulus / bar.density);
  const m0 = 0.5 * (bar.density * bar.area) * dx; // the lumped end mass, as in barMatrices
  const wEl = (2 * c) / dx;
  const wC = Math.sqrt((stiffness * bar.area) / m0);
  const hMax = (timeStepFactor * 2) / Math.sqrt(wEl * wEl + wC * wC);
  return Math.ceil(tEnd / hMax - 1e-9);
}
