/**
 * Regenerates the cached DEM calibration of RFT that the terradynamics notebook, example and
 * tests read: `calibrateRft({ scale: "full" })` (a 13 × 13 grid of β, γ at 15° steps: 156 plate
 * runs and the quasi-static check on one settled bed), written as
 * `tests/fixtures/rft_dem.arrow` (the measured table, `rftTableToArrow`) and
 * `tests/fixtures/rft_dem_calibration.json` (the samples with their R² and inertial numbers,
 * ζ, the Fourier fit, the quasi-static check, the bed, the machine and the wall time).
 * `tests/terra_fixture_test.ts` re-runs some pairs on a fresh bed and checks that they equal the
 * cached ones, so a change of the calibration makes that test fail until this script is run.
 *
 * Usage: `deno run -A scripts/gen_rft_fixture.ts` (about a quarter of an hour on one core).
 *
 * @module
 */
import { calibrateRft } from "../src/experiments/mod.ts";
import { machineName, writeFixtureJson } from "./fixture_json.ts";
import { rftTableToArrow, writeArrow } from "../src/arrow/mod.ts";

const OUT = new URL("../tests/fixtures/", import.meta.url).pathname;
const t0 = performance.now();
const c = await calibrateRft({
  scale: "full",
  onPair: (k, n) => {
    const s = ((performance.now() - t0) / 1000).toFixed(0);
    console.error(`gen_rft_fixture: run ${k}/${n} (${s} s)`);
  },
});
const wall = (performance.now() - t0) / 1000;
await writeArrow(`${OUT}rft_dem.arrow`, rftTableToArrow(c.table));
const arr = (a: Float64Array) => Array.from(a);
const json = {
  note: "written by scripts/gen_rft_fixture.ts; do not edit",
  scale: c.scale,
  grains: c.grains,
  volumeFraction: c.volumeFraction,
  zeta: c.zeta,
  samples: Object.fromEntries(Object.entries(c.samples).map(([k, v]) => [k, arr(v)])),
  fit: c.fit === null ? null : {
    coefficients: c.fit.coefficients,
    zeta: c.fit.zeta,
    r2: c.fit.r2,
    zetaR2: c.fit.zetaR2,
  },
  quasiStatic: c.quasiStatic,
  wallSeconds: wall,
  machine: machineName(),
};
const path = `${OUT}rft_dem_calibration.json`;
writeFixtureJson(path, json);
console.error(`gen_rft_fixture: done in ${wall.toFixed(0)} s, ζ = ${c.zeta.toFixed(3)}`);
