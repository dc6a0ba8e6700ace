/**
 * The rigid-body API against mechanics: kinematic targets, external forces at a point,
 * compound and mesh mass properties, meshes from files, body contacts in Arrow tables.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { contactsTable } from "../src/arrow/mod.ts";

describe("rigid-body API", () => {
  it("a kinematic body reaches its target at the end of the step, at constant velocity", async () => {
    const world = await World.create({ timeStep: 1e-3, gravity: [0, 0, -9.81] });
    const plate = world.addBox({ halfExtents: [0.1, 0.1, 0.01], bodyType: "kinematic" });
    plate.setKinematicTarget([0.01, -0.02, 0.005]);
    world.step();
    const p = plate.position;
    expect(p[0]).toBeCloseTo(0.01, 6); // float32 in the engine: ~1e-9 m
    expect(p[1]).toBeCloseTo(-0.02, 6);
    expect(p[2]).toBeCloseTo(0.005, 6);
    world.step(); // the target was for one step: the scripted velocity (zero) is back
    expect(plate.position[0]).toBeCloseTo(0.01, 6);
    // a quarter turn about z in one step
    const s = Math.SQRT1_2;
    plate.setKinematicTarget([0.01, -0.02, 0.005], { orientation: [0, 0, s, s] });
    world.step();
    const q = plate.orientation; // a quarter turn in one step, exactly
    expect(Math.abs(q[2])).toBeCloseTo(s, 5);
    expect(Math.abs(q[3])).toBeCloseTo(s, 5);
    expect(() => world.addSphere({ radius: 0.1 }).setKinematicTarget([0, 0, 0])).toThrow(
      /must be kinematic/,
    );
  });

  it("an external force at a point accelerates and spins a free body as Newton–Euler says", async () => {
    const world = await World.create({ timeStep: 1e-3, gravity: [0, 0, 0] });
    const h = [0.1, 0.05, 0.02], rho = 1000;
    const box = world.addBox({ halfExtents: h as [number, number, number], density: rho });
    const m = 8 * h[0] * h[1] * h[2] * rho;
    const izz = (m / 3) * (h[0] ** 2 + h[1] ** 2);
    box.setExternalForce([0, 1, 0], { point: [0.1, 0, 0] }); // torque 0.1 N·m about z
    world.run(10);
    const t = world.time;
    expect(box.linearVelocity[1]).toBeCloseTo((1 / m) * t, 5);
    expect(box.angularVelocity[2]).toBeCloseTo((0.1 / izz) * t, 3);
    expect(box.mass).toBeCloseTo(m, 4);
  });

  it("a compound's mass is the sum of its children; a mesh read from STL has the box's", async () => {
    const world = await World.create();
    const c = world.addCompound({
      density: 2000,
      children: [
        { shape: "box", halfExtents: [0.1, 0.1, 0.1] },
        { shape: "sphere", radius: 0.05, position: [0.3, 0, 0] },
      ],
    });
    expect(c.mass).toBeCloseTo(2000 * (0.008 + (4 / 3) * Math.PI * 0.05 ** 3), 3);
    const stl = world.addMesh({ file: "tests/fixtures/meshes/box_binary.stl", density: 1000 });
    const ascii = world.addMesh({ file: "tests/fixtures/meshes/box_ascii.stl", density: 1000 });
    expect(stl.mass).toBeGreaterThan(0);
    expect(ascii.mass).toBeCloseTo(stl.mass, 6);
    const given = world.addMesh({ file: "tests/fixtures/meshes/tetra.obj", mass: 3 });
    expect(given.mass).toBeCloseTo(3, 5);
    expect(() => world.addMesh({ file: "tests/fixtures/meshes/nope.stl" })).toThrow();
    expect(world.bodies.length).toBe(4);
  });

  it("grain–body contacts appear in the Arrow contacts table with their kind and body id", async () => {
    const world = await World.create({ timeStep: 1e-4 });
    const g = world.addGranularParticles({ positions: [[0, 0, 0.1205]], radii: 0.02 }, {
      density: 2500,
      normalStiffness: 1e4,
      normalDamping: 20,
    });
    world.addSphere({ radius: 0.05, position: [1, 1, 1], bodyType: "static" }); // elsewhere
    const floor = world.addBox({
      halfExtents: [0.2, 0.2, 0.05],
      position: [0, 0, 0.05],
      bodyType: "static",
      name: "floor",
    });
    world.run(3000);
    const t = contactsTable(g);
    expect(t.numRows).toBe(1);
    expect(String(t.getChild("kind")!.get(0))).toBe("body");
    expect(t.getChild("j")!.get(0)).toBe(-1);
    expect(t.getChild("boundary")!.get(0)).toBe(floor.id);
    // resting: the normal force carries the weight, the floor gets it back
    expect(t.getChild("normalForce")!.get(0)).toBeCloseTo(g.masses[0] * 9.81, 4);
    expect(floor.contactForce[2]).toBeCloseTo(-g.masses[0] * 9.81, 4);
  });

  it("fixed grains hold a body up (and stay where they are)", async () => {
    const world = await World.create({ timeStep: 1e-4 });
    const pos: number[][] = [];
    for (let i = -3; i <= 3; i++) for (let j = -3; j <= 3; j++) pos.push([0.02 * i, 0.02 * j, 0]);
    const floor = world.addGranularParticles({
      positions: pos,
      radii: 0.01,
      fixed: pos.map(() => true),
    }, {
      density: 2500,
      normalStiffness: 2e4,
      normalDamping: 10,
    });
    const box = world.addBox({
      halfExtents: [0.05, 0.05, 0.01],
      position: [0, 0, 0.0205],
      density: 1000,
    });
    world.run(3000);
    expect(box.position[2]).toBeGreaterThan(0.0195); // resting on the grains, not through them
    expect(box.contactForce[2]).toBeCloseTo(box.mass * 9.81, 3);
    expect(floor.positions[2]).toBe(0);
  });
});
