import { describe, it } from "node:test";
import { expect } from "expect";
import {
  ClumpSystem,
  DiskSystem,
  packingScene,
  StarShape,
  StarSystem,
  type StarSystemOptions,
} from "../src/star2d/mod.ts";
import { clumpTemplate } from "../src/star2d/clump_template.ts";

const cross = StarShape.preset("cross", { rMax: 0.01 });

function pairSystem(
  order: "ab" | "ba",
  ang: [number, number],
  pos: [number, number, number, number],
  opts: StarSystemOptions = {},
): StarSystem {
  const s = new StarSystem({ gravity: [0, 0], ...opts });
  const A = { positions: [[pos[0], pos[1]] as [number, number]], angles: ang[0] };
  const B = { positions: [[pos[2], pos[3]] as [number, number]], angles: ang[1] };
  for (const g of order === "ab" ? [A, B] : [B, A]) s.addGrains({ shape: cross, ...g });
  return s;
}

/** Velocity and spin of grain A after one step, in both insertion orders. */
function swapped(ang: [number, number], pos: [number, number, number, number], o = {}) {
  const s1 = pairSystem("ab", ang, pos, o), s2 = pairSystem("ba", ang, pos, o);
  s1.step();
  s2.step();
  return {
    s1,
    s2,
    a1: [s1.velocities[0], s1.velocities[1], s1.angularVelocities[0]],
    a2: [s2.velocities[2], s2.velocities[3], s2.angularVelocities[1]],
    b1: [s1.velocities[2], s1.velocities[3], s1.angularVelocities[1]],
    b2: [s2.velocities[0], s2.velocities[1], s2.angularVelocities[0]],
  };
}

describe("star2d StarSystem contacts", () => {
  it("swapping the two grains gives exactly opposite forces (symmetric detection)", () => {
    const r = swapped([0.3, 1.1], [0, 0, 0.0135, 0.004]);
    expect(r.s1.contacts.count).toBeGreaterThan(0);
    expect(r.a1).toEqual(r.a2);
    expect(r.b1).toEqual(r.b2);
    const c1 = r.s1.contacts, c2 = r.s2.contacts;
    expect(c1.count).toBe(c2.count);
    expect(c1.normal[0]).toBe(-c2.normal[0]);
    expect(c1.normalForce[0]).toBe(c2.normalForce[0]);
    // Forces on A and B are equal and opposite: momentum change sums to zero.
    expect(Math.abs(r.a1[0] + r.b1[0])).toBeLessThan(1e-15);
  });

  it("the one-sided variant depends on the insertion order, the symmetric one does not", () => {
    // One-sided detection tests only the first grain's nodes against the second's surface, so
    // swapping the grains changes which nodes are tested: the velocity after one step changes
    // by as much as the velocity itself (not by round-off). On the same 20 configurations the
    // symmetric detection agrees to round-off.
    const diff = (r: ReturnType<typeof swapped>) =>
      Math.abs(r.a1[0] - r.a2[0]) + Math.abs(r.a1[1] - r.a2[1]);
    let maxDiff = 0, maxSymDiff = 0, maxSpeed = 0;
    for (let k = 0; k < 20; k++) {
      const ang: [number, number] = [0.37 * k, 1.3 + 0.61 * k];
      const pos: [number, number, number, number] = [0, 0, 0.0125, 0.003 * Math.sin(k)];
      const r = swapped(ang, pos, { detection: "one-sided" });
      const sym = swapped(ang, pos);
      expect(sym.s1.contacts.count).toBeGreaterThan(0);
      maxDiff = Math.max(maxDiff, diff(r));
      maxSymDiff = Math.max(maxSymDiff, diff(sym));
      maxSpeed = Math.max(maxSpeed, Math.hypot(sym.a1[0], sym.a1[1]));
    }
    expect(maxSpeed).toBeGreaterThan(0.1); // m/s: the pairs overlap and push apart
    expect(maxDiff).toBeGreaterThan(0.5 * maxSpeed); // measured: 1.8 m/s against 1.1 m/s
    expect(maxSymDiff).toBeLessThan(1e-12 * maxSpeed);
  });

  it("a non-convex pair can have two distinct contacts", () => {
    const t = Math.PI / 8; // lobes at ±45° and ±135°: two arms of each cross meet
    const s = pairSystem("ab", [t, t], [0, 0, 0.0136, 0]);
    s.step();
    expect(s.contacts.count).toBe(2);
    expect(s.lastStepStats.contactsPerPair).toBe(2);
    expect(s.lastStepStats.pairsInContact).toBe(1);
    const y = s.contacts.point;
    expect(Math.sign(y[1])).toBe(-Math.sign(y[3]));
    expect(s.contacts.overlap[0]).toBeCloseTo(s.contacts.overlap[1], 12);
    // The all-nodes rule makes one contact point per inside node.
    const all = pairSystem("ab", [t, t], [0, 0, 0.0136, 0], { contactPoints: "all-nodes" });
    all.step();
    expect(all.contacts.count).toBeGreaterThan(2);
  });

  it("a disk pair reproduces the Cundall–Strack disk result", () => {
    const R = 0.005, v = 0.5;
    const circle = StarShape.preset("circle", { rMax: R });
    const star = new StarSystem({ gravity: [0, 0] });
    star.addGrains({ shape: circle, positions: [[0, 0], [0.0105, 0]], velocities: [v, 0, 0, 0] });
    const disk = new DiskSystem({ gravity: [0, 0] });
    disk.addGrains({ radius: R, positions: [[0, 0], [0.0105, 0]], velocities: [v, 0, 0, 0] });
    let maxOv = 0, maxOvD = 0;
    for (let k = 0; k < 400; k++) {
      star.step();
      disk.step();
      maxOv = Math.max(maxOv, star.lastStepStats.maxPenetration);
      maxOvD = Math.max(maxOvD, disk.lastStepStats.maxPenetration);
    }
    expect(maxOv).toBeGreaterThan(0);
    expect(maxOv).toBeCloseTo(maxOvD, 12);
    expect(star.velocities[0]).toBeCloseTo(disk.velocities[0], 10);
    expect(star.velocities[2]).toBeCloseTo(disk.velocities[2], 10);
    // Oblique impact with friction: agreement within the node spacing.
    const s2 = new StarSystem({ gravity: [0, 0] }), d2 = new DiskSystem({ gravity: [0, 0] });
    const init = {
      positions: [[0, 0], [0.0105, 0.004]] as [number, number][],
      velocities: [v, 0, 0, 0],
    };
    s2.addGrains({ shape: circle, ...init });
    d2.addGrains({ radius: R, ...init });
    for (let k = 0; k < 400; k++) {
      s2.step();
      d2.step();
    }
    for (let q = 0; q < 4; q++) {
      expect(Math.abs(s2.velocities[q] - d2.velocities[q])).toBeLessThan(0.02 * v);
    }
    expect(Math.abs(s2.angularVelocities[0] - d2.angularVelocities[0])).toBeLessThan(
      0.05 * Math.abs(d2.angularVelocities[0]) + 1e-6,
    );
  });

  it("a clump of one disk equals a disk", () => {
    const opts = { gravity: [0, -9.81] as [number, number], friction: 0.4 };
    const c = new ClumpSystem(opts), d = new DiskSystem(opts);
    const init = {
      positions: [[0, 0.006], [0.0102, 0.02], [0.004, 0.04]] as [number, number][],
      velocities: [0.1, 0, -0.2, 0, 0, -0.3],
      angularVelocities: [3, 0, -2],
    };
    c.addGrains({ template: clumpTemplate({ centres: [[0, 0]], radii: [0.005] }), ...init });
    d.addGrains({ radius: 0.005, ...init });
    for (const s of [c, d]) s.walls.addBox({ min: [-0.02, 0], max: [0.03, 1] });
    for (let k = 0; k < 1500; k++) {
      c.step();
      d.step();
    }
    expect(d.lastStepStats.particleContacts + d.lastStepStats.boundaryContacts).toBeGreaterThan(0);
    for (let q = 0; q < 6; q++) expect(c.positions[q]).toBeCloseTo(d.positions[q], 12);
    for (let q = 0; q < 3; q++) expect(c.angles[q]).toBeCloseTo(d.angles[q], 9);
  });

  it("conserves momentum in grain–grain collisions", () => {
    const s = new StarSystem({ gravity: [0, 0], friction: 0.5 });
    const flower = StarShape.preset("butterfly", { rMax: 0.01 }); // off-centre centroid
    s.addGrains({
      shape: flower,
      positions: [[0, 0], [0.025, 0.004]],
      angles: [0.2, 2.1],
      velocities: [0.6, 0.05, -0.4, 0],
      angularVelocities: [5, -3],
    });
    const mom = () => {
      const m = s.masses, v = s.velocities, x = s.positions, w = s.angularVelocities;
      let px = 0, py = 0, L = 0;
      for (let i = 0; i < s.count; i++) {
        px += m[i] * v[2 * i];
        py += m[i] * v[2 * i + 1];
        L += m[i] * (x[2 * i] * v[2 * i + 1] - x[2 * i + 1] * v[2 * i]) + s.inertias[i] * w[i];
      }
      return [px, py, L];
    };
    const before = mom();
    let touched = 0;
    for (let k = 0; k < 600; k++) {
      s.step();
      touched += s.contacts.count;
    }
    const after = mom();
    expect(touched).toBeGreaterThan(0);
    expect(Math.abs(after[0] - before[0])).toBeLessThan(1e-15);
    expect(Math.abs(after[1] - before[1])).toBeLessThan(1e-15);
    expect(Math.abs(after[2] - before[2])).toBeLessThan(1e-3 * Math.abs(before[2]) + 1e-12);
  });
});

describe("star2d scenes", () => {
  it("a settled packing has a small maximum overlap, and runs are deterministic", () => {
    const run = () => {
      const sc = packingScene({ count: 190, shape: "cross" });
      sc.advance(3500);
      return sc;
    };
    const a = run();
    const st = a.system.lastStepStats;
    expect(st.particleContacts).toBeGreaterThan(150);
    expect(st.maxPenetration).toBeLessThan(0.03 * a.shape.rMax);
    expect(st.kineticEnergy).toBeLessThan(1e-5);
    const b = packingScene({ count: 190, shape: "cross" });
    b.advance(3500);
    expect(b.system.positions).toEqual(a.system.positions);
    expect(b.system.angles).toEqual(a.system.angles);
  });
});

describe("star2d bad input", () => {
  it("rejects an unstable time step, zero-length segments and bad options", () => {
    const s = new StarSystem({ timeStep: 1e-3 });
    expect(() => s.addGrains({ shape: cross, positions: [[0, 0]] })).toThrow(
      /timeStep \(0\.001 s\) exceeds the stability bound/,
    );
    expect(() => new StarSystem().walls.addSegment({ from: [1, 1], to: [1, 1] })).toThrow(
      /segment length \(0\)/,
    );
    expect(() => new StarSystem({ timeStep: -1 })).toThrow(/timeStep \(-1\) must be > 0/);
    expect(() => new StarSystem({ distance: "euclid" as "radial" })).toThrow(/distance/);
    expect(() => new DiskSystem().addGrains({ positions: [[0, 0]], radius: 0 })).toThrow(
      /radius \(0\)/,
    );
    expect(() => new StarSystem().walls.addDrum({ centre: [0, 0], radius: -2 })).toThrow(
      /radius \(-2\)/,
    );
  });
});
