/**
 * The single source of the 3D contact laws: each law is a code fragment, a function that writes
 * the law's TypeScript statements for the variable names (or expressions) a host binds to its
 * inputs and outputs. `scripts/gen_contact_loops.ts` builds from these fragments both the plain
 * scalar functions of `src/contact` (`normalForce`, `contactDamping`, `tangentialSpring3`,
 * `rollingTorque`, `rollingScale`, `cohesionForce`, `mixGeometric`) and the hot loops of
 * `src/sphere3d` (pair loops, plane sweep, grain–body contact), so that each law is written
 * once and every copy has the same operations in the same order, hence the same bits.
 *
 * A fragment's inputs are read as given: bind them to plain names (or to expressions without
 * side effects, such as `invI[a]`), since a fragment may read an input more than once.
 *
 * @module
 */

/**
 * The normal law's inputs, outputs and temporaries: `fn = max(0, elastic − cn·vn)` with
 * `elastic = kn·δ` (linear) or `kn·√(R_eff·δ)·δ` (Hertz); unclamped, the raw force.
 */
export interface NormalNames {
  /** Boolean: the Hertz law (ignored when {@link NormalFixed.hertz} fixes it). */
  hertz: string;
  /** Normal stiffness. */
  kn: string;
  /** Normal damping coefficient of this contact (N·s/m). */
  cn: string;
  /** Effective radius (m), read by the Hertz law only. */
  rEff: string;
  /** Overlap δ (m). */
  overlap: string;
  /** Relative normal velocity (m/s), positive when separating. */
  vn: string;
  /** Boolean: clamp the force at zero (ignored when {@link NormalFixed.clamp} fixes it). */
  clamp: string;
  /** Output: the normal force (N), declared `const`. */
  fn: string;
  /** Temporary: the elastic part. */
  elastic: string;
  /** Temporary: the unclamped force. */
  raw: string;
}

/** Choices of the normal law known when the code is written (the rest are tested at run time). */
export interface NormalFixed {
  /** The law is Hertz (true) or linear (false). */
  hertz?: boolean;
  /** The force is clamped at zero (true) or not (false). */
  clamp?: boolean;
}

/** A normal-law fragment: {@link normalLaw}, or a replacement of the same shape. */
export type NormalFragment = (v: NormalNames, fixed?: NormalFixed) => string;

/**
 * The normal force: linear or Hertz elastic part, minus the dashpot, clamped at zero unless
 * `clamp` is false.
 *
 * @example
 * ```ts
 * import { normalLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const v = { hertz: "h", kn: "kn", cn: "cn", rEff: "r", overlap: "d", vn: "vn", clamp: "c",
 *   fn: "fn", elastic: "fe", raw: "fr" };
 * expect(normalLaw(v, { hertz: false, clamp: true })).toBe(
 *   "const fr = kn * d - cn * vn;\nconst fn = fr > 0 ? fr : 0;",
 * );
 * const run = new Function("h", "kn", "cn", "r", "d", "vn", "c", normalLaw(v) + "\nreturn fn;");
 * expect(run(false, 1e5, 0, 0, 1e-3, 0, true)).toBe(100);
 * ```
 */
export function normalLaw(v: NormalNames, fixed: NormalFixed = {}): string {
  const linear = `${v.kn} * ${v.overlap}`;
  const hertz = `${v.kn} * Math.sqrt(${v.rEff} * ${v.overlap}) * ${v.overlap}`;
  const lines: string[] = [];
  if (fixed.hertz === undefined) {
    lines.push(`const ${v.elastic} = ${v.hertz} ? ${hertz} : ${linear};`);
    lines.push(`const ${v.raw} = ${v.elastic} - ${v.cn} * ${v.vn};`);
  } else lines.push(`const ${v.raw} = ${fixed.hertz ? hertz : linear} - ${v.cn} * ${v.vn};`);
  const keep = fixed.clamp === undefined
    ? `${v.raw} > 0 || !${v.clamp}`
    : fixed.clamp
    ? `${v.raw} > 0`
    : "true";
  lines.push(
    keep === "true" ? `const ${v.fn} = ${v.raw};` : `const ${v.fn} = ${keep} ? ${v.raw} : 0;`,
  );
  return lines.join("\n");
}

/**
 * The normal damping coefficient of one contact under a `DampingLaw` code (0 constant,
 * 1 mass-scaled, 2 restitution linear, 3 restitution Hertz), assigned to the `let` named `c`.
 *
 * @example
 * ```ts
 * import { dampingLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const body = "let c = 0;\n" + dampingLaw({ law: "l", coef: "k", mass: "m", rEff: "r",
 *   overlap: "d", c: "c" }) + "\nreturn c;";
 * const run = new Function("l", "k", "m", "r", "d", body);
 * expect(run(1, 100, 0.5, 0.01, 1e-4)).toBe(50);
 * ```
 */
export function dampingLaw(
  v: { law: string; coef: string; mass: string; rEff: string; overlap: string; c: string },
): string {
  return [
    `if (${v.law} === 1) ${v.c} = ${v.coef} * ${v.mass};`,
    `else if (${v.law} === 2) ${v.c} = ${v.coef} * Math.sqrt(${v.mass});`,
    `else if (${v.law} === 3) {`,
    `  ${v.c} = ${v.coef} * Math.sqrt(${v.mass} * Math.sqrt(${v.rEff} * ${v.overlap}));`,
    `} else ${v.c} = ${v.coef};`,
  ].join("\n");
}

/** The tangential history spring's inputs, outputs and state (see {@link springLaw}). */
export interface SpringNames {
  /** The array holding ξ at `[s]`, `[s + 1]`, `[s + 2]`. */
  state: string;
  /** The index of ξ's x in `state` (a plain name). */
  s: string;
  /** Unit normal, x. */
  nx: string;
  /** Unit normal, y. */
  ny: string;
  /** Unit normal, z. */
  nz: string;
  /** Relative tangential velocity, x. */
  vtx: string;
  /** Relative tangential velocity, y. */
  vty: string;
  /** Relative tangential velocity, z. */
  vtz: string;
  /** Time added to the spring (s). */
  dt: string;
  /** Tangential stiffness. */
  kt: string;
  /** Tangential damping. */
  ct: string;
  /** Coulomb limit μ·fn. */
  muFn: string;
  /** Outputs: the tangential force on the first body, declared `let`. */
  fx: string;
  /** Output, y. */
  fy: string;
  /** Output, z. */
  fz: string;
  /** ξ while it is updated (declared `let`), x. */
  x: string;
  /** ξ, y. */
  y: string;
  /** ξ, z. */
  z: string;
  /** A `let` of the host set to 1 when the contact slides; omitted when nobody reads it. */
  sliding?: string;
}

/**
 * One step of the 3D tangential history spring (Cundall–Strack): ξ is rotated onto the
 * current tangent plane (its length kept), advanced by vt·dt, turned into the force
 * −kt·ξ − ct·vt, and when that force exceeds μ·fn it is scaled down to μ·fn and ξ is rescaled
 * to hold exactly the sliding force. Writes ξ back into the state.
 *
 * @example
 * ```ts
 * import { springLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const code = springLaw({ state: "xi", s: "s", nx: "0", ny: "0", nz: "1", vtx: "1",
 *   vty: "0", vtz: "0", dt: "1e-3", kt: "1000", ct: "0", muFn: "10", fx: "fx", fy: "fy",
 *   fz: "fz", x: "x", y: "y", z: "z" });
 * const xi = new Float64Array(3);
 * expect(new Function("xi", "s", code + "\nreturn fx;")(xi, 0)).toBeCloseTo(-1, 12);
 * expect(xi[0]).toBe(1e-3);
 * ```
 */
export function springLaw(v: SpringNames): string {
  const { x, y, z, nx, ny, nz, fx, fy, fz, kt, ct, vtx, vty, vtz, muFn } = v;
  const st = `${v.state}[${v.s}]`, st1 = `${v.state}[${v.s} + 1]`, st2 = `${v.state}[${v.s} + 2]`;
  return [
    `let ${x} = ${st}, ${y} = ${st1}, ${z} = ${st2};`,
    `const old2 = ${x} * ${x} + ${y} * ${y} + ${z} * ${z};`,
    `if (old2 > 0) {`,
    `  const dn = ${x} * ${nx} + ${y} * ${ny} + ${z} * ${nz};`,
    `  ${x} -= dn * ${nx}, ${y} -= dn * ${ny}, ${z} -= dn * ${nz};`,
    `  const new2 = ${x} * ${x} + ${y} * ${y} + ${z} * ${z};`,
    `  if (new2 > 0) {`,
    `    const kr = Math.sqrt(old2 / new2);`,
    `    ${x} *= kr, ${y} *= kr, ${z} *= kr;`,
    `  }`,
    `}`,
    `${x} += ${vtx} * ${v.dt}, ${y} += ${vty} * ${v.dt}, ${z} += ${vtz} * ${v.dt};`,
    `let ${fx} = -${kt} * ${x} - ${ct} * ${vtx}, ${fy} = -${kt} * ${y} - ${ct} * ${vty},`,
    `  ${fz} = -${kt} * ${z} - ${ct} * ${vtz};`,
    `const f2 = ${fx} * ${fx} + ${fy} * ${fy} + ${fz} * ${fz};`,
    `if (f2 > ${muFn} * ${muFn}) {`,
    ...(v.sliding ? [`  ${v.sliding} = 1;`] : []),
    `  const kr = f2 > 0 ? ${muFn} / Math.sqrt(f2) : 0;`,
    `  ${fx} *= kr, ${fy} *= kr, ${fz} *= kr;`,
    `  if (${kt} > 0) {`,
    `    ${x} = -(${fx} + ${ct} * ${vtx}) / ${kt};`,
    `    ${y} = -(${fy} + ${ct} * ${vty}) / ${kt};`,
    `    ${z} = -(${fz} + ${ct} * ${vtz}) / ${kt};`,
    `  } else ${x} = ${y} = ${z} = 0;`,
    `}`,
    `${st} = ${x}, ${st1} = ${y}, ${st2} = ${z};`,
  ].join("\n");
}

/**
 * The magnitude of a rolling-resistance torque, μr·fn·r, as an expression.
 *
 * @example
 * ```ts
 * import { rollingTorqueLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * expect(rollingTorqueLaw("mu", "fn", "r")).toBe("mu * fn * r");
 * ```
 */
export function rollingTorqueLaw(mu: string, fn: string, r: string): string {
  return `${mu} * ${fn} * ${r}`;
}

/**
 * The factor in [0, 1] that lets rolling torques of angular deceleration `decel` (Σ τ/I) stop
 * the relative rolling speed `omega` within `dt` but not reverse it: statements ending in a
 * `return`, the body of `rollingScale`.
 *
 * @example
 * ```ts
 * import { rollingScaleLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const run = new Function("a", "dt", "w", rollingScaleLaw("a", "dt", "w"));
 * expect(run(100, 1e-3, 0.05)).toBe(0.5);
 * ```
 */
export function rollingScaleLaw(decel: string, dt: string, omega: string): string {
  return [
    `const stop = ${decel} * ${dt};`,
    `if (stop <= ${omega}) return 1;`,
    `return stop > 0 ? ${omega} / stop : 0;`,
  ].join("\n");
}

/** One side of a rolling contact (see {@link rollingLaw}). */
export interface RollingSide {
  /** Rolling-friction coefficient of this side. */
  mu: string;
  /** Radius (m). */
  r: string;
  /** Inverse moment of inertia (an expression). */
  invI: string;
  /** Offset of the side's torque in the `roll` array (a plain name). */
  o: string;
}

/** The rolling block's inputs (see {@link rollingLaw}). */
export interface RollingNames {
  /** Normal force (N). */
  fn: string;
  /** Substep (s). */
  dt: string;
  /** Unit normal, x. */
  nx: string;
  /** Unit normal, y. */
  ny: string;
  /** Unit normal, z. */
  nz: string;
  /** The relative spin (first body against the second), x (an expression). */
  wx: string;
  /** Relative spin, y. */
  wy: string;
  /** Relative spin, z. */
  wz: string;
  /** The rolling-torque accumulator. */
  roll: string;
  /** The first body, whose torque opposes the relative spin. */
  a: RollingSide;
  /** The second grain, which gets the opposite torque; absent against a wall or a body. */
  b?: RollingSide;
}

/**
 * Rolling resistance: while the contact pushes, the relative spin's tangential part is opposed
 * by a torque μr·fn·r on each grain, scaled by `rollingScale` so that the torques cannot
 * reverse the spin within one substep; the torques are added to the `roll` accumulator.
 *
 * @example
 * ```ts
 * import { rollingLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const code = rollingLaw({ fn: "10", dt: "1e-3", nx: "0", ny: "0", nz: "1", wx: "1",
 *   wy: "0", wz: "0", roll: "roll", a: { mu: "0.1", r: "0.02", invI: "1", o: "o" } });
 * const roll = new Float64Array(3);
 * new Function("roll", "o", "rollingScale", code)(roll, 0, () => 1);
 * expect(roll[0]).toBeCloseTo(-0.02, 15);
 * ```
 */
export function rollingLaw(v: RollingNames): string {
  const { a, b, nx, ny, nz, fn, roll } = v;
  const add = (s: RollingSide, op: string, k: string) =>
    `${roll}[${s.o}] ${op}= ${k} * ux, ${roll}[${s.o} + 1] ${op}= ${k} * uy, ` +
    `${roll}[${s.o} + 2] ${op}= ${k} * uz;`;
  const torques = b
    ? [
      `const ta = ${rollingTorqueLaw(a.mu, fn, a.r)}, tb = ${rollingTorqueLaw(b.mu, fn, b.r)};`,
      `const sc = rollingScale(ta * ${a.invI} + tb * ${b.invI}, ${v.dt}, wr) / wr;`,
      `const qa = ta * sc, qb = tb * sc;`,
      add(a, "-", "qa"),
      add(b, "+", "qb"),
    ]
    : [
      `const t = ${rollingTorqueLaw(a.mu, fn, a.r)};`,
      `const sc = (t * rollingScale(t * ${a.invI}, ${v.dt}, wr)) / wr;`,
      add(a, "-", "sc"),
    ];
  return [
    `if (${b ? `(${a.mu} > 0 || ${b.mu} > 0)` : `${a.mu} > 0`} && ${fn} > 0) {`,
    `  let ux = ${v.wx}, uy = ${v.wy}, uz = ${v.wz};`,
    `  const un = ux * ${nx} + uy * ${ny} + uz * ${nz};`,
    `  ux -= un * ${nx}, uy -= un * ${ny}, uz -= un * ${nz};`,
    `  const wr = Math.sqrt(ux * ux + uy * uy + uz * uz);`,
    `  if (wr > 0) {`,
    ...torques.map((l) => `    ${l}`),
    `  }`,
    `}`,
  ].join("\n");
}

/**
 * Short-range cohesion as statements ending in a `return`, the body of `cohesionForce`: the
 * attraction `kc·(dmax − max(0, gap))` while `gap ≤ dmax`, 0 beyond or when either parameter
 * is not positive.
 *
 * @example
 * ```ts
 * import { cohesionLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const run = new Function("kc", "dmax", "gap", cohesionLaw("kc", "dmax", "gap"));
 * expect(run(100, 0.001, 0.0005)).toBe(0.05);
 * ```
 */
export function cohesionLaw(kc: string, dmax: string, gap: string): string {
  return [
    `if (${kc} <= 0 || ${dmax} <= 0 || ${gap} > ${dmax}) return 0;`,
    `return ${kc} * (${dmax} - (${gap} > 0 ? ${gap} : 0));`,
  ].join("\n");
}

/**
 * Geometric-mean mixing of two friction coefficients `a`, `b` as an expression: `a` itself
 * when `same` (the two materials are one, or the two values are equal), else √(a·b).
 *
 * @param same the test that picks `a` unmixed, e.g. `ma === mb` (material ids) or `a === b`
 * @example
 * ```ts
 * import { mixLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * expect(mixLaw("a === b", "a", "b")).toBe("a === b ? a : Math.sqrt(a * b)");
 * ```
 */
export function mixLaw(same: string, a: string, b: string): string {
  return `${same} ? ${a} : Math.sqrt(${a} * ${b})`;
}

/**
 * The Coulomb limit μ·|fn| of the tangential force, as an expression (|fn| written as
 * `fn > 0 ? fn : −fn`, so that fn = 0 gives −0, as the loops always have).
 *
 * @example
 * ```ts
 * import { coulombLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * expect(coulombLaw("mu", "fn")).toBe("mu * (fn > 0 ? fn : -fn)");
 * ```
 */
export function coulombLaw(mu: string, fn: string): string {
  return `${mu} * (${fn} > 0 ? ${fn} : -${fn})`;
}

/** The fragments the generator writes the laws from; a replacement law swaps one entry. */
export interface LawSet {
  /** Normal force. */
  normal: NormalFragment;
  /** Normal damping coefficient. */
  damping: typeof dampingLaw;
  /** Tangential history spring. */
  spring: typeof springLaw;
  /** Coulomb limit of the tangential force. */
  coulomb: typeof coulombLaw;
  /** Rolling-torque magnitude. */
  rollingTorque: typeof rollingTorqueLaw;
  /** Rolling-torque scale. */
  rollingScale: typeof rollingScaleLaw;
  /** Rolling resistance block. */
  rolling: typeof rollingLaw;
  /** Cohesion. */
  cohesion: typeof cohesionLaw;
  /** Friction mixing. */
  mix: typeof mixLaw;
}

/**
 * The shipped 3D laws.
 *
 * @example
 * ```ts
 * import { LAW3D, normalLaw } from "./law3d_source.ts";
 * import { expect } from "expect";
 * expect(LAW3D.normal).toBe(normalLaw);
 * ```
 */
export const LAW3D: LawSet = {
  normal: normalLaw,
  damping: dampingLaw,
  spring: springLaw,
  coulomb: coulombLaw,
  rollingTorque: rollingTorqueLaw,
  rollingScale: rollingScaleLaw,
  rolling: rollingLaw,
  cohesion: cohesionLaw,
  mix: mixLaw,
};
