/**
 * Restitution and contact time against impact speed: one sphere hits the ground plane of
 * sphere3d (no gravity, so the impact speed is exact) under four normal laws — Hertz without
 * damping, Hertz with a constant (viscous) dashpot, Hertz with LIGGGHTS's restitution damping,
 * and the linear spring–dashpot — over two decades of speed.
 *
 * The laws checked: the elastic Hertz contact lasts `t = 2.9433·δ_max/v` with
 * `δ_max = (5mv²/(4k√R))^{2/5}`, so `t ∝ v^{−1/5}`; a constant dashpot on the Hertz spring
 * damps slow impacts more than fast ones (e rises with v; the reference is an independent
 * RK4 integration of `m·δ'' = −max(0, k√R·δ^{3/2} + c·δ')`); the linear law's e and contact
 * time do not depend on v (e from the clamped oscillator, `linearRestitution(ζ, {clamped})`);
 * LIGGGHTS's Hertz damping, which scales with the contact's stiffness, makes e speed
 * independent too.
 *
 * @module
 */
import { World } from "../sphere3d/mod.ts";
import { linearRestitution } from "../contact/normal.ts";
import { positive } from "../math/validate.ts";
import { type PowerLawFit, powerLawFit } from "./fit.ts";
import { experimentOptions, type ExperimentScale, logspace, numberList } from "./common.ts";

/** `2·∫₀¹ (1 − x^{5/2})^{−1/2} dx = 2·Γ(7/5)·√π / Γ(9/10)`: the elastic Hertz time in δ_max/v. */
export const HERTZ_TIME_FACTOR = 2.943275184324706;

/** The normal laws compared (the values of {@link ImpactSeries}' `model`). */
type ImpactModel = "hertz-elastic" | "hertz-viscous" | "hertz-restitution" | "linear";

/** The models, in the order of the result's `series`. */
export const IMPACT_MODELS: readonly ImpactModel[] = [
  "hertz-elastic",
  "hertz-viscous",
  "hertz-restitution",
  "linear",
];

/** Options of {@link restitutionVsSpeed}. */
export interface RestitutionVsSpeedOptions {
  /** Run size. @default "ci" */
  scale?: ExperimentScale;
  /** Impact speeds (m/s), positive. @default 7 values from 0.01 to 1 (ci); 3 (smoke); 13 (full) */
  speeds?: ArrayLike<number>;
  /** Sphere radius (m). @default 0.01 */
  radius?: number;
  /** Sphere density (kg/m³). @default 2500 */
  density?: number;
  /** Hertz stiffness k of `F = k·√R·δ^{3/2}` (N/m²). @default 1e9 */
  hertzStiffness?: number;
  /** Constant dashpot of the viscous Hertz law (N·s/m). @default 10 */
  hertzDamping?: number;
  /** Coefficient of restitution of the LIGGGHTS-damped Hertz law. @default 0.7 */
  hertzRestitution?: number;
  /** Linear stiffness (N/m). @default 4e5 */
  linearStiffness?: number;
  /** Linear dashpot (N·s/m). @default 10 */
  linearDamping?: number;
  /** Time steps per contact of the fastest (shortest) impact. @default 400 (ci); 2000 (full); 100 (smoke) */
  stepsPerContact?: number;
}

const KEYS = [
  "speeds",
  "radius",
  "density",
  "hertzStiffness",
  "hertzDamping",
  "hertzRestitution",
  "linearStiffness",
  "linearDamping",
  "stepsPerContact",
];

const PRESETS: Record<ExperimentScale, Partial<RestitutionVsSpeedOptions>> = {
  smoke: { speeds: logspace(0.01, 1, 3), stepsPerContact: 100 },
  ci: { speeds: logspace(0.01, 1, 7) },
  full: { speeds: logspace(0.01, 1, 13), stepsPerContact: 2000 },
};

/** The impacts of one law over the speeds. */
export interface ImpactSeries {
  /** The law. */
  model: "hertz-elastic" | "hertz-viscous" | "hertz-restitution" | "linear";
  /** Measured coefficient of restitution (rebound / impact speed). */
  restitution: Float64Array;
  /** Measured contact time (s): steps with a contact × time step. */
  contactTime: Float64Array;
  /** Largest overlap (m). */
  maxOverlap: Float64Array;
  /** Reference restitution (analytic or an independent RK4 integration). */
  referenceRestitution: Float64Array;
  /** Reference contact time (s): analytic where known (elastic Hertz, linear), else RK4. */
  referenceContactTime: Float64Array;
  /** Power law fitted to contact time against speed. */
  timeFit: PowerLawFit;
  /** Power law fitted to restitution against speed (exponent 0 when speed-independent). */
  restitutionFit: PowerLawFit;
}

/** Result of {@link restitutionVsSpeed}. */
export interface RestitutionVsSpeedResult {
  /** The scale run. */
  scale: ExperimentScale;
  /** Impact speeds (m/s). */
  speeds: Float64Array;
  /** Sphere mass (kg). */
  mass: number;
  /** One series per law, in the order of {@link IMPACT_MODELS}. */
  series: ImpactSeries[];
  /** Exponent of the elastic Hertz contact time against speed (law: −1/5). */
  elasticTimeExponent: number;
  /** Largest relative deviation of the elastic Hertz contact time from 2.9433·δ_max/v. */
  elasticTimeError: number;
  /** Largest relative deviation of the viscous Hertz restitution from the RK4 reference. */
  viscousRestitutionError: number;
  /** Spread (max − min)/mean of the linear law's restitution over the speeds. */
  linearRestitutionSpread: number;
  /** Spread (max − min)/mean of the linear law's contact time over the speeds. */
  linearTimeSpread: number;
  /** Largest relative deviation of the linear law's restitution from the clamped oscillator. */
  linearRestitutionError: number;
  /** Spread of the LIGGGHTS-damped Hertz law's restitution over the speeds. */
  hertzRestitutionSpread: number;
}

/** One impact in sphere3d; returns [e, contact time, max overlap]. */
function impact(
  material: Record<string, unknown>,
  radius: number,
  density: number,
  v: number,
  dt: number,
): [number, number, number] {
  const world = new World({ timeStep: dt, gravity: [0, 0, 0] });
  const g = world.addGranularParticles({ positions: [[0, 0, radius]], radii: radius }, {
    density,
    friction: 0,
    ...material,
  });
  g.setGroundPlane(0);
  g.setVelocity(0, [0, 0, -v]);
  let steps = 0, touched = false, maxOverlap = 0;
  for (let s = 0; s < 10_000_000; s++) {
    world.step();
    const c = g.contacts;
    // The contact lasts while the force pushes (a clamped law lets go before the overlap ends).
    if (c.count > 0 && c.normalForce[0] > 0) {
      touched = true;
      steps++;
      if (c.overlap[0] > maxOverlap) maxOverlap = c.overlap[0];
    } else if (touched) break;
  }
  return [g.velocities[2] / v, steps * dt, maxOverlap];
}

/**
 * RK4 reference of `m·δ'' = −max(0, k·√R·δ^{3/2} + c·δ')` from δ = 0, δ' = v: returns the
 * rebound coefficient and the contact time (the contact ends when the force or the overlap
 * vanishes). Independent of the simulator.
 */
function hertzOde(m: number, kr: number, c: number, v: number): [number, number] {
  const force = (x: number, u: number) => (x > 0 ? kr * x * Math.sqrt(x) : 0) + c * u;
  const dmax = ((5 * m * v * v) / (4 * kr)) ** 0.4;
  const h = (HERTZ_TIME_FACTOR * dmax) / v / 20000;
  let x = 0, u = v, t = 0;
  for (let s = 0; s < 1_000_000; s++) {
    const a1 = -Math.max(0, force(x, u)) / m;
    const a2 = -Math.max(0, force(x + 0.5 * h * u, u + 0.5 * h * a1)) / m;
    const a3 = -Math.max(0, force(x + 0.5 * h * (u + 0.5 * h * a1), u + 0.5 * h * a2)) / m;
    const a4 = -Math.max(0, force(x + h * (u + 0.5 * h * a2), u + h * a3)) / m;
    const nx = x + (h / 6) * (u + 2 * (u + 0.5 * h * a1) + 2 * (u + 0.5 * h * a2) + u + h * a3);
    const nu = u + (h / 6) * (a1 + 2 * a2 + 2 * a3 + a4);
    if (s > 2 && nu < 0) {
      const f0 = force(x, u), f1 = force(nx, nu);
      if (nx <= 0) {
        const q = x / (x - nx);
        return [-(u + q * (nu - u)) / v, t + q * h];
      }
      if (f1 <= 0) {
        const q = f0 / (f0 - f1);
        return [-(u + q * (nu - u)) / v, t + q * h];
      }
    }
    x = nx, u = nu, t += h;
  }
  return [0, t];
}

/**
 * Restitution and contact time against impact speed for four normal contact laws, measured
 * in sphere3d (a sphere dropped without gravity on the ground plane) and compared with the
 * analytic or independently integrated references. Two decades of speed by default.
 *
 * Tolerances (the CI test, `tests/experiments_restitution_test.ts`): elastic Hertz contact
 * time exponent −1/5 within 1 %, contact time within 1 % of 2.9433·δ_max/v; viscous Hertz
 * restitution within 1 % of the RK4 reference and rising with speed; linear law e and contact
 * time constant within 1 % and e within 1 % of the clamped oscillator; LIGGGHTS Hertz e
 * constant within 1 %.
 *
 * @param options speeds, sphere, laws, resolution
 * @returns the series of each law and the checked figures
 * @throws {RangeError} on a non-positive speed, size or stiffness
 * @example
 * ```ts
 * import { restitutionVsSpeed } from "@grainlab/grainlab/experiments";
 * import { expect } from "expect";
 * const r = restitutionVsSpeed({ scale: "smoke" });
 * expect(r.series).toHaveLength(4);
 * expect(r.elasticTimeExponent).toBeCloseTo(-0.2, 1);
 * expect(r.series[0].restitution[0]).toBeCloseTo(1, 2); // no damping: e = 1
 * ```
 */
export function restitutionVsSpeed(
  options: RestitutionVsSpeedOptions = {},
): RestitutionVsSpeedResult {
  const w = "restitutionVsSpeed";
  const { options: o, scale } = experimentOptions(w, options, KEYS, PRESETS);
  const speeds = numberList(w, "speeds", o.speeds, positive, 2);
  const R = positive(w, "radius", o.radius ?? 0.01);
  const rho = positive(w, "density", o.density ?? 2500);
  const kh = positive(w, "hertzStiffness", o.hertzStiffness ?? 1e9);
  const ch = positive(w, "hertzDamping", o.hertzDamping ?? 10);
  const eh = positive(w, "hertzRestitution", o.hertzRestitution ?? 0.7);
  if (eh > 1) throw new RangeError(`${w}: hertzRestitution (${eh}) must be in (0, 1]`);
  const kl = positive(w, "linearStiffness", o.linearStiffness ?? 4e5);
  const cl = positive(w, "linearDamping", o.linearDamping ?? 10);
  const spc = positive(w, "stepsPerContact", o.stepsPerContact ?? 400);
  const m = (rho * 4 * Math.PI * R ** 3) / 3, kr = kh * Math.sqrt(R);
  const vMax = Math.max(...speeds);
  const dmaxOf = (v: number) => ((5 * m * v * v) / (4 * kr)) ** 0.4;
  const hertzDt = (HERTZ_TIME_FACTOR * dmaxOf(vMax)) / vMax / spc;
  const linearDt = Math.PI * Math.sqrt(m / kl) / spc;
  const zeta = cl / (2 * Math.sqrt(kl * m));
  const eLinear = linearRestitution(zeta, { clamped: true });
  const materials: Record<ImpactModel, Record<string, unknown>> = {
    "hertz-elastic": { normalContactModel: "hertz", normalStiffness: kh, normalDamping: 0 },
    "hertz-viscous": { normalContactModel: "hertz", normalStiffness: kh, normalDamping: ch },
    "hertz-restitution": { normalContactModel: "hertz", normalStiffness: kh, restitution: eh },
    linear: { normalStiffness: kl, normalDamping: cl },
  };
  const n = speeds.length;
  const series = IMPACT_MODELS.map((model): ImpactSeries => {
    const e = new Float64Array(n), t = new Float64Array(n), dm = new Float64Array(n);
    const re = new Float64Array(n), rt = new Float64Array(n);
    const dt = model === "linear" ? linearDt : hertzDt;
    for (let k = 0; k < n; k++) {
      const v = speeds[k];
      [e[k], t[k], dm[k]] = impact(materials[model], R, rho, v, dt);
      if (model === "linear") {
        re[k] = eLinear;
        rt[k] = linearClampedTime(kl, cl, m);
      } else if (model === "hertz-elastic") {
        re[k] = 1;
        rt[k] = (HERTZ_TIME_FACTOR * dmaxOf(v)) / v;
      } else if (model === "hertz-viscous") {
        [re[k], rt[k]] = hertzOde(m, kr, ch, v);
      } else {
        re[k] = eh;
        rt[k] = NaN;
      }
    }
    return {
      model,
      restitution: e,
      contactTime: t,
      maxOverlap: dm,
      referenceRestitution: re,
      referenceContactTime: rt,
      timeFit: powerLawFit(speeds, t),
      restitutionFit: powerLawFit(speeds, e),
    };
  });
  const [el, vis, hr, lin] = series;
  return {
    scale,
    speeds,
    mass: m,
    series,
    elasticTimeExponent: el.timeFit.exponent,
    elasticTimeError: maxRelative(el.contactTime, el.referenceContactTime),
    viscousRestitutionError: maxRelative(vis.restitution, vis.referenceRestitution),
    linearRestitutionSpread: spread(lin.restitution),
    linearTimeSpread: spread(lin.contactTime),
    linearRestitutionError: maxRelative(lin.restitution, lin.referenceRestitution),
    hertzRestitutionSpread: spread(hr.restitution),
  };
}

/** Contact time of the clamped linear spring–dashpot (ends when k·δ + c·δ' reaches 0). */
function linearClampedTime(k: number, c: number, m: number): number {
  const w0 = Math.sqrt(k / m), z = c / (2 * Math.sqrt(k * m));
  if (z >= 1) return NaN;
  const wd = w0 * Math.sqrt(1 - z * z);
  // δ = A·e^{−ζω₀t}·sin(ω_d t); the force k·δ + c·δ' is proportional to
  // ω₀(1 − 2ζ²)·sin(ω_d t) + 2ζω_d·cos(ω_d t), which vanishes (before the overlap does) at
  // ω_d t = π − atan2(2ζω_d, ω₀(1 − 2ζ²)).
  return (Math.PI - Math.atan2(2 * z * wd, w0 * (1 - 2 * z * z))) / wd;
}

function maxRelative(a: Float64Array, b: Float64Array): number {
  let m = 0;
  for (let i = 0; i < a.length; i++) {
    if (Number.isFinite(b[i])) m = Math.max(m, Math.abs(a[i] / b[i] - 1));
  }
  return m;
}

function spread(a: Float64Array): number {
  let lo = Infinity, hi = -Infinity, s = 0;
  for (const v of a) lo = Math.min(lo, v), hi = Math.max(hi, v), s += v;
  return (hi - lo) / (s / a.length);
}
