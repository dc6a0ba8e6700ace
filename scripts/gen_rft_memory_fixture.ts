/**
 * Regenerates the cached DEM calibration of the RFT ground's pressure memory that the
 * terradynamics notebook, example and tests read: `calibrateRftMemory({ scale: "ci" })` (a plate
 * pushed and slid at two approaches and pushed and raised once, on the same grains as the cached
 * RFT table), written as `tests/fixtures/rft_dem_memory.json` (the two lengths, each run's fit,
 * the bed, the machine and the wall time; the runs' series are left out).
 * `tests/experiments_rft_memory_test.ts` re-runs the calibration and checks that it equals the
 * cached one, so a change of the calibration makes that test fail until this script is run.
 *
 * Usage: `deno run -A scripts/gen_rft_memory_fixture.ts` (about a quarter of a minute).
 *
 * @module
 */
import { calibrateRftMemory } from "../src/experiments/mod.ts";
import { machineName, writeFixtureJson } from "./fixture_json.ts";

const OUT = new URL("../tests/fixtures/", import.meta.url).pathname;
const t0 = performance.now();
const c = await calibrateRftMemory({ scale: "ci" });
const wall = (performance.now() - t0) / 1000;
const json = {
  note: "written by scripts/gen_rft_memory_fixture.ts; do not edit",
  scale: c.scale,
  grains: c.grains,
  memory: c.memory,
  slides: c.slides.map(({ x: _x, p: _p, ...fit }) => fit),
  rise: { effectiveLength: c.rise.effectiveLength, p0: c.rise.p0, r2: c.rise.r2 },
  medium: c.medium,
  wallSeconds: wall,
  machine: machineName(),
};
const path = `${OUT}rft_dem_memory.json`;
writeFixtureJson(path, json);
const d = c.medium.grainDiameter;
console.error(
  `gen_rft_memory_fixture: done in ${wall.toFixed(0)} s: length ${(c.length / d).toFixed(3)} d, ` +
    `separation ${(c.separation / d).toFixed(3)} d`,
);
