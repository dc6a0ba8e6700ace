/**
 * Tangential springs of particle pairs held beside the neighbour list (the layout LAMMPS's
 * `fix neigh/history` uses): between two rebuilds pair k of the list keeps its spring ξ at
 * `xi[3k..3k+2]`, so the force loop reads and writes the springs in list order, with no
 * lookup. At a rebuild the springs go back into the per-particle {@link HistoryTable} (the
 * persistent store, keyed by stable ids) and come out again for the new list. Boundary and
 * body contacts keep their springs in the table.
 *
 * The semantics are the table's: a spring lives while its pair touches at every force
 * evaluation and is dropped (ξ = 0) at the first evaluation where it does not.
 *
 * @module
 */
import type { PairList } from "../math/grid.ts";
import type { HistoryTable } from "./history.ts";

/** The springs of the pairs of one neighbour list. */
export class PairHistory {
  /** Spring displacement ξ (m) of pair k at 3k..3k+2 (zero when the pair has no spring). */
  xi: Float64Array = new Float64Array(3 * 1024);
  /** 1 when pair k touched at the last force evaluation (its spring is live). */
  on: Uint8Array = new Uint8Array(1024);
  /**
   * The columns describe the current neighbour list; false after a load, a removal or a reset
   * of the histories, when the table alone holds the springs until the next rebuild.
   */
  live = false;

  /** Room for `n` pairs (grows by doubling, keeps nothing: called before a fill). */
  ensure(n: number): void {
    if (n <= this.on.length) return;
    let cap = this.on.length;
    while (cap < n) cap *= 2;
    this.on = new Uint8Array(cap);
    this.xi = new Float64Array(3 * cap);
  }

  /** Live springs among the first `count` pairs. */
  active(count: number): number {
    let n = 0;
    const on = this.on;
    for (let k = 0; k < count; k++) n += on[k];
    return n;
  }
}

/**
 * Copy the live springs of `pairs` into the table (created or updated, stamped `stamp`); the
 * pair columns stay as they are. The table widens when a particle's entries are full.
 */
export function flushPairHistories(
  ph: PairHistory,
  pairs: PairList,
  hist: HistoryTable,
  id: Uint32Array,
  stamp: number,
): void {
  if (!ph.live) return;
  const pa = pairs.a, pb = pairs.b, on = ph.on, xi = ph.xi;
  for (let k = 0; k < pairs.count; k++) {
    if (on[k] === 0) continue;
    const owner = pa[k], partner = id[pb[k]] | 0;
    let e = hist.find(owner, partner, stamp);
    while (e < 0) {
      hist.widen();
      e = hist.find(owner, partner, stamp);
    }
    const t = hist.xi;
    t[3 * e] = xi[3 * k], t[3 * e + 1] = xi[3 * k + 1], t[3 * e + 2] = xi[3 * k + 2];
  }
}

/**
 * Prepare a freshly built neighbour list: orient every pair so that `a` has the smaller stable
 * id (the owner of the spring), drop the pairs of two fixed grains, and move each pair's
 * spring out of the table into the pair columns (ξ = 0 where the table has none).
 */
export function pullPairHistories(
  ph: PairHistory,
  pairs: PairList,
  hist: HistoryTable,
  id: Uint32Array,
  fixed: Uint8Array,
): void {
  const pa = pairs.a, pb = pairs.b, n = pairs.count;
  ph.ensure(n);
  const on = ph.on, xi = ph.xi;
  const S = hist.slots, used = hist.used, part = hist.partner;
  let w = 0;
  for (let k = 0; k < n; k++) {
    let a = pa[k], b = pb[k];
    if ((fixed[a] & fixed[b]) !== 0) continue;
    if (id[a] > id[b]) {
      const t = a;
      a = b;
      b = t;
    }
    pa[w] = a, pb[w] = b;
    on[w] = 0;
    xi[3 * w] = xi[3 * w + 1] = xi[3 * w + 2] = 0;
    const u = used[a];
    if (u > 0) {
      const q = id[b] | 0, base = a * S;
      for (let e = base, end = base + u; e < end; e++) {
        if (part[e] !== q) continue;
        const t = hist.xi;
        xi[3 * w] = t[3 * e], xi[3 * w + 1] = t[3 * e + 1], xi[3 * w + 2] = t[3 * e + 2];
        on[w] = 1;
        hist.removeEntry(a, e);
        break;
      }
    }
    w++;
  }
  pairs.count = w;
  ph.live = true;
}
