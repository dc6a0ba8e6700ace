/**
 * `barTable`: the time series of an ipc1d bar run as an Arrow table.
 *
 * @module
 */

import type * as A from "apache-arrow";
import { buildTable, type ColumnSpec } from "./schema.ts";
import { options as checkOptions } from "../math/validate.ts";

/** Units and descriptions of the columns an ipc1d run reports. */
const BAR_COLUMNS: Record<string, [string, string]> = {
  time: ["s", "simulated time"],
  endPosition: ["m", "height of the bar's lower (contact) end"],
  endVelocity: ["m/s", "velocity of the bar's lower end"],
  contactForce: ["N", "contact force between bar and ground"],
  energy: ["J", "total mechanical energy"],
  kineticEnergy: ["J", "kinetic energy"],
  kinetic: ["J", "kinetic energy"],
  elastic: ["J", "elastic (strain) energy of the bar"],
  potential: ["J", "gravitational potential energy"],
  contactEnergy: ["J", "energy stored in the contact potential (barrier or penalty)"],
  exactEndPosition: ["m", "exact end position on the step grid"],
  exactContactForce: ["N", "exact contact force on the step grid"],
  elasticEnergy: ["J", "elastic (strain) energy of the bar"],
  potentialEnergy: ["J", "gravitational potential energy"],
  barrierEnergy: ["J", "energy stored in the IPC barrier or penalty spring"],
  gap: ["m", "distance between the bar's end and the ground"],
  penetration: ["m", "penetration of the bar's end below the ground"],
  analyticEndPosition: ["m", "analytic end position"],
  analyticContactForce: ["N", "analytic contact force"],
  iterations: ["1", "Newton iterations in the step"],
};

function isNumericArray(v: unknown): v is ArrayLike<number> {
  return (ArrayBuffer.isView(v) && !(v instanceof DataView)) ||
    (Array.isArray(v) && v.every((x) => typeof x === "number"));
}

/**
 * One row per recorded time of an ipc1d bar run: every numeric array property with as many
 * values as `time` becomes a Float64 column (`time`, `endPosition`, `contactForce`, `energy`, …);
 * scalar numeric and string properties (method, problem, parameters) go to the schema metadata.
 *
 * @typeParam R the run's type: any object with a numeric `time` array (s), beside which every
 *   other numeric array of its length becomes a column
 * @param run the result of `simulateBar` (or any object with equal-length numeric columns)
 * @param options simulator label and extra schema metadata
 * @returns an Arrow table
 * @throws {TypeError} when `run.time` is not a numeric array
 * @example
 * ```ts
 * import { barTable } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const t = barTable({ time: [0, 0.1], endPosition: [5, 4], method: "ipc" });
 * expect(t.numRows).toBe(2);
 * expect([...t.getChild("endPosition")!]).toEqual([5, 4]);
 * expect(t.schema.fields[0].name).toBe("time");
 * expect(t.schema.metadata.get("grainlab.run.method")).toBe("ipc");
 * ```
 */
export function barTable<R extends { readonly time: ArrayLike<number> }>(
  run: R,
  options: { simulator?: string; extra?: Record<string, string | number> } = {},
): A.Table {
  const where = "barTable";
  options = checkOptions(where, "options", options, ["simulator", "extra"]);
  if (
    options.simulator !== undefined &&
    (typeof options.simulator !== "string" || options.simulator === "")
  ) {
    throw new TypeError(
      `${where}: options.simulator (${String(options.simulator)}) must be a non-empty string`,
    );
  }
  if (
    options.extra !== undefined &&
    (options.extra === null || typeof options.extra !== "object" || Array.isArray(options.extra))
  ) {
    throw new TypeError(
      `${where}: options.extra (${String(options.extra)}) must be an object of strings and numbers`,
    );
  }
  if (typeof run !== "object" || run === null || !isNumericArray(run.time)) {
    throw new TypeError(`${where}: run.time must be a numeric array (got ${typeof run?.time})`);
  }
  const n = run.time.length;
  const cols: ColumnSpec[] = [];
  const extra: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(run as object)) {
    if (isNumericArray(v) && v.length === n) {
      const [unit, description] = BAR_COLUMNS[k] ?? ["", `run.${k}`];
      cols.push({
        name: k,
        type: "float64",
        values: v instanceof Float64Array ? v : Float64Array.from(v),
        unit,
        description,
      });
    } else if (typeof v === "number" || typeof v === "string" || typeof v === "boolean") {
      extra[`grainlab.run.${k}`] = typeof v === "boolean" ? String(v) : v;
    } else if (
      typeof v === "object" && v !== null && !ArrayBuffer.isView(v) && !Array.isArray(v)
    ) {
      try {
        extra[`grainlab.run.${k}`] = JSON.stringify(v);
      } catch { /* not serialisable: skip */ }
    }
  }
  cols.sort((a, b) => (a.name === "time" ? -1 : b.name === "time" ? 1 : 0));
  return buildTable(where, n, cols, {
    simulator: options.simulator ?? "ipc1d",
    table: "bar",
    time: n > 0 ? Number(run.time[n - 1]) : undefined,
    extra: { ...extra, ...(options.extra ?? {}) },
  });
}
