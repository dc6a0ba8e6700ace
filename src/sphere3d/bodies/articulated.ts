/**
 * Articulated systems (robots) from URDF: one rigid body per link, joined by the engine's
 * revolute, prismatic and fixed joints, with PD joint motors; generalized coordinates and
 * velocities read from the link poses.
 *
 * @module
 */
import { finite, oneOf, options as checkOptions, positive, vec3 } from "../../math/validate.ts";
import type { Vec3 } from "../options.ts";
import { BodyKind } from "./body_set.ts";
import type { RigidBody } from "./body.ts";
import type { BodyManager, ShapeSpec } from "./manager.ts";
import { quaternion } from "./options.ts";
import { shapeNamed } from "./shape_table.ts";
import { float32Finite, float32Vec3 } from "./float32.ts";
import { principalInertia } from "./inertia.ts";
import {
  quatConjugate,
  quatFromAxisAngle,
  quatMultiply,
  quatRotate,
  quatRotateInverse,
} from "./quat.ts";
import type { UrdfModel } from "./urdf.ts";

/** Options of `World.addArticulatedSystem`. */
export interface ArticulatedOptions {
  /** `"fixed"`: the root link is welded to the world; `"floating"`: it is free. @default "fixed" */
  base?: "fixed" | "floating";
  /** World position of the root link's frame (m). @default [0, 0, 0] */
  position?: Vec3;
  /** World orientation of the root link `[x, y, z, w]`. @default [0, 0, 0, 1] */
  orientation?: readonly number[];
  /** Density (kg/m³) of links without an `<inertial>`. @default 1000 */
  density?: number;
  /**
   * Initial positions of the actuated joints (rad or m, URDF order): the links are created in
   * that configuration. @default all 0
   */
  jointPositions?: ArrayLike<number>;
}

const KEYS = ["base", "position", "orientation", "density", "jointPositions"];

/** Joint data kept per actuated joint. */
interface Actuated {
  name: string;
  type: "revolute" | "prismatic";
  joint: number;
  parent: number;
  child: number;
  anchor: number[];
  frame: number[];
  axis: number[];
}

/**
 * A robot in the world: links as {@link RigidBody}s, actuated joints (revolute, continuous,
 * prismatic) with PD targets. Generalized coordinates are the joint positions (rad or m) in
 * URDF order; a floating base prepends its pose `[x, y, z, qw, qx, qy, qz]` (and its velocity
 * `[vx, vy, vz, wx, wy, wz]` to the generalized velocity).
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = await World.create({ gravity: [0, 0, 0] });
 * const urdf = `<robot name="arm">
 *   <link name="base"><collision><geometry><box size="0.1 0.1 0.1"/></geometry></collision></link>
 *   <link name="arm"><inertial><mass value="1"/><inertia ixx="0.01" iyy="0.01" izz="0.01"
 *     ixy="0" ixz="0" iyz="0"/></inertial></link>
 *   <joint name="j" type="revolute"><parent link="base"/><child link="arm"/>
 *     <axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="10" velocity="5"/></joint>
 * </robot>`;
 * const arm = await world.addArticulatedSystem(urdf, { base: "fixed" });
 * arm.setPdGains(20, 2);
 * arm.setPdTarget([0.5]);
 * world.run(2000);
 * expect(arm.generalizedCoordinate[0]).toBeCloseTo(0.5, 2);
 * ```
 */
export class ArticulatedSystem {
  readonly #m: BodyManager;
  readonly #joints: Actuated[];
  readonly #floating: boolean;
  readonly #kp: Float64Array;
  readonly #kd: Float64Array;
  readonly #q: Float64Array;
  readonly #qd: Float64Array;
  /** The robot's name. */
  readonly name: string;
  /** The link bodies in URDF tree order (`links[0]` is the root). */
  readonly links: readonly RigidBody[];

  /** @internal Made by `World.addArticulatedSystem`. */
  constructor(
    m: BodyManager,
    name: string,
    links: RigidBody[],
    joints: Actuated[],
    floating: boolean,
  ) {
    this.#m = m;
    this.name = name;
    this.links = links;
    this.#joints = joints;
    this.#floating = floating;
    const n = joints.length;
    this.#kp = new Float64Array(n);
    this.#kd = new Float64Array(n);
    this.#q = new Float64Array(n);
    this.#qd = new Float64Array(n);
  }

  /** Names of the actuated joints, in the order of the joint coordinates. */
  get jointNames(): string[] {
    return this.#joints.map((j) => j.name);
  }

  /** The link named `name`. */
  link(name: string): RigidBody {
    const b = this.links.find((l) => l.name === name);
    if (!b) {
      throw new RangeError(
        `${this.name}.link: no link named ${JSON.stringify(name)} (links: ${
          this.links.map((l) => l.name).join(", ")
        })`,
      );
    }
    return b;
  }

  /** PD gains per actuated joint: one number for all or one per joint (N·m/rad, N·m·s/rad). */
  setPdGains(kp: number | ArrayLike<number>, kd: number | ArrayLike<number>): void {
    this.#fill("setPdGains", "kp", kp, this.#kp, true);
    this.#fill("setPdGains", "kd", kd, this.#kd, true);
    this.#apply();
  }

  /** PD targets: joint positions (rad or m) and optionally joint velocities. @default qd 0 */
  setPdTarget(q: ArrayLike<number>, qd?: ArrayLike<number>): void {
    this.#fill("setPdTarget", "q", q, this.#q, false);
    if (qd !== undefined) this.#fill("setPdTarget", "qd", qd, this.#qd, false);
    else this.#qd.fill(0);
    this.#apply();
  }

  #fill(w: string, name: string, v: number | ArrayLike<number>, out: Float64Array, pos: boolean) {
    const where = `${this.name}.${w}`, n = out.length;
    if (typeof v === "number") {
      out.fill(pos ? nonNeg(where, name, v) : float32Finite(where, name, v));
      return;
    }
    if (v === null || typeof v !== "object" || v.length !== n) {
      throw new RangeError(`${where}: ${name} must be a number or ${n} numbers (one per joint)`);
    }
    for (let k = 0; k < n; k++) {
      out[k] = pos
        ? nonNeg(where, `${name}[${k}]`, v[k])
        : float32Finite(where, `${name}[${k}]`, v[k]);
    }
  }

  #apply(): void {
    for (let k = 0; k < this.#joints.length; k++) {
      this.#m.engine.setMotor(
        this.#joints[k].joint,
        this.#q[k],
        this.#qd[k],
        this.#kp[k],
        this.#kd[k],
      );
    }
  }

  /** Joint positions (a floating base prepends `[x, y, z, qw, qx, qy, qz]`). */
  get generalizedCoordinate(): Float64Array {
    const n = this.#joints.length, f = this.#floating ? 7 : 0;
    const out = new Float64Array(f + n);
    if (this.#floating) {
      const p = this.links[0].position, q = this.links[0].orientation;
      out.set([p[0], p[1], p[2], q[3], q[0], q[1], q[2]]);
    }
    const set = this.#m.set;
    for (let k = 0; k < n; k++) {
      const j = this.#joints[k];
      const qp = quat(set.quat, j.parent), qc = quat(set.quat, j.child);
      const pf = quatMultiply(qp, j.frame);
      if (j.type === "revolute") {
        const r = quatMultiply(quatConjugate(pf), qc);
        const s = r[0] * j.axis[0] + r[1] * j.axis[1] + r[2] * j.axis[2];
        let a = 2 * Math.atan2(s, r[3]);
        if (a > Math.PI) a -= 2 * Math.PI;
        if (a <= -Math.PI) a += 2 * Math.PI;
        out[f + k] = a;
      } else {
        const pa = quatRotate(qp, j.anchor);
        const d = [0, 1, 2].map((i) =>
          set.pos[3 * j.child + i] - set.pos[3 * j.parent + i] - pa[i]
        );
        const l = quatRotateInverse(pf, d);
        out[f + k] = l[0] * j.axis[0] + l[1] * j.axis[1] + l[2] * j.axis[2];
      }
    }
    return out;
  }

  /** Joint velocities (a floating base prepends its linear and angular velocity). */
  get generalizedVelocity(): Float64Array {
    const n = this.#joints.length, f = this.#floating ? 6 : 0;
    const out = new Float64Array(f + n);
    if (this.#floating) {
      out.set([...this.links[0].linearVelocity, ...this.links[0].angularVelocity]);
    }
    const set = this.#m.set;
    for (let k = 0; k < n; k++) {
      const j = this.#joints[k];
      const pf = quatMultiply(quat(set.quat, j.parent), j.frame);
      const ax = quatRotate(pf, j.axis);
      const src = j.type === "revolute" ? set.ang : set.vel;
      let v = 0;
      for (let i = 0; i < 3; i++) v += (src[3 * j.child + i] - src[3 * j.parent + i]) * ax[i];
      out[f + k] = v;
    }
    return out;
  }
}

function nonNeg(where: string, name: string, v: unknown): number {
  const x = float32Finite(where, name, v);
  if (x < 0) throw new RangeError(`${where}: ${name} (${x}) must be >= 0`);
  return x;
}

function quat(a: Float64Array, b: number): number[] {
  return [a[4 * b], a[4 * b + 1], a[4 * b + 2], a[4 * b + 3]];
}

/** Build the robot of `model` in the bodies of `m`; all or nothing. */
export function buildArticulated(
  m: BodyManager,
  model: UrdfModel,
  options: ArticulatedOptions,
): ArticulatedSystem {
  const where = "World.addArticulatedSystem";
  const o = checkOptions<ArticulatedOptions>(where, "options", options, KEYS);
  const base = oneOf(where, "base", o.base ?? "fixed", ["fixed", "floating"]);
  const p0 = o.position === undefined ? [0, 0, 0] : vec3(where, "position", o.position);
  const q0 = quaternion(where, "orientation", o.orientation);
  const density = positive(where, "density", o.density ?? 1000);
  const moving = model.joints.filter((j) => j.type !== "fixed");
  const q0s = new Map<string, number>();
  if (o.jointPositions !== undefined) {
    const jp = o.jointPositions;
    if (jp === null || typeof jp !== "object" || jp.length !== moving.length) {
      throw new RangeError(
        `${where}: jointPositions must hold ${moving.length} numbers (one per actuated joint: ${
          moving.map((j) => j.name).join(", ")
        })`,
      );
    }
    moving.forEach((j, k) => q0s.set(j.name, finite(where, `jointPositions[${k}]`, jp[k])));
  }
  // the joints go to the engine (float32) after every link: check them before any link
  for (const j of model.joints) {
    const w = `${where}: joint ${JSON.stringify(j.name)}`;
    float32Vec3(w, "origin xyz", j.position);
    if (j.limit !== null) {
      float32Finite(w, "limit lower", j.limit.lower);
      float32Finite(w, "limit upper", j.limit.upper);
    }
  }
  const start = m.count;
  const pose = new Map<string, { p: number[]; q: number[] }>();
  pose.set(model.root, { p: p0, q: q0 });
  const parentJoint = new Map(model.joints.map((j) => [j.child, j]));
  const index = new Map<string, number>();
  const links: RigidBody[] = [];
  try {
    for (const link of model.links) {
      const j = parentJoint.get(link.name);
      if (j) {
        const pp = pose.get(j.parent)!;
        const pos = quatRotate(pp.q, j.position);
        const jq = quatMultiply(pp.q, j.orientation), a = q0s.get(j.name) ?? 0;
        const p = [0, 1, 2].map((k) => pp.p[k] + pos[k]);
        if (j.type === "prismatic") {
          const d = quatRotate(jq, j.axis);
          for (let k = 0; k < 3; k++) p[k] += a * d[k];
        }
        const q = j.type === "revolute" || j.type === "continuous"
          ? quatMultiply(jq, quatFromAxisAngle(j.axis, a))
          : jq;
        pose.set(link.name, { p, q });
      }
      const { p, q } = pose.get(link.name)!;
      const shapes: ShapeSpec[] = link.collisions.map((c) => {
        const e = shapeNamed(where, c.kind, true);
        return {
          kind: e.kind,
          param: e.params(where, c as unknown as Record<string, unknown>),
          position: [...c.position],
          orientation: [...c.orientation],
          object: null,
        };
      });
      const isRoot = link.name === model.root;
      const kind = isRoot && base === "fixed" ? BodyKind.static : BodyKind.dynamic;
      let mp;
      if (link.mass !== null && link.mass > 0) {
        const inertia = link.inertia ?? [1e-6, 1e-6, 1e-6, 0, 0, 0];
        const pi = principalInertia(inertia);
        mp = {
          mass: link.mass,
          com: [...link.centerOfMass],
          principal: [...pi.moments],
          frame: [...pi.frame],
        };
      } else if (shapes.length === 0 && kind === BodyKind.dynamic) {
        throw new RangeError(
          `${where}: link ${
            JSON.stringify(link.name)
          } has neither an <inertial> nor a <collision>; ` +
            "a moving link needs a mass",
        );
      }
      const body = m.add(
        {
          kind,
          position: p,
          orientation: q,
          density: mp ? null : density,
          mass: null,
          linearVelocity: [0, 0, 0],
          angularVelocity: [0, 0, 0],
          name: link.name,
        },
        shapes,
        "link",
        mp,
        `${where}: link ${JSON.stringify(link.name)}`,
      );
      index.set(link.name, body.id);
      links.push(body);
    }
    const actuated: Actuated[] = [];
    for (const j of model.joints) {
      const parent = index.get(j.parent)!, child = index.get(j.child)!;
      const type = j.type === "fixed" ? "fixed" : j.type === "prismatic" ? "prismatic" : "revolute";
      const limits: [number, number] | null = j.type === "continuous" || j.limit === null
        ? null
        : [j.limit.lower, j.limit.upper];
      const frame = [...j.orientation];
      const ji = m.engine.addJoint(parent, child, {
        type,
        anchor1: [...j.position],
        frame1: frame,
        anchor2: [0, 0, 0],
        frame2: [0, 0, 0, 1],
        axis: [...j.axis],
        limits,
      });
      if (type !== "fixed") {
        actuated.push({
          name: j.name,
          type,
          joint: ji,
          parent,
          child,
          anchor: [...j.position],
          frame,
          axis: [...j.axis],
        });
      }
    }
    return new ArticulatedSystem(m, model.name, links, actuated, base === "floating");
  } catch (e) {
    m.truncate(start);
    throw e;
  }
}
