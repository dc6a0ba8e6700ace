/**
 * The RFT ground's pressure memory (`RftGroundOptions.stressMemory`): the per-element state the
 * ground's sweep reads and writes (the option and its check: `ground_options.ts`).
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
  readonly lengths: Readonly<{ length: number; separation: number }>;
  /** Per element: pressure per unit depth (Pa/m), then the step it was felt at. */
  mem: Float64Array = new Float64Array(0);
  /** The number of the step being taken (0 before the first). */
  now = 0;
  /** dt/ℓ of the step being taken (s/m). */
  perPath = 0;
  /** dt/ℓ_sep of the step being taken (s/m). */
  perSeparation = 0;

  /** A memory with these lengths (checked by `checkStressMemory` of `ground_options.ts`). */
  constructor(lengths: { length: number; separation: number }) {
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
