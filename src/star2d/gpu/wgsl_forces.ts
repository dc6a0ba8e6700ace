/**
 * WGSL of the force stage: one thread per grain takes the pairs it owns — its neighbours with
 * a higher index, from the neighbour list — and its walls, runs the nodes-to-surface detection
 * and applies the contact law. It writes only its own records: its own force and torque, the
 * partner's share of each pair (−f, and −r_b × f) into its own slot of the transfer tables
 * (forces and torques apart, so that each binding stays small), its statistics, and the
 * tangential springs of its contacts into its own history slots. The gather kernel then
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
 * This module holds the bindings and the work loop's skeleton; its pieces live beside it: the
 * thread's state and pair context (wgsl_force_context.ts), the node test (wgsl_node_tests.ts),
 * the contact law and history (wgsl_contact_law.ts), and the steps of the loop that detect
 * pairs (wgsl_pair_detection.ts) and walls (wgsl_wall_detection.ts). `forcesWgsl` composes
 * them, in this order, into one shader.
 *
 * @module
 */

import { COMMON_WGSL, MAX_WALLS, SHAPES_TEXTURE_WGSL, WG_FORCES } from "./wgsl_common.ts";
import { contactLawWgsl } from "./wgsl_contact_law.ts";
import {
  FORCE_STATE_WGSL,
  PAIR_CONTEXT_WGSL,
  PENDING_WGSL,
  testHeaderWgsl,
} from "./wgsl_force_context.ts";
import { nodeTestWgsl } from "./wgsl_node_tests.ts";
import { NEXT_PAIR_WGSL, PAIR_NODE_STEP_WGSL } from "./wgsl_pair_detection.ts";
import { NEXT_WALL_WGSL, WALL_NODE_STEP_WGSL, WALL_PROBE_WGSL } from "./wgsl_wall_detection.ts";

export { RECORD_WORDS } from "./wgsl_contact_law.ts";

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

/** The force kernel's WGSL for the given choices. */
export function forcesWgsl(o: ForceKernelOptions): string {
  const bindings = o.record
    ? /* wgsl */ `
@group(0) @binding(11) var<storage, read> offsets: array<u32>;
@group(0) @binding(12) var<storage, read_write> records: array<u32>;`
    : /* wgsl */ `
@group(0) @binding(3) var<storage, read_write> xferF: array<vec2<f32>>;
@group(0) @binding(7) var<storage, read_write> histNextIds: array<u32>;
@group(0) @binding(13) var<storage, read_write> xferT: array<u32>;
@group(0) @binding(15) var<storage, read_write> histNextVals: array<vec2<f32>>;`;
  const sprites = o.sprite
    ? /* wgsl */ `
@group(0) @binding(9) var spriteA: texture_2d_array<f32>;
@group(0) @binding(10) var spriteB: texture_2d_array<f32>;`
    : "";
  return COMMON_WGSL + /* wgsl */ `
struct Walls { w: array<vec4<u32>, ${4 * MAX_WALLS}> }
@group(0) @binding(0) var<uniform> P: Params;
@group(0) @binding(1) var<uniform> W: Walls;
@group(0) @binding(4) var<storage, read> poses: array<Pose>;
@group(0) @binding(5) var<storage, read> nbr: array<u32>;
const SEARCH: i32 = -2147483647;
@group(0) @binding(6) var<storage, read> histPrevIds: array<u32>;
@group(0) @binding(14) var<storage, read> histPrevVals: array<vec2<f32>>;
@group(0) @binding(8) var shapeTex: texture_2d<u32>;
${bindings}
${sprites}
${SHAPES_TEXTURE_WGSL}

const RECORD: bool = ${o.record};
const FIRST_ORDER: bool = ${o.firstOrder};
const SYMMETRIC: bool = ${o.symmetric};

${FORCE_STATE_WGSL}

${nodeTestWgsl(o.sprite, o.firstOrder)}


${testHeaderWgsl(o.sprite)}

${contactLawWgsl(o.record)}

${PAIR_CONTEXT_WGSL}

${PENDING_WGSL}

${WALL_PROBE_WGSL}

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
  // mode 0: next candidate; 1: node loop of a pair; 2: next wall; 3: node loop of a wall
  var mode = 0u;
  let L = P.nbrSlots;
  let lo = i * (4u + 2u * L);
  var t = 0u;
  let tEnd = nbr[lo];
  let sCand = nbr[lo + 2u] & 0xffffu;
  let sHits = nbr[lo + 2u] >> 16u;
${
    o.record ? "" : /* wgsl */ `  // the partners' shares start at zero
  for (var u = 0u; u < tEnd; u++) {
    let x = (L + 1u) * i + u;
    xferF[x] = vec2<f32>(0.0, 0.0);
    xferT[x] = 0u;
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
${NEXT_PAIR_WGSL}
    } else if (mode == 1u) {
${PAIR_NODE_STEP_WGSL}
    } else if (mode == 2u) {
${NEXT_WALL_WGSL}
    } else {
${WALL_NODE_STEP_WGSL}
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
      setPair(i, nbr[lo + 4u + 2u * u32(other)]);
    } else {
      setSelf(mine);
    }
    bOv = e0.y;
    bP = e0.zw;
    bN = e1.xy;
    emit(other < 0, u32(-1 - other), e1.zw, u32(max(other, 0)));
  }
  if (allDone) { break; }
  if (nPend > 0u) {
    if (mode >= 2u) {
      setSelf(mine);
    } else if (mode == 1u) {
      setPair(i, nbr[lo + 4u + 2u * curJ]);
    }
  }
  nPend = 0u;
  }
  sTests += tests;
${
    o.record ? "" : /* wgsl */ `
  // this grain's own forces (owned pairs and walls); the gather kernel adds the partners'
  let x = (L + 1u) * i + L;
  xferF[x] = accF;
  xferT[x] = bitcast<u32>(accT);
  histNextIds[i] = nOwn;
  // the statistics of this grain's step, after the torques
  let o = P.statsOff + 8u * i;
  xferT[o] = sCand;
  xferT[o + 1u] = sHits;
  xferT[o + 2u] = sTests;
  xferT[o + 3u] = sPairs;
  xferT[o + 4u] = sPC;
  xferT[o + 5u] = sWC;
  let nbrOver = min(nbr[lo + 3u], 0x7fffu);
  xferT[o + 6u] = min(sOverflow, 0x7fffu) | (nbrOver << 15u);
  xferT[o + 7u] = bitcast<u32>(sMaxOv);`
  }
}
`;
}
