/**
 * The exact characteristic lattice (spec §2.4): an independent reference for the bar
 * benchmarks. With Δt = Δx/c the Riemann invariants R± = v ± cε move exactly one cell per
 * step, so the scheme has no discretisation error as long as the landings fall on lattice
 * times (N even for the impact, any N for the bounce with the default parameters).
 *
 * Besides the cell-midpoint values of the spec we carry the (exactly transported) linear
 * slope of R± inside each cell, which makes the energies exact under gravity too.
 *
 * @module
 */

import { analyticSolution } from "./analytic.ts";
import {
  type BarParameters,
  type BarProblem,
  guardBarRun,
  resolveBarParameters,
} from "./params.ts";
import { oneOf, options as checkOptions, positive, positiveInteger } from "../math/validate.ts";

/**
 * Options of {@link characteristicLattice}.
 *
 * @example
 * ```ts
 * import type { LatticeOptions } from "./lattice.ts";
 * import { expect } from "expect";
 * const o: LatticeOptions = { problem: "bounce", cells: 30, tEnd: 6 };
 * expect(o.cells).toBe(30);
 * ```
 */
export interface LatticeOptions {
  /** Benchmark. @default "impact" */
  problem?: BarProblem;
  /** Number of cells N (Δx = L/N, Δt = Δx/c). @default 120 */
  cells?: number;
  /** Horizon (s). @default 2 for impact, 16 for bounce */
  tEnd?: number;
  /** Physical parameters (spec §1 defaults). */
  bar?: Partial<BarParameters>;
}

/**
 * Columns produced by the lattice. Positions and energies live at lattice times tₙ = nΔt,
 * end velocity and contact force at half times t_{n+½} (where the boundary is evaluated).
 *
 * @example
 * ```ts
 * import { characteristicLattice, type LatticeResult } from "./lattice.ts";
 * import { expect } from "expect";
 * const r: LatticeResult = characteristicLattice({ cells: 30, tEnd: 1 });
 * expect(r.time.length).toBe(r.endPosition.length);
 * ```
 */
export interface LatticeResult {
  /** Time step Δt = Δx/c (s). */
  readonly timeStep: number;
  /** Lattice times tₙ (s). */
  readonly time: Float64Array;
  /** Contact-end position y0(tₙ) (m). */
  readonly endPosition: Float64Array;
  /** Kinetic energy at tₙ (J). */
  readonly kinetic: Float64Array;
  /** Elastic energy at tₙ (J). */
  readonly elastic: Float64Array;
  /** Gravitational potential energy at tₙ (J). */
  readonly potential: Float64Array;
  /** Total energy at tₙ (J). */
  readonly energy: Float64Array;
  /** Half times t_{n+½} (s). */
  readonly halfTime: Float64Array;
  /** Contact-end velocity at t_{n+½} (m/s). */
  readonly endVelocity: Float64Array;
  /** Contact force at t_{n+½} (N). */
  readonly contactForce: Float64Array;
}

/**
 * Runs the exact characteristic lattice of spec §2.4.
 *
 * @param options problem, number of cells, horizon, bar parameters
 * @returns time columns of the contact end and of the energies
 * @throws {RangeError} for non-positive cells or horizon
 * @example
 * ```ts
 * import { characteristicLattice } from "./lattice.ts";
 * import { expect } from "expect";
 * const r = characteristicLattice({ problem: "impact", cells: 30, tEnd: 2 });
 * const i = r.halfTime.findIndex((t) => t > 0.6);
 * expect(r.contactForce[i]).toBeCloseTo(300, 8);
 * ```
 */
export function characteristicLattice(options?: LatticeOptions): LatticeResult {
  const where = "characteristicLattice";
  const o = checkOptions<LatticeOptions>(where, "options", options, [
    "problem",
    "cells",
    "tEnd",
    "bar",
  ]);
  const problem = oneOf(where, "problem", o.problem ?? "impact", ["impact", "bounce"] as const);
  const N = positiveInteger(where, "cells", o.cells ?? 120);
  const tEnd = positive(where, "tEnd", o.tEnd ?? (problem === "impact" ? 2 : 16));
  const bar = resolveBarParameters(o.bar, where);
  const k = analyticSolution(problem, bar).constants;
  const c = k.waveSpeed;
  const G = k.gravity;
  const L = bar.length;
  const dx = L / N;
  const dt = dx / c;
  const Z = k.impedance;
  const steps = Math.ceil(tEnd / dt - 1e-9);
  guardBarRun(where, N, steps, 9 * 8);
  const v0 = problem === "impact" ? -k.impactSpeed : 0;

  const pm = new Float64Array(N).fill(v0); // R+ midpoint values
  const ps = new Float64Array(N); // R+ slopes dR+/dX
  const mm = new Float64Array(N).fill(v0); // R- midpoint values
  const ms = new Float64Array(N);

  const time = new Float64Array(steps + 1);
  const endPosition = new Float64Array(steps + 1);
  const kinetic = new Float64Array(steps + 1);
  const elastic = new Float64Array(steps + 1);
  const potential = new Float64Array(steps + 1);
  const energy = new Float64Array(steps + 1);
  const halfTime = new Float64Array(steps);
  const endVelocity = new Float64Array(steps);
  const contactForce = new Float64Array(steps);

  const rhoA = bar.density * bar.area;
  const EA = bar.youngsModulus * bar.area;
  const dx2 = (dx * dx) / 12;
  const record = (n: number, y0: number): void => {
    let ke = 0;
    let el = 0;
    let pe = 0;
    for (let i = 0; i < N; i++) {
      const vm = 0.5 * (pm[i] + mm[i]);
      const vs = 0.5 * (ps[i] + ms[i]);
      const em = (mm[i] - pm[i]) / (2 * c);
      const es = (ms[i] - ps[i]) / (2 * c);
      ke += vm * vm + vs * vs * dx2;
      el += em * em + es * es * dx2;
      pe += (L - (i + 0.5) * dx) * em - es * dx2;
    }
    time[n] = n * dt;
    endPosition[n] = y0;
    kinetic[n] = 0.5 * rhoA * dx * ke;
    elastic[n] = 0.5 * EA * dx * el;
    potential[n] = rhoA * G * (L * y0 + 0.5 * L * L + dx * pe);
    energy[n] = kinetic[n] + elastic[n] + potential[n];
  };

  let y0 = bar.height;
  let contact = false;
  const landEps = 1e-10 * (bar.height + L);
  const gdt = G * dt;
  record(0, y0);
  for (let n = 0; n < steps; n++) {
    // contact end, evaluated at t_{n+1/2}
    const rArr = mm[0] - 0.5 * gdt;
    if (contact && rArr > 0) contact = false;
    let vEnd: number;
    let newPm0: number;
    let newPs0: number;
    if (contact) {
      vEnd = 0;
      contactForce[n] = -Z * rArr;
      newPm0 = -rArr - 0.5 * gdt;
      newPs0 = ms[0] - (2 * G) / c;
    } else {
      vEnd = rArr;
      contactForce[n] = 0;
      newPm0 = rArr - 0.5 * gdt;
      newPs0 = -ms[0];
    }
    // free top end
    const rTop = pm[N - 1] - 0.5 * gdt;
    const newMm = rTop - 0.5 * gdt;
    const newMs = -ps[N - 1];
    for (let i = N - 1; i >= 1; i--) {
      pm[i] = pm[i - 1] - gdt;
      ps[i] = ps[i - 1];
    }
    for (let i = 0; i < N - 1; i++) {
      mm[i] = mm[i + 1] - gdt;
      ms[i] = ms[i + 1];
    }
    pm[0] = newPm0;
    ps[0] = newPs0;
    mm[N - 1] = newMm;
    ms[N - 1] = newMs;
    halfTime[n] = (n + 0.5) * dt;
    endVelocity[n] = vEnd;
    y0 += dt * vEnd;
    if (!contact && y0 <= landEps) {
      contact = true;
      y0 = 0;
    }
    record(n + 1, y0);
  }
  return {
    timeStep: dt,
    time,
    endPosition,
    kinetic,
    elastic,
    potential,
    energy,
    halfTime,
    endVelocity,
    contactForce,
  };
}
