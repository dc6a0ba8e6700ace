/**
 * The force and integration passes of the 2D grain systems (`GrainSystem2.step`): contact
 * forces with the shared laws and the tangential history, then semi-implicit Euler.
 *
 * @module
 */
import type { GrainSystemState } from "./body_state.ts";
import { linearNormalForce } from "../contact/normal.ts";
import { tangentialHistory1 } from "../contact/tangential.ts";
import { contactBuffers, ContactKind } from "../contact/record.ts";

/**
 * Contact forces and torques of `sys`'s contacts with the shared laws; records the tangential
 * history. The normal n points from j (or the wall) towards i; the tangent is t = (n_y, −n_x).
 * @internal
 */
export function contactForces2(sys: GrainSystemState): void {
  const n = sys.count, h = sys.detectionState.history;
  sys.store.force.fill(0, 0, 2 * n);
  sys.store.torque.fill(0, 0, n);
  h.tolerance = sys.detectionState.keyTol;
  h.begin();
  contactRange2(sys, 0);
}

/** Words of {@link pairContact2}'s output: fn, ft, fx, fy, the torque arms' moments on i and j. */
export const PAIR_OUT = 6;

/**
 * The forces of one grain–grain contact (i, j) at point (px, py) with unit normal (nx, ny) from
 * j towards i and overlap `ov`: the linear normal force, the tangential spring `st[s]` (ξ of
 * the history in, this step's ξ out) and the force on i and the moments about both centres
 * into `out[o..o+5]` (see {@link PAIR_OUT}). The force threads call it; the one-thread loop
 * of {@link contactRange2} writes it out (the same bits: tests/star2d_threads_test.ts).
 * @internal
 */
export function pairContact2(
  pos: Float64Array,
  vel: Float64Array,
  om: Float64Array,
  i: number,
  j: number,
  px: number,
  py: number,
  nx: number,
  ny: number,
  ov: number,
  p: Float64Array,
  st: Float64Array,
  s: number,
  out: Float64Array,
  o: number,
): void {
  const rix = px - pos[2 * i], riy = py - pos[2 * i + 1];
  const rjx = px - pos[2 * j], rjy = py - pos[2 * j + 1];
  const wi = om[i], wj = om[j];
  let dvx = vel[2 * i] - wi * riy, dvy = vel[2 * i + 1] + wi * rix;
  dvx -= vel[2 * j] - wj * rjy;
  dvy -= vel[2 * j + 1] + wj * rjx;
  const vn = dvx * nx + dvy * ny;
  const fn = linearNormalForce(p[Law.kn], p[Law.cn], ov, vn);
  const tx = ny, ty = -nx;
  const vt = dvx * tx + dvy * ty;
  const ft = tangentialHistory1(st, s, vt, p[Law.dt], p[Law.kt], p[Law.ct], p[Law.mu] * fn);
  const fx = fn * nx + ft * tx, fy = fn * ny + ft * ty;
  out[o] = fn;
  out[o + 1] = ft;
  out[o + 2] = fx;
  out[o + 3] = fy;
  out[o + 4] = rix * fy - riy * fx;
  out[o + 5] = rjx * fy - rjy * fx;
}

/** Words of the contact-law scalars of {@link pairContact2} (`lawScalars`). @internal */
export const enum Law {
  kn = 0,
  cn = 1,
  kt = 2,
  ct = 3,
  dt = 4,
  mu = 5,
}

/** The contact-law scalars of `sys` into `p` (see {@link Law}). @internal */
export function lawScalars(sys: GrainSystemState, p: Float64Array): Float64Array {
  p[Law.kn] = sys.kn, p[Law.cn] = sys.cn, p[Law.kt] = sys.kt, p[Law.ct] = sys.ct;
  p[Law.dt] = sys.timeStep, p[Law.mu] = sys.friction;
  return p;
}

/**
 * Add the forces of contacts k0 ≤ k < count of `sys.contacts` to the grains (forces and
 * history begun by the caller), in contact order. @internal
 */
export function contactRange2(sys: GrainSystemState, k0: number): void {
  const c = sys.contacts, h = sys.detectionState.history, b = contactBuffers(c);
  const F = sys.store.force, T = sys.store.torque;
  const pos = sys.store.pos, vel = sys.store.vel, om = sys.store.omega, ids = sys.store.ids;
  const ci = b.i, cj = b.j, cb = b.boundary, kind = b.kind, pt = b.point, nr = b.normal;
  const ov = b.overlap, fnA = b.normalForce, ftV = b.tangentialForce;
  const key = c.springs.key, xi = c.springs.xi, ftA = c.springs.ft;
  const kn = sys.kn, cn = sys.cn, kt = sys.kt, ct = sys.ct, dt = sys.timeStep;
  const walls = sys.walls, mu0 = sys.friction;
  const wom = walls.omega, wg = walls.geom;
  for (let k = k0; k < c.count; k++) {
    const i = ci[k], j = cj[k];
    const px = pt[2 * k], py = pt[2 * k + 1], nx = nr[2 * k], ny = nr[2 * k + 1];
    const idA = ids[i];
    if (kind[k] === ContactKind.particle) {
      const idB = ids[j];
      // `pairContact2` written out (the threads' kernel calls it): V8 does not inline it in a
      // loop this long; tests/star2d_threads_test.ts checks that both give the same bits
      h.lookupInto(idA, idB, key, xi, k);
      const rix = px - pos[2 * i], riy = py - pos[2 * i + 1];
      const rjx = px - pos[2 * j], rjy = py - pos[2 * j + 1];
      const wi = om[i], wj = om[j];
      let dvx = vel[2 * i] - wi * riy, dvy = vel[2 * i + 1] + wi * rix;
      dvx -= vel[2 * j] - wj * rjy;
      dvy -= vel[2 * j + 1] + wj * rjx;
      const vn = dvx * nx + dvy * ny;
      const fn = linearNormalForce(kn, cn, ov[k], vn);
      const tx = ny, ty = -nx;
      const vt = dvx * tx + dvy * ty;
      const ft = tangentialHistory1(xi, k, vt, dt, kt, ct, mu0 * fn);
      h.recordFrom(idA, idB, key, xi, k);
      const fx = fn * nx + ft * tx, fy = fn * ny + ft * ty;
      fnA[k] = fn;
      ftA[k] = ft;
      ftV[2 * k] = ft * tx;
      ftV[2 * k + 1] = ft * ty;
      F[2 * i] += fx;
      F[2 * i + 1] += fy;
      T[i] += rix * fy - riy * fx;
      F[2 * j] -= fx;
      F[2 * j + 1] -= fy;
      T[j] -= rjx * fy - rjy * fx;
      continue;
    }
    const rix = px - pos[2 * i], riy = py - pos[2 * i + 1];
    const wi = om[i];
    let dvx = vel[2 * i] - wi * riy, dvy = vel[2 * i + 1] + wi * rix;
    const w = cb[k], wo = wom[w];
    if (wo !== 0) {
      dvx += wo * (py - wg[8 * w + 6]);
      dvy -= wo * (px - wg[8 * w + 5]);
    }
    const mu = walls.friction[w], idB = -1 - w;
    const vn = dvx * nx + dvy * ny;
    const fn = linearNormalForce(kn, cn, ov[k], vn);
    const tx = ny, ty = -nx;
    const vt = dvx * tx + dvy * ty;
    h.lookupInto(idA, idB, key, xi, k);
    const ft = tangentialHistory1(xi, k, vt, dt, kt, ct, mu * fn);
    h.recordFrom(idA, idB, key, xi, k);
    fnA[k] = fn;
    ftA[k] = ft;
    ftV[2 * k] = ft * tx;
    ftV[2 * k + 1] = ft * ty;
    const fx = fn * nx + ft * tx, fy = fn * ny + ft * ty;
    F[2 * i] += fx;
    F[2 * i + 1] += fy;
    T[i] += rix * fy - riy * fx;
  }
}

/**
 * Semi-implicit Euler of `sys`: velocities from forces (plus gravity, rotational damping),
 * then positions. @internal
 */
export function integrateGrains2(sys: GrainSystemState): void {
  const n = sys.count, dt = sys.timeStep, gx = sys.gravityX, gy = sys.gravityY;
  const pos = sys.store.pos, vel = sys.store.vel, ang = sys.store.ang, om = sys.store.omega;
  const m = sys.store.mass, I = sys.store.inertia, F = sys.store.force, T = sys.store.torque;
  const cr = sys.rotationalDamping;
  for (let i = 0; i < n; i++) {
    const im = 1 / m[i];
    const vx = vel[2 * i] + (F[2 * i] * im + gx) * dt;
    const vy = vel[2 * i + 1] + (F[2 * i + 1] * im + gy) * dt;
    vel[2 * i] = vx;
    vel[2 * i + 1] = vy;
    pos[2 * i] += vx * dt;
    pos[2 * i + 1] += vy * dt;
    const w = om[i] + ((T[i] - cr * om[i]) / I[i]) * dt;
    om[i] = w;
    ang[i] += w * dt;
  }
}
