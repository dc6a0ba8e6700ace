/**
 * `statsTable` and `StatsRecorder`: per-step counters (`lastStepStats`) over time.
 *
 * @module
 */

import type * as A from "apache-arrow";
import { buildTable, type ColumnSpec } from "./schema.ts";
import { STAT_FIELDS } from "../contact/stats.ts";
import { options as checkOptions } from "../math/validate.ts";

/** One recorded step: time, step number and the counters of `lastStepStats`. */
export interface StatsEntry {
  /** Simulated time (s). */
  time: number;
  /** Step number. */
  step?: number;
  /** Counters (numbers; non-numeric values are ignored). */
  stats: Readonly<Record<string, unknown>>;
}

/**
 * One row per recorded step: `time`, `step` and one Float64 column per numeric counter seen
 * in any entry (missing values are NaN). Counts carry unit "1"; `maxPenetration` "m",
 * `maxSpeed` "m/s", energies "J".
 *
 * @param history the recorded entries, in time order (e.g. `recorder.entries`)
 * @param options simulator label for the schema metadata
 * @returns an Arrow table with `history.length` rows
 * @throws {TypeError} when `history` is not an array of entries
 * @example
 * ```ts
 * import { statsTable } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const t = statsTable([
 *   { time: 0.001, step: 1, stats: { particleContacts: 3, maxPenetration: 1e-5 } },
 *   { time: 0.002, step: 2, stats: { particleContacts: 5, maxPenetration: 2e-5 } },
 * ]);
 * expect(t.numRows).toBe(2);
 * expect(t.getChild("particleContacts")!.get(1)).toBe(5);
 * const unit = t.schema.fields.find((f) => f.name === "maxPenetration")!.metadata.get("unit");
 * expect(unit).toBe("m");
 * ```
 */
export function statsTable(
  history: readonly StatsEntry[],
  options: { simulator?: string } = {},
): A.Table {
  const where = "statsTable";
  options = checkOptions<{ simulator?: string }>(where, "options", options, ["simulator"]);
  if (
    options.simulator !== undefined &&
    (typeof options.simulator !== "string" || options.simulator === "")
  ) {
    throw new TypeError(
      `${where}: options.simulator (${String(options.simulator)}) must be a non-empty string`,
    );
  }
  if (!Array.isArray(history)) {
    throw new TypeError(`${where}: history is ${typeof history}, must be an array of entries`);
  }
  const keys: string[] = [];
  const seen = new Set<string>();
  history.forEach((e, r) => {
    if (typeof e !== "object" || e === null || typeof e.time !== "number") {
      throw new TypeError(`${where}: history[${r}] must be an object with a numeric time`);
    }
    for (const [k, v] of Object.entries(e.stats ?? {})) {
      if (typeof v === "number" && !seen.has(k) && k !== "time" && k !== "step") {
        seen.add(k);
        keys.push(k);
      }
    }
  });
  const n = history.length;
  const cols: ColumnSpec[] = [
    {
      name: "time",
      type: "float64",
      values: Float64Array.from(history, (e) => e.time),
      unit: "s",
      description: "simulated time at the end of the step",
    },
    {
      name: "step",
      type: "float64",
      values: Float64Array.from(history, (e, r) => e.step ?? r),
      unit: "1",
      description: "step number",
    },
  ];
  for (const k of keys) {
    const known = STAT_FIELDS[k];
    const unit = known ? known.unit : "1";
    const description = known ? known.description : `lastStepStats.${k}`;
    cols.push({
      name: k,
      type: "float64",
      values: Float64Array.from(history, (e) => {
        const v = e.stats?.[k];
        return typeof v === "number" ? v : NaN;
      }),
      unit,
      description,
    });
  }
  const last = history[n - 1];
  return buildTable(where, n, cols, {
    simulator: options.simulator ?? "sphere3d",
    table: "stats",
    time: last?.time,
    step: last?.step,
  });
}

/**
 * Collects `lastStepStats` snapshots while a simulation runs, e.g. from an `onStep` callback.
 *
 * @example
 * ```ts
 * import { StatsRecorder, statsTable } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const rec = new StatsRecorder();
 * rec.record({ time: 0.1, stepCount: 1 }, { lastStepStats: { particleContacts: 2 } });
 * expect(statsTable(rec.entries).numRows).toBe(1);
 * ```
 */
export class StatsRecorder {
  /** The recorded entries, in order. */
  readonly entries: StatsEntry[] = [];

  /**
   * Appends one entry: the world's time and step, a copy of the system's counters and, when
   * the system is profiled (`lastStepProfile.total > 0`), its stage times as `neighborsMs`,
   * `pairForcesMs`, `boundaryForcesMs`, `integrationMs` and `totalMs`.
   *
   * @param world anything with `time` (s) and `stepCount`
   * @param system anything with `lastStepStats`
   * @param extra additional numeric values to record (e.g. energies)
   * @throws {TypeError} when `world` has no numeric time, `system` is not an object or a value
   *   of `extra` is not a number
   */
  record(
    world: { readonly time: number; readonly stepCount?: number },
    system: { readonly lastStepStats?: object; readonly lastStepProfile?: object },
    extra: Record<string, number> = {},
  ): void {
    const where = "StatsRecorder.record";
    if (world === null || typeof world !== "object" || typeof world.time !== "number") {
      throw new TypeError(`${where}: world (${String(world)}) must have a numeric time`);
    }
    if (system === null || typeof system !== "object") {
      throw new TypeError(`${where}: system (${String(system)}) must be a particle system`);
    }
    if (extra === null || typeof extra !== "object" || Array.isArray(extra)) {
      throw new TypeError(`${where}: extra (${String(extra)}) must be an object of numbers`);
    }
    for (const [k, v] of Object.entries(extra)) {
      if (typeof v !== "number") {
        throw new TypeError(`${where}: extra.${k} (${String(v)}) must be a number`);
      }
    }
    const profile: Record<string, number> = {};
    const p = system.lastStepProfile as Record<string, number> | undefined;
    if (p && typeof p.total === "number" && p.total > 0) {
      for (const [k, v] of Object.entries(p)) if (typeof v === "number") profile[`${k}Ms`] = v;
    }
    this.entries.push({
      time: world.time,
      step: world.stepCount,
      stats: { ...(system.lastStepStats ?? {}), ...profile, ...extra },
    });
  }
}
