/**
 * The stress around a wheel's rim, the terramechanics classic's σ(θ) and τ(θ) (Wong & Reece
 * 1967): the ground's force on the rim sorted by the angle θ of where it acts, measured from
 * straight down under the axle and positive towards the travel (+x), in bins of 5° over
 * [−90°, 90°]. Each bin's force, divided by the rim area it covers (R·Δθ·width), is split into
 * the normal stress σ (pressing on the rim, positive) and the shear stress τ along the rim's
 * tangent (cos θ, 0, sin θ) (positive pushes the wheel forward where θ = 0: traction). On a DEM
 * bed the forces are the grains' contacts with the wheel (those on its rim: normal across the
 * axle); on RFT the rim elements' forces (`RftGround.elementForces`). The faces at the wheel's
 * ends are left out.
 *
 * @module
 */
import { ContactKind, type ContactRecord } from "../contact/record.ts";
import type { RftElementForces } from "../sphere3d/mod.ts";

/** Bins of the rim's stress: 5° over [−90°, 90°]. */
export const RIM_BINS = 36;
const BIN = Math.PI / RIM_BINS;

/**
 * The bins' centres (rad), from −87.5° to 87.5°.
 *
 * @example
 * ```ts
 * import { rimAngles, RIM_BINS } from "./wheel_rim.ts";
 * import { expect } from "expect";
 * const a = rimAngles();
 * expect(a.length).toBe(RIM_BINS);
 * expect(a[0]).toBeCloseTo((-87.5 * Math.PI) / 180, 12);
 * ```
 */
export function rimAngles(): Float64Array {
  const a = new Float64Array(RIM_BINS);
  for (let k = 0; k < RIM_BINS; k++) a[k] = -Math.PI / 2 + (k + 0.5) * BIN;
  return a;
}

/** σ(θ) and τ(θ) (Pa) per bin of {@link rimAngles}. */
export interface RimStress {
  /** Normal stress on the rim, pressing positive (Pa). */
  normal: Float64Array;
  /** Shear stress along the rim's tangent (cos θ, 0, sin θ) (Pa). */
  shear: Float64Array;
}

/**
 * Sums a wheel's rim forces by angle over samples; {@link RimSampler.stress} gives the mean
 * stress per sample. The wheel's axle is along y.
 *
 * @example
 * ```ts
 * import { RimSampler, rimAngles } from "./wheel_rim.ts";
 * import { expect } from "expect";
 * const rim = new RimSampler(0.05, 0.03);
 * // one element straight under the axle at (0, 0, 0), pushed up by 3 N
 * rim.addElements({
 *   position: Float64Array.of(0, 0, -0.05), normal: Float64Array.of(0, 0, -1),
 *   area: Float64Array.of(1e-4), force: Float64Array.of(0, 0, 3),
 * }, 0, 0);
 * rim.endSample();
 * const s = rim.stress(), k = rimAngles().findIndex((a) => a > 0);
 * // 3 N over R·Δθ·w = 0.05 · (π/36) · 0.03 m²
 * expect(s.normal[k]).toBeCloseTo(3 / (0.05 * (Math.PI / 36) * 0.03), 6);
 * ```
 */
export class RimSampler {
  /** Per bin: the forces' parts pressing on the rim and along its tangent (N), summed. */
  readonly #press = new Float64Array(RIM_BINS);
  readonly #along = new Float64Array(RIM_BINS);
  #samples = 0;
  readonly #radius: number;
  readonly #width: number;

  /** A sampler for a wheel of radius `radius` and width `width` (m). */
  constructor(radius: number, width: number) {
    this.#radius = radius;
    this.#width = width;
  }

  /** Add one force (N, on the wheel) acting at (x, z), the axle at (ax, az). */
  #add(x: number, z: number, fx: number, fz: number, ax: number, az: number): void {
    const th = Math.atan2(x - ax, az - z);
    if (!(th >= -Math.PI / 2 && th < Math.PI / 2)) return;
    const k = Math.min(RIM_BINS - 1, Math.floor((th + Math.PI / 2) / BIN));
    const s = Math.sin(th), c = Math.cos(th);
    // outward normal (sin θ, 0, −cos θ): pressing is −F·n; tangent (cos θ, 0, sin θ)
    this.#press[k] += fz * c - fx * s, this.#along[k] += fx * c + fz * s;
  }

  /**
   * Add the contacts of `record` with body `body` (the grains' forces on it, reversed) whose
   * normal lies across the axle (the rim's, not the end faces'), the axle at (ax, az) (m).
   */
  addContacts(record: ContactRecord, body: number, ax: number, az: number): void {
    const kind = record.kind, bd = record.boundary, p = record.point, n = record.normal;
    const fn = record.normalForce, ft = record.tangentialForce;
    for (let q = 0; q < record.count; q++) {
      if (kind[q] !== ContactKind.body || bd[q] !== body || Math.abs(n[3 * q + 1]) > 0.5) continue;
      const fx = -(n[3 * q] * fn[q] + ft[3 * q]), fz = -(n[3 * q + 2] * fn[q] + ft[3 * q + 2]);
      this.#add(p[3 * q], p[3 * q + 2], fx, fz, ax, az);
    }
  }

  /** Add the RFT elements `e` whose normal lies across the axle, the axle at (ax, az) (m). */
  addElements(e: RftElementForces, ax: number, az: number): void {
    for (let k = 0; k < e.area.length; k++) {
      if (Math.abs(e.normal[3 * k + 1]) > 0.5) continue;
      this.#add(
        e.position[3 * k],
        e.position[3 * k + 2],
        e.force[3 * k],
        e.force[3 * k + 2],
        ax,
        az,
      );
    }
  }

  /** Close one sample (a step, or one look at the RFT ground). */
  endSample(): void {
    this.#samples++;
  }

  /** Mean σ(θ) and τ(θ) per sample (Pa); zeros before the first sample. */
  stress(): RimStress {
    const normal = new Float64Array(RIM_BINS), shear = new Float64Array(RIM_BINS);
    if (this.#samples === 0) return { normal, shear };
    const scale = 1 / (this.#samples * this.#radius * BIN * this.#width);
    for (let k = 0; k < RIM_BINS; k++) {
      normal[k] = this.#press[k] * scale;
      shear[k] = this.#along[k] * scale;
    }
    return { normal, shear };
  }
}
