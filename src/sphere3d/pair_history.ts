/**
 * Tangential springs of particle pairs held beside the neighbour list (the layout LAMMPS's
 * `fix neigh/history` uses): between two rebuilds pair k of the list keeps its spring ξ at
 * `xi[3k..3k+2]`, so the force loop reads and writes the springs in list order, with no
 * lookup. At a rebuild the springs go back into the per-particle {@link HistoryTable} (the
 * persistent store, keyed by stable ids) and come out again for the new list. Wall springs do
 * the same beside the planes' candidate lists (`plane_history.ts`); body contacts keep their
 * springs in the table.
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
  /**
   * The list's groups (see {@link groupPairs}): group g holds pairs
   * `groupStart[g] .. groupStart[g + 1]`; `groups` of them.
   */
  groupStart: Int32Array = new Int32Array(64);
  /**
   * List position of each group kind (see {@link groupPairs}): entry b < `blocks` is the
   * group inside block b, entry `blocks` + i the even group joining blocks 2i and 2i + 1, then
   * the odd groups joining 2i + 1 and 2i + 2, and last the far pairs.
   */
  groupId: Int32Array = new Int32Array(64);
  /** Number of groups of the current list (2 × blocks). */
  groups = 0;
  /** Slot blocks of the current list. */
  blocks = 0;
  /** Scratch of {@link groupPairs}. */
  scratchA: Int32Array = new Int32Array(0);
  /** Scratch of {@link groupPairs}. */
  scratchB: Int32Array = new Int32Array(0);
  /** Scratch of {@link groupPairs}. */
  scratchOn: Uint8Array = new Uint8Array(0);
  /** Scratch of {@link groupPairs}. */
  scratchXi: Float64Array = new Float64Array(0);
  /** Scratch of {@link groupPairs}: each pair's bucket (group position and touching). */
  scratchKey: Int32Array = new Int32Array(0);
  /** Scratch of {@link groupPairs}: the buckets' starts. */
  bucketStart: Int32Array = new Int32Array(0);

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
    hist.store(pa[k], id[pb[k]] | 0, stamp, xi, 3 * k);
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

/** log2 of the slots per block of {@link groupPairs}: blocks of 2,048 particle slots. */
export const BLOCK_LOG = 11;

/**
 * Order a neighbour list (with its springs) by groups of particle-slot blocks of
 * 2^{@link BLOCK_LOG} slots, so that threads can add pair forces straight into the particle
 * columns without two of them touching one grain. The groups are of four kinds: the pairs
 * inside block b, the pairs joining blocks b and b + 1 for even b ("even"), for odd b ("odd"),
 * and every other pair ("far"). Threads run all inside-block groups, then all even ones, then
 * all odd ones, then the far pairs, so each grain meets its pairs in that kind order.
 *
 * The list lays the groups out interleaved, block by block, in an order that keeps that
 * kind order for every grain — inside 0, inside 1, even (0, 1), inside 2, inside 3,
 * even (2, 3), odd (1, 2), inside 4, … and the far pairs last — so one thread, which runs the
 * list from start to end, sums every grain's forces in the threads' order (the same bytes)
 * while it visits each block's grains again shortly after it met them, not in a second and a
 * third sweep through memory. `ph.groupId` maps each kind's groups to their list position.
 * With slots in cell order (`sortSlots`) nearly every pair falls in the first three kinds.
 *
 * Within a group, given the positions `at` (of the rebuild) and the `radius` column, the pairs
 * that touch there come first and the others after them, each part in the list's order: the
 * force loop's "apart" branch then changes course about once per group instead of at random
 * for the candidates that do not touch (on a settled bed about a quarter of them), which
 * shortens the pair loop. Without `at` the list order is kept within each group.
 */
export function groupPairs(
  ph: PairHistory,
  pairs: PairList,
  count: number,
  at?: Float64Array,
  radius?: Float64Array,
): void {
  const n = pairs.count, B = Math.max(1, Math.ceil(count / (1 << BLOCK_LOG)));
  const G = 2 * B, even = Math.ceil((B - 1) / 2);
  if (ph.groupStart.length < G + 1) ph.groupStart = new Int32Array(2 * (G + 1));
  if (ph.bucketStart.length < 2 * G + 1) ph.bucketStart = new Int32Array(2 * (2 * G + 1));
  if (ph.scratchA.length < n) {
    const cap = ph.on.length;
    ph.scratchA = new Int32Array(cap), ph.scratchB = new Int32Array(cap);
    ph.scratchOn = new Uint8Array(cap), ph.scratchXi = new Float64Array(3 * cap);
    ph.scratchKey = new Int32Array(cap);
  }
  if (ph.groupId.length < G) ph.groupId = new Int32Array(2 * G);
  const start = ph.groupStart, pa = pairs.a, pb = pairs.b, id = ph.groupId;
  const bs = ph.bucketStart, key = ph.scratchKey;
  groupPositions(id, B, even);
  bs.fill(0, 0, 2 * G + 1);
  const split = at !== undefined && radius !== undefined;
  for (let k = 0; k < n; k++) {
    const a = pa[k], b = pb[k];
    let apart = 0;
    if (split) {
      const oa = 3 * a, ob = 3 * b, r = radius[a] + radius[b];
      const dx = at[oa] - at[ob], dy = at[oa + 1] - at[ob + 1], dz = at[oa + 2] - at[ob + 2];
      apart = dx * dx + dy * dy + dz * dz < r * r ? 0 : 1;
    }
    const q = 2 * id[groupOf(a, b, B, even)] + apart;
    key[k] = q;
    bs[q + 1]++;
  }
  for (let q = 0; q < 2 * G; q++) bs[q + 1] += bs[q];
  for (let g = 0; g <= G; g++) start[g] = bs[2 * g];
  const ta = ph.scratchA, tb = ph.scratchB, ton = ph.scratchOn, txi = ph.scratchXi;
  const on = ph.on, xi = ph.xi;
  for (let k = 0; k < n; k++) {
    const d = bs[key[k]]++;
    ta[d] = pa[k], tb[d] = pb[k], ton[d] = on[k];
    txi[3 * d] = xi[3 * k], txi[3 * d + 1] = xi[3 * k + 1], txi[3 * d + 2] = xi[3 * k + 2];
  }
  pa.set(ta.subarray(0, n)), pb.set(tb.subarray(0, n));
  on.set(ton.subarray(0, n)), xi.set(txi.subarray(0, 3 * n));
  ph.groups = G, ph.blocks = B;
}

/**
 * The list position of each group (see {@link groupPairs}) into `id`: inside block b at `id[b]`,
 * even (2i, 2i + 1) at `id[B + i]`, odd (2i + 1, 2i + 2) at `id[B + even + i]`, far at
 * `id[2B − 1]`. Block b's groups come in the order inside, even, odd.
 */
function groupPositions(id: Int32Array, B: number, even: number): void {
  let pos = 0;
  for (let b = 0; b < B; b++) {
    id[b] = pos++;
    if ((b & 1) === 0) continue;
    id[B + ((b - 1) >> 1)] = pos++; // even (b − 1, b)
    if (b >= 3) id[B + even + ((b - 3) >> 1)] = pos++; // odd (b − 2, b − 1)
  }
  if ((B & 1) === 1 && B >= 3) id[B + even + ((B - 3) >> 1)] = pos++; // odd (B − 2, B − 1)
  id[2 * B - 1] = pos;
}

/** Kind index of the pair (a, b) among `B` blocks (`even` even groups): see {@link groupPositions}. */
function groupOf(a: number, b: number, B: number, even: number): number {
  const ba = a >> BLOCK_LOG, bb = b >> BLOCK_LOG;
  const lo = ba < bb ? ba : bb, hi = ba < bb ? bb : ba;
  if (lo === hi) return lo;
  if (hi === lo + 1) return (lo & 1) === 0 ? B + (lo >> 1) : B + even + (lo >> 1);
  return 2 * B - 1;
}
