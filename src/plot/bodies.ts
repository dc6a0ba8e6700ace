/**
 * Outlines of rigid bodies in a 2D projection (side x–z, front y–z, top x–y): the convex hull
 * of points sampled on each shape's surface, ready to draw over a force network or a bed.
 *
 * @module
 */
import { type BodyShape, shapeNamed } from "../sphere3d/bodies/shape_table.ts";
import { quatRotateInto } from "../sphere3d/bodies/quat.ts";

/** A closed polygon in plot coordinates (m). */
export interface Outline {
  /** Horizontal coordinates of the polygon's corners (closed: first = last). */
  x: number[];
  /** Vertical coordinates. */
  y: number[];
  /** A label (the body's name). */
  label?: string;
}

/** Something with a name and world-frame shapes: a `RigidBody`. */
export interface OutlineSource {
  /** Name shown as the label. */
  name: string;
  /** Shapes in world coordinates. */
  shapes: readonly BodyShape[];
}

const AXES = { side: [0, 2], front: [1, 2], top: [0, 1] } as const;

/** Convex hull (monotone chain) of 2D points, counter-clockwise, closed. */
function hull(p: number[][]): number[][] {
  const s = p.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: number[], a: number[], b: number[]) =>
    (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const lower: number[][] = [], upper: number[][] = [];
  for (const q of s) {
    while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) {
      lower.pop();
    }
    lower.push(q);
  }
  for (let k = s.length - 1; k >= 0; k--) {
    const q = s[k];
    while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) {
      upper.pop();
    }
    upper.push(q);
  }
  const h = lower.slice(0, -1).concat(upper.slice(0, -1));
  h.push(h[0]);
  return h;
}

/**
 * The outline of every shape of `bodies` projected on a view: one closed polygon per shape
 * (the convex hull of the projected shape; exact for boxes, spheres, cylinders and capsules,
 * the hull for meshes and height maps).
 *
 * @param bodies rigid bodies (`world.bodies`) or anything with `name` and world `shapes`
 * @param view "side" (x–z), "front" (y–z) or "top" (x–y) @default "side"
 * @returns the polygons, labelled by body name
 * @example
 * ```ts
 * import { bodyOutlines } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const box = {
 *   name: "box",
 *   shapes: [{
 *     shape: "box" as const, position: [0, 0, 1] as [number, number, number],
 *     orientation: [0, 0, 0, 1] as [number, number, number, number],
 *     halfExtents: [0.5, 0.2, 0.1] as [number, number, number],
 *   }],
 * };
 * const [o] = bodyOutlines([box], "side");
 * expect(Math.min(...o.x)).toBeCloseTo(-0.5, 12);
 * expect(Math.max(...o.y)).toBeCloseTo(1.1, 12);
 * expect(o.x.length).toBe(5); // four corners, closed
 * ```
 */
export function bodyOutlines(
  bodies: readonly OutlineSource[],
  view: "side" | "front" | "top" = "side",
): Outline[] {
  if (!Array.isArray(bodies)) {
    throw new TypeError(`bodyOutlines: bodies (${String(bodies)}) must be an array of bodies`);
  }
  const ax = AXES[view];
  if (!ax) throw new RangeError(`bodyOutlines: view (${view}) must be side, front or top`);
  const out: Outline[] = [];
  for (const b of bodies) {
    for (const s of b.shapes) {
      const pts = shapeNamed("bodyOutlines", s.shape).samples(s).map((l) => {
        const w = quatRotateInto([0, 0, 0], s.orientation, l);
        const g = [w[0] + s.position[0], w[1] + s.position[1], w[2] + s.position[2]];
        return [g[ax[0]], g[ax[1]]];
      });
      const h = hull(pts);
      out.push({ x: h.map((q) => q[0]), y: h.map((q) => q[1]), label: b.name });
    }
  }
  return out;
}
