/**
 * The star2d GPU backend (WebGPU) as the star2d entry offers it, the namespace `gpu`:
 * {@link StarSystemGpu} (a `StarSystem`-like system stepped on the device), the device
 * helpers {@link gpuAvailable} and {@link requestGpu}, the error a missing adapter throws
 * ({@link WebGpuUnavailableError}), and their option, statistics and sprite types.
 *
 * Unstable: may change without notice.
 *
 * @example
 * ```ts
 * import { gpu } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * // false where Deno has no WebGPU adapter; the CPU StarSystem then does the same work
 * expect(typeof (await gpu.gpuAvailable())).toBe("boolean");
 * ```
 *
 * @experimental
 * @module
 */
export { gpuAvailable, requestGpu, WebGpuUnavailableError } from "./device.ts";
export type { GpuContext, RequestGpuOptions } from "./device.ts";
export { StarSystemGpu } from "./system_gpu.ts";
export type { GpuReadOptions, GpuStepStats, StarSystemGpuOptions } from "./options.ts";
export type { StarSprite } from "./sprite.ts";
