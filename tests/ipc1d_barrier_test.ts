import { describe, it } from "node:test";
import { expect } from "expect";
import {
  barrier2020,
  barrier2020Gradient,
  barrier2020Hessian,
  barrierRestingRatio,
  ipcPotential,
  physicalBarrier,
  physicalBarrierGradient,
  physicalBarrierHessian,
  resolutionRatio,
} from "../src/ipc1d/barrier.ts";

const forms = [
  { name: "physical", b: physicalBarrier, g: physicalBarrierGradient, h: physicalBarrierHessian },
  { name: "2020", b: barrier2020, g: barrier2020Gradient, h: barrier2020Hessian },
];

describe("ipc1d barrier (spec §3)", () => {
  for (const f of forms) {
    it(`${f.name}: b′ and b″ match finite differences (rel 1e-6)`, () => {
      for (const dHat of [1e-3, 0.1, 2]) {
        for (const s of [0.01, 0.05, 0.2, 0.3, 0.5, 0.7, 0.9, 0.97]) {
          const d = s * dHat;
          const e = 1e-6 * d;
          const fdG = (f.b(d + e, dHat) - f.b(d - e, dHat)) / (2 * e);
          const fdH = (f.g(d + e, dHat) - f.g(d - e, dHat)) / (2 * e);
          expect(Math.abs(fdG - f.g(d, dHat))).toBeLessThan(1e-6 * Math.abs(f.g(d, dHat)));
          expect(Math.abs(fdH - f.h(d, dHat))).toBeLessThan(1e-6 * Math.abs(f.h(d, dHat)));
        }
      }
    });
    it(`${f.name}: C² at d̂, repulsive, convex, infinite at contact`, () => {
      const dHat = 0.1;
      expect(f.b(dHat, dHat)).toBe(0);
      expect(f.g(dHat, dHat)).toBe(0);
      expect(f.h(dHat, dHat)).toBe(0);
      expect(Math.abs(f.h(dHat * (1 - 1e-6), dHat))).toBeLessThan(1e-3 / dHat);
      expect(f.b(0, dHat)).toBe(Infinity);
      expect(f.b(-1, dHat)).toBe(Infinity);
      let prevH = Infinity;
      for (let s = 0.001; s < 1; s += 0.001) {
        expect(f.b(s * dHat, dHat)).toBeGreaterThan(0);
        expect(f.g(s * dHat, dHat)).toBeLessThan(0);
        const h = f.h(s * dHat, dHat);
        expect(h).toBeGreaterThan(0);
        expect(h).toBeLessThan(prevH); // monotone decreasing
        prevH = h;
      }
    });
  }
  it("physical barrier × d̂ equals the 2020 barrier", () => {
    for (const dHat of [1e-3, 0.1, 3]) {
      for (const s of [0.1, 0.4, 0.8]) {
        const d = s * dHat;
        expect(Math.abs(physicalBarrier(d, dHat) * dHat - barrier2020(d, dHat))).toBeLessThan(
          1e-14 * Math.max(1, barrier2020(d, dHat)),
        );
        expect(Math.abs(physicalBarrierGradient(d, dHat) * dHat - barrier2020Gradient(d, dHat)))
          .toBeLessThan(1e-12);
      }
    }
  });
  it("ipcPotential: physical κ equals 2020 κA/d̂ and the force is −κA·b′", () => {
    const a = ipcPotential({ kappa: 90, dHat: 0.1, area: 2 });
    const b = ipcPotential({ kappa: 1800, dHat: 0.1, form: "2020" });
    for (const d of [0.01, 0.03, 0.09]) {
      expect(Math.abs(a.energy(d) - b.energy(d))).toBeLessThan(1e-12);
      expect(Math.abs(a.force(d) - b.force(d))).toBeLessThan(1e-9);
      expect(Math.abs(a.force(d) + 180 * physicalBarrierGradient(d, 0.1))).toBeLessThan(1e-12);
      expect(Math.abs(a.hessian(d) - 180 * physicalBarrierHessian(d, 0.1))).toBeLessThan(1e-9);
    }
    expect(a.force(0.2)).toBe(0);
  });
  it("resting ratio and resolution ratio reproduce spec §6", () => {
    expect(Math.abs(barrierRestingRatio(90, 300) - 0.30)).toBeLessThan(0.01);
    expect(Math.abs(barrierRestingRatio(900, 300) - 0.70)).toBeLessThan(0.01);
    expect(Math.abs(barrierRestingRatio(9000, 300) - 0.90)).toBeLessThan(0.01);
    const R = resolutionRatio({ kappa: 90, dHat: 0.1, dx: 0.1 });
    expect(Math.abs(R - 1.73)).toBeLessThan(0.02);
    // R is independent of N on the resolved path d̂ = Δx
    expect(Math.abs(resolutionRatio({ kappa: 90, dHat: 0.0125, dx: 0.0125 }) - R)).toBeLessThan(
      1e-12,
    );
    expect(resolutionRatio({ kappa: 90, dHat: 1e-3, dx: 0.1 })).toBeGreaterThan(15);
  });
  it("rejects bad input naming the parameter", () => {
    expect(() => ipcPotential({ kappa: 90, dHat: 0 })).toThrow(/dHat \(0\)/);
    expect(() => ipcPotential({ kappa: -1, dHat: 0.1 })).toThrow(/kappa \(-1\)/);
    expect(() => ipcPotential({ kappa: NaN, dHat: 0.1 })).toThrow(RangeError);
    expect(() => ipcPotential({ kappa: 1, dHat: 0.1, form: "2023" as "2020" })).toThrow(TypeError);
    expect(() => resolutionRatio({ kappa: 90, dHat: 0.1, dx: -1 })).toThrow(/dx \(-1\)/);
  });
});
