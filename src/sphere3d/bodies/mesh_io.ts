/**
 * Triangle meshes from files: Wavefront OBJ (`v` and `f` lines) and STL (binary and ASCII,
 * vertices welded), giving flat vertex and index lists for `TriangleMesh.create`.
 *
 * @module
 */
import { notRegular } from "../../math/container.ts";

/** A triangle mesh as flat lists: xyz per vertex, three vertex indices per triangle. */
export interface MeshData {
  /** Vertex coordinates, stride 3. */
  vertices: Float64Array;
  /** Triangle vertex indices (0-based), stride 3. */
  indices: Uint32Array;
}

/**
 * Parse Wavefront OBJ text: `v x y z` lines (extra values such as w or colours are ignored)
 * and `f` lines of 3 or more vertex references (`7`, `7/1`, `7/1/2`, `7//2`; negative ones
 * count back from the last vertex defined so far), polygons fan-triangulated from their first
 * vertex. Every other line (`vn`, `vt`, `o`, `g`, `usemtl`, comments …) is ignored.
 *
 * @param text the file's content
 * @param source file name for error messages
 * @throws {RangeError} naming the source, the line and the rule: a malformed number, a face
 *   with fewer than 3 vertices, a vertex reference of 0 or out of range, no faces at all
 * @example
 * ```ts
 * import { parseObj } from "./mesh_io.ts";
 * import { expect } from "expect";
 * const m = parseObj("v 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nf 1/1 2/2 3/3 -1/4\n");
 * expect([...m.indices]).toEqual([0, 1, 2, 0, 2, 3]);
 * expect(m.vertices.length).toBe(12);
 * expect(() => parseObj("v 0 0 0\nf 1 2 3\n", "a.obj")).toThrow("a.obj");
 * ```
 */
export function parseObj(text: string, source?: string): MeshData {
  const where = "parseObj" + (source !== undefined ? ` (${source})` : "");
  if (typeof text !== "string") {
    throw new TypeError(`${where}: text (${typeof text}) must be a string`);
  }
  const vertices: number[] = [];
  const indices: number[] = [];
  let maxRef = -1, maxRefLine = 0;
  const lines = text.split(/\r\n|\r|\n/);
  const face: number[] = [];
  for (let ln = 0; ln < lines.length; ln++) {
    const line = lines[ln].trim();
    if (line === "" || line[0] === "#") continue;
    const tok = line.split(/\s+/);
    if (tok[0] === "v") {
      if (tok.length < 4) {
        throw new RangeError(
          `${where}: line ${ln + 1}: a vertex needs 3 coordinates ("v x y z"), got "${line}"`,
        );
      }
      for (let k = 1; k <= 3; k++) {
        const x = Number(tok[k]);
        if (!Number.isFinite(x) || tok[k] === "") {
          throw new RangeError(
            `${where}: line ${ln + 1}: vertex coordinate "${tok[k]}" must be a finite number`,
          );
        }
        vertices.push(x);
      }
    } else if (tok[0] === "f") {
      if (tok.length < 4) {
        throw new RangeError(
          `${where}: line ${ln + 1}: a face needs at least 3 vertices, got ${tok.length - 1}`,
        );
      }
      const count = vertices.length / 3;
      face.length = 0;
      for (let k = 1; k < tok.length; k++) {
        const ref = tok[k].split("/")[0];
        if (!/^[+-]?\d+$/.test(ref)) {
          throw new RangeError(
            `${where}: line ${ln + 1}: vertex reference "${tok[k]}" must start with an integer`,
          );
        }
        const r = Number(ref);
        let i: number;
        if (r > 0) {
          i = r - 1;
          if (i > maxRef) maxRef = i, maxRefLine = ln + 1;
        } else if (r < 0) {
          i = count + r;
          if (i < 0) {
            throw new RangeError(
              `${where}: line ${ln + 1}: vertex reference ${r} points before the first vertex ` +
                `(${count} defined so far)`,
            );
          }
        } else {
          throw new RangeError(
            `${where}: line ${ln + 1}: vertex reference 0 is invalid (OBJ indices start at 1)`,
          );
        }
        face.push(i);
      }
      for (let k = 1; k + 1 < face.length; k++) indices.push(face[0], face[k], face[k + 1]);
    }
  }
  const count = vertices.length / 3;
  if (maxRef >= count) {
    throw new RangeError(
      `${where}: line ${maxRefLine}: vertex reference ${maxRef + 1} is out of range ` +
        `(the file defines ${count} vertices)`,
    );
  }
  if (indices.length === 0) {
    throw new RangeError(`${where}: no faces ("f" lines) found; a mesh needs triangles`);
  }
  return { vertices: Float64Array.from(vertices), indices: Uint32Array.from(indices) };
}

/**
 * Parse an STL file, binary or ASCII (detected: a binary file is 84 + 50·n bytes for the n
 * triangles its header states; otherwise the text must start with `solid`). Vertices with
 * identical coordinates are welded into one, so that the triangles share their edges; the
 * facet normals in the file are ignored (the winding defines the outside).
 *
 * @param bytes the file's content
 * @param source file name for error messages
 * @throws {RangeError} naming the source, the triangle or line and the rule: a truncated or
 *   unrecognised file, a non-finite coordinate, a facet without exactly 3 vertices, no
 *   triangles
 * @example
 * ```ts
 * import { parseStl } from "./mesh_io.ts";
 * import { expect } from "expect";
 * const text = `solid t
 * facet normal 0 0 1
 *  outer loop
 *   vertex 0 0 0
 *   vertex 1 0 0
 *   vertex 0 1 0
 *  endloop
 * endfacet
 * endsolid t`;
 * const m = parseStl(new TextEncoder().encode(text));
 * expect([...m.indices]).toEqual([0, 1, 2]);
 * expect([...m.vertices.subarray(3, 6)]).toEqual([1, 0, 0]);
 * ```
 */
export function parseStl(bytes: Uint8Array, source?: string): MeshData {
  const where = "parseStl" + (source !== undefined ? ` (${source})` : "");
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`${where}: bytes (${typeof bytes}) must be a Uint8Array`);
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const declared = bytes.length >= 84 ? view.getUint32(80, true) : -1;
  if (declared >= 0 && 84 + 50 * declared === bytes.length) {
    return weld(where, binaryTriangles(where, view, declared));
  }
  let head = "";
  for (let k = 0; k < Math.min(bytes.length, 512); k++) head += String.fromCharCode(bytes[k]);
  if (/^\s*solid(\s|$)/.test(head)) {
    return weld(where, asciiTriangles(where, new TextDecoder().decode(bytes)));
  }
  if (declared >= 0) {
    throw new RangeError(
      `${where}: not an STL file: as binary STL its header states ${declared} triangles ` +
        `(${84 + 50 * declared} bytes) but the file has ${bytes.length} bytes (truncated?), ` +
        `and it does not start with "solid" as ASCII STL does`,
    );
  }
  throw new RangeError(
    `${where}: not an STL file: ${bytes.length} bytes is too short for binary STL (84 bytes ` +
      `of header and count) and the text does not start with "solid" as ASCII STL does`,
  );
}

/** Triangle corners of a binary STL: 9 coordinates per triangle. */
function binaryTriangles(where: string, view: DataView, n: number): Float64Array {
  const xyz = new Float64Array(9 * n);
  for (let t = 0; t < n; t++) {
    const base = 84 + 50 * t + 12;
    for (let k = 0; k < 9; k++) {
      const x = view.getFloat32(base + 4 * k, true);
      if (!Number.isFinite(x)) {
        throw new RangeError(
          `${where}: triangle ${t}: vertex ${Math.floor(k / 3)} coordinate ${"xyz"[k % 3]} ` +
            `(${x}) must be a finite number`,
        );
      }
      xyz[9 * t + k] = x;
    }
  }
  return xyz;
}

/** Triangle corners of an ASCII STL: 9 coordinates per facet. */
function asciiTriangles(where: string, text: string): Float64Array {
  const xyz: number[] = [];
  const all = text.split(/\r\n|\r|\n/);
  let inLoop = false, loopLine = 0, corners = 0;
  for (let ln = 0; ln < all.length; ln++) {
    const tok = all[ln].trim().split(/\s+/);
    const key = tok[0].toLowerCase();
    if (key === "outer") {
      inLoop = true, loopLine = ln + 1, corners = 0;
    } else if (key === "vertex") {
      if (!inLoop) {
        throw new RangeError(`${where}: line ${ln + 1}: "vertex" outside an "outer loop"`);
      }
      if (tok.length < 4) {
        throw new RangeError(`${where}: line ${ln + 1}: a vertex needs 3 coordinates`);
      }
      corners++;
      if (corners > 3) {
        throw new RangeError(
          `${where}: line ${ln + 1}: the facet starting at line ${loopLine} has more than 3 ` +
            `vertices; STL facets must be triangles`,
        );
      }
      for (let k = 1; k <= 3; k++) {
        const x = Number(tok[k]);
        if (!Number.isFinite(x) || tok[k] === "") {
          throw new RangeError(
            `${where}: line ${ln + 1}: vertex coordinate "${tok[k]}" must be a finite number`,
          );
        }
        xyz.push(x);
      }
    } else if (key === "endloop") {
      if (corners !== 3) {
        throw new RangeError(
          `${where}: line ${ln + 1}: the facet starting at line ${loopLine} has ${corners} ` +
            `vertices; STL facets must have exactly 3`,
        );
      }
      inLoop = false;
    }
  }
  if (inLoop) {
    throw new RangeError(
      `${where}: the facet starting at line ${loopLine} has no "endloop" (truncated file?)`,
    );
  }
  return Float64Array.from(xyz);
}

/** Merge corners with identical coordinates into shared vertices. */
function weld(where: string, xyz: Float64Array): MeshData {
  const n = xyz.length / 9;
  if (n === 0) {
    throw new RangeError(`${where}: the file holds no triangles; a mesh needs triangles`);
  }
  const ids = new Map<string, number>();
  const vertices: number[] = [];
  const indices = new Uint32Array(3 * n);
  for (let c = 0; c < 3 * n; c++) {
    const x = xyz[3 * c] + 0, y = xyz[3 * c + 1] + 0, z = xyz[3 * c + 2] + 0;
    const key = `${x} ${y} ${z}`;
    let id = ids.get(key);
    if (id === undefined) {
      id = vertices.length / 3;
      ids.set(key, id);
      vertices.push(x, y, z);
    }
    indices[c] = id;
  }
  return { vertices: Float64Array.from(vertices), indices };
}

/**
 * Read a mesh file by its extension (`.obj` or `.stl`, any case), synchronously.
 *
 * @param path the file
 * @throws {RangeError} for another extension, or what {@link parseObj} / {@link parseStl}
 *   report (naming the file)
 * @throws {Deno.errors.NotFound} when the file does not exist
 * @example
 * ```ts
 * import { readMeshFile } from "./mesh_io.ts";
 * import { expect } from "expect";
 * const dir = Deno.makeTempDirSync();
 * Deno.writeTextFileSync(`${dir}/t.obj`, "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n" +
 *   "f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n");
 * const m = readMeshFile(`${dir}/t.obj`);
 * expect(m.indices.length).toBe(12);
 * expect(() => readMeshFile(`${dir}/t.ply`)).toThrow(/\.obj or \.stl/);
 * ```
 */
export function readMeshFile(path: string): MeshData {
  if (typeof path !== "string" || path === "") {
    throw new TypeError(`readMeshFile: path (${String(path)}) must be a non-empty string`);
  }
  const dot = path.lastIndexOf(".");
  const ext = dot > path.lastIndexOf("/") ? path.slice(dot + 1).toLowerCase() : "";
  if (ext === "obj" || ext === "stl") {
    // a FIFO or a device would block the read or never end (a missing file: NotFound)
    const info = Deno.statSync(path);
    if (!info.isFile) throw new TypeError(`readMeshFile: ${path}: ${notRegular(info)}`);
    if (ext === "obj") return parseObj(Deno.readTextFileSync(path), path);
    return parseStl(Deno.readFileSync(path), path);
  }
  throw new RangeError(
    `readMeshFile: ${path}: the extension (${ext === "" ? "none" : `.${ext}`}) must be ` +
      `.obj or .stl`,
  );
}
