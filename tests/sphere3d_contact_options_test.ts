/**
 * The contact conventions a LAMMPS user expects, as material options: the lever arm of the
 * tangential force, damping as a restitution coefficient or mass-scaled, and the normal-force
 * clamp; checked against analytic values.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { type Material, World } from "../src/sphere3d/mod.ts";
import {
  dampingRatio,
  hertzRestitution,
  linearDampingRatio,
  linearRestitution,
} from "../src/contact/mod.ts";

const RHO = 1600, KN = 1e5;
const mass = (r: number) => RHO * (4 / 3) * Math.PI * r ** 3;

/**
 * Head-on collision of two free spheres (radii r1, r2) without gravity: the coefficient of
 * restitution, the most negative normal force seen, and the contact's last overlap.
 */
function collide(material: Partial<Material>, r1 = 0.02, r2 = 0.02, v0 = 1, dt = 1e-6) {
  const w = new World({ timeStep: dt, gravity: [0, 0, 0] });
  const g = w.addGranularParticles(
    {
      positions: [[0, 0, 0], [r1 + r2 + 1e-6, 0, 0]],
      radii: [r1, r2],
      velocities: [[v0, 0, 0], [0, 0, 0]],
    },
    { density: RHO, normalStiffness: KN, ...material },
  );
  let touched = false, minForce = Infinity;
  for (let k = 0; k < 200000; k++) {
    w.step();
    const c = g.lastStepStats.particleContacts;
    if (c > 0) {
      touched = true;
      minForce = Math.min(minForce, g.contacts.normalForce[0]);
    } else if (touched) break;
  }
  expect(touched).toBe(true);
  return { e: (g.velocities[3] - g.velocities[0]) / v0, minForce };
}

/** One sphere dropped on the ground at v0 without gravity: its coefficient of restitution. */
function bounce(material: Partial<Material>, r = 0.02, v0 = 1, dt = 1e-6) {
  const w = new World({ timeStep: dt, gravity: [0, 0, 0] });
  const g = w.addGranularParticles(
    { positions: [[0, 0, r + 1e-6]], radii: r, velocities: [[0, 0, -v0]] },
    { density: RHO, normalStiffness: KN, ...material },
  );
  g.setGroundPlane(0);
  let touched = false;
  for (let k = 0; k < 200000; k++) {
    w.step();
    if (g.lastStepStats.boundaryContacts > 0) touched = true;
    else if (touched) break;
  }
  expect(touched).toBe(true);
  return g.velocities[2] / v0;
}

describe("linearRestitution and linearDampingRatio", () => {
  it("the clamped value matches a direct integration of the clamped oscillator", () => {
    // m·x'' = −max(0, k·x + c·x'), x(0) = 0, x'(0) = 1, with k = m = 1 and c = 2ζ.
    for (const zeta of [0.05, 0.4, 0.9, 1, 1.7]) {
      let x = 0, v = 1;
      const dt = 1e-5;
      for (let i = 0; i < 1e7; i++) {
        const f = x + 2 * zeta * v;
        if (i > 0 && f <= 0) break;
        v -= f * dt;
        x += v * dt;
      }
      expect(Math.abs(-v - linearRestitution(zeta, { clamped: true }))).toBeLessThan(2e-5);
    }
    // The clamp always raises e; unclamped, critical damping stops the rebound altogether.
    expect(linearRestitution(0.3, { clamped: true })).toBeGreaterThan(linearRestitution(0.3));
    expect(linearRestitution(1.5)).toBe(0);
    expect(linearRestitution(1.5, { clamped: true })).toBeGreaterThan(0.07);
  });

  it("inverts linearRestitution, clamped and unclamped", () => {
    for (const e of [0.05, 0.3, 0.5, 0.9, 0.999]) {
      for (const clamped of [false, true]) {
        const z = linearDampingRatio(e, { clamped });
        expect(Math.abs(linearRestitution(z, { clamped }) - e)).toBeLessThan(1e-12);
      }
    }
    expect(() => linearDampingRatio(0)).toThrow(RangeError);
    expect(() => linearDampingRatio(1.2)).toThrow(RangeError);
  });
});

describe("sphere3d material: restitution, damping mode, clamp, lever arm", () => {
  it("restitution gives that rebound for any pair of masses and against a wall", () => {
    for (const clampNormalForce of [true, false]) {
      for (const e of [0.3, 0.8]) {
        const m = { restitution: e, clampNormalForce };
        expect(Math.abs(collide(m).e - e)).toBeLessThan(2e-3);
        expect(Math.abs(collide(m, 0.01, 0.03).e - e)).toBeLessThan(2e-3);
        expect(Math.abs(bounce(m, 0.015) - e)).toBeLessThan(2e-3);
      }
    }
    // A fixed damping coefficient instead gives a mass-dependent restitution.
    const cn = 2 * 0.3 * Math.sqrt(KN * mass(0.02) / 2);
    const small = collide({ normalDamping: cn }, 0.01, 0.01).e;
    const large = collide({ normalDamping: cn }, 0.03, 0.03).e;
    expect(large - small).toBeGreaterThan(0.2);
  });

  it("Hertz restitution (LIGGGHTS's δ^¼ damping) gives that rebound at any impact speed", () => {
    for (const clampNormalForce of [true, false]) {
      const m: Partial<Material> = {
        normalContactModel: "hertz",
        normalStiffness: 1e8,
        restitution: 0.6,
        clampNormalForce,
      };
      const slow = collide(m, 0.02, 0.02, 0.1, 2e-7).e;
      const fast = collide(m, 0.01, 0.03, 1, 2e-7).e;
      expect(Math.abs(slow - 0.6)).toBeLessThan(2e-3);
      expect(Math.abs(fast - 0.6)).toBeLessThan(2e-3);
    }
    // LIGGGHTS's own ζ under the clamp would rebound faster: Grainlab calibrates it.
    expect(hertzRestitution(linearDampingRatio(0.6), { clamped: true })).toBeGreaterThan(0.62);
  });

  it("mass-scaled damping damps each contact with γ·m_eff", () => {
    const gamma = 400;
    for (const [r1, r2] of [[0.02, 0.02], [0.01, 0.03]]) {
      const me = (mass(r1) * mass(r2)) / (mass(r1) + mass(r2));
      const zeta = dampingRatio(KN, gamma * me, me);
      const got = collide({ dampingMode: "mass-scaled", normalDamping: gamma }, r1, r2).e;
      expect(Math.abs(got - linearRestitution(zeta, { clamped: true }))).toBeLessThan(2e-3);
    }
    // Against a wall m_eff is the grain's mass.
    const zw = dampingRatio(KN, gamma * mass(0.02), mass(0.02));
    const got = bounce({ dampingMode: "mass-scaled", normalDamping: gamma });
    expect(Math.abs(got - linearRestitution(zw, { clamped: true }))).toBeLessThan(2e-3);
  });

  it("without the clamp the dashpot pulls and the rebound is the textbook value", () => {
    const zeta = 0.3, me = mass(0.02) / 2;
    const cn = 2 * zeta * Math.sqrt(KN * me);
    const free = collide({ normalDamping: cn, clampNormalForce: false });
    const clamped = collide({ normalDamping: cn });
    expect(Math.abs(free.e - linearRestitution(zeta))).toBeLessThan(2e-3);
    expect(Math.abs(clamped.e - linearRestitution(zeta, { clamped: true }))).toBeLessThan(2e-3);
    expect(free.minForce).toBeLessThan(-1); // attractive at the end of the contact
    expect(clamped.minForce).toBeGreaterThanOrEqual(0);
  });

  it("the lever arm of the tangential force is r − δ/2 or the full radius", () => {
    // A grain pressed onto the ground by gravity (soft contact: δ/r ≈ 5 %), spinning: sliding
    // friction μ·fn decelerates the spin by lever·μ·fn/I per unit time.
    const r = 0.02, kn = 500, m = mass(r), g = 9.81, mu = 0.5, dt = 1e-6;
    const delta = (m * g) / kn, I = 0.4 * m * r * r;
    const spinDrop = (contactLever: "overlap-centre" | "radius") => {
      const w = new World({ timeStep: dt, gravity: [0, 0, -g] });
      const s = w.addGranularParticles({ positions: [[0, 0, r - delta]], radii: r }, {
        density: RHO,
        normalStiffness: kn,
        normalDamping: 0,
        tangentialStiffness: 1e7, // a stiff spring reaches the Coulomb cap in one step
        friction: mu,
        contactLever,
      });
      s.setGroundPlane(0);
      s.setAngularVelocity(0, [20, 0, 0]);
      w.step();
      const w1 = s.angularVelocities[0];
      w.step();
      return w1 - s.angularVelocities[0];
    };
    const centre = spinDrop("overlap-centre"), radius = spinDrop("radius");
    const fn = m * g;
    expect(Math.abs(radius - (r * mu * fn * dt) / I) / radius).toBeLessThan(1e-9);
    expect(Math.abs(centre - ((r - delta / 2) * mu * fn * dt) / I) / centre).toBeLessThan(1e-9);
    expect(radius / centre).toBeCloseTo(r / (r - delta / 2), 4);
  });

  it("rejects bad values naming the option", () => {
    const w = new World();
    const add = (m: Record<string, unknown>) =>
      w.addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01 }, m as Partial<Material>);
    expect(() => add({ contactLever: "centre" })).toThrow(/contactLever/);
    expect(() => add({ dampingMode: "relative" })).toThrow(/dampingMode/);
    expect(() => add({ restitution: 0 })).toThrow(/restitution \(0\)/);
    expect(() => add({ restitution: 1.5 })).toThrow(/restitution \(1.5\)/);
    expect(() => add({ clampNormalForce: 1 })).toThrow(/clampNormalForce/);
    expect(() => add({ restitution: 0.5, normalDamping: 10 })).toThrow(
      /normalDamping.*restitution/,
    );
    const g = add({ restitution: 0.5 });
    expect(g.material.restitution).toBe(0.5);
    expect(g.material.normalDamping).toBe(0);
    const d = add({});
    expect(d.material).toMatchObject({
      contactLever: "overlap-centre",
      dampingMode: "absolute",
      restitution: null,
      clampNormalForce: true,
    });
  });
});
