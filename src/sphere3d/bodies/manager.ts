/**
 * The bodies of a world: builds bodies from validated options (Grainlab columns + the engine),
 * scripts kinematic bodies, sums the grains' loads and the user's external loads, and advances
 * the engine by one world step after the granular systems have stepped.
 *
 * @module
 */
import { BodyKind, BodySet } from "./body_set.ts";
import { quatRotateInto, quatRotateInverseInto } from "./quat.ts";
import { BodyEngine, type EngineShape } from "./engine.ts";
import type { BodyLoads } from "./contact.ts";
import { type BodyHost, RigidBody } from "./body.ts";
import type { BodySettings } from "./options.ts";
import type { TriangleMesh } from "./mesh.ts";
import type { HeightMap } from "./heightmap.ts";
import { triangles } from "./mesh_triangles.ts";
import { SHAPE_TABLE } from "./shape_table.ts";
import { checkBodyInput, FLOAT32_MAX } from "./float32.ts";

/** A validated shape ready to be added (local pose in the body frame). */
export interface ShapeSpec {
  /** `ShapeKind` of the shape. */
  kind: number;
  /** Parameters. */
  param: number[];
  /** Origin in the body frame. */
  position: number[];
  /** Orientation in the body frame. */
  orientation: number[];
  /** Mesh or height map. */
  object: TriangleMesh | HeightMap | null;
}

/** Local bounding box (half extents, centre) of a shape about its origin. */
function localBounds(s: ShapeSpec): { half: number[]; mid: number[] } {
  const { min, max } = SHAPE_TABLE[s.kind].bounds(s.param, s.object);
  return {
    half: [0, 1, 2].map((k) => 0.5 * (max[k] - min[k])),
    mid: [0, 1, 2].map((k) => 0.5 * (max[k] + min[k])),
  };
}

/** The bodies of one world. */
export class BodyManager implements BodyHost {
  /** Grainlab-side state. */
  readonly set: BodySet = new BodySet();
  /** The engine. */
  readonly engine: BodyEngine;
  /** Handles by body id. */
  readonly handles: RigidBody[] = [];
  /** External force per body (N), stride 3. */
  extForce: Float64Array = new Float64Array(0);
  /** External torque per body (N·m), stride 3, plus the torque of point forces. */
  extTorque: Float64Array = new Float64Array(0);
  /** Application point of the external force in the body frame (NaN: centre of mass). */
  extPoint: Float64Array = new Float64Array(0);
  /** Scripted velocities of kinematic bodies, stride 6 (linear, angular). */
  script: Float64Array = new Float64Array(0);
  /** Pending kinematic targets, stride 7 (position, quaternion); NaN = none. */
  target: Float64Array = new Float64Array(0);
  /** Total loads handed to the engine (scratch), stride 3. */
  readonly #f: Float64Array[] = [new Float64Array(0), new Float64Array(0)];
  /** The state changed outside a step (grains must recompute their forces). */
  changed = false;
  /** Smallest principal moment of inertia per body (kg·m²; Infinity unless dynamic). */
  #minInertia: Float64Array = new Float64Array(0);

  private constructor(engine: BodyEngine) {
    this.engine = engine;
  }

  /** Load the engine and make an empty body set. */
  static async create(gravity: ArrayLike<number>, dt: number): Promise<BodyManager> {
    return new BodyManager(await BodyEngine.create(gravity, dt));
  }

  /** Number of bodies. */
  get count(): number {
    return this.set.count;
  }

  /**
   * Add a validated body with its shapes; returns its handle. What the engine (float32)
   * cannot represent is refused first, naming `where` ({@link checkBodyInput}).
   */
  add(
    s: BodySettings,
    shapes: ShapeSpec[],
    defaultName: string,
    massProperties?: { mass: number; com: number[]; principal: number[]; frame: number[] },
    where = "World.add",
  ): RigidBody {
    checkBodyInput(where, s, shapes, massProperties);
    const set = this.set, nb = set.count, ns = set.shapes;
    const engineShapes: EngineShape[] = shapes.map((sh) => ({
      kind: sh.kind,
      param: sh.param,
      position: sh.position,
      orientation: sh.orientation,
      triangles: sh.object ? triangles(sh.object) : undefined,
    }));
    const id = this.engine.addBody({
      kind: s.kind,
      position: s.position,
      orientation: s.orientation,
      linearVelocity: s.linearVelocity,
      angularVelocity: s.angularVelocity,
      density: s.density,
      mass: s.mass,
      shapes: engineShapes,
      massProperties,
    });
    try {
      const b = set.addBody(s.kind);
      if (b !== id) throw new Error(`BodyManager: engine body ${id} != Grainlab body ${b}`);
      for (const sh of shapes) {
        const { half, mid } = localBounds(sh);
        set.addShape(b, sh.kind, sh.param, sh.position, sh.orientation, half, mid, sh.object);
      }
      this.#grow(set.count);
      for (let k = 0; k < 3; k++) {
        this.script[6 * b + k] = s.kind === BodyKind.kinematic ? s.linearVelocity[k] : 0;
        this.script[6 * b + 3 + k] = s.kind === BodyKind.kinematic ? s.angularVelocity[k] : 0;
      }
      this.engine.read(set);
      this.#minInertia[b] = s.kind === BodyKind.dynamic
        ? Math.min(...this.engine.inertia(b).principal)
        : Infinity;
      for (let k = 0; k < 3; k++) {
        set.vel[3 * b + k] = s.kind === BodyKind.static ? 0 : s.linearVelocity[k];
        set.ang[3 * b + k] = s.kind === BodyKind.static ? 0 : s.angularVelocity[k];
      }
      const h = new RigidBody(this, b, s.name ?? `${defaultName}${b}`);
      this.handles.push(h);
      this.changed = true;
      return h;
    } catch (e) {
      this.engine.removeLast();
      set.truncate(nb, ns);
      throw e;
    }
  }

  #grow(n: number): void {
    const g = (a: Float64Array, s: number, fill = 0) => {
      if (a.length >= s * n) return a;
      const b = new Float64Array(Math.max(2 * a.length, s * n)).fill(fill);
      b.set(a);
      return b;
    };
    this.extForce = g(this.extForce, 3);
    this.extTorque = g(this.extTorque, 3);
    this.extPoint = g(this.extPoint, 3, NaN);
    this.script = g(this.script, 6);
    this.target = g(this.target, 7, NaN);
    this.#f[0] = g(this.#f[0], 3);
    this.#f[1] = g(this.#f[1], 3);
    this.#minInertia = g(this.#minInertia, 1, Infinity);
  }

  /** Remove the bodies added after the first `n` (undo of a failed multi-body add). */
  truncate(n: number): void {
    while (this.set.count > n) {
      const b = this.set.count - 1;
      let ns = this.set.shapes;
      while (ns > 0 && this.set.shapeBody[ns - 1] === b) ns--;
      this.engine.removeLast();
      this.set.truncate(b, ns);
      this.handles.pop();
    }
  }

  /** The engine's principal inertia of body `b` and its frame. */
  inertia(b: number): { principal: number[]; frame: number[] } {
    return this.engine.inertia(b);
  }

  /**
   * Throw a RangeError naming the first body whose position, orientation or velocity is no
   * longer a finite float32 (the engine diverged or a body flew off), with the step `step`.
   * One plain pass over the columns; allocates nothing while the state is finite.
   */
  checkState(step: number): void {
    const set = this.set, n = set.count, p = set.pos, v = set.vel, w = set.ang, q = set.quat;
    for (let b = 0, o = 0; b < n; b++, o += 3) {
      const ok = Math.abs(p[o]) <= FLOAT32_MAX && Math.abs(p[o + 1]) <= FLOAT32_MAX &&
        Math.abs(p[o + 2]) <= FLOAT32_MAX && Math.abs(v[o]) <= FLOAT32_MAX &&
        Math.abs(v[o + 1]) <= FLOAT32_MAX && Math.abs(v[o + 2]) <= FLOAT32_MAX &&
        Math.abs(w[o]) <= FLOAT32_MAX && Math.abs(w[o + 1]) <= FLOAT32_MAX &&
        Math.abs(w[o + 2]) <= FLOAT32_MAX && Math.abs(q[4 * b]) <= 1.5 &&
        Math.abs(q[4 * b + 1]) <= 1.5 && Math.abs(q[4 * b + 2]) <= 1.5 &&
        Math.abs(q[4 * b + 3]) <= 1.5;
      if (ok) continue;
      const h = this.handles[b];
      throw new RangeError(
        `World.step: rigid body ${JSON.stringify(h.name)} (id ${b}) left the float32 range ` +
          `of the rigid-body engine at step ${step} (position ${p[o]}, ${p[o + 1]}, ` +
          `${p[o + 2]}; velocity ${v[o]}, ${v[o + 1]}, ${v[o + 2]}; angular velocity ` +
          `${w[o]}, ${w[o + 1]}, ${w[o + 2]}; orientation ${q[4 * b]}, ${q[4 * b + 1]}, ` +
          `${q[4 * b + 2]}, ${q[4 * b + 3]}): it diverged or flew off; check its loads, ` +
          "mass and time step, or keep it in a bounded region",
      );
    }
  }

  /** External force at a world point (stored in the body frame) or at the centre of mass. */
  setExternalForce(b: number, f: number[], point: number[] | null): void {
    const set = this.set;
    for (let k = 0; k < 3; k++) this.extForce[3 * b + k] = f[k];
    if (point === null) {
      for (let k = 0; k < 3; k++) this.extPoint[3 * b + k] = NaN;
      return;
    }
    // body frame: Rᵀ (p − origin)
    const d = [0, 1, 2].map((k) => point[k] - set.pos[3 * b + k]);
    const l = quatRotateInverseInto([0, 0, 0], set.quat, d, 0, 4 * b);
    for (let k = 0; k < 3; k++) this.extPoint[3 * b + k] = l[k];
  }

  /** External torque. */
  setExternalTorque(b: number, t: number[]): void {
    for (let k = 0; k < 3; k++) this.extTorque[3 * b + k] = t[k];
  }

  /** Set velocities (dynamic: now; kinematic: the script). */
  setVelocity(b: number, v: number[] | null, w: number[] | null): void {
    const set = this.set, kin = set.kind[b] === BodyKind.kinematic;
    for (let k = 0; k < 3; k++) {
      if (v) {
        set.vel[3 * b + k] = v[k];
        if (kin) this.script[6 * b + k] = v[k];
      }
      if (w) {
        set.ang[3 * b + k] = w[k];
        if (kin) this.script[6 * b + 3 + k] = w[k];
      }
    }
    const o = 3 * b;
    this.engine.setState(
      b,
      [set.pos[o], set.pos[o + 1], set.pos[o + 2]],
      [set.quat[4 * b], set.quat[4 * b + 1], set.quat[4 * b + 2], set.quat[4 * b + 3]],
      [set.vel[o], set.vel[o + 1], set.vel[o + 2]],
      [set.ang[o], set.ang[o + 1], set.ang[o + 2]],
    );
    this.changed = true;
  }

  /** Kinematic target of the next step. */
  setTarget(b: number, p: number[], q: number[] | null): void {
    for (let k = 0; k < 3; k++) this.target[7 * b + k] = p[k];
    for (let k = 0; k < 4; k++) this.target[7 * b + 3 + k] = q ? q[k] : NaN;
  }

  /** Teleport a body. */
  setPose(b: number, p: number[], q: number[]): void {
    const set = this.set, o = 3 * b;
    this.engine.setState(
      b,
      p,
      q,
      [set.vel[o], set.vel[o + 1], set.vel[o + 2]],
      [set.ang[o], set.ang[o + 1], set.ang[o + 2]],
    );
    this.engine.read(set);
    this.changed = true;
  }

  /** Before the granular systems step: kinematic velocities of this step. */
  beginStep(dt: number): void {
    const set = this.set, tg = this.target, sc = this.script;
    for (let b = 0; b < set.count; b++) {
      if (set.kind[b] !== BodyKind.kinematic) continue;
      const o = 3 * b, t = 7 * b;
      for (let k = 0; k < 3; k++) {
        set.vel[o + k] = sc[6 * b + k];
        set.ang[o + k] = sc[6 * b + 3 + k];
      }
      if (tg[t] === tg[t]) {
        // the target position is reached at constant velocity; the centre of mass moves with
        // the origin when the orientation is kept
        for (let k = 0; k < 3; k++) set.vel[o + k] = (tg[t + k] - set.pos[o + k]) / dt;
        if (tg[t + 3] === tg[t + 3]) {
          const q = [
            set.quat[4 * b],
            set.quat[4 * b + 1],
            set.quat[4 * b + 2],
            set.quat[4 * b + 3],
          ];
          const w = angularVelocityBetween(q, [tg[t + 3], tg[t + 4], tg[t + 5], tg[t + 6]], dt);
          for (let k = 0; k < 3; k++) set.ang[o + k] = w[k];
        } else for (let k = 0; k < 3; k++) set.ang[o + k] = 0;
        tg.fill(NaN, t, t + 7);
      }
    }
  }

  /**
   * After the granular systems stepped by `dt`: the grains' impulses of each system
   * (`loads`) become the bodies' average contact loads; with the external loads they go to the
   * engine, which advances the bodies.
   */
  endStep(dt: number, loads: readonly BodyLoads[], step = 0): void {
    const set = this.set, n = set.count, F = this.#f[0], T = this.#f[1];
    const gf = set.grainForce, gt = set.grainTorque;
    gf.fill(0, 0, 3 * n);
    gt.fill(0, 0, 3 * n);
    for (const l of loads) {
      const m = Math.min(l.size, n);
      for (let b = 0; b < m; b++) {
        for (let k = 0; k < 3; k++) {
          gf[3 * b + k] += l.acc[6 * b + k] / dt;
          gt[3 * b + k] += l.acc[6 * b + 3 + k] / dt;
        }
      }
    }
    const ep = this.extPoint, ef = this.extForce;
    for (let b = 0; b < n; b++) {
      const o = 3 * b;
      for (let k = 0; k < 3; k++) {
        F[o + k] = gf[o + k] + ef[o + k];
        T[o + k] = gt[o + k] + this.extTorque[o + k];
      }
      if (ep[o] === ep[o]) {
        // torque of the point force about the centre of mass
        const p = quatRotateInto([0, 0, 0], set.quat, ep, 0, 4 * b, o);
        const r = [0, 1, 2].map((k) => set.pos[o + k] + p[k] - set.com[o + k]);
        T[o] += r[1] * ef[o + 2] - r[2] * ef[o + 1];
        T[o + 1] += r[2] * ef[o] - r[0] * ef[o + 2];
        T[o + 2] += r[0] * ef[o + 1] - r[1] * ef[o];
      }
    }
    this.#checkLoads(dt, step);
    this.engine.step(set, F, T);
  }

  /**
   * Before the engine steps: a load whose velocity change in one step float32 cannot hold
   * would make Rapier drop the body's motion silently (it freezes); throw naming the body.
   */
  #checkLoads(dt: number, step: number): void {
    const set = this.set, n = set.count, F = this.#f[0], T = this.#f[1], v = set.vel;
    const w = set.ang, kind = set.kind, mass = set.mass, iMin = this.#minInertia;
    for (let b = 0, o = 0; b < n; b++, o += 3) {
      if (kind[b] !== BodyKind.dynamic) continue;
      const dv = (dt * Math.sqrt(F[o] * F[o] + F[o + 1] * F[o + 1] + F[o + 2] * F[o + 2])) /
        mass[b];
      const dw = (dt * Math.sqrt(T[o] * T[o] + T[o + 1] * T[o + 1] + T[o + 2] * T[o + 2])) /
        iMin[b];
      const sv = Math.abs(v[o]) + Math.abs(v[o + 1]) + Math.abs(v[o + 2]) + dv;
      const sw = Math.abs(w[o]) + Math.abs(w[o + 1]) + Math.abs(w[o + 2]) + dw;
      if (sv <= FLOAT32_MAX && sw <= FLOAT32_MAX) continue;
      const h = this.handles[b];
      throw new RangeError(
        `World.step: rigid body ${JSON.stringify(h.name)} (id ${b}) would leave the float32 ` +
          `range of the rigid-body engine at step ${step}: its load (force ${F[o]}, ` +
          `${F[o + 1]}, ${F[o + 2]} N; torque ${T[o]}, ${T[o + 1]}, ${T[o + 2]} N·m) changes ` +
          `its velocity by ${dv.toPrecision(3)} m/s and its spin by ${dw.toPrecision(3)} ` +
          `rad/s in one step (mass ${mass[b]} kg); check its loads and mass`,
      );
    }
  }
}

/** The constant angular velocity turning orientation `a` into `b` in `dt`. */
function angularVelocityBetween(a: number[], b: number[], dt: number): number[] {
  // d = b ⊗ a⁻¹
  const [ax, ay, az, aw] = [-a[0], -a[1], -a[2], a[3]];
  const [bx, by, bz, bw] = b;
  let dx = bw * ax + bx * aw + by * az - bz * ay;
  let dy = bw * ay - bx * az + by * aw + bz * ax;
  let dz = bw * az + bx * ay - by * ax + bz * aw;
  let dw = bw * aw - bx * ax - by * ay - bz * az;
  if (dw < 0) dx = -dx, dy = -dy, dz = -dz, dw = -dw;
  const s = Math.hypot(dx, dy, dz);
  if (s === 0) return [0, 0, 0];
  const angle = 2 * Math.atan2(s, dw);
  return [(dx / s) * angle / dt, (dy / s) * angle / dt, (dz / s) * angle / dt];
}
