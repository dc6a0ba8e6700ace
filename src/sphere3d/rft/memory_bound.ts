/**
 * The pressure memory's excess on a dynamic body as a bound, not a force
 * (`stressMemory.support` "capacity" of `RftGroundOptions`; the memory itself: `memory.ts`).
 *
 * What an element remembers beyond RFT's present pressure is what the grains can bear before
 * they yield, a capacity. A dynamic body gets only what stops its motion into the grains — up
 * to all of it — and never a push out of them. The excess force X_f (the elements' excess
 * forces summed) is scaled by λ ∈ [0, 1], the largest share that does not leave the body
 * moving along X_f at the step's end, λ = clamp(−X_f·v′ / (dt·|X_f|²/m), 0, 1); the excess
 * torque X_t about the centre of mass likewise by clamp(−X_t·ω′ / (dt·X_tᵀI⁻¹X_t), 0, 1)
 * (apart: the force holding a plate up must not be cut because the plate rocks). v′ and ω′
 * are the body's velocities at the step's end without the excess, predicted from this step's
 * other ground loads, gravity, and the rest of the world's loads on it (joints, grains, the
 * user's) as the last step's change of velocity showed them. Pressure remembered below RFT's
 * (an element reloading) is applied as it is.
 *
 * @module
 */
import { type BodySet, quatMatrix } from "../bodies/body_set.ts";

/**
 * The bound's state: per body, the shares of the last step and, to tell the rest of the
 * world's loads from the change of velocity, the velocities at the last step's start and the
 * ground's impulses of that step.
 *
 * @example
 * ```ts
 * import { RftSupportBound } from "./memory_bound.ts";
 * import { expect } from "expect";
 * const b = new RftSupportBound();
 * b.resize(2);
 * expect(Array.from(b.shares)).toEqual([1, 1, 1, 1]); // nothing cut yet
 * ```
 */
export class RftSupportBound {
  /** Per body, 2 numbers: the shares of the excess force and torque applied at its last step. */
  shares: Float64Array = new Float64Array(0);
  /** Per body, 6 numbers: linear and angular velocity at the last step's start. */
  #vel: Float64Array = new Float64Array(0);
  /** Per body, 6 numbers: the ground's impulse and angular impulse of the last step. */
  #imp: Float64Array = new Float64Array(0);
  /** Per body: the step number the two above were recorded at (−1: never). */
  #at: Float64Array = new Float64Array(0);
  readonly #RB = new Float64Array(9);
  readonly #u = new Float64Array(3);

  /** Hold `n` bodies (the new ones have no last step). */
  resize(n: number): void {
    const old = this.#at.length;
    if (n <= old) return;
    const grow = (a: Float64Array, k: number) => {
      const c = new Float64Array(k * n);
      c.set(a);
      return c;
    };
    this.#vel = grow(this.#vel, 6), this.#imp = grow(this.#imp, 6);
    this.shares = grow(this.shares, 2), this.#at = grow(this.#at, 1);
    for (let b = old; b < n; b++) this.shares[2 * b] = this.shares[2 * b + 1] = 1, this.#at[b] = -1;
  }

  /**
   * Bound the excess of dynamic body b at step `now` (see the module notes): `x` holds its
   * excess force and torque (6 per body), which the loads `F` and `T` (3 per body) contain;
   * the shares cut are taken back out of them. `inertia` holds the principal moments and
   * axes (12 per body), `damping` the engine's damping rates last set (2 per body).
   */
  apply(
    set: BodySet,
    b: number,
    F: Float64Array,
    T: Float64Array,
    x: Float64Array,
    inertia: Float64Array,
    damping: Float64Array,
    dt: number,
    g: ArrayLike<number>,
    now: number,
  ): void {
    const o = 6 * b, vel = this.#vel, imp = this.#imp, mass = set.mass[b];
    // a body without mass has no motion to bound (the engine's dynamic bodies have mass)
    if (!(mass > 0)) return;
    const vx = set.vel[3 * b], vy = set.vel[3 * b + 1], vz = set.vel[3 * b + 2];
    const wx = set.ang[3 * b], wy = set.ang[3 * b + 1], wz = set.ang[3 * b + 2];
    const q = set.quat, RB = this.#RB, u = this.#u;
    quatMatrix(q[4 * b], q[4 * b + 1], q[4 * b + 2], q[4 * b + 3], RB, 0);
    const Xf0 = x[o],
      Xf1 = x[o + 1],
      Xf2 = x[o + 2],
      Xt0 = x[o + 3],
      Xt1 = x[o + 4],
      Xt2 = x[o + 5];
    // the loads without the excess, as velocity changes over the step
    let lx = (F[3 * b] - Xf0) * dt / mass, ly = (F[3 * b + 1] - Xf1) * dt / mass;
    let lz = (F[3 * b + 2] - Xf2) * dt / mass;
    this.#invInertia(
      inertia,
      b,
      (T[3 * b] - Xt0) * dt,
      (T[3 * b + 1] - Xt1) * dt,
      (T[3 * b + 2] - Xt2) * dt,
    );
    let ax = u[0], ay = u[1], az = u[2];
    lx += g[0] * dt, ly += g[1] * dt, lz += g[2] * dt;
    if (this.#at[b] === now - 1) {
      // the rest of the world's loads: the last step's change of velocity less the ground's
      // explicit impulses and gravity, before the engine's damping (v ← v / (1 + dt·rate))
      const dl = 1 + dt * damping[2 * b], da = 1 + dt * damping[2 * b + 1];
      lx += vx * dl - vel[o] - imp[o] / mass - g[0] * dt;
      ly += vy * dl - vel[o + 1] - imp[o + 1] / mass - g[1] * dt;
      lz += vz * dl - vel[o + 2] - imp[o + 2] / mass - g[2] * dt;
      this.#invInertia(inertia, b, imp[o + 3], imp[o + 4], imp[o + 5]);
      ax += wx * da - vel[o + 3] - u[0];
      ay += wy * da - vel[o + 4] - u[1];
      az += wz * da - vel[o + 5] - u[2];
    }
    // the force and the torque apart: each the largest share that does not leave the body
    // moving along it, (F_x·v′) / (dt·|F_x|²/m) and (T_x·ω′) / (dt·T_xᵀI⁻¹T_x)
    const fv = Xf0 * (vx + lx) + Xf1 * (vy + ly) + Xf2 * (vz + lz);
    const ff = (Xf0 * Xf0 + Xf1 * Xf1 + Xf2 * Xf2) / mass;
    const lambda = ff > 0 ? Math.min(1, Math.max(0, -fv / (dt * ff))) : 1;
    const tw = Xt0 * (wx + ax) + Xt1 * (wy + ay) + Xt2 * (wz + az);
    this.#invInertia(inertia, b, Xt0, Xt1, Xt2);
    const tt = Xt0 * u[0] + Xt1 * u[1] + Xt2 * u[2];
    const mu = tt > 0 ? Math.min(1, Math.max(0, -tw / (dt * tt))) : 1;
    const cut = 1 - lambda, turn = 1 - mu;
    F[3 * b] -= cut * Xf0, F[3 * b + 1] -= cut * Xf1, F[3 * b + 2] -= cut * Xf2;
    T[3 * b] -= turn * Xt0, T[3 * b + 1] -= turn * Xt1, T[3 * b + 2] -= turn * Xt2;
    this.shares[2 * b] = lambda, this.shares[2 * b + 1] = mu;
  }

  /**
   * Record dynamic body b's velocities at this step's start and the impulses handed to the
   * engine (`acc`, 6 per body, after the implicit drag took its part) at step `now`.
   */
  record(set: BodySet, b: number, acc: Float64Array, now: number): void {
    const o = 6 * b, vel = this.#vel, imp = this.#imp;
    for (let k = 0; k < 3; k++) {
      vel[o + k] = set.vel[3 * b + k], vel[o + 3 + k] = set.ang[3 * b + k];
    }
    for (let k = 0; k < 6; k++) imp[o + k] = acc[o + k];
    this.#at[b] = now;
  }

  /** I⁻¹·(tx, ty, tz) in the world frame into `#u`, with `#RB` the body's rotation. */
  #invInertia(I: Float64Array, b: number, tx: number, ty: number, tz: number): void {
    const RB = this.#RB, i = 12 * b, u = this.#u;
    // into the body frame, then along the principal axes a_k (columns of the body-frame matrix)
    const bx = RB[0] * tx + RB[3] * ty + RB[6] * tz;
    const by = RB[1] * tx + RB[4] * ty + RB[7] * tz;
    const bz = RB[2] * tx + RB[5] * ty + RB[8] * tz;
    let rx = 0, ry = 0, rz = 0;
    for (let k = 0; k < 3; k++) {
      const ax = I[i + 3 + 3 * k], ay = I[i + 4 + 3 * k], az = I[i + 5 + 3 * k];
      // a free axis (a moment of zero) does not turn: the engine locks it
      const c = I[i + k] > 0 ? (bx * ax + by * ay + bz * az) / I[i + k] : 0;
      rx += c * ax, ry += c * ay, rz += c * az;
    }
    u[0] = RB[0] * rx + RB[1] * ry + RB[2] * rz;
    u[1] = RB[3] * rx + RB[4] * ry + RB[5] * rz;
    u[2] = RB[6] * rx + RB[7] * ry + RB[8] * rz;
  }
}
