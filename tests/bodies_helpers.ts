/**
 * Shared scenes of the body tests: a small settled bed in a container (deterministic jittered
 * grid), built once per process and copied into fresh worlds as a checkpoint.
 */
import { type GranularSystem, World } from "../src/sphere3d/mod.ts";
import type { Material } from "../src/sphere3d/material.ts";
import { lowbias32 } from "../src/math/rng.ts";

/** The bed material: 1 cm glass-like beads, stiff enough for dt = 1e-4 s. */
export const BED_MATERIAL: Partial<Material> = {
  density: 2500,
  normalStiffness: 2e4,
  normalDamping: 15,
  friction: 0.5,
  rollingFriction: 0.05,
  substeps: 1,
};

/** Bed geometry: container half width (m), grain radius (m). */
export const BED = { half: 0.1, radius: 0.01, dt: 1e-4 };

let settled: Uint8Array | null = null;

/** Grain centres on a jittered grid (deterministic). */
function bedPositions(n: number): number[][] {
  const s = 2.15 * BED.radius, per = Math.floor((2 * BED.half - 2 * BED.radius) / s);
  const out: number[][] = [];
  for (let k = 0; k < n; k++) {
    const i = k % per, j = Math.floor(k / per) % per, l = Math.floor(k / (per * per));
    const jx = 0.002 * (2 * lowbias32(2 * k) / 2 ** 32 - 1);
    const jy = 0.002 * (2 * lowbias32(2 * k + 1) / 2 ** 32 - 1);
    out.push([
      -BED.half + BED.radius + 0.001 + i * s + jx * 0.5,
      -BED.half + BED.radius + 0.001 + j * s + jy * 0.5,
      BED.radius + l * s + 0.002,
    ]);
  }
  return out;
}

/** A world with bodies enabled and a settled bed of `n` grains (default 500). */
export async function settledBed(
  options: { n?: number; gravity?: [number, number, number] } = {},
): Promise<{ world: World; bed: GranularSystem }> {
  const n = options.n ?? 500;
  const world = await World.create({ timeStep: BED.dt, gravity: options.gravity });
  const bed = world.addGranularSystem(BED_MATERIAL);
  bed.setGroundPlane(0);
  bed.setContainerBox([-BED.half, -BED.half, 0], [BED.half, BED.half, 1]);
  if (n === 500 && settled !== null) {
    bed.loadGranularStateBytes(settled);
    return { world, bed };
  }
  const tmp = new World({ timeStep: BED.dt });
  const g = tmp.addGranularParticles(
    { positions: bedPositions(n), radii: BED.radius },
    BED_MATERIAL,
  );
  g.setGroundPlane(0);
  g.setContainerBox([-BED.half, -BED.half, 0], [BED.half, BED.half, 1]);
  tmp.run(6000); // 0.6 s: the columns collapse into a random packing
  // quench the last rattlers: zero the velocities, let the bed relax, three times
  for (let q = 0; q < 3; q++) {
    for (let i = 0; i < g.count; i++) {
      g.setVelocity(i, [0, 0, 0]);
      g.setAngularVelocity(i, [0, 0, 0]);
    }
    tmp.run(300);
  }
  const bytes = g.granularStateBytes();
  if (n === 500) settled = bytes;
  bed.loadGranularStateBytes(bytes);
  return { world, bed };
}

/** Height of the bed surface: the mean top of the 8 highest grains within `half` of the axis. */
export function bedTop(bed: GranularSystem, half = 0.06): number {
  const p = bed.positions, r = bed.radii, tops: number[] = [];
  for (let i = 0; i < bed.count; i++) {
    if (Math.abs(p[3 * i]) < half && Math.abs(p[3 * i + 1]) < half) tops.push(p[3 * i + 2] + r[i]);
  }
  tops.sort((a, b) => b - a);
  const k = Math.min(8, tops.length);
  return tops.slice(0, k).reduce((s, x) => s + x, 0) / k;
}
