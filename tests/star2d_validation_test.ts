/**
 * Bad input at star2d's public boundaries (issue #29 "Nothing silent"): shape names that a
 * checkpoint could not hold, booleans that are not booleans, sizes that would exhaust memory or
 * run for minutes, `null` where an object is expected — each throws a TypeError or RangeError
 * naming the parameter, the value and the rule, before anything changes.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  approximateByDisks,
  ClumpSystem,
  clumpTemplate,
  DiskSystem,
  StarShape,
  StarSystem,
  Walls,
} from "../src/star2d/mod.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

const cross = StarShape.preset("cross", { area: 30e-6 });

describe("star2d: a shape name a checkpoint cannot hold", () => {
  it("StarShape rejects a name that is not a string", () => {
    for (const name of [5, null, { a: 1 }, true]) {
      expect(() => new StarShape({ a0: 1, name } as Any)).toThrow(
        /^StarShape: name \(.*\) must be a string$/,
      );
    }
    expect(new StarShape({ name: "mine" }).name).toBe("mine");
  });

  it("saveState refuses to write a checkpoint that would not load, and writes nothing", () => {
    const sys = new StarSystem();
    const sh = StarShape.preset("peanut");
    sys.addGrains({ shape: sh, positions: [[0, 0]] });
    (sh as Any).name = 42; // changed behind the constructor's back
    const path = `${Deno.makeTempDirSync()}/bad.bin`;
    expect(() => sys.saveState(path)).toThrow(
      /^StarSystem.saveState: the checkpoint would not load back, so nothing is written: <state>: SHAPES: shape 0: name must be a string/,
    );
    expect(() => Deno.statSync(path)).toThrow(Deno.errors.NotFound);
    (sh as Any).name = "peanut";
    sys.walls.addDrum({ centre: [0, 0], radius: 1 });
    sys.walls.omega[0] = NaN; // a column written by hand
    expect(() => sys.stateBytes()).toThrow(/would not load back.*WALLS: omega/);
  });
});

describe("star2d: booleans must be booleans", () => {
  it("the profile setter", () => {
    const sys = new StarSystem();
    for (const v of [undefined, "no", 0, 1, null]) {
      expect(() => ((sys as Any).profile = v)).toThrow(TypeError);
    }
    expect(() => ((sys as Any).profile = "no")).toThrow(
      'StarSystem.profile: profile ("no") must be a boolean (true or false)',
    );
    expect(() => ((sys as Any).profile = undefined)).toThrow(
      "StarSystem.profile: profile (undefined) must be a boolean (true or false)",
    );
    expect(sys.profile).toBe(false);
    sys.profile = true;
    expect(sys.profile).toBe(true);
  });

  it("Walls.setEnabled", () => {
    const w = new Walls();
    const k = w.addPlane({ point: [0, 0], normal: [0, 1] });
    w.setEnabled(k, false);
    expect(() => w.setEnabled(k, "yes" as Any)).toThrow(
      'Walls.setEnabled: on ("yes") must be a boolean (true or false)',
    );
    expect(() => w.setEnabled(k, undefined as Any)).toThrow(TypeError);
    expect(w.enabled[k]).toBe(0); // unchanged
    expect(() => w.setEnabled(k, "no" as Any)).toThrow(TypeError);
  });

  it("the boolean options", () => {
    const sys = new StarSystem();
    expect(() => sys.stateBytes({ includeContactHistories: "no" as Any })).toThrow(
      /includeContactHistories \(no\) must be a boolean/,
    );
    expect(() => new Walls().addBox({ min: [0, 0], max: [1, 1], openTop: 0 as Any })).toThrow(
      /openTop \(0\) must be a boolean/,
    );
  });
});

describe("star2d: sizes are bounded, stated and named", () => {
  it("StarShape.outline(1e10) states the memory it would need", () => {
    expect(() => cross.outline(1e10)).toThrow(
      /^StarShape.outline: an outline of 10000000000 vertices would need 149.0 GiB \(limit 1.0 GiB\)/,
    );
    expect(() => cross.outline(10, [] as Any)).toThrow(/out \(\) must be a Float64Array/);
    expect(cross.outline(10)).toHaveLength(20);
  });

  it("reserve(2 ** 40) states the memory it would need; bad counts are named", () => {
    const sys = new StarSystem();
    expect(() => sys.reserve(2 ** 40)).toThrow(
      /^StarSystem.reserve: n \(1099511627776\) must be an integer in \[0, 2147483647\]/,
    );
    expect(() => sys.reserve(2 ** 30)).toThrow(
      /^StarSystem.reserve: the columns of 1073741824 grains \(126 bytes each\) would need 126.0 GiB/,
    );
    for (const n of [NaN, -1, 1.5, "10"]) {
      expect(() => sys.reserve(n as Any)).toThrow(/StarSystem.reserve: n/);
    }
    sys.reserve(100);
    expect(sys.count).toBe(0);
  });

  it("clumpTemplate bounds its raster and names what is wrong", () => {
    const two = { centres: [[0, 0], [0.01, 0]] as [number, number][], radii: [0.006, 0.006] };
    expect(() => clumpTemplate({ ...two, resolution: 1e6 })).toThrow(
      /^clumpTemplate: resolution 1000000 \(1000000² cells\) on 2 disks would take about 2\.0e\+12 updates \(limit 1\.0e\+9\)/,
    );
    expect(() => clumpTemplate(null as Any)).toThrow(
      /^clumpTemplate: options \(null\) must be an options object/,
    );
    expect(() => clumpTemplate(undefined as Any)).toThrow(TypeError);
    expect(() => clumpTemplate({ ...two, resolutoin: 9 } as Any)).toThrow(
      /did you mean "resolution"\?/,
    );
    expect(() => clumpTemplate({ centres: null, radii: [1] } as Any)).toThrow(
      /clumpTemplate: centres \(null\) must be an array/,
    );
    expect(() => clumpTemplate({ centres: [null], radii: [1] } as Any)).toThrow(
      /clumpTemplate: centres\[0\] \(null\) must be a point \[x, y\]/,
    );
    expect(() => clumpTemplate({ centres: [[0, NaN]], radii: [1] })).toThrow(
      /centres\[0\]\[1\] \(NaN\) must be a finite number/,
    );
    expect(() => clumpTemplate({ ...two, resolution: 0 })).toThrow(/resolution \(0\)/);
    const many = Array.from({ length: 1025 }, (_, k) => [k, 0] as [number, number]);
    expect(() => clumpTemplate({ centres: many, radii: many.map(() => 1) })).toThrow(
      /radii.length \(1025\) must be <= 1024/,
    );
    expect(clumpTemplate(two).r).toHaveLength(2);
  });

  it("approximateByDisks bounds n by addTemplate's 1,024 disks and names a bad shape", () => {
    expect(() => approximateByDisks(cross, 1e7)).toThrow(
      /^approximateByDisks: n \(10000000\) must be an integer in \[1, 1024\]/,
    );
    expect(() => approximateByDisks(null as Any, 9)).toThrow(
      /^approximateByDisks: shape \(null\) must be a StarShape/,
    );
    expect(approximateByDisks(cross, 1024).r).toHaveLength(1024);
  });

  it("addTemplate checks a hand-made template's disks", () => {
    const s = new ClumpSystem();
    const t = clumpTemplate({ centres: [[0, 0], [0.01, 0]], radii: [0.006, 0.006] });
    expect(() => s.addTemplate({ ...t, x: new Float64Array(1) })).toThrow(
      /template.x.length \(1\) must be 2/,
    );
    expect(() => s.addTemplate({ ...t, r: Float64Array.of(0.006, NaN) })).toThrow(
      /template.r\[1\] \(NaN\) must be a finite number/,
    );
    expect(() => s.addTemplate(null as Any)).toThrow(TypeError);
    expect(s.templates).toHaveLength(0);
  });

  it("outline options are checked", () => {
    const s = new DiskSystem();
    const st = new StarSystem();
    st.addGrains({ shape: cross, positions: [[0, 0]] });
    expect(() => st.outline(0, { m: 5 } as Any)).toThrow(/unknown option "m".*did you mean "n"\?/);
    expect(() => st.outline(0, null as Any)).toThrow(TypeError);
    expect(st.outline(0, { n: 8 })).toHaveLength(16);
    expect(s.count).toBe(0);
  });
});
