import { describe, it } from "node:test";
import { expect } from "expect";
import { simulateBar } from "../src/ipc1d/mod.ts";

describe("ipc1d simulateBar API", () => {
  it("returns plot-ready typed-array columns of equal length and the exact reference", () => {
    const run = simulateBar({ problem: "impact", elements: 40 });
    const n = run.time.length;
    for (
      const c of [
        run.endPosition,
        run.endVelocity,
        run.contactForce,
        run.energy,
        run.kinetic,
        run.elastic,
        run.potential,
        run.contactEnergy,
        run.exactEndPosition,
        run.exactContactForce,
      ]
    ) {
      expect(c).toBeInstanceOf(Float64Array);
      expect(c.length).toBe(n);
    }
    expect(run.time[n - 1]).toBeCloseTo(2, 12);
    expect(run.timeStep).toBeCloseTo((0.5 * 0.25) / 30, 15);
    expect(run.newtonIterations.length).toBe(n - 1);
    expect(run.newtonPerStep).toBeGreaterThanOrEqual(1);
    expect(run.exactEnergy).toBe(500);
    expect(run.label).toMatch(/IPC/);
    // energy split adds up
    for (let i = 0; i < n; i += 50) {
      const s = run.kinetic[i] + run.elastic[i] + run.potential[i] + run.contactEnergy[i];
      expect(Math.abs(s - run.energy[i])).toBeLessThan(1e-9);
    }
  });
  it("is deterministic", () => {
    const a = simulateBar({ problem: "bounce", elements: 30, tEnd: 4 });
    const b = simulateBar({ problem: "bounce", elements: 30, tEnd: 4 });
    expect(a.endPosition).toEqual(b.endPosition);
    expect(a.metrics).toEqual(b.metrics);
  });
  it("without contact the bar falls through the ground", () => {
    const run = simulateBar({ elements: 20, contact: { kind: "none" } });
    expect(run.metrics.minGap).toBeCloseTo(5 - 20, 9);
    expect(run.metrics.energyDrift).toBeLessThan(1e-12);
  });
  it("implicit Euler on the bounce loses energy at every impact", () => {
    const run = simulateBar({
      problem: "bounce",
      elements: 50,
      tEnd: 16,
      integrator: { kind: "implicit-euler" },
    });
    expect(run.metrics.finalEnergyLoss).toBeGreaterThan(0.2);
    expect(run.metrics.maxEnergyGain).toBeLessThan(1e-9);
  });
  it("throws RangeError/TypeError naming the parameter on bad input", () => {
    expect(() => simulateBar({ elements: 0 })).toThrow(
      "simulateBar: elements (0) must be a positive integer",
    );
    expect(() => simulateBar({ elements: -5 })).toThrow(RangeError);
    expect(() => simulateBar({ elements: NaN })).toThrow(/elements \(NaN\)/);
    expect(() => simulateBar({ courant: 0 })).toThrow(/courant \(0\) must be > 0/);
    expect(() => simulateBar({ tEnd: -1 })).toThrow(/tEnd/);
    expect(() => simulateBar({ contact: { kind: "ipc", dHat: 0 } })).toThrow(/contact.dHat \(0\)/);
    expect(() => simulateBar({ contact: { kind: "ipc", dHat: -1 } })).toThrow(RangeError);
    expect(() => simulateBar({ contact: { kind: "ipc", kappa: -1 } })).toThrow(
      /contact.kappa \(-1\) must be >= 0/,
    );
    expect(() => simulateBar({ contact: { kind: "ipc", kappa: NaN } })).toThrow(RangeError);
    expect(() => simulateBar({ contact: { kind: "ipc", dHat: "auto" as "dx" } })).toThrow(
      TypeError,
    );
    expect(() => simulateBar({ contact: { kind: "spring" } as unknown as { kind: "none" } }))
      .toThrow(/contact.kind/);
    expect(() => simulateBar({ problem: "drop" as "impact" })).toThrow(TypeError);
    expect(() => simulateBar({ mass: "diagonal" as "lumped" })).toThrow(/mass/);
    expect(() =>
      simulateBar({ integrator: { kind: "leapfrog" } as unknown as { kind: "newmark" } })
    ).toThrow(/integrator.kind/);
    expect(() => simulateBar({ energyGrowthThreshold: 0 })).toThrow(/energyGrowthThreshold/);
    expect(() => simulateBar({ bar: { length: 0 } })).toThrow(/bar.length \(0\)/);
  });
});
