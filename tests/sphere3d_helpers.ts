/**
 * Scenes shared by the sphere3d tests of memory order and threads: the settle bench's
 * disordered bed, smaller and more damped, with rolling friction and (optionally) cohesion.
 */
import { World } from "../src/sphere3d/mod.ts";
import type { GranularSystem } from "../src/sphere3d/mod.ts";
import { jitteredGrid, SCENE } from "../bench/settle_bench.ts";

/** Options of {@link disorderedBed}. */
export interface BedOptions {
  /** Grains. @default 2500 */
  n?: number;
  /** Threads of the world. @default 1 */
  threads?: number;
  /** Slot reordering. @default true */
  sort?: boolean;
  /** List the grains top layer first, far from cell order. @default false */
  reverse?: boolean;
  /** Cohesion of 50 N/m within 2 mm. @default false */
  cohesion?: boolean;
}

/** The container of the bed. */
export const BED_BOX: [[number, number, number], [number, number, number]] = [
  [-0.6, -0.4, 0],
  [0.6, 0.4, 2],
];

/** A jittered-grid bed in its container. */
export function disorderedBed(o: BedOptions = {}): { world: World; g: GranularSystem } {
  const n = o.n ?? 2500;
  const world = new World({ timeStep: SCENE.dt, gravity: [0, 0, -9.81], threads: o.threads });
  const grid = jitteredGrid(n);
  let positions = grid;
  if (o.reverse) {
    positions = new Float64Array(3 * n);
    for (let k = 0; k < n; k++) positions.set(grid.subarray(3 * k, 3 * k + 3), 3 * (n - 1 - k));
  }
  const g = world.addGranularParticles({ positions, radii: SCENE.radius }, {
    density: SCENE.density,
    normalStiffness: SCENE.kn,
    tangentialStiffness: SCENE.kt,
    normalDamping: 20,
    friction: SCENE.friction,
    rollingFriction: 0.05,
    ...(o.cohesion ? { cohesionStiffness: 50, cohesionMaxDistance: 0.002 } : {}),
  });
  g.setContainerBox(...BED_BOX);
  g.spatialSort = o.sort ?? true;
  return { world, g };
}

/** A world with an empty system in the bed's container, to load a saved bed into. */
export function emptyBed(threads = 1): { world: World; g: GranularSystem } {
  const world = new World({ timeStep: SCENE.dt, gravity: [0, 0, -9.81], threads });
  const g = world.addGranularSystem();
  g.setContainerBox(...BED_BOX);
  return { world, g };
}
