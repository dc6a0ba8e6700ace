/**
 * The single source of the 3D contact laws of the tangent plane (see law3d_source.ts, which
 * re-exports them): the tangential history spring, the Coulomb limit of its force, and
 * rolling resistance (torque magnitude, scale and the block that applies them), each a code
 * fragment written into the scalar functions and the hot loops by
 * `scripts/gen_contact_loops.ts`.
 *
 * @module
 */

/**
 * The tangential history spring's inputs, outputs and state (see {@link springLaw}).
 *
 * @example
 * ```ts
 * import { type SpringNames, springLaw } from "./law3d_tangential_source.ts";
 * import { expect } from "expect";
 * const v: SpringNames = { state: "xi", s: "s", nx: "nx", ny: "ny", nz: "nz", vtx: "vx",
 *   vty: "vy", vtz: "vz", dt: "dt", kt: "kt", ct: "ct", muFn: "lim", fx: "fx", fy: "fy",
 *   fz: "fz", x: "x", y: "y", z: "z", sliding: "slides" };
 * expect(springLaw(v)).toContain("slides = 1;");
 * ```
 */
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
 * import { springLaw } from "./law3d_tangential_source.ts";
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
 * import { rollingTorqueLaw } from "./law3d_tangential_source.ts";
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
 * import { rollingScaleLaw } from "./law3d_tangential_source.ts";
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

/**
 * One side of a rolling contact (see {@link rollingLaw}).
 *
 * @example
 * ```ts
 * import { type RollingSide } from "./law3d_tangential_source.ts";
 * import { expect } from "expect";
 * const grain: RollingSide = { mu: "mr", r: "r", invI: "invI[i]", o: "o" };
 * expect(grain.o).toBe("o");
 * ```
 */
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

/**
 * The rolling block's inputs (see {@link rollingLaw}).
 *
 * @example
 * ```ts
 * import { rollingLaw, type RollingNames } from "./law3d_tangential_source.ts";
 * import { expect } from "expect";
 * const v: RollingNames = { fn: "fn", dt: "dt", nx: "nx", ny: "ny", nz: "nz", wx: "wx",
 *   wy: "wy", wz: "wz", roll: "roll", a: { mu: "mr", r: "r", invI: "invI[i]", o: "o" } };
 * expect(rollingLaw(v)).toContain("if (mr > 0 && fn > 0) {");
 * ```
 */
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
 * import { rollingLaw } from "./law3d_tangential_source.ts";
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
      `const ks = rollingScale(ta * ${a.invI} + tb * ${b.invI}, ${v.dt}, wr) / wr;`,
      `const qa = ta * ks, qb = tb * ks;`,
      add(a, "-", "qa"),
      add(b, "+", "qb"),
    ]
    : [
      `const tr = ${rollingTorqueLaw(a.mu, fn, a.r)};`,
      `const ks = (tr * rollingScale(tr * ${a.invI}, ${v.dt}, wr)) / wr;`,
      add(a, "-", "ks"),
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
 * The Coulomb limit μ·|fn| of the tangential force, as an expression (|fn| written as
 * `fn > 0 ? fn : −fn`, so that fn = 0 gives −0, as the loops always have).
 *
 * @example
 * ```ts
 * import { coulombLaw } from "./law3d_tangential_source.ts";
 * import { expect } from "expect";
 * expect(coulombLaw("mu", "fn")).toBe("mu * (fn > 0 ? fn : -fn)");
 * ```
 */
export function coulombLaw(mu: string, fn: string): string {
  return `${mu} * (${fn} > 0 ? ${fn} : -${fn})`;
}

/**
 * The history spring of a 2D contact, whose tangent is one direction: names of its inputs and
 * outputs (see {@link spring1Law}).
 *
 * @example
 * ```ts
 * import { type Spring1Names, spring1Law } from "./law3d_tangential_source.ts";
 * import { expect } from "expect";
 * const v: Spring1Names = { xi0: "xi[s]", vt: "vt", dt: "dt", kt: "kt", ct: "ct",
 *   muFn: "lim", x: "x", f: "f" };
 * expect(spring1Law(v)).toContain("let x = xi[s] + vt * dt;");
 * ```
 */
export interface Spring1Names {
  /** The spring's ξ before this step (an expression). */
  xi0: string;
  /** Relative tangential velocity along the tangent. */
  vt: string;
  /** Time added to the spring (s). */
  dt: string;
  /** Tangential stiffness. */
  kt: string;
  /** Tangential damping. */
  ct: string;
  /** Coulomb limit μ·fn (a plain name). */
  muFn: string;
  /** Output: ξ after the step, declared `let`. */
  x: string;
  /** Output: the tangential force along the tangent, declared `let`. */
  f: string;
}

/**
 * One step of the 2D tangential history spring: ξ advanced by vt·dt, the force −kt·ξ − ct·vt
 * capped at ±μ·fn, ξ rescaled to hold exactly the capped force (the scalar
 * `tangentialHistory1` and the star2d GPU kernel are written from it).
 *
 * @example
 * ```ts
 * import { spring1Law } from "./law3d_tangential_source.ts";
 * import { expect } from "expect";
 * const code = spring1Law({ xi0: "0", vt: "1", dt: "1", kt: "500", ct: "0", muFn: "lim",
 *   x: "x", f: "f" });
 * expect(new Function("lim", code + "\nreturn f;")(0.2)).toBe(-0.2);
 * ```
 */
export function spring1Law(v: Spring1Names): string {
  const { x, f, kt, ct, vt, muFn } = v;
  return [
    `let ${x} = ${v.xi0} + ${vt} * ${v.dt};`,
    `let ${f} = -${kt} * ${x} - ${ct} * ${vt};`,
    `if (${f} > ${muFn} || ${f} < -${muFn}) {`,
    `  ${f} = ${f} > 0 ? ${muFn} : -${muFn};`,
    `  ${x} = ${kt} > 0 ? -(${f} + ${ct} * ${vt}) / ${kt} : 0;`,
    `}`,
  ].join("\n");
}
