/**
 * Rigid bodies in a settled granular bed (issue #9): what a body costs the granular step.
 *
 * The bed is the settle benchmark's scene (spheres r = 0.02 m, 1600 kg/m³, kn = 1e5 N/m,
 * kt = 2/7·kn, γn = 800 s⁻¹, μ = 0.5, Δt = 5e-5 s, a jittered grid that collapses into a
 * random packing) in a square container about ten layers deep, so that 20,000 grains settle in
 * a minute or two: they fall for 1 s at Δt = 2e-4 s, then the velocities are zeroed three
 * times with 300 steps at Δt = 5e-5 s between (the quench of tests/bodies_helpers.ts). Every
 * scene starts from that same settled state (a checkpoint in memory).
 *
 * 1. **Footing**: a dynamic 0.3 × 0.3 × 0.05 m box (1000 kg/m³, 490 Pa) set on the surface
 *    settles for 0.1 s; then blocks of steps alternate between that world and the same bed
 *    without it.
 * 2. **Bucket**: a closed 2,080-triangle mesh (an open box with one-cell walls, 0.36 × 0.36 ×
 *    0.27 m, built from voxel faces), its opening facing +x, kinematic: it digs 8 cm down and
 *    8 cm forward (0.5 m/s along each axis, 3200 steps), then is dragged 2.5 cm forward (1000
 *    steps); blocks of 100 steps alternate with the bed without it throughout. The extra cost
 *    of the boundary stage (which holds the grain–body contacts) divided by the triangle
 *    candidates of `meshTriangleCandidatePairs` is the cost per candidate; `TriangleMesh.closest`
 *    is also timed alone on the grains near the mesh at the end.
 * 3. **Pool sleep**: a steel sphere (r = 0.06 m, 7800 kg/m³) hits a settled pool of 50,000
 *    grains (the same scene, 3 m wide; it settles in about four minutes on a shared 2-core
 *    machine; `--full`: 100,000) at 2 m/s, with and without `setPoolSleep()` (defaults:
 *    0.01 m/s, 50 quiet steps, 5 cm wake distance), the two worlds stepped in alternating
 *    blocks: the step cost while the pool is asleep (100 steps after sleep is turned on), during
 *    the 0.15 s impact and after it, the depth of the sphere's lowest point below the original
 *    surface in both, and the surface profile around the crater.
 *
 * Times are medians of the blocks (ms per step) on one thread; the stage columns come from
 * `world.profile` (the "bodies" column is the world step minus the granular step: the rigid
 * engine and the coupling bookkeeping). No assertions: this prints a table.
 *
 * Run: `deno task bench` or `deno run -A bench/body_bench.ts [--quick] [--full] [--n 20000]
 * [--pool 50000] [--blocks 4] [--block 50] [--parts 1,2,3]`; `--quick` runs one 1,500-grain
 * bed (smaller bodies, fewer steps) for all three parts in about half a minute, `--full` uses a
 * 100,000-grain pool for part 3 (settling it takes ten minutes or more).
 *
 * @module
 */
import { type GranularSystem, type RigidBody, World } from "../src/sphere3d/mod.ts";
import { TriangleMesh } from "../src/sphere3d/bodies/mesh.ts";
import { SCENE } from "./settle_bench.ts";
import { lowbias32 } from "../src/math/rng.ts";

const args = Deno.args;
const arg = (name: string, dflt: number): number => {
  const k = args.indexOf(name);
  return k >= 0 && k + 1 < args.length ? Number(args[k + 1]) : dflt;
};
const quick = args.includes("--quick");
const full = args.includes("--full");
/** Bed of parts 1 and 2. */
const N_BED = arg("--n", quick ? 1500 : 20000);
/** Pool of part 3 (the same bed when equal). */
const N_POOL = arg("--pool", quick ? N_BED : full ? 100000 : 50000);
/** Alternating timed blocks per world, and steps per block. */
const BLOCKS = arg("--blocks", quick ? 2 : 4);
const BLOCK = arg("--block", quick ? 20 : 50);
/** Which of the three scenes to run. */
const PARTS = (args.includes("--parts") ? args[args.indexOf("--parts") + 1] : "1,2,3")
  .split(",").map(Number);
/** Layers of the initial grid (the settled bed is about 0.03 m per layer deep). */
const LAYERS = 10;
const SETTLE_DT = 2e-4;
const SETTLE_TIME = 1.0;
/** Footing half width (m), bucket cell (m): smaller in the small bed of `--quick`. */
const FOOT = quick ? 0.08 : 0.15, CELL = quick ? 0.015 : 0.03;

const R = SCENE.radius;
const MASS = SCENE.density * (4 / 3) * Math.PI * R ** 3;
const MATERIAL = {
  density: SCENE.density,
  normalStiffness: SCENE.kn,
  tangentialStiffness: SCENE.kt,
  normalDamping: (SCENE.gammaN * MASS) / 2,
  friction: SCENE.friction,
};

/** The settle benchmark's jittered grid on `cols` × `cols` columns (stride 3). */
function grid(n: number, cols: number): Float64Array {
  const S = SCENE.spacing, J = SCENE.jitter, out = new Float64Array(3 * n);
  const u = (k: number) => lowbias32(k) / 2 ** 32;
  for (let k = 0; k < n; k++) {
    const i = k % cols, j = Math.floor(k / cols) % cols, l = Math.floor(k / (cols * cols));
    out[3 * k] = (i - (cols - 1) / 2) * S + J * (2 * u(2 * k) - 1);
    out[3 * k + 1] = (j - (cols - 1) / 2) * S + J * (2 * u(2 * k + 1) - 1);
    out[3 * k + 2] = (l + 0.5) * S;
  }
  return out;
}

/** A settled bed: its state, the container half width and the settling figures. */
export interface Bed {
  n: number;
  half: number;
  bytes: Uint8Array;
  secs: number;
  z: number;
  depth: number;
  maxSpeed: number;
}

export function settle(n: number): Bed {
  const cols = Math.ceil(Math.sqrt(n / LAYERS)), half = (cols * SCENE.spacing) / 2;
  const t0 = performance.now();
  const world = new World({ timeStep: SETTLE_DT });
  const g = world.addGranularParticles({ positions: grid(n, cols), radii: R }, MATERIAL);
  g.setContainerBox([-half, -half, 0], [half, half, 3]);
  world.run(Math.round(SETTLE_TIME / SETTLE_DT));
  world.timeStep = SCENE.dt;
  for (let q = 0; q < 3; q++) {
    for (let i = 0; i < g.count; i++) {
      g.setVelocity(i, [0, 0, 0]);
      g.setAngularVelocity(i, [0, 0, 0]);
    }
    world.run(300);
  }
  const st = g.lastStepStats;
  return {
    n,
    half,
    bytes: g.granularStateBytes(),
    secs: (performance.now() - t0) / 1000,
    z: (2 * st.particleContacts) / n,
    depth: topNear(g, 0, 0, half),
    maxSpeed: st.maxSpeed,
  };
}

/** A world with bodies enabled holding a copy of the settled bed. */
export async function open(bed: Bed): Promise<{ world: World; g: GranularSystem }> {
  const world = await World.create({ timeStep: SCENE.dt });
  const g = world.addGranularSystem(MATERIAL);
  g.setContainerBox([-bed.half, -bed.half, 0], [bed.half, bed.half, 3]);
  g.loadGranularStateBytes(bed.bytes);
  world.profile = true;
  return { world, g };
}

/** Mean top (z + r) of the `k` highest grains within `reach` (horizontally) of (x, y). */
function topNear(g: GranularSystem, x: number, y: number, reach: number, k = 8): number {
  const p = g.positions, r = g.radii, tops: number[] = [];
  for (let i = 0; i < g.count; i++) {
    if (Math.abs(p[3 * i] - x) < reach && Math.abs(p[3 * i + 1] - y) < reach) {
      tops.push(p[3 * i + 2] + r[i]);
    }
  }
  tops.sort((a, b) => b - a);
  const m = Math.min(k, tops.length);
  return tops.slice(0, m).reduce((s, t) => s + t, 0) / m;
}

/** Timing and counters of one world over its timed blocks. */
class Timing {
  msPerStep: number[] = [];
  steps = 0;
  /** Stage sums (ms): neighbours, pairs, boundary + bodies, integration, granular total. */
  stage = [0, 0, 0, 0, 0];
  /** World step time summed (ms). */
  world = 0;
  particleContacts = 0;
  boundaryContacts = 0;
  rigidContacts = 0;
  rigidCandidates = 0;
  meshCandidates = 0;
  meshInside = 0;
  sleeping = 0;
  rebuilds0 = -1;
  rebuilds = 0;

  /** Step `w` `steps` times, timing the block. */
  block(w: World, g: GranularSystem, steps: number): void {
    if (this.rebuilds0 < 0) this.rebuilds0 = g.neighborRebuilds;
    const t0 = performance.now();
    for (let s = 0; s < steps; s++) {
      w.step();
      const p = g.lastStepProfile, st = g.lastStepStats;
      this.stage[0] += p.neighbors;
      this.stage[1] += p.pairForces;
      this.stage[2] += p.boundaryForces;
      this.stage[3] += p.integration;
      this.stage[4] += p.total;
      this.particleContacts += st.particleContacts;
      this.boundaryContacts += st.boundaryContacts;
      this.rigidContacts += st.rigidContacts;
      this.rigidCandidates += st.rigidCandidatePairs;
      this.meshCandidates += st.meshTriangleCandidatePairs;
      this.meshInside += st.meshInsideTriangleTests;
      this.sleeping += st.sleepingParticles;
    }
    const ms = performance.now() - t0;
    this.world += ms;
    this.msPerStep.push(ms / steps);
    this.steps += steps;
    this.rebuilds = g.neighborRebuilds - this.rebuilds0;
  }

  /** Median ms per step over the blocks. */
  get ms(): number {
    const s = [...this.msPerStep].sort((a, b) => a - b), m = s.length >> 1;
    return s.length % 2 === 1 ? s[m] : 0.5 * (s[m - 1] + s[m]);
  }

  /** Mean of a summed counter per step. */
  per(sum: number): number {
    return sum / this.steps;
  }
}

/** Alternate timed blocks between the worlds (with first). */
function alternate(
  a: { world: World; g: GranularSystem },
  b: { world: World; g: GranularSystem },
  blocks = BLOCKS,
  block = BLOCK,
  each?: () => void,
): [Timing, Timing] {
  const ta = new Timing(), tb = new Timing();
  for (let k = 0; k < blocks; k++) {
    ta.block(a.world, a.g, block);
    tb.block(b.world, b.g, block);
    each?.();
  }
  return [ta, tb];
}

/**
 * A closed voxel "bucket": `n` × `n` cells wide, `h` tall, walls and floor one cell (`c` m)
 * thick, open at the top (local +z); the outer faces of the solid cells, two triangles per
 * face, counter-clockwise seen from outside; centred on the z axis, bottom at z = 0.
 */
export function bucketMesh(
  n: number,
  h: number,
  c: number,
): { vertices: number[]; indices: number[] } {
  const solid = (i: number, j: number, k: number) =>
    i >= 0 && j >= 0 && k >= 0 && i < n && j < n && k < h &&
    (k === 0 || i === 0 || j === 0 || i === n - 1 || j === n - 1);
  const ids = new Map<number, number>(), vertices: number[] = [], indices: number[] = [];
  const vertex = (p: number[]): number => {
    const key = (p[2] * (n + 1) + p[1]) * (n + 1) + p[0];
    let id = ids.get(key);
    if (id === undefined) {
      id = ids.size;
      ids.set(key, id);
      vertices.push((p[0] - n / 2) * c, (p[1] - n / 2) * c, p[2] * c);
    }
    return id;
  };
  for (let k = 0; k < h; k++) {
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        if (!solid(i, j, k)) continue;
        const cell = [i, j, k];
        for (let a = 0; a < 3; a++) {
          for (const s of [-1, 1]) {
            const nb = [i, j, k];
            nb[a] += s;
            if (solid(nb[0], nb[1], nb[2])) continue;
            const u = (a + 1) % 3, v = (a + 2) % 3;
            const corners = [[0, 0], [1, 0], [1, 1], [0, 1]].map(([du, dv]) => {
              const p = [...cell];
              p[a] += s > 0 ? 1 : 0;
              p[u] += du;
              p[v] += dv;
              return vertex(p);
            });
            // (u, v, a) is right-handed: the corners run counter-clockwise about +a
            if (s < 0) corners.reverse();
            indices.push(corners[0], corners[1], corners[2], corners[0], corners[2], corners[3]);
          }
        }
      }
    }
  }
  return { vertices, indices };
}

// ---- the three scenes ---------------------------------------------------------------------

interface FootingRow {
  with: Timing;
  without: Timing;
  sink: number;
}

async function footing(bed: Bed): Promise<FootingRow> {
  const a = await open(bed), b = await open(bed);
  const hx = FOOT, hz = 0.025;
  const top = topNear(a.g, 0, 0, hx + R), highest = topNear(a.g, 0, 0, hx + R, 1);
  const box = a.world.addBox({
    halfExtents: [hx, hx, hz],
    position: [0, 0, highest + hz + 0.001],
    density: 1000,
  });
  // it lands and settles into the surface; the bed without it takes the same steps
  for (const x of [a, b]) x.world.run(quick ? 1000 : 2000);
  const [ta, tb] = alternate(a, b);
  return { with: ta, without: tb, sink: top - (box.position[2] - hz) };
}

interface BucketRow {
  /** Digging down and forward: with, without. */
  dig: [Timing, Timing];
  /** Dragging forward: with, without. */
  drag: [Timing, Timing];
  triangles: number;
  /** The closest-point queries alone: ns per triangle candidate, triangles per query. */
  closest: { ns: number; triangles: number; queries: number };
  /** How deep the bucket's lowest point is below the surface at the end (m). */
  depth: number;
}

/** Steps the bucket digs (45° down and forward) and is then dragged forward. */
const DIG = quick ? 2000 : 3200, DRAG = quick ? 400 : 1000;
/** Bucket speed along x and, while digging, down (m/s). */
const BUCKET_SPEED = 0.5;

/** Rotation matrix (row-major, body → world) of the unit quaternion `[x, y, z, w]`. */
function matrix(q: readonly number[]): number[] {
  const [x, y, z, w] = q;
  return [
    1 - 2 * (y * y + z * z),
    2 * (x * y - z * w),
    2 * (x * z + y * w),
    2 * (x * y + z * w),
    1 - 2 * (x * x + z * z),
    2 * (y * z - x * w),
    2 * (x * z - y * w),
    2 * (y * z + x * w),
    1 - 2 * (x * x + y * y),
  ];
}

/**
 * Time `mesh.closest` alone on the grains near the body now (in the mesh frame, within the
 * mesh bounds grown by a radius and the skin), repeated to about 0.2 s: ns per triangle
 * candidate (the `meshTriangleCandidatePairs` counter of these queries).
 */
function closestCost(mesh: TriangleMesh, body: RigidBody, g: GranularSystem) {
  const R = matrix(body.orientation), o = body.position, p = g.positions, r = g.radii;
  const lo = mesh.boundsMin, hi = mesh.boundsMax, local: number[] = [], rad: number[] = [];
  for (let i = 0; i < g.count; i++) {
    const dx = p[3 * i] - o[0], dy = p[3 * i + 1] - o[1], dz = p[3 * i + 2] - o[2];
    const l = [0, 1, 2].map((k) => R[k] * dx + R[3 + k] * dy + R[6 + k] * dz);
    const m = r[i] + g.neighborSkin;
    if (l.every((x, k) => x > lo[k] - m && x < hi[k] + m)) local.push(...l), rad.push(r[i]);
  }
  const n = rad.length, out = new Float64Array(8), counters = new Float64Array(2);
  if (n === 0) return { ns: NaN, triangles: 0, queries: 0 };
  let reps = 1, ms = 0;
  for (;;) {
    counters[0] = counters[1] = 0;
    const t0 = performance.now();
    for (let k = 0; k < reps; k++) {
      for (let q = 0; q < n; q++) {
        mesh.closest(local[3 * q], local[3 * q + 1], local[3 * q + 2], rad[q], out, counters);
      }
    }
    ms = performance.now() - t0;
    if (ms > 200) break;
    reps *= 4;
  }
  return { ns: (ms * 1e6) / counters[0], triangles: counters[0] / (reps * n), queries: n };
}

async function bucket(bed: Bed): Promise<BucketRow> {
  const a = await open(bed), b = await open(bed);
  const cells = 12, tall = 9, c = CELL, width = cells * c;
  const mesh = bucketMesh(cells, tall, c);
  // opening towards +x: the rotation by 90° about y takes local z to +x, local x to −z
  const x0 = -0.5 * bed.half - 0.5 * tall * c;
  const top = topNear(a.g, x0 + 0.5 * tall * c, 0, 0.5 * width + R, 1);
  const body: RigidBody = a.world.addMesh({
    vertices: mesh.vertices,
    indices: mesh.indices,
    bodyType: "kinematic",
    orientation: [0, Math.SQRT1_2, 0, Math.SQRT1_2],
    position: [x0, 0, top + 0.5 * width + 0.005],
    linearVelocity: [BUCKET_SPEED, 0, -BUCKET_SPEED],
  });
  const chunk = 100;
  const dig = alternate(a, b, DIG / chunk, chunk);
  body.setVelocity([BUCKET_SPEED, 0, 0]);
  const drag = alternate(a, b, DRAG / chunk, chunk);
  const shape = TriangleMesh.create(mesh.vertices, mesh.indices);
  return {
    dig,
    drag,
    triangles: shape.triangleCount,
    closest: closestCost(shape, body, a.g),
    depth: topNear(a.g, body.position[0] + 0.5 * tall * c, 0, 0.5 * width) -
      (body.position[2] - 0.5 * width),
  };
}

interface SleepRow {
  n: number;
  settleSecs: number;
  asleepFraction: number;
  before: [Timing, Timing];
  impact: [Timing, Timing];
  after: [Timing, Timing];
  depth: [number, number];
  profile: [number[], number[]];
}

/** Crater profile: the mean top of the 3 highest grains in rings of width 2r around the axis. */
function craterProfile(g: GranularSystem, rings: number): number[] {
  const p = g.positions, tops: number[][] = Array.from({ length: rings }, () => []);
  for (let i = 0; i < g.count; i++) {
    const k = Math.floor(Math.hypot(p[3 * i], p[3 * i + 1]) / (2 * R));
    if (k < rings) tops[k].push(p[3 * i + 2] + R);
  }
  return tops.map((t) => t.sort((a, b) => b - a).slice(0, 3).reduce((s, x) => s + x, 0) / 3);
}

async function pool(bed: Bed): Promise<SleepRow> {
  const s = await open(bed), w = await open(bed);
  s.g.setPoolSleep();
  const quiet = 100; // > the 50 quiet steps
  s.world.run(quiet);
  w.world.run(quiet);
  const asleepFraction = s.g.lastStepStats.sleepingParticles / s.g.count;
  const before = alternate(s, w);
  // the drop, identical in both
  const rs = 0.06, top = topNear(s.g, 0, 0, rs), highest = topNear(s.g, 0, 0, rs + R, 1);
  const balls = [s, w].map((x) =>
    x.world.addSphere({
      radius: rs,
      density: 7800,
      position: [0, 0, highest + rs + 0.002],
      linearVelocity: [0, 0, -2],
    })
  );
  const impactSteps = quick ? 1000 : 3000, chunk = 100;
  const impact = alternate(s, w, impactSteps / chunk, chunk);
  const after = alternate(s, w);
  const depth = balls.map((b) => top - (b.position[2] - rs)) as [number, number];
  const rings = 8;
  const profile = [s, w].map((x) => craterProfile(x.g, rings).map((z) => z - top));
  return {
    n: bed.n,
    settleSecs: bed.secs,
    asleepFraction,
    before,
    impact,
    after,
    depth,
    profile: profile as [number[], number[]],
  };
}

// ---- printing ------------------------------------------------------------------------------

const f = (x: number, d: number, w: number) => x.toFixed(d).padStart(w);

function stageLine(label: string, t: Timing, n: number): string {
  const per = (k: number) => t.stage[k] / t.steps;
  const bodies = (t.world - t.stage[4]) / t.steps;
  const other = per(4) - per(0) - per(1) - per(2) - per(3);
  return `  ${label.padEnd(10)} ${f(t.ms, 2, 8)} ${f((n / t.ms) / 1e3, 2, 8)} ${f(per(0), 2, 7)} ${
    f(per(1), 2, 7)
  } ${f(per(2), 2, 7)} ${f(per(3), 2, 7)} ${f(other, 2, 6)} ${f(bodies, 2, 7)} ${
    String(t.rebuilds).padStart(5)
  }`;
}

const STAGE_HEAD = `  ${"".padEnd(10)} ${"ms/step".padStart(8)} ${"Mps/s".padStart(8)} ${
  "neigh".padStart(7)
} ${"pairs".padStart(7)} ${"bound".padStart(7)} ${"integr".padStart(7)} ${"other".padStart(6)} ${
  "bodies".padStart(7)
} ${"rebld".padStart(5)}`;

if (import.meta.main) {
  console.log(
    `rigid bodies in a settled bed (one thread${quick ? ", --quick" : ""}): the settle ` +
      `benchmark's grains and Δt = ${SCENE.dt} s; ${BLOCKS} alternating blocks of ${BLOCK} ` +
      `steps per world, medians; stage columns in ms per step (profile), "bodies" = world step ` +
      `minus granular step, "rebld" = neighbour-list rebuilds in the timed steps`,
  );
  const needBed = PARTS.includes(1) || PARTS.includes(2) || N_POOL === N_BED;
  const bed = needBed ? settle(N_BED) : null;
  if (bed !== null) describeBed("bed", bed);
  if (bed !== null && PARTS.includes(1)) await part1(bed);
  if (bed !== null && PARTS.includes(2)) await part2(bed);
  if (PARTS.includes(3)) await part3(bed);
}

function describeBed(name: string, bed: Bed): void {
  console.log(
    `${name}: ${bed.n} grains in a ${(2 * bed.half).toFixed(2)} m square box, ${
      bed.depth.toFixed(3)
    } m deep, settled in ${bed.secs.toFixed(0)} s (Z = ${bed.z.toFixed(2)}, max v ${
      bed.maxSpeed.toFixed(3)
    } m/s)`,
  );
}

async function part1(bed: Bed): Promise<void> {
  const fo = await footing(bed), n = bed.n;
  console.log(
    `\n1. footing ${2 * FOOT} × ${2 * FOOT} × 0.05 m box (dynamic, 1000 kg/m³) resting on the bed`,
  );
  console.log(STAGE_HEAD);
  console.log(stageLine("with", fo.with, n));
  console.log(stageLine("without", fo.without, n));
  const zw = fo.with.per(2 * fo.with.particleContacts) / n;
  const zo = fo.without.per(2 * fo.without.particleContacts) / n;
  const cw = (fo.with.per(2 * fo.with.particleContacts + fo.with.boundaryContacts) +
    fo.with.per(fo.with.rigidContacts)) / n;
  console.log(
    `  ratio ${(fo.with.ms / fo.without.ms).toFixed(3)} (target ≤ 1.2); Z ${zw.toFixed(2)} with, ${
      zo.toFixed(2)
    } without; contacts per grain ${cw.toFixed(2)}; rigid contacts ${
      fo.with.per(fo.with.rigidContacts).toFixed(1)
    }, rigid candidates ${fo.with.per(fo.with.rigidCandidates).toFixed(0)} per step; sinkage ${
      (fo.sink * 1000).toFixed(1)
    } mm`,
  );
}

async function part2(bed: Bed): Promise<void> {
  const bu = await bucket(bed), n = bed.n;
  const dig = DIG * SCENE.dt * BUCKET_SPEED * 100, drag = DRAG * SCENE.dt * BUCKET_SPEED * 100;
  console.log(
    `\n2. bucket: closed ${bu.triangles}-triangle mesh (${(12 * CELL).toFixed(2)} m wide, ${
      (9 * CELL).toFixed(2)
    } m deep, opening +x), kinematic: digs ${dig.toFixed(1)} cm down and forward (${DIG} ` +
      `steps), then is dragged ${drag.toFixed(1)} cm forward (${DRAG} steps), ${BUCKET_SPEED} ` +
      `m/s along each axis; its bottom ends ${(bu.depth * 100).toFixed(1)} cm below the surface`,
  );
  console.log(STAGE_HEAD);
  const phases = [["dig", bu.dig], ["drag", bu.drag]] as const;
  for (const [name, [tw, to]] of phases) {
    console.log(stageLine(`${name} with`, tw, n));
    console.log(stageLine(`${name} -`, to, n));
  }
  for (const [name, [tw, to]] of phases) {
    const tri = tw.per(tw.meshCandidates);
    const dBound = (tw.stage[2] / tw.steps - to.stage[2] / to.steps) * 1e6;
    const dTotal = (tw.ms - to.ms) * 1e6;
    console.log(
      `  ${name}: ratio ${(tw.ms / to.ms).toFixed(3)}; per step ${
        tw.per(tw.rigidCandidates).toFixed(0)
      } grain candidates, ${tri.toFixed(0)} triangle candidates, ${
        tw.per(tw.meshInside).toFixed(0)
      } inside tests, ${tw.per(tw.rigidContacts).toFixed(0)} contacts; extra cost per triangle ` +
        `candidate ${(dBound / tri).toFixed(0)} ns (boundary stage), ${
          (dTotal / tri).toFixed(0)
        } ns (whole step)`,
    );
  }
  const c = bu.closest;
  console.log(
    `  closest-point queries alone (the ${c.queries} grains near the mesh at the end, ` +
      `repeated): ${c.ns.toFixed(0)} ns per triangle candidate, ${
        c.triangles.toFixed(1)
      } triangles per grain`,
  );
}

async function part3(bed: Bed | null): Promise<void> {
  const poolBed = bed !== null && N_POOL === bed.n ? bed : settle(N_POOL);
  if (poolBed !== bed) {
    console.log("");
    describeBed("pool", poolBed);
  }
  const sl = await pool(poolBed);
  console.log(
    `\n3. pool sleep: ${sl.n} grains; steel sphere r = 6 cm at 2 m/s; ${
      (100 * sl.asleepFraction).toFixed(1)
    } % asleep 100 steps after setPoolSleep()`,
  );
  console.log(STAGE_HEAD);
  const phases: [string, [Timing, Timing]][] = [
    ["asleep", sl.before],
    ["impact", sl.impact],
    ["after", sl.after],
  ];
  for (const [name, [ts, tw]] of phases) {
    console.log(stageLine(`${name} S`, ts, sl.n));
    console.log(stageLine(`${name} -`, tw, sl.n));
  }
  for (const [name, [ts, tw]] of phases) {
    console.log(
      `  ${name}: speed-up ${(tw.ms / ts.ms).toFixed(2)}× (wall ${
        (tw.world / 1000).toFixed(1)
      } s → ${(ts.world / 1000).toFixed(1)} s over ${ts.steps} steps), mean sleeping ${
        (100 * ts.per(ts.sleeping) / sl.n).toFixed(1)
      } %`,
    );
  }
  const [ds, dw] = sl.depth;
  const dp = sl.profile[0].map((z, k) => Math.abs(z - sl.profile[1][k]));
  console.log(
    `  crater: sphere bottom ${(ds * 1000).toFixed(1)} mm below the surface with sleep, ${
      (dw * 1000).toFixed(1)
    } mm without (difference ${((ds - dw) * 1000).toFixed(1)} mm = ${
      ((ds - dw) / R).toFixed(2)
    } grain radii); surface profile differs by at most ${(Math.max(...dp) * 1000).toFixed(1)} mm`,
  );
  const mm = (z: number[]) => z.map((x) => (x * 1000).toFixed(0).padStart(4)).join("");
  console.log(
    `  surface profile (mm above the original surface; rings of 4 cm from the axis; mean`,
  );
  console.log(`  of the 3 highest grain tops; the sphere fills the first ring):`);
  console.log(`    with sleep   ${mm(sl.profile[0])}`);
  console.log(`    without      ${mm(sl.profile[1])}`);
}
