/**
 * RFT tables: α_z and α_x (N/m³) sampled on a (β, γ) grid covering [−π/2, π/2]², with the
 * medium they describe (material, grain size, friction, intrusion speed) and where they come
 * from (`"generic"`: Li et al.'s Fourier form; `"dem"`: measured in Grainlab's own DEM).
 * Between grid points a table interpolates bilinearly; β is taken modulo π (a plate's tilt).
 * See `model.ts` for the angle conventions.
 *
 * @module
 */
import { checkCoefficients, RFT_GENERIC, rftAlphaX, rftAlphaZ } from "./model.ts";
import type { RftCoefficients, RftStressModel } from "./model.ts";
import { type RftGrid, rftTableLocate, rftTableValue } from "./table_lookup_gen.ts";

/** Where a table's numbers come from. */
export type RftSource = "generic" | "dem";

/** The data of an {@link RftTable}. */
export interface RftTableSpec {
  /** Plate angles β (rad), strictly increasing, from −π/2 to π/2. */
  beta: ArrayLike<number>;
  /** Velocity angles γ (rad), strictly increasing, from −π/2 to π/2. */
  gamma: ArrayLike<number>;
  /** α_z (N/m³) at (beta[i], gamma[j]) in entry `i * gamma.length + j`. */
  alphaZ: ArrayLike<number>;
  /** α_x (N/m³), laid out as `alphaZ`. */
  alphaX: ArrayLike<number>;
  /** Name of the medium, e.g. "generic" or "glass beads 3 mm, loose". */
  material: string;
  /** Where the numbers come from. */
  source: RftSource;
  /** Grain diameter (m), > 0, when known (absent or null: unknown). */
  grainDiameter?: number | null;
  /** Grain–grain friction coefficient, ≥ 0, when known. */
  friction?: number | null;
  /** Intrusion speed the table was measured at (m/s), > 0, when known. */
  intrusionSpeed?: number | null;
  /** Solid volume fraction of the bed, in (0, 1), when known. */
  volumeFraction?: number | null;
}

const KEYS = [
  "beta",
  "gamma",
  "alphaZ",
  "alphaX",
  "material",
  "source",
  "grainDiameter",
  "friction",
  "intrusionSpeed",
  "volumeFraction",
];

/** Angles within this of ±π/2 count as the end of the range (rad). */
const ANGLE_TOLERANCE = 1e-6;
const HALF_PI = Math.PI / 2;

/** Reads a table's grid (set by {@link RftTable}'s static block). */
let gridOf: (table: RftTable) => RftGrid;

/**
 * An RFT table (see the module notes); a stress model for the RFT ground.
 *
 * @example
 * ```ts
 * import { RftTable } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const h = Math.PI / 2;
 * const t = new RftTable({
 *   beta: [-h, 0, h], gamma: [-h, h],
 *   alphaZ: [0, 2, 1, 3, 0, 2], alphaX: [0, 0, 0, 0, 0, 0],
 *   material: "toy", source: "dem", grainDiameter: 0.003,
 * });
 * expect(t.alphaZAt(0, h)).toBe(3); // a grid point: exactly its value
 * expect(t.alphaZAt(0, 0)).toBe(2); // halfway between 1 and 3
 * expect(() => new RftTable({ ...t.toSpec(), alphaZ: [0, 1] })).toThrow(/alphaZ \(length 2\)/);
 * ```
 */
export class RftTable implements RftStressModel {
  /** Plate angles β (rad). */
  readonly beta: Float64Array;
  /** Velocity angles γ (rad). */
  readonly gamma: Float64Array;
  /** α_z (N/m³), `i * gamma.length + j`. */
  readonly alphaZ: Float64Array;
  /** α_x (N/m³), `i * gamma.length + j`. */
  readonly alphaX: Float64Array;
  /** Name of the medium. */
  readonly material: string;
  /** Where the numbers come from. */
  readonly source: RftSource;
  /** Grain diameter (m), or null. */
  readonly grainDiameter: number | null;
  /** Grain–grain friction coefficient, or null. */
  readonly friction: number | null;
  /** Intrusion speed (m/s), or null. */
  readonly intrusionSpeed: number | null;
  /** Solid volume fraction, or null. */
  readonly volumeFraction: number | null;
  /** The grid and values as the look-up reads them (the arrays above, not copies). */
  readonly #grid: RftGrid;
  /** The angles last looked up, and their cell: i (β), j (γ) and the fractions t, u in it. */
  #lastBeta = NaN;
  #lastGamma = NaN;
  readonly #cell = new Float64Array(4);

  static {
    gridOf = (t) => t.#grid;
  }

  /**
   * A table sampled from the Fourier form on a uniform grid over [−π/2, π/2]² (default: Li et
   * al.'s generic medium, ζ = 1, 19 × 19 points, 10° apart).
   *
   * @param options the coefficients, ζ, the grid and the medium's description
   * @example
   * ```ts
   * import { RftTable } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const t = RftTable.fromFourier({ zeta: 2, betaCount: 7, gammaCount: 5 });
   * expect(t.source).toBe("generic");
   * expect(t.alphaZAt(0, Math.PI / 2)).toBeCloseTo(2e6, 6); // ζ · 1 N/cm³
   * expect(() => RftTable.fromFourier({ betaCount: 1 })).toThrow(/betaCount \(1\)/);
   * ```
   */
  static fromFourier(options: RftFourierTableOptions = {}): RftTable {
    return rftTableFromFourier(options);
  }

  /** Validate `spec` (every failure names the field) and copy it. */
  constructor(spec: RftTableSpec) {
    const where = "RftTable";
    if (spec === null || typeof spec !== "object" || Array.isArray(spec)) {
      throw new TypeError(`${where}: spec (${String(spec)}) must be an object`);
    }
    for (const k of Object.keys(spec)) {
      if (!KEYS.includes(k)) {
        throw new RangeError(`${where}: unknown field "${k}" (valid: ${KEYS.join(", ")})`);
      }
    }
    this.beta = angles(where, "beta", spec.beta);
    this.gamma = angles(where, "gamma", spec.gamma);
    const n = this.beta.length * this.gamma.length;
    this.alphaZ = values(where, "alphaZ", spec.alphaZ, n);
    this.alphaX = values(where, "alphaX", spec.alphaX, n);
    if (typeof spec.material !== "string" || spec.material.length === 0) {
      throw new TypeError(
        `${where}: material (${String(spec.material)}) must be a non-empty string`,
      );
    }
    this.material = spec.material;
    if (spec.source !== "generic" && spec.source !== "dem") {
      throw new TypeError(
        `${where}: source (${JSON.stringify(spec.source)}) must be "generic" or "dem"`,
      );
    }
    this.source = spec.source;
    this.grainDiameter = optional(where, "grainDiameter", spec.grainDiameter, (x) => x > 0, "> 0");
    this.friction = optional(where, "friction", spec.friction, (x) => x >= 0, ">= 0");
    this.intrusionSpeed = optional(
      where,
      "intrusionSpeed",
      spec.intrusionSpeed,
      (x) => x > 0,
      "> 0",
    );
    this.volumeFraction = optional(
      where,
      "volumeFraction",
      spec.volumeFraction,
      (x) => x > 0 && x < 1,
      "in (0, 1)",
    );
    this.#grid = {
      beta: this.beta,
      gamma: this.gamma,
      alphaZ: this.alphaZ,
      alphaX: this.alphaX,
      uniformBeta: uniform(this.beta),
      uniformGamma: uniform(this.gamma),
    };
  }

  /** α_z(β, γ) (N/m³), bilinear between grid points; β modulo π, γ clamped to ±π/2. */
  alphaZAt(beta: number, gamma: number): number {
    return this.#at(this.alphaZ, beta, gamma);
  }

  /** α_x(β, γ) (N/m³), bilinear between grid points; β modulo π, γ clamped to ±π/2. */
  alphaXAt(beta: number, gamma: number): number {
    return this.#at(this.alphaX, beta, gamma);
  }

  /** The table as a plain spec (copies), e.g. to change a field and build another table. */
  toSpec(): RftTableSpec {
    const s: RftTableSpec = {
      beta: Array.from(this.beta),
      gamma: Array.from(this.gamma),
      alphaZ: Array.from(this.alphaZ),
      alphaX: Array.from(this.alphaX),
      material: this.material,
      source: this.source,
    };
    if (this.grainDiameter !== null) s.grainDiameter = this.grainDiameter;
    if (this.friction !== null) s.friction = this.friction;
    if (this.intrusionSpeed !== null) s.intrusionSpeed = this.intrusionSpeed;
    if (this.volumeFraction !== null) s.volumeFraction = this.volumeFraction;
    return s;
  }

  #at(a: Float64Array, beta: number, gamma: number): number {
    // the ground asks for α_z and then α_x at the same angles: the cell is found once
    const c = this.#cell, g = this.#grid;
    if (beta !== this.#lastBeta || gamma !== this.#lastGamma) {
      rftTableLocate(g.beta, g.gamma, g.uniformBeta, g.uniformGamma, beta, gamma, c);
      this.#lastBeta = beta, this.#lastGamma = gamma;
    }
    return rftTableValue(a, g.gamma.length, c[0], c[1], c[2], c[3]);
  }
}

/**
 * The grid and values of `table` as its own look-up and the RFT ground's sweep read them (the
 * table's own arrays, not copies; the grids' uniformity found once, when the table was made).
 *
 * @example
 * ```ts
 * import { RftTable, rftTableGrid } from "./table.ts";
 * import { expect } from "expect";
 * const t = RftTable.fromFourier({ betaCount: 7, gammaCount: 5 });
 * const g = rftTableGrid(t);
 * expect(g.alphaZ).toBe(t.alphaZ);
 * expect(g.uniformBeta && g.uniformGamma).toBe(true);
 * ```
 */
export function rftTableGrid(table: RftTable): RftGrid {
  return gridOf(table);
}

function uniform(x: Float64Array): boolean {
  const h = (x[x.length - 1] - x[0]) / (x.length - 1);
  for (let k = 1; k < x.length; k++) if (Math.abs(x[k] - x[k - 1] - h) > 1e-9 * h) return false;
  return true;
}

function arrayLike(where: string, name: string, v: unknown): ArrayLike<unknown> {
  if (v === undefined || v === null) {
    throw new TypeError(`${where}: ${name} is missing (an array of numbers is required)`);
  }
  if (!Array.isArray(v) && !ArrayBuffer.isView(v)) {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be an array of numbers`);
  }
  return v as unknown as ArrayLike<unknown>;
}

function angles(where: string, name: string, v: unknown): Float64Array {
  const a = arrayLike(where, name, v);
  if (a.length < 2) {
    throw new RangeError(`${where}: ${name} (length ${a.length}) must have at least 2 angles`);
  }
  const out = new Float64Array(a.length);
  for (let k = 0; k < a.length; k++) {
    const x = a[k];
    if (typeof x !== "number") {
      throw new TypeError(`${where}: ${name}[${k}] (${String(x)}) must be a number`);
    }
    if (!Number.isFinite(x)) throw new RangeError(`${where}: ${name}[${k}] (${x}) must be finite`);
    if (k > 0 && !(x > out[k - 1])) {
      throw new RangeError(
        `${where}: ${name} must be strictly increasing: ${name}[${k}] (${x}) <= ${name}[${
          k - 1
        }] (${out[k - 1]})`,
      );
    }
    out[k] = x;
  }
  const first = out[0], last = out[out.length - 1];
  if (Math.abs(first + HALF_PI) > ANGLE_TOLERANCE || Math.abs(last - HALF_PI) > ANGLE_TOLERANCE) {
    throw new RangeError(
      `${where}: ${name} must run from -π/2 to π/2 (rad): first ${first}, last ${last}`,
    );
  }
  return out;
}

function values(where: string, name: string, v: unknown, n: number): Float64Array {
  const a = arrayLike(where, name, v);
  if (a.length !== n) {
    throw new RangeError(
      `${where}: ${name} (length ${a.length}) must have beta.length × gamma.length = ${n} values`,
    );
  }
  const out = new Float64Array(n);
  for (let k = 0; k < n; k++) {
    const x = a[k];
    if (typeof x !== "number") {
      throw new TypeError(`${where}: ${name}[${k}] (${String(x)}) must be a number`);
    }
    if (!Number.isFinite(x)) throw new RangeError(`${where}: ${name}[${k}] (${x}) must be finite`);
    out[k] = x;
  }
  return out;
}

function optional(
  where: string,
  name: string,
  v: unknown,
  ok: (x: number) => boolean,
  rule: string,
): number | null {
  if (v === undefined || v === null) return null;
  if (typeof v !== "number") {
    throw new TypeError(`${where}: ${name} (${String(v)}) must be a number`);
  }
  if (!Number.isFinite(v) || !ok(v)) {
    throw new RangeError(`${where}: ${name} (${v}) must be ${rule}`);
  }
  return v;
}

/** Options of {@link RftTable.fromFourier}. */
export interface RftFourierTableOptions {
  /** The Fourier coefficients (N/m³). @default RftFourier.GENERIC */
  coefficients?: Readonly<RftCoefficients>;
  /** Scale factor ζ. @default 1 */
  zeta?: number;
  /** Grid points along β over [−π/2, π/2] (odd keeps β = 0 on the grid). @default 19 */
  betaCount?: number;
  /** Grid points along γ over [−π/2, π/2]. @default 19 */
  gammaCount?: number;
  /** Name of the medium. @default "generic" */
  material?: string;
  /** Where the coefficients come from. @default "generic" */
  source?: RftSource;
  /** Grain diameter (m), when known. */
  grainDiameter?: number;
  /** Grain–grain friction, when known. */
  friction?: number;
  /** Intrusion speed (m/s), when known. */
  intrusionSpeed?: number;
  /** Solid volume fraction, when known. */
  volumeFraction?: number;
}

/**
 * A table sampled from the Fourier form on a uniform grid over [−π/2, π/2]² (default: Li et
 * al.'s generic medium, ζ = 1, 19 × 19 points, 10° apart).
 *
 * @example
 * ```ts
 * import { rftTableFromFourier } from "./table.ts";
 * import { expect } from "expect";
 * const t = rftTableFromFourier({ zeta: 2, betaCount: 7, gammaCount: 5 });
 * expect(t.source).toBe("generic");
 * expect(t.alphaZAt(0, Math.PI / 2)).toBeCloseTo(2e6, 6); // ζ · 1 N/cm³
 * expect(() => rftTableFromFourier({ betaCount: 1 })).toThrow(/betaCount \(1\)/);
 * ```
 */
export function rftTableFromFourier(options: RftFourierTableOptions = {}): RftTable {
  const where = "RftTable.fromFourier";
  if (options === null || typeof options !== "object") {
    throw new TypeError(`${where}: options (${String(options)}) must be an options object`);
  }
  const c = checkCoefficients(where, options.coefficients ?? RFT_GENERIC);
  const zeta = options.zeta ?? 1;
  if (typeof zeta !== "number" || !(zeta > 0) || !Number.isFinite(zeta)) {
    throw new RangeError(`${where}: zeta (${String(zeta)}) must be a finite number > 0`);
  }
  const count = (name: string, v: unknown): number => {
    if (typeof v !== "number" || !Number.isInteger(v) || v < 2 || v > 10_001) {
      throw new RangeError(`${where}: ${name} (${String(v)}) must be an integer in [2, 10001]`);
    }
    return v;
  };
  const nb = count("betaCount", options.betaCount ?? 19);
  const ng = count("gammaCount", options.gammaCount ?? 19);
  const grid = (n: number) =>
    Array.from({ length: n }, (_, k) => {
      const m = 2 * k - (n - 1); // symmetric: ±π/2 and (odd n) 0 exactly
      return m === n - 1 ? HALF_PI : m === 1 - n ? -HALF_PI : (HALF_PI * m) / (n - 1);
    });
  const beta = grid(nb), gamma = grid(ng);
  const az = new Float64Array(nb * ng), ax = new Float64Array(nb * ng);
  for (let i = 0; i < nb; i++) {
    for (let j = 0; j < ng; j++) {
      az[i * ng + j] = rftAlphaZ(beta[i], gamma[j], c, zeta);
      ax[i * ng + j] = rftAlphaX(beta[i], gamma[j], c, zeta);
    }
  }
  const { coefficients: _c, zeta: _z, betaCount: _b, gammaCount: _g, ...meta } = options;
  return new RftTable({
    ...meta,
    beta,
    gamma,
    alphaZ: az,
    alphaX: ax,
    material: options.material ?? "generic",
    source: options.source ?? "generic",
  });
}
