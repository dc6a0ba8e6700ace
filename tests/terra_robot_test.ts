/**
 * A robot on both grounds (issue #28, item 5): the six-legged RHex-like robot of
 * `examples/assets/rhex6.urdf` walks under the same PD gait on a DEM bed (ci size, d = 1 cm)
 * and on the RFT ground calibrated from the same grains (`calibrateRft` at smoke size). Checked:
 * the URDF is what its header says; the robot walks forward on both grounds with its torso
 * above the surface; the per-cycle speed and height agree as far as stated below; the RFT run
 * repeats bit for bit; bad options, a mismatched table and a bed too short are named errors.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { calibrateRft, robotOnGround } from "../src/experiments/mod.ts";
import type { RobotOnGroundResult } from "../src/experiments/mod.ts";
import { RftTable, World } from "../src/sphere3d/mod.ts";
import { parseUrdf } from "../src/sphere3d/bodies/urdf.ts";

const URDF = "examples/assets/rhex6.urdf";
const LEGS = [
  "front_left",
  "front_right",
  "middle_left",
  "middle_right",
  "rear_left",
  "rear_right",
];

let runs: Promise<{ table: RftTable; dem: RobotOnGroundResult; rft: RobotOnGroundResult }> | null =
  null;
/** One calibration and the ci walk on each ground, shared by the tests below. */
function bothGrounds() {
  runs ??= (async () => {
    const { table } = await calibrateRft({ scale: "smoke" });
    // the ci grains and gait, two cycles on a shorter bed (7,300 grains) to keep the file short
    const o = { scale: "ci", cycles: 2, bed: [64, 20, 5] } as const;
    const dem = await robotOnGround({ ...o, ground: "dem" });
    const rft = await robotOnGround({ ...o, ground: table });
    return { table, dem, rft };
  })();
  return runs;
}

describe("rhex6.urdf", () => {
  it("loads, and its masses, inertias and geometry are those of its header", async () => {
    const text = await Deno.readTextFile(URDF);
    for (const s of ["0.4 kg", "0.04 kg", "Total 0.64 kg", "box 0.16 x 0.08 x 0.03 m"]) {
      expect(text).toContain(s);
    }
    const model = parseUrdf(text);
    expect(model.links.map((l) => l.name)).toEqual(["torso", ...LEGS]);
    const torso = model.links[0];
    expect(torso.mass).toBe(0.4);
    expect(torso.centerOfMass).toEqual([0.02, 0, 0]);
    const box = (a: number, b: number) => (0.4 * (a * a + b * b)) / 12;
    const ti = torso.inertia!;
    expect(ti[0]).toBeCloseTo(box(0.08, 0.03), 10);
    expect(ti[1]).toBeCloseTo(box(0.16, 0.03), 10);
    expect(ti[2]).toBeCloseTo(box(0.16, 0.08), 10);
    const r = 0.008, L = 0.07;
    for (const leg of model.links.slice(1)) {
      expect(leg.mass).toBe(0.04);
      expect(leg.centerOfMass).toEqual([0, 0, -L / 2]);
      expect(leg.inertia![0]).toBeCloseTo((0.04 * (3 * r * r + L * L)) / 12, 11);
      expect(leg.inertia![2]).toBeCloseTo((0.04 * r * r) / 2, 11);
      const c = leg.collisions[0] as unknown as { radius: number; halfHeight: number };
      // the capsule reaches L from the hip: cap centres at r and L − r
      expect(c.radius).toBe(r);
      expect(2 * c.halfHeight + 2 * r).toBeCloseTo(L, 12);
    }
    const total = model.links.reduce((s, l) => s + l.mass!, 0);
    expect(total).toBeCloseTo(0.64, 12);
    expect(model.joints.map((j) => [j.name, j.type, ...j.position, ...j.axis])).toEqual([
      ["hip_front_left", "continuous", 0.08, 0.052, -0.015, 0, 1, 0],
      ["hip_front_right", "continuous", 0.08, -0.052, -0.015, 0, 1, 0],
      ["hip_middle_left", "continuous", 0, 0.072, -0.015, 0, 1, 0],
      ["hip_middle_right", "continuous", 0, -0.072, -0.015, 0, 1, 0],
      ["hip_rear_left", "continuous", -0.08, 0.052, -0.015, 0, 1, 0],
      ["hip_rear_right", "continuous", -0.08, -0.052, -0.015, 0, 1, 0],
    ]);
    // the engine gets the same masses
    const world = await World.create();
    const robot = await world.addArticulatedSystem(URDF, { base: "floating" });
    expect(robot.jointNames.length).toBe(6);
    const engineTotal = robot.links.reduce((s, l) => s + l.mass, 0);
    expect(engineTotal).toBeCloseTo(0.64, 6);
    world.close();
  });
});

describe("robotOnGround: the same gait on a DEM bed and on the calibrated RFT ground", () => {
  it("walks forward on both grounds with the torso above the surface", async () => {
    const { dem, rft } = await bothGrounds();
    for (const r of [dem, rft]) {
      expect(r.cycleSpeed.length).toBe(2);
      expect(r.time.length).toBe(2 * 40 + 1);
      expect(r.time[r.time.length - 1]).toBeCloseTo(1, 2);
      // every cycle, the first (from standing) included, moves forward
      for (const v of r.cycleSpeed) expect(v).toBeGreaterThan(0.05);
      expect(r.meanSpeed).toBeGreaterThan(0.05);
      // the torso's lowest corner never touches the surface, its centre of mass rides above
      expect(r.minClearance).toBeGreaterThan(0);
      for (const h of r.height) expect(h).toBeGreaterThan(0.015);
    }
    expect(dem.grains).toBeGreaterThan(4000);
    expect(rft.grains).toBe(0);
    expect(dem.ground).toBe("dem");
    expect(rft.ground).toBe("rft");
  });

  it("gives the DEM's speed and height per cycle to the accuracy stated", async () => {
    const { dem, rft } = await bothGrounds();
    // Measured at ci (docs/terradynamics.md, "Robot"): after the first cycle (which starts from
    // standing) the RFT robot walks about 25 % slower than on the grains, its torso at the
    // DEM's height to a few mm. The RFT table here is the smoke calibration's ζ × generic
    // medium (three plates), speed-independent, over an infinitely deep ground; the DEM bed is
    // 5 d deep under legs that reach 4 d into it, and its legs' tips move at up to √(g·d). So
    // only the order of agreement is asserted: speed within 40 %, height within 15 mm.
    for (let k = 1; k < dem.cycleSpeed.length; k++) {
      const dv = Math.abs(rft.cycleSpeed[k] - dem.cycleSpeed[k]) / dem.cycleSpeed[k];
      expect(dv).toBeLessThan(0.4);
      expect(Math.abs(rft.cycleHeight[k] - dem.cycleHeight[k])).toBeLessThan(0.015);
    }
    // RFT is cheaper than the grains for the same simulated time
    expect(rft.wallTime).toBeLessThan(dem.wallTime);
  });

  it("says where in the stride the ground pushes, its sums carrying the robot", async () => {
    const { dem, rft } = await bothGrounds();
    const weight = 0.64 * 9.81; // rhex6.urdf's mass (checked above) times g
    for (const r of [dem, rft]) {
      const { angle, x, z } = r.legForceByAngle;
      expect(angle.length).toBe(36);
      expect(angle[0]).toBe(5);
      expect(angle[35]).toBe(355);
      const sum = (a: Float64Array) => a.reduce((s, v) => s + v, 0);
      // over one whole cycle (the window: the cycles after the first) the legs and the torso
      // carry the weight: the mean vertical force equals m·g up to the change of the torso's
      // vertical momentum over the cycle
      expect(Math.abs(sum(z) + r.torsoForce[1] - weight) / weight).toBeLessThan(0.1);
      // single bins push and brake by several tenths of a newton
      expect(Math.max(...x.map(Math.abs))).toBeGreaterThan(0.15);
      // the stance arc (±23°) carries most of the weight
      const stance = z.filter((_, k) => angle[k] < 30 || angle[k] > 330);
      expect(sum(stance)).toBeGreaterThan(0.5 * weight);
    }
    // the mean horizontal force is the change of forward momentum over the cycle: nil for the
    // RFT walk, periodic from its second cycle (the DEM robot still speeds up in its second)
    const sumX = rft.legForceByAngle.x.reduce((s, v) => s + v, 0);
    expect(Math.abs(sumX)).toBeLessThan(0.05);
    // on RFT a leg pointing up (90° … 270°) is above the surface: nothing at all
    for (let k = 9; k < 27; k++) {
      expect(rft.legForceByAngle.x[k]).toBe(0);
      expect(rft.legForceByAngle.z[k]).toBe(0);
    }
    expect(rft.torsoForce).toEqual([0, 0]); // the torso stays above the RFT surface
  });

  it("repeats bit for bit on the RFT ground", async () => {
    const table = RftTable.fromFourier({ zeta: 0.35, grainDiameter: 0.015, friction: 0.5 });
    const a = await robotOnGround({ scale: "smoke", ground: table });
    const b = await robotOnGround({ scale: "smoke", ground: table });
    expect(a.meanSpeed).toBeGreaterThan(0);
    for (const k of ["time", "x", "height", "cycleSpeed", "cycleHeight"] as const) {
      expect(b[k]).toEqual(a[k]);
    }
    expect(b.legForceByAngle).toEqual(a.legForceByAngle);
    expect(b.minClearance).toBe(a.minClearance);
  });
});

describe("robotOnGround: bad input", () => {
  const table = RftTable.fromFourier({ zeta: 0.35, grainDiameter: 0.01, friction: 0.5 });
  const bad: [Record<string, unknown>, RegExp][] = [
    [{ ground: "sand" }, /ground \(sand\) must be "dem" or an RftTable/],
    [{ ground: table, period: -1 }, /period \(-1\) must be > 0/],
    [{ ground: table, sweep: 4 }, /sweep \(4\) must be in \(0, π\]/],
    [{ ground: table, cycles: 1 }, /cycles \(1\) must be an integer in \[2, 1000\]/],
    [{ ground: table, cycles: 2.5 }, /cycles \(2.5\)/],
    [{ ground: table, gains: [1] }, /gains \(1\) must be \[kp, kd\]/],
    [{ ground: table, gains: [1, NaN] }, /gains\[1\] \(NaN\)/],
    [{ ground: table, bed: [70, 12, 5] }, /bed\[1\] \(12 d = 0.12 m\) must be at least 0.18 m/],
    [{ ground: table, bed: [20, 20, 5] }, /bed\[0\] \(20 d = 0.2 m\) must be longer/],
    [{ ground: table, bed: [70, 20, 2] }, /bed\[2\] \(2 d\) must be at least 3 d/],
    [{ ground: table, bed: [70, 20] }, /bed \(70,20\) must be \[length, width, depth\]/],
    [{ ground: table, rftTimeStep: 0 }, /rftTimeStep \(0\) must be > 0/],
    [{ ground: table, implicitDrag: "yes" }, /implicitDrag \(yes\) must be a boolean/],
    [{ ground: table, scale: "huge" }, /scale/],
    [{ ground: table, perod: 1 }, /did you mean "period"/],
  ];
  for (const [o, re] of bad) {
    it(`refuses ${JSON.stringify(o, (k, v) => (k === "ground" && v !== "sand" ? "table" : v))}`, async () => {
      await expect(robotOnGround(o)).rejects.toThrow(re);
    });
  }

  it("refuses a table calibrated on other grains, naming the field", async () => {
    const coarse = RftTable.fromFourier({ zeta: 0.35, grainDiameter: 0.02, friction: 0.5 });
    await expect(robotOnGround({ ground: coarse })).rejects.toThrow(
      /robotOnGround: the RFT table's grainDiameter \(0.02.*does not match the bed's \(0.01\)/,
    );
    const slippery = RftTable.fromFourier({ zeta: 0.35, grainDiameter: 0.01, friction: 0.2 });
    await expect(robotOnGround({ ground: slippery })).rejects.toThrow(/table's friction \(0.2/);
    await expect(robotOnGround({ ground: slippery, friction: 0.2, scale: "smoke" })).rejects
      .toThrow(/grainDiameter \(0.01.*bed's \(0.015\)/);
  });

  it("on RFT, leaves the preset's DEM bed unchecked: it has no bed", async () => {
    // smoke grains of d = 1 cm: the smoke bed (14 d wide) would be too narrow for the legs
    const r = await robotOnGround({ scale: "smoke", ground: table, diameter: 0.01 });
    expect(r.grains).toBe(0);
    expect(r.meanSpeed).toBeGreaterThan(0);
    await expect(robotOnGround({ scale: "smoke", diameter: 0.01 })).rejects.toThrow(
      /bed\[1\] \(14 d = 0.14 m\) must be at least 0.18 m/,
    );
  });

  it("stops with an error when the DEM bed is too short for the walk", async () => {
    // 0.36 m of d = 1.5 cm grains leave the robot 0.045 m of walk; it walks ~0.1 m per cycle
    await expect(robotOnGround({ scale: "smoke", bed: [24, 14, 4] })).rejects.toThrow(
      /the bed \(24 d long\) is too short for the walk/,
    );
  });
});
