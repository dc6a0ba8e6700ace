/**
 * star2d benchmark: CPU time per step, single thread, of the packing scene (3,154 grains of
 * area 30 mm²) once the grains have settled into a dense bed — disks (Cundall–Strack), StarDEM
 * circles (r = 1), the StarDEM cross (2 + sin 4α), a random 17-coefficient shape (a₀ and 8
 * cosine and 8 sine harmonics, `StarShape.random(7)`), 9- and 17-disk clumps of the cross — and
 * of the rotating drum (900 random 17-coefficient grains, r_max = 5 mm) once it turns steadily.
 *
 * Star grains run in three node-test variants, stepped alternately in one process from the
 * same state: `table` (spriteResolution 0: every node in the lens takes the paper's atan2 +
 * 1D-table test), `table+cells` (the default: the sprite's cell classes reject nodes in cells
 * wholly outside the other grain; same results bit for bit) and `sprite` (sampling "sprite":
 * overlaps and normals read from the sprite). The cells are used only for shapes that leave
 * at least 1 % of their bounding disc outside (`ShapeSprite.rejects`), so for circles
 * `table` and `table+cells` run the same code; a circle's node test needs no atan2 at all
 * (`StarShape.round`).
 *
 * The settled bed is generated quickly, once per shape: the grains start on a compact
 * staggered lattice (spacing 2.02·r_max) instead of the 1.2 m tall layout and settle under
 * gravity with ten times the rotational damping (1e-7 N·m·s) at the paper's Δt = 1e-4 s. The
 * timed runs then use the packing scene's parameters (kn = 1e3, kt = 0.5e3 N/m, cn = 0.1
 * N·s/m, μ = 0.5, c_r = 1e-8 N·m·s, Δt = 1e-4 s) from that bed; the clumps start from the cross
 * bed, the disks from the circle bed. Figures are medians over the timed steps of the
 * process's CPU time (user + system, `process.cpuUsage`) per step; "collide" is that times
 * the share of grid, detection and wall stages in the step's wall-clock profile.
 *
 * Reference side by side: with `STARDEM_BIN` pointing to a build of the public StarDEM
 * reference code (the no-graphics target, `OMP_NUM_THREADS=1` is set here) and
 * `STARDEM_DIR` to its checkout (default: the binary's folder, which must hold
 * `examples_article/`), the bench runs the reference's own packing (sphere, cross, random
 * 17 coefficients) and drum configurations and reads the reference process's CPU time
 * (/proc/<pid>/stat) between frames `STARDEM_WINDOW` (default 150:200, i.e. t = 1.5–2 s, a
 * dense bed; 100 steps per frame), then prints the ratio Grainlab / reference.
 *
 * Threads: the same beds are stepped with each thread count of `--threads` (default 1,2) in
 * turns of 20 steps, each step timed by the wall clock (the work is shared among threads, so CPU
 * time would not show the gain); the bench checks that the positions are the same bytes.
 *
 * Run: deno run -A bench/star2d_bench.ts [--quick] [--threads 1,2]
 */

import process from "node:process";
import {
  drumScene,
  packingScene,
  type SceneOptions,
  StarShape,
  StarSystem,
} from "../src/star2d/mod.ts";
import type { GrainSystem2 } from "../src/star2d/body.ts";
import { Rng } from "../src/math/rng.ts";
import { median } from "./median.ts";

const quick = Deno.args.includes("--quick");
const N = 3154;
const WARM = quick ? 20 : 60, TIMED = quick ? 40 : 200, BLOCK = 20;

interface Bed {
  positions: Float64Array;
  angles: Float64Array;
  steps: number;
  ms: number;
  ke: number;
}

const randomShape = (size: { area?: number; rMax?: number }) => StarShape.random(7, size);

function shapeOf(name: "circle" | "cross" | "random17"): StarShape {
  return name === "random17"
    ? randomShape({ area: 30e-6 })
    : StarShape.preset(name, { area: 30e-6 });
}

function settle(name: "circle" | "cross" | "random17", count = N, width = 0.56): Bed {
  const shape = shapeOf(name);
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
    positions: sys.positions.slice(),
    angles: sys.angles.slice(),
    steps,
    ms: performance.now() - t,
    ke: sys.lastStepStats.kineticEnergy,
  };
}

interface Row {
  label: string;
  collision: number;
  step: number;
  hits: number;
  tests: number;
  contacts: number;
  perPair: number;
  maxOverlap: number;
}

/** CPU ms of one step; the wall-clock profile gives the collision share. */
function timedStep(s: GrainSystem2, col: number[], stp: number[]): void {
  const t = process.cpuUsage();
  s.step();
  const u = process.cpuUsage(t);
  const cpu = (u.user + u.system) / 1e3, pr = s.lastStepProfile;
  stp.push(cpu);
  col.push(
    pr.total > 0 ? (cpu * (pr.neighbors + pr.pairForces + pr.boundaryForces)) / pr.total : 0,
  );
}

/** Step the systems alternately from their current states; one row each. */
function timeAlternately(labels: string[], systems: GrainSystem2[], rMax: number): Row[] {
  const col = systems.map(() => [] as number[]), stp = systems.map(() => [] as number[]);
  const acc = systems.map(() => ({ hits: 0, tests: 0, contacts: 0, perPair: 0, maxOv: 0 }));
  for (const s of systems) {
    s.profile = true;
    s.run(WARM);
  }
  for (let k = 0; k < TIMED; k++) {
    for (let v = 0; v < systems.length; v++) {
      const s = systems[v];
      timedStep(s, col[v], stp[v]);
      const st = s.lastStepStats, a = acc[v];
      a.hits += st.boundingHits;
      a.tests += st.nodeTests;
      a.contacts += st.particleContacts;
      a.perPair += st.contactsPerPair;
      a.maxOv = Math.max(a.maxOv, st.maxPenetration);
    }
  }
  return systems.map((_, v) => ({
    label: labels[v],
    collision: median(col[v]),
    step: median(stp[v]),
    hits: acc[v].hits / TIMED,
    tests: acc[v].tests / TIMED,
    contacts: acc[v].contacts / TIMED,
    perPair: acc[v].perPair / TIMED,
    maxOverlap: acc[v].maxOv / rMax,
  }));
}

function fromBed(bed: Bed, opts: SceneOptions): GrainSystem2 {
  const scene = packingScene({ ...opts, count: N });
  const s = scene.system;
  s.positions.set(bed.positions.subarray(0, 2 * N));
  s.angles.set(bed.angles.subarray(0, N));
  return s;
}

const VARIANTS = [
  { tag: "table", system: { spriteResolution: 0 } },
  { tag: "table+cells", system: {} },
  { tag: "sprite", system: { sampling: "sprite" as const } },
];

function starRows(label: string, bed: Bed, shape: StarShape): Row[] {
  const systems = VARIANTS.map((v) => fromBed(bed, { method: "star", shape, system: v.system }));
  return timeAlternately(VARIANTS.map((v) => `${label}, ${v.tag}`), systems, shape.rMax);
}

const f = (x: number, d = 2) => x.toFixed(d).padStart(8);
const t0 = performance.now();
const [l1, l5, l15] = (await Deno.readTextFile("/proc/loadavg").catch(() => "? ? ?")).split(" ");
console.log(`load average before the run (1/5/15 min): ${l1} ${l5} ${l15}`);
const circleBed = settle("circle");
const crossBed = settle("cross");
const randomBed = settle("random17");
console.log(
  `settled beds: circle ${circleBed.steps} steps (${(circleBed.ms / 1e3).toFixed(1)} s, ` +
    `KE ${circleBed.ke.toExponential(2)} J), cross ${crossBed.steps} steps (${
      (crossBed.ms / 1e3).toFixed(1)
    } s), random17 ${randomBed.steps} steps (${(randomBed.ms / 1e3).toFixed(1)} s)`,
);

const cross = shapeOf("cross"), circle = shapeOf("circle"), random17 = shapeOf("random17");
const rows: Row[] = [
  ...timeAlternately(
    ["disks (Cundall–Strack)"],
    [fromBed(circleBed, { method: "disk", shape: "circle" })],
    circle.rMax,
  ),
  ...starRows("StarDEM circle", circleBed, circle),
  ...starRows("StarDEM cross", crossBed, cross),
  ...starRows("random 17 coef.", randomBed, random17),
  ...timeAlternately(
    ["clump cross, 9 disks", "clump cross, 17 disks"],
    [
      fromBed(crossBed, { method: "clump", shape: cross, clumpDisks: 9 }),
      fromBed(crossBed, { method: "clump", shape: cross, clumpDisks: 17 }),
    ],
    cross.rMax,
  ),
];
console.log(
  `\npacking, ${N} grains, single thread, CPU ms per step: median of ${TIMED} steps after ` +
    `${WARM} warm-up steps (variants stepped alternately)`,
);
console.log(
  "method                               collide ms  step ms  bbox hits  node tests  contacts  /pair  maxOv/R",
);
for (const r of rows) {
  console.log(
    `${r.label.padEnd(36)} ${f(r.collision)} ${f(r.step)}   ${f(r.hits, 0)}  ${f(r.tests, 0)}  ${
      f(r.contacts, 0)
    } ${f(r.perPair, 2)} ${f(r.maxOverlap, 4)}`,
  );
}
console.log(
  "paper (one thread, collision ms): disks 1.1, circle 9.6, cross 26, more complex shapes " +
    "29–30, clumps of the cross 12 (9 disks) and 41 (17 disks)",
);

// ---- threads: wall-clock ms per step on the same bed, in turns of BLOCK steps ------------
const THREADS = (() => {
  const k = Deno.args.indexOf("--threads");
  return (k >= 0 ? Deno.args[k + 1] : "1,2").split(",").map(Number);
})();

function threadRow(label: string, bed: Bed, shape: StarShape): string {
  const systems = THREADS.map((t) => {
    const s = fromBed(bed, { method: "star", shape }) as StarSystem;
    s.threads = t;
    return s;
  });
  const ms = systems.map(() => [] as number[]);
  for (const s of systems) s.run(WARM);
  // in turns of BLOCK steps, as a user runs a system: stepping the systems one step each in
  // turn would let a threaded system's idle workers fall asleep between its steps (they spin
  // 5 ms, less than the other systems' steps) and time their wake-up, which `run` never pays
  for (let k = 0; k < TIMED; k += BLOCK) {
    for (let v = 0; v < systems.length; v++) {
      const s = systems[v];
      for (let q = 0; q < BLOCK && k + q < TIMED; q++) {
        const t = performance.now();
        s.step();
        ms[v].push(performance.now() - t);
      }
      s.run(0); // hands control back as a run does: idle workers sleep at once
    }
  }
  const p0 = systems[0].positions;
  const same = systems.every((s) => s.positions.every((x, i) => Object.is(x, p0[i])));
  for (const s of systems) s.close();
  const med = ms.map(median);
  return `${label.padEnd(20)} ${med.map((m) => f(m)).join(" ")}  ${
    med.slice(1).map((m) => f(med[0] / m)).join(" ")
  }   ${same ? "yes" : "NO"}`;
}

console.log(
  `\npacking, ${N} grains, threads (table+cells): wall-clock ms per step, median of ${TIMED} ` +
    `steps, thread counts stepped in turns of ${BLOCK} steps from the same bed`,
);
console.log(
  `shape                ${THREADS.map((t) => `${t} thr ms`.padStart(8)).join(" ")}  ${
    THREADS.slice(1).map((t) => `x${t}/1`.padStart(8)).join(" ")
  }   same bytes`,
);
console.log(threadRow("StarDEM circle", circleBed, circle));
console.log(threadRow("StarDEM cross", crossBed, cross));
console.log(threadRow("random 17 coef.", randomBed, random17));

// Drum: 900 random 17-coefficient grains, turning at 5 rad/s; timed after 0.5 s.
const DRUM_SETTLE = quick ? 1000 : 5000;
const drumShape = randomShape({ rMax: 0.005 });
const drums = VARIANTS.map((v) => drumScene({ shape: drumShape, system: v.system }));
for (const d of drums) d.advance(DRUM_SETTLE);
const drumRows = timeAlternately(
  VARIANTS.map((v) => `drum, random 17 coef., ${v.tag}`),
  drums.map((d) => d.system),
  drumShape.rMax,
);
console.log(`\ndrum, 900 grains, after ${DRUM_SETTLE / 1e4} s of rotation, CPU ms per step`);
for (const r of drumRows) {
  console.log(
    `${r.label.padEnd(36)} ${f(r.collision)} ${f(r.step)}   ${f(r.hits, 0)}  ${f(r.tests, 0)}  ${
      f(r.contacts, 0)
    } ${f(r.perPair, 2)} ${f(r.maxOverlap, 4)}`,
  );
}

console.log(`
The reference configurations (StarDEM examples_article, millimetres, g, s): Δt = 1e-4 s,
kn = 1e6, ks = 5e5 (g/s² = mN/m), damping 100 g/s, gravity −9810 mm/s², 100 boundary nodes,
20,000 table samples, frame = 0.01 s.
  packing (packing.conf): friction 0.5, damping_t (rotational) 10; walls x = 20, 580 and
    floor y = 10 mm; grains of mass 0.2 on a grid x ∈ [30, 570], y ∈ [20, 1200] mm, density
    0.07 (3,154 grains), random rotations; packing_sphere.sc circles r = 5 (area 78.5 mm²
    in the reference, 30 mm² here), packing_cross.sc crosses 2 + sin 4α at r = 4.37 mm,
    packing.sc 17 random coefficients at r = 5 mm.
  drum (drum.conf): friction 0, damping_t 0.001; circle R = 250 mm at (300, 300) and 8 boxes
    20 × 10 mm turning at 5 rad/s; 900 grains of 17 random coefficients, r = 5 mm, grid
    [150, 450]² density 0.1.
Grainlab's packing bench times a settled bed of the same grains and parameters (see the
header); its drum the same scene (src/star2d/scenes.ts).`);

// ---- the reference, side by side ------------------------------------------------------
const bin = Deno.env.get("STARDEM_BIN");
if (bin) {
  const dir = Deno.env.get("STARDEM_DIR") ?? bin.replace(/\/[^/]*$/, "");
  const [w0, w1] = (Deno.env.get("STARDEM_WINDOW") ?? "150:200").split(":").map(Number);
  const tick = 100; // USER_HZ of /proc/<pid>/stat on Linux
  const cpuOf = async (pid: number) => {
    const stat = await Deno.readTextFile(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) / tick; // utime + stime (s)
  };
  const reference = async (conf: string, scene: string) => {
    const cmd = new Deno.Command(bin, {
      args: [
        "-c",
        `${dir}/examples_article/${conf}`,
        "-s",
        `${dir}/examples_article/${scene}`,
        "-verbose",
        "-stop",
        String(w1 + 1),
      ],
      env: { OMP_NUM_THREADS: "1" },
      stdout: "piped",
      stderr: "null",
    });
    const child = cmd.spawn();
    let start = NaN, end = NaN, buf = "";
    const dec = new TextDecoder();
    for await (const chunk of child.stdout) {
      buf += dec.decode(chunk);
      let nl: number;
      while ((nl = buf.indexOf("\n")) >= 0) {
        const m = buf.slice(0, nl).match(/frame: (\d+) /);
        buf = buf.slice(nl + 1);
        if (!m) continue;
        const frame = Number(m[1]);
        if (frame === w0) start = await cpuOf(child.pid);
        if (frame === w1) end = await cpuOf(child.pid);
      }
      if (!Number.isNaN(end)) break;
    }
    try {
      child.kill();
    } catch { /* already gone */ }
    await child.status;
    return ((end - start) * 1e3) / ((w1 - w0) * 100); // ms per step
  };
  console.log(
    `\nreference (${bin}), CPU ms per step over frames ${w0}–${w1} (t = ${w0 / 100}–${
      w1 / 100
    } s), one thread, against Grainlab's dense bed above:`,
  );
  const pick = (rs: Row[], label: string) => rs.find((r) => r.label === label)!.step;
  const cases: [string, string, string, Row[], string][] = [
    ["packing, circles", "packing.conf", "packing_sphere.sc", rows, "StarDEM circle"],
    ["packing, crosses", "packing.conf", "packing_cross.sc", rows, "StarDEM cross"],
    ["packing, random 17 coef.", "packing.conf", "packing.sc", rows, "random 17 coef."],
    ["drum, random 17 coef.", "drum.conf", "drum.sc", drumRows, "drum, random 17 coef."],
  ];
  for (const [name, conf, scene, rs, label] of cases) {
    const ref = await reference(conf, scene);
    const cells = pick(rs, `${label}, table+cells`), table = pick(rs, `${label}, table`);
    const sprite = pick(rs, `${label}, sprite`);
    console.log(
      `${name.padEnd(26)} reference ${f(ref)} ms; Grainlab table+cells ${f(cells)} (${
        (cells / ref).toFixed(2)
      }×), table ${f(table)} (${(table / ref).toFixed(2)}×), sprite ${f(sprite)} (${
        (sprite / ref).toFixed(2)
      }×)`,
    );
  }
} else {
  console.log("\n(set STARDEM_BIN to a StarDEM reference build to time it side by side)");
}
console.log(`\ntotal ${((performance.now() - t0) / 1e3).toFixed(1)} s`);
