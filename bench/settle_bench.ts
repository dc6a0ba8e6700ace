/**
 * The "settle" benchmark on a disordered bed: spheres r = 0.02 m, density 1600 kg/m³,
 * kn = 1e5 N/m, kt = 2/7·kn, μ = 0.5, Δt = 5e-5 s, in a 1.2 × 0.8 m open-top container.
 *
 * The initial state is a **jittered grid** (deterministic and portable, so LAMMPS starts from the
 * same bytes): nx = 27, ny = 18 columns; grain k at i = k mod nx, j = ⌊k/nx⌋ mod ny,
 * l = ⌊k/(nx·ny)⌋; x = (i − (nx−1)/2)·S + jx, y = (j − (ny−1)/2)·S + jy, z = (l + ½)·S with
 * S = 0.043 m; jx = J·(2·u(2k) − 1), jy = J·(2·u(2k+1) − 1), J = 1 mm, u(n) = lowbias32(n)/2³²
 * (Chris Wellons' 32-bit hash). The columns collapse into a random packing (coordination
 * number ≈ 4.3–4.5), unlike an unjittered grid, which settles into a stack of columns with one
 * contact per grain.
 *
 * Damping: LAMMPS `gran/hooke/history` with γn = 800 s⁻¹ and `limit_damping` ⇔ Grainlab
 * normalDamping = 800 · m/2 (LAMMPS damps with the effective mass m/2 of two equal grains; the
 * walls use m_eff = m, hence γn,wall = 400 s⁻¹ for the same damping coefficient).
 *
 * Both codes settle for the same simulated time (`--settle`, default "auto": 0.3 s plus the
 * free-fall time of the top layer), then time windows of the same length (1.5 × `--steps`
 * steps) on the settled state. The timing runs in `--rounds` rounds (default 3): one LAMMPS
 * window, then one Grainlab window per thread count of `--threads` (default 1,2; the bytes
 * are the same for any count), in turn, so that the host's speed drifting during the run hits
 * both codes alike. A Grainlab window follows 10 untimed steps, or 300 when the thread count
 * changed (new workers: their code must warm up). Prints each code's median window in particle-steps per second, ns per
 * particle-step, the scaling, the coordination number Z = 2·(particle contacts)/N of each
 * code, and the ratio Grainlab (one thread) / LAMMPS (one process, one core): the median of
 * the rounds' ratios, with their range.
 *
 * Under each size, a line of stages in ns per particle-step: Grainlab's from one more one-thread
 * window with `profile` on (`profileTotals`: pair forces, walls + integration, neighbour list,
 * the rest of the step), beside LAMMPS's own timing table of its median window (Pair, Modify =
 * the walls, gravity and `nve/sphere`, Neigh, and Comm + Output + Other).
 *
 * With `--settled DIR`, Grainlab settles once (every thread offered) and keeps the settled bed in
 * `DIR/settle_<N>.ckpt` (positions, velocities and spins, no springs), or loads it when it is
 * there; then **both** codes start from that settled state (LAMMPS reads its positions,
 * velocities and spins from the data file, and neither code has springs at the start), run
 * `--resettle` untimed steps (default 1,000 = 0.05 s, which rebuilds the springs) and time the
 * same window. This spares LAMMPS the long settling run at 100,000 grains (33,000 steps) and
 * lets the settling run at a different time from the timed one, which needs a quiet machine.
 * Each LAMMPS window restarts from the settled state (data file, untimed steps, then the
 * window); Grainlab's windows follow each other on its running bed (a settled bed costs the
 * same from window to window).
 *
 * Run: `deno task bench` or
 * `deno run -A bench/settle_bench.ts [--sizes 5000,20000,100000] [--steps 400] [--settle auto|s] [--threads 1,2] [--lammps [--lammps-procs 2]] [--settled DIR [--resettle 1000]] [--rounds 3]`
 *
 * `--lammps-procs P` also runs LAMMPS on P MPI processes (`mpirun`) on the same state: the
 * peer's own scaling on this machine, beside Grainlab's threads.
 *
 * @module
 */
import { World } from "../src/sphere3d/mod.ts";
import { lowbias32 } from "../src/math/rng.ts";
import { median } from "./median.ts";

const args = Deno.args;
const arg = (name: string, dflt: string) => {
  const k = args.indexOf(name);
  return k >= 0 && k + 1 < args.length ? args[k + 1] : dflt;
};
const sizes = arg("--sizes", "5000,20000,100000").split(",").map(Number);
const timedSteps = Number(arg("--steps", "400"));
const settleArg = arg("--settle", "auto");
const threadList = arg("--threads", "1,2").split(",").map(Number);
const withLammps = args.includes("--lammps");
const settledDir = arg("--settled", "");
const resettleSteps = Number(arg("--resettle", "1000"));
const lammpsProcs = Number(arg("--lammps-procs", "1"));
const rounds = Number(arg("--rounds", "3"));
if (!Number.isInteger(rounds) || rounds < 1) {
  throw new RangeError(`settle bench: --rounds (${arg("--rounds", "3")}) must be an integer ≥ 1`);
}

/** The scene, shared with the LAMMPS input below. */
export const SCENE = {
  radius: 0.02,
  density: 1600,
  kn: 1e5,
  kt: (2 / 7) * 1e5,
  /** LAMMPS γn (1/s). */
  gammaN: 800,
  friction: 0.5,
  dt: 5e-5,
  spacing: 0.043,
  jitter: 1e-3,
  nx: 27,
  ny: 18,
  box: [1.2, 0.8] as const,
};

const MASS = SCENE.density * (4 / 3) * Math.PI * SCENE.radius ** 3;
/** Grainlab's normal damping equivalent to LAMMPS γn: cn = γn · m/2. */
const CN = SCENE.gammaN * MASS / 2;

/** The jittered grid of n grains (see the module notes), stride 3. */
export function jitteredGrid(n: number): Float64Array {
  const { nx, ny, spacing: S, jitter: J } = SCENE;
  const out = new Float64Array(3 * n);
  const u = (k: number) => lowbias32(k) / 2 ** 32;
  for (let k = 0; k < n; k++) {
    const i = k % nx, j = Math.floor(k / nx) % ny, l = Math.floor(k / (nx * ny));
    out[3 * k] = (i - (nx - 1) / 2) * S + J * (2 * u(2 * k) - 1);
    out[3 * k + 1] = (j - (ny - 1) / 2) * S + J * (2 * u(2 * k + 1) - 1);
    out[3 * k + 2] = (l + 0.5) * S;
  }
  return out;
}

function heightFor(n: number): number {
  return (Math.ceil(n / (SCENE.nx * SCENE.ny)) + 0.5) * SCENE.spacing;
}

/**
 * Simulated settling time (s): `--settle` seconds, or "auto": the free-fall time of the top
 * layer onto the floor plus 0.3 s for the bed to come to rest (0.6 s at 5,000 grains, 0.9 s at
 * 20,000, 1.65 s at 100,000, whose column starts 8.9 m tall).
 */
export function settleTimeFor(n: number): number {
  if (settleArg !== "auto") return Number(settleArg);
  return 0.3 + Math.sqrt((2 * heightFor(n)) / 9.81);
}

/** The settle scene of n grains on the jittered grid, in its container (not yet settled). */
export function build(n: number) {
  const world = new World({ timeStep: SCENE.dt, gravity: [0, 0, -9.81] });
  const [bx, by] = SCENE.box;
  const g = world.addGranularParticles({ positions: jitteredGrid(n), radii: SCENE.radius }, {
    density: SCENE.density,
    normalStiffness: SCENE.kn,
    tangentialStiffness: SCENE.kt,
    normalDamping: CN,
    friction: SCENE.friction,
  });
  g.setContainerBox([-bx / 2, -by / 2, 0], [bx / 2, by / 2, heightFor(n) + 1]);
  return { world, g };
}

function settledFile(n: number): string {
  return `${settledDir}/settle_${n}.ckpt`;
}

function exists(path: string): boolean {
  try {
    Deno.statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** Grainlab's bed for one size: built, settled (or loaded) and re-settled, ready to time. */
interface Ours {
  world: World;
  g: ReturnType<typeof build>["g"];
  settleSteps: number;
  settleSecs: number;
  /** The settled state both codes start from (with `--settled`). */
  start?: Float64Array[];
}

function startOurs(n: number): Ours {
  const { world, g } = build(n);
  const t0 = performance.now();
  const settle = Math.round(settleTimeFor(n) / SCENE.dt);
  // the settling run uses every thread offered: the bytes are the same for any count
  g.threads = Math.max(...threadList);
  let start: Float64Array[] | undefined;
  if (settledDir !== "" && exists(settledFile(n))) {
    g.loadGranularState(settledFile(n));
  } else {
    world.run(settle);
    if (settledDir !== "") {
      Deno.mkdirSync(settledDir, { recursive: true });
      g.saveGranularState(settledFile(n), { includeContactHistories: false });
      g.loadGranularState(settledFile(n)); // the springs go, as in LAMMPS's start
    }
  }
  const settleSecs = (performance.now() - t0) / 1000;
  if (settledDir !== "") {
    start = [g.positions.slice(), g.velocities.slice(), g.angularVelocities.slice()];
    world.run(resettleSteps);
  }
  return { world, g, settleSteps: settle, settleSecs, start };
}

/**
 * Grainlab's stages in ns per particle-step over one profiled one-thread window of `steps`
 * steps: pair forces, walls + integration, neighbour list, the rest.
 */
function profileWindow(o: Ours, steps: number): number[] {
  o.g.threads = 1;
  o.world.run(10);
  o.g.profile = true;
  o.world.run(steps);
  const t = o.g.profileTotals, per = 1e6 / (t.steps * o.g.count);
  o.g.profile = false;
  const pair = t.pairForces * per, modify = (t.boundaryForces + t.integration) * per;
  const neigh = t.neighbors * per;
  return [pair, modify, neigh, t.total * per - pair - modify - neigh];
}

/** Seconds of one timed window of `steps` steps on `threads` threads (after 10 untimed, or 300 when the thread count changes). */
function timeWindow(o: Ours, threads: number, steps: number): number {
  // a new thread count starts new workers, whose code V8 compiles afresh: warm them up for
  // 300 steps untimed (10 were too few — at 20,000 grains the window then timed part of the
  // workers' warm-up: 1.55 × against 1.62–1.70 × for workers started once)
  const changed = o.g.threads !== threads;
  o.g.threads = threads;
  o.world.run(changed ? 300 : 10);
  const t1 = performance.now();
  o.world.run(steps);
  return (performance.now() - t1) / 1000;
}

function lammpsData(
  positions: Float64Array,
  h: number,
  vel?: Float64Array,
  omega?: Float64Array,
): string {
  // Full double precision so both codes start from the same bytes.
  const [bx, by] = SCENE.box;
  const n = positions.length / 3;
  const lines = [
    "Grainlab settle scene",
    "",
    `${n} atoms`,
    "1 atom types",
    `${-bx / 2} ${bx / 2} xlo xhi`,
    `${-by / 2} ${by / 2} ylo yhi`,
    `-0.01 ${h + 1} zlo zhi`,
    "",
    "Atoms # sphere",
    "",
  ];
  for (let i = 0; i < n; i++) {
    lines.push(
      `${i + 1} 1 ${2 * SCENE.radius} ${SCENE.density} ${positions[3 * i]} ${
        positions[3 * i + 1]
      } ${positions[3 * i + 2]}`,
    );
  }
  if (vel && omega) {
    lines.push("", "Velocities", "");
    for (let i = 0; i < n; i++) {
      lines.push(
        `${i + 1} ${vel[3 * i]} ${vel[3 * i + 1]} ${vel[3 * i + 2]} ${omega[3 * i]} ${
          omega[3 * i + 1]
        } ${omega[3 * i + 2]}`,
      );
    }
  }
  return lines.join("\n") + "\n";
}

function lammpsInput(settleSteps: number, steps: number): string {
  const [bx, by] = SCENE.box;
  const r = SCENE.radius, gammaN = SCENE.gammaN;
  // LAMMPS damps with m_eff·γn: m/2 between two grains, m against a wall.
  const wall = `hooke/history ${SCENE.kn} ${SCENE.kt} ${
    gammaN / 2
  } 0 ${SCENE.friction} 0 limit_damping`;
  return `units si
atom_style sphere
atom_modify map array
boundary f f f
newton off
comm_modify vel yes
read_data data.settle
pair_style gran/hooke/history ${SCENE.kn} ${SCENE.kt} ${gammaN} 0 ${SCENE.friction} 0 limit_damping
pair_coeff * *
neighbor ${0.1 * r} bin
neigh_modify delay 0 every 1 check yes
timestep ${SCENE.dt}
fix grav all gravity 9.81 vector 0 0 -1
fix integ all nve/sphere
fix zlo all wall/gran ${wall} zplane 0 NULL
fix xw all wall/gran ${wall} xplane ${-bx / 2} ${bx / 2}
fix yw all wall/gran ${wall} yplane ${-by / 2} ${by / 2}
compute cn all contact/atom
compute z all reduce ave c_cn
thermo_style custom step c_z
thermo ${steps}
run ${settleSteps}
run ${steps}
`;
}

async function runLammps(
  n: number,
  settleSteps: number,
  steps: number,
  start?: Float64Array[],
  procs = 1,
) {
  const dir = await Deno.makeTempDir({ prefix: "grainlab_lmp_" });
  const data = start
    ? lammpsData(start[0], heightFor(n), start[1], start[2])
    : lammpsData(build(n).g.positions, heightFor(n));
  await Deno.writeTextFile(`${dir}/data.settle`, data);
  await Deno.writeTextFile(`${dir}/in.settle`, lammpsInput(settleSteps, steps));
  const lmp = ["lmp", "-in", "in.settle", "-log", "none"];
  const cmd = procs > 1 ? ["mpirun", "--allow-run-as-root", "-np", String(procs), ...lmp] : lmp;
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  await Deno.remove(dir, { recursive: true });
  const loops = [
    ...text.matchAll(/Loop time of ([\d.e+-]+) on \d+ procs for (\d+) steps with (\d+) atoms/g),
  ];
  if (!out.success || loops.length < 2) {
    return { error: new TextDecoder().decode(out.stderr).slice(-400) + text.slice(-400) };
  }
  const last = loops[loops.length - 1];
  const secs = Number(last[1]), st = Number(last[2]), atoms = Number(last[3]);
  // The last thermo line before the final loop: step and the mean contact count per atom.
  const thermo = [...text.matchAll(/^\s*(\d+)\s+([\d.e+-]+)\s*$/gm)];
  const z = thermo.length > 0 ? Number(thermo[thermo.length - 1][2]) : NaN;
  // The timing table of the last loop ("Pair | min | avg | max | %varavg | %total"): the
  // average seconds of each section, as ns per particle-step: Pair, Modify, Neigh, the rest.
  const tail = text.slice(text.lastIndexOf("Loop time of"));
  const sec = (name: string) => {
    const m = tail.match(new RegExp(`^${name}\\s*\\|([^|]*)\\|([^|]*)\\|`, "m"));
    return m ? Number(m[2]) * 1e9 / (st * atoms) : NaN;
  };
  const stages = [
    sec("Pair"),
    sec("Modify"),
    sec("Neigh"),
    sec("Comm") + sec("Output") + sec("Other"),
  ];
  return { secs, pps: (st * atoms) / secs, atoms, z, stages };
}

function hasLammps(): boolean {
  try {
    new Deno.Command("lmp", { args: ["-h"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

if (import.meta.main) {
  console.log(
    `settle benchmark, disordered bed (jittered grid): r = 0.02 m, kn = 1e5 N/m, ` +
      `kt = 2/7 kn, μ = 0.5, γn = 800 1/s (cn = ${CN.toFixed(2)} N·s/m), Δt = 5e-5 s; ` +
      `settle ${
        settleArg === "auto" ? "0.3 s + the fall time of the top layer" : settleArg + " s"
      }` +
      `, then windows of ${3 * (timedSteps / 2)} timed steps: ${rounds} rounds of one LAMMPS ` +
      `window (one process) and one Grainlab window per thread count, in turn; medians shown`,
  );
  if (settledDir !== "") {
    console.log(
      `both codes start from Grainlab's settled bed (${settledDir}/settle_<N>.ckpt: positions, ` +
        `velocities, spins, no springs) and run ${resettleSteps} untimed steps before timing; ` +
        `each LAMMPS window restarts from that state`,
    );
  }
  const lmp = withLammps && hasLammps();
  const head = [
    "N".padStart(7),
    "settle s".padStart(8),
    ...threadList.map((t) => `${t} thr Mps/s`.padStart(12)),
    "ns/ps(1)".padStart(9),
    ...(threadList.length > 1 ? [`x${threadList[threadList.length - 1]}/1`.padStart(7)] : []),
    "Z".padStart(5),
    "max v".padStart(6),
    ...(lmp
      ? [
        "LAMMPS Mps/s".padStart(12),
        "Z".padStart(5),
        "ratio(1)".padStart(8),
        "range".padStart(10),
      ]
      : []),
  ];
  console.log(head.join(" "));
  for (const n of sizes) {
    // Rounds: LAMMPS's window, then Grainlab's window per thread count, `rounds` times in turn
    // (LAMMPS restarting from the same settled state each time), so that a drift of the host's
    // speed hits both codes alike; each code's median window is shown, and the ratio is the
    // median of the rounds' ratios.
    const o = startOurs(n);
    const window = 3 * (timedSteps / 2);
    const lRounds = lmp ? (o.start ? rounds : 1) : 0;
    const gSecs: number[][] = threadList.map(() => []);
    const lRuns: Awaited<ReturnType<typeof runLammps>>[] = [];
    for (let r = 0; r < Math.max(rounds, lRounds); r++) {
      if (r < lRounds) {
        lRuns.push(await runLammps(n, o.start ? resettleSteps : o.settleSteps, window, o.start));
      }
      threadList.forEach((t, k) => gSecs[k].push(timeWindow(o, t, window)));
    }
    const stages = profileWindow(o, window);
    const count = o.g.count, st = o.g.lastStepStats;
    const pps = gSecs.map((x) => (window * count) / median(x));
    o.world.close();
    let extra = "", lStages: number[] = [];
    const cols = [
      String(count).padStart(7),
      (o.settleSteps * SCENE.dt).toFixed(2).padStart(8),
      ...pps.map((p) => (p / 1e6).toFixed(2).padStart(12)),
      (1e9 / pps[0]).toFixed(0).padStart(9),
      ...(pps.length > 1 ? [(pps[pps.length - 1] / pps[0]).toFixed(2).padStart(7)] : []),
      ((2 * st.particleContacts) / count).toFixed(2).padStart(5),
      st.maxSpeed.toFixed(3).padStart(6),
    ];
    if (lmp) {
      const bad = lRuns.find((l) => "error" in l);
      if (bad !== undefined && "error" in bad) cols.push(`LAMMPS failed: ${bad.error}`);
      else {
        const ok = lRuns as {
          secs: number;
          pps: number;
          atoms: number;
          z: number;
          stages: number[];
        }[];
        const lpps = (window * count) / median(ok.map((l) => l.secs));
        // the timing table of the median window
        const bySecs = ok.slice().sort((x, y) => x.secs - y.secs);
        lStages = bySecs[(bySecs.length - 1) >> 1].stages;
        // per round: Grainlab's one-thread window against the LAMMPS window before it
        const ratios = ok.map((l, r) => l.secs / gSecs[0][r]);
        cols.push(
          (lpps / 1e6).toFixed(2).padStart(12),
          ok[ok.length - 1].z.toFixed(2).padStart(5),
          median(ratios).toFixed(2).padStart(8),
          `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`.padStart(10),
        );
        if (lammpsProcs > 1) {
          const lp = await runLammps(
            n,
            o.start ? resettleSteps : o.settleSteps,
            window,
            o.start,
            lammpsProcs,
          );
          extra = "error" in lp
            ? ` (LAMMPS on ${lammpsProcs} processes failed)`
            : ` LAMMPS ${lammpsProcs} procs ${(lp.pps / 1e6).toFixed(2)} (x${
              (lp.pps / lpps).toFixed(2)
            }); Grainlab ${threadList[threadList.length - 1]} thr / LAMMPS ${lammpsProcs} procs ${
              (pps[pps.length - 1] / lp.pps).toFixed(2)
            }`;
        }
      }
    }
    console.log(cols.join(" ") + extra);
    const names = ["pairs", "walls+integration", "neighbours", "rest"];
    const lammpsNames = ["Pair", "Modify", "Neigh", "Comm+Output+Other"];
    console.log(
      "        stages, ns per particle-step: " +
        names.map((name, k) =>
          `${name} ${stages[k].toFixed(0)}` +
          (lStages.length > 0 ? ` (LAMMPS ${lammpsNames[k]} ${lStages[k].toFixed(0)})` : "")
        ).join(", "),
    );
  }
  if (withLammps && !lmp) {
    console.log("(LAMMPS not found: install Debian's `lammps` for the side-by-side run)");
  }
}
