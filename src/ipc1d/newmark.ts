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
 * @module
 */

import type { EndContactPotential } from "./barrier.ts";
import {
  type BarMatrices,
  barMatrices,
  elasticEnergy,
  solveTridiagonal,
  type SymmetricTridiagonal,
  tridiagonalMultiply,
  tridiagonalQuadraticForm,
} from "./fem.ts";
import { type BarParameters, type BarProblem, resolveBarParameters } from "./params.ts";
import { finite, objectOrEmpty, oneOf, positive, positiveInteger } from "../math/validate.ts";

/**
 * Implicit time integrator: Newmark (β, γ) (default β = ¼, γ = ½, the trapezoidal rule,
 * energy-exact for linear forces) or implicit Euler (dissipative).
 *
 * @example
 * ```ts
 * import type { IntegratorOptions } from "@grainlab/grainlab/ipc1d";
 * const i: IntegratorOptions = { kind: "newmark", beta: 0.3025, gamma: 0.6 };
 * console.assert(i.kind === "newmark");
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
 * import type { ImplicitIntegrationOptions } from "@grainlab/grainlab/ipc1d";
 * const o: ImplicitIntegrationOptions = { elements: 50, timeStep: 1e-3, steps: 10 };
 * console.assert(o.steps === 10);
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
 * Time columns of an implicit run (length steps + 1, index n ↔ t = n·h) and solver counters.
 *
 * @example
 * ```ts
 * import { integrateImplicit, type BarTrajectory } from "@grainlab/grainlab/ipc1d";
 * const r: BarTrajectory = integrateImplicit({ elements: 10, timeStep: 0.01, steps: 5 });
 * console.assert(r.time.length === 6 && r.endPosition[5] < 5);
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

const ARMIJO = 1e-4;

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
const GQ = 0.5 / Math.sqrt(3);

/**
 * Integrates the bar with an implicit incremental-potential scheme.
 *
 * @param options discretisation, step, contact potential, integrator, Newton settings
 * @returns time columns and solver counters
 * @throws {RangeError} for non-positive sizes, steps or tolerances
 * @throws {TypeError} for unknown kinds
 * @example
 * ```ts
 * import { integrateImplicit, ipcPotential } from "@grainlab/grainlab/ipc1d";
 * const r = integrateImplicit({
 *   elements: 20, timeStep: 0.5 * 0.5 / 30, steps: 1200,
 *   potential: ipcPotential({ kappa: 90, dHat: 0.5 }),
 * });
 * console.assert(r.minIterateGap > 0 && r.endVelocity[1200] > 9);
 * ```
 */
export function integrateImplicit(options: ImplicitIntegrationOptions): BarTrajectory {
  const where = "integrateImplicit";
  const o = objectOrEmpty<ImplicitIntegrationOptions>(where, "options", options);
  const problem = oneOf(where, "problem", o.problem ?? "impact", ["impact", "bounce"] as const);
  const N = positiveInteger(where, "elements", o.elements);
  const h = positive(where, "timeStep", o.timeStep);
  const steps = positiveInteger(where, "steps", o.steps);
  const massKind = oneOf(where, "mass", o.mass ?? "consistent", ["consistent", "lumped"] as const);
  const tol = positive(where, "tolerance", o.tolerance ?? 1e-9);
  const maxIt = positiveInteger(where, "maxIterations", o.maxIterations ?? 100);
  if (maxIt > 65535) throw new RangeError(`${where}: maxIterations (${maxIt}) must be <= 65535`);
  const integ = objectOrEmpty<IntegratorOptions>(
    where,
    "integrator",
    o.integrator ?? { kind: "newmark" },
  );
  const kind = oneOf(where, "integrator.kind", integ.kind, ["newmark", "implicit-euler"] as const);
  let beta = 1;
  let gamma = 1;
  if (integ.kind === "newmark") {
    beta = positive(where, "integrator.beta", integ.beta ?? 0.25);
    gamma = positive(where, "integrator.gamma", integ.gamma ?? 0.5);
  }
  const euler = kind === "implicit-euler";
  const pot = o.potential ?? null;
  const bar = resolveBarParameters(o.bar, where);
  const G = problem === "bounce" ? bar.gravity : 0;
  const v0 = problem === "impact" ? -bar.impactSpeed : 0;

  // ---- matrices and the constant part of the Hessian, factorised from the top end ----
  const mats = barMatrices(N, bar);
  const M = massKind === "consistent" ? mats.consistentMass : mats.lumpedMass;
  const K = mats.stiffness;
  const md = M.diag;
  const mo = M.off;
  const kd = K.diag;
  const ko = K.off;
  const X = mats.restPositions;
  const nm = mats.nodalMass;
  const n = N + 1;
  const w = euler ? h * h : beta * h * h;
  const hd = new Float64Array(n);
  const ho = new Float64Array(N);
  for (let i = 0; i < n; i++) hd[i] = md[i] + w * kd[i];
  for (let i = 0; i < N; i++) ho[i] = mo[i] + w * ko[i];
  const invD = new Float64Array(n); // 1/Dᵢ for i ≥ 1
  const coef = new Float64Array(N); // hoᵢ/D_{i+1}
  let D = hd[N];
  invD[N] = 1 / D;
  for (let i = N - 1; i >= 1; i--) {
    coef[i] = ho[i] * invD[i + 1];
    D = hd[i] - ho[i] * coef[i];
    invD[i] = 1 / D;
  }
  coef[0] = ho[0] * invD[1];
  const d0Base = hd[0] - ho[0] * coef[0];

  // ---- state and scratch (allocated once) ----
  const y = new Float64Array(n);
  const yPrev = new Float64Array(n);
  const v = new Float64Array(n);
  const a = new Float64Array(n);
  const yt = new Float64Array(n);
  const g = new Float64Array(n);
  const p = new Float64Array(n);
  const tmp = new Float64Array(n);
  const tmp2 = new Float64Array(n);
  const dy = new Float64Array(n);
  const fs = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    y[i] = bar.height + X[i];
    v[i] = v0;
  }
  // initial acceleration from M a₀ = −∇Ψ(y₀)
  for (let i = 0; i < n; i++) tmp2[i] = y[i] - X[i];
  tridiagonalMultiply(K, tmp2, tmp);
  for (let i = 0; i < n; i++) tmp[i] = -(tmp[i] + nm[i] * G);
  if (pot) tmp[0] -= pot.gradient(y[0]);
  solveTridiagonal(M, tmp, a, tmp2);

  const newtonIterations = new Uint16Array(steps);
  let minGap = y[0];
  let unconverged = 0;

  const cols = energyColumns(steps);
  recordState(cols, 0, h, y, v, M, mats, G, pot);

  const filtered = pot !== null && pot.filtered;
  const activeBelow = pot ? pot.activeBelow : -Infinity;
  const tolP = tol * h;
  for (let step = 0; step < steps; step++) {
    // Newton works on the increment dy = y − yₙ (small numbers, so the Newmark acceleration
    // (dy − dỹ)/(βh²) keeps full precision); dỹ = ỹ − yₙ, fs = K(yₙ − X) + f_g
    const c2 = euler ? 0 : (0.5 - beta) * h * h;
    for (let i = 0; i < n; i++) {
      yPrev[i] = y[i];
      yt[i] = h * v[i] + c2 * a[i];
      let f = kd[i] * (y[i] - X[i]) + nm[i] * G;
      if (i > 0) f += ko[i - 1] * (y[i - 1] - X[i - 1]);
      if (i < N) f += ko[i] * (y[i + 1] - X[i + 1]);
      fs[i] = f;
    }
    const y0Prev = yPrev[0];
    // start from the predictor ỹ when it lies outside the contact potential's support (or the
    // potential is unfiltered); otherwise from yₙ, which is always feasible
    const fromPredictor = !filtered || y0Prev + yt[0] >= activeBelow;
    for (let i = 0; i < n; i++) dy[i] = fromPredictor ? yt[i] : 0;
    let its = 0;
    let converged = false;
    while (its < maxIt) {
      its++;
      // gradient g = M(dy − dỹ) + w[K·dy + fs + e′(x₀)e₀]
      g[0] = md[0] * (dy[0] - yt[0]) + w * (kd[0] * dy[0] + fs[0]);
      for (let i = 1; i < n; i++) {
        const r = mo[i - 1] * (dy[i] - yt[i]) + w * ko[i - 1] * dy[i];
        g[i - 1] += r;
        g[i] = md[i] * (dy[i] - yt[i]) + w * (kd[i] * dy[i] + fs[i]) +
          mo[i - 1] * (dy[i - 1] - yt[i - 1]) + w * ko[i - 1] * dy[i - 1];
      }
      const x0 = y0Prev + dy[0];
      let e1 = 0;
      let e2 = 0;
      if (pot && x0 < activeBelow) {
        e1 = pot.gradient(x0);
        e2 = pot.hessian(x0);
        g[0] += w * e1;
      }
      // Thomas solve H p = −g with the prefactorised top part
      const D0 = d0Base + w * (e2 > 0 ? e2 : 0);
      tmp[N] = -g[N];
      for (let i = N - 1; i >= 0; i--) tmp[i] = -g[i] - coef[i] * tmp[i + 1];
      p[0] = tmp[0] / D0;
      let pmax = Math.abs(p[0]);
      for (let i = 1; i < n; i++) {
        const pi = (tmp[i] - ho[i - 1] * p[i - 1]) * invD[i];
        p[i] = pi;
        const ap = pi < 0 ? -pi : pi;
        if (ap > pmax) pmax = ap;
      }
      if (pmax < tolP) {
        converged = true;
        break;
      }
      // collision filter
      const p0 = p[0];
      let alpha = 1;
      if (filtered && p0 < 0) alpha = Math.min(1, (0.9 * x0) / -p0);
      // exact ΔΦ(α) = α·g_Q·p + ½α²·pᵀ(M + wK)p + w·Δe
      let gp = 0;
      let pHp = 0;
      for (let i = 0; i < N; i++) {
        gp += g[i] * p[i];
        pHp += p[i] * (hd[i] * p[i] + 2 * ho[i] * p[i + 1]);
      }
      gp += g[N] * p[N];
      pHp += hd[N] * p[N] * p[N];
      const gqp = gp - w * e1 * p0;
      let accepted = false;
      while (alpha > 1e-20) {
        const dlt = alpha * p0;
        let de = 0;
        if (pot) {
          const xn = x0 + dlt;
          if (x0 >= activeBelow && xn >= activeBelow) de = 0;
          else if (Math.abs(dlt) < 1e-4 * Math.abs(x0)) {
            de = 0.5 * dlt *
              (pot.gradient(x0 + dlt * (0.5 - GQ)) + pot.gradient(x0 + dlt * (0.5 + GQ)));
          } else de = pot.energy(xn) - pot.energy(x0);
        }
        const dPhi = alpha * gqp + 0.5 * alpha * alpha * pHp + w * de;
        if (dPhi <= ARMIJO * alpha * gp) {
          accepted = true;
          break;
        }
        alpha *= 0.5;
      }
      if (!accepted) {
        // no decrease possible at machine precision: accept the iterate as converged if the
        // step is small, otherwise count the step as unconverged
        converged = pmax < 1e3 * tolP;
        break;
      }
      for (let i = 0; i < n; i++) dy[i] += alpha * p[i];
      const x0New = y0Prev + dy[0];
      if (x0New < minGap) minGap = x0New;
      // inside the region where Φ is exactly quadratic a full Newton step is the minimiser
      if (alpha === 1 && x0 >= activeBelow && x0New >= activeBelow) {
        converged = true;
        break;
      }
    }
    for (let i = 0; i < n; i++) y[i] = yPrev[i] + dy[i];
    if (!converged) unconverged++;
    newtonIterations[step] = its;
    // velocity / acceleration update
    if (euler) {
      for (let i = 0; i < n; i++) v[i] = dy[i] / h;
    } else {
      const ib = 1 / w;
      for (let i = 0; i < n; i++) {
        const an = (dy[i] - yt[i]) * ib;
        v[i] += h * ((1 - gamma) * a[i] + gamma * an);
        a[i] = an;
      }
    }
    recordState(cols, step + 1, h, y, v, M, mats, G, pot);
  }
  finite(where, "minIterateGap", minGap);
  return {
    timeStep: h,
    ...cols,
    newtonIterations,
    minIterateGap: minGap,
    unconvergedSteps: unconverged,
    positions: y,
    velocities: v,
  };
}
