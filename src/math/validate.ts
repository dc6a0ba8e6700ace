/**
 * Boundary validation helpers shared by the simulators: each throws a RangeError/TypeError
 * whose message names the caller, the parameter, the value and the rule, e.g.
 * `World: timeStep (-1) must be > 0`. Internal (not re-exported from the package root).
 *
 * @module
 */

/** Throw unless `v` is a finite number. */
export function finite(where: string, name: string, v: unknown): number {
  if (typeof v !== "number") {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be a number`);
  }
  if (!Number.isFinite(v)) {
    throw new RangeError(`${where}: ${name} (${v}) must be a finite number`);
  }
  return v;
}

/** Throw unless `v` is a finite number > 0. */
export function positive(where: string, name: string, v: unknown): number {
  const x = finite(where, name, v);
  if (!(x > 0)) throw new RangeError(`${where}: ${name} (${x}) must be > 0`);
  return x;
}

/** Throw unless `v` is a finite number ≥ 0. */
export function nonNegative(where: string, name: string, v: unknown): number {
  const x = finite(where, name, v);
  if (!(x >= 0)) throw new RangeError(`${where}: ${name} (${x}) must be >= 0`);
  return x;
}

/** Throw unless `v` is an integer in [min, max]. */
export function integerIn(
  where: string,
  name: string,
  v: unknown,
  min: number,
  max: number,
): number {
  const x = finite(where, name, v);
  if (!Number.isInteger(x) || x < min || x > max) {
    throw new RangeError(`${where}: ${name} (${x}) must be an integer in [${min}, ${max}]`);
  }
  return x;
}

/** Throw unless `v` is a boolean (or undefined, giving `dflt`). */
export function bool(where: string, name: string, v: unknown, dflt: boolean): boolean {
  if (v === undefined) return dflt;
  if (typeof v !== "boolean") {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be a boolean`);
  }
  return v;
}

/**
 * Throw unless `v` is a boolean; unlike {@link bool}, `undefined` is refused too (for
 * parameters that have no default: `setParticleFixed(i, undefined)` must not unfix a grain).
 *
 * @example
 * ```ts
 * import { requiredBool } from "./validate.ts";
 * import { expect } from "expect";
 * expect(requiredBool("f", "on", true)).toBe(true);
 * expect(() => requiredBool("f", "on", undefined)).toThrow("f: on (undefined) must be a boolean");
 * expect(() => requiredBool("f", "on", "no")).toThrow(TypeError);
 * ```
 */
export function requiredBool(where: string, name: string, v: unknown): boolean {
  if (typeof v !== "boolean") {
    throw new TypeError(
      `${where}: ${name} (${typeof v === "string" ? JSON.stringify(v) : String(v)}) must be a ` +
        "boolean",
    );
  }
  return v;
}

/** Read a 3-vector (array-like of 3 finite numbers). */
export function vec3(where: string, name: string, v: unknown): [number, number, number] {
  if (v === null || typeof v !== "object" || typeof (v as ArrayLike<number>).length !== "number") {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be an array of 3 numbers`);
  }
  const a = v as ArrayLike<unknown>;
  if (a.length !== 3) {
    throw new RangeError(`${where}: ${name} (length ${a.length}) must have exactly 3 components`);
  }
  return [
    finite(where, `${name}[0]`, a[0]),
    finite(where, `${name}[1]`, a[1]),
    finite(where, `${name}[2]`, a[2]),
  ];
}

/** Read two box corners and check `min < max` on every axis. */
export function corners(
  where: string,
  min: unknown,
  max: unknown,
  minName = "min",
  maxName = "max",
): [[number, number, number], [number, number, number]] {
  const lo = vec3(where, minName, min), hi = vec3(where, maxName, max);
  for (let k = 0; k < 3; k++) {
    if (!(lo[k] < hi[k])) {
      throw new RangeError(
        `${where}: ${minName}[${k}] (${lo[k]}) must be < ${maxName}[${k}] (${hi[k]})`,
      );
    }
  }
  return [lo, hi];
}

/** An integer >= `min` (default 1). */
export function positiveInteger(where: string, name: string, value: unknown, min = 1): number {
  const v = finite(where, name, value);
  if (!Number.isInteger(v) || v < min) {
    throw new RangeError(
      `${where}: ${name} (${v}) must be ${
        min === 1 ? "a positive integer" : `an integer >= ${min}`
      }`,
    );
  }
  return v;
}

/** One of the allowed string values. */
export function oneOf<T extends string>(
  where: string,
  name: string,
  value: unknown,
  allowed: readonly T[],
): T {
  if (typeof value !== "string" || !(allowed as readonly string[]).includes(value)) {
    throw new TypeError(
      `${where}: ${name} (${JSON.stringify(value)}) must be one of ${
        allowed.map((a) => JSON.stringify(a)).join(", ")
      }`,
    );
  }
  return value as T;
}

/** An object (or undefined, which yields `{}`). */
export function objectOrEmpty<T extends object>(where: string, name: string, value: unknown): T {
  if (value === undefined) return {} as T;
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`${where}: ${name} (${String(value)}) must be an options object`);
  }
  return value as T;
}

/**
 * Check an options object: `null`, arrays and non-objects throw a TypeError naming the
 * parameter; a key outside `allowed` throws a RangeError naming the key and the nearest valid
 * one (by edit distance), e.g. `World: unknown option "timeStp" in options; did you mean
 * "timeStep"?`. `undefined` yields `{}`. Returns the object, typed.
 */
export function options<T extends object>(
  where: string,
  name: string,
  value: unknown,
  allowed: readonly string[],
): T {
  const o = objectOrEmpty<T>(where, name, value);
  for (const key of Object.keys(o)) {
    if (allowed.includes(key)) continue;
    const near = nearest(key, allowed);
    throw new RangeError(
      `${where}: unknown option ${JSON.stringify(key)} in ${name}` +
        (near ? `; did you mean ${JSON.stringify(near)}?` : "") +
        ` (valid: ${allowed.join(", ")})`,
    );
  }
  return o;
}

/** The entry of `candidates` nearest to `key` by edit distance, or undefined when none is close. */
export function nearest(key: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined, bestD = Infinity, bestP = -1;
  const a = key.toLowerCase();
  for (const c of candidates) {
    const lc = c.toLowerCase();
    const d = editDistance(a, lc);
    // ties go to the longer common prefix: "mesh" suggests "meshes", not "mass"
    let pre = 0;
    while (pre < a.length && pre < lc.length && a[pre] === lc[pre]) pre++;
    if (d < bestD || (d === bestD && pre > bestP)) {
      bestD = d;
      best = c;
      bestP = pre;
    }
  }
  return bestD <= Math.max(2, Math.floor(key.length / 3)) ? best : undefined;
}

/** Levenshtein distance. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, k) => k);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const sub = prev[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1);
      cur.push(Math.min(sub, prev[j] + 1, cur[j - 1] + 1));
    }
    prev = cur;
  }
  return prev[b.length];
}

/** Throw a RangeError when `bytes` exceeds what a run may allocate, stating the size. */
export function sizeGuard(where: string, what: string, bytes: number, limit = 8 * 2 ** 30): void {
  if (!(bytes <= limit)) {
    throw new RangeError(
      `${where}: ${what} would need ${formatBytes(bytes)} (limit ${formatBytes(limit)}); ` +
        `reduce the size of the request`,
    );
  }
}

function formatBytes(b: number): string {
  if (!Number.isFinite(b)) return String(b) + " bytes";
  const u = ["bytes", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
  let k = 0;
  while (b >= 1024 && k < u.length - 1) b /= 1024, k++;
  return `${b.toFixed(k === 0 ? 0 : 1)} ${u[k]}`;
}

/**
 * Throw a RangeError when a request would run absurdly long, stating its estimated cost:
 * `work` is the number of elementary updates it would take (e.g. time steps × nodes),
 * `what` describes the request with its sizes, e.g.
 * `simulateBar: 1.20e+8 time steps on 10000001 nodes would take about 1.2e15 node updates (limit 1e11); ...`.
 */
export function workGuard(where: string, what: string, work: number, limit = 1e11): void {
  if (!(work <= limit)) {
    throw new RangeError(
      `${where}: ${what} would take about ${formatCount(work)} updates ` +
        `(limit ${formatCount(limit)}); reduce the size of the request`,
    );
  }
}

/**
 * The entry `key` of a lookup table, own keys only (so that `"toString"` or `"__proto__"` is
 * not mistaken for an entry); otherwise a RangeError naming the key, the nearest valid one and
 * the valid ones.
 */
export function ownEntry<T>(
  where: string,
  name: string,
  key: unknown,
  table: Readonly<Record<string, T>>,
): T {
  if (typeof key === "string" && Object.hasOwn(table, key)) return table[key];
  const keys = Object.keys(table);
  const near = typeof key === "string" ? nearest(key, keys) : undefined;
  throw new RangeError(
    `${where}: ${name} (${typeof key === "string" ? key : String(key)}) must be one of ` +
      keys.join(", ") + (near ? `; did you mean ${JSON.stringify(near)}?` : ""),
  );
}

/** A count in a short human form: 1234 → "1234", 1.2e15 → "1.2e+15". */
function formatCount(n: number): string {
  return Number.isFinite(n) && Math.abs(n) < 1e6 ? String(Math.round(n)) : n.toExponential(1);
}
