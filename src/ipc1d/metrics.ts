/**
 * Error measures of spec §7.2 against the analytic solution, contact-interval detection and
 * convergence orders between meshes.
 *
 * @module
 */

import type { AnalyticBarSolution } from "./analytic.ts";
import { finite, options as checkOptions, positive } from "../math/validate.ts";

/**
 * The columns a metric needs (any run result or trajectory provides them).
 *
 * @example
 * ```ts
 * import type { MetricColumns } from "./metrics.ts";
 * import { expect } from "expect";
 * const t = new Float64Array([0, 1]);
 * const c: MetricColumns = { time: t, endPosition: t, endVelocity: t, contactForce: t, energy: t };
 * expect(c.time).toHaveLength(2);
 * ```
 */
export interface MetricColumns {
  /** Times (s), increasing. */
  readonly time: Float64Array;
  /** Contact-end position (m). */
  readonly endPosition: Float64Array;
  /** Contact-end velocity (m/s). */
  readonly endVelocity: Float64Array;
  /** Contact force (N). */
  readonly contactForce: Float64Array;
  /** Total energy (J). */
  readonly energy: Float64Array;
}

/**
 * Error measures of a run against the exact solution (spec §7.2); time integrals use the
 * trapezoid rule on the step grid, the horizon is the last time of the run. The exact force
 * is sampled on half-open windows [on, off): a sample exactly at a release takes F_ex = 0
 * (the convention of the spec's reference tables).
 *
 * @example
 * ```ts
 * import { simulateBar, type BarMetrics } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const m: BarMetrics = simulateBar({ elements: 20 }).metrics;
 * expect(m.minGap).toBeGreaterThan(0);
 * expect(m.contactCyclesFirst).toBe(1);
 * ```
 */
export interface BarMetrics {
  /** L2_err_y0 = √((1/t_end)∫(y0_h − y0_ex)² dt) (m). */
  readonly l2ErrEndPosition: number;
  /** max_err_y0 = maxₙ |y0_h − y0_ex| (m). */
  readonly maxErrEndPosition: number;
  /** F_rel_L1 = ∫|F_h − F_ex| dt / ∫F_ex dt (–). */
  readonly forceRelL1: number;
  /** impulse_rel_err = (∫F_h − ∫F_ex)/∫F_ex (–). */
  readonly impulseRelErr: number;
  /** E_drift_rel = maxₙ |𝓔ₙ − 𝓔_ex|/𝓔_ex (–). */
  readonly energyDrift: number;
  /** Largest relative energy gain maxₙ (𝓔ₙ − 𝓔_ex)/𝓔_ex (–); > 0 means energy was created. */
  readonly maxEnergyGain: number;
  /** Relative energy lost at the end of the run (𝓔_ex − 𝓔_last)/𝓔_ex (–). */
  readonly finalEnergyLoss: number;
  /** min_gap = minₙ y0_h (m); < 0 is penetration. */
  readonly minGap: number;
  /** Peak contact force maxₙ F_h (N). */
  readonly peakForce: number;
  /** Rising edges of F_h > 1 % of ρcVA in the first exact window ± 0.05 s (1 = clean). */
  readonly contactCyclesFirst: number;
  /** std(F_h − F_ex)/(ρcVA) inside the first window, 0.05 s trimmed at both ends (–). */
  readonly forceOscStdRel: number;
  /** Mean end velocity over (t_r + 0.1, t_end] (impact; exact +V), `null` for bounce. */
  readonly meanVelocityAfter: number | null;
  /** Contact intervals (rising edges) around each exact window that starts before t_end. */
  readonly intervalsPerImpact: number[];
}

/**
 * Options of {@link contactIntervals}.
 *
 * @example
 * ```ts
 * import type { ContactIntervalOptions } from "./metrics.ts";
 * import { expect } from "expect";
 * const o: ContactIntervalOptions = { threshold: 3 };
 * expect(o.threshold).toBe(3);
 * ```
 */
export interface ContactIntervalOptions {
  /** Force above which the end counts as in contact (N). @default 3 (1 % of ρcVA) */
  threshold?: number;
}

/**
 * On/off times of the contact intervals (F > threshold) of a run.
 *
 * @example
 * ```ts
 * import { type ContactIntervalList } from "@grainlab/grainlab/ipc1d";
 * import { contactIntervals } from "./metrics.ts";
 * import { expect } from "expect";
 * const l: ContactIntervalList = contactIntervals({
 *   time: new Float64Array([0, 1, 2]), contactForce: new Float64Array([0, 9, 0]),
 * });
 * expect(l.on[0]).toBe(1);
 * expect(l.off[0]).toBe(2);
 * ```
 */
export interface ContactIntervalList {
  /** Times (s) of the first sample above the threshold. */
  readonly on: Float64Array;
  /** Times (s) of the first sample back at or below the threshold (last time if still on). */
  readonly off: Float64Array;
}

/**
 * Detects contact intervals from a force column.
 *
 * @param columns `time` and `contactForce`
 * @param options threshold (N)
 * @returns on/off times
 * @throws {RangeError} for a non-finite threshold
 * @example
 * ```ts
 * import { simulateBar } from "@grainlab/grainlab/ipc1d";
 * import { contactIntervals } from "./metrics.ts";
 * import { expect } from "expect";
 * const run = simulateBar({ problem: "bounce", elements: 30, tEnd: 6 });
 * const { on } = contactIntervals(run);
 * expect(on).toHaveLength(2);
 * expect(on[0]).toBeCloseTo(1, 1); // 0.972 s: within 0.05 s of the exact 1 s
 * ```
 */
export function contactIntervals(
  columns: Pick<MetricColumns, "time" | "contactForce">,
  options?: ContactIntervalOptions,
): ContactIntervalList {
  const o = checkOptions<ContactIntervalOptions>("contactIntervals", "options", options, [
    "threshold",
  ]);
  const thr = finite("contactIntervals", "threshold", o.threshold ?? 3);
  checkColumns("contactIntervals", columns, ["time", "contactForce"]);
  const t = columns.time;
  const f = columns.contactForce;
  const on: number[] = [];
  const off: number[] = [];
  let inside = false;
  for (let i = 0; i < f.length; i++) {
    const above = f[i] > thr;
    if (above && !inside) on.push(t[i]);
    if (!above && inside) off.push(t[i]);
    inside = above;
  }
  if (inside) off.push(t[t.length - 1]);
  return { on: Float64Array.from(on), off: Float64Array.from(off) };
}

/**
 * Computes the spec §7.2 error measures of a run against an exact solution.
 *
 * @param columns the run's time columns
 * @param solution the exact solution of the same problem and bar
 * @returns the metrics
 * @example
 * ```ts
 * import { simulateBar } from "@grainlab/grainlab/ipc1d";
 * import { barMetrics } from "./metrics.ts";
 * import { impactSolution } from "./analytic.ts";
 * import { expect } from "expect";
 * const run = simulateBar({ elements: 20 });
 * const m = barMetrics(run, impactSolution());
 * expect(m.l2ErrEndPosition).toBe(run.metrics.l2ErrEndPosition);
 * ```
 */
export function barMetrics(columns: MetricColumns, solution: AnalyticBarSolution): BarMetrics {
  checkColumns("barMetrics", columns, [
    "time",
    "endPosition",
    "endVelocity",
    "contactForce",
    "energy",
  ]);
  if (solution === null || typeof solution !== "object" || !solution.constants) {
    throw new TypeError(
      `barMetrics: solution (${String(solution)}) must be an AnalyticBarSolution`,
    );
  }
  const t = columns.time;
  const y = columns.endPosition;
  const f = columns.contactForce;
  const en = columns.energy;
  const n = t.length;
  if (n < 2) throw new RangeError(`barMetrics: time (length ${n}) must hold at least 2 samples`);
  const k = solution.constants;
  const tEnd = t[n - 1];
  const e0 = k.totalEnergy;
  const fRef = k.impedance * k.impactSpeed;
  const thr = 0.01 * fRef;
  let l2 = 0;
  let maxErr = 0;
  let fAbs = 0;
  let fH = 0;
  let fEx = 0;
  let drift = 0;
  let gain = -Infinity;
  let minGap = Infinity;
  let peak = 0;
  let prevDy = 0;
  let prevDf = 0;
  let prevF = 0;
  let prevFe = 0;
  const windows = solution.contactWindows(tEnd);
  const edgeTol = 1e-9 * (1 + tEnd);
  // exact force on the grid over half-open windows [on, off): a sample exactly at a release
  // takes 0, the convention of the spec's reference tables
  const exactForce = (ti: number): number => {
    for (const [, b] of windows) {
      if (Math.abs(ti - b) <= edgeTol) return 0;
    }
    return solution.contactForce(ti);
  };
  for (let i = 0; i < n; i++) {
    const dy = y[i] - solution.endPosition(t[i]);
    const fe = exactForce(t[i]);
    const df = Math.abs(f[i] - fe);
    if (i > 0) {
      const dt = t[i] - t[i - 1];
      l2 += 0.5 * dt * (dy * dy + prevDy * prevDy);
      fAbs += 0.5 * dt * (df + prevDf);
      fH += 0.5 * dt * (f[i] + prevF);
      fEx += 0.5 * dt * (fe + prevFe);
    }
    prevDy = dy;
    prevDf = df;
    prevF = f[i];
    prevFe = fe;
    const ady = Math.abs(dy);
    if (ady > maxErr) maxErr = ady;
    const de = (en[i] - e0) / e0;
    if (Math.abs(de) > drift) drift = Math.abs(de);
    if (de > gain) gain = de;
    if (y[i] < minGap) minGap = y[i];
    if (f[i] > peak) peak = f[i];
  }
  // contact cycles around every exact window
  const edges = (lo: number, hi: number): number => {
    let c = 0;
    for (let i = 1; i < n; i++) {
      if (t[i] >= lo && t[i] <= hi && f[i] > thr && f[i - 1] <= thr) c++;
    }
    return c;
  };
  const first = windows.length > 0 ? windows[0] : [k.contactTime, k.releaseTime];
  const cyclesFirst = edges(first[0] - 0.05, first[1] + 0.05);
  const intervalsPerImpact = windows.map(([a, b]) => edges(a - 0.5, b + 0.5));
  // force oscillation inside the first window
  let sum = 0;
  let sum2 = 0;
  let cnt = 0;
  for (let i = 0; i < n; i++) {
    if (t[i] >= first[0] + 0.05 && t[i] <= first[1] - 0.05) {
      const r = (f[i] - exactForce(t[i])) / fRef;
      sum += r;
      sum2 += r * r;
      cnt++;
    }
  }
  const mean = cnt > 0 ? sum / cnt : 0;
  const osc = cnt > 0 ? Math.sqrt(Math.max(0, sum2 / cnt - mean * mean)) : 0;
  let vAfter: number | null = null;
  if (solution.problem === "impact") {
    let s = 0;
    let c = 0;
    for (let i = 0; i < n; i++) {
      if (t[i] > k.releaseTime + 0.1) {
        s += columns.endVelocity[i];
        c++;
      }
    }
    if (c > 0) vAfter = s / c;
  }
  return {
    l2ErrEndPosition: Math.sqrt(l2 / tEnd),
    maxErrEndPosition: maxErr,
    forceRelL1: fEx > 0 ? fAbs / fEx : fAbs,
    impulseRelErr: fEx > 0 ? (fH - fEx) / fEx : fH,
    energyDrift: drift,
    maxEnergyGain: gain,
    finalEnergyLoss: (e0 - en[n - 1]) / e0,
    minGap,
    peakForce: peak,
    contactCyclesFirst: cyclesFirst,
    forceOscStdRel: osc,
    meanVelocityAfter: vAfter,
    intervalsPerImpact,
  };
}

/**
 * Observed convergence orders log(e₁/e₂)/log(Δx₁/Δx₂) between successive meshes.
 *
 * @param errors errors on successive meshes (all > 0)
 * @param spacings element sizes Δx of the same meshes (all > 0)
 * @returns one order per successive pair (length n − 1)
 * @throws {RangeError} for mismatched lengths or non-positive values
 * @example
 * ```ts
 * import { convergenceOrders } from "./metrics.ts";
 * import { expect } from "expect";
 * const p = convergenceOrders([4e-2, 1e-2], [0.2, 0.1]);
 * expect(p[0]).toBeCloseTo(2, 12);
 * ```
 */
export function convergenceOrders(
  errors: ArrayLike<number>,
  spacings: ArrayLike<number>,
): Float64Array {
  for (const [name, v] of [["errors", errors], ["spacings", spacings]] as const) {
    if (v === null || typeof v !== "object" || typeof v.length !== "number") {
      throw new TypeError(`convergenceOrders: ${name} (${String(v)}) must be an array`);
    }
  }
  if (errors.length !== spacings.length) {
    throw new RangeError(
      `convergenceOrders: errors (length ${errors.length}) and spacings (length ${spacings.length}) must have equal lengths`,
    );
  }
  const out = new Float64Array(Math.max(0, errors.length - 1));
  for (let i = 0; i < errors.length; i++) {
    positive("convergenceOrders", `errors[${i}]`, errors[i]);
    positive("convergenceOrders", `spacings[${i}]`, spacings[i]);
  }
  for (let i = 0; i + 1 < errors.length; i++) {
    out[i] = Math.log(errors[i] / errors[i + 1]) / Math.log(spacings[i] / spacings[i + 1]);
  }
  return out;
}

/** Throw unless `columns` holds the named arrays, all of the length of `time`. */
function checkColumns(where: string, columns: unknown, names: readonly string[]): void {
  if (columns === null || typeof columns !== "object") {
    throw new TypeError(`${where}: columns (${String(columns)}) must be an object of arrays`);
  }
  const c = columns as Record<string, ArrayLike<number> | undefined>;
  const n = c.time?.length;
  for (const k of names) {
    const v = c[k];
    if (v === null || typeof v !== "object" || typeof v.length !== "number") {
      throw new TypeError(`${where}: columns.${k} (${String(v)}) must be an array`);
    }
    if (v.length !== n) {
      throw new RangeError(
        `${where}: columns.${k} (length ${v.length}) must have the length of columns.time (${n})`,
      );
    }
  }
}
