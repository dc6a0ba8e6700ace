/**
 * Bad input at the public boundaries (issue #8 §4): unknown option keys name the nearest valid
 * key, `null` options throw a TypeError naming the parameter, absurd sizes throw stating what
 * they would need, and failed calls leave the state unchanged.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { type GranularSystem, World } from "../src/sphere3d/mod.ts";
import { ParticleStore } from "../src/sphere3d/particles.ts";
import { HistoryTable } from "../src/sphere3d/history.ts";
import { packingScene, StarShape, Walls } from "../src/star2d/mod.ts";
import { compareBar, convergenceStudy, simulateBar } from "../src/ipc1d/mod.ts";
import { barMatrices } from "../src/ipc1d/fem.ts";
import { characteristicLattice } from "../src/ipc1d/lattice.ts";
import { contactIntervals } from "../src/ipc1d/metrics.ts";
import { integrateDem, penaltyPotential } from "../src/ipc1d/penalty.ts";
import { integrateImplicit } from "../src/ipc1d/newmark.ts";
import { ipcPotential, resolutionRatio } from "../src/ipc1d/barrier.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const bed = (): GranularSystem =>
  new World().addGranularParticles({ positions: [[0, 0, 0.1], [0.1, 0, 0.1]], radii: 0.02 });

/** A snapshot of a system's observable state. */
const snapshot = (g: GranularSystem) => ({
  count: g.count,
  positions: Array.from(g.positions),
  velocities: Array.from(g.velocities),
  radii: Array.from(g.radii),
  ids: Array.from(g.ids),
});

const box = { min: [0, 0, 0], max: [0.1, 0.1, 0.1], spacing: 0.025, maxParticles: 4 };

describe("unknown option keys throw naming the key and the nearest valid one", () => {
  const cases: [string, () => unknown, RegExp][] = [
    [
      "World options",
      () => new World({ timeStp: 1e-5 } as Any),
      /World: unknown option "timeStp" in options; did you mean "timeStep"\?/,
    ],
    [
      "material",
      () =>
        new World().addGranularParticles(
          { positions: [[0, 0, 0]], radii: 1 },
          { frction: 0.5 } as Any,
        ),
      /unknown option "frction" in material; did you mean "friction"\?/,
    ],
    [
      "particle set",
      () =>
        new World().addGranularParticles(
          { positions: [[0, 0, 0]], radii: 1, velocites: [[1, 0, 0]] } as Any,
        ),
      /addGranularParticles: unknown option "velocites" in particles; did you mean "velocities"\?/,
    ],
    [
      "granular box",
      () =>
        new World().addGranularBox(
          { min: [0, 0, 0], max: [1, 1, 1], radius: 0.1, spacng: 0.3 } as Any,
        ),
      /addGranularBox: unknown option "spacng" in box; did you mean "spacing"\?/,
    ],
    [
      "particle material",
      () => bed().setParticleMaterial(1, { frction: 0.5 } as Any),
      /setParticleMaterial: unknown option "frction" in material; did you mean "friction"\?/,
    ],
    [
      "boundary material",
      () => bed().setBoundaryMaterial({ friction: 0.5, rollingFrction: 0 } as Any),
      /did you mean "rollingFriction"\?/,
    ],
    [
      "addParticle",
      () => bed().addParticle({ position: [0, 0, 0], radius: 0.01, velocty: [0, 0, 1] } as Any),
      /addParticle: unknown option "velocty" in options; did you mean "velocity"\?/,
    ],
    [
      "emitBox",
      () => bed().emitBox({ ...box, radus: 0.01 } as Any),
      /emitBox: unknown option "radus" in options; did you mean "radius"\?/,
    ],
    [
      "emitBoxRandom",
      () => bed().emitBoxRandom({ ...box, minRadius: 0.005, maxRadus: 0.01, seed: 1 } as Any),
      /emitBoxRandom: unknown option "maxRadus" in options; did you mean "maxRadius"\?/,
    ],
    [
      "setGroundPlane",
      () => bed().setGroundPlane(0, { enable: false } as Any),
      /setGroundPlane: unknown option "enable" in options; did you mean "enabled"\?/,
    ],
    [
      "setContainerBox",
      () => bed().setContainerBox([0, 0, 0], [1, 1, 1], { enabld: false } as Any),
      /did you mean "enabled"\?/,
    ],
    [
      "setPeriodicBoundary",
      () => bed().setPeriodicBoundary([0, 0, 0], [1, 1, 1], { xx: true } as Any),
      /setPeriodicBoundary: unknown option "xx" in axes; did you mean "x"\?/,
    ],
    [
      "simulateBar",
      () => simulateBar({ element: 5 } as Any),
      /simulateBar: unknown option "element" in options; did you mean "elements"\?/,
    ],
    [
      "simulateBar bar",
      () => simulateBar({ bar: { lenght: 5 } } as Any),
      /simulateBar: unknown option "lenght" in bar; did you mean "length"\?/,
    ],
    [
      "simulateBar contact",
      () => simulateBar({ contact: { kind: "dem", stifness: 1e5 } } as Any),
      /unknown option "stifness" in contact; did you mean "stiffness"\?/,
    ],
    [
      "simulateBar contact key of another kind",
      () => simulateBar({ contact: { kind: "penalty", dHat: 0.1 } } as Any),
      /unknown option "dHat" in contact/,
    ],
    [
      "simulateBar integrator",
      () => simulateBar({ integrator: { kind: "newmark", bta: 0.3 } } as Any),
      /unknown option "bta" in integrator; did you mean "beta"\?/,
    ],
    [
      "simulateBar newton",
      () => simulateBar({ newton: { tolerence: 1e-8 } } as Any),
      /unknown option "tolerence" in newton; did you mean "tolerance"\?/,
    ],
    [
      "integrateImplicit",
      () => integrateImplicit({ elements: 5, timeStep: 1e-3, steps: 1, maxIteration: 5 } as Any),
      /integrateImplicit: unknown option "maxIteration" in options; did you mean "maxIterations"\?/,
    ],
    [
      "integrateDem",
      () => integrateDem({ elements: 5, tEnd: 0.1, stiffness: 1e4, dampng: 0 } as Any),
      /integrateDem: unknown option "dampng" in options; did you mean "damping"\?/,
    ],
    [
      "ipcPotential",
      () => ipcPotential({ kappa: 90, dhat: 0.1 } as Any),
      /ipcPotential: unknown option "dhat" in options; did you mean "dHat"\?/,
    ],
    [
      "penaltyPotential",
      () => penaltyPotential({ stifness: 1e4 } as Any),
      /penaltyPotential: unknown option "stifness" in options; did you mean "stiffness"\?/,
    ],
    [
      "resolutionRatio",
      () => resolutionRatio({ kappa: 90, dHat: 0.1, dx: 0.1, presure: 300 } as Any),
      /did you mean "pressure"\?/,
    ],
    [
      "characteristicLattice",
      () => characteristicLattice({ cell: 10 } as Any),
      /characteristicLattice: unknown option "cell" in options; did you mean "cells"\?/,
    ],
    [
      "contactIntervals",
      () =>
        contactIntervals({ time: new Float64Array(1), contactForce: new Float64Array(1) }, {
          treshold: 1,
        } as Any),
      /did you mean "threshold"\?/,
    ],
    [
      "compareBar case",
      () => compareBar({ cases: [{ contact: { kind: "none" }, option: {} }] } as Any),
      /compareBar: unknown option "option" in cases\[0\]; did you mean "options"\?/,
    ],
    [
      "compareBar contact (per case)",
      () => compareBar({ contact: { kind: "ipc" } } as Any),
      /compareBar: unknown option "contact" in options/,
    ],
    [
      "convergenceStudy",
      () => convergenceStudy({ mesh: [10, 20] } as Any),
      /convergenceStudy: unknown option "mesh" in options; did you mean "meshes"\?/,
    ],
    [
      "StarShape",
      () => new StarShape({ lutsize: 1000 } as Any),
      /StarShape: unknown option "lutsize" in options; did you mean "lutSize"\?/,
    ],
    [
      "StarShape.preset",
      () => StarShape.preset("cross", { rmax: 0.01 } as Any),
      /StarShape.preset: unknown option "rmax" in options; did you mean "rMax"\?/,
    ],
    [
      "StarShape.random",
      () => StarShape.random(1, { node: 50 } as Any),
      /did you mean "nodes"\?/,
    ],
    [
      "Walls.addPlane",
      () => new Walls().addPlane({ point: [0, 0], normal: [0, 1], fricton: 0.3 } as Any),
      /Walls.addPlane: unknown option "fricton" in options; did you mean "friction"\?/,
    ],
    [
      "Walls.addSegment",
      () => new Walls().addSegment({ from: [0, 0], to: [1, 0], thicknes: 0.01 } as Any),
      /did you mean "thickness"\?/,
    ],
    [
      "Walls.addDrum",
      () => new Walls().addDrum({ center: [0, 0], radius: 1 } as Any),
      /Walls.addDrum: unknown option "center" in options; did you mean "centre"\?/,
    ],
    [
      "Walls.addBox",
      () => new Walls().addBox({ min: [0, 0], max: [1, 1], opentop: false } as Any),
      /did you mean "openTop"\?/,
    ],
    [
      "scene",
      () => packingScene({ cout: 5 } as Any),
      /packingScene: unknown option "cout" in options; did you mean "count"\?/,
    ],
  ];
  for (const [name, fn, msg] of cases) {
    it(name, () => {
      expect(fn).toThrow(RangeError);
      expect(fn).toThrow(msg);
    });
  }
});

describe("null where an options object is expected throws a TypeError naming the parameter", () => {
  const p = { positions: [[0, 0, 0]], radii: 1 };
  const cases: [string, () => unknown, RegExp][] = [
    ["World", () => new World(null as Any), /World: options \(null\)/],
    ["particle set", () => new World().addGranularParticles(null as Any), /particles \(null\)/],
    ["material", () => new World().addGranularParticles(p, null as Any), /material \(null\)/],
    ["granular box", () => new World().addGranularBox(null as Any), /addGranularBox: box \(null\)/],
    [
      "box material",
      () => new World().addGranularBox({ ...box, radius: 0.01 } as Any, null as Any),
      /material \(null\)/,
    ],
    ["addParticle", () => bed().addParticle(null as Any), /addParticle: options \(null\)/],
    ["addParticle undefined", () => bed().addParticle(undefined as Any), /addParticle: options/],
    ["emitBox", () => bed().emitBox(null as Any), /emitBox: options \(null\)/],
    ["emitBoxRandom", () => bed().emitBoxRandom(null as Any), /emitBoxRandom: options \(null\)/],
    ["particle material", () => bed().setParticleMaterial(1, null as Any), /material \(null\)/],
    ["boundary material", () => bed().setBoundaryMaterial(null as Any), /material \(null\)/],
    [
      "ground plane",
      () => bed().setGroundPlane(0, null as Any),
      /setGroundPlane: options \(null\)/,
    ],
    [
      "container",
      () => bed().setContainerBox([0, 0, 0], [1, 1, 1], null as Any),
      /options \(null\)/,
    ],
    [
      "periodic axes",
      () => bed().setPeriodicBoundary([0, 0, 0], [1, 1, 1], null as Any),
      /axes \(null\)/,
    ],
    ["simulateBar", () => simulateBar(null as Any), /simulateBar: options \(null\)/],
    ["simulateBar bar", () => simulateBar({ bar: null } as Any), /simulateBar: bar \(null\)/],
    ["simulateBar contact", () => simulateBar({ contact: null } as Any), /contact \(null\)/],
    [
      "simulateBar integrator",
      () => simulateBar({ integrator: null } as Any),
      /integrator \(null\)/,
    ],
    ["simulateBar newton", () => simulateBar({ newton: null } as Any), /newton \(null\)/],
    [
      "integrateImplicit",
      () => integrateImplicit(null as Any),
      /integrateImplicit: options \(null\)/,
    ],
    [
      "integrateImplicit integrator",
      () => integrateImplicit({ elements: 5, timeStep: 1e-3, steps: 1, integrator: null } as Any),
      /integrator \(null\)/,
    ],
    ["integrateDem", () => integrateDem(null as Any), /integrateDem: options \(null\)/],
    ["ipcPotential", () => ipcPotential(null as Any), /ipcPotential: options \(null\)/],
    ["penaltyPotential", () => penaltyPotential(null as Any), /options \(null\)/],
    ["resolutionRatio", () => resolutionRatio(null as Any), /options \(null\)/],
    ["characteristicLattice", () => characteristicLattice(null as Any), /options \(null\)/],
    ["barMatrices bar", () => barMatrices(10, null as Any), /barMatrices: bar \(null\)/],
    ["compareBar cases", () => compareBar({ cases: null } as Any), /cases \(null\)/],
    ["compareBar case", () => compareBar({ cases: [null] } as Any), /cases\[0\] \(null\)/],
    [
      "compareBar case options",
      () => compareBar({ cases: [{ contact: { kind: "none" }, options: null }] } as Any),
      /cases\[0\].options \(null\)/,
    ],
    ["StarShape", () => new StarShape(null as Any), /StarShape: options \(null\)/],
    [
      "StarShape coefficients",
      () => new StarShape({ cos: null } as Any),
      /StarShape: cos \(null\)/,
    ],
    ["StarShape.preset", () => StarShape.preset("cross", null as Any), /options \(null\)/],
    ["StarShape.random", () => StarShape.random(1, null as Any), /options \(null\)/],
    ["Walls.addPlane", () => new Walls().addPlane(null as Any), /Walls.addPlane: options \(null\)/],
    ["Walls.addSegment", () => new Walls().addSegment(null as Any), /options \(null\)/],
    ["Walls.addDrum", () => new Walls().addDrum(null as Any), /options \(null\)/],
    ["Walls.addBox", () => new Walls().addBox(null as Any), /options \(null\)/],
    ["scene", () => packingScene(null as Any), /packingScene: options \(null\)/],
    ["scene system", () => packingScene({ count: 5, system: null } as Any), /system \(null\)/],
  ];
  for (const [name, fn, msg] of cases) {
    it(name, () => {
      expect(fn).toThrow(TypeError);
      expect(fn).toThrow(msg);
    });
  }

  it("a failed wall call adds no wall", () => {
    const w = new Walls();
    expect(() => w.addBox({ min: [0, 0], max: [1, 1], friction: -1 })).toThrow(/friction/);
    expect(() => w.addBox({ min: [0, 0], max: [1, 1], openTop: "no" as Any })).toThrow(TypeError);
    expect(w.count).toBe(0);
  });
});

describe("StarShape.preset accepts only its own presets", () => {
  for (const name of ["toString", "__proto__", "constructor", "hasOwnProperty", "valueOf"]) {
    it(JSON.stringify(name), () => {
      expect(() => StarShape.preset(name as Any)).toThrow(RangeError);
      expect(() => StarShape.preset(name as Any)).toThrow(
        /name \(.*\) must be one of circle, cross/,
      );
    });
  }
  it("suggests the nearest preset", () => {
    expect(() => StarShape.preset("flowr" as Any)).toThrow(/did you mean "flower"\?/);
  });
  it("the scenes reject them too", () => {
    expect(() => packingScene({ shape: "toString" as Any, count: 5 })).toThrow(RangeError);
  });
});

describe("absurd sizes throw stating what they would need, before allocating", () => {
  const km = { min: [0, 0, 0], max: [1e4, 1e4, 1e4], spacing: 0.001 };

  it("addGranularBox: a 10 km box of 1 mm grains", () => {
    const w = new World();
    const f = () => w.addGranularBox({ ...km, radius: 0.0005 });
    expect(f).toThrow(RangeError);
    expect(f).toThrow(
      /addGranularBox: 1\.00e\+21 particles \(10000000 × 10000000 × 10000000 sites at spacing 0\.001 m\) would need [\d.]+ EiB \(limit 8\.0 GiB\)/,
    );
    expect(w.systems.length).toBe(0);
  });

  it("emitBox and emitBoxRandom: the count is computed before allocating", () => {
    const g = bed();
    const before = snapshot(g);
    const n = 2 ** 31 - 1;
    expect(() => g.emitBox({ ...km, radius: 0.0005, maxParticles: n })).toThrow(
      /emitBox: 2147483647 particles \(.* capped by maxParticles\) would need [\d.]+ TiB \(limit/,
    );
    expect(() =>
      g.emitBoxRandom({ ...km, minRadius: 0.0004, maxRadius: 0.0005, maxParticles: n, seed: 1 })
    ).toThrow(/emitBoxRandom: 2147483647 particles .* would need [\d.]+ TiB/);
    expect(snapshot(g)).toEqual(before);
    expect(g.emitBox({ ...box, radius: 0.01 })).toBe(4);
  });

  it("reserveParticles(2**31 - 1)", () => {
    const g = bed();
    const before = snapshot(g);
    expect(() => g.reserveParticles(2 ** 31 - 1)).toThrow(
      /reserveParticles: room for 2147483647 particles \(capacity 2147483648\) would need [\d.]+ TiB \(limit 8\.0 GiB\)/,
    );
    expect(snapshot(g)).toEqual(before);
    g.addParticle({ position: [0, 0, 1], radius: 0.02 });
    expect(g.count).toBe(3);
  });

  it("StarShape lutSize 1e9", () => {
    expect(() => new StarShape({ lutSize: 1e9 })).toThrow(
      /StarShape: lookup tables of lutSize 1000000000 samples would need 22\.4 GiB \(limit 1\.0 GiB\)/,
    );
    expect(() => StarShape.preset("cross", { lutSize: 1e9 })).toThrow(/22\.4 GiB/);
  });

  it("simulateBar with 1e7 elements states the steps and the work", () => {
    const t0 = performance.now();
    expect(() => simulateBar({ elements: 1e7 })).toThrow(
      /simulateBar: a run of 120000000 time steps on 10000000 elements would need [\d.]+ GiB/,
    );
    expect(() => simulateBar({ elements: 1e7, tEnd: 0.01 })).toThrow(
      /simulateBar: a run of 600000 time steps on 10000000 elements would take about 6\.0e\+12 updates \(limit 1\.0e\+11\)/,
    );
    expect(() => simulateBar({ elements: 1e7, contact: { kind: "dem" } })).toThrow(
      /simulateBar: a run of [\d.e+]+ time steps on 10000000 elements would (need|take)/,
    );
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it("the lower-level bar runs are guarded too", () => {
    expect(() => integrateImplicit({ elements: 10, timeStep: 1e-9, steps: 1e10 })).toThrow(
      /integrateImplicit: a run of 1\.00e\+10 time steps on 10 elements would need/,
    );
    expect(() => integrateDem({ elements: 1e6, tEnd: 2, stiffness: 1e5 })).toThrow(
      /integrateDem: a run of [\d.e+]+ time steps on 1000000 elements/,
    );
    expect(() => characteristicLattice({ cells: 1e7 })).toThrow(
      /characteristicLattice: a run of [\d.e+]+ time steps on 10000000 elements/,
    );
    expect(() => barMatrices(1e10)).toThrow(/barMatrices: the matrices of 10000000000 elements/);
  });
});

describe("a failed reserve leaves the system unchanged and usable", () => {
  it("an allocation failure in the history table does not grow the particle columns", () => {
    const world = new World({ timeStep: 1e-4 });
    const g = world.addGranularParticles({ positions: [[0, 0, 0.0199]], radii: 0.02 });
    g.setGroundPlane(0);
    world.step();
    const before = snapshot(g);
    const histories = g.contactHistories().owner.length;
    const prepare = HistoryTable.prototype.prepare;
    HistoryTable.prototype.prepare = () => {
      throw new RangeError("injected: out of memory");
    };
    try {
      expect(() => g.reserveParticles(1000)).toThrow("injected");
      expect(() =>
        g.emitBox({ ...box, min: [1, 1, 1], max: [2, 2, 2], radius: 0.01, maxParticles: 100 })
      )
        .toThrow("injected");
    } finally {
      HistoryTable.prototype.prepare = prepare;
    }
    expect(snapshot(g)).toEqual(before);
    expect(g.contactHistories().owner.length).toBe(histories);
    // usable afterwards: particles can be added past the old capacity and stepped
    for (let k = 0; k < 40; k++) {
      g.addParticle({ position: [0.05 * (k + 1), 0, 0.0199], radius: 0.02 });
    }
    expect(g.emitBox({ ...box, min: [1, 1, 1], max: [2, 2, 2], radius: 0.01 })).toBe(4);
    world.run(5);
    expect(g.count).toBe(45);
    expect(g.positions.every(Number.isFinite)).toBe(true);
    expect(g.lastStepStats.boundaryContacts).toBeGreaterThan(0);
  });

  it("ParticleStore refuses more than 2^29 slots (the force loops' index masks)", () => {
    const ps = new ParticleStore();
    ps.reserve(10);
    expect(() => ps.reserve(2 ** 29 + 1)).toThrow(RangeError);
    expect(() => ps.reserve(2 ** 29 + 1)).toThrow("capacity (1073741824) must be at most");
    expect(ps.capacity).toBe(16);
  });

  it("ParticleStore.reserve swaps in nothing when an allocation fails midway", () => {
    const ps = new ParticleStore();
    ps.reserve(10);
    ps.pos[0] = 42;
    const lengths =
      () => [ps.capacity, ps.pos.length, ps.vel.length, ps.radius.length, ps.id.length];
    const before = lengths();
    const Real = globalThis.Float64Array;
    let calls = 0;
    globalThis.Float64Array = new Proxy(Real, {
      construct(target, args) {
        if (++calls === 5) throw new RangeError("injected: out of memory");
        return Reflect.construct(target, args);
      },
    });
    try {
      expect(() => ps.reserve(100)).toThrow("injected");
    } finally {
      globalThis.Float64Array = Real;
    }
    expect(lengths()).toEqual(before);
    expect(ps.pos[0]).toBe(42);
    ps.reserve(100);
    expect(ps.pos.length).toBe(3 * 128);
    expect(ps.pos[0]).toBe(42);
  });

  it("HistoryTable.reserve swaps in nothing when an allocation fails midway", () => {
    const h = new HistoryTable();
    h.reserve(10);
    h.find(0, 7, 1);
    const Real = globalThis.Float64Array;
    globalThis.Float64Array = new Proxy(Real, {
      construct() {
        throw new RangeError("injected: out of memory");
      },
    });
    try {
      expect(() => h.reserve(100)).toThrow("injected");
    } finally {
      globalThis.Float64Array = Real;
    }
    expect([h.capacity, h.used.length, h.partner.length, h.xi.length]).toEqual([16, 16, 128, 384]);
    expect(h.find(0, 7, 2)).toBe(0);
  });
});

describe("GranularSystem.step validates dt and gravity before touching the state", () => {
  const cases: [string, number, unknown, RegExp][] = [
    ["negative dt", -0.5, [0, 0, -9.81], /GranularSystem.step: dt \(-0.5\) must be > 0/],
    ["zero dt", 0, [0, 0, -9.81], /dt \(0\) must be > 0/],
    ["NaN dt", NaN, [0, 0, -9.81], /dt \(NaN\) must be a finite number/],
    ["infinite dt", Infinity, [0, 0, -9.81], /dt \(Infinity\) must be a finite number/],
    ["string dt", "0.1" as Any, [0, 0, -9.81], /dt \(0.1\) must be a number/],
    ["short gravity", 1e-3, [0, -9.81], /gravity \(length 2\) must have exactly 3 components/],
    ["NaN gravity", 1e-3, [0, NaN, -9.81], /gravity\[1\] \(NaN\) must be a finite number/],
    ["null gravity", 1e-3, null, /gravity \(null\) must be an array of 3 numbers/],
  ];
  for (const [name, dt, gravity, msg] of cases) {
    it(name, () => {
      const g = bed();
      g.setVelocity(0, [0.1, 0, -1]);
      const before = snapshot(g);
      const steps = g.stepCount;
      expect(() => g.step(dt, gravity as Any)).toThrow(msg);
      expect(snapshot(g)).toEqual(before);
      expect(g.stepCount).toBe(steps);
    });
  }

  it("a valid step still runs", () => {
    const g = bed();
    // 5e-4 s: at 1e-3 s the default dashpot (20 N·s/m) on 2 cm grains is beyond the damped
    // contact's stability bound (8.6e-4 s), which the step refuses (#29)
    g.step(5e-4, new Float64Array([0, 0, -9.81]));
    expect(g.stepCount).toBe(1);
    expect(g.velocities[2]).toBeLessThan(0);
  });
});

describe("add and emit validate every input before mutating", () => {
  it("a bad field anywhere leaves the system unchanged", () => {
    const g = bed();
    const before = snapshot(g);
    const bad: (() => unknown)[] = [
      () => g.addParticle({ position: [0, 0, 0], radius: 0.01, fixed: "yes" as Any }),
      () => g.addParticle({ position: [0, 0, 0], radius: 0.01, materialId: 1e6 }),
      () => g.emitBox({ ...box, radius: 0.01, velocity: [0, NaN, 0] }),
      () => g.emitBox({ ...box, radius: 0.01, fixed: 1 as Any }),
      () => g.emitBoxRandom({ ...box, minRadius: 0.005, maxRadius: 0.01, seed: NaN }),
      () => g.emitBoxRandom({ ...box, minRadius: 0.005, maxRadius: 0.01, seed: 1, materialId: -1 }),
    ];
    for (const f of bad) expect(f).toThrow();
    expect(snapshot(g)).toEqual(before);
  });
});
