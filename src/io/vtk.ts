/**
 * VTK files for ParaView: grains and contacts as VTK XML PolyData (`.vtp`) and time series as
 * a ParaView collection (`.pvd`).
 *
 * **Encoding.** Every array is stored in one `<AppendedData encoding="raw">` block after the
 * XML header, uncompressed, little-endian, each array preceded by its byte count as a UInt64
 * (`header_type="UInt64"`): the compact, fast layout VTK's own writer uses when asked for raw
 * appended data (base64 would add a third to the size and an encoding pass). The file is XML
 * up to the `_` that opens the data, then binary; VTK and ParaView read it as is.
 *
 * **Grains** ({@link writeVtk}): one point per grain at its centre (z = 0 for star2d
 * systems), one vertex cell per point (so that ParaView draws them without a filter), and
 * point data `radius` (m; the bounding radius of a star grain), `velocity` (m/s, 3-vector),
 * `angularVelocity` (rad/s, 3-vector; (0, 0, ω) in 2D), `speed` (m/s), `materialId`
 * (UInt16; 0 in 2D), `fixed` (UInt8; 0 in 2D), `id` (UInt32, the stable id) and, in 2D,
 * `angle` (rad) and `shape` (UInt16, the shape id). Field data `TimeValue` holds the time
 * when one is given. Use the Glyph filter with a sphere scaled by `radius` (scale factor 2)
 * to draw the grains at their true size.
 *
 * **Contacts** ({@link writeVtkContacts}): one line cell per contact of the shared contact
 * record, from the centre of grain `i` to the centre of grain `j` (the nearest periodic
 * image when the system is periodic) or, for a boundary contact, to the contact point; cell
 * data `normalForce` (N), `tangentialForce` (N, 3-vector), `overlap` (m), `kind` (UInt8:
 * 0 particle, 1 ground, 2 wall, 3 body, 4 mesh, 5 heightMap), `normal` (3-vector, from `j` or
 * the boundary towards `i`), `i`, `j` and `boundary` (Int32). Tube filter by `normalForce`
 * shows the force network.
 *
 * Files are written atomically (temporary file, flushed, renamed).
 *
 * The encoding is assembled in `vtk_polydata.ts`; the time series writer (`VtkSeriesWriter`)
 * is in `vtk_series.ts`.
 *
 * @module
 */
import type { ContactRecord } from "../contact/record.ts";
import { writeFileAtomic } from "../math/files.ts";
import {
  checkPath,
  column,
  polyData,
  resolve,
  type VtkArray,
  type VtkOptions,
} from "./vtk_polydata.ts";

export type { VtkOptions } from "./vtk_polydata.ts";

/**
 * The columns {@link writeVtk} reads: a sphere3d `GranularSystem`, a star2d system
 * (`StarSystem`, `DiskSystem`, `ClumpSystem`) or any object with these views.
 */
export interface VtkParticleSource {
  /** Number of grains. */
  readonly count: number;
  /** Centres (m): stride 3 in 3D, stride 2 in 2D. */
  readonly positions: ArrayLike<number>;
  /** Velocities (m/s), the stride of `positions`. */
  readonly velocities: ArrayLike<number>;
  /** Angular velocities (rad/s): stride 3 in 3D, one per grain in 2D. */
  readonly angularVelocities: ArrayLike<number>;
  /** Radii (m); the bounding radius for non-spherical grains. */
  readonly radii: ArrayLike<number>;
  /** Stable ids. */
  readonly ids: ArrayLike<number>;
  /** Material ids (sphere3d). @default all 0 */
  readonly materialIds?: ArrayLike<number>;
  /** 1 for fixed grains (sphere3d). @default all 0 */
  readonly fixed?: ArrayLike<number>;
  /** Angles (rad), 2D only. */
  readonly angles?: ArrayLike<number>;
  /** Shape ids, 2D only. */
  readonly shapes?: ArrayLike<number>;
}

/**
 * What {@link writeVtkContacts} reads: a system (its `contacts` and `positions`, and its
 * `periodicBoundary` when it has one), or `{ contacts, positions }`.
 */
export interface VtkContactSource {
  /** The contacts of the last step (the shared record, 2D or 3D). */
  readonly contacts: ContactRecord;
  /** Centres (m) the record's `i` and `j` index, with the record's dimension as stride. */
  readonly positions: ArrayLike<number>;
  /**
   * The periodic cell, for the nearest image of `j`, as sphere3d's `periodicBoundary` reports
   * it: corners `min`, `max` (m) and whether each axis wraps. @default null
   */
  readonly periodicBoundary?: {
    readonly min: ArrayLike<number>;
    readonly max: ArrayLike<number>;
    readonly x: boolean;
    readonly y: boolean;
    readonly z: boolean;
  } | null;
}

/**
 * The bytes of a `.vtp` file with the grains of `system` (see the module notes).
 *
 * @param system a sphere3d or star2d system, or any {@link VtkParticleSource}
 * @param options precision and time
 * @returns the file's bytes
 * @throws {TypeError|RangeError} when a column is missing or its length does not match `count`
 * @example
 * ```ts
 * import { vtkParticlesBytes } from "./vtk.ts";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const g = new World().addGranularParticles({ positions: [[0, 0, 0.1], [0.1, 0, 0.1]], radii: 0.02 });
 * const bytes = vtkParticlesBytes(g);
 * const head = new TextDecoder().decode(bytes.subarray(0, 1500));
 * expect(head).toContain('<Piece NumberOfPoints="2" NumberOfVerts="2"');
 * expect(head).toContain('Name="angularVelocity" NumberOfComponents="3"');
 * ```
 */
export function vtkParticlesBytes(system: VtkParticleSource, options?: VtkOptions): Uint8Array {
  const w = "writeVtk";
  const o = resolve(w, options);
  if (system === null || typeof system !== "object") {
    throw new TypeError(`${w}: system (${String(system)}) must be a particle system`);
  }
  const n = system.count;
  if (!Number.isInteger(n) || n < 0) {
    throw new RangeError(`${w}: count (${String(n)}) must be an integer >= 0`);
  }
  const pos0 = system.positions;
  const dim = pos0 && pos0.length === 2 * n && n > 0
    ? 2
    : n === 0 && system.angles !== undefined
    ? 2
    : 3;
  const pos = column(w, "positions", pos0, dim * n);
  const vel = column(w, "velocities", system.velocities, dim * n);
  const ang = column(w, "angularVelocities", system.angularVelocities, dim === 2 ? n : 3 * n);
  const rad = column(w, "radii", system.radii, n);
  const ids = column(w, "ids", system.ids, n);
  const mid = system.materialIds === undefined
    ? null
    : column(w, "materialIds", system.materialIds, n);
  const fix = system.fixed === undefined ? null : column(w, "fixed", system.fixed, n);
  const points = new Float64Array(3 * n);
  const v3 = new Float64Array(3 * n), w3 = new Float64Array(3 * n);
  const speed = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < dim; k++) {
      points[3 * i + k] = pos[dim * i + k];
      v3[3 * i + k] = vel[dim * i + k];
    }
    if (dim === 3) {
      w3[3 * i] = ang[3 * i], w3[3 * i + 1] = ang[3 * i + 1], w3[3 * i + 2] = ang[3 * i + 2];
    } else w3[3 * i + 2] = ang[i];
    const vx = v3[3 * i], vy = v3[3 * i + 1], vz = v3[3 * i + 2];
    speed[i] = Math.sqrt(vx * vx + vy * vy + vz * vz);
  }
  const arrays: VtkArray[] = [
    { name: "radius", components: 1, data: Float64Array.from(rad) },
    { name: "velocity", components: 3, data: v3 },
    { name: "angularVelocity", components: 3, data: w3 },
    { name: "speed", components: 1, data: speed },
    { name: "materialId", components: 1, data: mid ? Uint16Array.from(mid) : new Uint16Array(n) },
    { name: "fixed", components: 1, data: fix ? Uint8Array.from(fix) : new Uint8Array(n) },
    { name: "id", components: 1, data: Uint32Array.from(ids) },
  ];
  if (dim === 2) {
    if (system.angles !== undefined) {
      arrays.push({
        name: "angle",
        components: 1,
        data: Float64Array.from(column(w, "angles", system.angles, n)),
      });
    }
    if (system.shapes !== undefined) {
      arrays.push({
        name: "shape",
        components: 1,
        data: Uint16Array.from(column(w, "shapes", system.shapes, n)),
      });
    }
  }
  const conn = new Int32Array(n), offs = new Int32Array(n);
  for (let i = 0; i < n; i++) conn[i] = i, offs[i] = i + 1;
  return polyData(o, points, n, arrays, "Verts", n, conn, offs, []);
}

/**
 * The bytes of a `.vtp` file with the contacts of `source` as lines (see the module notes).
 *
 * @param source a system (its `contacts`, `positions` and `periodicBoundary`), or
 *   `{ contacts, positions }`
 * @param options precision and time
 * @returns the file's bytes
 * @throws {RangeError} when a contact refers to a grain outside `positions` (a record from
 *   before a removal)
 * @example
 * ```ts
 * import { vtkContactsBytes } from "./vtk.ts";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.0199], [0, 0, 0.059]], radii: 0.02 });
 * g.setGroundPlane(0);
 * world.step();
 * expect(g.contacts.count).toBe(2); // the pair and the ground
 * const head = new TextDecoder().decode(vtkContactsBytes(g).subarray(0, 1500));
 * expect(head).toContain('NumberOfPoints="4" NumberOfVerts="0" NumberOfLines="2"');
 * ```
 */
export function vtkContactsBytes(source: VtkContactSource, options?: VtkOptions): Uint8Array {
  const w = "writeVtkContacts";
  const o = resolve(w, options);
  if (source === null || typeof source !== "object") {
    throw new TypeError(
      `${w}: source (${String(source)}) must be a system or { contacts, positions }`,
    );
  }
  const rec = source.contacts;
  if (rec === null || typeof rec !== "object" || (rec.dimension !== 2 && rec.dimension !== 3)) {
    throw new TypeError(`${w}: contacts (${String(rec)}) must be a ContactRecord`);
  }
  const d = rec.dimension, m = rec.count;
  const pos = source.positions;
  if (pos === null || typeof pos !== "object" || pos.length % d !== 0) {
    throw new TypeError(`${w}: positions must be an array with stride ${d}`);
  }
  const n = pos.length / d;
  const per = source.periodicBoundary ?? null;
  const len = [0, 0, 0];
  if (per) {
    const axes = [per.x, per.y, per.z];
    for (let k = 0; k < 3; k++) if (axes[k]) len[k] = per.max[k] - per.min[k];
  }
  const I = rec.i, J = rec.j, P = rec.point, N = rec.normal, T = rec.tangentialForce;
  const points = new Float64Array(6 * m);
  const normal = new Float64Array(3 * m), tangential = new Float64Array(3 * m);
  for (let c = 0; c < m; c++) {
    const i = I[c], j = J[c];
    if (!(i >= 0 && i < n) || !(j >= -1 && j < n)) {
      throw new RangeError(
        `${w}: contact ${c} joins grains ${i} and ${j}, but positions hold ${n}; ` +
          "write the contacts before removing grains",
      );
    }
    const a = 6 * c;
    for (let k = 0; k < d; k++) {
      points[a + k] = pos[d * i + k];
      normal[3 * c + k] = N[d * c + k];
      tangential[3 * c + k] = T[d * c + k];
      if (j < 0) points[a + 3 + k] = P[d * c + k];
      else {
        // j's centre itself, or its image nearest to i across a periodic face
        const xj = pos[d * j + k];
        const s = len[k] > 0 ? Math.round((xj - pos[d * i + k]) / len[k]) : 0;
        points[a + 3 + k] = s === 0 ? xj : xj - s * len[k];
      }
    }
  }
  const conn = new Int32Array(2 * m), offs = new Int32Array(m);
  for (let c = 0; c < 2 * m; c++) conn[c] = c;
  for (let c = 0; c < m; c++) offs[c] = 2 * c + 2;
  const cells: VtkArray[] = [
    { name: "normalForce", components: 1, data: Float64Array.from(rec.normalForce) },
    { name: "tangentialForce", components: 3, data: tangential },
    { name: "overlap", components: 1, data: Float64Array.from(rec.overlap) },
    { name: "kind", components: 1, data: Uint8Array.from(rec.kind) },
    { name: "normal", components: 3, data: normal },
    { name: "i", components: 1, data: Int32Array.from(I) },
    { name: "j", components: 1, data: Int32Array.from(J) },
    { name: "boundary", components: 1, data: Int32Array.from(rec.boundary) },
  ];
  return polyData(o, points, 2 * m, [], "Lines", m, conn, offs, cells);
}

/**
 * Write the grains of `system` to a `.vtp` file, atomically; returns the bytes written.
 *
 * @param path destination, normally ending in `.vtp` (parent folders are created)
 * @param system a sphere3d or star2d system, or any {@link VtkParticleSource}
 * @param options precision and time
 * @example
 * ```ts
 * import { writeVtk } from "@grainlab/grainlab/io";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const g = new World().addGranularBox({ min: [0, 0, 0], max: [0.2, 0.2, 0.2], radius: 0.02, spacing: 0.045 });
 * const path = `${await Deno.makeTempDir()}/grains.vtp`;
 * const bytes = await writeVtk(path, g, { time: 0.5 });
 * expect((await Deno.stat(path)).size).toBe(bytes);
 * // 64 grains: 7 point arrays, the points and the vertex cells, 8 bytes per Float64
 * expect(bytes).toBeGreaterThan(64 * 8 * (1 + 3 + 3 + 1 + 3));
 * ```
 */
export async function writeVtk(
  path: string,
  system: VtkParticleSource,
  options?: VtkOptions,
): Promise<number> {
  checkPath("writeVtk", path);
  const bytes = vtkParticlesBytes(system, options);
  await writeFileAtomic(path, bytes, "writeVtk");
  return bytes.length;
}

/**
 * Write the contacts of `source` to a `.vtp` file of line cells, atomically; returns the
 * bytes written.
 *
 * @param path destination, normally ending in `.vtp`
 * @param source a system, or `{ contacts, positions }`
 * @param options precision and time
 * @example
 * ```ts
 * import { writeVtkContacts } from "@grainlab/grainlab/io";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.0199]], radii: 0.02 });
 * g.setGroundPlane(0);
 * world.step();
 * const path = `${await Deno.makeTempDir()}/contacts.vtp`;
 * expect(await writeVtkContacts(path, g)).toBe((await Deno.stat(path)).size);
 * ```
 */
export async function writeVtkContacts(
  path: string,
  source: VtkContactSource,
  options?: VtkOptions,
): Promise<number> {
  checkPath("writeVtkContacts", path);
  const bytes = vtkContactsBytes(source, options);
  await writeFileAtomic(path, bytes, "writeVtkContacts");
  return bytes.length;
}
