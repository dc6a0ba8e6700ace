/**
 * `World.run` records the particle pairs' contacts at its last step only (unless `onStep` may
 * read them): the trajectory, the statistics and the final contact record are the same bytes
 * as stepping one step at a time, with one thread or two; the divergence guard still names an
 * overlapping pair from an unrecorded step.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import type { GranularSystem } from "../src/sphere3d/mod.ts";
import { disorderedBed } from "./sphere3d_helpers.ts";

function snapshot(g: GranularSystem) {
  const c = g.contacts, s = g.lastStepStats;
  return {
    pos: g.positions.slice(),
    vel: g.velocities.slice(),
    ang: g.angularVelocities.slice(),
    contacts: [
      c.i.slice(),
      c.j.slice(),
      c.kind.slice(),
      c.point.slice(),
      c.normal.slice(),
      c.overlap.slice(),
      c.normalForce.slice(),
      c.tangentialForce.slice(),
    ],
    stats: [s.particleContacts, s.boundaryContacts, s.maxPenetration, s.kineticEnergy],
  };
}

describe("sphere3d: contacts recorded at the last step of a run", () => {
  for (const threads of [1, 2]) {
    it(`run(n), n single steps and run(n, { onStep }) give the same bytes (${threads} thread(s))`, () => {
      const ways = [
        (w: World) => w.run(400),
        (w: World) => {
          for (let k = 0; k < 400; k++) w.step();
        },
        (w: World) => w.run(400, { onStep: () => {} }),
        (w: World) => {
          w.run(150);
          w.run(250);
        },
      ];
      const out = ways.map((go) => {
        const { world, g } = disorderedBed({ n: 1500, threads, cohesion: true });
        go(world);
        world.close();
        return snapshot(g);
      });
      expect(out[0].stats[0]).toBeGreaterThan(200); // a bed with many grain contacts
      expect(out[0].contacts[0].length).toBe(out[0].stats[0] + out[0].stats[1]);
      for (let k = 1; k < out.length; k++) expect(out[k]).toEqual(out[0]);
    });
  }

  it("every step's contacts are there for onStep", () => {
    const { world, g } = disorderedBed({ n: 800 });
    let seen = 0;
    world.run(600, {
      onStep: () => {
        const s = g.lastStepStats;
        expect(g.contacts.count).toBe(s.particleContacts + s.boundaryContacts);
        seen += g.contacts.count;
      },
    });
    expect(seen).toBeGreaterThan(0);
  });

  for (const steps of [1, 5]) {
    it(`the guard names grains pushed through each other (run(${steps}))`, () => {
      const w = new World({ timeStep: 1e-4, gravity: [0, 0, 0] });
      const g = w.addGranularParticles({
        positions: [0, 0, 0, 0.005, 0, 0, 0.1, 0, 0, 0.115, 0, 0],
        radii: 0.01,
      }, { normalStiffness: 1e3 });
      expect(() => w.run(steps)).toThrow(
        /particle 0 \(id 0\) overlaps particle 1 \(id 1\) by 0\.0150 m, more than its radius 0\.01/,
      );
      expect(g.count).toBe(4);
    });
  }
});
