import { describe, it } from "node:test";
import { expect } from "expect";
import {
  barMatrices,
  elasticEnergy,
  solveTridiagonal,
  tridiagonalMultiply,
  tridiagonalQuadraticForm,
} from "../src/ipc1d/fem.ts";

describe("ipc1d P1 bar (spec §4)", () => {
  const m = barMatrices(100);
  it("has mass row sums equal to the lumped masses and total mass ρAL", () => {
    const ones = new Float64Array(101).fill(1);
    const r = tridiagonalMultiply(m.consistentMass, ones, new Float64Array(101));
    for (let i = 0; i <= 100; i++) expect(Math.abs(r[i] - m.nodalMass[i])).toBeLessThan(1e-14);
    expect(Math.abs(m.nodalMass.reduce((a, b) => a + b, 0) - 10)).toBeLessThan(1e-12);
    expect(m.nodalMass[0]).toBeCloseTo(0.05, 14);
    expect(m.lumpedMass.diag[50]).toBeCloseTo(0.1, 14);
    expect(m.consistentMass.diag[0]).toBeCloseTo(0.1 / 3, 14);
    expect(m.consistentMass.off[0]).toBeCloseTo(0.1 / 6, 14);
  });
  it("has a stiffness with K·1 = 0 and U = ½(y−X)ᵀK(y−X)", () => {
    const ones = new Float64Array(101).fill(1);
    const r = tridiagonalMultiply(m.stiffness, ones, new Float64Array(101));
    expect(Math.max(...r.map(Math.abs))).toBeLessThan(1e-9);
    const y = m.restPositions.map((x, i) => 5 + x + 0.01 * Math.sin(i));
    const u = y.map((v, i) => v - 5 - m.restPositions[i]);
    const q = 0.5 * tridiagonalQuadraticForm(m.stiffness, u);
    expect(Math.abs(q - elasticEnergy(m, y)) / q).toBeLessThan(1e-12);
  });
  it("kinetic energy of a rigid motion is ½mV² with either mass", () => {
    const v = new Float64Array(101).fill(-10);
    expect(0.5 * tridiagonalQuadraticForm(m.consistentMass, v)).toBeCloseTo(500, 9);
    expect(0.5 * tridiagonalQuadraticForm(m.lumpedMass, v)).toBeCloseTo(500, 9);
  });
  it("Thomas solve agrees with multiplication (random SPD systems)", () => {
    let seed = 7;
    const rnd = (): number => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (const n of [1, 2, 3, 17, 300]) {
      const diag = new Float64Array(n);
      const off = new Float64Array(Math.max(0, n - 1));
      for (let i = 0; i < n - 1; i++) off[i] = rnd() - 0.5;
      for (let i = 0; i < n; i++) diag[i] = 1.2 + rnd();
      const a = { diag, off };
      const x = Float64Array.from({ length: n }, () => rnd() - 0.5);
      const b = tridiagonalMultiply(a, x, new Float64Array(n));
      const sol = solveTridiagonal(a, b, new Float64Array(n), new Float64Array(n));
      for (let i = 0; i < n; i++) expect(Math.abs(sol[i] - x[i])).toBeLessThan(1e-12);
    }
  });
  it("rejects bad input", () => {
    expect(() => barMatrices(0)).toThrow(/elements \(0\) must be a positive integer/);
    expect(() => barMatrices(2.5)).toThrow(RangeError);
    expect(() => barMatrices(10, { area: 0 })).toThrow(/bar.area \(0\)/);
  });
});
