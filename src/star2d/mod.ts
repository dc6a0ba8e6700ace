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
 * const sys = new StarSystem({ timeStep: 1e-4, friction: 0.5 });
 * const cross = StarShape.preset("cross", { area: 30e-6 });
 * sys.addGrains({ shape: cross, positions: [[0, 0.01], [0.002, 0.025]], angles: [0, 0.4] });
 * sys.walls.addBox({ min: [-0.03, 0], max: [0.03, 0.1] });
 * sys.run(500);
 * console.assert(sys.positions[1] < 0.1 && sys.lastStepStats.step === 500);
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
export * from "./system.ts";
export * from "./clump.ts";
export * from "./scenes.ts";
