/**
 * ipc1d benchmark: the impact run to t = 2 s (IPC, resolved path d̂ = Δx, κ = 0.1E,
 * trapezoidal Newmark, Courant 0.5) at N = 100, 400 and 800. Prints the median wall time of a
 * few repetitions, time steps per second, node-steps per second and Newton iterations per
 * step. Never fails on speed.
 *
 *     deno run -A bench/ipc1d_bench.ts
 *
 * @module
 */

import { simulateBar } from "../src/ipc1d/mod.ts";

const REPS = 5;
const median = (a: number[]): number => {
  const s = [...a].sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
};

// warm-up (JIT)
simulateBar({ problem: "impact", elements: 100 });

console.log("ipc1d impact to t = 2 s (IPC d̂ = Δx, κ = 0.1E, Newmark β = ¼ γ = ½, Courant 0.5)");
console.log(
  "| N | steps | median time (ms) | steps/s | node-steps/s | Newton/step | max Newton | L2_err_y0 |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const N of [100, 400, 800]) {
  const times: number[] = [];
  let run = simulateBar({ problem: "impact", elements: N });
  for (let r = 0; r < REPS; r++) {
    const t0 = performance.now();
    run = simulateBar({ problem: "impact", elements: N });
    times.push(performance.now() - t0);
  }
  const ms = median(times);
  const steps = run.time.length - 1;
  const maxIt = run.newtonIterations.reduce((a, b) => Math.max(a, b), 0);
  console.log(
    `| ${N} | ${steps} | ${ms.toFixed(1)} | ${(steps / (ms / 1000)).toFixed(0)} | ${
      ((steps * (N + 1)) / (ms / 1000)).toExponential(2)
    } | ${run.newtonPerStep.toFixed(2)} | ${maxIt} | ${
      run.metrics.l2ErrEndPosition.toExponential(2)
    } |`,
  );
}
