/**
 * Cost per particle-step against bed size, in one process: the settle bench's settled beds
 * (`bench/settle_bench.ts`, the same scene and material, at rest; loaded from `--settled DIR`,
 * default `.bench-cache`, or settled here and kept there) stepped on one thread in alternating windows
 * of `--steps` steps (default 600), `--rounds` rounds (default 7, the order flipped every round),
 * so that a drift of the host's speed hits every size alike — unlike the settle bench, whose sizes
 * run minutes apart. Prints each round's ns per particle-step and the median ratio of the largest
 * size to the smallest, with its range, beside the coordination number Z of each bed (#11's target:
 * at most 1.3 between 100,000 and 5,000 grains).
 *
 * Run: `deno run -A bench/cost_ratio_bench.ts [--sizes 5000,100000] [--rounds 7] [--steps 600] [--settled .bench-cache]`
 *
 * @module
 */
import { build, restAgain, settleBed, settledFile } from "./settle_bench.ts";
import { median } from "./median.ts";

const args = Deno.args;
const arg = (name: string, dflt: string) => {
  const k = args.indexOf(name);
  return k >= 0 && k + 1 < args.length ? args[k + 1] : dflt;
};
const sizes = arg("--sizes", "5000,100000").split(",").map(Number);
const rounds = Number(arg("--rounds", "7")), steps = Number(arg("--steps", "600"));
const dir = arg("--settled", ".bench-cache");
for (const [name, v, min] of [["--rounds", rounds, 1], ["--steps", steps, 1]] as const) {
  if (!Number.isInteger(v) || v < min) {
    throw new RangeError(`cost ratio bench: ${name} (${v}) must be an integer ≥ ${min}`);
  }
}
if (sizes.length < 2 || sizes.some((n) => !Number.isInteger(n) || n < 1)) {
  throw new RangeError(`cost ratio bench: --sizes (${sizes}) must list two or more grain counts`);
}

/**
 * A settled bed of n grains, one thread, brought back to rest after the load (its springs
 * rebuilt: `restAgain`).
 */
function settled(n: number) {
  const { world, g } = build(n);
  const file = settledFile(n, dir);
  try {
    g.loadGranularState(file);
  } catch {
    settleBed(world, g, n);
    Deno.mkdirSync(dir, { recursive: true });
    g.saveGranularState(file, { includeContactHistories: false });
    g.loadGranularState(file);
  }
  // without its springs the bed slips and moves again: on until it is at rest (on both cores:
  // the bytes are the same for any thread count), then timed on one thread
  g.threads = 2;
  const rest = restAgain(world, g, 1000);
  g.threads = 1;
  world.run(300);
  return { world, g, n, rest };
}

if (import.meta.main) {
  const beds = sizes.map(settled);
  const ns: number[][] = beds.map(() => []), ratios: number[] = [];
  for (let r = 0; r < rounds; r++) {
    const order = r % 2 === 0 ? beds : [...beds].reverse();
    for (const b of order) {
      b.world.run(10);
      const t0 = performance.now();
      b.world.run(steps);
      ns[beds.indexOf(b)].push(((performance.now() - t0) * 1e6) / (steps * b.n));
    }
    ratios.push(ns[ns.length - 1][r] / ns[0][r]);
    console.log(
      `round ${r + 1}: ` +
        beds.map((b, k) => `${b.n} grains ${ns[k][r].toFixed(1)}`).join(", ") +
        ` ns per particle-step; ratio ${ratios[r].toFixed(3)}`,
    );
  }
  const z = beds.map((b) => ((2 * b.g.lastStepStats.particleContacts) / b.n).toFixed(2));
  const v = beds.map((b) => b.g.lastStepStats.maxSpeed.toFixed(3));
  const rest = beds.map((b) => (b.rest * b.world.timeStep).toFixed(2));
  console.log(
    `cost per particle-step, ${sizes[sizes.length - 1]} / ${sizes[0]} grains, one thread: ` +
      `median ${median(ratios).toFixed(2)} (${Math.min(...ratios).toFixed(2)}–` +
      `${Math.max(...ratios).toFixed(2)}); medians ${
        beds.map((b, k) => `${b.n}: ${median(ns[k]).toFixed(1)} ns`).join(", ")
      }; Z ${z.join(" / ")}; at rest again after ${rest.join(" / ")} s, fastest grain at the ` +
      `end ${v.join(" / ")} m/s`,
  );
  for (const b of beds) b.world.close();
}
