/**
 * The per-grain buffers of a GPU system — the double-buffered state and history tables, poses,
 * the grid, neighbour lists, the force-transfer table and the statistics partials — grown by
 * doubling with the grain count (checked against the adapter's binding limits), and the uploads
 * of grains and parameters into them. Internal to the GPU path.
 *
 * @module
 */

import type { GpuCore } from "./core.ts";
import { encodeParams, GRAIN_BYTES, POSE_BYTES, writeGrain } from "./layout.ts";
import type { GpuScan } from "./pipelines.ts";
import { NAME } from "./options.ts";
import { WG } from "./wgsl_common.ts";

/** The per-grain buffers, for `cap` grains and `buckets` grid buckets. */
export interface Buffers {
  /** Grains with room. */
  cap: number;
  /** Grid buckets (a power of two, at least 2·cap). */
  buckets: number;
  /** Grain states; `parity` selects the current one. */
  state: [GPUBuffer, GPUBuffer];
  /** History tables (counts, statistics, entries); `parity` selects the current one. */
  hist: [GPUBuffer, GPUBuffer];
  /** Poses of the step (trig, polar centre, cell). */
  poses: GPUBuffer;
  /** Grains per bucket. */
  counts: GPUBuffer;
  /** Bucket offsets and the sorted grains. */
  grid: GPUBuffer;
  /** Neighbour lists. */
  nbr: GPUBuffer;
  /** Forces and the partners' shares. */
  xfer: GPUBuffer;
  /** Per-workgroup statistics. */
  partials: GPUBuffer;
  /** The scan of the bucket counts (built with the bind groups). */
  scan: GpuScan;
}

/**
 * Grow the buffers to hold `n` grains (doubling, from 256), keeping the current state and
 * histories of the grains on the GPU; throws a RangeError naming the knob to turn when a buffer
 * would exceed the adapter's binding limit.
 */
export function ensureCapacity(core: GpuCore, n: number): void {
  const old = core.buf;
  if (old && n <= old.cap) return;
  let cap = Math.max(256, old?.cap ?? 0);
  while (cap < n) cap *= 2;
  const K = core.config.contactSlots, L = core.config.neighborSlots;
  let buckets = 1024;
  while (buckets < 2 * cap) buckets *= 2;
  const histBytes = 4 * (9 * cap + 3 * K * cap);
  const sizes: [string, number, string][] = [
    ["history", histBytes, "contactSlots"],
    ["neighbour-list", 4 * cap * (4 + 3 * L), "neighborSlots"],
    ["force-transfer", 12 * cap * (L + 1), "neighborSlots"],
    ["state", GRAIN_BYTES * cap, "the grain count"],
    ["grid", 4 * (buckets + 1 + cap), "the grain count"],
  ];
  const lim = core.device.limits;
  const limit = Math.min(lim.maxStorageBufferBindingSize, lim.maxBufferSize);
  for (const [what, bytes, knob] of sizes) {
    if (bytes > limit) {
      throw new RangeError(
        `${NAME}: ${n} grains (room for ${cap}) need a ${
          (bytes / 2 ** 20).toFixed(0)
        } MiB ${what} buffer; this adapter (${core.adapterName}) binds at most ${
          (limit / 2 ** 20).toFixed(0)
        } MiB: reduce ${knob}${knob === "the grain count" ? "" : " or the grain count"}`,
      );
    }
  }
  const dev = core.device;
  const S = GPUBufferUsage.STORAGE, C = GPUBufferUsage.COPY_SRC, D = GPUBufferUsage.COPY_DST;
  const mk = (size: number, usage: number) => dev.createBuffer({ size: Math.max(16, size), usage });
  const state: [GPUBuffer, GPUBuffer] = [
    mk(GRAIN_BYTES * cap, S | C | D),
    mk(GRAIN_BYTES * cap, S | C | D),
  ];
  const hist: [GPUBuffer, GPUBuffer] = [mk(histBytes, S | C | D), mk(histBytes, S | C | D)];
  const counts = mk(4 * (buckets + 1), S);
  const grid = mk(4 * (buckets + 1 + cap), S);
  const nbr = mk(4 * cap * (4 + 3 * L), S);
  const xfer = mk(12 * cap * (L + 1), S);
  const poses = mk(POSE_BYTES * cap, S);
  const partials = mk(64 * Math.ceil(cap / WG), S | C);
  if (old) {
    const enc = dev.createCommandEncoder();
    const p = core.parity, m = core.n;
    if (m > 0) {
      enc.copyBufferToBuffer(old.state[p], 0, state[p], 0, GRAIN_BYTES * m);
      enc.copyBufferToBuffer(old.hist[p], 0, hist[p], 0, 4 * m);
      enc.copyBufferToBuffer(old.hist[p], 36 * old.cap, hist[p], 36 * cap, 12 * K * m);
    }
    dev.queue.submit([enc.finish()]);
  }
  freeBuffers(core, old);
  core.buf = {
    cap,
    buckets,
    state,
    hist,
    poses,
    counts,
    grid,
    nbr,
    xfer,
    partials,
    scan: null as unknown as GpuScan,
  };
  core.bg = null;
  core.recordValid = false;
}

/** Destroy the buffers `b` (by default the current ones, which are then gone). */
export function freeBuffers(core: GpuCore, b: Buffers | null = core.buf): void {
  if (!b) return;
  for (const x of [...b.state, ...b.hist, b.poses, b.counts, b.grid, b.nbr, b.xfer, b.partials]) {
    x.destroy();
  }
  b.scan?.destroy();
  if (b === core.buf) core.buf = null;
}

/** Write grains [from, to) of the host into the current state buffer. */
export function uploadGrains(core: GpuCore, from: number, to: number): void {
  if (to <= from) return;
  const host = core.host, buf = core.buf!;
  const bytes = new ArrayBuffer(GRAIN_BYTES * (to - from));
  const dv = new DataView(bytes);
  for (let i = from; i < to; i++) {
    writeGrain(dv, GRAIN_BYTES * (i - from), core.q, {
      x: host._pos[2 * i],
      y: host._pos[2 * i + 1],
      vx: host._vel[2 * i],
      vy: host._vel[2 * i + 1],
      angle: host._ang[i],
      omega: host._omega[i],
      shape: host._shape[i],
      mass: host._mass[i],
      inertia: host._inertia[i],
    });
  }
  core.device.queue.writeBuffer(buf.state[core.parity], GRAIN_BYTES * from, bytes);
  // new grains start without history
  core.device.queue.writeBuffer(buf.hist[core.parity], 4 * from, new Uint32Array(to - from));
}

/** Write the uniform parameters of the next run (counts, offsets, the host's contact law). */
export function writeParams(core: GpuCore): void {
  const host = core.host, buf = core.buf;
  const cap = buf?.cap ?? 0;
  const q = core.q || 1;
  const params = encodeParams({
    n: core.n,
    buckets: buf?.buckets ?? 1024,
    slots: core.config.contactSlots,
    shapeCount: host.starShapes.length,
    cellTiles: Math.ceil((host._cell || 1) / q) + 1,
    wallCount: host.walls.count,
    statsOff: cap,
    entriesOff: 9 * cap,
    sortedOff: (buf?.buckets ?? 1024) + 1,
    nbrSlots: core.config.neighborSlots,
    q,
    dt: host.timeStep,
    gx: host.gravityX,
    gy: host.gravityY,
    kn: host.kn,
    kt: host.kt,
    cn: host.cn,
    ct: host.ct,
    mu: host.friction,
    cr: host.rotationalDamping,
    keyTol: host._keyTol,
  });
  core.device.queue.writeBuffer(core.params, 0, params);
}
