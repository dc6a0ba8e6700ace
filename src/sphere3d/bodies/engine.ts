/**
 * The rigid-body engine: Dimforge's Rapier (deterministic build), loaded lazily. This is the
 * ONLY module that imports Rapier; the rest of Grainlab sees Grainlab types (flat numbers,
 * {@link BodySet} columns). Rapier integrates bodies in float32; Grainlab reads its poses and
 * velocities back into float64 columns after each world step.
 *
 * @module
 */
import type RapierModule from "@dimforge/rapier3d-deterministic-compat";
import { BodyKind, type BodySet } from "./body_set.ts";
import { quatMultiplyInto, quatRotateInto } from "./quat.ts";
import { SHAPE_TABLE } from "./shape_table.ts";

type Rapier = typeof RapierModule;
type RWorld = InstanceType<Rapier["World"]>;
type RBody = ReturnType<RWorld["createRigidBody"]>;
type RCollider = ReturnType<RWorld["createCollider"]>;
type RJoint = ReturnType<RWorld["createImpulseJoint"]>;

let loading: Promise<Rapier> | null = null;

/** Load and initialise Rapier once per process. */
export function loadRapier(): Promise<Rapier> {
  if (loading === null) {
    loading = (async () => {
      const mod = await import("@dimforge/rapier3d-deterministic-compat");
      const R = (mod.default ?? mod) as Rapier;
      await R.init();
      return R;
    })();
  }
  return loading;
}

/** A clock that does not tick: Rapier's step timers read it (see {@link stepQuietly}). */
function still(): number {
  return 0;
}

/**
 * `world.step()` with `performance.now` shadowed by {@link still} for the duration of the
 * step. Rapier's step times its stages through `performance.now` (36 calls a step in this
 * build, whether its profiler is enabled or not), and in Deno each call is a runtime op that
 * costs as much as a small world's whole step. The timings feed only Rapier's own profiler
 * counters, which Grainlab never reads; the physics does not see them (this is Rapier's
 * deterministic build), so the results are the same bit for bit. The step is synchronous and
 * calls no user code, so no one else sees the still clock; the shadow is removed in `finally`,
 * and an own `now` that someone else put on `performance` is left as it is (no shadow then).
 */
function stepQuietly(world: RWorld): void {
  const perf = globalThis.performance as { now: () => number };
  // someone else's own `now` (a test's counter, a polyfill) is left alone
  if (Object.hasOwn(perf, "now")) {
    world.step();
    return;
  }
  perf.now = still;
  try {
    world.step();
  } finally {
    delete (perf as { now?: () => number }).now;
  }
}

/** One contact shape handed to the engine (Grainlab conventions: capsule/cylinder axis z). */
export interface EngineShape {
  /** `ShapeKind` of the shape. */
  kind: number;
  /** Parameters (see {@link BodySet.param}). */
  param: number[];
  /** Shape origin in the body frame (m). */
  position: number[];
  /** Shape orientation in the body frame `[x, y, z, w]`. */
  orientation: number[];
  /** Triangles of a mesh or height map in the shape frame. */
  triangles?: { vertices: Float64Array; indices: Uint32Array };
}

/** A body handed to the engine. */
export interface EngineBody {
  /** {@link BodyKind}. */
  kind: number;
  /** Body origin (m). */
  position: number[];
  /** Orientation `[x, y, z, w]`. */
  orientation: number[];
  /** Linear velocity (m/s). */
  linearVelocity: number[];
  /** Angular velocity (rad/s). */
  angularVelocity: number[];
  /** Density (kg/m³) of the shapes, or null when `mass` is given. */
  density: number | null;
  /** Total mass (kg), or null to take it from the density. */
  mass: number | null;
  /** Shapes. */
  shapes: EngineShape[];
  /**
   * Explicit mass properties (e.g. a URDF `<inertial>`): mass, centre of mass in the body
   * frame, principal moments and their frame. Overrides `density`/`mass`.
   */
  massProperties?: { mass: number; com: number[]; principal: number[]; frame: number[] };
  /** Whether the engine also collides this body with other bodies. @default true */
  collide?: boolean;
}

/** A joint between two bodies, frames relative to each body's origin. */
export interface EngineJoint {
  /** "revolute", "prismatic" or "fixed". */
  type: "revolute" | "prismatic" | "fixed";
  /** Joint anchor in the parent body frame (m). */
  anchor1: number[];
  /** Joint frame orientation in the parent body frame. */
  frame1: number[];
  /** Joint anchor in the child body frame (m). */
  anchor2: number[];
  /** Joint frame orientation in the child body frame. */
  frame2: number[];
  /** Joint axis in the joint frame (unit). */
  axis: number[];
  /** Limits [lower, upper] (rad or m), or null. */
  limits: [number, number] | null;
}

const Y_TO_Z = [Math.SQRT1_2, 0, 0, Math.SQRT1_2]; // +90° about x: Rapier's y axis onto z

/** The rigid-body world of a Grainlab {@link World}: Rapier behind Grainlab types. */
export class BodyEngine {
  readonly #R: Rapier;
  readonly #world: RWorld;
  readonly #bodies: RBody[] = [];
  readonly #colliders: RCollider[][] = [];
  readonly #joints: RJoint[] = [];
  readonly #jointType: string[] = [];

  private constructor(R: Rapier, gravity: ArrayLike<number>, dt: number) {
    this.#R = R;
    this.#world = new R.World({ x: gravity[0], y: gravity[1], z: gravity[2] });
    this.#world.timestep = dt;
  }

  /** Load Rapier (once) and make an engine world. */
  static async create(gravity: ArrayLike<number>, dt: number): Promise<BodyEngine> {
    return new BodyEngine(await loadRapier(), gravity, dt);
  }

  /** Engine version string. */
  get version(): string {
    return this.#R.version();
  }

  /** Set the gravity and the time step of the next steps. */
  configure(gravity: ArrayLike<number>, dt: number): void {
    this.#world.gravity = { x: gravity[0], y: gravity[1], z: gravity[2] };
    this.#world.timestep = dt;
  }

  /** Create a body with its colliders; returns its index (the same as in the BodySet). */
  addBody(spec: EngineBody): number {
    const R = this.#R, w = this.#world;
    const [px, py, pz] = spec.position, [qx, qy, qz, qw] = spec.orientation;
    const desc = spec.kind === BodyKind.dynamic
      ? R.RigidBodyDesc.dynamic()
      : spec.kind === BodyKind.static
      ? R.RigidBodyDesc.fixed()
      : R.RigidBodyDesc.kinematicPositionBased();
    desc.setTranslation(px, py, pz).setRotation({ x: qx, y: qy, z: qz, w: qw });
    desc.setCanSleep(false);
    const mp = spec.massProperties;
    if (mp !== undefined && spec.kind === BodyKind.dynamic) {
      const [cx, cy, cz] = mp.com, [ix, iy, iz] = mp.principal, f = mp.frame;
      desc.setAdditionalMassProperties(
        mp.mass,
        { x: cx, y: cy, z: cz },
        { x: ix, y: iy, z: iz },
        { x: f[0], y: f[1], z: f[2], w: f[3] },
      );
    }
    if (spec.kind !== BodyKind.static) {
      const [vx, vy, vz] = spec.linearVelocity, [ax, ay, az] = spec.angularVelocity;
      desc.setLinvel(vx, vy, vz).setAngvel({ x: ax, y: ay, z: az });
    }
    const rb = w.createRigidBody(desc);
    const cols: RCollider[] = [];
    for (const sh of spec.shapes) {
      const cd = this.#colliderDesc(sh);
      cd.setDensity(mp !== undefined ? 0 : 1);
      if (spec.collide === false) cd.setCollisionGroups(0);
      cols.push(w.createCollider(cd, rb));
    }
    if (spec.kind === BodyKind.dynamic && mp === undefined) {
      const volume = rb.mass();
      const density = spec.mass !== null ? spec.mass / volume : spec.density!;
      for (const c of cols) c.setDensity(density);
    }
    rb.recomputeMassPropertiesFromColliders();
    this.#bodies.push(rb);
    this.#colliders.push(cols);
    return this.#bodies.length - 1;
  }

  #colliderDesc(sh: EngineShape): InstanceType<Rapier["ColliderDesc"]> {
    const R = this.#R, p = sh.param;
    let rot = sh.orientation;
    const c = SHAPE_TABLE[sh.kind].collider(R, p, sh.triangles), d = c.desc;
    if (c.alongY) rot = quatMultiplyInto([0, 0, 0, 0], sh.orientation, Y_TO_Z);
    const [x, y, z] = sh.position;
    d.setTranslation(x, y, z).setRotation({ x: rot[0], y: rot[1], z: rot[2], w: rot[3] });
    return d;
  }

  /** Add a joint between bodies `parent` and `child`; returns its index. */
  addJoint(parent: number, child: number, j: EngineJoint): number {
    const R = this.#R;
    const v = (a: number[]) => ({ x: a[0], y: a[1], z: a[2] });
    const q = (a: number[]) => ({ x: a[0], y: a[1], z: a[2], w: a[3] });
    // Rapier's revolute/prismatic joints take anchors and one axis in each body's frame:
    // express the joint axis in both bodies' frames through the joint frames.
    const ax1 = quatRotateInto([0, 0, 0], j.frame1, j.axis);
    const ax2 = quatRotateInto([0, 0, 0], j.frame2, j.axis);
    let data;
    if (j.type === "revolute") {
      data = R.JointData.revoluteWithAxes(v(j.anchor1), v(j.anchor2), v(ax1), v(ax2));
    } else if (j.type === "prismatic") {
      data = R.JointData.prismatic(v(j.anchor1), v(j.anchor2), v(ax1));
    } else data = R.JointData.fixed(v(j.anchor1), q(j.frame1), v(j.anchor2), q(j.frame2));
    if (j.limits !== null && j.type !== "fixed") {
      data.limitsEnabled = true;
      data.limits = [j.limits[0], j.limits[1]];
    }
    const joint = this.#world.createImpulseJoint(
      data,
      this.#bodies[parent],
      this.#bodies[child],
      true,
    );
    joint.setContactsEnabled(false);
    this.#joints.push(joint);
    this.#jointType.push(j.type);
    return this.#joints.length - 1;
  }

  /** PD motor of a revolute or prismatic joint: τ = kp (target − q) + kd (targetVel − q̇). */
  setMotor(joint: number, target: number, targetVel: number, kp: number, kd: number): void {
    const jt = this.#joints[joint] as unknown as {
      configureMotorModel(m: number): void;
      configureMotor(p: number, v: number, k: number, d: number): void;
    };
    jt.configureMotorModel(this.#R.MotorModel.ForceBased);
    jt.configureMotor(target, targetVel, kp, kd);
  }

  /** Copy mass data and the current poses and velocities of every body into `set`. */
  read(set: BodySet): void {
    for (let b = 0; b < this.#bodies.length; b++) {
      const rb = this.#bodies[b];
      const t = rb.translation(), r = rb.rotation(), c = rb.worldCom(), lc = rb.localCom();
      set.pos[3 * b] = t.x, set.pos[3 * b + 1] = t.y, set.pos[3 * b + 2] = t.z;
      set.quat[4 * b] = r.x, set.quat[4 * b + 1] = r.y;
      set.quat[4 * b + 2] = r.z, set.quat[4 * b + 3] = r.w;
      if (set.kind[b] === BodyKind.dynamic) {
        set.com[3 * b] = c.x, set.com[3 * b + 1] = c.y, set.com[3 * b + 2] = c.z;
        set.localCom[3 * b] = lc.x, set.localCom[3 * b + 1] = lc.y;
        set.localCom[3 * b + 2] = lc.z;
      } else {
        // static and kinematic bodies turn about their origin
        set.com[3 * b] = t.x, set.com[3 * b + 1] = t.y, set.com[3 * b + 2] = t.z;
        set.localCom[3 * b] = set.localCom[3 * b + 1] = set.localCom[3 * b + 2] = 0;
      }
      if (set.kind[b] !== BodyKind.kinematic) {
        const v = rb.linvel(), w = rb.angvel();
        set.vel[3 * b] = v.x, set.vel[3 * b + 1] = v.y, set.vel[3 * b + 2] = v.z;
        set.ang[3 * b] = w.x, set.ang[3 * b + 1] = w.y, set.ang[3 * b + 2] = w.z;
      }
      set.mass[b] = set.kind[b] === BodyKind.dynamic ? rb.mass() : Infinity;
    }
  }

  /** Principal inertia and its frame of body `b` (engine values). */
  inertia(b: number): { principal: number[]; frame: number[] } {
    const rb = this.#bodies[b], p = rb.principalInertia(), f = rb.principalInertiaLocalFrame();
    return { principal: [p.x, p.y, p.z], frame: [f.x, f.y, f.z, f.w] };
  }

  /**
   * One world step: hand each dynamic body its force and torque (about the centre of mass:
   * grains plus the user's external load), set the kinematic velocities from `set`, advance,
   * and read the result back.
   */
  step(set: BodySet, force: Float64Array, torque: Float64Array): void {
    for (let b = 0; b < this.#bodies.length; b++) {
      const rb = this.#bodies[b], k = set.kind[b], o = 3 * b;
      if (k === BodyKind.dynamic) {
        rb.resetForces(true);
        rb.resetTorques(true);
        rb.addForce({ x: force[o], y: force[o + 1], z: force[o + 2] }, true);
        rb.addTorque({ x: torque[o], y: torque[o + 1], z: torque[o + 2] }, true);
      } else if (k === BodyKind.kinematic) {
        // the pose at the end of the step, moving at the scripted velocities (exact rotation)
        const dt = this.#world.timestep, q = 4 * b;
        rb.setNextKinematicTranslation({
          x: set.pos[o] + dt * set.vel[o],
          y: set.pos[o + 1] + dt * set.vel[o + 1],
          z: set.pos[o + 2] + dt * set.vel[o + 2],
        });
        const wx = set.ang[o] * dt, wy = set.ang[o + 1] * dt, wz = set.ang[o + 2] * dt;
        const th = Math.sqrt(wx * wx + wy * wy + wz * wz);
        const sn = th > 0 ? Math.sin(0.5 * th) / th : 0.5, cw = Math.cos(0.5 * th);
        const ax = wx * sn, ay = wy * sn, az = wz * sn;
        const qx = set.quat[q], qy = set.quat[q + 1], qz = set.quat[q + 2], qw = set.quat[q + 3];
        rb.setNextKinematicRotation({
          x: cw * qx + ax * qw + ay * qz - az * qy,
          y: cw * qy - ax * qz + ay * qw + az * qx,
          z: cw * qz + ax * qy - ay * qx + az * qw,
          w: cw * qw - ax * qx - ay * qy - az * qz,
        });
      }
    }
    stepQuietly(this.#world);
    this.read(set);
  }

  /** Linear and angular damping rates (1/s) of body `b`, which the engine applies implicitly. */
  setDamping(b: number, linear: number, angular: number): void {
    const rb = this.#bodies[b];
    rb.setLinearDamping(linear);
    rb.setAngularDamping(angular);
  }

  /** Teleport body `b` (pose and velocities), e.g. to set its initial state. */
  setState(b: number, pos: number[], quat: number[], vel: number[], ang: number[]): void {
    const rb = this.#bodies[b];
    rb.setTranslation({ x: pos[0], y: pos[1], z: pos[2] }, true);
    rb.setRotation({ x: quat[0], y: quat[1], z: quat[2], w: quat[3] }, true);
    rb.setLinvel({ x: vel[0], y: vel[1], z: vel[2] }, true);
    rb.setAngvel({ x: ang[0], y: ang[1], z: ang[2] }, true);
  }

  /** Remove the last body (undo of a failed add). */
  removeLast(): void {
    const rb = this.#bodies.pop();
    this.#colliders.pop();
    if (rb) this.#world.removeRigidBody(rb);
  }

  /** Free the engine's memory. */
  free(): void {
    this.#world.free();
  }
}
