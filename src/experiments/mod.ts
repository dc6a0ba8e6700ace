/**
 * # experiments — classic granular experiments, each checked against its published law
 *
 * Each function builds a scene, runs it and returns a plain result object (typed-array
 * series and fitted parameters); all are deterministic (seeded). Every experiment takes a
 * `scale`: `"smoke"` (seconds), `"ci"` (the default: the scenes the tests and notebook 09
 * run) or `"full"` (publication size), and explicit options override the preset.
 *
 * | function | law |
 * | --- | --- |
 * | {@link hopperDischarge} | Beverloo: W = C·ρ_b·√g·(D − k·d)^{5/2}, independent of fill height |
 * | {@link slotHopper} | Beverloo in 2D: W = C·ρ_b·√g·(D − k·d)^{3/2}; crosses jam a slot that disks pass |
 * | {@link starClogging} | star grains arch and jam a 2D outlet that disks pass |
 * | {@link janssenEffect} | Janssen: p(h) = ρ_b·g·λ·(1 − e^{−h/λ}), λ = L/(4·μ·K) |
 * | {@link angleOfRepose} | the angle of repose rises with rolling resistance |
 * | {@link starColumnCollapse} | crosses pile steeper than disks of the same area |
 * | {@link brazilNut} | a large intruder rises in a bed shaken at Γ ≥ 2, not at Γ < 1 |
 * | {@link forceDistribution}, {@link starForceDistribution} | P(f/⟨f⟩) ∝ e^{−β·f/⟨f⟩} above the mean, β ≈ 1–2 |
 * | {@link restitutionVsSpeed} | Hertz: contact time ∝ v^{−1/5}; the linear law's e and time do not depend on v |
 * | {@link calibrateRft} | RFT: a plate's resistance is α(β, γ)·A·depth; α gives ζ and the Fourier fit |
 *
 * The fitting helpers ({@link linearFit}, {@link powerLawFit}, {@link beverlooFit},
 * {@link janssenFit}, {@link exponentialTail}, {@link minimize1d}) are exported too. Figures
 * are left to `@grainlab/grainlab/plot` (see `examples/classic_experiments.ts` and notebook 09).
 *
 * @example
 * ```ts
 * import { restitutionVsSpeed } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = restitutionVsSpeed({ scale: "smoke" });
 * expect(r.elasticTimeExponent).toBeCloseTo(-0.2, 1); // t ∝ v^(−1/5)
 * expect(r.linearTimeSpread).toBeLessThan(0.01); // the linear law's time does not depend on v
 * ```
 *
 * @module
 */
export {
  type BeverlooFit,
  beverlooFit,
  type BeverlooFitOptions,
  type ExponentialTail,
  exponentialTail,
  type ExponentialTailOptions,
  type JanssenFit,
  janssenFit,
  type LinearFit,
  linearFit,
  minimize1d,
  type PowerLawFit,
  powerLawFit,
} from "./fit.ts";
export {
  type ContactColumns,
  experimentOptions,
  type ExperimentScale,
  G,
  GRAIN_KEYS,
  type GrainDefaults,
  type GrainMaterial,
  type GrainModel,
  type GrainOptions,
  logspace,
  numberList,
  resolveGrains,
  SCALES,
  type Snapshot,
  snapshot,
  type SnapshotSource,
  type SurfaceProfile,
  surfaceProfile,
} from "./common.ts";
export {
  type DischargeRun,
  hopperDischarge,
  type HopperOptions,
  type HopperResult,
  slopeIn,
  steadyRate,
} from "./hopper.ts";
export {
  type SlotClogging,
  slotHopper,
  type SlotHopperOptions,
  type SlotHopperResult,
  type SlotRun,
} from "./hopper2d.ts";
export {
  type OutletRun,
  type OutletSeries,
  starClogging,
  type StarCloggingOptions,
  type StarCloggingResult,
} from "./clogging2d.ts";
export { janssenEffect, type JanssenOptions, type JanssenResult } from "./janssen.ts";
export {
  angleOfRepose,
  flankAngles,
  type Heap,
  type ReposeOptions,
  type ReposeResult,
} from "./repose.ts";
export {
  type CollapsedPile,
  type StarCollapseOptions,
  type StarCollapseResult,
  starColumnCollapse,
} from "./collapse2d.ts";
export { collapsePile, type CollapsePileOptions } from "./collapse2d.ts";
export {
  type ClumpCollapseOptions,
  type ClumpCollapseResult,
  clumpColumnCollapse,
  type CollapseMethod,
} from "./collapse_clumps.ts";
export {
  brazilNut,
  type BrazilNutOptions,
  type BrazilNutResult,
  type ShakeRun,
} from "./brazil_nut.ts";
export {
  forceDistribution,
  type ForceDistributionOptions,
  type ForceDistributionResult,
  type ForceSample,
  normaliseBySlab,
  starForceDistribution,
  type StarForceOptions,
  type StarForceResult,
} from "./force_distribution.ts";
export {
  HERTZ_TIME_FACTOR,
  IMPACT_MODELS,
  type ImpactModel,
  type ImpactSeries,
  type RestitutionOptions,
  type RestitutionResult,
  restitutionVsSpeed,
} from "./restitution.ts";
export {
  calibrateRft,
  type RftCalibration,
  type RftCalibrationOptions,
  type RftCoefficients,
  type RftFit,
  type RftSource,
  type RftStressModel,
  type RftTable,
  type RftTableSpec,
} from "./rft_calibration.ts";
