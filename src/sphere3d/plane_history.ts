/**
 * Tangential springs of the wall contacts held beside the planes' candidate lists (the layout
 * `pair_history.ts` gives the particle pairs): between two neighbour rebuilds, candidate k of
 * `PlaneSet.candidates` keeps its spring ξ against its plane at `PlaneSet.xi[3k..3k+2]`, so the
 * plane loop reads and writes it in candidate order, with no table lookup (the table's rows lie
 * one particle apart in memory: a cache miss per wall contact). At a rebuild the springs go back
 * into the per-particle {@link HistoryTable}, keyed by the plane's boundary id, and come out
 * again for the new candidates.
 *
 * The semantics are the table's: a spring lives while its grain touches the plane at every
 * force evaluation and is dropped (ξ = 0) at the first evaluation where it does not.
 *
 * @module
 */
import type { PlaneSet } from "./boundaries.ts";
import { boundaryPartner, type HistoryTable } from "./history.ts";

/**
 * Copy the live wall springs into the table (created or updated, stamped `stamp`); the
 * candidate columns stay as they are. The table widens when a particle's entries are full.
 * Stamp with a step other than the next evaluation's, so that the sweep after it drops the
 * springs no candidate takes back, as the table would have.
 */
export function flushPlaneHistories(planes: PlaneSet, hist: HistoryTable, stamp: number): void {
  if (!planes.live) return;
  const cand = planes.candidates, cs = planes.candidateStart, on = planes.on, xi = planes.xi;
  for (let q = 0; q < planes.count; q++) {
    const partner = boundaryPartner(planes.index[q]);
    for (let k = cs[q]; k < cs[q + 1]; k++) {
      if (on[k] !== 0) hist.store(cand[k], partner, stamp, xi, 3 * k);
    }
  }
}

/**
 * Prepare freshly built candidate lists: move each candidate's spring against its plane out of
 * the table into the candidate columns (ξ = 0 where the table has none).
 */
export function pullPlaneHistories(planes: PlaneSet, hist: HistoryTable): void {
  const cand = planes.candidates, cs = planes.candidateStart, n = cs[planes.count];
  if (planes.on.length < n) {
    let cap = planes.on.length;
    while (cap < n) cap *= 2;
    planes.on = new Uint8Array(cap);
    planes.xi = new Float64Array(3 * cap);
  }
  const on = planes.on, xi = planes.xi;
  const S = hist.slots, used = hist.used, part = hist.partner;
  for (let q = 0; q < planes.count; q++) {
    const partner = boundaryPartner(planes.index[q]);
    for (let k = cs[q]; k < cs[q + 1]; k++) {
      const a = cand[k];
      on[k] = 0;
      xi[3 * k] = xi[3 * k + 1] = xi[3 * k + 2] = 0;
      const u = used[a];
      if (u === 0) continue;
      for (let e = a * S, end = a * S + u; e < end; e++) {
        if (part[e] !== partner) continue;
        const t = hist.xi;
        xi[3 * k] = t[3 * e], xi[3 * k + 1] = t[3 * e + 1], xi[3 * k + 2] = t[3 * e + 2];
        on[k] = 1;
        hist.removeEntry(a, e);
        break;
      }
    }
  }
  planes.live = true;
}

/** Live wall springs held by the candidate columns (0 when the table holds them). */
export function livePlaneSprings(planes: PlaneSet): number {
  if (!planes.live) return 0;
  const on = planes.on, n = planes.candidateStart[planes.count];
  let c = 0;
  for (let k = 0; k < n; k++) c += on[k];
  return c;
}
