/**
 * WGSL of the contact law of the force kernel: the contact key (the angle of the contact point
 * in the owner's frame), the tangential-history lookup of the previous step's spring (nearest
 * key within keyTol, as the CPU's `ContactHistory`), the law itself (normal spring-dashpot,
 * Coulomb-capped tangential spring, the CPU's), and the bookkeeping of an owned contact: its
 * history slot, or its entry in the contact record. Pieces of the force kernel (see
 * wgsl_forces.ts). The normal force and the tangential spring are the CPU's laws, written from
 * the same source (src/contact/law3d_source.ts, through `normalForceWgsl` and `spring1Wgsl`).
 *
 * @module
 */
import { normalForceWgsl, spring1Wgsl } from "../../contact/law_wgsl.ts";

/** The normal force fn_ of the running contact: linear, clamped (the star2d law). */
const NORMAL_FORCE = normalForceWgsl({
  kn: "P.kn",
  cn: "P.cn",
  rEff: "0.0",
  overlap: "bOv",
  vn: "vn",
  fn: "fn_",
  elastic: "fnEl",
  raw: "fnRaw",
}, { hertz: false, clamp: true });

/** The tangential spring of the running contact: ξ (xi) and force (ft), capped at ±lim. */
const TANGENTIAL_SPRING = spring1Wgsl({
  xi0: "lookup(other, key)",
  vt: "vt",
  dt: "P.dt",
  kt: "P.kt",
  ct: "P.ct",
  muFn: "lim",
  x: "xi",
  f: "ft",
});

/** `text` with each line indented by two spaces (the body of a WGSL function). */
function indentWgsl(text: string): string {
  return text.split("\n").map((l) => "  " + l).join("\n");
}

/** Words per record entry: i, j, boundary, tile x, tile y, key, point (2), normal (2), overlap, fn, ft, ξ, 2 spare. */
export const RECORD_WORDS = 16;

/**
 * `keyOf`, `lookup`, `own` and `emit`: the law for the running contact (bOv, bP, bN), applied
 * to this thread's grain; the partner's share goes to the transfer table, or with `record` the
 * contact to the record.
 */
export function contactLawWgsl(record: boolean): string {
  return /* wgsl */ `fn keyOf(p: vec2<f32>) -> f32 {
  let k = atan2(p.y, p.x) - angA;
  return k - TWO_PI * floor(k / TWO_PI);
}

// The spring of the previous step's contact of (a, other) nearest to key (within keyTol). The
// table of a grain: its count, then per slot the partner (in histPrevIds, after the counts) and
// (key, ξ) (in histPrevVals).
fn lookup(other: i32, key: f32) -> f32 {
  let cnt = min(histPrevIds[pA], P.slots);
  let base = pA * P.slots;
  var best = -1;
  var bd = 1e30;
  for (var s = 0u; s < cnt; s++) {
    if (bitcast<i32>(histPrevIds[P.entriesOff + base + s]) != other) { continue; }
    var d = key - histPrevVals[base + s].x;
    d = abs(d - TWO_PI * round(d / TWO_PI));
    if (d <= P.keyTol && d < bd) {
      bd = d;
      best = i32(s);
    }
  }
  if (best < 0) { return 0.0; }
  return histPrevVals[base + u32(best)].y;
}

fn own(other: i32, key: f32, xi: f32, n: vec2<f32>, fn_: f32, ft: f32, r: vec2<f32>) {
  sMaxOv = max(sMaxOv, bOv);
  if (RECORD) {
${
    record
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
    record ? "" : /* wgsl */ `    if (nOwn < P.slots) {
      let e = me * P.slots + nOwn;
      histNextIds[P.entriesOff + e] = bitcast<u32>(other);
      histNextVals[e] = vec2<f32>(key, xi);
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
${indentWgsl(NORMAL_FORCE)}
  let t = vec2<f32>(n.y, -n.x);
  let vt = dot(dv, t);
  let lim = mu * fn_;
${indentWgsl(TANGENTIAL_SPRING)}
  let f = fn_ * n + ft * t;
  accF += f;
  accT += ra.x * f.y - ra.y * f.x;
  if (isWall) { sWC++; } else { sPC++; }
  own(other, key, xi, n, fn_, ft, ra);
${
    record ? "" : /* wgsl */ `  if (!isWall) {
    // the partner's share: −f at the contact point
    let x = (P.nbrSlots + 1u) * me + slot;
    xferF[x] = xferF[x] - f;
    xferT[x] = bitcast<u32>(bitcast<f32>(xferT[x]) - (rb.x * f.y - rb.y * f.x));
  }`
  }
}`;
}
