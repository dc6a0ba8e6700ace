/**
 * The driven wheel's cost on the DEM against RFT (#28's "cost ratio DEM/RFT for the same
 * simulated time"), in one process on the same scene: `singleWheelTest`'s slip sweep (the ci
 * preset's six slips, or `--slip s` alone) on its settled DEM bed, then on ζ × Li et al.'s
 * generic RFT (the ground that meets the targets, with the calibrated pressure memory):
 * first five times the travel untimed (the warm-up: V8 compiles the ground's loop, and the
 * engine's WebAssembly tiers up from its baseline code over the first few thousand steps), then
 * `--passes` timed passes. Prints the DEM bed's grains and coordination number Z
 * (`SingleWheelResult.coordination`), the wall time per simulated second of each, and the ratio
 * against the warm passes' median and range. The ci scene by default (about two minutes);
 * `--fine` takes the full preset's grains (d = 5 mm) in the ci wheel's bed in metres (about
 * 12,000 grains) at one slip, 0.3 unless `--slip` says (about ten minutes).
 *
 * Run: `deno run -A bench/rft_cost_bench.ts [--fine] [--slip s] [--passes 3]`
 *
 * @module
 */
import { type SingleWheelOptions, singleWheelTest } from "../src/experiments/mod.ts";
import { RftTable } from "../src/sphere3d/mod.ts";
import { median } from "./median.ts";

const args = Deno.args;
const arg = (name: string, dflt: string) => {
  const k = args.indexOf(name);
  return k >= 0 && k + 1 < args.length ? args[k + 1] : dflt;
};
const fine = args.includes("--fine");
const slipArg = arg("--slip", fine ? "0.3" : ""), passes = Number(arg("--passes", "3"));
// no --slip: the preset's slips
const slips = slipArg === "" ? undefined : [Number(slipArg)];
if (slips !== undefined && !(slips[0] >= 0 && slips[0] <= 0.9)) {
  throw new RangeError(`rft cost bench: --slip (${slipArg}) must be in [0, 0.9]`);
}
if (!Number.isInteger(passes) || passes < 1) {
  throw new RangeError(`rft cost bench: --passes (${passes}) must be an integer ≥ 1`);
}
// the wheel's scene: ci, or the full preset's grains in the ci bed's size in metres
const scene: SingleWheelOptions = {
  ...(fine ? { scale: "full", speed: 0.05, travel: 0.1, bed: [20, 12] } : { scale: "ci" }),
  ...(slips === undefined ? {} : { slips }),
};
const d = fine ? 0.005 : 0.01;

const dem = await singleWheelTest({ ...scene, ground: "dem" });
const demCost = dem.wallSeconds / dem.simulatedSeconds;
const table = RftTable.fromFourier({ zeta: 0.482, grainDiameter: d, friction: 0.5 });
const memory = { length: 1.5696 * d, separation: 0.3155 * d };
const up = await singleWheelTest({
  ...scene,
  travel: 5 * (scene.travel ?? 0.1),
  ground: table,
  stressMemory: memory,
});
const cold = up.wallSeconds / up.simulatedSeconds, warm: number[] = [];
for (let k = 0; k < passes; k++) {
  const r = await singleWheelTest({ ...scene, ground: table, stressMemory: memory });
  warm.push(r.wallSeconds / r.simulatedSeconds);
}
const ratios = warm.map((x) => demCost / x);
console.log(
  `wheel at s = ${Array.from(dem.slips).join(", ")}, ${
    fine ? "the full preset's grains (d = 5 mm)" : "ci (d = 1 cm)"
  }; ` +
    `${dem.simulatedSeconds.toFixed(1)} s simulated each`,
);
console.log(
  `DEM: ${dem.grains} grains, Z = ${dem.coordination.toFixed(2)}, ${
    demCost.toFixed(2)
  } s per simulated second`,
);
console.log(
  `RFT (ζ × generic, memory): ${(cold * 1e3).toFixed(2)} ms per simulated second warming up, ` +
    `${(median(warm) * 1e3).toFixed(2)} warm (${(Math.min(...warm) * 1e3).toFixed(2)}–` +
    `${(Math.max(...warm) * 1e3).toFixed(2)})`,
);
console.log(
  `ratio DEM/RFT: ${median(ratios).toFixed(0)}× (${Math.min(...ratios).toFixed(0)}–` +
    `${Math.max(...ratios).toFixed(0)}× over the warm passes)`,
);
