/**
 * Issue #29 "Nothing silent" (experiments): the helpers that take options, sizes or arrays
 * refuse bad input naming the parameter, instead of ignoring it or failing with a raw error.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { exponentialTail, minimize1d } from "../src/experiments/fit.ts";
import {
  logspace,
  numberList,
  resolveGrains,
  snapshot,
  surfaceProfile,
} from "../src/experiments/common.ts";

describe("experiments: bad input is named, not silent", () => {
  it("exponentialTail checks its options", () => {
    const v = [1, 2, 3];
    expect(() => exponentialTail(v, null as never)).toThrow(
      "exponentialTail: options (null) must be an options object",
    );
    expect(() => exponentialTail(v, { strct: false } as never)).toThrow(/did you mean "strict"/);
    expect(() => exponentialTail(v, { strict: "no" as never })).toThrow(
      /strict \(no\) must be a boolean/,
    );
    expect(() => exponentialTail(v, { minCount: NaN })).toThrow(/minCount \(NaN\)/);
    expect(() => exponentialTail(v, { binWidth: 1e-300, max: 1 })).toThrow(/bins .* would need/);
    expect(exponentialTail(v, { strict: false }).beta).toBeNaN();
  });

  it("logspace, numberList and surfaceProfile check their sizes", () => {
    expect(() => logspace(1, 2, 2 ** 40)).toThrow(/logspace: 1099511627776 values would need/);
    expect(() => logspace(1, 2, NaN)).toThrow(/n \(NaN\)/);
    expect(() => logspace(0, 2, 3)).toThrow(/a \(0\) must be > 0/);
    const big = { length: 2 ** 40 } as ArrayLike<number>;
    expect(() => numberList("demo", "speeds", big, (_w, _n, x) => x as number)).toThrow(
      /demo: speeds \(1099511627776 values\) would need/,
    );
    expect(() => surfaceProfile(null as never, 2, 0, 1, [], 0, 0, 1, 0.1)).toThrow(
      /surfaceProfile: coords \(null\)/,
    );
    expect(() => surfaceProfile([0, 0], 2, 0, 1, [1], 1, 0, 1, 0)).toThrow(/binWidth \(0\)/);
    expect(() => surfaceProfile([0, 0], 2, 0, 1, [1], 5, 0, 1, 0.5)).toThrow(/count \(5\)/);
    expect(() => surfaceProfile([0, 0], 2, 0, 1, [1], 1, 0, 1e300, 1e-300)).toThrow(
      /would need/,
    );
  });

  it("snapshot, minimize1d and resolveGrains check their arguments", () => {
    expect(() => snapshot(null as never, 3)).toThrow(/snapshot: system \(null\) must be/);
    expect(() => minimize1d(null as never, 0, 1)).toThrow(
      "minimize1d: f (null) must be a function",
    );
    expect(() => minimize1d((x) => x * x, 0, 1, -1)).toThrow(/tolerance \(-1\) must be > 0/);
    expect(() => resolveGrains("demo", null as never)).toThrow(
      "demo: options (null) must be an options object",
    );
  });
});
