/**
 * The bind groups of a GPU system's step — one set per parity of the double-buffered state, and
 * for the forces one per step of a batch (each step reads its own wall block) — rebuilt when the
 * buffers, shapes or textures change, and `ready`, which compiles the pipelines first. Internal
 * to the GPU path.
 *
 * @module
 */

import type { GpuCoreState } from "./core_state.ts";
import { WALL_BLOCK_BYTES } from "./layout.ts";
import { buildPipelines, GpuScan } from "./pipelines.ts";

/** Compile the pipelines when not yet done, and build the bind groups when there are grains. */
export async function ready(core: GpuCoreState): Promise<void> {
  if (!core.pipes) {
    core.pipes = await buildPipelines(core.device, {
      sprite: core.config.sampling === "sprite",
      firstOrder: core.host.distance === "first-order",
      symmetric: core.host.detection === "symmetric",
    });
  }
  if (core.n > 0 && !core.bg) bindGroups(core);
}

/** Build the bucket-count scan and the bind groups of the step for the current buffers. */
function bindGroups(core: GpuCoreState): void {
  const dev = core.device, p = core.pipes!, b = core.buf!, shapes = core.shapes!;
  b.scan?.destroy();
  b.scan = new GpuScan(dev, p, b.counts, b.grid, b.buckets + 1);
  const P = { buffer: core.params, offset: 0, size: 96 };
  const bg = (pipe: GPUComputePipeline, entries: [number, GPUBindingResource][]) =>
    dev.createBindGroup({
      layout: pipe.getBindGroupLayout(0),
      entries: entries.map(([binding, resource]) => ({ binding, resource })),
    });
  const sprite = core.config.sampling === "sprite";
  const tex: [number, GPUBindingResource][] = sprite
    ? [[9, core.texA!.createView({ dimension: "2d-array" })], [
      10,
      core.texB!.createView({ dimension: "2d-array" }),
    ]]
    : [];
  const forces: GPUBindGroup[][] = [[], []];
  for (let par = 0; par < 2; par++) {
    for (let k = 0; k <= core.config.batchSize; k++) {
      forces[par].push(bg(p.forces, [
        [0, P],
        [1, { buffer: core.walls, offset: WALL_BLOCK_BYTES * k, size: WALL_BLOCK_BYTES }],
        [3, { buffer: b.xferF }],
        [4, { buffer: b.poses }],
        [5, { buffer: b.nbr }],
        [6, { buffer: b.histIds[par] }],
        [7, { buffer: b.histIds[1 - par] }],
        [8, core.shapeTex!.createView()],
        [13, { buffer: b.xferT }],
        [14, { buffer: b.histVals[par] }],
        [15, { buffer: b.histVals[1 - par] }],
        ...tex,
      ]));
    }
  }
  core.bg = {
    prepare: [0, 1].map((par) =>
      bg(p.prepare, [[0, P], [1, { buffer: b.state[par] }], [2, { buffer: b.poses }], [3, {
        buffer: b.counts,
      }], [4, { buffer: shapes }]])
    ),
    scatter: bg(p.scatter, [[0, P], [2, { buffer: b.poses }], [3, { buffer: b.counts }], [4, {
      buffer: b.grid,
    }]]),
    sort: bg(p.sort, [[0, P], [4, { buffer: b.grid }]]),
    neighbors: bg(p.neighbors, [
      [0, P],
      [2, { buffer: b.poses }],
      [4, { buffer: b.grid }],
      [5, { buffer: b.nbr }],
      [6, { buffer: shapes }],
      [7, { buffer: core.flags }],
    ]),
    forces,
    gather: [0, 1].map((par) =>
      bg(p.gather, [
        [0, P],
        [1, { buffer: b.state[par] }],
        [2, { buffer: b.state[1 - par] }],
        [3, { buffer: b.nbr }],
        [4, { buffer: b.xferF }],
        [5, { buffer: b.xferT }],
      ])
    ),
    reduce: [0, 1].map((par) =>
      bg(p.reduce, [[0, P], [1, { buffer: b.state[par] }], [2, { buffer: b.xferT }], [3, {
        buffer: b.partials,
      }]])
    ),
  };
}
