/**
 * Contact forces of a granular system: particle pairs and planar boundaries. These are the
 * hot loops of a step; they read the system's columns, call the shared scalar contact laws of
 * `src/contact/` and allocate nothing.
 *
 * @module
 */
import { cohesionForce } from "../contact/cohesion.ts";
import { contactDamping } from "../contact/normal.ts";
import { rollingScale } from "../contact/rolling.ts";
import { tangentialSpring3 } from "../contact/tangential.ts";
import type { PairList } from "../math/grid.ts";
import { type ContactBuffers, ContactKind } from "../contact/record.ts";
import type { HistoryTable } from "./history.ts";
import type { PairHistory } from "./pair_history.ts";
import type { ParticleStore } from "./particles.ts";
import type { StepStats } from "./stats.ts";
import { pairForcesPlain, plainLaw } from "./forces_plain.ts";

/** Scalars resolved once per step for the force loops. */
export interface ForceParams {
  /** Normal stiffness. */
  kn: number;
  /** Normal damping coefficient of the damping law `damping` (N·s/m, 1/s or a restitution factor). */
  cn: number;
  /** The normal damping law, a `DampingLaw` code of `src/contact/normal.ts` (0 = constant cn). */
  damping: number;
  /** Tangential damping scales with m_eff (`dampingMode: "mass-scaled"`). */
  ctScaled: boolean;
  /** The normal force is clamped at zero. */
  clamp: boolean;
  /** Lever arm r − lever·δ of the tangential force: 0.5 (overlap centre) or 0 (radius). */
  lever: number;
  /** Tangential stiffness (resolved, never 0 unless kn is 0). */
  kt: number;
  /** Tangential damping. */
  ct: number;
  /** Hertz law when true, linear otherwise. */
  hertz: boolean;
  /** Cohesion stiffness. */
  kc: number;
  /** Cohesion range. */
  dmax: number;
  /** Substep (s). */
  dt: number;
  /** Time increment added to the tangential springs (dt, or 0 for a re-evaluation). */
  histDt: number;
  /** Step stamp for the history table. */
  stamp: number;
  /** Periodic lengths (0 = open). */
  px: number;
  /** Periodic length y. */
  py: number;
  /** Periodic length z. */
  pz: number;
  /**
   * Write the particle pairs' contacts to the record (false on the steps of a run nobody
   * reads: the forces, springs and statistics are the same either way).
   */
  record: boolean;
  /**
   * The sliding friction every material id in use shares (so that the pair loop reads no
   * material ids), or −1 when they differ.
   */
  mu: number;
  /** Some material id in use has rolling friction (the pair loop's rolling branch). */
  rolling: boolean;
}

/** Force-loop scalars before the first evaluation resolves them. */
export function emptyForceParams(): ForceParams {
  return {
    kn: 0,
    cn: 0,
    damping: 0,
    ctScaled: false,
    clamp: true,
    lever: 0.5,
    kt: 0,
    ct: 0,
    hertz: false,
    kc: 0,
    dmax: 0,
    dt: 0,
    histDt: 0,
    stamp: 0,
    px: 0,
    py: 0,
    pz: 0,
    record: true,
    mu: -1,
    rolling: true,
  };
}

/** Per-material-id friction tables (index = material id). */
export interface FrictionTables {
  /** Sliding friction per id. */
  friction: Float64Array;
  /** Rolling friction per id. */
  rolling: Float64Array;
}

/**
 * The scratch of the force loops, owned by one system's step (no module-level state): spring
 * inputs, one contact record, the tangential force of the current contact and the grains
 * touching the current plane.
 */
export class ForceScratch {
  /** Tangential spring inputs (layout SPRING_IO of `src/contact/tangential.ts`). */
  readonly io: Float64Array = new Float64Array(10);
  /** One contact: point 0–2, normal 3–5, overlap 6, normal force 7, tangential force 8–10. */
  readonly rec: Float64Array = new Float64Array(11);
  /** Tangential force of the current contact (N). */
  readonly ft: Float64Array = new Float64Array(3);
  /** A zero spring for contacts that found no history entry. */
  readonly spare: Float64Array = new Float64Array(3);
  /** Slots of the grains touching the current plane (grown between steps only). */
  touching: Int32Array = new Int32Array(1024);
}

/**
 * Add the forces of the touching (or cohesive) pairs k0 ≤ k < k1 of `pairs` to the particle
 * columns, in list order. The pairs are oriented (`a` has the smaller stable id) and their
 * springs are in `ph` (see `pair_history.ts`); a pair that does not touch loses its spring.
 * Contacts are written to the record's columns `cb` from index `w0` on (the caller reserved
 * room for every pair); returns the index after the last one written. Updates `stats`.
 * The plain law (`plainLaw` of `forces_plain.ts`) runs a loop of its own, with the same bits.
 */
export function pairForces(
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
  if (plainLaw(p)) return pairForcesPlain(ps, pairs, ph, p, cb, stats, k0, k1, w0);
  return pairForcesGeneral(ps, pairs, ph, mat, p, cb, stats, k0, k1, w0);
}

/**
 * `pairForces` for every contact law: Hertz, every damping law, cohesion, periodic axes,
 * per-material friction and rolling friction.
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
  const kn = p.kn, cn = p.cn, hertz = p.hertz, kc = p.kc, dmax = p.dmax;
  const law = p.damping, ct = p.ct, ctScaled = p.ctScaled, clamp = p.clamp, lever = p.lever;
  const dt = p.dt, px = p.px, py = p.py, pz = p.pz, record = p.record;
  const pa = pairs.a, pb = pairs.b, on = ph.on, hx = ph.xi;
  const ktt = p.kt, hdt = p.histDt, mu0 = p.mu, rolling = p.rolling;
  const periodic = px !== 0 || py !== 0 || pz !== 0;
  const ci = cb.i, cj = cb.j, ckind = cb.kind, cbd = cb.boundary;
  const cpt = cb.point, cnm = cb.normal, cov = cb.overlap, cfn = cb.normalForce;
  const cft = cb.tangentialForce;
  let w = w0;
  let contactsN = 0, cohesive = 0, maxPen = stats.maxPenetration, live = 0, dropped = 0;
  for (let k = k0; k < k1; k++) {
    // slots are below 2^29 (far beyond any memory): the masks let the compiler drop the
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
      if (on[k] !== 0) {
        on[k] = 0, hx[3 * k] = hx[3 * k + 1] = hx[3 * k + 2] = 0;
        dropped++;
      }
      continue;
    }
    const d = Math.sqrt(d2);
    let nx = 0, ny = 0, nz = 1;
    if (d > 0) {
      const inv = 1 / d;
      nx = dx * inv;
      ny = dy * inv;
      nz = dz * inv;
    }
    const delta = rsum - d;
    const fc = kc > 0 ? cohesionForce(kc, dmax, -delta) : 0;
    if (delta <= 0) {
      if (on[k] !== 0) {
        on[k] = 0, hx[3 * k] = hx[3 * k + 1] = hx[3 * k + 2] = 0;
        dropped++;
      }
      if (fc <= 0) continue;
      // Cohesion across a gap: attraction only.
      force[oa] -= fc * nx, force[oa + 1] -= fc * ny, force[oa + 2] -= fc * nz;
      force[ob] += fc * nx, force[ob + 1] += fc * ny, force[ob + 2] += fc * nz;
      cohesive++;
      contactsN++;
      if (!record) continue;
      const o = 3 * w;
      ci[w] = a, cj[w] = b, ckind[w] = ContactKind.particle, cbd[w] = -1;
      cpt[o] = pos[oa] - ra * nx, cpt[o + 1] = pos[oa + 1] - ra * ny;
      cpt[o + 2] = pos[oa + 2] - ra * nz;
      cnm[o] = nx, cnm[o + 1] = ny, cnm[o + 2] = nz;
      cov[w] = delta, cfn[w] = -fc;
      cft[o] = cft[o + 1] = cft[o + 2] = 0;
      w++;
      continue;
    }
    if (delta > maxPen) maxPen = delta;
    const ca = ra - lever * delta, cb = rb - lever * delta;
    // Relative velocity of a with respect to b at the contact point.
    const wax = ang[oa], way = ang[oa + 1], waz = ang[oa + 2];
    const wbx = ang[ob], wby = ang[ob + 1], wbz = ang[ob + 2];
    const sx = ca * wax + cb * wbx, sy = ca * way + cb * wby, sz = ca * waz + cb * wbz;
    const vx = vel[oa] - vel[ob] - (sy * nz - sz * ny);
    const vy = vel[oa + 1] - vel[ob + 1] - (sz * nx - sx * nz);
    const vz = vel[oa + 2] - vel[ob + 2] - (sx * ny - sy * nx);
    const vn = vx * nx + vy * ny + vz * nz;
    // the effective radius enters only the Hertz law and the per-contact damping laws
    const reff = hertz || law !== 0 ? (ra * rb) / rsum : 0;
    let c = cn, ctt = ct;
    if (law !== 0) {
      // Per-contact damping from the effective mass (a fixed partner has 1/m = 0).
      const me = 1 / (im[a] + im[b]);
      c = contactDamping(law, cn, me, reff, delta);
      ctt = ctScaled ? ct * me : ct;
    }
    // `normalForce` (src/contact/normal.ts) written out: V8 stops inlining in a loop this long
    // (tests/sphere3d_contact_test.ts checks the bits against the shared law)
    const fel = hertz ? kn * Math.sqrt(reff * delta) * delta : kn * delta;
    const fraw = fel - c * vn;
    const fn = fraw > 0 || !clamp ? fraw : 0;
    // one friction for every material id in use: no id loads (`mu0` is then the bits the
    // table lookup would give, see `prepareParams`)
    let mu = mu0, ma = 0, mb = 0;
    if (mu0 < 0 || rolling) {
      ma = mid[a], mb = mid[b];
      mu = ma === mb ? fr[ma] : Math.sqrt(fr[ma] * fr[mb]);
    }
    // The history spring of `tangentialSpring3` (src/contact/tangential.ts), written out here:
    // this loop is too large for V8 to inline the call, and the io round trip cost 13 % of the
    // step. tests/sphere3d_contact_test.ts checks that both give the same bits.
    const muFn = mu * (fn > 0 ? fn : -fn);
    const vtx = vx - vn * nx, vty = vy - vn * ny, vtz = vz - vn * nz;
    const s3 = 3 * k;
    let hx0 = hx[s3], hx1 = hx[s3 + 1], hx2 = hx[s3 + 2];
    const old2 = hx0 * hx0 + hx1 * hx1 + hx2 * hx2;
    if (old2 > 0) {
      const dn = hx0 * nx + hx1 * ny + hx2 * nz;
      hx0 -= dn * nx, hx1 -= dn * ny, hx2 -= dn * nz;
      const new2 = hx0 * hx0 + hx1 * hx1 + hx2 * hx2;
      if (new2 > 0) {
        const r = Math.sqrt(old2 / new2);
        hx0 *= r, hx1 *= r, hx2 *= r;
      }
    }
    hx0 += vtx * hdt, hx1 += vty * hdt, hx2 += vtz * hdt;
    let tfx = -ktt * hx0 - ctt * vtx, tfy = -ktt * hx1 - ctt * vty, tfz = -ktt * hx2 - ctt * vtz;
    const f2 = tfx * tfx + tfy * tfy + tfz * tfz;
    if (f2 > muFn * muFn) {
      const r = f2 > 0 ? muFn / Math.sqrt(f2) : 0;
      tfx *= r, tfy *= r, tfz *= r;
      if (ktt > 0) {
        hx0 = -(tfx + ctt * vtx) / ktt;
        hx1 = -(tfy + ctt * vty) / ktt;
        hx2 = -(tfz + ctt * vtz) / ktt;
      } else hx0 = hx1 = hx2 = 0;
    }
    hx[s3] = hx0, hx[s3 + 1] = hx1, hx[s3 + 2] = hx2;
    on[k] = 1;
    live++;
    const fnet = fn - fc;
    if (fc > 0) cohesive++;
    const fx = fnet * nx + tfx, fy = fnet * ny + tfy, fz = fnet * nz + tfz;
    // Torques of the tangential force: tau_a = -ca (n x ft), tau_b = -cb (n x ft).
    const cx = ny * tfz - nz * tfy, cy = nz * tfx - nx * tfz, cz = nx * tfy - ny * tfx;
    force[oa] += fx, force[oa + 1] += fy, force[oa + 2] += fz;
    force[ob] -= fx, force[ob + 1] -= fy, force[ob + 2] -= fz;
    torque[oa] -= ca * cx, torque[oa + 1] -= ca * cy, torque[oa + 2] -= ca * cz;
    torque[ob] -= cb * cx, torque[ob + 1] -= cb * cy, torque[ob + 2] -= cb * cz;
    const mra = rolling ? rr[ma] : 0, mrb = rolling ? rr[mb] : 0;
    if ((mra > 0 || mrb > 0) && fn > 0) {
      let rx = wax - wbx, ry = way - wby, rz = waz - wbz;
      const rn = rx * nx + ry * ny + rz * nz;
      rx -= rn * nx, ry -= rn * ny, rz -= rn * nz;
      const wr = Math.sqrt(rx * rx + ry * ry + rz * rz);
      if (wr > 0) {
        const ta = mra * fn * ra, tb = mrb * fn * rb;
        const sc = rollingScale(ta * invI[a] + tb * invI[b], dt, wr) / wr;
        const qa = ta * sc, qb = tb * sc;
        roll[oa] -= qa * rx, roll[oa + 1] -= qa * ry, roll[oa + 2] -= qa * rz;
        roll[ob] += qb * rx, roll[ob + 1] += qb * ry, roll[ob + 2] += qb * rz;
      }
    }
    contactsN++;
    if (!record) continue;
    const o = 3 * w;
    ci[w] = a, cj[w] = b, ckind[w] = ContactKind.particle, cbd[w] = -1;
    cpt[o] = pos[oa] - ca * nx, cpt[o + 1] = pos[oa + 1] - ca * ny;
    cpt[o + 2] = pos[oa + 2] - ca * nz;
    cnm[o] = nx, cnm[o + 1] = ny, cnm[o + 2] = nz;
    cov[w] = delta, cfn[w] = fnet;
    cft[o] = tfx, cft[o + 1] = tfy, cft[o + 2] = tfz;
    w++;
  }
  stats.particleContacts += contactsN;
  stats.cohesiveContacts += cohesive;
  stats.maxPenetration = maxPen;
  stats.activeContactHistories += live;
  stats.staleContactHistoriesRemoved += dropped;
  return w;
}

/**
 * The tangential force of one contact from its history spring (owned by `owner`, keyed by the
 * partner's stable id) into `out[0..2]`; the spring inputs are in `spring` (layout SPRING_IO of
 * `src/contact/tangential.ts`). When the owner's history entries are full the contact gets a
 * fresh spring (`spare`, zeroed here) for this step (the table widens after the step).
 */
export function historyForce(
  hist: HistoryTable,
  owner: number,
  partner: number,
  stamp: number,
  spring: Float64Array,
  out: Float64Array,
  spare: Float64Array,
): void {
  const e = hist.find(owner, partner, stamp);
  if (e >= 0) {
    tangentialSpring3(hist.xi, 3 * e, spring, out);
  } else {
    spare[0] = spare[1] = spare[2] = 0;
    tangentialSpring3(spare, 0, spring, out);
  }
}

/**
 * Add the accumulated rolling torques to the particle torques, each capped so that over one
 * substep it can at most stop the particle's spin component it opposes: with several contacts
 * the per-contact limits alone could add up to a reversal (and feed a spin oscillation).
 */
export function applyRolling(ps: ParticleStore, dt: number): void {
  const n = ps.count, roll = ps.roll, torque = ps.torque, ang = ps.ang, invI = ps.invInertia;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const tx = roll[o], ty = roll[o + 1], tz = roll[o + 2];
    const t2 = tx * tx + ty * ty + tz * tz;
    if (t2 === 0) continue;
    roll[o] = roll[o + 1] = roll[o + 2] = 0;
    const t = Math.sqrt(t2);
    // Spin component the torque opposes, and the torque that would just stop it in dt.
    const opp = -(ang[o] * tx + ang[o + 1] * ty + ang[o + 2] * tz) / t;
    const stop = opp > 0 ? opp / (invI[i] * dt) : 0;
    const k = t <= stop ? 1 : stop / t;
    torque[o] += k * tx, torque[o + 1] += k * ty, torque[o + 2] += k * tz;
  }
}

/**
 * Fill the contact record scratch `rec`: the contact point at `reach` from the centre at
 * `pos[oi]` against the normal, the normal, the overlap and the normal force.
 */
export function fillRecord(
  rec: Float64Array,
  pos: Float64Array,
  oi: number,
  reach: number,
  overlap: number,
  nx: number,
  ny: number,
  nz: number,
  fn: number,
): void {
  rec[0] = pos[oi] - reach * nx;
  rec[1] = pos[oi + 1] - reach * ny;
  rec[2] = pos[oi + 2] - reach * nz;
  rec[3] = nx, rec[4] = ny, rec[5] = nz;
  rec[6] = overlap;
  rec[7] = fn;
}
