/**
 * Seeded pseudo-random numbers: the same seed always gives the same sequence, on every
 * machine. Grainlab never uses `Math.random`.
 *
 * @module
 */

/**
 * A small, fast, seeded generator (SplitMix32 seeding a xoshiro128** state).
 *
 * @example
 * ```ts
 * import { Rng } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * const a = new Rng(42), b = new Rng(42);
 * expect(a.next()).toBe(b.next());
 * ```
 */
export class Rng {
  #s0 = 0;
  #s1 = 0;
  #s2 = 0;
  #s3 = 0;

  /**
   * Create a generator.
   *
   * @param seed any finite number (its 53 integer bits are used) or a bigint (its low 64 bits).
   */
  constructor(seed: number | bigint = 0) {
    let lo: number, hi: number;
    if (typeof seed === "bigint") {
      const s = BigInt.asUintN(64, seed);
      lo = Number(s & 0xffffffffn) >>> 0;
      hi = Number(s >> 32n) >>> 0;
    } else {
      if (!Number.isFinite(seed)) {
        throw new RangeError(`Rng: seed (${seed}) must be a finite number`);
      }
      const t = Math.trunc(Math.abs(seed));
      lo = t >>> 0;
      hi = Math.floor(t / 4294967296) >>> 0;
      if (seed < 0) hi = (hi ^ 0x80000000) >>> 0;
    }
    let x = (lo ^ Math.imul(hi, 0x9e3779b9)) >>> 0;
    const mix = () => {
      x = (x + 0x9e3779b9) >>> 0;
      let z = x;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.#s0 = mix();
    this.#s1 = mix() ^ hi;
    this.#s2 = mix();
    this.#s3 = mix();
    if ((this.#s0 | this.#s1 | this.#s2 | this.#s3) === 0) this.#s0 = 1;
  }

  /**
   * The next unsigned 32-bit integer.
   *
   * @example
   * ```ts
   * import { Rng } from "@grainlab/grainlab";
   * import { expect } from "expect";
   * const v = new Rng(1).nextUint32();
   * expect(Number.isInteger(v)).toBe(true);
   * expect(v).toBeGreaterThanOrEqual(0);
   * expect(v).toBeLessThan(2 ** 32);
   * ```
   */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.#s1, 5), 7), 9) >>> 0;
    const t = this.#s1 << 9;
    this.#s2 ^= this.#s0;
    this.#s3 ^= this.#s1;
    this.#s1 ^= this.#s2;
    this.#s0 ^= this.#s3;
    this.#s2 ^= t;
    this.#s3 = rotl(this.#s3, 11);
    return result;
  }

  /**
   * A uniform number in [0, 1) with 53 random bits.
   *
   * @example
   * ```ts
   * import { Rng } from "@grainlab/grainlab";
   * import { expect } from "expect";
   * const u = new Rng(7).next();
   * expect(u).toBeGreaterThanOrEqual(0);
   * expect(u).toBeLessThan(1);
   * ```
   */
  next(): number {
    const hi = this.nextUint32() >>> 5;
    const lo = this.nextUint32() >>> 6;
    return (hi * 67108864 + lo) / 9007199254740992;
  }

  /**
   * A uniform number in [min, max).
   *
   * @example
   * ```ts
   * import { Rng } from "@grainlab/grainlab";
   * import { expect } from "expect";
   * const r = new Rng(3).uniform(0.01, 0.02);
   * expect(r).toBeGreaterThanOrEqual(0.01);
   * expect(r).toBeLessThan(0.02);
   * ```
   */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /**
   * A standard normal deviate (Box–Muller).
   *
   * @example
   * ```ts
   * import { Rng } from "@grainlab/grainlab";
   * import { expect } from "expect";
   * expect(Number.isFinite(new Rng(5).normal())).toBe(true);
   * ```
   */
  normal(): number {
    let u = this.next();
    while (u <= 0) u = this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

function rotl(x: number, k: number): number {
  return ((x << k) | (x >>> (32 - k))) >>> 0;
}

/**
 * Chris Wellons' 32-bit integer hash "lowbias32": a portable, stateless, well-mixed hash of an
 * integer, for deterministic jitter that any language can reproduce (the settle benchmark's
 * jittered grid uses u(n) = lowbias32(n) / 2³²).
 *
 * @param x an integer (its low 32 bits are used)
 * @returns an unsigned 32-bit integer
 * @example
 * ```ts
 * import { lowbias32 } from "./rng.ts";
 * import { expect } from "expect";
 * expect(lowbias32(0)).toBe(0);
 * expect(lowbias32(1)).toBe(lowbias32(1)); // deterministic
 * expect(lowbias32(1)).not.toBe(lowbias32(2));
 * expect(lowbias32(12345)).toBeLessThan(2 ** 32);
 * ```
 */
export function lowbias32(x: number): number {
  x ^= x >>> 16;
  x = Math.imul(x, 0x7feb352d);
  x ^= x >>> 15;
  x = Math.imul(x, 0x846ca68b);
  x ^= x >>> 16;
  return x >>> 0;
}
