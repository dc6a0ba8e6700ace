import { describe, it } from "node:test";
import { expect } from "expect";
import { restitutionVsSpeed } from "../src/experiments/mod.ts";
import { HERTZ_TIME_FACTOR } from "../src/experiments/restitution.ts";

// Tolerances stated in restitutionVsSpeed's documentation (scale "ci": 7 speeds, 0.01–1 m/s).
describe("experiments: restitution and contact time against impact speed (Hertz)", () => {
  const r = restitutionVsSpeed({ scale: "ci" });
  const [elastic, viscous, liggghts, linear] = r.series;

  it("spans two decades of impact speed", () => {
    expect(r.speeds[r.speeds.length - 1] / r.speeds[0]).toBeCloseTo(100, 9);
  });

  it("elastic Hertz: contact time ∝ v^(−1/5) within 1 %, 2.9433·δmax/v within 1 %, e = 1", () => {
    expect(Math.abs(r.elasticTimeExponent / -0.2 - 1)).toBeLessThan(0.01);
    expect(r.elasticTimeError).toBeLessThan(0.01);
    for (const e of elastic.restitution) expect(Math.abs(e - 1)).toBeLessThan(1e-3);
    // the measured largest overlap agrees with (5mv²/(4k√R))^(2/5) too
    const k = 1e9 * Math.sqrt(0.01);
    r.speeds.forEach((v, i) => {
      const dmax = ((5 * r.mass * v * v) / (4 * k)) ** 0.4;
      expect(Math.abs(elastic.maxOverlap[i] / dmax - 1)).toBeLessThan(0.01);
      expect(elastic.referenceContactTime[i]).toBeCloseTo((HERTZ_TIME_FACTOR * dmax) / v, 12);
    });
  });

  it("viscous Hertz: e rises with speed and follows the RK4 reference within 1 %", () => {
    expect(r.viscousRestitutionError).toBeLessThan(0.01);
    for (let i = 1; i < r.speeds.length; i++) {
      expect(viscous.restitution[i]).toBeGreaterThan(viscous.restitution[i - 1]);
    }
    expect(viscous.restitutionFit.exponent).toBeGreaterThan(0.02);
  });

  it("linear law and LIGGGHTS-damped Hertz: e and time independent of speed within 1 %", () => {
    expect(r.linearRestitutionSpread).toBeLessThan(0.01);
    expect(r.linearTimeSpread).toBeLessThan(0.01);
    expect(r.linearRestitutionError).toBeLessThan(0.01);
    expect(Math.abs(linear.timeFit.exponent)).toBeLessThan(0.005);
    expect(r.hertzRestitutionSpread).toBeLessThan(0.01);
    for (const e of liggghts.restitution) expect(Math.abs(e - 0.7)).toBeLessThan(0.007);
    // while its contact time still follows Hertz's v^(−1/5)
    expect(Math.abs(liggghts.timeFit.exponent / -0.2 - 1)).toBeLessThan(0.05);
  });
});
