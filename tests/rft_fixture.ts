/**
 * The cached DEM calibration of RFT that the ci-size terradynamics tests share
 * (`tests/fixtures/rft_dem.arrow` and `rft_dem_calibration.json`, written by
 * `scripts/gen_rft_fixture.ts`; `tests/terra_fixture_test.ts` checks them against a fresh
 * calibration).
 *
 * @module
 */
import { readArrow, rftTableFromArrow } from "../src/arrow/mod.ts";
import { RftTable } from "../src/sphere3d/mod.ts";

const DIR = new URL("./fixtures/", import.meta.url).pathname;

/** The measured 13 × 13 table, with the medium in its metadata. */
export async function cachedRftTable(): Promise<RftTable> {
  return new RftTable(rftTableFromArrow(await readArrow(`${DIR}rft_dem.arrow`)));
}

/** The parts of the calibration's record (`rft_dem_calibration.json`) the tests read. */
export interface CachedCalibration {
  /** Grains in the settled bed. */
  grains: number;
  /** The bed's solid fraction. */
  volumeFraction: number;
  /** ζ against Li et al.'s generic medium. */
  zeta: number;
  /** One entry per plate run (α in N/m³). */
  samples: {
    beta: number[];
    gamma: number[];
    alphaZ: number[];
    alphaX: number[];
    r2Z: number[];
    r2X: number[];
  };
  /** The same pair at two speeds: the relative difference of α_z. */
  quasiStatic: { difference: number };
}

/** The calibration's record: samples, ζ, the quasi-static check, the bed. */
export const cachedCalibration: CachedCalibration = JSON.parse(
  Deno.readTextFileSync(`${DIR}rft_dem_calibration.json`),
);

/** The cached pressure-memory calibration (`rft_dem_memory.json`) the tests read. */
export interface CachedMemory {
  /** `{ length, separation }` (m), for `RftGroundOptions.stressMemory`. */
  memory: { length: number; separation: number };
  /** Grains in the bed. */
  grains: number;
  /** Each slide's fit (SI units). */
  slides: { approach: number; length: number; p0: number; pInf: number; r2: number }[];
  /** The rise's fit (SI units). */
  rise: { effectiveLength: number; p0: number; r2: number };
  /** The grains, as a table's metadata records them. */
  medium: { grainDiameter: number; friction: number };
}

/**
 * The pressure memory calibrated on the cached table's grains (`rft_dem_memory.json`, written
 * by `scripts/gen_rft_memory_fixture.ts`; `tests/experiments_rft_memory_test.ts` checks it
 * against a fresh calibration).
 */
export const cachedMemory: CachedMemory = JSON.parse(
  Deno.readTextFileSync(`${DIR}rft_dem_memory.json`),
);
