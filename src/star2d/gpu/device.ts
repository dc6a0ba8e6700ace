/**
 * WebGPU adapter and device acquisition for the star2d GPU path, with errors that name what is
 * missing: `navigator.gpu` itself (a runtime without WebGPU), or an adapter (no GPU driver —
 * on Linux, Mesa's software Vulkan `mesa-vulkan-drivers` is enough for correctness).
 *
 * Deno 2 ships WebGPU (`navigator.gpu`) without a flag; Deno 1.x needed `--unstable-webgpu`.
 *
 * @module
 */

import { bool, options as checkOptions } from "../../math/validate.ts";

/**
 * Thrown when WebGPU or a GPU adapter is missing; the message says what to install.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 * @example
 * ```ts
 * import { gpu } from "@grainlab/grainlab/star2d";
 * const { WebGpuUnavailableError } = gpu;
 * import { expect } from "expect";
 * const e = new WebGpuUnavailableError("no adapter");
 * expect(e.name).toBe("WebGpuUnavailableError");
 * expect(e).toBeInstanceOf(Error);
 * ```
 */
export class WebGpuUnavailableError extends Error {
  /** Build the error with its message. */
  constructor(message: string) {
    super(message);
    this.name = "WebGpuUnavailableError";
  }
}

/**
 * Options of {@linkcode requestGpu}.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 */
export interface RequestGpuOptions {
  /** Adapter power preference. @default "high-performance" */
  powerPreference?: "low-power" | "high-performance";
  /** Accept a software (fallback) adapter such as Mesa's lavapipe. @default true */
  allowFallback?: boolean;
}

/**
 * A device with the adapter it came from.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 */
export interface GpuContext {
  /** The device, with the adapter's largest buffer and storage limits requested. */
  device: GPUDevice;
  /** The adapter. */
  adapter: GPUAdapter;
  /** A one-line name of the adapter, e.g. "llvmpipe (LLVM 15.0.6, 256 bits) (software)". */
  name: string;
  /** True for a software (fallback) adapter. */
  software: boolean;
}

const REQUEST_KEYS = ["powerPreference", "allowFallback"];

/** `navigator.gpu`, or null when this runtime has no WebGPU. */
function gpuApi(): GPU | null {
  const nav = (globalThis as { navigator?: { gpu?: GPU } }).navigator;
  return nav?.gpu ?? null;
}

/**
 * The adapter's one-line name: its description (or vendor and architecture), with
 * "(software)" for a fallback adapter.
 *
 * @example
 * ```ts
 * import { adapterName } from "./device.ts";
 * import { expect } from "expect";
 * const fake = { info: { description: "llvmpipe", vendor: "", architecture: "", isFallbackAdapter: true } };
 * expect(adapterName(fake as unknown as GPUAdapter)).toBe("llvmpipe (software)");
 * ```
 */
export function adapterName(adapter: GPUAdapter): string {
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const base = info.description ||
    [info.vendor, info.architecture, info.device].filter((s) => s).join(" ") || "unknown adapter";
  return info.isFallbackAdapter ? `${base} (software)` : base;
}

/**
 * Acquire a WebGPU adapter and device. Throws {@linkcode WebGpuUnavailableError} naming what
 * is missing: `navigator.gpu` (this runtime has no WebGPU) or an adapter (no GPU driver; on
 * Linux install a Vulkan driver — Mesa's `mesa-vulkan-drivers` gives a software one).
 *
 * The device asks for the adapter's largest storage-buffer binding, buffer size and number of
 * storage buffers per stage, so that large systems fit.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 * @example
 * ```ts
 * import { gpu } from "@grainlab/grainlab/star2d";
 * const { gpuAvailable, requestGpu } = gpu;
 * import { expect } from "expect";
 * if (await gpuAvailable()) {
 *   const gpu = await requestGpu();
 *   expect(gpu.name.length).toBeGreaterThan(0);
 *   gpu.device.destroy();
 * }
 * ```
 */
export async function requestGpu(options: RequestGpuOptions = {}): Promise<GpuContext> {
  const o = checkOptions<RequestGpuOptions>("requestGpu", "options", options, REQUEST_KEYS);
  bool("requestGpu", "allowFallback", o.allowFallback, true);
  const pref = o.powerPreference ?? "high-performance";
  if (pref !== "low-power" && pref !== "high-performance") {
    throw new RangeError(
      `requestGpu: powerPreference (${pref}) must be "low-power" or "high-performance"`,
    );
  }
  const gpu = gpuApi();
  if (!gpu) {
    throw new WebGpuUnavailableError(
      "requestGpu: WebGPU is missing: navigator.gpu is undefined in this runtime " +
        `(Deno ${Deno.version.deno}); use Deno 2 (WebGPU is built in) or run Deno 1.x with ` +
        "--unstable-webgpu",
    );
  }
  let adapter: GPUAdapter | null = null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: pref });
  } catch (e) {
    throw new WebGpuUnavailableError(
      `requestGpu: navigator.gpu.requestAdapter() failed (${(e as Error).message}); ` +
        "no usable GPU driver: install a Vulkan driver (on Debian/Ubuntu, Mesa's software " +
        "Vulkan: apt-get install mesa-vulkan-drivers)",
    );
  }
  if (!adapter) {
    throw new WebGpuUnavailableError(
      "requestGpu: no GPU adapter: navigator.gpu.requestAdapter() returned null; install a " +
        "Vulkan (Linux), Metal (macOS) or D3D12 (Windows) driver — on Debian/Ubuntu, Mesa's " +
        "software Vulkan is enough for correctness: apt-get install mesa-vulkan-drivers",
    );
  }
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  const software = info.isFallbackAdapter === true;
  if (software && o.allowFallback === false) {
    throw new WebGpuUnavailableError(
      `requestGpu: only a software adapter (${adapterName(adapter)}) is available and ` +
        "allowFallback is false",
    );
  }
  const lim = adapter.limits;
  const device = await adapter.requestDevice({
    requiredLimits: {
      maxStorageBufferBindingSize: lim.maxStorageBufferBindingSize,
      maxBufferSize: lim.maxBufferSize,
      maxStorageBuffersPerShaderStage: lim.maxStorageBuffersPerShaderStage,
      maxComputeWorkgroupsPerDimension: lim.maxComputeWorkgroupsPerDimension,
    },
  });
  return { device, adapter, name: adapterName(adapter), software };
}

let probe: Promise<boolean> | null = null;

/**
 * True when `navigator.gpu` exists and yields an adapter (checked once, then cached): the
 * guard for GPU tests and examples.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 * @example
 * ```ts
 * import { gpu } from "@grainlab/grainlab/star2d";
 * const { gpuAvailable } = gpu;
 * import { expect } from "expect";
 * expect(typeof (await gpuAvailable())).toBe("boolean");
 * ```
 */
export function gpuAvailable(): Promise<boolean> {
  probe ??= (async () => {
    const gpu = gpuApi();
    if (!gpu) return false;
    try {
      return (await gpu.requestAdapter()) !== null;
    } catch {
      return false;
    }
  })();
  return probe;
}
