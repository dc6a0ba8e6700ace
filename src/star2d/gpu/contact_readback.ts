/**
 * The contact state of a GPU system in the host's CPU formats: the contacts of the last step —
 * re-detected on the last step's input by the force kernel's record variant, counted, scanned
 * and written into a compact record, then decoded into the shared contact record — and the
 * tangential histories, read from and written to the per-grain history tables. Internal to the
 * GPU path.
 *
 * @module
 */

import { contactBuffers } from "../../contact/record.ts";
import type { GpuCore } from "./core.ts";
import { WALL_BLOCK_BYTES } from "./layout.ts";
import { dims, GpuScan } from "./pipelines.ts";
import { readBuffer } from "./readback.ts";
import { ready } from "./bind_groups.ts";
import { NAME } from "./options.ts";
import { RECORD_WORDS } from "./wgsl_forces.ts";
import { WG, WG_FORCES } from "./wgsl_common.ts";

/** Re-run the last step's detection and law in record mode and read the host's contacts. */
export async function readContacts(core: GpuCore): Promise<void> {
  const c = core.host.contacts;
  c.count = 0;
  const n = core.n;
  if (n === 0 || core.stats.step === 0) return;
  if (!core.recordValid) {
    throw new Error(
      `${NAME}.read: the contacts of the last step are unavailable after adding grains or ` +
        "loading a state; take a step first",
    );
  }
  await ready(core);
  const total = core.stats.particleContacts + core.stats.boundaryContacts;
  if (total === 0) return;
  const dev = core.device, b = core.buf!, p = core.pipes!;
  const recordBytes = 4 * RECORD_WORDS * total;
  const limit = Math.min(dev.limits.maxStorageBufferBindingSize, dev.limits.maxBufferSize);
  if (recordBytes > limit) {
    throw new RangeError(
      `${NAME}.read: the ${total} contacts of the last step need a ${
        (recordBytes / 2 ** 20).toFixed(0)
      } MiB record (${4 * RECORD_WORDS} bytes each); this adapter (${core.adapterName}) binds ` +
        `at most ${(limit / 2 ** 20).toFixed(0)} MiB: read() without contacts still works`,
    );
  }
  const last = 1 - core.parity; // buffers of the last step's input
  const S = GPUBufferUsage.STORAGE;
  const cnt = dev.createBuffer({ size: 4 * (n + 1), usage: S });
  const offsets = dev.createBuffer({ size: 4 * (n + 1), usage: S });
  const records = dev.createBuffer({
    size: recordBytes,
    usage: S | GPUBufferUsage.COPY_SRC,
  });
  const scan = new GpuScan(dev, p, cnt, offsets, n + 1);
  try {
    const P = { buffer: core.params, offset: 0, size: 96 };
    const countBg = dev.createBindGroup({
      layout: p.recordCount.getBindGroupLayout(0),
      entries: [
        { binding: 0, resource: P },
        { binding: 2, resource: { buffer: b.xferT } },
        { binding: 3, resource: { buffer: cnt } },
      ],
    });
    const entries: GPUBindGroupEntry[] = [
      { binding: 0, resource: P },
      {
        binding: 1,
        resource: {
          buffer: core.walls,
          offset: WALL_BLOCK_BYTES * core.config.batchSize,
          size: WALL_BLOCK_BYTES,
        },
      },
      { binding: 4, resource: { buffer: b.poses } },
      { binding: 5, resource: { buffer: b.nbr } },
      { binding: 6, resource: { buffer: b.histIds[last] } },
      { binding: 14, resource: { buffer: b.histVals[last] } },
      { binding: 8, resource: core.shapeTex!.createView() },
      { binding: 11, resource: { buffer: offsets } },
      { binding: 12, resource: { buffer: records } },
    ];
    if (core.config.sampling === "sprite") {
      entries.push({ binding: 9, resource: core.texA!.createView({ dimension: "2d-array" }) });
      entries.push({ binding: 10, resource: core.texB!.createView({ dimension: "2d-array" }) });
    }
    const recBg = dev.createBindGroup({ layout: p.record.getBindGroupLayout(0), entries });
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(p.recordCount);
    pass.setBindGroup(0, countBg);
    let [x, y] = dims(Math.ceil((n + 1) / WG));
    pass.dispatchWorkgroups(x, y);
    scan.encode(pass);
    pass.setPipeline(p.record);
    pass.setBindGroup(0, recBg);
    [x, y] = dims(Math.ceil(n / WG_FORCES));
    pass.dispatchWorkgroups(x, y);
    pass.end();
    dev.queue.submit([enc.finish()]);
    const bytes = await readBuffer(dev, records, 0, recordBytes);
    decodeRecords(core, bytes, total);
  } finally {
    scan.destroy();
    cnt.destroy();
    offsets.destroy();
    records.destroy();
  }
}

/** Decode `total` record entries into the host's contact record (forces on i, normal j → i). */
function decodeRecords(core: GpuCore, bytes: ArrayBuffer, total: number): void {
  const c = core.host.contacts, q = core.q;
  const u = new Uint32Array(bytes), s = new Int32Array(bytes), f = new Float32Array(bytes);
  c.reserve(total);
  for (let k = 0; k < total; k++) {
    const o = RECORD_WORDS * k;
    const i = u[o], j = s[o + 1], w = s[o + 2];
    const px = s[o + 3] * q + f[o + 6], py = s[o + 4] * q + f[o + 7];
    const nx = f[o + 8], ny = f[o + 9];
    // push takes detection's view (normal from i towards j) and stores it flipped
    c.push(i, j >= 0 ? j : w, j >= 0 ? 0 : 1, px, py, -nx, -ny, f[o + 10], f[o + 5]);
  }
  const bb = contactBuffers(c);
  for (let k = 0; k < total; k++) {
    const o = RECORD_WORDS * k;
    const fn = f[o + 11], ft = f[o + 12];
    const nx = bb.normal[2 * k], ny = bb.normal[2 * k + 1];
    bb.normalForce[k] = fn;
    bb.tangentialForce[2 * k] = ft * ny;
    bb.tangentialForce[2 * k + 1] = -ft * nx;
    c.springs.ft[k] = ft;
    c.springs.xi[k] = f[o + 13];
  }
}

/** Read the current history tables into the host's contact history (CPU format). */
export async function readHistory(core: GpuCore): Promise<void> {
  const n = core.n;
  if (n === 0) return;
  const b = core.buf!, K = core.config.contactSlots, p = core.parity;
  const counts = new Uint32Array(await readBuffer(core.device, b.histIds[p], 0, 4 * n));
  const ids = new Int32Array(await readBuffer(core.device, b.histIds[p], 4 * b.cap, 4 * K * n));
  const vals = new Float32Array(await readBuffer(core.device, b.histVals[p], 0, 8 * K * n));
  let total = 0;
  for (let i = 0; i < n; i++) total += Math.min(counts[i], K);
  const A = new Int32Array(total), B = new Int32Array(total);
  const key = new Float64Array(total), xi = new Float64Array(total);
  let m = 0;
  for (let i = 0; i < n; i++) {
    for (let s = 0; s < Math.min(counts[i], K); s++) {
      const o = K * i + s;
      A[m] = i;
      B[m] = ids[o];
      key[m] = vals[2 * o];
      xi[m] = vals[2 * o + 1];
      m++;
    }
  }
  core.host.detectionState.history.importRecorded(A, B, key, xi);
}

/** Write the host's contact history (ids = slots) into the current history table. */
export function importHistory(core: GpuCore): void {
  const host = core.host, n = host.count, K = core.config.contactSlots, b = core.buf!;
  for (let i = 0; i < n; i++) if (host.store.ids[i] !== i) return; // ids are not slots: no history
  const h = host.detectionState.history.exportRecorded();
  const counts = new Uint32Array(n);
  const ids = new Int32Array(K * n), vals = new Float32Array(2 * K * n);
  for (let k = 0; k < h.a.length; k++) {
    const a = h.a[k];
    if (a < 0 || a >= n || counts[a] >= K) continue;
    const o = K * a + counts[a]++;
    ids[o] = h.b[k];
    vals[2 * o] = h.key[k];
    vals[2 * o + 1] = h.xi[k];
  }
  const q = core.device.queue, p = core.parity;
  q.writeBuffer(b.histIds[p], 0, counts);
  q.writeBuffer(b.histIds[p], 4 * b.cap, ids);
  q.writeBuffer(b.histVals[p], 0, vals);
}
