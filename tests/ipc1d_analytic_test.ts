import { describe, it } from "node:test";
import { expect } from "expect";
import { analyticSolution } from "../src/ipc1d/analytic.ts";
import { bounceSolution, impactSolution } from "../src/ipc1d/analytic.ts";
import { characteristicLattice } from "../src/ipc1d/lattice.ts";

const close = (a: number, b: number, tol = 1e-9): void => {
  expect(Math.abs(a - b)).toBeLessThanOrEqual(tol);
};

describe("ipc1d analytic: impact (spec §2.2)", () => {
  const s = impactSolution();
  it("has the spec constants", () => {
    const k = s.constants;
    close(k.waveSpeed, 30);
    close(k.mass, 10);
    close(k.impedance, 30);
    close(k.contactTime, 0.5);
    close(k.contactDuration, 2 / 3);
    close(k.releaseTime, 7 / 6);
    close(k.totalEnergy, 500);
  });
  it("reproduces every reference value", () => {
    close(s.endPosition(0.25), 2.5);
    close(s.endVelocity(0.25), -10);
    close(s.contactForce(0.25), 0);
    close(s.endPosition(0.6), 0);
    close(s.contactForce(0.6), 300);
    close(s.energy(0.6).kinetic, 350);
    close(s.energy(0.6).elastic, 150);
    close(s.energy(5 / 6).kinetic, 0);
    close(s.energy(5 / 6).elastic, 500);
    close(s.energy(1).kinetic, 250);
    close(s.energy(1).elastic, 250);
    close(s.endPosition(1.5), 10 / 3);
    close(s.endVelocity(1.5), 10);
    close(s.contactForce(1.5), 0);
    // force is constant 300 N on the closed window, impulse 2mV = 200 N·s
    for (const t of [0.5, 0.7, 1, 7 / 6]) close(s.contactForce(t), 300);
    const w = s.contactWindows(2);
    expect(w.length).toBe(1);
    close(w[0][0], 0.5);
    close(w[0][1], 7 / 6);
  });
  it("has a consistent displacement field (u_X = ε, u_t = v) and the closed-form energies", () => {
    // Without gravity strain and velocity are piecewise constant, so a point is off the
    // (measure-zero) wave fronts when the field is the same a little way around it.
    const d = 1e-5;
    const offFront = (X: number, t: number): boolean => {
      const f = s.field(X, t);
      return [[X - d, t], [X + d, t], [X, t - d], [X, t + d]].every(([x, u]) => {
        const g = s.field(x, u);
        return Math.abs(g.strain - f.strain) < 1e-9 && Math.abs(g.velocity - f.velocity) < 1e-9;
      });
    };
    let checked = 0;
    for (let k = 0; k < 200; k++) {
      const X = 0.05 + 9.9 * ((k * 0.618) % 1);
      const t = 0.01 + 1.98 * ((k * 0.414) % 1);
      if (!offFront(X, t)) continue;
      const f = s.field(X, t);
      const h = 1e-6;
      const ux = (s.displacement(X + h, t) - s.displacement(X - h, t)) / (2 * h);
      const ut = (s.displacement(X, t + h) - s.displacement(X, t - h)) / (2 * h);
      close(ux, f.strain, 1e-4);
      close(ut, f.velocity, 1e-4);
      checked++;
    }
    expect(checked).toBeGreaterThan(190); // the rest sit on fronts
    for (const t of [0.3, 0.55, 0.7, 0.9, 1.1, 1.5]) close(s.energy(t).total, 500, 1e-9);
  });
});

describe("ipc1d analytic: bounce (spec §2.3)", () => {
  const s = bounceSolution();
  it("has the spec constants", () => {
    const k = s.constants;
    close(k.impactSpeed, 10);
    close(k.contactTime, 1);
    close(k.releaseTime, 5 / 3);
    close(k.period, 16 / 3);
    close(k.totalEnergy, 1000);
  });
  it("has force ramps 300→500 and 500→300 and the spec contact windows", () => {
    close(s.contactForce(1), 300);
    close(s.contactForce(4 / 3), 400);
    close(s.contactForce(5 / 3), 500);
    close(s.contactForce(11 / 3), 500);
    close(s.contactForce(4), 400);
    close(s.contactForce(13 / 3), 300);
    close(s.contactForce(0.99), 0);
    close(s.contactForce(3), 0);
    const w = s.contactWindows(10);
    const exact = [[1, 5 / 3], [11 / 3, 13 / 3], [19 / 3, 7], [9, 29 / 3]];
    expect(w.length).toBe(4);
    w.forEach((x, i) => {
      close(x[0], exact[i][0]);
      close(x[1], exact[i][1]);
    });
  });
  it("reproduces every reference value of the phases", () => {
    close(s.endPosition(0.5), 5 - 1.25);
    close(s.endVelocity(0.5), -5);
    close(s.endPosition(1.3), 0);
    close(s.endVelocity(1.3), 0);
    close(s.endPosition(2), 5 / 3);
    close(s.endVelocity(2), 20 / 3);
    close(s.endPosition(7 / 3), 40 / 9);
    close(s.endVelocity(7 / 3 - 1e-10), 10, 1e-8);
    close(s.endVelocity(7 / 3 + 1e-10), -10 / 3, 1e-8);
    close(s.endPosition(8 / 3), 35 / 9);
    close(s.endVelocity(8 / 3), 0);
    close(s.endPosition(3), 40 / 9);
    close(s.endVelocity(3 - 1e-10), 10 / 3, 1e-8);
    close(s.endVelocity(3 + 1e-10), -10, 1e-8);
    close(s.endVelocity(11 / 3 - 1e-6), -10 / 3, 1e-4);
    close(s.endPosition(5), 5 - 0.5 * 10 * (1 / 3) ** 2);
    close(s.endVelocity(5), 10 / 3);
    close(s.endPosition(16 / 3), 5);
    close(s.endPosition(16 / 3 + 0.5), 3.75); // periodic
  });
  it("has the spec energy split and conserves the total", () => {
    const atContact = s.energy(1);
    close(atContact.kinetic, 500);
    close(atContact.potential, 500);
    close(atContact.elastic, 0);
    const atRelease = s.energy(5 / 3 + 1e-12);
    close(atRelease.kinetic, 500, 1e-6);
    close(atRelease.elastic, 2000 / 27, 1e-6);
    close(atRelease.potential, 1000 - 500 - 2000 / 27, 1e-6);
    for (let k = 0; k <= 64; k++) close(s.energy(k / 4).total, 1000, 1e-9);
    // in flight the rigid energy (925.93 J) and the vibration energy (74.07 J) are conserved
    // separately: KE − ½m·v_cm² + EL = 74.07 J with v_cm = V − G·s
    for (const t of [2, 2.2, 2.5, 3, 3.5]) {
      const e = s.energy(t);
      const s0 = t <= 8 / 3 ? t - 5 / 3 : 11 / 3 - t;
      const vcm = 10 - 10 * s0;
      close(e.kinetic - 0.5 * 10 * vcm * vcm + e.elastic, 2000 / 27, 1e-9);
    }
  });
  it("has a consistent field (u_X = ε, u_t = v) and stays above the ground in flight", () => {
    let checked = 0;
    for (let k = 0; k < 400; k++) {
      const X = 0.05 + 9.9 * ((k * 0.618) % 1);
      const t = 0.01 + 10.6 * ((k * 0.414) % 1);
      const f = s.field(X, t);
      const h = 1e-6;
      const ux = (s.displacement(X + h, t) - s.displacement(X - h, t)) / (2 * h);
      const ut = (s.displacement(X, t + h) - s.displacement(X, t - h)) / (2 * h);
      if (Math.abs(ux - f.strain) < 1e-4 && Math.abs(ut - f.velocity) < 1e-4) checked++;
    }
    expect(checked).toBeGreaterThan(380); // the rest sit on fronts
    for (let t = 5 / 3 + 0.01; t < 11 / 3; t += 0.01) expect(s.endPosition(t)).toBeGreaterThan(0);
  });
  it("rejects non-periodic bounce parameters and bad input", () => {
    expect(() => bounceSolution({ height: 4 })).toThrow(RangeError);
    expect(() => analyticSolution("drop" as "impact")).toThrow(TypeError);
    expect(() => impactSolution({ youngsModulus: NaN })).toThrow(/youngsModulus/);
    expect(() => s.field(11, 1)).toThrow(/X \(11\)/);
    expect(() => s.energy(-1)).toThrow(RangeError);
  });
});

describe("ipc1d characteristic lattice (spec §2.4)", () => {
  for (const problem of ["impact", "bounce"] as const) {
    for (const cells of [30, 120]) {
      it(`${problem}, N = ${cells}: agrees with the closed forms`, () => {
        const r = characteristicLattice({ problem, cells });
        const s = analyticSolution(problem);
        const e0 = s.constants.totalEnergy;
        let dy = 0;
        let dv = 0;
        let dF = 0;
        let dE = 0;
        let dSplit = 0;
        for (let n = 0; n < r.time.length; n++) {
          dy = Math.max(dy, Math.abs(r.endPosition[n] - s.endPosition(r.time[n])));
          dE = Math.max(dE, Math.abs(r.energy[n] - e0) / e0);
          if (n % 5 === 0) {
            const e = s.energy(r.time[n]);
            dSplit = Math.max(
              dSplit,
              Math.abs(e.kinetic - r.kinetic[n]) / e0,
              Math.abs(e.elastic - r.elastic[n]) / e0,
              Math.abs(e.potential - r.potential[n]) / e0,
            );
          }
        }
        for (let n = 0; n < r.halfTime.length; n++) {
          dv = Math.max(dv, Math.abs(r.endVelocity[n] - s.endVelocity(r.halfTime[n])));
          dF = Math.max(dF, Math.abs(r.contactForce[n] - s.contactForce(r.halfTime[n])));
        }
        expect(dy).toBeLessThan(1e-10);
        expect(dv).toBeLessThan(1e-10);
        expect(dF).toBeLessThan(1e-8);
        expect(dE).toBeLessThan(1e-12);
        expect(dSplit).toBeLessThan(1e-12);
      });
    }
  }
  it("rejects bad input", () => {
    expect(() => characteristicLattice({ cells: 0 })).toThrow(/cells \(0\)/);
    expect(() => characteristicLattice({ tEnd: -1 })).toThrow(RangeError);
  });
});
