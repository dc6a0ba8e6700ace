/**
 * `rftMaps`: the α_z / α_x maps of RFT models — one cell per grid point, each printing the
 * model's value there, one colour scale per row, and bad input named.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { rftMaps } from "../src/plot/mod.ts";
import { RftFourier, RftTable } from "../src/sphere3d/mod.ts";

describe("rftMaps", () => {
  const table = RftTable.fromFourier({ zeta: 0.4, betaCount: 5, gammaCount: 3 });

  it("draws one cell per grid point and model and component, printing α in N/cm³", () => {
    const generic = new RftFourier();
    const fig = rftMaps([{ label: "table", model: table }, { label: "generic", model: generic }]);
    expect(fig.info).toMatchObject({ models: 2, cells: 15 });
    // 2 components × 2 models × 15 cells, plus the legends' ramps
    const rects = fig.svg.match(/<rect/g)?.length ?? 0;
    expect(rects).toBeGreaterThanOrEqual(60);
    // the printed values are the models' own at the grid points (two decimals, no leading 0)
    const fmt = (a: number) => (a / 1e6).toFixed(2).replace(/^(-?)0\./, "$1.");
    for (const b of table.beta) {
      for (const g of table.gamma) {
        expect(fig.svg).toContain(`>${fmt(table.alphaZAt(b, g))}<`);
        expect(fig.svg).toContain(`>${fmt(generic.alphaXAt(b, g))}<`);
      }
    }
    expect(fig.svg).toContain("α_z: table");
    expect(fig.svg).toContain("α_x: generic");
    expect(fig.svg).toContain("α_z (N/cm³)");
  });

  it("takes a grid for Fourier forms, and leaves the values out on request", () => {
    const grid = { beta: [-1.5, 0, 1.5], gamma: [0, 1] };
    const fig = rftMaps([{ label: "f", model: new RftFourier() }], { grid, values: false });
    expect(fig.info).toMatchObject({ models: 1, cells: 6 });
    expect(fig.svg).not.toContain(">1.00<");
    // without a grid, a Fourier form gets 13 × 13
    expect(rftMaps([{ label: "f", model: new RftFourier() }]).info.cells).toBe(169);
  });

  it("names bad input", () => {
    expect(() => rftMaps([])).toThrow(/models \(0\)/);
    expect(() => rftMaps([{ label: "x", model: {} as RftTable }])).toThrow(/models\[0\]/);
    const m = [{ label: "t", model: table }];
    expect(() => rftMaps(m, { grid: { beta: [0], gamma: [0, 1] } })).toThrow(/grid\.beta has 1/);
    expect(() => rftMaps(m, { grid: { beta: [0, 2], gamma: [0, 1] } })).toThrow(
      /grid\.beta\[1\] \(2\)/,
    );
    expect(() => rftMaps(m, { grid: { beta: [1, 0], gamma: [0, 1] } })).toThrow(/ascending/);
    expect(() => rftMaps(m, { grid: { beta: [0, NaN], gamma: [0, 1] } })).toThrow(
      /grid\.beta\[1\] \(NaN\)/,
    );
    expect(() => rftMaps(Array(7).fill(m[0]))).toThrow(/models \(7\) must be an array of 1 to 6/);
    expect(() => rftMaps(m, { values: "yes" } as never)).toThrow(TypeError);
    expect(() => rftMaps(m, { size: -1 })).toThrow(/size/);
    expect(() => rftMaps(m, { colour: "red" } as never)).toThrow(RangeError);
  });
});
