/**
 * Issue #29 "Nothing silent" (sphere3d): a dashpot too strong for the time step, a world left
 * half-stepped by a failing system, booleans that are not booleans. Each case was silent (or
 * gave a raw error) before.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { collisionRebound, dampedStepBound } from "../src/sphere3d/guard.ts";

/** 500 grains of 5 mm (0.84 g) 10 cm above the floor of a box, damped with 5 N·s/m. */
function fallingBed(timeStep: number) {
  const w = new World({ timeStep });
  const g = w.addGranularBox(
    {
      min: [-0.06, -0.06, 0.1],
      max: [0.06, 0.06, 0.2],
      radius: 0.005,
      spacing: 0.0105,
      maxParticles: 500,
    },
    { normalDamping: 5 },
  );
  g.setContainerBox([-0.06, -0.06, 0], [0.06, 0.06, 1]);
  return { w, g };
}

describe("sphere3d: a dashpot too strong for the time step", () => {
  it("is refused at the first step, with the bound, before anything moves", () => {
    const { w, g } = fallingBed(1e-4);
    expect(g.count).toBe(500);
    expect(g.masses[0]).toBeCloseTo(8.378e-4, 6);
    // the step is below the stiffness bound 2·√(m/k) = 1.83e-4 s …
    expect(1e-4).toBeLessThan(2 * Math.sqrt(g.masses[0] / 1e5));
    // … but not below the damped pair's bound 4/(γ + √(γ² + 4ω²)), μ = m/2
    const bound = dampedStepBound(1e5, 5, g.masses[0] / 2);
    expect(bound).toBeCloseTo(8.88e-5, 7);
    const before = g.positions.slice();
    expect(() => w.step()).toThrow(/h < 4\/\(γ \+ √\(γ² \+ 4ω²\)\) = 0\.0000888 s/);
    expect(() => w.run(10)).toThrow(/normalDamping 5 N·s\/m/);
    // nothing moved, the clock did not advance, and the world is not marked failed
    expect(g.positions).toEqual(before);
    expect(w.stepCount).toBe(0);
    expect(w.failure).toBe(null);
    // a shorter step runs
    w.timeStep = 5e-5;
    w.run(1);
    expect(w.stepCount).toBe(1);
  });

  it("no longer gains energy from nothing: at a step within the bound the bed comes to rest", () => {
    const { w, g } = fallingBed(5e-5);
    let fastest = 0;
    for (let k = 0; k < 20; k++) {
      w.run(500);
      fastest = Math.max(fastest, g.lastStepStats.maxSpeed);
    }
    // the grains fall at most 0.2 m: no grain faster than free fall from there
    expect(fastest).toBeLessThan(Math.sqrt(2 * 9.81 * 0.2));
    expect(g.lastStepStats.maxSpeed).toBeLessThan(1e-3);
  });

  it("warns (once) where collisions add energy inside the stability bound", () => {
    const warnings: string[] = [], warn = console.warn;
    console.warn = (m: string) => void warnings.push(m);
    try {
      const { w } = fallingBed(8e-5); // (ω·h)² + 2·γ·h = 3.9: stable, but e = 1.5
      w.run(3);
      expect(warnings.length).toBe(1);
      expect(warnings[0]).toMatch(/rebound 1\.[0-9]+ times faster than it came in/);
      const quiet = fallingBed(5e-5);
      quiet.w.run(3);
      expect(warnings.length).toBe(1);
    } finally {
      console.warn = warn;
    }
    const m = 8.378e-4;
    expect(collisionRebound(1e5, 5, m / 2, 8e-5)).toBeGreaterThan(1.4);
    expect(collisionRebound(1e5, 5, m / 2, 5e-5)).toBeLessThan(0.6);
    // undamped: energy kept (to the entry phase's rounding)
    expect(collisionRebound(1e5, 0, m / 2, 1e-5)).toBeCloseTo(1, 2);
  });

  it("checks grains added later, a changed time step and the substeps", () => {
    const w = new World({ timeStep: 5e-5 });
    const g = w.addGranularSystem({ normalDamping: 5 });
    w.run(2); // empty: nothing to check
    g.emitBox({
      min: [0, 0, 0],
      max: [0.1, 0.1, 0.1],
      radius: 0.005,
      spacing: 0.011,
      maxParticles: 64,
    });
    w.run(2);
    w.timeStep = 1e-4; // the lightest pair's bound is 8.9e-5 s
    expect(() => w.step()).toThrow(/substep 0\.0001 s is too long/);
    expect(w.stepCount).toBe(4);
    const w2 = new World({ timeStep: 1e-4 });
    const g2 = w2.addGranularSystem({ normalDamping: 5, substeps: 2 });
    g2.emitBox({
      min: [0, 0, 0],
      max: [0.1, 0.1, 0.1],
      radius: 0.005,
      spacing: 0.011,
      maxParticles: 64,
    });
    w2.run(2); // substeps of 5e-5 s
    expect(w2.stepCount).toBe(2);
    // a lighter grain added later lowers the bound
    g2.addParticle({ position: [0.5, 0.5, 0.5], radius: 0.0035 });
    expect(() => w2.step()).toThrow(/lower normalDamping/);
  });

  it("checks mass-scaled and tangential dashpots too", () => {
    const w = new World({ timeStep: 1e-4 });
    w.addGranularBox(
      { min: [0, 0, 0], max: [0.05, 0.05, 0.05], radius: 0.005, spacing: 0.011 },
      { normalDamping: 20000, dampingMode: "mass-scaled" }, // γ = 2e4 /s: γ·h = 2
    );
    expect(() => w.step()).toThrow(/normalDamping 20000 1\/s/);
    const w2 = new World({ timeStep: 5e-5 });
    w2.addGranularBox(
      { min: [0, 0, 0], max: [0.05, 0.05, 0.05], radius: 0.005, spacing: 0.011 },
      { normalDamping: 0, tangentialDamping: 5 },
    );
    expect(() => w2.step()).toThrow(/tangential dashpot \(tangentialDamping 5 N·s\/m\)/);
  });

  it("states the bound of the integrator: 2/ω undamped, 2/γ without a spring", () => {
    expect(dampedStepBound(4e4, 0, 1)).toBeCloseTo(0.01, 14);
    expect(dampedStepBound(0, 400, 1)).toBeCloseTo(0.005, 14);
    // (ω·h)² + 2·γ·h = 4 at the bound
    const k = 1e5, c = 5, mu = 4e-4, h = dampedStepBound(k, c, mu);
    expect((k / mu) * h * h + (2 * c * h) / mu).toBeCloseTo(4, 12);
  });
});

describe("sphere3d: a world whose step failed part-way", () => {
  it("refuses to go on, saying at which step and why, and how to recover", () => {
    const w = new World({ timeStep: 1e-3 });
    const a = w.addGranularParticles({ positions: [[0, 0, 0.5]], radii: 0.01 });
    // a grain that lands on the ground after ~20 steps, on a spring too stiff to integrate
    const b = w.addGranularParticles(
      { positions: [[0, 0, 0.012]], radii: 0.01 },
      { normalStiffness: 1e308, normalDamping: 0 },
    );
    b.setGroundPlane(0);
    w.run(3);
    expect(() => w.run(100)).toThrow(/non-finite state/);
    // the first system advanced, the world's clock did not: the world is failed
    const n = w.stepCount;
    expect(n).toBeGreaterThan(3);
    expect(a.stepCount).toBe(n + 1);
    const z = a.positions[2];
    const failed = new RegExp(`World\\.step: this world failed at step ${n + 1} \\(.*non-finite`);
    expect(() => w.step()).toThrow(failed);
    expect(w.failure?.message).toMatch(/non-finite state/);
    expect(() => w.run(5)).toThrow(/World\.run: this world failed at step/);
    expect(() => w.run(5)).toThrow(/Load a checkpoint saved before the failure/);
    expect(a.positions[2]).toBe(z); // nothing moved
    expect(a.stepCount).toBe(n + 1);
  });
});

describe("sphere3d: booleans must be booleans", () => {
  it("setParticleFixed, profile, spatialSort and the fixed column refuse non-booleans", () => {
    const w = new World();
    const g = w.addGranularParticles({ positions: [[0, 0, 0], [0, 0, 1]], radii: 0.1 });
    g.setParticleFixed(1, true);
    expect(() => g.setParticleFixed(1, undefined as unknown as boolean)).toThrow(
      "setParticleFixed: fixed (undefined) must be a boolean",
    );
    expect(g.fixed[1]).toBe(1); // still fixed
    expect(() => g.setParticleFixed(1, "no" as unknown as boolean)).toThrow(TypeError);
    expect(() => g.setParticleFixed(1, 0 as unknown as boolean)).toThrow(TypeError);
    expect(g.fixed[1]).toBe(1);
    expect(() => (g.profile = "yes" as unknown as boolean)).toThrow(/profile \("yes"\)/);
    expect(() => (g.profile = undefined as unknown as boolean)).toThrow(/profile \(undefined\)/);
    expect(() => (w.profile = undefined as unknown as boolean)).toThrow(
      "World: profile (undefined) must be a boolean",
    );
    expect(w.profile).toBe(false);
    expect(() => (g.spatialSort = 1 as unknown as boolean)).toThrow(/spatialSort \(1\)/);
    expect(() => w.addGranularParticles({ positions: [[0, 0, 0]], radii: 0.1, fixed: [2] }))
      .toThrow(/fixed\[0\] \(2\) must be a boolean/);
    expect(() => w.addGranularParticles({ positions: [[0, 0, 0]], radii: 0.1, fixed: [NaN] }))
      .toThrow(/fixed\[0\] \(NaN\) must be a boolean/);
    const h = w.addGranularParticles({
      positions: [[0, 0, 0], [1, 0, 0]],
      radii: 0.1,
      fixed: [1, false],
    });
    expect([...h.fixed]).toEqual([1, 0]);
  });

  it("boolean options refuse strings and numbers", () => {
    const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.1 });
    expect(() => g.setGroundPlane(0, { enabled: "no" as unknown as boolean })).toThrow(
      /enabled \(no\) must be a boolean/,
    );
    expect(() => g.setContainerBox([-1, -1, -1], [1, 1, 1], { enabled: 0 as unknown as boolean }))
      .toThrow(TypeError);
    expect(() =>
      g.setPeriodicBoundary([-1, -1, -1], [1, 1, 1], { x: "true" as unknown as boolean })
    ).toThrow(TypeError);
    expect(() => g.granularStateBytes({ includeContactHistories: 1 as unknown as boolean }))
      .toThrow(TypeError);
    expect(() => g.setPoolSleep({ enabled: "false" as unknown as boolean })).toThrow(TypeError);
    expect(() => g.addParticle({ position: [0, 0, 1], radius: 0.1, fixed: "no" as never }))
      .toThrow(TypeError);
    expect(g.count).toBe(1);
  });
});
