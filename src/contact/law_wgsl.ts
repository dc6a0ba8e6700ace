/**
 * The contact laws of src/contact/law3d_source.ts as WGSL, for the GPU kernels: a fragment's
 * TypeScript text turned into WGSL by a small substitution (`let` → `var`, `const` → `let`,
 * `Math.sqrt` → `sqrt`, a conditional value → `select`, integer literals → f32 literals), so
 * that the GPU's law is the CPU's, written once.
 *
 * @module
 */
import { normalLaw, type NormalNames, spring1Law, type Spring1Names } from "./law3d_source.ts";

const CONDITIONAL = /^(\s*)((?:let |var )?\w+) = (.+) \? (.+) : (.+);$/;

/**
 * WGSL of a TypeScript fragment made of declarations of f32 scalars (see the module doc).
 *
 * @example
 * ```ts
 * import { toWgsl } from "./law_wgsl.ts";
 * import { expect } from "expect";
 * expect(toWgsl("const f = a * Math.sqrt(b) - 2 * c;\nconst g = f > 0 ? f : 0;")).toBe(
 *   "let f = a * sqrt(b) - 2.0 * c;\nlet g = select(0.0, f, f > 0.0);",
 * );
 * ```
 */
export function toWgsl(ts: string): string {
  return ts.split("\n").map((line) => {
    let l = line.replace(/\blet /g, "var ").replace(/\bconst /g, "let ");
    l = l.replace(/\bMath\.sqrt\(/g, "sqrt(");
    l = l.replace(/(?<![\w.])(\d+)(?![\w.])/g, "$1.0");
    const m = CONDITIONAL.exec(l);
    if (m) l = `${m[1]}${m[2]} = select(${m[5]}, ${m[4]}, ${m[3]});`;
    if (/[?:]/.test(l) || /\bMath\./.test(l)) {
      throw new Error(`toWgsl: no WGSL form for the line "${line}"`);
    }
    return l;
  }).join("\n");
}

/**
 * The WGSL of the normal law (linear or Hertz, clamped or not, fixed when the shader is
 * written): {@link normalLaw} through {@link toWgsl}. `v` names WGSL expressions; `hertz` and
 * `clamp` are ignored since `fixed` sets both.
 *
 * @example
 * ```ts
 * import { normalForceWgsl } from "./law_wgsl.ts";
 * import { expect } from "expect";
 * const v = { kn: "P.kn", cn: "P.cn", rEff: "0.0", overlap: "ov", vn: "vn", fn: "fn_",
 *   elastic: "fe", raw: "fr" };
 * expect(normalForceWgsl(v, { hertz: false, clamp: true })).toBe(
 *   "let fr = P.kn * ov - P.cn * vn;\nlet fn_ = select(0.0, fr, fr > 0.0);",
 * );
 * ```
 */
export function normalForceWgsl(
  v: Omit<NormalNames, "hertz" | "clamp">,
  fixed: { hertz: boolean; clamp: boolean },
): string {
  return toWgsl(normalLaw({ ...v, hertz: "false", clamp: "false" }, fixed));
}

/**
 * The WGSL of the 2D tangential history spring ({@link spring1Law} through {@link toWgsl}):
 * `var` ξ and force named in `v`.
 *
 * @example
 * ```ts
 * import { spring1Wgsl } from "./law_wgsl.ts";
 * import { expect } from "expect";
 * const w = spring1Wgsl({ xi0: "x0", vt: "vt", dt: "P.dt", kt: "P.kt", ct: "P.ct",
 *   muFn: "lim", x: "xi", f: "ft" });
 * expect(w).toContain("ft = select(-lim, lim, ft > 0.0);");
 * ```
 */
export function spring1Wgsl(v: Spring1Names): string {
  return toWgsl(spring1Law(v));
}
