/**
 * Template of `src/contact/law3d_gen.ts`: the plain scalar contact laws (public, re-exported by
 * `src/contact/normal.ts`, `tangential.ts`, `rolling.ts`, `cohesion.ts` and `mixing.ts`),
 * written from the law fragments of `src/contact/law3d_source.ts`.
 *
 * @module
 */
import type { LawSet } from "../../src/contact/law3d_source.ts";
import { generatedHeader, indent } from "./text.ts";

function normalForce(L: LawSet): string {
  const law = L.normal({
    hertz: "hertz",
    kn: "kn",
    cn: "cn",
    rEff: "rEff",
    overlap: "overlap",
    vn: "vn",
    clamp: "clamp",
    fn: "fn",
    elastic: "elastic",
    raw: "f",
  });
  return `/**
 * Either normal law, chosen by a flag: \`max(0, kn·δ − cn·vn)\` (linear) or
 * \`max(0, kn·√R_eff·δ^1.5 − cn·vn)\` (Hertz). The hot loops of \`src/sphere3d\` are written
 * from the same source (src/contact/law3d_source.ts) and give the same bits.
 *
 * @param hertz true for the Hertz law
 * @param kn normal stiffness (N/m linear, N/m² Hertz)
 * @param cn normal damping (N·s/m)
 * @param rEff effective radius (m); unused by the linear law
 * @param overlap δ (m)
 * @param vn relative normal velocity (m/s), positive when separating
 * @param clamp clamp the force at zero so that it never pulls (the specification's law, and
 * LAMMPS's \`limit_damping\`); false returns the raw spring–dashpot force, which the damping can
 * make attractive while the grains separate (LAMMPS without \`limit_damping\`). @default true
 * @example
 * \`\`\`ts
 * import { laws } from "@grainlab/grainlab";
 * const { normalForce } = laws;
 * import { expect } from "expect";
 * expect(normalForce(false, 1e5, 0, 0, 1e-3, 0)).toBe(100);
 * // Hertz: 1e5 · √(0.01 · 1e-4) · 1e-4 = 1e5 · 1e-3 · 1e-4 = 0.01 N
 * expect(normalForce(true, 1e5, 0, 0.01, 1e-4, 0)).toBeCloseTo(0.01, 12);
 * // separating fast: the dashpot would pull (−900 N) unless clamped
 * expect(normalForce(false, 1e5, 1e3, 0, 1e-3, 1)).toBe(0);
 * expect(normalForce(false, 1e5, 1e3, 0, 1e-3, 1, false)).toBe(-900);
 * \`\`\`
 */
export function normalForce(
  hertz: boolean,
  kn: number,
  cn: number,
  rEff: number,
  overlap: number,
  vn: number,
  clamp = true,
): number {
${indent(law, 2)}
  return fn;
}`;
}

function contactDamping(L: LawSet): string {
  const law = L.damping({
    law: "law",
    coef: "c",
    mass: "effectiveMass",
    rEff: "rEff",
    overlap: "overlap",
    c: "cn",
  });
  return `/**
 * The normal damping coefficient (N·s/m) of one contact under a \`DampingLaw\` code
 * (0 constant, 1 mass-scaled, 2 restitution linear, 3 restitution Hertz).
 *
 * @param law a \`DampingLaw\` code
 * @param c the law's coefficient: N·s/m (\`constant\`), 1/s (\`massScaled\`), or the factor of
 * \`restitutionDamping\` (\`restitution*\`)
 * @param effectiveMass m_eff = m₁m₂/(m₁+m₂) (kg); the free grain's mass against a wall or a
 * fixed grain
 * @param rEff effective radius (m), used by \`restitutionHertz\`
 * @param overlap δ (m), used by \`restitutionHertz\`
 * @example
 * \`\`\`ts
 * import { laws } from "@grainlab/grainlab";
 * const { contactDamping, DampingLaw } = laws;
 * import { expect } from "expect";
 * expect(contactDamping(DampingLaw.constant, 20, 0.5, 0.01, 1e-4)).toBe(20);
 * expect(contactDamping(DampingLaw.massScaled, 100, 0.5, 0.01, 1e-4)).toBe(50);
 * expect(contactDamping(DampingLaw.restitutionLinear, 10, 0.25, 0.01, 1e-4)).toBe(5);
 * \`\`\`
 */
export function contactDamping(
  law: number,
  c: number,
  effectiveMass: number,
  rEff: number,
  overlap: number,
): number {
  let cn = 0;
${indent(law, 2)}
  return cn;
}`;
}

function tangentialSpring3(L: LawSet): string {
  const law = L.spring({
    state: "state",
    s: "s",
    nx: "nx",
    ny: "ny",
    nz: "nz",
    vtx: "vtx",
    vty: "vty",
    vtz: "vtz",
    dt: "dt",
    kt: "kt",
    ct: "ct",
    muFn: "muFn",
    fx: "fx",
    fy: "fy",
    fz: "fz",
    x: "x",
    y: "y",
    z: "z",
    sliding: "sliding",
  });
  return `/**
 * One step of the 3D tangential history spring, in the form hot loops call: every scalar input
 * is read from \`io\` (layout \`SPRING_IO\`: the unit normal at 0–2, the relative tangential
 * velocity at 3–5, then dt, kt, ct and μ·fn), so that no floating-point argument is passed
 * (V8 boxes doubles passed to functions it does not inline). Updates ξ in \`state[s..s+2]\`
 * and writes the tangential force on the first body into \`out[0..2]\`.
 *
 * @returns 1 when the contact slides (Coulomb cap active), else 0
 * @example
 * \`\`\`ts
 * import { tangentialSpring3 } from "./law3d_gen.ts";
 * import { SPRING_IO } from "./tangential.ts";
 * import { expect } from "expect";
 * const xi = new Float64Array(3), f = new Float64Array(3), io = new Float64Array(10);
 * io.set([0, 0, 1, 1, 0, 0, 1e-3, 1000, 0, 10]); // normal z, slip 1 m/s along x for 1 ms
 * tangentialSpring3(xi, 0, io, f);
 * expect(f[0]).toBeCloseTo(-1, 12);
 * expect(xi[0]).toBe(1e-3);
 * expect(io[SPRING_IO.kt]).toBe(1000);
 * \`\`\`
 */
export function tangentialSpring3(
  state: Float64Array,
  s: number,
  io: Float64Array,
  out: Float64Array,
): number {
  const nx = io[0], ny = io[1], nz = io[2], vtx = io[3], vty = io[4], vtz = io[5];
  const dt = io[6], kt = io[7], ct = io[8], muFn = io[9];
  let sliding = 0;
${indent(law, 2)}
  out[0] = fx, out[1] = fy, out[2] = fz;
  return sliding;
}`;
}

function tangentialHistory1(L: LawSet): string {
  const law = L.spring1({
    xi0: "state[s]",
    vt: "vt",
    dt: "dt",
    kt: "kt",
    ct: "ct",
    muFn: "muFn",
    x: "x",
    f: "f",
  });
  return `/**
 * One step of the tangential history spring in 2D, where the tangent is a single direction
 * and ξ a scalar. Updates \`state[s]\` and returns the tangential force (N) on the first body
 * along the tangent.
 *
 * @param state history storage; ξ (m) at \`s\`
 * @param s index of ξ in \`state\`
 * @param vt relative tangential velocity of the first body along the tangent (m/s)
 * @param dt time step (s)
 * @param kt tangential spring stiffness (N/m)
 * @param ct tangential damping (N·s/m)
 * @param muFn Coulomb limit μ·fn (N)
 * @example
 * \`\`\`ts
 * import { tangentialHistory1 } from "./law3d_gen.ts";
 * import { expect } from "expect";
 * const xi = new Float64Array(1);
 * const f = tangentialHistory1(xi, 0, 1, 1, 500, 0, 0.2); // would be −500 N: capped
 * expect(f).toBe(-0.2);
 * expect(xi[0]).toBeCloseTo(0.2 / 500, 15);
 * \`\`\`
 */
export function tangentialHistory1(
  state: Float64Array,
  s: number,
  vt: number,
  dt: number,
  kt: number,
  ct: number,
  muFn: number,
): number {
${indent(law, 2)}
  state[s] = x;
  return f;
}`;
}

function coulombLimit(L: LawSet): string {
  return `/**
 * The Coulomb limit μ·|fn| of a contact's tangential force, with |fn| taken as the loops take
 * it (\`fn > 0 ? fn : −fn\`: −0 for fn = 0, which a capped spring's force keeps the sign of).
 *
 * @example
 * \`\`\`ts
 * import { coulombLimit } from "./law3d_gen.ts";
 * import { expect } from "expect";
 * expect(coulombLimit(0.5, -4)).toBe(2);
 * expect(Object.is(coulombLimit(0.5, 0), -0)).toBe(true);
 * \`\`\`
 */
export function coulombLimit(mu: number, fn: number): number {
  return ${L.coulomb("mu", "fn")};
}`;
}

function rolling(L: LawSet): string {
  return `/**
 * Magnitude of the rolling-resistance torque \`μr·fn·r\` (N·m).
 *
 * @param muR rolling-friction coefficient (dimensionless)
 * @param fn normal force (N)
 * @param r the particle's radius (m)
 * @example
 * \`\`\`ts
 * import { laws } from "@grainlab/grainlab";
 * const { rollingTorque } = laws;
 * import { expect } from "expect";
 * expect(rollingTorque(0.1, 10, 0.02)).toBeCloseTo(0.02, 15); // 0.1 · 10 N · 0.02 m
 * \`\`\`
 */
export function rollingTorque(muR: number, fn: number, r: number): number {
  return ${L.rollingTorque("muR", "fn", "r")};
}

/**
 * Scale factor in [0, 1] for the rolling torques of one contact so that, applied for \`dt\`,
 * they reduce the relative rolling speed \`omegaRel\` (rad/s) at most to zero.
 *
 * @param angularDecel the relative angular deceleration the unscaled torques would cause,
 *   Σ τ/I over the two bodies (rad/s²)
 * @param dt substep (s)
 * @param omegaRel relative rolling speed (rad/s)
 * @example
 * \`\`\`ts
 * import { rollingScale } from "./law3d_gen.ts";
 * import { expect } from "expect";
 * expect(rollingScale(100, 1e-3, 1)).toBe(1);
 * expect(rollingScale(100, 1e-3, 0.05)).toBe(0.5);
 * \`\`\`
 */
export function rollingScale(angularDecel: number, dt: number, omegaRel: number): number {
${indent(L.rollingScale("angularDecel", "dt", "omegaRel"), 2)}
}`;
}

function cohesionAndMixing(L: LawSet): string {
  return `/**
 * Cohesive attraction \`kc·(dmax − max(0, gap))\` while \`gap ≤ dmax\`, else 0. Either parameter
 * at zero disables cohesion. Overlapping grains (\`gap < 0\`) feel the full \`kc·dmax\`.
 *
 * @param kc cohesion stiffness (N/m)
 * @param dmax largest surface gap with cohesion (m)
 * @param gap surface gap (m); negative when overlapping
 * @returns the attractive force magnitude (N), ≥ 0
 * @example
 * \`\`\`ts
 * import { laws } from "@grainlab/grainlab";
 * const { cohesionForce } = laws;
 * import { expect } from "expect";
 * expect(cohesionForce(100, 0.001, 0.0005)).toBe(0.05);
 * expect(cohesionForce(100, 0.001, 0.002)).toBe(0);
 * \`\`\`
 */
export function cohesionForce(kc: number, dmax: number, gap: number): number {
${indent(L.cohesion("kc", "dmax", "gap"), 2)}
}

/**
 * Geometric-mean mixing \`√(a·b)\` of two friction coefficients; equal inputs return that value
 * exactly.
 *
 * @example
 * \`\`\`ts
 * import { laws } from "@grainlab/grainlab";
 * const { mixGeometric } = laws;
 * import { expect } from "expect";
 * expect(mixGeometric(0.5, 0.5)).toBe(0.5);
 * expect(mixGeometric(0.25, 1)).toBeCloseTo(0.5, 15);
 * \`\`\`
 */
export function mixGeometric(a: number, b: number): number {
  return ${L.mix("a === b", "a", "b")};
}`;
}

/**
 * The text of \`src/contact/law3d_gen.ts\` for the laws \`L\`.
 *
 * @example
 * ```ts
 * import { LAW3D } from "../../src/contact/law3d_source.ts";
 * import { scalarLawsText } from "./scalar.ts";
 * import { expect } from "expect";
 * expect(scalarLawsText(LAW3D)).toContain("export function normalForce(");
 * ```
 */
export function scalarLawsText(L: LawSet): string {
  return `${generatedHeader()}
/**
 * The scalar 3D contact laws, pure functions of numbers, written from the fragments of
 * src/contact/law3d_source.ts (as are the hot loops of src/sphere3d, which give the same bits).
 *
 * @module
 */

${normalForce(L)}

${contactDamping(L)}

${tangentialSpring3(L)}

${coulombLimit(L)}

${tangentialHistory1(L)}

${rolling(L)}

${cohesionAndMixing(L)}
`;
}
