/**
 * The option keys of the star2d systems, in one place for the constructors, `addGrains` and the
 * checkpoint decoder (which checks stored parameters against them). Internal.
 *
 * @module
 */

/** Keys of `GrainSystemOptions` (body_options.ts): the options every 2D system accepts. */
export const GRAIN_SYSTEM_KEYS: readonly string[] = [
  "timeStep",
  "gravity",
  "normalStiffness",
  "tangentialStiffness",
  "normalDamping",
  "tangentialDamping",
  "friction",
  "rotationalDamping",
];

/** Keys of `GrainInit` (body_options.ts): the per-grain initial state of every `addGrains`. */
export const GRAIN_INIT_KEYS: readonly string[] = [
  "positions",
  "angles",
  "velocities",
  "angularVelocities",
  "arealDensity",
];

/** Keys `StarSystemOptions` adds to {@link GRAIN_SYSTEM_KEYS}. */
export const STAR_OPTION_KEYS: readonly string[] = ["distance", "detection", "contactPoints"];

/**
 * A boolean argument with no default (a setter's, a flag's): anything else, `undefined`
 * included, throws a TypeError naming the parameter and the value.
 *
 * @example
 * ```ts
 * import { flag } from "./options.ts";
 * import { expect } from "expect";
 * expect(flag("Walls.setEnabled", "on", false)).toBe(false);
 * expect(() => flag("Walls.setEnabled", "on", "no")).toThrow(
 *   'Walls.setEnabled: on ("no") must be a boolean (true or false)',
 * );
 * ```
 */
export function flag(where: string, name: string, v: unknown): boolean {
  if (typeof v !== "boolean") {
    throw new TypeError(
      `${where}: ${name} (${typeof v === "string" ? JSON.stringify(v) : String(v)}) must be a ` +
        "boolean (true or false)",
    );
  }
  return v;
}
