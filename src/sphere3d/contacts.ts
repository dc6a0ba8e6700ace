/**
 * The contacts of the last step as columns: the force network read by plots and Arrow export.
 *
 * @module
 */

/** Contact kinds stored in {@link ContactColumns.kind}. */
export const ContactKind = {
  /** Between two particles. */
  particle: 0,
  /** With the ground plane. */
  ground: 1,
  /** With a container face. */
  wall: 2,
  /** With a rigid body. */
  body: 3,
} as const;

/**
 * Columns of the contacts of the last substep. Arrays grow by doubling; read the first
 * `count` entries (or `3 * count` for vectors). `i`/`j` are particle slot indices (`j` is
 * -1 for boundary contacts). The normal points from `j` (or the boundary) towards `i`;
 * forces are those acting on `i` (the opposite acts on `j`).
 */
export class ContactColumns {
  /** Number of contacts. */
  count = 0;
  /** First particle (slot index). */
  i: Int32Array = new Int32Array(256);
  /** Second particle (slot index), -1 for a boundary. */
  j: Int32Array = new Int32Array(256);
  /** {@link ContactKind} of each contact. */
  kind: Uint8Array = new Uint8Array(256);
  /** Contact point (m), stride 3. */
  point: Float64Array = new Float64Array(768);
  /** Unit normal from j to i, stride 3. */
  normal: Float64Array = new Float64Array(768);
  /** Overlap (m); negative for cohesive contacts across a gap. */
  overlap: Float64Array = new Float64Array(256);
  /** Normal force on i along the normal (N); negative when cohesion dominates. */
  normalForce: Float64Array = new Float64Array(256);
  /** Tangential force on i (N), stride 3. */
  tangentialForce: Float64Array = new Float64Array(768);

  /** Make room for one more contact and return its index. */
  next(): number {
    if (this.count === this.i.length) this.#grow();
    return this.count++;
  }

  #grow(): void {
    const n = this.i.length * 2;
    const gi = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    const gf = (a: Float64Array, s: number) => {
      const b = new Float64Array(n * s);
      b.set(a);
      return b;
    };
    this.i = gi(this.i);
    this.j = gi(this.j);
    const k = new Uint8Array(n);
    k.set(this.kind);
    this.kind = k;
    this.point = gf(this.point, 3);
    this.normal = gf(this.normal, 3);
    this.overlap = gf(this.overlap, 1);
    this.normalForce = gf(this.normalForce, 1);
    this.tangentialForce = gf(this.tangentialForce, 3);
  }
}
