/**
 * star2d checkpoints: exact continuation of star, disk and clump packings (with and without
 * contact histories), what loading replaces, byte round trips, and bad files.
 */
import { after as afterAll, describe, it } from "node:test";
import { expect } from "expect";
import {
  approximateByDisks,
  ClumpSystem,
  DiskSystem,
  type GrainSystem2,
  StarShape,
  StarSystem,
} from "../src/star2d/mod.ts";
import { decodeGrainState, encodeGrainState } from "../src/star2d/checkpoint.ts";
import { decodeContainer, encodeContainer } from "../src/math/container.ts";

type Kind = "star" | "disk" | "clump";

/**
 * 48 grains on a staggered grid falling into a box with a lifter (a segment spinning at
 * 3 rad/s) above them, settling for 2000 steps (0.2 s): a packing with about 60 grain and 15
 * wall contacts, their springs, and a moving wall.
 */
function packing(kind: Kind, friction = 0.5): GrainSystem2 {
  const pos: [number, number][] = [];
  for (let i = 0; i < 8; i++) {
    for (let j = 0; j < 6; j++) {
      pos.push([-0.035 + i * 0.0095 + (j % 2) * 0.003, 0.006 + j * 0.0095]);
    }
  }
  const angles = pos.map((_, k) => 0.7 * k);
  const cross = StarShape.preset("cross", { rMax: 0.0045 });
  let s: GrainSystem2;
  if (kind === "star") {
    const st = new StarSystem({ timeStep: 1e-4, friction });
    st.addGrains({ shape: cross, positions: pos, angles });
    st.addGrains({ shape: StarShape.preset("peanut", { rMax: 0.004 }), positions: [[0, 0.07]] });
    s = st;
  } else if (kind === "disk") {
    const d = new DiskSystem({ timeStep: 1e-4, friction });
    d.addGrains({ positions: pos, radius: pos.map((_, k) => 0.004 + 0.0005 * (k % 3)) });
    s = d;
  } else {
    const c = new ClumpSystem({ timeStep: 1e-4, friction });
    c.addGrains({ template: approximateByDisks(cross, 5), positions: pos, angles });
    s = c;
  }
  const wf = friction > 0 ? 0.4 : 0;
  s.walls.addBox({ min: [-0.045, 0], max: [0.045, 0.2], friction: wf });
  s.walls.addSegment({
    from: [-0.01, 0.08],
    to: [0.01, 0.08],
    omega: 3,
    pivot: [0, 0.08],
    friction: wf,
  });
  s.run(2000);
  return s;
}

const cache = new Map<string, GrainSystem2>();
/** The packing after 2000 + `steps` steps (built once per kind, friction and steps). */
function after(kind: Kind, friction: number, steps: number): GrainSystem2 {
  const key = `${kind}/${friction}/${steps}`;
  if (!cache.has(key)) {
    const s = packing(kind, friction);
    s.run(steps);
    cache.set(key, s);
  }
  return cache.get(key)!;
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}
function same(a: ArrayBufferView, b: ArrayBufferView): boolean {
  const x = bytesOf(a), y = bytesOf(b);
  return x.length === y.length && x.every((v, k) => v === y[k]);
}
function sameState(a: GrainSystem2, b: GrainSystem2): boolean {
  return same(a.positions, b.positions) && same(a.velocities, b.velocities) &&
    same(a.angles, b.angles) && same(a.angularVelocities, b.angularVelocities);
}

function fromState(kind: Kind, path: string): GrainSystem2 {
  return kind === "star"
    ? StarSystem.fromState(path)
    : kind === "disk"
    ? DiskSystem.fromState(path)
    : ClumpSystem.fromState(path);
}

const tmp = Deno.makeTempDirSync({ prefix: "grainlab-ckpt2d-" });
afterAll(() => Deno.removeSync(tmp, { recursive: true }));

describe("star2d checkpoints: exact continuation", () => {
  for (const kind of ["star", "disk", "clump"] as const) {
    it(`${kind}: 100 steps, save, restore, 100 steps = 200 steps straight, bit for bit`, () => {
      const straight = after(kind, 0.5, 200);
      expect(straight.lastStepStats.particleContacts).toBeGreaterThan(40);
      expect(straight.lastStepStats.boundaryContacts).toBeGreaterThan(10);
      const first = after(kind, 0.5, 100);
      const path = `${tmp}/${kind}.bin`;
      first.saveState(path);
      const s = fromState(kind, path);
      expect(s.walls.count).toBe(first.walls.count); // walls are stored, the spinning one too
      expect(same(s.walls.geom, first.walls.geom)).toBe(true);
      s.run(100);
      expect(sameState(straight, s)).toBe(true);
      expect(s.lastStepStats.step).toBe(2200);
      expect(s.time).toBe(straight.time);
      expect(s.lastStepStats.particleContacts).toBe(straight.lastStepStats.particleContacts);
    });

    it(`${kind}: without histories it differs with friction, not without`, () => {
      const straight = after(kind, 0.5, 200);
      const bytes = after(kind, 0.5, 100).stateBytes({ includeContactHistories: false });
      const s = fromState(kind, writeTmp(kind, bytes));
      s.run(100);
      expect(sameState(straight, s)).toBe(false);
      let d = 0;
      for (let k = 0; k < s.positions.length; k++) {
        d = Math.max(d, Math.abs(s.positions[k] - straight.positions[k]));
      }
      expect(d).toBeLessThan(1e-3);

      const a = after(kind, 0, 200);
      const b = fromState(
        kind,
        writeTmp(
          kind,
          after(kind, 0, 100).stateBytes({
            includeContactHistories: false,
          }),
        ),
      );
      b.run(100);
      expect(a.lastStepStats.particleContacts).toBeGreaterThan(40);
      expect(sameState(a, b)).toBe(true);
    });
  }
});

function writeTmp(name: string, bytes: Uint8Array): string {
  const path = `${tmp}/${name}-${crypto.randomUUID().slice(0, 8)}.bin`;
  Deno.writeFileSync(path, bytes);
  return path;
}

describe("star2d checkpoints: what loading replaces", () => {
  it("replaces grains, parameters, shapes and walls; round-trips the bytes", () => {
    const src = after("star", 0.5, 100) as StarSystem;
    const bytes = src.stateBytes();
    const s = new StarSystem({ friction: 0.1, timeStep: 1e-5, distance: "radial" });
    s.addGrains({ shape: StarShape.preset("flower"), positions: [[0, 0], [0.02, 0]] });
    s.walls.addDrum({ centre: [0, 0], radius: 1 });
    s.loadStateBytes(bytes);
    expect(s.count).toBe(49);
    expect(s.friction).toBe(0.5);
    expect(s.timeStep).toBe(1e-4);
    expect(s.distance).toBe("first-order");
    expect(s.starShapes.map((sh) => sh.name)).toEqual(["cross", "peanut"]);
    expect(same(s.starShapes[0].lutR, src.starShapes[0].lutR)).toBe(true);
    expect(s.starShapes[1].polarMoment).toBe(src.starShapes[1].polarMoment);
    expect(s.walls.count).toBe(4);
    expect(s.lastStepStats.particleContacts).toBe(0);
    expect(s.stateBytes()).toEqual(bytes);
    // the same file in big-endian byte order loads the same
    const big = encodeGrainState(decodeGrainState(bytes, "t"), false);
    expect(big[8]).toBe(2);
    const t = new StarSystem();
    t.loadStateBytes(big);
    expect(t.stateBytes()).toEqual(bytes);
  });

  it("a checkpoint of another kind of system throws and changes nothing", () => {
    const disks = after("disk", 0.5, 100).stateBytes();
    const s = new StarSystem();
    s.addGrains({ shape: StarShape.preset("cross"), positions: [[0, 0]] });
    const before = s.stateBytes();
    expect(() => s.loadStateBytes(disks, "disks.bin")).toThrow(
      /^StarSystem.loadState: disks.bin: the file holds a DiskSystem, not a StarSystem/,
    );
    expect(s.stateBytes()).toEqual(before);
  });
});

describe("star2d checkpoints: bad files", () => {
  const good = after("clump", 0.5, 100).stateBytes();
  const check = (bytes: Uint8Array, what: RegExp) => {
    const s = new ClumpSystem();
    s.addGrains({
      template: approximateByDisks(StarShape.preset("cross"), 3),
      positions: [[0, 0]],
    });
    const before = s.stateBytes();
    const path = writeTmp("bad", bytes);
    let err: Error | undefined;
    try {
      s.loadState(path);
    } catch (e) {
      err = e as Error;
    }
    expect(err?.message).toMatch(new RegExp(`^ClumpSystem.loadState: ${path}: `));
    expect(err?.message).toMatch(what);
    expect(s.stateBytes()).toEqual(before);
  };

  it("truncated, corrupted, future version", () => {
    check(good.subarray(0, good.length - 3), /truncated/);
    const flipped = good.slice();
    flipped[200] ^= 0x10;
    check(flipped, /checksum mismatch/);
    const v = good.slice();
    new DataView(v.buffer).setUint32(12, 3, true);
    check(v, /format version 3 is newer/);
  });

  it("a star shape whose table does not belong to its coefficients", () => {
    const bytes = after("star", 0.5, 100).stateBytes();
    const c = decodeContainer(bytes, { magic: "GRAINS2D", maxVersion: 1, where: "t" });
    const lut = c.sections.get("SHAPELUT")!.slice();
    new DataView(lut.buffer).setFloat64(8 * 10, 0.01, true);
    const sections = [...c.sections].map(([tag, b]) => ({
      tag,
      bytes: tag === "SHAPELUT" ? lut : b,
    }));
    const s = new StarSystem();
    expect(() => s.loadStateBytes(encodeContainer({ magic: "GRAINS2D", version: 1 }, sections)))
      .toThrow(
        /^StarSystem.loadState: <bytes>: SHAPES: shape 0: r table entry 10 \(0.01\) disagrees/,
      );
    expect(s.count).toBe(0);
  });
});
