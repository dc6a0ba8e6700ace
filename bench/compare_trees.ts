/**
 * Old code against new code on the settle bench, alternated in one run: for a refactor that
 * must not give speed back. Each round runs `bench/settle_bench.ts` (one thread, with LAMMPS
 * side by side, from the same settled beds) in the old worktree, then in the new one, and reads
 * each run's ratio Grainlab / LAMMPS per bed size; the host's drift hits both trees alike, and
 * the ratio to LAMMPS, measured in the same process, takes out what is left of it.
 *
 * Run: `deno run -A bench/compare_trees.ts --old ../old --new . [--sizes 5000,20000]
 * [--rounds 2] [--settled .bench-cache]` (make the old tree with
 * `git worktree add ../old <commit>`; `deno install` there).
 *
 * @module
 */

const args = Deno.args;
const arg = (name: string, dflt: string) => {
  const k = args.indexOf(name);
  return k >= 0 && k + 1 < args.length ? args[k + 1] : dflt;
};
const trees = { old: arg("--old", ""), new: arg("--new", ".") };
if (trees.old === "") {
  throw new TypeError("compare_trees: --old DIR (the old worktree) is required");
}
const sizes = arg("--sizes", "5000,20000");
const rounds = Number(arg("--rounds", "2"));
const settled = await Deno.realPath(arg("--settled", ".bench-cache"));

/** One settle-bench run in `dir`: the ratio Grainlab / LAMMPS per size. */
async function run(dir: string): Promise<Map<number, number>> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      "bench/settle_bench.ts",
      "--sizes",
      sizes,
      "--lammps",
      "--settled",
      settled,
      "--threads",
      "1",
      "--rounds",
      "3",
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "inherit",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  if (!out.success) throw new Error(`settle bench failed in ${dir}:\n${text}`);
  // the table's rows: N, …, then the ratio's median and range (e.g. "1.08  1.04–1.11")
  const ratios = new Map<number, number>();
  for (const line of text.split("\n")) {
    const m = line.match(/^\s*(\d{4,})\s.*\s(\d+\.\d\d)\s+(\d+\.\d\d)–(\d+\.\d\d)\s*$/);
    if (m) ratios.set(Number(m[1]), Number(m[2]));
  }
  if (ratios.size === 0) throw new Error(`no ratio found in the output of ${dir}:\n${text}`);
  return ratios;
}

const seen: Record<"old" | "new", Map<number, number[]>> = { old: new Map(), new: new Map() };
for (let r = 0; r < rounds; r++) {
  for (const which of ["old", "new"] as const) {
    const got = await run(trees[which]);
    for (const [n, x] of got) seen[which].set(n, [...(seen[which].get(n) ?? []), x]);
    console.log(`round ${r + 1} ${which}: ${[...got].map(([n, x]) => `${n}: ${x}`).join(", ")}`);
  }
}
// the mean of the rounds (a median of two rounds would be the larger one)
const mean = (a: number[]) => a.reduce((s, x) => s + x, 0) / a.length;
console.log("\n      N   old ratio   new ratio   new/old   (means of the rounds)");
for (const n of seen.old.keys()) {
  const o = mean(seen.old.get(n)!), w = mean(seen.new.get(n) ?? [NaN]);
  console.log(
    `${String(n).padStart(7)} ${o.toFixed(3).padStart(11)} ${w.toFixed(3).padStart(11)} ${
      (w / o).toFixed(3).padStart(9)
    }`,
  );
}
