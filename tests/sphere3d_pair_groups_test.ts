/**
 * The grouped neighbour list (`groupPairs`): a permutation of the list that carries each pair's
 * spring, keeps the list order within a group, lays the groups out block by block, and — what
 * makes one thread and several give the same bytes — lets every grain meet its pairs in the
 * order of the threads' phases: inside its block, then the even inter-block group, then the odd
 * one, then the far pairs; and, given the rebuild's positions, the touching pairs of each group
 * ahead of the others.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { PairList } from "../src/math/grid.ts";
import { BLOCK_LOG, groupPairs, PairHistory } from "../src/sphere3d/pair_history.ts";
import { lowbias32 } from "../src/math/rng.ts";

const BLOCK = 1 << BLOCK_LOG;

/** The phase of pair (a, b): 0 inside a block, 1 even inter-block, 2 odd, 3 far. */
function phase(a: number, b: number): number {
  const lo = Math.min(a, b) >> BLOCK_LOG, hi = Math.max(a, b) >> BLOCK_LOG;
  if (lo === hi) return 0;
  if (hi === lo + 1) return (lo & 1) === 0 ? 1 : 2;
  return 3;
}

/** A list over `count` slots: near pairs (reach up to 1,900 slots) and a few far ones. */
function randomList(count: number, pairs: number, seed: number) {
  const pl = new PairList(), ph = new PairHistory();
  let s = seed;
  const u = () => lowbias32(s++) / 2 ** 32;
  for (let k = 0; k < pairs; k++) {
    const a = Math.floor(u() * count);
    const reach = u() < 0.03 ? 3 * BLOCK : 1900;
    const b = Math.min(count - 1, Math.max(0, a + Math.round((2 * u() - 1) * reach)));
    if (b !== a) pl.push(a, b);
  }
  ph.ensure(pl.count);
  for (let k = 0; k < pl.count; k++) {
    ph.xi[3 * k] = k, ph.xi[3 * k + 1] = -k, ph.xi[3 * k + 2] = 0.5 * k;
    ph.on[k] = k % 3 === 0 ? 1 : 0;
  }
  return { pl, ph };
}

describe("sphere3d neighbour list groups", () => {
  for (const count of [1500, 2 * BLOCK + 7, 7 * BLOCK + 300, 8 * BLOCK]) {
    it(`${count} slots: a permutation in phase order per grain, groups interleaved by block`, () => {
      const { pl, ph } = randomList(count, 4 * count, count);
      const a0 = pl.a.slice(0, pl.count), b0 = pl.b.slice(0, pl.count);
      groupPairs(ph, pl, count);
      const n = pl.count, B = Math.ceil(count / BLOCK), G = 2 * B;
      expect([ph.blocks, ph.groups]).toEqual([B, G]);
      // a permutation: pair k now holds the pair first listed at xi[3k], its spring with it
      const seen = new Uint8Array(n);
      let bad = 0;
      for (let k = 0; k < n; k++) {
        const o = ph.xi[3 * k];
        if (
          pl.a[k] !== a0[o] || pl.b[k] !== b0[o] || ph.xi[3 * k + 1] !== -o ||
          ph.xi[3 * k + 2] !== 0.5 * o || ph.on[k] !== (o % 3 === 0 ? 1 : 0)
        ) bad++;
        seen[o]++;
      }
      expect(bad).toBe(0);
      expect(seen.every((c) => c === 1)).toBe(true);
      // the groups tile the list; each holds pairs of its kind, in the first list's order
      const start = ph.groupStart, id = ph.groupId, even = Math.ceil((B - 1) / 2);
      expect(start[0]).toBe(0);
      expect(start[G]).toBe(n);
      expect(Array.from(id.subarray(0, G)).sort((x, y) => x - y))
        .toEqual(Array.from({ length: G }, (_, g) => g));
      const kindOf = new Int32Array(G); // list position → the (block, phase) of its group
      for (let b = 0; b < B; b++) kindOf[id[b]] = 4 * b;
      for (let i = 0; i < even; i++) kindOf[id[B + i]] = 4 * (2 * i) + 1;
      for (let i = 0; i < B - 1 - even; i++) kindOf[id[B + even + i]] = 4 * (2 * i + 1) + 2;
      kindOf[id[G - 1]] = 3;
      const wrong = [0, 0, 0, 0]; // start order, kind, block, order within the group
      for (let g = 0; g < G; g++) {
        if (start[g + 1] < start[g]) wrong[0]++;
        for (let k = start[g]; k < start[g + 1]; k++) {
          const p = phase(pl.a[k], pl.b[k]);
          if (p !== (kindOf[g] & 3)) wrong[1]++;
          if (p !== 3 && Math.min(pl.a[k], pl.b[k]) >> BLOCK_LOG !== kindOf[g] >> 2) wrong[2]++;
          if (k > start[g] && ph.xi[3 * k] <= ph.xi[3 * k - 3]) wrong[3]++;
        }
      }
      expect(wrong).toEqual([0, 0, 0, 0]);
      // every grain meets its pairs in phase order (what the threads' phases do)
      const last = new Int8Array(count);
      let straddling = 0, backwards = 0;
      for (let k = 0; k < n; k++) {
        const p = phase(pl.a[k], pl.b[k]);
        for (const s of [pl.a[k], pl.b[k]]) {
          if (p < last[s]) backwards++;
          if (last[s] === 1 && p === 2) straddling++;
          last[s] = p;
        }
      }
      expect(backwards).toBe(0);
      if (B >= 3) expect(straddling).toBeGreaterThan(0); // grains with both inter-block kinds
      // interleaved: the groups joining blocks lo and lo + 1 come right after inside (lo + 1) or
      // inside (lo + 2), not in a later sweep through memory
      for (let g = 0; g < G - 1; g++) {
        const k = kindOf[g];
        if ((k & 3) === 0) continue;
        const lo = k >> 2;
        expect(g).toBeGreaterThan(id[lo + 1]);
        if (lo + 3 < B) expect(g).toBeLessThan(id[lo + 3]);
      }
      expect(id[G - 1]).toBe(G - 1); // the far pairs last
    });
  }

  it("given positions: in each group the touching pairs first, each part in list order", () => {
    const count = 3 * BLOCK + 100;
    const { pl, ph } = randomList(count, 4 * count, 7);
    // grains on a line 1 cm apart (radius 0.6 cm, but every fifth 0.3 cm): slot neighbours
    // touch, others not
    const at = new Float64Array(3 * count), radius = new Float64Array(count);
    for (let i = 0; i < count; i++) {
      at[3 * i] = 0.01 * i, at[3 * i + 1] = 0.001 * (i % 3);
      radius[i] = i % 5 === 0 ? 0.003 : 0.006;
    }
    // a few pairs of slot neighbours, so that every group has some that touch
    for (let i = 0; i + 1 < count; i += 7) pl.push(i, i + 1);
    ph.ensure(pl.count);
    for (let k = 0; k < pl.count; k++) {
      ph.xi[3 * k] = k, ph.xi[3 * k + 1] = -k, ph.xi[3 * k + 2] = 0.5 * k;
      ph.on[k] = k % 3 === 0 ? 1 : 0;
    }
    const a0 = pl.a.slice(0, pl.count), b0 = pl.b.slice(0, pl.count);
    const touches = (a: number, b: number) => {
      const d = Math.hypot(at[3 * a] - at[3 * b], at[3 * a + 1] - at[3 * b + 1]);
      return d < radius[a] + radius[b];
    };
    groupPairs(ph, pl, count, at, radius);
    const n = pl.count, G = ph.groups, start = ph.groupStart;
    let bad = 0, mixed = 0, touching = 0, backwards = 0;
    for (let k = 0; k < n; k++) {
      const o = ph.xi[3 * k];
      if (pl.a[k] !== a0[o] || pl.b[k] !== b0[o] || ph.xi[3 * k + 1] !== -o) bad++;
    }
    for (let g = 0; g < G; g++) {
      let seenApart = false;
      for (let k = start[g]; k < start[g + 1]; k++) {
        const t = touches(pl.a[k], pl.b[k]);
        if (t) touching++;
        if (t && seenApart) mixed++; // a touching pair after an apart one
        if (!t) seenApart = true;
        const prev = k - 1;
        if (k > start[g] && touches(pl.a[prev], pl.b[prev]) === t) {
          if (ph.xi[3 * k] <= ph.xi[3 * prev]) backwards++;
        }
      }
    }
    expect([bad, mixed, backwards]).toEqual([0, 0, 0]);
    expect(touching).toBeGreaterThan(G); // the test has touching pairs in the groups
    // still every grain meets its pairs in phase order
    const last = new Int8Array(count);
    let phaseBack = 0;
    for (let k = 0; k < n; k++) {
      const p = phase(pl.a[k], pl.b[k]);
      for (const s of [pl.a[k], pl.b[k]]) {
        if (p < last[s]) phaseBack++;
        last[s] = p;
      }
    }
    expect(phaseBack).toBe(0);
  });
});
