/**
 * WGSL of the force stage: one thread per grain takes the pairs it owns — its neighbours with
 * a higher index, from the neighbour list — and its walls, runs the nodes-to-surface detection
 * and applies the contact law. It writes only its own records: its own force and torque, the
 * partner's share of each pair (−f, and −r_b × f) into its own slot of a transfer table, and
 * the tangential springs of its contacts into its own history slots. The gather kernel then
 * adds the shares to each partner in neighbour order: no write conflicts, no float atomics,
 * every contact computed once, and the same bytes on every run.
 *
 * The detection, the history lookup and the law are the CPU system's, in float32. The work
 * of a thread is one flat loop doing at most one node test per iteration (threads at
 * different stages stay in step), contacts found are applied in batches in a second loop.
 *
 * The record variant re-runs the same detection and law on the last step's input and writes
 * the contacts owned by each grain into a compact record (for the contact readback).
 *
 * @module
 */

import { COMMON_WGSL, MAX_WALLS, SHAPES_WGSL, WG_FORCES } from "./wgsl_common.ts";

/** Compile-time choices of the force kernel. */
export interface ForceKernelOptions {
  /** Write the contact record instead of the forces. */
  record: boolean;
  /** Node tests read the 2D sprite textures (else the 1D lookup tables and an atan2). */
  sprite: boolean;
  /** First-order overlap (else radial). */
  firstOrder: boolean;
  /** Symmetric detection (else one-sided). */
  symmetric: boolean;
}

/** Words per record entry: i, j, boundary, tile x, tile y, key, point (2), normal (2), overlap, fn, ft, ξ, 2 spare. */
export const RECORD_WORDS = 16;

/** The force kernel's WGSL for the given choices. */
export function forcesWgsl(o: ForceKernelOptions): string {
  const bindings = o.record
    ? /* wgsl */ `
@group(0) @binding(11) var<storage, read> offsets: array<u32>;
@group(0) @binding(12) var<storage, read_write> records: array<u32>;`
    : /* wgsl */ `
@group(0) @binding(3) var<storage, read_write> xfer: array<f32>;
@group(0) @binding(7) var<storage, read_write> histNext: array<u32>;`;
  const sprites = o.sprite
    ? /* wgsl */ `
@group(0) @binding(9) var spriteA: texture_2d_array<f32>;
@group(0) @binding(10) var spriteB: texture_2d_array<f32>;`
    : "";
  return COMMON_WGSL + /* wgsl */ `
struct Walls { w: array<vec4<u32>, ${4 * MAX_WALLS}> }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> W: Walls;
@group(0) @binding(2) var<storage, read> stateIn: array<Grain>;
@group(0) @binding(4) var<storage, read> poses: array<Pose>;
@group(0) @binding(5) var<storage, read> nbr: array<u32>;
const SEARCH: i32 = -2147483647;
@group(0) @binding(6) var<storage, read> histPrev: array<u32>;
@group(0) @binding(8) var<storage, read> shapes: array<u32>;
${bindings}
${sprites}
${SHAPES_WGSL}

const RECORD: bool = ${o.record};
const FIRST_ORDER: bool = ${o.firstOrder};
const SYMMETRIC: bool = ${o.symmetric};

var<private> me: u32;
var<private> accF: vec2<f32>;
var<private> accT: f32;
var<private> nOwn: u32;
var<private> nRec: u32;
var<private> sOverflow: u32;
var<private> sPC: u32;
var<private> sWC: u32;
var<private> sMaxOv: f32;
var<private> tests: u32;
var<private> found: u32;

// The pair (or grain–wall) being processed: a is the owner.
var<private> pA: u32;
var<private> pB: u32;
var<private> tileA: vec2<i32>;
var<private> fracA: vec2<f32>;
var<private> dAB: vec2<f32>;
var<private> csA: vec2<f32>;
var<private> csB: vec2<f32>;
var<private> angA: f32;
var<private> angB: f32;
var<private> shA: u32;
var<private> shB: u32;
// per-pair copies of the shapes' header words: node offsets and the node-test tables
var<private> offA: u32;
var<private> offB: u32;
var<private> hA: vec4<u32>;
var<private> hB: vec4<u32>;
var<private> rA: f32;
var<private> rB: f32;
var<private> gA: vec2<f32>;
var<private> gB: vec2<f32>;
var<private> vA: vec2<f32>;
var<private> vB: vec2<f32>;
var<private> wA: f32;
var<private> wB: f32;

// Result of a node test, and the deepest node of the running contact (point relative to a's
// polar centre, normal from a towards b or the wall).
var<private> inOv: f32;
var<private> inN: vec2<f32>;
var<private> bOv: f32;
var<private> bP: vec2<f32>;
var<private> bN: vec2<f32>;

fn wrapIdx(k: i32, n: i32) -> u32 {
  var m = k % n;
  if (m < 0) { m += n; }
  return u32(m);
}

fn nodeOf(off: u32, cs: vec2<f32>, idx: u32) -> vec2<f32> {
  let o = off + 2u * idx;
  let x = shF(o);
  let y = shF(o + 1u);
  return vec2<f32>(cs.x * x - cs.y * y, cs.y * x + cs.x * y);
}

${o.sprite ? spriteInside(o.firstOrder) : lutInside(o.firstOrder)}


// The header words a node test needs: sprite (half-width, texel, resolution, layer) or lookup
// table (size, scale, offset, −).
fn testHeader(sh: u32) -> vec4<u32> {
  let o = sh * 16u;
  return select(vec4<u32>(shapes[o + 2u], shapes[o + 4u], shapes[o + 3u], 0u),
    vec4<u32>(shapes[o + 10u], shapes[o + 11u], shapes[o + 12u], shapes[o + 9u]), ${o.sprite});
}

fn keyOf(p: vec2<f32>) -> f32 {
  let k = atan2(p.y, p.x) - angA;
  return k - TWO_PI * floor(k / TWO_PI);
}

// The spring of the previous step's contact of (a, other) nearest to key (within keyTol).
fn lookup(other: i32, key: f32) -> f32 {
  let cnt = min(histPrev[pA], P.slots);
  let base = P.entriesOff + pA * P.slots * 3u;
  var best = -1;
  var bd = 1e30;
  for (var s = 0u; s < cnt; s++) {
    let e = base + 3u * s;
    if (bitcast<i32>(histPrev[e]) != other) { continue; }
    var d = key - bitcast<f32>(histPrev[e + 1u]);
    d = abs(d - TWO_PI * round(d / TWO_PI));
    if (d <= P.keyTol && d < bd) {
      bd = d;
      best = i32(s);
    }
  }
  if (best < 0) { return 0.0; }
  return bitcast<f32>(histPrev[base + 3u * u32(best) + 2u]);
}

fn own(other: i32, key: f32, xi: f32, n: vec2<f32>, fn_: f32, ft: f32, r: vec2<f32>) {
  sMaxOv = max(sMaxOv, bOv);
  if (RECORD) {
${
    o.record
      ? /* wgsl */ `    let e = (offsets[me] + nRec) * ${RECORD_WORDS}u;
    nRec++;
    records[e] = me;
    records[e + 1u] = bitcast<u32>(select(-1, other, other >= 0));
    records[e + 2u] = bitcast<u32>(select(-1 - other, -1, other >= 0));
    records[e + 3u] = bitcast<u32>(tileA.x);
    records[e + 4u] = bitcast<u32>(tileA.y);
    records[e + 5u] = bitcast<u32>(key);
    let pt = fracA + r;
    records[e + 6u] = bitcast<u32>(pt.x);
    records[e + 7u] = bitcast<u32>(pt.y);
    records[e + 8u] = bitcast<u32>(n.x);
    records[e + 9u] = bitcast<u32>(n.y);
    records[e + 10u] = bitcast<u32>(bOv);
    records[e + 11u] = bitcast<u32>(fn_);
    records[e + 12u] = bitcast<u32>(ft);
    records[e + 13u] = bitcast<u32>(xi);`
      : ""
  }
  } else {
${
    o.record ? "" : /* wgsl */ `    if (nOwn < P.slots) {
      let e = P.entriesOff + (me * P.slots + nOwn) * 3u;
      histNext[e] = bitcast<u32>(other);
      histNext[e + 1u] = bitcast<u32>(key);
      histNext[e + 2u] = bitcast<u32>(xi);
      nOwn++;
    } else {
      sOverflow++;
    }`
  }
  }
}

// The contact law for the deepest node (bOv, bP, bN) of a contact between a and b (or a and
// wall w, whose origin is at cw from a's polar centre), applied to this thread's grain.
// (With slot: the neighbour-list slot of the partner, whose share goes to the transfer table.)
fn emit(isWall: bool, w: u32, cw: vec2<f32>, slot: u32) {
  let key = keyOf(bP);
  let n = -bN;
  let ra = bP - gA;
  var rb = vec2<f32>(0.0, 0.0);
  var dv = vA + vec2<f32>(-wA * ra.y, wA * ra.x);
  var mu = P.mu;
  var other = i32(pB);
  if (isWall) {
    let g1 = bitcast<vec4<f32>>(W.w[4u * w + 2u]);
    let g2 = bitcast<vec4<f32>>(W.w[4u * w + 3u]);
    let om = g2.y;
    if (om != 0.0) {
      let pw = cw + bP;
      dv.x += om * (pw.y - g1.w);
      dv.y -= om * (pw.x - g1.z);
    }
    mu = g2.x;
    other = -1 - i32(w);
  } else {
    rb = bP - dAB - gB;
    dv -= vB + vec2<f32>(-wB * rb.y, wB * rb.x);
  }
  let vn = dot(dv, n);
  let fn_ = max(P.kn * bOv - P.cn * vn, 0.0);
  let t = vec2<f32>(n.y, -n.x);
  let vt = dot(dv, t);
  var xi = lookup(other, key) + vt * P.dt;
  var ft = -P.kt * xi - P.ct * vt;
  let lim = mu * fn_;
  if (ft > lim || ft < -lim) {
    ft = select(-lim, lim, ft > 0.0);
    xi = select(0.0, -(ft + P.ct * vt) / P.kt, P.kt > 0.0);
  }
  let f = fn_ * n + ft * t;
  accF += f;
  accT += ra.x * f.y - ra.y * f.x;
  if (isWall) { sWC++; } else { sPC++; }
  own(other, key, xi, n, fn_, ft, ra);
${
    o.record ? "" : /* wgsl */ `  if (!isWall) {
    // the partner's share: −f at the contact point
    let x = 3u * (P.nbrSlots + 1u) * me + 3u * slot;
    xfer[x] = xfer[x] - f.x;
    xfer[x + 1u] = xfer[x + 1u] - f.y;
    xfer[x + 2u] = xfer[x + 2u] - (rb.x * f.y - rb.y * f.x);
  }`
  }
}

fn loadPair(a: u32, b: u32, pa: Pose, pb: Pose) {
  pA = a;
  pB = b;
  let ga = stateIn[a];
  let gb = stateIn[b];
  tileA = ga.tile;
  fracA = ga.frac;
  csA = pa.cs;
  csB = pb.cs;
  angA = ga.ang;
  angB = gb.ang;
  shA = pa.shape;
  shB = pb.shape;
  offA = shNodeOff(shA);
  offB = shNodeOff(shB);
  hA = testHeader(shA);
  hB = testHeader(shB);
  gA = ga.frac - pa.cfrac;
  gB = gb.frac - pb.cfrac;
  vA = ga.vel;
  vB = gb.vel;
  wA = ga.omega;
  wB = gb.omega;
}

// The pair context of (a, b), a < b, from their poses and states.
fn setPair(a: u32, b: u32) {
  let pa = poses[a];
  let pb = poses[b];
  dAB = vec2<f32>(pb.tile - pa.tile) * P.q + (pb.cfrac - pa.cfrac);
  rA = pa.rmax;
  rB = pb.rmax;
  loadPair(a, b, pa, pb);
}

// The context of this grain alone (a = this grain), for its wall contacts.
fn setSelf(mine: Pose, g: Grain) {
  pA = me;
  tileA = g.tile;
  fracA = g.frac;
  csA = mine.cs;
  angA = g.ang;
  shA = mine.shape;
  offA = shNodeOff(shA);
  rA = mine.rmax;
  gA = g.frac - mine.cfrac;
  vA = g.vel;
  wA = g.omega;
}

// Contacts found but not yet applied: (other, overlap, point) and (normal, wall origin), where
// other is the partner's index, or −1 − w for wall w. Applying them in a separate loop keeps
// the detection loop small.
const PENDING: u32 = 16u;
var<private> pend0: array<vec4<f32>, 16>;
var<private> pend1: array<vec4<f32>, 16>;
var<private> nPend: u32;

fn push(other: i32, cw: vec2<f32>) {
  found++;
  pend0[nPend] = vec4<f32>(bitcast<f32>(other), bOv, bP);
  pend1[nPend] = vec4<f32>(bN, cw);
  nPend++;
}

// Signed distance to wall w of kind k at p (relative to the wall's origin tile) and the unit
// normal into the free side.
fn probe(w: u32, kind: u32, p: vec2<f32>) -> vec3<f32> {
  let g0 = bitcast<vec4<f32>>(W.w[4u * w + 1u]);
  let g1 = bitcast<vec4<f32>>(W.w[4u * w + 2u]);
  if (kind == 0u) {
    return vec3<f32>(dot(p - g0.xy, g0.zw), g0.zw);
  }
  if (kind == 1u) {
    let e = g0.zw - g0.xy;
    let t = clamp(dot(p - g0.xy, e) / dot(e, e), 0.0, 1.0);
    let dd = p - g0.xy - t * e;
    let dist = length(dd);
    var nrm = vec2<f32>(-e.y, e.x) / length(e);
    if (dist > 0.0) { nrm = dd / dist; }
    return vec3<f32>(dist - g1.x, nrm);
  }
  let dd = g0.xy - p;
  let dist = length(dd);
  var nrm = vec2<f32>(1.0, 0.0);
  if (dist > 0.0) { nrm = dd / dist; }
  return vec3<f32>(g0.z - dist, nrm);
}

fn nonFinite(x: f32) -> bool {
  return (bitcast<u32>(x) & 0x7f800000u) == 0x7f800000u;
}

// One thread per grain. The work — scanning the 3×3 cells, testing candidates, the node loop of
// each pair in contact range, the walls — is one flat loop that does at most one node test and
// at most one contact per iteration: neighbouring threads that are at different stages of
// their work stay in step (no nested divergent loops), and the node test, the contact law and
// the history lookup each have a single call site.
@compute @workgroup_size(${WG_FORCES})
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let i = linearIndex(gid, nwg, ${WG_FORCES}u);
  if (i >= P.n) { return; }
  me = i;
  accF = vec2<f32>(0.0, 0.0);
  accT = 0.0;
  nOwn = 0u;
  nRec = 0u;
  sOverflow = 0u;
  sPC = 0u;
  sWC = 0u;
  sMaxOv = 0.0;
  var sTests = 0u;
  var sPairs = 0u;
  let mine = poses[i];
  let g = stateIn[i];
  // mode 0: next candidate; 1: node loop of a pair; 2: next wall; 3: node loop of a wall
  var mode = 0u;
  let L = P.nbrSlots;
  let lo = i * (4u + 3u * L);
  var t = 0u;
  let tEnd = nbr[lo];
  let sCand = nbr[lo + 2u] & 0xffffu;
  let sHits = nbr[lo + 2u] >> 16u;
${
    o.record ? "" : /* wgsl */ `  // the partners' shares start at zero
  for (var u = 0u; u < tEnd; u++) {
    let x = 3u * (L + 1u) * i + 3u * u;
    xfer[x] = 0.0;
    xfer[x + 1u] = 0.0;
    xfer[x + 2u] = 0.0;
  }`
  }
  var N = 0;
  var NB = 0;
  var k = 0;
  var k0 = 0;
  var k1 = 0;
  var jj = 0;
  var j1 = -1;
  var inRun = false;
  var runStart = 0;
  var searching = false;
  var w = 0u;
  var kindW = 0u;
  var cw = vec2<f32>(0.0, 0.0);
  var curJ = 0u;
  var allDone = false;
  nPend = 0u;
  loop {
  loop {
    var emitNow = false;
    var pairDone = false;
    if (mode == 0u) {
      if (t >= tEnd) {
        // the walls: this grain is a
        mode = 2u;
        setSelf(mine, g);
        N = i32(shNodes(shA));
        tests = 0u;
      } else {
        // the next neighbour with a higher index whose bounding circle intersects: (j, k0, k1)
        let e = lo + 4u + 3u * t;
        let j = nbr[e];
        k0 = bitcast<i32>(nbr[e + 1u]);
        k1 = bitcast<i32>(nbr[e + 2u]);
        curJ = t;
        t++;
        setPair(i, j);
        tests = 0u;
        found = 0u;
        N = i32(shNodes(shA));
        NB = i32(shNodes(shB));
        searching = k1 == SEARCH;
        if (searching) {
          k0 = 0;
          k1 = N - 1;
        }
        k = k0;
        jj = 0;
        j1 = -1;
        inRun = false;
        mode = 1u;
      }
    } else if (mode == 1u) {
      // One step of the node loop of pair (a, b): the nodes of a in the lens between the
      // bounding circles' intersections, runs of inside nodes closed by a sentinel node, and
      // for symmetric detection the nodes of b in each run's sector. When one bounding circle
      // contains the other, a search first finds a node of a outside b; the ring starts after.
      let onB = jj <= j1;
      if (!onB && k > k1 + 1) {
        mode = 0u;
        pairDone = true;
      } else {
        let real = onB || k <= k1;
        var isIn = false;
        var q = vec2<f32>(0.0, 0.0); // the node, relative to a's polar centre
        if (real) {
          tests++;
          var hd = hB;
          var an = angB;
          var cs = csB;
          var R = rB;
          var pt: vec2<f32>;
          if (onB) {
            q = nodeOf(offB, csB, wrapIdx(jj, NB)) + dAB;
            hd = hA;
            an = angA;
            cs = csA;
            R = rA;
            pt = q;
          } else {
            q = nodeOf(offA, csA, wrapIdx(k, N));
            pt = q - dAB;
          }
          isIn = inside(hd, an, cs, R, pt);
        }
        if (onB) {
          if (isIn && inOv > bOv) {
            bOv = inOv;
            bP = q;
            bN = inN;
          }
          jj++;
          emitNow = jj > j1;
        } else if (searching) {
          if (!isIn) {
            k0 = k + 1;
            searching = false;
          } else if (k >= N - 1) {
            k0 = 0;
            searching = false;
          }
          if (searching) {
            k++;
          } else {
            k1 = k0 + N - 1;
            k = k0;
          }
        } else {
          if (isIn) {
            if (!inRun || inOv > bOv) {
              bOv = inOv;
              bP = q;
              bN = -inN;
            }
            if (!inRun) {
              inRun = true;
              runStart = k;
            }
          } else if (inRun) {
            inRun = false;
            if (SYMMETRIC) {
              // the sector of b spanned by the run widened by one node on each side
              let p0 = nodeOf(offA, csA, wrapIdx(runStart - 1, N)) - dAB;
              let p1 = nodeOf(offA, csA, wrapIdx(k, N)) - dAB;
              let psi0 = atan2(p0.y, p0.x) - angB;
              var diff = atan2(p1.y, p1.x) - angB - psi0;
              diff = diff - TWO_PI * round(diff / TWO_PI);
              let lo = select(psi0 + diff, psi0, diff >= 0.0);
              let invB = f32(NB) / TWO_PI;
              jj = i32(ceil(lo * invB));
              j1 = min(i32(floor((lo + abs(diff)) * invB)), jj + NB);
              emitNow = jj > j1;
            } else {
              emitNow = true;
            }
          }
          k++;
        }
      }
    } else if (mode == 2u) {
      if (w >= P.wallCount) {
        allDone = true;
        break;
      }
      let h = W.w[4u * w];
      kindW = h.x;
      cw = vec2<f32>(mine.tile - vec2<i32>(bitcast<i32>(h.z), bitcast<i32>(h.w))) * P.q +
        mine.cfrac;
      if (h.y != 0u && probe(w, kindW, cw).x < rA) {
        mode = 3u;
        searching = true;
        k = 0;
        k0 = 0;
        inRun = false;
      } else {
        w++;
      }
    } else {
      // One step of the node loop of a wall: every node, the ring starting after a node that
      // is not in contact, runs closed by a sentinel node.
      if (!searching && k > k0 + N) {
        mode = 2u;
        w++;
      } else {
        let real = searching || k < k0 + N;
        var pl = vec2<f32>(0.0, 0.0);
        var pr = vec3<f32>(1.0, 0.0, 0.0);
        if (real) {
          tests++;
          pl = nodeOf(offA, csA, wrapIdx(k, N));
          pr = probe(w, kindW, cw + pl);
        }
        if (searching) {
          if (pr.x >= 0.0) {
            k0 = k + 1;
            searching = false;
            k = k0;
          } else if (k >= N - 1) {
            k0 = 0;
            searching = false;
            k = 0;
          } else {
            k++;
          }
        } else {
          if (pr.x < 0.0) {
            let ov = -pr.x;
            if (!inRun || ov > bOv) {
              bOv = ov;
              bP = pl;
              bN = -pr.yz;
            }
            inRun = true;
          } else if (inRun) {
            inRun = false;
            emitNow = true;
          }
          k++;
        }
      }
    }
    if (emitNow) {
      if (mode >= 2u) { push(-1 - i32(w), cw); } else { push(i32(curJ), cw); }
    }
    if (pairDone) {
      sTests += tests;
      if (found > 0u) { sPairs++; }
    }
    if (nPend == PENDING) { break; }
  }
  // Apply the pending contacts, then restore the context of the work in progress.
  for (var e = 0u; e < nPend; e++) {
    let e0 = pend0[e];
    let e1 = pend1[e];
    let other = bitcast<i32>(e0.x);
    if (other >= 0) {
      setPair(i, nbr[lo + 4u + 3u * u32(other)]);
    } else {
      setSelf(mine, g);
    }
    bOv = e0.y;
    bP = e0.zw;
    bN = e1.xy;
    emit(other < 0, u32(-1 - other), e1.zw, u32(max(other, 0)));
  }
  if (allDone) { break; }
  if (nPend > 0u) {
    if (mode >= 2u) {
      setSelf(mine, g);
    } else if (mode == 1u) {
      setPair(i, nbr[lo + 4u + 3u * curJ]);
    }
  }
  nPend = 0u;
  }
  sTests += tests;
${
    o.record ? "" : /* wgsl */ `
  // this grain's own forces (owned pairs and walls); the gather kernel adds the partners'
  let x = 3u * (L + 1u) * i + 3u * L;
  xfer[x] = accF.x;
  xfer[x + 1u] = accF.y;
  xfer[x + 2u] = accT;
  histNext[i] = nOwn;
  let o = P.statsOff + 8u * i;
  histNext[o] = sCand;
  histNext[o + 1u] = sHits;
  histNext[o + 2u] = sTests;
  histNext[o + 3u] = sPairs;
  histNext[o + 4u] = sPC;
  histNext[o + 5u] = sWC;
  let nbrOver = min(nbr[lo + 3u], 0x7fffu);
  histNext[o + 6u] = min(sOverflow, 0x7fffu) | (nbrOver << 15u);
  histNext[o + 7u] = bitcast<u32>(sMaxOv);`
  }
}
`;
}

function lutInside(firstOrder: boolean): string {
  return /* wgsl */ `
// 1 when p (relative to the grain's polar centre, world axes) is inside; then inOv is the
// overlap and inN the unit outward gradient of the grain's f (world axes). 1D tables + atan2.
fn inside(hd: vec4<u32>, ang: f32, cs: vec2<f32>, R: f32, p: vec2<f32>) -> bool {
  let rho2 = dot(p, p);
  if (rho2 >= R * R) { return false; }
  let n = hd.x;
  let nf = f32(n);
  var t = (atan2(p.y, p.x) - ang) * bitcast<f32>(hd.y);
  t = t - nf * floor(t / nf);
  var k = u32(max(t, 0.0));
  if (k >= n) { k = n - 1u; }
  let u = t - f32(k);
  let off = hd.z;
  let r0 = shF(off + k);
  let r = r0 + u * (shF(off + k + 1u) - r0);
  if (rho2 >= r * r) { return false; }
  let rho = sqrt(rho2);
  if (rho == 0.0) {
    inOv = r;
    inN = vec2<f32>(1.0, 0.0);
    return true;
  }
  let doff = off + n + 1u;
  let d0 = shF(doff + k);
  let q = (d0 + u * (shF(doff + k + 1u) - d0)) / rho;
  let gn = sqrt(1.0 + q * q);
  let inv = 1.0 / (rho * gn);
  inOv = ${firstOrder ? "(r - rho) / gn" : "r - rho"};
  inN = vec2<f32>((p.x + q * p.y) * inv, (p.y - q * p.x) * inv);
  return true;
}
`;
}

function spriteInside(firstOrder: boolean): string {
  const dist = firstOrder
    ? /* wgsl */ `
  let d = w00 * (a00.x + hh * (a00.y * fx + a00.z * fy)) +
    w10 * (a10.x + hh * (a10.y * (fx - 1.0) + a10.z * fy)) +
    w01 * (a01.x + hh * (a01.y * fx + a01.z * (fy - 1.0))) +
    w11 * (a11.x + hh * (a11.y * (fx - 1.0) + a11.z * (fy - 1.0)));
  if (d >= 0.0) { return false; }
  let b00 = textureLoad(spriteB, vec2<i32>(x0, y0), layer, 0);
  let b10 = textureLoad(spriteB, vec2<i32>(x0 + 1, y0), layer, 0);
  let b01 = textureLoad(spriteB, vec2<i32>(x0, y0 + 1), layer, 0);
  let b11 = textureLoad(spriteB, vec2<i32>(x0 + 1, y0 + 1), layer, 0);`
    : /* wgsl */ `
  let b00 = textureLoad(spriteB, vec2<i32>(x0, y0), layer, 0);
  let b10 = textureLoad(spriteB, vec2<i32>(x0 + 1, y0), layer, 0);
  let b01 = textureLoad(spriteB, vec2<i32>(x0, y0 + 1), layer, 0);
  let b11 = textureLoad(spriteB, vec2<i32>(x0 + 1, y0 + 1), layer, 0);
  let d = w00 * (a00.w + hh * b00.z * (b00.x * fx + b00.y * fy)) +
    w10 * (a10.w + hh * b10.z * (b10.x * (fx - 1.0) + b10.y * fy)) +
    w01 * (a01.w + hh * b01.z * (b01.x * fx + b01.y * (fy - 1.0))) +
    w11 * (a11.w + hh * b11.z * (b11.x * (fx - 1.0) + b11.y * (fy - 1.0)));
  if (d >= 0.0) { return false; }`;
  return /* wgsl */ `
// 1 when p (relative to the grain's polar centre, world axes) is inside; then inOv is the
// overlap and inN the unit outward normal (world axes). Reads the 2D sprite: four texels,
// bilinear weights with the half-gradient correction (see sprite.ts).
fn inside(hd: vec4<u32>, ang: f32, cs: vec2<f32>, R: f32, p: vec2<f32>) -> bool {
  let rho2 = dot(p, p);
  if (rho2 >= R * R) { return false; }
  let lx = cs.x * p.x + cs.y * p.y;
  let ly = -cs.y * p.x + cs.x * p.y;
  let L = bitcast<f32>(hd.x);
  let h = bitcast<f32>(hd.y);
  let S = i32(hd.z);
  let layer = i32(hd.w);
  let tx = (lx + L) / h - 0.5;
  let ty = (ly + L) / h - 0.5;
  let x0 = clamp(i32(floor(tx)), 0, S - 2);
  let y0 = clamp(i32(floor(ty)), 0, S - 2);
  let fx = tx - f32(x0);
  let fy = ty - f32(y0);
  let w00 = (1.0 - fx) * (1.0 - fy);
  let w10 = fx * (1.0 - fy);
  let w01 = (1.0 - fx) * fy;
  let w11 = fx * fy;
  let hh = 0.5 * h;
  let a00 = textureLoad(spriteA, vec2<i32>(x0, y0), layer, 0);
  let a10 = textureLoad(spriteA, vec2<i32>(x0 + 1, y0), layer, 0);
  let a01 = textureLoad(spriteA, vec2<i32>(x0, y0 + 1), layer, 0);
  let a11 = textureLoad(spriteA, vec2<i32>(x0 + 1, y0 + 1), layer, 0);
${dist}
  var nb = w00 * b00.xy + w10 * b10.xy + w01 * b01.xy + w11 * b11.xy;
  let l = length(nb);
  nb = select(vec2<f32>(1.0, 0.0), nb / l, l > 0.0);
  inOv = -d;
  inN = vec2<f32>(cs.x * nb.x - cs.y * nb.y, cs.y * nb.x + cs.x * nb.y);
  return true;
}
`;
}
