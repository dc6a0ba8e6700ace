/**
 * Rigid bodies in a granular bed: a robot leg (URDF, PD-controlled) pressing its foot into
 * sand, and a wheel driven by a torque across the bed, with its sinkage and slip. Writes PNG
 * figures to `out/bodies_in_sand/` and prints the figures it measured.
 *
 * Run: `deno run -A examples/bodies_in_sand.ts` (`--smoke` for a quick run).
 *
 * @module
 */
import { type GranularSystem, World } from "../src/sphere3d/mod.ts";
import { lines } from "../src/plot/mod.ts";

const smoke = Deno.args.includes("--smoke");
const OUT = "out/bodies_in_sand";
await Deno.mkdir(OUT, { recursive: true });

const R = 0.01, HALF = 0.15, DT = 1e-4;
const MATERIAL = {
  density: 2500,
  normalStiffness: 2e4,
  normalDamping: 15,
  friction: 0.5,
  rollingFriction: 0.05,
  substeps: 1,
};

/** A settled bed of `n` grains in a 2·HALF square container (jittered grid, then quenched). */
async function bed(n: number): Promise<{ world: World; sand: GranularSystem; top: number }> {
  const world = await World.create({ timeStep: DT });
  const sand = world.addGranularSystem(MATERIAL);
  sand.setGroundPlane(0);
  sand.setContainerBox([-HALF, -HALF, 0], [HALF, HALF, 1]);
  sand.emitBoxRandom({
    min: [-HALF + R, -HALF + R, R],
    max: [HALF - R, HALF - R, 0.5],
    minRadius: R,
    maxRadius: R,
    spacing: 2.15 * R,
    maxParticles: n,
    seed: 7,
  });
  world.run(smoke ? 3000 : 6000);
  for (let q = 0; q < 3; q++) {
    for (let i = 0; i < sand.count; i++) {
      sand.setVelocity(i, [0, 0, 0]);
      sand.setAngularVelocity(i, [0, 0, 0]);
    }
    world.run(300);
  }
  const p = sand.positions, tops: number[] = [];
  for (let i = 0; i < sand.count; i++) tops.push(p[3 * i + 2] + R);
  tops.sort((a, b) => b - a);
  const top = tops.slice(0, 20).reduce((s, x) => s + x, 0) / 20;
  return { world, sand, top };
}

// 1. The leg: base fixed 0.35 m above the bed surface, PD to a crouch that reaches into it.
{
  const { world, sand, top } = await bed(smoke ? 1500 : 4000);
  // The foot's lowest point sits 0.085 + 0.5·cos(a) below the base for hip −a, knee 2a.
  const leg = await world.addArticulatedSystem("examples/assets/leg.urdf", {
    base: "fixed",
    position: [0, 0, top + 0.5],
    jointPositions: [-1.2, 2.4],
  });
  leg.setPdGains(400, 8);
  leg.setPdTarget([-1.2, 2.4]);
  world.run(300);
  leg.setPdTarget([-0.5, 1.0]); // straighten: the foot goes ~2.4 cm into the sand
  const foot = leg.link("foot");
  const t: number[] = [], sink: number[] = [], fz: number[] = [];
  const steps = smoke ? 1500 : 4000;
  for (let k = 0; k < steps; k += 50) {
    world.run(50);
    t.push(world.time);
    sink.push((top - (foot.position[2] - 0.035)) * 1000);
    fz.push(foot.contactForce[2]);
  }
  const q = leg.generalizedCoordinate;
  console.log(
    `leg: foot sinkage ${sink[sink.length - 1].toFixed(1)} mm, sand pushes back ${
      fz[fz.length - 1].toFixed(2)
    } N, joints [${Array.from(q, (x) => x.toFixed(3)).join(", ")}] rad; ${sand.count} grains, ` +
      `${sand.lastStepStats.rigidContacts} body contacts`,
  );
  await lines([{ label: "foot sinkage", x: t, y: sink }], {
    title: "A PD-controlled leg presses its foot into sand",
    xLabel: "time (s)",
    yLabel: "sinkage below the surface (mm)",
  }).save(`${OUT}/leg_sinkage.png`);
  await lines([{ label: "grains on the foot", x: t, y: fz }], {
    title: "Vertical force of the sand on the foot",
    xLabel: "time (s)",
    yLabel: "force (N)",
  }).save(`${OUT}/leg_force.png`);
}

// 2. The wheel: a cylinder (axis along y) driven by a torque about y.
{
  const { world, sand, top } = await bed(smoke ? 1500 : 4000);
  const radius = 0.04;
  const wheel = world.addCylinder({
    radius,
    halfHeight: 0.025,
    orientation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2],
    position: [-HALF + 0.06, 0, top + radius + 0.002],
    density: 1200,
  });
  world.run(1000); // sink under its weight
  wheel.setExternalTorque([0, 0.05, 0]);
  const t: number[] = [], slip: number[] = [], sinkage: number[] = [];
  const steps = smoke ? 1500 : 6000;
  for (let k = 0; k < steps; k += 100) {
    world.run(100);
    const v = wheel.linearVelocity[0], w = wheel.angularVelocity[1];
    t.push(world.time);
    slip.push(Math.abs(w * radius) > 1e-6 ? 1 - v / (w * radius) : 0);
    sinkage.push((top - (wheel.centerOfMass[2] - radius)) * 1000);
    if (wheel.position[0] > HALF - 0.06) break;
  }
  console.log(
    `wheel: travelled ${((wheel.position[0] + HALF - 0.06) * 1000).toFixed(1)} mm, slip ${
      slip[slip.length - 1].toFixed(3)
    }, sinkage ${sinkage[sinkage.length - 1].toFixed(1)} mm; ${sand.count} grains`,
  );
  await lines([
    { label: "slip ratio 1 − v/(ωR)", x: t, y: slip },
  ], {
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
