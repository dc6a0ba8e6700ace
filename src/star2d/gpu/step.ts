/**
 * The steps of a GPU system: each step a chain of dispatches (prepare → scan → scatter → sort →
 * neighbour lists → forces → gather), `batchSize` steps recorded into one compute pass and
 * command buffer with their wall blocks, at most two batches in flight; then the statistics,
 * reduced on the GPU and read back in one small readback that also checks the state (non-finite
 * grains, neighbour-list overflow). Internal to the GPU path.
 *
 * @module
 */

import type { GpuCore } from "./core.ts";
import { GRAIN_BYTES, WALL_BLOCK_BYTES, writeWalls } from "./layout.ts";
import { dims } from "./pipelines.ts";
import { decodeGrains, readBuffer } from "./readback.ts";
import { type GpuGuardAccess, guardAfterGpuRun, guardBeforeGpuRun } from "../guard.ts";
import { ready } from "./bind_groups.ts";
import { writeParams } from "./buffers.ts";
import { NAME } from "./options.ts";
import { WG, WG_FORCES } from "./wgsl_common.ts";

/**
 * Take `steps` steps (advancing the host's clock and walls), calling `onBatch(done)` after each
 * submitted batch; throws when the GPU rejects the work. The statistics are not read: see
 * {@linkcode readStats}.
 */
export async function submitSteps(
  core: GpuCore,
  steps: number,
  onBatch: (done: number) => void,
): Promise<void> {
  await ready(core);
  const dev = core.device, host = core.host, walls = host.walls;
  // the divergence guard: its reference (when grains came in) and the walls' speed
  await guardBeforeGpuRun(guardAccess(core), core.stats.step);
  core.guardStep = core.stats.step;
  const batchSize = core.config.batchSize;
  const block = new ArrayBuffer(WALL_BLOCK_BYTES * batchSize);
  const dv = new DataView(block);
  let done = 0;
  let inFlight: Promise<void> | null = null;
  dev.pushErrorScope("validation");
  dev.pushErrorScope("out-of-memory");
  writeParams(core);
  if (core.n > 0) {
    // workgroup counts of this run: per grain (256), per bucket (256), forces (64)
    const d = core.dims, b = core.buf!;
    [d[0], d[1]] = dims(Math.ceil(core.n / WG));
    [d[2], d[3]] = dims(Math.ceil(b.buckets / WG));
    [d[4], d[5]] = dims(Math.ceil(core.n / WG_FORCES));
  }
  while (done < steps) {
    const b = Math.min(batchSize, steps - done);
    for (let k = 0; k < b; k++) {
      writeWalls(dv, WALL_BLOCK_BYTES * k, core.q, walls);
      walls.advance(host.timeStep);
      host.time += host.timeStep;
    }
    dev.queue.writeBuffer(core.walls, 0, block, 0, WALL_BLOCK_BYTES * b);
    // the last step's walls again, for the contact record
    const lastWalls = WALL_BLOCK_BYTES * batchSize;
    dev.queue.writeBuffer(
      core.walls,
      lastWalls,
      block,
      WALL_BLOCK_BYTES * (b - 1),
      WALL_BLOCK_BYTES,
    );
    const enc = dev.createCommandEncoder();
    if (core.n > 0) {
      const pass = enc.beginComputePass();
      for (let k = 0; k < b; k++) encodeStep(core, pass, k);
      pass.end();
    }
    dev.queue.submit([enc.finish()]);
    done += b;
    core.stats.step += b;
    if (inFlight) await inFlight;
    inFlight = dev.queue.onSubmittedWorkDone();
    onBatch(done);
  }
  if (inFlight) await inFlight;
  const oom = await dev.popErrorScope();
  const invalid = await dev.popErrorScope();
  if (oom || invalid) {
    throw new Error(`${NAME}.run: the GPU rejected the work: ${(oom ?? invalid)!.message}`);
  }
  core.recordValid = core.n > 0;
}

/** Record one step (the k-th of the batch) into the pass and flip the parity. */
function encodeStep(core: GpuCore, pass: GPUComputePassEncoder, k: number): void {
  const p = core.pipes!, bg = core.bg!, b = core.buf!, par = core.parity, d = core.dims;
  pass.setPipeline(p.prepare);
  pass.setBindGroup(0, bg.prepare[par]);
  pass.dispatchWorkgroups(d[0], d[1]);
  b.scan.encode(pass);
  pass.setPipeline(p.scatter);
  pass.setBindGroup(0, bg.scatter);
  pass.dispatchWorkgroups(d[0], d[1]);
  pass.setPipeline(p.sort);
  pass.setBindGroup(0, bg.sort);
  pass.dispatchWorkgroups(d[2], d[3]);
  pass.setPipeline(p.neighbors);
  pass.setBindGroup(0, bg.neighbors);
  pass.dispatchWorkgroups(d[0], d[1]);
  pass.setPipeline(p.forces);
  pass.setBindGroup(0, bg.forces[par][k]);
  pass.dispatchWorkgroups(d[4], d[5]);
  pass.setPipeline(p.gather);
  pass.setBindGroup(0, bg.gather[par]);
  pass.dispatchWorkgroups(d[0], d[1]);
  core.parity = 1 - par;
}

const STAT_KEYS = [
  "candidatePairs",
  "boundingHits",
  "nodeTests",
  "pairsInContact",
  "particleContacts",
  "boundaryContacts",
  "historyOverflow",
  "contactsPerPair",
  "maxPenetration",
  "maxSpeed",
  "kineticEnergy",
] as const;

/**
 * Reduce the last step's statistics on the GPU and read the per-workgroup partials into the
 * statistics record; throws a RangeError when a grain's state became non-finite or a grain had
 * more neighbours than its slots.
 */
export async function readStats(core: GpuCore): Promise<void> {
  const s = core.stats, host = core.host;
  s.time = host.time;
  const n = core.n;
  if (n === 0) {
    for (const k of STAT_KEYS) s[k] = 0;
    return;
  }
  const dev = core.device, b = core.buf!, bg = core.bg!;
  const groups = Math.ceil(n / WG);
  const enc = dev.createCommandEncoder();
  const pass = enc.beginComputePass();
  pass.setPipeline(core.pipes!.reduce);
  pass.setBindGroup(0, bg.reduce[core.parity]);
  const [x, y] = dims(groups);
  pass.dispatchWorkgroups(x, y);
  pass.end();
  dev.queue.submit([enc.finish()]);
  const bytes = await readBuffer(dev, b.partials, 0, 64 * groups);
  const u = new Uint32Array(bytes), f = new Float32Array(bytes);
  const sum = new Float64Array(9);
  let maxOv = 0, maxV2 = 0, ke = 0, firstBad = -1;
  for (let g = 0; g < groups; g++) {
    const o = 16 * g;
    for (let k = 0; k < 9; k++) sum[k] += u[o + k];
    maxOv = Math.max(maxOv, f[o + 9]);
    maxV2 = Math.max(maxV2, f[o + 10]);
    ke += f[o + 11];
    if (firstBad < 0 && u[o + 12] !== 0xffffffff) firstBad = u[o + 12];
  }
  const flags = new Uint32Array(await readBuffer(dev, core.flags, 0, 16));
  s.candidatePairs = sum[0];
  s.boundingHits = sum[1];
  s.nodeTests = sum[2];
  s.pairsInContact = sum[3];
  s.particleContacts = sum[4];
  s.boundaryContacts = sum[5];
  s.historyOverflow = sum[6];
  s.contactsPerPair = sum[3] > 0 ? sum[4] / sum[3] : 0;
  s.maxPenetration = maxOv;
  s.maxSpeed = Math.sqrt(maxV2);
  s.kineticEnergy = ke;
  const steps = s.step - core.guardStep;
  if (flags[0] > 0) {
    throw new RangeError(
      `${NAME}.run: neighborSlots (${core.config.neighborSlots}) is too small: a grain had ${
        flags[1]
      } neighbours whose bounding circles intersect its own (${flags[0]} pairs missed in all, ` +
        `by step ${s.step}); create the system with a larger neighborSlots`,
    );
  }
  if (sum[7] > 0 || !Number.isFinite(ke)) {
    throw new RangeError(
      `${NAME}.run: ${
        firstBad >= 0
          ? `grain ${firstBad} (id ${firstBad}) has a non-finite state`
          : "the kinetic energy overflows float32"
      } after step ${s.step} (${sum[7]} non-finite grains in all); check the initial state, ` +
        "or reduce the time step",
    );
  }
  // the divergence guard on the last step's statistics; the state is read only to name a grain
  await guardAfterGpuRun(guardAccess(core), steps, s.maxSpeed, maxOv, s.step);
}

/** How the divergence guard reaches this system: its host, its state, the host's detection. */
function guardAccess(core: GpuCore): GpuGuardAccess {
  return {
    host: core.host,
    readState: () => readState(core),
    contactsNow: () => core.host.contactsNow(),
    where: `${NAME}.run`,
  };
}

/** Read the state back into the host's columns (as `StarSystemGpu.read` does). */
async function readState(core: GpuCore): Promise<void> {
  const n = core.n, host = core.host;
  if (n === 0) return;
  const bytes = await readBuffer(core.device, core.buf!.state[core.parity], 0, GRAIN_BYTES * n);
  decodeGrains(bytes, n, core.q, host.store.pos, host.store.vel, host.store.ang, host.store.omega);
  core.readStep = core.stats.step;
  host.lastStepStats.step = core.stats.step;
}
