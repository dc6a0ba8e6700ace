/**
 * Resistive-force theory: the Fourier form against values derived by hand from Li et al.'s
 * generic coefficients, the element force's conventions, the tables (validation, exact grid
 * values, bilinear interpolation) and the fit (recovers the coefficients and ζ it was sampled
 * from). No rigid-body engine here: see terra_ground_test.ts.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { fitRft, rftElementForce, RftFourier, RftTable } from "../src/sphere3d/mod.ts";
import { RFT_GENERIC, rftAlphaX, rftAlphaZ, rftTableFromFourier } from "../src/sphere3d/rft/mod.ts";

const H = Math.PI / 2;
const G = RFT_GENERIC;
/** Relative closeness: |a − b| ≤ tol·max(1, |b|). */
const near = (a: number, b: number, tol = 1e-12) =>
  expect(Math.abs(a - b)).toBeLessThanOrEqual(tol * Math.max(1, Math.abs(b)));

describe("RFT Fourier form (Li, Zhang & Goldman 2013, generic medium)", () => {
  it("has the published generic coefficients (N/cm³ × 10⁶)", () => {
    expect(G).toEqual({
      A00: 206000,
      A10: 169000,
      B11: 212000,
      B01: 358000,
      Bm11: 55000,
      C11: -124000,
      C01: 253000,
      Cm11: 7000,
      D10: 88000,
    });
    expect(Object.isFrozen(G)).toBe(true);
  });

  it("reproduces α at points derived by hand", () => {
    // β = 0, γ = π/2 (horizontal plate moving down): cos 0 = 1, sin(π/2) = 1 for B11, B01, B−11
    near(rftAlphaZ(0, H), G.A00 + G.A10 + G.B11 + G.B01 + G.Bm11);
    near(rftAlphaZ(0, H), 1e6, 1e-12); // the normalisation: 1 N/cm³
    near(rftAlphaX(0, H), 0, 1e-9); // cos(π/2) terms and sin 0: no side force
    // β = 0, γ = −π/2 (pulled up): the sines flip
    near(rftAlphaZ(0, -H), G.A00 + G.A10 - G.B11 - G.B01 - G.Bm11);
    near(rftAlphaZ(0, -H), -0.25e6);
    // β = 0, γ = 0 (horizontal plate sliding): lift A00 + A10, drag C11 + C01 + C−11
    near(rftAlphaZ(0, 0), 0.375e6);
    near(rftAlphaX(0, 0), 0.136e6);
    // β = π/2, γ = 0 (vertical plate pushed sideways): cos π = −1, sin π = 0
    near(rftAlphaZ(H, 0), G.A00 - G.A10, 1e-10);
    near(rftAlphaX(H, 0), -G.C11 + G.C01 - G.Cm11);
    near(rftAlphaX(H, 0), 0.37e6);
    // β = π/4, γ = 0: cos(π/2) = 0, sin(±π/2) = ±1
    near(rftAlphaZ(Math.PI / 4, 0), G.A00 + G.B11 - G.Bm11, 1e-10);
    near(rftAlphaX(Math.PI / 4, 0), G.C01 + G.D10, 1e-10);
    // ζ scales everything; β is a tilt (period π)
    near(rftAlphaZ(0.3, 0.7, G, 0.6), 0.6 * rftAlphaZ(0.3, 0.7));
    near(rftAlphaX(0.3 + Math.PI, 0.7), rftAlphaX(0.3, 0.7), 1e-12);
  });

  it("resists every motion: the stress along the velocity, α_z·sin γ + α_x·cos γ, is > 0", () => {
    // (the element moves along (cos γ, −sin γ) in the (x, z) plane; the stress is (−α_x, α_z))
    let least = Infinity;
    for (let i = 0; i <= 90; i++) {
      for (let j = 0; j <= 90; j++) {
        const b = -H + (Math.PI * i) / 90, g = -H + (Math.PI * j) / 90;
        least = Math.min(least, rftAlphaZ(b, g) * Math.sin(g) + rftAlphaX(b, g) * Math.cos(g));
      }
    }
    expect(least).toBeGreaterThan(0.05e6);
  });

  it("RftFourier validates its options", () => {
    expect(new RftFourier({ zeta: 2 }).alphaXAt(H, 0)).toBeCloseTo(0.74e6, 6);
    expect(() => new RftFourier({ zeta: NaN })).toThrow(/zeta \(NaN\)/);
    expect(() => new RftFourier({ coefficients: { ...G, C01: NaN } })).toThrow(
      /coefficients\.C01 \(NaN\) must be finite/,
    );
    expect(() => new RftFourier({ coefficients: { A00: 1 } as never })).toThrow(
      /coefficients\.A10 \(undefined\) must be a number/,
    );
    expect(() => new RftFourier({ zetta: 1 } as never)).toThrow(/unknown option "zetta"/);
  });
});

describe("RFT element force", () => {
  const generic = new RftFourier();
  const el = (normal: number[], velocity: number[], depth = 0.02, area = 1e-4) =>
    rftElementForce(generic, { area, normal, velocity, depth });

  it("pushes back against the motion, in any horizontal direction", () => {
    for (const th of [0, 0.4, 2, -2.7]) {
      const c = Math.cos(th), s = Math.sin(th);
      const f = el([c, s, 0], [0.01 * c, 0.01 * s, 0]);
      const drag = 0.37e6 * 0.02 * 1e-4; // α_x(π/2, 0)·depth·area = 0.74 N
      near(f[0], -drag * c, 1e-9);
      near(f[1], -drag * s, 1e-9);
      near(f[2], (G.A00 - G.A10) * 0.02 * 1e-4, 1e-9);
    }
  });

  it("is zero above the surface, at rest, on trailing and on edge-on faces", () => {
    expect(el([0, 0, -1], [0, 0, -1], -0.001)).toEqual([0, 0, 0]);
    expect(el([0, 0, -1], [0, 0, -1], 0)).toEqual([0, 0, 0]);
    expect(el([0, 0, -1], [0, 0, 0])).toEqual([0, 0, 0]);
    expect(el([0, 0, 1], [0, 0, -1])).toEqual([0, 0, 0]); // the top face of a sinking plate
    expect(el([1, 0, 0], [0, 0, -1])).toEqual([0, 0, 0]); // a side face of a sinking plate
  });

  it("acts on the face's area projected on the plane of motion", () => {
    // a vertical face turned by θ about z, moving along x: cos θ of the face-on force
    const f0 = el([1, 0, 0], [1, 0, 0]);
    const th = 1.1, f = el([Math.cos(th), Math.sin(th), 0], [1, 0, 0]);
    near(f[0], f0[0] * Math.cos(th), 1e-12);
    near(f[2], f0[2] * Math.cos(th), 1e-12);
    expect(Math.abs(f[1])).toBe(0);
  });

  it("is linear in depth and area", () => {
    const f1 = el([0.3, 0, -1], [0.01, 0, -0.02], 0.01, 1e-4);
    const f2 = el([0.3, 0, -1], [0.01, 0, -0.02], 0.03, 2e-4);
    for (let k = 0; k < 3; k++) near(f2[k], 6 * f1[k], 1e-12);
  });

  it("with an interface friction μ, leans from the normal by at most atan μ", () => {
    // a slipping wheel's rim element: normal tilted 20° forward-down, moving back and down
    const th = (20 * Math.PI) / 180, n = [Math.sin(th), 0, -Math.cos(th)];
    const v = [0.05 - 0.33 * Math.cos(th), 0, -0.33 * Math.sin(th)];
    const free = rftElementForce(generic, { area: 1e-4, normal: n, velocity: v, depth: 0.015 });
    const parts = (f: number[]) => {
      const press = -(f[0] * n[0] + f[1] * n[1] + f[2] * n[2]);
      const t = f.map((x, k) => x + press * n[k]);
      return { press, slide: Math.hypot(...t) };
    };
    const p0 = parts(free);
    expect(p0.press).toBeGreaterThan(0);
    expect(p0.slide / p0.press).toBeGreaterThan(0.5); // Li et al.'s RFT leans further here
    const capped = (mu: number) =>
      rftElementForce(generic, {
        area: 1e-4,
        normal: n,
        velocity: v,
        depth: 0.015,
        interfaceFriction: mu,
      });
    for (const mu of [0.5, 0.2, 0]) {
      const p = parts(capped(mu));
      near(p.press, p0.press, 1e-12); // the pressing part is kept
      near(p.slide, mu * p0.press, 1e-9); // the sliding part capped at μ times it
    }
    // a force within the cone, or μ = ∞, is left bit for bit
    for (const mu of [5, Infinity]) expect(capped(mu)).toEqual(free);
    expect(() => capped(-0.1)).toThrow(
      /element\.interfaceFriction \(-0\.1\) must be a number >= 0/,
    );
  });

  it("names the bad field", () => {
    expect(() => el([0, 0, -1], [0, 0, -1], NaN)).toThrow(/element\.depth \(NaN\) must be finite/);
    expect(() => el([0, 0, 0], [0, 0, -1])).toThrow(/element\.normal must not be zero/);
    expect(() => el([0, 0], [0, 0, -1])).toThrow(/element\.normal \(length 2\)/);
    expect(() => el([0, 0, -1], [0, 0, -1], 0.01, -1)).toThrow(/element\.area \(-1\) must be > 0/);
  });
});

describe("RFT tables", () => {
  const h = H;
  const spec = () => ({
    beta: [-h, 0, h],
    gamma: [-h, 0, h],
    alphaZ: [1, 2, 3, 4, 5, 6, 7, 8, 9],
    alphaX: [0, 0, 0, 0, -1, 0, 0, 0, 0],
    material: "toy",
    source: "dem" as const,
  });

  it("returns the grid values exactly at grid points", () => {
    const t = rftTableFromFourier({ betaCount: 13, gammaCount: 11 });
    for (let i = 0; i < t.beta.length; i++) {
      for (let j = 0; j < t.gamma.length; j++) {
        expect(t.alphaZAt(t.beta[i], t.gamma[j])).toBe(t.alphaZ[i * 11 + j]);
        expect(t.alphaXAt(t.beta[i], t.gamma[j])).toBe(t.alphaX[i * 11 + j]);
      }
    }
    expect(t.alphaZAt(0, h)).toBe(rftAlphaZ(0, h));
  });

  it("interpolates bilinearly, wraps β by π and clamps γ", () => {
    const t = new RftTable(spec());
    expect(t.alphaZAt(-h / 2, -h / 2)).toBeCloseTo((1 + 2 + 4 + 5) / 4, 12);
    expect(t.alphaZAt(h / 4, 0)).toBeCloseTo(5 + 0.25 * 3, 12);
    expect(t.alphaXAt(0, 0)).toBe(-1);
    expect(t.alphaZAt(h / 2 + Math.PI, h)).toBeCloseTo(t.alphaZAt(h / 2, h), 12);
    expect(t.alphaZAt(0, 2)).toBe(6);
    // a non-uniform grid interpolates between its own points
    const u = new RftTable({ ...spec(), beta: [-h, 0.5, h] });
    expect(u.alphaZAt(0.25, 0)).toBeCloseTo(2 + ((0.25 + h) / (0.5 + h)) * 3, 12);
    expect(u.toSpec().beta).toEqual([-h, 0.5, h]);
  });

  it("the Fourier table interpolates close to the Fourier form", () => {
    const t = rftTableFromFourier({ betaCount: 37, gammaCount: 37 }); // 5° apart
    let worst = 0;
    for (let k = 0; k < 200; k++) {
      const b = -h + (Math.PI * ((k * 0.618034) % 1)), g = -h + Math.PI * ((k * 0.414214) % 1);
      worst = Math.max(worst, Math.abs(t.alphaZAt(b, g) - rftAlphaZ(b, g)));
    }
    expect(worst).toBeLessThan(0.01e6); // < 1 % of α_z(0, π/2)
  });

  it("rejects bad tables, naming the field", () => {
    const bad = (patch: Record<string, unknown>) => () =>
      new RftTable({ ...spec(), ...patch } as never);
    expect(bad({ alphaZ: [1, 2, 3, NaN, 5, 6, 7, 8, 9] })).toThrow(
      /RftTable: alphaZ\[3\] \(NaN\) must be finite/,
    );
    expect(bad({ alphaX: [0, 0] })).toThrow(/alphaX \(length 2\) must have .* = 9 values/);
    expect(bad({ beta: [-h, h, 0] })).toThrow(/beta must be strictly increasing: beta\[2\]/);
    expect(bad({ gamma: [-1, 0, 1] })).toThrow(/gamma must run from -π\/2 to π\/2/);
    expect(bad({ gamma: [h] })).toThrow(/gamma \(length 1\) must have at least 2/);
    expect(bad({ beta: undefined })).toThrow(/beta is missing/);
    expect(bad({ material: undefined })).toThrow(/material \(undefined\) must be a non-empty/);
    expect(bad({ source: "lab" })).toThrow(/source \("lab"\) must be "generic" or "dem"/);
    expect(bad({ grainDiameter: -1 })).toThrow(/grainDiameter \(-1\) must be > 0/);
    expect(bad({ volumeFraction: 1.2 })).toThrow(/volumeFraction \(1.2\) must be in \(0, 1\)/);
    expect(bad({ alphaz: [] })).toThrow(/unknown field "alphaz"/);
    expect(() => new RftTable(null as never)).toThrow(TypeError);
    expect(() => rftTableFromFourier({ gammaCount: 2.5 })).toThrow(/gammaCount \(2.5\)/);
  });

  it("keeps its metadata", () => {
    const t = rftTableFromFourier({ material: "poppy", friction: 0.4, intrusionSpeed: 0.01 });
    expect([t.material, t.source, t.friction, t.intrusionSpeed, t.grainDiameter]).toEqual([
      "poppy",
      "generic",
      0.4,
      0.01,
      null,
    ]);
  });
});

describe("RFT fit to the Fourier form", () => {
  it("recovers the generic coefficients and ζ = 1 from generic samples", () => {
    const fit = fitRft(rftTableFromFourier({ betaCount: 7, gammaCount: 7 }));
    for (const [k, v] of Object.entries(G)) {
      near(fit.coefficients[k as keyof typeof G], v, 1e-9);
    }
    near(fit.zeta, 1, 1e-12);
    near(fit.r2.all, 1, 1e-12);
    near(fit.zetaR2, 1, 1e-12);
    expect(fit.points).toBe(49);
  });

  it("recovers ζ of a scaled medium from scattered points, with noise lowering R²", () => {
    const beta: number[] = [], gamma: number[] = [], az: number[] = [], ax: number[] = [];
    for (let k = 0; k < 40; k++) {
      const b = -H + Math.PI * ((k * 0.618034) % 1), g = -H + Math.PI * ((k * 0.414214) % 1);
      const noise = 0.02e6 * Math.sin(17 * k);
      beta.push(b), gamma.push(g);
      az.push(rftAlphaZ(b, g, G, 0.7) + noise), ax.push(rftAlphaX(b, g, G, 0.7) - noise);
    }
    const fit = fitRft({ beta, gamma, alphaZ: az, alphaX: ax });
    expect(fit.zeta).toBeCloseTo(0.7, 1);
    expect(fit.r2.z).toBeGreaterThan(0.95);
    expect(fit.r2.z).toBeLessThan(1);
    expect(fit.zetaR2).toBeLessThan(fit.r2.all + 1e-12); // 9 free coefficients fit at least as well
  });

  it("refuses too few or degenerate points", () => {
    expect(() => fitRft({ beta: [0, 0], gamma: [0, 1], alphaZ: [1, 2], alphaX: [0, 0] }))
      .toThrow(/at least 5 points/);
    const same = Array(6).fill(0.3);
    expect(() => fitRft({ beta: same, gamma: same, alphaZ: same, alphaX: same }))
      .toThrow(/do not determine the α_z coefficients/);
    expect(() => fitRft({ beta: [0, 1, 2, 3, 4], gamma: [0, 1], alphaZ: [], alphaX: [] } as never))
      .toThrow(/gamma \(length 2\) must have beta's length \(5\)/);
  });
});
