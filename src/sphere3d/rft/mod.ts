/**
 * Terradynamics: resistive-force theory (RFT) for bodies in granular media — the model of Li,
 * Zhang & Goldman (2013), tables of α_z and α_x with their fit to the Fourier form, and the RFT
 * ground of `World.addRftGround`. Re-exported by `@grainlab/grainlab/sphere3d`; see
 * `docs/terradynamics.md`.
 *
 * @module
 */
export {
  RFT_COEFFICIENT_NAMES,
  RFT_GENERIC,
  rftAlphaX,
  rftAlphaZ,
  rftElementForce,
  RftFourier,
} from "./model.ts";
export type { RftCoefficients, RftElement, RftStressModel } from "./model.ts";
export { RftTable, rftTableFromFourier } from "./table.ts";
export type { RftFourierTableOptions, RftSource, RftTableSpec } from "./table.ts";
export { fitRft } from "./fit.ts";
export type { RftFit, RftSamples } from "./fit.ts";
export { RftGround } from "./ground.ts";
export type { RftElementForces, RftGroundOptions } from "./ground.ts";
export { RftHeightMap } from "./surface.ts";
export type { RftDeformOptions } from "./surface.ts";
