/**
 * The grains' loads on the rigid bodies of a world (force and torque of each evaluation, and
 * their trapezoid sums over a step), and the history partner id of a body shape.
 *
 * @module
 */

/**
 * History partner id of body shape `s`: 0x80000000 + s as an int32 (negative and far below the
 * boundary ids 0xffffff00.., so it never collides with a particle or a plane).
 */
export function shapePartner(s: number): number {
  return (0x80000000 + s) | 0;
}

/** Per granular system: the grains' forces on each body and their step accumulators. */
export class BodyLoads {
  /** Bodies the arrays are sized for. */
  size = 0;
  /** Force on each body at the last evaluation (N), stride 3. */
  force: Float64Array = new Float64Array(0);
  /** Torque about the centre of mass at the last evaluation (N·m), stride 3. */
  torque: Float64Array = new Float64Array(0);
  /** Force and torque of the evaluation before (trapezoid rule), stride 6. */
  prev: Float64Array = new Float64Array(0);
  /** Impulse and angular impulse accumulated over the current step, stride 6. */
  acc: Float64Array = new Float64Array(0);
  /** Mesh counters: candidate triangles, inside tests. */
  readonly counters: Float64Array = new Float64Array(2);
  /** Closest-point result scratch. */
  readonly out: Float64Array = new Float64Array(8);

  /** Size the arrays for `n` bodies (between steps only). */
  resize(n: number): void {
    if (n === this.size) return;
    const f = new Float64Array(3 * n), t = new Float64Array(3 * n);
    const p = new Float64Array(6 * n), a = new Float64Array(6 * n);
    const k = Math.min(n, this.size);
    f.set(this.force.subarray(0, 3 * k));
    t.set(this.torque.subarray(0, 3 * k));
    p.set(this.prev.subarray(0, 6 * k));
    a.set(this.acc.subarray(0, 6 * k));
    this.force = f, this.torque = t, this.prev = p, this.acc = a;
    this.size = n;
  }

  /** Start a step: the carried forces of the last evaluation open the trapezoid sum. */
  beginStep(): void {
    const n = this.size;
    this.acc.fill(0);
    for (let b = 0; b < n; b++) {
      for (let k = 0; k < 3; k++) {
        this.prev[6 * b + k] = this.force[3 * b + k];
        this.prev[6 * b + 3 + k] = this.torque[3 * b + k];
      }
    }
  }

  /** After a substep's evaluation: add ½h (previous + current) to the step's impulses. */
  accumulate(h: number): void {
    const n = this.size, acc = this.acc, prev = this.prev, f = this.force, t = this.torque;
    const half = 0.5 * h;
    for (let b = 0; b < n; b++) {
      for (let k = 0; k < 3; k++) {
        acc[6 * b + k] += half * (prev[6 * b + k] + f[3 * b + k]);
        acc[6 * b + 3 + k] += half * (prev[6 * b + 3 + k] + t[3 * b + k]);
        prev[6 * b + k] = f[3 * b + k];
        prev[6 * b + 3 + k] = t[3 * b + k];
      }
    }
  }
}
