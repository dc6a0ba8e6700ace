import { describe, it } from "node:test";
import { expect } from "expect";
import { particlesTable } from "../src/arrow/mod.ts";
import { World } from "../src/sphere3d/mod.ts";
import { StarShape, StarSystem } from "../src/star2d/mod.ts";
import { inNotebook, runWithProgress, show, tableView } from "../src/notebook/mod.ts";
import { DISPLAY, systemBundle, systemSummary, tableBundle } from "../src/notebook/display.ts";
import { Progress } from "../src/math/progress.ts";
import { fakeSystem3d } from "./arrow_fixtures.ts";

type Displayable = Record<symbol, () => Record<string, string>>;

describe("display", () => {
  it("is not in a kernel under deno test, and never throws checking", () => {
    expect(inNotebook()).toBe(false);
  });

  it("summarises a system and draws it", () => {
    const s = systemSummary(fakeSystem3d(), { time: 0.5, stepCount: 9 });
    expect(s.count).toBe(3);
    expect(s.contacts).toBe(2);
    expect(s.maxSpeed).toBeCloseTo(3, 12);
    expect(s.bounds[2]).toEqual([0.01, 0.3]);
    const b = systemBundle(fakeSystem3d());
    expect(b["text/plain"]).toContain("3 particles");
    const src = String(b["text/html"]).match(/<img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/);
    expect((atob(src![1]).match(/<circle/g) ?? []).length).toBe(6);
  });

  it("tables show schema, units and rows", () => {
    const b = tableBundle(particlesTable(fakeSystem3d()), { rows: 2 });
    const html = String(b["text/html"]);
    expect(html).toContain("<th>speed</th>");
    expect(html).toContain("<i>m/s</i>");
    expect((html.match(/<tr>/g) ?? []).length).toBe(2 + 2);
  });

  it("real sphere3d and star2d objects display themselves", () => {
    const world = new World({ timeStep: 1e-4 });
    const g = world.addGranularParticles({
      positions: [[0, 0, 0.05], [0.03, 0, 0.05]],
      radii: 0.01,
    });
    world.run(3);
    const gb = (g as unknown as Displayable)[DISPLAY]();
    expect(gb["text/plain"]).toContain("2 particles");
    expect(gb["text/plain"]).toContain("step 3");
    const wb = (world as unknown as Displayable)[DISPLAY]();
    expect(wb["text/plain"]).toContain("1 system(s)");
    const sys = new StarSystem();
    sys.addGrains({ shape: StarShape.preset("cross"), positions: [[0, 0], [0.01, 0]] });
    const sb = (sys as unknown as Displayable)[DISPLAY]();
    expect(sb["text/plain"]).toContain("star2d: 2 particles");
    const starSvg = atob(String(sb["text/html"]).match(/data:image\/svg\+xml;base64,([^"]+)/)![1]);
    expect((starSvg.match(/<path fill=/g) ?? []).length).toBe(2); // two star outlines
    expect(show(42)[DISPLAY]()["text/plain"]).toBe("42");
  });

  it("leaves apache-arrow's Table alone; tableView and show display tables explicitly", () => {
    const world = new World({ timeStep: 1e-4 });
    const g = world.addGranularParticles({
      positions: [[0, 0, 0.05], [0.03, 0, 0.05]],
      radii: 0.01,
    });
    const t = particlesTable(g);
    // importing the notebook module patched no prototype of apache-arrow
    expect(DISPLAY in Object.getPrototypeOf(t)).toBe(false);
    expect((t as unknown as Displayable)[DISPLAY]).toBeUndefined();
    const tv = tableView(t, { rows: 1 })[DISPLAY]();
    expect(tv["text/plain"]).toMatch(/^Arrow table: 2 rows × \d+ columns/);
    expect((String(tv["text/html"]).match(/<tr>/g) ?? []).length).toBe(2 + 1);
    expect(show(t)[DISPLAY]()).toEqual(tableBundle(t));
    expect(() => tableView({ numRows: 1 } as never)).toThrow(/must be an Arrow Table/);
    expect(() => tableView(t, { rows: -1 })).toThrow(RangeError);
  });
});

describe("progress", () => {
  it("counts, formats and validates", async () => {
    const p = new Progress(10, { label: "settle", mode: "none" });
    p.update(5, "half");
    expect(p.fraction).toBe(0.5);
    expect(p.text()).toMatch(/^settle 5\/10 \( 50%\) \d+ steps\/s — half$/);
    await p.done();
    expect(() => new Progress(0)).toThrow(RangeError);
  });

  it("runWithProgress steps a world and calls back every N steps", async () => {
    const world = new World({ timeStep: 1e-4 });
    world.addGranularParticles({ positions: [[0, 0, 0.05]], radii: 0.01 });
    const seen: number[] = [];
    await runWithProgress(world, 25, { every: 10, onEvery: (k) => seen.push(k), mode: "none" });
    expect(world.stepCount).toBe(25);
    expect(seen).toEqual([10, 20, 25]);
    await expect(runWithProgress(world, -1)).rejects.toThrow(RangeError);
  });
});
