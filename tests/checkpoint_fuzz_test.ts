/**
 * Fuzzing the checkpoint loaders (issue #10 §5): every byte of a small checkpoint mutated
 * several ways, every truncation, random multi-byte damage, and payload mutations re-sealed
 * with valid checksums. Each load must either throw `<loader>: <name>: <what>` and leave the
 * system exactly as it was, or load exactly what the file says — never hang, never silently
 * load something else.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { decodeGranularState } from "../src/sphere3d/checkpoint.ts";
import { DiskSystem, type GrainSystem2, StarShape, StarSystem } from "../src/star2d/mod.ts";
import { decodeGrainState } from "../src/star2d/checkpoint.ts";
import { crc32, decodeContainer, encodeContainer } from "../src/math/container.ts";
import { Rng } from "../src/math/rng.ts";

/** A loader under test: load bytes into a fresh target, and read the target's state back. */
interface Subject {
  /** Loader name in error messages. */
  prefix: string;
  /** The checkpoint to damage. */
  good: Uint8Array;
  /** A system holding other data, and its state's bytes. */
  target(): { load(b: Uint8Array): void; state(): Uint8Array };
  /** Decode without loading (for the faithful-load check of re-sealed payloads). */
  decode(b: Uint8Array): unknown;
}

function sphereSubject(): Subject {
  const world = new World({ timeStep: 1e-4 });
  const g = world.addGranularParticles(
    {
      positions: [[0, 0, 0.02], [0.0398, 0, 0.02], [0.0199, 0, 0.0546], [1, 1, 0.5]],
      radii: [0.02, 0.02, 0.02, 0.01],
      materialIds: [0, 1, 0, 0],
      velocities: [[0.01, 0, 0], [0, 0, 0], [0, 0, -0.1], [0, 0, 0]],
    },
    { friction: 0.5 },
  );
  g.setParticleMaterial(1, { friction: 0.3, rollingFriction: 0.01 });
  g.setExternalForce(1, [0.001, 0, 0]);
  g.setGroundPlane(0);
  world.run(1500);
  expect(g.contactHistories().owner.length).toBeGreaterThanOrEqual(3);
  return {
    prefix: "loadGranularState: fuzz: ",
    good: g.granularStateBytes(),
    target() {
      const t = new World().addGranularParticles({ positions: [[5, 5, 5]], radii: 0.3 });
      t.setParticleMaterial(3, { friction: 0.9 });
      return {
        load: (b) => t.loadGranularStateBytes(b, "fuzz"),
        state: () => t.granularStateBytes(),
      };
    },
    decode: (b) => decodeGranularState(b, "fuzz"),
  };
}

function star2dSubject(kind: "disk" | "star"): Subject {
  let s: GrainSystem2;
  if (kind === "disk") {
    const d = new DiskSystem({ timeStep: 1e-4 });
    d.addGrains({ positions: [[0, 0.0049], [0.0099, 0.0049], [0.005, 0.013]], radius: 0.005 });
    s = d;
  } else {
    const st = new StarSystem({ timeStep: 1e-4 });
    const sh = StarShape.preset("cross", { rMax: 0.005, nodes: 8, lutSize: 16 });
    st.addGrains({ shape: sh, positions: [[0, 0.004], [0.009, 0.004]], angles: [0, 0.3] });
    s = st;
  }
  s.walls.addPlane({ point: [0, 0], normal: [0, 1] });
  s.walls.addSegment({ from: [0.02, 0], to: [0.03, 0.01], omega: 1 });
  s.run(80);
  const make = () =>
    kind === "disk"
      ? new DiskSystem({ friction: 0.9 })
      : new StarSystem({ friction: 0.9, distance: "radial" });
  const name = kind === "disk" ? "DiskSystem" : "StarSystem";
  return {
    prefix: `${name}.loadState: fuzz: `,
    good: s.stateBytes(),
    target() {
      const t = make();
      if (t instanceof DiskSystem) t.addGrains({ positions: [[1, 1]], radius: 0.01 });
      t.walls.addDrum({ centre: [0, 0], radius: 2 });
      return { load: (b) => t.loadStateBytes(b, "fuzz"), state: () => t.stateBytes() };
    },
    decode: (b) => decodeGrainState(b, "fuzz"),
  };
}

interface Tally {
  rejected: number;
  loaded: number;
  slowest: number;
}

/**
 * Load `bytes` into a fresh target. Rejected: the message starts with the prefix and the
 * target's state is unchanged. Loaded: the target now holds exactly what `faithful` expects.
 */
function attempt(
  s: Subject,
  bytes: Uint8Array,
  tally: Tally,
  faithful: (loaded: Uint8Array) => void,
): void {
  const t = s.target();
  const before = crc32(t.state());
  const t0 = performance.now();
  let error: Error | null = null;
  try {
    t.load(bytes);
  } catch (e) {
    error = e as Error;
  }
  tally.slowest = Math.max(tally.slowest, performance.now() - t0);
  if (error) {
    if (!error.message.startsWith(s.prefix)) throw error;
    if (crc32(t.state()) !== before) {
      throw new Error(`a failed load changed the system: ${error.message}`);
    }
    tally.rejected++;
  } else {
    faithful(t.state());
    tally.loaded++;
  }
}

/** Re-seal `good` with section `tag`'s payload replaced (valid checksums). */
function reseal(good: Uint8Array, magic: string, tag: string, payload: Uint8Array): Uint8Array {
  const c = decodeContainer(good, { magic, maxVersion: 1, where: "t" });
  const sections = [...c.sections].map(([t, b]) => ({ tag: t, bytes: t === tag ? payload : b }));
  return encodeContainer({ magic, version: 1 }, sections);
}

const subjects: [string, () => Subject][] = [
  ["sphere3d", sphereSubject],
  ["star2d disks", () => star2dSubject("disk")],
  ["star2d stars", () => star2dSubject("star")],
];

for (const [name, make] of subjects) {
  describe(`checkpoint fuzz: ${name}`, () => {
    const s = make();
    const good = s.good;
    const loadsBack = (loaded: Uint8Array) => expect(loaded).toEqual(good);

    it("the small checkpoint loads back to the same bytes", () => {
      expect(good.length).toBeGreaterThan(500);
      expect(good.length).toBeLessThan(4000);
      const tally = { rejected: 0, loaded: 0, slowest: 0 };
      attempt(s, good, tally, loadsBack);
      expect(tally.loaded).toBe(1);
    });

    it("every byte mutated four ways: always rejected (checksums cover every byte)", () => {
      const tally = { rejected: 0, loaded: 0, slowest: 0 };
      for (let i = 0; i < good.length; i++) {
        const b = good[i];
        for (const v of new Set([b ^ 0x01, b ^ 0x80, 0x00, 0xff])) {
          if (v === b) continue;
          const bad = good.slice();
          bad[i] = v;
          attempt(s, bad, tally, loadsBack);
        }
      }
      expect(tally.loaded).toBe(0);
      expect(tally.rejected).toBeGreaterThan(3 * good.length);
      expect(tally.slowest).toBeLessThan(500);
    });

    it("every truncation and extension is rejected", () => {
      const tally = { rejected: 0, loaded: 0, slowest: 0 };
      for (let n = 0; n < good.length; n++) attempt(s, good.subarray(0, n), tally, loadsBack);
      for (const extra of [1, 7, 8, 64]) {
        const longer = new Uint8Array(good.length + extra);
        longer.set(good);
        attempt(s, longer, tally, loadsBack);
      }
      expect(tally.rejected).toBe(good.length + 4);
    });

    it("random damage to several bytes is rejected", () => {
      const rng = new Rng(2026);
      const tally = { rejected: 0, loaded: 0, slowest: 0 };
      for (let k = 0; k < 1500; k++) {
        const bad = good.slice();
        const hits = 1 + Math.floor(rng.next() * 8);
        for (let h = 0; h < hits; h++) {
          bad[Math.floor(rng.next() * bad.length)] = Math.floor(rng.next() * 256);
        }
        attempt(s, bad, tally, (b) => expect(b).toEqual(good));
      }
      // a random write may store the byte that was there: only those files load (unchanged)
      expect(tally.rejected + tally.loaded).toBe(1500);
      expect(tally.rejected).toBeGreaterThan(1400);
    });

    it("payload bytes changed under valid checksums: rejected, or loaded exactly as decoded", () => {
      const magic = new TextDecoder().decode(good.subarray(0, 8));
      const c = decodeContainer(good, { magic, maxVersion: 1, where: "t" });
      const tally = { rejected: 0, loaded: 0, slowest: 0 };
      for (const [tag, payload] of c.sections) {
        for (let i = 0; i < payload.length; i++) {
          const p = payload.slice();
          p[i] ^= i % 2 ? 0x10 : 0x41;
          const bad = reseal(good, magic, tag, p);
          // what was loaded must be what the decoder reads from the damaged file
          attempt(s, bad, tally, (loaded) => expect(s.decode(loaded)).toEqual(s.decode(bad)));
        }
      }
      expect(tally.rejected).toBeGreaterThan(0);
      expect(tally.loaded).toBeGreaterThan(0); // e.g. a changed velocity is a valid checkpoint
      expect(tally.slowest).toBeLessThan(500);
    });
  });
}
