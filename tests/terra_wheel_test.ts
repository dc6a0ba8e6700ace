/**
 * The single-wheel test (issue #28 items 3(c) and 4) at smoke size: a smooth rigid wheel (R =
 * 5 cm, 3 cm wide, W = 3 N) driven at slips 0, 0.3, 0.7 over 6 cm, on the DEM bed (917 grains
 * of d = 1 cm: coarse, the sinkage is about one d) and on the RFT ground calibrated from the
 * same grains (`calibrateRft` smoke: ζ × Li et al.'s generic medium). About 35 s.
 *
 * What holds and is asserted: the Wong–Reece shape on both grounds (drawbar pull rising from
 * negative at s = 0 to positive at 0.7, sinkage and torque growing with slip), the load
 * balance (mean vertical ground force = W), the RFT defaults resolved (half the step and half
 * the elements agree), errors naming the option, a table of other grains refused. RFT against
 * the DEM (the issue's target: drawbar pull and sinkage within 20 %): at this size, on the
 * smoke calibration, the pull is within 9 % of W and the sinkage 1.10–1.18 times the DEM's at
 * every slip; the test holds that level (pull within 0.12 W, sinkage ratio in [0.8, 1.25]).
 * At ci size on the full calibration the slipping wheel sinks 1.4–1.7 times as deep
 * (`terra_wheel_ci_test.ts`, docs/terradynamics.md).
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { calibrateRft, type SingleWheelResult, singleWheelTest } from "../src/experiments/mod.ts";
import { RftTable } from "../src/sphere3d/mod.ts";

const W = 3;

function show(r: SingleWheelResult): string {
  return Array.from(
    r.slips,
    (s, i) =>
      `s ${s}: DP ${r.drawbarPull[i].toFixed(3)} ± ${r.drawbarPullStd[i].toFixed(3)} N, ` +
      `T ${(r.torque[i] * 1e3).toFixed(1)} mN·m, z ${(r.sinkage[i] * 1e3).toFixed(2)} mm, ` +
      `Fz ${r.verticalForce[i].toFixed(3)} N`,
  ).join("; ");
}

/** The Wong–Reece shape and the load balance, on either ground. */
function checkShape(r: SingleWheelResult, balance: number): void {
  const n = r.slips.length;
  expect(r.slips.length).toBe(3);
  // free rolling meets the compaction resistance; at high slip the wheel pulls
  expect(r.drawbarPull[0]).toBeLessThan(0);
  expect(r.drawbarPull[n - 1]).toBeGreaterThan(0);
  expect(r.drawbarPull[n - 1] - r.drawbarPull[0]).toBeGreaterThan(0.1 * W);
  // the wheel digs in and needs more torque as it slips
  expect(r.sinkage[n - 1] - r.sinkage[0]).toBeGreaterThan(1e-3);
  expect(r.torque[n - 1]).toBeGreaterThan(1.5 * r.torque[0]);
  expect(r.torque[0]).toBeGreaterThan(0);
  for (let i = 0; i < n; i++) {
    expect(Math.abs(r.verticalForce[i] - W)).toBeLessThan(balance * W);
    expect(r.measuredSlip[i]).toBeCloseTo(r.slips[i], 3);
    expect(r.sinkage[i]).toBeGreaterThan(0);
  }
}

describe("singleWheelTest (smoke)", () => {
  let table: Awaited<ReturnType<typeof calibrateRft>>["table"];
  let rft: SingleWheelResult;
  let dem: SingleWheelResult;

  it("on the RFT ground calibrated from the grains: the Wong–Reece shape, W carried", async () => {
    table = (await calibrateRft({ scale: "smoke" })).table;
    rft = await singleWheelTest({ scale: "smoke", ground: table, load: W });
    console.log(`  RFT: ${show(rft)}`);
    expect(rft.ground).toBe("rft");
    expect(rft.grains).toBe(0);
    checkShape(rft, 0.02);
    // RFT is smooth in slip: every step of the sweep raises pull, torque and sinkage
    for (let i = 1; i < 3; i++) {
      expect(rft.drawbarPull[i]).toBeGreaterThan(rft.drawbarPull[i - 1]);
      expect(rft.torque[i]).toBeGreaterThan(rft.torque[i - 1]);
      expect(rft.sinkage[i]).toBeGreaterThan(rft.sinkage[i - 1]);
    }
  });

  it("on RFT, the defaults are resolved: half the step and half the elements agree", async () => {
    const fine = await singleWheelTest({
      scale: "smoke",
      ground: table,
      load: W,
      rftTimeStep: rft.timeStep / 2,
      elementSize: rft.radius / 10,
    });
    expect(rft.timeStep).toBe(2e-3);
    for (let i = 0; i < 3; i++) {
      expect(Math.abs(fine.drawbarPull[i] - rft.drawbarPull[i])).toBeLessThan(0.01 * W);
      expect(Math.abs(fine.sinkage[i] / rft.sinkage[i] - 1)).toBeLessThan(0.02);
      expect(Math.abs(fine.torque[i] - rft.torque[i])).toBeLessThan(0.03 * rft.torque[2]);
    }
  });

  it("on the DEM bed: the same shape, W carried within 5 %", async () => {
    dem = await singleWheelTest({ scale: "smoke", load: W });
    console.log(`  DEM (${dem.grains} grains): ${show(dem)}`);
    expect(dem.ground).toBe("dem");
    expect(dem.grains).toBeGreaterThan(500);
    checkShape(dem, 0.05);
    expect(dem.runs[0].time.length).toBe(60); // one block per mm of travel
  });

  it("RFT against the DEM it came from: pull within 12 % of W, sinkage within 25 %", () => {
    const lines: string[] = [];
    for (let i = 0; i < 3; i++) {
      const dDp = rft.drawbarPull[i] - dem.drawbarPull[i];
      const zRatio = rft.sinkage[i] / dem.sinkage[i];
      lines.push(
        `s ${rft.slips[i]}: DP RFT − DEM ${dDp.toFixed(3)} N (${(dDp / W * 100).toFixed(1)} % ` +
          `of W), sinkage RFT/DEM ${zRatio.toFixed(2)}`,
      );
      expect(Math.abs(dDp)).toBeLessThan(0.12 * W);
      expect(zRatio).toBeGreaterThan(0.8);
      expect(zRatio).toBeLessThan(1.25);
    }
    const cost = (dem.wallSeconds / dem.simulatedSeconds) /
      (rft.wallSeconds / rft.simulatedSeconds);
    console.log(`  ${lines.join("; ")}; cost DEM/RFT per simulated second ${cost.toFixed(0)}×`);
  });

  it("the rim's stress carries the wheel on both grounds; the DEM's reaches behind the bottom", () => {
    const R = rft.radius, w = rft.width, dth = Math.PI / 36;
    for (const r of [rft, dem]) {
      expect(r.rim.angle.length).toBe(36);
      expect(r.rim.normal.length).toBe(3);
      for (let i = 0; i < 3; i++) {
        // the bins' forces, summed: the rim carries the load; on the DEM the grains against the
        // wheel's end faces carry the rest (smoke: up to 11 % of W in this narrow bed; ci 2-7 %)
        let fz = 0, fx = 0, rear = 0;
        for (let k = 0; k < 36; k++) {
          const a = r.rim.angle[k], sn = r.rim.normal[i][k], t = r.rim.shear[i][k];
          const dz = (sn * Math.cos(a) + t * Math.sin(a)) * R * dth * w;
          fz += dz, fx += (-sn * Math.sin(a) + t * Math.cos(a)) * R * dth * w;
          if (a < 0) rear += dz;
          expect(sn).toBeGreaterThan(-1); // grains press, they do not pull (Pa)
        }
        console.log(
          `  ${r.ground} s ${r.slips[i]}: rim Fz ${fz.toFixed(3)} (Fz ${
            r.verticalForce[i].toFixed(3)
          }), rim Fx ${fx.toFixed(3)} (DP ${r.drawbarPull[i].toFixed(3)}), rear ${
            rear.toFixed(3)
          } N`,
        );
        const tol = r === rft ? 0.02 : 0.15;
        expect(Math.abs(fz - r.verticalForce[i])).toBeLessThan(tol * W);
        expect(Math.abs(fx - r.drawbarPull[i])).toBeLessThan(tol * W);
        // behind the bottom the DEM's grains push on the rim as it rises (ci: 12-20 % of W;
        // RFT's steady slipping wheel, all trailing there, 1-3 %: docs/terradynamics.md)
        if (r === dem) expect(rear).toBeGreaterThan(0.05 * W);
      }
    }
  });

  it("with the wheel's friction as the interface's, RFT's rim leans no further than μ", async () => {
    // Li et al.'s RFT lets the slipping rim's grains push up to 0.7 of the pressure along it
    // (ci); capped at the wheel-grain friction 0.5 the pull falls, the torque with it
    const capped = await singleWheelTest({
      scale: "smoke",
      ground: table,
      load: W,
      interfaceFriction: 0.5,
    });
    // per bin (each facet caps along its own normal, up to half a facet's angle, 5.6° at
    // R/5 elements, from the radial direction the bins use: tan(atan 0.5 + 5.6°) = 0.62)
    let leanFree = 0;
    for (let k = 0; k < 36; k++) {
      const sn = rft.rim.normal[2][k];
      if (sn > 100) leanFree = Math.max(leanFree, rft.rim.shear[2][k] / sn);
    }
    expect(leanFree).toBeGreaterThan(0.62);
    for (let i = 0; i < 3; i++) {
      for (let k = 0; k < 36; k++) {
        const sn = capped.rim.normal[i][k], t = capped.rim.shear[i][k];
        expect(Math.abs(t)).toBeLessThanOrEqual(0.62 * sn + 1e-9);
      }
      expect(Math.abs(capped.verticalForce[i] - W)).toBeLessThan(0.02 * W);
    }
    expect(capped.drawbarPull[2]).toBeLessThan(rft.drawbarPull[2]); // ci: 0.73 -> 0.31 N
    expect(capped.torque[2]).toBeLessThan(rft.torque[2]);
    expect(capped.drawbarPull[0]).toBeCloseTo(rft.drawbarPull[0], 1); // rolling: barely leans
    await expect(
      singleWheelTest({ scale: "smoke", ground: table, interfaceFriction: -1 }),
    ).rejects.toThrow(/interfaceFriction \(-1\) must be a number >= 0/);
  });

  it("names bad options and refuses a table of other grains", async () => {
    const t = RftTable.fromFourier({ zeta: 0.3, material: "beads", grainDiameter: 0.01 });
    await expect(singleWheelTest({ scale: "smoke", ground: t, slips: [1.2] })).rejects.toThrow(
      /slips\[0\] \(1\.2\) must be in \[0, 0\.95\]/,
    );
    await expect(singleWheelTest({ scale: "smoke", ground: t, load: -1 })).rejects.toThrow(
      /load \(-1\) must be > 0/,
    );
    await expect(singleWheelTest({ scale: "smoke", ground: t, rftTimeStep: NaN })).rejects
      .toThrow(/rftTimeStep \(NaN\)/);
    await expect(singleWheelTest({ scale: "smoke", ground: t, elementSize: -0.01 })).rejects
      .toThrow(/elementSize \(-0\.01\) must be > 0/);
    await expect(
      singleWheelTest({ scale: "smoke", ground: t, elementSize: "1 cm" as unknown as number }),
    ).rejects.toThrow(/elementSize/);
    await expect(singleWheelTest({ scale: "smoke", ground: t, runIn: 0.95 })).rejects.toThrow(
      /runIn \(0\.95\) must be in \[0, 0\.9\]/,
    );
    await expect(
      singleWheelTest({ scale: "smoke", ground: "rft" as unknown as "dem" }),
    ).rejects.toThrow(/ground \(rft\) must be "dem" or an RftTable/);
    await expect(singleWheelTest({ scale: "smoke", bed: [3, 5] })).rejects.toThrow(
      /bed\[0\] \(3 d\) must leave a grain each side/,
    );
    await expect(
      singleWheelTest({ scale: "smoke", slipz: [0] } as unknown as { scale: "smoke" }),
    ).rejects.toThrow(/did you mean "slips"/);
    // calibrated on grains of 2 cm, run on grains of 1 cm
    const other = RftTable.fromFourier({ zeta: 0.3, material: "coarse", grainDiameter: 0.02 });
    await expect(singleWheelTest({ scale: "smoke", ground: other })).rejects.toThrow(
      /RFT table's grainDiameter \(0\.02/,
    );
  });
});
