/**
 * Deterministic particle layouts: the regular packing of `addGranularBox`/`emitBox` and the
 * seeded jittered grid of `emitBoxRandom`.
 *
 * @module
 */
import { Rng } from "../math/rng.ts";
import { sizeGuard } from "../math/validate.ts";
import { BYTES_PER_PARTICLE } from "./options.ts";

/**
 * Sites of the regular packing per axis and in all (before any cap), computed without
 * allocating: centres from `min + radius`, `spacing` apart, whole spheres inside `max`.
 * Internal.
 */
export function packingCount(
  min: readonly number[],
  max: readonly number[],
  radius: number,
  spacing: number,
): { perAxis: [number, number, number]; total: number } {
  const n: [number, number, number] = [0, 0, 0];
  for (let k = 0; k < 3; k++) {
    const room = max[k] - min[k] - 2 * radius;
    n[k] = room < -1e-12 * Math.abs(spacing) ? 0 : Math.floor(room / spacing + 1e-9) + 1;
  }
  return { perAxis: n, total: n[0] * n[1] * n[2] };
}

/**
 * Throw (naming `where`) when emitting the packing of `[min, max]` capped at `limit` would
 * need more memory than a run may allocate: the centres plus the particle columns, with
 * the count stated. Returns the number of particles it would emit. Internal.
 */
export function guardPacking(
  where: string,
  min: readonly number[],
  max: readonly number[],
  radius: number,
  spacing: number,
  limit: number,
): number {
  const { perAxis, total } = packingCount(min, max, radius, spacing);
  const n = Math.min(limit, total);
  const count = (x: number) => (x < 1e10 ? String(x) : x.toExponential(2));
  sizeGuard(
    where,
    `${count(n)} particles (${perAxis.map(count).join(" × ")} sites at spacing ${spacing} m` +
      `${n < total ? `, capped by maxParticles` : ""})`,
    n * (3 * 8 + BYTES_PER_PARTICLE),
  );
  return n;
}

/**
 * Centres of the regular packing inside `[min, max]`: starting at `min + radius` and
 * advancing by `spacing` along x (fastest), y and z while the whole sphere stays inside
 * `max`. At most `limit` centres (`Infinity` for no cap).
 *
 * @example
 * ```ts
 * import { regularPacking } from "./emit.ts";
 * import { expect } from "expect";
 * const c = regularPacking([0, 0, 0], [0.1, 0.1, 0.1], 0.01, 0.02, Infinity);
 * expect(c.length).toBe(3 * 5 * 5 * 5);
 * ```
 */
export function regularPacking(
  min: readonly number[],
  max: readonly number[],
  radius: number,
  spacing: number,
  limit: number,
): Float64Array {
  const n = packingCount(min, max, radius, spacing).perAxis;
  const total = guardPacking("regularPacking", min, max, radius, spacing, limit);
  const out = new Float64Array(3 * total);
  let c = 0;
  for (let iz = 0; iz < n[2] && c < total; iz++) {
    for (let iy = 0; iy < n[1] && c < total; iy++) {
      for (let ix = 0; ix < n[0] && c < total; ix++, c++) {
        out[3 * c] = min[0] + radius + ix * spacing;
        out[3 * c + 1] = min[1] + radius + iy * spacing;
        out[3 * c + 2] = min[2] + radius + iz * spacing;
      }
    }
  }
  return out;
}

/**
 * A seeded jittered grid: the regular packing of cells `spacing` wide (centres from
 * `min + maxRadius`), each sphere with a radius uniform in `[minRadius, maxRadius]` and a
 * random offset that keeps it inside its cell (so no two spheres overlap).
 *
 * @example
 * ```ts
 * import { jitteredPacking } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const a = jitteredPacking([0, 0, 0], [0.1, 0.1, 0.1], 0.005, 0.01, 0.025, 10, 7);
 * const b = jitteredPacking([0, 0, 0], [0.1, 0.1, 0.1], 0.005, 0.01, 0.025, 10, 7);
 * expect(a.radii).toHaveLength(10);
 * expect(a.positions).toEqual(b.positions); // the same seed gives the same packing
 * ```
 */
export function jitteredPacking(
  min: readonly number[],
  max: readonly number[],
  minRadius: number,
  maxRadius: number,
  spacing: number,
  limit: number,
  seed: number | bigint,
): { positions: Float64Array; radii: Float64Array } {
  guardPacking("jitteredPacking", min, max, maxRadius, spacing, limit);
  const grid = regularPacking(min, max, maxRadius, spacing, limit);
  const n = grid.length / 3;
  const rng = new Rng(seed);
  const radii = new Float64Array(n);
  const positions = new Float64Array(3 * n);
  for (let i = 0; i < n; i++) {
    const r = minRadius === maxRadius ? minRadius : rng.uniform(minRadius, maxRadius);
    radii[i] = r;
    const room = Math.max(0, 0.5 * spacing - r);
    for (let k = 0; k < 3; k++) {
      const x = grid[3 * i + k] + rng.uniform(-room, room);
      positions[3 * i + k] = Math.min(max[k] - r, Math.max(min[k] + r, x));
    }
  }
  return { positions, radii };
}
