import { describe, it } from "node:test";
import { expect } from "expect";
import { compareBar, simulateBar } from "../src/ipc1d/mod.ts";
import { integrateDem, penaltyPotential } from "../src/ipc1d/penalty.ts";

describe("ipc1d penalty and DEM contact (spec §8, acceptance test 7)", () => {
  it("undamped stiff DEM (k_n = 1e5) chatters, overshoots and penetrates", () => {
    const run = simulateBar({
      elements: 100,
      contact: { kind: "dem", stiffness: 1e5, damping: 0 },
    });
    expect(run.metrics.contactCyclesFirst).toBeGreaterThanOrEqual(50);
    expect(run.metrics.peakForce).toBeGreaterThan(2.5 * 300);
    expect(run.metrics.minGap).toBeLessThan(0);
  });
  it("a dashpot (ζ = 0.3) removes the chatter but dissipates 0.2–1 %", () => {
    const run = simulateBar({
      elements: 100,
      contact: { kind: "dem", stiffness: 1e5, damping: 0.3 },
    });
    expect(run.metrics.contactCyclesFirst).toBeLessThanOrEqual(3);
    expect(run.metrics.finalEnergyLoss).toBeGreaterThanOrEqual(0.002);
    expect(run.metrics.finalEnergyLoss).toBeLessThanOrEqual(0.01);
    expect(run.metrics.maxEnergyGain).toBeLessThan(1e-9);
  });
  it("soft penalty penetrates by ≈ ρcV/k; every penalty variant penetrates, IPC never", () => {
    const rows = compareBar({ elements: 100 });
    expect(rows.length).toBe(9);
    const ipc = rows[0];
    expect(ipc.metrics.minGap).toBeGreaterThan(0);
    for (const r of rows.slice(1)) expect(r.metrics.minGap).toBeLessThan(0);
    const soft = rows[1]; // implicit penalty k_p = 1e4
    expect(-soft.metrics.minGap).toBeGreaterThan(0.03);
    expect(-soft.metrics.minGap).toBeLessThan(0.05);
    expect(soft.metrics.contactCyclesFirst).toBe(1);
    // stiff implicit penalty chatters (k_p = 1e5) and blows up (k_p = 1e6)
    expect(rows[2].metrics.contactCyclesFirst).toBeGreaterThanOrEqual(50);
    expect(rows[3].metrics.energyDrift).toBeGreaterThan(1);
    expect(rows[3].energyBlowUp).toBe(true);
    expect(rows[3].warnings.join(" ")).toMatch(/too stiff/);
  });
  it("DEM with a linear spring and no damping conserves energy closely at C_r = 0.2", () => {
    const r = integrateDem({ elements: 50, tEnd: 2, stiffness: 1e4 });
    let drift = 0;
    for (const e of r.energy) drift = Math.max(drift, Math.abs(e - 500) / 500);
    expect(drift).toBeLessThan(1e-3);
  });
  it("rejects bad input naming the parameter", () => {
    expect(() => penaltyPotential({ stiffness: -1 })).toThrow(/stiffness \(-1\)/);
    expect(() => integrateDem({ elements: 10, tEnd: 1, stiffness: 1e4, damping: -0.1 })).toThrow(
      /damping \(-0.1\)/,
    );
    expect(() => integrateDem({ elements: 10, tEnd: 1, stiffness: 0 })).toThrow(/stiffness/);
    expect(() => simulateBar({ contact: { kind: "dem", stiffness: 1e5 }, mass: "consistent" }))
      .toThrow(/must be "lumped"/);
  });
});
