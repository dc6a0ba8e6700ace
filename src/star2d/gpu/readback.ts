/**
 * Reading GPU buffers back to the CPU, only when asked: a copy into a mappable staging buffer,
 * `mapAsync`, a copy of the bytes out. Internal to the GPU path.
 *
 * @module
 */

/**
 * Copy `size` bytes from `offset` of `src` into fresh CPU memory. The staging buffer is
 * created for the read and destroyed after it.
 */
export async function readBuffer(
  device: GPUDevice,
  src: GPUBuffer,
  offset: number,
  size: number,
): Promise<ArrayBuffer> {
  const bytes = Math.max(4, Math.ceil(size / 4) * 4);
  const staging = device.createBuffer({
    size: bytes,
    usage: GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST,
  });
  try {
    const enc = device.createCommandEncoder();
    enc.copyBufferToBuffer(src, offset, staging, 0, bytes);
    device.queue.submit([enc.finish()]);
    await staging.mapAsync(GPUMapMode.READ);
    const out = staging.getMappedRange().slice(0, size);
    staging.unmap();
    return out;
  } finally {
    staging.destroy();
  }
}

/**
 * Decode `n` grain records (48 bytes each) into float64 columns: positions and velocities
 * (stride 2), angles (unwrapped: wrapped angle + 2π·turns) and angular velocities.
 */
export function decodeGrains(
  buf: ArrayBuffer,
  n: number,
  q: number,
  pos: Float64Array,
  vel: Float64Array,
  ang: Float64Array,
  omega: Float64Array,
): void {
  const dv = new DataView(buf);
  for (let i = 0; i < n; i++) {
    const o = 48 * i;
    pos[2 * i] = dv.getInt32(o, true) * q + dv.getFloat32(o + 8, true);
    pos[2 * i + 1] = dv.getInt32(o + 4, true) * q + dv.getFloat32(o + 12, true);
    vel[2 * i] = dv.getFloat32(o + 16, true);
    vel[2 * i + 1] = dv.getFloat32(o + 20, true);
    ang[i] = dv.getFloat32(o + 24, true) + 2 * Math.PI * dv.getInt32(o + 32, true);
    omega[i] = dv.getFloat32(o + 28, true);
  }
}
