/**
 * The star2d spring history (`ContactHistory`): its lookups — a cursor where the last run ended,
 * then the hash — against a brute-force search over the previous springs, in any lookup order;
 * the force threads' lookup on a copy of the table; the bulk record against one at a time.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { ContactHistory, CURSOR_WORDS, findPrevious } from "../src/star2d/contacts.ts";
import { Rng } from "../src/math/rng.ts";

interface Spring {
  a: number;
  b: number;
  key: number;
  xi: number;
}

/** Springs of `pairs` distinct pairs (1–3 contacts each; some walls: b < 0), runs contiguous. */
function springs(rng: Rng, pairs: number, integerKeys: boolean): Spring[] {
  const out: Spring[] = [], seen = new Set<string>();
  while (seen.size < pairs) {
    const a = Math.floor(rng.uniform(0, 400));
    const b = rng.uniform(0, 1) < 0.1 ? -1 - Math.floor(rng.uniform(0, 4)) : a + 1 +
      Math.floor(rng.uniform(0, 40));
    if (seen.has(`${a},${b}`)) continue;
    seen.add(`${a},${b}`);
    const m = 1 + Math.floor(rng.uniform(0, 3));
    for (let q = 0; q < m; q++) {
      const key = integerKeys ? q : rng.uniform(0, 2 * Math.PI);
      out.push({ a, b, key, xi: rng.uniform(-1e-4, 1e-4) });
    }
  }
  return out;
}

/** The spring the lookup must find: same pair, key nearest within tol (mod 2π), first of ties. */
function brute(prev: Spring[], a: number, b: number, key: number, tol: number): number {
  let best = -1, bd = Infinity;
  for (let k = 0; k < prev.length; k++) {
    const s = prev[k];
    if (s.a !== a || s.b !== b) continue;
    let d = key - s.key;
    if (tol === 0) {
      if (d === 0) return k;
      continue;
    }
    d -= 2 * Math.PI * Math.round(d / (2 * Math.PI));
    if (d < 0) d = -d;
    if (d <= tol && d < bd) bd = d, best = k;
  }
  return best;
}

/** A history whose previous step recorded `prev` (in order). */
function historyOf(prev: Spring[]): ContactHistory {
  const h = new ContactHistory();
  h.begin();
  for (const s of prev) h.record(s.a, s.b, s.key, s.xi);
  h.begin();
  return h;
}

/** Lookups: every previous pair once or twice (runs of a pair together), plus unknown pairs. */
function queries(rng: Rng, prev: Spring[], shuffle: boolean, integerKeys: boolean) {
  const pairs: [number, number][] = [];
  for (let k = 0; k < prev.length; k++) {
    if (k === 0 || prev[k].a !== prev[k - 1].a || prev[k].b !== prev[k - 1].b) {
      pairs.push([prev[k].a, prev[k].b]);
    }
  }
  for (let k = 0; k < 30; k++) pairs.push([1000 + k, 1001 + k]); // never seen
  if (shuffle) {
    for (let k = pairs.length - 1; k > 0; k--) {
      const j = Math.floor(rng.uniform(0, k + 1));
      [pairs[k], pairs[j]] = [pairs[j], pairs[k]];
    }
  }
  const q: { a: number; b: number; key: number }[] = [];
  for (const [a, b] of pairs) {
    const own = prev.filter((s) => s.a === a && s.b === b);
    const m = 1 + Math.floor(rng.uniform(0, 3));
    for (let r = 0; r < m; r++) {
      let key: number;
      if (integerKeys) key = Math.floor(rng.uniform(0, 4));
      else if (own.length === 0 || rng.uniform(0, 1) < 0.2) key = rng.uniform(0, 7);
      else {
        // near one of the pair's keys, sometimes a turn away (angles compare modulo 2π)
        const turn = rng.uniform(0, 1) < 0.3 ? 2 * Math.PI * Math.sign(rng.uniform(-1, 1)) : 0;
        key = own[Math.floor(rng.uniform(0, own.length))].key + rng.uniform(-0.4, 0.4) + turn;
      }
      q.push({ a, b, key });
    }
  }
  return q;
}

describe("star2d spring history: lookups find what a brute-force search finds", () => {
  for (const shuffle of [false, true]) {
    for (const integerKeys of [false, true]) {
      it(`${shuffle ? "shuffled" : "recorded"} order, ${integerKeys ? "exact" : "angle"} keys`, () => {
        const rng = new Rng(integerKeys ? 5 : 9);
        const prev = springs(rng, 300, integerKeys);
        const h = historyOf(prev), tol = integerKeys ? 0 : 0.3;
        const q = queries(rng, prev, shuffle, integerKeys);
        let found = 0;
        for (const { a, b, key } of q) {
          const e = brute(prev, a, b, key, tol);
          if (e >= 0) found++;
          expect(h.lookup(a, b, key, tol)).toBe(e >= 0 ? prev[e].xi : 0);
        }
        expect(found).toBeGreaterThan(q.length / 4); // the test looks up real springs
      });
    }
  }

  it("the threads' lookup on a copy of the table gives the same springs", () => {
    const rng = new Rng(11);
    const prev = springs(rng, 200, false);
    const h = historyOf(prev), t = h.previousSprings();
    // what the pool copies into shared buffers (a hash of the same size)
    const copy = {
      ...t,
      a: t.a.slice(),
      b: t.b.slice(),
      keys: t.keys.slice(),
      xi: t.xi.slice(),
      ha: t.ha.slice(),
      hb: t.hb.slice(),
      hs: t.hs.slice(),
      hc: t.hc.slice(),
      hm: t.hm.slice(),
    };
    const cursor = new Int32Array(CURSOR_WORDS);
    for (const { a, b, key } of queries(rng, prev, true, false)) {
      const e = findPrevious(copy, cursor, a, b, key, 0.3);
      expect(e).toBe(brute(prev, a, b, key, 0.3));
    }
  });

  it("a new step forgets the old springs and the cursor", () => {
    const rng = new Rng(2);
    const first = springs(rng, 50, false), h = historyOf(first);
    expect(h.lookup(first[0].a, first[0].b, first[0].key, 0.3)).toBe(first[0].xi);
    h.record(7, 9, 1.0, 3e-5); // this step records one spring only
    h.begin();
    expect(h.previousCount).toBe(1);
    expect(h.lookup(first[0].a, first[0].b, first[0].key, 0.3)).toBe(0);
    expect(h.lookup(7, 9, 1.1, 0.3)).toBe(3e-5);
    // the pair looked up last moves in the next table: found where it is now, not where it was
    h.record(3, 4, 1.0, 2e-5);
    h.record(7, 9, 1.0, 5e-5);
    h.begin();
    expect(h.lookup(7, 9, 1.0, 0.3)).toBe(5e-5);
  });

  it("the bulk record equals recording one contact at a time", () => {
    const rng = new Rng(4);
    const n = 500, ids = new Uint32Array(300), ci = new Int32Array(n), cj = new Int32Array(n);
    const key = new Float64Array(n), xi = new Float64Array(n);
    for (let k = 0; k < ids.length; k++) ids[k] = 7 * k + 3;
    for (let k = 0; k < n; k++) {
      ci[k] = Math.floor(rng.uniform(0, 299));
      cj[k] = ci[k] + 1;
      key[k] = rng.uniform(0, 6), xi[k] = rng.uniform(-1, 1);
    }
    const bulk = new ContactHistory(), one = new ContactHistory();
    bulk.begin(), one.begin();
    bulk.record(1, 2, 0.5, 0.25), one.record(1, 2, 0.5, 0.25); // something before
    bulk.recordContacts(ids, ci, cj, key, xi, n); // grows past the initial 256 rows
    for (let k = 0; k < n; k++) one.record(ids[ci[k]], ids[cj[k]], key[k], xi[k]);
    expect(bulk.exportRecorded()).toEqual(one.exportRecorded());
  });
});
