/**
 * Slot order and spring bookkeeping of the granular core (`core.ts`): the spatial reordering of
 * the particle slots at neighbour rebuilds, every live spring as columns, and the hand-back of
 * the neighbour list's springs to the history table.
 *
 * @module
 */
import type { CoreState } from "./core_types.ts";
import { boundaryPartner, type HistoryColumns } from "./history.ts";
import { flushPairHistories } from "./pair_history.ts";
import { flushPlaneHistories, livePlaneSprings } from "./plane_history.ts";

/** Systems smaller than this are never reordered (their columns fit in a core's cache). */
export const SORT_MIN = 1024;

/**
 * Reorder the particle slots into the cell order of the grid just built, when more than an
 * eighth of them are out of that order (systems of at least {@link SORT_MIN} grains only):
 * grains that touch then sit close in memory, as LAMMPS's `atom_modify sort` arranges. Stable
 * ids, histories and sleep states follow their grains. Returns true when it reordered. The
 * decision depends on the state alone, so a loaded checkpoint repeats it exactly.
 * @internal
 */
export function sortSlots(core: CoreState): boolean {
  const ps = core.ps, n = ps.count, cellOf = core.grid.cellOf;
  if (n < SORT_MIN) return false;
  let out = 0;
  for (let i = 1; i < n; i++) if (cellOf[i] < cellOf[i - 1]) out++;
  if (8 * out <= n) return false;
  if (core.sortF.length < 3 * n) {
    core.sortF = new Float64Array(3 * ps.capacity);
    core.sortU = new Uint32Array(ps.capacity);
    core.sortOrder = new Int32Array(ps.capacity);
  }
  const order = core.sortOrder;
  order.set(core.grid.items.subarray(0, n));
  ps.permute(order, n, core.sortF, core.sortU);
  core.hist.permute(order, n);
  core.sleep.permute(order, n, core.sortU);
  const slotOfId = core.slotOfId, id = ps.id;
  for (let s = 0; s < n; s++) slotOfId[id[s]] = s;
  core.sorts++;
  return true;
}

/**
 * Every live spring as columns, grouped by owner slot: for each particle its table entries
 * (bodies, sleeping pairs), then its springs against the walls the candidate lists hold (in
 * plane order), then the springs the neighbour list holds for it, in list order — the order a
 * loaded table lists them in. Changes nothing.
 * @internal
 */
export function historyColumns(core: CoreState): HistoryColumns {
  const ps = core.ps, ph = core.pairHist, hist = core.hist, n = ps.count, id = ps.id;
  const pl = core.planes;
  const np = ph.live ? core.pairs.count : 0, nc = livePlaneSprings(pl);
  const npLive = np > 0 ? ph.active(np) : 0;
  if (npLive === 0 && nc === 0) return hist.columns(n, id);
  // the springs held outside the table: walls (plane order), then pairs (list order)
  const m0 = nc + npLive;
  const eo = new Int32Array(m0), ep = new Uint32Array(m0), ex = new Float64Array(3 * m0);
  let c = 0;
  if (nc > 0) {
    const cand = pl.candidates, cs = pl.candidateStart;
    for (let q = 0; q < pl.count; q++) {
      const partner = boundaryPartner(pl.index[q]) >>> 0;
      for (let k = cs[q]; k < cs[q + 1]; k++) {
        if (pl.on[k] === 0) continue;
        eo[c] = cand[k], ep[c] = partner;
        ex[3 * c] = pl.xi[3 * k],
          ex[3 * c + 1] = pl.xi[3 * k + 1],
          ex[3 * c + 2] = pl.xi[3 * k + 2];
        c++;
      }
    }
  }
  const pa = core.pairs.a, pb = core.pairs.b;
  for (let k = 0; k < np; k++) {
    if (ph.on[k] === 0) continue;
    eo[c] = pa[k], ep[c] = id[pb[k]];
    ex[3 * c] = ph.xi[3 * k], ex[3 * c + 1] = ph.xi[3 * k + 1], ex[3 * c + 2] = ph.xi[3 * k + 2];
    c++;
  }
  // counting sort of those springs by owner slot (stable)
  const start = new Int32Array(n + 1);
  for (let k = 0; k < m0; k++) start[eo[k] + 1]++;
  for (let p = 0; p < n; p++) start[p + 1] += start[p];
  const order = new Int32Array(m0), cur = start.slice(0, n);
  for (let k = 0; k < m0; k++) order[cur[eo[k]]++] = k;
  const m = hist.total(n) + m0, S = hist.slots;
  const owner = new Uint32Array(m), partner = new Uint32Array(m), xi = new Float64Array(3 * m);
  let w = 0;
  for (let p = 0; p < n; p++) {
    for (let e = p * S, end = e + hist.used[p]; e < end; e++, w++) {
      owner[w] = id[p], partner[w] = hist.partner[e] >>> 0;
      xi[3 * w] = hist.xi[3 * e], xi[3 * w + 1] = hist.xi[3 * e + 1];
      xi[3 * w + 2] = hist.xi[3 * e + 2];
    }
    for (let q = start[p]; q < start[p + 1]; q++, w++) {
      const k = order[q];
      owner[w] = id[p], partner[w] = ep[k];
      xi[3 * w] = ex[3 * k], xi[3 * w + 1] = ex[3 * k + 1], xi[3 * w + 2] = ex[3 * k + 2];
    }
  }
  return { owner, partner, displacement: xi };
}

/**
 * The neighbour list's springs no longer match the particle slots (a removal, a load, a reset
 * of the histories): sync them first if `keep`, then let the table alone hold the springs until
 * the next rebuild.
 * @internal
 */
export function detachPairHistories(core: CoreState, keep: boolean): void {
  if (keep) {
    flushPairHistories(core.pairHist, core.pairs, core.hist, core.ps.id, core.stamp >>> 0);
    flushPlaneHistories(core.planes, core.hist, (core.stamp - 1) >>> 0);
  }
  core.pairHist.live = false;
  core.planes.live = false;
  core.needRebuild = true;
}
