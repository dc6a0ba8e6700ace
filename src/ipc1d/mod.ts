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

export {
  AnalyticBarSolution,
  analyticSolution,
  type BarConstants,
  type BarEnergy,
  type BarFieldValue,
  bounceSolution,
  impactSolution,
} from "./analytic.ts";
export {
  barrier2020,
  barrier2020Gradient,
  barrier2020Hessian,
  barrierRestingRatio,
  type EndContactPotential,
  ipcPotential,
  type IpcPotentialOptions,
  physicalBarrier,
  physicalBarrierGradient,
  physicalBarrierHessian,
  resolutionRatio,
  type ResolutionRatioOptions,
} from "./barrier.ts";
export {
  type BarMatrices,
  barMatrices,
  elasticEnergy,
  solveTridiagonal,
  type SymmetricTridiagonal,
  tridiagonalMultiply,
  tridiagonalQuadraticForm,
} from "./fem.ts";
export { characteristicLattice, type LatticeOptions, type LatticeResult } from "./lattice.ts";
export {
  type BarMetrics,
  barMetrics,
  type ContactIntervalList,
  type ContactIntervalOptions,
  contactIntervals,
  convergenceOrders,
  type MetricColumns,
} from "./metrics.ts";
export {
  type BarTrajectory,
  type ImplicitIntegrationOptions,
  integrateImplicit,
  type IntegratorOptions,
} from "./newmark.ts";
export { type BarParameters, type BarProblem, resolveBarParameters } from "./params.ts";
export {
  type DemIntegrationOptions,
  integrateDem,
  penaltyPotential,
  type PenaltyPotentialOptions,
} from "./penalty.ts";
export {
  type BarRun,
  type ContactOptions,
  simulateBar,
  type SimulateBarOptions,
} from "./simulate.ts";
export {
  compareBar,
  type CompareBarOptions,
  type ComparisonCase,
  type ComparisonRow,
  type ConvergenceStudy,
  convergenceStudy,
  type ConvergenceStudyOptions,
  formatComparisonTable,
  formatConvergenceTable,
} from "./study.ts";
