/**
 * URDF reader: a robot description (links with mass, inertia and collision shapes, joined by
 * revolute, continuous, prismatic and fixed joints into a tree) read into plain Grainlab data,
 * {@link UrdfModel}. Nothing here creates rigid bodies: the model is engine-neutral data that
 * the bodies module turns into bodies and joints.
 *
 * ## What is read
 *
 * - `<robot name>`: the one root element.
 * - `<link name>`: `<inertial>` (`<origin xyz rpy>`, `<mass value>`, `<inertia ixx ixy ixz iyy
 *   iyz izz>`) and any number of `<collision>` (`<origin xyz rpy>`, `<geometry>` holding one of
 *   `<box size>`, `<sphere radius>`, `<cylinder radius length>`, `<capsule radius length>`).
 * - `<joint name type>`: `<origin xyz rpy>`, `<parent link>`, `<child link>`, `<axis xyz>`,
 *   `<limit lower upper effort velocity>`, `<dynamics damping friction>`.
 *
 * Ignored: `<visual>` (drawing geometry, never contact), `<material>`, `<transmission>`,
 * `<gazebo>` and any other element the reader does not know, `<mimic>`, `<calibration>`,
 * `<safety_controller>`, and the `name` of a `<collision>`. A `<limit>` on a continuous joint is
 * dropped (its lower/upper have no meaning there). `<mesh>` geometry is an error (only the
 * primitive shapes are supported).
 *
 * ## Conventions
 *
 * Units are SI (m, kg, kg·m², rad, N, N·m, m/s, rad/s), as in URDF. Both URDF and the Grainlab
 * world are z-up, so no axis change is made. Rotations are quaternions `[x, y, z, w]`; a URDF
 * `rpy` is read as fixed-axis roll, pitch, yaw (`R = Rz(yaw)·Ry(pitch)·Rx(roll)`, see
 * `rpyToQuaternion` in `quat.ts`). Cylinders and capsules keep URDF's axis: the shape's local z. A
 * `<box size>` is the full size (the model gives half-extents); a cylinder's `length` is its
 * full height and a capsule's `length` the distance between the centres of its end caps (the
 * model gives half of each: `halfHeight`).
 *
 * ## Validation
 *
 * Errors name the source, its line and column, the element (`link "shin" <collision>[1]`,
 * with 0-based collision indices, or `joint "knee"`) and the rule broken. Malformed XML is a
 * SyntaxError; a wrong structure or unreadable value a TypeError; a value out of range a
 * RangeError.
 *
 * @module
 */
import type { Quaternion, Vector3 } from "./quat.ts";
import { notRegular } from "../../math/container.ts";
import { type InertiaTensor, principalInertia, rotateInertia } from "./inertia.ts";
import {
  atLeast,
  Ctx,
  origin,
  parseXml,
  positiveAttr,
  required,
  scalar,
  single,
  triple,
  type XNode,
} from "./urdf_xml.ts";

/** A robot read from URDF: its links in tree order and the joints between them. */
export interface UrdfModel {
  /** The `<robot name>`. */
  name: string;
  /** Name of the root link (the only link that is no joint's child). */
  root: string;
  /** The links in tree order (depth first, children in joint order): parents before children;
   * `links[0]` is the root. */
  links: UrdfLink[];
  /** The joints in the same order: `joints[k]` joins `links[k + 1]` to its parent. */
  joints: UrdfJoint[];
}

/** A URDF link: mass properties and contact shapes, in the link frame. */
export interface UrdfLink {
  /** The link's name. */
  name: string;
  /** Mass (kg), ≥ 0; `null` when the link has no `<inertial>` (compute it from the collision
   * geometry and a density). */
  mass: number | null;
  /** Centre of mass (m) in the link frame: the `<inertial><origin xyz>`; `[0, 0, 0]` without
   * one. */
  centerOfMass: Vector3;
  /** Inertia about the centre of mass, `[ixx, iyy, izz, ixy, ixz, iyz]` (kg·m²), rotated into
   * the link frame's axes when the inertial origin has an `rpy`; positive definite, or all
   * zero for a link of mass 0; `null` when there is no `<inertial>` or it gives no `<inertia>`. */
  inertia: InertiaTensor | null;
  /** Contact shapes (none is allowed: such a link touches nothing). */
  collisions: UrdfShape[];
}

/** Pose of a shape in its link's frame. */
export interface UrdfShapePose {
  /** Position (m) of the shape's centre in the link frame. */
  position: Vector3;
  /** Orientation `[x, y, z, w]` of the shape in the link frame. */
  orientation: Quaternion;
}

/** A collision shape of a link (cylinders and capsules lie along their local z). */
export type UrdfShape =
  & UrdfShapePose
  & (
    | { kind: "box"; halfExtents: Vector3 }
    | { kind: "sphere"; radius: number }
    | { kind: "cylinder"; radius: number; halfHeight: number }
    | { kind: "capsule"; radius: number; halfHeight: number }
  );

/** Joint types read from URDF (`floating` and `planar` are not supported). */
export type UrdfJointType = "revolute" | "continuous" | "prismatic" | "fixed";

/** Joint limits: position range, largest effort and speed. */
export interface UrdfLimit {
  /** Lowest position (rad for revolute, m for prismatic). */
  lower: number;
  /** Highest position, ≥ lower. */
  upper: number;
  /** Largest effort (N·m for revolute, N for prismatic), ≥ 0. */
  effort: number;
  /** Largest speed (rad/s or m/s), ≥ 0. */
  velocity: number;
}

/** A URDF joint: the child link's frame relative to the parent's, and its motion. */
export interface UrdfJoint {
  /** The joint's name. */
  name: string;
  /** The joint type. */
  type: UrdfJointType;
  /** Parent link name. */
  parent: string;
  /** Child link name. */
  child: string;
  /** Origin of the joint frame (= the child link frame at zero position) in the parent frame
   * (m). */
  position: Vector3;
  /** Orientation `[x, y, z, w]` of the joint frame in the parent frame. */
  orientation: Quaternion;
  /** Unit axis of rotation or translation in the joint frame; `[1, 0, 0]` when not given
   * (and for fixed joints). */
  axis: Vector3;
  /** Limits of a revolute or prismatic joint; `null` for continuous and fixed joints. */
  limit: UrdfLimit | null;
  /** Viscous damping (N·m·s/rad or N·s/m), ≥ 0; 0 without `<dynamics>`. */
  damping: number;
  /** Coulomb friction (N·m or N), ≥ 0; 0 without `<dynamics>`. */
  friction: number;
}

/** Options of {@link parseUrdf}. */
export interface ParseUrdfOptions {
  /** A name for the text in error messages (a file path). @default "<string>" */
  source?: string;
}

const JOINT_TYPES: readonly UrdfJointType[] = ["revolute", "continuous", "prismatic", "fixed"];
const SHAPES = "only box, sphere, cylinder, capsule are supported";

/**
 * Read a URDF robot description from its text.
 *
 * @param text The URDF (XML) text.
 * @param options `source`: the name used in error messages.
 * @returns The links (tree order) and joints; see {@link UrdfModel}.
 * @throws {SyntaxError} malformed XML; {TypeError} wrong structure; {RangeError} a value out
 * of range. The message names the source, line and column, the element and the rule.
 * @example
 * ```ts
 * import { parseUrdf } from "./urdf.ts";
 * import { expect } from "expect";
 * const model = parseUrdf(`
 *   <robot name="pendulum">
 *     <link name="base"/>
 *     <link name="bob">
 *       <inertial><mass value="0.5"/>
 *         <inertia ixx="1e-4" iyy="1e-4" izz="1e-4" ixy="0" ixz="0" iyz="0"/></inertial>
 *       <collision><origin xyz="0 0 -0.3"/><geometry><box size="0.1 0.1 0.2"/></geometry>
 *       </collision>
 *     </link>
 *     <joint name="swing" type="continuous">
 *       <parent link="base"/><child link="bob"/><axis xyz="0 2 0"/>
 *     </joint>
 *   </robot>`);
 * expect(model.root).toBe("base");
 * expect(model.links.map((l) => l.name)).toEqual(["base", "bob"]);
 * expect(model.links[0].mass).toBe(null); // no <inertial>
 * const box = model.links[1].collisions[0];
 * expect(box.kind === "box" && box.halfExtents).toEqual([0.05, 0.05, 0.1]);
 * expect(box.position).toEqual([0, 0, -0.3]);
 * expect(model.joints[0].axis).toEqual([0, 1, 0]);
 * expect(() => parseUrdf("<robot name='r'><link/></robot>")).toThrow(/link without a name/);
 * ```
 */
export function parseUrdf(text: string, options?: ParseUrdfOptions): UrdfModel {
  const where = "parseUrdf";
  if (typeof text !== "string") {
    throw new TypeError(`${where}: text (${typeof text}) must be a string`);
  }
  if (options !== undefined && (options === null || typeof options !== "object")) {
    throw new TypeError(`${where}: options (${String(options)}) must be an object`);
  }
  for (const k of Object.keys(options ?? {})) {
    if (k !== "source") {
      throw new TypeError(`${where}: options has an unknown key "${k}" (known: source)`);
    }
  }
  const source = options?.source ?? "<string>";
  if (typeof source !== "string") {
    throw new TypeError(`${where}: options.source (${String(source)}) must be a string`);
  }
  return read(where, text, source);
}

/**
 * Read a URDF file (UTF-8) with {@link parseUrdf}; error messages name `path`.
 *
 * @param path The file path.
 * @example
 * ```ts
 * import { readUrdf } from "./urdf.ts";
 * import { expect } from "expect";
 * const path = await Deno.makeTempFile({ suffix: ".urdf" });
 * await Deno.writeTextFile(
 *   path,
 *   `<robot name="ball"><link name="b"><collision><geometry><sphere radius="0.1"/></geometry>
 *   </collision></link></robot>`,
 * );
 * const model = await readUrdf(path);
 * expect(model.links[0].collisions[0]).toEqual({
 *   kind: "sphere",
 *   radius: 0.1,
 *   position: [0, 0, 0],
 *   orientation: [0, 0, 0, 1],
 * });
 * await Deno.remove(path);
 * ```
 */
export async function readUrdf(path: string): Promise<UrdfModel> {
  const where = "readUrdf";
  if (typeof path !== "string" || path === "") {
    throw new TypeError(`${where}: path (${String(path)}) must be a non-empty string`);
  }
  let text: string;
  try {
    // a FIFO or a device would block the read or never end
    const info = await Deno.stat(path);
    if (!info.isFile) throw new TypeError(notRegular(info));
    text = await Deno.readTextFile(path);
  } catch (e) {
    // keep the error's class (Deno.errors.NotFound, …); say who failed on what
    if (e instanceof Error) e.message = `${where}: cannot read ${path}: ${e.message}`;
    throw e;
  }
  return read(where, text, path);
}

// ---------------------------------------------------------------------------------------------
// Links and joints
// ---------------------------------------------------------------------------------------------

function readInertial(ctx: Ctx, link: XNode, element: string): Omit<UrdfLink, "collisions"> {
  const name = link.attrs.name;
  const node = single(ctx, link, "inertial", element);
  if (!node) return { name, mass: null, centerOfMass: [0, 0, 0], inertia: null };
  const el = `${element} <inertial>`;
  const pose = origin(ctx, node, el);
  const massNode = required(ctx, node, "mass", el);
  const mass = atLeast(ctx, massNode, "value", el, scalar(ctx, massNode, "value", el), 0);
  const iNode = single(ctx, node, "inertia", el);
  if (!iNode) return { name, mass, centerOfMass: pose.position, inertia: null };
  const k = ["ixx", "iyy", "izz", "ixy", "ixz", "iyz"].map((key) =>
    scalar(ctx, iNode, key, el)
  ) as InertiaTensor;
  if (mass === 0) {
    if (k.some((x) => x !== 0)) {
      ctx.fail(
        RangeError,
        iNode,
        el,
        `a link of mass 0 must have a zero inertia (got [${k.join(", ")}])`,
      );
    }
    return { name, mass, centerOfMass: pose.position, inertia: [0, 0, 0, 0, 0, 0] };
  }
  const { moments } = principalInertia(k);
  if (!(moments[0] > 0)) {
    ctx.fail(
      RangeError,
      iNode,
      el,
      `<inertia> must be positive definite (its principal moments are ` +
        `${moments.map((m) => m.toPrecision(6)).join(", ")}; all must be > 0)`,
    );
  }
  const o = pose.orientation;
  const inertia = o[3] === 1 ? k : rotateInertia(k, o);
  return { name, mass, centerOfMass: pose.position, inertia };
}

function readShape(ctx: Ctx, collision: XNode, element: string): UrdfShape {
  const pose = origin(ctx, collision, element);
  const geom = required(ctx, collision, "geometry", element);
  if (geom.children.length !== 1) {
    ctx.fail(
      TypeError,
      geom,
      element,
      `<geometry> must hold exactly one shape (it holds ${geom.children.length})`,
    );
  }
  const g = geom.children[0];
  switch (g.name) {
    case "box": {
      const size = triple(ctx, g, "size", element);
      if (!size.every((x) => x > 0)) {
        ctx.fail(
          RangeError,
          g,
          element,
          `<box> size (${size.join(" ")}) must be > 0 on every axis`,
        );
      }
      return { kind: "box", halfExtents: [size[0] / 2, size[1] / 2, size[2] / 2], ...pose };
    }
    case "sphere":
      return { kind: "sphere", radius: positiveAttr(ctx, g, "radius", element), ...pose };
    case "cylinder":
    case "capsule": {
      const radius = positiveAttr(ctx, g, "radius", element);
      const halfHeight = positiveAttr(ctx, g, "length", element) / 2;
      return { kind: g.name, radius, halfHeight, ...pose };
    }
    default:
      return ctx.fail(TypeError, g, element, `unsupported geometry <${g.name}>: ${SHAPES}`);
  }
}

function readLink(ctx: Ctx, node: XNode, index: number): UrdfLink {
  const name = node.attrs.name;
  if (name === undefined || name === "") {
    ctx.fail(TypeError, node, `<link>[${index}]`, "link without a name (name is required)");
  }
  const element = `link "${name}"`;
  const link = readInertial(ctx, node, element) as UrdfLink;
  link.collisions = node.children.filter((c) => c.name === "collision").map((c, k) =>
    readShape(ctx, c, `${element} <collision>[${k}]`)
  );
  return link;
}

function linkRef(ctx: Ctx, node: XNode, tag: string, element: string): string {
  const ref = required(ctx, node, tag, element);
  const name = ref.attrs.link;
  if (name === undefined || name === "") {
    ctx.fail(TypeError, ref, element, `<${tag}> has no link attribute`);
  }
  return name;
}

function readJoint(ctx: Ctx, node: XNode, index: number): UrdfJoint {
  const name = node.attrs.name;
  if (name === undefined || name === "") {
    ctx.fail(TypeError, node, `<joint>[${index}]`, "joint without a name (name is required)");
  }
  const element = `joint "${name}"`;
  const type = node.attrs.type;
  if (type === undefined) {
    ctx.fail(TypeError, node, element, "joint without a type (type is required)");
  }
  if (!(JOINT_TYPES as readonly string[]).includes(type)) {
    ctx.fail(
      TypeError,
      node,
      element,
      `unsupported joint type "${type}": only revolute, continuous, prismatic, fixed are supported`,
    );
  }
  const t = type as UrdfJointType;
  const parent = linkRef(ctx, node, "parent", element);
  const child = linkRef(ctx, node, "child", element);
  const { position, orientation } = origin(ctx, node, element);
  let axis: Vector3 = [1, 0, 0];
  const axisNode = t === "fixed" ? null : single(ctx, node, "axis", element);
  if (axisNode) {
    const a = triple(ctx, axisNode, "xyz", element, [1, 0, 0]);
    const n = Math.hypot(a[0], a[1], a[2]);
    if (!(n > 0)) {
      ctx.fail(RangeError, axisNode, element, `<axis> xyz (${a.join(" ")}) must not be zero`);
    }
    axis = [a[0] / n, a[1] / n, a[2] / n];
  }
  let limit: UrdfLimit | null = null;
  if (t === "revolute" || t === "prismatic") {
    const l = single(ctx, node, "limit", element);
    if (!l) {
      ctx.fail(
        TypeError,
        node,
        element,
        `a ${t} joint needs a <limit> (with effort and velocity; lower and upper default to 0)`,
      );
    }
    const lower = scalar(ctx, l, "lower", element, 0);
    const upper = scalar(ctx, l, "upper", element, 0);
    if (!(lower <= upper)) {
      ctx.fail(RangeError, l, element, `<limit> lower (${lower}) must be <= upper (${upper})`);
    }
    const effort = atLeast(ctx, l, "effort", element, scalar(ctx, l, "effort", element), 0);
    const velocity = atLeast(ctx, l, "velocity", element, scalar(ctx, l, "velocity", element), 0);
    limit = { lower, upper, effort, velocity };
  }
  let damping = 0, friction = 0;
  const dyn = single(ctx, node, "dynamics", element);
  if (dyn) {
    damping = atLeast(ctx, dyn, "damping", element, scalar(ctx, dyn, "damping", element, 0), 0);
    friction = atLeast(ctx, dyn, "friction", element, scalar(ctx, dyn, "friction", element, 0), 0);
  }
  return { name, type: t, parent, child, position, orientation, axis, limit, damping, friction };
}

// ---------------------------------------------------------------------------------------------
// The tree
// ---------------------------------------------------------------------------------------------

function read(where: string, text: string, source: string): UrdfModel {
  const ctx = new Ctx(where, text, source);
  const top = parseXml(ctx);
  const robot = top[0];
  if (!robot || robot.name !== "robot") {
    throw new TypeError(
      `${where}: ${robot ? ctx.at(robot.start) : source}: not a URDF: the root element is ` +
        `${robot ? `<${robot.name}>` : "missing"}, not <robot>`,
    );
  }
  const robotName = robot.attrs.name;
  if (robotName === undefined) {
    ctx.fail(TypeError, robot, "<robot>", "robot without a name (name is required)");
  }
  const linkNodes = robot.children.filter((c) => c.name === "link");
  const jointNodes = robot.children.filter((c) => c.name === "joint");
  if (linkNodes.length === 0) ctx.fail(TypeError, robot, "<robot>", "holds no <link>");

  const links = new Map<string, { link: UrdfLink; node: XNode }>();
  linkNodes.forEach((node, i) => {
    const link = readLink(ctx, node, i);
    const prev = links.get(link.name);
    if (prev) {
      ctx.fail(
        TypeError,
        node,
        `link "${link.name}"`,
        `duplicate link name (first defined at ${ctx.at(prev.node.start)})`,
      );
    }
    links.set(link.name, { link, node });
  });

  const joints = new Map<string, XNode>();
  const parentOf = new Map<string, { joint: UrdfJoint; node: XNode }>();
  const childrenOf = new Map<string, UrdfJoint[]>();
  jointNodes.forEach((node, i) => {
    const joint = readJoint(ctx, node, i);
    const element = `joint "${joint.name}"`;
    const prev = joints.get(joint.name);
    if (prev) {
      ctx.fail(
        TypeError,
        node,
        element,
        `duplicate joint name (first defined at ${ctx.at(prev.start)})`,
      );
    }
    joints.set(joint.name, node);
    for (const [role, l] of [["parent", joint.parent], ["child", joint.child]]) {
      if (!links.has(l)) {
        ctx.fail(TypeError, node, element, `${role} link "${l}" is not a <link> of the robot`);
      }
    }
    const other = parentOf.get(joint.child);
    if (other) {
      ctx.fail(
        TypeError,
        node,
        element,
        `link "${joint.child}" has two parents (it is already the child of joint ` +
          `"${other.joint.name}"): a URDF is a tree`,
      );
    }
    parentOf.set(joint.child, { joint, node });
    const list = childrenOf.get(joint.parent);
    if (list) list.push(joint);
    else childrenOf.set(joint.parent, [joint]);
  });

  // cycles: following the (unique) parents from any link must end at a root
  const done = new Set<string>();
  for (const start of links.keys()) {
    const path: string[] = [];
    const onPath = new Set<string>();
    let l: string | undefined = start;
    while (l !== undefined && !done.has(l)) {
      if (onPath.has(l)) {
        const cycle = path.slice(path.indexOf(l)).reverse();
        cycle.push(cycle[0]);
        const first = parentOf.get(cycle[0])!;
        ctx.fail(
          TypeError,
          first.node,
          `joint "${first.joint.name}"`,
          `the joints form a cycle through links ${cycle.map((c) => `"${c}"`).join(" → ")}`,
        );
      }
      onPath.add(l);
      path.push(l);
      l = parentOf.get(l)?.joint.parent;
    }
    for (const p of path) done.add(p);
  }

  const roots = [...links.keys()].filter((l) => !parentOf.has(l));
  if (roots.length !== 1) {
    // with every link of one parent at most and no cycle, there is at least one root
    ctx.fail(
      TypeError,
      links.get(roots[1])!.node,
      "<robot>",
      `more than one root link (${roots.map((r) => `"${r}"`).join(", ")}): every link but ` +
        "one must be the child of a joint",
    );
  }

  // depth-first, children in joint order
  const outLinks: UrdfLink[] = [];
  const outJoints: UrdfJoint[] = [];
  const stack: string[] = [roots[0]];
  while (stack.length > 0) {
    const l = stack.pop()!;
    outLinks.push(links.get(l)!.link);
    const p = parentOf.get(l);
    if (p) outJoints.push(p.joint);
    const kids = childrenOf.get(l) ?? [];
    for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k].child);
  }
  return { name: robotName, root: roots[0], links: outLinks, joints: outJoints };
}
