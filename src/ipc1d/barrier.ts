/**
 * IPC barrier functions (spec §3) and the barrier contact potential of the bar end.
 *
 * Two forms, both C² at d = d̂, +∞ for d ≤ 0, zero for d ≥ d̂:
 * - the original (2020) barrier b(d) = −(d − d̂)² ln(d/d̂) (units m²),
 * - the physical (Convergent IPC) barrier b(d) = −d̂ (d/d̂ − 1)² ln(d/d̂) = b₂₀₂₀/d̂ (units m),
 *   so that κ·A·b is an energy with κ in Pa, like E.
 *
 * @module
 */

import { nonNegative, options as checkOptions, positive } from "../math/validate.ts";

/**
 * Check a barrier's arguments: `d` a number (not NaN; ≤ 0 gives the barrier's infinity), `dHat`
 * a finite number > 0 (a barrier with d̂ ≤ 0 would be silently zero everywhere).
 */
function barrierArgs(where: string, d: number, dHat: number): void {
  if (typeof d !== "number" || d !== d) {
    throw new (typeof d === "number" ? RangeError : TypeError)(
      `${where}: d (${String(d)}) must be a number`,
    );
  }
  positive(where, "dHat", dHat);
}

/**
 * Original IPC barrier b(d, d̂) = −(d − d̂)² ln(d/d̂) on (0, d̂), 0 beyond, +∞ for d ≤ 0.
 *
 * @param d distance (m)
 * @param dHat activation distance d̂ (m)
 * @returns b (m²)
 * @example
 * ```ts
 * import { barrier2020 } from "./barrier.ts";
 * import { expect } from "expect";
 * expect(barrier2020(1, 1)).toBe(0);
 * expect(barrier2020(0, 1)).toBe(Infinity);
 * expect(barrier2020(0.5, 1)).toBeCloseTo(0.25 * Math.LN2, 15);
 * ```
 */
export function barrier2020(d: number, dHat: number): number {
  barrierArgs("barrier2020", d, dHat);
  return barrier2020Of(d, dHat);
}

/** {@link barrier2020} without the argument checks (the potentials' closures). */
function barrier2020Of(d: number, dHat: number): number {
  if (d <= 0) return Infinity;
  if (d >= dHat) return 0;
  const t = d - dHat;
  return -t * t * Math.log(d / dHat);
}

/**
 * Derivative b′(d) of {@link barrier2020}: (d̂ − d)(2 ln(d/d̂) − d̂/d + 1).
 *
 * @param d distance (m)
 * @param dHat activation distance (m)
 * @returns b′ (m), ≤ 0; −∞ for d ≤ 0
 * @example
 * ```ts
 * import { barrier2020Gradient } from "./barrier.ts";
 * import { expect } from "expect";
 * expect(barrier2020Gradient(0.5, 1)).toBeLessThan(0);
 * expect(barrier2020Gradient(2, 1)).toBe(0);
 * ```
 */
export function barrier2020Gradient(d: number, dHat: number): number {
  barrierArgs("barrier2020Gradient", d, dHat);
  return barrier2020GradientOf(d, dHat);
}

/** {@link barrier2020Gradient} without the argument checks (the potentials' closures). */
function barrier2020GradientOf(d: number, dHat: number): number {
  if (d <= 0) return -Infinity;
  if (d >= dHat) return 0;
  return (dHat - d) * (2 * Math.log(d / dHat) - dHat / d + 1);
}

/**
 * Second derivative b″(d) of {@link barrier2020}: (d̂/d + 2)(d̂/d) − 2 ln(d/d̂) − 3.
 *
 * @param d distance (m)
 * @param dHat activation distance (m)
 * @returns b″ (–), > 0 on (0, d̂); +∞ for d ≤ 0
 * @example
 * ```ts
 * import { barrier2020Hessian } from "./barrier.ts";
 * import { expect } from "expect";
 * expect(barrier2020Hessian(0.5, 1)).toBeGreaterThan(0);
 * expect(barrier2020Hessian(1, 1)).toBe(0);
 * ```
 */
export function barrier2020Hessian(d: number, dHat: number): number {
  barrierArgs("barrier2020Hessian", d, dHat);
  return barrier2020HessianOf(d, dHat);
}

/** {@link barrier2020Hessian} without the argument checks (the potentials' closures). */
function barrier2020HessianOf(d: number, dHat: number): number {
  if (d <= 0) return Infinity;
  if (d >= dHat) return 0;
  const r = dHat / d;
  return (r + 2) * r - 2 * Math.log(d / dHat) - 3;
}

/**
 * Physical (Convergent IPC) barrier b(d, d̂) = −d̂ (1 − s)² ln s, s = d/d̂ (units m).
 *
 * @param d distance (m)
 * @param dHat activation distance (m)
 * @returns b (m); +∞ for d ≤ 0, 0 for d ≥ d̂
 * @example
 * ```ts
 * import { barrier2020, physicalBarrier } from "./barrier.ts";
 * import { expect } from "expect";
 * expect(physicalBarrier(0.3, 2) * 2).toBeCloseTo(barrier2020(0.3, 2), 15);
 * ```
 */
export function physicalBarrier(d: number, dHat: number): number {
  barrierArgs("physicalBarrier", d, dHat);
  return physicalBarrierOf(d, dHat);
}

/** {@link physicalBarrier} without the argument checks (the potentials' closures). */
function physicalBarrierOf(d: number, dHat: number): number {
  if (d <= 0) return Infinity;
  if (d >= dHat) return 0;
  const s = d / dHat;
  return -dHat * (1 - s) * (1 - s) * Math.log(s);
}

/**
 * Derivative of {@link physicalBarrier}: b′(d) = (1 − s)(2 ln s + 1 − 1/s), s = d/d̂.
 *
 * @param d distance (m)
 * @param dHat activation distance (m)
 * @returns b′ (–), negative on (0, d̂)
 * @example
 * ```ts
 * import { physicalBarrierGradient } from "./barrier.ts";
 * import { expect } from "expect";
 * // the resting ratio at κ = 0.1E = 90 Pa under 300 Pa is s* ≈ 0.30
 * const pressure = -90 * physicalBarrierGradient(0.3, 1); // 298.7 Pa
 * expect(pressure).toBeGreaterThan(290);
 * expect(pressure).toBeLessThan(310);
 * ```
 */
export function physicalBarrierGradient(d: number, dHat: number): number {
  barrierArgs("physicalBarrierGradient", d, dHat);
  return physicalBarrierGradientOf(d, dHat);
}

/** {@link physicalBarrierGradient} without the argument checks (the potentials' closures). */
function physicalBarrierGradientOf(d: number, dHat: number): number {
  if (d <= 0) return -Infinity;
  if (d >= dHat) return 0;
  const s = d / dHat;
  return (1 - s) * (2 * Math.log(s) + 1 - 1 / s);
}

/**
 * Second derivative of {@link physicalBarrier}: b″(d) = (1/s² + 2/s − 3 − 2 ln s)/d̂.
 *
 * @param d distance (m)
 * @param dHat activation distance (m)
 * @returns b″ (1/m), positive and decreasing on (0, d̂)
 * @example
 * ```ts
 * import { physicalBarrierHessian } from "./barrier.ts";
 * import { expect } from "expect";
 * expect(physicalBarrierHessian(0.1, 1)).toBeGreaterThan(physicalBarrierHessian(0.5, 1));
 * ```
 */
export function physicalBarrierHessian(d: number, dHat: number): number {
  barrierArgs("physicalBarrierHessian", d, dHat);
  return physicalBarrierHessianOf(d, dHat);
}

/** {@link physicalBarrierHessian} without the argument checks (the potentials' closures). */
function physicalBarrierHessianOf(d: number, dHat: number): number {
  if (d <= 0) return Infinity;
  if (d >= dHat) return 0;
  const s = d / dHat;
  const r = 1 / s;
  return (r * r + 2 * r - 3 - 2 * Math.log(s)) / dHat;
}

/**
 * A scalar contact potential of the bar's end position y0 (the distance to the ground):
 * energy e(d) (J) with derivatives. Both the IPC barrier and the quadratic penalty implement
 * it; the implicit integrator adds it to the incremental potential.
 *
 * @example
 * ```ts
 * import { ipcPotential, type EndContactPotential } from "./barrier.ts";
 * import { expect } from "expect";
 * const p: EndContactPotential = ipcPotential({ kappa: 90, dHat: 0.1 });
 * expect(p.force(0.05)).toBeGreaterThan(0);
 * expect(p.force(0.2)).toBe(0);
 * expect(p.filtered).toBe(true);
 * ```
 */
export interface EndContactPotential {
  /** Whether the line search must apply the continuous-collision filter (barrier). */
  readonly filtered: boolean;
  /** Distance below which the potential is active (m): d̂ for IPC, 0 for penalty. */
  readonly activeBelow: number;
  /** Energy e(d) (J). */
  energy(d: number): number;
  /** de/dd (N). */
  gradient(d: number): number;
  /** d²e/dd² (N/m). */
  hessian(d: number): number;
  /** Contact force on the bar −de/dd (N), ≥ 0. */
  force(d: number): number;
}

/**
 * Options of {@link ipcPotential}.
 *
 * @example
 * ```ts
 * import type { IpcPotentialOptions } from "./barrier.ts";
 * import { expect } from "expect";
 * const o: IpcPotentialOptions = { kappa: 90, dHat: 0.1, form: "physical" };
 * expect(o.kappa).toBe(90);
 * ```
 */
export interface IpcPotentialOptions {
  /** Barrier stiffness κ: Pa for "physical", N/m for "2020". */
  kappa: number;
  /** Activation distance d̂ (m). */
  dHat: number;
  /** Contact face area A (m²), weight of the physical barrier. @default 1 */
  area?: number;
  /** Barrier form: B = κA·b_phys(d) ("physical") or B = κ·b₂₀₂₀(d) ("2020"). @default "physical" */
  form?: "physical" | "2020";
}

/**
 * The IPC contact energy of the bar end against the ground (spec §3.3): B = κ·A·b(d) with
 * the physical barrier, or κ·b₂₀₂₀(d) with the original one (κ₂₀₂₀ = κA/d̂ is equivalent).
 *
 * @param options κ, d̂, area, form
 * @returns the potential
 * @throws {RangeError} for d̂ ≤ 0, κ < 0 or area ≤ 0
 * @throws {TypeError} for an unknown form
 * @example
 * ```ts
 * import { ipcPotential } from "./barrier.ts";
 * import { expect } from "expect";
 * const a = ipcPotential({ kappa: 90, dHat: 0.1 });
 * const b = ipcPotential({ kappa: 900, dHat: 0.1, form: "2020" });
 * expect(a.energy(0.03)).toBeCloseTo(b.energy(0.03), 12);
 * ```
 */
export function ipcPotential(options: IpcPotentialOptions): EndContactPotential {
  const where = "ipcPotential";
  const o = checkOptions<IpcPotentialOptions>(where, "options", options, IPC_KEYS);
  const kappa = nonNegative(where, "kappa", o.kappa);
  const dHat = positive(where, "dHat", o.dHat);
  const area = positive(where, "area", o.area ?? 1);
  const form = o.form ?? "physical";
  if (form !== "physical" && form !== "2020") {
    throw new TypeError(`${where}: form (${JSON.stringify(form)}) must be "physical" or "2020"`);
  }
  const w = form === "physical" ? kappa * area : kappa * dHat; // κ·b₂₀₂₀ = κd̂·b_phys
  return {
    filtered: true,
    activeBelow: dHat,
    energy: (d) => (d >= dHat ? 0 : w * physicalBarrierOf(d, dHat)),
    gradient: (d) => (d >= dHat ? 0 : w * physicalBarrierGradientOf(d, dHat)),
    hessian: (d) => (d >= dHat ? 0 : w * physicalBarrierHessianOf(d, dHat)),
    force: (d) => (d >= dHat ? 0 : -w * physicalBarrierGradientOf(d, dHat)),
  };
}

/**
 * The ratio s* = d* / d̂ at which the physical barrier layer rests under a pressure λ:
 * the root of κ·φ₁(s) = λ, φ₁(s) = −b′ (spec §6). Solved by bisection.
 *
 * @param kappa barrier stiffness κ (Pa), > 0
 * @param pressure contact pressure λ (Pa), > 0 (ρcV = 300 Pa for the benchmark)
 * @returns s* in (0, 1)
 * @example
 * ```ts
 * import { barrierRestingRatio } from "./barrier.ts";
 * import { expect } from "expect";
 * expect(barrierRestingRatio(90, 300)).toBeCloseTo(0.30, 2);
 * expect(barrierRestingRatio(900, 300)).toBeCloseTo(0.70, 2);
 * ```
 */
export function barrierRestingRatio(kappa: number, pressure: number): number {
  const where = "barrierRestingRatio";
  positive(where, "kappa", kappa);
  positive(where, "pressure", pressure);
  let lo = 1e-300;
  let hi = 1;
  for (let i = 0; i < 200; i++) {
    const mid = lo < 1e-12 ? Math.sqrt(lo * hi) : 0.5 * (lo + hi);
    if (-kappa * physicalBarrierGradientOf(mid, 1) > pressure) lo = mid;
    else hi = mid;
  }
  return 0.5 * (lo + hi);
}

/**
 * Options of {@link resolutionRatio}.
 *
 * @example
 * ```ts
 * import type { ResolutionRatioOptions } from "./barrier.ts";
 * import { expect } from "expect";
 * const o: ResolutionRatioOptions = { kappa: 90, dHat: 0.1, dx: 0.1 };
 * expect(o.dx).toBe(0.1);
 * ```
 */
export interface ResolutionRatioOptions {
  /** Barrier stiffness κ (Pa). */
  kappa: number;
  /** Activation distance d̂ (m). */
  dHat: number;
  /** Element size Δx (m). */
  dx: number;
  /** Young's modulus E (Pa). @default 900 */
  youngsModulus?: number;
  /** Dynamic contact pressure ρcV (Pa). @default 300 */
  pressure?: number;
}

/**
 * Resolution ratio R = κ·φ₂(s*)·Δx/(E·d̂) of spec §6: barrier-layer tangent stiffness over
 * the stiffness of one element. R ≲ 3 is the clean regime of trapezoidal Newmark; R ≳ 15
 * chatters and gains energy.
 *
 * @param options κ, d̂, Δx, E, pressure
 * @returns R (–)
 * @throws {RangeError} for non-positive values
 * @example
 * ```ts
 * import { resolutionRatio } from "./barrier.ts";
 * import { expect } from "expect";
 * expect(resolutionRatio({ kappa: 90, dHat: 0.1, dx: 0.1 })).toBeCloseTo(1.73, 2);
 * ```
 */
export function resolutionRatio(options: ResolutionRatioOptions): number {
  const where = "resolutionRatio";
  const o = checkOptions<ResolutionRatioOptions>(where, "options", options, [
    "kappa",
    "dHat",
    "dx",
    "youngsModulus",
    "pressure",
  ]);
  const kappa = positive(where, "kappa", o.kappa);
  const dHat = positive(where, "dHat", o.dHat);
  const dx = positive(where, "dx", o.dx);
  const e = positive(where, "youngsModulus", o.youngsModulus ?? 900);
  const pressure = positive(where, "pressure", o.pressure ?? 300);
  const s = barrierRestingRatio(kappa, pressure);
  return (kappa * physicalBarrierHessianOf(s, 1) * dx) / (e * dHat);
}

const IPC_KEYS: readonly string[] = ["kappa", "dHat", "area", "form"];
