import { describe, it } from "node:test";
import { expect } from "expect";
import {
  barTable,
  contactsTable,
  particlesTable,
  StatsRecorder,
  statsTable,
} from "../src/arrow/mod.ts";
import { fakeSystem2d, fakeSystem3d } from "./arrow_fixtures.ts";

describe("particlesTable", () => {
  it("de-interleaves 3D positions and velocities and computes speed", () => {
    const t = particlesTable(fakeSystem3d(), { time: 0.25, step: 5 });
    expect(t.numRows).toBe(3);
    expect(Array.from(t.getChild("x")!.toArray())).toEqual([0, 0.02, 0.5]);
    expect(Array.from(t.getChild("z")!.toArray())).toEqual([0.01, 0.01, 0.3]);
    expect(Array.from(t.getChild("vz")!.toArray())).toEqual([2, -1, 0]);
    expect(t.getChild("speed")!.get(0)).toBeCloseTo(3, 12);
    expect(Array.from(t.getChild("id")!.toArray())).toEqual([10, 11, 12]);
    expect(Array.from(t.getChild("wz")!.toArray())).toEqual([0, 2, 0]);
    expect(t.getChild("fixed")!.get(1)).toBe(true);
    expect(t.getChild("fixed")!.get(0)).toBe(false);
    expect(String(t.schema.fields.find((f) => f.name === "materialId")!.type)).toBe("Uint16");
  });

  it("puts unit and description on every column and grainlab metadata on the schema", () => {
    const t = particlesTable(fakeSystem3d(), { world: { time: 0.5, stepCount: 7 } });
    for (const f of t.schema.fields) {
      expect(f.metadata.has("unit")).toBe(true);
      expect(f.metadata.get("description")!.length).toBeGreaterThan(3);
    }
    const m = t.schema.metadata;
    expect(m.get("grainlab.time")).toBe("0.5");
    expect(m.get("grainlab.step")).toBe("7");
    expect(m.get("grainlab.simulator")).toBe("sphere3d");
    expect(JSON.parse(m.get("grainlab.material")!).density).toBe(2500);
    for (const k of m.keys()) expect(k.startsWith("ARROW:")).toBe(false);
    expect(t.schema.fields.find((f) => f.name === "vx")!.metadata.get("unit")).toBe("m/s");
  });

  it("shares memory for radius unless copy is set", () => {
    const s = fakeSystem3d();
    const view = particlesTable(s);
    const snap = particlesTable(s, { copy: true });
    (s.radii as Float64Array)[0] = 0.05;
    expect(view.getChild("radius")!.get(0)).toBe(0.05);
    expect(snap.getChild("radius")!.get(0)).toBe(0.01);
  });

  it("writes angle and angularVelocity for 2D star grains", () => {
    const t = particlesTable(fakeSystem2d());
    expect(t.schema.fields.map((f) => f.name)).toEqual([
      "id",
      "x",
      "y",
      "vx",
      "vy",
      "speed",
      "radius",
      "mass",
      "materialId",
      "fixed",
      "angle",
      "angularVelocity",
    ]);
    expect(t.getChild("speed")!.get(0)).toBe(5);
    expect(t.getChild("angularVelocity")!.get(1)).toBe(-0.5);
    expect(t.schema.metadata.get("grainlab.simulator")).toBe("star2d");
  });

  it("rejects malformed systems with a named error", () => {
    expect(() => particlesTable(null as never)).toThrow(TypeError);
    expect(() => particlesTable({ count: 2, positions: [0, 0, 0], velocities: [] })).toThrow(
      /positions has 3 values/,
    );
    expect(() => particlesTable({ count: -1, positions: [], velocities: [] })).toThrow(
      RangeError,
    );
  });
});

describe("contactsTable", () => {
  it("maps slots to stable ids and kinds to a dictionary", () => {
    const t = contactsTable(fakeSystem3d());
    expect(t.numRows).toBe(2);
    expect(Array.from(t.getChild("i")!.toArray())).toEqual([10, 12]);
    expect(Array.from(t.getChild("j")!.toArray())).toEqual([11, -1]);
    expect([...t.getChild("kind")!]).toEqual(["particle", "ground"]);
    expect(String(t.schema.fields.find((f) => f.name === "kind")!.type)).toMatch(/Dictionary/);
    expect(t.getChild("normalForce")!.get(0)).toBe(2);
    expect(t.getChild("nz")!.get(1)).toBe(1);
    expect(t.getChild("ty")!.get(0)).toBe(0.1);
    expect(t.schema.fields.find((f) => f.name === "normalForce")!.metadata.get("unit")).toBe("N");
  });

  it("writes the 2D tangential force as a vector (tx, ty)", () => {
    const t = contactsTable(fakeSystem2d());
    expect(t.getChild("tx")!.get(0)).toBe(0.5);
    expect(t.getChild("ty")!.get(0)).toBe(-0.25);
    expect(t.getChild("py")!.get(0)).toBe(2);
  });

  it("rejects out-of-range slots and unknown kinds", () => {
    const s = fakeSystem3d();
    (s.contacts!.i as Int32Array)[0] = 5;
    expect(() => contactsTable(s)).toThrow(/contacts.i\[0\] is 5/);
    const s2 = fakeSystem3d();
    (s2.contacts!.kind as Uint8Array)[1] = 9;
    expect(() => contactsTable(s2)).toThrow(/kind code 9/);
    expect(() => contactsTable({ count: 0, positions: [], velocities: [] })).toThrow(TypeError);
  });
});

describe("statsTable", () => {
  it("has one row per entry, a column per counter, NaN where missing", () => {
    const rec = new StatsRecorder();
    rec.record({ time: 0.001, stepCount: 1 }, { lastStepStats: { particleContacts: 2 } });
    rec.record({ time: 0.002, stepCount: 2 }, {
      lastStepStats: { particleContacts: 4, maxPenetration: 3e-6 },
    }, { kineticEnergy: 0.5 });
    const t = statsTable(rec.entries);
    expect(t.numRows).toBe(2);
    expect(Array.from(t.getChild("time")!.toArray())).toEqual([0.001, 0.002]);
    expect(Array.from(t.getChild("particleContacts")!.toArray())).toEqual([2, 4]);
    expect(Number.isNaN(t.getChild("maxPenetration")!.get(0))).toBe(true);
    expect(t.schema.fields.find((f) => f.name === "maxPenetration")!.metadata.get("unit")).toBe(
      "m",
    );
    expect(t.schema.fields.find((f) => f.name === "kineticEnergy")!.metadata.get("unit")).toBe(
      "J",
    );
    expect(() => statsTable("x" as never)).toThrow(TypeError);
  });
});

describe("barTable", () => {
  it("turns equal-length numeric arrays into columns and scalars into metadata", () => {
    const t = barTable({
      time: new Float64Array([0, 0.5, 1]),
      endPosition: [5, 2.5, 0],
      contactForce: new Float64Array([0, 0, 10]),
      method: "ipc",
      dt: 0.5,
      short: [1],
    });
    expect(t.schema.fields.map((f) => f.name)).toEqual(["time", "endPosition", "contactForce"]);
    expect(t.getChild("contactForce")!.get(2)).toBe(10);
    expect(t.schema.metadata.get("grainlab.run.method")).toBe("ipc");
    expect(t.schema.metadata.get("grainlab.run.dt")).toBe("0.5");
    expect(t.schema.metadata.get("grainlab.simulator")).toBe("ipc1d");
    expect(() => barTable({} as never)).toThrow(TypeError);
  });
});
