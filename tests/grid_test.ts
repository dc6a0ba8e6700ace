/**
 * The cell grids' pair searches against brute force: every pair closer than r_i + r_j + margin
 * exactly once, open and periodic, 2D and 3D, with mixed radii.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { CellGrid2, CellGrid3, PairList } from "../src/math/grid.ts";
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
});
