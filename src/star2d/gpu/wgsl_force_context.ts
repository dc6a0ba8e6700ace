/**
 * WGSL of the force kernel's state: the thread's private accumulators, the context of the pair
 * (or grain–wall) being processed and the deepest node of the running contact, the node and
 * header readers, the loaders of the pair context, and the contacts found but not yet applied.
 * Pieces of the force kernel (see wgsl_forces.ts), each a run of whole lines.
 *
 * @module
 */

/** Private variables of a thread (accumulators, pair context, running contact); node reader. */
export const FORCE_STATE_WGSL = /* wgsl */ `var<private> me: u32;
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
}`;

/** The header words of a shape that a node test reads (sprite or lookup table). */
export function testHeaderWgsl(sprite: boolean): string {
  return /* wgsl */ `// The header words a node test needs: sprite (half-width, texel, resolution, layer) or lookup
// table (size, scale, offset, −).
fn testHeader(sh: u32) -> vec4<u32> {
  let o = sh * 16u;
  return select(vec4<u32>(shU(o + 2u), shU(o + 4u), shU(o + 3u), 0u),
    vec4<u32>(shU(o + 10u), shU(o + 11u), shU(o + 12u), shU(o + 9u)), ${sprite});
}`;
}

/** Loaders of the pair context: of a pair (a, b), a < b, and of this grain alone (walls). */
export const PAIR_CONTEXT_WGSL = /* wgsl */ `fn loadPair(a: u32, b: u32, pa: Pose, pb: Pose) {
  pA = a;
  pB = b;
  tileA = pa.tile;
  fracA = pa.frac;
  csA = pa.cs;
  csB = pb.cs;
  angA = pa.ang;
  angB = pb.ang;
  shA = pa.shape;
  shB = pb.shape;
  offA = shNodeOff(shA);
  offB = shNodeOff(shB);
  hA = testHeader(shA);
  hB = testHeader(shB);
  gA = pa.frac - pa.cfrac;
  gB = pb.frac - pb.cfrac;
  vA = pa.vel;
  vB = pb.vel;
  wA = pa.omega;
  wB = pb.omega;
}

// The pair context of (a, b), a < b, from their poses.
fn setPair(a: u32, b: u32) {
  let pa = poses[a];
  let pb = poses[b];
  dAB = vec2<f32>(pb.tile - pa.tile) * P.q + (pb.cfrac - pa.cfrac);
  rA = pa.rmax;
  rB = pb.rmax;
  loadPair(a, b, pa, pb);
}

// The context of this grain alone (a = this grain), for its wall contacts.
fn setSelf(mine: Pose) {
  pA = me;
  tileA = mine.tile;
  fracA = mine.frac;
  csA = mine.cs;
  angA = mine.ang;
  shA = mine.shape;
  offA = shNodeOff(shA);
  rA = mine.rmax;
  gA = mine.frac - mine.cfrac;
  vA = mine.vel;
  wA = mine.omega;
}`;

/** The contacts found but not yet applied, and `push`, which adds the running contact. */
export const PENDING_WGSL =
  /* wgsl */ `// Contacts found but not yet applied: (other, overlap, point) and (normal, wall origin), where
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
}`;
