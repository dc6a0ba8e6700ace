import { describe, it } from "node:test";
import { expect } from "expect";
import { simulateBar } from "../src/ipc1d/mod.ts";
import { type EndContactPotential, ipcPotential } from "../src/ipc1d/barrier.ts";
import { integrateImplicit } from "../src/ipc1d/newmark.ts";

/** A linear bilateral spring ½k(d − d₀)², active everywhere (no filter). */
function bilateralSpring(k: number, d0: number): EndContactPotential {
  return {
    filtered: false,
    activeBelow: Infinity,
    energy: (d) => 0.5 * k * (d - d0) * (d - d0),
    gradient: (d) => k * (d - d0),
    hessian: () => k,
    force: (d) => -k * (d - d0),
  };
}

function maxDrift(energy: Float64Array): number {
  let m = 0;
  for (const e of energy) m = Math.max(m, Math.abs(e - energy[0]) / Math.abs(energy[0]));
  return m;
}

describe("ipc1d Newmark as an incremental potential (spec §4–5, acceptance test 3)", () => {
  it("conserves energy to round-off without contact (rigid flight, free fall)", () => {
    for (const mass of ["consistent", "lumped"] as const) {
      for (const problem of ["impact", "bounce"] as const) {
        const r = integrateImplicit({ problem, mass, elements: 50, timeStep: 1e-3, steps: 2000 });
        expect(maxDrift(r.energy)).toBeLessThan(1e-12);
        expect(r.unconvergedSteps).toBe(0);
      }
    }
  });
  it("conserves energy to round-off with a linear bilateral spring (vibrating bar)", () => {
    for (const mass of ["consistent", "lumped"] as const) {
      const r = integrateImplicit({
        mass,
        elements: 60,
        timeStep: 2e-3,
        steps: 1500,
        potential: bilateralSpring(2000, 4),
      });
      expect(maxDrift(r.energy)).toBeLessThan(1e-12);
      // the bar really vibrates: elastic energy takes a sizeable share
      expect(Math.max(...r.elastic)).toBeGreaterThan(50);
    }
  });
  it("implicit Euler dissipates with the same spring", () => {
    const r = integrateImplicit({
      elements: 60,
      timeStep: 2e-3,
      steps: 1500,
      potential: bilateralSpring(2000, 4),
      integrator: { kind: "implicit-euler" },
    });
    expect(r.energy[r.energy.length - 1]).toBeLessThan(0.9 * r.energy[0]);
    for (let i = 1; i < r.energy.length; i++) {
      expect(r.energy[i]).toBeLessThanOrEqual(r.energy[i - 1] * (1 + 1e-12));
    }
  });
  it("rejects bad input naming the parameter", () => {
    expect(() => integrateImplicit({ elements: 0, timeStep: 1e-3, steps: 1 })).toThrow(
      /elements \(0\)/,
    );
    expect(() => integrateImplicit({ elements: 5, timeStep: -1, steps: 1 })).toThrow(
      /timeStep \(-1\)/,
    );
    expect(() =>
      integrateImplicit({
        elements: 5,
        timeStep: 1e-3,
        steps: 1,
        integrator: { kind: "newmark", beta: 0 },
      })
    ).toThrow(/integrator.beta \(0\)/);
    expect(() =>
      integrateImplicit({
        elements: 5,
        timeStep: 1e-3,
        steps: 1,
        integrator: { kind: "rk4" } as unknown as { kind: "implicit-euler" },
      })
    ).toThrow(TypeError);
  });
});

describe("ipc1d IPC impact, resolved path (acceptance test 4)", () => {
  const run = simulateBar({
    problem: "impact",
    elements: 100,
    contact: { kind: "ipc", dHat: "dx", kappa: 0.1 * 900 },
    integrator: { kind: "newmark" },
    courant: 0.5,
  });
  const m = run.metrics;
  it("never penetrates: the gap stays positive at every Newton iterate", () => {
    expect(run.minIterateGap).toBeGreaterThan(0);
    expect(m.minGap).toBeGreaterThan(0);
    expect(run.unconvergedSteps).toBe(0);
  });
  it("has exactly one contact interval", () => {
    expect(m.contactCyclesFirst).toBe(1);
    expect(run.intervals.on.length).toBe(1);
  });
  it("meets the spec tolerances", () => {
    expect(m.energyDrift).toBeLessThan(5e-4);
    expect(m.l2ErrEndPosition).toBeGreaterThanOrEqual(0.03);
    expect(m.l2ErrEndPosition).toBeLessThanOrEqual(0.04);
    expect(m.forceRelL1).toBeLessThan(0.035);
    expect(Math.abs(m.impulseRelErr)).toBeLessThan(3e-3);
    expect(m.meanVelocityAfter).not.toBeNull();
    expect(m.meanVelocityAfter!).toBeGreaterThanOrEqual(9.96);
    expect(m.meanVelocityAfter!).toBeLessThanOrEqual(9.99);
    expect(run.energyBlowUp).toBe(false);
    expect(run.warnings).toEqual([]);
  });
  it("rests on the barrier layer at the stand-off predicted by s* ≈ 0.3 d̂", () => {
    // end position in the middle of the contact window
    const i = run.time.findIndex((t) => t >= 0.85);
    expect(run.endPosition[i] / run.dx).toBeGreaterThan(0.2);
    expect(run.endPosition[i] / run.dx).toBeLessThan(0.4);
    expect(run.resolutionRatio!).toBeCloseTo(1.73, 1);
  });
  it("physical and 2020 barriers with κ₂₀₂₀ = κA/d̂ give identical dynamics", () => {
    const b = simulateBar({ elements: 100, contact: { kind: "ipc", kappa: 900, barrier: "2020" } });
    let d = 0;
    for (let i = 0; i < run.endPosition.length; i++) {
      d = Math.max(d, Math.abs(run.endPosition[i] - b.endPosition[i]));
    }
    expect(d).toBeLessThan(1e-9);
  });
});

describe("ipc1d stiff barrier diagnostic (spec §6, acceptance test 6)", () => {
  const stiff = { kind: "ipc", dHat: 1e-3, kappa: 90 } as const;
  it("trapezoidal Newmark blows up, chatters, and the run is flagged", () => {
    const run = simulateBar({ elements: 100, contact: stiff, courant: 1 });
    expect(run.metrics.energyDrift).toBeGreaterThan(1);
    expect(run.metrics.contactCyclesFirst).toBeGreaterThan(30);
    expect(run.energyBlowUp).toBe(true);
    expect(run.warnings.join(" ")).toMatch(/energy blow-up/);
    expect(run.warnings.join(" ")).toMatch(/resolution ratio R = /);
    expect(run.minIterateGap).toBeGreaterThan(0); // still never penetrates
  });
  it("implicit Euler does not gain energy but loses 10–30 %", () => {
    const run = simulateBar({
      elements: 100,
      contact: stiff,
      courant: 1,
      integrator: { kind: "implicit-euler" },
    });
    expect(run.metrics.maxEnergyGain).toBeLessThan(1e-9);
    expect(run.metrics.finalEnergyLoss).toBeGreaterThanOrEqual(0.1);
    expect(run.metrics.finalEnergyLoss).toBeLessThanOrEqual(0.3);
    expect(run.energyBlowUp).toBe(false);
  });
});

describe("ipc1d IPC bounce, resolved path (acceptance test 8)", () => {
  const run = simulateBar({ problem: "bounce", elements: 100, mass: "consistent", tEnd: 16 });
  it("conserves energy and lands/releases on time", () => {
    expect(run.metrics.energyDrift).toBeLessThan(1e-3);
    expect(Math.abs(run.intervals.on[0] - 1)).toBeLessThan(0.02);
    expect(Math.abs(run.intervals.off[0] - 5 / 3)).toBeLessThan(0.03);
    expect(run.minIterateGap).toBeGreaterThan(0);
  });
  it("has one contact interval per impact for the first four impacts", () => {
    expect(run.metrics.intervalsPerImpact.length).toBeGreaterThanOrEqual(4);
    expect(run.metrics.intervalsPerImpact.slice(0, 4)).toEqual([1, 1, 1, 1]);
  });
  it("barrier never lets the end through, while the force follows the 300→500 N ramp", () => {
    const i = run.time.findIndex((t) => t >= 4 / 3);
    expect(Math.abs(run.contactForce[i] - 400)).toBeLessThan(60);
    expect(ipcPotential({ kappa: 90, dHat: run.dx }).force(run.metrics.minGap)).toBeLessThan(
      3 * 500,
    );
  });
});
