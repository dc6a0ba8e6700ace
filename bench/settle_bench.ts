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
 * free-fall time of the top layer, then on in steps of 0.05 s until the fastest grain is slower
 * than 0.05 m/s — the deep beds are still compacting at the fall time plus 0.3 s, which makes
 * them rebuild their neighbour lists three to four times as often — at most 5 s more), then
 * time windows of the same length (1.5 × `--steps`
 * steps) on the settled state. The timing runs in `--rounds` rounds (default 3): one LAMMPS
 * window, then one Grainlab window per thread count of `--threads` (default 1,2; the bytes
 * are the same for any count), in turn, so that the host's speed drifting during the run hits
 * both codes alike. Each thread count steps its own copy of the bed (state and springs copied
 * before the rounds, 300 steps of warm-up), so its workers start once, as a user's do; a window
 * follows 10 untimed steps. Prints each code's median window in particle-steps per second, ns per
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
 * `DIR/settled_<N>.ckpt` (positions, velocities and spins, no springs), or loads it when it is
 * there; then **both** codes start from that settled state (LAMMPS reads its positions,
 * velocities and spins from the data file, and neither code has springs at the start). Without
 * its springs the bed slips and moves again, so Grainlab runs `--resettle` untimed steps
 * (default 1,000 = 0.05 s) and then on in 1,000-step runs until it is at rest again (as above; at
 * most 3 s); LAMMPS takes the same number of untimed steps from the same state once and writes a
 * restart file (springs included), from which each of its windows starts (10 untimed steps,
 * then the window). The fastest grain's speed at the end of a window is shown for both codes.
 * This spares LAMMPS the long settling run at 100,000 grains and lets the settling run at a
 * different time from the timed one, which needs a quiet machine. Grainlab's windows follow each
 * other on its running bed (a bed at rest costs the same from window to window).
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

/** A bed is at rest when its fastest grain is slower than this (m/s; #11's criterion). */
export const REST_SPEED = 0.05;

/**
 * Run `min` steps, then (with `--settle auto`) on in 1,000-step (0.05 s) runs until the fastest
 * grain is slower than {@link REST_SPEED} or `max` steps are taken. Returns the steps taken.
 */
function runUntilRest(
  world: World,
  g: ReturnType<typeof build>["g"],
  min: number,
  max: number,
): number {
  world.run(min);
  let steps = min;
  while (settleArg === "auto" && g.lastStepStats.maxSpeed >= REST_SPEED && steps < max) {
    world.run(1000);
    steps += 1000;
  }
  return steps;
}

/**
 * Settle a freshly built bed of n grains: {@link settleTimeFor}, then (with `--settle auto`)
 * on in 0.05 s runs until the fastest grain is slower than {@link REST_SPEED}, at most 5 s
 * more. Returns the steps taken.
 */
export function settleBed(
  world: World,
  g: ReturnType<typeof build>["g"],
  n: number,
): number {
  const steps = Math.round(settleTimeFor(n) / SCENE.dt);
  return runUntilRest(world, g, steps, steps + 100000);
}

/**
 * Bring a bed loaded without its springs back to rest: `min` steps, then (with `--settle auto`)
 * on in 1,000-step runs until the fastest grain is slower than {@link REST_SPEED}, at most
 * 60,000 steps (3 s) in all. Returns the steps taken.
 */
export function restAgain(
  world: World,
  g: ReturnType<typeof build>["g"],
  min: number,
): number {
  return runUntilRest(world, g, min, 60000);
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

/** The settled bed of n grains kept in `dir` (at rest: see {@link settleBed}). */
export function settledFile(n: number, dir: string = settledDir): string {
  return `${dir}/settled_${n}.ckpt`;
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
  /** Untimed steps from the settled state to the timed windows (with `--settled`). */
  resettle: number;
  /** The settled state both codes start from (with `--settled`). */
  start?: Float64Array[];
  /**
   * One more bed per thread count of `--threads`, each a copy of this one (its state and
   * springs) whose workers start once, as a user's do (see {@link timeWindow}).
   */
  copies: Map<number, { world: World; g: ReturnType<typeof build>["g"] }>;
}

function startOurs(n: number): Ours {
  const { world, g } = build(n);
  const t0 = performance.now();
  // the settling run uses every thread offered: the bytes are the same for any count
  g.threads = Math.max(...threadList);
  let start: Float64Array[] | undefined;
  if (settledDir !== "" && exists(settledFile(n))) {
    g.loadGranularState(settledFile(n));
  } else {
    settleBed(world, g, n);
    if (settledDir !== "") {
      Deno.mkdirSync(settledDir, { recursive: true });
      g.saveGranularState(settledFile(n), { includeContactHistories: false });
      g.loadGranularState(settledFile(n)); // the springs go, as in LAMMPS's start
    }
  }
  const settleSecs = (performance.now() - t0) / 1000, settle = g.stepCount;
  let resettle = 0;
  if (settledDir !== "") {
    // without its springs the bed slips and moves again (at 20,000 grains for some 0.45 s):
    // on until it is at rest again, at most 3 s
    start = [g.positions.slice(), g.velocities.slice(), g.angularVelocities.slice()];
    resettle = restAgain(world, g, resettleSteps);
  }
  // a copy of the bed (springs included) for each thread count, warmed up: the same bytes
  const copies = new Map<number, { world: World; g: ReturnType<typeof build>["g"] }>();
  const file = Deno.makeTempFileSync({ suffix: ".ckpt" });
  g.saveGranularState(file);
  for (const t of threadList) {
    const c = build(n);
    c.g.loadGranularState(file);
    c.g.threads = t;
    c.world.run(300);
    copies.set(t, c);
  }
  Deno.removeSync(file);
  return { world, g, settleSteps: settle, settleSecs, resettle, start, copies };
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

/** Seconds of one timed window of `steps` steps on the copy of the bed with `threads` threads (after 10 untimed). */
function timeWindow(o: Ours, threads: number, steps: number): number {
  // each thread count steps its own copy of the bed, whose workers started once and are warm
  // (setting the thread count of one bed every round started new workers each time, and their
  // warm-up leaked into the windows: at 20,000 grains 1.57–1.59 × against 1.74 × for workers
  // started once)
  const c = o.copies.get(threads)!;
  c.world.run(10);
  const t1 = performance.now();
  c.world.run(steps);
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

/** LAMMPS's contact law, walls, integration and output: after `read_data` or `read_restart`. */
function lammpsModel(thermoEvery: number): string {
  const [bx, by] = SCENE.box;
  const r = SCENE.radius, gammaN = SCENE.gammaN;
  // LAMMPS damps with m_eff·γn: m/2 between two grains, m against a wall.
  const wall = `hooke/history ${SCENE.kn} ${SCENE.kt} ${
    gammaN / 2
  } 0 ${SCENE.friction} 0 limit_damping`;
  return `neighbor ${0.1 * r} bin
neigh_modify delay 0 every 1 check yes
comm_modify vel yes
timestep ${SCENE.dt}
fix grav all gravity 9.81 vector 0 0 -1
fix integ all nve/sphere
fix zlo all wall/gran ${wall} zplane 0 NULL
fix xw all wall/gran ${wall} xplane ${-bx / 2} ${bx / 2}
fix yw all wall/gran ${wall} yplane ${-by / 2} ${by / 2}
compute cn all contact/atom
compute z all reduce ave c_cn
variable speed atom sqrt(vx*vx+vy*vy+vz*vz)
compute vmax all reduce max v_speed
thermo_style custom step c_z c_vmax
thermo ${thermoEvery}
`;
}

/**
 * A LAMMPS input: from the data file, `untimed` steps then `steps` timed ones (`run`); or
 * the untimed steps and then a restart file instead of the timed run (`rest`); or from that
 * restart file (springs included: `fix neigh/history` and the walls keep theirs) 10
 * untimed steps and the timed ones (`resume`).
 */
function lammpsInput(untimed: number, steps: number, mode: "run" | "rest" | "resume"): string {
  const pair =
    `pair_style gran/hooke/history ${SCENE.kn} ${SCENE.kt} ${SCENE.gammaN} 0 ${SCENE.friction} 0 limit_damping
pair_coeff * *
`;
  const head = mode === "resume" ? "read_restart rest.restart\n" : `units si
atom_style sphere
atom_modify map array
boundary f f f
newton off
read_data data.settle
${pair}`;
  const tail = mode === "rest"
    ? `run ${untimed}\nwrite_restart rest.restart\n`
    : `run ${mode === "resume" ? 10 : untimed}\nrun ${steps}\n`;
  return head + lammpsModel(steps) + tail;
}

/** A folder holding the bed's data file (the start state) for LAMMPS runs. */
async function lammpsFolder(n: number, start?: Float64Array[]): Promise<string> {
  const dir = await Deno.makeTempDir({ prefix: "grainlab_lmp_" });
  const data = start
    ? lammpsData(start[0], heightFor(n), start[1], start[2])
    : lammpsData(build(n).g.positions, heightFor(n));
  await Deno.writeTextFile(`${dir}/data.settle`, data);
  return dir;
}

/** Run LAMMPS on `input` in `dir` (`procs` MPI processes); its standard output, or an error. */
async function lammps(
  dir: string,
  input: string,
  procs: number,
): Promise<{ text: string } | { error: string }> {
  await Deno.writeTextFile(`${dir}/in.settle`, input);
  const lmp = ["lmp", "-in", "in.settle", "-log", "none"];
  const cmd = procs > 1 ? ["mpirun", "--allow-run-as-root", "-np", String(procs), ...lmp] : lmp;
  const out = await new Deno.Command(cmd[0], {
    args: cmd.slice(1),
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  return out.success
    ? { text }
    : { error: new TextDecoder().decode(out.stderr).slice(-400) + text.slice(-400) };
}

/** The last thermo line of a LAMMPS output: step, mean contacts per atom, fastest speed. */
function lastThermo(text: string): { z: number; vmax: number } {
  const thermo = [...text.matchAll(/^\s*(\d+)\s+([\d.e+-]+)\s+([\d.e+-]+)\s*$/gm)];
  const t = thermo[thermo.length - 1];
  return t ? { z: Number(t[2]), vmax: Number(t[3]) } : { z: NaN, vmax: NaN };
}

/**
 * Bring LAMMPS's copy of the bed to where Grainlab's is: `untimed` steps from the start state
 * in `dir`, written to `dir/rest.restart` (one process, untimed). Returns LAMMPS's output or
 * an error.
 */
function lammpsRest(dir: string, untimed: number): Promise<{ text: string } | { error: string }> {
  return lammps(dir, lammpsInput(untimed, untimed, "rest"), 1);
}

/**
 * One timed LAMMPS window of `steps` steps: from `dir/rest.restart` (after {@link lammpsRest};
 * `untimed` is then unused) or, when `fromData`, from the data file after `untimed` steps.
 */
async function runLammps(
  dir: string,
  untimed: number,
  steps: number,
  fromData: boolean,
  procs = 1,
) {
  const r = await lammps(dir, lammpsInput(untimed, steps, fromData ? "run" : "resume"), procs);
  if ("error" in r) return r;
  const text = r.text;
  const loops = [
    ...text.matchAll(/Loop time of ([\d.e+-]+) on \d+ procs for (\d+) steps with (\d+) atoms/g),
  ];
  if (loops.length < 2) return { error: text.slice(-800) };
  const last = loops[loops.length - 1];
  const secs = Number(last[1]), st = Number(last[2]), atoms = Number(last[3]);
  const { z, vmax } = lastThermo(text);
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
  return { secs, pps: (st * atoms) / secs, atoms, z, vmax, stages };
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
        settleArg === "auto"
          ? `0.3 s + the fall time of the top layer, then on until every grain is slower ` +
            `than ${REST_SPEED} m/s`
          : settleArg + " s"
      }` +
      `, then windows of ${3 * (timedSteps / 2)} timed steps: ${rounds} rounds of one LAMMPS ` +
      `window (one process) and one Grainlab window per thread count, in turn; medians shown`,
  );
  if (settledDir !== "") {
    console.log(
      `both codes start from Grainlab's settled bed (${settledDir}/settled_<N>.ckpt: positions, ` +
        `velocities, spins, no springs) and take the same untimed steps ("rest s": at least ` +
        `${resettleSteps}, until Grainlab's bed is at rest again) before timing; each LAMMPS ` +
        `window restarts from a restart file written after those steps`,
    );
  }
  const lmp = withLammps && hasLammps();
  const head = [
    "N".padStart(7),
    "settle s".padStart(8),
    "rest s".padStart(6),
    ...threadList.map((t) => `${t} thr Mps/s`.padStart(12)),
    "ns/ps(1)".padStart(9),
    ...(threadList.length > 1 ? [`x${threadList[threadList.length - 1]}/1`.padStart(7)] : []),
    "Z".padStart(5),
    "max v".padStart(6),
    ...(lmp
      ? [
        "LAMMPS Mps/s".padStart(12),
        "Z".padStart(5),
        "max v".padStart(6),
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
    const dir = lmp ? await lammpsFolder(n, o.start) : "";
    const untimed = o.start ? o.resettle : o.settleSteps;
    if (lmp && o.start) {
      // LAMMPS takes the same untimed steps from the same state once, into a restart file
      // (springs included) that each of its windows starts from
      const rest = await lammpsRest(dir, untimed);
      if ("error" in rest) lRuns.push(rest);
    }
    for (let r = 0; r < Math.max(rounds, lRounds); r++) {
      if (r < lRounds && lRuns.every((l) => !("error" in l))) {
        lRuns.push(await runLammps(dir, untimed, window, !o.start));
      }
      threadList.forEach((t, k) => gSecs[k].push(timeWindow(o, t, window)));
    }
    const stages = profileWindow(o, window);
    const count = o.g.count, st = o.copies.get(threadList[0])!.g.lastStepStats;
    const pps = gSecs.map((x) => (window * count) / median(x));
    o.world.close();
    for (const c of o.copies.values()) c.world.close();
    let extra = "", lStages: number[] = [];
    const cols = [
      String(count).padStart(7),
      (o.settleSteps * SCENE.dt).toFixed(2).padStart(8),
      (o.resettle * SCENE.dt).toFixed(2).padStart(6),
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
          vmax: number;
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
          ok[ok.length - 1].vmax.toFixed(3).padStart(6),
          median(ratios).toFixed(2).padStart(8),
          `${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)}`.padStart(10),
        );
        if (lammpsProcs > 1) {
          const lp = await runLammps(dir, untimed, window, !o.start, lammpsProcs);
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
    if (dir !== "") await Deno.remove(dir, { recursive: true });
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
