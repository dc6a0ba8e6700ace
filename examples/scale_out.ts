/**
 * Notebook 07 as a script — the scale-out path: build a bed in Grainlab, export it to LAMMPS
 * (`exportLammps`), run it there on 2 MPI ranks (`mpirun -np 2 lmp`), read the dump back
 * (`readLammpsDump`) and compare the two runs side by side: the beds, their kinetic-energy
 * decay, packing fraction and height. Writes the LAMMPS files, the figures and the last LAMMPS
 * frame as Arrow to `out/scale_out/`.
 *
 * Run: `deno run -A examples/scale_out.ts` (`--smoke` for a tiny, fast version). Without
 * LAMMPS (`lmp` and `mpirun`; Debian: `apt-get install lammps openmpi-bin`) it exports the
 * scene and stops before the LAMMPS run, except in CI (`CI=true`), where LAMMPS is required.
 *
 * @module
 */
import { jitteredPacking, World } from "../src/sphere3d/mod.ts";
import { lammps } from "../src/io/mod.ts";
import { writeArrow } from "../src/arrow/mod.ts";
import { bed3d, compose, lines } from "../src/plot/mod.ts";

const { canRun, exportLammps, loadLammpsFrame, readLammpsDump, runLammps } = lammps;

const smoke = Deno.args.includes("--smoke");
const OUT = "out/scale_out";
await Deno.mkdir(OUT, { recursive: true });

// ---- the scene: grains dropped on a jittered grid into an open box ------------------------
const R = 0.02, RHO = 1600, MASS = RHO * (4 / 3) * Math.PI * R ** 3;
const N = smoke ? 300 : 3000, BOX = { x: 1.0, y: 0.6 };
const dt = 2e-4, every = smoke ? 50 : 200, steps = smoke ? 200 : 3600;
const world = new World({ timeStep: dt, gravity: [0, 0, -9.81] });
const { positions } = jitteredPacking(
  [-BOX.x / 2, -BOX.y / 2, 0],
  [BOX.x / 2, BOX.y / 2, 2],
  R,
  R,
  0.045,
  N,
  5,
);
const bed = world.addGranularParticles({ positions, radii: R }, {
  density: RHO,
  normalStiffness: 1e5,
  tangentialStiffness: (2 / 7) * 1e5,
  normalDamping: (800 * MASS) / 2, // LAMMPS γn = 800 1/s between two grains
  friction: 0.5,
  contactLever: "radius", // LAMMPS's convention: the export is then exact
});
bed.setContainerBox([-BOX.x / 2, -BOX.y / 2, 0], [BOX.x / 2, BOX.y / 2, 1]);

// ---- export ---------------------------------------------------------------------------------
const exp = await exportLammps(`${OUT}/lammps`, world, { steps, dumpEvery: every });
console.log(
  `exported ${exp.atoms} grains to ${exp.inputFile}: ${exp.steps} LAMMPS steps of ${exp.timeStep} s, ` +
    `${exp.timesteps.length} frames; ${
      exp.exact ? "exact" : `differences: ${exp.notes.join("; ")}`
    }`,
);

const ci = Deno.env.get("CI") === "true";
if (!canRun("lmp") || !canRun("mpirun")) {
  if (ci) throw new Error("scale_out: LAMMPS (lmp) and mpirun are required in CI");
  console.log("LAMMPS (`lmp`, `mpirun`) not found: skipping the LAMMPS run.");
  console.log(`Run it yourself: cd ${exp.dir} && mpirun -np 2 lmp -in in.grainlab`);
  Deno.exit(0);
}

// ---- LAMMPS on 2 ranks, then the same run in Grainlab ---------------------------------------
const run = await runLammps(exp, { ranks: 2 });
const dump = await readLammpsDump(exp.dumpFile, { expect: exp });
console.log(`LAMMPS (2 ranks): ${run.seconds.toFixed(1)} s`);

/** Bed height (top 5 % of centres + r), packing fraction below it (−4r), kinetic energy. */
function bedMetrics(z: ArrayLike<number>, v: ArrayLike<number>) {
  const n = z.length, sorted = Float64Array.from(z).sort();
  const top = sorted.subarray(Math.floor(0.95 * n));
  const H = top.reduce((a, b) => a + b, 0) / top.length + R, h = H - 4 * R;
  const below = (zc: number, t: number) => {
    const d = Math.max(-R, Math.min(R, t - zc)), c = R + d;
    return (Math.PI * c * c * (3 * R - c)) / 3;
  };
  let vol = 0, ke = 0;
  for (let i = 0; i < n; i++) {
    vol += below(z[i], h) - below(z[i], 0);
    ke += 0.5 * MASS * (v[3 * i] ** 2 + v[3 * i + 1] ** 2 + v[3 * i + 2] ** 2);
  }
  return { H, phi: vol / (BOX.x * BOX.y * h), ke };
}

const t0 = performance.now();
const t: number[] = [], keG: number[] = [], keL: number[] = [];
let G = bedMetrics([], []), L = G;
for (const f of dump.frames) {
  if (f.timestep > 0) world.run(every);
  const c = f.columns, vL = new Float64Array(3 * f.count);
  ["vx", "vy", "vz"].forEach((a, k) => c.get(a)!.forEach((x, i) => (vL[3 * i + k] = x)));
  G = bedMetrics(
    Float64Array.from({ length: bed.count }, (_, i) => bed.positions[3 * i + 2]),
    bed.velocities,
  );
  L = bedMetrics(c.get("z")!, vL);
  t.push(f.timestep * exp.timeStep);
  keG.push(G.ke);
  keL.push(L.ke);
}
console.log(`Grainlab (1 thread): ${((performance.now() - t0) / 1000).toFixed(1)} s`);
console.log(
  `after ${t[t.length - 1].toFixed(2)} s: packing fraction ${G.phi.toFixed(4)} (Grainlab) vs ` +
    `${L.phi.toFixed(4)} (LAMMPS), bed height ${G.H.toFixed(4)} vs ${L.H.toFixed(4)} m, kinetic ` +
    `energy ${keG[keG.length - 1].toExponential(2)} vs ${keL[keL.length - 1].toExponential(2)} J`,
);

// ---- figures and data -----------------------------------------------------------------------
const last = dump.tables[dump.tables.length - 1];
const view = {
  views: ["side" as const],
  color: "z",
  colorScale: { domain: [0, 0.4] as [number, number] }, // the same colours in both panels
  width: 520,
  height: 300,
};
await compose([
  bed3d(bed, { ...view, title: "Grainlab" }),
  bed3d(last, { ...view, title: "LAMMPS, 2 MPI ranks" }),
], { title: `The same ${bed.count} grains after ${t[t.length - 1].toFixed(2)} s` })
  .save(`${OUT}/beds.png`);
const positive = (y: number[]) => y.map((v) => Math.max(v, 1e-12));
await lines([
  { label: "Grainlab", x: t.slice(1), y: positive(keG.slice(1)) },
  { label: "LAMMPS", x: t.slice(1), y: positive(keL.slice(1)), dash: "5,4" },
], { yType: "log", xLabel: "time (s)", yLabel: "kinetic energy (J)", title: "Kinetic energy" })
  .save(`${OUT}/kinetic_energy.png`);
await writeArrow(`${OUT}/lammps_last_frame.arrow`, last);

// Back into Grainlab: load LAMMPS's last frame into the bed and carry on from there.
loadLammpsFrame(bed, dump.frames[dump.frames.length - 1]);
world.run(smoke ? 10 : 100);
console.log(
  `continued in Grainlab from LAMMPS's state: kinetic energy ${
    bed.energy().kinetic.toExponential(2)
  } J`,
);

console.log(`Files in ${OUT}/:`);
for (const e of [...Deno.readDirSync(OUT)].map((e) => e.name).sort()) console.log(`  ${e}`);
