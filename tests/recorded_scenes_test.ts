/**
 * Recorded scenes: SHA-256 of the state after a fixed run of small scenes that go through every
 * contact path — sphere3d's plain pair loop and its general loop (Hertz, restitution damping,
 * cohesion, rolling friction, two materials, periodic axes), its planes and boxes, the rigid
 * bodies' primitives, mesh and height map, and star2d's packing and drum. The hashes were
 * recorded before the one-law redesign (issue #27); a refactor must keep them. A change of
 * physics or of the order of a sum renews them, once, with the reason in the commit.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { drumScene, packingScene } from "../src/star2d/mod.ts";

/** Contacts seen by the scenes, to show that each path ran. */
const seen = { pairs: 0, cohesive: 0, wrapped: 0, rigid: 0 };

async function hash(arrays: ArrayLike<number>[]): Promise<string> {
  const parts = arrays.map((a) => Float64Array.from(a));
  const n = parts.reduce((s, a) => s + a.length, 0), all = new Float64Array(n);
  let o = 0;
  for (const a of parts) all.set(a, o), o += a.length;
  const d = new Uint8Array(await crypto.subtle.digest("SHA-256", all));
  return Array.from(d.subarray(0, 12), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** Linear law, constant damping, one friction, a box: the plain pair loop and the planes. */
function plainBed(): ArrayLike<number>[] {
  const w = new World({ timeStep: 1e-4 });
  const g = w.addGranularSystem({ friction: 0.5, normalDamping: 5 });
  g.emitBoxRandom({
    min: [-0.08, -0.08, 0],
    max: [0.08, 0.08, 0.25],
    minRadius: 0.008,
    maxRadius: 0.012,
    spacing: 0.025,
    maxParticles: 250,
    seed: 7,
  });
  g.setContainerBox([-0.1, -0.1, 0], [0.1, 0.1, 0.5]);
  w.run(3000, { onStep: () => void (seen.pairs += g.lastStepStats.particleContacts) });
  return [g.positions, g.velocities, g.angularVelocities];
}

/**
 * Hertz with restitution damping, cohesion, rolling friction, two materials of different
 * friction (the geometric mean), periodic x and y over a ground plane: the general pair loop.
 */
function generalBed(clamp: boolean): ArrayLike<number>[] {
  const w = new World({ timeStep: 5e-5 });
  const g = w.addGranularSystem({
    normalContactModel: "hertz",
    normalStiffness: 2e7,
    restitution: 0.6,
    normalDamping: 0,
    friction: 0.4,
    rollingFriction: 0.05,
    cohesionStiffness: 200,
    cohesionMaxDistance: 0.001,
    clampNormalForce: clamp,
  });
  g.emitBoxRandom({
    min: [0, 0, 0],
    max: [0.15, 0.15, 0.2],
    minRadius: 0.008,
    maxRadius: 0.012,
    spacing: 0.026,
    maxParticles: 200,
    seed: 11,
    velocity: [0.1, 0, 0],
  });
  g.setParticleMaterial(1, { friction: 0.8, rollingFriction: 0.01 });
  for (let i = 0; i < g.count; i += 3) g.setParticleMaterialId(i, 1);
  g.setGroundPlane(0);
  g.setPeriodicBoundary([0, 0, 0], [0.15, 0.15, 1], { x: true, y: true });
  w.run(4000, {
    onStep: () => {
      const st = g.lastStepStats;
      seen.pairs += st.particleContacts, seen.cohesive += st.cohesiveContacts;
      seen.wrapped += st.wrappedParticles;
    },
  });
  return [g.positions, g.velocities, g.angularVelocities];
}

/** Grains poured on rigid bodies of every shape: the body contact paths and the engine. */
async function bodiesScene(): Promise<ArrayLike<number>[]> {
  const w = await World.create({ timeStep: 1e-4 });
  const g = w.addGranularSystem({ friction: 0.5, normalDamping: 8, rollingFriction: 0.02 });
  g.emitBoxRandom({
    min: [-0.1, -0.1, 0.08],
    max: [0.1, 0.1, 0.3],
    minRadius: 0.008,
    maxRadius: 0.011,
    spacing: 0.024,
    maxParticles: 220,
    seed: 3,
  });
  g.setContainerBox([-0.12, -0.12, -0.05], [0.12, 0.12, 0.6]);
  const heights: number[] = [];
  for (let j = 0; j < 5; j++) for (let i = 0; i < 5; i++) heights.push(0.01 * Math.sin(i + 2 * j));
  w.addHeightMap({ heights, nx: 5, ny: 5, sizeX: 0.24, sizeY: 0.24, center: [0, 0, 0] });
  w.addBox({ halfExtents: [0.03, 0.02, 0.01], position: [-0.05, 0, 0.05], density: 2000 });
  w.addSphere({ radius: 0.02, position: [0.05, 0.04, 0.05], density: 1500 });
  w.addCapsule({
    radius: 0.01,
    halfHeight: 0.03,
    position: [0.04, -0.05, 0.04],
    bodyType: "kinematic",
    angularVelocity: [0, 0, 2],
  });
  w.addCylinder({ radius: 0.015, halfHeight: 0.01, position: [-0.05, -0.05, 0.05] });
  w.addMesh({
    vertices: [0, 0, 0, 0.04, 0, 0, 0, 0.04, 0, 0, 0, 0.04],
    indices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
    position: [-0.03, 0.05, 0.04],
    density: 1000,
  });
  w.run(2000, { onStep: () => void (seen.rigid += g.lastStepStats.rigidContacts) });
  const bodies = w.bodies.flatMap((b) => [...b.position, ...b.orientation, ...b.linearVelocity]);
  return [g.positions, g.velocities, g.angularVelocities, bodies];
}

function starScene(which: "packing" | "drum"): ArrayLike<number>[] {
  const scene = which === "packing" ? packingScene({ count: 80 }) : drumScene({ count: 60 });
  scene.advance(1500);
  const s = scene.system;
  return [s.positions, s.velocities, s.angles, s.angularVelocities];
}

/** SHA-256 (first 12 bytes) of each scene, recorded on the code before the redesign. */
const RECORDED: Record<string, string> = {
  "sphere3d plain bed": "aaa4cb6d9e6bedf186215e86",
  "sphere3d general bed, clamped": "4b1262484fac47e0c8279b62",
  "sphere3d general bed, unclamped": "fe8930a0a69495ee458091c5",
  "sphere3d bodies of every shape": "9f5a21a034301c1e8389bc43",
  "star2d packing": "a46173e77b182a1f099de5ee",
  "star2d drum": "771ffeb06439daf3dab2de07",
};

describe("recorded scenes keep their bytes", () => {
  const check = async (name: string, state: ArrayLike<number>[]) => {
    const h = await hash(state);
    if (Deno.env.get("GRAINLAB_PRINT_HASHES")) console.log(`  "${name}": "${h}",`);
    expect(state.every((a) => Array.from(a).every(Number.isFinite))).toBe(true);
    expect(h).toBe(RECORDED[name]);
  };
  it("sphere3d plain bed", () => check("sphere3d plain bed", plainBed()));
  it("sphere3d general bed, clamped", () =>
    check("sphere3d general bed, clamped", generalBed(true)));
  it("sphere3d general bed, unclamped", () =>
    check("sphere3d general bed, unclamped", generalBed(false)));
  it("sphere3d bodies of every shape", async () =>
    check("sphere3d bodies of every shape", await bodiesScene()));
  it("star2d packing", () => check("star2d packing", starScene("packing")));
  it("star2d drum", () => check("star2d drum", starScene("drum")));
});
