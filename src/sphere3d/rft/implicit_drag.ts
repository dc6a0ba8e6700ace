/**
 * The RFT ground's implicit drag (`RftGroundOptions.implicitDrag`, on by default). RFT is
 * quasi-static: the stress does not grow with speed, so a light body pushed explicitly by the
 * full stress reverses its velocity in one step and chatters at the step frequency (a 0.2 kg
 * URDF foot at dt = 1 ms: ±0.3 m/s, ±160 N, every step). When the part of a dynamic body's RFT
 * force that opposes its velocity, −c·v with c = −(F·v)/|v|², would stop the body within the
 * step (c·dt > m), it is handed to the engine as a linear damping rate c/m, which the engine
 * integrates implicitly: the body comes to rest instead of bouncing back; likewise the part of
 * the torque that opposes the spin (rate c/I, I about the spin axis). Otherwise, and for the
 * rest of the force (lift, side force), the RFT force is applied as it is. The engine's damping
 * is isotropic, so a body being stopped is damped in every direction. The ground owns the
 * bodies' damping rates (Grainlab sets none otherwise).
 *
 * @module
 */
import { BodyKind, quatMatrix } from "../bodies/body_set.ts";
import type { BodyManager } from "../bodies/manager.ts";

/**
 * Per body: the principal moments of inertia and their axes (dynamic bodies; the pressure
 * memory's bound reads them too) and the damping rates last handed to the engine.
 *
 * @example
 * ```ts
 * import { RftImplicitDrag } from "./implicit_drag.ts";
 * import { expect } from "expect";
 * const drag = new RftImplicitDrag();
 * expect(drag.damping.length).toBe(0); // sized by `resize` at the ground's first step
 * ```
 */
export class RftImplicitDrag {
  /**
   * Per body, 12 numbers: the principal moments (kg·m²), then their axes a_k in the body frame
   * (a_k at 3 + 3k); zeros for a body that is not dynamic.
   */
  inertia: Float64Array = new Float64Array(0);
  /** Per body, 2 numbers: the linear and angular damping rates last handed to the engine (1/s). */
  damping: Float64Array = new Float64Array(0);
  readonly #RB = new Float64Array(9);

  /** Size the columns for the `n` bodies of `m` (between steps, when bodies were added). */
  resize(m: BodyManager, n: number): void {
    const set = m.set, old = this.damping.length / 2;
    if (n <= old) return;
    const inertia = new Float64Array(12 * n), damping = new Float64Array(2 * n);
    inertia.set(this.inertia);
    damping.set(this.damping);
    for (let b = old; b < n; b++) {
      if (set.kind[b] !== BodyKind.dynamic) continue;
      const { principal, frame } = m.inertia(b);
      const F = new Float64Array(9);
      quatMatrix(frame[0], frame[1], frame[2], frame[3], F, 0);
      // principal moments, then the axes as the columns of F: a_k = (F[k], F[3 + k], F[6 + k])
      for (let k = 0; k < 3; k++) {
        inertia[12 * b + k] = principal[k];
        inertia[12 * b + 3 + 3 * k] = F[k];
        inertia[12 * b + 4 + 3 * k] = F[3 + k];
        inertia[12 * b + 5 + 3 * k] = F[6 + k];
      }
    }
    this.inertia = inertia;
    this.damping = damping;
  }

  /**
   * Move the part of dynamic body b's loads (impulses in `acc`, 6 per body) that opposes its
   * velocity and spin into the engine's implicit damping rates, over a step of `dt` (s) under
   * gravity `g` (m/s²).
   */
  apply(m: BodyManager, b: number, acc: Float64Array, dt: number, g: ArrayLike<number>): void {
    const set = m.set, o = 6 * b;
    let lin = 0, ang = 0;
    const vx = set.vel[3 * b], vy = set.vel[3 * b + 1], vz = set.vel[3 * b + 2];
    const v2 = vx * vx + vy * vy + vz * vz, pv = acc[o] * vx + acc[o + 1] * vy + acc[o + 2] * vz;
    // the drag impulse k·v (k < 0) stops the body when −k·|v|² > m·|v|²; otherwise the force
    // stays explicit (exact RFT). Stopping, what is left after m·|v| first holds the body
    // against gravity along v (explicitly: the engine moves the body before it damps it), and
    // the rest becomes a damping rate ≥ 1/dt.
    const mass = set.mass[b];
    if (pv < 0 && v2 > 0 && -pv > mass * v2) {
      const k = pv / v2, v = Math.sqrt(v2), drag = -pv / v; // impulse along −v/|v|
      const gv = (g[0] * vx + g[1] * vy + g[2] * vz) / v;
      const hold = gv > 0 ? Math.min(drag - mass * v, mass * gv * dt) : 0;
      acc[o] -= k * vx + (hold * vx) / v;
      acc[o + 1] -= k * vy + (hold * vy) / v;
      acc[o + 2] -= k * vz + (hold * vz) / v;
      lin = (drag - hold) / (mass * v * dt);
    }
    const wx = set.ang[3 * b], wy = set.ang[3 * b + 1], wz = set.ang[3 * b + 2];
    const w2 = wx * wx + wy * wy + wz * wz;
    const pw = acc[o + 3] * wx + acc[o + 4] * wy + acc[o + 5] * wz;
    if (pw < 0 && w2 > 0) {
      // the moment of inertia about the spin axis: Σ I_k (û·a_k)², û the axis in the body frame
      const q = set.quat, RB = this.#RB, I = this.inertia, i = 12 * b;
      quatMatrix(q[4 * b], q[4 * b + 1], q[4 * b + 2], q[4 * b + 3], RB, 0);
      const w = Math.sqrt(w2), ux = wx / w, uy = wy / w, uz = wz / w;
      const bx = RB[0] * ux + RB[3] * uy + RB[6] * uz;
      const by = RB[1] * ux + RB[4] * uy + RB[7] * uz;
      const bz = RB[2] * ux + RB[5] * uy + RB[8] * uz;
      let inertia = 0;
      for (let k = 0; k < 3; k++) {
        const c = bx * I[i + 3 + 3 * k] + by * I[i + 4 + 3 * k] + bz * I[i + 5 + 3 * k];
        inertia += I[i + k] * c * c;
      }
      if (-pw > inertia * w2) {
        const k = pw / w2;
        acc[o + 3] -= k * wx, acc[o + 4] -= k * wy, acc[o + 5] -= k * wz;
        ang = -k / (inertia * dt);
      }
    }
    const d = this.damping;
    if (lin !== d[2 * b] || ang !== d[2 * b + 1]) {
      m.engine.setDamping(b, lin, ang);
      d[2 * b] = lin, d[2 * b + 1] = ang;
    }
  }
}
