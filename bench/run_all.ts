/**
 * `deno task bench`: every benchmark in turn (sphere3d settle with the LAMMPS peer when
 * installed, the cost per particle-step against bed size in one process, the sphere3d pair loop
 * against clang's code when clang is installed, star2d collision handling, ipc1d bar runs, rigid
 * bodies in a settled bed, the driven wheel on the DEM against RFT). Each prints its own table; arguments (e.g. `--quick`) go to every
 * benchmark.
 *
 * @module
 */
const deno = Deno.execPath();
const benches: [string, string[]][] = [
  // the settled beds are kept in .bench-cache/ (both codes start from them: see the bench)
  ["bench/settle_bench.ts", ["--lammps", "--settled", ".bench-cache"]],
  // cost per particle-step at 100,000 against 5,000 grains, both beds in one process
  ["bench/cost_ratio_bench.ts", ["--settled", ".bench-cache"]],
  // the pair loop against clang's code of it, on the settled beds above (when clang is there)
  ["bench/native_pair_bench.ts", []],
  ["bench/star2d_bench.ts", []],
  ["bench/star2d_gpu_bench.ts", []],
  ["bench/ipc1d_bench.ts", []],
  ["bench/body_bench.ts", []],
  // the driven wheel on the DEM against RFT, the cost ratio (#28)
  ["bench/rft_cost_bench.ts", []],
];
let failed = 0;
for (const [file, args] of benches) {
  try {
    Deno.statSync(file);
  } catch {
    continue;
  }
  console.log(`\n### ${file}`);
  const st = await new Deno.Command(deno, {
    args: ["run", "--allow-all", file, ...args, ...Deno.args],
    stdout: "inherit",
    stderr: "inherit",
  }).spawn().status;
  if (!st.success) failed++;
}
Deno.exit(failed > 0 ? 1 : 0);
