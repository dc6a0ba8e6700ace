/**
 * Resistive-force theory (RFT) for intruders in dry granular media, after Li, Zhang & Goldman,
 * "A terradynamics of legged locomotion on granular media", Science 339, 1408–1412 (2013),
 * doi:10.1126/science.1229163.
 *
 * A small surface element of area dA at depth |z| below the free surface, moving through the
 * grains, feels the stresses σ_z = α_z(β, γ)·|z| (vertical, up positive) and σ_x = α_x(β, γ)·|z|
 * (horizontal, positive against the horizontal motion); the force is σ·dA. Only elements below
 * the surface and on the leading side of the body (outward normal · velocity > 0) feel it.
 *
 * Angles (Li et al.'s convention, as the public implementations of their fit use it): the
 * element is seen in the vertical plane that holds its velocity, with x along the horizontal
 * part of the velocity and z up. γ ∈ [−π/2, π/2] is the angle of the velocity below the
 * horizontal (γ = π/2 straight down, 0 horizontal, −π/2 straight up); β ∈ [−π/2, π/2] is the
 * angle of the element's surface line from x towards z (the plate's tilt, taken modulo π), so
 * β = 0 is a horizontal plate and β > 0 a plate whose leading face looks forward and down.
 *
 * 3D elements: the vertical plane is the one spanned by z and the element's horizontal velocity
 * direction e (an element moving straight up or down uses the horizontal part of its normal, or
 * x). The normal is projected onto that plane to get β, and the stress acts on the projected
 * area dA·|n_p| (|n_p| the length of the projected unit normal), so that a face parallel to the
 * plane feels nothing and a face turned by θ about z sees cos θ of its area. The force is
 * dF = (α_z·ẑ − α_x·e)·|z|·dA·|n_p|; there is no force across the plane (Treers et al. 2021 and
 * Agarwal et al. 2023 add one; not here). The plane is undefined for vertical motion, where the
 * normal's plane stands in; the two disagree for normals out of the plane of a slight drift,
 * so the force jumps there a little (a sphere of 5 cm radius just buried, pushed straight down:
 * 545 N in the generic medium; with any horizontal drift: 578 N). This is the per-element
 * decomposition of the 3D applications of RFT (Agarwal et al., J. Terramechanics 2019,
 * wheels), written from the equations, not from their code.
 *
 * Units: SI throughout — α in N/m³ (Li et al. give N/cm³: × 10⁶), depth and lengths in m.
 *
 * @module
 */
import { rftElementForceInto } from "./element_gen.ts";

export { rftElementForceInto };

/**
 * The nine Fourier coefficients of Li et al.'s fit (N/m³):
 * α_z(β, γ) = A00 + A10·cos 2β + B11·sin(2β + γ) + B01·sin γ + Bm11·sin(−2β + γ),
 * α_x(β, γ) = C11·cos(2β + γ) + C01·cos γ + Cm11·cos(−2β + γ) + D10·sin 2β —
 * the terms with m ∈ {−1, 0, 1}, n ∈ {0, 1} of Σ A_mn cos(2π(mβ/π + nγ/2π)) + B_mn sin(…)
 * (α_x: C_mn, D_mn) that Li et al. kept; `m` for minus one in the names.
 */
export interface RftCoefficients {
  /** Constant of α_z (N/m³). */
  A00: number;
  /** cos 2β of α_z (N/m³). */
  A10: number;
  /** sin(2β + γ) of α_z (N/m³). */
  B11: number;
  /** sin γ of α_z (N/m³). */
  B01: number;
  /** sin(−2β + γ) of α_z (N/m³). */
  Bm11: number;
  /** cos(2β + γ) of α_x (N/m³). */
  C11: number;
  /** cos γ of α_x (N/m³). */
  C01: number;
  /** cos(−2β + γ) of α_x (N/m³). */
  Cm11: number;
  /** sin 2β of α_x (N/m³). */
  D10: number;
}

/** The coefficient names in the order of {@link RftCoefficients} (z terms, then x terms). */
export const RFT_COEFFICIENT_NAMES: readonly (keyof RftCoefficients)[] = Object.freeze([
  "A00",
  "A10",
  "B11",
  "B01",
  "Bm11",
  "C11",
  "C01",
  "Cm11",
  "D10",
]);

/**
 * Li et al.'s "generic" coefficients (their supplementary material), converted to N/m³: A00
 * 0.206, A10 0.169, B11 0.212, B01 0.358, B−11 0.055, C11 −0.124, C01 0.253, C−11 0.007, D10
 * 0.088 N/cm³. A medium's α is ζ times the generic α (its scale factor ζ). They are normalised
 * so that a horizontal plate pushed straight down has α_z(0, π/2) = 1 N/cm³ (the five z terms
 * sum to 1.000). Checked against several independent public RFT implementations that cite the
 * paper's supplement (the values and the assignment of each to its Fourier term agree); the
 * supplement itself was not at hand.
 *
 * @example
 * ```ts
 * import { RFT_GENERIC, rftAlphaZ } from "./model.ts";
 * import { expect } from "expect";
 * expect(RFT_GENERIC.A00).toBe(2.06e5);
 * // horizontal plate moving straight down: 1 N/cm³ = 10⁶ N/m³
 * expect(rftAlphaZ(0, Math.PI / 2)).toBeCloseTo(1e6, 6);
 * ```
 */
export const RFT_GENERIC: Readonly<RftCoefficients> = Object.freeze({
  A00: 0.206e6,
  A10: 0.169e6,
  B11: 0.212e6,
  B01: 0.358e6,
  Bm11: 0.055e6,
  C11: -0.124e6,
  C01: 0.253e6,
  Cm11: 0.007e6,
  D10: 0.088e6,
});

/**
 * α_z(β, γ) of the Fourier form (N/m³, the coefficients' unit), times `zeta`.
 *
 * @example
 * ```ts
 * import { rftAlphaZ } from "./model.ts";
 * import { expect } from "expect";
 * // pulled straight up, a horizontal plate is held down: A00 + A10 − (B11 + B01 + B−11)
 * expect(rftAlphaZ(0, -Math.PI / 2)).toBeCloseTo(-0.25e6, 6);
 * expect(rftAlphaZ(0, Math.PI / 2, undefined, 0.5)).toBeCloseTo(0.5e6, 6);
 * ```
 */
export function rftAlphaZ(
  beta: number,
  gamma: number,
  c: Readonly<RftCoefficients> = RFT_GENERIC,
  zeta = 1,
): number {
  const b2 = 2 * beta;
  return zeta * (c.A00 + c.A10 * Math.cos(b2) + c.B11 * Math.sin(b2 + gamma) +
    c.B01 * Math.sin(gamma) + c.Bm11 * Math.sin(gamma - b2));
}

/**
 * α_x(β, γ) of the Fourier form (N/m³), times `zeta`; positive against the horizontal motion.
 *
 * @example
 * ```ts
 * import { rftAlphaX } from "./model.ts";
 * import { expect } from "expect";
 * // a vertical plate pushed horizontally: −C11 + C01 − C−11
 * expect(rftAlphaX(Math.PI / 2, 0)).toBeCloseTo(0.37e6, 6);
 * expect(rftAlphaX(0, Math.PI / 2)).toBeCloseTo(0, 6); // plate pushed down: no side force
 * ```
 */
export function rftAlphaX(
  beta: number,
  gamma: number,
  c: Readonly<RftCoefficients> = RFT_GENERIC,
  zeta = 1,
): number {
  const b2 = 2 * beta;
  return zeta * (c.C11 * Math.cos(b2 + gamma) + c.C01 * Math.cos(gamma) +
    c.Cm11 * Math.cos(gamma - b2) + c.D10 * Math.sin(b2));
}

/** Anything that gives α_z and α_x (N/m³) at (β, γ) in radians: a table or a Fourier form. */
export interface RftStressModel {
  /** α_z(β, γ) (N/m³). */
  alphaZAt(beta: number, gamma: number): number;
  /** α_x(β, γ) (N/m³). */
  alphaXAt(beta: number, gamma: number): number;
}

/**
 * The Fourier form as a stress model: `coefficients` (N/m³) scaled by `zeta`.
 *
 * @example
 * ```ts
 * import { RftFourier } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const sand = new RftFourier({ zeta: 0.8 });
 * expect(sand.alphaZAt(0, Math.PI / 2)).toBeCloseTo(0.8e6, 6);
 * expect(() => new RftFourier({ zeta: -1 })).toThrow(/zeta \(-1\) must be > 0/);
 * ```
 */
export class RftFourier implements RftStressModel {
  /**
   * Li et al.'s "generic" coefficients (N/m³), the default of the constructor and of
   * `RftTable.fromFourier`: normalised so that a horizontal plate pushed straight down has
   * α_z(0, π/2) = 1 N/cm³ (see `RFT_GENERIC` in `model.ts` for their source).
   *
   * @example
   * ```ts
   * import { RftFourier } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * expect(RftFourier.GENERIC.A00).toBe(2.06e5);
   * expect(new RftFourier().alphaZAt(0, Math.PI / 2)).toBeCloseTo(1e6, 6); // 1 N/cm³
   * ```
   */
  static readonly GENERIC: Readonly<RftCoefficients> = RFT_GENERIC;
  /**
   * The nine coefficient names in the order of {@link RftCoefficients} (z terms, then x terms).
   *
   * @example
   * ```ts
   * import { RftFourier } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * expect(RftFourier.COEFFICIENT_NAMES.length).toBe(9);
   * expect(RftFourier.COEFFICIENT_NAMES[0]).toBe("A00");
   * ```
   */
  static readonly COEFFICIENT_NAMES: readonly (keyof RftCoefficients)[] = RFT_COEFFICIENT_NAMES;
  /** The coefficients (N/m³), before scaling. */
  readonly coefficients: Readonly<RftCoefficients>;
  /** Scale factor ζ (dimensionless). */
  readonly zeta: number;

  /** Validate and keep the coefficients (default {@link RftFourier.GENERIC}) and ζ (default 1). */
  constructor(options: { coefficients?: Readonly<RftCoefficients>; zeta?: number } = {}) {
    const where = "RftFourier";
    if (options === null || typeof options !== "object") {
      throw new TypeError(`${where}: options (${String(options)}) must be an options object`);
    }
    for (const k of Object.keys(options)) {
      if (k !== "coefficients" && k !== "zeta") {
        throw new RangeError(`${where}: unknown option "${k}" (valid: coefficients, zeta)`);
      }
    }
    this.coefficients = checkCoefficients(where, options.coefficients ?? RFT_GENERIC);
    const z = options.zeta ?? 1;
    if (typeof z !== "number") {
      throw new TypeError(`${where}: zeta (${String(z)}) must be a number`);
    }
    if (!(z > 0) || !Number.isFinite(z)) {
      throw new RangeError(`${where}: zeta (${z}) must be > 0 and finite`);
    }
    this.zeta = z;
  }

  /**
   * α_z(β, γ) of the Fourier form (N/m³): the coefficients' terms times ζ.
   *
   * @example
   * ```ts
   * import { RftFourier } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * // pulled straight up, a horizontal plate is held down: A00 + A10 − (B11 + B01 + B−11)
   * expect(new RftFourier().alphaZAt(0, -Math.PI / 2)).toBeCloseTo(-0.25e6, 6);
   * ```
   */
  alphaZAt(beta: number, gamma: number): number {
    return rftAlphaZ(beta, gamma, this.coefficients, this.zeta);
  }

  /**
   * α_x(β, γ) of the Fourier form (N/m³), times ζ; positive against the horizontal motion.
   *
   * @example
   * ```ts
   * import { RftFourier } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * // a vertical plate pushed horizontally: −C11 + C01 − C−11
   * expect(new RftFourier().alphaXAt(Math.PI / 2, 0)).toBeCloseTo(0.37e6, 6);
   * ```
   */
  alphaXAt(beta: number, gamma: number): number {
    return rftAlphaX(beta, gamma, this.coefficients, this.zeta);
  }
}

/**
 * Check that `c` has the nine finite coefficients; returns a frozen copy.
 *
 * @example
 * ```ts
 * import { checkCoefficients, RFT_GENERIC } from "./model.ts";
 * import { expect } from "expect";
 * expect(checkCoefficients("test", RFT_GENERIC)).toEqual(RFT_GENERIC);
 * expect(() => checkCoefficients("test", { ...RFT_GENERIC, D10: "1" })).toThrow(/D10/);
 * ```
 */
export function checkCoefficients(where: string, c: unknown): Readonly<RftCoefficients> {
  if (c === null || typeof c !== "object") {
    throw new TypeError(`${where}: coefficients (${String(c)}) must be an object`);
  }
  const out = {} as RftCoefficients;
  for (const k of RFT_COEFFICIENT_NAMES) {
    const v = (c as Record<string, unknown>)[k];
    if (typeof v !== "number") {
      throw new TypeError(`${where}: coefficients.${k} (${String(v)}) must be a number`);
    }
    if (!Number.isFinite(v)) {
      throw new RangeError(`${where}: coefficients.${k} (${v}) must be finite`);
    }
    out[k] = v;
  }
  return Object.freeze(out);
}

/** One surface element for {@link rftElementForce}. */
export interface RftElement {
  /** Area (m²), > 0. */
  area: number;
  /** Outward normal (normalised here). */
  normal: readonly number[];
  /** Velocity (m/s). */
  velocity: readonly number[];
  /** Depth below the free surface (m); ≤ 0 is above it (no force). */
  depth: number;
  /**
   * Friction coefficient of the surface against the grains, ≥ 0: caps the force's lean from the
   * inward normal at atan μ (see `RftGroundOptions.interfaceFriction`). @default Infinity
   */
  interfaceFriction?: number;
}

/**
 * The RFT force (N) on one surface element (see the module notes for the conventions), with
 * the element validated; zero above the surface, when still, trailing or edge-on.
 *
 * @example
 * ```ts
 * import { RftFourier, rftElementForce } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const generic = new RftFourier();
 * // 1 cm² of the underside of a plate, 2 cm deep, moving down: 1 N/cm³ · 2 cm · 1 cm² = 2 N
 * const f = rftElementForce(generic, {
 *   area: 1e-4, normal: [0, 0, -1], velocity: [0, 0, -0.01], depth: 0.02,
 * });
 * expect(f[2]).toBeCloseTo(2, 9);
 * expect(Math.abs(f[0]) + Math.abs(f[1])).toBeLessThan(1e-12);
 * // the same element above the surface feels nothing
 * expect(rftElementForce(generic, {
 *   area: 1e-4, normal: [0, 0, -1], velocity: [0, 0, -0.01], depth: -0.01,
 * })).toEqual([0, 0, 0]);
 * ```
 */
export function rftElementForce(
  model: RftStressModel,
  element: RftElement,
): [number, number, number] {
  const where = "rftElementForce";
  if (element === null || typeof element !== "object") {
    throw new TypeError(`${where}: element (${String(element)}) must be an object`);
  }
  const num = (name: string, v: unknown): number => {
    if (typeof v !== "number") {
      throw new TypeError(`${where}: ${name} (${String(v)}) must be a number`);
    }
    if (!Number.isFinite(v)) throw new RangeError(`${where}: ${name} (${v}) must be finite`);
    return v;
  };
  const vec = (name: string, v: unknown): number[] => {
    if (!Array.isArray(v) && !ArrayBuffer.isView(v)) {
      throw new TypeError(`${where}: ${name} (${String(v)}) must be an array of 3 numbers`);
    }
    const a = v as ArrayLike<unknown>;
    if (a.length !== 3) throw new RangeError(`${where}: ${name} (length ${a.length}) must have 3`);
    return [0, 1, 2].map((k) => num(`${name}[${k}]`, a[k]));
  };
  const area = num("element.area", element.area);
  if (!(area > 0)) throw new RangeError(`${where}: element.area (${area}) must be > 0`);
  const n = vec("element.normal", element.normal), v = vec("element.velocity", element.velocity);
  const depth = num("element.depth", element.depth);
  const len = Math.hypot(n[0], n[1], n[2]);
  if (!(len > 0)) throw new RangeError(`${where}: element.normal must not be zero`);
  const mu = element.interfaceFriction ?? Infinity;
  if (typeof mu !== "number" || !(mu >= 0)) {
    throw new RangeError(
      `${where}: element.interfaceFriction (${String(mu)}) must be a number >= 0`,
    );
  }
  const out: [number, number, number] = [0, 0, 0];
  rftElementForceInto(
    model,
    area,
    n[0] / len,
    n[1] / len,
    n[2] / len,
    v[0],
    v[1],
    v[2],
    depth,
    out,
    0,
    mu,
  );
  return out;
}
