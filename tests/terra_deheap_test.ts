/**
 * The de-heaped RFT table (`deheapRftTable`) and the experiments' `deform` option: on the
 * deforming surface, the de-heaped table gives the calibration's plates the force the flat
 * table gives them on the flat surface (its defining property); its ratios are > 1 where a
 * plate moving into the grains meets its own heap; the C-leg, the wheel and the robot run on
 * the deforming surface, which conserves the grains' volume; bad options are named.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  deheapRftTable,
  rftValidation,
  robotOnGround,
  singleWheelTest,
} from "../src/experiments/mod.ts";
import { plateRun } from "../src/experiments/rft_intrude.ts";
import { RftTable, World } from "../src/sphere3d/mod.ts";

const D = 0.01;
/** ζ = 0.48 × generic on a 13 × 13 grid (15°), for the ci grains: d = 1 cm, friction 0.5. */
const TABLE = RftTable.fromFourier({
  zeta: 0.48,
  grainDiameter: D,
  friction: 0.5,
  betaCount: 13,
  gammaCount: 13,
});
const DEFORM = { cellSize: 0.5, repose: 0.5 };

/** The calibration's plate run (4 d plate, 0.1 m/s, window 0–2 d) on an RFT world. */
async function plate(table: RftTable, beta: number, gamma: number, deform: boolean) {
  const size: [number, number, number] = [0.2, 0.1, 0.09];
  const bed = { rft: true as const, model: { d: D }, surface: 0, size, volumeFraction: 0.6 };
  return await plateRun(bed, {
    side: 4 * D,
    thickness: 0.4 * D,
    beta,
    gamma,
    speed: 0.1,
    window: [0, 2 * D],
    throughOrigin: true,
  }, async () => {
    const world = await World.create({ timeStep: 0.01, gravity: [0, 0, -9.81] });
    world.addRftGround(table, {
      surfaceHeight: 0,
      elementSize: 0.5 * D,
      ...(deform
        ? { deform: { cellSize: 0.5 * D, repose: 0.5, bounds: [-0.1, -0.05, 0.1, 0.05] } }
        : {}),
    });
    return world;
  });
}

describe("deheapRftTable", () => {
  it("on the deforming surface, gives the calibration plates the flat table's force", async () => {
    const { table, ratioZ, ratioX } = await deheapRftTable(TABLE, { deform: DEFORM });
    expect(table.material).toMatch(/de-heaped for a deforming surface \(cells 0\.50 d/);
    expect(table.grainDiameter).toBe(D);
    const nb = TABLE.beta.length, ng = TABLE.gamma.length;
    const at = (b: number, g: number) =>
      TABLE.beta.indexOf(b * Math.PI / 180) * ng + TABLE.gamma.indexOf(g * Math.PI / 180);
    // a flat plate pushed straight down stands in its own cells: the heap forms beside it
    expect(ratioZ[at(0, 90)]).toBe(1);
    // moving sideways into the grains, the plate meets the heap it pushes: more than 10 %
    expect(ratioZ[at(0, 45)]).toBeGreaterThan(1.1);
    expect(ratioX[at(0, 45)]).toBeGreaterThan(1.1);
    const errors: number[] = [];
    for (let i = 0; i < nb; i++) {
      for (let j = 0; j < ng; j++) {
        const flat = await plate(TABLE, TABLE.beta[i], TABLE.gamma[j], false);
        const deformed = await plate(table, TABLE.beta[i], TABLE.gamma[j], true);
        const big = Math.max(Math.abs(flat.alphaZ), Math.abs(flat.alphaX));
        errors.push(Math.abs(deformed.alphaZ - flat.alphaZ) / big);
        errors.push(Math.abs(deformed.alphaX - flat.alphaX) / big);
        if (i === 6 && j === 9) {
          // the ratio is what the deforming surface adds with the table as it was
          const raw = await plate(TABLE, TABLE.beta[i], TABLE.gamma[j], true);
          expect(raw.alphaZ / flat.alphaZ).toBeCloseTo(ratioZ[i * ng + j], 12);
        }
      }
    }
    // de-heaped, the force is the flat one up to what the plate's edges add (their (β, γ) are
    // other pairs', scaled by those pairs' ratios): per cent, as a share of the pair's force
    errors.sort((a, b) => a - b);
    expect(errors[Math.floor(errors.length / 2)]).toBeLessThan(0.01);
    expect(errors[Math.floor(0.9 * errors.length)]).toBeLessThan(0.05);
    expect(errors[errors.length - 1]).toBeLessThan(0.25);
  });

  it("names bad input", async () => {
    const unknown = RftTable.fromFourier({ betaCount: 3, gammaCount: 3 });
    await expect(deheapRftTable(unknown)).rejects.toThrow(/table\.grainDiameter \(null\)/);
    await expect(deheapRftTable({} as RftTable)).rejects.toThrow(/table .* must be an RftTable/);
    await expect(deheapRftTable(TABLE, { size: 4 } as never)).rejects.toThrow(
      /unknown option "size"/,
    );
    await expect(deheapRftTable(TABLE, { window: [2, 1] })).rejects.toThrow(/window \(2,1\)/);
    await expect(deheapRftTable(TABLE, { deform: { cellSize: -1 } })).rejects.toThrow(
      /deform\.cellSize \(-1\)/,
    );
  });
});

describe("the experiments on a deforming RFT surface", () => {
  it("the C-leg: the heap it sweeps up pushes it longer than the flat surface does", async () => {
    const o = { scale: "smoke", intruder: "cLeg", table: TABLE } as const;
    const flat = await rftValidation(o);
    const deformed = await rftValidation({ ...o, deform: DEFORM });
    expect(deformed.position).toEqual(flat.position);
    // the last third of the sweep, leaving the grains: more push along x from the heap
    const n = flat.rft.fx.length,
      tail = (a: Float64Array) => a.slice((2 * n) / 3).reduce((s, v) => s + v, 0);
    expect(tail(deformed.rft.fx)).toBeGreaterThan(1.2 * tail(flat.rft.fx));
    await expect(rftValidation({ ...o, deform: { cells: 1 } as never })).rejects.toThrow(
      /unknown option "deform\.cells"/,
    );
  });

  it("the wheel: carries its load, its sinkage positive", async () => {
    const r = await singleWheelTest({ scale: "smoke", ground: TABLE, deform: DEFORM });
    for (let i = 0; i < r.slips.length; i++) {
      expect(Math.abs(r.verticalForce[i] / 3 - 1)).toBeLessThan(0.05);
      expect(r.sinkage[i]).toBeGreaterThan(0);
    }
  });

  it("the robot: walks, leaving ruts and heaps that hold the grains' volume", async () => {
    const r = await robotOnGround({ scale: "ci", ground: TABLE, deform: DEFORM, cycles: 2 });
    expect(r.meanSpeed).toBeGreaterThan(0.1);
    const map = r.surface!;
    expect(map).not.toBeNull();
    let low = 0, high = 0;
    for (const h of map.heights()) low = Math.min(low, h), high = Math.max(high, h);
    expect(low).toBeLessThan(-0.01); // ruts deeper than a grain
    expect(high).toBeGreaterThan(0.005); // heaps
    expect(Math.abs(map.volume + map.lost)).toBeLessThan(1e-12);
    const flat = await robotOnGround({ scale: "ci", ground: TABLE, cycles: 2 });
    expect(flat.surface).toBeNull();
  });
});
