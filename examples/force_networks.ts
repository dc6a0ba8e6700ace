/**
 * Notebook 03 as a script: a settled packing of cross-shaped grains and its force network,
 * then the narrow hopper with star grains (which arch and jam) and with disks (which drain).
 * Writes PNG figures and Arrow files to `out/force_networks/`.
 *
 * Run: `deno run -A examples/force_networks.ts` (`--smoke` for a quick run).
 *
 * @module
 */
import { archesScene } from "../src/star2d/mod.ts";
import { contactsTable, particlesTable, writeArrow } from "../src/arrow/mod.ts";
import { forceNetwork, particles2d } from "../src/plot/mod.ts";
import { runWithProgress } from "../src/notebook/mod.ts";
import { starPacking } from "./lib/headline.ts";

const smoke = Deno.args.includes("--smoke");
const OUT = "out/force_networks";
await Deno.mkdir(OUT, { recursive: true });

const packing = starPacking(smoke ? { count: 45, steps: 300 } : {});
await particles2d(packing, { title: `${packing.count} crosses`, color: "speed" })
  .save(`${OUT}/packing.png`);
await forceNetwork(packing, { title: "Force network of a packing of crosses" })
  .save(`${OUT}/packing_force_network.png`);
await writeArrow(`${OUT}/packing_particles.arrow`, particlesTable(packing));
await writeArrow(`${OUT}/packing_contacts.arrow`, contactsTable(packing));

const through: Record<string, number> = {};
for (const method of ["star", "disk"] as const) {
  const scene = archesScene({ method, count: smoke ? 60 : undefined });
  await runWithProgress(scene.system, smoke ? 300 : 12000, { label: `hopper (${method})` });
  const s = scene.system;
  through[method] = 0;
  for (let i = 0; i < s.count; i++) if (s.positions[2 * i + 1] < 0.2) through[method]++;
  await forceNetwork(s, {
    title: method === "star" ? "Star grains arch over the outlet" : "Disks drain",
    subtitle: `${through[method]} of ${s.count} grains through the gap after ${
      s.time.toFixed(1)
    } s`,
    height: 520,
  }).save(`${OUT}/hopper_${method}.png`);
  await writeArrow(`${OUT}/hopper_${method}_contacts.arrow`, contactsTable(s));
}
console.log(`Through the gap: stars ${through.star}, disks ${through.disk}.`);
console.log(`Figures and data in ${OUT}/`);
