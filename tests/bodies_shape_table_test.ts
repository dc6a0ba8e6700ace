/**
 * The shape table (src/sphere3d/bodies/shape_table.ts): one entry per shape kind gives the
 * parameters, bounds, closest point, mass properties, collider, description, wireframe,
 * outline samples and drawn surface. These tests hold the entries to each other: the surface
 * is closed, wound outward and encloses the entry's volume; its vertices fill the bounds; the
 * closest point through the table is the primitive's own; the engine's mass is density × the
 * entry's volume.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { SHAPE_TABLE, shapeNamed } from "../src/sphere3d/bodies/shape_table.ts";
import { ShapeKind } from "../src/sphere3d/bodies/body_set.ts";
import {
  boxClosest,
  capsuleClosest,
  cylinderClosest,
  sphereClosest,
} from "../src/sphere3d/bodies/shapes.ts";
import { World } from "../src/sphere3d/mod.ts";
import { closestOf } from "../src/sphere3d/bodies/closest_gen.ts";
import { SHAPE_DISPATCH_PATH, shapeDispatchText } from "../scripts/gen_shape_dispatch.ts";

const PRIMITIVES: [string, Record<string, unknown>][] = [
  ["sphere", { radius: 0.3 }],
  ["box", { halfExtents: [0.3, 0.2, 0.1] }],
  ["capsule", { radius: 0.1, halfHeight: 0.25 }],
  ["cylinder", { radius: 0.15, halfHeight: 0.2 }],
];

/** Volume enclosed by a triangle surface (divergence theorem) and its smallest outward test. */
function enclosed(v: Float64Array, ix: Uint32Array): { volume: number; inward: number } {
  let vol = 0, inward = 0;
  for (let t = 0; t < ix.length; t += 3) {
    const a = 3 * ix[t], b = 3 * ix[t + 1], c = 3 * ix[t + 2];
    const ux = v[b] - v[a], uy = v[b + 1] - v[a + 1], uz = v[b + 2] - v[a + 2];
    const wx = v[c] - v[a], wy = v[c + 1] - v[a + 1], wz = v[c + 2] - v[a + 2];
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    vol += (v[a] * nx + v[a + 1] * ny + v[a + 2] * nz) / 6;
    const area2 = Math.hypot(nx, ny, nz);
    if (area2 < 1e-14) continue; // the poles' and the rims' degenerate triangles
    // convex shapes about the origin: the normal points away from the origin
    const cx = (v[a] + v[b] + v[c]) / 3, cy = (v[a + 1] + v[b + 1] + v[c + 1]) / 3;
    const cz = (v[a + 2] + v[b + 2] + v[c + 2]) / 3;
    if (cx * nx + cy * ny + cz * nz <= 0) inward++;
  }
  return { volume: vol, inward };
}

describe("shape table", () => {
  it("has one entry per ShapeKind, at its index, with unique names", () => {
    expect(SHAPE_TABLE.map((e) => e.kind)).toEqual(Object.values(ShapeKind));
    expect(new Set(SHAPE_TABLE.map((e) => e.name)).size).toBe(SHAPE_TABLE.length);
    expect(() => shapeNamed("w", "cone")).toThrow(/w: shape \("cone"\) must be "sphere"/);
    expect(() => shapeNamed("w", "mesh", true)).toThrow(/must be "sphere", "box", "capsule" or/);
  });

  it("primitives: surfaces closed, wound outward, filling the bounds, enclosing the volume", () => {
    for (const [name, o] of PRIMITIVES) {
      const e = shapeNamed("test", name, true);
      const p = e.params("test", o);
      expect(p.length).toBe(e.paramCount);
      const s = e.surface(p, null)!;
      const { volume, inward } = enclosed(s.vertices, s.indices);
      expect({ name, inward }).toEqual({ name, inward: 0 });
      const m = e.massProperties(p)!;
      // a faceted surface inside the round one: a little less volume, never more
      expect(volume).toBeLessThanOrEqual(m.volume * (1 + 1e-12));
      expect(volume).toBeGreaterThan(m.volume * 0.97);
      const { min, max } = e.bounds(p, null);
      for (let k = 0; k < 3; k++) {
        let lo = Infinity, hi = -Infinity;
        for (let i = k; i < s.vertices.length; i += 3) {
          lo = Math.min(lo, s.vertices[i]), hi = Math.max(hi, s.vertices[i]);
        }
        expect(hi).toBeCloseTo(max[k], 12);
        expect(lo).toBeCloseTo(min[k], 12);
      }
    }
  });

  it("the contact loop's dispatch (closest_gen.ts) is the generator's output for the table", async () => {
    const onDisk = await Deno.readTextFile(SHAPE_DISPATCH_PATH);
    if (onDisk !== await shapeDispatchText()) {
      throw new Error(
        `${SHAPE_DISPATCH_PATH} is out of date: run \`deno run -A scripts/gen_shape_dispatch.ts\``,
      );
    }
  });

  it("primitives: the closest point through the dispatch is the primitive's, to the bit", () => {
    const fns = [
      (q: Float64Array, x: number, y: number, z: number, out: Float64Array) =>
        sphereClosest(q[0], x, y, z, out),
      (q: Float64Array, x: number, y: number, z: number, out: Float64Array) =>
        boxClosest(q[0], q[1], q[2], x, y, z, out),
      (q: Float64Array, x: number, y: number, z: number, out: Float64Array) =>
        capsuleClosest(q[0], q[1], x, y, z, out),
      (q: Float64Array, x: number, y: number, z: number, out: Float64Array) =>
        cylinderClosest(q[0], q[1], x, y, z, out),
    ];
    const a = new Float64Array(7), b = new Float64Array(7);
    const counters = { triangleCandidates: 0, insideTests: 0 } as never;
    PRIMITIVES.forEach(([name, o], k) => {
      const e = shapeNamed("test", name, true);
      const prm = new Float64Array(8);
      prm.set(e.params("test", o), 4); // the shape's parameters at p4 = 4
      for (let i = 0; i < 200; i++) {
        const x = Math.sin(i) * 0.5, y = Math.cos(3 * i) * 0.4, z = Math.sin(7 * i) * 0.45;
        expect(closestOf(e.kind, prm, 4, null, x, y, z, 0.01, a, counters)).toBe(true);
        fns[k](prm.subarray(4), x, y, z, b);
        expect(a).toEqual(b);
      }
    });
  });

  it("the engine's mass is density × the entry's volume; describe and samples agree", async () => {
    const world = await World.create();
    for (const [name, o] of PRIMITIVES) {
      const e = shapeNamed("test", name, true);
      const add = {
        sphere: "addSphere",
        box: "addBox",
        capsule: "addCapsule",
        cylinder: "addCylinder",
      }[name] as "addSphere";
      const body = world[add]({ ...o, density: 1000 } as never);
      const vol = e.massProperties(e.params("test", o))!.volume;
      expect(Math.abs(body.mass / (1000 * vol) - 1)).toBeLessThan(1e-6); // Rapier: float32
      const [shape] = body.shapes;
      expect(shape.shape).toBe(name);
      expect(shape).toMatchObject(e.describe(e.params("test", o), null));
      // outline samples lie on the surface: never beyond the bounds
      const { max } = e.bounds(e.params("test", o), null);
      for (const q of e.samples(shape)) {
        for (let k = 0; k < 3; k++) expect(Math.abs(q[k])).toBeLessThanOrEqual(max[k] + 1e-12);
      }
    }
  });

  it("wireframes stay within the bounds and draw something for every primitive", () => {
    for (const [name, o] of PRIMITIVES) {
      const e = shapeNamed("test", name, true), p = e.params("test", o);
      const { max } = e.bounds(p, null);
      const pts: number[][] = [];
      const circle = (r: number, axis: number, z: number) => {
        for (let k = 0; k < 8; k++) {
          const u = r * Math.cos(k), w = r * Math.sin(k);
          pts.push(axis === 2 ? [u, w, z] : axis === 1 ? [u, z, w] : [z, u, w]);
        }
      };
      e.wireframe(p, null, {
        line: (a, b) => pts.push(a, b),
        circle,
        box: (lo, hi) => pts.push(lo, hi),
      }, 1000);
      expect(pts.length).toBeGreaterThan(1);
      for (const q of pts) {
        for (let k = 0; k < 3; k++) expect(Math.abs(q[k])).toBeLessThanOrEqual(max[k] + 1e-12);
      }
    }
  });
});
