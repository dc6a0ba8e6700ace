/**
 * The "settle" benchmark: spheres r = 0.02 m, density 1600, kn = 1e5 N/m, kt = 2/7·kn,
 * μ = 0.5, Δt = 5e-5 s, on a regular grid of spacing 0.043 m in a 1.2 × 0.8 m container.
 * For each N the bed is settled first (until the fastest grain is below 0.05 m/s, at most
 * 0.6 s simulated), then a fixed number of steps is timed. Prints particle-steps per second.
 * When LAMMPS (`lmp`) is installed and `--lammps` is given, the same scene runs there too.
 *
 * Run: `deno task bench` or `deno run -A bench/settle_bench.ts [--sizes 5000,20000] [--lammps]`
 *
 * @module
 */
import { World } from "../src/sphere3d/mod.ts";

const args = Deno.args;
const arg = (name: string, dflt: string) => {
  const k = args.indexOf(name);
  return k >= 0 && k + 1 < args.length ? args[k + 1] : dflt;
};
const sizes = arg("--sizes", "5000,20000,100000").split(",").map(Number);
const timedSteps = Number(arg("--steps", "400"));
const withLammps = args.includes("--lammps");

/** The scene, shared with the LAMMPS input below. */
export const SCENE = {
  radius: 0.02,
  density: 1600,
  kn: 1e5,
  kt: (2 / 7) * 1e5,
  cn: 20,
  friction: 0.5,
  dt: 5e-5,
  spacing: 0.043,
  box: [1.2, 0.8] as const,
};

function heightFor(n: number): number {
  const perLayer = Math.floor((SCENE.box[0] - 2 * SCENE.radius) / SCENE.spacing + 1e-9 + 1) *
    Math.floor((SCENE.box[1] - 2 * SCENE.radius) / SCENE.spacing + 1e-9 + 1);
  return Math.ceil(n / perLayer) * SCENE.spacing + 2 * SCENE.radius;
}

function build(n: number) {
  const world = new World({ timeStep: SCENE.dt, gravity: [0, 0, -9.81] });
  const [bx, by] = SCENE.box;
  const h = heightFor(n);
  const g = world.addGranularBox(
    {
      min: [-bx / 2, -by / 2, 0],
      max: [bx / 2, by / 2, h],
      radius: SCENE.radius,
      spacing: SCENE.spacing,
      maxParticles: n,
    },
    {
      density: SCENE.density,
      normalStiffness: SCENE.kn,
      tangentialStiffness: SCENE.kt,
      normalDamping: SCENE.cn,
      friction: SCENE.friction,
    },
  );
  g.setContainerBox([-bx / 2, -by / 2, 0], [bx / 2, by / 2, h + 1]);
  return { world, g };
}

interface Row {
  n: number;
  settleSteps: number;
  settleSecs: number;
  steps: number;
  secs: number;
  pps: number;
  contacts: number;
  maxPen: number;
}

function runOurs(n: number): Row {
  const { world, g } = build(n);
  const t0 = performance.now();
  let settle = 0;
  const maxSettle = Math.round(0.6 / SCENE.dt);
  while (settle < maxSettle) {
    world.run(200);
    settle += 200;
    if (g.lastStepStats.maxSpeed < 0.05) break;
  }
  const settleSecs = (performance.now() - t0) / 1000;
  const reps: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t1 = performance.now();
    world.run(timedSteps / 2);
    reps.push((performance.now() - t1) / 1000);
  }
  reps.sort((a, b) => a - b);
  const secs = reps[1];
  const st = g.lastStepStats;
  return {
    n: g.count,
    settleSteps: settle,
    settleSecs,
    steps: timedSteps / 2,
    secs,
    pps: ((timedSteps / 2) * g.count) / secs,
    contacts: st.particleContacts + st.boundaryContacts,
    maxPen: st.maxPenetration,
  };
}

function lammpsData(positions: Float64Array, h: number): string {
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
  return lines.join("\n") + "\n";
}

function lammpsInput(settleSteps: number, steps: number): string {
  const [bx, by] = SCENE.box;
  const r = SCENE.radius, m = SCENE.density * (4 / 3) * Math.PI * r ** 3;
  const gammaN = SCENE.cn / (m / 2); // LAMMPS damps with m_eff·γn
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
thermo 1000
run ${settleSteps}
run ${steps}
`;
}

async function runLammps(n: number, settleSteps: number, steps: number) {
  const dir = await Deno.makeTempDir({ prefix: "grainlab_lmp_" });
  const { g } = build(n);
  await Deno.writeTextFile(`${dir}/data.settle`, lammpsData(g.positions, heightFor(n)));
  await Deno.writeTextFile(`${dir}/in.settle`, lammpsInput(settleSteps, steps));
  const out = await new Deno.Command("lmp", {
    args: ["-in", "in.settle", "-log", "none"],
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
  // LAMMPS reports the pair time among other stages; keep the total loop time.
  return { secs, pps: (st * atoms) / secs, atoms };
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
    `settle benchmark (one thread): r = 0.02 m, kn = 1e5 N/m, kt = 2/7 kn, μ = 0.5, Δt = 5e-5 s`,
  );
  console.log(
    `${"N".padStart(7)} ${"settle steps".padStart(12)} ${"timed steps".padStart(11)} ${
      "Mpart-steps/s".padStart(14)
    } ${"ns/part-step".padStart(13)} ${"contacts".padStart(9)} ${"max pen (mm)".padStart(12)}${
      withLammps ? "   LAMMPS Mpart-steps/s" : ""
    }`,
  );
  const lmp = withLammps && hasLammps();
  for (const n of sizes) {
    const r = runOurs(n);
    let peer = "";
    if (lmp) {
      const l = await runLammps(n, r.settleSteps, r.steps);
      peer = "error" in l
        ? `   LAMMPS failed: ${l.error}`
        : `   ${(l.pps / 1e6).toFixed(2).padStart(8)} (${l.atoms} atoms)`;
    }
    console.log(
      `${String(r.n).padStart(7)} ${String(r.settleSteps).padStart(12)} ${
        String(r.steps).padStart(11)
      } ${(r.pps / 1e6).toFixed(2).padStart(14)} ${(1e9 / r.pps).toFixed(0).padStart(13)} ${
        String(r.contacts).padStart(9)
      } ${(r.maxPen * 1e3).toFixed(3).padStart(12)}${peer}`,
    );
  }
  if (withLammps && !lmp) {
    console.log("(LAMMPS not found: install Debian's `lammps` for the side-by-side run)");
  }
}
