// One contract for the simulators (issue #8 §1): the shared contact record, the statistics
// core, the profile, the run loop, empty systems, star2d option names, the divergence guard.
import { describe, it } from "node:test";
import { expect } from "expect";
import { CONTACT_KIND_NAMES, ContactKind } from "../mod.ts";
import { STAT_FIELDS } from "../src/contact/stats.ts";
import { World } from "../src/sphere3d/mod.ts";
import { GranularCore } from "../src/sphere3d/core.ts";
import { DiskSystem, StarShape, StarSystem } from "../src/star2d/mod.ts";
import { contactsTable, StatsRecorder, statsTable } from "../src/arrow/mod.ts";

const CORE = [
  "step",
  "time",
  "candidatePairs",
  "particleContacts",
  "boundaryContacts",
  "maxPenetration",
  "maxSpeed",
  "kineticEnergy",
];

/** A sphere resting on the ground plane. */
function restingSphere() {
  const world = new World({ timeStep: 1e-4 });
  const g = world.addGranularParticles({ positions: [[0, 0, 0.0199]], radii: 0.02 });
  g.setGroundPlane(0);
  world.run(3000);
  return { world, g };
}

/** A disk resting on a floor wall. */
function restingDisk() {
  const s = new DiskSystem({ timeStep: 1e-4, normalDamping: 0.5 });
  s.addGrains({ positions: [[0, 0.0049]], radius: 0.005 });
  s.walls.addPlane({ point: [0, 0], normal: [0, 1] });
  s.run(3000);
  return s;
}

describe("the shared contact record", () => {
  it("has one normal convention: from the boundary towards the grain, in 3D and in 2D", () => {
    const { g } = restingSphere();
    const c = g.contacts;
    expect(c.count).toBe(1);
    expect(c.kind[0]).toBe(ContactKind.ground);
    expect(c.j[0]).toBe(-1);
    expect(c.boundary[0]).toBe(0);
    expect(Array.from(c.normal)).toEqual([0, 0, 1]);
    // the force on the grain carries its weight
    expect(c.normalForce[0] / (g.masses[0] * 9.81)).toBeCloseTo(1, 3);
    const t3 = contactsTable(g);
    expect(t3.getChild("nz")!.get(0)).toBe(1);
    expect(t3.getChild("kind")!.get(0)).toBe("ground");

    const d = restingDisk();
    const c2 = d.contacts;
    expect(c2.count).toBe(1);
    expect(c2.kind[0]).toBe(ContactKind.wall);
    expect(c2.j[0]).toBe(-1);
    expect(c2.boundary[0]).toBe(0);
    expect(c2.normal[1]).toBeCloseTo(1, 12);
    expect(c2.normalForce[0] / (d.masses[0] * 9.81)).toBeCloseTo(1, 3);
    expect(c2.tangentialForce.length).toBe(2);
    const t2 = contactsTable(d);
    expect(t2.getChild("ny")!.get(0)).toBeCloseTo(1, 12);
    expect(t2.getChild("kind")!.get(0)).toBe("wall");
    expect(t2.getChild("tx")).not.toBeNull();
  });

  it("points a pair normal from j towards i and reports the force on i, in both simulators", () => {
    const world = new World({ timeStep: 1e-5, gravity: [0, 0, 0] });
    const g = world.addGranularParticles({
      positions: [[0, 0, 0], [0.039, 0, 0]],
      radii: 0.02,
    });
    world.step();
    const c = g.contacts;
    expect(c.count).toBe(1);
    const i = c.i[0], j = c.j[0];
    const sign = Math.sign(g.positions[3 * i] - g.positions[3 * j]);
    expect(c.normal[0]).toBeCloseTo(sign, 12);
    // the force on i pushes it away from j (along the normal): F_i·n > 0
    expect(g.forces[3 * i] * c.normal[0]).toBeGreaterThan(0);

    const s = new DiskSystem({ timeStep: 1e-5, gravity: [0, 0] });
    s.addGrains({ positions: [[0, 0], [0.0099, 0]], radius: 0.005 });
    s.step();
    const d = s.contacts;
    expect(d.count).toBe(1);
    const a = d.i[0], b = d.j[0];
    expect(d.normal[0]).toBeCloseTo(Math.sign(s.positions[2 * a] - s.positions[2 * b]), 12);
    // the repulsion moved i along the normal
    expect(s.velocities[2 * a] * d.normal[0]).toBeGreaterThan(0);
  });

  it("uses one kind dictionary everywhere, with the reserved codes", () => {
    expect(CONTACT_KIND_NAMES).toEqual(["particle", "ground", "wall", "body", "mesh", "heightMap"]);
    const t = contactsTable(restingDisk());
    const kind = t.getChild("kind")!;
    expect(kind.data[0].dictionary!.toArray()).toEqual([...CONTACT_KIND_NAMES]);
  });

  it("returns views trimmed to the contact count", () => {
    const { g } = restingSphere();
    expect(g.contacts.i.length).toBe(g.contacts.count);
    expect(g.contacts.point.length).toBe(3 * g.contacts.count);
  });
});

describe("the statistics core", () => {
  it("has the same names in sphere3d and star2d, with units declared once", () => {
    const { g } = restingSphere();
    const d = restingDisk();
    for (const k of CORE) {
      expect(typeof (g.lastStepStats as unknown as Record<string, number>)[k]).toBe("number");
      expect(typeof (d.lastStepStats as unknown as Record<string, number>)[k]).toBe("number");
      expect(STAT_FIELDS[k]).toBeDefined();
    }
    expect(g.lastStepStats.step).toBe(3000);
    expect(d.lastStepStats.step).toBe(3000);
    expect(g.lastStepStats.boundaryContacts).toBe(1);
    expect(d.lastStepStats.boundaryContacts).toBe(1);
    // kinetic energy is the real ½mv² + ½Iω²
    const v = g.velocities, w = g.angularVelocities, m = g.masses[0], r = g.radii[0];
    const ke = 0.5 * m * (v[0] ** 2 + v[1] ** 2 + v[2] ** 2) +
      0.2 * m * r * r * (w[0] ** 2 + w[1] ** 2 + w[2] ** 2);
    expect(g.lastStepStats.kineticEnergy).toBeCloseTo(ke, 15);
  });

  it("labels star2d statistics with their real units in Arrow", () => {
    const d = restingDisk();
    d.profile = true;
    const rec = new StatsRecorder();
    d.run(3, { onStep: () => rec.record(d, d) });
    const t = statsTable(rec.entries, { simulator: "star2d" });
    const unit = (name: string) =>
      t.schema.fields.find((f) => f.name === name)!.metadata.get("unit");
    expect(unit("maxPenetration")).toBe("m");
    expect(unit("kineticEnergy")).toBe("J");
    expect(unit("totalMs")).toBe("ms");
    expect(unit("particleContacts")).toBe("1");
  });
});

/** A small sphere bed on a ground plane (the profile tests). */
function profiledBed() {
  const world = new World({ timeStep: 1e-4 });
  const g = world.addGranularBox({
    min: [-0.1, -0.1, 0],
    max: [0.1, 0.1, 0.2],
    radius: 0.01,
    spacing: 0.021,
  });
  g.setGroundPlane(0);
  return { world, g };
}

/** Two crosses on a floor (the profile tests). */
function twoCrosses(): StarSystem {
  const s = new StarSystem({ timeStep: 1e-4 });
  s.addGrains({
    shape: StarShape.preset("cross", { area: 30e-6 }),
    positions: [[0, 0.004], [0.009, 0.004]],
  });
  s.walls.addPlane({ point: [0, 0], normal: [0, 1] });
  return s;
}

describe("the profile", () => {
  it("is zero unless asked for, then times every stage", () => {
    const { world, g } = profiledBed();
    world.run(5);
    expect(g.lastStepProfile.total).toBe(0);
    world.profile = true;
    world.run(5);
    const p = g.lastStepProfile;
    expect(p.total).toBeGreaterThan(0);
    expect(p.pairForces).toBeGreaterThan(0);
    expect(p.neighbors + p.pairForces + p.boundaryForces + p.integration)
      .toBeLessThanOrEqual(p.total * 1.0001);

    const s = twoCrosses();
    s.run(3);
    expect(s.lastStepProfile.total).toBe(0);
    s.profile = true;
    s.run(3);
    expect(s.lastStepProfile.total).toBeGreaterThan(0);
    expect(s.lastStepProfile.neighbors).toBeGreaterThanOrEqual(0);
  });

  it("sums the profiled steps in profileTotals, zeroed when profiling is switched on", () => {
    const { world, g } = profiledBed();
    world.run(4);
    expect(g.profileTotals.steps).toBe(0);
    world.profile = true;
    const sum = { pairForces: 0, integration: 0, total: 0 };
    for (let k = 0; k < 6; k++) {
      world.step();
      const p = g.lastStepProfile;
      sum.pairForces += p.pairForces, sum.integration += p.integration, sum.total += p.total;
    }
    const t = g.profileTotals;
    expect(t.steps).toBe(6);
    expect(t.pairForces).toBeCloseTo(sum.pairForces, 12);
    expect(t.integration).toBeCloseTo(sum.integration, 12);
    expect(t.total).toBeCloseTo(sum.total, 12);
    expect(t.neighbors + t.pairForces + t.boundaryForces + t.integration)
      .toBeLessThanOrEqual(t.total * 1.0001);
    // off: no more steps counted; on again: zeroed, then counting
    world.profile = false;
    world.run(3);
    expect(g.profileTotals.steps).toBe(6);
    world.profile = true;
    expect(g.profileTotals.steps).toBe(0);
    expect(g.profileTotals.total).toBe(0);
    world.run(2);
    expect(g.profileTotals.steps).toBe(2);

    const s = twoCrosses();
    s.run(2);
    expect(s.profileTotals.steps).toBe(0);
    s.profile = true;
    let total = 0;
    for (let k = 0; k < 4; k++) s.step(), total += s.lastStepProfile.total;
    expect(s.profileTotals.steps).toBe(4);
    expect(s.profileTotals.total).toBeCloseTo(total, 12);
    s.profile = false;
    s.profile = true;
    expect(s.profileTotals.steps).toBe(0);
    expect(() => (s.profile = 1 as unknown as boolean)).toThrow(/profile \(1\) must be a boolean/);
  });
});

describe("one run loop", () => {
  it("gives run(n, { onStep }) the same meaning on World and on star2d systems", () => {
    const world = new World();
    const seenW: number[] = [];
    world.run(3, { onStep: (k, w) => seenW.push(k, w.stepCount) });
    const s = new DiskSystem();
    const seenS: number[] = [];
    s.run(3, { onStep: (k, sys) => seenS.push(k, sys.lastStepStats.step) });
    expect(seenW).toEqual([1, 1, 2, 2, 3, 3]);
    expect(seenS).toEqual(seenW);
    // progress objects are accepted by both (silent here)
    world.run(2, { progress: { mode: "none" } });
    s.run(2, { progress: { mode: "none" } });
    for (const bad of [{ onStp: () => {} }, { progress: "yes" }]) {
      expect(() => world.run(1, bad as never)).toThrow(/World\.run/);
      expect(() => s.run(1, bad as never)).toThrow(/DiskSystem\.run/);
    }
    expect(() => world.run(-1)).toThrow(/steps \(-1\)/);
    expect(() => s.run(1.5)).toThrow(/steps \(1\.5\)/);
  });
});

describe("empty systems", () => {
  it("are legal: create, step, then emit", () => {
    const world = new World({ timeStep: 1e-4 });
    const g = world.addGranularSystem({ friction: 0.7 });
    g.setGroundPlane(0);
    world.run(10);
    expect(g.count).toBe(0);
    expect(g.lastStepStats.step).toBe(10);
    expect(g.contacts.count).toBe(0);
    g.emitBox({
      min: [0, 0, 0],
      max: [0.1, 0.1, 0.1],
      radius: 0.01,
      spacing: 0.025,
      maxParticles: 27,
    });
    world.run(10);
    expect(g.count).toBe(27);
    expect(g.lastStepStats.emittedParticles + g.lastStepStats.step).toBeGreaterThan(0);
  });
});

describe("star2d options", () => {
  it("use the spelled-out names of sphere3d and reject unknown keys", () => {
    const s = new StarSystem({
      normalStiffness: 2000,
      normalDamping: 0.2,
      tangentialStiffness: 800,
      tangentialDamping: 0.01,
      friction: 0.4,
    });
    expect(s.kn).toBe(2000);
    expect(s.friction).toBe(0.4);
    expect(() => new StarSystem({ normalStiffnes: 5 } as never)).toThrow(
      /unknown option "normalStiffnes".*did you mean "normalStiffness"/,
    );
    expect(() => new DiskSystem({ kn: 5 } as never)).toThrow(/unknown option "kn"/);
    expect(() => new DiskSystem(null as never)).toThrow(TypeError);
    expect(() => new StarSystem({ friction: -1 })).toThrow(/friction \(-1\) must be >= 0/);
    expect(() => new StarSystem({ gravity: [0, 0, -9.81] as never })).toThrow(/gravity/);
  });

  it("leave the system unchanged when addGrains fails", () => {
    const s = new StarSystem();
    const cross = StarShape.preset("cross", { area: 30e-6 });
    s.addGrains({ shape: cross, positions: [[0, 0]] });
    const flower = StarShape.preset("flower", { area: 30e-6 });
    expect(() =>
      s.addGrains({ shape: flower, positions: [[0.01, 0], [0.02, 0]], angles: [0, NaN] })
    ).toThrow(/angles\[1\]/);
    expect(() => s.addGrains({ shape: flower, positions: [[0.01, 0, 0]] as never })).toThrow(
      /2 components/,
    );
    expect(s.count).toBe(1);
    expect(s.starShapes.length).toBe(1);
    s.addGrains({ shape: flower, positions: [[0.01, 0]] });
    expect(Array.from(s.ids)).toEqual([0, 1]);

    const d = new DiskSystem();
    expect(() => d.addGrains({ positions: [[0, 0], [1, 0]], radius: [0.01, -1] })).toThrow(
      /radius\[1\]/,
    );
    expect(d.count).toBe(0);
  });
});

describe("divergence and non-finite states", () => {
  it("throws naming the particle, the step and the cure when an explicit run blows up", () => {
    const warn = console.warn;
    const warnings: string[] = [];
    console.warn = (m: string) => warnings.push(m);
    try {
      for (const [dt, kn] of [[1e-2, 1e12], [10, 1e5]]) {
        const w = new World({ timeStep: dt });
        const g = w.addGranularBox(
          { min: [-0.1, -0.1, 0], max: [0.1, 0.1, 0.3], radius: 0.02, spacing: 0.043 },
          { normalStiffness: kn },
        );
        g.setGroundPlane(0);
        expect(() => w.run(2000)).toThrow(
          /diverged at step \d+: particle \d+ \(id \d+\).*stable bound 2·sqrt\(m_min\/k_n\).*reduce timeStep/,
        );
        expect(w.stepCount).toBeLessThan(5);
      }
      expect(warnings.length).toBe(2);
      expect(warnings[0]).toMatch(/exceeds the stable bound/);
    } finally {
      console.warn = warn;
    }
  });

  it("does not fire on a healthy settling bed", () => {
    const w = new World({ timeStep: 1e-4 });
    const g = w.addGranularBox(
      { min: [-0.1, -0.1, 0], max: [0.1, 0.1, 0.3], radius: 0.02, spacing: 0.043 },
      { normalStiffness: 1e5, normalDamping: 20 },
    );
    g.setGroundPlane(0);
    w.run(3000);
    expect(g.lastStepStats.maxPenetration).toBeLessThan(0.02);
  });

  it("catches non-finite star2d states", () => {
    const s = new StarSystem();
    s.addGrains({
      shape: StarShape.preset("circle", { rMax: 0.003 }),
      positions: [[1.79e308, 0]],
      velocities: [1.79e308, 0],
    });
    expect(() => s.run(1000)).toThrow(/grain 0 \(id 0\) has a non-finite state/);
  });
});

describe("boundaries", () => {
  it("merge a container floor at the ground height into one plane", () => {
    const world = new World({ timeStep: 1e-4 });
    const g = world.addGranularParticles({ positions: [[0, 0, 0.0199]], radii: 0.02 });
    g.setGroundPlane(0);
    g.setContainerBox([-1, -1, 0], [1, 1, 1]);
    world.run(10);
    expect(g.lastStepStats.boundaryContacts).toBe(1);
    expect(g.contacts.kind[0]).toBe(ContactKind.ground);
  });
});

describe("the step", () => {
  it("grows no buffer once warmed up", () => {
    const core = new GranularCore({ normalStiffness: 1e5, substeps: 2 });
    const n = 600;
    core.reserve(n);
    const zero = [0, 0, 0];
    for (let k = 0; k < n; k++) {
      // a jittered grid, so that the columns collapse into a disordered bed
      const jx = (((k * 7919) % 13) - 6) * 3e-4, jy = (((k * 104729) % 11) - 5) * 3e-4;
      const x = (k % 10) * 0.021 + jx, y = (Math.floor(k / 10) % 10) * 0.021 + jy;
      core.append(x, y, 0.011 + Math.floor(k / 100) * 0.021, 0.01, zero, zero, 0, false);
    }
    core.ground = 0;
    core.container = [[-0.02, -0.02, 0], [0.22, 0.22, 1]];
    core.rebuildPlanes();
    const g = [0, 0, -9.81];
    // settle (the contact count grows while the grains land), then watch a settled bed
    for (let s = 0; s < 2500; s++) core.step(1e-4, g);
    const before = core.buffers();
    for (let s = 0; s < 300; s++) core.step(1e-4, g);
    const after = core.buffers();
    expect(after.length).toBe(before.length);
    for (let k = 0; k < before.length; k++) expect(after[k]).toBe(before[k]);
    expect(core.stats.particleContacts).toBeGreaterThan(n);
  });
});
