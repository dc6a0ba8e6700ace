/**
 * # star2d — star-shaped, non-convex grains in 2D (the StarDEM method)
 *
 * Grains whose boundary is a star shape r(α) (a Fourier sum), with nodes-to-surface contact
 * detection, the first-order (Taubin) overlap estimate, walls and rotating drums, the disk and
 * sphere-clump baselines, and the paper's four scenes. SI units throughout.
 *
 * The GPU backend (WebGPU) is the namespace `gpu` (`gpu.StarSystemGpu`, `gpu.requestGpu`,
 * `gpu.gpuAvailable`, …); it is unstable: it may change without notice.
 *
 * @example
 * ```ts
 * import { StarShape, StarSystem } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const sys = new StarSystem({ timeStep: 1e-4, friction: 0.5 });
 * const cross = StarShape.preset("cross", { area: 30e-6 });
 * sys.addGrains({ shape: cross, positions: [[0, 0.01], [0.002, 0.025]], angles: [0, 0.4] });
 * sys.walls.addBox({ min: [-0.03, 0], max: [0.03, 0.1] });
 * sys.run(500); // 0.05 s
 * expect(sys.lastStepStats.step).toBe(500);
 * // the lower grain has landed on the floor (free fall would take it 2.3 mm below it) ...
 * expect(sys.positions[1]).toBeGreaterThan(0);
 * expect(sys.positions[1]).toBeLessThan(0.01);
 * // ... while the upper one still falls freely: v = −g·t
 * expect(sys.velocities[3]).toBeCloseTo(-9.81 * 0.05, 9);
 * ```
 *
 * @module
 */
export { StarShape } from "./shape.ts";
export type { StarPresetName, StarPresetOptions, StarShapeOptions } from "./shape.ts";
export { StarSystem } from "./system.ts";
export type { StarGrainsOptions, StarSamplingOptions, StarSystemOptions } from "./system.ts";
export { ClumpSystem, DiskSystem } from "./clump.ts";
export type { ClumpGrainsOptions, DiskGrainsOptions } from "./clump.ts";
export { approximateByDisks } from "./clump_template.ts";
export type { ClumpTemplate } from "./clump_template.ts";
export type { GrainSystem2 } from "./body.ts";
export type { GrainInit, GrainSystemOptions, StepStats } from "./body_options.ts";
export type { SaveStateOptions } from "./checkpoint.ts";
export type { StarContacts } from "./contacts.ts";
export type { ContactRecord } from "../contact/record.ts";
export type { ProfileTotals, StepProfile, StepStatsCore } from "../contact/stats.ts";
export type { ProgressOptions, RunOptions } from "../math/progress.ts";
export { Walls } from "./walls.ts";
export type {
  BoxOptions,
  DrumOptions,
  PlaneOptions,
  SegmentOptions,
  WallCommonOptions,
} from "./walls.ts";
export { distanceErrorMap } from "./distance.ts";
export { starDistance } from "./star_distance.ts";
export type {
  DistanceErrorMap,
  DistanceErrorMapOptions,
  DistanceOptions,
  StarPose,
} from "./distance.ts";
export { archesScene, columnCollapseScene, drumScene, packingScene } from "./scenes.ts";
export type { SceneOptions, StarScene } from "./scenes.ts";
// The GPU backend (WebGPU) as one namespace — unstable: may change without notice.
export * as gpu from "./gpu/api.ts";
