/**
 * Plate intrusion: a horizontal plate pushed down at constant slow speed (kinematic) into a
 * settled bed meets a resistance that grows linearly with depth — granular resistive-force
 * theory (Li, Zhang & Goldman, Science 339, 2013: the vertical stress on a horizontal plate is
 * α·depth, α ≈ 0.1–0.4 N/cm³ for glass beads). The bed is 3,000 grains of 5 mm radius in a
 * 16 × 16 cm box; the plate is 5 × 5 cm (five grain diameters), depth 5–45 mm.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { type GranularSystem, World } from "../src/sphere3d/mod.ts";

const R = 0.005, HALF = 0.08, DT = 2e-4;
const MATERIAL = {
  density: 2500,
  normalStiffness: 2e3,
  normalDamping: 1.5,
  friction: 0.5,
  rollingFriction: 0.05,
  substeps: 1,
};

let settled: Uint8Array | null = null;

/** A fresh world holding the settled bed (settled once per process, then copied). */
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
      maxParticles: 3000,
      seed: 3,
    });
    world.run(2500); // 0.5 s: the grains rain down and settle
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

describe("bodies in a settled bed", () => {
  it("plate intrusion: the resistance grows linearly with depth (R² ≥ 0.95)", async () => {
    const { world, sand, top } = await bed();
    const hw = 0.025, hz = 0.004, speed = 0.05;
    const plate = world.addBox({
      halfExtents: [hw, hw, hz],
      position: [0, 0, top + 0.005],
      bodyType: "kinematic",
      linearVelocity: [0, 0, -speed],
    });
    const depth: number[] = [], force: number[] = [];
    let surface = NaN; // plate height at the first contact: depth 0
    const W = 25;
    for (let k = 0; k < 200; k++) {
      let f = 0;
      for (let s = 0; s < W; s++) {
        world.step();
        f += plate.contactForce[2] / W;
      }
      const z = plate.position[2] - hz + 0.5 * W * DT * speed; // mid-window height
      if (surface !== surface && f > 0.005) surface = z;
      const d = surface - z;
      if (d > 0.005 && d < 0.045) {
        depth.push(d);
        force.push(f);
      }
      if (d >= 0.045) break;
    }
    const n = depth.length, mx = depth.reduce((s, x) => s + x) / n;
    const my = force.reduce((s, x) => s + x) / n;
    let sxy = 0, sxx = 0, syy = 0;
    for (let k = 0; k < n; k++) {
      sxy += (depth[k] - mx) * (force[k] - my);
      sxx += (depth[k] - mx) ** 2;
      syy += (force[k] - my) ** 2;
    }
    const slope = sxy / sxx, r2 = (sxy * sxy) / (sxx * syy);
    const alpha = slope / (4 * hw * hw); // N/m³
    console.log(
      `  plate intrusion: F = ${slope.toFixed(0)} N/m · depth over 5–45 mm, R² ${r2.toFixed(4)} ` +
        `(${n} windows); α = ${(alpha / 1e6).toFixed(3)} N/cm³ (glass beads: 0.1–0.4); ` +
        `${sand.count} grains`,
    );
    expect(n).toBeGreaterThan(100);
    expect(slope).toBeGreaterThan(0);
    expect(r2).toBeGreaterThanOrEqual(0.95);
    // α within the order of magnitude RFT reports for glass beads
    expect(alpha).toBeGreaterThan(0.03e6);
    expect(alpha).toBeLessThan(1.5e6);
  });

  it("a torque-driven wheel rolls forward, sinks, and slips", async () => {
    const { world, sand, top } = await bed();
    const radius = 0.04;
    const wheel = world.addCylinder({
      radius,
      halfHeight: 0.03,
      orientation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2], // axis along y
      position: [-0.03, 0, top + radius + 0.002],
      density: 500,
    });
    world.run(500); // 0.1 s: it settles into the bed under its weight
    const x0 = wheel.centerOfMass[0];
    wheel.setExternalTorque([0, 0.025, 0]);
    let slip = 0, v = 0, w = 0;
    const n = 1500;
    for (let k = 0; k < n; k++) {
      world.step();
      if (k >= n / 2) {
        v += wheel.linearVelocity[0] / (n / 2);
        w += wheel.angularVelocity[1] / (n / 2);
      }
    }
    slip = 1 - v / (w * radius);
    const sinkage = top - (wheel.centerOfMass[2] - radius);
    const travel = wheel.centerOfMass[0] - x0;
    console.log(
      `  wheel: travelled ${(travel * 1000).toFixed(1)} mm in 0.3 s, mean v ${v.toFixed(3)} m/s, ` +
        `ω ${w.toFixed(2)} rad/s, slip ${slip.toFixed(3)}, sinkage ${
          (sinkage * 1000).toFixed(1)
        } mm, ` +
        `${sand.lastStepStats.rigidContacts} contacts`,
    );
    expect(travel).toBeGreaterThan(0.005); // it rolls forward
    expect(w).toBeGreaterThan(0);
    expect(sinkage).toBeGreaterThan(0); // it sits in the bed, not on it
    expect(slip).toBeGreaterThan(0); // sand gives way: the wheel turns faster than it travels
    expect(slip).toBeLessThan(1);
  });

  it("a URDF leg presses its foot into sand under PD control and reaches a steady sinkage", async () => {
    const { world, sand, top } = await bed();
    // hip −a, knee 2a keep the foot under the hip, its lowest point 0.085 + 0.5·cos(a) below
    // the base: the base sits 0.52 m above the surface, so straightening to a = 0.35 would put
    // the foot 3.5 cm into the bed; the sand stops it short of that.
    const leg = await world.addArticulatedSystem("examples/assets/leg.urdf", {
      base: "fixed",
      position: [0, 0, top + 0.52],
      jointPositions: [-1.0, 2.0],
    });
    leg.setPdGains(60, 2);
    leg.setPdTarget([-0.35, 0.7]);
    const foot = leg.link("foot");
    const sink: number[] = [];
    for (let k = 0; k < 12; k++) {
      world.run(250);
      sink.push(top - (foot.position[2] - 0.035));
    }
    const last = sink[sink.length - 1], before = sink[sink.length - 3];
    const q = leg.generalizedCoordinate;
    console.log(
      `  leg: foot sinkage ${(last * 1000).toFixed(1)} mm (change over the last 0.1 s ${
        ((last - before) * 1000).toFixed(2)
      } mm), sand force on foot ${foot.contactForce[2].toFixed(2)} N, joints [${
        Array.from(q, (x) => x.toFixed(3)).join(", ")
      }], ${sand.lastStepStats.rigidContacts} contacts`,
    );
    expect(last).toBeGreaterThan(0.005); // the foot is in the sand
    expect(Math.abs(last - before)).toBeLessThan(0.0005); // and has stopped sinking
    expect(foot.contactForce[2]).toBeGreaterThan(0.5); // the sand holds it up
    expect(sand.lastStepStats.rigidContacts).toBeGreaterThan(3);
  });
});
