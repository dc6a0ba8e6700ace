/**
 * Reference contacts for tests/contact_law_identity_test.ts: the geometry of a pair, a plane
 * and a body contact as the loops compute it, and every law through the plain scalar
 * functions of src/contact (`normalForce`, `contactDamping`, `tangentialSpring3`,
 * `coulombLimit`, `rollingTorque`, `rollingScale`, `cohesionForce`, `mixGeometric`), one call each.
 */
import {
  cohesionForce,
  contactDamping,
  mixGeometric,
  normalForce,
  rollingScale,
  rollingTorque,
  tangentialSpring3,
} from "../src/contact/mod.ts";
import { coulombLimit } from "../src/contact/law3d_gen.ts";
import { type ForceParams, FP, type FrictionTables } from "../src/sphere3d/force_params.ts";
import type { ParticleStore } from "../src/sphere3d/particles.ts";

/** What one contact path produced: per-grain columns and the contact's record. */
export interface Outputs {
  [key: string]: number[];
}

type V3 = [number, number, number];

const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];

/** The tangential spring through `tangentialSpring3`; returns the force, updates `xi`. */
function spring(
  xi: Float64Array,
  n: V3,
  v: V3,
  vn: number,
  p: ForceParams,
  ct: number,
  muFn: number,
) {
  const io = Float64Array.of(...n, v[0] - vn * n[0], v[1] - vn * n[1], v[2] - vn * n[2]);
  const all = Float64Array.of(...io, p[FP.histDt], p[FP.kt], ct, muFn);
  const ft = new Float64Array(3);
  tangentialSpring3(xi, 0, all, ft);
  return ft;
}

/** The tangential part of the relative spin `u` and its length. */
function tangentSpin(u: V3, n: V3): { u: V3; wr: number } {
  const un = u[0] * n[0] + u[1] * n[1] + u[2] * n[2];
  const t: V3 = [u[0] - un * n[0], u[1] - un * n[1], u[2] - un * n[2]];
  return { u: t, wr: Math.sqrt(t[0] * t[0] + t[1] * t[1] + t[2] * t[2]) };
}

/**
 * The pair a, b (a's spring `xi`, updated) added to `force`, `torque`, `roll` (zeroed by the
 * caller, as the store's); returns the record's normal and tangential force.
 */
export function pairReference(
  ps: ParticleStore,
  a: number,
  b: number,
  p: ForceParams,
  mat: FrictionTables,
  xi: Float64Array,
  out: { force: number[]; torque: number[]; roll: number[] },
): { fn: number; ft: number[] } {
  const pos = ps.pos, oa = 3 * a, ob = 3 * b;
  const dx = pos[oa] - pos[ob], dy = pos[oa + 1] - pos[ob + 1], dz = pos[oa + 2] - pos[ob + 2];
  const ra = ps.radius[a], rb = ps.radius[b], rsum = ra + rb;
  const d = Math.sqrt(dx * dx + dy * dy + dz * dz), inv = 1 / d;
  const n: V3 = [dx * inv, dy * inv, dz * inv];
  const delta = rsum - d;
  const fc = p[FP.kc] > 0 ? cohesionForce(p[FP.kc], p[FP.dmax], -delta) : 0;
  const { force, torque, roll } = out;
  if (delta <= 0) {
    for (let k = 0; k < 3; k++) force[oa + k] -= fc * n[k], force[ob + k] += fc * n[k];
    xi.fill(0);
    return { fn: -fc, ft: [0, 0, 0] };
  }
  const ca = ra - p[FP.lever] * delta, cb = rb - p[FP.lever] * delta;
  const wa = Array.from(ps.ang.subarray(oa, oa + 3)) as V3;
  const wb = Array.from(ps.ang.subarray(ob, ob + 3)) as V3;
  const s: V3 = [ca * wa[0] + cb * wb[0], ca * wa[1] + cb * wb[1], ca * wa[2] + cb * wb[2]];
  const vel = ps.vel;
  const v: V3 = [
    vel[oa] - vel[ob] - (s[1] * n[2] - s[2] * n[1]),
    vel[oa + 1] - vel[ob + 1] - (s[2] * n[0] - s[0] * n[2]),
    vel[oa + 2] - vel[ob + 2] - (s[0] * n[1] - s[1] * n[0]),
  ];
  const vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
  const reff = (ra * rb) / rsum;
  let c = p[FP.cn], ct = p[FP.ct];
  if (p[FP.damping] !== 0) {
    const me = 1 / (ps.invMass[a] + ps.invMass[b]);
    c = contactDamping(p[FP.damping], p[FP.cn], me, reff, delta);
    ct = (p[FP.ctScaled] !== 0) ? p[FP.ct] * me : p[FP.ct];
  }
  const fn = normalForce(p[FP.hertz] !== 0, p[FP.kn], c, reff, delta, vn, p[FP.clamp] !== 0);
  const ma = ps.materialId[a], mb = ps.materialId[b];
  const mu = mixGeometric(mat.friction[ma], mat.friction[mb]);
  const ft = spring(xi, n, v, vn, p, ct, coulombLimit(mu, fn));
  const fnet = fn - fc;
  const f = [fnet * n[0] + ft[0], fnet * n[1] + ft[1], fnet * n[2] + ft[2]];
  const cx = [
    n[1] * ft[2] - n[2] * ft[1],
    n[2] * ft[0] - n[0] * ft[2],
    n[0] * ft[1] - n[1] * ft[0],
  ];
  for (let k = 0; k < 3; k++) {
    force[oa + k] += f[k], force[ob + k] -= f[k];
    torque[oa + k] -= ca * cx[k], torque[ob + k] -= cb * cx[k];
  }
  const mra = (p[FP.rolling] !== 0) ? mat.rolling[ma] : 0,
    mrb = (p[FP.rolling] !== 0) ? mat.rolling[mb] : 0;
  if ((mra > 0 || mrb > 0) && fn > 0) {
    const { u, wr } = tangentSpin(sub(wa, wb), n);
    if (wr > 0) {
      const ta = rollingTorque(mra, fn, ra), tb = rollingTorque(mrb, fn, rb);
      const sc = rollingScale(ta * ps.invInertia[a] + tb * ps.invInertia[b], p[FP.dt], wr) / wr;
      for (let k = 0; k < 3; k++) roll[oa + k] -= ta * sc * u[k], roll[ob + k] += tb * sc * u[k];
    }
  }
  return { fn: fnet, ft: Array.from(ft) };
}

/** A wall-like partner of grain i: a plane (at rest) or a body shape (moving). */
export interface WallPartner {
  /** Unit normal from the partner towards the grain. */
  n: V3;
  /** Overlap (m). */
  delta: number;
  /** Effective mass of the contact (the grain's against a plane or a static body). */
  me: number;
  /** Boundary friction and rolling friction mixed in. */
  friction: number;
  /** Boundary rolling friction. */
  rolling: number;
  /** The partner's velocity at the contact point (zero for a plane). */
  vAt: (q: V3) => V3;
  /** The partner's spin (zero for a plane). */
  spin: V3;
}

/**
 * Grain i against a plane or a body (spring `xi`, updated): its force, torque and rolling
 * torque added to `out` (zeroed by the caller); returns the record's forces and the force on
 * the grain.
 */
export function wallReference(
  ps: ParticleStore,
  i: number,
  w: WallPartner,
  p: ForceParams,
  mat: FrictionTables,
  xi: Float64Array,
  out: { force: number[]; torque: number[]; roll: number[] },
): { fn: number; ft: number[]; f: number[] } {
  const o = 3 * i, r = ps.radius[i], { n, delta } = w;
  const c = r - p[FP.lever] * delta;
  const wv = Array.from(ps.ang.subarray(o, o + 3)) as V3;
  const q: V3 = [ps.pos[o] - c * n[0], ps.pos[o + 1] - c * n[1], ps.pos[o + 2] - c * n[2]];
  const bv = w.vAt(q), vel = ps.vel;
  const v: V3 = [
    vel[o] - c * (wv[1] * n[2] - wv[2] * n[1]) - bv[0],
    vel[o + 1] - c * (wv[2] * n[0] - wv[0] * n[2]) - bv[1],
    vel[o + 2] - c * (wv[0] * n[1] - wv[1] * n[0]) - bv[2],
  ];
  const vn = v[0] * n[0] + v[1] * n[1] + v[2] * n[2];
  let cd = p[FP.cn], ct = p[FP.ct];
  if (p[FP.damping] !== 0) {
    cd = contactDamping(p[FP.damping], p[FP.cn], w.me, r, delta);
    ct = (p[FP.ctScaled] !== 0) ? p[FP.ct] * w.me : p[FP.ct];
  }
  const fn = normalForce(p[FP.hertz] !== 0, p[FP.kn], cd, r, delta, vn, p[FP.clamp] !== 0);
  const m = ps.materialId[i];
  const mu = mixGeometric(mat.friction[m], w.friction);
  const ft = spring(xi, n, v, vn, p, ct, coulombLimit(mu, fn));
  const f = [fn * n[0] + ft[0], fn * n[1] + ft[1], fn * n[2] + ft[2]];
  const cx = [
    n[1] * ft[2] - n[2] * ft[1],
    n[2] * ft[0] - n[0] * ft[2],
    n[0] * ft[1] - n[1] * ft[0],
  ];
  for (let k = 0; k < 3; k++) out.force[o + k] += f[k], out.torque[o + k] -= c * cx[k];
  const mr = mixGeometric(mat.rolling[m], w.rolling);
  if (mr > 0 && fn > 0) {
    const { u, wr } = tangentSpin(sub(wv, w.spin), n);
    if (wr > 0) {
      const t = rollingTorque(mr, fn, r);
      const sc = (t * rollingScale(t * ps.invInertia[i], p[FP.dt], wr)) / wr;
      for (let k = 0; k < 3; k++) out.roll[o + k] -= sc * u[k];
    }
  }
  return { fn, ft: Array.from(ft), f };
}
