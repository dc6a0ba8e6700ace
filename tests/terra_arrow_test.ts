/**
 * RFT tables through Arrow: a table written as an Arrow file and read back is the same table
 * (grid, α, medium), through `writeArrow`/`readArrow` too; broken files and tables throw naming
 * what is wrong.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import * as A from "apache-arrow";
import { readArrow, rftTableFromArrow, rftTableToArrow, writeArrow } from "../src/arrow/mod.ts";
import { tableFromBytes, tableToArrowFile } from "../src/arrow/io.ts";
import { RftTable } from "../src/sphere3d/mod.ts";
import { rftTableFromFourier } from "../src/sphere3d/rft/mod.ts";

const H = Math.PI / 2;

describe("RFT tables in Arrow", () => {
  it("round-trips a table with its medium, bit for bit", async () => {
    const t = new RftTable({
      beta: [-H, -0.3, 0.2, H], // not uniform
      gamma: [-H, 0, H],
      alphaZ: Array.from({ length: 12 }, (_, k) => 1e5 * Math.sin(k + 0.1)),
      alphaX: Array.from({ length: 12 }, (_, k) => 1e5 * Math.cos(k)),
      material: "glass beads, 3 mm, loose",
      source: "dem",
      grainDiameter: 0.003,
      friction: 0.3,
      intrusionSpeed: 0.01,
      volumeFraction: 0.58,
    });
    const back = new RftTable(
      rftTableFromArrow(tableFromBytes(tableToArrowFile(rftTableToArrow(t)))),
    );
    expect(back.toSpec()).toEqual(t.toSpec());
    expect(back.alphaZAt(0.1, 0.2)).toBe(t.alphaZAt(0.1, 0.2));
    const dir = await Deno.makeTempDir();
    try {
      const g = rftTableFromFourier({ zeta: 0.7 });
      await writeArrow(`${dir}/rft.arrow`, rftTableToArrow(g));
      const read = new RftTable(rftTableFromArrow(await readArrow(`${dir}/rft.arrow`)));
      expect(read.toSpec()).toEqual(g.toSpec());
      expect([read.source, read.grainDiameter]).toEqual(["generic", null]);
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });

  it("names what is wrong", () => {
    const arrow = rftTableToArrow(rftTableFromFourier({ betaCount: 3, gammaCount: 2 }));
    const withMeta = (patch: Record<string, string | null>) => {
      const m = new Map(arrow.schema.metadata);
      for (const [k, v] of Object.entries(patch)) v === null ? m.delete(k) : m.set(k, v);
      const schema = new A.Schema(arrow.schema.fields, m);
      return new A.Table(schema, arrow.batches.map((b) => new A.RecordBatch(schema, b.data)));
    };
    expect(() => rftTableFromArrow(withMeta({ "grainlab.table": "particles" })))
      .toThrow(/grainlab.table \(particles\) must be "rft"/);
    expect(() => rftTableFromArrow(withMeta({ "grainlab.rft.gammaCount": "3" })))
      .toThrow(/6 rows, must be betaCount × gammaCount = 9/);
    expect(() => rftTableFromArrow(withMeta({ "grainlab.rft.material": null })))
      .toThrow(/grainlab.rft.material is missing/);
    expect(() => new RftTable(rftTableFromArrow(withMeta({ "grainlab.rft.source": "lab" }))))
      .toThrow(/RftTable: source \("lab"\)/);
    expect(() =>
      rftTableFromArrow(withMeta({ "grainlab.rft.betaCount": "2", "grainlab.rft.gammaCount": "3" }))
    )
      .toThrow(/row 2 \(β 0, .*\) is not on the β-major grid/);
    expect(() => rftTableFromArrow(arrow.select(["beta", "gamma", "alphaX"])))
      .toThrow(/column "alphaZ" is missing/);
    expect(() => rftTableToArrow({} as never)).toThrow(/table.beta \(undefined\) must be an array/);
  });
});
