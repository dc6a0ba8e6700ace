/**
 * The public handle of one rigid body of a {@link World}: its pose, velocities, mass, the load
 * the grains put on it, external loads and kinematic scripting.
 *
 * @module
 */
import { options as checkOptions } from "../../math/validate.ts";
import { float32Vec3 as vec3 } from "./float32.ts";
import type { Vec3 } from "../options.ts";
import { BodyKind, type BodySet, type RigidBodyType } from "./body_set.ts";
import { type BodyShape, SHAPE_TABLE } from "./shape_table.ts";
import { quatMultiply, quatRotate } from "./quat.ts";

export type { BodyShape } from "./shape_table.ts";
import { quaternion } from "./options.ts";

/**
 * What a {@link RigidBody} handle reads and asks of the world's bodies (the `BodyManager`
 * implements it): the body columns, the engine's inertia and the setters that keep the engine
 * in step. Internal.
 */
export interface BodyHost {
  /** The bodies' columns. */
  readonly set: BodySet;
  /** The engine's principal inertia and its frame. */
  inertia(b: number): { principal: number[]; frame: number[] };
  /** External force at a world point, or at the centre of mass for `null`. */
  setExternalForce(b: number, f: number[], point: number[] | null): void;
  /** External torque. */
  setExternalTorque(b: number, t: number[]): void;
  /** Velocities (dynamic: now; kinematic: the script). */
  setVelocity(b: number, v: number[] | null, w: number[] | null): void;
  /** Kinematic target of the next step. */
  setTarget(b: number, p: number[], q: number[] | null): void;
  /** Teleport. */
  setPose(b: number, p: number[], q: number[]): void;
}

/**
 * A rigid body in a world with bodies (see `World.create` / `World.addBox`). Getters return
 * fresh arrays (the state after the last step).
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = await World.create({ timeStep: 1e-3, gravity: [0, 0, -9.81] });
 * const ball = world.addSphere({ radius: 0.05, position: [0, 0, 1], density: 1000 });
 * world.run(100); // free fall for 0.1 s
 * expect(ball.position[2]).toBeCloseTo(1 - 0.5 * 9.81 * 0.1 ** 2, 2);
 * expect(ball.mass).toBeCloseTo((4 / 3) * Math.PI * 0.05 ** 3 * 1000, 3);
 * expect(ball.contactForce).toEqual([0, 0, 0]); // no grains touch it
 * ```
 */
export class RigidBody {
  readonly #m: BodyHost;
  /** Index of the body in its world (0, 1, …; the `boundary` column of its contacts). */
  readonly id: number;
  /** The body's name. */
  readonly name: string;

  /** @internal Made by the world's `add…` methods. */
  constructor(manager: BodyHost, id: number, name: string) {
    this.#m = manager;
    this.id = id;
    this.name = name;
  }

  /** `"dynamic"`, `"static"` or `"kinematic"`. */
  get bodyType(): RigidBodyType {
    const k = this.#m.set.kind[this.id];
    return k === BodyKind.dynamic ? "dynamic" : k === BodyKind.static ? "static" : "kinematic";
  }

  /** Origin of the body frame (m). */
  get position(): [number, number, number] {
    return this.#v3(this.#m.set.pos);
  }

  /** Orientation `[x, y, z, w]`. */
  get orientation(): [number, number, number, number] {
    const q = this.#m.set.quat, o = 4 * this.id;
    return [q[o], q[o + 1], q[o + 2], q[o + 3]];
  }

  /** Centre of mass in the world (m). */
  get centerOfMass(): [number, number, number] {
    return this.#v3(this.#m.set.com);
  }

  /** Linear velocity of the centre of mass (m/s). */
  get linearVelocity(): [number, number, number] {
    return this.#v3(this.#m.set.vel);
  }

  /** Angular velocity (rad/s). */
  get angularVelocity(): [number, number, number] {
    return this.#v3(this.#m.set.ang);
  }

  /** Mass (kg); Infinity for static and kinematic bodies. */
  get mass(): number {
    return this.#m.set.mass[this.id];
  }

  /** Principal moments of inertia (kg·m²) and their frame in the body (engine values). */
  get inertia(): { principal: number[]; frame: number[] } {
    return this.#m.inertia(this.id);
  }

  /** Net force of the grains on the body, averaged over the last step (N). */
  get contactForce(): [number, number, number] {
    return this.#v3(this.#m.set.grainForce);
  }

  /** Net torque of the grains about the centre of mass, averaged over the last step (N·m). */
  get contactTorque(): [number, number, number] {
    return this.#v3(this.#m.set.grainTorque);
  }

  /**
   * Apply a constant external force (N) from the next step on, at `point` (world coordinates
   * now; the point then moves with the body) or at the centre of mass; replaces the previous
   * external force. Dynamic bodies only.
   */
  setExternalForce(force: Vec3, options: { point?: Vec3 } = {}): void {
    const w = `${this.name}.setExternalForce`;
    const f = vec3(w, "force", force);
    const o = checkOptions<{ point?: Vec3 }>(w, "options", options, ["point"]);
    const p = o.point === undefined ? null : vec3(w, "point", o.point);
    this.#dynamic(w);
    this.#m.setExternalForce(this.id, f, p);
  }

  /** Apply a constant external torque (N·m) from the next step on. Dynamic bodies only. */
  setExternalTorque(torque: Vec3): void {
    const w = `${this.name}.setExternalTorque`;
    const t = vec3(w, "torque", torque);
    this.#dynamic(w);
    this.#m.setExternalTorque(this.id, t);
  }

  /**
   * Set the linear velocity (m/s): the current velocity of a dynamic body, or the scripted
   * velocity of a kinematic body (kept until changed).
   */
  setVelocity(velocity: Vec3): void {
    const w = `${this.name}.setVelocity`;
    const v = vec3(w, "velocity", velocity);
    this.#notStatic(w);
    this.#m.setVelocity(this.id, v, null);
  }

  /** Set the angular velocity (rad/s), like {@link setVelocity}. */
  setAngularVelocity(angularVelocity: Vec3): void {
    const w = `${this.name}.setAngularVelocity`;
    const a = vec3(w, "angularVelocity", angularVelocity);
    this.#notStatic(w);
    this.#m.setVelocity(this.id, null, a);
  }

  /**
   * Kinematic bodies: reach `position` (and `orientation`) at the end of the next step; the
   * body moves there at constant velocity during the step, and that velocity enters the
   * grains' contacts. The scripted velocity is back in force afterwards.
   */
  setKinematicTarget(position: Vec3, options: { orientation?: readonly number[] } = {}): void {
    const w = `${this.name}.setKinematicTarget`;
    const p = vec3(w, "position", position);
    const o = checkOptions<{ orientation?: number[] }>(w, "options", options, ["orientation"]);
    const q = o.orientation === undefined ? null : quaternion(w, "orientation", o.orientation);
    if (this.#m.set.kind[this.id] !== BodyKind.kinematic) {
      throw new TypeError(`${w}: body "${this.name}" is ${this.bodyType}; it must be kinematic`);
    }
    this.#m.setTarget(this.id, p, q);
  }

  /** Teleport the body (pose; velocities kept). Invalidates the grains' cached forces. */
  setPose(position: Vec3, options: { orientation?: readonly number[] } = {}): void {
    const w = `${this.name}.setPose`;
    const p = vec3(w, "position", position);
    const o = checkOptions<{ orientation?: number[] }>(w, "options", options, ["orientation"]);
    const q = o.orientation === undefined ? this.orientation : quaternion(
      w,
      "orientation",
      o.orientation,
    );
    this.#m.setPose(this.id, p, q);
  }

  /**
   * The contact shapes in world coordinates (after the last step): kind, dimensions, pose; mesh
   * and height-map shapes carry their triangles in the shape frame. For figures and exports.
   */
  get shapes(): BodyShape[] {
    const s = this.#m.set, out: BodyShape[] = [];
    const q = this.orientation, p = this.position;
    for (let k = 0; k < s.shapes; k++) {
      if (s.shapeBody[k] !== this.id) continue;
      const lp = [s.localPos[3 * k], s.localPos[3 * k + 1], s.localPos[3 * k + 2]];
      const lq = [
        s.localQuat[4 * k],
        s.localQuat[4 * k + 1],
        s.localQuat[4 * k + 2],
        s.localQuat[4 * k + 3],
      ];
      const d = quatRotate(q, lp);
      const position: [number, number, number] = [p[0] + d[0], p[1] + d[1], p[2] + d[2]];
      const orientation = quatMultiply(q, lq);
      const e = SHAPE_TABLE[s.shapeKind[k]];
      const size = e.describe(s.param.subarray(4 * k, 4 * k + 4), s.objects[k]);
      out.push({ shape: e.name, position, orientation, ...size });
    }
    return out;
  }

  /** Number of contact shapes. */
  get shapeCount(): number {
    let n = 0;
    const s = this.#m.set;
    for (let k = 0; k < s.shapes; k++) if (s.shapeBody[k] === this.id) n++;
    return n;
  }

  #v3(a: Float64Array): [number, number, number] {
    const o = 3 * this.id;
    return [a[o], a[o + 1], a[o + 2]];
  }

  #dynamic(w: string): void {
    if (this.#m.set.kind[this.id] !== BodyKind.dynamic) {
      throw new TypeError(`${w}: body "${this.name}" is ${this.bodyType}; it must be dynamic`);
    }
  }

  #notStatic(w: string): void {
    if (this.#m.set.kind[this.id] === BodyKind.static) {
      throw new TypeError(`${w}: body "${this.name}" is static; it cannot move`);
    }
  }
}
