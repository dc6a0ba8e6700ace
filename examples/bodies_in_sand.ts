/**
 * Rigid bodies in a granular bed (notebook 06 as a script): a plate pushed into the sand at
 * constant speed (resistive force theory: force linear in depth), a wheel driven by a torque
 * (sinkage and slip over time), and a robot leg from URDF pressing its foot into the sand under
 * PD control (sinkage over time, force network in side view). Writes PNG figures, an Arrow
 * table of the intrusion run and a standalone 3D view to `out/bodies_in_sand/`.
 *
 * Run: `deno run -A examples/bodies_in_sand.ts` (`--smoke` for a quick run).
 *
 * @module
 */
import { type GranularSystem, World } from "../src/sphere3d/mod.ts";
import { buildTable, writeArrow } from "../src/arrow/mod.ts";
import { bodyOutlines, forceNetwork, lines } from "../src/plot/mod.ts";

const smoke = Deno.args.includes("--smoke");
const OUT = "out/bodies_in_sand";
await Deno.mkdir(OUT, { recursive: true });

/** Bed: 5 mm glass-like beads in a 16 cm square box (the scene of tests/bodies_sand_test.ts). */
const R = 0.005, HALF = 0.08, DT = 2e-4, GRAINS = smoke ? 1500 : 3000;
const MATERIAL = {
  density: 2500,
  normalStiffness: 2e3,
  normalDamping: 1.5,
  friction: 0.5,
  rollingFriction: 0.05,
  substeps: 1,
};

let settled: Uint8Array | null = null;

/** A world holding the settled bed (settled once, then copied) and its surface height. */
async function bed(): Promise<{ world: World; sand: GranularSystem; top: number }> {
  const world = await World.create({ timeStep: DT });
  const sand = world.addGranularSystem(MATERIAL);
  sand.setGroundPlane(0);
  sand.setContainerBox([-HALF, -HALF, 0], [HALF, HALF, 1]);
  if (settled === null) {
    sand.emitBoxRandom({
      min: [-HALF + R, -HALF + R, R],
      max: [HALF - R, HALF - R, 1],
      minRadius: R,
      maxRadius: R,
      spacing: 2.15 * R,
      maxParticles: GRAINS,
      seed: 3,
    });
    world.run(2500);
    for (let q = 0; q < 3; q++) {
      for (let i = 0; i < sand.count; i++) {
        sand.setVelocity(i, [0, 0, 0]);
        sand.setAngularVelocity(i, [0, 0, 0]);
      }
      world.run(200);
    }
    settled = sand.granularStateBytes();
  } else sand.loadGranularStateBytes(settled);
  const p = sand.positions, tops: number[] = [];
  for (let i = 0; i < sand.count; i++) {
    if (Math.abs(p[3 * i]) < 0.04 && Math.abs(p[3 * i + 1]) < 0.04) tops.push(p[3 * i + 2] + R);
  }
  tops.sort((a, b) => b - a);
  return { world, sand, top: tops.slice(0, 10).reduce((s, x) => s + x) / 10 };
}

// 1. Plate intrusion: a 5 × 5 cm kinematic plate at 5 cm/s.
{
  const { world, top } = await bed();
  const hw = 0.025, hz = 0.004, speed = 0.05, W = 25;
  const plate = world.addBox({
    halfExtents: [hw, hw, hz],
    position: [0, 0, top + 0.005],
    bodyType: "kinematic",
    linearVelocity: [0, 0, -speed],
  });
  const depth: number[] = [], force: number[] = [];
  let surface = NaN;
  const maxDepth = smoke ? 0.025 : 0.045;
  for (let k = 0; k < 200; k++) {
    let f = 0;
    for (let s = 0; s < W; s++) {
      world.step();
      f += plate.contactForce[2] / W;
    }
    const z = plate.position[2] - hz + 0.5 * W * DT * speed;
    if (surface !== surface && f > 0.005) surface = z;
    const d = surface - z;
    if (d > 0) {
      depth.push(d * 1000);
      force.push(f);
    }
    if (d >= maxDepth) break;
  }
  const fit = depth.map((d, k) => [d, force[k]]).filter(([d]) => d > 5);
  const n = fit.length, mx = fit.reduce((s, p) => s + p[0], 0) / n;
  const my = fit.reduce((s, p) => s + p[1], 0) / n;
  let sxy = 0, sxx = 0, syy = 0;
  for (const [x, y] of fit) sxy += (x - mx) * (y - my), sxx += (x - mx) ** 2, syy += (y - my) ** 2;
  const slope = sxy / sxx, r2 = (sxy * sxy) / (sxx * syy);
  const alpha = (slope * 1000) / (4 * hw * hw) / 1e6;
  console.log(
    `plate: F = ${(slope * 1000).toFixed(0)} N/m · depth (R² ${r2.toFixed(3)}), ` +
      `α = ${alpha.toFixed(3)} N/cm³`,
  );
  await lines([
    { label: "plate force", x: depth, y: force, points: true },
    {
      label: `fit: ${(slope * 1000).toFixed(0)} N/m`,
      x: [mx - 15, mx + 15],
      y: [my - 15 * slope, my + 15 * slope],
    },
  ], {
    title: "Plate intrusion: force grows linearly with depth",
    xLabel: "depth (mm)",
    yLabel: "vertical force (N)",
  }).save(`${OUT}/plate_force_depth.png`);
  await writeArrow(
    `${OUT}/plate_intrusion.arrow`,
    buildTable("bodies_in_sand", depth.length, [
      {
        name: "depth",
        type: "float64",
        values: Float64Array.from(depth, (d) => d / 1000),
        unit: "m",
        description: "plate depth below the surface at first contact",
      },
      {
        name: "force",
        type: "float64",
        values: Float64Array.from(force),
        unit: "N",
        description: "vertical force of the grains on the plate, window mean",
      },
    ], { simulator: "sphere3d", table: "plate_intrusion" }),
  );
}

// 2. The wheel: a cylinder (axis along y) driven by a torque about y.
{
  const { world, sand, top } = await bed();
  const radius = 0.04;
  const wheel = world.addCylinder({
    radius,
    halfHeight: 0.03,
    orientation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2],
    position: [-0.03, 0, top + radius + 0.002],
    density: 500,
  });
  world.run(500);
  wheel.setExternalTorque([0, 0.025, 0]);
  const t: number[] = [], slip: number[] = [], sinkage: number[] = [];
  const steps = smoke ? 1000 : 1500;
  for (let k = 0; k < steps; k += 50) {
    world.run(50);
    const v = wheel.linearVelocity[0], w = wheel.angularVelocity[1];
    t.push(world.time);
    slip.push(Math.abs(w * radius) > 1e-6 ? 1 - v / (w * radius) : 0);
    sinkage.push((top - (wheel.centerOfMass[2] - radius)) * 1000);
  }
  console.log(
    `wheel: slip ${slip[slip.length - 1].toFixed(3)}, sinkage ${
      sinkage[sinkage.length - 1].toFixed(1)
    } mm, ${sand.lastStepStats.rigidContacts} contacts`,
  );
  await lines([{ label: "slip ratio 1 − v/(ωR)", x: t, y: slip }], {
    title: "A torque-driven wheel on sand: slip",
    xLabel: "time (s)",
    yLabel: "slip",
  }).save(`${OUT}/wheel_slip.png`);
  await lines([{ label: "sinkage", x: t, y: sinkage }], {
    title: "A torque-driven wheel on sand: sinkage",
    xLabel: "time (s)",
    yLabel: "sinkage (mm)",
  }).save(`${OUT}/wheel_sinkage.png`);
}

// 3. The leg: base fixed 0.52 m above the surface; PD straightens it into the sand.
{
  const { world, sand, top } = await bed();
  const leg = await world.addArticulatedSystem("examples/assets/leg.urdf", {
    base: "fixed",
    position: [0, 0, top + 0.52],
    jointPositions: [-1.0, 2.0],
  });
  leg.setPdGains(60, 2);
  leg.setPdTarget([-0.35, 0.7]);
  const foot = leg.link("foot");
  const t: number[] = [], sink: number[] = [];
  for (let k = 0; k < (smoke ? 8 : 16); k++) {
    world.run(250);
    t.push(world.time);
    sink.push((top - (foot.position[2] - 0.035)) * 1000);
  }
  console.log(
    `leg: foot sinkage ${sink[sink.length - 1].toFixed(1)} mm, sand force ${
      foot.contactForce[2].toFixed(2)
    } N, ${sand.lastStepStats.rigidContacts} contacts`,
  );
  await lines([{ label: "foot sinkage", x: t, y: sink }], {
    title: "A PD-controlled leg presses its foot into sand",
    xLabel: "time (s)",
    yLabel: "sinkage below the surface (mm)",
  }).save(`${OUT}/leg_sinkage.png`);
  await forceNetwork(sand, {
    view: "side",
    title: "Force network under the foot (side view)",
    subtitle:
      "the leg's links outlined; lines from grain centres to the foot are grain–body contacts",
    outlines: bodyOutlines(world.bodies, "side"),
  }).save(`${OUT}/leg_force_network.png`);
}
