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
  DiskSystem,
  distanceErrorMap,
  packingScene,
  StarShape,
  StarSystem,
  Walls,
} from "../src/star2d/mod.ts";
import { exactDistance, radialDistance } from "../src/star2d/distance.ts";
import { clumpTemplate } from "../src/star2d/clump_template.ts";
import { firstOrderNormal } from "../src/star2d/distance.ts";
import { ShapeSprite } from "../src/star2d/sprite.ts";
import { requestGpu, StarSprite } from "../src/star2d/gpu/mod.ts";

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

  it("a StarShape of 20,000 coefficients states the work instead of running for a minute", () => {
    expect(() => new StarShape({ cos: new Array(20000).fill(0) })).toThrow(
      /^StarShape: 20000 Fourier coefficients on lutSize 20000 and 100 nodes would take about 8\.0e\+8 updates \(limit 1\.0e\+8\)/,
    );
    expect(new StarShape({ cos: new Array(1000).fill(0) }).rMax).toBe(1);
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

describe("star2d: looking further (#29 §6)", () => {
  it("the distance functions check the shape, the options and the pose", () => {
    expect(() => radialDistance(null as Any, [1, 0])).toThrow(
      "radialDistance: shape (null) must be a StarShape",
    );
    expect(() => exactDistance(undefined as Any, [1, 0])).toThrow(TypeError);
    expect(() => radialDistance(cross, [1, 0], { lookup: "no" as Any })).toThrow(
      /radialDistance: lookup \(no\) must be a boolean/,
    );
    expect(() => radialDistance(cross, [1, 0], { pos: {} } as Any)).toThrow(
      /unknown option "pos" in options; did you mean "pose"\?/,
    );
    expect(() => radialDistance(cross, [1, 0], null as Any)).toThrow(TypeError);
    expect(() => radialDistance(cross, [1, 0], { pose: null } as Any)).toThrow(
      /radialDistance: pose \(null\) must be an options object/,
    );
    expect(() => radialDistance(cross, [1, 0], { pose: { x: NaN } })).toThrow(
      /pose.x \(NaN\) must be a finite number/,
    );
    expect(() => radialDistance(cross, [1, 0], { pose: { angel: 1 } } as Any)).toThrow(
      /did you mean "angle"\?/,
    );
    expect(() => firstOrderNormal(cross, [1, 0], { out: [] as Any })).toThrow(
      /firstOrderNormal: out \(\) must be a Float64Array of length >= 2/,
    );
    expect(radialDistance(cross, [1, 0], { lookup: true })).toBeCloseTo(1 - cross.radiusAt(0), 6);
  });

  it("distanceErrorMap states the size and the work it would take", () => {
    expect(() => distanceErrorMap(cross, { resolution: 1e6 })).toThrow(
      /^distanceErrorMap: resolution \(1000000\)|^distanceErrorMap: a map of 1000000² points/,
    );
    expect(() => distanceErrorMap(cross, { resolution: 1e5 })).toThrow(
      /a map of 100000² points \(7 columns\) would need 521.5 GiB \(limit 1.0 GiB\)/,
    );
    expect(() => distanceErrorMap(cross, { resolution: 4000 })).toThrow(
      /a map of 4000² points would take about 1.6e\+7 updates/,
    );
    expect(() => distanceErrorMap(cross, null as Any)).toThrow(TypeError);
    expect(() => distanceErrorMap(cross, { resolutoin: 5 } as Any)).toThrow(
      /did you mean "resolution"\?/,
    );
  });

  it("sprites check the shape and the booleans", () => {
    expect(() => ShapeSprite.of(null as Any)).toThrow(
      "ShapeSprite.of: shape (null) must be a StarShape",
    );
    expect(() => new StarSprite(null as Any)).toThrow(TypeError);
    const s = ShapeSprite.of(cross, 64);
    expect(() => s.distance(0, 0, "no" as Any)).toThrow(
      'ShapeSprite.distance: firstOrder ("no") must be a boolean (true or false)',
    );
    expect(() => new StarSprite(cross, 16).distance(0, 0, true, "yes" as Any)).toThrow(
      /StarSprite.distance: corrected \("yes"\) must be a boolean/,
    );
  });

  it("walls check their index, numbers and time step", () => {
    const w = new Walls();
    expect(() => w.signedDistance(5, 0, 0)).toThrow(
      "Walls.signedDistance: w (5) must be a wall index in [0, 0)",
    );
    expect(() => w.velocityX(0, 0, 0)).toThrow(RangeError);
    expect(() => w.probe(-1, 0, 0)).toThrow(RangeError);
    expect(() => w.addPlane({ point: [0, 0], normal: [0, 1], friction: "0.5" as Any }))
      .toThrow("Walls.addPlane: friction (0.5) must be a number");
    expect(() => w.addDrum({ centre: [0, 0], radius: "1" as Any })).toThrow(TypeError);
    expect(() => w.addSegment({ from: [0, 0], to: [1, 0], omega: NaN })).toThrow(
      "Walls.addSegment: omega (NaN) must be a finite number",
    );
    w.addSegment({ from: [0, 0], to: [1, 0], omega: 1 });
    expect(() => w.advance(NaN)).toThrow("Walls.advance: dt (NaN) must be a finite number");
    expect(w.geom[0]).toBe(0);
  });

  it("scene.advance, checkTimeStep, arealDensity and requestGpu name bad numbers", async () => {
    const scene = packingScene({ count: 2 });
    for (const n of [NaN, -1, "3"]) {
      expect(() => scene.advance(n as Any)).toThrow(/packing scene: advance: steps/);
    }
    const sys = new StarSystem();
    expect(() => sys.checkTimeStep("x", NaN, 1, 1)).toThrow(
      "StarSystem.checkTimeStep: mass (NaN) must be a finite number",
    );
    expect(() => sys.addGrains({ shape: cross, positions: [0, 0], arealDensity: "3" as Any }))
      .toThrow("StarSystem.addGrains: arealDensity (3) must be a number");
    await expect(requestGpu({ allowFallback: "no" as Any })).rejects.toThrow(
      "requestGpu: allowFallback (no) must be a boolean",
    );
  });

  it("checkpoints are read from and written over regular files only", () => {
    const sys = new StarSystem();
    expect(() => sys.loadState("/dev/zero")).toThrow(
      "StarSystem.loadState: /dev/zero: not a regular file (a character device); give the path of a file",
    );
    const dir = Deno.makeTempDirSync();
    expect(() => sys.loadState(dir)).toThrow(/not a regular file \(a directory\)/);
    const fifo = `${dir}/pipe`;
    new Deno.Command("mkfifo", { args: [fifo] }).outputSync();
    expect(() => sys.saveState(fifo)).toThrow(
      /^StarSystem.saveState: .*\/pipe: cannot write the file \(writeFileAtomicSync: .*\/pipe is a FIFO, not a regular file: refusing to replace it\)/,
    );
    expect(Deno.statSync(fifo).isFifo).toBe(true); // still the pipe
    expect(() => sys.loadState(fifo)).toThrow(/not a regular file \(a FIFO\)/);
  });
});
