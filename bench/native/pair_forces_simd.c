/*
 * The pair loop of bench/native/pair_forces.c with WebAssembly SIMD (f64x2, clang -msimd128):
 * a first pass keeps the candidates in contact (list), a second computes two contacts per
 * iteration in the two lanes, branch-free (selects), and adds their forces to the grains in
 * list order, lane 0 then lane 1 — the same operations per contact and the same order of
 * the sums as the scalar loop, hence the same bits (bench/native_pair_bench.ts checks).
 *
 * P: kn, cn, kt, ct, mu, lever, histDt. `list`: room for k1 − k0 ints. Returns the live
 * springs; stats[1] the springs dropped.
 */
#include <stdint.h>
#include <wasm_simd128.h>

typedef v128_t V;
#define ADD wasm_f64x2_add
#define SUB wasm_f64x2_sub
#define MUL wasm_f64x2_mul
#define DIV wasm_f64x2_div
#define SEL(a, b, m) wasm_v128_bitselect(a, b, m) /* m ? a : b, per lane */
#define L0(v) wasm_f64x2_extract_lane(v, 0)
#define L1(v) wasm_f64x2_extract_lane(v, 1)

static inline V two(double a, double b) { return wasm_f64x2_make(a, b); }

int pair_forces(const double *pos, const double *vel, const double *ang, const double *rad,
                double *force, double *torque, const int32_t *pa, const int32_t *pb,
                uint8_t *on, double *hx, const double *P, int k0, int k1, int32_t *stats,
                int32_t *list) {
  const V kn = wasm_f64x2_splat(P[0]), cn = wasm_f64x2_splat(P[1]),
          kt = wasm_f64x2_splat(P[2]), ct = wasm_f64x2_splat(P[3]),
          mu = wasm_f64x2_splat(P[4]), lever = wasm_f64x2_splat(P[5]),
          hdt = wasm_f64x2_splat(P[6]);
  const V zero = wasm_f64x2_splat(0), one = wasm_f64x2_splat(1), nkt = wasm_f64x2_neg(kt);
  const V ktPos = wasm_f64x2_gt(kt, zero);
  int m = 0, dropped = 0;
  // pass 1: the candidates in contact (d < rsum, as the scalar loop's two tests decide)
  for (int k = k0; k < k1; k++) {
    const int a = pa[k], b = pb[k], oa = 3 * a, ob = 3 * b;
    const double dx = pos[oa] - pos[ob], dy = pos[oa + 1] - pos[ob + 1],
                 dz = pos[oa + 2] - pos[ob + 2];
    const double rsum = rad[a] + rad[b], d2 = dx * dx + dy * dy + dz * dz;
    const int touch = d2 < rsum * rsum && rsum - __builtin_sqrt(d2) > 0;
    list[m] = k, m += touch;
    if (!touch && on[k]) on[k] = 0, hx[3 * k] = hx[3 * k + 1] = hx[3 * k + 2] = 0, dropped++;
  }
  // pass 2: two contacts at a time (an odd last one runs in both lanes, lane 0 kept)
  for (int j = 0; j < m; j += 2) {
    const int k = list[j], l = j + 1 < m ? list[j + 1] : k, both = j + 1 < m;
    const int a0 = 3 * pa[k], b0 = 3 * pb[k], a1 = 3 * pa[l], b1 = 3 * pb[l];
    const V dx = SUB(two(pos[a0], pos[a1]), two(pos[b0], pos[b1]));
    const V dy = SUB(two(pos[a0 + 1], pos[a1 + 1]), two(pos[b0 + 1], pos[b1 + 1]));
    const V dz = SUB(two(pos[a0 + 2], pos[a1 + 2]), two(pos[b0 + 2], pos[b1 + 2]));
    const V ra = two(rad[a0 / 3], rad[a1 / 3]), rb = two(rad[b0 / 3], rad[b1 / 3]);
    const V rsum = ADD(ra, rb);
    const V d = wasm_f64x2_sqrt(ADD(ADD(MUL(dx, dx), MUL(dy, dy)), MUL(dz, dz)));
    const V inv = DIV(one, d), dpos = wasm_f64x2_gt(d, zero);
    const V nx = SEL(MUL(dx, inv), zero, dpos), ny = SEL(MUL(dy, inv), zero, dpos),
            nz = SEL(MUL(dz, inv), one, dpos);
    const V delta = SUB(rsum, d);
    const V ca = SUB(ra, MUL(lever, delta)), cb = SUB(rb, MUL(lever, delta));
    const V wax = two(ang[a0], ang[a1]), way = two(ang[a0 + 1], ang[a1 + 1]),
            waz = two(ang[a0 + 2], ang[a1 + 2]);
    const V wbx = two(ang[b0], ang[b1]), wby = two(ang[b0 + 1], ang[b1 + 1]),
            wbz = two(ang[b0 + 2], ang[b1 + 2]);
    const V sx = ADD(MUL(ca, wax), MUL(cb, wbx)), sy = ADD(MUL(ca, way), MUL(cb, wby)),
            sz = ADD(MUL(ca, waz), MUL(cb, wbz));
    const V vx = SUB(SUB(two(vel[a0], vel[a1]), two(vel[b0], vel[b1])),
                     SUB(MUL(sy, nz), MUL(sz, ny)));
    const V vy = SUB(SUB(two(vel[a0 + 1], vel[a1 + 1]), two(vel[b0 + 1], vel[b1 + 1])),
                     SUB(MUL(sz, nx), MUL(sx, nz)));
    const V vz = SUB(SUB(two(vel[a0 + 2], vel[a1 + 2]), two(vel[b0 + 2], vel[b1 + 2])),
                     SUB(MUL(sx, ny), MUL(sy, nx)));
    const V vn = ADD(ADD(MUL(vx, nx), MUL(vy, ny)), MUL(vz, nz));
    const V fraw = SUB(MUL(kn, delta), MUL(cn, vn));
    const V fn = SEL(fraw, zero, wasm_f64x2_gt(fraw, zero));
    const V muFn = MUL(mu, SEL(fn, wasm_f64x2_neg(fn), wasm_f64x2_gt(fn, zero)));
    const V vtx = SUB(vx, MUL(vn, nx)), vty = SUB(vy, MUL(vn, ny)), vtz = SUB(vz, MUL(vn, nz));
    const int s0 = 3 * k, s1 = 3 * l;
    V h0 = two(hx[s0], hx[s1]), h1 = two(hx[s0 + 1], hx[s1 + 1]),
      h2 = two(hx[s0 + 2], hx[s1 + 2]);
    const V old2 = ADD(ADD(MUL(h0, h0), MUL(h1, h1)), MUL(h2, h2));
    const V dn = ADD(ADD(MUL(h0, nx), MUL(h1, ny)), MUL(h2, nz));
    V g0 = SUB(h0, MUL(dn, nx)), g1 = SUB(h1, MUL(dn, ny)), g2 = SUB(h2, MUL(dn, nz));
    const V new2 = ADD(ADD(MUL(g0, g0), MUL(g1, g1)), MUL(g2, g2));
    const V r = wasm_f64x2_sqrt(DIV(old2, new2)), rescale = wasm_f64x2_gt(new2, zero);
    g0 = SEL(MUL(g0, r), g0, rescale), g1 = SEL(MUL(g1, r), g1, rescale);
    g2 = SEL(MUL(g2, r), g2, rescale);
    const V turn = wasm_f64x2_gt(old2, zero);
    h0 = ADD(SEL(g0, h0, turn), MUL(vtx, hdt)), h1 = ADD(SEL(g1, h1, turn), MUL(vty, hdt));
    h2 = ADD(SEL(g2, h2, turn), MUL(vtz, hdt));
    V tfx = SUB(MUL(nkt, h0), MUL(ct, vtx)), tfy = SUB(MUL(nkt, h1), MUL(ct, vty)),
      tfz = SUB(MUL(nkt, h2), MUL(ct, vtz));
    const V f2 = ADD(ADD(MUL(tfx, tfx), MUL(tfy, tfy)), MUL(tfz, tfz));
    const V slide = wasm_f64x2_gt(f2, MUL(muFn, muFn));
    if (wasm_v128_any_true(slide)) {
      const V s = SEL(DIV(muFn, wasm_f64x2_sqrt(f2)), zero, wasm_f64x2_gt(f2, zero));
      const V ux = MUL(tfx, s), uy = MUL(tfy, s), uz = MUL(tfz, s);
      const V e0 = SEL(DIV(wasm_f64x2_neg(ADD(ux, MUL(ct, vtx))), kt), zero, ktPos);
      const V e1 = SEL(DIV(wasm_f64x2_neg(ADD(uy, MUL(ct, vty))), kt), zero, ktPos);
      const V e2 = SEL(DIV(wasm_f64x2_neg(ADD(uz, MUL(ct, vtz))), kt), zero, ktPos);
      tfx = SEL(ux, tfx, slide), tfy = SEL(uy, tfy, slide), tfz = SEL(uz, tfz, slide);
      h0 = SEL(e0, h0, slide), h1 = SEL(e1, h1, slide), h2 = SEL(e2, h2, slide);
    }
    const V fx = ADD(MUL(fn, nx), tfx), fy = ADD(MUL(fn, ny), tfy), fz = ADD(MUL(fn, nz), tfz);
    const V cx = SUB(MUL(ny, tfz), MUL(nz, tfy)), cy = SUB(MUL(nz, tfx), MUL(nx, tfz)),
            cz = SUB(MUL(nx, tfy), MUL(ny, tfx));
    const V tax = MUL(ca, cx), tay = MUL(ca, cy), taz = MUL(ca, cz);
    const V tbx = MUL(cb, cx), tby = MUL(cb, cy), tbz = MUL(cb, cz);
    hx[s0] = L0(h0), hx[s0 + 1] = L0(h1), hx[s0 + 2] = L0(h2), on[k] = 1;
    force[a0] += L0(fx), force[a0 + 1] += L0(fy), force[a0 + 2] += L0(fz);
    force[b0] -= L0(fx), force[b0 + 1] -= L0(fy), force[b0 + 2] -= L0(fz);
    torque[a0] -= L0(tax), torque[a0 + 1] -= L0(tay), torque[a0 + 2] -= L0(taz);
    torque[b0] -= L0(tbx), torque[b0 + 1] -= L0(tby), torque[b0 + 2] -= L0(tbz);
    if (!both) break;
    hx[s1] = L1(h0), hx[s1 + 1] = L1(h1), hx[s1 + 2] = L1(h2), on[l] = 1;
    force[a1] += L1(fx), force[a1 + 1] += L1(fy), force[a1 + 2] += L1(fz);
    force[b1] -= L1(fx), force[b1 + 1] -= L1(fy), force[b1 + 2] -= L1(fz);
    torque[a1] -= L1(tax), torque[a1 + 1] -= L1(tay), torque[a1 + 2] -= L1(taz);
    torque[b1] -= L1(tbx), torque[b1 + 1] -= L1(tby), torque[b1 + 2] -= L1(tbz);
  }
  stats[0] = m, stats[1] = dropped;
  return m;
}
