/**
 * The ONE contact record shared by every simulator (sphere3d in 3D; star2d stars, disks and
 * clumps in 2D): the contacts of the last step as columns, read by force-network plots,
 * statistics and Arrow export.
 *
 * Conventions, the same everywhere:
 * - `i` is a particle slot; `j` is the other particle's slot, or −1 for a boundary contact,
 *   whose index (plane, wall, body) is then in `boundary` (−1 for particle contacts);
 * - the unit `normal` points from `j` (or the boundary) **towards `i`**;
 * - `normalForce` (along the normal, > 0 repulsive) and `tangentialForce` (a vector of the
 *   record's dimension) are the forces **acting on `i`**; the opposite acts on `j`;
 * - `kind` is one of {@link ContactKind}; the codes are fixed and reserved for future kinds.
 *
 * Getters return views trimmed to `count` (vectors: `dimension · count`); they are
 * short-lived — re-read them after the next step.
 *
 * @module
 */

/**
 * Contact kind codes stored in {@link ContactRecord.kind}, the same in every simulator and in
 * the Arrow `kind` dictionary column.
 *
 * @example
 * ```ts
 * import { ContactKind } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(ContactKind.particle).toBe(0);
 * expect(ContactKind.wall).toBe(2);
 * ```
 */
export const ContactKind = {
  /** Between two particles. */
  particle: 0,
  /** With a ground plane. */
  ground: 1,
  /** With a wall: a container face (sphere3d) or a plane, segment or drum (star2d). */
  wall: 2,
  /** With a rigid body (reserved). */
  body: 3,
  /** With a triangle mesh (reserved). */
  mesh: 4,
  /** With a height map (reserved). */
  heightMap: 5,
} as const;

/** The name of a contact kind. */
export type ContactKindName = keyof typeof ContactKind;

/**
 * Kind names indexed by code: `CONTACT_KIND_NAMES[ContactKind.wall] === "wall"`.
 *
 * @example
 * ```ts
 * import { CONTACT_KIND_NAMES, ContactKind } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * expect(CONTACT_KIND_NAMES[ContactKind.ground]).toBe("ground");
 * ```
 */
export const CONTACT_KIND_NAMES: readonly ContactKindName[] = Object.freeze([
  "particle",
  "ground",
  "wall",
  "body",
  "mesh",
  "heightMap",
]);

// Set by ContactRecord's static block: the simulators' access to the raw columns.
let buffersOf: (r: ContactRecord) => ContactBuffers;

/**
 * Columns of the contacts of the last step (see the module notes for the conventions).
 * Simulators fill it with {@link ContactRecord.add} and the column setters; users read it.
 *
 * @example
 * ```ts
 * import { ContactKind, ContactRecord } from "@grainlab/grainlab";
 * import { expect } from "expect";
 * const c = new ContactRecord(2);
 * const k = c.add(0, -1, ContactKind.wall, 3);
 * c.setGeometry2(k, 0.5, 0, 0, 1, 1e-4); // point, normal, overlap
 * expect(c.count).toBe(1);
 * expect(c.boundary[0]).toBe(3);
 * expect(c.normal[1]).toBe(1); // from the wall towards grain 0
 * ```
 */
export class ContactRecord {
  /** 2 or 3: the stride of `point`, `normal` and `tangentialForce`. */
  readonly dimension: 2 | 3;
  /** Number of contacts. */
  count = 0;
  #b: ContactBuffers;

  static {
    buffersOf = (r) => r.#b;
  }

  /** An empty record for contacts in `dimension` (2 or 3) dimensions. */
  constructor(dimension: 2 | 3, capacity = 256) {
    if (dimension !== 2 && dimension !== 3) {
      throw new RangeError(`ContactRecord: dimension (${dimension}) must be 2 or 3`);
    }
    this.dimension = dimension;
    this.#b = {
      capacity: 0,
      i: new Int32Array(0),
      j: new Int32Array(0),
      kind: new Uint8Array(0),
      boundary: new Int32Array(0),
      point: new Float64Array(0),
      normal: new Float64Array(0),
      overlap: new Float64Array(0),
      normalForce: new Float64Array(0),
      tangentialForce: new Float64Array(0),
    };
    this.reserve(capacity);
  }

  /** First particle (slot index) of each contact. */
  get i(): Int32Array {
    return this.#b.i.subarray(0, this.count);
  }
  /** Second particle (slot index), or −1 for a boundary contact. */
  get j(): Int32Array {
    return this.#b.j.subarray(0, this.count);
  }
  /** {@link ContactKind} code of each contact. */
  get kind(): Uint8Array {
    return this.#b.kind.subarray(0, this.count);
  }
  /** Boundary index (ground/container plane, wall, body id), or −1 for particle contacts. */
  get boundary(): Int32Array {
    return this.#b.boundary.subarray(0, this.count);
  }
  /** Contact point (m), stride `dimension`. */
  get point(): Float64Array {
    return this.#b.point.subarray(0, this.dimension * this.count);
  }
  /** Unit normal from j (or the boundary) towards i, stride `dimension`. */
  get normal(): Float64Array {
    return this.#b.normal.subarray(0, this.dimension * this.count);
  }
  /** Overlap (m); negative for cohesive contacts across a gap. */
  get overlap(): Float64Array {
    return this.#b.overlap.subarray(0, this.count);
  }
  /** Normal force on i along the normal (N); > 0 repulsive, < 0 when cohesion dominates. */
  get normalForce(): Float64Array {
    return this.#b.normalForce.subarray(0, this.count);
  }
  /** Tangential (friction) force on i (N), stride `dimension`. */
  get tangentialForce(): Float64Array {
    return this.#b.tangentialForce.subarray(0, this.dimension * this.count);
  }

  /** Allocated room (contacts). */
  get capacity(): number {
    return this.#b.capacity;
  }

  /** Grow the columns (by doubling) so that `n` contacts fit; contents are kept. */
  reserve(n: number): void {
    const b = this.#b;
    if (n <= b.capacity) return;
    let cap = Math.max(16, b.capacity);
    while (cap < n) cap *= 2;
    const d = this.dimension;
    // Allocate every column first, then swap them in: a failed allocation changes nothing.
    const i = grow(new Int32Array(cap), b.i), j = grow(new Int32Array(cap), b.j);
    const kind = grow(new Uint8Array(cap), b.kind);
    const boundary = grow(new Int32Array(cap), b.boundary);
    const point = grow(new Float64Array(cap * d), b.point);
    const normal = grow(new Float64Array(cap * d), b.normal);
    const overlap = grow(new Float64Array(cap), b.overlap);
    const fn = grow(new Float64Array(cap), b.normalForce);
    const ft = grow(new Float64Array(cap * d), b.tangentialForce);
    this.grown(cap);
    b.i = i, b.j = j, b.kind = kind, b.boundary = boundary, b.point = point;
    b.normal = normal, b.overlap = overlap, b.normalForce = fn, b.tangentialForce = ft;
    b.capacity = cap;
  }

  /** Called when the columns grow to `capacity`; subclasses grow their own columns here. */
  protected grown(_capacity: number): void {}

  /**
   * Append a contact between slot `i` and slot `j` (or −1 with `boundary` ≥ 0) and return
   * its index; set its geometry and forces with the setters.
   */
  add(i: number, j: number, kind: number, boundary: number): number {
    const b = this.#b;
    if (this.count === b.capacity) this.reserve(this.count + 1);
    const k = this.count++;
    b.i[k] = i;
    b.j[k] = j;
    b.kind[k] = kind;
    b.boundary[k] = boundary;
    return k;
  }

  /** Set point, normal (from j towards i) and overlap of 2D contact `k`. */
  setGeometry2(k: number, px: number, py: number, nx: number, ny: number, overlap: number): void {
    const b = this.#b, o = 2 * k;
    b.point[o] = px, b.point[o + 1] = py;
    b.normal[o] = nx, b.normal[o + 1] = ny;
    b.overlap[k] = overlap;
  }
}

/**
 * The raw, untrimmed columns of a {@link ContactRecord}, for the simulators' hot loops
 * (internal: not exported from the package). They are replaced when the record grows.
 */
export interface ContactBuffers {
  /** Allocated room (contacts). */
  capacity: number;
  /** First particle slots. */
  i: Int32Array;
  /** Second particle slots, −1 for boundaries. */
  j: Int32Array;
  /** Kind codes. */
  kind: Uint8Array;
  /** Boundary indices, −1 for particle contacts. */
  boundary: Int32Array;
  /** Contact points, stride = dimension. */
  point: Float64Array;
  /** Normals (from j towards i), stride = dimension. */
  normal: Float64Array;
  /** Overlaps. */
  overlap: Float64Array;
  /** Normal forces on i. */
  normalForce: Float64Array;
  /** Tangential forces on i, stride = dimension. */
  tangentialForce: Float64Array;
}

/** The names of the columns of {@link ContactBuffers} (internal: the thread pools share them). */
export const CONTACT_COLUMNS = [
  "i",
  "j",
  "kind",
  "boundary",
  "point",
  "normal",
  "overlap",
  "normalForce",
  "tangentialForce",
] as const;

/** The raw columns of `record` (internal; re-read after the record grows). */
export function contactBuffers(record: ContactRecord): ContactBuffers {
  return buffersOf(record);
}

/**
 * Append a 3D contact from a scratch record `r` (point 0–2, normal 3–5, overlap 6, normal
 * force 7, tangential force 8–10); internal, allocation-free.
 */
export function pushContact3(
  c: ContactRecord,
  i: number,
  j: number,
  kind: number,
  boundary: number,
  r: Float64Array,
): void {
  const k = c.add(i, j, kind, boundary), b = buffersOf(c), o = 3 * k;
  const pt = b.point, nm = b.normal, tf = b.tangentialForce;
  pt[o] = r[0], pt[o + 1] = r[1], pt[o + 2] = r[2];
  nm[o] = r[3], nm[o + 1] = r[4], nm[o + 2] = r[5];
  b.overlap[k] = r[6];
  b.normalForce[k] = r[7];
  tf[o] = r[8], tf[o + 1] = r[9], tf[o + 2] = r[10];
}

function grow<T extends Int32Array | Float64Array | Uint8Array>(dst: T, src: T): T {
  dst.set(src as never);
  return dst;
}
