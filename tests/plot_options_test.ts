// Issue #29 ("Nothing silent") for src/plot: every function that takes an options object
// rejects null (TypeError naming the parameter), an unknown key (RangeError naming the nearest
// valid one), and values of the wrong type or out of range (naming the option and the value).
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  animate,
  barComparison,
  bed3d,
  bodyOutlines,
  compose,
  distanceErrorFigure,
  Figure,
  forceChains,
  forceNetwork,
  grains,
  heightMap,
  lines,
  particles2d,
  plotFigure,
  slice3d,
  timeSeries,
  walls,
} from "../src/plot/mod.ts";
import { base64, toPNG } from "../src/plot/figure.ts";
import { colorScale, swatches } from "../src/plot/color.ts";
import { encodeGif } from "../src/plot/gif.ts";
import { equalAspectSize, plotPanel } from "../src/plot/panel.ts";
import { parseSVG } from "../src/plot/dom.ts";
import { svgToPNG, svgToRGBA } from "../src/plot/png.ts";
import { fakeSystem2d, fakeSystem3d } from "./arrow_fixtures.ts";

const t = [0, 1, 2, 3];
const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>';
const map = { count: 4, x: [0, 1, 0, 1], y: [0, 0, 1, 1], firstOrderError: t, radialError: t };
const panel = { svg: "<svg/>", width: 10, height: 10 };
const image = { width: 1, height: 1, pixels: new Uint8Array(4) };
const wallsSource = { walls: { count: 0, kind: [], enabled: [], geom: [] } };

/** Each function with an options argument: its name and a call with those options. */
const CALLS: [string, (o: unknown) => unknown][] = [
  ["particles2d", (o) => particles2d(fakeSystem2d(), o as never)],
  ["bed3d", (o) => bed3d(fakeSystem3d(), o as never)],
  ["heightMap", (o) => heightMap(fakeSystem3d(), o as never)],
  ["slice3d", (o) => slice3d(fakeSystem3d(), o as never)],
  ["forceNetwork", (o) => forceNetwork(fakeSystem3d(), o as never)],
  ["lines", (o) => lines([{ label: "a", x: t, y: t }], o as never)],
  ["timeSeries", (o) => timeSeries([{ time: 0, y: 1 }], { y: ["y"], ...(o as object) })],
  ["barComparison", (o) => barComparison({ run: { time: t, endPosition: t } }, o as never)],
  ["colorScale", (o) => colorScale([1, 2], o as never)],
  ["swatches", (o) => swatches([{ label: "a", color: "red" }], o as never)],
  ["compose", (o) => compose([panel], o as never)],
  ["distanceErrorFigure", (o) => distanceErrorFigure(map, o as never)],
  ["equalAspectSize", (o) => equalAspectSize([0, 1], [0, 1], o as never)],
  ["svgToPNG", (o) => svgToPNG(svg, o as never)],
  ["svgToRGBA", (o) => svgToRGBA(svg, o as never)],
  ["toPNG", (o) => toPNG(svg, o as never)],
  ["encodeGif", (o) => encodeGif([image], o as never)],
  ["animate", (o) => animate([new Figure(svg, 10, 10)], o as never)],
  ["grains", (o) => grains(fakeSystem2d(), o as never)],
  ["forceChains", (o) => forceChains(fakeSystem3d(), o as never)],
  ["walls", (o) => walls(wallsSource as never, o as never)],
];

describe("plot: options are checked by name", () => {
  it("the cases of the issue: particles2d colr, timeSeries xx", () => {
    expect(() => particles2d(fakeSystem2d(), { colr: "speed" } as never)).toThrow(
      /^particles2d: unknown option "colr" in options; did you mean "color"\?/,
    );
    expect(() => timeSeries([{ t: 0, y: 1 }], { y: ["y"], xx: "t" } as never)).toThrow(
      /^timeSeries: unknown option "xx" in options; did you mean "x"\?/,
    );
  });

  for (const [name, call] of CALLS) {
    it(`${name}: null options, an unknown key; the defaults still work`, () => {
      if (name !== "timeSeries") {
        expect(() => call(null)).toThrow(
          new TypeError(`${name}: options (null) must be an options object`),
        );
      }
      expect(() => call({ bogusKey: 1 })).toThrow(
        new RegExp(`^${name}: unknown option "bogusKey" in options`),
      );
      expect(() => call(undefined)).not.toThrow();
    });
  }

  it("values of the wrong type or out of range are named with the value and the rule", () => {
    const s2 = fakeSystem2d();
    expect(() => particles2d(s2, { width: NaN })).toThrow(
      new RangeError("particles2d: options.width (NaN) must be a number of pixels in (0, 20000]"),
    );
    expect(() => particles2d(s2, { width: -5 })).toThrow(/options\.width \(-5\)/);
    expect(() => particles2d(s2, { height: 1e9 })).toThrow(/options\.height \(1000000000\)/);
    expect(() => particles2d(s2, { width: "300" as never })).toThrow(
      new TypeError('particles2d: options.width ("300") must be a number'),
    );
    expect(() => particles2d(s2, { maxParticles: 0 })).toThrow(
      /maxParticles \(0\) must be an integer >= 1/,
    );
    expect(() => particles2d(s2, { orientation: 1 as never })).toThrow(/must be a boolean/);
    expect(() => bed3d(fakeSystem3d(), { views: "side" as never })).toThrow(TypeError);
    expect(() => lines([{ label: "a", x: t, y: t }], { yType: "logarithmic" as never })).toThrow(
      /^lines: options\.yType \("logarithmic"\) must be one of "linear", "log"/,
    );
    expect(() => compose([panel], { columns: 1.5 })).toThrow(/columns \(1\.5\)/);
    expect(() => encodeGif([image], { delay: -1 })).toThrow(/delay \(-1\) must be >= 0/);
    expect(() => animate([new Figure(svg, 10, 10)], { scale: Infinity })).toThrow(RangeError);
    expect(() => slice3d(fakeSystem3d(), { axis: "w" as never })).toThrow(/axis \("w"\)/);
  });

  it("a PNG too large to allocate is refused with its size, not attempted", () => {
    const big = '<svg xmlns="http://www.w3.org/2000/svg" width="20000" height="20000"/>';
    expect(() => svgToPNG(big, { scale: 16 })).toThrow(
      /^svgToPNG: a 320000 × 320000 pixel image \(scale 16\) would need 381\.5 GiB/,
    );
  });

  it("Figure.save and Animation.save name a bad path", async () => {
    const f = new Figure(svg, 10, 10);
    await expect(f.save(null as never)).rejects.toThrow(
      new TypeError("Figure.save: path (null) must be a non-empty string"),
    );
    await expect(f.save("/tmp/x.svg", { scal: 2 } as never)).rejects.toThrow(
      /did you mean "scale"/,
    );
    await expect(animate([f]).save(null as never)).rejects.toThrow(
      new TypeError("Animation.save: path (null) must be a non-empty string"),
    );
  });

  it("plotPanel: marks must be an array", () => {
    expect(() => plotPanel({ xDomain: [0, 1], yDomain: [0, 1], marks: null as never })).toThrow(
      new TypeError("plotPanel: options.marks (null) must be an array"),
    );
  });

  it("domains, schemes, cell counts and the non-option arguments are checked too", () => {
    const s2 = fakeSystem2d(), s3 = fakeSystem3d();
    expect(() => particles2d(s2, { domain: { x: [1, 0], y: [0, 1] } })).toThrow(
      new RangeError("particles2d: options.domain.x ([1,0]) must be finite with lo < hi"),
    );
    expect(() => particles2d(s2, { colorScale: null as never })).toThrow(
      new TypeError("particles2d: options.colorScale (null) must be an options object"),
    );
    expect(() => colorScale([1, 2], { domain: [NaN, 1] })).toThrow(/domain \(\[NaN,1\]\)/);
    expect(() => colorScale([1, 2], { type: "log", domain: [0, 1] })).toThrow(
      /must be > 0 on a log scale/,
    );
    expect(() => colorScale([1, 2], { scheme: "bogus" })).toThrow(
      /^colorScale: options\.scheme \("bogus"\) is not a colour scheme Observable Plot knows/,
    );
    expect(() => colorScale(null as never)).toThrow(
      new TypeError("colorScale: values (null) must be an array of numbers"),
    );
    expect(() => lines([{ label: "a", x: t, y: t }], { yDomain: [1, 1] })).toThrow(RangeError);
    expect(() => heightMap(s3, { cells: 1e9 })).toThrow(
      new RangeError("heightMap: options.cells is 1000000000, must be an integer in [2, 1000]"),
    );
    expect(() => timeSeries([{ time: 0, y: 1 }], { y: ["y"], labels: null as never })).toThrow(
      new TypeError("timeSeries: options.labels (null) must be an array of strings"),
    );
    expect(() => bed3d(s3, { views: [] })).toThrow(/^bed3d: options\.views/);
    expect(() => swatches(null as never)).toThrow(/^swatches: items \(null\)/);
    expect(() => barComparison(null as never)).toThrow(/^barComparison: runs \(null\)/);
    expect(() => equalAspectSize(null as never, [0, 1])).toThrow(/^equalAspectSize: xDomain/);
    expect(() => encodeGif([{ width: 1, height: 1, pixels: null as never }])).toThrow(
      /^encodeGif: frames\[0\] must be/,
    );
    const small = new Figure(svg, 10, 10);
    const big = new Figure(
      '<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"/>',
      20,
      10,
    );
    expect(() => animate([small, big])).toThrow(
      /^animate: frames\[1\] is 20 × 10 px, the first frame 10 × 10/,
    );
  });

  it("plotFigure, parseSVG, base64, bodyOutlines: a bad argument is named", () => {
    expect(() => plotFigure(null as never)).toThrow(
      new TypeError("plotFigure: options (null) must be Observable Plot's options object"),
    );
    expect(() => parseSVG(null as never)).toThrow(
      new TypeError("parseSVG: svg (null) must be a string"),
    );
    expect(() => base64(null as never)).toThrow(
      new TypeError("base64: bytes (null) must be a Uint8Array"),
    );
    expect(() => bodyOutlines(null as never)).toThrow(
      new TypeError("bodyOutlines: bodies (null) must be an array of bodies"),
    );
  });
});
