/**
 * Closed-form solutions of the two elastic-bar benchmarks (spec §2.2–2.3), derived by
 * characteristics: the single impact at speed V without gravity, and the periodic bounce
 * under gravity. Material coordinate X ∈ [0, L], X = 0 is the contact end; the vertical
 * position of a material point is y = h0 + X + u(X, t), the ground is y = 0.
 *
 * @module
 */

import { type BarParameters, type BarProblem, resolveBarParameters } from "./params.ts";
import { finite, nonNegative, oneOf } from "../math/validate.ts";

/**
 * Derived constants of a benchmark problem.
 *
 * @example
 * ```ts
 * import { type BarConstants, bounceSolution } from "./analytic.ts";
 * import { expect } from "expect";
 * const k: BarConstants = bounceSolution().constants;
 * expect(k.period).toBeCloseTo(16 / 3, 12);
 * ```
 */
export interface BarConstants {
  /** Wave speed c = √(E/ρ) (m/s). */
  readonly waveSpeed: number;
  /** Bar mass m = ρAL (kg). */
  readonly mass: number;
  /** Impedance Z = ρcA (N·s/m); the dynamic contact force is Z·V. */
  readonly impedance: number;
  /** Speed at first contact V (m/s): the given impact speed, or √(2Gh0) when bouncing. */
  readonly impactSpeed: number;
  /** Gravity magnitude acting in the problem (m/s²): 0 for impact, G for bounce. */
  readonly gravity: number;
  /** Time of first contact t_c (s). */
  readonly contactTime: number;
  /** Contact duration 2L/c (s). */
  readonly contactDuration: number;
  /** First release time t_r = t_c + 2L/c (s). */
  readonly releaseTime: number;
  /** Period 4V/G + 4L/c (s) of the bounce; `Infinity` for the (non-periodic) impact. */
  readonly period: number;
  /** Exact total energy (J): ½mV² for impact, mG(h0 + L/2) for bounce (ground = zero). */
  readonly totalEnergy: number;
}

/**
 * Energy split of the bar at one instant (J).
 *
 * @example
 * ```ts
 * import { type BarEnergy, impactSolution } from "./analytic.ts";
 * import { expect } from "expect";
 * const e: BarEnergy = impactSolution().energy(0.6);
 * expect(e.kinetic).toBeCloseTo(350, 9);
 * expect(e.elastic).toBeCloseTo(150, 9);
 * ```
 */
export interface BarEnergy {
  /** Kinetic energy ½∫ρA v² dX (J). */
  readonly kinetic: number;
  /** Elastic energy ½∫EA ε² dX (J). */
  readonly elastic: number;
  /** Gravitational potential energy ∫ρAG y dX, ground = zero level (J); 0 for impact. */
  readonly potential: number;
  /** Sum of the three (J). */
  readonly total: number;
}

/**
 * Displacement, velocity and strain at one material point and instant.
 *
 * @example
 * ```ts
 * import { type BarFieldValue, impactSolution } from "./analytic.ts";
 * import { expect } from "expect";
 * const f: BarFieldValue = impactSolution().field(5, 5 / 6 - 1e-9);
 * expect(f.strain).toBeCloseTo(-1 / 3, 12);
 * expect(f.velocity).toBe(0);
 * ```
 */
export interface BarFieldValue {
  /** Displacement u (m), up = +. */
  readonly displacement: number;
  /** Velocity ∂u/∂t (m/s). */
  readonly velocity: number;
  /** Strain ∂u/∂X (–), negative in compression. */
  readonly strain: number;
}

/**
 * The exact solution of one benchmark: end trajectory, contact force, windows, full fields
 * and energies. Create it with {@link impactSolution}, {@link bounceSolution} or
 * {@link analyticSolution}.
 *
 * @example
 * ```ts
 * import { impactSolution } from "./analytic.ts";
 * import { expect } from "expect";
 * const s = impactSolution();
 * expect(s.endPosition(0.25)).toBe(2.5);
 * expect(s.contactForce(0.6)).toBe(300);
 * expect(s.endPosition(1.5)).toBeCloseTo(10 / 3, 12);
 * expect(s.endVelocity(1.5)).toBe(10);
 * ```
 */
export class AnalyticBarSolution {
  /** Which benchmark. */
  readonly problem: BarProblem;
  /** Physical parameters. */
  readonly bar: BarParameters;
  /** Derived constants. */
  readonly constants: BarConstants;
  readonly #tol: number;
  #u = 0;
  #v = 0;
  #e = 0;

  /**
   * Builds the solution; prefer the factory functions.
   *
   * @param problem "impact" or "bounce"
   * @param bar physical parameters (missing fields take the spec §1 defaults)
   * @throws {RangeError} for a bounce whose V/G is not an integer multiple (≥ 2) of L/c, the
   *   periodicity condition under which the closed form holds
   * @example
   * ```ts
   * import { AnalyticBarSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * const s = new AnalyticBarSolution("bounce");
   * expect(s.contactForce(1)).toBe(300);
   * ```
   */
  constructor(problem: BarProblem, bar?: Partial<BarParameters>) {
    const where = "AnalyticBarSolution";
    this.problem = oneOf(where, "problem", problem, ["impact", "bounce"] as const);
    const p = resolveBarParameters(bar, where);
    this.bar = p;
    const c = Math.sqrt(p.youngsModulus / p.density);
    const m = p.density * p.area * p.length;
    const z = p.density * c * p.area;
    const dur = (2 * p.length) / c;
    if (this.problem === "impact") {
      const V = p.impactSpeed;
      const tc = p.height / V;
      this.constants = Object.freeze({
        waveSpeed: c,
        mass: m,
        impedance: z,
        impactSpeed: V,
        gravity: 0,
        contactTime: tc,
        contactDuration: dur,
        releaseTime: tc + dur,
        period: Infinity,
        totalEnergy: 0.5 * m * V * V,
      });
    } else {
      const G = p.gravity;
      const V = Math.sqrt(2 * G * p.height);
      const k = (V / G) / (p.length / c);
      if (Math.abs(k - Math.round(k)) > 1e-9 * k || Math.round(k) < 2) {
        throw new RangeError(
          `${where}: bounce needs V/G (${V / G} s) to be an integer multiple >= 2 of L/c (${
            p.length / c
          } s); got ratio ${k}`,
        );
      }
      const tc = V / G;
      this.constants = Object.freeze({
        waveSpeed: c,
        mass: m,
        impedance: z,
        impactSpeed: V,
        gravity: G,
        contactTime: tc,
        contactDuration: dur,
        releaseTime: tc + dur,
        period: (4 * V) / G + (4 * p.length) / c,
        totalEnergy: m * G * (p.height + p.length / 2),
      });
    }
    this.#tol = 1e-9 * (this.constants.releaseTime + 1);
  }

  /**
   * Position y0(t) of the contact end above the ground (m).
   *
   * @param t time (s), ≥ 0
   * @example
   * ```ts
   * import { bounceSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * expect(bounceSolution().endPosition(8 / 3)).toBeCloseTo(35 / 9, 12);
   * ```
   */
  endPosition(t: number): number {
    this.#eval(0, t);
    return this.bar.height + this.#u;
  }

  /**
   * Velocity v0(t) of the contact end (m/s).
   *
   * @param t time (s), ≥ 0
   * @example
   * ```ts
   * import { bounceSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * expect(bounceSolution().endVelocity(2)).toBeCloseTo(20 / 3, 12);
   * ```
   */
  endVelocity(t: number): number {
    if (this.inContact(t)) return 0;
    this.#eval(0, t);
    return this.#v;
  }

  /**
   * Whether t lies in a (closed) exact contact window.
   *
   * @param t time (s)
   * @example
   * ```ts
   * import { impactSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * expect(impactSolution().inContact(0.5)).toBe(true);
   * expect(impactSolution().inContact(1.2)).toBe(false);
   * ```
   */
  inContact(t: number): boolean {
    return this.#contactPhase(t) >= 0;
  }

  /**
   * Contact force F(t) = −EA·ε(0, t) on the bar (N), 0 outside the contact windows. Inside a
   * closed window the one-sided limit from inside is returned (e.g. 500 N at t = 5/3).
   *
   * @param t time (s)
   * @example
   * ```ts
   * import { bounceSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * const s = bounceSolution();
   * expect(s.contactForce(1)).toBe(300);
   * expect(s.contactForce(4)).toBeCloseTo(400, 9);
   * ```
   */
  contactForce(t: number): number {
    const tau = this.#contactPhase(t);
    if (tau < 0) return 0;
    const k = this.constants;
    return k.impedance * (k.impactSpeed + k.gravity * tau);
  }

  /**
   * The exact contact windows [on, off] (s) that start before `tEnd`.
   *
   * @param tEnd horizon (s), ≥ 0
   * @example
   * ```ts
   * import { bounceSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * const w = bounceSolution().contactWindows(8);
   * expect(w).toHaveLength(3);
   * expect(w[1][0]).toBeCloseTo(11 / 3, 12);
   * ```
   */
  contactWindows(tEnd: number): Array<[number, number]> {
    nonNegative("contactWindows", "tEnd", tEnd);
    const k = this.constants;
    if (this.problem === "impact") {
      return k.contactTime <= tEnd ? [[k.contactTime, k.releaseTime]] : [];
    }
    const out: Array<[number, number]> = [];
    for (let p = 0; p * k.period <= tEnd; p++) {
      const base = p * k.period;
      const first: [number, number] = [base + k.contactTime, base + k.releaseTime];
      const second: [number, number] = [
        base + k.period - k.releaseTime,
        base + k.period - k.contactTime,
      ];
      if (first[0] <= tEnd) out.push(first);
      if (second[0] <= tEnd) out.push(second);
    }
    return out;
  }

  /**
   * Exact fields at material point X and time t.
   *
   * @param X material coordinate (m), 0 ≤ X ≤ L
   * @param t time (s), ≥ 0
   * @example
   * ```ts
   * import { bounceSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * // at the first release the whole bar moves up at V = 10 m/s
   * const f = bounceSolution().field(7, 5 / 3);
   * expect(f.velocity).toBeCloseTo(10, 9);
   * ```
   */
  field(X: number, t: number): BarFieldValue {
    this.#check(X, t);
    this.#eval(X, t);
    return { displacement: this.#u, velocity: this.#v, strain: this.#e };
  }

  /**
   * Exact displacement u(X, t) (m).
   *
   * @param X material coordinate (m)
   * @param t time (s)
   * @example
   * ```ts
   * import { impactSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * expect(impactSolution().displacement(0, 0.25)).toBe(-2.5);
   * ```
   */
  displacement(X: number, t: number): number {
    this.#check(X, t);
    this.#eval(X, t);
    return this.#u;
  }

  /**
   * Energy split at time t (J), integrated exactly (Gauss–Legendre on the smooth pieces).
   *
   * @param t time (s)
   * @example
   * ```ts
   * import { bounceSolution } from "./analytic.ts";
   * import { expect } from "expect";
   * const e = bounceSolution().energy(5 / 3 + 1e-12);
   * expect(e.elastic).toBeCloseTo(2000 / 27, 6);
   * expect(e.total).toBeCloseTo(1000, 9);
   * ```
   */
  energy(t: number): BarEnergy {
    this.#check(0, t);
    const p = this.bar;
    const L = p.length;
    const k = this.constants;
    if (this.problem === "impact") {
      const c = k.waveSpeed;
      const s = t - k.contactTime;
      let len = 0;
      if (s > 0 && s <= L / c) len = c * s;
      else if (s > L / c && s < (2 * L) / c) len = 2 * L - c * s;
      const el = 0.5 * p.density * p.area * k.impactSpeed * k.impactSpeed * len;
      return { kinetic: k.totalEnergy - el, elastic: el, potential: 0, total: k.totalEnergy };
    }
    const brk = this.#breakpoints(t);
    let kin = 0;
    let ela = 0;
    let disp = 0;
    for (let i = 0; i + 1 < brk.length; i++) {
      const a = brk[i];
      const b = brk[i + 1];
      const mid = 0.5 * (a + b);
      const half = 0.5 * (b - a);
      for (let q = 0; q < 3; q++) {
        this.#eval(mid + half * GL_X[q], t);
        const w = half * GL_W[q];
        kin += w * this.#v * this.#v;
        ela += w * this.#e * this.#e;
        disp += w * this.#u;
      }
    }
    const kinetic = 0.5 * p.density * p.area * kin;
    const elastic = 0.5 * p.youngsModulus * p.area * ela;
    const potential = p.density * p.area * k.gravity * (L * p.height + 0.5 * L * L + disp);
    return { kinetic, elastic, potential, total: kinetic + elastic + potential };
  }

  #check(X: number, t: number): void {
    finite("AnalyticBarSolution", "X", X);
    nonNegative("AnalyticBarSolution", "t", t);
    if (X < 0 || X > this.bar.length) {
      throw new RangeError(`AnalyticBarSolution: X (${X}) must lie in [0, ${this.bar.length}]`);
    }
  }

  /** τ = time since the start of the current contact window, or −1 outside contact. */
  #contactPhase(t: number): number {
    const k = this.constants;
    const tol = this.#tol;
    if (this.problem === "impact") {
      return t >= k.contactTime - tol && t <= k.releaseTime + tol
        ? Math.min(Math.max(t - k.contactTime, 0), k.contactDuration)
        : -1;
    }
    let tt = t - Math.floor(t / k.period) * k.period;
    if (tt > 0.5 * k.period) tt = k.period - tt;
    if (tt >= k.contactTime - tol && tt <= k.releaseTime + tol) {
      return Math.min(Math.max(tt - k.contactTime, 0), k.contactDuration);
    }
    return -1;
  }

  /** Breakpoints in X of the piecewise-smooth fields at time t, sorted, with 0 and L. */
  #breakpoints(t: number): number[] {
    const k = this.constants;
    const L = this.bar.length;
    let tt = t - Math.floor(t / k.period) * k.period;
    if (tt > 0.5 * k.period) tt = k.period - tt;
    const sigma = tt < k.contactTime
      ? 0
      : tt <= k.releaseTime
      ? tt - k.contactTime
      : tt - k.releaseTime;
    const pts = [0, L];
    const cs = k.waveSpeed * sigma;
    const kk = Math.ceil(cs / L) + 2;
    for (let j = -kk; j <= kk; j++) {
      for (const x of [j * L + cs, j * L - cs]) if (x > 0 && x < L) pts.push(x);
    }
    pts.sort((a, b) => a - b);
    return pts;
  }

  /** Writes u, v, ε at (X, t) into the private scratch fields. */
  #eval(X: number, t: number): void {
    const p = this.bar;
    const k = this.constants;
    const c = k.waveSpeed;
    const L = p.length;
    const V = k.impactSpeed;
    if (this.problem === "impact") {
      const t1 = k.contactTime + X / c;
      const t2 = k.contactTime + (2 * L - X) / c;
      if (t <= t1) {
        this.#u = -V * t;
        this.#v = -V;
        this.#e = 0;
      } else if (t <= t2) {
        this.#u = -V * t1;
        this.#v = 0;
        this.#e = -V / c;
      } else {
        this.#u = -V * t1 + V * (t - t2);
        this.#v = V;
        this.#e = 0;
      }
      return;
    }
    const G = k.gravity;
    const h0 = p.height;
    let tt = t - Math.floor(t / k.period) * k.period;
    let sign = 1;
    if (tt > 0.5 * k.period) {
      tt = k.period - tt;
      sign = -1;
    }
    if (tt < k.contactTime) {
      this.#u = -0.5 * G * tt * tt;
      this.#v = -G * tt * sign;
      this.#e = 0;
      return;
    }
    if (tt <= k.releaseTime) {
      const tau = tt - k.contactTime;
      const front = c * tau;
      if (X < front && X < 2 * L - front) {
        this.#u = -h0 - ((V + G * tau) * X) / c + (G * X * X) / (2 * c * c);
        this.#v = ((-G * X) / c) * sign;
        this.#e = -(V + G * tau) / c + (G * X) / (c * c);
      } else if (X >= front) {
        this.#u = -0.5 * G * tt * tt;
        this.#v = -G * tt * sign;
        this.#e = 0;
      } else {
        const beta = -h0 - (V * L) / c + (G * L * L) / (2 * c * c) +
          (V - (2 * G * L) / c) * (tau - L / c) + (G * (tau * tau - (L * L) / (c * c))) / 2;
        this.#u = beta - (2 * G * (L * X - 0.5 * X * X)) / (c * c);
        this.#v = (V + G * tau - (2 * G * L) / c) * sign;
        this.#e = (-2 * G * (L - X)) / (c * c);
      }
      return;
    }
    // F2: flight with free–free vibration, s since release (first half of the flight).
    const s = tt - k.releaseTime;
    const ur = -h0 - (2 * G * (L * X - 0.5 * X * X)) / (c * c);
    const cs = c * s;
    this.#u = ur + V * s - 0.5 * G * s * s +
      0.5 * (this.#antiF(X + cs) + this.#antiF(X - cs)) - this.#antiF(X);
    this.#v = (V - G * s + 0.5 * c * (this.#f(X + cs) - this.#f(X - cs))) * sign;
    this.#e = 0.5 * (this.#f(X - cs) + this.#f(X + cs));
  }

  /** Odd, 2L-periodic extension of the release strain ε_r(X) = −2G(L − X)/c². */
  #f(z: number): number {
    const L = this.bar.length;
    const a = (2 * this.constants.gravity) / (this.constants.waveSpeed ** 2);
    const zr = z - 2 * L * Math.floor((z + L) / (2 * L));
    return zr >= 0 ? -a * (L - zr) : a * (L + zr);
  }

  /** Antiderivative of #f with value 0 at 0 (even, 2L-periodic). */
  #antiF(z: number): number {
    const L = this.bar.length;
    const a = (2 * this.constants.gravity) / (this.constants.waveSpeed ** 2);
    let zr = z - 2 * L * Math.floor((z + L) / (2 * L));
    if (zr < 0) zr = -zr;
    return -a * (L * zr - 0.5 * zr * zr);
  }
}

const GL_X = [-Math.sqrt(3 / 5), 0, Math.sqrt(3 / 5)];
const GL_W = [5 / 9, 8 / 9, 5 / 9];

/**
 * The impact benchmark: the bar falls at −V without gravity, lands at t_c = h0/V, stays in
 * contact for 2L/c with F = ρcAV, and leaves rigidly at +V.
 *
 * @param bar physical parameters (`gravity` is ignored)
 * @returns the exact solution
 * @example
 * ```ts
 * import { impactSolution } from "./analytic.ts";
 * import { expect } from "expect";
 * const s = impactSolution();
 * expect(s.constants.contactTime).toBe(0.5);
 * expect(s.constants.releaseTime).toBeCloseTo(7 / 6, 15);
 * ```
 */
export function impactSolution(bar?: Partial<BarParameters>): AnalyticBarSolution {
  return new AnalyticBarSolution("impact", bar);
}

/**
 * The bouncing benchmark: the bar starts at rest at h0 under gravity G and bounces
 * periodically with period 4V/G + 4L/c, V = √(2Gh0).
 *
 * @param bar physical parameters (`impactSpeed` is ignored; V follows from h0 and G)
 * @returns the exact solution
 * @throws {RangeError} when V/G is not an integer multiple ≥ 2 of L/c
 * @example
 * ```ts
 * import { bounceSolution } from "./analytic.ts";
 * import { expect } from "expect";
 * expect(bounceSolution().energy(3).total).toBeCloseTo(1000, 9);
 * ```
 */
export function bounceSolution(bar?: Partial<BarParameters>): AnalyticBarSolution {
  return new AnalyticBarSolution("bounce", bar);
}

/**
 * The exact solution of either benchmark.
 *
 * @param problem "impact" or "bounce"
 * @param bar physical parameters
 * @returns the exact solution
 * @example
 * ```ts
 * import { analyticSolution } from "./analytic.ts";
 * import { expect } from "expect";
 * expect(analyticSolution("impact").constants.totalEnergy).toBe(500);
 * ```
 */
export function analyticSolution(
  problem: BarProblem,
  bar?: Partial<BarParameters>,
): AnalyticBarSolution {
  return new AnalyticBarSolution(problem, bar);
}
