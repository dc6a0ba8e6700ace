/**
 * Options of {@linkcode StarSystemGpu}: the option, statistics and read types it takes and
 * gives (re-exported by system_gpu.ts), the option keys, and the checks and defaults of the
 * GPU's own options.
 *
 * @module
 */

import type { StepStats } from "../body.ts";
import { GRAIN_SYSTEM_KEYS } from "../options.ts";
import type { StarSystemOptions } from "../system.ts";
import { integerIn } from "../../math/validate.ts";
import type { GpuContext } from "./device.ts";
import { DEFAULT_SPRITE_RESOLUTION } from "./sprite.ts";
import { DEFAULT_CONTACT_SLOTS, DEFAULT_NEIGHBOR_SLOTS } from "./memory.ts";

/**
 * Options of {@linkcode StarSystemGpu}: the CPU system's, plus the GPU's own.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 */
export interface StarSystemGpuOptions extends Omit<StarSystemOptions, "contactPoints"> {
  /**
   * How node tests read a shape: its 2D "sprite" textures (the paper's GPU path: a few texel
   * reads, no atan2) or the CPU's 1D lookup tables (an atan2 and two table reads; agrees with
   * the CPU to float32 round-off). @default "sprite"
   */
  sampling?: "sprite" | "lut";
  /** Sprite texels per side, a multiple of 16 (32 bytes per texel per shape). @default 1024 */
  spriteResolution?: number;
  /**
   * Tangential-history slots per grain (contacts a grain owns: with higher-index grains and
   * walls; 6 at most in a settled packing of crosses, 14 in a layer of crosses dropped on
   * another). Contacts beyond it still act but start without history (`historyOverflow`).
   * 12 bytes per slot, twice. @default 16
   */
  contactSlots?: number;
  /**
   * Neighbour slots per grain: grains whose bounding circles intersect its own (5 on average
   * and 8 at most in a settled packing of crosses). More at any step make `run` throw. 20
   * bytes per slot. The defaults fit a million grains in WebGPU's default 128 MiB per binding
   * (see `gpuMemory`). @default 14
   */
  neighborSlots?: number;
  /** Steps recorded into one command buffer by `run`. @default 32 */
  batchSize?: number;
  /** A device to use (from {@linkcode requestGpu}); by default one is requested. */
  gpu?: GpuContext;
}

/**
 * Statistics of the last GPU step: the CPU system's, plus the history overflow.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 */
export interface GpuStepStats extends StepStats {
  /** Owned contacts that found no free history slot (they act, without tangential history). */
  historyOverflow: number;
}

/**
 * Options of {@linkcode StarSystemGpu.read}.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 */
export interface GpuReadOptions {
  /** Also read the contacts of the last step into `contacts`. @default false */
  contacts?: boolean;
  /** Also read the tangential histories (for `saveState` and `toSystem`). @default false */
  history?: boolean;
}

/** The system's name in messages. */
export const NAME = "StarSystemGpu";

/** Keys of the GPU's own options (all that `fromSystem` takes). */
export const GPU_OWN_KEYS: readonly string[] = [
  "sampling",
  "spriteResolution",
  "contactSlots",
  "neighborSlots",
  "batchSize",
  "gpu",
];

/** Keys of {@linkcode StarSystemGpuOptions}. */
export const GPU_KEYS: readonly string[] = [
  ...GRAIN_SYSTEM_KEYS,
  "distance",
  "detection",
  ...GPU_OWN_KEYS,
];

/** Keys of {@linkcode GpuReadOptions}. */
export const READ_KEYS: readonly string[] = ["contacts", "history"];

/** The GPU's own options, checked, with their defaults applied (all but `gpu`). */
export interface GpuConfig {
  /** How node tests read a shape. */
  sampling: "sprite" | "lut";
  /** Sprite texels per side. */
  spriteResolution: number;
  /** Tangential-history slots per grain. */
  contactSlots: number;
  /** Neighbour slots per grain. */
  neighborSlots: number;
  /** Steps per submitted command buffer. */
  batchSize: number;
}

/** Check the GPU's own options of `o` (the sprite size against `device`'s limits). */
export function gpuConfig(device: GPUDevice, o: StarSystemGpuOptions): GpuConfig {
  const sampling = o.sampling ?? "sprite";
  if (sampling !== "sprite" && sampling !== "lut") {
    throw new RangeError(`${NAME}: sampling (${sampling}) must be "sprite" or "lut"`);
  }
  const res = o.spriteResolution ?? DEFAULT_SPRITE_RESOLUTION;
  integerIn(NAME, "spriteResolution", res, 16, device.limits.maxTextureDimension2D);
  if (res % 16 !== 0) {
    throw new RangeError(`${NAME}: spriteResolution (${res}) must be a multiple of 16`);
  }
  return {
    sampling,
    spriteResolution: res,
    contactSlots: integerIn(
      NAME,
      "contactSlots",
      o.contactSlots ?? DEFAULT_CONTACT_SLOTS,
      1,
      256,
    ),
    neighborSlots: integerIn(
      NAME,
      "neighborSlots",
      o.neighborSlots ?? DEFAULT_NEIGHBOR_SLOTS,
      1,
      1024,
    ),
    batchSize: integerIn(NAME, "batchSize", o.batchSize ?? 32, 1, 4096),
  };
}

/** The CPU system's options: `o` without the GPU's own. */
export function withoutGpuKeys(o: StarSystemGpuOptions): StarSystemOptions {
  const {
    sampling: _s,
    spriteResolution: _r,
    contactSlots: _c,
    neighborSlots: _n,
    batchSize: _b,
    gpu: _g,
    ...cpu
  } = o;
  return cpu;
}
