import { describe, it } from "node:test";
import { expect } from "expect";
import { convergenceStudy } from "../src/ipc1d/mod.ts";
import { convergenceOrders } from "../src/ipc1d/metrics.ts";

describe("ipc1d refinement along the resolved path (acceptance test 5, spec §7.3)", () => {
  // d̂ = Δx, κ = 0.1E, h = 0.5Δx/c, consistent mass: Δx, d̂ and h shrink together
  const study = convergenceStudy({ problem: "impact", meshes: [50, 100, 200, 400] });
  const m = study.rows.map((r) => r.metrics);
  it("every run is clean: no penetration, one contact interval, no flag", () => {
    for (const r of study.rows) {
      expect(r.metrics.minGap).toBeGreaterThan(0);
      expect(r.metrics.contactCyclesFirst).toBe(1);
      expect(r.energyBlowUp).toBe(false);
    }
  });
  it("L2_err_y0 decreases by at least 1.8× per halving", () => {
    for (let i = 1; i < m.length; i++) {
      expect(m[i - 1].l2ErrEndPosition / m[i].l2ErrEndPosition).toBeGreaterThanOrEqual(1.8);
    }
  });
  it("E_drift halves (±15 %) per halving", () => {
    for (let i = 1; i < m.length; i++) {
      const r = m[i - 1].energyDrift / m[i].energyDrift;
      expect(r).toBeGreaterThanOrEqual(2 * 0.85);
      expect(r).toBeLessThanOrEqual(2 * 1.15);
    }
  });
  it("F_rel_L1 is strictly decreasing", () => {
    for (let i = 1; i < m.length; i++) {
      expect(m[i].forceRelL1).toBeLessThan(m[i - 1].forceRelL1);
    }
  });
  it("shows the spec orders: end position ≈ 1.1–1.2, energy drift ≈ 1, force ≈ 0.35–0.47", () => {
    for (const p of study.orders.l2ErrEndPosition) {
      expect(p).toBeGreaterThan(1.0);
      expect(p).toBeLessThan(1.35);
    }
    for (const p of study.orders.energyDrift) {
      expect(p).toBeGreaterThan(0.9);
      expect(p).toBeLessThan(1.1);
    }
    for (const p of study.orders.forceRelL1) {
      expect(p).toBeGreaterThan(0.25);
      expect(p).toBeLessThan(0.6);
    }
  });
  it("reproduces the spec §7.3 reference rows within 10 %", () => {
    const ref = [
      { l2: 7.82e-2, f: 3.96e-2, e: 5.3e-4, gap: 4.87e-2 },
      { l2: 3.59e-2, f: 2.86e-2, e: 2.6e-4, gap: 2.32e-2 },
      { l2: 1.59e-2, f: 2.16e-2, e: 1.3e-4, gap: 1.14e-2 },
      { l2: 6.91e-3, f: 1.67e-2, e: 6.5e-5, gap: 5.62e-3 },
    ];
    ref.forEach((r, i) => {
      expect(Math.abs(m[i].l2ErrEndPosition / r.l2 - 1)).toBeLessThan(0.1);
      expect(Math.abs(m[i].forceRelL1 / r.f - 1)).toBeLessThan(0.1);
      expect(Math.abs(m[i].energyDrift / r.e - 1)).toBeLessThan(0.1);
      expect(Math.abs(m[i].minGap / r.gap - 1)).toBeLessThan(0.1);
    });
  });
  it("convergenceOrders validates its input", () => {
    expect(() => convergenceOrders([1, 2], [1])).toThrow(RangeError);
    expect(() => convergenceOrders([1, 0], [1, 0.5])).toThrow(/errors\[1\] \(0\)/);
    expect(() => convergenceStudy({ meshes: [100, 50] })).toThrow(/increasing/);
  });
});
