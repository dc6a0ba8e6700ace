/**
 * Materials of a granular system: the global {@link Material} (stiffness, damping, friction,
 * substeps, clamps) and the per-id {@link ParticleMaterial} friction parameters.
 *
 * @module
 */
import {
  bool,
  integerIn,
  nonNegative,
  oneOf,
  options as checkOptions,
  positive,
} from "../math/validate.ts";

/**
 * Material shared by all particles of a system. Every field is optional in the options;
 * {@link resolveMaterial} fills the defaults.
 */
export interface Material {
  /** Particle density (kg/m³), > 0. @default 1600 */
  density: number;
  /** Normal stiffness (N/m for the linear law; N/m² for Hertz, which multiplies √R·δ^1.5). @default 1e5 */
  normalStiffness: number;
  /**
   * Normal damping (N·s/m); the normal force is clamped to be non-negative. The explicit
   * integrator is stable for a damped contact only while (ω·h)² + 2·γ·h < 4 (h the substep,
   * ω² = k/μ, γ = c/μ, μ the effective mass of the lightest pair), i.e. h < 4/(γ + √(γ² + 4ω²));
   * beyond it the contacts gain energy, so the first step throws (see `guard.ts`).
   * @default 20
   */
  normalDamping: number;
  /** Tangential spring stiffness (N/m); 0 selects 0.5 · normalStiffness. @default 0 */
  tangentialStiffness: number;
  /** Tangential damping (N·s/m). @default 0 */
  tangentialDamping: number;
  /** Coulomb friction coefficient; initial value of particle material 0 and of the boundary. @default 0.5 */
  friction: number;
  /** Rolling friction coefficient (torque = μr·fn·r); initial value of material 0 and boundary. @default 0 */
  rollingFriction: number;
  /** Cohesion stiffness (N/m); 0 disables cohesion. @default 0 */
  cohesionStiffness: number;
  /** Largest surface gap with cohesion (m); 0 disables cohesion. @default 0 */
  cohesionMaxDistance: number;
  /**
   * Normal elastic force law: `"linear"` (k·δ) or `"hertz"` (k·√R·δ^1.5).
   * @default "linear"
   */
  normalContactModel: "linear" | "hertz";
  /** Substeps per world step, a positive integer. @default 1 */
  substeps: number;
  /** Linear speed clamp (m/s); 0 disables it. @default 0 */
  maxSpeed: number;
  /** Angular speed clamp (rad/s); 0 disables it. @default 0 */
  maxAngularSpeed: number;
  /**
   * Lever arm of the tangential force about a grain's centre (and of its spin in the contact's
   * relative velocity): `"overlap-centre"` — the distance to the middle of the overlap,
   * r − δ/2 (the specification's law); `"radius"` — the full radius r, as LAMMPS's granular
   * pair styles and walls use. The two differ by O(δ/r) (2.5–9.6 % in the rebound spin of
   * oblique impacts with δ/r of a few percent).
   * @default "overlap-centre"
   */
  contactLever: "overlap-centre" | "radius";
  /**
   * How `normalDamping` and `tangentialDamping` are read: `"absolute"` — dashpot coefficients
   * in N·s/m, the same for every contact; `"mass-scaled"` — rates γ in 1/s, each contact
   * damping with γ·m_eff (m_eff = m₁m₂/(m₁+m₂); the free grain's mass against a wall or a
   * fixed grain), as LAMMPS's `gamma_n`/`gamma_t` do.
   * @default "absolute"
   */
  dampingMode: "absolute" | "mass-scaled";
  /**
   * Coefficient of restitution in (0, 1] giving the normal damping per contact from its
   * effective mass (as LIGGGHTS does); null uses `normalDamping`. A head-on collision then
   * rebounds with this value whatever the masses, clamped or not: the linear law damps with
   * 2ζ·√(kn·m_eff), the Hertz law with LIGGGHTS's 2√(5/6)·ζ·√(S_n·m_eff) (see
   * `restitutionDamping`). Setting it together with `normalDamping` is an error; the resolved
   * `normalDamping` is 0.
   * @default null
   */
  restitution: number | null;
  /**
   * Clamp the normal force at zero so that the dashpot never pulls the grains together (the
   * specification's law, LAMMPS's `limit_damping`); false matches LAMMPS scenes without
   * `limit_damping`, where the Coulomb limit uses |fn|. @default true
   */
  clampNormalForce: boolean;
}

/** Friction parameters of one material id (and of the boundary). */
export interface ParticleMaterial {
  /** Coulomb friction coefficient, ≥ 0. */
  friction: number;
  /** Rolling friction coefficient, ≥ 0. @default 0 */
  rollingFriction?: number;
}

/**
 * The default material, as specified (density 1600 kg/m³, kn 1e5 N/m, cn 20 N·s/m, μ 0.5 …).
 *
 * @example
 * ```ts
 * import { DEFAULT_MATERIAL } from "./material.ts";
 * import { expect } from "expect";
 * expect(DEFAULT_MATERIAL.density).toBe(1600);
 * ```
 */
export const DEFAULT_MATERIAL: Readonly<Material> = Object.freeze({
  density: 1600,
  normalStiffness: 1e5,
  normalDamping: 20,
  tangentialStiffness: 0,
  tangentialDamping: 0,
  friction: 0.5,
  rollingFriction: 0,
  cohesionStiffness: 0,
  cohesionMaxDistance: 0,
  normalContactModel: "linear",
  substeps: 1,
  maxSpeed: 0,
  maxAngularSpeed: 0,
  contactLever: "overlap-centre",
  dampingMode: "absolute",
  restitution: null,
  clampNormalForce: true,
});

const KEYS: readonly string[] = Object.keys(DEFAULT_MATERIAL);
const PARTICLE_MATERIAL_KEYS: readonly string[] = ["friction", "rollingFriction"];

/**
 * Validate a partial material and fill in the defaults. Throws a RangeError/TypeError naming
 * the first bad field.
 *
 * @example
 * ```ts
 * import { resolveMaterial } from "./material.ts";
 * import { expect } from "expect";
 * const m = resolveMaterial({ friction: 0.8 });
 * expect(m.friction).toBe(0.8);
 * expect(m.normalStiffness).toBe(1e5);
 * ```
 */
export function resolveMaterial(options: Partial<Material> = {}, where = "material"): Material {
  const o = checkOptions<Partial<Material>>(where, "material", options, KEYS);
  const m: Material = { ...DEFAULT_MATERIAL, ...stripUndefined(o) };
  positive(where, "density", m.density);
  for (
    const k of [
      "normalStiffness",
      "normalDamping",
      "tangentialStiffness",
      "tangentialDamping",
      "friction",
      "rollingFriction",
      "cohesionStiffness",
      "cohesionMaxDistance",
      "maxSpeed",
      "maxAngularSpeed",
    ] as const
  ) nonNegative(where, k, m[k]);
  integerIn(where, "substeps", m.substeps, 1, 1_000_000);
  if (m.normalContactModel !== "linear" && m.normalContactModel !== "hertz") {
    throw new RangeError(
      `${where}: normalContactModel (${String(m.normalContactModel)}) must be "linear" or "hertz"`,
    );
  }
  oneOf(where, "contactLever", m.contactLever, ["overlap-centre", "radius"]);
  oneOf(where, "dampingMode", m.dampingMode, ["absolute", "mass-scaled"]);
  m.clampNormalForce = bool(where, "clampNormalForce", m.clampNormalForce, true);
  if (m.restitution !== null) {
    const e = positive(where, "restitution", m.restitution);
    if (e > 1) throw new RangeError(`${where}: restitution (${e}) must be in (0, 1]`);
    if (o.normalDamping !== undefined && o.normalDamping !== 0) {
      throw new RangeError(
        `${where}: normalDamping (${o.normalDamping}) and restitution (${e}) both set the ` +
          `normal damping; give one of them`,
      );
    }
    m.normalDamping = 0;
  }
  return m;
}

/**
 * Validate one per-id friction material.
 *
 * @example
 * ```ts
 * import { resolveParticleMaterial } from "./material.ts";
 * import { expect } from "expect";
 * expect(resolveParticleMaterial({ friction: 0.3 }).rollingFriction).toBe(0);
 * ```
 */
export function resolveParticleMaterial(
  m: ParticleMaterial,
  where = "particle material",
): Required<ParticleMaterial> {
  const o = checkOptions<ParticleMaterial>(where, "material", m, PARTICLE_MATERIAL_KEYS);
  return {
    friction: nonNegative(where, "friction", o.friction),
    rollingFriction: nonNegative(where, "rollingFriction", o.rollingFriction ?? 0),
  };
}

function stripUndefined<T extends object>(o: T): Partial<T> {
  const out: Partial<T> = {};
  for (const [k, v] of Object.entries(o)) {
    if (v !== undefined) (out as Record<string, unknown>)[k] = v;
  }
  return out;
}
