/**
 * Time integration of a particle store: body forces, velocity-Verlet half kicks and drifts,
 * periodic wrapping, speed clamps and the end-of-step check for non-finite states. Each
 * function is one pass over the typed-array columns and allocates nothing.
 *
 * @module
 */
import type { GridAxisPeriod } from "../math/grid.ts";
import type { ParticleStore } from "./particles.ts";

/**
 * Reset forces to gravity plus the external forces, torques to the external torques (of slots
 * i0 ≤ i < i1).
 */
export function bodyForces(
  ps: ParticleStore,
  g: ArrayLike<number>,
  i0 = 0,
  i1: number = ps.count,
): void {
  const n = 3 * i1;
  const f = ps.force, t = ps.torque, ef = ps.extForce, et = ps.extTorque, m = ps.mass;
  const fixed = ps.fixed;
  const gx = g[0], gy = g[1], gz = g[2];
  for (let o = 3 * i0, i = i0; o < n; o += 3, i++) {
    if (fixed[i]) {
      f[o] = f[o + 1] = f[o + 2] = 0;
      t[o] = t[o + 1] = t[o + 2] = 0;
      continue;
    }
    const mi = m[i];
    f[o] = mi * gx + ef[o];
    f[o + 1] = mi * gy + ef[o + 1];
    f[o + 2] = mi * gz + ef[o + 2];
    t[o] = et[o];
    t[o + 1] = et[o + 1];
    t[o + 2] = et[o + 2];
  }
}

/**
 * Half kick `v += h·F/m`, `ω += h·τ/I` of the free particles (fixed ones are skipped), then
 * the speed clamps (0 = off). Returns the number of clamps applied.
 */
export function kick(
  ps: ParticleStore,
  h: number,
  maxSpeed: number,
  maxAngular: number,
  i0 = 0,
  i1: number = ps.count,
): number {
  const v = ps.vel, w = ps.ang, f = ps.force, t = ps.torque, im = ps.invMass, ii = ps.invInertia;
  const fixed = ps.fixed;
  for (let i = i0, o = 3 * i0; i < i1; i++, o += 3) {
    if (fixed[i] !== 0) continue;
    const a = h * im[i], b = h * ii[i];
    v[o] += a * f[o];
    v[o + 1] += a * f[o + 1];
    v[o + 2] += a * f[o + 2];
    w[o] += b * t[o];
    w[o + 1] += b * t[o + 1];
    w[o + 2] += b * t[o + 2];
  }
  let clamps = 0;
  if (maxSpeed > 0) clamps += clamp(v, i0, i1, maxSpeed);
  if (maxAngular > 0) clamps += clamp(w, i0, i1, maxAngular);
  return clamps;
}

/**
 * Drift `x += h·v` (fixed particles, which never move, are skipped); returns true when some
 * particle has moved at least `skin / 2` from `ref`
 * (the positions of the last neighbour-list build), i.e. when the list must be rebuilt.
 */
export function drift(ps: ParticleStore, h: number, ref: Float64Array, skin: number): boolean {
  return 4 * driftRange(ps, h, ref, 0, ps.count) >= skin * skin;
}

/** Drift slots i0 ≤ i < i1 (see {@link drift}); returns the largest squared move from `ref`. */
export function driftRange(
  ps: ParticleStore,
  h: number,
  ref: Float64Array,
  i0: number,
  i1: number,
): number {
  const x = ps.pos, v = ps.vel, fixed = ps.fixed;
  let max2 = 0;
  for (let i = i0, o = 3 * i0; i < i1; i++, o += 3) {
    if (fixed[i] !== 0) continue;
    const a = (x[o] += h * v[o]) - ref[o];
    const b = (x[o + 1] += h * v[o + 1]) - ref[o + 1];
    const c = (x[o + 2] += h * v[o + 2]) - ref[o + 2];
    const d2 = a * a + b * b + c * c;
    if (d2 > max2) max2 = d2;
  }
  return max2;
}

/**
 * One pass of slots i0 ≤ i < i1 doing what {@link kick} (`hk`, with its clamps),
 * {@link driftRange} (`h`) and then {@link bodyForces} (`g`) do in three: each slot is kicked,
 * clamped, drifted and its force and torque reset with the same arithmetic, so the results
 * are the same bytes. Returns the clamps applied; the largest squared move from `ref` goes to
 * `out[0]`.
 */
export function kickDriftReset(
  ps: ParticleStore,
  hk: number,
  h: number,
  maxSpeed: number,
  maxAngular: number,
  ref: Float64Array,
  g: ArrayLike<number>,
  out: Float64Array,
  i0: number,
  i1: number,
): number {
  const x = ps.pos, v = ps.vel, w = ps.ang, f = ps.force, t = ps.torque;
  const im = ps.invMass, ii = ps.invInertia, fixed = ps.fixed, m = ps.mass;
  const ef = ps.extForce, et = ps.extTorque;
  const gx = g[0], gy = g[1], gz = g[2];
  const v2 = maxSpeed * maxSpeed, w2 = maxAngular * maxAngular;
  let clamps = 0, max2 = 0;
  for (let i = i0, o = 3 * i0; i < i1; i++, o += 3) {
    const free = fixed[i] === 0;
    // the slot's velocity and spin stay in registers from the kick to the drift
    let vx = v[o], vy = v[o + 1], vz = v[o + 2], wx = w[o], wy = w[o + 1], wz = w[o + 2];
    if (free) {
      const a = hk * im[i], b = hk * ii[i];
      vx += a * f[o], vy += a * f[o + 1], vz += a * f[o + 2];
      wx += b * t[o], wy += b * t[o + 1], wz += b * t[o + 2];
    }
    // the clamps apply to every slot, as in `kick`
    if (maxSpeed > 0) {
      const s2 = vx * vx + vy * vy + vz * vz;
      if (s2 > v2) {
        const k = maxSpeed / Math.sqrt(s2);
        vx *= k, vy *= k, vz *= k;
        clamps++;
      }
    }
    if (maxAngular > 0) {
      const s2 = wx * wx + wy * wy + wz * wz;
      if (s2 > w2) {
        const k = maxAngular / Math.sqrt(s2);
        wx *= k, wy *= k, wz *= k;
        clamps++;
      }
    }
    v[o] = vx, v[o + 1] = vy, v[o + 2] = vz;
    w[o] = wx, w[o + 1] = wy, w[o + 2] = wz;
    if (!free) {
      f[o] = f[o + 1] = f[o + 2] = 0;
      t[o] = t[o + 1] = t[o + 2] = 0;
      continue;
    }
    const qx = x[o] + h * vx, qy = x[o + 1] + h * vy, qz = x[o + 2] + h * vz;
    x[o] = qx, x[o + 1] = qy, x[o + 2] = qz;
    const dx = qx - ref[o], dy = qy - ref[o + 1], dz = qz - ref[o + 2];
    const d2 = dx * dx + dy * dy + dz * dz;
    if (d2 > max2) max2 = d2;
    const mi = m[i];
    f[o] = mi * gx + ef[o];
    f[o + 1] = mi * gy + ef[o + 1];
    f[o + 2] = mi * gz + ef[o + 2];
    t[o] = et[o];
    t[o + 1] = et[o + 1];
    t[o + 2] = et[o + 2];
  }
  out[0] = max2;
  return clamps;
}

/**
 * {@link kick} (`hk`, with its clamps) then {@link scanBlocks} of blocks b0 ≤ b < b1, block by
 * block in one pass over the memory: the same bytes as the two passes. Returns the clamps.
 */
export function kickScanBlocks(
  ps: ParticleStore,
  hk: number,
  maxSpeed: number,
  maxAngular: number,
  b0: number,
  b1: number,
  blocks: Float64Array,
  out: Float64Array,
): number {
  const v = ps.vel, w = ps.ang, x = ps.pos, f = ps.force, t = ps.torque;
  const im = ps.invMass, ii = ps.invInertia, m = ps.mass, fixed = ps.fixed;
  const v2 = maxSpeed * maxSpeed, w2max = maxAngular * maxAngular;
  let clamps = 0, max2 = out[0], acc = out[2];
  for (let b = b0; b < b1; b++) {
    const e = (b + 1) * SCAN_BLOCK, i1 = e < ps.count ? e : ps.count;
    let ke = 0;
    // one pass: the kick and clamps of `kick`, then the sums of `scanBlocks`, slot by slot
    // (each slot's arithmetic is theirs, so the bytes are the same as the two passes)
    for (let i = b * SCAN_BLOCK, o = 3 * i; i < i1; i++, o += 3) {
      let vx = v[o], vy = v[o + 1], vz = v[o + 2], wx = w[o], wy = w[o + 1], wz = w[o + 2];
      if (fixed[i] === 0) {
        const a = hk * im[i], c = hk * ii[i];
        vx += a * f[o], vy += a * f[o + 1], vz += a * f[o + 2];
        wx += c * t[o], wy += c * t[o + 1], wz += c * t[o + 2];
      }
      let s2 = vx * vx + vy * vy + vz * vz;
      if (maxSpeed > 0 && s2 > v2) {
        const k = maxSpeed / Math.sqrt(s2);
        vx *= k, vy *= k, vz *= k;
        clamps++;
        s2 = vx * vx + vy * vy + vz * vz;
      }
      let w2 = wx * wx + wy * wy + wz * wz;
      if (maxAngular > 0 && w2 > w2max) {
        const k = maxAngular / Math.sqrt(w2);
        wx *= k, wy *= k, wz *= k;
        clamps++;
        w2 = wx * wx + wy * wy + wz * wz;
      }
      v[o] = vx, v[o + 1] = vy, v[o + 2] = vz;
      w[o] = wx, w[o + 1] = wy, w[o + 2] = wz;
      if (s2 > max2) max2 = s2;
      const inv = ii[i];
      ke += m[i] * s2 + (inv > 0 ? w2 / inv : 0);
      // the finiteness probe of `scanBlocks`
      acc += (s2 + w2) * 0 + x[o] * 0 + x[o + 1] * 0 + x[o + 2] * 0;
    }
    blocks[b] = ke;
  }
  out[0] = max2, out[2] = acc;
  return clamps;
}

/** Wrap centres into the periodic cell on its enabled axes; returns the number of wraps. */
export function wrap(
  ps: ParticleStore,
  per: readonly [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod],
): number {
  const x = ps.pos, n = ps.count;
  let wraps = 0;
  for (let k = 0; k < 3; k++) {
    const L = per[k].length;
    if (L === 0) continue;
    const lo = per[k].lo, hi = lo + L;
    for (let i = 0, o = k; i < n; i++, o += 3) {
      const c = x[o];
      if (c < lo || c >= hi) {
        let y = c - L * Math.floor((c - lo) / L);
        if (y >= hi) y = lo;
        x[o] = y;
        wraps++;
      }
    }
  }
  return wraps;
}

/**
 * Particles per block of the kinetic-energy sum (a fixed partition, whatever the threads): the
 * slot block of the threads' pair groups (`BLOCK_LOG`), so each thread scans the grains it owns.
 */
export const SCAN_BLOCK = 2048;

/** Blocks of {@link SCAN_BLOCK} particles covering `count`. */
export function scanBlockCount(count: number): number {
  return Math.ceil(count / SCAN_BLOCK);
}

/**
 * The kinetic energy of blocks b0 ≤ b < b1 into `blocks[b]` (2·KE, in slot order within the
 * block); folds the largest squared speed into `out[0]` and the finiteness probe into `out[2]`
 * (start both at 0). The total is the sum of the blocks in block order, so it does not
 * depend on how the blocks were shared among threads.
 */
export function scanBlocks(
  ps: ParticleStore,
  b0: number,
  b1: number,
  blocks: Float64Array,
  out: Float64Array,
): void {
  const v = ps.vel, x = ps.pos, w = ps.ang, m = ps.mass, ii = ps.invInertia;
  let max2 = out[0], acc = out[2];
  for (let b = b0; b < b1; b++) {
    const i1 = Math.min(ps.count, (b + 1) * SCAN_BLOCK);
    let ke = 0;
    for (let i = b * SCAN_BLOCK, o = 3 * i; i < i1; i++, o += 3) {
      const s2 = v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2];
      const w2 = w[o] * w[o] + w[o + 1] * w[o + 1] + w[o + 2] * w[o + 2];
      if (s2 > max2) max2 = s2;
      const inv = ii[i];
      ke += m[i] * s2 + (inv > 0 ? w2 / inv : 0);
      // x·0 is 0 for every finite x and NaN otherwise: the sum stays 0 unless a value is not
      // finite (a plain sum could overflow on large but finite values).
      acc += (s2 + w2) * 0 + x[o] * 0 + x[o + 1] * 0 + x[o + 2] * 0;
    }
    blocks[b] = ke;
  }
  out[0] = max2, out[2] = acc;
}

/**
 * Finish a scan: `out[0]` becomes the largest speed, `out[1]` the kinetic energy (the blocks
 * summed in order); returns false when some state was non-finite.
 */
export function finishScan(out: Float64Array, blocks: Float64Array, nb: number): boolean {
  let ke = 0;
  for (let b = 0; b < nb; b++) ke += blocks[b];
  out[0] = Math.sqrt(out[0]);
  out[1] = 0.5 * ke;
  return out[2] === 0;
}

/** Index of the first particle with a non-finite position, velocity or spin, or -1. */
export function firstNonFinite(ps: ParticleStore): number {
  const x = ps.pos, v = ps.vel, w = ps.ang;
  for (let i = 0, o = 0; i < ps.count; i++, o += 3) {
    let s = 0;
    for (let k = 0; k < 3; k++) {
      s += x[o + k] * 0 + v[o + k] * v[o + k] * 0 + w[o + k] * w[o + k] * 0;
    }
    if (s !== 0) return i;
  }
  return -1;
}

function clamp(v: Float64Array, i0: number, i1: number, max: number): number {
  let c = 0;
  const m2 = max * max;
  for (let o = 3 * i0; o < 3 * i1; o += 3) {
    const s2 = v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2];
    if (s2 > m2) {
      const k = max / Math.sqrt(s2);
      v[o] *= k, v[o + 1] *= k, v[o + 2] *= k;
      c++;
    }
  }
  return c;
}
