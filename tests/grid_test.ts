/**
 * The cell grids' pair searches against brute force: every pair closer than r_i + r_j + margin
 * exactly once, open and periodic, 2D and 3D, with mixed radii.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { CellGrid2, CellGrid3, findPairRows2, PairList } from "../src/math/grid.ts";
import { spinFor } from "../src/math/worker_pool.ts";
import { Rng } from "../src/math/rng.ts";

/** Sorted "i-j" keys (i < j) of a pair list. */
function keys(p: PairList): string[] {
  const out: string[] = [];
  for (let k = 0; k < p.count; k++) {
    const a = p.a[k], b = p.b[k];
    out.push(a < b ? `${a}-${b}` : `${b}-${a}`);
  }
  return out.sort();
}

/** Minimum-image difference along an axis of period L (0 = open). */
const wrap = (d: number, L: number) => (L !== 0 ? d - L * Math.round(d / L) : d);

function brute(pos: Float64Array, r: Float64Array, dim: number, margin: number, L: number[]) {
  const n = r.length, out: string[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      let d2 = 0;
      for (let a = 0; a < dim; a++) d2 += wrap(pos[dim * j + a] - pos[dim * i + a], L[a]) ** 2;
      const cut = r[i] + r[j] + margin;
      if (d2 < cut * cut) out.push(`${i}-${j}`);
    }
  }
  return out.sort();
}

function cloud(n: number, dim: number, size: number, seed: number) {
  const rng = new Rng(seed), pos = new Float64Array(dim * n), r = new Float64Array(n);
  for (let k = 0; k < dim * n; k++) pos[k] = rng.uniform(0, size);
  for (let k = 0; k < n; k++) r[k] = rng.uniform(0.01, 0.03);
  return { pos, r };
}

describe("cell grid pair search", () => {
  it("2D, open: the pairs of brute force, each once", () => {
    for (const seed of [1, 2, 3]) {
      const { pos, r } = cloud(600, 2, 1, seed), g = new CellGrid2(), p = new PairList();
      g.build(pos, 600, 0.06 + 0.004);
      g.findPairs(pos, r, 0.004, p);
      const k = keys(p);
      expect(new Set(k).size).toBe(k.length);
      expect(k).toEqual(brute(pos, r, 2, 0.004, [0, 0]));
      expect(k.length).toBeGreaterThan(100);
      expect(p.tested).toBeGreaterThanOrEqual(p.count);
    }
  });

  it("2D, periodic in x: pairs across the seam too", () => {
    const { pos, r } = cloud(500, 2, 1, 4), g = new CellGrid2(), p = new PairList();
    g.build(pos, 500, 0.06, [{ lo: 0, length: 1 }, { lo: 0, length: 0 }]);
    g.findPairs(pos, r, 0, p);
    const k = keys(p);
    expect(new Set(k).size).toBe(k.length);
    expect(k).toEqual(brute(pos, r, 2, 0, [1, 0]));
  });

  it("3D, open and periodic, uniform and mixed radii", () => {
    const { pos, r } = cloud(1500, 3, 1, 5), g = new CellGrid3(), p = new PairList();
    g.build(pos, 1500, 0.06 + 0.002);
    g.findPairs(pos, r, 0.002, p);
    expect(keys(p)).toEqual(brute(pos, r, 3, 0.002, [0, 0, 0]));
    const u = new Float64Array(1500).fill(0.025);
    g.findPairs(pos, u, 0.002, p, 0.025);
    expect(keys(p)).toEqual(brute(pos, u, 3, 0.002, [0, 0, 0]));
    const per = { lo: 0, length: 1 };
    g.build(pos, 1500, 0.062, [per, per, per]);
    g.findPairs(pos, r, 0.002, p);
    expect(keys(p)).toEqual(brute(pos, r, 3, 0.002, [1, 1, 1]));
  });

  it("a row search beyond the room counts the pairs, writes what fits; the list grows to fit", () => {
    const { pos, r } = cloud(400, 2, 0.3, 6), g = new CellGrid2();
    g.build(pos, 400, 0.06);
    g.sortRadii(r);
    const res = new Float64Array(2), a = new Int32Array(8), b = new Int32Array(8);
    findPairRows2(g, 0, a, b, 0, g.ny, res);
    const all = brute(pos, r, 2, 0, [0, 0]);
    expect(res[0]).toBe(all.length);
    expect(res[0]).toBeGreaterThan(1024); // beyond the first room of a PairList too
    const p = new PairList();
    g.findPairs(pos, r, 0, p);
    expect(keys(p)).toEqual(all);
    expect([...a]).toEqual([...p.a.subarray(0, 8)]); // the first eight, written
    expect([...b]).toEqual([...p.b.subarray(0, 8)]);
    // consecutive runs of rows give the whole list in its order
    const cut = Math.floor(g.ny / 2), big = () => new Int32Array(res[0]);
    const a1 = big(), b1 = big(), a2 = big(), b2 = big(), r1 = new Float64Array(2);
    const r2 = new Float64Array(2);
    findPairRows2(g, 0, a1, b1, 0, cut, r1);
    findPairRows2(g, 0, a2, b2, cut, g.ny, r2);
    expect(r1[0] + r2[0]).toBe(p.count);
    expect([...a1.subarray(0, r1[0]), ...a2.subarray(0, r2[0])]).toEqual([
      ...p.a.subarray(0, p.count),
    ]);
    expect([...b1.subarray(0, r1[0]), ...b2.subarray(0, r2[0])]).toEqual([
      ...p.b.subarray(0, p.count),
    ]);
  });

  it("bad input names the parameter and writes nothing", () => {
    const { pos, r } = cloud(50, 2, 1, 7), g = new CellGrid2();
    g.build(pos, 50, 0.06);
    g.sortRadii(r);
    const a = new Int32Array(4).fill(-1), b = new Int32Array(4), res = new Float64Array(2);
    expect(() => findPairRows2(g, NaN, a, b, 0, g.ny, res)).toThrow(/margin \(NaN\)/);
    expect(() => findPairRows2(g, -1, a, b, 0, g.ny, res)).toThrow(RangeError);
    expect(() => findPairRows2(g, 0, a, b, -1, g.ny, res)).toThrow(/y0 \(-1\)/);
    expect(() => findPairRows2(g, 0, a, b, 2, 1, res)).toThrow(/y1 \(1\)/);
    expect(() => findPairRows2(g, 0, a, b, 0, g.ny + 1, res)).toThrow(/y1/);
    expect(() => findPairRows2(g, 0, a, b, 0.5, g.ny, res)).toThrow(/integer/);
    expect(() => findPairRows2(g, 0, a, b, 0, g.ny, new Float64Array(1))).toThrow(/res/);
    expect(() => findPairRows2(g, "0" as never, a, b, 0, g.ny, res)).toThrow(TypeError);
    expect([...a]).toEqual([-1, -1, -1, -1]);
    expect([...res]).toEqual([0, 0]);
    const p = new PairList();
    p.push(1, 2);
    expect(() => p.reserve(Infinity)).toThrow(/n \(Infinity\)/);
    expect(() => p.reserve(NaN)).toThrow(RangeError);
    expect(() => p.reserve(-1)).toThrow(/n \(-1\)/);
    expect(() => p.reserve(2 ** 31)).toThrow(/integer in/);
    expect(p.count).toBe(1);
    expect(p.a.length).toBe(1024);
  });

  it("spinFor: long spins only when every thread has a core; bad counts throw", () => {
    expect(spinFor(1, 1)).toBe(5);
    expect(spinFor(4, 2)).toBe(0.05);
    expect(() => spinFor(0, 2)).toThrow(/threads \(0\)/);
    expect(() => spinFor(65, 128)).toThrow(/threads/);
    expect(() => spinFor(2, NaN)).toThrow(/cores/);
    expect(() => spinFor(2, 1.5)).toThrow(/integer/);
  });
});
