/**
 * The paper's four scenes, deterministic, with the reference configurations converted from
 * millimetres to SI: packing (3,154 grains falling into a box), rotating drum (900 grains),
 * narrow-gap outlet forming arches (279 grains) and column collapse (429 grains).
 *
 * Every scene takes a shape (preset name or StarShape), a seed, an optional smaller `count`
 * (the first grains of the layout, for tests) and a `method`: StarDEM grains, sphere clumps
 * approximating the shape, or disks of equal area — so that costs can be compared on the same
 * layout.
 *
 * @module
 */

import { Rng } from "../math/rng.ts";
import type { GrainSystemOptions } from "./body.ts";
import { approximateByDisks, ClumpSystem, DiskSystem } from "./clump.ts";
import { type StarPresetName, StarShape } from "./shape.ts";
import { type StarSamplingOptions, StarSystem, type StarSystemOptions } from "./system.ts";
import { finite, integerIn, objectOrEmpty, options as checkOptions } from "../math/validate.ts";

const MM = 1e-3;

/** Options common to the scenes. */
export interface SceneOptions {
  /** Grain shape: a preset name or a shape. @default "cross" */
  shape?: StarPresetName | StarShape;
  /** Seed of the layout jitter and initial rotations. @default 1 */
  seed?: number;
  /** Use only the first `count` grains of the layout. @default the paper's count */
  count?: number;
  /** StarDEM grains, clumps of disks approximating the shape, or disks of equal area. @default "star" */
  method?: "star" | "clump" | "disk";
  /** Disks per clump for `method: "clump"`. @default 9 */
  clumpDisks?: number;
  /** Overrides of the system options (time step, stiffness, distance, detection, sampling…). */
  system?: StarSystemOptions & StarSamplingOptions;
}

/** A ready-to-run scene. */
export interface StarScene {
  /** Scene name. */
  name: string;
  /** One-line description with the sizes. */
  description: string;
  /** The system (StarDEM grains, clumps or disks). */
  system: StarSystem | ClumpSystem | DiskSystem;
  /** The shape the grains use (or approximate). */
  shape: StarShape;
  /** Walls removed at `gateTime` (column collapse), else empty. */
  gates: number[];
  /** Time at which the gates open (s); Infinity when there are none. */
  gateTime: number;
  /** Advance `steps` steps, opening the gates when their time comes. */
  advance(steps: number): void;
}

interface Layout {
  name: string;
  description: string;
  positions: number[];
  defaultSize: { rMax?: number; area?: number };
  nodes: number;
  system: GrainSystemOptions;
  build(s: StarSystem | ClumpSystem | DiskSystem): number[];
  gateTime: number;
}

const SCENE_KEYS: readonly string[] = ["shape", "seed", "count", "method", "clumpDisks", "system"];

/**
 * Check a scene's options before anything is built: unknown keys, `null` for the options or
 * for `system` (whose own keys the system constructor checks), a non-finite seed.
 */
function sceneOptions(where: string, options: SceneOptions): SceneOptions {
  const o = checkOptions<SceneOptions>(where, "options", options, SCENE_KEYS);
  objectOrEmpty(where, "system", o.system);
  if (o.seed !== undefined) finite(where, "seed", o.seed);
  return o;
}

function resolveShape(o: SceneOptions, l: Layout): StarShape {
  const sh = o.shape ?? "cross";
  if (sh instanceof StarShape) return sh;
  return StarShape.preset(sh, { ...l.defaultSize, nodes: l.nodes });
}

function make(o: SceneOptions, l: Layout): StarScene {
  const rng = new Rng(o.seed ?? 1);
  const shape = resolveShape(o, l);
  const total = l.positions.length / 2;
  const n = o.count ?? total;
  if (!(Number.isInteger(n) && n >= 1 && n <= total)) {
    throw new RangeError(`${l.name} scene: count (${n}) must be an integer in [1, ${total}]`);
  }
  const positions = l.positions.slice(0, 2 * n);
  const angles = Array.from({ length: n }, () => rng.uniform(0, 2 * Math.PI));
  const opts = { ...l.system, ...o.system };
  const method = o.method ?? "star";
  let system: StarSystem | ClumpSystem | DiskSystem;
  if (method === "star") {
    const s = new StarSystem(opts);
    s.addGrains({ shape, positions, angles });
    system = s;
  } else if (method === "clump") {
    const s = new ClumpSystem(opts);
    s.addGrains({ template: approximateByDisks(shape, o.clumpDisks ?? 9), positions, angles });
    system = s;
  } else if (method === "disk") {
    const s = new DiskSystem(opts);
    s.addGrains({ radius: Math.sqrt(shape.area / Math.PI), positions, angles });
    system = s;
  } else {
    throw new RangeError(`${l.name} scene: method (${method}) must be "star", "clump" or "disk"`);
  }
  const gates = l.build(system);
  let opened = gates.length === 0;
  return {
    name: l.name,
    description: l.description,
    system,
    shape,
    gates,
    gateTime: gates.length ? l.gateTime : Infinity,
    advance(steps: number): void {
      integerIn(`${l.name} scene: advance`, "steps", steps, 0, Number.MAX_SAFE_INTEGER);
      for (let k = 0; k < steps; k++) {
        if (!opened && system.time >= l.gateTime) {
          for (const g of gates) system.walls.setEnabled(g, false);
          opened = true;
        }
        system.step();
      }
    },
  };
}

/** Poisson-disk (dart-throwing) samples with minimum spacing `d` in a rectangle. */
function poisson(
  rng: Rng,
  x0: number,
  y0: number,
  x1: number,
  y1: number,
  d: number,
  n: number,
): number[] {
  const out: number[] = [];
  const cell = d / Math.SQRT2, nx = Math.ceil((x1 - x0) / cell), ny = Math.ceil((y1 - y0) / cell);
  const grid = new Int32Array(nx * ny).fill(-1);
  for (let attempt = 0; attempt < 400000 && out.length < 4 * n; attempt++) {
    const x = rng.uniform(x0, x1), y = rng.uniform(y0, y1);
    const cx = Math.floor((x - x0) / cell), cy = Math.floor((y - y0) / cell);
    let ok = true;
    for (let j = Math.max(0, cy - 2); ok && j <= Math.min(ny - 1, cy + 2); j++) {
      for (let i = Math.max(0, cx - 2); i <= Math.min(nx - 1, cx + 2); i++) {
        const q = grid[j * nx + i];
        if (q >= 0 && (out[2 * q] - x) ** 2 + (out[2 * q + 1] - y) ** 2 < d * d) {
          ok = false;
          break;
        }
      }
    }
    if (!ok) continue;
    grid[cy * nx + cx] = out.length / 2;
    out.push(x, y);
  }
  // Fill order bottom-up so that a smaller `count` keeps the lowest grains.
  const idx = Array.from({ length: out.length / 2 }, (_, k) => k);
  idx.sort((a, b) => out[2 * a + 1] - out[2 * b + 1] || out[2 * a] - out[2 * b]);
  return idx.slice(0, n).flatMap((k) => [out[2 * k], out[2 * k + 1]]);
}

/**
 * Packing: 3,154 grains on a jittered staggered grid (38 × 83, spacing 14.29 mm, x from 30 mm,
 * y from 20 mm) fall into a box (floor y = 10 mm, walls x = 20 and 580 mm); grains of area
 * 30 mm²; friction 0.5; rotational damping 10 g·mm²/s = 1e-8 N·m·s.
 *
 * @example
 * ```ts
 * import { packingScene } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const scene = packingScene({ count: 50 });
 * scene.advance(5);
 * expect(scene.system.count).toBe(50);
 * expect(scene.system.walls.count).toBe(3);
 * ```
 */
export function packingScene(options: SceneOptions = {}): StarScene {
  options = sceneOptions("packingScene", options);
  const rng = new Rng((options.seed ?? 1) + 1000);
  const p: number[] = [];
  const sp = 14.29;
  for (let iy = 0; iy < 83; iy++) {
    for (let ix = 0; ix < 38; ix++) {
      const x = 30 + ix * sp + (iy % 2) * sp * 0.5 + rng.uniform(-1, 1);
      const y = 20 + iy * sp + rng.uniform(-1, 1);
      p.push(x * MM, y * MM);
    }
  }
  return make(options, {
    name: "packing",
    description: "3,154 grains fall into a 560 mm wide box (area 30 mm² each)",
    positions: p,
    defaultSize: { area: 30e-6 },
    nodes: 100,
    system: { friction: 0.5, rotationalDamping: 1e-8 },
    build: (s) => {
      s.walls.addBox({ min: [20 * MM, 10 * MM], max: [580 * MM, 2], friction: 0.5 });
      return [];
    },
    gateTime: Infinity,
  });
}

/**
 * Rotating drum: 900 grains (30 × 30 grid, spacing 10 mm) in a drum of radius 250 mm turning
 * at 5 rad/s with 8 lifters (20 × 10 mm, 240 mm from the axis, every 45°); friction 0;
 * rotational damping 0.001 g·mm²/s = 1e-12 N·m·s; grains r_max = 5 mm.
 *
 * @example
 * ```ts
 * import { drumScene } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const scene = drumScene({ count: 30 });
 * scene.advance(3);
 * expect(scene.system.walls.count).toBe(9);
 * ```
 */
export function drumScene(options: SceneOptions = {}): StarScene {
  options = sceneOptions("drumScene", options);
  const p: number[] = [];
  for (let iy = 0; iy < 30; iy++) {
    for (let ix = 0; ix < 30; ix++) p.push((155 + ix * 10) * MM, (155 + iy * 10) * MM);
  }
  return make(options, {
    name: "drum",
    description: "900 grains in a drum of radius 250 mm turning at 5 rad/s with 8 lifters",
    positions: p,
    defaultSize: { rMax: 5 * MM },
    nodes: 100,
    system: { friction: 0, rotationalDamping: 1e-12 },
    build: (s) => {
      const c: [number, number] = [300 * MM, 300 * MM];
      s.walls.addDrum({ centre: c, radius: 250 * MM, omega: 5, friction: 0 });
      for (let k = 0; k < 8; k++) {
        const a = (k * Math.PI) / 4, ca = Math.cos(a), sa = Math.sin(a);
        s.walls.addSegment({
          from: [c[0] + 235 * MM * ca, c[1] + 235 * MM * sa],
          to: [c[0] + 250 * MM * ca, c[1] + 250 * MM * sa],
          thickness: 10 * MM,
          omega: 5,
          pivot: c,
          friction: 0,
        });
      }
      return [];
    },
    gateTime: Infinity,
  });
}

/**
 * Narrow-gap outlet (arches): ≈ 279 grains Poisson-disk sampled in [50, 250] × [350, 600] mm
 * above a V hopper (two plates 4 mm thick leaving a 30 mm gap ≈ 3 grain diameters), floor
 * y = 10 mm, walls x = 10 and 290 mm; friction 0.1; rotational damping 1e-12 N·m·s.
 *
 * @example
 * ```ts
 * import { archesScene } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const scene = archesScene({ count: 20 });
 * expect(scene.system.count).toBe(20);
 * expect(scene.system.walls.count).toBe(5);
 * ```
 */
export function archesScene(options: SceneOptions = {}): StarScene {
  options = sceneOptions("archesScene", options);
  const rng = new Rng((options.seed ?? 1) + 2000);
  const p = poisson(rng, 55, 355, 245, 595, 10.4, 279).map((v) => v * MM);
  return make(options, {
    name: "arches",
    description: `${p.length / 2} grains flow through a 30 mm gap and form arches`,
    positions: p,
    defaultSize: { rMax: 5 * MM },
    nodes: 100,
    system: { friction: 0.1, rotationalDamping: 1e-12 },
    build: (s) => {
      s.walls.addBox({ min: [10 * MM, 10 * MM], max: [290 * MM, 2], friction: 0.1 });
      s.walls.addSegment({
        from: [10 * MM, 300 * MM],
        to: [133 * MM, 200 * MM],
        thickness: 4 * MM,
        friction: 0.1,
      });
      s.walls.addSegment({
        from: [290 * MM, 300 * MM],
        to: [167 * MM, 200 * MM],
        thickness: 4 * MM,
        friction: 0.1,
      });
      return [];
    },
    gateTime: Infinity,
  });
}

/**
 * Column collapse: ≈ 429 grains Poisson-disk sampled in [250, 350] × [20, 600] mm between two
 * gates (x = 240 and 360 mm) removed at t = 0.4 s; floor y = 10 mm, walls x = 10 and 590 mm;
 * 200 boundary nodes; friction 0.5; rotational damping 1 g·mm²/s = 1e-9 N·m·s.
 *
 * @example
 * ```ts
 * import { columnCollapseScene } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const scene = columnCollapseScene({ count: 20 });
 * expect(scene.gates).toHaveLength(2);
 * expect(scene.gateTime).toBe(0.4);
 * ```
 */
export function columnCollapseScene(options: SceneOptions = {}): StarScene {
  options = sceneOptions("columnCollapseScene", options);
  const rng = new Rng((options.seed ?? 1) + 3000);
  const p = poisson(rng, 246, 20, 354, 600, 10.2, 429).map((v) => v * MM);
  return make(options, {
    name: "column",
    description: `${p.length / 2} grains in a column collapse into a pile when the gates open`,
    positions: p,
    defaultSize: { rMax: 5 * MM },
    nodes: 200,
    system: { friction: 0.5, rotationalDamping: 1e-9 },
    build: (s) => {
      s.walls.addBox({ min: [10 * MM, 10 * MM], max: [590 * MM, 2], friction: 0.5 });
      return [
        s.walls.addPlane({ point: [240 * MM, 0], normal: [1, 0], friction: 0.5 }),
        s.walls.addPlane({ point: [360 * MM, 0], normal: [-1, 0], friction: 0.5 }),
      ];
    },
    gateTime: 0.4,
  });
}
