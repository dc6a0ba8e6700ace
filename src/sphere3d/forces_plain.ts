/**
 * The pair loop of the plain contact law — linear spring, constant normal damping, no
 * cohesion, an open box, one sliding friction for every material in use and no rolling
 * friction: LAMMPS's `gran/hooke/history`, the law most granular beds are run with. It gives
 * the bits of the general loop of `forces.ts` (tests/sphere3d_plain_pairs_test.ts) with the
 * branches and the loads of the other laws gone; V8 compiles the smaller body to tighter code:
 * 5–8 % less time in the pair stage on the settle bench's bed at 5,000 grains, 1–4 % at 20,000,
 * 2 % at 100,000 (the same settled bed stepped by both loops in turn, same bytes).
 * `pairForces` picks it when {@link plainLaw} holds.
 *
 * @module
 */
import type { PairList } from "../math/grid.ts";
import { type ContactBuffers, ContactKind } from "../contact/record.ts";
import type { ForceParams } from "./forces.ts";
import type { PairHistory } from "./pair_history.ts";
import type { ParticleStore } from "./particles.ts";
import type { StepStats } from "./stats.ts";

/**
 * Whether the force scalars `p` ask for nothing beyond the plain law: linear, constant normal
 * damping (`damping` 0), no cohesion, no periodic axis, one friction (`mu` ≥ 0), no rolling.
 *
 * @example
 * ```ts
 * import { emptyForceParams } from "./forces.ts";
 * import { expect } from "expect";
 * const p = emptyForceParams(); // mu −1 (frictions differ) and rolling on until resolved
 * expect(plainLaw(p)).toBe(false);
 * p.mu = 0.5, p.rolling = false;
 * expect(plainLaw(p)).toBe(true);
 * p.hertz = true;
 * expect(plainLaw(p)).toBe(false);
 * ```
 */
export function plainLaw(p: ForceParams): boolean {
  return !p.hertz && p.damping === 0 && p.kc === 0 && p.px === 0 && p.py === 0 &&
    p.pz === 0 && p.mu >= 0 && !p.rolling;
}

/**
 * `pairForces` (src/sphere3d/forces.ts) for the plain law ({@link plainLaw}): the forces of
 * the touching pairs k0 ≤ k < k1 of `pairs`, in list order, their springs in `ph`, contacts
 * written to `cb` from `w0` on; returns the index after the last contact written. The same
 * arithmetic in the same order as the general loop, hence the same bits.
 *
 * @example
 * ```ts
 * import { ParticleStore } from "./particles.ts";
 * import { PairList } from "../math/grid.ts";
 * import { PairHistory } from "./pair_history.ts";
 * import { emptyForceParams } from "./forces.ts";
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
 * p.kn = 1e5, p.kt = 4e4, p.mu = 0.5, p.rolling = false, p.dt = p.histDt = 1e-5;
 * const rec = new ContactRecord(3);
 * rec.reserve(1);
 * const n = pairForcesPlain(ps, pairs, ph, p, contactBuffers(rec), emptyStats(), 0, 1, 0);
 * expect(n).toBe(1);
 * expect(ps.force[5]).toBeCloseTo(1e5 * 5e-4, 9); // kn·δ = 50 N pushing grain 1 up
 * ```
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
  const kn = p.kn, cn = p.cn, clamp = p.clamp, lever = p.lever, record = p.record;
  const pa = pairs.a, pb = pairs.b, on = ph.on, hx = ph.xi;
  const ktt = p.kt, ctt = p.ct, hdt = p.histDt, mu = p.mu;
  const ci = cb.i, cj = cb.j, ckind = cb.kind, cbd = cb.boundary;
  const cpt = cb.point, cnm = cb.normal, cov = cb.overlap, cfn = cb.normalForce;
  const cft = cb.tangentialForce;
  let w = w0;
  let contactsN = 0, maxPen = stats.maxPenetration, live = 0, dropped = 0;
  for (let k = k0; k < k1; k++) {
    // slots are below 2^29: the masks drop the overflow checks of 3·slot + 2
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
      if (on[k] !== 0) {
        on[k] = 0, hx[3 * k] = hx[3 * k + 1] = hx[3 * k + 2] = 0;
        dropped++;
      }
      continue;
    }
    let nx = 0, ny = 0, nz = 1;
    if (d > 0) {
      const inv = 1 / d;
      nx = dx * inv;
      ny = dy * inv;
      nz = dz * inv;
    }
    if (delta > maxPen) maxPen = delta;
    const ca = ra - lever * delta, cb = rb - lever * delta;
    // relative velocity of a with respect to b at the contact point
    const wax = ang[oa], way = ang[oa + 1], waz = ang[oa + 2];
    const wbx = ang[ob], wby = ang[ob + 1], wbz = ang[ob + 2];
    const sx = ca * wax + cb * wbx, sy = ca * way + cb * wby, sz = ca * waz + cb * wbz;
    const vx = vel[oa] - vel[ob] - (sy * nz - sz * ny);
    const vy = vel[oa + 1] - vel[ob + 1] - (sz * nx - sx * nz);
    const vz = vel[oa + 2] - vel[ob + 2] - (sx * ny - sy * nx);
    const vn = vx * nx + vy * ny + vz * nz;
    const fraw = kn * delta - cn * vn;
    const fn = fraw > 0 || !clamp ? fraw : 0;
    // the history spring (`tangentialSpring3` of src/contact/tangential.ts, written out)
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
    const fx = fn * nx + tfx, fy = fn * ny + tfy, fz = fn * nz + tfz;
    // torques of the tangential force: tau_a = -ca (n x ft), tau_b = -cb (n x ft)
    const cx = ny * tfz - nz * tfy, cy = nz * tfx - nx * tfz, cz = nx * tfy - ny * tfx;
    force[oa] += fx, force[oa + 1] += fy, force[oa + 2] += fz;
    force[ob] -= fx, force[ob + 1] -= fy, force[ob + 2] -= fz;
    torque[oa] -= ca * cx, torque[oa + 1] -= ca * cy, torque[oa + 2] -= ca * cz;
    torque[ob] -= cb * cx, torque[ob + 1] -= cb * cy, torque[ob + 2] -= cb * cz;
    contactsN++;
    if (!record) continue;
    const o = 3 * w;
    ci[w] = a, cj[w] = b, ckind[w] = ContactKind.particle, cbd[w] = -1;
    cpt[o] = pos[oa] - ca * nx, cpt[o + 1] = pos[oa + 1] - ca * ny;
    cpt[o + 2] = pos[oa + 2] - ca * nz;
    cnm[o] = nx, cnm[o + 1] = ny, cnm[o + 2] = nz;
    cov[w] = delta, cfn[w] = fn;
    cft[o] = tfx, cft[o + 1] = tfy, cft[o + 2] = tfz;
    w++;
  }
  stats.particleContacts += contactsN;
  stats.maxPenetration = maxPen;
  stats.activeContactHistories += live;
  stats.staleContactHistoriesRemoved += dropped;
  return w;
}
