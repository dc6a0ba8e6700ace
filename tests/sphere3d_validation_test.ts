import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";

const one = () =>
  new World().addGranularParticles({ positions: [[0, 0, 0], [1, 0, 0]], radii: 0.1 });

describe("sphere3d: bad input throws a clear error and changes nothing", () => {
  const cases: [string, () => unknown, RegExp][] = [
    [
      "empty particle set",
      () => new World().addGranularParticles({ positions: [], radii: 0.1 }),
      /positions \(empty\)/,
    ],
    [
      "mismatched radii",
      () => new World().addGranularParticles({ positions: [[0, 0, 0]], radii: [1, 2] }),
      /radii \(length 2\) must match positions \(1\)/,
    ],
    [
      "flat positions not a multiple of 3",
      () => new World().addGranularParticles({ positions: [0, 0], radii: 1 }),
      /multiple of 3/,
    ],
    [
      "non-positive radius",
      () => new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0 }),
      /radii \(0\) must be > 0/,
    ],
    [
      "NaN position",
      () => new World().addGranularParticles({ positions: [[0, NaN, 0]], radii: 1 }),
      /positions\[0\]\[1\] \(NaN\) must be a finite number/,
    ],
    [
      "infinite radius",
      () => new World().addGranularParticles({ positions: [[0, 0, 0]], radii: [Infinity] }),
      /radii\[0\] \(Infinity\) must be a finite number/,
    ],
    [
      "non-positive density",
      () => new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 1 }, { density: 0 }),
      /density \(0\) must be > 0/,
    ],
    [
      "negative stiffness",
      () =>
        new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 1 }, {
          normalStiffness: -1,
        }),
      /normalStiffness \(-1\) must be >= 0/,
    ],
    [
      "negative damping",
      () =>
        new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 1 }, {
          tangentialDamping: -2,
        }),
      /tangentialDamping \(-2\) must be >= 0/,
    ],
    [
      "negative friction",
      () =>
        new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 1 }, { friction: -0.1 }),
      /friction \(-0.1\) must be >= 0/,
    ],
    [
      "zero substeps",
      () => new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 1 }, { substeps: 0 }),
      /substeps \(0\) must be an integer in \[1/,
    ],
    [
      "fractional substeps",
      () =>
        new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 1 }, { substeps: 1.5 }),
      /substeps \(1.5\)/,
    ],
    [
      "unknown contact model",
      () =>
        new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 1 }, {
          normalContactModel: "dmt" as "linear",
        }),
      /normalContactModel \(dmt\)/,
    ],
    [
      "unknown material field",
      () =>
        new World().addGranularParticles(
          { positions: [[0, 0, 0]], radii: 1 },
          { frction: 1 } as never,
        ),
      /addGranularParticles: unknown option "frction" in material; did you mean "friction"\?/,
    ],
    [
      "box min >= max",
      () =>
        new World().addGranularBox({ min: [0, 0, 1], max: [1, 1, 1], radius: 0.1, spacing: 0.3 }),
      /min\[2\] \(1\) must be < max\[2\] \(1\)/,
    ],
    [
      "box too small",
      () =>
        new World().addGranularBox({ min: [0, 0, 0], max: [0.1, 1, 1], radius: 0.1, spacing: 0.3 }),
      /holds no sphere/,
    ],
    ["time step", () => new World({ timeStep: -1 }), /timeStep \(-1\) must be > 0/],
    ["gravity length", () => new World({ gravity: [0, 0] }), /gravity \(length 2\)/],
    [
      "index out of range",
      () => one().setVelocity(2, [0, 0, 0]),
      /setVelocity: index \(2\) must be an integer in \[0, 1\]/,
    ],
    ["negative index", () => one().removeParticle(-1), /removeParticle: index \(-1\)/],
    [
      "material id above 65535",
      () => one().setParticleMaterialId(0, 65536),
      /materialId \(65536\) must be an integer in \[0, 65535\]/,
    ],
    [
      "particle material id above 65535",
      () => one().setParticleMaterial(70000, { friction: 1 }),
      /id \(70000\)/,
    ],
    [
      "negative particle friction",
      () => one().setParticleMaterial(1, { friction: -1 }),
      /friction \(-1\) must be >= 0/,
    ],
    [
      "negative boundary rolling friction",
      () => one().setBoundaryMaterial({ friction: 1, rollingFriction: -1 }),
      /rollingFriction \(-1\)/,
    ],
    [
      "container min >= max",
      () => one().setContainerBox([0, 0, 0], [1, -1, 1]),
      /min\[1\] \(0\) must be < max\[1\] \(-1\)/,
    ],
    [
      "periodic min >= max on a disabled axis",
      () => one().setPeriodicBoundary([0, 0, 0], [1, 1, 0], { x: true }),
      /min\[2\] \(0\) must be < max\[2\] \(0\)/,
    ],
    [
      "emitBoxRandom spacing",
      () =>
        one().emitBoxRandom({
          min: [0, 0, 0],
          max: [1, 1, 1],
          minRadius: 0.01,
          maxRadius: 0.02,
          spacing: 0.03,
          maxParticles: 5,
          seed: 1,
        }),
      /spacing \(0.03\) must be >= 2 \* maxRadius \(0.04\)/,
    ],
    [
      "emitBoxRandom radius order",
      () =>
        one().emitBoxRandom({
          min: [0, 0, 0],
          max: [1, 1, 1],
          minRadius: 0.02,
          maxRadius: 0.01,
          spacing: 0.1,
          maxParticles: 5,
          seed: 1,
        }),
      /maxRadius \(0.01\) must be >= minRadius \(0.02\)/,
    ],
    [
      "emitBox negative count",
      () =>
        one().emitBox({
          min: [0, 0, 0],
          max: [1, 1, 1],
          radius: 0.01,
          spacing: 0.1,
          maxParticles: -1,
        }),
      /maxParticles \(-1\)/,
    ],
    [
      "addParticle NaN velocity",
      () => one().addParticle({ position: [0, 0, 0], radius: 1, velocity: [NaN, 0, 0] }),
      /velocity\[0\] \(NaN\)/,
    ],
    [
      "external force infinite",
      () => one().setExternalForce(0, [0, Infinity, 0]),
      /force\[1\] \(Infinity\)/,
    ],
    ["run steps", () => new World().run(-3), /steps \(-3\)/],
  ];
  for (const [name, fn, msg] of cases) {
    it(name, () => {
      expect(fn).toThrow(msg);
    });
  }

  it("a failed call leaves the system unchanged", () => {
    const g = one();
    const before = [g.count, Array.from(g.positions), Array.from(g.radii)];
    expect(() =>
      g.emitBoxRandom({
        min: [0, 0, 0],
        max: [1, 1, 1],
        minRadius: 0.01,
        maxRadius: 0.02,
        spacing: 0.03,
        maxParticles: 5,
        seed: 1,
      })
    ).toThrow();
    expect(() => g.addParticle({ position: [0, 0, 0], radius: -1 })).toThrow();
    expect(() => g.setParticleMaterialId(0, 1e6)).toThrow();
    expect([g.count, Array.from(g.positions), Array.from(g.radii)]).toEqual(before);
    expect(g.materialIds[0]).toBe(0);
  });

  it("a step that blows up names the first bad particle instead of spreading NaN", () => {
    const w = new World({ timeStep: 1e-2, gravity: [0, 0, 0] });
    const g = w.addGranularParticles({ positions: [[0, 0, 0], [0.0001, 0, 0]], radii: 0.02 }, {
      normalStiffness: 1e308,
    });
    expect(() => w.run(10)).toThrow(/particle \d \(id \d\) has a non-finite state after step 1/);
    expect(g.count).toBe(2);
  });
});
