/**
 * The force and integration passes of the 2D grain systems (`GrainSystem2.step`): contact
 * forces with the shared laws and the tangential history, then semi-implicit Euler.
 *
 * @module
 */
import type { GrainSystem2 } from "./body.ts";
import { linearNormalForce } from "../contact/normal.ts";
import { tangentialHistory1 } from "../contact/tangential.ts";
import { contactBuffers, ContactKind } from "../contact/record.ts";

/**
 * Contact forces and torques of `sys`'s contacts with the shared laws; records the tangential
 * history. The normal n points from j (or the wall) towards i; the tangent is t = (n_y, −n_x).
 * @internal
 */
export function contactForces2(sys: GrainSystem2): void {
  const n = sys.count, c = sys.contacts, h = sys._history, b = contactBuffers(c);
  const F = sys._force, T = sys._torque;
  F.fill(0, 0, 2 * n);
  T.fill(0, 0, n);
  h.tolerance = sys._keyTol;
  h.begin();
  const pos = sys._pos, vel = sys._vel, om = sys._omega, ids = sys._ids;
  const ci = b.i, cj = b.j, cb = b.boundary, kind = b.kind, pt = b.point, nr = b.normal;
  const ov = b.overlap, fnA = b.normalForce, ftV = b.tangentialForce;
  const key = c._key, xi = c._xi, ftA = c._ft;
  const kn = sys.kn, cn = sys.cn, kt = sys.kt, ct = sys.ct, dt = sys.timeStep;
  const walls = sys.walls, mu0 = sys.friction;
  const wom = walls.omega, wg = walls.geom;
  for (let k = 0; k < c.count; k++) {
    const i = ci[k], j = cj[k];
    const px = pt[2 * k], py = pt[2 * k + 1], nx = nr[2 * k], ny = nr[2 * k + 1];
    const rix = px - pos[2 * i], riy = py - pos[2 * i + 1];
    const wi = om[i];
    let dvx = vel[2 * i] - wi * riy, dvy = vel[2 * i + 1] + wi * rix;
    let rjx = 0, rjy = 0, mu = mu0, idB: number;
    const wall = kind[k] !== ContactKind.particle;
    if (wall) {
      const w = cb[k], wo = wom[w];
      if (wo !== 0) {
        dvx += wo * (py - wg[8 * w + 6]);
        dvy -= wo * (px - wg[8 * w + 5]);
      }
      mu = walls.friction[w];
      idB = -1 - w;
    } else {
      rjx = px - pos[2 * j];
      rjy = py - pos[2 * j + 1];
      const wj = om[j];
      dvx -= vel[2 * j] - wj * rjy;
      dvy -= vel[2 * j + 1] + wj * rjx;
      idB = ids[j];
    }
    const vn = dvx * nx + dvy * ny;
    const fn = linearNormalForce(kn, cn, ov[k], vn);
    const tx = ny, ty = -nx;
    const vt = dvx * tx + dvy * ty;
    const idA = ids[i];
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
    if (!wall) {
      F[2 * j] -= fx;
      F[2 * j + 1] -= fy;
      T[j] -= rjx * fy - rjy * fx;
    }
  }
}

/**
 * Semi-implicit Euler of `sys`: velocities from forces (plus gravity, rotational damping),
 * then positions. @internal
 */
export function integrateGrains2(sys: GrainSystem2): void {
  const n = sys.count, dt = sys.timeStep, gx = sys.gravityX, gy = sys.gravityY;
  const pos = sys._pos, vel = sys._vel, ang = sys._ang, om = sys._omega;
  const m = sys._mass, I = sys._inertia, F = sys._force, T = sys._torque;
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
