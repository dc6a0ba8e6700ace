/**
 * Notebook 04 as a script: the elastic bar dropped on rigid ground, simulated with IPC, an
 * implicit penalty and an explicit DEM spring, against the exact solution; plus the IPC
 * convergence under refinement. Writes PNG figures and one Arrow table per run to
 * `out/ipc_bar/`.
 *
 * Run: `deno run -A examples/ipc_bar_figures.ts` (`--smoke` for coarse meshes).
 *
 * @module
 */
import { convergenceStudy, simulateBar } from "../src/ipc1d/mod.ts";
import { barTable, writeArrow } from "../src/arrow/mod.ts";
import { barComparison, lines } from "../src/plot/mod.ts";

const smoke = Deno.args.includes("--smoke");
const OUT = "out/ipc_bar";
await Deno.mkdir(OUT, { recursive: true });
const elements = smoke ? 20 : 100;

for (const problem of ["impact", "bounce"] as const) {
  const runs = {
    DEM: simulateBar({ problem, elements, contact: { kind: "dem" } }),
    penalty: simulateBar({ problem, elements, contact: { kind: "penalty" } }),
    IPC: simulateBar({ problem, elements, contact: { kind: "ipc" } }),
  };
  const exact = {
    time: runs.IPC.time,
    endPosition: runs.IPC.exactEndPosition,
    contactForce: runs.IPC.exactContactForce,
  };
  for (const y of ["endPosition", "contactForce"]) {
    await barComparison(runs, { y, analytic: exact, title: `${problem}: ${y}` })
      .save(`${OUT}/${problem}_${y}.png`);
  }
  for (const [name, r] of Object.entries(runs)) {
    await writeArrow(`${OUT}/${problem}_${name}.arrow`, barTable(r));
    console.log(
      `${problem} ${name.padEnd(7)} min gap ${r.metrics.minGap.toExponential(2)} m, ` +
        `L2 error ${r.metrics.l2ErrEndPosition.toFixed(4)} m`,
    );
  }
}

const study = convergenceStudy({
  problem: "impact",
  meshes: smoke ? [10, 20] : [25, 50, 100, 200],
});
const dx = study.rows.map((r) => r.dx);
await lines([
  {
    label: "L2 error of y0 (m)",
    x: dx,
    y: study.rows.map((r) => r.metrics.l2ErrEndPosition),
    points: true,
  },
  {
    label: "|energy drift|",
    x: dx,
    y: study.rows.map((r) => Math.abs(r.metrics.energyDrift)),
    points: true,
  },
], {
  title: "IPC impact: errors against element size",
  xLabel: "Δx (m)",
  yLabel: "error",
  xType: "log",
  yType: "log",
}).save(`${OUT}/convergence.png`);
console.log(
  `orders of L2 error: ${
    Array.from(study.orders.l2ErrEndPosition, (o) => o.toFixed(2)).join(", ")
  }`,
);
console.log(`Figures and data in ${OUT}/`);
