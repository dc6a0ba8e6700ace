/**
 * The pressure memory as a capacity (`stressMemory.support` "capacity" of `RftGroundOptions`,
 * the default; the memory itself: `memory.ts`): the ground's load on a dynamic body is a bound,
 * not a force.
 *
 * What an element remembers is what the grains can bear before they yield. RFT's own stress is
 * rigid-plastic too: it resists motion and never pushes a body along its own direction from
 * rest. So the ground's whole force F on a dynamic body (RFT's with the memory's) is scaled by
 * λ ∈ [0, 1], the largest share that does not leave the body moving along F at the step's end,
 * λ = clamp(−F·v′ / (dt·|F|²/m), 0, 1), and its torque T about the centre of mass likewise by
 * clamp(−T·ω′ / (dt·TᵀI⁻¹T), 0, 1) (apart: the force holding a plate up must not be cut because
 * the plate rocks). v′ and ω′ are the body's velocities at the step's end without the ground,
 * from gravity and the rest of the world's loads on it (joints, grains, the user's forces) as
 * the last step's change of velocity showed them. The ground then stops a body and holds it
 * with up to what the grains remember, and never throws it back out; a body moving through the
 * grains (a leg sweeping, a plate sliding with lift) gets the whole force, which opposes its
 * motion. This replaces the implicit drag for the bodies it bounds.
 *
 * The same prediction gives RFT its direction of motion for these bodies: the ground resists
 * the motion the loads would cause, v′ (with the body's own spin: a jointed link's spin
 * predicted from its own inertia is ruled by the joint's torques, not by where it goes). A
 * body the bound stopped has no velocity of its own to take a direction from; read from what
 * is left of its velocity, RFT pointed its force anywhere from step to step, and a standing
 * robot's legs shuffled sideways and sank through what the grains remembered.
 *
 * @module
 */
import { type BodySet, quatMatrix } from "../bodies/body_set.ts";

/**
 * The bound's state: per body, to tell the rest of the world's loads from the change of
 * velocity, the velocities at the last step's start and the ground's impulses of that step.
 *
 * @example
 * ```ts
 * import { RftSupportBound } from "./memory_bound.ts";
 * import { BodyKind, BodySet } from "../bodies/body_set.ts";
 * import { expect } from "expect";
 * const set = new BodySet();
 * const b = set.addBody(BodyKind.dynamic); // at rest
 * set.mass[b] = 2;
 * const bound = new RftSupportBound();
 * bound.resize(1);
 * bound.begin();
 * // the ground pushes up with twice the body's weight: it only holds it
 * const F = Float64Array.of(0, 0, 2 * 2 * 9.81), T = new Float64Array(3);
 * const inertia = new Float64Array(12);
 * bound.predict(set, b, inertia, 1e-3, [0, 0, -9.81]); // it would fall 9.81 mm/s
 * expect(bound.free[2]).toBeCloseTo(-9.81e-3, 12);
 * bound.apply(set, b, F, T, inertia, 1e-3);
 * expect(F[2]).toBeCloseTo(2 * 9.81, 9);
 * ```
 */
export class RftSupportBound {
  /** Per body, 6 numbers: linear and angular velocity at the last step's start. */
  #vel: Float64Array = new Float64Array(0);
  /** Per body, 6 numbers: the ground's impulse and angular impulse of the last step. */
  #imp: Float64Array = new Float64Array(0);
  /** Per body: the step the two above were recorded at (−1: never). */
  #at: Float64Array = new Float64Array(0);
  /** The number of the step being taken. */
  #now = 0;
  /**
   * Per body, 6 numbers: its velocity and spin at the step's end without the ground, as
   * {@link RftSupportBound.predict} last found them (m/s, rad/s).
   */
  free: Float64Array = new Float64Array(0);
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
    this.#vel = grow(this.#vel, 6), this.#imp = grow(this.#imp, 6), this.free = grow(this.free, 6);
    this.#at = grow(this.#at, 1);
    for (let b = old; b < n; b++) this.#at[b] = -1;
  }

  /** Start a step. */
  begin(): void {
    this.#now++;
  }

  /**
   * Predict dynamic body b's velocity and spin at the step's end without the ground (see the
   * module notes) into {@link RftSupportBound.free}, for a step of `dt` (s) under gravity `g`
   * (m/s²); `inertia` holds the bodies' principal moments and axes (12 per body; see
   * `RftImplicitDrag.inertia`). `ahead`: between steps, for the next one (a listing).
   */
  predict(
    set: BodySet,
    b: number,
    inertia: Float64Array,
    dt: number,
    g: ArrayLike<number>,
    ahead = false,
  ): void {
    const o = 6 * b, vel = this.#vel, imp = this.#imp, mass = set.mass[b], fr = this.free;
    const vx = set.vel[3 * b], vy = set.vel[3 * b + 1], vz = set.vel[3 * b + 2];
    const wx = set.ang[3 * b], wy = set.ang[3 * b + 1], wz = set.ang[3 * b + 2];
    // gravity, then the rest of the world's loads as the last step's change of velocity less
    // the ground's impulses and gravity showed them (the ground hands a bounded body no
    // damping rate); a body without mass has no loads to tell
    let lx = vx + g[0] * dt, ly = vy + g[1] * dt, lz = vz + g[2] * dt;
    let ax = wx, ay = wy, az = wz;
    if (this.#at[b] === this.#now - (ahead ? 0 : 1) && mass > 0) {
      const u = this.#u;
      lx += vx - vel[o] - imp[o] / mass - g[0] * dt;
      ly += vy - vel[o + 1] - imp[o + 1] / mass - g[1] * dt;
      lz += vz - vel[o + 2] - imp[o + 2] / mass - g[2] * dt;
      this.#invInertia(set, inertia, b, imp[o + 3], imp[o + 4], imp[o + 5]);
      ax += wx - vel[o + 3] - u[0];
      ay += wy - vel[o + 4] - u[1];
      az += wz - vel[o + 5] - u[2];
    }
    fr[o] = lx, fr[o + 1] = ly, fr[o + 2] = lz, fr[o + 3] = ax, fr[o + 4] = ay, fr[o + 5] = az;
  }

  /**
   * Bound the ground's loads on dynamic body b (see the module notes), after
   * {@link RftSupportBound.predict} this step: its force in `F` and torque in `T` (3 per
   * body), scaled in place, over a step of `dt` (s). A body the ground does not touch is left
   * as it is.
   */
  apply(
    set: BodySet,
    b: number,
    F: Float64Array,
    T: Float64Array,
    inertia: Float64Array,
    dt: number,
  ): void {
    const mass = set.mass[b], fr = this.free, o = 6 * b;
    const f0 = F[3 * b], f1 = F[3 * b + 1], f2 = F[3 * b + 2];
    const t0 = T[3 * b], t1 = T[3 * b + 1], t2 = T[3 * b + 2];
    // nothing to bound on a body clear of the grains; a body without mass has no motion to
    // bound (the engine's dynamic bodies have mass)
    if (f0 === 0 && f1 === 0 && f2 === 0 && t0 === 0 && t1 === 0 && t2 === 0) return;
    if (!(mass > 0)) return;
    const u = this.#u;
    // the force and the torque apart: each the largest share that does not leave the body
    // moving along it, −(F·v′) / (dt·|F|²/m) and −(T·ω′) / (dt·TᵀI⁻¹T)
    const fv = f0 * fr[o] + f1 * fr[o + 1] + f2 * fr[o + 2];
    const ff = (f0 * f0 + f1 * f1 + f2 * f2) / mass;
    const lambda = ff > 0 ? Math.min(1, Math.max(0, -fv / (dt * ff))) : 1;
    this.#invInertia(set, inertia, b, t0, t1, t2);
    const tw = t0 * fr[o + 3] + t1 * fr[o + 4] + t2 * fr[o + 5];
    const tt = t0 * u[0] + t1 * u[1] + t2 * u[2];
    const mu = tt > 0 ? Math.min(1, Math.max(0, -tw / (dt * tt))) : 1;
    F[3 * b] = lambda * f0, F[3 * b + 1] = lambda * f1, F[3 * b + 2] = lambda * f2;
    T[3 * b] = mu * t0, T[3 * b + 1] = mu * t1, T[3 * b + 2] = mu * t2;
  }

  /**
   * Record dynamic body b's velocities at this step's start and the impulses handed to the
   * engine (`acc`, 6 per body).
   */
  record(set: BodySet, b: number, acc: Float64Array): void {
    const o = 6 * b, vel = this.#vel, imp = this.#imp;
    for (let k = 0; k < 3; k++) {
      vel[o + k] = set.vel[3 * b + k], vel[o + 3 + k] = set.ang[3 * b + k];
    }
    for (let k = 0; k < 6; k++) imp[o + k] = acc[o + k];
    this.#at[b] = this.#now;
  }

  /** Body b's I⁻¹·(tx, ty, tz) in the world frame into `#u`. */
  #invInertia(
    set: BodySet,
    I: Float64Array,
    b: number,
    tx: number,
    ty: number,
    tz: number,
  ): void {
    const RB = this.#RB, i = 12 * b, u = this.#u, q = set.quat;
    quatMatrix(q[4 * b], q[4 * b + 1], q[4 * b + 2], q[4 * b + 3], RB, 0);
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
