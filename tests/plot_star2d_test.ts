// Figures and tables from real star2d and ipc1d objects (not fakes).
import { describe, it } from "node:test";
import { expect } from "expect";
import { StarShape, StarSystem } from "../src/star2d/mod.ts";
import { simulateBar } from "../src/ipc1d/mod.ts";
import { barTable, contactsTable, particlesTable } from "../src/arrow/mod.ts";
import { barComparison, forceNetwork, particles2d } from "../src/plot/mod.ts";
import { forceChains } from "../src/plot/marks/chains.ts";
import { parseSVG, plotDocument } from "../src/plot/dom.ts";
import * as Plot from "@observablehq/plot";
import { ContactKind } from "../src/contact/record.ts";

function twoCrossesOnAFloor() {
  const sys = new StarSystem({ timeStep: 1e-4, friction: 0.5 });
  sys.addGrains({
    shape: StarShape.preset("cross", { rMax: 0.005 }),
    positions: [[0.01, 0.006], [0.0205, 0.006]],
    angles: [0, 0.3],
  });
  sys.walls.addBox({ min: [0, 0], max: [0.04, 1] });
  sys.run(1000);
  return sys;
}

describe("star2d systems", () => {
  it("particles2d draws true outlines and the walls", () => {
    const sys = twoCrossesOnAFloor();
    const root = parseSVG(particles2d(sys, { color: "none" }).svg);
    expect(root.querySelectorAll("path[fill='#4682b4']").length).toBe(2);
    // floor and the two side walls of the open box
    expect(root.querySelectorAll("line[stroke='#555']").length).toBe(3);
  });

  it("tables carry time and step from the system; wall contacts become kind 'wall', j = -1", () => {
    const sys = twoCrossesOnAFloor();
    const p = particlesTable(sys);
    expect(Number(p.schema.metadata.get("grainlab.time"))).toBeCloseTo(0.1, 12);
    expect(p.schema.metadata.get("grainlab.step")).toBe("1000");
    expect(p.getChild("angle")!.get(1)).toBeCloseTo(sys.angles[1], 12);
    const c = contactsTable(sys);
    const kinds = [...c.getChild("kind")!];
    expect(kinds.length).toBe(sys.contacts.count);
    const j = c.getChild("j")!.toArray();
    kinds.forEach((k, r) => expect(k === "wall" ? j[r] === -1 : k === "particle").toBe(true));
    expect(kinds).toContain("wall");
    const f = forceNetwork(sys);
    expect(f.info.links).toBe(c.numRows);
  });

  it("force chains run wall contacts (kind wall, j = -1) from the centre to the contact point", () => {
    const sys = twoCrossesOnAFloor();
    const c = sys.contacts;
    const walls: number[] = [];
    for (let k = 0; k < c.count; k++) {
      if (c.kind[k] === ContactKind.wall) {
        expect(c.j[k]).toBe(-1);
        walls.push(k);
      }
    }
    expect(walls.length).toBeGreaterThan(0);
    const m = forceChains(sys, { boundaries: true, stroke: "black" });
    expect(m.links).toBe(Array.from(c.normalForce).filter((f) => f > 0).length);
    const el = Plot.plot({
      document: plotDocument() as never,
      aspectRatio: 1,
      marks: [m],
    }) as unknown as { scale(n: string): { apply(v: number): number }; outerHTML: string };
    const sx = el.scale("x").apply, sy = el.scale("y").apply;
    const ends = Array.from(
      parseSVG(el.outerHTML).querySelectorAll("line"),
      (l) =>
        `${Math.round(Number(l.getAttribute("x2")))},${Math.round(Number(l.getAttribute("y2")))}`,
    );
    for (const k of walls) {
      if (!(c.normalForce[k] > 0)) continue;
      const end = `${Math.round(sx(c.point[2 * k]))},${Math.round(sy(c.point[2 * k + 1]))}`;
      expect(ends).toContain(end);
    }
  });
});

describe("ipc1d runs", () => {
  it("barTable keeps the trajectory columns with units; barComparison draws them", () => {
    const run = simulateBar({ problem: "impact", elements: 20 });
    const t = barTable(run);
    expect(t.numRows).toBe(run.time.length);
    const names = t.schema.fields.map((f) => f.name);
    for (const n of ["time", "endPosition", "contactForce", "energy", "exactEndPosition"]) {
      expect(names).toContain(n);
    }
    expect(t.schema.fields.find((f) => f.name === "contactForce")!.metadata.get("unit")).toBe("N");
    expect(t.getChild("endPosition")!.get(5)).toBe(run.endPosition[5]);
    expect(JSON.parse(t.schema.metadata.get("grainlab.run.metrics")!).minGap).toBe(
      run.metrics.minGap,
    );
    const fig = barComparison({ ipc: run }, {
      analytic: { time: run.time, endPosition: run.exactEndPosition },
    });
    expect(fig.info.series).toBe(2);
  });
});
