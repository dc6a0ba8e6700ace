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
 * Each size also prints the device memory of its buffers (`gpuMemory`): bytes per binding and
 * per grain. With the default slots (16 history, 14 neighbour) every binding of a million
 * grains fits WebGPU's default 128 MiB (913 bytes per grain in all).
 *
 * On a software adapter (Mesa's lavapipe) only 10k grains and a few steps are run by default:
 * it checks that the path works, not how fast a GPU is. `--sizes=1000000 --warm=0 --steps=2`
 * shows that a million grains run there: on the project machine's 2 shared CPU cores 6.6–9.0 s
 * per step while the lattice falls, 47–54 s per step with `--spacing=1.7` (grains in contact
 * from the start, 2.3 contacts per grain, 54 million node tests per step).
 *
 * No GPU result yet: this benchmark has only been run on lavapipe (software Vulkan on the
 * CPU), the one adapter available where it was written. The figures to set beside the
 * paper's 7.5 ms per step for 1M grains (RTX 4080) need a run on a real GPU; until then the
 * docs/benchmarks.md has none.
 *
 * Run: deno run -A bench/star2d_gpu_bench.ts [--sizes=10000,100000,1000000] [--warm=N]
 * [--steps=N] [--sampling=sprite|lut] [--detection=symmetric|one-sided] [--spacing=2.02]
 * [--quick]
 * (`--name value` works as well as `--name=value`)
 */

import { StarShape } from "../src/star2d/mod.ts";
import { gpuAvailable, requestGpu, StarSystemGpu } from "../src/star2d/gpu/api.ts";
import { gpuMemory } from "../src/star2d/gpu/memory.ts";
import { Rng } from "../src/math/rng.ts";

function arg(name: string): string | undefined {
  const a = Deno.args.findIndex((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (a < 0) return undefined;
  const x = Deno.args[a];
  return x.includes("=") ? x.slice(name.length + 3) : Deno.args[a + 1];
}

const MiB = 2 ** 20;

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
if (gpu.software) {
  console.log(
    "NOTE: software adapter (Mesa lavapipe: Vulkan on the CPU cores); no real GPU was " +
      "available for this run, so there are no figures to compare with the paper's 7.5 ms / 1M",
  );
}
console.log(
  `packing of crosses (30 mm², 100 nodes), ${sampling} node tests, ${detection} detection; ` +
    `${warm} steps of falling, then ${steps} timed steps`,
);
console.log(
  "grains     ms/step   Mgrain-steps/s  contacts/grain  node tests/step  upload+compile s",
);
const cross = StarShape.preset("cross", { area: 30e-6 });
// lattice spacing in r_max: 2.02 leaves the grains apart; below 2 they start in contact
const R = cross.rMax, sp = Number(arg("spacing") ?? 2.02) * R;
const slots = { contactSlots: 16, neighborSlots: 14 };
for (const n of sizes) {
  const m = gpuMemory(n, slots);
  console.log(
    `           memory for ${n} grains (room for ${m.capacity}): ${
      (m.totalBytes / MiB).toFixed(0)
    } MiB, ${m.bytesPerGrain.toFixed(0)} B/grain; largest binding ${
      (m.largestBinding / MiB).toFixed(1)
    } MiB (this adapter binds ${
      (gpu.device.limits.maxStorageBufferBindingSize / MiB).toFixed(0)
    } MiB)`,
  );
  console.log(
    "           " +
      m.buffers.map((b) =>
        `${b.name} ${(b.bytes / MiB).toFixed(1)} MiB${b.copies > 1 ? ` ×${b.copies}` : ""}`
      ).join(", "),
  );
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
    ...slots,
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
      ? "; this adapter is software (lavapipe): the figures above are not comparable, and " +
        "no real GPU was available to produce comparable ones"
      : ""),
);
gpu.device.destroy();
