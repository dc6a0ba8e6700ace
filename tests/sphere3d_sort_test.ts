/**
 * Spatial reordering of particle slots and the springs held beside the neighbour list: the
 * physics is unchanged, runs stay deterministic and checkpoints continue to the bit.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import type { GranularSystem } from "../src/sphere3d/mod.ts";
import { ParticleStore } from "../src/sphere3d/particles.ts";
import { HistoryTable } from "../src/sphere3d/history.ts";
import { Rng } from "../src/math/rng.ts";
import { SCENE } from "../bench/settle_bench.ts";
import { disorderedBed, emptyBed } from "./sphere3d_helpers.ts";

const N = 2500;
const bed = (sort: boolean) => disorderedBed({ n: N, sort, reverse: true });

/** Positions ordered by stable id. */
function byId(g: GranularSystem): Float64Array {
  const out = new Float64Array(3 * g.count);
  for (let s = 0; s < g.count; s++) {
    out.set(g.positions.subarray(3 * s, 3 * s + 3), 3 * g.ids[s]);
  }
  return out;
}

function heightOf(z: Float64Array): number {
  const zs = Array.from({ length: z.length / 3 }, (_, i) => z[3 * i + 2]).sort((a, b) => a - b);
  return zs[Math.floor(0.95 * zs.length)];
}

describe("sphere3d: spatial reordering of slots", () => {
  it("reorders a disordered bed and settles it like the unsorted run", () => {
    const a = bed(true), b = bed(false);
    a.world.run(5000);
    b.world.run(5000);
    expect(a.g.spatialSorts).toBeGreaterThan(0);
    expect(b.g.spatialSorts).toBe(0);
    // ids follow their grains: every id is present once, and the slots are in cell order now
    expect(new Set(a.g.ids).size).toBe(N);
    const za = heightOf(byId(a.g)), zb = heightOf(byId(b.g));
    expect(Math.abs(za - zb)).toBeLessThan(0.5 * SCENE.radius);
    const ca = a.g.lastStepStats.particleContacts, cb = b.g.lastStepStats.particleContacts;
    expect(Math.abs(ca - cb) / cb).toBeLessThan(0.03);
    // springs: one per touching pair or wall contact, held whichever way
    const sa = a.g.lastStepStats;
    expect(sa.activeContactHistories).toBe(sa.particleContacts + sa.boundaryContacts);
    expect(a.g.contactHistories().owner.length).toBe(sa.activeContactHistories);
  });

  it("is deterministic and a checkpoint continues to the bit across reorderings", () => {
    // unsorted for 1500 steps, then sorted: the first rebuild after the switch reorders
    const straight = bed(false);
    straight.world.run(1500);
    straight.g.spatialSort = true;
    straight.world.run(1500);
    expect(straight.g.spatialSorts).toBeGreaterThan(0);
    const half = bed(false);
    half.world.run(1500);
    const bytes = half.g.granularStateBytes({ includeContactHistories: true });
    const again = bed(false);
    again.world.run(1500);
    expect(again.g.granularStateBytes({ includeContactHistories: true })).toEqual(bytes);
    const { world: w2, g: g2 } = emptyBed();
    g2.loadGranularStateBytes(bytes);
    expect(g2.spatialSort).toBe(false); // the setting is in the checkpoint
    g2.spatialSort = true;
    w2.run(1500);
    expect(g2.spatialSorts).toBeGreaterThan(0);
    expect(Array.from(g2.ids)).toEqual(Array.from(straight.g.ids));
    expect(g2.positions).toEqual(straight.g.positions);
    expect(g2.velocities).toEqual(straight.g.velocities);
    // and a reordered system saves and continues too
    const b2 = g2.granularStateBytes({ includeContactHistories: true });
    const { world: w3, g: g3 } = emptyBed();
    g3.loadGranularStateBytes(b2);
    w2.run(500);
    w3.run(500);
    expect(g3.positions).toEqual(g2.positions);
  });

  it("permutes the columns and the history rows exactly (round trip)", () => {
    const n = 300, rng = new Rng(3);
    const ps = new ParticleStore();
    ps.reserve(n);
    ps.count = n;
    for (const a of [ps.pos, ps.vel, ps.ang, ps.force, ps.torque, ps.roll, ps.extForce]) {
      for (let k = 0; k < 3 * n; k++) a[k] = rng.uniform(-1, 1);
    }
    for (let i = 0; i < n; i++) {
      ps.radius[i] = rng.uniform(0.5, 1), ps.mass[i] = rng.uniform(1, 2);
      ps.id[i] = 1000 + i, ps.materialId[i] = i % 7, ps.fixed[i] = i % 5 === 0 ? 1 : 0;
    }
    const hist = new HistoryTable();
    hist.reserve(n);
    for (let i = 0; i < n; i++) {
      for (let e = 0; e < i % 4; e++) {
        const k = hist.find(i, 7 * i + e, 1);
        hist.xi[3 * k] = rng.uniform(-1, 1);
      }
    }
    const before = [ps.pos.slice(), ps.id.slice(), ps.fixed.slice(), ps.radius.slice()];
    const cols = hist.columns(n, ps.id);
    const order = Int32Array.from({ length: n }, (_, i) => i);
    for (let i = n - 1; i > 0; i--) {
      const j = Math.floor(rng.uniform(0, i + 1)), t = order[i];
      order[i] = order[j], order[j] = t;
    }
    const f = new Float64Array(3 * n), u = new Uint32Array(n);
    ps.permute(order, n, f, u);
    hist.permute(order, n);
    for (let s = 0; s < n; s++) {
      expect(ps.id[s]).toBe(1000 + order[s]);
      expect(ps.pos[3 * s + 1]).toBe(before[0][3 * order[s] + 1]);
      expect(hist.used[s]).toBe(order[s] % 4);
    }
    const inverse = new Int32Array(n);
    for (let s = 0; s < n; s++) inverse[order[s]] = s;
    ps.permute(inverse, n, f, u);
    hist.permute(inverse, n);
    expect([ps.pos, ps.id, ps.fixed, ps.radius].map((a) => a.slice(0, a.length))).toEqual(
      before,
    );
    expect(hist.columns(n, ps.id)).toEqual(cols);
  });
});
