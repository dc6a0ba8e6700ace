/**
 * The median the benchmarks report: the middle value of the sorted samples (the upper middle
 * one of an even count).
 *
 * @module
 */

/** Median of `a` (not modified): the upper middle value for an even count. */
export function median(a: readonly number[]): number {
  const s = a.slice().sort((x, y) => x - y);
  return s[Math.floor(s.length / 2)];
}
