/**
 * The star2d GPU path (WebGPU): {@linkcode StarSystemGpu}, the shape sprites and the device
 * helpers.
 *
 * @module
 */
export * from "./device.ts";
export * from "./sprite.ts";
export * from "./system_gpu.ts";
