import { describe, it } from "node:test";
import { expect } from "expect";
import { StarShape, StarSystem, type StarSystemOptions } from "../src/star2d/mod.ts";
import {
  CELL_INSIDE,
  CELL_OUTSIDE,
  CELL_REJECT_MIN_SHARE,
  sectorRangeMax,
  ShapeSprite,
  SPRITE_SECTORS,
  spriteAccuracy,
} from "../src/star2d/sprite.ts";
import type { StarSamplingOptions } from "../src/star2d/system.ts";
import { contactBuffers } from "../src/contact/record.ts";
import { Rng } from "../src/math/rng.ts";

const shapes = (): [string, StarShape][] => [
  ["circle", StarShape.preset("circle", { area: 30e-6 })],
  ["cross", StarShape.preset("cross", { area: 30e-6 })],
  ["random17", StarShape.random(17, { area: 30e-6 })],
];

/** The table's verdict, computed as detection does: ρ < r_LUT(α). */
function lutInside(sh: StarShape, x: number, y: number): boolean {
  const rho = Math.sqrt(x * x + y * y);
  return rho < sh.radiusLut(Math.atan2(y, x));
}

describe("star2d sprite: cell classes", () => {
  it("a class-0 cell never holds a point the table puts inside; a class-2 cell never one outside", () => {
    const rng = new Rng(3);
    for (const [, sh] of shapes()) {
      for (const res of [32, 256]) {
        const sp = ShapeSprite.of(sh, res);
        let boundary = 0, checked = 0;
        for (let k = 0; k < 30000; k++) {
          // half the points uniform in the square, half within 2 % of r_max of the boundary
          let x: number, y: number;
          if (k % 2 === 0) {
            x = rng.uniform(-sh.rMax, sh.rMax);
            y = rng.uniform(-sh.rMax, sh.rMax);
          } else {
            const a = rng.uniform(0, 2 * Math.PI);
            const r = sh.radiusLut(a) * (1 + rng.uniform(-0.02, 0.02));
            x = r * Math.cos(a);
            y = r * Math.sin(a);
          }
          const c = sp.classAt(x, y), inside = lutInside(sh, x, y);
          if (c === CELL_OUTSIDE) expect(inside).toBe(false);
          if (c === CELL_INSIDE) expect(inside).toBe(true);
          if (c === 1) boundary++;
          checked++;
        }
        // a boundary cell is tested in full: some points fall there, not all
        expect(boundary).toBeGreaterThan(0);
        expect(boundary).toBeLessThan(checked);
      }
    }
  });

  it("the boundary cells are a thin band (cross: under 3 % of the cells at 256 per side)", () => {
    const sp = new ShapeSprite(StarShape.preset("cross", { area: 30e-6 }), 256);
    expect(sp.classShare[1]).toBeLessThan(0.03);
    expect(sp.classShare[0] + sp.classShare[1] + sp.classShare[2]).toBeCloseTo(1, 12);
    // the inside share is the shape's area over the square's, within the band
    const square = 4 * sp.halfWidth ** 2, area = sp.shape.area / square;
    expect(Math.abs(sp.classShare[2] - area)).toBeLessThan(sp.classShare[1]);
  });

  it("the sector table bounds r(α) on every angular interval (brute force)", () => {
    const rng = new Rng(5);
    for (const [, sh] of shapes()) {
      const t = ShapeSprite.of(sh, 64).sectorMax;
      expect(t[Math.log2(SPRITE_SECTORS) * SPRITE_SECTORS]).toBeCloseTo(sh.rMax, 5);
      for (let k = 0; k < 300; k++) {
        const a0 = rng.uniform(-10, 10), a1 = a0 + rng.uniform(0, 3);
        const bound = sectorRangeMax(t, a0, a1);
        let mx = 0;
        for (let i = 0; i <= 400; i++) mx = Math.max(mx, sh.radiusAt(a0 + ((a1 - a0) * i) / 400));
        expect(bound).toBeGreaterThanOrEqual(mx);
        expect(bound).toBeLessThanOrEqual(sh.rMax * (1 + 2e-6));
      }
    }
  });

  it("checks its resolution", () => {
    const sh = StarShape.preset("cross");
    expect(() => new ShapeSprite(sh, 8)).toThrow(/ShapeSprite: resolution \(8\)/);
    expect(() => new ShapeSprite(sh, 100.5)).toThrow(RangeError);
  });
});

describe("star2d sprite: sampled fields against the lookup table", () => {
  it("first-order distance, radial distance and normal errors fall with the resolution", () => {
    const rows: Record<string, number[]> = {};
    for (const [name, sh] of shapes()) {
      rows[name] = [128, 256, 512].map((res) =>
        spriteAccuracy(sh, { resolution: res, samples: 4000 }).maxFirstOrderError
      );
      expect(rows[name][2]).toBeLessThan(rows[name][0]);
    }
    // measured (20,000 points, band 2 % of r_max): circle 9e-9, cross 2.1e-5, random17
    // 7.1e-4 of r_max at 256 cells per side; random17 7.2e-5 at 512
    expect(rows.circle[1]).toBeLessThan(1e-7);
    expect(rows.cross[1]).toBeLessThan(5e-5);
    expect(rows.random17[1]).toBeLessThan(2e-3);
    expect(rows.random17[2]).toBeLessThan(2e-4);
    const e = spriteAccuracy(shapes()[1][1], { resolution: 256, samples: 4000 });
    expect(e.classErrors).toBe(0);
    expect(e.maxNormalError).toBeLessThan(0.03);
    expect(e.maxRadialError).toBeLessThan(1e-5);
    expect(e.maxFlipDistance).toBeLessThan(1e-4);
  });

  it("reads are deterministic and bounded in the square's corners", () => {
    const sp = ShapeSprite.of(StarShape.preset("cross", { rMax: 1 }), 64);
    const a = sp.distance(0.3, -0.2, true), b = sp.distance(0.3, -0.2, true);
    expect(a).toBe(b);
    expect(Number.isFinite(sp.distance(-1, -1, true))).toBe(true);
    expect(Number.isFinite(sp.distance(5, 5, false))).toBe(true);
  });
});

/** A small settled bed of crosses on a compact staggered lattice (as the benchmark builds). */
function bed(options: StarSystemOptions & StarSamplingOptions, steps: number): StarSystem {
  const shape = StarShape.preset("cross", { area: 30e-6, lutSize: 4000 });
  const R = shape.rMax, sp = 2.02 * R, width = 0.08, perRow = 8;
  const rng = new Rng(7);
  const pos: number[] = [], ang: number[] = [];
  for (let k = 0; k < 96; k++) {
    const row = Math.floor(k / perRow), col = k % perRow;
    pos.push(0.02 + 1.05 * R + col * sp + (row % 2) * 0.5 * sp, 0.01 + 1.05 * R + row * sp * 0.9);
    ang.push(rng.uniform(0, 2 * Math.PI));
  }
  const sys = new StarSystem({ rotationalDamping: 1e-7, friction: 0.5, ...options });
  sys.addGrains({ shape, positions: pos, angles: ang });
  sys.walls.addBox({ min: [0.02, 0.01], max: [0.02 + width, 2], friction: 0.5 });
  sys.run(steps);
  return sys;
}

describe("star2d sprite: detection", () => {
  it("cell rejection leaves the table path's results unchanged, bit for bit", () => {
    const none = bed({ spriteResolution: 0 }, 1200);
    for (const res of [16, 256]) {
      const s = bed({ spriteResolution: res }, 1200);
      expect(s.positions).toEqual(none.positions);
      expect(s.angles).toEqual(none.angles);
      expect(s.contacts.count).toBe(none.contacts.count);
      expect(s.lastStepStats.particleContacts).toBeGreaterThan(100);
    }
  });

  it("sprite sampling is deterministic and settles like the table (contacts, height, forces)", () => {
    const lut = bed({}, 1500);
    const a = bed({ sampling: "sprite" }, 1500), b = bed({ sampling: "sprite" }, 1500);
    expect(a.positions).toEqual(b.positions);
    expect(a.sampling).toBe("sprite");
    const stat = (s: StarSystem) => {
      let top = 0;
      for (let i = 0; i < s.count; i++) top = Math.max(top, s.positions[2 * i + 1]);
      return { top, contacts: s.lastStepStats.particleContacts, ke: s.lastStepStats.kineticEnergy };
    };
    const sl = stat(lut), ss = stat(a);
    // a chaotic granular bed diverges grain by grain; its statistics agree
    expect(Math.abs(ss.contacts - sl.contacts) / sl.contacts).toBeLessThan(0.1);
    expect(Math.abs(ss.top - sl.top)).toBeLessThan(0.5 * StarShape.preset("cross").rMax);
    // one step from the same state: matched contacts carry the same normal force
    const c = new StarSystem({ rotationalDamping: 1e-7, friction: 0.5, sampling: "sprite" });
    c.loadStateBytes(lut.stateBytes());
    lut.step();
    c.step();
    const key = (s: StarSystem) => {
      const m = new Map<string, number>(), buf = contactBuffers(s.contacts);
      for (let k = 0; k < s.contacts.count; k++) {
        const id = `${s.ids[buf.i[k]]}:${buf.j[k] < 0 ? -1 - buf.boundary[k] : s.ids[buf.j[k]]}`;
        m.set(id, Math.max(m.get(id) ?? 0, buf.normalForce[k]));
      }
      return m;
    };
    const ml = key(lut), ms = key(c);
    let worst = 0, fmax = 0, matched = 0;
    for (const f of ml.values()) fmax = Math.max(fmax, f);
    for (const [k, f] of ml) {
      const g = ms.get(k);
      if (g === undefined) {
        // a contact only one side sees is a grazing one
        expect(f).toBeLessThan(0.05 * fmax);
        continue;
      }
      matched++;
      worst = Math.max(worst, Math.abs(g - f));
    }
    expect(matched).toBeGreaterThan(0.95 * ml.size);
    // measured: under 1 % of the largest contact force
    expect(worst / fmax).toBeLessThan(0.02);
  });

  it("checks the sampling options", () => {
    expect(() => new StarSystem({ sampling: "atan" as "lut" })).toThrow(
      /StarSystem: sampling \(atan\) must be "lut" or "sprite"/,
    );
    expect(() => new StarSystem({ spriteResolution: 8 })).toThrow(/spriteResolution \(8\)/);
    expect(() => new StarSystem({ sampling: "sprite", spriteResolution: 0 })).toThrow(
      /with sampling "sprite"/,
    );
    const s = new StarSystem();
    expect(s.sampling).toBe("lut");
    expect(s.spriteResolution).toBe(256);
  });
});

/** A small mixed bed: circles and crosses (every other grain) dropped into a box. */
function mixed(options: StarSystemOptions & StarSamplingOptions, round?: boolean): StarSystem {
  const circle = StarShape.preset("circle", { area: 30e-6, lutSize: 4000 });
  if (round !== undefined) Object.defineProperty(circle, "round", { value: round });
  const cross = StarShape.preset("cross", { area: 30e-6, lutSize: 4000 });
  const R = cross.rMax, sp = 2.02 * R, perRow = 8;
  const rng = new Rng(11);
  const sys = new StarSystem({ rotationalDamping: 1e-7, friction: 0.5, ...options });
  for (const [shape, parity] of [[circle, 0], [cross, 1]] as const) {
    const pos: number[] = [], ang: number[] = [];
    for (let k = parity; k < 80; k += 2) {
      const row = Math.floor(k / perRow), col = k % perRow;
      pos.push(0.02 + 1.05 * R + col * sp + (row % 2) * 0.5 * sp, 0.01 + 1.05 * R + row * sp);
      ang.push(rng.uniform(0, 2 * Math.PI));
    }
    sys.addGrains({ shape, positions: pos, angles: ang });
  }
  sys.walls.addBox({ min: [0.02, 0.01], max: [0.1, 2], friction: 0.5 });
  sys.run(1000);
  return sys;
}

describe("star2d sprite: where the cells pay", () => {
  it("a circle's sprite does not reject (its lens holds no outside cell); a cross's does", () => {
    const circle = ShapeSprite.of(StarShape.preset("circle", { area: 30e-6 }), 256);
    expect(circle.discOutsideShare).toBe(0);
    expect(circle.rejects).toBe(false);
    // 64 + sin 4α: r within ±1.6 % of its mean, still worth it (measured 0.93× the step time)
    const nearly = ShapeSprite.of(new StarShape({ a0: 64, sin: [0, 0, 0, 1] }), 256);
    expect(nearly.discOutsideShare).toBeGreaterThan(CELL_REJECT_MIN_SHARE);
    expect(nearly.rejects).toBe(true);
    // cross: the share is 1 − area/(π r_max²) = 1/2, less the band of boundary cells
    const cross = ShapeSprite.of(StarShape.preset("cross", { area: 30e-6 }), 256);
    expect(cross.rejects).toBe(true);
    expect(cross.discOutsideShare).toBeLessThan(0.5);
    expect(cross.discOutsideShare).toBeGreaterThan(0.5 - 2 * cross.classShare[1]);
  });

  it("a mixed bed gives the same bytes with cells on one shape, both or neither", () => {
    const none = mixed({ spriteResolution: 0 }), cells = mixed({});
    expect(cells.positions).toEqual(none.positions);
    expect(cells.angles).toEqual(none.angles);
    expect(cells.velocities).toEqual(none.velocities);
    expect(cells.contacts.count).toBe(none.contacts.count);
    expect(none.lastStepStats.particleContacts).toBeGreaterThan(50);
  });

  it("a circle's test skips the angle and table and gives the same bytes", () => {
    expect(StarShape.preset("circle").round).toBe(true);
    expect(StarShape.preset("cross").round).toBe(false);
    expect(new StarShape({ a0: 64, sin: [0, 0, 0, 1] }).round).toBe(false);
    const fast = mixed({ spriteResolution: 0 }), table = mixed({ spriteResolution: 0 }, false);
    expect(fast.positions).toEqual(table.positions);
    expect(fast.angles).toEqual(table.angles);
    expect(fast.angularVelocities).toEqual(table.angularVelocities);
  });

  it("circles take the exact test under sprite sampling too (same bytes as the table)", () => {
    const circles = (options: StarSamplingOptions) => {
      const shape = StarShape.preset("circle", { area: 30e-6, lutSize: 4000 });
      const R = shape.rMax, pos: number[] = [];
      for (let k = 0; k < 60; k++) {
        pos.push(
          0.02 + 1.1 * R + (k % 8) * 2.05 * R + (k % 3) * 1e-4,
          0.015 + Math.floor(k / 8) * 2.2 * R,
        );
      }
      const sys = new StarSystem({ friction: 0.5, ...options });
      sys.addGrains({ shape, positions: pos });
      sys.walls.addBox({ min: [0.02, 0.01], max: [0.02 + 16.6 * R, 2], friction: 0.5 });
      sys.run(800);
      return sys;
    };
    const lut = circles({}), sprite = circles({ sampling: "sprite" });
    expect(sprite.positions).toEqual(lut.positions);
    expect(sprite.angularVelocities).toEqual(lut.angularVelocities);
    expect(lut.lastStepStats.particleContacts).toBeGreaterThan(40);
  });
});
