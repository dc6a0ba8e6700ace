/**
 * star2d GPU benchmark: milliseconds per full step of `StarSystemGpu` (grid, neighbours,
 * detection, contact law, integration — everything but readback) on a packing of crosses, the
 * paper's packing scene scaled up (crosses of 30 mm², 100 nodes, μ = 0.5, kn = 1e3 N/m,
 * Δt = 1e-4 s), at 10k, 100k and 1M grains — the StarDEM paper reports 7.5 ms per step for one
 * million concave grains on an RTX 4080. Printed with the adapter's name.
 *
 * The grains start on a compact staggered lattice (spacing 2.02·r_max, the aspect of the paper's
 * 38 × 83 layout) in a box and fall for `--warm` steps, so that the timed steps run on a bed
 * that is forming (contacts per grain are printed); then `--steps` steps are timed with the
 * wall clock around `run()`, which ends with one small statistics readback.
 *
 * On a software adapter (Mesa's lavapipe) only 10k grains and a few steps are run by default:
 * it checks that the path works, not how fast a GPU is.
 *
 * Run: deno run -A bench/star2d_gpu_bench.ts [--sizes=10000,100000,1000000] [--warm=N]
 * [--steps=N] [--sampling=sprite|lut] [--detection=symmetric|one-sided] [--quick]
 */

import { gpuAvailable, requestGpu, StarShape, StarSystemGpu } from "../src/star2d/mod.ts";
import { Rng } from "../src/math/rng.ts";

function arg(name: string): string | undefined {
  const a = Deno.args.find((x) => x.startsWith(`--${name}=`));
  return a?.slice(name.length + 3);
}

if (!(await gpuAvailable())) {
  console.log(
    "star2d GPU bench: no WebGPU adapter (navigator.gpu.requestAdapter() returned null); " +
      "install a GPU driver or Mesa's software Vulkan (apt-get install mesa-vulkan-drivers)",
  );
  Deno.exit(0);
}
const gpu = await requestGpu();
const quick = Deno.args.includes("--quick") || gpu.software;
const sizes = (arg("sizes") ?? (quick ? "10000" : "10000,100000,1000000")).split(",").map(Number);
const warm = Number(arg("warm") ?? (quick ? 250 : 2000));
const steps = Number(arg("steps") ?? (quick ? 20 : 500));
const sampling = (arg("sampling") ?? "sprite") as "sprite" | "lut";
const detection = (arg("detection") ?? "symmetric") as "symmetric" | "one-sided";

console.log(`star2d GPU bench on ${gpu.name}`);
console.log(
  `packing of crosses (30 mm², 100 nodes), ${sampling} node tests, ${detection} detection; ` +
    `${warm} steps of falling, then ${steps} timed steps`,
);
console.log(
  "grains     ms/step   Mgrain-steps/s  contacts/grain  node tests/step  upload+compile s",
);
const cross = StarShape.preset("cross", { area: 30e-6 });
const R = cross.rMax, sp = 2.02 * R;
for (const n of sizes) {
  const cols = Math.max(2, Math.round(38 * Math.sqrt(n / 3154)));
  const rng = new Rng(1);
  const pos = new Float64Array(2 * n), ang = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const row = Math.floor(k / cols), col = k % cols;
    pos[2 * k] = 0.02 + 1.05 * R + col * sp + (row % 2) * 0.5 * sp;
    pos[2 * k + 1] = 0.01 + 1.05 * R + row * sp * 0.9;
    ang[k] = rng.uniform(0, 2 * Math.PI);
  }
  const width = (cols + 0.5) * sp + 2.1 * R;
  const t0 = performance.now();
  const sys = await StarSystemGpu.create({
    gpu,
    sampling,
    detection,
    friction: 0.5,
    rotationalDamping: 1e-8,
    batchSize: 50,
  });
  try {
    sys.addGrains({ shape: cross, positions: pos, angles: ang });
    sys.walls.addBox({ min: [0.02, 0.01], max: [0.02 + width, 1e3], friction: 0.5 });
    await sys.run(1);
    const setup = (performance.now() - t0) / 1000;
    await sys.run(warm);
    const t1 = performance.now();
    await sys.run(steps);
    const ms = (performance.now() - t1) / steps;
    const s = sys.lastStepStats;
    console.log(
      `${String(n).padEnd(10)} ${ms.toFixed(2).padStart(8)} ${
        (n / ms / 1e3).toFixed(2).padStart(15)
      } ${((2 * s.particleContacts + s.boundaryContacts) / n).toFixed(2).padStart(15)} ${
        String(s.nodeTests).padStart(16)
      } ${setup.toFixed(1).padStart(17)}`,
    );
  } catch (e) {
    console.log(`${String(n).padEnd(10)} failed: ${(e as Error).message}`);
  } finally {
    sys.destroy();
  }
}
console.log(
  "paper (StarDEM, RTX 4080): 1,000,000 concave grains, 7.5 ms per full step" +
    (gpu.software
      ? "; this adapter is software (lavapipe): the figures above are not comparable"
      : ""),
);
gpu.device.destroy();
