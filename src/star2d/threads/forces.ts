/**
 * The force jobs of a threaded star2d step (see `pool.ts`): the contact rows copied into the
 * record's columns ({@link mergeRows}), the pair contacts' forces ({@link forceRange}) and
 * their sums per grain ({@link scatterForces}), each thread a fixed share, so that the bytes do
 * not depend on the thread count.
 *
 * @module
 */
import { ContactKind } from "../../contact/record.ts";
import { PAIR_OUT, pairContact2 } from "../body_forces.ts";
import { findPrevious, type PreviousSprings } from "../contacts.ts";
import { Info, LAW_TOL, ROW, type StarShared } from "./kernel.ts";

/** Thread `t`'s equal run lo ≤ k < hi of the step's pair contacts into `run`. */
function contactRun(info: Int32Array, t: number, run: Int32Array): void {
  const P = info[Info.pairContacts], T = info[Info.threads];
  run[0] = Math.floor((P * t) / T), run[1] = Math.floor((P * (t + 1)) / T);
}

/**
 * Thread `t`'s run of the pair contacts, from whichever thread's rows hold them, into the
 * record's columns at their index — what `StarContacts.push` writes for each row.
 */
export function mergeRows(b: StarShared, t: number, run: Int32Array): void {
  const ch = b.chunks, off = b.chunkOff, info = b.info, chunks = info[Info.chunks], c = b.con;
  const ci = c.i, cj = c.j, kind = c.kind, bd = c.boundary, pt = c.point, nr = c.normal;
  const ov = c.overlap, key = c.key;
  contactRun(info, t, run);
  const lo = run[0], hi = run[1];
  for (let q = 0; q < chunks; q++) {
    const k0 = off[q], cnt = ch[4 * q + 2];
    if (k0 + cnt <= lo) continue;
    if (k0 >= hi) break;
    const rows = b.rows[ch[4 * q]], first = ch[4 * q + 1];
    const r0 = lo > k0 ? lo - k0 : 0, r1 = hi < k0 + cnt ? hi - k0 : cnt;
    for (let r = r0, o = ROW * (first + r0), k = k0 + r0; r < r1; r++, o += ROW, k++) {
      // a pair row (kind 0): the record keeps the normal from j towards i
      ci[k] = rows[o];
      cj[k] = rows[o + 1];
      kind[k] = ContactKind.particle;
      bd[k] = -1;
      pt[2 * k] = rows[o + 3];
      pt[2 * k + 1] = rows[o + 4];
      nr[2 * k] = -rows[o + 5];
      nr[2 * k + 1] = -rows[o + 6];
      ov[k] = rows[o + 7];
      key[k] = rows[o + 8];
    }
  }
}

/**
 * The forces of thread `t`'s run of the pair contacts (`mergeRows` wrote them): ξ looked up in
 * the previous springs, then `pairContact2` — the arithmetic of one thread — with the
 * contact's ξ, normal and tangential forces written to the record and the rest to `fout`. The
 * caller records the springs and adds the forces in contact order.
 */
export function forceRange(
  b: StarShared,
  t: number,
  prev: PreviousSprings,
  cursor: Int32Array,
  run: Int32Array,
): void {
  const info = b.info, c = b.con;
  const pos = b.pos, vel = b.vel, om = b.omega, ids = b.ids, law = b.law, out = b.fout;
  const ci = c.i, cj = c.j, pt = c.point, nr = c.normal, ov = c.overlap, key = c.key;
  const xi = c.xi, fnA = c.normalForce, ftA = c.ft, ftV = c.tangentialForce;
  const tol = law[LAW_TOL];
  prev.count = info[Info.histCount], prev.stamp = info[Info.histStamp];
  prev.mask = info[Info.histMask];
  const hx = prev.xi;
  cursor.fill(0);
  contactRun(info, t, run);
  for (let k = run[0], w = PAIR_OUT * k; k < run[1]; k++, w += PAIR_OUT) {
    const i = ci[k], j = cj[k];
    const e = findPrevious(prev, cursor, ids[i], ids[j], key[k], tol);
    xi[k] = e >= 0 ? hx[e] : 0;
    const nx = nr[2 * k], ny = nr[2 * k + 1];
    pairContact2(pos, vel, om, i, j, pt[2 * k], pt[2 * k + 1], nx, ny, ov[k], law, xi, k, out, w);
    const ft = out[w + 1];
    fnA[k] = out[w];
    ftA[k] = ft;
    ftV[2 * k] = ft * ny;
    ftV[2 * k + 1] = ft * -nx;
  }
}

/**
 * The forces and torques of thread `t`'s range of grains: zeroed, then the pair contacts'
 * (`fout`) added in contact order — each grain's sum in the order of one thread, so the bytes
 * do not depend on how the grains are shared out.
 */
export function scatterForces(b: StarShared, t: number): void {
  const info = b.info, n = info[Info.grains], T = info[Info.threads];
  const P = info[Info.pairContacts], g0 = Math.floor((n * t) / T);
  const g1 = Math.floor((n * (t + 1)) / T);
  const F = b.force, Q = b.torque, ci = b.con.i, cj = b.con.j, out = b.fout;
  F.fill(0, 2 * g0, 2 * g1);
  Q.fill(0, g0, g1);
  for (let k = 0, w = 0; k < P; k++, w += PAIR_OUT) {
    const i = ci[k], j = cj[k];
    if (i >= g0 && i < g1) {
      F[2 * i] += out[w + 2];
      F[2 * i + 1] += out[w + 3];
      Q[i] += out[w + 4];
    }
    if (j >= g0 && j < g1) {
      F[2 * j] -= out[w + 2];
      F[2 * j + 1] -= out[w + 3];
      Q[j] -= out[w + 5];
    }
  }
}

/** A view of the shared copies of the previous springs for {@link forceRange}. */
export function sharedSprings(b: StarShared): PreviousSprings {
  const hh = b.hist, q5 = hh.length / 5;
  return {
    count: 0,
    a: b.histA,
    b: b.histB,
    keys: b.histKeys,
    xi: b.histXi,
    ha: hh.subarray(0, q5),
    hb: hh.subarray(q5, 2 * q5),
    hs: hh.subarray(2 * q5, 3 * q5),
    hc: hh.subarray(3 * q5, 4 * q5),
    hm: hh.subarray(4 * q5),
    stamp: 0,
    mask: 0,
  };
}
