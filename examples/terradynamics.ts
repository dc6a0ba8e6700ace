/**
 * Terradynamics (notebook 11 as a script): resistive-force theory calibrated from Grainlab's
 * own DEM, checked against the DEM on a tilted plate, a C-shaped leg, a driven wheel and a
 * walking six-legged robot. Writes PNG figures to `out/terradynamics/` and prints the numbers.
 *
 * The RFT table is the cached 13 × 13 calibration of beads of d = 1 cm
 * (`tests/fixtures/rft_dem.arrow`, made by `scripts/gen_rft_fixture.ts`, about 18 minutes);
 * `--calibrate` calibrates afresh at the run's size instead (`calibrateRft`: smoke 3 plates,
 * ci 7; `calibrateRftMemory` for the pressure memory, else `tests/fixtures/rft_dem_memory.json`).
 * The wheel and the robot also run on ζ × Li et al.'s generic medium with the pressure memory
 * (`stressMemory`), the combination that meets the issue's targets at ci size, and a free plate
 * is dropped on it, and the robot stood on it, with the memory as a capacity and as a force.
 * `--smoke` runs the DEM scenes at smoke size, and the robot on RFT only.
 *
 * Run: `deno run -A examples/terradynamics.ts [--smoke] [--calibrate]`.
 *
 * @module
 */
import { readArrow, rftTableFromArrow } from "../src/arrow/mod.ts";
import {
  calibrateRft,
  calibrateRftMemory,
  rftValidation,
  robotOnGround,
  type RobotOnGroundResult,
  singleWheelTest,
} from "../src/experiments/mod.ts";
import { compose, lines, rftMaps, type Series } from "../src/plot/mod.ts";
import { RftFourier, RftTable, World } from "../src/sphere3d/mod.ts";

const smoke = Deno.args.includes("--smoke");
const scale = smoke ? "smoke" : "ci";
const OUT = "out/terradynamics";
await Deno.mkdir(OUT, { recursive: true });
const t0 = performance.now();

// 1. The table: cached, or calibrated now on the same grains (d = 1 cm, friction 0.5).
let table: RftTable, zeta: number, source: string;
let memory: { length: number; separation: number };
if (Deno.args.includes("--calibrate")) {
  const cal = await calibrateRft({ scale });
  table = cal.table, zeta = cal.zeta;
  source = `calibrateRft ${scale}: ${cal.samples.beta.length} plates, ${cal.grains} grains`;
  memory = (await calibrateRftMemory({ scale })).memory;
} else {
  const dir = new URL("../tests/fixtures/", import.meta.url).pathname;
  table = new RftTable(rftTableFromArrow(await readArrow(`${dir}rft_dem.arrow`)));
  zeta = JSON.parse(await Deno.readTextFile(`${dir}rft_dem_calibration.json`)).zeta;
  source = `cached ${table.beta.length} × ${table.gamma.length} calibration`;
  memory = JSON.parse(await Deno.readTextFile(`${dir}rft_dem_memory.json`)).memory;
}
// ζ × generic on the same grains, and the pressure memory: ℓ and ℓ_sep
const scaled = RftTable.fromFourier({
  zeta,
  grainDiameter: table.grainDiameter!,
  friction: table.friction!,
});
console.log(`RFT table: ${source}; ζ = ${zeta.toFixed(3)} × Li et al.'s generic medium`);
console.log(
  `pressure memory: ℓ = ${(memory.length * 1e3).toFixed(1)} mm, ` +
    `ℓ_sep = ${(memory.separation * 1e3).toFixed(1)} mm`,
);
await rftMaps([
  { label: "calibrated table", model: table },
  { label: `${zeta.toFixed(3)} × generic`, model: new RftFourier({ zeta }) },
], { title: "RFT coefficients of the DEM beads (N/cm³)", subtitle: source })
  .save(`${OUT}/alpha_maps.png`);

// 2. A plate between the grid points and a C-leg: force curves, DEM against RFT.
const panels = [];
for (const intruder of ["plate", "cLeg"] as const) {
  const v = await rftValidation({ scale, intruder, table });
  const k = intruder === "plate" ? 100 : 180 / Math.PI;
  const x = Array.from(v.position, (p) => p * k);
  const xLabel = intruder === "plate" ? "plate depth (cm)" : "leg angle (°)";
  for (const c of ["fz", "fx"] as const) {
    panels.push(lines([
      { label: "DEM", x, y: v.dem[c], points: true, color: "#333" },
      { label: "RFT", x, y: v.rft[c], color: "#e15759" },
    ], {
      xLabel,
      yLabel: `${intruder} ${c === "fz" ? "F_z" : "F_x"} (N)`,
      width: 420,
      height: 260,
    }));
  }
  console.log(
    `${intruder}: rms RFT − DEM ${v.rms.x.toFixed(3)} (x), ${v.rms.z.toFixed(3)} (z) of the ` +
      `DEM peak (target 0.15); ${v.grains} grains; cost DEM/RFT ${v.costRatio.toFixed(0)}×`,
  );
}
await compose(panels, { columns: 2, title: "RFT against the DEM it came from" })
  .save(`${OUT}/validation.png`);

// 3. The single-wheel test: the DEM at a few slips, RFT over the sweep.
const dem = await singleWheelTest({ scale, slips: smoke ? [0, 0.7] : [0, 0.3, 0.7] });
const rft = await singleWheelTest({ scale, ground: table });
const rftMem = await singleWheelTest({ scale, ground: scaled, stressMemory: memory });
const wheelPanel = (k: "drawbarPull" | "sinkage", unit: number, yLabel: string) =>
  lines([
    { label: "DEM", x: dem.slips, y: dem[k].map((v) => v * unit), points: true, color: "#333" },
    { label: "RFT", x: rft.slips, y: rft[k].map((v) => v * unit), color: "#e15759" },
    {
      label: "RFT, ζ × generic, memory",
      x: rftMem.slips,
      y: rftMem[k].map((v) => v * unit),
      color: "#59a14f",
    },
  ], { xLabel: "slip", yLabel, width: 420, height: 260 });
await compose([
  wheelPanel("drawbarPull", 1, "drawbar pull (N)"),
  wheelPanel("sinkage", 1e3, "sinkage (mm)"),
], { title: `Single wheel, W = ${dem.load} N: DEM against RFT` }).save(`${OUT}/wheel.png`);
// where the ground carries the wheel at the highest slip: σ(θ) around the rim on both grounds
const last = (r: typeof dem) => r.slips.length - 1;
const deg = (r: typeof dem) => Array.from(r.rim.angle, (a) => (a * 180) / Math.PI);
await compose(
  (["normal", "shear"] as const).map((k) =>
    lines([
      {
        label: "DEM",
        x: deg(dem),
        y: Array.from(dem.rim[k][last(dem)], (v) => v / 1e3),
        color: "#333",
      },
      {
        label: "RFT",
        x: deg(rft),
        y: Array.from(rft.rim[k][last(rft)], (v) => v / 1e3),
        color: "#e15759",
      },
    ], {
      xLabel: "θ from the bottom (°)",
      yLabel: k === "normal" ? "σ (kPa)" : "τ (kPa)",
      width: 420,
      height: 260,
    })
  ),
  { title: `Stress around the rim at s = ${dem.slips[last(dem)]}` },
).save(`${OUT}/rim.png`);
for (
  const [r, name] of [[dem, "DEM"], [rft, "RFT"], [rftMem, "RFT, ζ × generic, memory"]] as const
) {
  const perSecond = r.wallSeconds / r.simulatedSeconds;
  console.log(
    `wheel on ${name}: ` +
      Array.from(
        r.slips,
        (s, i) =>
          `s ${s}: DP ${r.drawbarPull[i].toFixed(2)} N, z ${(r.sinkage[i] * 1e3).toFixed(1)} mm`,
      )
        .join("; ") +
      `; ${perSecond.toFixed(2)} s per simulated s`,
  );
}

// 4. The robot: the same gait on RFT (and, at ci size, on the DEM bed).
const walks: RobotOnGroundResult[] = [];
if (!smoke) walks.push(await robotOnGround({ scale }));
// the smoke robot walks on grains of 1.5 cm; on RFT it takes the table's grains
walks.push(await robotOnGround({ scale, ground: table, diameter: 0.01 }));
walks.push(
  await robotOnGround({ scale, ground: scaled, diameter: 0.01, stressMemory: memory }),
);
const walkName = (i: number) =>
  walks[i].ground === "dem" ? "DEM" : i === walks.length - 1 ? "RFT, ζ × generic, memory" : "RFT";
const robotSeries = (k: "x" | "height", unit: number): Series[] =>
  walks.map((r, i) => ({
    label: walkName(i),
    x: r.time,
    y: r[k].map((v) => v * unit),
    color: r.ground === "dem" ? "#333" : i === walks.length - 1 ? "#59a14f" : "#e15759",
  }));
await compose([
  lines(robotSeries("x", 100), { xLabel: "time (s)", yLabel: "travel (cm)", width: 420 }),
  lines(robotSeries("height", 1e3), {
    xLabel: "time (s)",
    yLabel: "torso height (mm)",
    width: 420,
  }),
], { title: "RHex-like robot, same gait" }).save(`${OUT}/robot.png`);
for (const [i, r] of walks.entries()) {
  console.log(
    `robot on ${walkName(i)}: ${r.meanSpeed.toFixed(3)} m/s, torso ${
      (r.meanHeight * 1e3).toFixed(1)
    } ` +
      `mm above the surface; walk ${r.wallTime.toFixed(1)} s`,
  );
}
// 5. and 6.: a body on ζ × generic without the memory, with it as a capacity (its default) and
// as a force: its height (mm) every millisecond, plotted to `file`.
const SUPPORTS = [
  ["RFT, no memory", null, "#333"],
  ["RFT, memory as a capacity", "capacity", "#59a14f"],
  ["RFT, memory as a force", "force", "#e15759"],
] as const;
const onRft = async (
  steps: number,
  yLabel: string,
  file: string,
  add: (world: World) => Promise<() => number>,
) => {
  const runs = [];
  for (const [label, support, color] of SUPPORTS) {
    const world = await World.create({ gravity: [0, 0, -9.81], timeStep: 1e-3 });
    world.addRftGround(scaled, {
      surfaceHeight: 0,
      elementSize: 0.005,
      ...(support === null ? {} : { stressMemory: { ...memory, support } }),
    });
    const heightOf = await add(world), time: number[] = [], height: number[] = [];
    for (let k = 1; k <= steps; k++) {
      world.step();
      time.push(k * 1e-3), height.push(heightOf());
    }
    world.close();
    runs.push({ label, color, time, height });
  }
  await lines(runs.map((r) => ({ label: r.label, x: r.time, y: r.height, color: r.color })), {
    xLabel: "time (s)",
    yLabel,
    width: 560,
  }).save(`${OUT}/${file}`);
  return runs;
};
// 5. A free 64 g plate dropped from 2 cm: the memory as a capacity holds it where it stopped; as
// a force it throws it back out of the grains.
const drops = await onRft(1000, "plate's underside above the surface (mm)", "impact.png", (w) => {
  const plate = w.addBox({
    halfExtents: [0.02, 0.02, 0.005],
    position: [0, 0, 0.025],
    density: 4000,
  });
  return Promise.resolve(() => (plate.position[2] - 0.005) * 1e3);
});
for (const { label, height: h } of drops) {
  const low = Math.min(...h), i = h.indexOf(low);
  console.log(
    `plate dropped on ${label}: lowest ${low.toFixed(1)} mm, highest after it ` +
      `${Math.max(...h.slice(i)).toFixed(1)} mm, at 1 s ${h[999].toFixed(1)} mm`,
  );
}
// 6. The robot standing (legs straight down, held by the PD, dropped 1 cm): the memory as a
// capacity holds it, as the grains do; without the memory and as a force it sinks.
const urdf = await Deno.readTextFile(new URL("./assets/rhex6.urdf", import.meta.url));
const stands = await onRft(
  2000,
  "torso's centre above the surface (mm)",
  "stand.png",
  async (w) => {
    const robot = await w.addArticulatedSystem(urdf, { base: "floating", position: [0, 0, 0.095] });
    robot.setPdGains(2, 0.02);
    robot.setPdTarget([0, 0, 0, 0, 0, 0]);
    const torso = robot.link("torso");
    return () => torso.centerOfMass[2] * 1e3;
  },
);
for (const { label, height: h } of stands) {
  console.log(
    `robot standing on ${label}: torso at 0.5 s ${h[499].toFixed(2)} mm, at 2 s ` +
      `${h[1999].toFixed(2)} mm`,
  );
}
console.log(`Figures in ${OUT}/ (${((performance.now() - t0) / 1000).toFixed(0)} s)`);
