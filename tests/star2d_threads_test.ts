/**
 * Threaded star2d detection: the same bytes with one thread and several, for each detection
 * variant (symmetric and one-sided, first-order and radial, deepest node and all nodes, table
 * and sprite sampling), spinning walls, growth of the columns, new shapes, checkpoints and the
 * overflow of a thread's contact rows or candidate pairs.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  approximateByDisks,
  ClumpSystem,
  DiskSystem,
  StarShape,
  StarSystem,
  type StarSystemOptions,
} from "../src/star2d/mod.ts";
import type { StarSamplingOptions } from "../src/star2d/system.ts";
import { Rng } from "../src/math/rng.ts";

type Opts = StarSystemOptions & StarSamplingOptions;

/** Everything a step produces that a user can read, as bytes. */
function snapshot(s: StarSystem) {
  const c = s.contacts, st = s.lastStepStats;
  return {
    pos: s.positions.slice(),
    vel: s.velocities.slice(),
    ang: s.angles.slice(),
    contacts: [
      c.i.slice(),
      c.j.slice(),
      c.boundary.slice(),
      c.point.slice(),
      c.normal.slice(),
      c.overlap.slice(),
      c.normalForce.slice(),
      c.tangentialForce.slice(),
      c.key.slice(),
    ],
    stats: [st.particleContacts, st.boundaryContacts, st.nodeTests, st.pairsInContact],
  };
}

/** A loose column of `n` random star grains falling into a box (two shapes). */
function column(threads: number, n = 150, options: Opts = {}): StarSystem {
  const s = new StarSystem({ friction: 0.5, ...options, threads });
  const cross = StarShape.preset("cross", { area: 30e-6, nodes: 60 });
  const rnd = StarShape.random(7, { area: 30e-6, nodes: 60 });
  const rng = new Rng(3);
  const per = 10, sp = 2.05 * Math.max(cross.rMax, rnd.rMax);
  for (let k = 0; k < n; k++) {
    const x = (k % per) * sp + (Math.floor(k / per) % 2) * 0.3 * sp;
    const y = sp + Math.floor(k / per) * sp;
    s.addGrains({
      shape: k % 3 === 0 ? rnd : cross,
      positions: [[x, y]],
      angles: rng.uniform(0, 2 * Math.PI),
      velocities: [rng.uniform(-0.2, 0.2), -12 * y], // the upper rows catch up
    });
  }
  s.walls.addBox({ min: [-sp, 0], max: [per * sp, 1], friction: 0.4 });
  return s;
}

function runBoth(steps: number, options: Opts = {}, counts = [1, 2, 3]) {
  return counts.map((t) => {
    using s = column(t, 150, options);
    s.run(steps);
    return snapshot(s);
  });
}

describe("star2d threads: the same bytes for any thread count", () => {
  it("a collapsing column of crosses and random shapes: 1, 2 and 3 threads", () => {
    const [a, b, c] = runBoth(500);
    expect(a.stats[0]).toBeGreaterThan(100); // a real bed: many grain contacts
    expect(a.stats[1]).toBeGreaterThan(10);
    expect(b).toEqual(a);
    expect(c).toEqual(a);
  });

  for (
    const [label, o] of [
      ["one-sided, radial", { detection: "one-sided", distance: "radial" }],
      // every inside node a contact makes a pair several springs: at the default 1e-4 s the
      // column diverges (a grain passes through the floor at step 393, which the guard reports)
      ["every inside node a contact", { contactPoints: "all-nodes", timeStep: 5e-5 }],
      ["sprite sampling", { sampling: "sprite" }],
      ["no sprite cells", { spriteResolution: 0 }],
    ] as [string, Opts][]
  ) {
    it(`${label}: 1 and 2 threads`, () => {
      const [a, b] = runBoth(o.timeStep ? (400 * 1e-4) / o.timeStep : 400, o, [1, 2]);
      expect(a.stats[0]).toBeGreaterThan(30);
      expect(b).toEqual(a);
    });
  }

  it("grains and a new shape added mid-run, thread count changed mid-run", () => {
    const runs = [1, 2].map((t) => {
      using s = column(t, 120);
      s.run(150);
      s.threads = 3 - t; // switch: 1 → 2, 2 → 1
      const flower = StarShape.preset("flower", { area: 30e-6, nodes: 60 });
      const pos: [number, number][] = [];
      for (let k = 0; k < 100; k++) {
        // inside the box (its right wall is at x = 0.1026 m; r_max 4.4 mm)
        pos.push([0.0105 * (k % 10), 0.2 + 0.0125 * Math.floor(k / 10)]);
      }
      s.addGrains({ shape: flower, positions: pos }); // the columns grow past 128
      s.run(150);
      s.threads = t;
      s.run(100);
      return snapshot(s);
    });
    expect(runs[0].pos.length).toBe(2 * 220);
    expect(runs[1]).toEqual(runs[0]);
  });

  it("a checkpoint restored into a threaded system continues bit for bit", () => {
    using s1 = column(1, 120);
    s1.run(200);
    const bytes = s1.stateBytes();
    using s2 = new StarSystem({ threads: 2 });
    s2.loadStateBytes(bytes);
    s1.run(100);
    s2.run(100);
    expect(snapshot(s2)).toEqual(snapshot(s1));
  });

  it("a packed bed loaded into fresh systems: the first step on threads is one thread's", () => {
    // the workers' model (the shapes' centroids) must be the loaded shapes' from the first step
    using s0 = column(1, 120);
    s0.run(500);
    const bytes = s0.stateBytes();
    const steps = [1, 2].map((t) => {
      using s = new StarSystem({ threads: t });
      s.loadStateBytes(bytes);
      s.step();
      return snapshot(s);
    });
    expect(steps[0].stats[0]).toBeGreaterThan(50);
    expect(steps[1]).toEqual(steps[0]);
  });

  it("a spinning drum wall", () => {
    const runs = [1, 2].map((t) => {
      using s = new StarSystem({ friction: 0.5, threads: t });
      const sh = StarShape.random(7, { rMax: 0.005, nodes: 60 });
      const pos: [number, number][] = [];
      for (let k = 0; k < 120; k++) {
        pos.push([-0.0385 + 0.011 * (k % 8), -0.08 + 0.011 * Math.floor(k / 8)]);
      }
      s.addGrains({
        shape: sh,
        positions: pos,
        angles: pos.map((_, k) => k),
        velocities: pos.flatMap(() => [0, -1]),
      });
      s.walls.addDrum({ centre: [0, 0], radius: 0.1, omega: 5 });
      s.run(600);
      return snapshot(s);
    });
    expect(runs[0].stats[0]).toBeGreaterThan(30);
    expect(runs[0].stats[1]).toBeGreaterThan(5);
    expect(runs[1]).toEqual(runs[0]);
  });

  it("a thread's rows overflow: the buffers grow and the step is the same", () => {
    // 40 circles on one spot with every inside node a contact: ~100 contacts per pair, far
    // beyond the first rows of each thread (4,096)
    const runs = [1, 2].map((t) => {
      using s = new StarSystem({ contactPoints: "all-nodes", gravity: [0, 0], threads: t });
      const sh = StarShape.preset("circle", { rMax: 0.005, nodes: 100 });
      const pos: [number, number][] = [];
      for (let k = 0; k < 40; k++) pos.push([1e-4 * Math.cos(k), 1e-4 * Math.sin(k)]);
      s.addGrains({ shape: sh, positions: pos });
      s.step();
      return snapshot(s);
    });
    expect(runs[0].contacts[0].length).toBeGreaterThan(20_000);
    expect(runs[1]).toEqual(runs[0]);
  });

  it("a crowd's candidate pairs overflow a thread's pair buffer: it grows, the same bytes", () => {
    // 80 circles on one spot: 3,160 candidate pairs in one or two grid rows, beyond the first
    // pair buffer of a thread (1,024); threads search runs of grid rows
    const runs = [1, 2, 3].map((t) => {
      using s = new StarSystem({ gravity: [0, 0], threads: t });
      const sh = StarShape.preset("circle", { rMax: 0.005, nodes: 40 });
      const pos: [number, number][] = [];
      for (let k = 0; k < 80; k++) pos.push([2e-4 * Math.cos(k), 2e-4 * Math.sin(k)]);
      s.addGrains({ shape: sh, positions: pos });
      s.run(3);
      return { snap: snapshot(s), pairs: s.lastStepStats.boundingHits };
    });
    expect(runs[0].pairs).toBe(3160);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });

  it("clumps of 9 and 17 disks: 1, 2 and 3 threads, templates added mid-run", () => {
    const cross = StarShape.preset("cross", { area: 30e-6 });
    const t9 = approximateByDisks(cross, 9), t17 = approximateByDisks(cross, 17);
    const runs = [1, 2, 3].map((threads) => {
      using s = new ClumpSystem({ friction: 0.5, threads });
      const rng = new Rng(5);
      const pos: number[] = [], ang: number[] = [], vel: number[] = [];
      for (let k = 0; k < 100; k++) {
        const y = 0.0047 + 0.0095 * Math.floor(k / 10);
        pos.push(0.0095 * (k % 10), y);
        ang.push(rng.uniform(0, 2 * Math.PI));
        vel.push(0, -12 * y);
      }
      s.addGrains({ template: t9, positions: pos, angles: ang, velocities: vel });
      s.walls.addBox({ min: [-0.0047, 0], max: [0.1, 1], friction: 0.4 });
      s.run(300);
      const more: number[] = [];
      for (let k = 0; k < 30; k++) more.push(0.0095 * (k % 10), 0.15 + 0.0095 * Math.floor(k / 10));
      s.addGrains({ template: t17, positions: more });
      s.run(300);
      const c = s.contacts, st = s.lastStepStats;
      return {
        pos: s.positions.slice(),
        ang: s.angles.slice(),
        contacts: [c.i.slice(), c.j.slice(), c.point.slice(), c.normalForce.slice(), c.key.slice()],
        stats: [st.particleContacts, st.boundaryContacts, st.nodeTests, st.pairsInContact],
      };
    });
    expect(runs[0].stats[0]).toBeGreaterThan(50);
    expect(runs[1]).toEqual(runs[0]);
    expect(runs[2]).toEqual(runs[0]);
  });

  it("threads: validation and closing", () => {
    expect(() => new StarSystem({ threads: 0 })).toThrow(
      /StarSystem: threads \(0\) must be an integer in \[1, 64\]/,
    );
    const s = new StarSystem();
    expect(() => (s.threads = 2.5)).toThrow(/threads \(2.5\) must be an integer/);
    expect(() => (s.threads = NaN)).toThrow(RangeError);
    expect(s.threads).toBe(1);
    s.threads = 2;
    expect(s.threads).toBe(2);
    s.close();
    s.close(); // harmless
    expect(s.threads).toBe(1);
    expect(() => new StarSystem({ thread: 2 } as never)).toThrow(/did you mean "threads"/);
    const disks = new DiskSystem();
    expect(() => (disks.threads = 2)).toThrow(/DiskSystem: threads \(2\) must be 1/);
    expect(disks.threads).toBe(1);
    expect(() => new ClumpSystem({ threads: 65 })).toThrow(
      /ClumpSystem: threads \(65\) must be an integer in \[1, 64\]/,
    );
  });
});
