/**
 * Cross-checks against LAMMPS (the trusted peer for 3D spheres): the same scenes run in both
 * codes with the Hookean history contact (`pair_style gran/hooke/history … limit_damping`,
 * `fix wall/gran`), whose damping is m_eff·γn·vn — so Grainlab's cn = m_eff·γn. Remaining
 * model differences are O(δ/r): LAMMPS uses the full radius as lever arm, Grainlab the distance
 * to the middle of the overlap.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../../src/sphere3d/mod.ts";
import { hasLammps, lammpsHead, runLammps } from "./lammps.ts";

const R = 0.02, RHO = 1600, KN = 1e5, KT = (2 / 7) * KN;
const MASS = RHO * (4 / 3) * Math.PI * R ** 3;

describe("sphere3d against LAMMPS", () => {
  it("LAMMPS is installed (Debian package `lammps`)", () => {
    expect(hasLammps()).toBe(true);
  });

  it("oblique frictional collision: same velocities and spins", async () => {
    const gammaN = 50, mu = 0.3, dt = 1e-6, steps = 40000;
    const lmp = await runLammps(`${lammpsHead([-1, 1, -1, 1, -1, 1])}
create_atoms 1 single 0 0 0 units box
create_atoms 1 single 0.045 0.02 0 units box
set type 1 diameter ${2 * R} density ${RHO}
velocity all set 0 0 0
set atom 1 vx 1.0
pair_style gran/hooke/history ${KN} ${KT} ${gammaN} 0 ${mu} 0 limit_damping
pair_coeff * *
neighbor 0.005 bin
timestep ${dt}
fix integ all nve/sphere
run ${steps}
write_dump all custom dump.txt id x y z vx vy vz omegax omegay omegaz
`);
    const w = new World({ timeStep: dt, gravity: [0, 0, 0] });
    const g = w.addGranularParticles(
      { positions: [[0, 0, 0], [0.045, 0.02, 0]], radii: R, velocities: [[1, 0, 0], [0, 0, 0]] },
      {
        normalStiffness: KN,
        tangentialStiffness: KT,
        normalDamping: (gammaN * MASS) / 2,
        friction: mu,
        density: RHO,
      },
    );
    w.run(steps);
    for (let i = 0; i < 2; i++) {
      for (let k = 0; k < 3; k++) {
        expect(Math.abs(g.velocities[3 * i + k] - lmp[i].v[k])).toBeLessThan(0.01);
        expect(Math.abs(g.angularVelocities[3 * i + k] - lmp[i].w[k])).toBeLessThan(0.01 * 18);
      }
    }
    // The collision really spun the spheres up (friction acted).
    expect(Math.abs(lmp[0].w[2])).toBeGreaterThan(10);
  });

  it("a settled bed of 208 grains: same height, same rest state", async () => {
    const dt = 5e-5, steps = 16000, mu = 0.5, gammaN = 400;
    const w = new World({ timeStep: dt });
    const g = w.addGranularParticles({ positions: [[0, 0, -10]], radii: R }, {
      normalStiffness: KN,
      tangentialStiffness: KT,
      normalDamping: (gammaN * MASS) / 2,
      friction: mu,
      density: RHO,
    });
    g.removeParticle(0);
    g.emitBoxRandom({
      min: [-0.1, -0.1, 0],
      max: [0.1, 0.1, 0.6],
      minRadius: R,
      maxRadius: R,
      spacing: 0.045,
      maxParticles: 1000,
      seed: 7,
    });
    g.setContainerBox([-0.1, -0.1, 0], [0.1, 0.1, 1]);
    const atoms = Array.from(
      { length: g.count },
      (_, i) =>
        `create_atoms 1 single ${g.positions[3 * i]} ${g.positions[3 * i + 1]} ${
          g.positions[3 * i + 2]
        } units box`,
    ).join("\n");
    const wall = `hooke/history ${KN} ${KT} ${gammaN / 2} 0 ${mu} 0 limit_damping`;
    const lmp = await runLammps(`${lammpsHead([-0.1, 0.1, -0.1, 0.1, -0.01, 1])}
${atoms}
set type 1 diameter ${2 * R} density ${RHO}
pair_style gran/hooke/history ${KN} ${KT} ${gammaN} 0 ${mu} 0 limit_damping
pair_coeff * *
neighbor 0.002 bin
neigh_modify delay 0 every 1 check yes
timestep ${dt}
fix grav all gravity 9.81 vector 0 0 -1
fix integ all nve/sphere
fix zlo all wall/gran ${wall} zplane 0 NULL
fix xw all wall/gran ${wall} xplane -0.1 0.1
fix yw all wall/gran ${wall} yplane -0.1 0.1
run ${steps}
write_dump all custom dump.txt id x y z vx vy vz omegax omegay omegaz
`);
    w.run(steps);
    expect(lmp.length).toBe(g.count);
    expect(g.count).toBe(208);
    const zL = lmp.map((a) => a.x[2]).sort((a, b) => b - a);
    const zG = Array.from({ length: g.count }, (_, i) => g.positions[3 * i + 2]).sort((a, b) =>
      b - a
    );
    const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
    const speedL = mean(lmp.map((a) => Math.hypot(...a.v)));
    const speedG = mean(
      Array.from(
        { length: g.count },
        (_, i) => Math.hypot(g.velocities[3 * i], g.velocities[3 * i + 1], g.velocities[3 * i + 2]),
      ),
    );
    console.log(
      `peer bed: mean z ${mean(zG).toFixed(5)} vs LAMMPS ${mean(zL).toFixed(5)}; top layer ` +
        `${mean(zG.slice(0, 16)).toFixed(4)} vs ${mean(zL.slice(0, 16)).toFixed(4)}; mean speed ` +
        `${speedG.toFixed(4)} vs ${speedL.toFixed(4)}`,
    );
    // Both beds have come to rest (a wall contact has m_eff = m, hence γn/2 for the walls)...
    expect(speedL).toBeLessThan(0.01);
    expect(speedG).toBeLessThan(0.01);
    // ...at the same mean height and free surface (within a tenth / a quarter of a radius).
    expect(Math.abs(mean(zG) - mean(zL))).toBeLessThan(0.1 * R);
    expect(Math.abs(mean(zG.slice(0, 16)) - mean(zL.slice(0, 16)))).toBeLessThan(0.25 * R);
  });
});
