/**
 * Math helpers: seeded random numbers, vector helpers, uniform cell grids.
 *
 * @module
 */
export * from "./rng.ts";
export * from "./vec.ts";
export * from "./grid.ts";
export * from "./progress.ts";
export * from "./worker_pool.ts";
