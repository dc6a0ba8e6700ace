import { describe, it } from "node:test";
import { expect } from "expect";
import { particlesTable } from "../src/arrow/mod.ts";
import {
  barComparison,
  bed3d,
  compose,
  distanceErrorFigure,
  Figure,
  forceNetwork,
  heightMap,
  lines,
  particles2d,
  slice3d,
  timeSeries,
} from "../src/plot/mod.ts";
import { colorScale } from "../src/plot/color.ts";
import { parseSVG } from "../src/plot/dom.ts";
import { toPNG, toSVG } from "../src/plot/figure.ts";
import { fakeSystem2d, fakeSystem3d } from "./arrow_fixtures.ts";

const count = (svg: string, tag: string) => parseSVG(svg).querySelectorAll(tag).length;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** Checks the PNG signature and the IHDR chunk; returns the image's width and height (px). */
function pngSize(b: Uint8Array): { width: number; height: number } {
  expect(Array.from(b.subarray(0, 8))).toEqual(PNG_SIGNATURE);
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  expect(v.getUint32(8)).toBe(13); // IHDR data length
  expect(new TextDecoder().decode(b.subarray(12, 16))).toBe("IHDR");
  return { width: v.getUint32(16), height: v.getUint32(20) };
}

/** Every number-like attribute and path coordinate of an SVG is finite: no NaN, no Infinity. */
function expectFinite(svg: string): void {
  expect(svg).not.toMatch(/NaN|Infinity/);
}

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
    expect(pngSize(toPNG(s, { scale: 2 }))).toEqual({ width: 80, height: 60 });
    expect(pngSize(toPNG(s, { scale: 1 }))).toEqual({ width: 40, height: 30 });
    expect(() => pngSize(new TextEncoder().encode("GIF89a not a png"))).toThrow();
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

  it("Figure displays itself in Jupyter as an SVG <img> with a PNG fallback", () => {
    const f = particles2d(fakeSystem2d());
    const bundle = (f as unknown as Record<symbol, () => Record<string, string>>)[
      Symbol.for("Jupyter.display")
    ]();
    const m = bundle["text/html"].match(/^<img [^>]*src="data:image\/svg\+xml;base64,([^"]+)">$/);
    expect(new TextDecoder().decode(Uint8Array.from(atob(m![1]), (c) => c.charCodeAt(0))))
      .toBe(f.svg); // the very SVG, not a picture of it
    const png = Uint8Array.from(atob(bundle["image/png"]), (c) => c.charCodeAt(0));
    const ihdr = new DataView(png.buffer, 16, 8);
    expect([ihdr.getUint32(0), ihdr.getUint32(4)]).toEqual([f.width, f.height]); // scale 1
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
    expect(pngSize(f.toPNG())).toEqual({ width: 2 * f.width, height: 2 * f.height });
    // a thin wrapper: one Plot chart with the grains mark inside the composed figure
    expect(count(f.svg, "g[aria-label='grains'] circle")).toBe(50);
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
    expect(count(f.svg, "g[aria-label='force chains'] line")).toBe(2);
    expect(count(f.svg, "g[aria-label='grains'] circle")).toBe(3); // faint grains underneath
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

describe("degenerate input never writes NaN", () => {
  const sys2 = (positions: number[], radii?: number[]) => ({
    count: positions.length / 2,
    dimension: 2,
    positions,
    velocities: positions.map(() => 0),
    ...(radii ? { radii } : {}),
  });

  it("zero particles: an empty frame", () => {
    const f = particles2d(sys2([], []));
    expectFinite(f.svg);
    expect(f.info).toEqual({ particles: 0, drawn: 0, mode: "grains" });
    expect(count(f.svg, "circle")).toBe(0);
    expect(pngSize(f.toPNG({ scale: 1 }))).toEqual({ width: f.width, height: f.height });
    for (const g of [bed3d, heightMap, slice3d]) {
      expectFinite(g({ count: 0, positions: [], velocities: [], radii: [] }).svg);
    }
    const empty = {
      ...sys2([], []),
      contacts: {
        count: 0,
        i: [],
        j: [],
        kind: [],
        point: [],
        normal: [],
        overlap: [],
        normalForce: [],
        tangentialForce: [],
      },
    };
    const n = forceNetwork(empty);
    expectFinite(n.svg);
    expect(n.info).toEqual({ links: 0, maxForce: 0, particles: 0 });
  });

  it("NaN or infinite positions and radii throw, naming the column and the index", () => {
    expect(() => particles2d(sys2([0, 0, NaN, 1], [1, 1]))).toThrow(
      "particles2d: x[1] is NaN, must be a finite number",
    );
    expect(() => particles2d(sys2([0, 0, 1, Infinity], [1, 1]))).toThrow(/y\[1\] is Infinity/);
    expect(() => particles2d(sys2([0, 0, 1, 1], [1, NaN]))).toThrow(/radius\[1\] is NaN/);
    expect(() => particles2d(sys2([0, 0, 1, 1], [1, -1]))).toThrow(/radius\[1\] is -1/);
    const s3 = fakeSystem3d();
    s3.positions[5] = NaN; // z of particle 1
    expect(() => bed3d(s3)).toThrow(/bed3d: z\[1\] is NaN/);
    expect(() => forceNetwork(s3)).toThrow(/forceNetwork: z\[1\] is NaN/);
    expect(() => heightMap(s3)).toThrow(RangeError);
    expect(() => slice3d(s3)).toThrow(RangeError);
  });

  it("zero-size extents and grains all at one point get a sensible frame", () => {
    const cases = {
      "one point, no size": sys2([3, 4], [0]),
      "no radius column": sys2([3, 4]),
      "all at one point": sys2([1, 1, 1, 1, 1, 1], [0.1, 0.1, 0.1]),
      "on a line, no size": sys2([0, 1, 1, 1, 2, 1], [0, 0, 0]),
      "at the origin, no size": sys2([0, 0, 0, 0], [0, 0]),
    };
    for (const [name, s] of Object.entries(cases)) {
      const f = particles2d(s);
      expectFinite(f.svg);
      expect({ name, drawn: count(f.svg, "circle") }).toEqual({ name, drawn: s.count });
      expect(f.width).toBeGreaterThan(100);
      expect(f.height).toBeGreaterThan(58); // taller than the margins
      const c = parseSVG(f.svg).querySelector("circle")!;
      for (const a of ["cx", "cy", "r"]) {
        expect(Number.isFinite(Number(c.getAttribute(a)))).toBe(true);
      }
    }
    // grains at one point are centred in their frame
    const one = parseSVG(particles2d(cases["all at one point"]).svg);
    const x = Array.from(one.querySelectorAll("circle"), (c) => c.getAttribute("cx"));
    expect(new Set(x).size).toBe(1);
    const point3 = { count: 2, positions: [1, 2, 3, 1, 2, 3], velocities: [0, 0, 0, 0, 0, 0] };
    for (const g of [bed3d, heightMap, slice3d]) expectFinite(g(point3).svg);
  });

  it("NaN velocities colour grains grey instead of writing NaN", () => {
    const s = { ...sys2([0, 0, 1, 0, 2, 0], [0.4, 0.4, 0.4]), velocities: [NaN, 0, 1, 0, 0.5, 0] };
    const f = particles2d(s, { color: "speed" });
    expectFinite(f.svg);
    expect(count(f.svg, "circle[fill='#bbb']")).toBe(1); // linear scale: NaN is grey
    const g = particles2d({ ...s, velocities: [NaN, 0, 1, 0, 1, 0] }, { color: "speed" });
    expectFinite(g.svg);
    expect(count(g.svg, "circle[fill='#999']")).toBe(1); // categorical: unknown is grey
  });
});
