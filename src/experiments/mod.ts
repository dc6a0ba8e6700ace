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
 * | {@link calibrateRftMemory} | a plate's pressure outlasts its push: it decays as e^{−x/ℓ} along a slide, faster (ℓ_sep) as it rises |
 * | {@link singleWheelTest} | Wong–Reece: a driven wheel's drawbar pull rises with slip and levels off; sinkage and torque grow |
 * | {@link rftValidation} | RFT against the DEM it came from: a C-leg and a tilted plate, force curves side by side |
 * | {@link deheapRftTable} | an RFT table for the deforming surface: the calibration plates' own heaps taken out |
 * | {@link robotOnGround} | a RHex-like robot walks alike on a DEM bed and on RFT calibrated from it |
 *
 * The fits each result carries ({@link BeverlooFit}, {@link PowerLawFit},
 * {@link ExponentialTail}) are typed here; the fitting helpers themselves
 * (`src/experiments/fit.ts`) are not part of the entry. Figures are left to
 * `@grainlab/grainlab/plot` (see `examples/classic_experiments.ts` and notebook 09).
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
export { hopperDischarge } from "./hopper.ts";
export type { DischargeRun, HopperOptions, HopperResult } from "./hopper.ts";
export { slotHopper } from "./hopper2d.ts";
export type { SlotClogging, SlotHopperOptions, SlotHopperResult, SlotRun } from "./hopper2d.ts";
export { starClogging } from "./clogging2d.ts";
export type {
  OutletRun,
  OutletSeries,
  StarCloggingOptions,
  StarCloggingResult,
} from "./clogging2d.ts";
export { janssenEffect } from "./janssen.ts";
export type { JanssenOptions, JanssenResult } from "./janssen.ts";
export { angleOfRepose } from "./repose.ts";
export type { Heap, ReposeOptions, ReposeResult } from "./repose.ts";
export { starColumnCollapse } from "./collapse2d.ts";
export type { CollapsedPile, StarCollapseOptions, StarCollapseResult } from "./collapse2d.ts";
export { clumpColumnCollapse } from "./collapse_clumps.ts";
export type {
  ClumpCollapseOptions,
  ClumpCollapseResult,
  CollapseMethod,
} from "./collapse_clumps.ts";
export { brazilNut } from "./brazil_nut.ts";
export type { BrazilNutOptions, BrazilNutResult, ShakeRun } from "./brazil_nut.ts";
export { forceDistribution, starForceDistribution } from "./force_distribution.ts";
export type {
  ForceDistributionOptions,
  ForceDistributionResult,
  ForceSample,
  StarForceOptions,
  StarForceResult,
} from "./force_distribution.ts";
export { restitutionVsSpeed } from "./restitution.ts";
export type {
  ImpactSeries,
  RestitutionVsSpeedOptions,
  RestitutionVsSpeedResult,
} from "./restitution.ts";
export type {
  ContactColumns,
  ExperimentScale,
  GrainOptions,
  Snapshot,
  SurfaceProfile,
} from "./common.ts";
export type { BeverlooFit, ExponentialTail, PowerLawFit } from "./fit.ts";
export { calibrateRft } from "./rft_calibration.ts";
export type { RftCalibration, RftCalibrationOptions } from "./rft_calibration.ts";
export { calibrateRftMemory } from "./rft_memory.ts";
export type { RftMemoryCalibration, RftMemoryOptions } from "./rft_memory.ts";
export { singleWheelTest } from "./single_wheel.ts";
export type { SingleWheelOptions, SingleWheelResult } from "./single_wheel.ts";
export { type RftValidation, rftValidation, type RftValidationOptions } from "./rft_validation.ts";
export { deheapRftTable, type RftDeheap, type RftDeheapOptions } from "./rft_deheap.ts";
export type { RftDeformChoice } from "./rft_bed.ts";
export { robotOnGround } from "./rft_robot.ts";
export type { RobotOnGroundOptions, RobotOnGroundResult } from "./rft_robot.ts";
