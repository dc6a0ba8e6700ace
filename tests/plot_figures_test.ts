import { describe, it } from "node:test";
import { expect } from "expect";
import { particlesTable } from "../src/arrow/mod.ts";
import {
  barComparison,
  bed3d,
  colorScale,
  compose,
  distanceErrorFigure,
  Figure,
  forceNetwork,
  heightMap,
  lines,
  parseSVG,
  particles2d,
  slice3d,
  timeSeries,
  toPNG,
  toSVG,
} from "../src/plot/mod.ts";
import { fakeSystem2d, fakeSystem3d } from "./arrow_fixtures.ts";

const count = (svg: string, tag: string) => parseSVG(svg).querySelectorAll(tag).length;
const isPng = (b: Uint8Array) =>
  b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47 && b.length > 500;

function grid2d(nx: number, ny: number) {
  const n = nx * ny, pos = new Float64Array(2 * n), vel = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    pos[2 * k] = (k % nx) * 0.02;
    pos[2 * k + 1] = Math.floor(k / nx) * 0.02;
    vel[2 * k] = k / n;
  }
  return {
    count: n,
    dimension: 2,
    positions: pos,
    velocities: vel,
    radii: new Float64Array(n).fill(0.01),
  };
}

describe("figure basics", () => {
  it("toSVG adds xmlns; the SVG parses; toPNG gives a PNG of the right size", () => {
    const s = toSVG('<svg width="40" height="30"><rect width="10" height="10"/></svg>');
    expect(s).toContain('xmlns="http://www.w3.org/2000/svg"');
    expect(count(s, "rect")).toBe(1);
    const png = toPNG(s, { scale: 2 });
    expect(isPng(png) || png.length > 60).toBe(true);
    const w = new DataView(png.buffer, png.byteOffset + 16, 8);
    expect([w.getUint32(0), w.getUint32(4)]).toEqual([80, 60]);
    expect(() => toSVG("<div/>")).toThrow(TypeError);
  });

  it("compose lays out panels with title and legend", () => {
    const p = { svg: '<svg width="100" height="50"></svg>', width: 100, height: 50 };
    const f = compose([p, p, p], { columns: 2, title: "T", legend: p });
    expect(f).toBeInstanceOf(Figure);
    expect(count(f.svg, "svg")).toBe(4); // 3 nested panels + legend
    expect(f.width).toBe(100 * 2 + 12 + 100 + 12 + 12);
    expect(() => compose([])).toThrow(RangeError);
  });

  it("Figure displays itself in Jupyter as SVG", () => {
    const f = particles2d(fakeSystem2d());
    const bundle = (f as unknown as Record<symbol, () => Record<string, string>>)[
      Symbol.for("Jupyter.display")
    ]();
    expect(bundle["image/svg+xml"]).toContain("<svg");
  });

  it("colour scales: categorical for few integers, linear otherwise", () => {
    expect(colorScale([0, 1, 1, 2]).type).toBe("categorical");
    const lin = colorScale([0, 0.5, 10]);
    expect(lin.type).toBe("linear");
    expect(lin.domain).toEqual([0, 10]);
    expect(lin.apply(0)).not.toBe(lin.apply(10));
  });
});

describe("particle figures", () => {
  it("particles2d draws one true-size disc per grain", () => {
    const f = particles2d(grid2d(10, 5), { title: "grid" });
    expect(count(f.svg, "circle")).toBe(50);
    expect(f.info.drawn).toBe(50);
    const r = Number(parseSVG(f.svg).querySelectorAll("circle")[0].getAttribute("r"));
    const c = parseSVG(f.svg).querySelectorAll("circle");
    const dx = Number(c[1].getAttribute("cx")) - Number(c[0].getAttribute("cx"));
    // neighbours 0.02 m apart with radius 0.01 m touch: distance = 2 r in pixels
    expect(dx).toBeCloseTo(2 * r, 1);
    expect(isPng(f.toPNG())).toBe(true);
  });

  it("star outlines are drawn as paths, rotated by angle", () => {
    const s = fakeSystem2d();
    const square = [1, 0, 0, 1, -1, 0, 0, -1].map((v) => v * 0.4);
    const f = particles2d(s, { outline: () => square, color: "none" });
    expect(count(f.svg, "path[fill='#4682b4']")).toBe(2);
  });

  it("switches to density cells beyond maxParticles", () => {
    const f = particles2d(grid2d(60, 60), { maxParticles: 1000 });
    expect(f.info.mode).toBe("density");
    expect(count(f.svg, "circle")).toBe(0);
    expect(Number(f.info.drawn)).toBeGreaterThan(100);
    expect(f.svg.length).toBeLessThan(400_000);
  });

  it("bed3d draws side and top views from a system or a table", () => {
    const f = bed3d(fakeSystem3d(), { color: "depth" });
    expect(count(f.svg, "circle")).toBe(6);
    const g = bed3d(particlesTable(fakeSystem3d()), { views: ["front"], color: "materialId" });
    expect(count(g.svg, "circle")).toBe(3);
    expect(() => bed3d(fakeSystem2d())).toThrow(RangeError);
    expect(() => bed3d(fakeSystem3d(), { color: "nope" })).toThrow(/no column "nope"/);
  });

  it("heightMap finds the top of the bed; slice3d cuts spheres", () => {
    const s = fakeSystem3d();
    const h = heightMap(s, { cells: 5 });
    expect(Number(h.info.maxHeight)).toBeCloseTo(0.32, 12);
    expect(Number(h.info.cells)).toBeGreaterThan(0);
    const sl = slice3d(s, { axis: "z", at: 0.01 });
    expect(sl.info.cut).toBe(2);
    expect(count(sl.svg, "circle")).toBe(2);
  });
});

describe("force network", () => {
  it("draws one segment per contact with width proportional to force", () => {
    const f = forceNetwork(fakeSystem3d(), { view: "side" });
    expect(f.info.links).toBe(2);
    expect(f.info.maxForce).toBe(2);
    const ls = parseSVG(f.svg).querySelectorAll("g[stroke-linecap='round'] line");
    expect(ls.length).toBe(2);
    const widths = Array.from(ls, (l) => Number(l.getAttribute("stroke-width")));
    expect(widths[1]).toBeCloseTo(6, 5); // strongest chain drawn last at maxWidth
    expect(widths[0]).toBeCloseTo(0.4 + 5.6 * 0.04, 1);
    const none = forceNetwork(fakeSystem3d(), { boundaries: false });
    expect(none.info.links).toBe(1);
    expect(() => forceNetwork({ count: 0, positions: [], velocities: [] })).toThrow(TypeError);
  });
});

describe("series and distance figures", () => {
  it("lines / timeSeries / barComparison", () => {
    const t = [0, 1, 2, 3];
    const f = lines([{ label: "a", x: t, y: [1, 2, 3, 4] }], { yLabel: "E (J)" });
    expect(f.info.points).toBe(4);
    expect(count(f.svg, "path")).toBeGreaterThanOrEqual(1);
    expect(() => lines([{ label: "bad", x: [1], y: [1, 2] }])).toThrow(/1 x values/);
    const ts = timeSeries([{ time: 0, k: 1 }, { time: 1, k: 2 }], { y: ["k"] });
    expect(ts.info.series).toBe(1);
    expect(() => timeSeries([{ time: 0 }], { y: ["k"] })).toThrow(/no field "k"/);
    const bc = barComparison(
      {
        ipc: { time: t, contactForce: [0, 1, 1, 0] },
        penalty: { time: t, contactForce: [0, 2, 1, 0] },
      },
      { y: "contactForce", analytic: { time: t, contactForce: [0, 1, 1, 0] } },
    );
    expect(bc.info.series).toBe(3);
    expect(bc.svg).toContain("stroke-dasharray");
  });

  it("distanceErrorFigure draws two maps and reports the maxima", () => {
    const x: number[] = [], y: number[] = [], a: number[] = [], b: number[] = [];
    for (let i = 0; i < 10; i++) {
      for (let j = 0; j < 10; j++) {
        x.push(i * 0.1);
        y.push(j * 0.1);
        a.push(1e-3 * (i + 1));
        b.push(1e-2 * (j + 1));
      }
    }
    const f = distanceErrorFigure(
      { count: 100, x, y, firstOrderError: a, radialError: b },
      { outline: [0.2, 0.2, 0.8, 0.2, 0.5, 0.8] },
    );
    expect(f.info.maxFirstOrderError).toBeCloseTo(0.01, 12);
    expect(f.info.maxRadialError).toBeCloseTo(0.1, 12);
    expect(count(f.svg, "rect[width]")).toBeGreaterThanOrEqual(200);
    expect(() =>
      distanceErrorFigure({ count: 0, x: [], y: [], firstOrderError: [], radialError: [] })
    )
      .toThrow(RangeError);
  });
});
