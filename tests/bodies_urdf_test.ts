import { describe, it } from "node:test";
import { expect } from "expect";
import { parseUrdf, readUrdf, type UrdfModel } from "../src/sphere3d/bodies/urdf.ts";
import {
  quatConjugate,
  quatConjugateInto,
  quatFromAxisAngle,
  quatFromMatrix,
  quatMultiply,
  quatMultiplyInto,
  quatNormalize,
  quatNormalizeInto,
  quatRotate,
  quatRotateInto,
  quatRotateInverse,
  quatRotateInverseInto,
  quatToMatrix,
  quatToMatrixInto,
  rpyToQuaternion,
} from "../src/sphere3d/bodies/quat.ts";
import { principalInertia, rotateInertia } from "../src/sphere3d/bodies/inertia.ts";
import { Rng } from "../src/math/rng.ts";

const LEG = new URL("../examples/assets/leg.urdf", import.meta.url);

// ---------------------------------------------------------------------------------------------
// Independent 3×3 matrix algebra (row-major), built from the elementary rotations
// ---------------------------------------------------------------------------------------------

type M3 = number[];
const rx = (a: number): M3 => [1, 0, 0, 0, Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a)];
const ry = (a: number): M3 => [Math.cos(a), 0, Math.sin(a), 0, 1, 0, -Math.sin(a), 0, Math.cos(a)];
const rz = (a: number): M3 => [Math.cos(a), -Math.sin(a), 0, Math.sin(a), Math.cos(a), 0, 0, 0, 1];
function mul(a: M3, b: M3): M3 {
  const c = new Array<number>(9).fill(0);
  for (let i = 0; i < 3; i++) {
    for (let j = 0; j < 3; j++) {
      for (let k = 0; k < 3; k++) c[3 * i + j] += a[3 * i + k] * b[3 * k + j];
    }
  }
  return c;
}
const transpose = (a: M3): M3 => [a[0], a[3], a[6], a[1], a[4], a[7], a[2], a[5], a[8]];
const apply = (a: M3, v: number[]): number[] =>
  [0, 1, 2].map((i) => a[3 * i] * v[0] + a[3 * i + 1] * v[1] + a[3 * i + 2] * v[2]);
/** R = Rz(yaw)·Ry(pitch)·Rx(roll): URDF's fixed-axis roll, pitch, yaw. */
const rpyMatrix = (r: number, p: number, y: number): M3 => mul(rz(y), mul(ry(p), rx(r)));
const sym = (t: number[]): M3 => [t[0], t[3], t[4], t[3], t[1], t[5], t[4], t[5], t[2]];
const maxDiff = (a: ArrayLike<number>, b: ArrayLike<number>): number => {
  let d = 0;
  for (let k = 0; k < a.length; k++) d = Math.max(d, Math.abs(a[k] - b[k]));
  return d;
};

const ANGLES: [number, number, number][] = [
  [0, 0, 0],
  [0.3, 0, 0],
  [0, -0.7, 0],
  [0, 0, 2.5],
  [0.1, 0.2, 0.3],
  [-1.2, 0.9, -2.8],
  [Math.PI, 0, 0],
  [0.4, Math.PI / 2, -0.6], // gimbal lock: roll and yaw mix
  [3.5, -2.0, 7.0], // beyond ±π
];

// ---------------------------------------------------------------------------------------------

describe("examples/assets/leg.urdf", () => {
  const loaded = readUrdf(LEG.pathname);

  it("is a 4-link chain base → thigh → shin → foot in tree order", async () => {
    const m = await loaded;
    expect(m.name).toBe("leg");
    expect(m.root).toBe("base");
    expect(m.links.map((l) => l.name)).toEqual(["base", "thigh", "shin", "foot"]);
    expect(m.joints.map((j) => [j.name, j.type, j.parent, j.child])).toEqual([
      ["hip", "revolute", "base", "thigh"],
      ["knee", "revolute", "thigh", "shin"],
      ["ankle", "fixed", "shin", "foot"],
    ]);
    m.joints.forEach((j, k) => expect(j.child).toBe(m.links[k + 1].name));
  });

  it("masses, shapes (box halved), limits and axes", async () => {
    const m = await loaded;
    expect(m.links.map((l) => l.mass)).toEqual([2, 1, 0.6, 0.2]);
    const [base, thigh, shin, foot] = m.links.map((l) => l.collisions);
    expect(base).toEqual([
      {
        kind: "box",
        halfExtents: [0.06, 0.04, 0.03],
        position: [0, 0, 0],
        orientation: [0, 0, 0, 1],
      },
    ]);
    expect(thigh).toEqual([
      {
        kind: "capsule",
        radius: 0.025,
        halfHeight: 0.1,
        position: [0, 0, -0.125],
        orientation: [0, 0, 0, 1],
      },
    ]);
    // capsule ends: cap centre ± radius reaches exactly the hip (0) and the knee (−0.25)
    const t = thigh[0] as { radius: number; halfHeight: number; position: number[] };
    expect(t.position[2] + t.halfHeight + t.radius).toBeCloseTo(0, 15);
    expect(t.position[2] - t.halfHeight - t.radius).toBeCloseTo(-0.25, 15);
    const s = shin[0] as { radius: number; halfHeight: number; position: number[] };
    expect(s.position[2] - s.halfHeight - s.radius).toBeCloseTo(-0.25, 15);
    expect(foot[0]).toMatchObject({ kind: "sphere", radius: 0.035 });
    expect(m.links[1].centerOfMass).toEqual([0, 0, -0.125]);
    const [hip, knee, ankle] = m.joints;
    expect(hip.axis).toEqual([0, 1, 0]);
    expect(hip.position).toEqual([0, 0, -0.05]);
    expect(hip.limit).toEqual({ lower: -1.6, upper: 0.6, effort: 60, velocity: 8 });
    expect(knee.limit).toEqual({ lower: 0, upper: 2.6, effort: 60, velocity: 8 });
    expect(hip.damping).toBe(0.05);
    expect(ankle.limit).toBe(null);
    expect(ankle.axis).toEqual([1, 0, 0]);
  });

  it("inertials are those of the collision solids (box, cylinder, sphere formulas)", async () => {
    const m = await loaded;
    const box = (
      mass: number,
      a: number,
      b: number,
      c: number,
    ) => [mass * (b * b + c * c) / 12, mass * (a * a + c * c) / 12, mass * (a * a + b * b) / 12];
    const cyl = (
      mass: number,
      r: number,
      h: number,
    ) => [mass * (3 * r * r + h * h) / 12, mass * (3 * r * r + h * h) / 12, mass * r * r / 2];
    const expected = [
      box(2, 0.12, 0.08, 0.06),
      cyl(1, 0.025, 0.25),
      cyl(0.6, 0.02, 0.25),
      [0.4 * 0.2 * 0.035 ** 2, 0.4 * 0.2 * 0.035 ** 2, 0.4 * 0.2 * 0.035 ** 2],
    ];
    m.links.forEach((l, k) => {
      expect(maxDiff(l.inertia!.slice(0, 3), expected[k])).toBeLessThan(1e-9);
      expect(l.inertia!.slice(3)).toEqual([0, 0, 0]);
    });
  });

  it("forward kinematics: the PD target presses the foot into a bed at z = 0.2", async () => {
    const m: UrdfModel = await loaded;
    const footBottom = (hip: number, knee: number) => {
      // world pose of each link frame, composed joint by joint (base origin at z = 0.55)
      let p = [0, 0, 0.55];
      let q = [0, 0, 0, 1];
      const angle: Record<string, number> = { hip, knee, ankle: 0 };
      for (const j of m.joints) {
        p = p.map((x, k) => x + quatRotate(q, j.position)[k]);
        q = quatMultiply(quatMultiply(q, j.orientation), quatFromAxisAngle(j.axis, angle[j.name]));
      }
      const foot = m.links[3].collisions[0] as { radius: number; position: number[] };
      const c = p.map((x, k) => x + quatRotate(q, foot.position)[k]);
      return [c[0], c[1], c[2] - foot.radius];
    };
    for (const a of [0, 0.4, 0.8, 1.2]) {
      const f = footBottom(-a, 2 * a);
      // independent planar geometry: hip 0.05 below the base, two 0.25 m segments
      expect(f[2]).toBeCloseTo(0.55 - 0.05 - 0.5 * Math.cos(a) - 0.035, 12);
      expect(f[0]).toBeCloseTo(0, 12); // the foot stays under the hip
    }
    // a negative hip angle swings the knee forward (+x)
    expect(footBottom(-0.5, 0)[0]).toBeGreaterThan(0);
    const start = footBottom(-1.2, 2.4)[2], target = footBottom(-0.8, 1.6)[2];
    expect(start).toBeCloseTo(0.2838, 4); // 8.4 cm above the sand
    expect(target).toBeCloseTo(0.1166, 4); // 8.3 cm into the bed, above its floor
    expect(start > 0.2 && target < 0.2 && target > 0).toBe(true);
    // the poses are inside the joint limits
    const [hip, knee] = m.joints;
    for (const [h, k] of [[-1.2, 2.4], [-0.8, 1.6]]) {
      expect(h >= hip.limit!.lower && h <= hip.limit!.upper).toBe(true);
      expect(k >= knee.limit!.lower && k <= knee.limit!.upper).toBe(true);
    }
  });
});

describe("rpyToQuaternion and the quaternion helpers", () => {
  it("rpy → quaternion equals Rz(yaw)·Ry(pitch)·Rx(roll) built from matrices", () => {
    let worst = 0;
    for (const [r, p, y] of ANGLES) {
      const q = rpyToQuaternion([r, p, y]);
      expect(Math.hypot(...q)).toBeCloseTo(1, 14);
      const m = rpyMatrix(r, p, y);
      worst = Math.max(worst, maxDiff(quatToMatrix(q), m));
      for (const v of [[1, 0, 0], [0, 1, 0], [0, 0, 1], [0.3, -1.7, 2.2]]) {
        worst = Math.max(worst, maxDiff(quatRotate(q, v), apply(m, v)));
      }
    }
    expect(worst).toBeLessThan(1e-14);
    // single-axis cases have the textbook half-angle form
    expect(maxDiff(rpyToQuaternion([0.6, 0, 0]), [Math.sin(0.3), 0, 0, Math.cos(0.3)]))
      .toBeLessThan(1e-16);
    expect(maxDiff(rpyToQuaternion([0, 0.6, 0]), [0, Math.sin(0.3), 0, Math.cos(0.3)]))
      .toBeLessThan(1e-16);
  });

  it("multiply composes like matrix products; conjugate and rotateInverse undo", () => {
    const gen = new Rng(7), rng = () => gen.next();
    const randQ = () => quatNormalize([rng() - 0.5, rng() - 0.5, rng() - 0.5, rng() - 0.5]);
    let worst = 0;
    for (let n = 0; n < 200; n++) {
      const a = randQ(), b = randQ();
      const v = [rng() - 0.5, rng() - 0.5, rng() - 0.5];
      worst = Math.max(
        worst,
        maxDiff(quatToMatrix(quatMultiply(a, b)), mul(quatToMatrix(a), quatToMatrix(b))),
      );
      worst = Math.max(
        worst,
        maxDiff(quatRotateInverse(a, v), apply(transpose(quatToMatrix(a)), v)),
      );
      worst = Math.max(worst, maxDiff(quatRotate(quatConjugate(a), v), quatRotateInverse(a, v)));
      // matrix → quaternion → matrix, including rotations near 180° (w ≈ 0)
      const back = quatFromMatrix(quatToMatrix(a));
      const s = Math.sign(a[3]) || 1;
      worst = Math.max(worst, maxDiff(back, a.map((x) => s * x)));
    }
    expect(worst).toBeLessThan(1e-14);
    for (const axis of [[1, 0, 0], [0, 1, 0], [0, 0, 1], [1, 1, 0]]) {
      const q = quatFromAxisAngle(axis, Math.PI);
      expect(maxDiff(quatFromMatrix(quatToMatrix(q)), q)).toBeLessThan(1e-15);
    }
  });

  it("Into variants work on stride-4/stride-3 columns at offsets and in place", () => {
    const q = rpyToQuaternion([0.2, -0.4, 1.3]), r = rpyToQuaternion([-1, 0.5, 0.1]);
    const cols = new Float64Array(12);
    cols.set(q, 4);
    cols.set(r, 8);
    quatMultiplyInto(cols, cols, cols, 4, 4, 8); // in place: q ← q ⊗ r
    expect(maxDiff(cols.subarray(4, 8), quatMultiply(q, r))).toBeLessThan(1e-16);
    const v = new Float64Array([9, 9, 9, 1, 2, 3]);
    quatRotateInto(v, q, v, 3, 0, 3);
    expect(maxDiff(v.subarray(3), quatRotate(q, [1, 2, 3]))).toBeLessThan(1e-16);
    expect(Array.from(v.subarray(0, 3))).toEqual([9, 9, 9]);
    quatRotateInverseInto(v, q, v, 3, 0, 3);
    expect(maxDiff(v.subarray(3), [1, 2, 3])).toBeLessThan(1e-14);
    expect(quatConjugateInto([0, 0, 0, 0], [0, 0, 0, 0, 1, 2, 3, 4], 0, 4)).toEqual([
      -1,
      -2,
      -3,
      4,
    ]);
    expect(quatNormalizeInto([0, 0, 0, 0, 0], [0, 0, 0, 2], 1)).toEqual([0, 0, 0, 0, 1]);
    const m = quatToMatrixInto(new Float64Array(10), q, 1);
    expect(maxDiff(m.subarray(1), quatToMatrix(q))).toBeLessThan(1e-16);
  });

  it("bad input throws with the function, the parameter and the rule", () => {
    expect(() => rpyToQuaternion([0, 0] as unknown as number[])).toThrow(
      /rpyToQuaternion: rpy \(length 2\) must have exactly 3 components/,
    );
    expect(() => rpyToQuaternion([0, NaN, 0])).toThrow(/rpy\[1\] \(NaN\) must be a finite/);
    expect(() => quatNormalize([0, 0, 0, 0])).toThrow(/quatNormalize: q .* must not be zero/);
    expect(() => quatNormalizeInto([0, 0, 0, 0], [0, 0, 0, 0])).toThrow(RangeError);
    expect(() => quatRotate([0, 0, 0, 2], [1, 0, 0])).toThrow(/must be a unit quaternion/);
    expect(() => quatFromAxisAngle([0, 0, 0], 1)).toThrow(/axis .* must not be zero/);
    expect(() => quatFromMatrix([1, 0, 0, 0, 1, 0, 0, 0, -1])).toThrow(/determinant \+1/);
    expect(() => quatMultiply([0, 0, 1], [0, 0, 0, 1])).toThrow(/a \(length 3\)/);
  });
});

describe("inertia helpers", () => {
  it("rotateInertia = R I Rᵀ and principalInertia reconstructs I", () => {
    const gen = new Rng(3), rng = () => gen.next();
    let worst = 0;
    for (let n = 0; n < 100; n++) {
      // a random symmetric positive definite tensor: B Bᵀ + 0.1 I
      const b = Array.from({ length: 9 }, () => rng() - 0.5);
      const full = mul(b, transpose(b));
      const t = [full[0] + 0.1, full[4] + 0.1, full[8] + 0.1, full[1], full[2], full[5]];
      const [rr, pp, yy] = [6 * rng() - 3, 3 * rng() - 1.5, 6 * rng() - 3];
      const rot = rpyMatrix(rr, pp, yy);
      const got = sym(rotateInertia(t, rpyToQuaternion([rr, pp, yy])));
      worst = Math.max(worst, maxDiff(got, mul(rot, mul(sym(t), transpose(rot)))));
      const { moments, frame } = principalInertia(t);
      expect(moments[0] <= moments[1] && moments[1] <= moments[2]).toBe(true);
      const r = quatToMatrix(frame);
      const d = [moments[0], 0, 0, 0, moments[1], 0, 0, 0, moments[2]];
      worst = Math.max(worst, maxDiff(mul(r, mul(d, transpose(r))), sym(t)));
      // invariants of the rotation: trace and principal moments
      expect(got[0] + got[4] + got[8]).toBeCloseTo(t[0] + t[1] + t[2], 12);
      expect(
        maxDiff(
          principalInertia([got[0], got[4], got[8], got[1], got[2], got[5]]).moments,
          moments,
        ),
      )
        .toBeLessThan(1e-12);
    }
    expect(worst).toBeLessThan(1e-13);
  });
});

// ---------------------------------------------------------------------------------------------

const robot = (body: string) => `<?xml version="1.0"?>\n<robot name="r">\n${body}\n</robot>\n`;
const INERTIA = `<inertia ixx="1e-3" iyy="1e-3" izz="1e-3" ixy="0" ixz="0" iyz="0"/>`;
const parse = (text: string) => parseUrdf(text, { source: "bad.urdf" });
function err(text: string): Error {
  try {
    parse(text);
  } catch (e) {
    return e as Error;
  }
  throw new Error("no error thrown");
}

describe("parseUrdf", () => {
  it("rotates an inertial with rpy into the link frame (a box turned 90° about z)", () => {
    // a box 0.4 × 0.1 × 0.2 (m = 3) in the inertial frame, turned by yaw 90°: in the link
    // frame it is a box 0.1 × 0.4 × 0.2
    const box = (
      a: number,
      b: number,
      c: number,
    ) => [3 * (b * b + c * c) / 12, 3 * (a * a + c * c) / 12, 3 * (a * a + b * b) / 12];
    const [ixx, iyy, izz] = box(0.4, 0.1, 0.2);
    const m = parse(robot(`<link name="a"><inertial>
      <origin xyz="0.1 0 0" rpy="0 0 ${Math.PI / 2}"/><mass value="3"/>
      <inertia ixx="${ixx}" iyy="${iyy}" izz="${izz}" ixy="0" ixz="0" iyz="0"/>
      </inertial></link>`));
    const l = m.links[0];
    expect(l.centerOfMass).toEqual([0.1, 0, 0]);
    expect(maxDiff(l.inertia!, [...box(0.1, 0.4, 0.2), 0, 0, 0])).toBeLessThan(1e-15);
    // a general rpy against R I Rᵀ by matrices
    const rpy: [number, number, number] = [0.3, -0.8, 1.9];
    const t = [0.02, 0.03, 0.04, 0.001, -0.002, 0.003];
    const m2 = parse(robot(`<link name="a"><inertial><origin rpy="${rpy.join(" ")}"/>
      <mass value="1"/><inertia ixx="${t[0]}" iyy="${t[1]}" izz="${t[2]}" ixy="${t[3]}"
      ixz="${t[4]}" iyz="${t[5]}"/></inertial></link>`));
    const r = rpyMatrix(...rpy);
    expect(maxDiff(sym(m2.links[0].inertia!), mul(r, mul(sym(t), transpose(r))))).toBeLessThan(
      1e-16,
    );
  });

  it("reads all shapes with their poses; visuals and unknown elements are ignored", () => {
    const m = parse(robot(`
      <material name="grey"><color rgba="0.5 0.5 0.5 1"/></material>
      <link name="a">
        <visual><geometry><mesh filename="a.stl"/></geometry></visual>
        <collision name="c0"><origin xyz="1 2 3" rpy="0 ${Math.PI / 2} 0"/>
          <geometry><cylinder radius="0.1" length="0.6"/></geometry></collision>
        <collision><geometry><capsule radius="0.05" length="0.3"/></geometry></collision>
        <collision><geometry><sphere radius="0.2"/></geometry></collision>
      </link>
      <gazebo reference="a"/>`));
    const [cyl, cap, sph] = m.links[0].collisions;
    expect(cyl).toMatchObject({
      kind: "cylinder",
      radius: 0.1,
      halfHeight: 0.3,
      position: [1, 2, 3],
    });
    // the cylinder axis (local z) turned by pitch 90° points along +x: Ry(π/2)·z = x
    const axis = quatRotate(cyl.orientation, [0, 0, 1]);
    expect(maxDiff(axis, [1, 0, 0])).toBeLessThan(1e-15);
    expect(cap).toMatchObject({ kind: "capsule", radius: 0.05, halfHeight: 0.15 });
    expect(sph).toMatchObject({ kind: "sphere", radius: 0.2, orientation: [0, 0, 0, 1] });
    expect(m.links[0].mass).toBe(null);
    expect(m.links[0].inertia).toBe(null);
  });

  it("links without collision or inertia; mass-0 links; continuous and prismatic joints", () => {
    const m = parse(robot(`
      <link name="world"/>
      <link name="a"><inertial><mass value="2"/></inertial></link>
      <link name="b"><inertial><mass value="0"/>
        <inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>
      <joint name="slide" type="prismatic"><parent link="world"/><child link="a"/>
        <axis xyz="0 0 -3"/><limit lower="-0.1" upper="0.2" effort="100" velocity="1"/>
        <dynamics damping="2"/></joint>
      <joint name="spin" type="continuous"><parent link="a"/><child link="b"/>
        <limit effort="5" velocity="3"/><dynamics friction="0.5"/></joint>`));
    expect(m.links.map((l) => [l.name, l.mass, l.inertia, l.collisions.length])).toEqual([
      ["world", null, null, 0],
      ["a", 2, null, 0],
      ["b", 0, [0, 0, 0, 0, 0, 0], 0],
    ]);
    const [slide, spin] = m.joints;
    expect(slide.axis).toEqual([0, 0, -1]);
    expect(slide.limit).toEqual({ lower: -0.1, upper: 0.2, effort: 100, velocity: 1 });
    expect([slide.damping, slide.friction]).toEqual([2, 0]);
    expect(spin.axis).toEqual([1, 0, 0]); // URDF's default axis
    expect(spin.limit).toBe(null);
    expect([spin.damping, spin.friction]).toEqual([0, 0.5]);
  });

  it("orders a branching tree depth first whatever the document order", () => {
    const link = (n: string) => `<link name="${n}"/>`;
    const joint = (p: string, c: string) =>
      `<joint name="${p}_${c}" type="fixed"><parent link="${p}"/><child link="${c}"/></joint>`;
    const m = parse(robot(
      ["c2", "b", "c1", "a", "root", "a1"].map(link).join("") +
        joint("b", "c1") + joint("a", "a1") + joint("root", "a") + joint("b", "c2") +
        joint("root", "b"),
    ));
    expect(m.root).toBe("root");
    expect(m.links.map((l) => l.name)).toEqual(["root", "a", "a1", "b", "c1", "c2"]);
    m.joints.forEach((j, k) => expect(j.child).toBe(m.links[k + 1].name));
    // parents come before children
    const at = new Map(m.links.map((l, k) => [l.name, k]));
    for (const j of m.joints) expect(at.get(j.parent)!).toBeLessThan(at.get(j.child)!);
  });

  const cases: [string, string, ErrorConstructor, RegExp][] = [
    ["not XML", "this is not <xml", SyntaxError, /parseUrdf: bad\.urdf:1:\d+: not well-formed XML/],
    ["empty text", "  ", SyntaxError, /bad\.urdf: not XML: the text is empty/],
    [
      "no <robot>",
      `<sdf version="1.6"/>`,
      TypeError,
      /not a URDF: the root element is <sdf>, not <robot>/,
    ],
    [
      "DOCTYPE",
      `<!DOCTYPE r [<!ENTITY a "b">]><robot name="r"/>`,
      SyntaxError,
      /a DOCTYPE is not allowed/,
    ],
    [
      "robot without name",
      `<robot><link name="a"/></robot>`,
      TypeError,
      /<robot>: robot without a name/,
    ],
    ["no links", robot(""), TypeError, /<robot>: holds no <link>/],
    [
      "link without a name",
      robot(`<link name="a"/>\n<link><collision/></link>`),
      TypeError,
      /bad\.urdf:4:1: <link>\[1\]: link without a name \(name is required\)/,
    ],
    [
      "duplicate link",
      robot(`<link name="a"/><link name="a"/>`),
      TypeError,
      /link "a": duplicate link name \(first defined at bad\.urdf:3:1\)/,
    ],
    [
      "duplicate joint",
      robot(`<link name="a"/><link name="b"/><link name="c"/>
        <joint name="j" type="fixed"><parent link="a"/><child link="b"/></joint>
        <joint name="j" type="fixed"><parent link="a"/><child link="c"/></joint>`),
      TypeError,
      /bad\.urdf:5:9: joint "j": duplicate joint name/,
    ],
    [
      "missing parent link",
      robot(
        `<link name="a"/><joint name="j" type="fixed"><parent link="zz"/><child link="a"/></joint>`,
      ),
      TypeError,
      /joint "j": parent link "zz" is not a <link> of the robot/,
    ],
    [
      "missing child link",
      robot(
        `<link name="a"/><joint name="j" type="fixed"><parent link="a"/><child link="q"/></joint>`,
      ),
      TypeError,
      /joint "j": child link "q" is not a <link> of the robot/,
    ],
    [
      "joint without <child>",
      robot(`<link name="a"/><joint name="j" type="fixed"><parent link="a"/></joint>`),
      TypeError,
      /joint "j": <joint> has no <child>/,
    ],
    [
      "two parents",
      robot(`<link name="a"/><link name="b"/><link name="c"/>
        <joint name="j1" type="fixed"><parent link="a"/><child link="c"/></joint>
        <joint name="j2" type="fixed"><parent link="b"/><child link="c"/></joint>`),
      TypeError,
      /joint "j2": link "c" has two parents \(it is already the child of joint "j1"\)/,
    ],
    [
      "cycle",
      robot(`<link name="root"/><link name="a"/><link name="b"/>
        <joint name="ab" type="fixed"><parent link="a"/><child link="b"/></joint>
        <joint name="ba" type="fixed"><parent link="b"/><child link="a"/></joint>`),
      TypeError,
      /bad\.urdf:4:9: joint "ab": the joints form a cycle through links "b" → "a" → "b"/,
    ],
    [
      "self loop (no root at all)",
      robot(
        `<link name="a"/><joint name="aa" type="fixed"><parent link="a"/><child link="a"/></joint>`,
      ),
      TypeError,
      /joint "aa": the joints form a cycle through links "a" → "a"/,
    ],
    [
      "two roots",
      robot(`<link name="a"/><link name="b"/>`),
      TypeError,
      /<robot>: more than one root link \("a", "b"\): every link but one must be the child/,
    ],
    [
      "mesh",
      robot(`<link name="shin"><collision><geometry><box size="1 1 1"/></geometry></collision>
        <collision><geometry><mesh filename="shin.stl"/></geometry></collision></link>`),
      TypeError,
      /bad\.urdf:4:30: link "shin" <collision>\[1\]: unsupported geometry <mesh>: only box, sphere, cylinder, capsule are supported/,
    ],
    [
      "empty geometry",
      robot(`<link name="a"><collision><geometry/></collision></link>`),
      TypeError,
      /link "a" <collision>\[0\]: <geometry> must hold exactly one shape \(it holds 0\)/,
    ],
    [
      "floating joint",
      robot(`<link name="a"/><link name="b"/>
        <joint name="free" type="floating"><parent link="a"/><child link="b"/></joint>`),
      TypeError,
      /joint "free": unsupported joint type "floating": only revolute, continuous, prismatic, fixed/,
    ],
    [
      "planar joint",
      robot(`<link name="a"/><link name="b"/>
        <joint name="p" type="planar"><parent link="a"/><child link="b"/></joint>`),
      TypeError,
      /joint "p": unsupported joint type "planar"/,
    ],
    [
      "zero box side",
      robot(
        `<link name="a"><collision><geometry><box size="0.1 0 0.1"/></geometry></collision></link>`,
      ),
      RangeError,
      /link "a" <collision>\[0\]: <box> size \(0\.1 0 0\.1\) must be > 0 on every axis/,
    ],
    [
      "infinite box side",
      robot(
        `<link name="a"><collision><geometry><box size="0.1 1e999 0.1"/></geometry></collision></link>`,
      ),
      RangeError,
      /<box> size \("0\.1 1e999 0\.1"\) must be 3 finite numbers/,
    ],
    [
      "negative sphere radius",
      robot(
        `<link name="a"><collision><geometry><sphere radius="-0.1"/></geometry></collision></link>`,
      ),
      RangeError,
      /link "a" <collision>\[0\]: <sphere> radius \(-0\.1\) must be > 0/,
    ],
    [
      "cylinder length 0",
      robot(
        `<link name="a"><collision><geometry><cylinder radius="0.1" length="0"/></geometry></collision></link>`,
      ),
      RangeError,
      /<cylinder> length \(0\) must be > 0/,
    ],
    [
      "capsule radius NaN",
      robot(
        `<link name="a"><collision><geometry><capsule radius="nan" length="1"/></geometry></collision></link>`,
      ),
      TypeError,
      /<capsule> radius \("nan"\) must be a number/,
    ],
    [
      "negative mass",
      robot(`<link name="a"><inertial><mass value="-1"/>${INERTIA}</inertial></link>`),
      RangeError,
      /link "a" <inertial>: <mass> value \(-1\) must be >= 0/,
    ],
    [
      "inertial without mass",
      robot(`<link name="a"><inertial>${INERTIA}</inertial></link>`),
      TypeError,
      /link "a" <inertial>: <inertial> has no <mass>/,
    ],
    [
      "inertia not positive definite",
      robot(`<link name="a"><inertial><mass value="1"/>
        <inertia ixx="1" iyy="1" izz="1" ixy="2" ixz="0" iyz="0"/></inertial></link>`),
      RangeError,
      /link "a" <inertial>: <inertia> must be positive definite \(its principal moments are -1\.00000, 1\.00000, 3\.00000; all must be > 0\)/,
    ],
    [
      "zero inertia with mass",
      robot(`<link name="a"><inertial><mass value="1"/>
        <inertia ixx="0" iyy="0" izz="0" ixy="0" ixz="0" iyz="0"/></inertial></link>`),
      RangeError,
      /<inertia> must be positive definite/,
    ],
    [
      "mass 0 with inertia",
      robot(`<link name="a"><inertial><mass value="0"/>${INERTIA}</inertial></link>`),
      RangeError,
      /a link of mass 0 must have a zero inertia/,
    ],
    [
      "inertia attribute missing",
      robot(
        `<link name="a"><inertial><mass value="1"/><inertia ixx="1" iyy="1"/></inertial></link>`,
      ),
      TypeError,
      /<inertia> has no izz attribute/,
    ],
    [
      "xyz of 2 numbers",
      robot(
        `<link name="a"><collision><origin xyz="1 2"/><geometry><sphere radius="1"/></geometry></collision></link>`,
      ),
      TypeError,
      /link "a" <collision>\[0\]: <origin> xyz \("1 2"\) must be 3 numbers separated by spaces/,
    ],
    [
      "rpy with commas",
      robot(`<link name="a"/><link name="b"/><joint name="j" type="fixed"><origin rpy="0,0,1"/>
        <parent link="a"/><child link="b"/></joint>`),
      TypeError,
      /joint "j": <origin> rpy \("0,0,1"\) must be 3 numbers separated by spaces/,
    ],
    [
      "rpy with a word",
      robot(`<link name="a"><inertial><origin rpy="0 pi 0"/><mass value="1"/></inertial></link>`),
      TypeError,
      /link "a" <inertial>: <origin> rpy \("0 pi 0"\) must be 3 numbers/,
    ],
    [
      "two origins",
      robot(
        `<link name="a"><collision><origin/><origin/><geometry><sphere radius="1"/></geometry></collision></link>`,
      ),
      TypeError,
      /link "a" <collision>\[0\]: more than one <origin>/,
    ],
    [
      "zero axis",
      robot(`<link name="a"/><link name="b"/><joint name="knee" type="continuous">
        <parent link="a"/><child link="b"/><axis xyz="0 0 0"/></joint>`),
      RangeError,
      /joint "knee": <axis> xyz \(0 0 0\) must not be zero/,
    ],
    [
      "revolute without limit",
      robot(`<link name="a"/><link name="b"/><joint name="knee" type="revolute">
        <parent link="a"/><child link="b"/></joint>`),
      TypeError,
      /joint "knee": a revolute joint needs a <limit>/,
    ],
    [
      "limit without effort",
      robot(`<link name="a"/><link name="b"/><joint name="s" type="prismatic">
        <parent link="a"/><child link="b"/><limit lower="0" upper="1" velocity="1"/></joint>`),
      TypeError,
      /joint "s": <limit> has no effort attribute/,
    ],
    [
      "lower above upper",
      robot(`<link name="a"/><link name="b"/><joint name="knee" type="revolute">
        <parent link="a"/><child link="b"/><limit lower="1" upper="-1" effort="1" velocity="1"/></joint>`),
      RangeError,
      /joint "knee": <limit> lower \(1\) must be <= upper \(-1\)/,
    ],
    [
      "negative damping",
      robot(`<link name="a"/><link name="b"/><joint name="j" type="continuous">
        <parent link="a"/><child link="b"/><dynamics damping="-1"/></joint>`),
      RangeError,
      /joint "j": <dynamics> damping \(-1\) must be >= 0/,
    ],
    [
      "joint without a name",
      robot(
        `<link name="a"/><link name="b"/><joint type="fixed"><parent link="a"/><child link="b"/></joint>`,
      ),
      TypeError,
      /<joint>\[0\]: joint without a name/,
    ],
  ];
  for (const [what, text, Type, message] of cases) {
    it(`rejects: ${what}`, () => {
      const e = err(text);
      expect(e).toBeInstanceOf(Type);
      expect(e.constructor).toBe(Type);
      expect(e.message).toMatch(message);
      expect(e.message.startsWith("parseUrdf: bad.urdf")).toBe(true);
    });
  }

  it("checks its own arguments; readUrdf names the file", async () => {
    expect(() => parseUrdf(42 as unknown as string)).toThrow(
      /parseUrdf: text \(number\) must be a string/,
    );
    expect(() => parseUrdf("<robot/>", { sauce: "x" } as never)).toThrow(/unknown key "sauce"/);
    expect(() => parseUrdf("<robot/>")).toThrow(/parseUrdf: <string>:1:1: <robot>/);
    await expect(readUrdf("/nonexistent/leg.urdf")).rejects.toThrow(
      /readUrdf: cannot read \/nonexistent\/leg\.urdf/,
    );
    await expect(readUrdf("/nonexistent/leg.urdf")).rejects.toBeInstanceOf(Deno.errors.NotFound);
    const dir = await Deno.makeTempDir();
    try {
      const path = `${dir}/bad.urdf`;
      await Deno.writeTextFile(path, robot(`<link name="a"/><link name="b"/>`));
      await expect(readUrdf(path)).rejects.toThrow(
        new RegExp(`^readUrdf: ${path.replaceAll("/", "\\/")}:3:17: <robot>: more than one root`),
      );
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
