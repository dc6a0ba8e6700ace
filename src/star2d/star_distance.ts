/**
 * `starDistance`: the signed distance from a point to a star shape's boundary by one of the
 * three methods of `distance.ts` (radial, first-order, exact), the one public front of them.
 *
 * @module
 */

import {
  type DistanceOptions,
  exactDistance,
  firstOrderDistance,
  radialDistance,
} from "./distance.ts";
import type { StarShape } from "./shape.ts";
import { options as checkOptions } from "../math/validate.ts";

const KEYS: readonly string[] = ["method", "pose", "lookup"];
const METHODS: readonly string[] = ["radial", "firstOrder", "exact"];

/**
 * The signed distance (m) from `p` to the boundary of `shape` — negative inside, positive
 * outside — by `options.method`: `"firstOrder"` (default; the paper's estimate f/‖∇f‖, which
 * the contact detection uses), `"radial"` (f(p) = ‖p − c‖ − r(α(p)), cheapest, least accurate
 * off the radial direction) or `"exact"` (the Euclidean distance: the boundary sampled at
 * 4,096 angles, the nearest minima refined by golden-section search). `p` is in the shape's
 * frame unless `options.pose` places the shape.
 *
 * @param shape the star shape
 * @param p the point `[x, y]` (m)
 * @param options method, pose and whether to use the lookup tables
 * @throws {TypeError} when `shape` is not a StarShape or an option has the wrong type
 * @throws {RangeError} when `p` is not two finite numbers, `method` is unknown, or `lookup`
 *   is asked of the exact distance
 * @example
 * ```ts
 * import { StarShape, starDistance } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const circle = StarShape.preset("circle", { rMax: 1 });
 * expect(starDistance(circle, [2, 0], { method: "radial" })).toBeCloseTo(1, 12);
 * expect(starDistance(circle, [0, 0.25], { method: "exact" })).toBeCloseTo(-0.75, 9);
 * const cross = StarShape.preset("cross", { rMax: 1 });
 * // near an arm the first-order distance (0.0919) is close to the exact one (0.0935) ...
 * const exact = starDistance(cross, [0.9, 0.05], { method: "exact" });
 * expect(starDistance(cross, [0.9, 0.05])).toBeCloseTo(exact, 2);
 * // ... unlike the radial one (0.161)
 * expect(starDistance(cross, [0.9, 0.05], { method: "radial" })).toBeGreaterThan(0.15);
 * // a pose moves and turns the shape
 * expect(starDistance(circle, [5, 0], { pose: { x: 3 } })).toBeCloseTo(1, 12);
 * ```
 */
export function starDistance(
  shape: StarShape,
  p: ArrayLike<number>,
  options: DistanceOptions = {},
): number {
  const w = "starDistance";
  const o = checkOptions<DistanceOptions>(w, "options", options, KEYS);
  const method = o.method ?? "firstOrder";
  if (!METHODS.includes(method)) {
    throw new RangeError(
      `${w}: options.method is ${JSON.stringify(method)}, must be one of ${METHODS.join(", ")}`,
    );
  }
  const pass = o.pose === undefined ? {} : { pose: o.pose };
  if (method === "exact") {
    if (o.lookup !== undefined && o.lookup !== false) {
      throw new RangeError(
        `${w}: options.lookup is ${String(o.lookup)}; the exact distance has no lookup tables`,
      );
    }
    return exactDistance(shape, p, pass);
  }
  const inner = o.lookup === undefined ? pass : { ...pass, lookup: o.lookup };
  return method === "radial"
    ? radialDistance(shape, p, inner)
    : firstOrderDistance(shape, p, inner);
}
