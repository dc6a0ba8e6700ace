/**
 * The shape table: everything Grainlab knows about one kind of body shape, in one entry per
 * {@link ShapeKind} — its options and parameters, local bounds, closest point (the grain
 * contacts), unit-density mass properties, Rapier collider, public world-frame description,
 * wireframe (the viewer's still image) and surface samples (the plot's outlines). Collision,
 * the engine, the bodies' handles, the viewer and the plots read this table instead of
 * branching on the kind; adding a shape is one entry here plus its tests (recipe in
 * `docs/architecture.md`).
 *
 * @module
 */
import type RapierModule from "@dimforge/rapier3d-deterministic-compat";
import { float32Positive as positive, float32Vec3 as vec3 } from "./float32.ts";
import { ShapeKind } from "./body_set.ts";
import { ContactKind } from "../../contact/record.ts";
import {
  boxMassProperties,
  capsuleMassProperties,
  cylinderMassProperties,
  type PrimitiveMass,
  sphereMassProperties,
} from "./shapes.ts";
import type { TriangleMesh } from "./mesh.ts";
import type { HeightMap } from "./heightmap.ts";
import { triangles } from "./mesh_triangles.ts";

type Rapier = typeof RapierModule;
type ColliderDesc = InstanceType<Rapier["ColliderDesc"]>;

/** One contact shape of a body in world coordinates (see `RigidBody.shapes`). */
export interface BodyShape {
  /** The shape kind. */
  shape: "sphere" | "box" | "capsule" | "cylinder" | "mesh" | "heightMap";
  /** Shape origin in the world (m). */
  position: [number, number, number];
  /** Shape orientation `[x, y, z, w]` (capsule and cylinder axes along its local z). */
  orientation: [number, number, number, number];
  /** Radius (m): sphere, capsule, cylinder. */
  radius?: number;
  /** Half extents (m): box. */
  halfExtents?: [number, number, number];
  /** Half height (m): capsule (axis segment), cylinder. */
  halfHeight?: number;
  /** Vertices in the shape frame (m, xyz): mesh, height map. */
  vertices?: Float64Array;
  /** Triangle indices: mesh, height map. */
  indices?: Uint32Array;
}

/** Triangles of a mesh or height map in its own frame. */
export interface ShapeTriangles {
  /** Vertices (m), stride 3. */
  vertices: Float64Array;
  /** Triangle vertex indices, 3 per triangle. */
  indices: Uint32Array;
}

/** The name of a shape kind, as in {@link BodyShape.shape}. */
export type ShapeName = BodyShape["shape"];

/** The mesh or height map of a triangle shape, or null for a primitive. */
export type ShapeObject = TriangleMesh | HeightMap | null;

/**
 * Pens for {@link ShapeEntry.wireframe}, in the shape's frame: a segment, a circle of radius
 * `r` about the local axis `axis` (0 x, 1 y, 2 z) at height `z` along it (an arc from `from`
 * to `to`), and the edges of an axis-aligned box.
 */
export interface WirePen {
  /** A segment from a to b (m). */
  line(a: number[], b: number[]): void;
  /** A circle (or an arc from `from` to `to`, rad). */
  circle(r: number, axis: number, z: number, from?: number, to?: number): void;
  /** The twelve edges of the box from lo to hi. */
  box(lo: number[], hi: number[]): void;
}

/** Triangles as the viewer holds them (float32 for the page): vertices, indices, a grid. */
export interface WireGeometry {
  /** Vertices (m), stride 3. */
  vertices: ArrayLike<number>;
  /** Triangle vertex indices (meshes). */
  indices?: ArrayLike<number>;
  /** Grid size of a height map's vertices (x fastest). */
  grid?: { nx: number; ny: number };
  /** Local bounds (min xyz, max xyz), drawn as a box when a mesh has too many edges. */
  bounds?: readonly number[];
}

/** Everything one kind of shape provides (see the module notes). */
export interface ShapeEntry {
  /** {@link ShapeKind} of the entry (its index in {@link SHAPE_TABLE}). */
  readonly kind: number;
  /** The name users and files use. */
  readonly name: ShapeName;
  /** Option keys of a primitive (empty for meshes and height maps, built from objects). */
  readonly keys: readonly string[];
  /** Number of parameters a shape of this kind keeps (0 for meshes and height maps). */
  readonly paramCount: number;
  /** The `ContactKind` its grain contacts are recorded with. */
  readonly contactKind: number;
  /** Validated parameters (≤ 4 numbers) from a primitive's options; throws for object shapes. */
  params(where: string, o: Record<string, unknown>): number[];
  /** Local bounding box `[min, max]` about the shape origin (m). */
  bounds(p: ArrayLike<number>, obj: ShapeObject): { min: number[]; max: number[] };
  /**
   * The closest point of the shape to a grain, as a TypeScript expression of `prm`, `p4` (the
   * shape's parameters at `prm[p4..]`), `obj` (its mesh or height map), `x`, `y`, `z` (the
   * grain's centre in the shape frame), `r` (its radius), `out` (layout `CLOSEST`) and
   * `counters`: it writes the closest point to `out` and is false when a triangle shape finds
   * nothing within `r` (the grain is skipped). `scripts/gen_shape_dispatch.ts` writes these into
   * `closestOf` (`closest_gen.ts`), the one function the grain–body contact loop calls, so the
   * dispatch inlines there (a call through this table would not).
   */
  readonly closestCode: string;
  /** Volume and principal inertia at unit density (primitives), or null. */
  massProperties(p: ArrayLike<number>): PrimitiveMass | null;
  /**
   * The Rapier collider from the parameters or the shape's triangles, and whether Rapier
   * builds it along its y axis (turned onto z by the engine).
   */
  collider(R: Rapier, p: ArrayLike<number>, tri: ShapeTriangles | undefined): {
    desc: ColliderDesc;
    alongY: boolean;
  };
  /** The public description's size fields (radius, half extents, triangles …). */
  describe(p: ArrayLike<number>, obj: ShapeObject): Partial<BodyShape>;
  /** The shape's wireframe in its own frame, drawn with `pen`. */
  wireframe(p: ArrayLike<number>, geo: WireGeometry | null, pen: WirePen, maxEdges: number): void;
  /** Points on the surface, in the shape frame, whose hull bounds any projection. */
  samples(s: BodyShape): number[][];
  /**
   * The surface as triangles in the shape frame, wound counter-clockwise seen from outside
   * (the viewer's page draws these), with `flat` for faceted shading; null for a height map
   * (the page builds it from the heights). With `size` (m), the round shapes' facets are about
   * that size (at least 24 around, 12 from pole to pole) instead of the viewer's fixed 32 × 20;
   * boxes and meshes come as they are.
   */
  surface(p: ArrayLike<number>, obj: ShapeObject, size?: number): ShapeSurface | null;
}

/** Triangles of a shape's surface for drawing (see {@link ShapeEntry.surface}). */
export interface ShapeSurface {
  /** Vertices (m), stride 3. */
  vertices: Float64Array;
  /** Triangle vertex indices, counter-clockwise seen from outside. */
  indices: Uint32Array;
  /** Faceted (one normal per triangle) rather than smooth shading. */
  flat: boolean;
}

/** Rings of a round shape's surface: `(ρ, z)` pairs from the bottom pole (ρ 0) up. */
function revolve(rings: number[][], segments: number, flat = false): ShapeSurface {
  const v: number[] = [], ix: number[] = [];
  for (const [rho, z] of rings) {
    for (let k = 0; k <= segments; k++) {
      const a = (2 * Math.PI * k) / segments;
      v.push(rho * Math.cos(a), rho * Math.sin(a), z);
    }
  }
  const row = segments + 1;
  for (let j = 0; j + 1 < rings.length; j++) {
    for (let k = 0; k < segments; k++) {
      const a = j * row + k, b = a + 1, c = a + row + 1, d = a + row;
      // counter-clockwise seen from outside: up the ring (d, c) above (a, b)
      if (rings[j][0] > 0) ix.push(a, b, c);
      if (rings[j + 1][0] > 0) ix.push(a, c, d);
    }
  }
  return { vertices: Float64Array.from(v), indices: Uint32Array.from(ix), flat };
}

/**
 * Rings of a sphere of radius r whose upper half is lifted by h and lower half lowered by h
 * (`stacks` even), the side between them in `rows` rows.
 */
function roundRings(r: number, h: number, stacks: number, rows = 1): number[][] {
  const rings: number[][] = [];
  for (let j = 0; j <= stacks; j++) {
    const t = -Math.PI / 2 + (Math.PI * j) / stacks;
    const z = r * Math.sin(t);
    if (h > 0 && 2 * j === stacks) {
      // the equator, stretched into the capsule's side
      for (let k = 0; k <= rows; k++) rings.push([r, -h + (2 * h * k) / rows]);
      continue;
    }
    rings.push([j === 0 || j === stacks ? 0 : r * Math.cos(t), z + (2 * j < stacks ? -h : h)]);
  }
  return rings;
}

/**
 * Facets of a round shape of radius r and half height h about `size` (m) across: stacks from
 * pole to pole (even, ≥ 12), segments around (≥ 24), rows along the side and rings on a flat cap;
 * without `size`, the viewer's 20 stacks and 32 segments.
 */
function resolution(r: number, h: number, size?: number) {
  if (size === undefined) return { stacks: 20, segments: 32, rows: 1, cap: 1 };
  const n = (x: number) => Math.max(1, Math.ceil(x / size - 1e-9));
  return {
    stacks: Math.max(12, 2 * n((Math.PI * r) / 2)),
    segments: Math.max(24, n(2 * Math.PI * r)),
    rows: n(2 * h),
    cap: n(r),
  };
}

/**
 * The factor by which a regular polygon of `n` sides around a circle must be enlarged to have
 * the circle's perimeter (its vertices then lie slightly outside the circle).
 */
const perimeterScale = (n: number) => Math.PI / n / Math.sin(Math.PI / n);

/**
 * A round shape's surface at {@link resolution}: a capsule (h > 0), a sphere (h = 0). With
 * `size`, the rings are enlarged to the circles' perimeters (the side of a capsule then has its
 * true area and mean width; the end caps stay inscribed from pole to equator).
 */
function roundSurface(r: number, h: number, size?: number): ShapeSurface {
  const { stacks, segments, rows } = resolution(r, h, size);
  const rings = roundRings(r, h, stacks, rows);
  if (size !== undefined) {
    const around = perimeterScale(segments);
    for (const ring of rings) ring[0] *= around;
  }
  return revolve(rings, segments);
}

/**
 * A cylinder's surface at {@link resolution}: flat caps, the rim twice (side and cap); with
 * `size`, enlarged around to the circle's perimeter (see {@link roundSurface}).
 */
function cylinderSurface(r: number, h: number, size?: number): ShapeSurface {
  const { segments, rows, cap } = resolution(r, h, size);
  const R = size === undefined ? r : r * perimeterScale(segments);
  const rings: number[][] = [[0, -h]];
  for (let k = 1; k <= cap; k++) rings.push([(R * k) / cap, -h]);
  for (let k = 0; k <= rows; k++) rings.push([R, -h + (2 * h * k) / rows]);
  for (let k = cap; k >= 1; k--) rings.push([(R * k) / cap, h]);
  rings.push([0, h]);
  return revolve(rings, segments);
}

const P = (where: string, o: Record<string, unknown>, k: string) => positive(where, k, o[k]);
const box3 = (a: number, b: number, c: number) => ({ min: [-a, -b, -c], max: [a, b, c] });

/** Great circles of the end spheres in the three planes (sphere: one sphere at 0). */
function roundSamples(r: number, h: number): number[][] {
  const pts: number[][] = [];
  for (const c of h > 0 ? [-h, h] : [0]) {
    for (let k = 0; k < 32; k++) {
      const a = (2 * Math.PI * k) / 32, u = r * Math.cos(a), v = r * Math.sin(a);
      pts.push([u, v, c], [u, 0, c + v], [0, u, c + v]);
    }
  }
  return pts;
}

/** Capsule and cylinder wireframe: end circles and four axis lines (capsules: their caps). */
function roundWire(r: number, h: number, pen: WirePen, caps: boolean): void {
  pen.circle(r, 2, h);
  pen.circle(r, 2, -h);
  for (let k = 0; k < 4; k++) {
    const t = (k * Math.PI) / 2, x = r * Math.cos(t), y = r * Math.sin(t);
    pen.line([x, y, -h], [x, y, h]);
  }
  if (!caps) return;
  // the caps: half circles over the ends in the xz and yz planes
  const n = CIRCLE / 2;
  for (const s of [1, -1]) {
    for (const ax of [0, 1]) {
      const pt = (t: number) => {
        const u = r * Math.cos(t), w = s * h + s * r * Math.sin(t);
        return ax === 0 ? [u, 0, w] : [0, u, w];
      };
      for (let k = 0; k < n; k++) pen.line(pt((Math.PI * k) / n), pt((Math.PI * (k + 1)) / n));
    }
  }
}

/** Segments per full circle of a wireframe. */
export const CIRCLE = 24;

function objectOnly(name: string): never {
  throw new TypeError(`${name} shapes are built from a ${name}, not from primitive options`);
}

/** Entries shared by the two triangle shapes (mesh, height map). */
function triangleShape(kind: number, name: "mesh" | "heightMap"): ShapeEntry {
  return {
    kind,
    name,
    keys: [],
    paramCount: 0,
    contactKind: name === "mesh" ? ContactKind.mesh : ContactKind.heightMap,
    params: () => objectOnly(name),
    bounds: (_p, obj) => boundsOf(triangles(obj!).vertices),
    closestCode: "(obj as TriangleMesh).closest(x, y, z, r, out, counters)",
    massProperties: () => null,
    collider: (R, _p, tri) => {
      const t = tri!;
      return {
        desc: R.ColliderDesc.trimesh(new Float32Array(t.vertices), new Uint32Array(t.indices)),
        alongY: false,
      };
    },
    describe: (_p, obj) => {
      const t = triangles(obj!);
      return { vertices: t.vertices, indices: t.indices };
    },
    wireframe: (_p, geo, pen, maxEdges) => {
      const v = geo!.vertices;
      if (geo!.grid) {
        // grid lines, at most about 24 each way
        const { nx, ny } = geo!.grid;
        const p = (i: number, j: number) => {
          const k = j * nx + i;
          return [v[3 * k], v[3 * k + 1], v[3 * k + 2]];
        };
        const si = Math.ceil((nx - 1) / 24), sj = Math.ceil((ny - 1) / 24);
        const is = [...Array(nx).keys()].filter((i) => i % si === 0 || i === nx - 1);
        const js = [...Array(ny).keys()].filter((j) => j % sj === 0 || j === ny - 1);
        for (const j of js) for (let i = 0; i + 1 < nx; i++) pen.line(p(i, j), p(i + 1, j));
        for (const i of is) for (let j = 0; j + 1 < ny; j++) pen.line(p(i, j), p(i, j + 1));
        return;
      }
      const ix = geo!.indices!, nv = v.length / 3;
      if (ix.length > maxEdges) {
        const b = geo!.bounds ?? [...Object.values(boundsOf(v)).flat()];
        pen.box(b.slice(0, 3), b.slice(3));
        return;
      }
      const p = (i: number) => [v[3 * i], v[3 * i + 1], v[3 * i + 2]];
      const seen = new Set<number>();
      for (let t = 0; t + 2 < ix.length; t += 3) {
        for (let e = 0; e < 3; e++) {
          const a = ix[t + e], b = ix[t + ((e + 1) % 3)];
          const key = Math.min(a, b) * nv + Math.max(a, b);
          if (seen.has(key)) continue;
          seen.add(key);
          pen.line(p(a), p(b));
        }
      }
    },
    samples: (s) => {
      const v = s.vertices!, pts: number[][] = [];
      for (let k = 0; k < v.length; k += 3) pts.push([v[k], v[k + 1], v[k + 2]]);
      return pts;
    },
    surface: (_p, obj) => {
      if (name === "heightMap") return null;
      const t = triangles(obj!);
      return { vertices: t.vertices, indices: t.indices, flat: true };
    },
  };
}

/** A box's six faces, four vertices each (flat shading), two triangles a face. */
function boxSurface(a: number, b: number, c: number): ShapeSurface {
  const v: number[] = [], ix: number[] = [];
  const h = [a, b, c];
  for (let axis = 0; axis < 3; axis++) {
    for (const s of [1, -1]) {
      // u, w span the face so that u × w points along s·axis (outward)
      const u = (axis + (s > 0 ? 1 : 2)) % 3, w = (axis + (s > 0 ? 2 : 1)) % 3, o = v.length / 3;
      for (const [du, dw] of [[-1, -1], [1, -1], [1, 1], [-1, 1]]) {
        const q = [0, 0, 0];
        q[axis] = s * h[axis], q[u] = du * h[u], q[w] = dw * h[w];
        v.push(q[0], q[1], q[2]);
      }
      ix.push(o, o + 1, o + 2, o, o + 2, o + 3);
    }
  }
  return { vertices: Float64Array.from(v), indices: Uint32Array.from(ix), flat: true };
}

/** Bounds of vertices (stride 3), e.g. a mesh's or height map's in its own frame. */
function boundsOf(v: ArrayLike<number>): { min: number[]; max: number[] } {
  const min = [Infinity, Infinity, Infinity], max = [-Infinity, -Infinity, -Infinity];
  for (let k = 0; k < v.length; k++) {
    if (v[k] < min[k % 3]) min[k % 3] = v[k];
    if (v[k] > max[k % 3]) max[k % 3] = v[k];
  }
  return { min, max };
}

/**
 * The shape table, indexed by {@link ShapeKind}: sphere, box, capsule, cylinder, mesh,
 * height map.
 *
 * @example
 * ```ts
 * import { SHAPE_TABLE } from "./shape_table.ts";
 * import { ShapeKind } from "./body_set.ts";
 * import { expect } from "expect";
 * const box = SHAPE_TABLE[ShapeKind.box];
 * const p = box.params("example", { halfExtents: [0.5, 0.2, 0.1] });
 * expect(box.bounds(p, null).max).toEqual([0.5, 0.2, 0.1]);
 * expect(box.massProperties(p)!.volume).toBeCloseTo(0.08, 15);
 * expect(SHAPE_TABLE.map((e) => e.name)).toEqual(
 *   ["sphere", "box", "capsule", "cylinder", "mesh", "heightMap"],
 * );
 * ```
 */
export const SHAPE_TABLE: readonly ShapeEntry[] = Object.freeze([
  {
    kind: ShapeKind.sphere,
    name: "sphere",
    keys: ["radius"],
    paramCount: 1,
    contactKind: ContactKind.body,
    params: (where, o) => [P(where, o, "radius")],
    bounds: (p) => box3(p[0], p[0], p[0]),
    closestCode: "(sphereClosest(prm[p4], x, y, z, out), true)",
    massProperties: (p) => sphereMassProperties(p[0]),
    collider: (R, p) => ({ desc: R.ColliderDesc.ball(p[0]), alongY: false }),
    describe: (p) => ({ radius: p[0] }),
    wireframe: (p, _g, pen) => {
      for (const axis of [0, 1, 2]) pen.circle(p[0], axis, 0);
    },
    samples: (s) => roundSamples(s.radius!, 0),
    surface: (p, _obj, size) => roundSurface(p[0], 0, size),
  },
  {
    kind: ShapeKind.box,
    name: "box",
    keys: ["halfExtents"],
    paramCount: 3,
    contactKind: ContactKind.body,
    params: (where, o) => {
      const h = vec3(where, "halfExtents", o.halfExtents);
      h.forEach((x, k) => positive(where, `halfExtents[${k}]`, x));
      return h;
    },
    bounds: (p) => box3(p[0], p[1], p[2]),
    closestCode: "(boxClosest(prm[p4], prm[p4 + 1], prm[p4 + 2], x, y, z, out), true)",
    massProperties: (p) => boxMassProperties(p[0], p[1], p[2]),
    collider: (R, p) => ({ desc: R.ColliderDesc.cuboid(p[0], p[1], p[2]), alongY: false }),
    describe: (p) => ({ halfExtents: [p[0], p[1], p[2]] }),
    wireframe: (p, _g, pen) => pen.box([-p[0], -p[1], -p[2]], [p[0], p[1], p[2]]),
    samples: (s) => {
      const [a, b, c] = s.halfExtents!, pts: number[][] = [];
      for (let k = 0; k < 8; k++) pts.push([k & 1 ? a : -a, k & 2 ? b : -b, k & 4 ? c : -c]);
      return pts;
    },
    surface: (p) => boxSurface(p[0], p[1], p[2]),
  },
  {
    kind: ShapeKind.capsule,
    name: "capsule",
    keys: ["radius", "halfHeight"],
    paramCount: 2,
    contactKind: ContactKind.body,
    params: (where, o) => [P(where, o, "radius"), P(where, o, "halfHeight")],
    bounds: (p) => box3(p[0], p[0], p[1] + p[0]),
    closestCode: "(capsuleClosest(prm[p4], prm[p4 + 1], x, y, z, out), true)",
    massProperties: (p) => capsuleMassProperties(p[0], p[1]),
    collider: (R, p) => ({ desc: R.ColliderDesc.capsule(p[1], p[0]), alongY: true }),
    describe: (p) => ({ radius: p[0], halfHeight: p[1] }),
    wireframe: (p, _g, pen) => roundWire(p[0], p[1], pen, true),
    samples: (s) => roundSamples(s.radius!, s.halfHeight!),
    surface: (p, _obj, size) => roundSurface(p[0], p[1], size),
  },
  {
    kind: ShapeKind.cylinder,
    name: "cylinder",
    keys: ["radius", "halfHeight"],
    paramCount: 2,
    contactKind: ContactKind.body,
    params: (where, o) => [P(where, o, "radius"), P(where, o, "halfHeight")],
    bounds: (p) => box3(p[0], p[0], p[1]),
    closestCode: "(cylinderClosest(prm[p4], prm[p4 + 1], x, y, z, out), true)",
    massProperties: (p) => cylinderMassProperties(p[0], p[1]),
    collider: (R, p) => ({ desc: R.ColliderDesc.cylinder(p[1], p[0]), alongY: true }),
    describe: (p) => ({ radius: p[0], halfHeight: p[1] }),
    wireframe: (p, _g, pen) => roundWire(p[0], p[1], pen, false),
    samples: (s) => {
      const pts: number[][] = [], r = s.radius!;
      for (const z of [-s.halfHeight!, s.halfHeight!]) {
        for (let k = 0; k < 32; k++) {
          const a = (2 * Math.PI * k) / 32;
          pts.push([r * Math.cos(a), r * Math.sin(a), z]);
        }
      }
      return pts;
    },
    surface: (p, _obj, size) => cylinderSurface(p[0], p[1], size),
  },
  triangleShape(ShapeKind.mesh, "mesh"),
  triangleShape(ShapeKind.heightMap, "heightMap"),
]);

/** The primitive shapes users build from options, by name. */
export type PrimitiveName = "sphere" | "box" | "capsule" | "cylinder";

/**
 * The entry of a shape by its name; unknown names throw naming `where` and the primitives.
 *
 * @example
 * ```ts
 * import { shapeNamed } from "./shape_table.ts";
 * import { expect } from "expect";
 * expect(shapeNamed("test", "capsule").keys).toEqual(["radius", "halfHeight"]);
 * expect(() => shapeNamed("test", "cone", true)).toThrow(/must be "sphere", "box"/);
 * ```
 */
export function shapeNamed(where: string, name: unknown, primitiveOnly = false): ShapeEntry {
  const e = SHAPE_TABLE.find((s) => s.name === name);
  if (!e || (primitiveOnly && e.keys.length === 0)) {
    const names = SHAPE_TABLE.filter((s) => !primitiveOnly || s.keys.length > 0)
      .map((s) => `"${s.name}"`);
    throw new RangeError(
      `${where}: shape (${JSON.stringify(name)}) must be ${names.slice(0, -1).join(", ")} or ${
        names[names.length - 1]
      }`,
    );
  }
  return e;
}
