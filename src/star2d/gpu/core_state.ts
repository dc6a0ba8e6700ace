/**
 * What the GPU system's buffers and bind groups (`buffers.ts`, `bind_groups.ts`) work on: the
 * shared fields of the GPU core ({@link GpuCoreState}, which `GpuCore` of `core.ts`
 * implements) and the two records they build, {@link Buffers} and {@link BindGroups}. They take
 * this state rather than the class, so that neither imports `core.ts`. Internal to the GPU path.
 *
 * @module
 */

import type { StarSystem } from "../system.ts";
import type { GpuScan, Pipelines } from "./pipelines.ts";
import type { GpuConfig } from "./options.ts";

/** The per-grain buffers, for `cap` grains and `buckets` grid buckets (see memory.ts). */
export interface Buffers {
  /** Grains with room. */
  cap: number;
  /** Grid buckets (a power of two, at least 2·cap). */
  buckets: number;
  /** Grain states; `parity` selects the current one. */
  state: [GPUBuffer, GPUBuffer];
  /** History tables: counts, then partners; `parity` selects the current one. */
  histIds: [GPUBuffer, GPUBuffer];
  /** History tables: (key, ξ) per slot; `parity` selects the current one. */
  histVals: [GPUBuffer, GPUBuffer];
  /** Poses of the step (trig, polar centre, cell). */
  poses: GPUBuffer;
  /** Grains per bucket. */
  counts: GPUBuffer;
  /** Bucket offsets and the sorted grains. */
  grid: GPUBuffer;
  /** Neighbour lists. */
  nbr: GPUBuffer;
  /** Force shares of the owned neighbours and the own force (vec2 each). */
  xferF: GPUBuffer;
  /** Torque shares and own torque (f32 bits), then the statistics of the last step. */
  xferT: GPUBuffer;
  /** Per-workgroup statistics. */
  partials: GPUBuffer;
  /** The scan of the bucket counts (built with the bind groups). */
  scan: GpuScan;
}

/** Bind groups of the step's kernels; `[parity]` where a kernel reads the current state. */
export interface BindGroups {
  /** Poses and bucket counts, per parity. */
  prepare: GPUBindGroup[];
  /** Scatter into buckets. */
  scatter: GPUBindGroup;
  /** Per-bucket sort. */
  sort: GPUBindGroup;
  /** Neighbour lists. */
  neighbors: GPUBindGroup;
  /** Forces, per parity and step of the batch (the last: the contact record's walls). */
  forces: GPUBindGroup[][];
  /** Gather and integrate, per parity. */
  gather: GPUBindGroup[];
  /** Statistics reduction, per parity. */
  reduce: GPUBindGroup[];
}

/** The fields of the GPU core that the buffers and bind groups read and set (see `core.ts`). */
export interface GpuCoreState {
  /** The device. */
  readonly device: GPUDevice;
  /** The adapter's one-line name. */
  readonly adapterName: string;
  /** The CPU system holding the scene, the parameters, the clock and the column copies. */
  readonly host: StarSystem;
  /** The GPU's own options. */
  readonly config: GpuConfig;
  /** Uniform parameters (`encodeParams`). */
  readonly params: GPUBuffer;
  /** Wall blocks: one per step of a batch, then the last step's again for the contact record. */
  readonly walls: GPUBuffer;
  /** Neighbour-list overflow flags (pairs missed, most neighbours of a grain). */
  readonly flags: GPUBuffer;
  /** Compiled pipelines (null until first needed). */
  pipes: Pipelines | null;
  /** Per-grain buffers (null before the first grains). */
  buf: Buffers | null;
  /** Bind groups of the step (null when buffers, shapes or textures changed). */
  bg: BindGroups | null;
  /** Shape table. */
  shapes: GPUBuffer | null;
  /** The shape table again as an r32uint texture. */
  shapeTex: GPUTexture | null;
  /** Sprite texture array A. */
  texA: GPUTexture | null;
  /** Sprite texture array B. */
  texB: GPUTexture | null;
  /** Position tile size Q (m), fixed by the first grains (0 before). */
  q: number;
  /** Grains on the GPU. */
  n: number;
  /** Index of the state/history buffers holding the current state. */
  parity: number;
  /** True when the last step's input is still on the GPU, for the contact record. */
  recordValid: boolean;
}
