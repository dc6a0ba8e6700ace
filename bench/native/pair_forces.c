/*
 * The sphere3d pair loop (src/sphere3d/forces.ts, `pairForces`) for the settle bench's case —
 * linear contacts, constant normal damping, one friction for all grains, no cohesion, no rolling
 * friction, no periodic cell, no contact record — in C, operation for operation, so that clang's
 * code gives the same bits as V8's. bench/native_pair_bench.ts compiles it (natively and to
 * WebAssembly) and times the three on the same settled bed.
 *
 * P: kn, cn, kt, ct, mu, lever, histDt. Returns the live springs; stats[1] the springs dropped.
 */
#include <stdint.h>

int pair_forces(const double *pos, const double *vel, const double *ang, const double *rad,
                double *force, double *torque, const int32_t *pa, const int32_t *pb,
                uint8_t *on, double *hx, const double *P, int k0, int k1, int32_t *stats) {
  const double kn = P[0], cn = P[1], kt = P[2], ct = P[3], mu = P[4], lever = P[5],
               hdt = P[6];
  int live = 0, dropped = 0;
  for (int k = k0; k < k1; k++) {
    const int a = pa[k], b = pb[k], oa = 3 * a, ob = 3 * b;
    const double dx = pos[oa] - pos[ob], dy = pos[oa + 1] - pos[ob + 1],
                 dz = pos[oa + 2] - pos[ob + 2];
    const double ra = rad[a], rb = rad[b], rsum = ra + rb;
    const double d2 = dx * dx + dy * dy + dz * dz;
    if (d2 >= rsum * rsum) {
      if (on[k]) on[k] = 0, hx[3 * k] = hx[3 * k + 1] = hx[3 * k + 2] = 0, dropped++;
      continue;
    }
    const double d = __builtin_sqrt(d2);
    double nx = 0, ny = 0, nz = 1;
    if (d > 0) {
      const double inv = 1 / d;
      nx = dx * inv, ny = dy * inv, nz = dz * inv;
    }
    const double delta = rsum - d;
    if (delta <= 0) {
      if (on[k]) on[k] = 0, hx[3 * k] = hx[3 * k + 1] = hx[3 * k + 2] = 0, dropped++;
      continue;
    }
    const double ca = ra - lever * delta, cb = rb - lever * delta;
    const double wax = ang[oa], way = ang[oa + 1], waz = ang[oa + 2];
    const double wbx = ang[ob], wby = ang[ob + 1], wbz = ang[ob + 2];
    const double sx = ca * wax + cb * wbx, sy = ca * way + cb * wby, sz = ca * waz + cb * wbz;
    const double vx = vel[oa] - vel[ob] - (sy * nz - sz * ny);
    const double vy = vel[oa + 1] - vel[ob + 1] - (sz * nx - sx * nz);
    const double vz = vel[oa + 2] - vel[ob + 2] - (sx * ny - sy * nx);
    const double vn = vx * nx + vy * ny + vz * nz;
    const double fraw = kn * delta - cn * vn;
    const double fn = fraw > 0 ? fraw : 0;
    const double muFn = mu * (fn > 0 ? fn : -fn);
    const double vtx = vx - vn * nx, vty = vy - vn * ny, vtz = vz - vn * nz;
    const int s3 = 3 * k;
    double h0 = hx[s3], h1 = hx[s3 + 1], h2 = hx[s3 + 2];
    const double old2 = h0 * h0 + h1 * h1 + h2 * h2;
    if (old2 > 0) {
      const double dn = h0 * nx + h1 * ny + h2 * nz;
      h0 -= dn * nx, h1 -= dn * ny, h2 -= dn * nz;
      const double new2 = h0 * h0 + h1 * h1 + h2 * h2;
      if (new2 > 0) {
        const double r = __builtin_sqrt(old2 / new2);
        h0 *= r, h1 *= r, h2 *= r;
      }
    }
    h0 += vtx * hdt, h1 += vty * hdt, h2 += vtz * hdt;
    double tfx = -kt * h0 - ct * vtx, tfy = -kt * h1 - ct * vty, tfz = -kt * h2 - ct * vtz;
    const double f2 = tfx * tfx + tfy * tfy + tfz * tfz;
    if (f2 > muFn * muFn) {
      const double r = f2 > 0 ? muFn / __builtin_sqrt(f2) : 0;
      tfx *= r, tfy *= r, tfz *= r;
      if (kt > 0) {
        h0 = -(tfx + ct * vtx) / kt, h1 = -(tfy + ct * vty) / kt, h2 = -(tfz + ct * vtz) / kt;
      } else h0 = h1 = h2 = 0;
    }
    hx[s3] = h0, hx[s3 + 1] = h1, hx[s3 + 2] = h2;
    on[k] = 1, live++;
    const double fx = fn * nx + tfx, fy = fn * ny + tfy, fz = fn * nz + tfz;
    const double cx = ny * tfz - nz * tfy, cy = nz * tfx - nx * tfz, cz = nx * tfy - ny * tfx;
    force[oa] += fx, force[oa + 1] += fy, force[oa + 2] += fz;
    force[ob] -= fx, force[ob + 1] -= fy, force[ob + 2] -= fz;
    torque[oa] -= ca * cx, torque[oa + 1] -= ca * cy, torque[oa + 2] -= ca * cz;
    torque[ob] -= cb * cx, torque[ob + 1] -= cb * cy, torque[ob + 2] -= cb * cz;
  }
  stats[0] = live, stats[1] = dropped;
  return live;
}
