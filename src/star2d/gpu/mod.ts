/**
 * The star2d GPU path (WebGPU): {@linkcode StarSystemGpu}, the shape sprites and the device
 * helpers.
 *
 * Unstable: may change without notice.
 *
 * @experimental
 * @module
 */
export * from "./device.ts";
export { type GpuBufferSize, type GpuMemory, gpuMemory, type GpuMemoryOptions } from "./memory.ts";
export * from "./sprite.ts";
export * from "./system_gpu.ts";
