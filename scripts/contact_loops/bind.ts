/**
 * The law fragments bound to the names the loop templates share: overlap `delta`, relative
 * velocity (vx, vy, vz) and its normal part `vn`, unit normal (nx, ny, nz), normal force `fn`,
 * friction `mu`, spring constants `ktt`, `ctt` and time `hdt`, tangential force (tfx, tfy, tfz).
 *
 * @module
 */
import type { LawSet, NormalFixed } from "../../src/contact/law3d_source.ts";

/**
 * The host's names of the normal law's parameters.
 *
 * @example
 * ```ts
 * import { LAW3D } from "../../src/contact/law3d_source.ts";
 * import { loopNormal, type NormalInputs } from "./bind.ts";
 * import { expect } from "expect";
 * const i: NormalInputs = { hertz: "hertz", kn: "kn", cn: "c", rEff: "reff", clamp: "clamp" };
 * expect(loopNormal(LAW3D, i)).toContain("const fraw = fel - c * vn;");
 * ```
 */
export interface NormalInputs {
  /** Boolean: Hertz. */
  hertz: string;
  /** Normal stiffness. */
  kn: string;
  /** Damping coefficient of this contact. */
  cn: string;
  /** Effective radius. */
  rEff: string;
  /** Boolean: clamp at zero. */
  clamp: string;
}

/**
 * `const fn`: the normal force of the contact.
 *
 * @example
 * ```ts
 * import { LAW3D } from "../../src/contact/law3d_source.ts";
 * import { loopNormal } from "./bind.ts";
 * import { expect } from "expect";
 * const i = { hertz: "h", kn: "kn", cn: "cn", rEff: "r", clamp: "c" };
 * expect(loopNormal(LAW3D, i, { hertz: false })).toContain("const fraw = kn * delta - cn * vn;");
 * ```
 */
export function loopNormal(L: LawSet, i: NormalInputs, fixed: NormalFixed = {}): string {
  return L.normal(
    { ...i, overlap: "delta", vn: "vn", fn: "fn", elastic: "fel", raw: "fraw" },
    fixed,
  );
}

/**
 * The tangential spring of the contact whose ξ is at `3 · index` in `hx`: its Coulomb limit,
 * the tangential velocity, and `let tfx, tfy, tfz`, the spring written back.
 *
 * @example
 * ```ts
 * import { LAW3D } from "../../src/contact/law3d_source.ts";
 * import { loopSpring } from "./bind.ts";
 * import { expect } from "expect";
 * expect(loopSpring(LAW3D, "k")).toContain("hx[s3] = hx0, hx[s3 + 1] = hx1, hx[s3 + 2] = hx2;");
 * ```
 */
export function loopSpring(L: LawSet, index: string): string {
  return [
    `const muFn = ${L.coulomb("mu", "fn")};`,
    "const vtx = vx - vn * nx, vty = vy - vn * ny, vtz = vz - vn * nz;",
    `const s3 = 3 * ${index};`,
    L.spring({
      state: "hx",
      s: "s3",
      nx: "nx",
      ny: "ny",
      nz: "nz",
      vtx: "vtx",
      vty: "vty",
      vtz: "vtz",
      dt: "hdt",
      kt: "ktt",
      ct: "ctt",
      muFn: "muFn",
      fx: "tfx",
      fy: "tfy",
      fz: "tfz",
      x: "hx0",
      y: "hx1",
      z: "hx2",
    }),
  ].join("\n");
}
