/**
 * Comparison and refinement studies built on {@link simulateBar}: the IPC vs penalty vs DEM
 * table of spec §8 and the convergence tables of spec §7.3–7.4, with markdown formatters.
 *
 * @module
 */

import type { BarMetrics } from "./metrics.ts";
import { convergenceOrders } from "./metrics.ts";
import {
  type ContactOptions,
  SIMULATE_BAR_KEYS,
  simulateBar,
  type SimulateBarOptions,
} from "./simulate.ts";
import { options as checkOptions, positiveInteger } from "../math/validate.ts";

/**
 * One configuration of a comparison: a contact model plus optional overrides.
 *
 * @example
 * ```ts
 * import type { ComparisonCase } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const c: ComparisonCase = { label: "stiff DEM", contact: { kind: "dem", stiffness: 1e6 } };
 * expect(c.contact.kind).toBe("dem");
 * ```
 */
export interface ComparisonCase {
  /** Row label. @default the run's own label */
  label?: string;
  /** Contact model. */
  contact: ContactOptions;
  /** Per-case overrides of the shared options (elements, integrator, mass, courant, …). */
  options?: Omit<SimulateBarOptions, "contact" | "problem">;
}

/**
 * Options of {@link compareBar}.
 *
 * @example
 * ```ts
 * import type { CompareBarOptions } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const o: CompareBarOptions = { elements: 50 };
 * expect(o.elements).toBe(50);
 * ```
 */
export interface CompareBarOptions extends Omit<SimulateBarOptions, "contact"> {
  /** Configurations to run. @default the nine rows of spec §8 (IPC, 3 penalties, 5 DEM) */
  cases?: ComparisonCase[];
}

/**
 * One row of a comparison or convergence table.
 *
 * @example
 * ```ts
 * import { compareBar, type ComparisonRow } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const rows: ComparisonRow[] = compareBar({ elements: 20, cases: [{ contact: { kind: "ipc" } }] });
 * expect(rows[0].metrics.minGap).toBeGreaterThan(0);
 * ```
 */
export interface ComparisonRow {
  /** Configuration label. */
  readonly label: string;
  /** Number of elements N. */
  readonly elements: number;
  /** Element size Δx (m). */
  readonly dx: number;
  /** Number of time steps. */
  readonly steps: number;
  /** Mean Newton iterations per step (0 for explicit runs). */
  readonly newtonPerStep: number;
  /** Spec §7.2 metrics. */
  readonly metrics: BarMetrics;
  /** True when the run was flagged for energy growth. */
  readonly energyBlowUp: boolean;
  /** Diagnostics of the run. */
  readonly warnings: string[];
}

/** The comparison of spec §8. */
function defaultCases(): ComparisonCase[] {
  return [
    { label: "IPC d̂=Δx, κ=0.1E", contact: { kind: "ipc", dHat: "dx" } },
    { label: "implicit penalty k_p=1e4", contact: { kind: "penalty", stiffness: 1e4 } },
    { label: "implicit penalty k_p=1e5", contact: { kind: "penalty", stiffness: 1e5 } },
    { label: "implicit penalty k_p=1e6", contact: { kind: "penalty", stiffness: 1e6 } },
    { label: "DEM k_n=1e4, ζ=0", contact: { kind: "dem", stiffness: 1e4, damping: 0 } },
    { label: "DEM k_n=1e5, ζ=0", contact: { kind: "dem", stiffness: 1e5, damping: 0 } },
    { label: "DEM k_n=1e5, ζ=0.3", contact: { kind: "dem", stiffness: 1e5, damping: 0.3 } },
    { label: "DEM k_n=1e6, ζ=0", contact: { kind: "dem", stiffness: 1e6, damping: 0 } },
    { label: "DEM k_n=1e6, ζ=0.3", contact: { kind: "dem", stiffness: 1e6, damping: 0.3 } },
  ];
}

/**
 * Runs several contact models on the same bar and collects their metrics (spec §8).
 *
 * @param options shared options and the cases (default: the nine rows of spec §8)
 * @returns one row per case
 * @throws {RangeError|TypeError} as {@link simulateBar}
 * @example
 * ```ts
 * import { compareBar } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const rows = compareBar({
 *   elements: 50,
 *   cases: [{ contact: { kind: "ipc" } }, { contact: { kind: "dem", stiffness: 1e5 } }],
 * });
 * expect(rows[0].metrics.minGap).toBeGreaterThan(0);
 * expect(rows[1].metrics.minGap).toBeLessThan(0);
 * ```
 */
export function compareBar(options?: CompareBarOptions): ComparisonRow[] {
  const where = "compareBar";
  const o = checkOptions<CompareBarOptions>(where, "options", options, COMPARE_KEYS);
  const { cases, ...shared } = o;
  const list = cases === undefined ? defaultCases() : cases;
  if (!Array.isArray(list) || list.length === 0) {
    throw new TypeError(`${where}: cases (${String(list)}) must be a non-empty array`);
  }
  // check every case before running any
  const checked = list.map((c, i) => {
    const cc = checkOptions<ComparisonCase>(where, `cases[${i}]`, c, CASE_KEYS);
    checkOptions(where, `cases[${i}].options`, cc.options, CASE_OPTION_KEYS);
    return cc;
  });
  return checked.map((cc) => {
    const run = simulateBar({ ...shared, ...cc.options, contact: cc.contact });
    return {
      label: cc.label ?? run.label,
      elements: run.elements,
      dx: run.dx,
      steps: run.time.length - 1,
      newtonPerStep: run.newtonPerStep,
      metrics: run.metrics,
      energyBlowUp: run.energyBlowUp,
      warnings: run.warnings,
    };
  });
}

/**
 * Options of {@link convergenceStudy}.
 *
 * @example
 * ```ts
 * import type { ConvergenceStudyOptions } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const o: ConvergenceStudyOptions = { meshes: [50, 100, 200] };
 * expect(o.meshes).toHaveLength(3);
 * ```
 */
export interface ConvergenceStudyOptions extends Omit<SimulateBarOptions, "elements"> {
  /** Element counts, increasing. @default [50, 100, 200, 400] */
  meshes?: number[];
}

/**
 * A refinement study: one row per mesh and the observed orders between successive meshes.
 *
 * @example
 * ```ts
 * import { convergenceStudy, type ConvergenceStudy } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const s: ConvergenceStudy = convergenceStudy({ meshes: [20, 40] });
 * expect(s.orders.energyDrift).toHaveLength(1);
 * ```
 */
export interface ConvergenceStudy {
  /** One row per mesh. */
  readonly rows: ComparisonRow[];
  /** Orders log(e₁/e₂)/log(Δx₁/Δx₂) between successive meshes, per metric. */
  readonly orders: {
    /** Order of L2_err_y0. */
    readonly l2ErrEndPosition: Float64Array;
    /** Order of max_err_y0. */
    readonly maxErrEndPosition: Float64Array;
    /** Order of F_rel_L1. */
    readonly forceRelL1: Float64Array;
    /** Order of E_drift. */
    readonly energyDrift: Float64Array;
  };
}

/**
 * Refines the mesh along the resolved path (by default d̂ = Δx, κ = 0.1E, h = 0.5Δx/c, so
 * d̂ and h shrink with Δx) and reports the metrics and observed orders (spec §7.3).
 *
 * @param options shared options and the meshes
 * @returns rows and orders
 * @throws {RangeError} for fewer than two meshes or non-increasing element counts
 * @example
 * ```ts
 * import { convergenceStudy } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const s = convergenceStudy({ meshes: [25, 50] });
 * expect(s.orders.l2ErrEndPosition[0]).toBeGreaterThan(0.8);
 * ```
 */
export function convergenceStudy(options?: ConvergenceStudyOptions): ConvergenceStudy {
  const where = "convergenceStudy";
  const o = checkOptions<ConvergenceStudyOptions>(where, "options", options, CONVERGENCE_KEYS);
  const { meshes, contact, ...shared } = o;
  const list = meshes === undefined ? [50, 100, 200, 400] : meshes;
  if (!Array.isArray(list) || list.length < 2) {
    throw new RangeError(`${where}: meshes (${String(list)}) must list at least two meshes`);
  }
  list.forEach((m, i) => {
    positiveInteger(where, `meshes[${i}]`, m);
    if (i > 0 && !(m > list[i - 1])) {
      throw new RangeError(`${where}: meshes (${list.join(", ")}) must be increasing`);
    }
  });
  const rows = compareBar({
    ...shared,
    cases: list.map((N) => ({
      label: `N=${N}`,
      contact: contact === undefined ? { kind: "ipc", dHat: "dx" } : contact,
      options: { elements: N },
    })),
  });
  const dxs = rows.map((r) => r.dx);
  const ord = (pick: (m: BarMetrics) => number): Float64Array => {
    const e = rows.map((r) => pick(r.metrics));
    return e.every((x) => x > 0) ? convergenceOrders(e, dxs) : new Float64Array(e.length - 1);
  };
  return {
    rows,
    orders: {
      l2ErrEndPosition: ord((m) => m.l2ErrEndPosition),
      maxErrEndPosition: ord((m) => m.maxErrEndPosition),
      forceRelL1: ord((m) => m.forceRelL1),
      energyDrift: ord((m) => m.energyDrift),
    },
  };
}

/**
 * Formats comparison rows as a markdown table with the columns of the issue: force error,
 * peak force, minimum gap, energy drift, contact cycles, rebound velocity (plus Newton/step).
 *
 * @param rows rows from {@link compareBar} or a study
 * @returns a markdown table
 * @example
 * ```ts
 * import { compareBar, formatComparisonTable } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const t = formatComparisonTable(compareBar({ elements: 20, cases: [{ contact: { kind: "ipc" } }] }));
 * expect(t.split("\n")).toHaveLength(3);
 * expect(t).toContain("F_rel_L1");
 * ```
 */
export function formatComparisonTable(rows: ComparisonRow[]): string {
  if (!Array.isArray(rows)) {
    throw new TypeError(`formatComparisonTable: rows (${String(rows)}) must be an array`);
  }
  const head =
    "| method | F_rel_L1 | F_max (N) | min_gap (m) | E_drift | contact cycles | v_after (m/s) | Newton/step |";
  const sep = "|---|---|---|---|---|---|---|---|";
  const lines = rows.map((r) => {
    const m = r.metrics;
    return `| ${r.label}${r.energyBlowUp ? " ⚠ blow-up" : ""} | ${sig(m.forceRelL1)} | ${
      m.peakForce.toFixed(0)
    } | ${sig(m.minGap)} | ${sig(m.energyDrift)} | ${m.contactCyclesFirst} | ${
      m.meanVelocityAfter === null ? "–" : m.meanVelocityAfter.toFixed(3)
    } | ${r.newtonPerStep > 0 ? r.newtonPerStep.toFixed(2) : "–"} |`;
  });
  return [head, sep, ...lines].join("\n");
}

/**
 * Formats a convergence study as a markdown table (spec §7.3 columns) followed by the orders.
 *
 * @param study the study
 * @returns markdown text
 * @example
 * ```ts
 * import { convergenceStudy, formatConvergenceTable } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const t = formatConvergenceTable(convergenceStudy({ meshes: [20, 40] }));
 * expect(t).toContain("orders");
 * ```
 */
export function formatConvergenceTable(study: ConvergenceStudy): string {
  if (study === null || typeof study !== "object" || !Array.isArray(study.rows)) {
    throw new TypeError(
      `formatConvergenceTable: study (${String(study)}) must be a convergenceStudy result`,
    );
  }
  const head =
    "| N | L2_err_y0 | max_err_y0 | F_rel_L1 | impulse err | F_max (N) | min_gap (m) | E_drift | v_after | Newton/step |";
  const sep = "|---|---|---|---|---|---|---|---|---|---|";
  const lines = study.rows.map((r) => {
    const m = r.metrics;
    return `| ${r.elements} | ${sig(m.l2ErrEndPosition)} | ${sig(m.maxErrEndPosition)} | ${
      sig(m.forceRelL1)
    } | ${sig(m.impulseRelErr)} | ${m.peakForce.toFixed(0)} | ${sig(m.minGap)} | ${
      sig(m.energyDrift)
    } | ${m.meanVelocityAfter === null ? "–" : m.meanVelocityAfter.toFixed(3)} | ${
      r.newtonPerStep.toFixed(2)
    } |`;
  });
  const o = study.orders;
  const list = (a: Float64Array): string => Array.from(a, (x) => x.toFixed(2)).join(", ");
  return [
    head,
    sep,
    ...lines,
    "",
    `orders: L2_err_y0 ${list(o.l2ErrEndPosition)} · max_err_y0 ${
      list(o.maxErrEndPosition)
    } · F_rel_L1 ${list(o.forceRelL1)} · E_drift ${list(o.energyDrift)}`,
  ].join("\n");
}

/** Three significant digits, exponent form for small/large values. */
function sig(x: number): string {
  const a = Math.abs(x);
  if (a !== 0 && (a < 1e-2 || a >= 1e4)) return x.toExponential(2);
  return x.toPrecision(3);
}

/** Keys of {@link CompareBarOptions}. */
const COMPARE_KEYS: readonly string[] = [
  ...SIMULATE_BAR_KEYS.filter((k) => k !== "contact"),
  "cases",
];

/** Keys of {@link ComparisonCase}. */
const CASE_KEYS: readonly string[] = ["label", "contact", "options"];

/** Keys of {@link ComparisonCase.options}. */
const CASE_OPTION_KEYS: readonly string[] = SIMULATE_BAR_KEYS.filter(
  (k) => k !== "contact" && k !== "problem",
);

/** Keys of {@link ConvergenceStudyOptions}. */
const CONVERGENCE_KEYS: readonly string[] = [
  ...SIMULATE_BAR_KEYS.filter((k) => k !== "elements"),
  "meshes",
];
