/**
 * The RFT ground's pressure memory (`RftGroundOptions.stressMemory`): its options, their
 * check, and the per-element state the ground's sweep reads and writes.
 *
 * RFT's stress depends only on an element's present motion. In the grains it does not: a plate
 * pushed down and then dragged sideways keeps much of its pressure for a few grain diameters of
 * travel, and a plate pulled back up loses it within a fraction of a diameter (measured in the
 * DEM by `calibrateRftMemory`). With a memory, each element's pressure per unit depth relaxes
 * towards RFT's over `length` of its travel and over `separation` of moving away from the
 * grains (the law: `rftMemoryLaw` in `law_source.ts`). A slipping wheel's bottom, which moves
 * sideways where RFT gives little lift, keeps the pressure its front built up; its rear keeps
 * some load as it rises.
 *
 * @module
 */

/**
 * A pressure memory for the RFT ground: the relaxation lengths of each element's pressure.
 *
 * @example
 * ```ts
 * import type { RftStressMemory } from "./memory.ts";
 * import { expect } from "expect";
 * // about what the DEM gives for 1 cm glass-like grains (calibrateRftMemory)
 * const memory: RftStressMemory = { length: 0.017, separation: 0.002 };
 * expect(memory.separation).toBeLessThan(memory.length);
 * ```
 */
export interface RftStressMemory {
  /** Travel (m) of an element through the grains over which its pressure relaxes by e. */
  length: number;
  /**
   * Distance (m) of moving away from the grains along the element's normal over which its
   * pressure relaxes by e (on top of `length`). @default Infinity (only `length`)
   */
  separation?: number;
}

/**
 * Check a `stressMemory` option: null when it is absent, else the two lengths (m).
 *
 * @param where the caller, for the messages
 * @param v the option
 * @returns `{ length, separation }` or null
 * @example
 * ```ts
 * import { checkStressMemory } from "./memory.ts";
 * import { expect } from "expect";
 * expect(checkStressMemory("f", { length: 0.02 })).toEqual({ length: 0.02, separation: Infinity });
 * expect(checkStressMemory("f", undefined)).toBe(null);
 * expect(() => checkStressMemory("f", { length: -1 })).toThrow(/stressMemory\.length/);
 * ```
 */
export function checkStressMemory(
  where: string,
  v: unknown,
): Required<RftStressMemory> | null {
  if (v === undefined) return null;
  if (v === null || typeof v !== "object" || Array.isArray(v)) {
    throw new TypeError(
      `${where}: stressMemory (${String(v)}) must be { length, separation? } (m)`,
    );
  }
  for (const k of Object.keys(v)) {
    if (k !== "length" && k !== "separation") {
      throw new RangeError(
        `${where}: unknown option "stressMemory.${k}" (valid: length, separation)`,
      );
    }
  }
  const o = v as RftStressMemory;
  if (typeof o.length !== "number" || !(o.length > 0) || !Number.isFinite(o.length)) {
    throw new RangeError(
      `${where}: stressMemory.length (${String(o.length)}) must be a finite number > 0 (m)`,
    );
  }
  const sep = o.separation ?? Infinity;
  if (typeof sep !== "number" || !(sep > 0)) {
    throw new RangeError(
      `${where}: stressMemory.separation (${String(sep)}) must be a number > 0 (m; ` +
        "Infinity: none)",
    );
  }
  return { length: o.length, separation: sep };
}

/**
 * The memory's state: two numbers per element — its pressure per unit depth (Pa/m) and the
 * step it last felt the grains at — and the step count. Grows (keeping what it holds) as
 * shapes are cut into elements.
 *
 * @example
 * ```ts
 * import { RftMemoryState } from "./memory.ts";
 * import { expect } from "expect";
 * const m = new RftMemoryState({ length: 0.02, separation: Infinity });
 * m.fit(3);
 * expect(m.mem.length).toBe(6);
 * expect(m.mem[1]).toBe(-2); // never felt the grains
 * m.begin(0.002);
 * expect(m.now).toBe(1);
 * expect(m.perPath).toBeCloseTo(0.1, 12); // dt/ℓ (s/m)
 * ```
 */
export class RftMemoryState {
  /** The two lengths (m). */
  readonly lengths: Readonly<Required<RftStressMemory>>;
  /** Per element: pressure per unit depth (Pa/m), then the step it was felt at. */
  mem: Float64Array = new Float64Array(0);
  /** The number of the step being taken (0 before the first). */
  now = 0;
  /** dt/ℓ of the step being taken (s/m). */
  perPath = 0;
  /** dt/ℓ_sep of the step being taken (s/m). */
  perSeparation = 0;

  /** A memory with these lengths (checked by {@link checkStressMemory}). */
  constructor(lengths: Required<RftStressMemory>) {
    this.lengths = { ...lengths };
  }

  /** Hold `elements` elements: the new ones have never felt the grains. */
  fit(elements: number): void {
    if (this.mem.length >= 2 * elements) return;
    const mem = new Float64Array(2 * elements);
    mem.set(this.mem);
    for (let e = this.mem.length / 2; e < elements; e++) mem[2 * e + 1] = -2;
    this.mem = mem;
  }

  /** Start a step of `dt` seconds. */
  begin(dt: number): void {
    this.now++;
    this.perPath = dt / this.lengths.length;
    this.perSeparation = dt / this.lengths.separation;
  }
}
