/**
 * WGSL of the grid stages and the reductions: pose preparation with the bucket count (integer
 * atomics), a blocked exclusive prefix scan, the scatter into buckets, the per-bucket sort that
 * makes the order deterministic, the statistics reduction and the contact-record counts.
 *
 * The grid is a spatial hash of cells of side `cellTiles·Q` (≥ the largest bounding diameter)
 * into a power-of-two number of buckets: memory is O(grains) whatever the domain, and a grain
 * is matched only in its true cell, so hash collisions cost time, never correctness.
 *
 * @module
 */

import { COMMON_WGSL, SCAN_BLOCK, SHAPES_WGSL, WG } from "./wgsl_common.ts";

/** Prepare: trig of the angle, polar centre, cell; count grains per bucket. */
export const PREPARE_WGSL = COMMON_WGSL + /* wgsl */ `
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> stateIn: array<Grain>;
@group(0) @binding(2) var<storage, read_write> poses: array<Pose>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read> shapes: array<u32>;
${SHAPES_WGSL}
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg, ${WG}u);
  if (i >= P.n) { return; }
  let g = stateIn[i];
  let c = cos(g.ang);
  let s = sin(g.ang);
  let gc = shCentroid(g.shape);
  let cf = g.frac - vec2<f32>(c * gc.x - s * gc.y, s * gc.x + c * gc.y);
  let ct = g.tile + vec2<i32>(floor(cf / P.q));
  let cell = vec2<i32>(floorDiv(ct.x, P.cellTiles), floorDiv(ct.y, P.cellTiles));
  poses[i] = Pose(g.tile, cf, vec2<f32>(c, s), cell, g.frac, g.vel, g.shape, shRMax(g.shape), g.ang,
    g.omega);
  atomicAdd(&counts[bucketOf(cell, P.buckets)], 1u);
}
`;

const SCAN_HEAD = /* wgsl */ `
struct ScanParams { len: u32, p0: u32, p1: u32, p2: u32 }
var<workgroup> tmp: array<u32, ${WG}>;

// Exclusive scan of the 4 values of each thread across the workgroup; returns the prefix of
// this thread's first value and leaves the workgroup total in tmp[${WG - 1}].
fn blockScan(lid: u32, sum: u32) -> u32 {
  tmp[lid] = sum;
  workgroupBarrier();
  for (var off = 1u; off < ${WG}u; off = off << 1u) {
    let t = select(0u, tmp[select(0u, lid - off, lid >= off)], lid >= off);
    workgroupBarrier();
    tmp[lid] = tmp[lid] + t;
    workgroupBarrier();
  }
  return tmp[lid] - sum;
}
`;

/**
 * One level of the scan: `bindings` declare the buffer `src` it reads and the buffer `dst` it
 * writes (binding 2; the same buffer for an in-place level), block totals go to `sums`.
 */
function scanLevelWgsl(bindings: string, src: string, dst: string): string {
  return SCAN_HEAD + /* wgsl */ `
@group(0) @binding(0) var<uniform> S: ScanParams;${bindings}
@group(0) @binding(3) var<storage, read_write> sums: array<u32>;
@compute @workgroup_size(${WG})
fn main(@builtin(local_invocation_id) lid3: vec3<u32>, @builtin(workgroup_id) wid3: vec3<u32>,
        @builtin(num_workgroups) nwg: vec3<u32>) {
  let lid = lid3.x;
  let block = wid3.x + wid3.y * nwg.x;
  let base = block * ${SCAN_BLOCK}u + lid * 4u;
  var v = array<u32, 4>(0u, 0u, 0u, 0u);
  var sum = 0u;
  for (var k = 0u; k < 4u; k++) {
    if (base + k < S.len) { v[k] = ${src}[base + k]; }
    sum += v[k];
  }
  var run = blockScan(lid, sum);
  for (var k = 0u; k < 4u; k++) {
    if (base + k < S.len) { ${dst}[base + k] = run; }
    run += v[k];
  }
  if (lid == ${WG - 1}u) { sums[block] = tmp[${WG - 1}u]; }
}
`;
}

/** Level 0 of the scan: `src` (read) → `dst`, block totals to `sums`. */
export const SCAN0_WGSL = scanLevelWgsl(
  /* wgsl */ `
@group(0) @binding(1) var<storage, read> src: array<u32>;
@group(0) @binding(2) var<storage, read_write> dst: array<u32>;`,
  "src",
  "dst",
);

/** Upper levels of the scan, in place on `data`, block totals to `sums`. */
export const SCANN_WGSL = scanLevelWgsl(
  /* wgsl */ `
@group(0) @binding(2) var<storage, read_write> data: array<u32>;`,
  "data",
  "data",
);

/** Add the scanned block totals of the level above to every element of a level. */
export const SCAN_ADD_WGSL = /* wgsl */ `
struct ScanParams { len: u32, p0: u32, p1: u32, p2: u32 }
@group(0) @binding(0) var<uniform> S: ScanParams;
@group(0) @binding(2) var<storage, read_write> data: array<u32>;
@group(0) @binding(3) var<storage, read_write> sums: array<u32>;
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let e = gid.x + gid.y * nwg.x * ${WG}u;
  if (e >= S.len) { return; }
  data[e] = data[e] + sums[e / ${SCAN_BLOCK}u];
}
`;

/** Scatter grains into their buckets (the atomic decrement returns the counts to zero). */
export const SCATTER_WGSL = COMMON_WGSL + /* wgsl */ `
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(2) var<storage, read> poses: array<Pose>;
@group(0) @binding(3) var<storage, read_write> counts: array<atomic<u32>>;
@group(0) @binding(4) var<storage, read_write> grid: array<u32>;
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg, ${WG}u);
  if (i >= P.n) { return; }
  let b = bucketOf(poses[i].cell, P.buckets);
  let slot = grid[b] + atomicSub(&counts[b], 1u) - 1u;
  grid[P.sortedOff + slot] = i;
}
`;

/** Sort each bucket by grain index: the order atomics left is not reproducible, this one is. */
export const SORT_WGSL = COMMON_WGSL + /* wgsl */ `
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(4) var<storage, read_write> grid: array<u32>;
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let h = linearIndex(gid, nwg, ${WG}u);
  if (h >= P.buckets) { return; }
  let s = grid[h];
  let e = min(grid[h + 1u], P.n);
  let o = P.sortedOff;
  for (var a = s + 1u; a < e; a++) {
    let v = grid[o + a];
    var b = a;
    while (b > s && grid[o + b - 1u] > v) {
      grid[o + b] = grid[o + b - 1u];
      b--;
    }
    grid[o + b] = v;
  }
}
`;

/**
 * Statistics of the last step, per workgroup: sums of the per-grain counters, maxima of the
 * overlap and speed, kinetic energy, and the first grain with a non-finite state. 16 words per
 * workgroup: candidates, bounding hits, node tests, pairs in contact, particle contacts, wall
 * contacts, history overflow, non-finite grains, neighbour overflow, max overlap, max v²,
 * kinetic energy, first non-finite grain (0xffffffff if none), 3 spare.
 */
export const REDUCE_WGSL = COMMON_WGSL + /* wgsl */ `
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> state: array<Grain>;
@group(0) @binding(2) var<storage, read> stats: array<u32>;
@group(0) @binding(3) var<storage, read_write> partials: array<u32>;
var<workgroup> su: array<array<u32, ${WG}>, 9>;
var<workgroup> sf: array<array<f32, ${WG}>, 3>;
var<workgroup> sbad: array<u32, ${WG}>;
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(local_invocation_id) lid3: vec3<u32>,
        @builtin(workgroup_id) wid3: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg, ${WG}u);
  let lid = lid3.x;
  let block = wid3.x + wid3.y * nwg.x;
  for (var k = 0u; k < 9u; k++) { su[k][lid] = 0u; }
  sf[0][lid] = 0.0;
  sf[1][lid] = 0.0;
  sf[2][lid] = 0.0;
  sbad[lid] = 0xffffffffu;
  if (i < P.n) {
    let o = P.statsOff + 8u * i;
    for (var k = 0u; k < 6u; k++) { su[k][lid] = stats[o + k]; }
    let ov = stats[o + 6u];
    su[6][lid] = ov & 0x7fffu;
    su[8][lid] = (ov >> 15u) & 0x7fffu;
    let bad = ov >> 31u;
    su[7][lid] = bad;
    if (bad != 0u) { sbad[lid] = i; }
    sf[0][lid] = bitcast<f32>(stats[o + 7u]);
    let g = state[i];
    let v2 = dot(g.vel, g.vel);
    sf[1][lid] = select(v2, 0.0, bad != 0u);
    let ke = 0.5 * (v2 / g.invMass + g.omega * g.omega / g.invInertia);
    sf[2][lid] = select(ke, 0.0, bad != 0u);
  }
  workgroupBarrier();
  for (var off = ${WG / 2}u; off > 0u; off = off >> 1u) {
    if (lid < off) {
      for (var k = 0u; k < 9u; k++) { su[k][lid] = su[k][lid] + su[k][lid + off]; }
      sf[0][lid] = max(sf[0][lid], sf[0][lid + off]);
      sf[1][lid] = max(sf[1][lid], sf[1][lid + off]);
      sf[2][lid] = sf[2][lid] + sf[2][lid + off];
      sbad[lid] = min(sbad[lid], sbad[lid + off]);
    }
    workgroupBarrier();
  }
  if (lid == 0u) {
    let o = 16u * block;
    for (var k = 0u; k < 9u; k++) { partials[o + k] = su[k][0]; }
    partials[o + 9u] = bitcast<u32>(sf[0][0]);
    partials[o + 10u] = bitcast<u32>(sf[1][0]);
    partials[o + 11u] = bitcast<u32>(sf[2][0]);
    partials[o + 12u] = sbad[0];
  }
}
`;

/** Contacts each grain owns in the last step (particle + wall), the input of the record scan. */
export const RECORD_COUNT_WGSL = COMMON_WGSL + /* wgsl */ `
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(2) var<storage, read> stats: array<u32>;
@group(0) @binding(3) var<storage, read_write> cnt: array<u32>;
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg, ${WG}u);
  if (i > P.n) { return; }
  if (i == P.n) { cnt[i] = 0u; return; }
  let o = P.statsOff + 8u * i;
  cnt[i] = stats[o + 4u] + stats[o + 5u];
}
`;

/**
 * Neighbours: per grain, the grains in the 3×3 cells around it whose bounding circles
 * intersect its own, in bucket order: per grain 4 + 2·slots words — the header (owned count,
 * other count, candidates | bounding hits << 16 of the owned pairs, missed) — then the owned
 * neighbours (higher index: this grain is a) from the front as two words, j and the lens of
 * node indices [k0, k1] of the canonical pair packed as k0 mod N | (k1 − k0 + 1) << 16
 * (0xffff in the high half when one bounding circle contains the other: the node loop
 * searches instead), and the lower-index neighbours from the back (j only, one word). At most
 * `slots` neighbours in all; those beyond are counted in `flags` (sticky), which `run`
 * reports.
 */
export const NEIGHBORS_WGSL = COMMON_WGSL + /* wgsl */ `
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(2) var<storage, read> poses: array<Pose>;
@group(0) @binding(4) var<storage, read> grid: array<u32>;
@group(0) @binding(5) var<storage, read_write> nbr: array<u32>;
@group(0) @binding(6) var<storage, read> shapes: array<u32>;
@group(0) @binding(7) var<storage, read_write> flags: array<atomic<u32>>;
${SHAPES_WGSL}
@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg, ${WG}u);
  if (i >= P.n) { return; }
  let mine = poses[i];
  let L = P.nbrSlots;
  let lo = i * (4u + 2u * L);
  var m = 0u;
  var mo = 0u;
  var cand = 0u;
  var hits = 0u;
  var over = 0u;
  for (var c = 0; c < 9; c++) {
    let cell = mine.cell + vec2<i32>(c % 3 - 1, c / 3 - 1);
    let b = bucketOf(cell, P.buckets);
    let e = min(grid[b + 1u], P.n);
    for (var t = grid[b]; t < e; t++) {
      let j = grid[P.sortedOff + t];
      let pj = poses[j];
      if (j == i || pj.cell.x != cell.x || pj.cell.y != cell.y) { continue; }
      let lower = i < j;
      if (lower) { cand++; }
      var pa = pj;
      var pb = mine;
      if (lower) {
        pa = mine;
        pb = pj;
      }
      let d = vec2<f32>(pb.tile - pa.tile) * P.q + (pb.cfrac - pa.cfrac);
      let rA = pa.rmax;
      let rB = pb.rmax;
      let d2 = dot(d, d);
      if (d2 >= (rA + rB) * (rA + rB)) { continue; }
      if (lower) { hits++; }
      if (m + mo >= L) {
        over++;
        continue;
      }
      if (!lower) {
        nbr[lo + 4u + 2u * L - 1u - mo] = j;
        mo++;
        continue;
      }
      let N = i32(shNodes(pa.shape));
      let dist = sqrt(d2);
      var k0 = 0;
      var k1 = -2147483647;
      if (!(dist <= abs(rA - rB) || dist <= 1e-12 * rA)) {
        let inv = f32(N) / TWO_PI;
        let cb = clamp((d2 + rA * rA - rB * rB) / (2.0 * dist * rA), -1.0, 1.0);
        let beta = acos(cb);
        let phi = atan2(d.y, d.x) - pa.ang;
        k0 = i32(ceil((phi - beta) * inv));
        k1 = min(i32(floor((phi + beta) * inv)), k0 + N);
      }
      // k0 mod N: the node loop reads nodes by index mod N, so the lens may start anywhere
      // in its class
      var kw = 0xffff0000u;
      if (k1 != -2147483647) {
        var k0m = k0 % N;
        if (k0m < 0) { k0m += N; }
        kw = u32(k0m) | (u32(k1 - k0 + 1) << 16u);
      }
      let o = lo + 4u + 2u * m;
      nbr[o] = j;
      nbr[o + 1u] = kw;
      m++;
    }
  }
  nbr[lo] = m;
  nbr[lo + 1u] = mo;
  nbr[lo + 2u] = min(cand, 0xffffu) | (min(hits, 0xffffu) << 16u);
  nbr[lo + 3u] = over;
  if (over > 0u) {
    // sticky until read: missed neighbours, and the most any grain had
    atomicAdd(&flags[0], over);
    atomicMax(&flags[1], m + mo + over);
  }
}
`;

/**
 * Gather and integrate: each grain adds to its own contact forces (owned pairs and walls,
 * from the force kernel) those its lower-index neighbours computed for it, in neighbour order
 * (deterministic, no atomics), then takes the semi-implicit Euler step: velocities, then the
 * position as tile + fraction, the angle wrapped into [−π, π) with whole turns counted.
 */
export const GATHER_WGSL = COMMON_WGSL + /* wgsl */ `
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<storage, read> stateIn: array<Grain>;
@group(0) @binding(2) var<storage, read_write> stateOut: array<Grain>;
@group(0) @binding(3) var<storage, read> nbr: array<u32>;
@group(0) @binding(4) var<storage, read> xferF: array<vec2<f32>>;
@group(0) @binding(5) var<storage, read_write> xferT: array<u32>;

fn nonFinite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u;
}

@compute @workgroup_size(${WG})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg, ${WG}u);
  if (i >= P.n) { return; }
  let L = P.nbrSlots;
  let stride = 4u + 2u * L;
  let lo = i * stride;
  let xs = L + 1u;
  var F = xferF[xs * i + L];
  var T = bitcast<f32>(xferT[xs * i + L]);
  let nOther = nbr[lo + 1u];
  for (var s = 0u; s < nOther; s++) {
    let a = nbr[lo + 4u + 2u * L - 1u - s];
    let la = a * stride;
    let na = nbr[la];
    for (var u = 0u; u < na; u++) {
      if (nbr[la + 4u + 2u * u] == i) {
        let x = xs * a + u;
        F += xferF[x];
        T += bitcast<f32>(xferT[x]);
        break;
      }
    }
  }
  let g = stateIn[i];
  let v = g.vel + (F * g.invMass + vec2<f32>(P.gx, P.gy)) * P.dt;
  var frac = g.frac + v * P.dt;
  let kt = floor(frac / P.q);
  frac = frac - kt * P.q;
  let om = g.omega + ((T - P.cr * g.omega) * g.invInertia) * P.dt;
  var ang = g.ang + om * P.dt;
  let kr = floor((ang + PI) / TWO_PI);
  ang = ang - kr * TWO_PI;
  var out = g;
  out.vel = v;
  out.frac = frac;
  out.tile = g.tile + vec2<i32>(kt);
  out.omega = om;
  out.ang = ang;
  out.turns = g.turns + i32(kr);
  stateOut[i] = out;
  let bad = nonFinite(v.x) || nonFinite(v.y) || nonFinite(frac.x) || nonFinite(frac.y) ||
    nonFinite(om) || nonFinite(ang);
  if (bad) {
    let o = P.statsOff + 8u * i + 6u;
    xferT[o] = xferT[o] | 0x80000000u;
  }
}
`;
