/**
 * The single source of the contact laws: each law is a code fragment, a function that writes
 * the law's TypeScript statements for the variable names (or expressions) a host binds to its
 * inputs and outputs. `scripts/gen_contact_loops.ts` builds from these fragments both the plain
 * scalar functions of `src/contact` (`normalForce`, `contactDamping`, `tangentialSpring3`,
 * `tangentialHistory1`, `rollingTorque`, `rollingScale`, `cohesionForce`, `mixGeometric`) and
 * the hot loops of `src/sphere3d` (pair loops, plane sweep, grain–body contact), and
 * `law_wgsl.ts` the star2d GPU kernel's normal force and spring, so that each law is written
 * once and every copy has the same operations in the same order, hence the same bits. The
 * tangent-plane laws are in `law3d_tangential_source.ts`, re-exported here.
 *
 * A fragment's inputs are read as given: bind them to plain names (or to expressions without
 * side effects, such as `invI[a]`), since a fragment may read an input more than once.
 *
 * @module
 */
import {
  coulombLaw,
  rollingLaw,
  rollingScaleLaw,
  rollingTorqueLaw,
  spring1Law,
  springLaw,
} from "./law3d_tangential_source.ts";

export * from "./law3d_tangential_source.ts";

/**
 * The normal law's inputs, outputs and temporaries: `fn = max(0, elastic − cn·vn)` with
 * `elastic = kn·δ` (linear) or `kn·√(R_eff·δ)·δ` (Hertz); unclamped, the raw force.
 *
 * @example
 * ```ts
 * import { normalLaw, type NormalNames } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const v: NormalNames = { hertz: "h", kn: "kn", cn: "cn", rEff: "r", overlap: "d", vn: "vn",
 *   clamp: "c", fn: "fn", elastic: "fe", raw: "fr" };
 * expect(normalLaw(v)).toContain("const fn = fr > 0 || !c ? fr : 0;");
 * ```
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

/**
 * Choices of the normal law known when the code is written (the rest are tested at run time).
 *
 * @example
 * ```ts
 * import { normalLaw, type NormalFixed } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const fixed: NormalFixed = { hertz: false, clamp: false };
 * const v = { hertz: "h", kn: "kn", cn: "cn", rEff: "r", overlap: "d", vn: "vn", clamp: "c",
 *   fn: "fn", elastic: "fe", raw: "fr" };
 * expect(normalLaw(v, fixed)).toBe("const fr = kn * d - cn * vn;\nconst fn = fr;");
 * ```
 */
export interface NormalFixed {
  /** The law is Hertz (true) or linear (false). */
  hertz?: boolean;
  /** The force is clamped at zero (true) or not (false). */
  clamp?: boolean;
}

/**
 * A normal-law fragment: {@link normalLaw}, or a replacement of the same shape.
 *
 * @example
 * ```ts
 * import { LAW3D, type NormalFragment } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const f: NormalFragment = LAW3D.normal;
 * expect(typeof f).toBe("function");
 * ```
 */
export type NormalFragment = (v: NormalNames, fixed?: NormalFixed) => string;

/**
 * The elastic part of a normal law: an expression of the inputs named in `v`.
 *
 * @example
 * ```ts
 * import { type ElasticPart } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const cubic: ElasticPart = (v) => `${v.kn} * ${v.overlap} ** 3`;
 * const v = { hertz: "h", kn: "kn", cn: "cn", rEff: "r", overlap: "d", vn: "vn", clamp: "c",
 *   fn: "fn", elastic: "fe", raw: "fr" };
 * expect(cubic(v)).toBe("kn * d ** 3");
 * ```
 */
export type ElasticPart = (v: NormalNames) => string;

/**
 * The linear elastic part kn·δ.
 *
 * @example
 * ```ts
 * import { linearElastic } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const v = { hertz: "h", kn: "kn", cn: "cn", rEff: "r", overlap: "d", vn: "vn", clamp: "c",
 *   fn: "fn", elastic: "fe", raw: "fr" };
 * expect(linearElastic(v)).toBe("kn * d");
 * ```
 */
export const linearElastic: ElasticPart = (v) => `${v.kn} * ${v.overlap}`;

/**
 * The Hertz elastic part kn·√(R_eff·δ)·δ.
 *
 * @example
 * ```ts
 * import { hertzElastic } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const v = { hertz: "h", kn: "kn", cn: "cn", rEff: "r", overlap: "d", vn: "vn", clamp: "c",
 *   fn: "fn", elastic: "fe", raw: "fr" };
 * expect(hertzElastic(v)).toBe("kn * Math.sqrt(r * d) * d");
 * ```
 */
export const hertzElastic: ElasticPart = (v) =>
  `${v.kn} * Math.sqrt(${v.rEff} * ${v.overlap}) * ${v.overlap}`;

/**
 * A normal law made of an elastic part for each of the two models (the `hertz` flag picks
 * one), minus the dashpot, clamped at zero unless `clamp` is false: {@link normalLaw} is
 * `normalLawWith(linearElastic, hertzElastic)`; a new law replaces one of the parts.
 *
 * @example
 * ```ts
 * import { hertzElastic, normalLawWith } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const cubic = normalLawWith((v) => `${v.kn} * ${v.overlap} ** 3`, hertzElastic);
 * const v = { hertz: "h", kn: "kn", cn: "cn", rEff: "r", overlap: "d", vn: "vn", clamp: "c",
 *   fn: "fn", elastic: "fe", raw: "fr" };
 * expect(cubic(v, { hertz: false, clamp: false })).toBe(
 *   "const fr = kn * d ** 3 - cn * vn;\nconst fn = fr;",
 * );
 * ```
 */
export function normalLawWith(linear: ElasticPart, hertz: ElasticPart): NormalFragment {
  return (v, fixed = {}) => {
    const lines: string[] = [];
    if (fixed.hertz === undefined) {
      lines.push(`const ${v.elastic} = ${v.hertz} ? ${hertz(v)} : ${linear(v)};`);
      lines.push(`const ${v.raw} = ${v.elastic} - ${v.cn} * ${v.vn};`);
    } else {
      const elastic = fixed.hertz ? hertz(v) : linear(v);
      lines.push(`const ${v.raw} = ${elastic} - ${v.cn} * ${v.vn};`);
    }
    const keep = fixed.clamp === undefined
      ? `${v.raw} > 0 || !${v.clamp}`
      : fixed.clamp
      ? `${v.raw} > 0`
      : "true";
    lines.push(
      keep === "true" ? `const ${v.fn} = ${v.raw};` : `const ${v.fn} = ${keep} ? ${v.raw} : 0;`,
    );
    return lines.join("\n");
  };
}

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
export const normalLaw: NormalFragment = normalLawWith(linearElastic, hertzElastic);

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
 * The fragments the generator writes the laws from; a replacement law swaps one entry.
 *
 * @example
 * ```ts
 * import { LAW3D, type LawSet } from "./law3d_source.ts";
 * import { expect } from "expect";
 * const same: LawSet = { ...LAW3D };
 * expect(same.mix("a === b", "a", "b")).toBe("a === b ? a : Math.sqrt(a * b)");
 * ```
 */
export interface LawSet {
  /** Normal force. */
  normal: NormalFragment;
  /** Normal damping coefficient. */
  damping: typeof dampingLaw;
  /** Tangential history spring. */
  spring: typeof springLaw;
  /** Tangential history spring of a 2D contact. */
  spring1: typeof spring1Law;
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
  spring1: spring1Law,
  coulomb: coulombLaw,
  rollingTorque: rollingTorqueLaw,
  rollingScale: rollingScaleLaw,
  rolling: rollingLaw,
  cohesion: cohesionLaw,
  mix: mixLaw,
};
