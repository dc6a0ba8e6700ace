import { describe, it } from "node:test";
import { expect } from "expect";
import { ParticleStore } from "../src/sphere3d/particles.ts";
import {
  bodyForces,
  driftRange,
  kick,
  kickDriftReset,
  kickScanBlocks,
  SCAN_BLOCK,
  scanBlockCount,
  scanBlocks,
} from "../src/sphere3d/integrate.ts";

/** A store of `n` grains with a seeded disordered state; every 7th grain is fixed. */
function store(n: number): ParticleStore {
  const ps = new ParticleStore();
  ps.reserve(n);
  ps.count = n;
  let s = 12345;
  const u = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) / 2 ** 32) - 0.5;
  for (let i = 0; i < n; i++) {
    ps.radius[i] = 0.01 + 0.002 * u();
    ps.id[i] = i;
    ps.setMass(i, 2500);
    ps.fixed[i] = i % 7 === 3 ? 1 : 0;
    if (ps.fixed[i]) ps.invMass[i] = ps.invInertia[i] = 0;
    for (let k = 0; k < 3; k++) {
      const o = 3 * i + k;
      ps.pos[o] = u(), ps.vel[o] = 3 * u(), ps.ang[o] = 200 * u();
      ps.force[o] = 0.5 * u(), ps.torque[o] = 1e-3 * u();
      ps.extForce[o] = i % 5 === 0 ? 0.01 * u() : 0, ps.extTorque[o] = i % 11 === 0 ? 1e-4 : 0;
    }
  }
  return ps;
}

const cols = (ps: ParticleStore) =>
  [ps.pos, ps.vel, ps.ang, ps.force, ps.torque].map((a) => Array.from(a.subarray(0, 3 * ps.count)));

describe("sphere3d: the fused integration passes", () => {
  // speed clamps off, and on (some grains above them)
  for (const [vmax, wmax] of [[0, 0], [1.2, 80]]) {
    it(`kickScanBlocks gives the bytes of kick then scanBlocks (clamps ${vmax}, ${wmax})`, () => {
      const n = 2 * SCAN_BLOCK + 123, nb = scanBlockCount(n), hk = 2.5e-5;
      const a = store(n), b = store(n);
      const outA = new Float64Array(3), outB = new Float64Array(3);
      const blA = new Float64Array(nb), blB = new Float64Array(nb);
      const ca = kickScanBlocks(a, hk, vmax, wmax, 0, nb, blA, outA);
      let cb = 0;
      for (let k = 0; k < nb; k++) {
        cb += kick(b, hk, vmax, wmax, k * SCAN_BLOCK, Math.min(n, (k + 1) * SCAN_BLOCK));
        scanBlocks(b, k, k + 1, blB, outB);
      }
      expect(ca).toBe(cb);
      if (vmax > 0) expect(ca).toBeGreaterThan(100);
      expect(Array.from(blA)).toEqual(Array.from(blB));
      expect(Array.from(outA)).toEqual(Array.from(outB));
      expect(cols(a)).toEqual(cols(b));
    });
    it(`kickDriftReset gives the bytes of kick, drift, bodyForces (clamps ${vmax}, ${wmax})`, () => {
      const n = 3000, hk = 2.5e-5, h = 5e-5, g = [0.3, 0, -9.81];
      const a = store(n), b = store(n), ref = store(n).pos.slice();
      for (let o = 0; o < 3 * n; o++) ref[o] += 1e-4 * Math.sin(o);
      const out = new Float64Array(1);
      const ca = kickDriftReset(a, hk, h, vmax, wmax, ref, g, out, 0, n);
      const cb = kick(b, hk, vmax, wmax, 0, n);
      const max2 = driftRange(b, h, ref, 0, n);
      bodyForces(b, g, 0, n);
      expect(ca).toBe(cb);
      expect(out[0]).toBe(max2);
      expect(cols(a)).toEqual(cols(b));
    });
  }
});
