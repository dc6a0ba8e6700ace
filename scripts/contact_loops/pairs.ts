/**
 * Template of `src/sphere3d/pair_loops_gen.ts`: the pair loops of the general law and of the
 * plain law, written around the law fragments of `src/contact/law3d_source.ts`.
 *
 * @module
 */
import type { LawSet, NormalFixed } from "../../src/contact/law3d_source.ts";
import { loopNormal, loopSpring } from "./bind.ts";
import { generatedHeader, indent } from "./text.ts";

/** The spring of pair k (ξ in `hx` at 3k), its force in tfx, tfy, tfz. */
function pairSpring(L: LawSet): string {
  return [loopSpring(L, "k"), "on[k] = 1;", "live++;"].join("\n");
}

/** The normal force fn of the pair (overlap delta, effective radius reff, damping `cn`). */
function pairNormal(L: LawSet, cn: string, fixed: NormalFixed): string {
  return loopNormal(L, { hertz: "hertz", kn: "kn", cn, rEff: "reff", clamp: "clamp" }, fixed);
}

/** Lever arms ca, cb and the relative velocity (vx, vy, vz), vn of a with respect to b. */
const RELATIVE_VELOCITY = `const ca = ra - lever * delta, cb = rb - lever * delta;
// relative velocity of a with respect to b at the contact point
const wax = ang[oa], way = ang[oa + 1], waz = ang[oa + 2];
const wbx = ang[ob], wby = ang[ob + 1], wbz = ang[ob + 2];
const sx = ca * wax + cb * wbx, sy = ca * way + cb * wby, sz = ca * waz + cb * wbz;
const vx = vel[oa] - vel[ob] - (sy * nz - sz * ny);
const vy = vel[oa + 1] - vel[ob + 1] - (sz * nx - sx * nz);
const vz = vel[oa + 2] - vel[ob + 2] - (sx * ny - sy * nx);
const vn = vx * nx + vy * ny + vz * nz;`;

/** The pair's spring goes (the grains are apart). */
const DROP_SPRING = `if (on[k] !== 0) {
  on[k] = 0, hx[3 * k] = hx[3 * k + 1] = hx[3 * k + 2] = 0;
  dropped++;
}`;

/** Forces and torques of a touching pair whose normal force is `f`. */
function applyPair(f: string): string {
  return `const fx = ${f} * nx + tfx, fy = ${f} * ny + tfy, fz = ${f} * nz + tfz;
// torques of the tangential force: tau_a = -ca (n x ft), tau_b = -cb (n x ft)
const cx = ny * tfz - nz * tfy, cy = nz * tfx - nx * tfz, cz = nx * tfy - ny * tfx;
force[oa] += fx, force[oa + 1] += fy, force[oa + 2] += fz;
force[ob] -= fx, force[ob + 1] -= fy, force[ob + 2] -= fz;
torque[oa] -= ca * cx, torque[oa + 1] -= ca * cy, torque[oa + 2] -= ca * cz;
torque[ob] -= cb * cx, torque[ob + 1] -= cb * cy, torque[ob + 2] -= cb * cz;`;
}

/** The record entry of a pair: contact point at `c` from a, normal force `f`, tangential `ft`. */
function recordPair(c: string, f: string, ft: string): string {
  return `const o = 3 * w;
ci[w] = a, cj[w] = b, ckind[w] = ContactKind.particle, cbd[w] = -1;
cpt[o] = pos[oa] - ${c} * nx, cpt[o + 1] = pos[oa + 1] - ${c} * ny;
cpt[o + 2] = pos[oa + 2] - ${c} * nz;
cnm[o] = nx, cnm[o + 1] = ny, cnm[o + 2] = nz;
cov[w] = delta, cfn[w] = ${f};
${ft}
w++;`;
}

/** The tangential force into the record. */
const TANGENTIAL = "cft[o] = tfx, cft[o + 1] = tfy, cft[o + 2] = tfz;";

/** The unit normal from b to a (z when the centres coincide). */
const NORMAL = `let nx = 0, ny = 0, nz = 1;
if (d > 0) {
  const inv = 1 / d;
  nx = dx * inv;
  ny = dy * inv;
  nz = dz * inv;
}`;

/** The record columns and the counters' tail shared by both loops. */
const RECORD_COLUMNS = `const ci = cb.i, cj = cb.j, ckind = cb.kind, cbd = cb.boundary;
const cpt = cb.point, cnm = cb.normal, cov = cb.overlap, cfn = cb.normalForce;
const cft = cb.tangentialForce;`;

const STATS_TAIL = `stats.maxPenetration = maxPen;
stats.activeContactHistories += live;
stats.staleContactHistoriesRemoved += dropped;
return w;`;

/** The doc example of a pair loop: two grains 0.5 mm into each other, force scalars `set`. */
function pairExample(set: string, call: string): string {
  const fence = "```";
  return ` * @example
 * ${fence}ts
 * import { ParticleStore } from "./particles.ts";
 * import { PairList } from "../math/grid.ts";
 * import { PairHistory } from "./pair_history.ts";
 * import { emptyForceParams, FP } from "./forces.ts";
 * import { contactBuffers, ContactRecord } from "../contact/record.ts";
 * import { emptyStats } from "./stats.ts";
 * import { expect } from "expect";
 * const ps = new ParticleStore();
 * ps.reserve(2);
 * ps.count = 2;
 * ps.pos.set([0, 0, 0, 0, 0, 0.0195]); // 0.5 mm overlap of two 1 cm grains
 * ps.radius.fill(0.01);
 * const pairs = new PairList();
 * pairs.push(1, 0);
 * const ph = new PairHistory();
 * ph.ensure(1);
 * const p = emptyForceParams();
 * ${set}
 * const rec = new ContactRecord(3);
 * rec.reserve(1);
 * const cb = contactBuffers(rec);
 * expect(${call}).toBe(1);
 * expect(ps.force[5]).toBeCloseTo(1e5 * 5e-4, 9); // kn·δ = 50 N pushing grain 1 up
 * ${fence}`;
}

/** The general pair loop: every law, cohesion, periodic axes, per-material and rolling friction. */
function generalLoop(L: LawSet): string {
  const body = `// slots are below 2^29 (far beyond any memory): the masks let the compiler drop the
// overflow checks of 3·slot + 2
const a = pa[k] & 0x1fffffff, b = pb[k] & 0x1fffffff;
const oa = 3 * a, ob = 3 * b;
let dx = pos[oa] - pos[ob], dy = pos[oa + 1] - pos[ob + 1], dz = pos[oa + 2] - pos[ob + 2];
if (periodic) {
  if (px !== 0) dx -= px * Math.round(dx / px);
  if (py !== 0) dy -= py * Math.round(dy / py);
  if (pz !== 0) dz -= pz * Math.round(dz / pz);
}
const ra = rad[a], rb = rad[b];
const rsum = ra + rb;
const d2 = dx * dx + dy * dy + dz * dz;
const reach = rsum + dmax;
if (d2 >= reach * reach) {
${indent(DROP_SPRING, 2)}
  continue;
}
const d = Math.sqrt(d2);
${NORMAL}
const delta = rsum - d;
const fc = kc > 0 ? cohesionForce(kc, dmax, -delta) : 0;
if (delta <= 0) {
${indent(DROP_SPRING, 2)}
  if (fc <= 0) continue;
  // cohesion across a gap: attraction only
  force[oa] -= fc * nx, force[oa + 1] -= fc * ny, force[oa + 2] -= fc * nz;
  force[ob] += fc * nx, force[ob + 1] += fc * ny, force[ob + 2] += fc * nz;
  cohesive++;
  contactsN++;
  if (!record) continue;
${indent(recordPair("ra", "-fc", "cft[o] = cft[o + 1] = cft[o + 2] = 0;"), 2)}
  continue;
}
if (delta > maxPen) maxPen = delta;
${RELATIVE_VELOCITY}
// the effective radius enters only the Hertz law and the per-contact damping laws
const reff = hertz || law !== 0 ? (ra * rb) / rsum : 0;
let c = cn, ctt = ct;
if (law !== 0) {
  // per-contact damping from the effective mass (a fixed partner has 1/m = 0)
  const me = 1 / (im[a] + im[b]);
  c = contactDamping(law, cn, me, reff, delta);
  ctt = ctScaled ? ct * me : ct;
}
${pairNormal(L, "c", {})}
// one friction for every material id in use: no id loads (\`mu0\` is then the bits the
// table lookup would give, see \`prepareParams\`)
let mu = mu0, ma = 0, mb = 0;
if (mu0 < 0 || rolling) {
  ma = mid[a], mb = mid[b];
  mu = ${L.mix("ma === mb", "fr[ma]", "fr[mb]")};
}
${pairSpring(L)}
const fnet = fn - fc;
if (fc > 0) cohesive++;
${applyPair("fnet")}
const mra = rolling ? rr[ma] : 0, mrb = rolling ? rr[mb] : 0;
${
    L.rolling({
      fn: "fn",
      dt: "dt",
      nx: "nx",
      ny: "ny",
      nz: "nz",
      wx: "wax - wbx",
      wy: "way - wby",
      wz: "waz - wbz",
      roll: "roll",
      a: { mu: "mra", r: "ra", invI: "invI[a]", o: "oa" },
      b: { mu: "mrb", r: "rb", invI: "invI[b]", o: "ob" },
    })
  }
contactsN++;
if (!record) continue;
${recordPair("ca", "fnet", TANGENTIAL)}`;
  return `/**
 * \`pairForces\` for every contact law: Hertz, every damping law, cohesion, periodic axes,
 * per-material friction and rolling friction. Adds the forces of the touching (or cohesive)
 * pairs k0 ≤ k < k1 of \`pairs\` in list order, their springs in \`ph\`, contacts written to
 * \`cb\` from \`w0\` on; returns the index after the last contact written.
 *
${
    pairExample(
      "p[FP.kn] = 1e5, p[FP.kt] = 4e4, p[FP.dt] = p[FP.histDt] = 1e-5;\n" +
        " * const mat = { friction: Float64Array.of(0.5), rolling: Float64Array.of(0) };",
      "pairForcesGeneral(ps, pairs, ph, mat, p, cb, emptyStats(), 0, 1, 0)",
    )
  }
 */
export function pairForcesGeneral(
  ps: ParticleStore,
  pairs: PairList,
  ph: PairHistory,
  mat: FrictionTables,
  p: ForceParams,
  cb: ContactBuffers,
  stats: StepStats,
  k0: number,
  k1: number,
  w0: number,
): number {
  const pos = ps.pos, vel = ps.vel, ang = ps.ang, force = ps.force, torque = ps.torque;
  const roll = ps.roll;
  const rad = ps.radius, mid = ps.materialId, invI = ps.invInertia, im = ps.invMass;
  const fr = mat.friction, rr = mat.rolling;
  const kn = p[FP.kn], cn = p[FP.cn], hertz = p[FP.hertz] !== 0, kc = p[FP.kc];
  const dmax = p[FP.dmax], law = p[FP.damping], ct = p[FP.ct], ctScaled = p[FP.ctScaled] !== 0;
  const clamp = p[FP.clamp] !== 0, lever = p[FP.lever], dt = p[FP.dt];
  const px = p[FP.px], py = p[FP.py], pz = p[FP.pz], record = p[FP.record] !== 0;
  const pa = pairs.a, pb = pairs.b, on = ph.on, hx = ph.xi;
  const ktt = p[FP.kt], hdt = p[FP.histDt], mu0 = p[FP.mu], rolling = p[FP.rolling] !== 0;
  const periodic = px !== 0 || py !== 0 || pz !== 0;
${indent(RECORD_COLUMNS, 2)}
  let w = w0;
  let contactsN = 0, cohesive = 0, maxPen = stats.maxPenetration, live = 0, dropped = 0;
  for (let k = k0; k < k1; k++) {
${indent(body, 4)}
  }
  stats.particleContacts += contactsN;
  stats.cohesiveContacts += cohesive;
${indent(STATS_TAIL, 2)}
}`;
}

/** The plain pair loop: linear, constant damping, no cohesion, open box, one friction. */
function plainLoop(L: LawSet): string {
  const body = `// slots are below 2^29: the masks drop the overflow checks of 3·slot + 2
const a = pa[k] & 0x1fffffff, b = pb[k] & 0x1fffffff;
const oa = 3 * a, ob = 3 * b;
const dx = pos[oa] - pos[ob], dy = pos[oa + 1] - pos[ob + 1], dz = pos[oa + 2] - pos[ob + 2];
const ra = rad[a], rb = rad[b];
const rsum = ra + rb;
const d2 = dx * dx + dy * dy + dz * dz;
const d = d2 < rsum * rsum ? Math.sqrt(d2) : rsum;
const delta = rsum - d;
if (delta <= 0) {
  // apart (or touching at a point): the spring goes
${indent(DROP_SPRING, 2)}
  continue;
}
${NORMAL}
if (delta > maxPen) maxPen = delta;
${RELATIVE_VELOCITY}
${pairNormal(L, "cn", { hertz: false })}
${pairSpring(L)}
${applyPair("fn")}
contactsN++;
if (!record) continue;
${recordPair("ca", "fn", TANGENTIAL)}`;
  return `/**
 * \`pairForces\` (src/sphere3d/forces.ts) for the plain law (\`plainLaw\` of forces_plain.ts):
 * the forces of the touching pairs k0 ≤ k < k1 of \`pairs\`, in list order, their springs in
 * \`ph\`, contacts written to \`cb\` from \`w0\` on; returns the index after the last contact
 * written. The same arithmetic in the same order as the general loop, hence the same bits.
 *
${
    pairExample(
      "p[FP.kn] = 1e5, p[FP.kt] = 4e4, p[FP.mu] = 0.5, p[FP.rolling] = 0;\n" +
        " * p[FP.dt] = p[FP.histDt] = 1e-5;",
      "pairForcesPlain(ps, pairs, ph, p, cb, emptyStats(), 0, 1, 0)",
    )
  }
 */
export function pairForcesPlain(
  ps: ParticleStore,
  pairs: PairList,
  ph: PairHistory,
  p: ForceParams,
  cb: ContactBuffers,
  stats: StepStats,
  k0: number,
  k1: number,
  w0: number,
): number {
  const pos = ps.pos, vel = ps.vel, ang = ps.ang, force = ps.force, torque = ps.torque;
  const rad = ps.radius;
  const kn = p[FP.kn], cn = p[FP.cn], clamp = p[FP.clamp] !== 0, lever = p[FP.lever];
  const record = p[FP.record] !== 0;
  const pa = pairs.a, pb = pairs.b, on = ph.on, hx = ph.xi;
  const ktt = p[FP.kt], ctt = p[FP.ct], hdt = p[FP.histDt], mu = p[FP.mu];
${indent(RECORD_COLUMNS, 2)}
  let w = w0;
  let contactsN = 0, maxPen = stats.maxPenetration, live = 0, dropped = 0;
  for (let k = k0; k < k1; k++) {
${indent(body, 4)}
  }
  stats.particleContacts += contactsN;
${indent(STATS_TAIL, 2)}
}`;
}

/**
 * The text of \`src/sphere3d/pair_loops_gen.ts\` for the laws \`L\`.
 *
 * @example
 * ```ts
 * import { LAW3D } from "../../src/contact/law3d_source.ts";
 * import { pairLoopsText } from "./pairs.ts";
 * import { expect } from "expect";
 * expect(pairLoopsText(LAW3D)).toContain("export function pairForcesPlain(");
 * ```
 */
export function pairLoopsText(L: LawSet): string {
  return `${generatedHeader()}
/**
 * The pair loops of a granular system: the general loop (every contact law) and the loop of
 * the plain law (LAMMPS's \`gran/hooke/history\`: linear spring, constant normal damping, no
 * cohesion, an open box, one sliding friction and no rolling friction), which has the
 * branches and loads of the other laws removed and gives the general loop's bits. The laws
 * are the fragments of src/contact/law3d_source.ts, written into the loops (V8 does not
 * inline calls in loops this long). Hot loops: they allocate nothing.
 *
 * @module
 */
import { cohesionForce, contactDamping, rollingScale } from "../contact/law3d_gen.ts";
import type { PairList } from "../math/grid.ts";
import { type ContactBuffers, ContactKind } from "../contact/record.ts";
import { type ForceParams, FP, type FrictionTables } from "./force_params.ts";
import type { PairHistory } from "./pair_history.ts";
import type { ParticleStore } from "./particles.ts";
import type { StepStats } from "./stats.ts";

${generalLoop(L)}

${plainLoop(L)}
`;
}
