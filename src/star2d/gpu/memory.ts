/**
 * The memory a {@linkcode StarSystemGpu} takes on the device: the byte size of each per-grain
 * buffer for a grain count and the slot counts, the bytes per grain, and the largest single
 * binding, which must fit the adapter's `maxStorageBufferBindingSize` (WebGPU's default
 * limit is 128 MiB; the defaults of the GPU options fit a million grains in it, and no kernel
 * binds more than WebGPU's default 8 storage buffers).
 *
 * Layout, per grain (K = `contactSlots`, L = `neighborSlots`; words of 4 bytes):
 * - state (×2, double-buffered): 12 words (tile, fraction, velocity, angle, ω, turns, shape,
 *   1/m, 1/I);
 * - tangential history (×2), in two bindings: the count and K partners (1 + K words), and K
 *   (key, spring ξ) pairs (2K words);
 * - poses: 16 words (tile, polar centre, trig, cell, centre-of-mass fraction, velocity, shape,
 *   r_max, angle, ω: all the force kernel reads of a grain);
 * - neighbour lists: a 4-word header, then 2L words: the owned neighbours (index, packed
 *   node range) from the front, the lower-index ones (index) from the back;
 * - force shares: L + 1 vec2 (the share of each owned neighbour, then the grain's own force);
 * - torques and statistics: L + 1 torques and 8 statistics words;
 * - the grid: bucket counts and offsets (2 buckets per grain, rounded up to a power of two)
 *   and the sorted grains; per-workgroup statistics partials.
 *
 * @module
 */

import { integerIn, options as checkOptions } from "../../math/validate.ts";
import { GRAIN_BYTES, POSE_BYTES } from "./layout.ts";
import { WG } from "./wgsl_common.ts";

/** Default tangential-history slots per grain (`contactSlots`). */
export const DEFAULT_CONTACT_SLOTS = 16;
/** Default neighbour slots per grain (`neighborSlots`). */
export const DEFAULT_NEIGHBOR_SLOTS = 14;
/** Statistics words per grain (in the torque buffer, after the torques). */
export const STAT_WORDS = 8;

/** Options of {@linkcode gpuMemory}: the slot counts of the system. */
export interface GpuMemoryOptions {
  /** Tangential-history slots per grain. @default 16 */
  contactSlots?: number;
  /** Neighbour slots per grain. @default 14 */
  neighborSlots?: number;
}

/** One buffer of a {@linkcode GpuMemory} layout. */
export interface GpuBufferSize {
  /** What it holds, e.g. "history". */
  name: string;
  /** Bytes of one copy (one binding). */
  bytes: number;
  /** Copies (2 for double-buffered ones). */
  copies: number;
  /** The option to lower when it does not fit ("the grain count" when none does). */
  knob: string;
}

/** The device memory of a system (see {@linkcode gpuMemory}). */
export interface GpuMemory {
  /** Grains. */
  grains: number;
  /** Grains with room (the buffers' capacity). */
  capacity: number;
  /** Grid buckets (a power of two, at least twice the capacity). */
  buckets: number;
  /** The per-grain buffers. */
  buffers: GpuBufferSize[];
  /** All of them, copies included (bytes). */
  totalBytes: number;
  /** `totalBytes / capacity`. */
  bytesPerGrain: number;
  /** The largest single buffer (bytes): what must fit `maxStorageBufferBindingSize`. */
  largestBinding: number;
}

/** The capacity that holds `n` grains: a multiple of 256, at least twice `old` when growing. */
export function capacityFor(n: number, old = 0): number {
  const need = 256 * Math.max(1, Math.ceil(n / 256));
  return old > 0 ? Math.max(need, 2 * old) : need;
}

/** The layout for `cap` grains with room and K, L slots (no checks). */
export function layoutFor(cap: number, K: number, L: number, grains = cap): GpuMemory {
  let buckets = 1024;
  while (buckets < 2 * cap) buckets *= 2;
  const buffers: GpuBufferSize[] = [
    { name: "state", bytes: GRAIN_BYTES * cap, copies: 2, knob: "the grain count" },
    { name: "history-ids", bytes: 4 * (1 + K) * cap, copies: 2, knob: "contactSlots" },
    { name: "history-springs", bytes: 8 * K * cap, copies: 2, knob: "contactSlots" },
    { name: "poses", bytes: POSE_BYTES * cap, copies: 1, knob: "the grain count" },
    { name: "neighbour-list", bytes: 4 * (4 + 2 * L) * cap, copies: 1, knob: "neighborSlots" },
    { name: "force-share", bytes: 8 * (L + 1) * cap, copies: 1, knob: "neighborSlots" },
    {
      name: "torque-and-statistics",
      bytes: 4 * (L + 1 + STAT_WORDS) * cap,
      copies: 1,
      knob: "neighborSlots",
    },
    { name: "bucket-count", bytes: 4 * (buckets + 1), copies: 1, knob: "the grain count" },
    { name: "grid", bytes: 4 * (buckets + 1 + cap), copies: 1, knob: "the grain count" },
    { name: "partials", bytes: 64 * Math.ceil(cap / WG), copies: 1, knob: "the grain count" },
  ];
  let total = 0, largest = 0;
  for (const b of buffers) {
    total += b.bytes * b.copies;
    largest = Math.max(largest, b.bytes);
  }
  return {
    grains,
    capacity: cap,
    buckets,
    buffers,
    totalBytes: total,
    bytesPerGrain: total / cap,
    largestBinding: largest,
  };
}

/**
 * The device memory `grains` grains take in a {@linkcode StarSystemGpu} created with these
 * slot counts and given its grains in one call: each buffer's bytes (one copy: one binding),
 * the total and the bytes per grain. Sprite textures (32 bytes per texel per shape) and the
 * transient buffers of `read` are not included.
 *
 * @example
 * ```ts
 * import { gpuMemory } from "./memory.ts";
 * import { expect } from "expect";
 * const m = gpuMemory(1_000_000);
 * // a million grains with the default slots: every binding fits WebGPU's default 128 MiB
 * expect(m.largestBinding).toBeLessThanOrEqual(128 * 2 ** 20);
 * expect(m.bytesPerGrain).toBeLessThan(920);
 * // 16 history slots: (key, ξ) as two float32 per slot
 * expect(m.buffers.find((b) => b.name === "history-springs")!.bytes).toBe(128 * m.capacity);
 * ```
 */
export function gpuMemory(grains: number, options: GpuMemoryOptions = {}): GpuMemory {
  const where = "gpuMemory";
  integerIn(where, "grains", grains, 0, 2 ** 31);
  const o = checkOptions<GpuMemoryOptions>(where, "options", options, [
    "contactSlots",
    "neighborSlots",
  ]);
  const K = integerIn(where, "contactSlots", o.contactSlots ?? DEFAULT_CONTACT_SLOTS, 1, 256);
  const L = integerIn(where, "neighborSlots", o.neighborSlots ?? DEFAULT_NEIGHBOR_SLOTS, 1, 1024);
  return layoutFor(capacityFor(grains), K, L, grains);
}
