/**
 * Compiled compute pipelines of the star2d GPU path, cached per device, and the blocked
 * prefix scan built on them. Internal to the GPU path.
 *
 * @module
 */

import { type ForceKernelOptions, forcesWgsl } from "./wgsl_forces.ts";
import {
  GATHER_WGSL,
  NEIGHBORS_WGSL,
  PREPARE_WGSL,
  RECORD_COUNT_WGSL,
  REDUCE_WGSL,
  SCAN0_WGSL,
  SCAN_ADD_WGSL,
  SCANN_WGSL,
  SCATTER_WGSL,
  SORT_WGSL,
} from "./wgsl_grid.ts";
import { SCAN_BLOCK, WG } from "./wgsl_common.ts";

/** The pipelines one system uses. */
export interface Pipelines {
  /** Pose preparation and bucket counts. */
  prepare: GPUComputePipeline;
  /** Scan, level 0. */
  scan0: GPUComputePipeline;
  /** Scan, upper levels. */
  scanN: GPUComputePipeline;
  /** Scan, add block offsets. */
  scanAdd: GPUComputePipeline;
  /** Scatter into buckets. */
  scatter: GPUComputePipeline;
  /** Sort buckets. */
  sort: GPUComputePipeline;
  /** Neighbour lists. */
  neighbors: GPUComputePipeline;
  /** Forces and integration. */
  forces: GPUComputePipeline;
  /** Gather the partners' shares and integrate. */
  gather: GPUComputePipeline;
  /** Contact record (re-run of the last step's forces). */
  record: GPUComputePipeline;
  /** Statistics reduction. */
  reduce: GPUComputePipeline;
  /** Record counts. */
  recordCount: GPUComputePipeline;
}

const cache = new WeakMap<GPUDevice, Map<string, Promise<GPUComputePipeline>>>();

/** A pipeline from WGSL, compiled once per device and source; shader errors throw with the log. */
function pipeline(device: GPUDevice, code: string, label: string): Promise<GPUComputePipeline> {
  let m = cache.get(device);
  if (!m) cache.set(device, m = new Map());
  let p = m.get(code);
  if (!p) {
    p = (async () => {
      device.pushErrorScope("validation");
      const module = device.createShaderModule({ code, label });
      const pipe = device.createComputePipeline({
        layout: "auto",
        compute: { module, entryPoint: "main" },
        label,
      });
      const err = await device.popErrorScope();
      if (err) {
        const info = await module.getCompilationInfo();
        const log = info.messages.map((x) => `${x.lineNum}:${x.linePos} ${x.message}`).join("\n");
        throw new Error(
          `StarSystemGpu: the ${label} kernel failed to build: ${err.message}\n${log}`,
        );
      }
      return pipe;
    })();
    m.set(code, p);
  }
  return p;
}

/** Compile (or fetch from the cache) every pipeline for these force-kernel choices. */
export async function buildPipelines(
  device: GPUDevice,
  o: Omit<ForceKernelOptions, "record">,
): Promise<Pipelines> {
  const [
    prepare,
    scan0,
    scanN,
    scanAdd,
    scatter,
    sort,
    neighbors,
    forces,
    gather,
    record,
    reduce,
    recordCount,
  ] = await Promise.all([
    pipeline(device, PREPARE_WGSL, "prepare"),
    pipeline(device, SCAN0_WGSL, "scan0"),
    pipeline(device, SCANN_WGSL, "scanN"),
    pipeline(device, SCAN_ADD_WGSL, "scanAdd"),
    pipeline(device, SCATTER_WGSL, "scatter"),
    pipeline(device, SORT_WGSL, "sort"),
    pipeline(device, NEIGHBORS_WGSL, "neighbors"),
    pipeline(device, forcesWgsl({ ...o, record: false }), "forces"),
    pipeline(device, GATHER_WGSL, "gather"),
    pipeline(device, forcesWgsl({ ...o, record: true }), "record"),
    pipeline(device, REDUCE_WGSL, "reduce"),
    pipeline(device, RECORD_COUNT_WGSL, "recordCount"),
  ]);
  return {
    prepare,
    scan0,
    scanN,
    scanAdd,
    scatter,
    sort,
    neighbors,
    forces,
    gather,
    record,
    reduce,
    recordCount,
  };
}

/** Workgroup counts for `groups` groups: 1D up to 65,535, else 2D. */
export function dims(groups: number): [number, number] {
  if (groups <= 65535) return [Math.max(1, groups), 1];
  return [65535, Math.ceil(groups / 65535)];
}

/**
 * An exclusive prefix scan of `len` u32 values from `src` (read) into `dst`, in blocks of
 * 1,024 with the block totals scanned recursively in level buffers of its own.
 */
export class GpuScan {
  readonly #steps: { pipe: GPUComputePipeline; bg: GPUBindGroup; groups: number }[] = [];
  readonly #buffers: GPUBuffer[] = [];

  /** Build the levels and bind groups for scanning `len` values of `src` into `dst`. */
  constructor(device: GPUDevice, p: Pipelines, src: GPUBuffer, dst: GPUBuffer, len: number) {
    const lens = [len];
    while (lens[lens.length - 1] > SCAN_BLOCK) {
      lens.push(Math.ceil(lens[lens.length - 1] / SCAN_BLOCK));
    }
    const levels: GPUBuffer[] = [dst];
    for (let k = 1; k <= lens.length; k++) {
      const size = k < lens.length ? lens[k] : 1;
      const b = device.createBuffer({ size: 4 * Math.max(4, size), usage: GPUBufferUsage.STORAGE });
      levels.push(b);
      this.#buffers.push(b);
    }
    const uni = device.createBuffer({
      size: 256 * lens.length,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.#buffers.push(uni);
    const u = new Uint32Array(64 * lens.length);
    lens.forEach((l, k) => u[64 * k] = l);
    device.queue.writeBuffer(uni, 0, u);
    const ub = (k: number) => ({ buffer: uni, offset: 256 * k, size: 16 });
    for (let k = 0; k < lens.length; k++) {
      const groups = Math.ceil(lens[k] / SCAN_BLOCK);
      const pipe = k === 0 ? p.scan0 : p.scanN;
      const entries: GPUBindGroupEntry[] = [
        { binding: 0, resource: ub(k) },
        { binding: 2, resource: { buffer: levels[k] } },
        { binding: 3, resource: { buffer: levels[k + 1] } },
      ];
      if (k === 0) entries.push({ binding: 1, resource: { buffer: src } });
      const bg = device.createBindGroup({ layout: pipe.getBindGroupLayout(0), entries });
      this.#steps.push({ pipe, bg, groups });
    }
    for (let k = lens.length - 2; k >= 0; k--) {
      const bg = device.createBindGroup({
        layout: p.scanAdd.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: ub(k) },
          { binding: 2, resource: { buffer: levels[k] } },
          { binding: 3, resource: { buffer: levels[k + 1] } },
        ],
      });
      this.#steps.push({ pipe: p.scanAdd, bg, groups: Math.ceil(lens[k] / WG) });
    }
  }

  /** Record the scan's dispatches into a compute pass. */
  encode(pass: GPUComputePassEncoder): void {
    for (const s of this.#steps) {
      pass.setPipeline(s.pipe);
      pass.setBindGroup(0, s.bg);
      const [x, y] = dims(s.groups);
      pass.dispatchWorkgroups(x, y);
    }
  }

  /** Free the level buffers. */
  destroy(): void {
    for (const b of this.#buffers) b.destroy();
  }
}
