/**
 * The single source of the RFT element law (`model.ts` states it): a code fragment, a function
 * that writes the law's TypeScript statements for the names a host binds to its inputs and
 * outputs. `scripts/gen_contact_loops.ts` builds from it both the scalar
 * `rftElementForceInto` (`element_gen.ts`, which `rftElementForce` and the tests call) and the
 * RFT ground's per-shape sweep (`ground_sweep_gen.ts`), where the law — and, for an
 * `RftTable`, the table's look-up (`table_lookup_gen.ts` holds it for `RftTable` itself) — is
 * written into the loop over a shape's elements: V8 does not inline the scalar function there, and a call per
 * element with its result written to an array and read back costs more than the law itself.
 * Both copies have the same operations in the same order, hence the same bits.
 *
 * Inputs are read as given and may be read more than once: bind them to plain names.
 *
 * @module
 */

/**
 * An element is leading when n·v > `RFT_LEADING`·|v| (a face parallel to the motion is not).
 *
 * @example
 * ```ts
 * import { RFT_LEADING } from "./law_source.ts";
 * import { expect } from "expect";
 * expect(RFT_LEADING).toBe(1e-9);
 * ```
 */
export const RFT_LEADING = 1e-9;

/**
 * The names a host binds to the element law's inputs, outputs and temporaries.
 *
 * @example
 * ```ts
 * import { type RftLawNames, rftElementLaw } from "./law_source.ts";
 * import { expect } from "expect";
 * const v: RftLawNames = {
 *   area: "a", nx: "nx", ny: "ny", nz: "nz", vx: "vx", vy: "vy", vz: "vz", depth: "d",
 *   model: "model", skip: "continue;", prefix: "_",
 * };
 * expect(rftElementLaw(v)).toContain("const _az = model.alphaZAt(_beta, _gamma);");
 * ```
 */
export interface RftLawNames {
  /** Element area (m²). */
  area: string;
  /** Outward unit normal, x. */
  nx: string;
  /** Outward unit normal, y. */
  ny: string;
  /** Outward unit normal, z. */
  nz: string;
  /** Element velocity, x (m/s). */
  vx: string;
  /** Element velocity, y (m/s). */
  vy: string;
  /** Element velocity, z (m/s). */
  vz: string;
  /** Depth below the free surface (m); the law feels nothing at depth ≤ 0. */
  depth: string;
  /** The stress model: an object with `alphaZAt(β, γ)` and `alphaXAt(β, γ)` (N/m³). */
  model: string;
  /**
   * Statements that declare `${prefix}az` and `${prefix}ax`, α_z and α_x (N/m³) at the angles
   * `${prefix}beta` and `${prefix}gamma`, in place of the model's two calls (a host that
   * writes a table's look-up into its loop). @default the calls
   */
  alphas?: string;
  /** The statement that leaves the element with no force (`continue;`, `return false;`). */
  skip: string;
  /**
   * Prefix of the law's own names (temporaries and outputs): `${prefix}fz` is the vertical
   * force (N, up positive), `${prefix}fh` the horizontal force along the unit direction
   * (`${prefix}ex`, `${prefix}ey`) (N).
   */
  prefix: string;
}

/**
 * The RFT element law's statements: with the element below the surface, moving and leading,
 * the force `(fh·ex, fh·ey, fz)` (names `prefix` + `fh`, `ex`, `ey`, `fz`); otherwise `skip`.
 * See `model.ts` for the conventions (β, γ, the plane of motion, the projected area).
 *
 * @example
 * ```ts
 * import { rftElementLaw } from "./law_source.ts";
 * import { expect } from "expect";
 * const text = rftElementLaw({
 *   area: "a", nx: "nx", ny: "ny", nz: "nz", vx: "vx", vy: "vy", vz: "vz", depth: "d",
 *   model: "m", skip: "return 0;", prefix: "",
 * });
 * // a plate pushed straight down, 1 cm² at 2 cm deep in α_z = 10⁶ N/m³: 2 N up
 * const law = new Function("a", "nx", "ny", "nz", "vx", "vy", "vz", "d", "m",
 *   `${text}\nreturn fz;`);
 * const m = { alphaZAt: () => 1e6, alphaXAt: () => 0 };
 * expect(law(1e-4, 0, 0, -1, 0, 0, -0.01, 0.02, m)).toBeCloseTo(2, 12);
 * expect(law(1e-4, 0, 0, -1, 0, 0, 0.01, 0.02, m)).toBe(0); // trailing: pulled up
 * ```
 */
export function rftElementLaw(v: RftLawNames): string {
  const p = v.prefix, { nx, ny, nz, vx, vy, vz } = v;
  return `if (!(${v.depth} > 0) || !(${v.area} > 0)) ${v.skip}
const ${p}speed = Math.sqrt(${vx} * ${vx} + ${vy} * ${vy} + ${vz} * ${vz});
if (!(${p}speed > 0) || !(${nx} * ${vx} + ${ny} * ${vy} + ${nz} * ${vz} > ${RFT_LEADING} * ${p}speed)) {
  ${v.skip}
}
// the plane of motion: z and the horizontal velocity's direction e (for vertical motion, the
// normal's horizontal part, or x)
const ${p}vh = Math.sqrt(${vx} * ${vx} + ${vy} * ${vy});
let ${p}ex = 1, ${p}ey = 0;
if (${p}vh > ${RFT_LEADING} * ${p}speed) {
  ${p}ex = ${vx} / ${p}vh, ${p}ey = ${vy} / ${p}vh;
} else {
  const ${p}nh = Math.sqrt(${nx} * ${nx} + ${ny} * ${ny});
  if (${p}nh > 0) ${p}ex = ${nx} / ${p}nh, ${p}ey = ${ny} / ${p}nh;
}
// the normal projected onto that plane: β from its direction, the area from its length
const ${p}n2 = ${nx} * ${p}ex + ${ny} * ${p}ey, ${p}w = Math.sqrt(${p}n2 * ${p}n2 + ${nz} * ${nz});
if (!(${p}w > 0)) ${v.skip}
let ${p}beta = Math.atan2(${nz}, ${p}n2) + Math.PI / 2;
if (${p}beta > Math.PI / 2) ${p}beta -= Math.PI;
const ${p}gamma = Math.atan2(-${vz}, ${p}vh);
const ${p}s = ${v.depth} * ${v.area} * ${p}w;
${
    v.alphas ?? `const ${p}az = ${v.model}.alphaZAt(${p}beta, ${p}gamma);
const ${p}ax = ${v.model}.alphaXAt(${p}beta, ${p}gamma);`
  }
const ${p}fz = ${p}az * ${p}s;
const ${p}fh = -${p}ax * ${p}s;`;
}

/**
 * The names a host binds to the table look-up's inputs and outputs (`RftTable`'s grid).
 *
 * @example
 * ```ts
 * import { rftLocateLaw, type RftLocateNames } from "./law_source.ts";
 * import { expect } from "expect";
 * const v: RftLocateNames = { betas: "B", gammas: "G", uniformBeta: "ub", uniformGamma: "ug",
 *   beta: "b", gamma: "g", prefix: "_" };
 * expect(rftLocateLaw(v)).toContain("const _t = (_b - B[_i]) / (B[_i + 1] - B[_i])");
 * ```
 */
export interface RftLocateNames {
  /** The grid's β (rad), strictly increasing over [−π/2, π/2]. */
  betas: string;
  /** The grid's γ (rad), likewise. */
  gammas: string;
  /** Boolean: the β grid is uniform (its cell is found by division). */
  uniformBeta: string;
  /** Boolean: the γ grid is uniform. */
  uniformGamma: string;
  /** β to look up (rad), any value: taken modulo π. */
  beta: string;
  /** γ to look up (rad): clamped to the grid. */
  gamma: string;
  /**
   * Prefix of the outputs and temporaries: the cell `${prefix}i` (β), `${prefix}j` (γ) and
   * the fractions `${prefix}t`, `${prefix}u` in it.
   */
  prefix: string;
}

/** The cell of `x` in grid `g` (uniform: `isUniform`), declared as `let ${i}`. */
function cellLaw(g: string, x: string, isUniform: string, i: string, p: string): string {
  return `let ${i}: number;
{
  const ${p}last = ${g}.length - 2;
  if (${isUniform}) {
    ${i} = Math.floor(((${x} - ${g}[0]) / (${g}[${p}last + 1] - ${g}[0])) * (${p}last + 1));
    ${i} = ${i} < 0 ? 0 : ${i} > ${p}last ? ${p}last : ${i};
    while (${i} < ${p}last && ${x} >= ${g}[${i} + 1]) ${i}++;
    while (${i} > 0 && ${x} < ${g}[${i}]) ${i}--;
  } else {
    let ${p}lo = 0, ${p}hi = ${p}last;
    while (${p}lo < ${p}hi) {
      const ${p}mid = (${p}lo + ${p}hi + 1) >> 1;
      if (${g}[${p}mid] <= ${x}) ${p}lo = ${p}mid;
      else ${p}hi = ${p}mid - 1;
    }
    ${i} = ${p}lo;
  }
}`;
}

/**
 * A table's look-up of the cell of (β, γ): β modulo π into [−π/2, π/2] and clamped to the
 * grid, γ clamped; the cell's indices and the fractions in it.
 *
 * @example
 * ```ts
 * import { rftLocateLaw } from "./law_source.ts";
 * import { expect } from "expect";
 * const text = rftLocateLaw({ betas: "B", gammas: "G", uniformBeta: "true",
 *   uniformGamma: "false", beta: "beta", gamma: "gamma", prefix: "" });
 * // the statements are TypeScript: their type annotations go before they run as JavaScript
 * const js = text.replaceAll(": number", "");
 * const locate = new Function("B", "G", "beta", "gamma", `${js}\nreturn [i, j, t, u];`);
 * const grid = Float64Array.of(-Math.PI / 2, 0, Math.PI / 2);
 * expect(locate(grid, grid, Math.PI / 4, -Math.PI / 2)).toEqual([1, 0, 0.5, 0]);
 * expect(locate(grid, grid, Math.PI + 0.1, 0)[0]).toBe(1); // β modulo π
 * ```
 */
export function rftLocateLaw(v: RftLocateNames): string {
  const p = v.prefix, B = v.betas, G = v.gammas;
  return `// β modulo π into [−π/2, π/2]; γ clamped (the leading-side convention keeps it in range)
let ${p}b = ${v.beta};
if (${p}b > Math.PI / 2 || ${p}b < -Math.PI / 2) ${p}b -= Math.PI * Math.round(${p}b / Math.PI);
${p}b = ${p}b < ${B}[0] ? ${B}[0] : ${p}b > ${B}[${B}.length - 1] ? ${B}[${B}.length - 1] : ${p}b;
const ${p}ng = ${G}.length;
const ${p}g = ${v.gamma} < ${G}[0] ? ${G}[0] : ${v.gamma} > ${G}[${p}ng - 1] ? ${G}[${p}ng - 1] : ${v.gamma};
${cellLaw(B, `${p}b`, v.uniformBeta, `${p}i`, `${p}B`)}
${cellLaw(G, `${p}g`, v.uniformGamma, `${p}j`, `${p}G`)}
const ${p}t = (${p}b - ${B}[${p}i]) / (${B}[${p}i + 1] - ${B}[${p}i]);
const ${p}u = (${p}g - ${G}[${p}j]) / (${G}[${p}j + 1] - ${G}[${p}j]);`;
}

/**
 * A table's bilinear value: the expression for entry (i, j) + fractions (t, u) of the values
 * `a` (laid out `i * ng + j`), exact at grid points and along grid lines.
 *
 * @example
 * ```ts
 * import { rftBilinearLaw } from "./law_source.ts";
 * import { expect } from "expect";
 * const value = new Function("a", "k", "ng", "t", "u",
 *   `return ${rftBilinearLaw("a", "k", "ng", "t", "u")};`);
 * expect(value([1, 3, 5, 7], 0, 2, 0.5, 0.5)).toBe(4);
 * expect(value([1, 3, 5, 7], 0, 2, 0, 0)).toBe(1);
 * ```
 */
export function rftBilinearLaw(a: string, k: string, ng: string, t: string, u: string): string {
  const v00 = `${a}[${k}]`, v01 = `${a}[${k} + 1]`, v10 = `${a}[${k} + ${ng}]`;
  const v11 = `${a}[${k} + ${ng} + 1]`;
  return `(${t} === 0
  ? (${u} === 0 ? ${v00} : (1 - ${u}) * ${v00} + ${u} * ${v01})
  : ${u} === 0
  ? (1 - ${t}) * ${v00} + ${t} * ${v10}
  : (1 - ${t}) * ((1 - ${u}) * ${v00} + ${u} * ${v01}) + ${t} * ((1 - ${u}) * ${v10} + ${u} * ${v11}))`;
}

/**
 * The names a host binds to an element's force (changed in place) and outward normal: what the
 * cap and the memory both read.
 *
 * @example
 * ```ts
 * import type { RftElementForceNames } from "./law_source.ts";
 * import { expect } from "expect";
 * const v: RftElementForceNames = { f0: "a", f1: "b", f2: "c", nx: "nx", ny: "ny", nz: "nz" };
 * expect(Object.keys(v).length).toBe(6);
 * ```
 */
export interface RftElementForceNames {
  /** The element's force, x (N): a `let`, changed in place. */
  f0: string;
  /** Its y. */
  f1: string;
  /** Its z. */
  f2: string;
  /** Outward unit normal, x. */
  nx: string;
  /** Outward unit normal, y. */
  ny: string;
  /** Outward unit normal, z. */
  nz: string;
}

/**
 * The names a host binds to the interface-friction cap's inputs and its force.
 *
 * @example
 * ```ts
 * import { rftFrictionCapLaw, type RftCapNames } from "./law_source.ts";
 * import { expect } from "expect";
 * const v: RftCapNames = { f0: "a", f1: "b", f2: "c", nx: "nx", ny: "ny", nz: "nz", mu: "mu",
 *   prefix: "_" };
 * expect(rftFrictionCapLaw(v)).toContain("const _press = -(a * nx + b * ny + c * nz);");
 * ```
 */
export interface RftCapNames extends RftElementForceNames {
  /** The interface's friction coefficient μ ≥ 0; `Infinity` leaves every force as it is. */
  mu: string;
  /** Prefix of the temporaries. */
  prefix: string;
}

/**
 * The interface-friction cap: a body's surface rubs on the grains with friction coefficient μ,
 * so the grains' force on an element can lean from the element's inward normal by at most
 * atan μ. The part of the force along the surface is scaled down to μ times the part pressing
 * on it (the pressing part kept); a force that does not press, or leans less, is left as it is
 * (with μ = ∞, every force, bit for bit).
 *
 * @example
 * ```ts
 * import { rftFrictionCapLaw } from "./law_source.ts";
 * import { expect } from "expect";
 * const text = rftFrictionCapLaw({ f0: "f0", f1: "f1", f2: "f2", nx: "nx", ny: "ny", nz: "nz",
 *   mu: "mu", prefix: "" });
 * const cap = new Function("f0", "f1", "f2", "nx", "ny", "nz", "mu",
 *   `${text}\nreturn [f0, f1, f2];`);
 * // a floor element (normal down) pushed up by 2 N and dragged back by 3 N: μ = 0.5 keeps 1 N
 * expect(cap(-3, 0, 2, 0, 0, -1, 0.5)).toEqual([-1, 0, 2]);
 * expect(cap(-3, 0, 2, 0, 0, -1, Infinity)).toEqual([-3, 0, 2]);
 * ```
 */
export function rftFrictionCapLaw(v: RftCapNames): string {
  const p = v.prefix, { f0, f1, f2, nx, ny, nz } = v;
  return `{
  const ${p}press = -(${f0} * ${nx} + ${f1} * ${ny} + ${f2} * ${nz});
  if (${p}press > 0) {
    const ${p}t0 = ${f0} + ${p}press * ${nx}, ${p}t1 = ${f1} + ${p}press * ${ny};
    const ${p}t2 = ${f2} + ${p}press * ${nz};
    const ${p}slide = Math.sqrt(${p}t0 * ${p}t0 + ${p}t1 * ${p}t1 + ${p}t2 * ${p}t2);
    if (${p}slide > ${v.mu} * ${p}press) {
      const ${p}keep = (${v.mu} * ${p}press) / ${p}slide;
      ${f0} = -${p}press * ${nx} + ${p}keep * ${p}t0;
      ${f1} = -${p}press * ${ny} + ${p}keep * ${p}t1;
      ${f2} = -${p}press * ${nz} + ${p}keep * ${p}t2;
    }
  }
}`;
}

/**
 * The names a host binds to the pressure memory's inputs, state and force.
 *
 * @example
 * ```ts
 * import { rftMemoryLaw, type RftMemoryNames } from "./law_source.ts";
 * import { expect } from "expect";
 * const v: RftMemoryNames = { f0: "a", f1: "b", f2: "c", nx: "nx", ny: "ny", nz: "nz",
 *   vx: "vx", vy: "vy", vz: "vz", depthArea: "da", mem: "mem", index: "e", stamp: "now",
 *   perPath: "kp", perSeparation: "ks", felt: "felt", write: true, prefix: "_" };
 * expect(rftMemoryLaw(v)).toContain("mem[_mo] = _pm, mem[_mo + 1] = now;");
 * ```
 */
export interface RftMemoryNames extends RftElementForceNames {
  /** Element velocity, x (m/s). */
  vx: string;
  /** Element velocity, y (m/s). */
  vy: string;
  /** Element velocity, z (m/s). */
  vz: string;
  /** Depth times area (m³) of the element, which is below the surface. */
  depthArea: string;
  /**
   * The memory: a `Float64Array`, two numbers per element — the pressure per unit depth it
   * felt (Pa/m) and the step it felt it at.
   */
  mem: string;
  /** The element's index. */
  index: string;
  /** This step's number (the steps before it count down by one). */
  stamp: string;
  /** dt/ℓ: the decay exponent per m/s of the element's speed (s/m). */
  perPath: string;
  /** dt/ℓ_sep: the decay exponent per m/s of moving away from the grains (s/m). */
  perSeparation: string;
  /** A `let` boolean, set true when the memory changes the force. */
  felt: string;
  /** Whether to store the new pressure (the sweep) or only read (a listing). */
  write: boolean;
  /** Prefix of the temporaries. */
  prefix: string;
}

/**
 * The pressure memory (`RftGroundOptions.stressMemory`): the pressure an element bears does
 * not jump to RFT's when its motion turns, it relaxes towards it. Per unit depth, with p_RFT
 * the part of the law's force pressing along the inward normal,
 * p ← p_RFT + (p_last − p_RFT)·exp(−|v|·dt/ℓ − max(0, −n·v)·dt/ℓ_sep): over ℓ of the element's
 * travel, and over ℓ_sep of moving away from the grains. An element that did not feel the
 * grains in the last step starts at p_RFT (exp(−x) for a step's small x by its (3, 3) Padé
 * approximant, within 10⁻¹² of it). The difference p − p_RFT is added along the inward
 * normal (the law's part along the surface is kept), so a cylinder's pressure has no torque
 * about its axis.
 *
 * @example
 * ```ts
 * import { rftMemoryLaw } from "./law_source.ts";
 * import { expect } from "expect";
 * const text = rftMemoryLaw({ f0: "f0", f1: "f1", f2: "f2", nx: "nx", ny: "ny", nz: "nz",
 *   vx: "vx", vy: "vy", vz: "vz", depthArea: "da", mem: "mem", index: "0", stamp: "now",
 *   perPath: "kp", perSeparation: "ks", felt: "felt", write: true, prefix: "_" });
 * const step = new Function("f2", "vx", "da", "mem", "now", "kp",
 *   `let f0 = 0, f1 = 0, felt = false; const nx = 0, ny = 0, nz = -1, vy = 0, vz = 0, ks = 0;
 *   ${text}
 *   return f2;`);
 * const mem = Float64Array.of(0, -2); // never felt the grains
 * // an underside (1 cm² of it, 1 cm deep: depth × area 10⁻⁶ m³) pushed down with 1 N: it
 * // remembers 10⁶ Pa/m
 * expect(step(1, 0, 1e-6, mem, 1, 0)).toBe(1);
 * expect(mem[0]).toBeCloseTo(1e6, 6);
 * // now sliding, where RFT gives nothing: the pressure relaxes by e after one length of travel
 * expect(step(0, 0.01, 1e-6, mem, 2, 100)).toBeCloseTo(Math.exp(-1), 12);
 * ```
 */
export function rftMemoryLaw(v: RftMemoryNames): string {
  const p = v.prefix, { f0, f1, f2, nx, ny, nz, vx, vy, vz, mem } = v;
  return `{
  const ${p}da = ${v.depthArea};
  if (${p}da > 0) {
    const ${p}mo = 2 * ${v.index};
    // RFT's pressure on the element per unit depth (Pa/m): none on a face leaving the grains
    const ${p}pt = Math.max(0, -(${f0} * ${nx} + ${f1} * ${ny} + ${f2} * ${nz}) / ${p}da);
    let ${p}pm = ${p}pt;
    if (${mem}[${p}mo + 1] === ${v.stamp} - 1 && ${mem}[${p}mo] !== ${p}pt) {
      // it felt the grains in the last step: its pressure relaxes towards RFT's
      const ${p}vn = ${nx} * ${vx} + ${ny} * ${vy} + ${nz} * ${vz};
      const ${p}x = Math.sqrt(${vx} * ${vx} + ${vy} * ${vy} + ${vz} * ${vz}) * ${v.perPath} +
        (${p}vn < 0 ? -${p}vn * ${v.perSeparation} : 0);
      // exp(−x): a step's x is small, where the (3, 3) Padé approximant is within 10⁻¹² of it
      // (x < 0.1) at a fraction of Math.exp's cost
      const ${p}x2 = ${p}x * ${p}x;
      const ${p}q = ${p}x < 0.1
        ? (120 - 60 * ${p}x + 12 * ${p}x2 - ${p}x2 * ${p}x) /
          (120 + 60 * ${p}x + 12 * ${p}x2 + ${p}x2 * ${p}x)
        : Math.exp(-${p}x);
      ${p}pm = ${p}pt + (${mem}[${p}mo] - ${p}pt) * ${p}q;
    }${
    v.write
      ? `
    ${mem}[${p}mo] = ${p}pm, ${mem}[${p}mo + 1] = ${v.stamp};`
      : ""
  }
    if (${p}pm !== ${p}pt) {
      const ${p}extra = (${p}pm - ${p}pt) * ${p}da;
      ${f0} -= ${p}extra * ${nx}, ${f1} -= ${p}extra * ${ny}, ${f2} -= ${p}extra * ${nz};
      ${v.felt} = true;
    }
  }
}`;
}
