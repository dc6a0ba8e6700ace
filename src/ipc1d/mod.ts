/**
 * ipc1d — the elastic-bar contact benchmarks (Doyen–Ern–Piperno): a linearly elastic bar
 * dropped on a rigid ground, simulated with Incremental Potential Contact (barrier, Newmark
 * as an incremental potential, projected Newton with a collision filter), with an implicit
 * penalty and with an explicit DEM spring–dashpot, and compared with the exact solutions.
 * Barrier contact never penetrates; penalty chatters or dissipates.
 *
 * @example
 * ```ts
 * import { formatComparisonTable, compareBar, simulateBar } from "@grainlab/grainlab/ipc1d";
 * import { expect } from "expect";
 * const run = simulateBar({ problem: "impact", elements: 50 });
 * expect(run.metrics.minGap).toBeGreaterThan(0);
 * console.log(formatComparisonTable(compareBar({ elements: 20, cases: [{ contact: { kind: "ipc" } }] })));
 * ```
 *
 * @module
 */

export { simulateBar } from "./simulate.ts";
export type { BarRun, ContactOptions, SimulateBarOptions } from "./simulate.ts";
export {
  compareBar,
  convergenceStudy,
  formatComparisonTable,
  formatConvergenceTable,
} from "./study.ts";
export type {
  CompareBarOptions,
  ComparisonCase,
  ComparisonRow,
  ConvergenceStudy,
  ConvergenceStudyOptions,
} from "./study.ts";
export type { BarParameters, BarProblem } from "./params.ts";
export type { BarMetrics, ContactIntervalList } from "./metrics.ts";
export type { BarTrajectory } from "./newmark.ts";
export type { IntegratorOptions } from "./newmark_options.ts";
