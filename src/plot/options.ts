/**
 * The options check of the figure functions ({@link plotOptions}): the same rules as the rest
 * of Grainlab (`math/validate.ts`) — `null` or a non-object is a TypeError naming the
 * parameter, an unknown key a RangeError naming the nearest valid one — and a type rule per
 * key. Internal (not re-exported).
 *
 * @module
 */

import { options as checkOptions } from "../math/validate.ts";

/** The rules of `ParticleFigureOptions`' (particles.ts) keys. */
export const FIGURE_RULES: Readonly<Record<string, Rule>> = {
  color: "string",
  colorScale: "object",
  fill: "string",
  title: "string",
  subtitle: "string",
  width: "size",
  height: "size",
  maxParticles: "count",
  domain: "box",
};

/** The rules of the keys a panel with axes and its line figures share. */
export const AXES_RULES: Readonly<Record<string, Rule>> = {
  width: "size",
  height: "size",
  xLabel: "string",
  yLabel: "string",
  yType: ["linear", "log"],
  xType: ["linear", "log"],
  title: "string",
};

/** The rules of `PngOptions`' keys (png.ts). */
export const PNG_RULES: Readonly<Record<string, Rule>> = {
  scale: "positive",
  background: "string",
};

/** The largest figure side accepted, in pixels. */
export const MAX_PIXELS = 20_000;

/**
 * What a key may hold: "string", "boolean", "function", "object" (an options object),
 * "strings" (an array of strings), "range" (`[lo, hi]`, finite, lo < hi), "box" (`{ x: range,
 * y: range }`), "size" (pixels: a finite number in (0, {@link MAX_PIXELS}]), "count" (an
 * integer >= 1), "number" (finite), "positive", "nonNegative", "any" (checked by the function
 * itself), or the allowed strings.
 */
export type Rule =
  | "string"
  | "boolean"
  | "function"
  | "object"
  | "strings"
  | "range"
  | "box"
  | "size"
  | "count"
  | "number"
  | "positive"
  | "nonNegative"
  | "any"
  | readonly string[];

/**
 * Checks `options` against `spec` (its keys are the valid ones) and returns it, typed;
 * `undefined` gives `{}`. An undefined value passes (the default applies).
 *
 * @param where the function, for messages
 * @param options what the caller passed
 * @param spec valid keys and their rules
 * @param name the parameter's name
 * @returns the options
 * @throws {TypeError} when `options` is not an object or a value has the wrong type
 * @throws {RangeError} on an unknown key (naming the nearest valid one) or a value out of range
 * @example
 * ```ts
 * import { plotOptions } from "./options.ts";
 * import { expect } from "expect";
 * const spec = { width: "size", title: "string" } as const;
 * expect(plotOptions("f", { width: 300 }, spec)).toEqual({ width: 300 });
 * expect(() => plotOptions("f", { widht: 300 }, spec)).toThrow(/did you mean "width"/);
 * expect(() => plotOptions("f", { width: -1 }, spec)).toThrow(
 *   "f: options.width (-1) must be a number of pixels in (0, 20000]",
 * );
 * expect(() => plotOptions("f", null, spec)).toThrow(TypeError);
 * expect(() => plotOptions("f", { d: [1, 0] }, { d: "range" })).toThrow(
 *   "f: options.d ([1,0]) must be finite with lo < hi",
 * );
 * ```
 */
export function plotOptions<T extends object>(
  where: string,
  options: unknown,
  spec: Readonly<Record<string, Rule>>,
  name = "options",
): T {
  const o = checkOptions<T>(where, name, options, Object.keys(spec));
  for (const [key, value] of Object.entries(o)) {
    if (value !== undefined) checkValue(where, `${name}.${key}`, value, spec[key]);
  }
  return o;
}

/** `[lo, hi]`: two finite numbers, lo < hi. */
function checkRange(where: string, name: string, v: unknown): void {
  if (!Array.isArray(v) || v.length !== 2 || v.some((x) => typeof x !== "number")) {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be [lo, hi], two numbers`);
  }
  if (!(Number.isFinite(v[0]) && Number.isFinite(v[1]) && v[0] < v[1])) {
    throw new RangeError(`${where}: ${name} ([${v}]) must be finite with lo < hi`);
  }
}

function checkValue(where: string, name: string, v: unknown, rule: Rule): void {
  const show = typeof v === "string" ? JSON.stringify(v) : String(v);
  const type = (what: string): never => {
    throw new TypeError(`${where}: ${name} (${show}) must be ${what}`);
  };
  const range = (what: string): never => {
    throw new RangeError(`${where}: ${name} (${show}) must be ${what}`);
  };
  if (Array.isArray(rule)) {
    if (typeof v !== "string" || !rule.includes(v)) {
      type(`one of ${rule.map((r) => JSON.stringify(r)).join(", ")}`);
    }
    return;
  }
  switch (rule) {
    case "any":
      return;
    case "string":
      if (typeof v !== "string") type("a string");
      return;
    case "boolean":
      if (typeof v !== "boolean") type("a boolean");
      return;
    case "function":
      if (typeof v !== "function") type("a function");
      return;
    case "object":
      if (v === null || typeof v !== "object" || Array.isArray(v)) type("an options object");
      return;
    case "strings":
      if (!Array.isArray(v) || v.some((x) => typeof x !== "string")) type("an array of strings");
      return;
    case "range":
      checkRange(where, name, v);
      return;
    case "box":
      if (v === null || typeof v !== "object") type("an object { x: [lo, hi], y: [lo, hi] }");
      checkRange(where, `${name}.x`, (v as { x?: unknown }).x);
      checkRange(where, `${name}.y`, (v as { y?: unknown }).y);
      return;
  }
  if (typeof v !== "number") type("a number");
  const x = v as number;
  if (rule === "size" && !(x > 0 && x <= MAX_PIXELS)) {
    range(`a number of pixels in (0, ${MAX_PIXELS}]`);
  }
  if (rule === "count" && !(Number.isInteger(x) && x >= 1)) range("an integer >= 1");
  if (!Number.isFinite(x)) range("a finite number");
  if (rule === "positive" && !(x > 0)) range("> 0");
  if (rule === "nonNegative" && !(x >= 0)) range(">= 0");
}
