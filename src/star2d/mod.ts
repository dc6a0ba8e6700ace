/**
 * # star2d — star-shaped, non-convex grains in 2D (the StarDEM method)
 *
 * Grains whose boundary is a star shape r(α) (a Fourier sum), with nodes-to-surface contact
 * detection, the first-order (Taubin) overlap estimate, walls and rotating drums, the disk and
 * sphere-clump baselines, and the paper's four scenes. SI units throughout.
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
export * from "./shape.ts";
export * from "./distance.ts";
export * from "./walls.ts";
export * from "./contacts.ts";
export * from "./body.ts";
export * from "./detect.ts";
export * from "./sprite.ts";
export * from "./system.ts";
export * from "./clump.ts";
export * from "./clump_detect.ts";
export * from "./scenes.ts";
export * from "./gpu/mod.ts";
export { STAR2D_CHECKPOINT_MAGIC, STAR2D_CHECKPOINT_VERSION } from "./checkpoint.ts";
export type { SaveStateOptions } from "./checkpoint.ts";
export type { ProgressOptions, RunOptions } from "../math/progress.ts";
export {
  CONTACT_KIND_NAMES,
  ContactKind,
  type ContactKindName,
  ContactRecord,
} from "../contact/record.ts";
export type { ProfileTotals, StepProfile, StepStatsCore } from "../contact/stats.ts";
