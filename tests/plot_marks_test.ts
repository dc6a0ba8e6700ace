// The grains, forceChains and walls marks inside a user's own Plot.plot.
import { describe, it } from "node:test";
import { expect } from "expect";
import * as Plot from "@observablehq/plot";
import { contactsTable, particlesTable } from "../src/arrow/mod.ts";
import { ContactKind } from "../src/contact/record.ts";
import { StarShape, StarSystem } from "../src/star2d/mod.ts";
import { type DomElement, parseSVG, plotDocument } from "../src/plot/dom.ts";
import { forceChains } from "../src/plot/marks/chains.ts";
import { grains } from "../src/plot/marks/grains.ts";
import { plotFigure } from "../src/plot/marks/plot_figure.ts";
import { walls } from "../src/plot/marks/walls.ts";
import { fakeSystem3d } from "./arrow_fixtures.ts";

type Chart = DomElement & {
  scale(name: string): { apply(v: number): number; domain: number[]; type: string } | undefined;
};

/** The user's own chart: Plot.plot with the shared server-side document. */
function chart(options: Plot.PlotOptions): Chart {
  return Plot.plot({ document: plotDocument() as never, ...options }) as unknown as Chart;
}

const attr = (e: DomElement, name: string) => Number(e.getAttribute(name));
const all = (root: DomElement, selector: string) => Array.from(root.querySelectorAll(selector));

function discs() {
  return {
    count: 3,
    dimension: 2,
    positions: new Float64Array([0, 0, 1, 0.5, 2.5, 1]),
    velocities: new Float64Array([0, 0, 1, 0, 0, 2]),
    radii: new Float64Array([0.5, 0.25, 0.5]),
  };
}

describe("grains in a user's Plot.plot", () => {
  it("draws one circle per grain at the scaled centre with the scaled radius", () => {
    const sys = discs();
    const el = chart({
      width: 400,
      height: 300,
      x: { domain: [-1, 3] },
      y: { domain: [-1, 2] },
      marks: [grains(sys), Plot.ruleY([0])],
    });
    const sx = el.scale("x")!.apply, sy = el.scale("y")!.apply;
    const cs = all(el, "g[aria-label='grains'] circle");
    expect(cs.length).toBe(3);
    for (let i = 0; i < 3; i++) {
      const x = sys.positions[2 * i], y = sys.positions[2 * i + 1], r = sys.radii[i];
      expect(attr(cs[i], "cx")).toBeCloseTo(sx(x), 1);
      expect(attr(cs[i], "cy")).toBeCloseTo(sy(y), 1);
      // 85 px per unit across, 83.3 up: close enough to draw circles (2 % + 0.5 px)
      expect(attr(cs[i], "r")).toBeCloseTo(Math.abs(sx(x + r) - sx(x)), 1);
    }
    // the user's own mark is there too
    expect(all(el, "g[aria-label='rule'] line").length).toBe(1);
  });

  it("widens Plot's automatic domains to whole grains and labels the axes with units", () => {
    const el = chart({ marks: [grains(discs())] });
    const x = el.scale("x")!.domain, y = el.scale("y")!.domain;
    expect(x[0]).toBeLessThanOrEqual(-0.5);
    expect(x[1]).toBeGreaterThanOrEqual(3);
    expect(y[0]).toBeLessThanOrEqual(-0.5);
    expect(y[1]).toBeGreaterThanOrEqual(1.5);
    expect(el.outerHTML).toContain("x (m)");
    expect(el.outerHTML).toContain("y (m)");
  });

  it("keeps discs round with aspectRatio 1 and draws true-extent ellipses otherwise", () => {
    const round = chart({ aspectRatio: 1, marks: [grains(discs())] });
    expect(all(round, "ellipse").length).toBe(0);
    const sx = round.scale("x")!.apply, sy = round.scale("y")!.apply;
    expect(Math.abs(sx(1) - sx(0))).toBeCloseTo(Math.abs(sy(1) - sy(0)), 6);
    const c = all(round, "circle")[0];
    expect(attr(c, "r")).toBeCloseTo(0.5 * Math.abs(sx(1) - sx(0)), 1);
    const squashed = chart({ width: 600, height: 200, marks: [grains(discs())] });
    const es = all(squashed, "ellipse");
    expect(es.length).toBe(3);
    const tx = squashed.scale("x")!.apply, ty = squashed.scale("y")!.apply;
    expect(attr(es[0], "rx")).toBeCloseTo(0.5 * Math.abs(tx(1) - tx(0)), 1);
    expect(attr(es[0], "ry")).toBeCloseTo(0.5 * Math.abs(ty(1) - ty(0)), 1);
  });

  it("fills by a column through the plot's color scale, by a constant, or by literal colours", () => {
    const byColumn = chart({ aspectRatio: 1, marks: [grains(discs(), { fill: "speed" })] });
    const color = byColumn.scale("color")!;
    expect(color.domain).toEqual([0, 2]);
    const fills = all(byColumn, "circle").map((c) => c.getAttribute("fill"));
    expect(fills).toEqual([0, 1, 2].map((v) => color.apply(v)));
    const constant = chart({ aspectRatio: 1, marks: [grains(discs(), { fill: "tomato" })] });
    expect(all(constant, "circle[fill='tomato']").length).toBe(3);
    expect(constant.scale("color")).toBeUndefined();
    const literal = chart({
      aspectRatio: 1,
      marks: [grains(discs(), { fill: (i) => ["red", "#0f0", "blue"][i] })],
    });
    expect(all(literal, "circle").map((c) => c.getAttribute("fill"))).toEqual([
      "red",
      "#0f0",
      "blue",
    ]);
    expect(() => grains(discs(), { fill: "nope" })).toThrow(/neither a column nor a CSS colour/);
    expect(() => grains(discs(), { fill: [1] })).toThrow(/has 1 values, need one per item \(3\)/);
    expect(() => grains(discs(), { fill: "depth" })).toThrow(/needs a 3D source/);
  });

  it("projects 3D beds: side view x–z, nearer spheres (small y) drawn last", () => {
    const s = {
      count: 3,
      positions: [0, 0.5, 0.1, 0.05, 0.0, 0.1, 0.1, 0.2, 0.3],
      velocities: new Array(9).fill(0),
      radii: [0.05, 0.05, 0.05],
    };
    const m = grains(s, { view: "side" });
    expect([m.xColumn, m.yColumn]).toEqual(["x", "z"]);
    const el = chart({ aspectRatio: 1, marks: [m] });
    const sx = el.scale("x")!.apply;
    const cx = all(el, "circle").map((c) => attr(c, "cx"));
    // far (y = 0.5) first, then y = 0.2, then the nearest (y = 0)
    expect(cx[0]).toBeCloseTo(sx(0), 1);
    expect(cx[1]).toBeCloseTo(sx(0.1), 1);
    expect(cx[2]).toBeCloseTo(sx(0.05), 1);
    const top = grains(s, { view: "top", fill: "depth" });
    expect([top.xColumn, top.yColumn]).toEqual(["x", "y"]);
    expect(() => grains(s, { view: "under" as never })).toThrow(/must be side, front or top/);
    // and from an Arrow table alike
    expect(grains(particlesTable(s), { view: "front" }).count).toBe(3);
  });

  it("draws star2d grains as their outlines", () => {
    const sys = new StarSystem({ timeStep: 1e-4 });
    sys.addGrains({
      shape: StarShape.preset("cross", { rMax: 0.005 }),
      positions: [[0, 0], [0.011, 0]],
      angles: [0, 0.4],
    });
    const el = chart({ aspectRatio: 1, marks: [grains(sys, { fill: "steelblue" })] });
    const paths = all(el, "g[aria-label='grains'] path");
    expect(paths.length).toBe(2);
    // the path's vertices lie within the bounding radius of the grain's centre
    const sx = el.scale("x")!.apply, sy = el.scale("y")!.apply;
    const k = Math.abs(sx(1) - sx(0));
    const d = paths[1].getAttribute("d")!;
    for (const [, u, v] of d.matchAll(/[ML]([-\d.]+),([-\d.]+)/g)) {
      expect(Math.hypot(Number(u) - sx(0.011), Number(v) - sy(0)) / k).toBeLessThan(0.0051);
    }
    const asDiscs = chart({ aspectRatio: 1, marks: [grains(sys, { outlines: false })] });
    expect(all(asDiscs, "circle").length).toBe(2);
  });

  it("throws naming the column and the index of a NaN position", () => {
    const s = discs();
    s.positions[3] = NaN;
    expect(() => grains(s)).toThrow("grains: y[1] is NaN, must be a finite number");
    expect(grains(discs())).toBeInstanceOf(Plot.Mark); // a real Plot mark
  });
});

describe("forceChains in a user's Plot.plot", () => {
  function network() {
    return {
      ...discs(),
      contacts: {
        count: 4,
        i: [1, 2, 0, 2],
        j: [0, 1, -1, 1],
        kind: [
          ContactKind.particle,
          ContactKind.particle,
          ContactKind.ground,
          ContactKind.particle,
        ],
        point: [0.5, 0.25, 1.75, 0.75, 0, -0.5, 1.75, 0.75],
        normal: [1, 0, 1, 0, 0, 1, 1, 0],
        overlap: [0.01, 0.01, 0.01, 0],
        normalForce: [4, 2, 1, 0],
        tangentialForce: [0, 0, 0, 0, 0, 0, 0, 0],
      },
    };
  }

  it("joins centres, runs boundary contacts to the contact point, width ∝ force", () => {
    const m = forceChains(network(), { maxWidth: 8, minWidth: 0 });
    expect(m).toBeInstanceOf(Plot.Mark);
    expect([m.links, m.maxForce]).toEqual([3, 4]); // the zero-force contact is left out
    const el = chart({
      x: { domain: [-1, 3] },
      y: { domain: [-1, 2] },
      marks: [grains(network(), { fill: "#eee" }), m],
    });
    const sx = el.scale("x")!.apply, sy = el.scale("y")!.apply;
    const ls = all(el, "g[aria-label='force chains'] line");
    expect(ls.length).toBe(3);
    const seg = (l: DomElement) => ["x1", "y1", "x2", "y2"].map((a) => attr(l, a));
    const near = (got: number[], want: number[]) =>
      got.forEach((v, k) => expect(v).toBeCloseTo(want[k], 1));
    // weakest first: the ground contact (1 N) from grain 0 to its contact point
    near(seg(ls[0]), [sx(0), sy(0), sx(0), sy(-0.5)]);
    expect(attr(ls[0], "stroke-width")).toBeCloseTo(2, 2);
    // then grain 2 → grain 1 (2 N), then grain 1 → grain 0 (4 N, full width)
    near(seg(ls[1]), [sx(2.5), sy(1), sx(1), sy(0.5)]);
    near(seg(ls[2]), [sx(1), sy(0.5), sx(0), sy(0)]);
    expect(attr(ls[2], "stroke-width")).toBe(8);
    // default colours: light to dark on their own scale, not the plot's
    expect(el.scale("color")).toBeUndefined();
    expect(m.colorScale!.domain).toEqual([0, 4]);
    expect(ls[2].getAttribute("stroke")).toBe(m.colorScale!.apply(4));
  });

  it("puts the force on the plot's color scale with stroke: 'force'; filters boundaries", () => {
    const el = chart({ marks: [forceChains(network(), { stroke: "force" })] });
    expect(el.scale("color")!.domain).toEqual([1, 4]);
    expect(forceChains(network(), { boundaries: false }).links).toBe(2);
    expect(forceChains(network(), { maxContacts: 1 }).maxForce).toBe(4);
    const red = chart({ marks: [forceChains(network(), { stroke: "red" })] });
    expect(all(red, "line[stroke='red']").length).toBe(3);
  });

  it("reads 3D systems in any view, and { particles, contacts } tables", () => {
    const s = fakeSystem3d();
    const side = forceChains(s, { view: "side" });
    expect(side.links).toBe(2);
    const el = chart({ marks: [side] });
    const sz = el.scale("y")!.apply;
    const ground = all(el, "line")[0]; // the weaker ground contact of particle 2
    expect(attr(ground, "y2")).toBeCloseTo(sz(0), 1);
    const tables = forceChains({ particles: particlesTable(s), contacts: contactsTable(s) });
    expect([tables.links, tables.maxForce]).toEqual([side.links, side.maxForce]);
    const top = chart({ marks: [forceChains(s, { view: "top" })] });
    const tx = top.scale("x")!.apply, ty = top.scale("y")!.apply;
    const pair = all(top, "line")[1]; // particles 0 → 1 along x
    expect([attr(pair, "x1"), attr(pair, "y1")].map(Math.round)).toEqual(
      [tx(0), ty(0)].map(Math.round),
    );
    expect(attr(pair, "x2")).toBeCloseTo(tx(0.02), 1);
  });

  it("validates its input", () => {
    expect(() => forceChains({ count: 0, positions: [], velocities: [] })).toThrow(TypeError);
    const bad = network();
    bad.contacts.j[0] = 7;
    expect(() => forceChains(bad)).toThrow(
      "forceChains: contacts.j[0] is 7, must be a particle slot in [0, 3)",
    );
    const nan = network();
    nan.contacts.point[5] = NaN;
    expect(() => forceChains(nan)).toThrow(/contact 2 .* NaN/);
    expect(() => forceChains(network(), { stroke: "force!" })).toThrow(RangeError);
  });
});

describe("walls in a user's Plot.plot", () => {
  const box = {
    count: 4,
    kind: [0, 1, 2, 0],
    enabled: [1, 1, 1, 0],
    // floor y = 0; a segment (1, 1)–(2, 1), half-thickness 0.1; a drum at (1, 1), R = 2;
    // a disabled plane
    geom: [
      ...[0, 0, 0, 1, 0, 0, 0, 0],
      ...[1, 1, 2, 1, 0.1, 0, 0, 0],
      ...[1, 1, 2, 0, 0, 1, 1, 0],
      ...[5, 0, 1, 0, 0, 0, 0, 0],
    ],
  };

  it("planes span the frame, segments keep their thickness, drums are circles", () => {
    const m = walls({ walls: box });
    expect(m.count).toBe(3);
    const el = chart({ width: 400, aspectRatio: 1, marks: [m] });
    const sx = el.scale("x")!.apply, sy = el.scale("y")!.apply;
    // the drum sets the domain: [−1, 3] on both axes
    expect(el.scale("x")!.domain).toEqual([-1, 3]);
    const [floor, seg] = all(el, "g[aria-label='walls'] line");
    expect(attr(floor, "y1")).toBeCloseTo(sy(0), 1);
    expect(attr(floor, "y2")).toBeCloseTo(sy(0), 1);
    expect(Math.min(attr(floor, "x1"), attr(floor, "x2"))).toBeCloseTo(sx(-1), 1);
    expect(Math.max(attr(floor, "x1"), attr(floor, "x2"))).toBeCloseTo(sx(3), 1);
    // 2 × the half-thickness 0.1, in pixels along the segment's normal (y)
    expect(attr(seg, "stroke-width")).toBeCloseTo(2 * Math.abs(sy(1.1) - sy(1)), 1);
    expect(seg.getAttribute("stroke-linecap")).toBe("round");
    const drum = all(el, "g[aria-label='walls'] circle");
    expect(drum.length).toBe(1);
    expect(attr(drum[0], "r")).toBeCloseTo(2 * Math.abs(sx(1) - sx(0)), 1);
    expect(() => walls({} as never)).toThrow(TypeError);
  });
});

describe("plotFigure", () => {
  it("renders a mixed chart as a standalone figure; rejects HTML figures", () => {
    const fig = plotFigure({
      aspectRatio: 1,
      marks: [
        grains(discs(), { fill: "speed" }),
        Plot.ruleY([0]),
        Plot.text(["hi"], { x: 1, y: 1 }),
      ],
    });
    expect(fig.svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg"')).toBe(true);
    const root = parseSVG(fig.svg);
    expect(root.querySelectorAll("circle").length).toBe(3);
    expect(fig.svg).not.toMatch(/NaN/);
    expect(fig.toPNG({ scale: 1 }).length).toBeGreaterThan(1000);
    expect(() => plotFigure({ title: "T", marks: [Plot.dot([[0, 0]])] })).toThrow(
      /returned a <figure>/,
    );
  });
});
