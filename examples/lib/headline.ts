/**
 * The headline experiment's outputs (used by `deno task demo`, examples/demo.ts): a settled
 * packing of star-shaped grains with its force network, the star-shape distance-error maps
 * and, given a settled sphere3d bed, its figures — all written as PNG and Arrow files. A
 * helper of the examples (not part of the library); it lives in a subfolder so that the test
 * runner, which runs every examples/*.ts, does not run it on its own.
 *
 * @module
 */

import { contactsTable, particlesTable, writeArrow } from "../../src/arrow/mod.ts";
import type { ParticleSystemLike } from "../../src/arrow/types.ts";
import { Rng } from "../../src/math/mod.ts";
import { bed3d, distanceErrorFigure, forceNetwork } from "../../src/plot/mod.ts";
import { distanceErrorMap, StarShape, StarSystem } from "../../src/star2d/mod.ts";
import { type ViewRecorder, writeViewer } from "../../src/notebook/viewer.ts";

/** Options of {@link starPacking}. */
export interface StarPackingOptions {
  /** Grains (on a grid 15 wide). @default 360 */
  count?: number;
  /** Steps of 0.1 ms to settle. @default 6000 */
  steps?: number;
  /** Shape preset. @default "cross" */
  shape?: "cross" | "flower" | "peanut" | "butterfly" | "circle";
  /** Grain area (m²). @default 30e-6 */
  area?: number;
  /** Seed of the layout jitter and orientations. @default 3 */
  seed?: number;
}

/**
 * Builds and settles a packing of star-shaped grains (crosses by default) in a 160 mm wide box:
 * the scene of notebook 03 and of the demo's force-network figure.
 *
 * @param options size, shape, settling steps
 * @returns the settled system (a star2d `StarSystem`)
 * @throws {RangeError} when `count` or `steps` is not a non-negative integer
 * @example
 * ```ts
 * import { starPacking } from "./headline.ts";
 * import { expect } from "expect";
 * const s = starPacking({ count: 15, steps: 50 });
 * expect(s.count).toBe(15);
 * expect(s.time).toBeCloseTo(50 * 1e-4, 12);
 * ```
 */
export function starPacking(options: StarPackingOptions = {}): SettledPacking {
  const n = options.count ?? 360, steps = options.steps ?? 6000;
  if (!Number.isInteger(n) || n < 1) {
    throw new RangeError(`starPacking: count is ${n}, must be a positive integer`);
  }
  if (!Number.isInteger(steps) || steps < 0) {
    throw new RangeError(`starPacking: steps is ${steps}, must be a non-negative integer`);
  }
  const MM = 1e-3;
  const shape = StarShape.preset(options.shape ?? "cross", { area: options.area ?? 30e-6 });
  const sys = new StarSystem({ timeStep: 1e-4, friction: 0.5, rotationalDamping: 1e-8 });
  const rng = new Rng(options.seed ?? 3);
  const positions: [number, number][] = [], angles: number[] = [];
  for (let k = 0; k < n; k++) {
    const ix = k % 15, iy = Math.floor(k / 15);
    positions.push([
      (12 + ix * 9.5 + (iy % 2) * 4 + rng.uniform(-1, 1)) * MM,
      (15 + iy * 9.5) * MM,
    ]);
    angles.push(rng.uniform(0, 2 * Math.PI));
  }
  sys.addGrains({ shape, positions, angles });
  sys.walls.addBox({ min: [0, 0], max: [0.16, 1], friction: 0.5 });
  sys.run(steps);
  return sys;
}

/** What {@link starPacking} returns: a star2d `StarSystem`, seen through the parts used here. */
export interface SettledPacking extends ParticleSystemLike {
  /** Simulated time (s). */
  readonly time: number;
  /** Advances one step. */
  step(): void;
  /** World-frame outline of grain `i` (x, y interleaved). */
  outline(i: number): Float64Array;
}

/** Options of {@link writeHeadlineFigures}. */
export interface HeadlineOptions {
  /** Output folder. @default "out" */
  outDir?: string;
  /** A settled sphere3d bed to draw and export (e.g. the demo's). */
  bed?: ParticleSystemLike;
  /** The bed's world, for time and step in the Arrow metadata. */
  world?: { time?: number; stepCount?: number };
  /** Tiny and fast (CI smoke runs). @default false */
  smoke?: boolean;
  /** Frames of the bed recorded while it settled: written as the 3D viewer `viewer.html`. */
  frames?: ViewRecorder;
}

/**
 * Runs the star-grain packing and writes the headline figures and data:
 * `star_force_network.png`, `star_particles.arrow`, `star_contacts.arrow`,
 * `star_distance_error.png`, and with a `bed`: `bed.png`, `bed_force_network.png`,
 * `bed_particles.arrow`, `bed_contacts.arrow`; with `frames`: `viewer.html`, the interactive
 * 3D view (open it in a browser).
 *
 * @param options output folder, the 3D bed, smoke mode
 * @returns the paths written, in order
 * @example
 * ```ts
 * import { writeHeadlineFigures } from "./headline.ts";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * const files = await writeHeadlineFigures({ outDir: dir, smoke: true });
 * expect(files.map((f) => f.slice(dir.length + 1))).toEqual([
 *   "star_force_network.png", "star_particles.arrow", "star_contacts.arrow", "star_distance_error.png",
 * ]);
 * ```
 */
export async function writeHeadlineFigures(options: HeadlineOptions = {}): Promise<string[]> {
  const out = (options.outDir ?? "out").replace(/\/+$/, "");
  const smoke = options.smoke ?? false;
  await Deno.mkdir(out, { recursive: true });
  const files: string[] = [];
  const packing = starPacking(smoke ? { count: 45, steps: 400 } : {});
  files.push(
    await forceNetwork(packing, {
      title: `Force network of ${packing.count} star-shaped grains`,
      subtitle: "segment width and colour ∝ normal force",
    }).save(`${out}/star_force_network.png`),
  );
  await writeArrow(`${out}/star_particles.arrow`, particlesTable(packing));
  await writeArrow(`${out}/star_contacts.arrow`, contactsTable(packing));
  files.push(`${out}/star_particles.arrow`, `${out}/star_contacts.arrow`);
  const cross = StarShape.preset("cross", { rMax: 0.005 });
  const map = distanceErrorMap(cross, { resolution: smoke ? 24 : 80, extent: 1.3 });
  files.push(
    await distanceErrorFigure(map, { outline: cross.outline(200), domain: [1e-3, 3] })
      .save(`${out}/star_distance_error.png`),
  );
  if (options.bed) {
    const bed = options.bed, world = options.world;
    files.push(
      await bed3d(bed, {
        color: "z",
        maxParticles: 6000, // draw every sphere of the demo's 5,000-grain bed
        title: `Settled bed of ${bed.count} spheres`,
        subtitle: "coloured by height z",
      }).save(`${out}/bed.png`),
    );
    if (bed.contacts) {
      files.push(
        await forceNetwork(bed, { view: "side", title: "Bed force network (side view)" })
          .save(`${out}/bed_force_network.png`),
      );
      await writeArrow(`${out}/bed_contacts.arrow`, contactsTable(bed, { world }));
      files.push(`${out}/bed_contacts.arrow`);
    }
    await writeArrow(`${out}/bed_particles.arrow`, particlesTable(bed, { world }));
    files.push(`${out}/bed_particles.arrow`);
  }
  if (options.frames && options.frames.length > 0) {
    const { path } = await writeViewer(`${out}/viewer.html`, options.frames, {
      color: ["height", "speed", "contacts"],
      network: true,
      title: options.bed ? `Settling bed of ${options.bed.count} spheres` : "Settling bed",
      width: 960,
      height: 600,
    });
    files.push(path);
  }
  return files;
}
