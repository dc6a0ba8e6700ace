/**
 * `deno task demo`, the headline experiment: settle a bed of about 5,000 spheres in a
 * container, run a star-grain packing, and write the force-network figures, the StarDEM
 * distance-error figure, the Arrow files and the interactive 3D view of the settling bed
 * (`viewer.html`, open it in a browser) to `out/`; then drop a steel ball (a rigid body) into
 * the bed and draw its force network; print a summary and where everything is.
 *
 * Run: `deno task demo` (add `--smoke` for a tiny, fast version).
 *
 * @module
 */
import { World } from "../src/sphere3d/mod.ts";
import { ViewRecorder } from "../src/notebook/viewer.ts";
import { writeHeadlineFigures } from "./lib/headline.ts";
import { bodyOutlines, forceNetwork } from "../src/plot/mod.ts";

const smoke = Deno.args.includes("--smoke");
const world = new World({ timeStep: 2e-4, gravity: [0, 0, -9.81] });
const sand = world.addGranularBox(
  {
    min: [-0.6, -0.4, 0],
    max: [0.6, 0.4, 0.6],
    radius: 0.02,
    spacing: 0.043,
    maxParticles: smoke ? 500 : 5000,
  },
  {
    density: 1600,
    normalStiffness: 5e4,
    normalDamping: 25,
    friction: 0.8,
    rollingFriction: 0.05,
    substeps: 2,
  },
);
sand.name = "sand bed";
sand.setContainerBox([-0.6, -0.4, 0], [0.6, 0.4, 1.0]);
// Jostle the regular lattice a little so that the bed packs instead of stacking.
for (let i = 0; i < sand.count; i++) {
  sand.setVelocity(i, [0.05 * Math.sin(1.7 * i), 0.05 * Math.cos(2.3 * i), 0]);
}

// Settle for 1.2 s of simulated time (0.06 s for --smoke).
const steps = smoke ? 300 : 6000;
console.log(
  `Settling ${sand.count} grains (r = 2 cm) in a 1.2 × 0.8 m container, Δt = ${world.timeStep} s, ` +
    `${sand.material.substeps} substeps…`,
);
// 25 frames of the settling bed (with its force network) for the 3D viewer, out/viewer.html
const frames = new ViewRecorder();
frames.record(world);
const t0 = performance.now();
world.run(steps, {
  progress: Deno.stderr.isTerminal(),
  onStep: (k) => {
    if (k % (steps / 24) === 0) frames.record(world);
  },
});
const secs = (performance.now() - t0) / 1000;
const st = sand.lastStepStats;
let top = 0;
for (let i = 0; i < sand.count; i++) top = Math.max(top, sand.positions[3 * i + 2] + sand.radii[i]);
const rows: [string, string][] = [
  ["particles", `${sand.count}`],
  ["steps", `${world.stepCount} (${sand.material.substeps} substeps each)`],
  ["simulated time", `${world.time.toFixed(3)} s`],
  ["wall time", `${secs.toFixed(2)} s`],
  ["steps/s", `${(steps / secs).toFixed(0)}`],
  [
    "particle-steps/s",
    `${((steps * sand.count * sand.material.substeps) / secs / 1e6).toFixed(2)} M`,
  ],
  [
    "max penetration",
    `${(st.maxPenetration * 1e3).toFixed(3)} mm (${
      (100 * st.maxPenetration / 0.02).toFixed(2)
    } % of r)`,
  ],
  [
    "speed (mean, max)",
    `${(meanSpeed() * 1e3).toFixed(2)} mm/s, ${(st.maxSpeed * 1e3).toFixed(1)} mm/s`,
  ],
  ["contacts", `${st.particleContacts} particle, ${st.boundaryContacts} wall`],
  ["bed height", `${top.toFixed(3)} m`],
];
console.log("\nSummary");
for (const [k, v] of rows) console.log(`  ${k.padEnd(18)} ${v}`);

console.log("\nStar-grain packing, figures and Arrow files…");
const files = await writeHeadlineFigures({ outDir: "out", bed: sand, world, smoke, frames });

// A short body scene: a steel ball dropped into the settled bed (rigid bodies load Rapier only
// now, when the world asks for them).
await world.enableBodies();
const ballRadius = 0.06;
const ball = world.addSphere({
  radius: ballRadius,
  position: [0, 0, top + ballRadius + 0.01],
  linearVelocity: [0, 0, -2],
  density: 7800,
  name: "ball",
});
world.run(smoke ? 100 : 750);
const crater = top - (ball.centerOfMass[2] - ballRadius);
console.log(
  `\nBall impact: a ${ball.mass.toFixed(2)} kg ball at 2 m/s sinks ${
    (crater * 1e3).toFixed(1)
  } mm ` +
    `into the bed; the grains push back ${ball.contactForce[2].toFixed(1)} N over ` +
    `${sand.lastStepStats.rigidContacts} contacts`,
);
await forceNetwork(sand, {
  view: "side",
  outlines: bodyOutlines(world.bodies, "side"),
  title: "A ball dropped into the bed",
  subtitle: "force network, side view; the ball outlined",
}).save("out/ball_impact.png");
files.push("out/ball_impact.png");
console.log("Wrote:");
for (const f of files) console.log(`  ${f}`);

function meanSpeed(): number {
  const v = sand.velocities;
  let sum = 0;
  for (let i = 0; i < sand.count; i++) sum += Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]);
  return sum / sand.count;
}
