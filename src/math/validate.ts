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
