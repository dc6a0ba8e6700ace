/**
 * The scale-out path against LAMMPS itself: scenes exported with `exportLammps`, run by
 * Debian's `lmp` (under `mpirun -np 2` where the scene has many grains), read back with
 * `readLammpsDump` and compared with the same run in Grainlab. An exact export
 * (`contactLever: "radius"`, linear law) agrees to round-off until chaos amplifies it.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { type Material, World } from "../../src/sphere3d/mod.ts";
import {
  canRun,
  exportLammps,
  type LammpsFrame,
  readLammpsDump,
  runLammps,
} from "../../src/io/lammps_api.ts";

const R = 0.02, RHO = 1600, KN = 1e5, KT = (2 / 7) * KN;
const MASS = RHO * (4 / 3) * Math.PI * R ** 3;

/** Export, run in LAMMPS, read the frames back. */
async function throughLammps(world: World, steps: number, dumpEvery: number, ranks = 1) {
  const dir = await Deno.makeTempDir({ prefix: "grainlab_lmp_" });
  try {
    const exp = await exportLammps(dir, world, { steps, dumpEvery });
    await runLammps(exp, { ranks });
    const dump = await readLammpsDump(exp.dumpFile, { expect: exp });
    return { exp, dump };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** |a − b| / |b| of the velocity (or spin) vectors of atom `i` of a frame and the system. */
function relative(
  f: LammpsFrame,
  i: number,
  cols: string[],
  ours: Float64Array,
  slot: number,
): number {
  const l = cols.map((c) => f.columns.get(c)![i]);
  const g = [0, 1, 2].map((k) => ours[3 * slot + k]);
  return Math.hypot(...l.map((x, k) => x - g[k])) / Math.hypot(...l);
}

/** The two spheres of the oblique impact, ready to run. */
function obliqueImpact(material: Partial<Material>) {
  const w = new World({ timeStep: 1e-6, gravity: [0, 0, 0] });
  const g = w.addGranularParticles(
    { positions: [[0, 0, 0], [0.045, 0.02, 0.005]], radii: R, velocities: [[1, 0, 0], [0, 0, 0]] },
    {
      normalStiffness: KN,
      tangentialStiffness: KT,
      normalDamping: (50 * MASS) / 2,
      tangentialDamping: 2,
      friction: 0.3,
      density: RHO,
      ...material,
    },
  );
  return { w, g };
}

describe("exportLammps against LAMMPS", () => {
  it("LAMMPS and mpirun are installed (Debian packages lammps, openmpi-bin)", () => {
    expect(canRun("lmp")).toBe(true);
    expect(canRun("mpirun")).toBe(true);
  });

  it("an oblique frictional impact agrees to 1e-6 relative with contactLever radius", async () => {
    const steps = 40000;
    const rel: Record<string, number[]> = {};
    for (const contactLever of ["radius", "overlap-centre"] as const) {
      const { w, g } = obliqueImpact({ contactLever });
      const { exp, dump } = await throughLammps(w, steps, steps);
      expect(exp.exact).toBe(contactLever === "radius");
      w.run(steps);
      const f = dump.frames[1];
      rel[contactLever] = [0, 1].flatMap((i) => [
        relative(f, i, ["vx", "vy", "vz"], g.velocities, i),
        relative(f, i, ["omegax", "omegay", "omegaz"], g.angularVelocities, i),
      ]);
      // The collision spun both spheres up (friction acted) and they separated.
      expect(Math.hypot(g.angularVelocities[0], g.angularVelocities[1])).toBeGreaterThan(0);
      expect(Math.abs(g.angularVelocities[2])).toBeGreaterThan(10);
      expect(g.lastStepStats.particleContacts).toBe(0);
    }
    console.log(
      `oblique impact, largest relative difference from LAMMPS: radius ${
        Math.max(...rel.radius).toExponential(2)
      }, overlap-centre ${Math.max(...rel["overlap-centre"]).toExponential(2)}`,
    );
    for (const d of rel.radius) expect(d).toBeLessThan(1e-6);
    // The lever arm is what makes the difference: the spec's r − δ/2 is O(δ/r) away.
    expect(Math.max(...rel["overlap-centre"])).toBeGreaterThan(1e-3);
  });

  it("a grain sliding onto the ground: walls, gravity, tangential damping agree to 1e-6", async () => {
    const steps = 20000;
    const w = new World({ timeStep: 1e-6, gravity: [0, 0, -9.81] });
    const g = w.addGranularParticles(
      { positions: [[0, 0, R + 1e-4]], radii: R, velocities: [[0.8, 0.3, -0.5]] },
      {
        normalStiffness: KN,
        tangentialStiffness: KT,
        normalDamping: 8,
        tangentialDamping: 3,
        friction: 0.4,
        contactLever: "radius",
      },
    );
    g.setAngularVelocity(0, [5, -20, 3]);
    g.setGroundPlane(0);
    g.setBoundaryMaterial({ friction: 0.6 });
    const { dump } = await throughLammps(w, steps, steps / 2);
    for (const f of dump.frames.slice(1)) {
      w.run(steps / 2);
      expect(relative(f, 0, ["vx", "vy", "vz"], g.velocities, 0)).toBeLessThan(1e-6);
      expect(relative(f, 0, ["omegax", "omegay", "omegaz"], g.angularVelocities, 0))
        .toBeLessThan(1e-6);
    }
    // It bounced and slid: the spin about z is untouched, the others changed.
    expect(g.angularVelocities[2]).toBeCloseTo(3, 12);
    expect(Math.abs(g.angularVelocities[1] + 20)).toBeGreaterThan(1);
  });

  it("mixed sizes, fixed grains, per-id friction: hybrid pair styles match every damping mode", async () => {
    // 60 grains of three sizes settling into a walled box onto 5 fixed grains, with two
    // friction materials and a boundary material: on 2 ranks the types need per-pair
    // coefficients (pair_style hybrid, one wall fix per type).
    const modes: Partial<Material>[] = [
      { normalDamping: 3 },
      { restitution: 0.6 },
      { dampingMode: "mass-scaled", normalDamping: 300, tangentialDamping: 30 },
      { normalDamping: 8, clampNormalForce: false },
    ];
    const steps = 1500;
    for (const mode of modes) {
      const w = new World({ timeStep: 2e-5, gravity: [0.5, 0, -9.81] });
      const positions: number[][] = [], radii: number[] = [], fixed: boolean[] = [];
      const velocities: number[][] = [];
      let k = 0;
      for (let i = 0; i < 5; i++) {
        for (let j = 0; j < 4; j++) {
          for (let l = 0; l < 3; l++, k++) {
            radii.push([0.01, 0.012, 0.015][(i + j + l) % 3]);
            positions.push([0.035 * i + 0.02, 0.035 * j + 0.02, 0.031 * l + 0.0151 + 1e-4 * k]);
            fixed.push(l === 0 && (i + j) % 4 === 0);
            velocities.push([0.1 * ((k % 3) - 1), 0.05, -0.3]);
          }
        }
      }
      const g = w.addGranularParticles({ positions, radii, fixed, velocities }, {
        contactLever: "radius",
        friction: 0.4,
        tangentialDamping: 0.05,
        ...mode,
      });
      g.setGroundPlane(0);
      g.setContainerBox([0, 0, -0.01], [0.2, 0.16, 0.5]);
      g.setParticleMaterial(1, { friction: 0.7 });
      for (let i = 0; i < g.count; i += 4) g.setParticleMaterialId(i, 1);
      g.setBoundaryMaterial({ friction: 0.3 });
      const dir = await Deno.makeTempDir({ prefix: "grainlab_lmp_" });
      const exp = await exportLammps(dir, w, { steps, dumpEvery: steps, maxTypes: 16 });
      const script = await Deno.readTextFile(exp.inputFile);
      await runLammps(exp, { ranks: 2 });
      const dump = await readLammpsDump(exp.dumpFile, { expect: exp });
      await Deno.remove(dir, { recursive: true });
      expect(exp.exact).toBe(true);
      expect(script).toContain("pair_style hybrid");
      expect(script).toContain("fix frz fixed freeze");
      let contacts = 0, walls = 0;
      for (let s = 0; s < steps; s++) {
        w.step();
        contacts += g.lastStepStats.particleContacts;
        walls += g.lastStepStats.boundaryContacts;
      }
      const f = dump.frames[1], c = f.columns;
      let dx = 0, dv = 0;
      for (let i = 0; i < f.count; i++) {
        const s = g.indexOfId(c.get("id")![i] - 1);
        ["x", "y", "z"].forEach((a, q) => {
          dx = Math.max(dx, Math.abs(c.get(a)![i] - g.positions[3 * s + q]));
          dv = Math.max(dv, Math.abs(c.get(`v${a}`)![i] - g.velocities[3 * s + q]));
        });
      }
      // Many grain–grain and grain–wall contacts happened; the fixed grains stayed put.
      expect(contacts).toBeGreaterThan(200);
      expect(walls).toBeGreaterThan(500);
      expect(g.getPosition(0)).toEqual(positions[0]);
      expect(dx).toBeLessThan(1e-9);
      expect(dv).toBeLessThan(1e-6);
    }
  });
});
