/**
 * Bad input at ipc1d's public boundaries (issue #29 "Nothing silent", §6): barrier functions
 * with an activation distance that would make them silently zero, matrix helpers given vectors
 * of the wrong length, `null` where columns or results are expected — each throws naming the
 * function, the parameter and the rule.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { formatComparisonTable, formatConvergenceTable } from "../src/ipc1d/mod.ts";
import {
  barMatrices,
  solveTridiagonal,
  tridiagonalMultiply,
  tridiagonalQuadraticForm,
} from "../src/ipc1d/fem.ts";
import { barMetrics, contactIntervals, convergenceOrders } from "../src/ipc1d/metrics.ts";
import {
  barrier2020,
  barrier2020Hessian,
  physicalBarrier,
  physicalBarrierGradient,
} from "../src/ipc1d/barrier.ts";
import { elasticEnergy } from "../src/ipc1d/fem.ts";
import { impactSolution } from "../src/ipc1d/analytic.ts";

// deno-lint-ignore no-explicit-any
type Any = any;

describe("ipc1d: nothing silent", () => {
  it("barriers refuse d̂ <= 0 and a d that is not a number", () => {
    expect(() => barrier2020(0.5, -1)).toThrow("barrier2020: dHat (-1) must be > 0");
    expect(() => physicalBarrier(0.5, 0)).toThrow("physicalBarrier: dHat (0) must be > 0");
    expect(() => physicalBarrierGradient(NaN, 1)).toThrow(
      "physicalBarrierGradient: d (NaN) must be a number",
    );
    expect(() => barrier2020Hessian("0.5" as Any, 1)).toThrow(TypeError);
    expect(barrier2020(0, 1)).toBe(Infinity); // contact: the barrier's infinity, as before
    expect(physicalBarrier(2, 1)).toBe(0);
  });

  it("the tridiagonal helpers check the lengths they index", () => {
    const m = barMatrices(10), n = 11;
    expect(() => tridiagonalMultiply(m.stiffness, new Float64Array(3), new Float64Array(n)))
      .toThrow("tridiagonalMultiply: x (length 3) must hold 11 entries");
    expect(() => tridiagonalMultiply(null as Any, new Float64Array(n), new Float64Array(n)))
      .toThrow(TypeError);
    expect(() =>
      solveTridiagonal(m.stiffness, new Float64Array(n), new Float64Array(n), new Float64Array(2))
    ).toThrow("solveTridiagonal: scratch (length 2) must hold 11 entries");
    expect(() => tridiagonalQuadraticForm(m.stiffness, [1, 2] as Any)).toThrow(
      "tridiagonalQuadraticForm: x (1,2) must be a Float64Array",
    );
    expect(() => elasticEnergy(m, new Float64Array(3))).toThrow(
      "elasticEnergy: y (length 3) must hold 11 entries",
    );
    expect(elasticEnergy(m, m.restPositions)).toBe(0);
  });

  it("metrics and tables name a missing or mismatched input", () => {
    expect(() => contactIntervals(null as Any)).toThrow(
      "contactIntervals: columns (null) must be an object of arrays",
    );
    expect(() => contactIntervals({ time: new Float64Array(3), contactForce: new Float64Array(2) }))
      .toThrow(
        "contactIntervals: columns.contactForce (length 2) must have the length of columns.time (3)",
      );
    expect(() => barMetrics(null as Any, impactSolution())).toThrow(TypeError);
    expect(() => convergenceOrders(null as Any, [1])).toThrow(
      "convergenceOrders: errors (null) must be an array",
    );
    expect(() => formatComparisonTable(null as Any)).toThrow(TypeError);
    expect(() => formatConvergenceTable(undefined as Any)).toThrow(
      "formatConvergenceTable: study (undefined) must be a convergenceStudy result",
    );
  });
});
