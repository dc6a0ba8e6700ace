/**
 * star2d example: build the paper's four scenes (smoke-sized with --quick or --smoke), run them for a
 * while and print a summary of each: grains, contacts, distinct contacts per pair, maximum
 * overlap, kinetic energy and time per step; then the distance-error comparison of the paper
 * (radial vs first-order within 0.01·r_max of the boundary of the flower 2 + sin 6α).
 *
 * Run: deno run -A examples/star2d_scenes.ts [--quick | --smoke]
 */
import {
  archesScene,
  columnCollapseScene,
  distanceErrorMap,
  drumScene,
  packingScene,
  type StarScene,
  StarShape,
} from "../src/star2d/mod.ts";

const quick = Deno.args.includes("--quick") || Deno.args.includes("--smoke");
const scenes: [StarScene, number][] = [
  [packingScene({ count: quick ? 200 : 3154 }), quick ? 200 : 2000],
  [drumScene({ count: quick ? 100 : 900 }), quick ? 200 : 2000],
  [archesScene({ count: quick ? 60 : undefined }), quick ? 200 : 4000],
  [columnCollapseScene({ count: quick ? 60 : undefined }), quick ? 200 : 5000],
];

console.log(
  "scene      grains  steps  t (s)  contacts  /pair  wall  maxOv/r_max   KE (J)   ms/step",
);
for (const [scene, steps] of scenes) {
  const t = performance.now();
  scene.advance(steps);
  const ms = (performance.now() - t) / steps;
  const s = scene.system.lastStepStats;
  console.log(
    `${scene.name.padEnd(10)} ${String(scene.system.count).padStart(6)} ${
      String(steps).padStart(6)
    } ${s.time.toFixed(2).padStart(6)} ${String(s.particleContacts).padStart(9)} ${
      s.contactsPerPair.toFixed(2).padStart(6)
    } ${String(s.boundaryContacts).padStart(5)} ${
      (s.maxPenetration / scene.shape.rMax).toExponential(2).padStart(12)
    } ${s.kineticEnergy.toExponential(2).padStart(9)} ${ms.toFixed(2).padStart(8)}`,
  );
}

const flower = StarShape.preset("flower", { rMax: 1 });
const m = distanceErrorMap(flower, { resolution: quick ? 120 : 300, band: 0.01 });
let inside = 0;
for (let k = 0; k < m.count; k++) {
  if (m.exact[k] < 0) inside = Math.max(inside, m.firstOrderError[k]);
}
console.log(
  `\ndistance error within 0.01·r_max of the flower 2 + sin 6α (${m.count} points): ` +
    `radial ${m.maxRadialError.toFixed(2)} (paper 2.7), first-order ${
      m.maxFirstOrderError.toFixed(3)
    } (inside ${inside.toFixed(3)}; paper < 0.17)`,
);
