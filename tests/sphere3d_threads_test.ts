/**
 * Threaded granular steps: the same bytes with one thread and several, for every force the
 * pair loop computes (friction history, rolling friction, cohesion, Hertz, periodic cells),
 * through neighbour rebuilds, slot reorderings, growth of the columns and checkpoints.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import type { GranularSystem } from "../src/sphere3d/mod.ts";
import { BED_BOX, disorderedBed, emptyBed } from "./sphere3d_helpers.ts";
import { jitteredGrid, SCENE } from "../bench/settle_bench.ts";

/** Everything a step produces that a user can read, as bytes. */
function snapshot(g: GranularSystem) {
  const c = g.contacts, s = g.lastStepStats;
  return {
    ids: Array.from(g.ids),
    pos: g.positions.slice(),
    vel: g.velocities.slice(),
    ang: g.angularVelocities.slice(),
    force: g.forces.slice(),
    contacts: [c.i.slice(), c.j.slice(), c.normalForce.slice(), c.tangentialForce.slice()],
    stats: [
      s.particleContacts,
      s.boundaryContacts,
      s.cohesiveContacts,
      s.maxPenetration,
      s.kineticEnergy,
      s.maxSpeed,
      s.activeContactHistories,
      s.staleContactHistoriesRemoved,
    ],
  };
}

const bed = (threads: number) => disorderedBed({ threads, cohesion: true });

describe("sphere3d threads: the same bytes for any thread count", () => {
  it("a disordered bed with friction, rolling friction and cohesion: 1, 2 and 3 threads", () => {
    const runs = [1, 2, 3].map((t) => {
      const { world, g } = bed(t);
      world.run(1200);
      const snap = snapshot(g);
      const sorts = g.spatialSorts;
      world.close();
      return { snap, sorts };
    });
    expect(runs[0].sorts).toBe(runs[1].sorts);
    expect(runs[0].snap.stats[0]).toBeGreaterThan(1000); // contact-rich
    expect(runs[0].snap.stats[2]).toBeGreaterThan(0); // cohesive pairs across gaps
    expect(runs[1].snap).toEqual(runs[0].snap);
    expect(runs[2].snap).toEqual(runs[0].snap);
  });

  it("Hertz contacts in a periodic cell, with grains added between steps (columns grow)", () => {
    const run = (threads: number) => {
      const w = new World({ timeStep: 2e-5, gravity: [0, 0, -9.81], threads });
      const g = w.addGranularBox(
        { min: [0, 0, 0.01], max: [0.2, 0.2, 0.12], radius: 0.008, spacing: 0.0165 },
        {
          normalContactModel: "hertz",
          normalStiffness: 2e7,
          restitution: 0.6,
          friction: 0.4,
          density: 2500,
        },
      );
      g.setGroundPlane(0);
      g.setPeriodicBoundary([0, 0, -1], [0.2, 0.2, 1], { x: true, y: true });
      w.run(400);
      const before = g.count;
      g.emitBox({
        min: [0, 0, 0.14],
        max: [0.2, 0.2, 0.2],
        radius: 0.008,
        spacing: 0.0165,
        maxParticles: 600,
      });
      expect(g.count).toBeGreaterThan(before);
      w.run(400);
      const s = snapshot(g);
      w.close();
      return s;
    };
    expect(run(2)).toEqual(run(1));
  });

  it("switching threads mid-run and checkpoints continue the same run", () => {
    const straight = bed(1);
    straight.world.run(800);
    const mixed = bed(2);
    mixed.world.run(400);
    const bytes = mixed.g.granularStateBytes({ includeContactHistories: true });
    mixed.g.threads = 1;
    mixed.world.run(200);
    mixed.g.threads = 3;
    mixed.world.run(200);
    expect(snapshot(mixed.g)).toEqual(snapshot(straight.g));
    const { world: w, g } = emptyBed(2);
    g.loadGranularStateBytes(bytes);
    w.run(400);
    expect(snapshot(g)).toEqual(snapshot(straight.g));
    w.close();
    mixed.world.close();
  });

  it("two threaded systems in one world, one of five slot blocks: the same bytes", () => {
    // the threads own contiguous runs of 2,048-slot blocks, cut by pair counts; with two
    // threaded systems each parks its workers after its turn
    const run = (threads: number) => {
      const { world, g } = disorderedBed({ n: 9000, threads, cohesion: true });
      const h = world.addGranularParticles({
        positions: jitteredGrid(2500),
        radii: SCENE.radius,
      }, { density: SCENE.density, normalStiffness: SCENE.kn, friction: 0.3 });
      h.setContainerBox(...BED_BOX);
      world.run(150);
      world.step();
      const out = [snapshot(g), snapshot(h), g.neighborRebuilds];
      world.close();
      return out;
    };
    const one = run(1);
    expect((one[0] as ReturnType<typeof snapshot>).stats[0]).toBeGreaterThan(0);
    expect(run(2)).toEqual(one);
    expect(run(3)).toEqual(one);
  });

  it("validates the thread count", () => {
    expect(() => new World({ threads: 0 })).toThrow(RangeError);
    expect(() => new World({ threads: 1.5 })).toThrow(/threads/);
    const g = new World().addGranularSystem();
    expect(() => (g.threads = 1000)).toThrow(/threads/);
    expect(g.threads).toBe(1);
  });
});
