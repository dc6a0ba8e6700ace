/**
 * The scene of a GPU system on the device: the shape table and sprite textures, rebuilt when
 * shapes are added, and the grains — added through the host and uploaded at once, or the whole
 * host (grains and tangential histories) uploaded when a system comes from the CPU. Walls need
 * nothing here: the run uploads their state at every step. Internal to the GPU path.
 *
 * @module
 */

import type { StarShape } from "../shape.ts";
import type { StarGrainsOptions } from "../system.ts";
import { NAME } from "./options.ts";
import { SHAPE_TEXTURE_WIDTH } from "./wgsl_common.ts";
import type { GpuCore } from "./core.ts";
import { encodeShapes, type SpriteGeometry } from "./layout.ts";
import { StarSprite } from "./sprite.ts";
import { ensureCapacity, uploadGrains } from "./buffers.ts";
import { ready } from "./bind_groups.ts";
import { importHistory } from "./contact_readback.ts";

/** The most boundary nodes of a shape on the GPU (node ranges are packed in 16 bits). */
export const MAX_GPU_NODES = 65533;

/** Throw a RangeError when `shape` has more nodes than the GPU path takes. */
export function checkGpuShape(shape: StarShape, where: string): void {
  if (shape.nodes > MAX_GPU_NODES) {
    throw new RangeError(
      `${where}: shape.nodes (${shape.nodes}) must be <= ${MAX_GPU_NODES} on the GPU`,
    );
  }
}

/** (Re)build the shape table and, with sprites, the texture arrays, when shapes were added. */
export function syncShapes(core: GpuCore): void {
  const shapes = core.host.starShapes;
  if (shapes.length === core.shapeCount && core.shapes) return;
  for (const s of shapes) checkGpuShape(s, NAME);
  const dev = core.device, sprite = core.config.sampling === "sprite";
  const geo: (SpriteGeometry | null)[] = [];
  if (sprite) {
    for (let k = core.sprites.length; k < shapes.length; k++) {
      core.sprites.push(new StarSprite(shapes[k], core.config.spriteResolution));
    }
    for (let k = 0; k < shapes.length; k++) {
      const s = core.sprites[k];
      geo.push({ layer: k, halfWidth: s.halfWidth, texel: s.texel, resolution: s.resolution });
    }
  } else {
    for (let k = 0; k < shapes.length; k++) geo.push(null);
  }
  const table = encodeShapes(shapes, geo);
  core.shapes?.destroy();
  core.shapes = dev.createBuffer({
    size: table.words.byteLength,
    usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
  });
  dev.queue.writeBuffer(core.shapes, 0, table.words);
  // the force kernel reads the table from a texture (it binds 8 storage buffers already)
  const W = SHAPE_TEXTURE_WIDTH, rows = Math.ceil(table.words.length / W);
  if (rows > dev.limits.maxTextureDimension2D) {
    throw new RangeError(
      `${NAME}: the shape table (${table.words.length} words) needs a texture of ${rows} rows; ` +
        `this device allows ${dev.limits.maxTextureDimension2D}: use fewer or smaller shapes`,
    );
  }
  const padded = new Uint32Array(W * rows);
  padded.set(table.words);
  core.shapeTex?.destroy();
  core.shapeTex = dev.createTexture({
    size: [W, rows, 1],
    format: "r32uint",
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
  });
  dev.queue.writeTexture({ texture: core.shapeTex }, padded, { bytesPerRow: 4 * W }, [W, rows, 1]);
  core.texA?.destroy();
  core.texB?.destroy();
  const S = sprite ? core.config.spriteResolution : 1;
  const layers = Math.max(1, sprite ? shapes.length : 1);
  const desc: GPUTextureDescriptor = {
    size: [S, S, layers],
    format: "rgba32float",
    usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
    dimension: "2d",
  };
  core.texA = dev.createTexture(desc);
  core.texB = dev.createTexture(desc);
  if (sprite) {
    for (let k = 0; k < shapes.length; k++) {
      const sp = core.sprites[k];
      const layout = { bytesPerRow: 16 * S, rowsPerImage: S };
      dev.queue.writeTexture({ texture: core.texA, origin: [0, 0, k] }, sp.a, layout, [S, S, 1]);
      dev.queue.writeTexture({ texture: core.texB, origin: [0, 0, k] }, sp.b, layout, [S, S, 1]);
    }
  }
  core.shapeCount = shapes.length;
  core.bg = null;
}

/**
 * Add grains through the host and upload them (see `StarSystemGpu.addGrains`); a call that
 * fails on the GPU side takes the grains (and a new shape) back out of the host.
 */
export function addGrainsAndUpload(core: GpuCore, options: StarGrainsOptions): number {
  const host = core.host;
  const before = host.count, nextId = host.store.nextId, q = core.q;
  const cell = host.detectionState.cell;
  const shapes = host.starShapes.length;
  const first = host.addGrains(options);
  try {
    if (core.q === 0) core.q = tileSizeOf(host.detectionState.cell);
    ensureCapacity(core, host.count);
    syncShapes(core);
  } catch (e) {
    // a failed call changes nothing: take the grains (and a new shape) back out
    host.count = before;
    host.store.nextId = nextId;
    host.detectionState.cell = cell;
    host.starShapes.length = shapes;
    core.sprites.length = Math.min(core.sprites.length, shapes);
    core.q = q;
    throw e;
  }
  uploadGrains(core, before, host.count);
  core.n = host.count;
  core.readStep = core.stats.step;
  core.recordValid = false;
  return first;
}

/** Upload the host's whole scene: shapes, grains and tangential histories (from the CPU). */
export async function uploadAll(core: GpuCore): Promise<void> {
  const host = core.host;
  if (host.count > 0) {
    core.q = tileSizeOf(host.detectionState.cell);
    syncShapes(core);
    ensureCapacity(core, host.count);
    uploadGrains(core, 0, host.count);
    core.n = host.count;
    importHistory(core);
  }
  core.readStep = core.stats.step;
  await ready(core);
}

/** The position tile size for grid cells of `cell` (m): a power of two, about cell / 16. */
function tileSizeOf(cell: number): number {
  return 2 ** Math.floor(Math.log2(cell / 16));
}
