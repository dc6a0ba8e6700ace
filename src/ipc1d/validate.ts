/**
 * Boundary validation helpers for ipc1d (internal, not re-exported).
 *
 * @module
 */

/** Throws a TypeError unless `value` is a number, a RangeError unless it is finite. */
export function finite(where: string, name: string, value: unknown): number {
  if (typeof value !== "number") {
    throw new TypeError(`${where}: ${name} (${String(value)}) must be a number`);
  }
  if (!Number.isFinite(value)) {
    throw new RangeError(`${where}: ${name} (${value}) must be a finite number`);
  }
  return value;
}

/** A finite number > 0. */
export function positive(where: string, name: string, value: unknown): number {
  const v = finite(where, name, value);
  if (!(v > 0)) throw new RangeError(`${where}: ${name} (${v}) must be > 0`);
  return v;
}

/** A finite number >= 0. */
export function nonNegative(where: string, name: string, value: unknown): number {
  const v = finite(where, name, value);
  if (!(v >= 0)) throw new RangeError(`${where}: ${name} (${v}) must be >= 0`);
  return v;
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
