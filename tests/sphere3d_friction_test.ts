import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";

const R = 0.02, G = 9.81;

/** A sphere resting on the ground plane under gravity tilted by `theta`. */
function slope(theta: number, mu: number, steps: number) {
  const dt = 2e-5;
  const w = new World({ timeStep: dt, gravity: [G * Math.sin(theta), 0, -G * Math.cos(theta)] });
  const g = w.addGranularParticles(
    { positions: [[0, 0, R - 1e-5]], radii: R },
    { normalStiffness: 1e5, normalDamping: 10, friction: mu, tangentialStiffness: 2e4 },
  );
  g.setGroundPlane(0);
  w.run(1000); // let the normal contact settle (the sphere starts almost at rest)
  const x0 = g.positions[0], v0 = g.velocities[0], t0 = w.time;
  w.run(steps);
  const t = w.time - t0;
  // Fit x = x0 + v0 t + a t²/2.
  const a = (2 * (g.positions[0] - x0 - v0 * t)) / (t * t);
  return { a, v: g.velocities[0], omega: g.angularVelocities[1] };
}

describe("sphere3d: tangential friction and rolling", () => {
  it("rolls without slipping at 5/7·g·sinθ when tanθ < 3.5μ", () => {
    const theta = (20 * Math.PI) / 180;
    const r = slope(theta, 0.5, 10000);
    const expected = (5 / 7) * G * Math.sin(theta);
    expect(Math.abs(r.a - expected) / expected).toBeLessThan(0.01);
    // Rolling: v = ω·r (rotation about +y for motion along +x).
    expect(Math.abs(r.v - r.omega * R) / r.v).toBeLessThan(0.01);
  });

  it("slides at g(sinθ − μcosθ) when tanθ > 3.5μ", () => {
    const theta = (40 * Math.PI) / 180, mu = 0.15;
    const r = slope(theta, mu, 10000);
    const expected = G * (Math.sin(theta) - mu * Math.cos(theta));
    expect(Math.abs(r.a - expected) / expected).toBeLessThan(0.01);
    expect(r.v - r.omega * R).toBeGreaterThan(0.1 * r.v); // slipping
  });

  for (const via of ["material", "setParticleMaterial"] as const) {
    it(`rolling friction (${via}) stops a rolling sphere at the rate 5/7·μr·g and never reverses it`, () => {
      const dt = 2e-5, muR = 0.05, v0 = 0.3;
      const w = new World({ timeStep: dt, gravity: [0, 0, -G] });
      const g = w.addGranularParticles(
        { positions: [[0, 0, R - 1e-5]], radii: R },
        {
          normalStiffness: 1e5,
          normalDamping: 10,
          friction: 0.5,
          rollingFriction: via === "material" ? muR : 0,
        },
      );
      if (via === "setParticleMaterial") {
        // Rolling friction switched on after construction, for material id 0 and the boundary.
        g.setParticleMaterial(0, { friction: 0.5, rollingFriction: muR });
        g.setBoundaryMaterial({ friction: 0.5, rollingFriction: muR });
      }
      g.setGroundPlane(0);
      w.run(500);
      g.setVelocity(0, [v0, 0, 0]);
      g.setAngularVelocity(0, [0, v0 / R, 0]);
      const decel = (5 / 7) * muR * G;
      const tStop = v0 / decel;
      let stoppedAt = -1, minV = Infinity;
      const t0 = w.time;
      w.run(Math.round((1.5 * tStop) / dt), {
        onStep: () => {
          const v = g.velocities[0];
          minV = Math.min(minV, v);
          if (stoppedAt < 0 && v < 1e-3 * v0) stoppedAt = w.time - t0;
        },
      });
      expect(Math.abs(stoppedAt - tStop) / tStop).toBeLessThan(0.02);
      expect(minV).toBeGreaterThan(-2e-3 * v0); // it stops, it does not roll back
      expect(Math.abs(g.angularVelocities[1])).toBeLessThan(0.02);
    });
  }

  it("friction uses the geometric mean of two material ids and the boundary material", () => {
    // A sphere sliding on the ground: deceleration μ_mix·g with μ_mix = √(μ_particle·μ_boundary).
    const w = new World({ timeStep: 2e-5, gravity: [0, 0, -G] });
    const g = w.addGranularParticles({ positions: [[0, 0, R - 1e-5]], radii: R }, {
      normalStiffness: 1e5,
      normalDamping: 10,
    });
    g.setParticleMaterial(3, { friction: 0.4 });
    g.setParticleMaterialId(0, 3);
    g.setBoundaryMaterial({ friction: 0.1 });
    g.setGroundPlane(0);
    w.run(500);
    // Pure sliding with no spin: friction decelerates v and spins the ball up.
    g.setVelocity(0, [1, 0, 0]);
    const v0 = g.velocities[0];
    w.run(500);
    const a = (v0 - g.velocities[0]) / (500 * 2e-5);
    expect(Math.abs(a - 0.2 * G) / (0.2 * G)).toBeLessThan(0.01);
  });
});

describe("sphere3d: friction mixing between material ids", () => {
  /** Ratio |ft|/fn of a sliding contact between particle materials a and b. */
  function slidingRatio(a: number, b: number): number {
    const w = new World({ timeStep: 1e-4, gravity: [0, 0, 0] });
    const g = w.addGranularParticles(
      { positions: [[0, 0, 0], [0.0399, 0, 0]], radii: 0.02, materialIds: [a, b] },
      { normalDamping: 0, friction: 0.5 },
    );
    g.setParticleMaterial(1, { friction: 0.1 });
    g.setParticleMaterial(2, { friction: 0.9 });
    g.setVelocity(1, [0, 20, 0]); // fast tangential slip: the Coulomb cap is active
    w.step();
    const c = g.contacts, t = c.tangentialForce;
    return Math.hypot(t[0], t[1], t[2]) / c.normalForce[0];
  }

  it("uses the geometric mean for different ids and the material itself for equal ids", () => {
    expect(slidingRatio(1, 2)).toBeCloseTo(Math.sqrt(0.1 * 0.9), 12);
    expect(slidingRatio(2, 2)).toBeCloseTo(0.9, 12);
    expect(slidingRatio(1, 1)).toBeCloseTo(0.1, 12);
    // Ids never defined take the global friction (0.5).
    expect(slidingRatio(7, 7)).toBeCloseTo(0.5, 12);
    expect(slidingRatio(7, 2)).toBeCloseTo(Math.sqrt(0.5 * 0.9), 12);
  });
});

describe("sphere3d: cohesion", () => {
  function pair(pull: number) {
    const w = new World({ timeStep: 2e-5, gravity: [0, 0, 0] });
    const g = w.addGranularParticles(
      { positions: [[0, 0, 0], [0.0399, 0, 0]], radii: R },
      {
        normalStiffness: 1e4,
        normalDamping: 5,
        cohesionStiffness: 1000,
        cohesionMaxDistance: 1e-3,
      },
    );
    g.setExternalForce(0, [-pull, 0, 0]);
    g.setExternalForce(1, [pull, 0, 0]);
    w.run(20000);
    return { gap: g.positions[3] - g.positions[0] - 2 * R, stats: g.lastStepStats };
  }

  it("holds two grains together against a pull below kc·dmax", () => {
    const r = pair(0.3); // cohesion can pull with up to 1 N
    // Equilibrium: kn·δ = kc·dmax − pull  →  δ = 0.7 / 1e4.
    expect(Math.abs(-r.gap - 0.7e-4)).toBeLessThan(2e-6);
    expect(r.stats.cohesiveContacts).toBe(1);
  });

  it("lets them go under a pull above kc·dmax", () => {
    const r = pair(1.5);
    expect(r.gap).toBeGreaterThan(1e-3);
    expect(r.stats.cohesiveContacts).toBe(0);
  });
});
