/**
 * sphere3d checkpoints: exact continuation (with and without contact histories), what loading
 * replaces and keeps, round trips of the bytes, restore from an Arrow particles table, and the
 * errors of bad files.
 */
import { after, describe, it } from "node:test";
import { expect } from "expect";
import { GranularSystem, World } from "../src/sphere3d/mod.ts";
import { decodeGranularState, encodeGranularState } from "../src/sphere3d/checkpoint.ts";
import { crc32, decodeContainer, encodeContainer } from "../src/math/container.ts";
import { particlesTable, readArrow, writeArrow } from "../src/arrow/mod.ts";

const DT = 2e-4;
const BOX: [[number, number, number], [number, number, number]] = [
  [-0.002, -0.002, -0.05],
  [0.128, 0.128, 0.5],
];

/** Ground plane and open-top container, as the scene sets them (not stored in checkpoints). */
function boundaries(g: GranularSystem): void {
  g.setGroundPlane(0);
  g.setContainerBox(BOX[0], BOX[1]);
}

/**
 * A disordered frictional bed (250 grains of radii 8–10.5 mm on a jittered grid) falling into
 * a container onto the ground for 1000 steps, until about 200 grain contacts and 60 boundary
 * contacts carry tangential springs; rolling friction, two material ids, a boundary material,
 * an external force and a fixed grain exercise every part of the state.
 */
function bed(friction = 0.5) {
  const world = new World({ timeStep: DT });
  const g = world.addGranularSystem({
    friction,
    rollingFriction: friction > 0 ? 0.02 : 0,
    normalDamping: 5,
    substeps: 2,
  });
  g.emitBoxRandom({
    min: [0, 0, 0],
    max: [0.126, 0.126, 0.2],
    minRadius: 0.008,
    maxRadius: 0.0105,
    spacing: 0.021,
    maxParticles: 250,
    seed: 7,
  });
  g.setParticleMaterial(1, { friction: 0.6 * friction, rollingFriction: 0 });
  for (let i = 0; i < g.count; i += 3) g.setParticleMaterialId(i, 1);
  g.setBoundaryMaterial({ friction: 1.2 * friction, rollingFriction: friction > 0 ? 0.01 : 0 });
  g.setExternalForce(5, [0.01, 0, 0]);
  g.setParticleFixed(0, true);
  boundaries(g);
  world.run(1000);
  return { world, g };
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

/** Bit-for-bit equality of typed arrays (distinguishes 0 and -0, compares NaN payloads). */
function same(a: ArrayBufferView, b: ArrayBufferView): boolean {
  const x = bytesOf(a), y = bytesOf(b);
  return x.length === y.length && x.every((v, k) => v === y[k]);
}

function expectSameState(a: GranularSystem, b: GranularSystem): void {
  expect(b.count).toBe(a.count);
  expect(same(a.ids, b.ids)).toBe(true);
  expect(same(a.positions, b.positions)).toBe(true);
  expect(same(a.velocities, b.velocities)).toBe(true);
  expect(same(a.angularVelocities, b.angularVelocities)).toBe(true);
  expect(same(a.forces, b.forces)).toBe(true);
  expect(b.contactHistories()).toEqual(a.contactHistories());
}

function maxDiff(a: Float64Array, b: Float64Array): number {
  let d = 0;
  for (let k = 0; k < a.length; k++) d = Math.max(d, Math.abs(a[k] - b[k]));
  return d;
}

const tmp = Deno.makeTempDirSync({ prefix: "grainlab-ckpt-" });
after(() => Deno.removeSync(tmp, { recursive: true }));

/** Shared runs (built once): the bed after 200 steps straight, its checkpoints after 100. */
const runs = new Map<string, { g: GranularSystem; bytes?: Uint8Array }>();
function run(friction: number, steps: 100 | 200): { g: GranularSystem; bytes?: Uint8Array } {
  const key = `${friction}/${steps}`;
  if (!runs.has(key)) {
    const b = bed(friction);
    b.world.run(steps);
    runs.set(key, { g: b.g });
  }
  return runs.get(key)!;
}

describe("sphere3d checkpoints: exact continuation", () => {
  it("100 steps, save, load into a fresh world, 100 steps = 200 steps straight, bit for bit", () => {
    const straight = run(0.5, 200);
    const stats = straight.g.lastStepStats;
    // the bed is contact-rich: the springs matter
    expect(stats.particleContacts).toBeGreaterThan(150);
    expect(stats.boundaryContacts).toBeGreaterThan(40);
    const first = run(0.5, 100);
    const path = `${tmp}/bed.bin`;
    first.g.saveGranularState(path);
    const world = new World({ timeStep: DT });
    const g = world.loadGranularSystem(path);
    expect(g.groundPlane).toBeNull(); // boundaries are not stored ...
    boundaries(g); // ... so they are re-applied after loading
    expect(g.stepCount).toBe(1100);
    world.run(100);
    expectSameState(straight.g, g);
    expect(g.stepCount).toBe(1200);
    expect(g.lastStepStats.particleContacts).toBe(straight.g.lastStepStats.particleContacts);
    expect(g.lastStepStats.activeContactHistories).toBeGreaterThan(200);
  });

  it("continues exactly too when the boundaries are set before loading", () => {
    const straight = run(0.5, 200);
    const bytes = run(0.5, 100).g.granularStateBytes();
    const world = new World({ timeStep: DT });
    const g = world.addGranularSystem();
    boundaries(g);
    g.loadGranularStateBytes(bytes);
    world.run(100);
    expectSameState(straight.g, g);
  });

  it("changing a boundary at the restart equals changing it in the straight run", () => {
    const straight = bed();
    straight.world.run(100);
    straight.g.setContainerBox(BOX[0], [0.125, 0.128, 0.5]); // the +x wall moves in 3 mm
    straight.world.run(100);
    const first = bed();
    first.world.run(100);
    const world = new World({ timeStep: DT });
    const g = world.addGranularSystem();
    g.loadGranularStateBytes(first.g.granularStateBytes());
    g.setGroundPlane(0);
    g.setContainerBox(BOX[0], [0.125, 0.128, 0.5]);
    world.run(100);
    expectSameState(straight.g, g);
  });

  it("without histories the run differs only through friction", () => {
    const straight = run(0.5, 200);
    const first = run(0.5, 100);
    const world = new World({ timeStep: DT });
    const g = world.addGranularSystem();
    const bytes = first.g.granularStateBytes({ includeContactHistories: false });
    expect(bytes.length).toBeLessThan(first.g.granularStateBytes().length);
    g.loadGranularStateBytes(bytes);
    expect(g.contactHistories().owner).toHaveLength(0);
    boundaries(g);
    world.run(100);
    // the springs restart at zero: the grains end up elsewhere, but close (< 1 mm)
    expect(same(straight.g.positions, g.positions)).toBe(false);
    const d = maxDiff(straight.g.positions, g.positions);
    expect(d).toBeGreaterThan(0);
    expect(d).toBeLessThan(1e-3);

    // frictionless grains have no springs to lose: identical without histories
    const a = run(0, 200), b = run(0, 100);
    const w2 = new World({ timeStep: DT });
    const h = w2.addGranularSystem();
    h.loadGranularStateBytes(b.g.granularStateBytes({ includeContactHistories: false }));
    boundaries(h);
    w2.run(100);
    expect(a.g.lastStepStats.particleContacts).toBeGreaterThan(150);
    expect(same(a.g.positions, h.positions)).toBe(true);
    expect(same(a.g.velocities, h.velocities)).toBe(true);
    expect(same(a.g.angularVelocities, h.angularVelocities)).toBe(true);
    expect(same(a.g.forces, h.forces)).toBe(true);
  });

  it("carries the rolling torques a step leaves unconsumed (underflowing spins)", () => {
    // A grain spinning at 1e-160 rad/s on the ground meets a rolling torque of ~1e-164 N·m
    // whose square underflows to 0: the step leaves it in the rolling accumulator, where it
    // adds up until it can act. The checkpoint must carry it (the ROLL section).
    const scene = () => {
      const w = new World({ timeStep: 1e-4 });
      const g = w.addGranularParticles(
        { positions: [[0, 0, 0.02 - 1.05e-5], [0.1, 0, 0.02 - 1.05e-5]], radii: 0.02 },
        { rollingFriction: 0.1, normalDamping: 5 },
      );
      g.setGroundPlane(0);
      g.setAngularVelocity(0, [1e-160, 3e-161, 0]);
      w.run(5);
      return { w, g };
    };
    const straight = scene();
    straight.w.run(200);
    const bytes = scene().g.granularStateBytes();
    const c = decodeContainer(bytes, { magic: "GRAINS3D", maxVersion: 1, where: "t" });
    expect(c.sections.get("ROLL")!.length).toBe(4 + 24); // one grain: its slot and its torque
    const world = new World({ timeStep: 1e-4 });
    const g = world.addGranularSystem();
    g.loadGranularStateBytes(bytes);
    g.setGroundPlane(0);
    world.run(200);
    expect(straight.g.angularVelocities[0]).toBeGreaterThan(1e-164); // the torque acted
    expect(same(straight.g.angularVelocities, g.angularVelocities)).toBe(true);
    // dropping the carried torque would have changed the spin
    const s = decodeGranularState(bytes, "t");
    s.cache!.roll = { index: new Uint32Array(0), value: new Float64Array(0) };
    const w2 = new World({ timeStep: 1e-4 });
    const h = w2.addGranularSystem();
    h.loadGranularStateBytes(encodeGranularState(s));
    h.setGroundPlane(0);
    w2.run(200);
    expect(h.angularVelocities[0]).not.toBe(straight.g.angularVelocities[0]);
  });

  it("continues periodic, cohesive grains exactly", () => {
    const scene = () => {
      const world = new World({ timeStep: 2e-4 });
      const g = world.addGranularSystem({
        friction: 0.4,
        cohesionStiffness: 2e3,
        cohesionMaxDistance: 5e-4,
        normalDamping: 5,
      });
      g.emitBoxRandom({
        min: [0, 0, 0],
        max: [0.1, 0.1, 0.1],
        minRadius: 0.008,
        maxRadius: 0.01,
        spacing: 0.021,
        maxParticles: 120,
        seed: 3,
        velocity: [0.3, -0.2, 0],
      });
      g.setGroundPlane(0);
      g.setPeriodicBoundary([0, 0, -1], [0.105, 0.105, 1], { x: true, y: true });
      world.run(500);
      return { world, g };
    };
    const straight = scene();
    straight.world.run(200);
    const first = scene();
    first.world.run(100);
    const world = new World({ timeStep: 2e-4 });
    const g = world.addGranularSystem();
    g.loadGranularStateBytes(first.g.granularStateBytes());
    g.setGroundPlane(0);
    g.setPeriodicBoundary([0, 0, -1], [0.105, 0.105, 1], { x: true, y: true });
    let wraps = 0;
    world.run(100, { onStep: () => (wraps += g.lastStepStats.wrappedParticles) });
    expect(wraps).toBeGreaterThan(0); // grains crossed the periodic faces after the restart
    expectSameState(straight.g, g);
    expect(g.lastStepStats.cohesiveContacts).toBeGreaterThan(0);
  });
});

describe("sphere3d checkpoints: what loading replaces", () => {
  it("replaces particles and materials, keeps boundaries, resets statistics", () => {
    const { g } = bed();
    const bytes = g.granularStateBytes();
    const world = new World({ timeStep: DT });
    const other = world.addGranularParticles(
      { positions: [[1, 1, 1], [2, 2, 2], [3, 3, 3]], radii: 0.05 },
      { friction: 0.9, density: 2500 },
    );
    other.setParticleMaterial(4, { friction: 0.1 });
    other.setGroundPlane(-1);
    world.run(3);
    other.loadGranularStateBytes(bytes);
    expect(other.count).toBe(g.count);
    expect(other.material).toEqual(g.material);
    expect(other.masses).toEqual(g.masses);
    expect(other.getParticleMaterial(1)).toEqual(g.getParticleMaterial(1));
    expect(other.getParticleMaterial(4).friction).toBe(g.material.friction); // id 4 is gone
    expect(other.boundaryMaterial).toEqual({ friction: 0.6, rollingFriction: 0.01 });
    expect(other.groundPlane).toBe(-1); // boundaries stay as they were
    expect(other.containerBox).toBeNull();
    expect(other.fixed[0]).toBe(1);
    expect(other.lastStepStats.particleContacts).toBe(0);
    expect(other.lastStepStats.step).toBe(0);
    expect(other.contacts.count).toBe(0);
    expect(other.stepCount).toBe(1000);
    // stable ids continue: the next particle gets the next id of the saved system
    const i = other.addParticle({ position: [0.5, 0.5, 0.5], radius: 0.01 });
    expect(other.ids[i]).toBe(250);
    expect(other.indexOfId(17)).toBe(g.indexOfId(17));
  });

  it("save, load, save gives the same bytes; big-endian files load the same", () => {
    const { g } = bed();
    const a = g.granularStateBytes();
    const world = new World({ timeStep: DT });
    const h = world.addGranularSystem();
    h.loadGranularStateBytes(a);
    expect(h.granularStateBytes()).toEqual(a);
    const big = encodeGranularState(decodeGranularState(a, "test"), false);
    expect(big[8]).toBe(2); // the byte-order flag
    expect(big).not.toEqual(a);
    const k = world.addGranularSystem();
    k.loadGranularStateBytes(big);
    expect(k.granularStateBytes()).toEqual(a);
  });

  it("file sizes: header, particle columns, caches and 32 bytes per history entry", () => {
    const { g } = bed();
    const n = g.count, m = g.contactHistories().owner.length;
    const withH = g.granularStateBytes(),
      without = g.granularStateBytes({
        includeContactHistories: false,
      });
    const c = decodeContainer(withH, { magic: "GRAINS3D", maxVersion: 1, where: "t" });
    expect([...c.sections.keys()]).toEqual([
      "META",
      "MATERIAL",
      "PARTICLE",
      "EXTERNAL",
      "FORCES",
      "NEIGHBOR",
      "HISTORY",
    ]);
    expect(c.sections.get("PARTICLE")!.length).toBe(87 * n);
    expect(c.sections.get("FORCES")!.length).toBe(48 * n);
    expect(c.sections.get("NEIGHBOR")!.length).toBe(24 * n);
    expect(c.sections.get("HISTORY")!.length).toBe(32 * m);
    expect(withH.length - without.length).toBeGreaterThanOrEqual(32 * m);
    expect(withH.length - without.length).toBeLessThan(32 * m + 64);
  });
});

describe("sphere3d checkpoints: from an Arrow particles table", () => {
  it("rebuilds positions, velocities, spins, radii, material ids, fixed flags and ids", async () => {
    const { g } = bed();
    g.removeParticle(3); // ids are no longer the row numbers
    const path = `${tmp}/particles.arrow`;
    await writeArrow(path, particlesTable(g, { copy: true }));
    const table = await readArrow(path);
    const world = new World({ timeStep: DT });
    const back = GranularSystem.fromTable(world, table);
    expect(world.systems).toEqual([back]);
    expect(back.count).toBe(g.count);
    expect(same(back.positions, g.positions)).toBe(true);
    expect(same(back.velocities, g.velocities)).toBe(true);
    expect(same(back.angularVelocities, g.angularVelocities)).toBe(true);
    expect(same(back.radii, g.radii)).toBe(true);
    expect(same(back.masses, g.masses)).toBe(true);
    expect(same(back.materialIds, g.materialIds)).toBe(true);
    expect(same(back.fixed, g.fixed)).toBe(true);
    expect(same(back.ids, g.ids)).toBe(true);
    expect(back.material).toEqual(g.material); // from the table's metadata
    expect(back.contactHistories().owner).toHaveLength(0); // a table holds no springs
    // it steps like the original apart from the springs (which restart at zero)
    boundaries(back);
    world.run(20);
    expect(back.lastStepStats.particleContacts).toBeGreaterThan(150);
    // a material with another density contradicts the mass column
    expect(() => GranularSystem.fromTable(world, table, { density: 2000 })).toThrow(
      /GranularSystem.fromTable: mass\[0\] .* disagrees with the material's density/,
    );
    expect(world.systems).toHaveLength(1);
  });
});

describe("sphere3d checkpoints: bad files", () => {
  const { g } = bed();
  const good = g.granularStateBytes();

  function target() {
    const t = new World().addGranularParticles({ positions: [[0, 0, 1], [1, 0, 1]], radii: 0.1 });
    return { t, before: t.granularStateBytes() };
  }

  function rejects(bytes: Uint8Array, what: RegExp): void {
    const { t, before } = target();
    const path = `${tmp}/bad.bin`;
    Deno.writeFileSync(path, bytes);
    let err: Error | undefined;
    try {
      t.loadGranularState(path);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toMatch(new RegExp(`^loadGranularState: ${path}: `));
    expect(err?.message).toMatch(what);
    expect(t.granularStateBytes()).toEqual(before);
  }

  /** Rewrite the header's version and checksum. */
  function withVersion(v: number): Uint8Array {
    const b = good.slice();
    const dv = new DataView(b.buffer);
    dv.setUint32(12, v, true);
    const n = dv.getUint32(16, true), end = 32 + 32 * n;
    dv.setUint32(end, crc32(b, 0, end), true);
    return b;
  }

  /** Re-encode with the META JSON changed by `edit` (valid checksums). */
  function withMeta(edit: (m: Record<string, unknown>) => void): Uint8Array {
    const c = decodeContainer(good, { magic: "GRAINS3D", maxVersion: 1, where: "t" });
    const meta = JSON.parse(new TextDecoder().decode(c.sections.get("META")!));
    edit(meta);
    const sections = [...c.sections].map(([tag, bytes]) => ({
      tag,
      bytes: tag === "META" ? new TextEncoder().encode(JSON.stringify(meta)) : bytes,
    }));
    return encodeContainer({ magic: "GRAINS3D", version: 1 }, sections);
  }

  it("a missing file", () => {
    const { t, before } = target();
    expect(() => t.loadGranularState(`${tmp}/none.bin`)).toThrow(
      /^loadGranularState: .*none.bin: cannot read the file/,
    );
    expect(t.granularStateBytes()).toEqual(before);
  });

  it("wrong magic, truncation, trailing bytes, a flipped bit", () => {
    rejects(new TextEncoder().encode("not a checkpoint at all, just text"), /not a sphere3d/);
    rejects(good.subarray(0, good.length - 8), /truncated/);
    rejects(good.subarray(0, 50), /truncated/);
    const longer = new Uint8Array(good.length + 8);
    longer.set(good);
    rejects(longer, /trailing bytes/);
    const flipped = good.slice();
    flipped[good.length - 100] ^= 4;
    rejects(flipped, /section HISTORY: checksum mismatch/);
  });

  it("a future format version", () => {
    rejects(withVersion(2), /format version 2 is newer than this reader supports \(1\)/);
    // the version field is checked even before the header checksum
    const b = good.slice();
    new DataView(b.buffer).setUint32(12, 7, true);
    rejects(b, /format version 7 is newer/);
  });

  it("well-formed files with inconsistent content", () => {
    rejects(withMeta((m) => (m.count = 249)), /section PARTICLE: .* expected .* for 249 particles/);
    rejects(withMeta((m) => (m.nextId = 10)), /nextId \(10\) must be an integer in \[250/);
    rejects(withMeta((m) => (m.extra = 1)), /META has an unknown field "extra"/);
    rejects(withMeta((m) => (m.externalLoads = false)), /externalLoads/);
    rejects(withMeta((m) => delete m.cache), /META lacks the field "cache"/);
    const s = decodeGranularState(good, "t");
    const dup = { ...s, id: s.id.slice() };
    dup.id[1] = dup.id[0];
    rejects(encodeGranularState(dup), /share the id/);
    const nan = { ...s, pos: s.pos.slice() };
    nan.pos[7] = NaN;
    rejects(encodeGranularState(nan), /position of particle 2 \(NaN\) must be finite/);
    const r0 = { ...s, radius: s.radius.slice() };
    r0.radius[3] = 0;
    rejects(encodeGranularState(r0), /radius of particle 3 \(0\) must be finite and > 0/);
    const badMat = { ...s, material: { ...s.material, density: -1 } };
    rejects(encodeGranularState(badMat), /MATERIAL: density \(-1\) must be > 0/);
    const mid = { ...s, friction: s.friction.subarray(0, 1), rolling: s.rolling.subarray(0, 1) };
    rejects(encodeGranularState(mid), /material id of particle 0 \(1\) has no particle material/);
    const h = s.history!;
    const orphan = { ...s, history: { ...h, partner: h.partner.slice() } };
    const k = h.partner.findIndex((p) => p < 0xffffff00);
    orphan.history.partner[k] = 99999;
    rejects(encodeGranularState(orphan), /history entry \d+: partner id 99999/);
  });
});
