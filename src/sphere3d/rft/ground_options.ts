/**
 * The options of `World.addRftGround` and their check at the boundary: every field named in
 * its error, with the value and the rule.
 *
 * @module
 */
import type { RftStressModel } from "./model.ts";
import type { RftDeformOptions } from "./surface.ts";

/** Options of `World.addRftGround`. */
export interface RftGroundOptions {
  /** Height of the free surface (m): the ground fills z < surfaceHeight. */
  surfaceHeight: number;
  /**
   * Size of a surface element (m): round shapes are faceted at about this size and larger
   * surface triangles are cut into rows and pieces at most this long (see `cutSurface`).
   * @default a tenth of each shape's bounding-box diagonal
   */
  elementSize?: number;
  /**
   * Hand the drag part of each dynamic body's RFT force and torque to the engine as implicit
   * damping (`implicit_drag.ts`); false applies the whole force explicitly. With a pressure
   * memory as a capacity (`stressMemory.support`), its bound takes the drag's place.
   * @default true
   */
  implicitDrag?: boolean;
  /**
   * A surface that heaps and ruts over a rectangle (see `RftHeightMap`): depths are measured
   * from a height map that the bodies' displaced grains build up ahead of them and leave as
   * ruts behind. @default undefined (a flat surface, undisturbed)
   */
  deform?: RftDeformOptions;
  /**
   * Friction coefficient μ of the bodies' surfaces against the grains (≥ 0): each element's
   * force may lean from its inward normal by at most atan μ, the part along the surface capped
   * at μ times the part pressing on it (as a rubbing interface bounds it). RFT's stress on a
   * plate's leading face includes what its edges and trailing face carried in the calibration,
   * so on a body's single surface it can lean further than the surface's friction allows (a
   * slipping wheel's rim: up to 0.7 of the pressure against μ = 0.5; docs/terradynamics.md).
   * @default Infinity (no cap: Li et al.'s RFT)
   */
  interfaceFriction?: number;
  /**
   * A pressure memory (see `memory.ts`): each element's pressure relaxes towards RFT's over
   * `length` (m) of its travel and `separation` (m) of moving away from the grains, instead of
   * following its present motion at once. `calibrateRftMemory` measures both in the DEM. How a
   * dynamic body takes it is `support`'s choice (docs/terradynamics.md).
   * @default undefined (none: Li et al.'s RFT)
   */
  stressMemory?: {
    /** Travel (m) of an element through the grains over which its pressure relaxes by e. */
    length: number;
    /**
     * Distance (m) of moving away from the grains along the element's normal over which its
     * pressure relaxes by e (on top of `length`). @default Infinity (only `length`)
     */
    separation?: number;
    /**
     * How a dynamic body takes the ground's load with the memory (a kinematic body always
     * feels all of it). `"capacity"`: what the grains remember is what they can bear, so the
     * ground's force and torque on the body are each scaled to at most what stops its motion
     * along them (`memory_bound.ts`): the ground holds a body that stopped, and never throws
     * it back out; the implicit drag is not needed for it. `"force"`: the memory's pressure is
     * applied as it is; what an element stored pushing in it hands back moving away, which
     * pushes a free body that stopped after an impact back out of the grains.
     * @default "capacity"
     */
    support?: "force" | "capacity";
  };
}

/**
 * Check `World.addRftGround`'s model and options; returns the options with their defaults.
 *
 * @param model the stress model (anything with `alphaZAt` and `alphaXAt`)
 * @param options the options
 * @returns the surface height, element size (null: per shape), implicit drag, interface
 *   friction and pressure memory (null: none)
 * @example
 * ```ts
 * import { checkGroundOptions } from "./ground_options.ts";
 * import { RftFourier } from "./model.ts";
 * import { expect } from "expect";
 * const o = checkGroundOptions(new RftFourier(), { surfaceHeight: 0 });
 * expect(o.interfaceFriction).toBe(Infinity);
 * expect(() => checkGroundOptions(new RftFourier(), { surfaceHeight: NaN })).toThrow(
 *   /surfaceHeight \(NaN\) must be finite/,
 * );
 * ```
 */
export function checkGroundOptions(model: RftStressModel, options: RftGroundOptions): {
  surfaceHeight: number;
  elementSize: number | null;
  implicitDrag: boolean;
  interfaceFriction: number;
  stressMemory: RftMemoryChoice | null;
} {
  const where = "World.addRftGround";
  if (
    model === null || typeof model !== "object" ||
    typeof (model as RftStressModel).alphaZAt !== "function" ||
    typeof (model as RftStressModel).alphaXAt !== "function"
  ) {
    throw new TypeError(
      `${where}: model (${String(model)}) must be an RftTable or RftFourier (alphaZAt, alphaXAt)`,
    );
  }
  if (options === null || typeof options !== "object" || Array.isArray(options)) {
    throw new TypeError(`${where}: options (${String(options)}) must be an options object`);
  }
  for (const k of Object.keys(options)) {
    if (
      k !== "surfaceHeight" && k !== "elementSize" && k !== "implicitDrag" && k !== "deform" &&
      k !== "interfaceFriction" && k !== "stressMemory"
    ) {
      throw new RangeError(
        `${where}: unknown option "${k}" (valid: surfaceHeight, elementSize, implicitDrag, ` +
          "deform, interfaceFriction, stressMemory)",
      );
    }
  }
  const h = options.surfaceHeight;
  if (typeof h !== "number") {
    throw new TypeError(`${where}: surfaceHeight (${String(h)}) must be a number (m)`);
  }
  if (!Number.isFinite(h)) throw new RangeError(`${where}: surfaceHeight (${h}) must be finite`);
  const e = options.elementSize;
  if (e !== undefined && (typeof e !== "number" || !(e > 0) || !Number.isFinite(e))) {
    throw new RangeError(`${where}: elementSize (${String(e)}) must be a finite number > 0 (m)`);
  }
  const implicit = options.implicitDrag ?? true;
  if (typeof implicit !== "boolean") {
    throw new TypeError(`${where}: implicitDrag (${String(implicit)}) must be a boolean`);
  }
  const mu = options.interfaceFriction ?? Infinity;
  if (typeof mu !== "number" || !(mu >= 0)) {
    throw new RangeError(
      `${where}: interfaceFriction (${String(mu)}) must be a number >= 0 (Infinity: no cap)`,
    );
  }
  return {
    surfaceHeight: h,
    elementSize: e ?? null,
    implicitDrag: implicit,
    interfaceFriction: mu,
    stressMemory: checkStressMemory(where, options.stressMemory),
  };
}

/** A checked `stressMemory` option: its two lengths (m) and how dynamic bodies take it. */
export type RftMemoryChoice = Required<NonNullable<RftGroundOptions["stressMemory"]>>;

/**
 * Check a `stressMemory` option: null when it is absent, else the two lengths (m) and the
 * support.
 *
 * @param where the caller, for the messages
 * @param v the option
 * @returns `{ length, separation, support }` or null
 * @example
 * ```ts
 * import { checkStressMemory } from "./ground_options.ts";
 * import { expect } from "expect";
 * expect(checkStressMemory("f", { length: 0.02 })).toEqual({
 *   length: 0.02, separation: Infinity, support: "capacity",
 * });
 * expect(checkStressMemory("f", undefined)).toBe(null);
 * expect(() => checkStressMemory("f", { length: -1 })).toThrow(/stressMemory\.length/);
 * ```
 */
export function checkStressMemory(
  where: string,
  v: unknown,
): RftMemoryChoice | null {
  if (v === undefined) return null;
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new TypeError(
      `${where}: stressMemory (${String(v)}) must be { length, separation?, support? } (m)`,
    );
  }
  for (const k of Object.keys(v)) {
    if (k !== "length" && k !== "separation" && k !== "support") {
      throw new RangeError(
        `${where}: unknown option "stressMemory.${k}" (valid: length, separation, support)`,
      );
    }
  }
  const o = v as NonNullable<RftGroundOptions["stressMemory"]>;
  if (typeof o.length !== "number" || !(o.length > 0) || !Number.isFinite(o.length)) {
    throw new RangeError(
      `${where}: stressMemory.length (${String(o.length)}) must be a finite number > 0 (m)`,
    );
  }
  // only an absent key takes the default: null is a wrong value, not a missing one
  const sep = o.separation === undefined ? Infinity : o.separation;
  if (typeof sep !== "number" || !(sep > 0)) {
    throw new RangeError(
      `${where}: stressMemory.separation (${String(sep)}) must be a number > 0 (m; ` +
        "Infinity: none)",
    );
  }
  const support = o.support === undefined ? "capacity" : o.support;
  if (support !== "force" && support !== "capacity") {
    throw new RangeError(
      `${where}: stressMemory.support (${String(support)}) must be "force" or "capacity"`,
    );
  }
  return { length: o.length, separation: sep, support };
}
