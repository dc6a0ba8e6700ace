import { describe, it } from "node:test";
import { expect } from "expect";
import { clumpColumnCollapse } from "../src/experiments/mod.ts";
import { collapsePile } from "../src/experiments/collapse2d.ts";

// Tolerance stated in clumpColumnCollapse's documentation (scale "ci": 160 grains, 1.2 s,
// seeds 1–3): clumps of 17 disks, which fill the cross within 2.5 %, stand in a pile whose
// mean angle lies within TOL degrees of the 100-node star grains' (measured 4.4°), and both
// lie more than GAP degrees above disks of the same area (measured 15° and 20°). One
// 160-grain pile varies by 2–6° from seed to seed, so TOL is about three standard errors of
// the difference of two three-seed means; at full size the clumps stand 2–4° steeper.
const TOL = 8;
const GAP = 10;

describe("experiments: column collapse of star grains against clumps of disks (star2d)", () => {
  it("17-disk clumps pile within 8° of 100-node star grains, both > 10° above disks", () => {
    const r = clumpColumnCollapse({ starNodes: [100], clumpDisks: [17] });
    const [star, clump, disk] = r.methods;
    expect([star.label, clump.label, disk.label]).toEqual([
      "star, 100 nodes",
      "clump, 17 disks",
      "disk, same area",
    ]);
    expect(Math.abs(clump.angle - star.angle)).toBeLessThan(TOL);
    expect(star.angle - disk.angle).toBeGreaterThan(GAP);
    expect(clump.angle - disk.angle).toBeGreaterThan(GAP);
    // every pile is a pile: finite flanks below the steepest angle a cross pile can hold
    for (const m of r.methods) {
      for (const a of m.angles) {
        expect(a).toBeGreaterThan(0);
        expect(a).toBeLessThan(45);
      }
      expect(m.cost).toBeGreaterThan(0);
    }
    expect(star.relativeCost).toBe(1);
    // the same layout for every method: the clumps' disks sit inside the star grains' outline,
    // so every clump's bounding radius is at most the star's r_max
    expect(Math.max(...clump.pile.packing.radii)).toBeLessThanOrEqual(0.005 + 1e-12);
    expect(clump.pile.clumpDisks?.radii.length).toBe(17 * r.grains);
  });

  it("rejects bad input naming the function, the parameter, the value and the rule", () => {
    expect(() => clumpColumnCollapse({ starNodes: [4] })).toThrow(
      /clumpColumnCollapse: starNodes\[0\] \(4\) must be an integer in \[8, 10000\]/,
    );
    expect(() => clumpColumnCollapse({ seeds: [] })).toThrow(/seeds has 0 values/);
    expect(() => clumpColumnCollapse({ clumpTimeStep: -1 })).toThrow(
      /clumpTimeStep \(-1\) must be > 0/,
    );
    expect(() => clumpColumnCollapse({ starNodes: [], clumpDisks: [], equalAreaDisks: false }))
      .toThrow(/no method to run/);
    expect(() => collapsePile("cube" as "star")).toThrow(/collapsePile: method \(cube\)/);
    expect(() => collapsePile("star", { grains: 430 })).toThrow(/grains \(430\)/);
  });
});
