import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { coreOf, type GranularSystem } from "../src/sphere3d/granular_system.ts";
import { type ForceParams, FP, pairForcesGeneral } from "../src/sphere3d/forces.ts";
import { pairForcesPlain, plainLaw } from "../src/sphere3d/forces_plain.ts";
import { contactBuffers } from "../src/contact/record.ts";
import { emptyStats } from "../src/sphere3d/stats.ts";
import type { Material } from "../src/sphere3d/material.ts";

/** A polydisperse bed falling into a box, spinning: many contacts, sticking and sliding. */
function bed(material: Partial<Material> = {}): { w: World; g: GranularSystem } {
  const w = new World({ timeStep: 5e-5, gravity: [0, 0, -9.81] });
  const g = w.addGranularSystem({
    normalStiffness: 2e4,
    ...(material.restitution === undefined ? { normalDamping: 0.8 } : {}),
    tangentialDamping: 0.2,
    friction: 0.3,
    ...material,
  });
  g.emitBoxRandom({
    min: [-0.05, -0.05, 0],
    max: [0.05, 0.05, 0.12],
    spacing: 0.0105,
    minRadius: 0.003,
    maxRadius: 0.005,
    maxParticles: 600,
    seed: 7,
    velocity: [0.2, -0.1, -0.5],
    angularVelocity: [20, -10, 5],
  });
  g.setContainerBox([-0.05, -0.05, 0], [0.05, 0.05, 0.3]);
  return { w, g };
}

/** Every output of one pair loop on the system's current state, the state restored after. */
function outputs(g: GranularSystem, p: ForceParams, plain: boolean): Float64Array[] {
  const c = coreOf.get(g)!, ps = c.ps, ph = c.pairHist, pl = c.pairs, n = pl.count;
  const keep = [ps.force.slice(), ps.torque.slice(), ph.on.slice(), ph.xi.slice()];
  c.contacts.count = 0;
  c.contacts.reserve(n);
  const cb = contactBuffers(c.contacts), st = emptyStats();
  const w = plain
    ? pairForcesPlain(ps, pl, ph, p, cb, st, 0, n, 0)
    : pairForcesGeneral(ps, pl, ph, c.tables, p, cb, st, 0, n, 0);
  const out = [
    ps.force.slice(0, 3 * ps.count),
    ps.torque.slice(0, 3 * ps.count),
    Float64Array.from(ph.on.subarray(0, n)),
    ph.xi.slice(0, 3 * n),
    Float64Array.of(
      w,
      st.particleContacts,
      st.maxPenetration,
      st.activeContactHistories,
      st.staleContactHistoriesRemoved,
      st.cohesiveContacts,
    ),
    Float64Array.from(cb.i.subarray(0, w)),
    Float64Array.from(cb.j.subarray(0, w)),
    cb.point.slice(0, 3 * w),
    cb.normal.slice(0, 3 * w),
    cb.overlap.slice(0, w),
    cb.normalForce.slice(0, w),
    cb.tangentialForce.slice(0, 3 * w),
  ];
  ps.force.set(keep[0] as Float64Array), ps.torque.set(keep[1] as Float64Array);
  ph.on.set(keep[2] as Uint8Array), ph.xi.set(keep[3] as Float64Array);
  return out;
}

const bytes = (a: Float64Array[]) =>
  a.map((x) => Array.from(new Uint8Array(x.buffer, 0, 8 * x.length)));

describe("sphere3d: the plain law's pair loop", () => {
  it("gives the bytes of the general loop: records, springs, statistics, every variant", () => {
    const { w, g } = bed();
    let checked = 0, sliding = 0, released = 0;
    for (let round = 0; round < 6; round++) {
      w.run(round === 0 ? 4000 : 100);
      const c = coreOf.get(g)!, pos = c.ps.pos, keep = pos.slice();
      expect(plainLaw(c.params)).toBe(true);
      // moved ±0.4 mm from where the springs were last updated: contacts open and close
      for (let k = 0; k < 3 * g.count; k++) pos[k] += 4e-4 * Math.sin(1.7 * k + round);
      for (const clamp of [true, false]) {
        for (const lever of [0.5, 0]) {
          for (const [mu, kt, ct] of [[0.3, 8e3, 0.2], [0.02, 8e3, 0], [0.3, 0, 0.2]]) {
            for (const record of [true, false]) {
              const p = c.params.slice();
              p[FP.clamp] = +clamp, p[FP.lever] = lever, p[FP.mu] = mu, p[FP.kt] = kt;
              p[FP.ct] = ct, p[FP.record] = +record, p[FP.histDt] = 5e-5;
              const a = outputs(g, p, true), b = outputs(g, p, false);
              expect(bytes(a)).toEqual(bytes(b));
              expect(a[4][1]).toBeGreaterThan(100); // contacts
              if (record && mu < 0.1) {
                // some contacts slide: |ft| = μ·|fn|
                for (let k = 0; k < a[10].length; k++) {
                  const ft = Math.hypot(a[11][3 * k], a[11][3 * k + 1], a[11][3 * k + 2]);
                  if (Math.abs(ft - mu * Math.abs(a[10][k])) < 1e-12 * (1 + ft)) sliding++;
                }
              }
              released += a[4][4];
              checked++;
            }
          }
        }
      }
      pos.set(keep);
    }
    expect(checked).toBe(6 * 24);
    expect(sliding).toBeGreaterThan(100);
    expect(released).toBeGreaterThan(0); // pairs that separated lost their springs in both
  });

  it("is chosen exactly for the plain law: any other law runs the general loop", () => {
    const picked = (m: Partial<Material>, edit?: (g: GranularSystem) => void) => {
      const { w, g } = bed(m);
      edit?.(g);
      w.step();
      return plainLaw(coreOf.get(g)!.params);
    };
    expect(picked({})).toBe(true);
    expect(picked({ clampNormalForce: false, contactLever: "radius" })).toBe(true);
    expect(picked({ normalContactModel: "hertz", normalStiffness: 1e8 })).toBe(false);
    expect(picked({ dampingMode: "mass-scaled", normalDamping: 50 })).toBe(false);
    expect(picked({ restitution: 0.5 })).toBe(false);
    expect(picked({ cohesionStiffness: 100, cohesionMaxDistance: 1e-3 })).toBe(false);
    expect(picked({ rollingFriction: 0.1 })).toBe(false);
    // a second material with the same friction keeps the plain loop; another friction not
    expect(picked({}, (g) => g.setParticleMaterial(1, { friction: 0.3, rollingFriction: 0 })))
      .toBe(true);
    expect(picked({}, (g) => g.setParticleMaterial(1, { friction: 0.6, rollingFriction: 0 })))
      .toBe(false);
    expect(
      picked({}, (g) => g.setPeriodicBoundary([-0.05, -0.05, 0], [0.05, 0.05, 0.3], { x: true })),
    )
      .toBe(false);
  });

  it("runs a World to the bytes of the general loop, on one thread and two", () => {
    // b defines a second material (another friction, used by no grain): its step takes the
    // general loop, with the same arithmetic for these grains
    const run = (second: boolean, threads: number) => {
      const { w, g } = bed();
      if (second) g.setParticleMaterial(1, { friction: 0.6, rollingFriction: 0 });
      g.threads = threads;
      w.run(2500);
      expect(plainLaw(coreOf.get(g)!.params)).toBe(!second);
      expect(g.lastStepStats.particleContacts).toBeGreaterThan(500);
      const out = [g.positions, g.velocities, g.angularVelocities].map((c) =>
        Array.from(new Uint8Array(c.buffer, 0, 8 * 3 * g.count))
      );
      g.threads = 1;
      return out;
    };
    const plain = run(false, 1);
    expect(run(true, 1)).toEqual(plain);
    expect(run(false, 2)).toEqual(plain);
  });
});
