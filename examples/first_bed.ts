/**
 * Notebook 01 as a script: pour 600 spheres into a box, settle them, and write the figures
 * (bed, height map, slice, force network, energies, settling animation), the Arrow files
 * (particles, contacts, statistics, the frames of the run) and the interactive 3D view of the
 * settling (`settle_3d.html`, open it in a browser) to `out/first_bed/`.
 *
 * Run: `deno run -A examples/first_bed.ts` (add `--smoke` for a tiny, fast version).
 *
 * @module
 */
import { World } from "../src/sphere3d/mod.ts";
import {
  contactsTable,
  FrameWriter,
  particlesTable,
  readFrames,
  StatsRecorder,
  statsTable,
  writeArrow,
} from "../src/arrow/mod.ts";
import {
  animate,
  bed3d,
  type Figure,
  forceNetwork,
  heightMap,
  slice3d,
  timeSeries,
} from "../src/plot/mod.ts";
import { runWithProgress, ViewRecorder, writeViewer } from "../src/notebook/mod.ts";

const smoke = Deno.args.includes("--smoke");
const OUT = "out/first_bed";
await Deno.mkdir(OUT, { recursive: true });

const world = new World({ timeStep: 1e-4, gravity: [0, 0, -9.81] });
const bed = world.addGranularParticles({ positions: [[0, 0, -1]], radii: 0.01 }, {
  density: 2500,
  normalStiffness: 1e5,
  normalDamping: 8,
  friction: 0.5,
  rollingFriction: 0.02,
});
bed.removeParticle(0);
bed.emitBoxRandom({
  min: [-0.1, -0.1, 0.01],
  max: [0.1, 0.1, 0.4],
  minRadius: 0.008,
  maxRadius: 0.01,
  spacing: 0.021,
  maxParticles: smoke ? 100 : 600,
  seed: 7,
});
bed.setContainerBox([-0.11, -0.11, 0], [0.11, 0.11, 1]);

const steps = smoke ? 400 : 8000, every = smoke ? 50 : 100;
const recorder = new StatsRecorder();
const frames = await FrameWriter.create(`${OUT}/settle.arrows`);
await runWithProgress(world, steps, {
  label: "settling",
  every,
  onEvery: () => {
    const e = bed.energy();
    recorder.record(world, bed, { kineticEnergy: e.kinetic + e.rotational });
    frames.write(bed, { world }); // snapshot now, written in the background
  },
});
await frames.close();

const figures: [string, Figure][] = [
  ["bed.png", bed3d(bed, { color: "z", title: `Settled bed of ${bed.count} spheres` })],
  ["height_map.png", heightMap(bed, { cells: 22, title: "Free surface height" })],
  ["slice.png", slice3d(bed, { axis: "y", at: 0, color: "z", title: "Slice y = 0" })],
  ["force_network.png", forceNetwork(bed, { view: "side", title: "Force network, side view" })],
  [
    "kinetic_energy.png",
    timeSeries(statsTable(recorder.entries), {
      y: ["kineticEnergy"],
      yType: "log",
      title: "Kinetic energy while settling",
    }),
  ],
];
for (const [name, fig] of figures) await fig.save(`${OUT}/${name}`);
await writeArrow(`${OUT}/particles.arrow`, particlesTable(bed, { world }));
await writeArrow(`${OUT}/contacts.arrow`, contactsTable(bed, { world }));
await writeArrow(`${OUT}/stats.arrow`, statsTable(recorder.entries));

const replay: Figure[] = [];
let k = 0;
for await (const f of readFrames(`${OUT}/settle.arrows`)) {
  if (k++ % (smoke ? 4 : 8) !== 0) continue;
  replay.push(bed3d(f.table, {
    views: ["side"],
    color: "speed",
    colorScale: { domain: [0, 1.5] },
    domain: { x: [-0.115, 0.115], y: [-0.005, 0.42] },
    width: 300,
    height: 420,
  }));
}
await animate(replay, { delay: 150 }).save(`${OUT}/settle.gif`);

// the settling in 3D: the streamed frames, then the settled bed with its force network
const frames3d = await ViewRecorder.fromFrames(readFrames(`${OUT}/settle.arrows`), { every: 4 });
frames3d.record(bed, { world });
await writeViewer(`${OUT}/settle_3d.html`, frames3d, {
  color: ["height", "speed"],
  scales: { height: { domain: [0, 0.08] } },
  network: true,
  boundaries: bed,
  title: "Settling, in 3D",
});

console.log(`${bed.count} grains settled in ${world.time.toFixed(2)} s of simulated time.`);
console.log(`Figures and data in ${OUT}/:`);
for (const e of [...Deno.readDirSync(OUT)].map((e) => e.name).sort()) console.log(`  ${e}`);
