/**
 * star2d benchmark: per-step time of collision handling (grid + candidate pairs + detection +
 * overlaps) and of the whole step, single thread, on the packing scene (3,154 grains of area
 * 30 mm²) once the grains have settled into a dense bed — for disks (Cundall–Strack), StarDEM
 * circles (r = 1), the StarDEM cross (2 + sin 4α) and 9- and 17-disk clumps of the cross.
 *
 * The settled bed is generated quickly, once per shape: the grains start on a compact
 * staggered lattice (spacing 2.02·r_max) instead of the 1.2 m tall layout and settle under
 * gravity with ten times the rotational damping (1e-7 N·m·s) at the paper's Δt = 1e-4 s
 * (stronger normal damping would break the explicit stability bound for the crosses' light
 * effective mass at the arm tips). The timed runs then use the packing scene's parameters (kn = 1e3, kt = 0.5e3
 * N/m, cn = 0.1 N·s/m, μ = 0.5, c_r = 1e-8 N·m·s, Δt = 1e-4 s) from that bed; the clumps
 * start from the cross bed, the disks from the circle bed. Reported figures are medians over
 * the timed steps, measured with performance.now() inside `step()`.
 *
 * Run: deno run -A bench/star2d_bench.ts [--quick]
 */

import { packingScene, type SceneOptions, StarShape, StarSystem } from "../src/star2d/mod.ts";
import { Rng } from "../src/math/rng.ts";

const quick = Deno.args.includes("--quick");
const N = 3154;
const WARM = quick ? 30 : 100, TIMED = quick ? 60 : 300;

interface Bed {
  system: StarSystem;
  positions: Float64Array;
  angles: Float64Array;
  steps: number;
  ms: number;
  ke: number;
}

function settle(name: "circle" | "cross", count = N, width = 0.56): Bed {
  const shape = StarShape.preset(name, { area: 30e-6 });
  const R = shape.rMax, sp = 2.02 * R, x0 = 0.02 + 1.05 * R, x1 = 0.02 + width - 1.05 * R;
  const perRow = Math.floor((x1 - x0 - 0.5 * sp) / sp) + 1;
  const rng = new Rng(7);
  const pos: number[] = [], ang: number[] = [];
  for (let k = 0; k < count; k++) {
    const row = Math.floor(k / perRow), col = k % perRow;
    pos.push(x0 + col * sp + (row % 2) * 0.5 * sp, 0.01 + 1.05 * R + row * sp * 0.9);
    ang.push(rng.uniform(0, 2 * Math.PI));
  }
  // Rows 0.9·sp apart on a staggered lattice never overlap for 2·r_max ≤ sp·√(0.25 + 0.81).
  const sys = new StarSystem({ normalDamping: 0.1, rotationalDamping: 1e-7, friction: 0.5 });
  sys.addGrains({ shape, positions: pos, angles: ang });
  sys.walls.addBox({ min: [0.02, 0.01], max: [0.02 + width, 2], friction: 0.5 });
  const t = performance.now();
  let steps = 0;
  const maxSteps = quick ? 800 : 5000;
  for (; steps < maxSteps; steps++) {
    sys.step();
    if (steps > 600 && steps % 100 === 0 && sys.lastStepStats.kineticEnergy < count * 2e-10) break;
  }
  return {
    system: sys,
    positions: sys.positions.slice(),
    angles: sys.angles.slice(),
    steps,
    ms: performance.now() - t,
    ke: sys.lastStepStats.kineticEnergy,
  };
}

interface Row {
  label: string;
  count: number;
  collision: number;
  step: number;
  pairs: number;
  hits: number;
  tests: number;
  contacts: number;
  perPair: number;
  maxOverlap: number;
}

function median(a: number[]): number {
  const s = a.slice().sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}

function time(label: string, bed: Bed, opts: SceneOptions, count = N): Row {
  const scene = packingScene({ ...opts, count });
  const s = scene.system;
  s.profile = true;
  s.positions.set(bed.positions.subarray(0, 2 * count));
  s.angles.set(bed.angles.subarray(0, count));
  s.run(WARM);
  const col: number[] = [], stp: number[] = [];
  let pairs = 0, hits = 0, tests = 0, contacts = 0, perPair = 0, maxOv = 0;
  for (let k = 0; k < TIMED; k++) {
    s.step();
    const st = s.lastStepStats;
    const pr = s.lastStepProfile;
    col.push(pr.neighbors + pr.pairForces + pr.boundaryForces);
    stp.push(pr.total);
    pairs += st.candidatePairs;
    hits += st.boundingHits;
    tests += st.nodeTests;
    contacts += st.particleContacts;
    perPair += st.contactsPerPair;
    maxOv = Math.max(maxOv, st.maxPenetration);
  }
  return {
    label,
    count,
    collision: median(col),
    step: median(stp),
    pairs: pairs / TIMED,
    hits: hits / TIMED,
    tests: tests / TIMED,
    contacts: contacts / TIMED,
    perPair: perPair / TIMED,
    maxOverlap: maxOv / scene.shape.rMax,
  };
}

const f = (x: number, d = 2) => x.toFixed(d).padStart(8);
const t0 = performance.now();
const circleBed = settle("circle");
const crossBed = settle("cross");
console.log(
  `settled beds: circle ${circleBed.steps} steps (${(circleBed.ms / 1e3).toFixed(1)} s, ` +
    `KE ${circleBed.ke.toExponential(2)} J), cross ${crossBed.steps} steps (${
      (crossBed.ms / 1e3).toFixed(1)
    } s, KE ${crossBed.ke.toExponential(2)} J)`,
);

const rows: Row[] = [
  time("disks (Cundall–Strack)", circleBed, { method: "disk", shape: "circle" }),
  time("StarDEM circle r = 1", circleBed, { method: "star", shape: "circle" }),
  time("StarDEM cross 2 + sin 4α", crossBed, { method: "star", shape: "cross" }),
  time("clump cross, 9 disks", crossBed, { method: "clump", shape: "cross", clumpDisks: 9 }),
  time("clump cross, 17 disks", crossBed, { method: "clump", shape: "cross", clumpDisks: 17 }),
];
const paper: Record<string, string> = {
  "disks (Cundall–Strack)": "1.1",
  "StarDEM circle r = 1": "9.6 | C++ 6.5 / 7.5",
  "StarDEM cross 2 + sin 4α": "26 | C++ 18 / 19",
  "clump cross, 9 disks": "12",
  "clump cross, 17 disks": "41",
};
console.log(
  `\npacking, ${N} grains, single thread, median of ${TIMED} steps after ${WARM} warm-up steps`,
);
console.log(
  "method                     collide ms  step ms  cand.pairs  bbox hits  node tests  contacts  /pair  maxOv/R   paper ms (collide | ref C++ collide / step)",
);
for (const r of rows) {
  console.log(
    `${r.label.padEnd(26)} ${f(r.collision)} ${f(r.step)} ${f(r.pairs, 0)}   ${f(r.hits, 0)}  ${
      f(r.tests, 0)
    }  ${f(r.contacts, 0)} ${f(r.perPair, 2)} ${f(r.maxOverlap, 4)}   ${paper[r.label]}`,
  );
}

// Linearity in the number of grains (cross, lowest grains of the settled bed).
// Linearity: beds of the same depth in boxes of width 0.14, 0.28 and 0.56 m (N/4, N/2 and
// N grains), each settled and then timed as it is.
console.log(
  "\nscaling, StarDEM cross, same bed depth, box width ∝ grains: grains, collide ms, step ms, " +
    "µs per grain-step, node tests per grain",
);
for (const k of [4, 2, 1]) {
  const n = Math.floor(N / k);
  const bed = n === N ? crossBed : settle("cross", n, 0.56 / k);
  const s = bed.system;
  s.profile = true;
  s.run(WARM);
  const col: number[] = [], stp: number[] = [];
  let tests = 0;
  for (let t = 0; t < TIMED; t++) {
    s.step();
    const pr = s.lastStepProfile;
    col.push(pr.neighbors + pr.pairForces + pr.boundaryForces);
    stp.push(pr.total);
    tests += s.lastStepStats.nodeTests;
  }
  const c = median(col), st = median(stp);
  console.log(
    `${String(n).padStart(6)} ${f(c)} ${f(st)} ${f((1e3 * st) / n, 3)} ${f(tests / TIMED / n, 1)}`,
  );
}
console.log(`\ntotal ${((performance.now() - t0) / 1e3).toFixed(1)} s`);
