/**
 * Rigid bodies in the 3D viewer: the shapes of a world's bodies (read once, meshes and height
 * maps copied as float32), their poses per recorded frame, the box they occupy (for the
 * camera), the drawing style, the header the page reads and the wireframe of the still image.
 *
 * @module
 */

import { options as checkOptions } from "../math/validate.ts";
import { BodyKind, quatMatrix, ShapeKind } from "../sphere3d/bodies/body_set.ts";
import type { HeightMap } from "../sphere3d/bodies/heightmap.ts";
import { CIRCLE, SHAPE_TABLE } from "../sphere3d/bodies/shape_table.ts";
import { bodiesOf } from "../sphere3d/world.ts";
import type { View3DOptions } from "./viewer_types.ts";

/** The style object of the `bodies` option. */
type ViewBodyStyle = Exclude<View3DOptions["bodies"], boolean | undefined>;

/** One contact shape of a body: kind, parameters, pose in the body frame, triangles or heights. */
export interface BodyShape {
  /** Body index. */
  body: number;
  /** `ShapeKind` (sphere 0, box 1, capsule 2, cylinder 3, mesh 4, height map 5). */
  kind: number;
  /** Sphere r; box hx hy hz; capsule/cylinder r, halfHeight. */
  param: number[];
  /** Origin in the body frame (m). */
  position: number[];
  /** Orientation in the body frame `[x, y, z, w]`. */
  orientation: number[];
  /** Local bounding box (min xyz, max xyz) about the shape's origin. */
  bounds: number[];
  /** Surface vertices (m), stride 3 (every shape but a height map). */
  vertices?: Float32Array;
  /** Surface triangles, 3 vertex indices each. */
  indices?: Uint32Array;
  /** Faceted shading of the triangles (meshes, boxes) rather than smooth. */
  flat?: boolean;
  /** Height map: heights (m), row-major with x fastest, on an nx × ny grid of sizeX × sizeY. */
  heightMap?: { heights: Float32Array; nx: number; ny: number; sizeX: number; sizeY: number };
  /** The mesh or height map it was read from (to reuse between records). */
  source: unknown;
}

/** The bodies of a world as the viewer draws them: types, names, shapes. */
export interface BodyShapes {
  /** `BodyKind` per body (dynamic 0, static 1, kinematic 2). */
  types: number[];
  /** Name per body. */
  names: string[];
  /** Every shape, in the world's order. */
  shapes: BodyShape[];
}

/** Body origins and orientations of one frame. */
export interface BodyPoses {
  /** Bodies in the frame. */
  count: number;
  /** Origins (m), stride 3. */
  pos: Float32Array;
  /** Orientations `[x, y, z, w]`, stride 4. */
  quat: Float32Array;
}

/** Names of the body types, by `BodyKind`. */
export const BODY_TYPE_NAMES = ["dynamic", "static", "kinematic"] as const;

/** Colours of the body types by default, by `BodyKind`. */
export const BODY_COLORS: readonly string[] = ["#e08a2c", "#8a8f98", "#c8489a"];

/** Whether `source` is a world whose body engine holds bodies. */
export function hasBodies(source: unknown): boolean {
  if (typeof source !== "object" || source === null) return false;
  const m = bodiesOf(source);
  return m !== null && m.set.count > 0;
}

/**
 * The bodies of a world and their poses now, or null when it has none. Shapes already read into
 * `prev` are reused (shapes never change once added).
 */
export function readBodies(
  source: unknown,
  prev: BodyShapes | null,
): { shapes: BodyShapes; poses: BodyPoses } | null {
  if (typeof source !== "object" || source === null) return null;
  const m = bodiesOf(source);
  if (m === null || m.set.count === 0) return null;
  const set = m.set, nb = set.count;
  const poses: BodyPoses = {
    count: nb,
    pos: Float32Array.from(set.pos.subarray(0, 3 * nb)),
    quat: Float32Array.from(set.quat.subarray(0, 4 * nb)),
  };
  let shapes = prev;
  if (!shapes || shapes.types.length !== nb || shapes.shapes.length !== set.shapes) {
    const list: BodyShape[] = [];
    for (let s = 0; s < set.shapes; s++) {
      const old = prev?.shapes[s];
      const same = old && old.body === set.shapeBody[s] && old.kind === set.shapeKind[s] &&
        old.source === set.objects[s] &&
        old.param.every((v, k) => v === set.param[4 * s + k]);
      list.push(same ? old : shapeOf(set, s));
    }
    shapes = {
      types: Array.from(set.kind.subarray(0, nb)),
      names: m.handles.slice(0, nb).map((h) => h.name),
      shapes: list,
    };
  }
  return { shapes, poses };
}

function shapeOf(
  set: NonNullable<ReturnType<typeof bodiesOf>>["set"],
  s: number,
): BodyShape {
  const kind = set.shapeKind[s], e = SHAPE_TABLE[kind];
  const param = Array.from(set.param.subarray(4 * s, 4 * s + e.paramCount));
  const shape: BodyShape = {
    body: set.shapeBody[s],
    kind,
    param,
    position: Array.from(set.localPos.subarray(3 * s, 3 * s + 3)),
    orientation: Array.from(set.localQuat.subarray(4 * s, 4 * s + 4)),
    bounds: [],
    source: set.objects[s],
  };
  const o = set.objects[s];
  if (kind === ShapeKind.heightMap) {
    const h = o as HeightMap;
    shape.heightMap = {
      heights: Float32Array.from(h.heights),
      nx: h.nx,
      ny: h.ny,
      sizeX: h.sizeX,
      sizeY: h.sizeY,
    };
    shape.bounds = [
      -0.5 * h.sizeX,
      -0.5 * h.sizeY,
      h.minHeight,
      0.5 * h.sizeX,
      0.5 * h.sizeY,
      h.maxHeight,
    ];
  } else {
    const t = e.surface(param, o)!;
    shape.vertices = Float32Array.from(t.vertices);
    shape.indices = Uint32Array.from(t.indices);
    shape.flat = t.flat;
    const { min, max } = e.bounds(param, o);
    shape.bounds = [...min, ...max];
  }
  return shape;
}

/** The drawing style of the bodies: off, or their opacity and colour per body type. */
export interface BodyStyle {
  /** Whether bodies are drawn. */
  show: boolean;
  /** Opacity in (0, 1]. */
  opacity: number;
  /** Colour `#rrggbb` by `BodyKind`. */
  colors: string[];
}

/** The `bodies` option, validated. */
export function bodyStyle(where: string, o: View3DOptions): BodyStyle {
  const v = o.bodies ?? true;
  const off = { show: false, opacity: 0.8, colors: [...BODY_COLORS] };
  if (v === false) return off;
  if (v === true) return { ...off, show: true };
  if (typeof v !== "object" || v === null) {
    throw new TypeError(
      `${where}: bodies (${String(v)}) must be a boolean or { opacity, colors }`,
    );
  }
  const s = checkOptions<ViewBodyStyle>(where, "bodies", v, ["opacity", "colors"]);
  const opacity = s.opacity ?? 0.8;
  if (typeof opacity !== "number" || !(opacity > 0 && opacity <= 1)) {
    throw new RangeError(`${where}: bodies.opacity (${String(s.opacity)}) must be in (0, 1]`);
  }
  const given = checkOptions<Record<string, string>>(
    where,
    "bodies.colors",
    s.colors,
    [...BODY_TYPE_NAMES],
  );
  const colors = BODY_TYPE_NAMES.map((name, k) => {
    const c = given[name] ?? BODY_COLORS[k];
    if (typeof c !== "string" || !/^#[0-9a-fA-F]{6}$/.test(c)) {
      throw new TypeError(
        `${where}: bodies.colors.${name} (${String(c)}) must be a colour #rrggbb`,
      );
    }
    return c;
  });
  return { show: true, opacity, colors };
}

const M = new Float64Array(9), N = new Float64Array(9);

/** World rotation (row-major, into M) and origin of shape `sh` of a body at `p`, `q`. */
function shapePose(sh: BodyShape, p: ArrayLike<number>, q: ArrayLike<number>): number[] {
  quatMatrix(q[0], q[1], q[2], q[3], M, 0);
  const l = sh.position, lq = sh.orientation;
  const o = [0, 1, 2].map((i) =>
    p[i] + M[3 * i] * l[0] + M[3 * i + 1] * l[1] + M[3 * i + 2] * l[2]
  );
  quatMatrix(lq[0], lq[1], lq[2], lq[3], N, 0);
  const R = [0, 0, 0, 0, 0, 0, 0, 0, 0];
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      R[3 * i + j] = M[3 * i] * N[j] + M[3 * i + 1] * N[3 + j] + M[3 * i + 2] * N[6 + j];
    }
  }
  M.set(R);
  return o;
}

/**
 * The boxes the bodies occupy over all frames: [lo, hi] of the moving (dynamic, kinematic)
 * bodies and of the static ones, null where there are none.
 */
export function bodyBounds(
  shapes: BodyShapes,
  frames: readonly { bodies?: BodyPoses }[],
): { moving: [number[], number[]] | null; fixed: [number[], number[]] | null } {
  const box = () => [[Infinity, Infinity, Infinity], [-Infinity, -Infinity, -Infinity]];
  const moving = box(), fixed = box();
  let anyMoving = false, anyFixed = false;
  for (const f of frames) {
    const b = f.bodies;
    if (!b) continue;
    for (const sh of shapes.shapes) {
      if (sh.body >= b.count) continue;
      const o = shapePose(sh, b.pos.subarray(3 * sh.body), b.quat.subarray(4 * sh.body));
      const lo = sh.bounds.slice(0, 3), hi = sh.bounds.slice(3);
      const isFixed = shapes.types[sh.body] === BodyKind.static;
      const [blo, bhi] = isFixed ? fixed : moving;
      if (isFixed) anyFixed = true;
      else anyMoving = true;
      for (let i = 0; i < 3; i++) {
        let c = o[i], e = 0;
        for (let j = 0; j < 3; j++) {
          c += M[3 * i + j] * 0.5 * (lo[j] + hi[j]);
          e += Math.abs(M[3 * i + j]) * 0.5 * (hi[j] - lo[j]);
        }
        blo[i] = Math.min(blo[i], c - e);
        bhi[i] = Math.max(bhi[i], c + e);
      }
    }
  }
  return {
    moving: anyMoving ? [moving[0], moving[1]] : null,
    fixed: anyFixed ? [fixed[0], fixed[1]] : null,
  };
}

/** Appends a typed array to the view's packed data; returns its byte offset. */
export type Pack = (a: ArrayBufferView) => number;

/** The header the page reads for the bodies (their shapes packed once). */
export function bodiesHead(
  shapes: BodyShapes,
  style: BodyStyle,
  pack: Pack,
): Record<string, unknown> {
  return {
    count: shapes.types.length,
    types: shapes.types,
    names: shapes.names,
    colors: style.colors,
    opacity: style.opacity,
    shapes: shapes.shapes.map((sh) => {
      const h: Record<string, unknown> = {
        b: sh.body,
        k: sh.kind,
        p: sh.param,
        lp: sh.position,
        lq: sh.orientation,
      };
      if (sh.vertices && sh.indices) {
        h.v = pack(sh.vertices), h.nv = sh.vertices.length / 3;
        h.i = pack(sh.indices), h.ni = sh.indices.length, h.f = sh.flat === true;
      }
      if (sh.heightMap) {
        const m = sh.heightMap;
        Object.assign(h, { h: pack(m.heights), nx: m.nx, ny: m.ny, sx: m.sizeX, sy: m.sizeY });
      }
      return h;
    }),
  };
}

/** The legend note: a swatch per body type present, with the number of bodies. */
export function bodiesNote(shapes: BodyShapes, style: BodyStyle): string {
  const n = [0, 0, 0];
  for (const t of shapes.types) n[t]++;
  const items = BODY_TYPE_NAMES.map((name, k) =>
    n[k] === 0 ? "" : `<div style="display:flex;align-items:center;gap:4px"><span style="` +
      `display:inline-block;width:10px;height:10px;background:${style.colors[k]}"></span>` +
      `${n[k]} ${name}</div>`
  ).join("");
  const total = shapes.types.length;
  return `<div style="font-weight:600;margin-bottom:2px">${total} rigid bod${
    total === 1 ? "y" : "ies"
  }</div>${items}`;
}

/**
 * Wireframe of the bodies for the still image: the edges of boxes, circles of spheres,
 * cylinders and capsules, and the triangle edges of meshes and height maps (a bounding box
 * when a mesh has more than `maxEdges` edges), in the body type's colour.
 */
export function bodyWireframe(
  shapes: BodyShapes,
  poses: BodyPoses | undefined,
  style: BodyStyle,
  maxEdges = 20_000,
): { segments: number[]; color: [number, number, number] }[] {
  if (!poses) return [];
  const out = style.colors.map((c) => ({
    segments: [] as number[],
    color: [0, 2, 4].map((k) => parseInt(c.slice(1 + k, 3 + k), 16)) as [number, number, number],
  }));
  for (const sh of shapes.shapes) {
    if (sh.body >= poses.count) continue;
    const o = shapePose(sh, poses.pos.subarray(3 * sh.body), poses.quat.subarray(4 * sh.body));
    const seg = out[shapes.types[sh.body]].segments;
    const at = (x: number, y: number, z: number) =>
      [0, 1, 2].map((i) => o[i] + M[3 * i] * x + M[3 * i + 1] * y + M[3 * i + 2] * z);
    const line = (a: number[], b: number[]) =>
      seg.push(...at(a[0], a[1], a[2]), ...at(b[0], b[1], b[2]));
    // a circle of radius r about the local axis `axis` (0 x, 1 y, 2 z) at height z along it
    const circle = (r: number, axis: number, z: number, from = 0, to = 2 * Math.PI) => {
      const n = Math.max(2, Math.round((CIRCLE * (to - from)) / (2 * Math.PI)));
      const pt = (t: number) => {
        const u = [r * Math.cos(t), r * Math.sin(t)];
        return axis === 2 ? [u[0], u[1], z] : axis === 1 ? [u[0], z, u[1]] : [z, u[0], u[1]];
      };
      for (let k = 0; k < n; k++) {
        line(pt(from + ((to - from) * k) / n), pt(from + ((to - from) * (k + 1)) / n));
      }
    };
    const box = (lo: number[], hi: number[]) => {
      const c = (
        i: number,
      ) => [i & 1 ? hi[0] : lo[0], i & 2 ? hi[1] : lo[1], i & 4 ? hi[2] : lo[2]];
      for (let i = 0; i < 8; i++) {
        for (const bit of [1, 2, 4]) if (!(i & bit)) line(c(i), c(i | bit));
      }
    };
    const geo = sh.heightMap
      ? { vertices: triangleVertices(sh), grid: { nx: sh.heightMap.nx, ny: sh.heightMap.ny } }
      : sh.vertices
      ? { vertices: sh.vertices, indices: sh.indices, bounds: sh.bounds }
      : null;
    SHAPE_TABLE[sh.kind].wireframe(sh.param, geo, { line, circle, box }, maxEdges);
  }
  return out.filter((l) => l.segments.length > 0);
}

function triangleVertices(sh: BodyShape): Float32Array {
  const m = sh.heightMap!, v = new Float32Array(3 * m.nx * m.ny);
  for (let j = 0; j < m.ny; j++) {
    for (let i = 0; i < m.nx; i++) {
      const k = j * m.nx + i;
      v[3 * k] = -0.5 * m.sizeX + (i * m.sizeX) / (m.nx - 1);
      v[3 * k + 1] = -0.5 * m.sizeY + (j * m.sizeY) / (m.ny - 1);
      v[3 * k + 2] = m.heights[k];
    }
  }
  return v;
}
