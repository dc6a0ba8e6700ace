/**
 * Notebook 05 as a script: single-grain experiments on the contact laws of sphere3d —
 * linear versus Hertz force–overlap curves, restitution against damping (with the clamped
 * oscillator reference), and a ball that slides, rolls and slows under rolling resistance.
 * Writes PNG figures and an Arrow table of the restitution sweep to `out/contact_models/`.
 *
 * Run: `deno run -A examples/contact_models.ts` (`--smoke` for a quick run).
 *
 * @module
 */
import { World } from "../src/sphere3d/mod.ts";
import { buildTable, writeArrow } from "../src/arrow/mod.ts";
import { lines } from "../src/plot/mod.ts";

const smoke = Deno.args.includes("--smoke");
const OUT = "out/contact_models";
await Deno.mkdir(OUT, { recursive: true });
const R = 0.01, RHO = 2500, K = 1e5;
const MASS = RHO * (4 / 3) * Math.PI * R ** 3;

function drop(material: Record<string, unknown>, v0: number) {
  const world = new World({ timeStep: 1e-5, gravity: [0, 0, 0] });
  const g = world.addGranularParticles({ positions: [[0, 0, R]], radii: R }, {
    density: RHO,
    friction: 0,
    ...material,
  });
  g.setGroundPlane(0);
  g.setVelocity(0, [0, 0, -v0]);
  const overlap: number[] = [], force: number[] = [];
  for (let s = 0; s < 4000; s++) {
    world.step();
    const c = g.contacts;
    if (c.count > 0) {
      overlap.push(c.overlap[0] * 1e6);
      force.push(c.normalForce[0]);
    } else if (g.velocities[2] > 0) break;
  }
  return { overlap, force, e: g.velocities[2] / v0 };
}

// 1. linear vs Hertz, equal force at 0.1 mm
const lin = drop({ normalStiffness: K, normalDamping: 0 }, 1);
const hertz = drop({
  normalContactModel: "hertz",
  normalStiffness: K / Math.sqrt(R * 1e-4),
  normalDamping: 0,
}, 1);
await lines([
  { label: "linear", x: lin.overlap, y: lin.force, points: true },
  { label: "Hertz", x: hertz.overlap, y: hertz.force, points: true },
], {
  title: "Normal force against overlap (impact at 1 m/s)",
  xLabel: "overlap (µm)",
  yLabel: "force (N)",
}).save(`${OUT}/linear_vs_hertz.png`);

// 2. restitution vs damping
const dampings = smoke ? [0, 10, 25] : [0, 2, 4, 6, 8, 12, 16, 20, 25, 30];
const zeta = dampings.map((c) => c / (2 * Math.sqrt(MASS * K)));
const eSim = dampings.map((c) => drop({ normalStiffness: K, normalDamping: c }, 1).e);
const eFormula = zeta.map((z) => Math.exp((-Math.PI * z) / Math.sqrt(1 - z * z)));
await lines([
  { label: "simulated", x: zeta, y: eSim, points: true },
  { label: "exp(−πζ/√(1−ζ²))", x: zeta, y: eFormula, dash: "5,4", color: "#222" },
], {
  title: "Coefficient of restitution against damping ratio",
  xLabel: "damping ratio ζ",
  yLabel: "restitution e",
}).save(`${OUT}/restitution.png`);
await writeArrow(
  `${OUT}/restitution.arrow`,
  buildTable("contact_models", zeta.length, [
    {
      name: "damping",
      type: "float64",
      values: Float64Array.from(dampings),
      unit: "N·s/m",
      description: "normal damping c",
    },
    {
      name: "zeta",
      type: "float64",
      values: Float64Array.from(zeta),
      unit: "1",
      description: "damping ratio c / (2 √(m k))",
    },
    {
      name: "restitution",
      type: "float64",
      values: Float64Array.from(eSim),
      unit: "1",
      description: "simulated coefficient of restitution",
    },
    {
      name: "formula",
      type: "float64",
      values: Float64Array.from(eFormula),
      unit: "1",
      description: "exp(−πζ/√(1−ζ²)) of the unclamped oscillator",
    },
  ], { simulator: "sphere3d", table: "restitution" }),
);

// 3. slide, roll, slow down
const rolls = (smoke ? [0, 0.05] : [0, 0.02, 0.05]).map((mu) => {
  const world = new World({ timeStep: 2e-5, gravity: [0, 0, -9.81] });
  const g = world.addGranularParticles({ positions: [[0, 0, R - (MASS * 9.81) / K]], radii: R }, {
    density: RHO,
    normalStiffness: K,
    normalDamping: 5,
    friction: 0.5,
    rollingFriction: mu,
  });
  g.setGroundPlane(0);
  g.setVelocity(0, [1, 0, 0]);
  const t: number[] = [], v: number[] = [];
  for (let s = 0; s < (smoke ? 5000 : 25000); s++) {
    world.step();
    if (s % 100 === 0) {
      t.push(world.time);
      v.push(g.velocities[0]);
    }
  }
  return { label: `μr = ${mu}`, x: t, y: v };
});
await lines(rolls, {
  title: "A ball launched at 1 m/s: slide, roll, slow down",
  xLabel: "time (s)",
  yLabel: "velocity (m/s)",
}).save(`${OUT}/rolling.png`);

console.table(zeta.map((z, k) => ({ zeta: z.toFixed(3), simulated: eSim[k].toFixed(4) })));
console.log(
  `Figures and data in ${OUT}/: linear_vs_hertz.png, restitution.png, rolling.png, restitution.arrow`,
);
