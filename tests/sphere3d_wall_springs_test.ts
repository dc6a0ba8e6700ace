import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";

/**
 * Two grains dragged along the floor against a side wall of the container: the wall springs
 * live beside the planes' candidate lists between rebuilds and in the history table across
 * them. `skin` sets how often the lists are rebuilt (0: every step).
 */
function drag(skin: number | "auto", removeAt = -1) {
  const w = new World({ timeStep: 1e-4, gravity: [0, 0, -9.81] });
  const g = w.addGranularParticles({
    // resting overlaps: m·g/kn = 5.3 µm on the floor, 0.5 µm against the wall
    positions: [[0.0199995, 0.1, 0.0199947], [0.1, 0.05, 0.0199947], [0.3, 0.3, 0.0199947]],
    radii: 0.02,
    velocities: [[0, 0.005, 0], [0.002, -0.001, 0], [0, 0, 0]],
  }, { friction: 0.4, normalStiffness: 1e5, normalDamping: 2 });
  g.setContainerBox([0, 0, 0], [0.4, 0.4, 0.5]);
  g.neighborSkin = skin;
  const seen: number[] = [];
  for (let k = 0; k < 300; k++) {
    if (k === removeAt) g.removeParticle(2);
    // a push along y that sticks, then slides
    g.setExternalForce(0, [-0.05, k < 150 ? 0.05 : 0.6, 0]);
    w.step();
    seen.push(g.contactHistories().owner.length);
  }
  return { g, seen };
}

describe("sphere3d: wall springs held beside the candidate lists", () => {
  it("give the same bytes however often the lists are rebuilt", () => {
    const a = drag(0), b = drag(0.004), c = drag("auto");
    for (const o of [b, c]) {
      expect(Array.from(o.g.positions)).toEqual(Array.from(a.g.positions));
      expect(Array.from(o.g.velocities)).toEqual(Array.from(a.g.velocities));
      expect(o.seen).toEqual(a.seen);
    }
    // grain 0 touches the floor and the x = 0 wall, grain 1 and 2 the floor: four springs
    expect(a.seen[299]).toBe(4);
    const h = a.g.contactHistories();
    const partners = Array.from(h.partner).sort();
    expect(partners).toEqual([0xffffff01, 0xffffff01, 0xffffff01, 0xffffff02]);
    // the wall spring of grain 0 holds its slip along y (it slides by then: the Coulomb cap)
    const e = Array.from(h.partner).indexOf(0xffffff02);
    expect(h.owner[e]).toBe(0);
    expect(Math.abs(h.displacement[3 * e + 1])).toBeGreaterThan(0);
    expect(h.displacement[3 * e] === 0).toBe(true); // none along the wall's normal (±0)
  });

  it("survive a removal (the springs go back to the table) and a checkpoint", () => {
    const a = drag(0.004, 120), b = drag(0, 120);
    expect(Array.from(b.g.positions)).toEqual(Array.from(a.g.positions));
    expect(a.seen[299]).toBe(3);
    const w = new World({ timeStep: 1e-4 });
    const g = w.addGranularParticles({ positions: [[0, 0, 0]], radii: 0.02 });
    const file = Deno.makeTempFileSync({ suffix: ".ckpt" });
    try {
      a.g.saveGranularState(file, { includeContactHistories: true });
      g.loadGranularState(file);
      expect(g.contactHistories()).toEqual(a.g.contactHistories());
    } finally {
      Deno.removeSync(file);
    }
  });

  it("are dropped at the first evaluation without contact, as the table drops them", () => {
    const w = new World({ timeStep: 1e-4, gravity: [0, 0, 0] });
    const g = w.addGranularParticles({
      positions: [[0.1, 0.1, 0.0199]],
      radii: 0.02,
      velocities: [[0.1, 0, 0.02]], // slides and lifts off after a few steps
    }, { friction: 0.4 });
    g.setContainerBox([0, 0, 0], [0.4, 0.4, 0.5]);
    w.step();
    expect(g.contactHistories().owner).toHaveLength(1);
    expect(g.lastStepStats.activeContactHistories).toBe(1);
    let k = 0;
    while (g.lastStepStats.boundaryContacts > 0 && k++ < 100) w.step();
    expect(g.lastStepStats.staleContactHistoriesRemoved).toBe(1);
    expect(g.lastStepStats.activeContactHistories).toBe(0);
    expect(g.contactHistories().owner).toHaveLength(0);
  });
});
