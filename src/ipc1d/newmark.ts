/**
 * Time stepping as minimisation of an incremental potential (spec §4–§5).
 *
 * Newmark (β, γ): ỹ = yₙ + h vₙ + (½ − β) h² aₙ and y_{n+1} = argmin Φ,
 * Φ(y) = ½ (y − ỹ)ᵀ M (y − ỹ) + β h² Ψ(y), Ψ = elastic + gravity + contact energy;
 * implicit Euler uses ỹ = yₙ + h vₙ and weight h². Each step is solved by projected Newton on
 * the tridiagonal Hessian (Thomas algorithm, factorised once per run from the top end so that
 * only the contact row changes), with the 1D collision filter α ≤ 0.9·x₀/(−p₀) and
 * Armijo backtracking. For a barrier every iterate keeps the gap positive. Newton starts from
 * yₙ (always feasible), or from the predictor ỹ when that lies outside the barrier's support;
 * it works on the increment y − yₙ so that the Newmark acceleration keeps full precision.
 *
 * This file holds the run loop and its recorded columns; the options and their validation are
 * in `newmark_options.ts`, the Newton step in `newmark_newton.ts`.
 *
 * @module
 */

import type { EndContactPotential } from "./barrier.ts";
import {
  type BarMatrices,
  elasticEnergy,
  type SymmetricTridiagonal,
  tridiagonalQuadraticForm,
} from "./fem.ts";
import {
  type ImplicitIntegrationOptions,
  resolveImplicitSettings,
  WHERE,
} from "./newmark_options.ts";
import {
  assembleNewtonSystem,
  finishStep,
  initialState,
  newtonSolve,
  predict,
  updateKinematics,
} from "./newmark_newton.ts";
import { finite } from "../math/validate.ts";

export type { ImplicitIntegrationOptions, IntegratorOptions } from "./newmark_options.ts";

/**
 * Time columns of an implicit run (length steps + 1, index n ↔ t = n·h) and solver counters.
 *
 * @example
 * ```ts
 * import { type BarTrajectory } from "@grainlab/grainlab/ipc1d";
 * import { integrateImplicit } from "./newmark.ts";
 * import { expect } from "expect";
 * const r: BarTrajectory = integrateImplicit({ elements: 10, timeStep: 0.01, steps: 5 });
 * expect(r.time).toHaveLength(6);
 * expect(r.endPosition[5]).toBeLessThan(5);
 * ```
 */
export interface BarTrajectory {
  /** Time step h (s). */
  readonly timeStep: number;
  /** Times tₙ (s). */
  readonly time: Float64Array;
  /** Contact-end position y0 (m). */
  readonly endPosition: Float64Array;
  /** Contact-end velocity (m/s). */
  readonly endVelocity: Float64Array;
  /** Contact force on the bar −e′(y0) (N). */
  readonly contactForce: Float64Array;
  /** Kinetic energy ½vᵀMv (J). */
  readonly kinetic: Float64Array;
  /** Elastic energy U (J). */
  readonly elastic: Float64Array;
  /** Gravitational potential energy Σ mᵢ G yᵢ (J). */
  readonly potential: Float64Array;
  /** Energy stored in the contact potential (barrier layer or penalty spring) (J). */
  readonly contactEnergy: Float64Array;
  /** Total energy (J). */
  readonly energy: Float64Array;
  /** Newton iterations (linear solves) of each step (length steps). */
  readonly newtonIterations: Uint16Array;
  /** Smallest end position over every Newton iterate of the run (m). */
  readonly minIterateGap: number;
  /** Steps that hit the iteration cap or whose line search stalled. */
  readonly unconvergedSteps: number;
  /** Final nodal positions (m). */
  readonly positions: Float64Array;
  /** Final nodal velocities (m/s). */
  readonly velocities: Float64Array;
}

/** The per-step columns of a bar run (written by {@link recordState} and the DEM loop). */
export interface EnergyColumns {
  time: Float64Array;
  endPosition: Float64Array;
  endVelocity: Float64Array;
  contactForce: Float64Array;
  kinetic: Float64Array;
  elastic: Float64Array;
  potential: Float64Array;
  contactEnergy: Float64Array;
  energy: Float64Array;
}

/** Allocates the per-step columns of a run of `steps` steps (steps + 1 samples each). */
export function energyColumns(steps: number): EnergyColumns {
  const col = () => new Float64Array(steps + 1);
  return {
    time: col(),
    endPosition: col(),
    endVelocity: col(),
    contactForce: col(),
    kinetic: col(),
    elastic: col(),
    potential: col(),
    contactEnergy: col(),
    energy: col(),
  };
}

/** Writes the state of step k into the columns (module-level: keeps the hot loop closure-free). */
function recordState(
  c: EnergyColumns,
  k: number,
  h: number,
  y: Float64Array,
  v: Float64Array,
  M: SymmetricTridiagonal,
  mats: BarMatrices,
  G: number,
  pot: EndContactPotential | null,
): void {
  const nm = mats.nodalMass;
  let pe = 0;
  for (let i = 0; i < y.length; i++) pe += nm[i] * y[i];
  c.time[k] = k * h;
  c.endPosition[k] = y[0];
  c.endVelocity[k] = v[0];
  c.contactForce[k] = pot ? pot.force(y[0]) : 0;
  c.kinetic[k] = 0.5 * tridiagonalQuadraticForm(M, v);
  c.elastic[k] = elasticEnergy(mats, y);
  c.potential[k] = G * pe;
  c.contactEnergy[k] = pot ? pot.energy(y[0]) : 0;
  const e = c.kinetic[k] + c.elastic[k] + c.potential[k] + c.contactEnergy[k];
  c.energy[k] = e;
  if (!Number.isFinite(e)) {
    throw new Error(`integrateImplicit: the run diverged at t = ${k * h} s (non-finite energy)`);
  }
}

/**
 * Integrates the bar with an implicit incremental-potential scheme.
 *
 * @param options discretisation, step, contact potential, integrator, Newton settings
 * @returns time columns and solver counters
 * @throws {RangeError} for non-positive sizes, steps or tolerances
 * @throws {TypeError} for unknown kinds
 * @example
 * ```ts
 * import { integrateImplicit } from "./newmark.ts";
 * import { ipcPotential } from "./barrier.ts";
 * import { expect } from "expect";
 * const r = integrateImplicit({
 *   elements: 20, timeStep: 0.5 * 0.5 / 30, steps: 1200,
 *   potential: ipcPotential({ kappa: 90, dHat: 0.5 }),
 * });
 * expect(r.minIterateGap).toBeGreaterThan(0);
 * expect(r.endVelocity[1200]).toBeGreaterThan(9);
 * ```
 */
export function integrateImplicit(options: ImplicitIntegrationOptions): BarTrajectory {
  const s = resolveImplicitSettings(options);
  const sys = assembleNewtonSystem(s);
  const st = initialState(s, sys);
  const cols = energyColumns(s.steps);
  recordState(cols, 0, s.h, st.y, st.v, sys.M, sys.mats, s.G, s.pot);
  for (let step = 0; step < s.steps; step++) {
    predict(s, sys, st);
    newtonSolve(s, sys, st);
    finishStep(st, step);
    updateKinematics(s, sys, st);
    recordState(cols, step + 1, s.h, st.y, st.v, sys.M, sys.mats, s.G, s.pot);
  }
  finite(WHERE, "minIterateGap", st.minGap);
  return {
    timeStep: s.h,
    ...cols,
    newtonIterations: st.newtonIterations,
    minIterateGap: st.minGap,
    unconvergedSteps: st.unconverged,
    positions: st.y,
    velocities: st.v,
  };
}
