/**
 * The divergence guard of star2d (issue #29 "Nothing silent"): a run that blows up throws,
 * naming the grain, the step and the cure, and the time step is checked whenever it can change
 * (the setter, a loaded checkpoint); healthy runs are untouched.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { DiskSystem, drumScene, packingScene, StarShape, StarSystem } from "../src/star2d/mod.ts";
import { captureGrainState, encodeGrainState } from "../src/star2d/checkpoint.ts";

const cross = StarShape.preset("cross", { area: 30e-6 });

/** Two crosses resting on a floor (the StarSystem doc example). */
function twoCrosses(options = {}): StarSystem {
  const sys = new StarSystem({ timeStep: 1e-4, normalStiffness: 1000, ...options });
  sys.addGrains({ shape: cross, positions: [[0, 0.006], [0.009, 0.006]], angles: [0, 0.3] });
  sys.walls.addPlane({ point: [0, 0], normal: [0, 1] });
  return sys;
}

/** The largest time step `addGrains` accepts for the cross (bisection). */
function largestAccepted(): number {
  let lo = 1e-6, hi = 1e-2;
  for (let k = 0; k < 50; k++) {
    const mid = Math.sqrt(lo * hi);
    try {
      new StarSystem({ timeStep: mid }).addGrains({ shape: cross, positions: [[0, 0]] });
      lo = mid;
    } catch {
      hi = mid;
    }
  }
  return lo;
}

describe("star2d divergence guard", () => {
  it("raising timeStep after addGrains throws naming the stability bound", () => {
    const sys = twoCrosses();
    expect(() => (sys.timeStep = 0.05)).toThrow(
      /StarSystem.timeStep: timeStep \(0.05 s\) exceeds the stability bound 0.000155 s .* grain 0\); reduce timeStep/,
    );
    expect(sys.timeStep).toBe(1e-4); // unchanged
    sys.timeStep = 5e-5; // below the bound: accepted
    expect(sys.timeStep).toBe(5e-5);
    sys.run(10);
    expect(sys.time).toBeCloseTo(5e-4, 15);
  });

  it("the timeStep setter rejects what is not a positive number", () => {
    const sys = twoCrosses();
    // deno-lint-ignore no-explicit-any
    const s = sys as any;
    expect(() => (s.timeStep = "1e-5")).toThrow(TypeError);
    expect(() => (s.timeStep = undefined)).toThrow(/timeStep \(undefined\) must be a number/);
    expect(() => (s.timeStep = -1e-5)).toThrow(/timeStep \(-0.00001\) must be > 0/);
    expect(() => (s.timeStep = NaN)).toThrow(/must be a finite number/);
    expect(sys.timeStep).toBe(1e-4);
  });

  it("a drum spun at 1e7 rad/s throws at the first step, naming the wall and the cure", () => {
    const scene = drumScene({ count: 20 });
    const w = scene.system.walls;
    for (let k = 0; k < w.count; k++) w.omega[k] = 1e7;
    expect(() => scene.advance(1)).toThrow(
      /StarSystem.step: wall 0 \(a drum spinning at 10000000 rad\/s\) moves its surface at 2.50e\+6 m\/s.*Lower its omega below \S+ rad\/s or timeStep below/,
    );
    expect(scene.system.lastStepStats.maxSpeed).toBeLessThan(1);
  });

  it("a drum at its scene's 5 rad/s runs", () => {
    const scene = drumScene({ count: 20 });
    scene.advance(200);
    expect(scene.system.lastStepStats.step).toBe(200);
  });

  it('contactPoints "all-nodes" at 0.9 × the accepted bound throws before 1e3 m/s', () => {
    const dt = 0.9 * largestAccepted();
    const sys = packingScene({
      count: 100,
      system: { timeStep: dt, contactPoints: "all-nodes" },
    }).system;
    let fastest = 0, error = "";
    try {
      for (let k = 0; k < 2000; k++) {
        sys.step();
        fastest = Math.max(fastest, sys.lastStepStats.maxSpeed);
      }
    } catch (e) {
      error = (e as Error).message;
    }
    expect(error).toMatch(
      /^StarSystem.step: the integration diverged at step \d+: grain \d+ \(id \d+\) moves at .* m\/s, faster than any force in the scene can drive it .*contactPoints "all-nodes".*lower timeStep below \S+ s/,
    );
    expect(fastest).toBeLessThan(1e3); // without the guard: 1e3 m/s, then 1e68 m/s, then NaN
  });

  it("grains placed through each other, or through a wall, throw naming them", () => {
    const disks = new DiskSystem({ gravity: [0, 0] });
    disks.addGrains({ positions: [[0, 0], [0.001, 0]], radius: 0.005 });
    expect(() => disks.step()).toThrow(
      /^DiskSystem.step: the integration diverged at step 1: grain 0 \(id 0\) overlaps grain 1 \(id 1\) by 0.00900 m, more than the smaller bounding radius 0.005 m: the grains passed through each other/,
    );
    const sys = new StarSystem();
    sys.addGrains({ shape: cross, positions: [[0, -0.01]] });
    sys.walls.addPlane({ point: [0, 0], normal: [0, 1] });
    expect(() => sys.step()).toThrow(
      /^StarSystem.step: the integration diverged at step 1: grain 0 \(id 0\) overlaps wall 0 by 0.014\d m, more than its bounding radius .*: it passed through the wall/,
    );
  });

  it("a grain launched by writing its velocity is not mistaken for a divergence", () => {
    const sys = twoCrosses();
    sys.run(100);
    sys.velocities[0] = -30; // 30 m/s sideways: far above what the scene held
    sys.angularVelocities[1] = 500;
    sys.run(20);
    expect(sys.lastStepStats.maxSpeed).toBeGreaterThan(25);
    const disks = new DiskSystem({ gravity: [0, 0] });
    disks.addGrains({ positions: [[0, 0]], radius: 0.005, velocities: [100, 0] });
    disks.run(10);
    expect(disks.positions[0]).toBeCloseTo(0.1, 12);
  });

  it("a wall pushed into a grain at rest is not mistaken for a divergence", () => {
    const s = new DiskSystem({ gravity: [0, 0] });
    s.addGrains({ positions: [[0, 0]], radius: 0.005 });
    s.run(10); // at rest: the scene holds no energy, the bound is 1 mm/s
    s.walls.addPlane({ point: [0, 0.003], normal: [0, -1] }); // 2 mm into the disk
    s.run(10);
    expect(s.velocities[1]).toBeLessThan(-0.5); // pushed down at more than 0.5 m/s
  });

  it("a healthy run is unchanged by the guard (same steps, no error)", () => {
    const sys = twoCrosses();
    sys.run(1000);
    expect(sys.lastStepStats.boundaryContacts).toBe(4);
    expect(sys.lastStepStats.kineticEnergy).toBeLessThan(1e-12);
  });
});

describe("star2d checkpoints: the time step is checked on load", () => {
  it("a checkpoint whose timeStep is far above the stability bound throws and changes nothing", () => {
    const sys = twoCrosses();
    sys.run(10);
    const state = captureGrainState(sys, true);
    state.parameters = { ...state.parameters, timeStep: 0.05 };
    const bytes = encodeGrainState(state);
    const target = new StarSystem();
    expect(() => target.loadStateBytes(bytes, "fast.bin")).toThrow(
      /^StarSystem.loadState: fast.bin: META: parameters: timeStep \(0.05 s\) exceeds the stability bound 0.000155 s .*grain 0/,
    );
    expect(target.count).toBe(0);
    expect(target.timeStep).toBe(1e-4);
    // the same checkpoint at the bound's side loads
    state.parameters = { ...state.parameters, timeStep: 1e-4 };
    target.loadStateBytes(encodeGrainState(state));
    expect(target.count).toBe(2);
  });
});
