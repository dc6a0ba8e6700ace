/**
 * Notebook 02 as a script: the StarDEM distance study — maps of the relative error of the
 * first-order and the radial distance against the exact Euclidean distance around four star
 * shapes (the paper's Figure 3), and the error columns as Arrow files, in
 * `out/star_distance_error/`.
 *
 * Run: `deno run -A examples/star_distance_error.ts` (`--smoke` for coarse maps).
 *
 * @module
 */
import { distanceErrorMap, StarShape } from "../src/star2d/mod.ts";
import { buildTable, writeArrow } from "../src/arrow/mod.ts";
import { distanceErrorFigure } from "../src/plot/mod.ts";

const smoke = Deno.args.includes("--smoke");
const OUT = "out/star_distance_error";
await Deno.mkdir(OUT, { recursive: true });

const rows = [];
for (const name of ["cross", "flower", "peanut", "butterfly"] as const) {
  const shape = StarShape.preset(name, { rMax: 0.005 });
  const map = distanceErrorMap(shape, { resolution: smoke ? 24 : 100, extent: 1.3 });
  await distanceErrorFigure(map, {
    outline: shape.outline(200),
    domain: [1e-3, 3],
    title: `${name}: relative distance error`,
  }).save(`${OUT}/${name}.png`);
  const col = (n: string, v: Float64Array, unit: string, description: string) => ({
    name: n,
    type: "float64" as const,
    values: v,
    unit,
    description,
  });
  await writeArrow(
    `${OUT}/${name}.arrow`,
    buildTable("star_distance_error", map.count, [
      col("x", map.x, "m", "sample point x"),
      col("y", map.y, "m", "sample point y"),
      col("exact", map.exact, "m", "exact signed Euclidean distance"),
      col("firstOrder", map.firstOrder, "m", "first-order signed distance"),
      col("radial", map.radial, "m", "radial signed distance"),
      col(
        "firstOrderError",
        map.firstOrderError,
        "1",
        "relative error of the first-order distance",
      ),
      col("radialError", map.radialError, "1", "relative error of the radial distance"),
    ], { simulator: "star2d", table: "distance-error", extra: { "grainlab.shape": name } }),
  );
  rows.push({
    shape: name,
    "max first-order": map.maxFirstOrderError.toFixed(3),
    "max radial": map.maxRadialError.toFixed(3),
  });
}
console.table(rows);
console.log(`Figures and data in ${OUT}/`);
