/**
 * From validated options to bodies: the `World.add…` methods call these, which validate
 * everything first (shapes, meshes, height maps) and then add the body in one go.
 *
 * @module
 */
import { finite, options as checkOptions, positive, vec3 } from "../../math/validate.ts";
import { BodyKind, ShapeKind } from "./body_set.ts";
import type { RigidBody } from "./body.ts";
import type { BodyManager, ShapeSpec } from "./manager.ts";
import {
  bodyOptions,
  type BoxBodyOptions,
  type CapsuleOptions,
  type CompoundChild,
  type CompoundOptions,
  type HeightMapBodyOptions,
  type MeshOptions,
  primitive,
  quaternion,
  type SphereOptions,
} from "./options.ts";
import { TriangleMesh } from "./mesh.ts";
import { HeightMap } from "./heightmap.ts";
import { readMeshFile } from "./mesh_io.ts";

/** Add one primitive body (`shape` names the primitive). */
export function addPrimitive(
  m: BodyManager,
  where: string,
  shape: "sphere" | "box" | "capsule" | "cylinder",
  options: SphereOptions | BoxBodyOptions | CapsuleOptions,
): RigidBody {
  const extra = shape === "sphere"
    ? ["radius"]
    : shape === "box"
    ? ["halfExtents"]
    : ["radius", "halfHeight"];
  const { o, s } = bodyOptions(where, options, extra);
  const p = primitive(where, shape, o as unknown as Record<string, unknown>);
  const spec: ShapeSpec = {
    kind: p.kind,
    param: p.param,
    position: [0, 0, 0],
    orientation: [0, 0, 0, 1],
    object: null,
  };
  return m.add(s, [spec], shape, undefined, where);
}

const CHILD_KEYS = ["shape", "position", "orientation", "radius", "halfExtents", "halfHeight"];

/** Add a compound body of primitive children posed in the body frame. */
export function addCompound(m: BodyManager, options: CompoundOptions): RigidBody {
  const where = "World.addCompound";
  const { o, s } = bodyOptions(where, options, ["children"]);
  const kids = o.children;
  if (!Array.isArray(kids) || kids.length === 0) {
    throw new TypeError(`${where}: children (${String(kids)}) must be a non-empty array`);
  }
  const specs = kids.map((c: CompoundChild, k: number) => {
    const w = `${where}: children[${k}]`;
    const co = checkOptions<CompoundChild>(w, "child", c, CHILD_KEYS);
    const p = primitive(w, co.shape, co as unknown as Record<string, unknown>);
    return {
      kind: p.kind,
      param: p.param,
      position: co.position === undefined ? [0, 0, 0] : vec3(w, "position", co.position),
      orientation: quaternion(w, "orientation", co.orientation),
      object: null,
    };
  });
  return m.add(s, specs, "compound", undefined, where);
}

/** Add a closed triangle-mesh body (from arrays or an OBJ/STL file). */
export function addMesh(m: BodyManager, options: MeshOptions): RigidBody {
  const where = "World.addMesh";
  const { o, s } = bodyOptions(where, options, ["vertices", "indices", "file", "scale"]);
  const scale = positive(where, "scale", o.scale ?? 1);
  let vertices: ArrayLike<number>, indices: ArrayLike<number>, source: string | undefined;
  if (o.file !== undefined) {
    if (o.vertices !== undefined || o.indices !== undefined) {
      throw new TypeError(`${where}: give either file or vertices + indices, not both`);
    }
    const t = readMeshFile(o.file);
    vertices = t.vertices, indices = t.indices, source = o.file;
  } else {
    if (o.vertices === undefined || o.indices === undefined) {
      throw new TypeError(`${where}: vertices and indices (or file) are required`);
    }
    vertices = o.vertices, indices = o.indices;
  }
  if (scale !== 1) vertices = Float64Array.from(vertices as ArrayLike<number>, (x) => x * scale);
  const mesh = TriangleMesh.create(vertices, indices, { where, source });
  const spec: ShapeSpec = {
    kind: ShapeKind.mesh,
    param: [0, 0, 0, 0],
    position: [0, 0, 0],
    orientation: [0, 0, 0, 1],
    object: mesh,
  };
  return m.add(s, [spec], "mesh", undefined, where);
}

/** Add static height-map terrain. */
export function addHeightMap(m: BodyManager, options: HeightMapBodyOptions): RigidBody {
  const where = "World.addHeightMap";
  const o = checkOptions<HeightMapBodyOptions>(where, "options", options, [
    "heights",
    "nx",
    "ny",
    "sizeX",
    "sizeY",
    "center",
    "name",
  ]);
  const map = HeightMap.create(
    { heights: o.heights, nx: o.nx, ny: o.ny, sizeX: o.sizeX, sizeY: o.sizeY },
    { where },
  );
  const center = o.center === undefined ? [0, 0, 0] : vec3(where, "center", o.center);
  for (let k = 0; k < 3; k++) finite(where, `center[${k}]`, center[k]);
  const spec: ShapeSpec = {
    kind: ShapeKind.heightMap,
    param: [0, 0, 0, 0],
    position: [0, 0, 0],
    orientation: [0, 0, 0, 1],
    object: map,
  };
  return m.add(
    {
      kind: BodyKind.static,
      position: center,
      orientation: [0, 0, 0, 1],
      density: 1000,
      mass: null,
      linearVelocity: [0, 0, 0],
      angularVelocity: [0, 0, 0],
      name: o.name ?? null,
    },
    [spec],
    "heightmap",
    undefined,
    where,
  );
}
