import { describe, it } from "node:test";
import { expect } from "expect";
import { boxClosest } from "../src/sphere3d/bodies/shapes.ts";
import { TriangleMesh } from "../src/sphere3d/bodies/mesh.ts";
import { HeightMap } from "../src/sphere3d/bodies/heightmap.ts";
import { parseObj, parseStl, readMeshFile } from "../src/sphere3d/bodies/mesh_io.ts";
import { Rng } from "../src/math/rng.ts";

const FIXTURES = new URL("./fixtures/meshes/", import.meta.url).pathname;

// ---------------------------------------------------------------------------------------------
// independent reference geometry (not the library's kernel)

type V3 = [number, number, number];
const sub = (a: V3, b: V3): V3 => [a[0] - b[0], a[1] - b[1], a[2] - b[2]];
const dot = (a: V3, b: V3) => a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
const cross = (a: V3, b: V3): V3 => [
  a[1] * b[2] - a[2] * b[1],
  a[2] * b[0] - a[0] * b[2],
  a[0] * b[1] - a[1] * b[0],
];

/** Closest point of segment ab to p. */
function segClosest(a: V3, b: V3, p: V3): V3 {
  const e = sub(b, a);
  const t = Math.min(1, Math.max(0, dot(sub(p, a), e) / dot(e, e)));
  return [a[0] + t * e[0], a[1] + t * e[1], a[2] + t * e[2]];
}

/** Closest point of triangle abc to p: barycentric solve, else the nearest edge point. */
function triClosest(a: V3, b: V3, c: V3, p: V3): V3 {
  const e0 = sub(b, a), e1 = sub(c, a), w = sub(p, a);
  const g00 = dot(e0, e0), g01 = dot(e0, e1), g11 = dot(e1, e1);
  const r0 = dot(w, e0), r1 = dot(w, e1), det = g00 * g11 - g01 * g01;
  const u = (r0 * g11 - r1 * g01) / det, v = (r1 * g00 - r0 * g01) / det;
  if (u >= 0 && v >= 0 && u + v <= 1) {
    return [
      a[0] + u * e0[0] + v * e1[0],
      a[1] + u * e0[1] + v * e1[1],
      a[2] + u * e0[2] + v * e1[2],
    ];
  }
  let best: V3 = a, bd = Infinity;
  for (const [s, t] of [[a, b], [b, c], [c, a]]) {
    const q = segClosest(s, t, p), d = dot(sub(p, q), sub(p, q));
    if (d < bd) bd = d, best = q;
  }
  return best;
}

function corner(v: ArrayLike<number>, i: number): V3 {
  return [v[3 * i], v[3 * i + 1], v[3 * i + 2]];
}

/** Distance from p to the nearest of all triangles, by brute force. */
function bruteDistance(v: ArrayLike<number>, idx: ArrayLike<number>, p: V3): number {
  let best = Infinity;
  for (let t = 0; t < idx.length / 3; t++) {
    const q = triClosest(
      corner(v, idx[3 * t]),
      corner(v, idx[3 * t + 1]),
      corner(v, idx[3 * t + 2]),
      p,
    );
    best = Math.min(best, Math.hypot(...sub(p, q)));
  }
  return best;
}

/** Inside by ray parity: crossings of a ray in a fixed irrational direction (Möller–Trumbore). */
function insideByParity(v: ArrayLike<number>, idx: ArrayLike<number>, p: V3): boolean {
  const dir: V3 = [0.5773502691896258, 0.3141592653589793, 0.7536243212734351];
  let hits = 0;
  for (let t = 0; t < idx.length / 3; t++) {
    const a = corner(v, idx[3 * t]), b = corner(v, idx[3 * t + 1]), c = corner(v, idx[3 * t + 2]);
    const e1 = sub(b, a), e2 = sub(c, a), h = cross(dir, e2), det = dot(e1, h);
    if (Math.abs(det) < 1e-15) continue;
    const s = sub(p, a), u = dot(s, h) / det;
    if (u < 0 || u > 1) continue;
    const q = cross(s, e1), w = dot(dir, q) / det;
    if (w < 0 || u + w > 1) continue;
    if (dot(e2, q) / det > 0) hits++;
  }
  return hits % 2 === 1;
}

// ---------------------------------------------------------------------------------------------
// test meshes

/** A prism: the CCW polygon `poly` (with its triangulation `tris`) extruded over z ∈ [z0, z1]. */
function extrude(poly: number[][], tris: number[][], z0: number, z1: number) {
  const n = poly.length, vertices: number[] = [], indices: number[] = [];
  for (const z of [z0, z1]) for (const [x, y] of poly) vertices.push(x, y, z);
  for (const [a, b, c] of tris) indices.push(n + a, n + b, n + c, c, b, a);
  for (let k = 0; k < n; k++) {
    const l = (k + 1) % n;
    indices.push(k, l, n + l, k, n + l, n + k);
  }
  return { vertices, indices };
}

/** The L-shaped prism: three unit cubes, (0..2)×(0..1) ∪ (0..1)×(1..2), z ∈ [0, 1]. */
function lPrism() {
  return extrude(
    [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]],
    [[0, 1, 2], [0, 2, 3], [0, 3, 4], [0, 4, 5]],
    0,
    1,
  );
}

/** A polyhedral torus (major radius R, minor r), outward winding. */
function torus(R: number, r: number, nu: number, nv: number) {
  const vertices: number[] = [], indices: number[] = [];
  for (let i = 0; i < nu; i++) {
    const u = (2 * Math.PI * i) / nu;
    for (let j = 0; j < nv; j++) {
      const w = (2 * Math.PI * j) / nv;
      vertices.push(
        (R + r * Math.cos(w)) * Math.cos(u),
        (R + r * Math.cos(w)) * Math.sin(u),
        r * Math.sin(w),
      );
    }
  }
  const id = (i: number, j: number) => ((i + nu) % nu) * nv + ((j + nv) % nv);
  for (let i = 0; i < nu; i++) {
    for (let j = 0; j < nv; j++) {
      const a = id(i, j), b = id(i + 1, j), c = id(i + 1, j + 1), d = id(i, j + 1);
      indices.push(a, b, c, a, c, d);
    }
  }
  return { vertices, indices };
}

function reversed(indices: number[] | Uint32Array): number[] {
  const out = Array.from(indices);
  for (let t = 0; t < out.length; t += 3) [out[t + 1], out[t + 2]] = [out[t + 2], out[t + 1]];
  return out;
}

// ---------------------------------------------------------------------------------------------

describe("bodies/mesh: TriangleMesh.closest", () => {
  it("a box given as 12 triangles agrees with boxClosest to 1e-12", () => {
    const h: V3 = [0.5, 0.3, 0.2];
    const mesh = TriangleMesh.box(...h);
    const rng = new Rng(3);
    const a = new Float64Array(7), b = new Float64Array(7);
    let worst = 0, n = 0;
    const compare = (p: V3) => {
      boxClosest(h[0], h[1], h[2], p[0], p[1], p[2], a);
      expect(mesh.closest(p[0], p[1], p[2], 1, b)).toBe(true);
      for (let k = 0; k < 7; k++) worst = Math.max(worst, Math.abs(a[k] - b[k]));
      n++;
    };
    const u = (k: number) => rng.uniform(-0.95, 0.95) * h[k];
    const out = () => rng.uniform(0.001, 0.2);
    for (let k = 0; k < 200; k++) {
      const ax = k % 3, s = k % 2 ? 1 : -1;
      // outside near a face
      const f: V3 = [u(0), u(1), u(2)];
      f[ax] = s * (h[ax] + out());
      compare(f);
      // inside near a face (shallower than 0.05 below it: the face is the nearest)
      const g: V3 = [u(0), u(1), u(2)].map((x) => 0.3 * x) as V3;
      g[ax] = s * (h[ax] - rng.uniform(0.0001, 0.05));
      compare(g);
      // outside near an edge
      const e: V3 = [u(0), u(1), u(2)];
      e[ax] = s * (h[ax] + out());
      e[(ax + 1) % 3] = (k % 4 < 2 ? 1 : -1) * (h[(ax + 1) % 3] + out());
      compare(e);
      // outside near a corner
      compare([
        (k & 1 ? 1 : -1) * (h[0] + out()),
        (k & 2 ? 1 : -1) * (h[1] + out()),
        (k & 4 ? 1 : -1) * (h[2] + out()),
      ]);
    }
    // above face diagonals and at the centre of faces (coplanar edge between two triangles)
    compare([0, 0, 0.5]);
    compare([0.25, 0.15, 0.21]);
    compare([0.1, 0.06, -0.19]);
    expect(n).toBe(803);
    expect(worst).toBeLessThan(1e-12);
    // face normals come out exactly axis-aligned
    mesh.closest(0.1, 0.2, 0.3, 1, b);
    expect([b[3], b[4], b[5]]).toEqual([0, 0, 1]);
    mesh.closest(-0.7, 0.1, -0.1, 1, b);
    expect([b[3], b[4], b[5]]).toEqual([-1, 0, 0]);
  });

  for (
    const [name, make] of [
      ["L-shaped prism", lPrism],
      ["torus", () => torus(1, 0.4, 16, 10)],
    ] as const
  ) {
    it(`${name}: distance vs brute force over all triangles, sign vs ray parity`, () => {
      const { vertices, indices } = make();
      const mesh = TriangleMesh.create(vertices, indices);
      const lo = mesh.boundsMin, hi = mesh.boundsMax;
      const rng = new Rng(5);
      const out = new Float64Array(7), counters = new Float64Array(2);
      let inside = 0, worstD = 0, worstP = 0, found = 0, missed = 0;
      for (let k = 0; k < 600; k++) {
        const p: V3 = [0, 0, 0].map((_, a) => rng.uniform(lo[a] - 0.3, hi[a] + 0.3)) as V3;
        const brute = bruteDistance(vertices, indices, p);
        const parity = insideByParity(vertices, indices, p);
        // unlimited reach: always an answer
        expect(mesh.closest(p[0], p[1], p[2], Infinity, out, counters)).toBe(true);
        const [qx, qy, qz, nx, ny, nz, d] = out;
        worstD = Math.max(worstD, Math.abs(Math.abs(d) - brute));
        worstP = Math.max(
          worstP,
          Math.abs(qx + d * nx - p[0]),
          Math.abs(qy + d * ny - p[1]),
          Math.abs(qz + d * nz - p[2]),
        );
        expect(Math.abs(Math.hypot(nx, ny, nz) - 1)).toBeLessThan(1e-14);
        expect({ p, inside: d < 0 }).toEqual({ p, inside: parity });
        if (parity) inside++;
        // the closest point is on the surface
        expect(bruteDistance(vertices, indices, [qx, qy, qz])).toBeLessThan(1e-12);
        // a limited reach finds the same answer exactly when the surface is within reach
        const reach = 0.15;
        const hit = mesh.closest(p[0], p[1], p[2], reach, out);
        if (brute <= reach - 1e-12) {
          expect(hit).toBe(true);
          expect(out[6]).toBe(d);
          found++;
        } else if (brute > reach + 1e-12) {
          expect(hit).toBe(false);
          missed++;
        }
      }
      expect(worstD).toBeLessThan(1e-12);
      expect(worstP).toBeLessThan(1e-12);
      expect(inside).toBeGreaterThan(40);
      expect(found).toBeGreaterThan(40);
      expect(missed).toBeGreaterThan(40);
      // with unlimited reach every triangle is a candidate
      expect(counters[0]).toBe(600 * mesh.triangleCount);
      expect(counters[1]).toBe(600);
    });
  }

  it("the L's re-entrant edge (1, 1, z): inside points leave the fastest way", () => {
    const { vertices, indices } = lPrism();
    const mesh = TriangleMesh.create(vertices, indices);
    const out = new Float64Array(7);
    // inside, beside the wall x = 1 (y in [1, 2]): that wall's normal
    mesh.closest(0.97, 1.2, 0.5, 0.5, out);
    expect(out[6]).toBeCloseTo(-0.03, 14);
    expect([out[3], out[4], out[5]]).toEqual([1, 0, 0]);
    // inside, diagonally in front of the edge: the edge is nearest, n = (q − p)/|q − p|
    mesh.closest(0.9, 0.9, 0.5, 0.5, out);
    expect(out[6]).toBeCloseTo(-0.1 * Math.SQRT2, 14);
    expect([out[0], out[1], out[2]]).toEqual([1, 1, 0.5]);
    expect(out[3]).toBeCloseTo(Math.SQRT1_2, 14);
    expect(out[4]).toBeCloseTo(Math.SQRT1_2, 14);
    // outside in the notch: the two walls are equally near (0.1)
    mesh.closest(1.1, 1.1, 0.5, 0.5, out);
    expect(out[6]).toBeCloseTo(0.1, 14);
    expect(Math.abs(out[3]) + Math.abs(out[4])).toBe(1);
  });

  it("grid pruning: far points test no triangle, near points a few", () => {
    const { vertices, indices } = torus(1, 0.3, 48, 24);
    const mesh = TriangleMesh.create(vertices, indices);
    expect(mesh.triangleCount).toBe(2304);
    const out = new Float64Array(7), counters = new Float64Array(2);
    // far outside the bounds
    expect(mesh.closest(5, 0, 0, 0.05, out, counters)).toBe(false);
    // inside the bounding box but in the hole, far from the surface
    expect(mesh.closest(0, 0, 0, 0.05, out, counters)).toBe(false);
    expect([...counters]).toEqual([0, 0]);
    // a grain touching the outer equator
    expect(mesh.closest(1.33, 0, 0, 0.05, out, counters)).toBe(true);
    expect(out[6]).toBeGreaterThan(0);
    expect(out[6]).toBeLessThan(0.05);
    expect(counters[0]).toBeGreaterThan(0);
    expect(counters[0]).toBeLessThan(120); // of 2304
    expect(counters[1]).toBe(1);
    // every triangle was put in a cell: the union of all cells' lists covers the mesh
    expect(mesh.gridSize[0] * mesh.gridSize[1] * mesh.gridSize[2]).toBeGreaterThan(100);
  });
});

describe("bodies/mesh: validation", () => {
  const box = TriangleMesh.box(1, 1, 1);
  const V = Array.from(box.vertices), I = Array.from(box.indices);

  it("empty, lengths, NaN, index out of range or not an integer", () => {
    expect(() => TriangleMesh.create([], [])).toThrow("addMesh: the mesh is empty");
    expect(() => TriangleMesh.create(V, [])).toThrow(/empty \(indices has length 0\)/);
    expect(() => TriangleMesh.create(V.slice(1), I)).toThrow(
      "addMesh: vertices (length 23) must be a flat xyz list (a multiple of 3)",
    );
    expect(() => TriangleMesh.create(V, I.slice(1))).toThrow(/indices \(length 35\)/);
    const nan = V.slice();
    nan[7] = NaN;
    expect(() => TriangleMesh.create(nan, I, { where: "World.addMesh", source: "part.stl" }))
      .toThrow(
        "World.addMesh (part.stl): vertices[7] (NaN), coordinate y of vertex 2, must be a finite number",
      );
    const far = I.slice();
    far[5] = 8;
    expect(() => TriangleMesh.create(V, far)).toThrow(
      "indices[5] (8), corner 2 of triangle 1, must be an integer vertex index in [0, 7]",
    );
    far[5] = 1.5;
    expect(() => TriangleMesh.create(V, far)).toThrow(/indices\[5\] \(1\.5\)/);
    expect(() => TriangleMesh.create("abc" as unknown as number[], I)).toThrow(TypeError);
  });

  it("zero-area triangles", () => {
    const flat = I.slice();
    flat[2] = flat[1];
    expect(() => TriangleMesh.create(V, flat)).toThrow(/triangle 0 .* has zero area/);
    // three collinear vertices: (−1, −1, 1), (0, 0, 1), (1, 1, 1)
    const v = V.concat([0, 0, 1]);
    expect(() => TriangleMesh.create(v, [4, 8, 7, ...I])).toThrow(
      "addMesh: triangle 0 (vertices 4, 8, 7) has zero area (degenerate)",
    );
  });

  it("not a closed 2-manifold: a missing triangle, an edge of 4 triangles, a pinched vertex", () => {
    expect(() => TriangleMesh.create(V, I.slice(3))).toThrow(
      /not a closed 2-manifold: edge \(\d+, \d+\) of triangle \d+ .* belongs to no other triangle/,
    );
    // two tetrahedra sharing one edge (0, 1): four triangles along it
    const tv = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, -1, 0, 0, 0, -1];
    const t1 = [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3];
    // the second is the first turned 180° about x (vertices 2 → 4, 3 → 5): outward too
    const t2 = [0, 4, 1, 0, 1, 5, 0, 5, 4, 1, 4, 5];
    expect(() => TriangleMesh.create(tv, t1.concat(t2))).toThrow(
      /not a closed 2-manifold: edge \(0, 1\) is used by more than two triangles \(triangle 0/,
    );
    // two tetrahedra sharing only vertex 0 (the second mirrored through it, so re-wound)
    const pv = [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, -1, 0, 0, 0, -1, 0, 0, 0, -1];
    const p2 = reversed([0, 5, 4, 0, 4, 6, 0, 6, 5, 4, 5, 6]);
    expect(() => TriangleMesh.create(pv, t1.concat(p2))).toThrow(
      "not a closed 2-manifold: vertex 0 joins 6 triangles that form more than one fan",
    );
  });

  it("inconsistent and inward winding, no volume", () => {
    const flip = I.slice();
    [flip[7], flip[8]] = [flip[8], flip[7]];
    expect(() => TriangleMesh.create(V, flip)).toThrow(
      /inconsistent winding: triangle \d+ \(.*\) and triangle \d+ \(.*\) both run along edge/,
    );
    expect(() => TriangleMesh.create(V, reversed(I), { source: "in.obj" })).toThrow(
      /^addMesh \(in\.obj\): the triangles are wound inward \(signed volume -8 m³ < 0\)/,
    );
    // a double-sided triangle: closed and consistent, but encloses nothing
    expect(() => TriangleMesh.create([0, 0, 0, 1, 0, 0, 0, 1, 0], [0, 1, 2, 0, 2, 1])).toThrow(
      /encloses no volume/,
    );
  });
});

describe("bodies/mesh: mass properties", () => {
  /** Inertia of a box (full lengths a, b, c) of mass m about its centre. */
  const boxI = (m: number, a: number, b: number, c: number) => [
    (m * (b * b + c * c)) / 12,
    (m * (a * a + c * c)) / 12,
    (m * (a * a + b * b)) / 12,
  ];

  it("a translated, rotated box vs the analytic tensor R I Rᵀ", () => {
    const h = [0.4, 0.25, 0.1], rho = 2500;
    const box = TriangleMesh.box(h[0], h[1], h[2]);
    // rotation: 30° about (1, 2, 3)/|…| (Rodrigues)
    const ax = [1, 2, 3].map((x) => x / Math.hypot(1, 2, 3)), th = Math.PI / 6;
    const c = Math.cos(th), s = Math.sin(th), C = 1 - c;
    const [x, y, z] = ax;
    const R = [
      [c + x * x * C, x * y * C - z * s, x * z * C + y * s],
      [y * x * C + z * s, c + y * y * C, y * z * C - x * s],
      [z * x * C - y * s, z * y * C + x * s, c + z * z * C],
    ];
    const t = [3, -2, 1.5];
    const v = new Float64Array(box.vertices.length);
    for (let k = 0; k < v.length; k += 3) {
      for (let i = 0; i < 3; i++) {
        v[k + i] = t[i] + R[i][0] * box.vertices[k] + R[i][1] * box.vertices[k + 1] +
          R[i][2] * box.vertices[k + 2];
      }
    }
    const m = TriangleMesh.create(v, box.indices).massProperties(rho);
    const mass = rho * 8 * h[0] * h[1] * h[2];
    expect(m.mass).toBeCloseTo(mass, 10);
    m.centerOfMass.forEach((g, k) => expect(g).toBeCloseTo(t[k], 12));
    const d = boxI(mass, 2 * h[0], 2 * h[1], 2 * h[2]);
    // R diag(d) Rᵀ
    const I = (i: number, j: number) =>
      R[i][0] * d[0] * R[j][0] + R[i][1] * d[1] * R[j][1] +
      R[i][2] * d[2] * R[j][2];
    const want = [I(0, 0), I(1, 1), I(2, 2), I(0, 1), I(0, 2), I(1, 2)];
    m.inertia.forEach((x, k) => expect(x).toBeCloseTo(want[k], 10));
    expect(Math.abs(m.inertia[3])).toBeGreaterThan(0.01); // off-diagonal terms are exercised
  });

  it("the L prism: three unit cubes by the parallel-axis theorem", () => {
    const { vertices, indices } = lPrism();
    const m = TriangleMesh.create(vertices, indices).massProperties(1);
    expect(m.volume).toBeCloseTo(3, 13);
    const g = [2.5 / 3, 2.5 / 3, 0.5];
    m.centerOfMass.forEach((x, k) => expect(x).toBeCloseTo(g[k], 13));
    // cubes centred at (0.5, 0.5), (1.5, 0.5), (0.5, 1.5), z = 0.5; each: 1/6 about its centre
    const cubes = [[0.5, 0.5, 0.5], [1.5, 0.5, 0.5], [0.5, 1.5, 0.5]];
    const want = [0, 0, 0, 0, 0, 0];
    for (const cc of cubes) {
      const r = cc.map((x, k) => x - g[k]);
      want[0] += 1 / 6 + r[1] * r[1] + r[2] * r[2];
      want[1] += 1 / 6 + r[0] * r[0] + r[2] * r[2];
      want[2] += 1 / 6 + r[0] * r[0] + r[1] * r[1];
      want[3] -= r[0] * r[1];
      want[4] -= r[0] * r[2];
      want[5] -= r[1] * r[2];
    }
    m.inertia.forEach((x, k) => expect(x).toBeCloseTo(want[k], 13));
    expect(() => TriangleMesh.box(1, 1, 1).massProperties(0)).toThrow(
      "TriangleMesh.massProperties: density (0) must be > 0",
    );
  });
});

describe("bodies/mesh_io: OBJ and STL", () => {
  const boxVolume = 1 * 0.5 * 0.25;

  it("fixtures: tetrahedron OBJ, quad box OBJ, binary and ASCII STL boxes", () => {
    const tet = readMeshFile(FIXTURES + "tetra.obj");
    expect([...tet.indices]).toEqual([0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3]);
    expect(TriangleMesh.create(tet.vertices, tet.indices).massProperties(1).volume)
      .toBeCloseTo(1 / 6, 15);
    for (const f of ["box_quads.obj", "box_binary.stl", "box_ascii.stl"]) {
      const m = readMeshFile(FIXTURES + f);
      expect({ f, v: m.vertices.length, t: m.indices.length }).toEqual({ f, v: 24, t: 36 });
      const mesh = TriangleMesh.create(m.vertices, m.indices, { source: f });
      expect(mesh.massProperties(1).volume).toBeCloseTo(boxVolume, 14);
      expect([...mesh.boundsMax]).toEqual([0.5, 0.25, 0.125]);
    }
    // the two STL flavours weld to the same mesh
    const a = readMeshFile(FIXTURES + "box_binary.stl");
    const b = readMeshFile(FIXTURES + "box_ascii.stl");
    expect([...a.vertices]).toEqual([...b.vertices]);
    expect([...a.indices]).toEqual([...b.indices]);
  });

  it("round trips: a torus written as OBJ, binary STL and ASCII STL reads back", () => {
    const { vertices, indices } = torus(1, 0.4, 12, 8);
    const f32 = Float64Array.from(new Float32Array(vertices));
    const obj = Array.from(
      { length: vertices.length / 3 },
      (_, i) => `v ${vertices[3 * i]} ${vertices[3 * i + 1]} ${vertices[3 * i + 2]}`,
    )
      .concat(
        Array.from(
          { length: indices.length / 3 },
          (_, t) =>
            `f ${indices[3 * t] + 1} ${indices[3 * t + 1] + 1}/7 ${indices[3 * t + 2] + 1}//2`,
        ),
      ).join("\r\n");
    const o = parseObj(obj, "t.obj");
    expect([...o.vertices]).toEqual(vertices);
    expect([...o.indices]).toEqual(indices);
    // STL: 32-bit floats, welded in order of first use
    const T = indices.length / 3;
    const bin = new Uint8Array(84 + 50 * T), dv = new DataView(bin.buffer);
    dv.setUint32(80, T, true);
    let ascii = "solid torus\n";
    for (let t = 0; t < T; t++) {
      ascii += "facet normal 0 0 0\nouter loop\n";
      for (let c = 0; c < 3; c++) {
        for (let k = 0; k < 3; k++) {
          dv.setFloat32(84 + 50 * t + 12 + 12 * c + 4 * k, f32[3 * indices[3 * t + c] + k], true);
        }
        const i = 3 * indices[3 * t + c];
        ascii += `vertex ${f32[i]} ${f32[i + 1]} ${f32[i + 2]}\n`;
      }
      ascii += "endloop\nendfacet\n";
    }
    ascii += "endsolid torus\n";
    for (const m of [parseStl(bin), parseStl(new TextEncoder().encode(ascii))]) {
      expect(m.indices.length).toBe(indices.length);
      expect(m.vertices.length).toBe(vertices.length);
      // same triangles, coordinate for coordinate
      for (let t = 0; t < T; t++) {
        for (let c = 0; c < 3; c++) {
          for (let k = 0; k < 3; k++) {
            const got = m.vertices[3 * m.indices[3 * t + c] + k];
            if (got !== f32[3 * indices[3 * t + c] + k]) throw new Error(`t ${t} c ${c} k ${k}`);
          }
        }
      }
      const mesh = TriangleMesh.create(m.vertices, m.indices);
      expect(mesh.massProperties(1).volume).toBeCloseTo(
        TriangleMesh.create(f32, indices).massProperties(1).volume,
        14,
      );
    }
  });

  it("errors name the file, the line or triangle and the rule", () => {
    expect(() => parseObj("v 0 0 0\nv 1 0 0\nf 1 2\n", "a.obj")).toThrow(
      "parseObj (a.obj): line 3: a face needs at least 3 vertices, got 2",
    );
    expect(() => parseObj("v 0 0 0\nv 1 0 0\nv 0 1 0\n# c\nf 1 2 9\n", "a.obj")).toThrow(
      "parseObj (a.obj): line 5: vertex reference 9 is out of range (the file defines 3 vertices)",
    );
    expect(() => parseObj("v 0 0 0\nf 1 0 1\n")).toThrow(/line 2: vertex reference 0 is invalid/);
    expect(() => parseObj("v 0 0 0\nf -2 1 1\n")).toThrow(/line 2: vertex reference -2 points/);
    expect(() => parseObj("v 0 zero 0\n")).toThrow(/line 1: vertex coordinate "zero"/);
    expect(() => parseObj("v 0 0\n")).toThrow(/line 1: a vertex needs 3 coordinates/);
    expect(() => parseObj("v 0 0 0\nf a b c\n")).toThrow(/line 2: vertex reference "a"/);
    expect(() => parseObj("# nothing\n", "e.obj")).toThrow("parseObj (e.obj): no faces");
    const bin = Deno.readFileSync(FIXTURES + "box_binary.stl");
    expect(() => parseStl(bin.subarray(0, bin.length - 7), "cut.stl")).toThrow(
      /parseStl \(cut\.stl\): not an STL file: as binary STL its header states 12 triangles \(684 bytes\) but the file has 677 bytes/,
    );
    const bad = bin.slice();
    new DataView(bad.buffer).setFloat32(84 + 50 * 3 + 12 + 4 * 4, NaN, true);
    expect(() => parseStl(bad, "nan.stl")).toThrow(
      "parseStl (nan.stl): triangle 3: vertex 1 coordinate y (NaN) must be a finite number",
    );
    const quad = "solid q\nfacet normal 0 0 1\nouter loop\nvertex 0 0 0\nvertex 1 0 0\n" +
      "vertex 1 1 0\nvertex 0 1 0\nendloop\nendfacet\nendsolid q\n";
    expect(() => parseStl(new TextEncoder().encode(quad), "q.stl")).toThrow(
      "parseStl (q.stl): line 7: the facet starting at line 3 has more than 3 vertices",
    );
    expect(() => parseStl(new TextEncoder().encode("solid e\nendsolid e\n"))).toThrow(
      /no triangles/,
    );
    expect(() => parseStl(new Uint8Array(10))).toThrow(/too short for binary STL/);
    expect(() => readMeshFile("/nowhere/x.3ds")).toThrow(
      "readMeshFile: /nowhere/x.3ds: the extension (.3ds) must be .obj or .stl",
    );
    expect(() => readMeshFile("/nowhere/x.stl")).toThrow(Deno.errors.NotFound);
  });
});

// ---------------------------------------------------------------------------------------------

describe("bodies/heightmap", () => {
  /** Reference height: the two triangles of the cell, written independently. */
  function refHeight(h: ArrayLike<number>, nx: number, ny: number, sx: number, sy: number) {
    return (x: number, y: number) => {
      const gx = ((x + sx / 2) / sx) * (nx - 1), gy = ((y + sy / 2) / sy) * (ny - 1);
      const i = Math.min(nx - 2, Math.floor(gx)), j = Math.min(ny - 2, Math.floor(gy));
      const u = gx - i, v = gy - j;
      const z = (a: number, b: number) => h[(j + b) * nx + i + a];
      // barycentric on (0,0)-(1,0)-(1,1) when u ≥ v, (0,0)-(1,1)-(0,1) otherwise
      return u >= v
        ? (1 - u) * z(0, 0) + (u - v) * z(1, 0) + v * z(1, 1)
        : (1 - v) * z(0, 0) + u * z(1, 1) + (v - u) * z(0, 1);
    };
  }

  /** The height map's triangles as a flat mesh (for brute force). */
  function mapTriangles(h: ArrayLike<number>, nx: number, ny: number, sx: number, sy: number) {
    const v: number[] = [], idx: number[] = [];
    for (let j = 0; j < ny; j++) {
      for (let i = 0; i < nx; i++) {
        v.push(-sx / 2 + (i * sx) / (nx - 1), -sy / 2 + (j * sy) / (ny - 1), h[j * nx + i]);
      }
    }
    for (let j = 0; j + 1 < ny; j++) {
      for (let i = 0; i + 1 < nx; i++) {
        const a = j * nx + i;
        idx.push(a, a + 1, a + nx + 1, a, a + nx + 1, a + nx);
      }
    }
    return { v, idx };
  }

  it("a flat map is the ground plane: n = (0, 0, 1) and d = pz − h exactly", () => {
    const z0 = 0.137;
    const map = HeightMap.create({
      heights: new Float64Array(7 * 5).fill(z0),
      nx: 7,
      ny: 5,
      sizeX: 1.2,
      sizeY: 0.8,
    });
    const rng = new Rng(1), out = new Float64Array(7);
    for (let k = 0; k < 2000; k++) {
      const x = rng.uniform(-0.6, 0.6), y = rng.uniform(-0.4, 0.4), z = rng.uniform(-0.05, 0.2);
      expect(map.closest(x, y, z, 0.25, out)).toBe(true);
      if (out[3] !== 0 || out[4] !== 0 || out[5] !== 1 || out[6] !== z - z0) {
        throw new Error(`(${x}, ${y}, ${z}): ${[...out]}`);
      }
      expect(map.heightAt(x, y)).toBe(z0);
    }
    // over grid lines and grid points
    for (const [x, y] of [[0, 0], [-0.4, 0.2], [0.6, 0.4], [-0.6, -0.4], [0.1, 0.2]]) {
      map.closest(x, y, 0.3, 0.5, out);
      expect([out[0], out[1], out[3], out[4], out[5], out[6]]).toEqual([x, y, 0, 0, 1, 0.3 - z0]);
      expect(out[2]).toBeCloseTo(z0, 15);
    }
  });

  it("a bumpy map: distance vs brute force, inside = below h(x, y), heightAt vs reference", () => {
    const nx = 9, ny = 7, sx = 2, sy = 1.5;
    const rng = new Rng(9);
    const heights = Array.from(
      { length: nx * ny },
      (_, k) => 0.2 * Math.sin(k % nx) * Math.cos(Math.floor(k / nx)) + rng.uniform(-0.05, 0.05),
    );
    const map = HeightMap.create({ heights, nx, ny, sizeX: sx, sizeY: sy });
    const ref = refHeight(heights, nx, ny, sx, sy);
    const { v, idx } = mapTriangles(heights, nx, ny, sx, sy);
    const out = new Float64Array(7), counters = new Float64Array(2);
    let worst = 0, below = 0, beyond = 0, worstH = 0;
    for (let k = 0; k < 800; k++) {
      const p: V3 = [rng.uniform(-1.3, 1.3), rng.uniform(-1, 1), rng.uniform(-0.5, 0.5)];
      const within = Math.abs(p[0]) <= 1 && Math.abs(p[1]) <= 0.75;
      if (within) worstH = Math.max(worstH, Math.abs(map.heightAt(p[0], p[1]) - ref(p[0], p[1])));
      const brute = bruteDistance(v, idx, p);
      const hit = map.closest(p[0], p[1], p[2], 0.3, out, counters);
      expect(hit).toBe(brute <= 0.3);
      if (!hit) continue;
      const [qx, qy, qz, nx_, ny_, nz_, d] = out;
      worst = Math.max(worst, Math.abs(Math.abs(d) - brute));
      expect(
        Math.abs(qx + d * nx_ - p[0]) + Math.abs(qy + d * ny_ - p[1]) +
          Math.abs(qz + d * nz_ - p[2]),
      ).toBeLessThan(1e-13);
      expect(Math.abs(Math.hypot(nx_, ny_, nz_) - 1)).toBeLessThan(1e-14);
      const under = within && p[2] < ref(p[0], p[1]);
      expect({ p, inside: d < 0 }).toEqual({ p, inside: under });
      if (under) {
        below++;
        // out of the ground: up-ish (away from the rim, where the nearest point may be the edge)
        if (Math.abs(p[0]) < 0.9 && Math.abs(p[1]) < 0.65) expect(nz_).toBeGreaterThan(0);
      }
      if (!within) beyond++;
    }
    expect(worst).toBeLessThan(1e-12);
    expect(worstH).toBeLessThan(1e-14);
    expect(below).toBeGreaterThan(50);
    expect(beyond).toBeGreaterThan(5);
    expect(counters[0]).toBeGreaterThan(0);
    // a point below a single sloped triangle: n is that triangle's normal
    const ramp = HeightMap.create({ heights: [0, 1, 0, 1], nx: 2, ny: 2, sizeX: 1, sizeY: 1 });
    ramp.closest(0.2, -0.1, 0.6, 1, out); // surface z = x + 0.5 = 0.7
    expect(out[3]).toBeCloseTo(-Math.SQRT1_2, 15);
    expect(out[5]).toBeCloseTo(Math.SQRT1_2, 15);
    expect(out[6]).toBeCloseTo(-0.1 * Math.SQRT1_2, 15);
  });

  it("only the cells within reach are tested; far points test none", () => {
    const map = HeightMap.create({
      heights: new Float64Array(101 * 101),
      nx: 101,
      ny: 101,
      sizeX: 10,
      sizeY: 10,
    });
    const out = new Float64Array(7), counters = new Float64Array(2);
    expect(map.closest(0.05, 0.05, 1, 0.2, out, counters)).toBe(false); // too high
    expect(map.closest(20, 0, 0, 0.2, out, counters)).toBe(false); // beside the map
    expect([...counters]).toEqual([0, 0]);
    expect(map.closest(0.05, 0.05, 0.1, 0.12, out, counters)).toBe(true);
    // cells overlapping [−0.07, 0.17]²: 3 × 3 cells, 2 triangles each
    expect(counters[0]).toBe(18);
    expect(counters[1]).toBe(1);
    // beyond the edge of the map, below its level: outside (no skirt), nearest the rim
    expect(map.closest(5.1, 0, -0.05, 0.2, out)).toBe(true);
    expect(out[6]).toBeCloseTo(Math.hypot(0.1, 0.05), 14);
    expect(out[0]).toBe(5);
  });

  it("validation names the field and the rule", () => {
    const ok = { heights: [0, 0, 0, 0], nx: 2, ny: 2, sizeX: 1, sizeY: 1 };
    expect(() => HeightMap.create({ ...ok, heights: [0, 0, 0, NaN] })).toThrow(
      "addHeightMap: heights[3] (NaN) at grid point (i = 1, j = 1) must be a finite number",
    );
    expect(() => HeightMap.create({ ...ok, heights: [0, 0, 0] }, { where: "World.addHeightMap" }))
      .toThrow(
        "World.addHeightMap: heights (length 3) must hold nx·ny = 2·2 = 4 values (row-major, x fastest)",
      );
    expect(() => HeightMap.create({ ...ok, nx: 1 })).toThrow("nx (1) must be an integer >= 2");
    expect(() => HeightMap.create({ ...ok, ny: 2.5 })).toThrow("ny (2.5) must be an integer >= 2");
    expect(() => HeightMap.create({ ...ok, sizeX: 0 })).toThrow("sizeX (0) must be > 0");
    expect(() => HeightMap.create({ ...ok, sizeY: -1 })).toThrow("sizeY (-1) must be > 0");
    expect(() => HeightMap.create({ ...ok, size: 1 } as unknown as typeof ok)).toThrow(
      /unknown option "size"/,
    );
    expect(() => HeightMap.create(ok).closest(0, 0, 0, -1, new Float64Array(7))).toThrow(
      "HeightMap.closest: reach (-1) must be >= 0",
    );
  });
});
