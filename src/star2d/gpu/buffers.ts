/**
 * The per-grain buffers of a GPU system — the double-buffered state and history tables, poses,
 * the grid, neighbour lists, the force and torque shares (with the per-grain statistics) and
 * the statistics partials, laid out as memory.ts says — grown with the grain count (checked
 * against the adapter's binding limits), and the uploads of grains and parameters into them.
 * Internal to the GPU path.
 *
 * @module
 */

import type { Buffers, GpuCoreState } from "./core_state.ts";
import { encodeParams, GRAIN_BYTES, writeGrain } from "./layout.ts";
import { capacityFor, layoutFor } from "./memory.ts";
import type { GpuScan } from "./pipelines.ts";
import { NAME } from "./options.ts";

/**
 * Grow the buffers to hold `n` grains (a multiple of 256, at least doubling), keeping the
 * current state and histories of the grains on the GPU; throws a RangeError naming the knob to
 * turn when a buffer would exceed the adapter's binding limit.
 */
export function ensureCapacity(core: GpuCoreState, n: number): void {
  const old = core.buf;
  if (old && n <= old.cap) return;
  const K = core.config.contactSlots, L = core.config.neighborSlots;
  const cap = capacityFor(n, old?.cap ?? 0);
  const layout = layoutFor(cap, K, L, n);
  const lim = core.device.limits;
  const limit = Math.min(lim.maxStorageBufferBindingSize, lim.maxBufferSize);
  for (const { name, bytes, knob } of layout.buffers) {
    if (bytes > limit) {
      throw new RangeError(
        `${NAME}: ${n} grains (room for ${cap}) need a ${
          (bytes / 2 ** 20).toFixed(0)
        } MiB ${name} buffer; this adapter (${core.adapterName}) binds at most ${
          (limit / 2 ** 20).toFixed(0)
        } MiB: reduce ${knob}${knob === "the grain count" ? "" : " or the grain count"}`,
      );
    }
  }
  const size = (name: string) => layout.buffers.find((b) => b.name === name)!.bytes;
  const buckets = layout.buckets;
  const dev = core.device;
  const S = GPUBufferUsage.STORAGE, C = GPUBufferUsage.COPY_SRC, D = GPUBufferUsage.COPY_DST;
  const mk = (bytes: number, usage: number) =>
    dev.createBuffer({ size: Math.max(16, bytes), usage });
  const state: [GPUBuffer, GPUBuffer] = [
    mk(size("state"), S | C | D),
    mk(size("state"), S | C | D),
  ];
  const histIds: [GPUBuffer, GPUBuffer] = [
    mk(size("history-ids"), S | C | D),
    mk(size("history-ids"), S | C | D),
  ];
  const histVals: [GPUBuffer, GPUBuffer] = [
    mk(size("history-springs"), S | C | D),
    mk(size("history-springs"), S | C | D),
  ];
  const counts = mk(size("bucket-count"), S);
  const grid = mk(size("grid"), S);
  const nbr = mk(size("neighbour-list"), S);
  const xferF = mk(size("force-share"), S);
  const xferT = mk(size("torque-and-statistics"), S);
  const poses = mk(size("poses"), S);
  const partials = mk(size("partials"), S | C);
  if (old) {
    const enc = dev.createCommandEncoder();
    const p = core.parity, m = core.n;
    if (m > 0) {
      enc.copyBufferToBuffer(old.state[p], 0, state[p], 0, GRAIN_BYTES * m);
      enc.copyBufferToBuffer(old.histIds[p], 0, histIds[p], 0, 4 * m);
      enc.copyBufferToBuffer(old.histIds[p], 4 * old.cap, histIds[p], 4 * cap, 4 * K * m);
      enc.copyBufferToBuffer(old.histVals[p], 0, histVals[p], 0, 8 * K * m);
    }
    dev.queue.submit([enc.finish()]);
  }
  freeBuffers(core, old);
  core.buf = {
    cap,
    buckets,
    state,
    histIds,
    histVals,
    poses,
    counts,
    grid,
    nbr,
    xferF,
    xferT,
    partials,
    scan: null as unknown as GpuScan,
  };
  core.bg = null;
  core.recordValid = false;
}

/** Destroy the buffers `b` (by default the current ones, which are then gone). */
export function freeBuffers(core: GpuCoreState, b: Buffers | null = core.buf): void {
  if (!b) return;
  for (const x of [...b.state, ...b.histIds, ...b.histVals]) x.destroy();
  for (const x of [b.poses, b.counts, b.grid, b.nbr, b.xferF, b.xferT, b.partials]) x.destroy();
  b.scan?.destroy();
  if (b === core.buf) core.buf = null;
}

/** Write grains [from, to) of the host into the current state buffer. */
export function uploadGrains(core: GpuCoreState, from: number, to: number): void {
  if (to <= from) return;
  const host = core.host, buf = core.buf!;
  const bytes = new ArrayBuffer(GRAIN_BYTES * (to - from));
  const dv = new DataView(bytes);
  for (let i = from; i < to; i++) {
    writeGrain(dv, GRAIN_BYTES * (i - from), core.q, {
      x: host.store.pos[2 * i],
      y: host.store.pos[2 * i + 1],
      vx: host.store.vel[2 * i],
      vy: host.store.vel[2 * i + 1],
      angle: host.store.ang[i],
      omega: host.store.omega[i],
      shape: host.store.shape[i],
      mass: host.store.mass[i],
      inertia: host.store.inertia[i],
    });
  }
  core.device.queue.writeBuffer(buf.state[core.parity], GRAIN_BYTES * from, bytes);
  // new grains start without history
  core.device.queue.writeBuffer(buf.histIds[core.parity], 4 * from, new Uint32Array(to - from));
}

/** Write the uniform parameters of the next run (counts, offsets, the host's contact law). */
export function writeParams(core: GpuCoreState): void {
  const host = core.host, buf = core.buf;
  const cap = buf?.cap ?? 0;
  const q = core.q || 1;
  const params = encodeParams({
    n: core.n,
    buckets: buf?.buckets ?? 1024,
    slots: core.config.contactSlots,
    shapeCount: host.starShapes.length,
    cellTiles: Math.ceil((host.detectionState.cell || 1) / q) + 1,
    wallCount: host.walls.count,
    statsOff: (core.config.neighborSlots + 1) * cap,
    entriesOff: cap,
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
    keyTol: host.detectionState.keyTol,
  });
  core.device.queue.writeBuffer(core.params, 0, params);
}
