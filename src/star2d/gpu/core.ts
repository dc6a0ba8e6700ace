/**
 * The GPU side of one {@linkcode StarSystemGpu}: the device, the CPU system that holds the scene
 * and the parameters (the host), the pipelines, buffers, textures and bind groups, and the
 * counters that tie them to the host — the grains on the GPU, the position tile size, and the
 * parity of the double-buffered state. The system's modules (scene, buffers, bind groups, step,
 * readback) work on it; the public class is a thin layer over it. Internal to the GPU path.
 *
 * @module
 */

import type { StarSystem } from "../system.ts";
import type { GpuContext } from "./device.ts";
import type { StarSprite } from "./sprite.ts";
import type { Pipelines } from "./pipelines.ts";
import { WALL_BLOCK_BYTES } from "./layout.ts";
import type { BindGroups, Buffers, GpuCoreState } from "./core_state.ts";
import { freeBuffers } from "./buffers.ts";
import type { GpuConfig, GpuStepStats } from "./options.ts";

/** The state of a GPU system (see the module's doc); its fields are shared by the GPU modules. */
export class GpuCore implements GpuCoreState {
  /** The device. */
  readonly device: GPUDevice;
  /** The adapter's one-line name. */
  readonly adapterName: string;
  /** The CPU system holding the scene, the parameters, the clock and the column copies. */
  readonly host: StarSystem;
  /** The GPU's own options. */
  readonly config: GpuConfig;
  /** Sprites of the registered shapes (the public system's array). */
  readonly sprites: StarSprite[];
  /** Statistics of the last step (the public system's record). */
  readonly stats: GpuStepStats;
  /** Uniform parameters (`encodeParams`). */
  readonly params: GPUBuffer;
  /** Wall blocks: one per step of a batch, then the last step's again for the contact record. */
  readonly walls: GPUBuffer;
  /** Neighbour-list overflow flags (pairs missed, most neighbours of a grain). */
  readonly flags: GPUBuffer;
  /** Workgroup counts of the current run: per grain, per bucket, forces (x, y each). */
  readonly dims: Uint32Array = new Uint32Array(6);
  /** Compiled pipelines (null until first needed). */
  pipes: Pipelines | null = null;
  /** Per-grain buffers (null before the first grains). */
  buf: Buffers | null = null;
  /** Bind groups of the step (null when buffers, shapes or textures changed). */
  bg: BindGroups | null = null;
  /** Shape table. */
  shapes: GPUBuffer | null = null;
  /** The shape table again as an r32uint texture (rows of SHAPE_TEXTURE_WIDTH words). */
  shapeTex: GPUTexture | null = null;
  /** Shapes in the shape table. */
  shapeCount = 0;
  /** Sprite texture arrays A and B (1×1 placeholders with `sampling: "lut"`). */
  texA: GPUTexture | null = null;
  /** See `texA`. */
  texB: GPUTexture | null = null;
  /** Position tile size Q (m), fixed by the first grains (0 before). */
  q = 0;
  /** Grains on the GPU. */
  n = 0;
  /** Index of the state/history buffers holding the current state. */
  parity = 0;
  /** True when the last step's input is still on the GPU, for the contact record. */
  recordValid = false;
  /** The step the host's columns were read at (−1: never). */
  readStep = -1;
  /** The step the divergence guard last checked (its clock advances by the steps since). */
  guardStep = 0;

  /** Take the host and the options; create the buffers of fixed size. */
  constructor(
    gpu: GpuContext,
    host: StarSystem,
    config: GpuConfig,
    sprites: StarSprite[],
    stats: GpuStepStats,
  ) {
    this.device = gpu.device;
    this.adapterName = gpu.name;
    this.host = host;
    this.config = config;
    this.sprites = sprites;
    this.stats = stats;
    this.params = this.device.createBuffer({
      size: 256,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.walls = this.device.createBuffer({
      size: WALL_BLOCK_BYTES * (config.batchSize + 1),
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.flags = this.device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
  }

  /** Release every buffer and texture (the device stays). */
  destroy(): void {
    freeBuffers(this);
    this.shapes?.destroy();
    this.shapeTex?.destroy();
    this.texA?.destroy();
    this.texB?.destroy();
    this.params.destroy();
    this.walls.destroy();
    this.flags.destroy();
  }
}
