/**
 * One RFT calibration run: a thin kinematic plate, tilted by β, moved at constant speed along
 * the direction γ (below the horizontal, towards +x) through a fresh copy of a settled bed;
 * the grains' force on it, averaged over windows of 0.1 d of travel, against the depth of the
 * plate's centre, gives α_z and α_x as the slopes of linear fits over a depth window (with
 * their R²), or, with `throughOrigin`, as the secants α = Σ σ·z / Σ z² of fits through zero.
 *
 * Two paths, by how steep the motion is:
 * - **sweep** (|γ| ≥ π/4): downwards, the plate starts just above the surface and sweeps down
 *   through the window; upwards, it starts buried below the window (the grains it would
 *   overlap removed, the bed relaxed around it) and rises through it.
 * - **hold** (|γ| < π/4, down to horizontal motion): two runs start buried at the quarter and
 *   three-quarter depths of the window and travel along γ for one plate side (run-in, not
 *   measured) and then two more; the windows of both runs make the depth fit.
 *
 * @module
 */
import type { World } from "../sphere3d/mod.ts";
import { linearFit, originFit } from "./fit.ts";
import type { RftBed } from "./rft_bed.ts";
import { loadRftBed } from "./rft_bed.ts";

const H = Math.PI / 2;

/** A plate run's geometry and motion (SI units). */
export interface PlateRun {
  /** Plate side (m); the plate is square. */
  side: number;
  /** Plate thickness (m). */
  thickness: number;
  /** Plate angle β (rad). */
  beta: number;
  /** Motion direction γ below the horizontal (rad). */
  gamma: number;
  /** Speed (m/s). */
  speed: number;
  /** Depth window [from, to] past full immersion (m). */
  window: readonly [number, number];
  /**
   * Fit the force per area as α·depth through the origin (the secant over the window: what
   * RFT's σ = α·|z| predicts at those depths) instead of α·depth + c (the slope). @default false
   */
  throughOrigin?: boolean;
}

/** What one (β, γ) pair measured. */
export interface PlateResult {
  /** α_z, α_x (N/m³). */
  alphaZ: number;
  alphaX: number;
  /** R² of the two depth fits. */
  r2Z: number;
  r2X: number;
  /** Inertial number at the middle of the window: (v/side)·d/√(P/ρ), P = φρg|z|. */
  inertial: number;
  /** `"sweep"` or `"hold"`. */
  path: "sweep" | "hold";
}

/**
 * The bed a plate runs in: a settled DEM bed, or (`rft: true`) only its geometry, for a
 * world whose ground is an RFT ground at `surface` (no grains loaded, nothing cleared or lifted:
 * a buried start simply starts moving).
 */
export type PlateBed =
  | RftBed
  | {
    rft: true;
    model: { d: number };
    surface: number;
    size: [number, number, number];
    volumeFraction: number;
  };

/**
 * Runs one (β, γ) pair; `makeWorld` gives a fresh empty world with rigid bodies (with an RFT
 * ground when `bed.rft`).
 *
 * @param bed the settled bed, or the geometry of an RFT one
 * @param run the plate and its motion
 * @param makeWorld a fresh world (same time step and gravity as the bed)
 * @returns α_z, α_x, their R², the inertial number and the path
 * @example
 * ```ts
 * import { resolveGrains } from "./common.ts";
 * import { settleRftBed } from "./rft_bed.ts";
 * import { plateRun } from "./rft_intrude.ts";
 * import { World } from "../sphere3d/mod.ts";
 * import { expect } from "expect";
 * const m = resolveGrains("demo", { diameter: 0.01, rollingFriction: 0.05 });
 * const bed = settleRftBed(m, [12, 8, 7]);
 * const r = await plateRun(bed, {
 *   side: 0.03, thickness: 0.004, beta: 0, gamma: Math.PI / 2, speed: 0.1, window: [0.005, 0.03],
 * }, () => World.create({ timeStep: m.dt, gravity: [0, 0, -9.81] }));
 * expect(r.alphaZ).toBeGreaterThan(0);
 * expect(r.path).toBe("sweep");
 * ```
 */
export async function plateRun(
  bed: PlateBed,
  run: PlateRun,
  makeWorld: () => Promise<World>,
): Promise<PlateResult> {
  const d = bed.model.d;
  const { side: a, thickness: t, beta, gamma, speed } = run;
  const [from, to] = run.window;
  const reach = 0.5 * a * Math.abs(Math.sin(beta)) + 0.5 * t; // lowest point below the centre
  const top = bed.surface - reach; // the centre's height when the plate is just submerged
  const depth: number[] = [], fz: number[] = [], fx: number[] = [];
  // α_x is positive against the horizontal motion (+x); moving straight down or up, against
  // the horizontal part of the leading face's normal, as in sphere3d/rft/model.ts
  const ex = Math.abs(gamma) < H - 1e-9 ? 1 : Math.sign(gamma * Math.sin(beta)) || 1;
  let path: "sweep" | "hold";
  if (Math.abs(gamma) >= Math.PI / 4 - 1e-12) {
    path = "sweep";
    const down = gamma > 0;
    // downwards from just above the surface to `to`; upwards from 1 d below `to` up to `from`
    const zStart = down ? bed.surface + reach + 0.5 * d : top - to - d;
    const zEnd = down ? top - to : top - from + 0.1 * d;
    const travel = Math.abs(zStart - zEnd) / Math.abs(Math.sin(gamma));
    await drive(bed, run, makeWorld, zStart, travel, !down, 0, ex, top, depth, fz, fx);
  } else {
    path = "hold";
    const travel = 3 * a;
    for (const q of [0.25, 0.75]) {
      // the depth at the middle of the measured part is the window's quarter point
      const zMid = top - (from + q * (to - from));
      const zStart = zMid + Math.sin(gamma) * 2 * a;
      await drive(bed, run, makeWorld, zStart, travel, true, a, ex, top, depth, fz, fx);
    }
  }
  if (depth.length < 3) {
    throw new RangeError(
      `calibrateRft: only ${depth.length} force windows for (β, γ) = (${beta.toFixed(3)}, ` +
        `${gamma.toFixed(3)}); widen the window or lengthen the bed`,
    );
  }
  const fit = run.throughOrigin ? originFit : linearFit;
  const lz = fit(depth, fz), lx = fit(depth, fx);
  const zMid = from + 0.5 * (to - from) + reach;
  const inertial = ((speed / a) * d) / Math.sqrt(bed.volumeFraction * 9.81 * zMid);
  return { alphaZ: lz.slope, alphaX: lx.slope, r2Z: lz.r2, r2X: lx.r2, inertial, path };
}

/**
 * Moves the plate from centre height `zStart` a distance `travel` along γ, buried first when
 * `buried` (the overlapping grains removed, the bed relaxed for 3 √(d/g)); windows after
 * `runIn` metres of travel whose depth lies in the window are recorded.
 */
async function drive(
  bed: PlateBed,
  run: PlateRun,
  makeWorld: () => Promise<World>,
  zStart0: number,
  travel0: number,
  buried: boolean,
  runIn: number,
  ex: number,
  top: number,
  depth: number[],
  fz: number[],
  fx: number[],
): Promise<void> {
  const { side: a, thickness: t, beta, gamma, speed } = run;
  const [from, to] = run.window;
  const d = bed.model.d;
  const world = await makeWorld();
  const dt = world.timeStep;
  const grains = "rft" in bed ? null : bed;
  const sys = grains === null ? null : loadRftBed(world, grains);
  const vx = speed * Math.cos(gamma), vz = -speed * Math.sin(gamma);
  let zStart = zStart0, travel = travel0;
  if (sys !== null && !buried && vz < 0) {
    // a plate coming down from above must not start deep in a grain that stands above the
    // surface line (the first step would stop in the divergence guard): lift it clear
    const x0 = -0.5 * Math.ceil(travel / (speed * dt)) * dt * vx;
    const lift = plateStartLift(sys, x0, zStart, a, t, beta, 0.05 * d);
    if (lift > 0) zStart += lift, travel += lift / Math.abs(Math.sin(gamma));
  }
  const steps = Math.ceil(travel / (speed * dt));
  const x0 = -0.5 * steps * dt * vx;
  if (Math.abs(x0) + 0.5 * a + d > bed.size[0] / 2) {
    world.close();
    throw new RangeError(
      `calibrateRft: the bed (${(bed.size[0] / d).toFixed(1)} d long) is too short for γ = ` +
        `${gamma.toFixed(3)} rad: the plate travels ${((2 * Math.abs(x0)) / d).toFixed(1)} d`,
    );
  }
  // the plate's line rises by β towards +x: a turn of −β about y
  const s = Math.sin(-beta / 2), c = Math.cos(-beta / 2);
  const plate = world.addBox({
    halfExtents: [0.5 * a, 0.5 * a, 0.5 * t],
    position: [x0, 0, zStart],
    orientation: [0, s, 0, c],
    bodyType: "kinematic",
    linearVelocity: buried ? [0, 0, 0] : [vx, 0, vz],
  });
  if (buried) {
    if (sys !== null && grains !== null) {
      clearPlate(sys, x0, zStart, a, t, beta);
      world.run(Math.round((3 * grains.model.unit) / dt));
    }
    plate.setVelocity([vx, 0, vz]);
  }
  const area = a * a, W = Math.max(1, Math.round((0.1 * d) / (speed * dt)));
  const skip = Math.round(runIn / (speed * dt));
  for (let k = 0; k + W <= steps; k += W) {
    let sz = 0, sx = 0;
    for (let j = 0; j < W; j++) {
      world.step();
      const f = plate.contactForce;
      sz += f[2] / W, sx += f[0] / W;
    }
    if (k < skip) continue;
    const zc = zStart + (k + 0.5 * W) * dt * vz;
    const past = top - zc;
    if (past >= from - 1e-12 && past <= to + 1e-12) {
      depth.push(bed.surface - zc);
      fz.push(sz / area);
      fx.push((-sx * ex) / area);
    }
  }
  world.close();
}

/** Removes the grains that overlap the plate (its box grown by a radius). */
function clearPlate(
  sys: {
    count: number;
    positions: Float64Array;
    radii: Float64Array;
    removeParticle(i: number): void;
  },
  cx: number,
  cz: number,
  a: number,
  t: number,
  beta: number,
): void {
  const cb = Math.cos(beta), sb = Math.sin(beta);
  for (let i = sys.count - 1; i >= 0; i--) {
    const p = sys.positions, r = sys.radii[i];
    const dx = p[3 * i] - cx, dy = p[3 * i + 1], dz = p[3 * i + 2] - cz;
    const u = dx * cb + dz * sb, w = -dx * sb + dz * cb;
    if (Math.abs(u) < 0.5 * a + r && Math.abs(dy) < 0.5 * a + r && Math.abs(w) < 0.5 * t + r) {
      sys.removeParticle(i);
    }
  }
}

/**
 * How far (m) a plate of side `a` and thickness `t`, tilted by β, centred at (x0, 0, z) must be
 * lifted so that no grain of `sys` overlaps it by more than half its radius: 0 when none does;
 * else the deepest overlap plus `gap`, repeated until clear. Between runs only.
 */
export function plateStartLift(
  sys: { count: number; positions: Float64Array; radii: Float64Array },
  x0: number,
  z: number,
  a: number,
  t: number,
  beta: number,
  gap: number,
): number {
  const p = sys.positions, r = sys.radii, c = Math.cos(beta), s = Math.sin(beta);
  const ha = 0.5 * a, ht = 0.5 * t;
  let lift = 0;
  for (let round = 0; round < 20; round++) {
    let worst = 0;
    for (let i = 0; i < sys.count; i++) {
      const dx = p[3 * i] - x0, dy = p[3 * i + 1], dz = p[3 * i + 2] - (z + lift);
      // the plate's frame: its line rises by β towards +x (a turn of −β about y)
      const u = c * dx + s * dz, w = -s * dx + c * dz;
      const qu = Math.max(-ha, Math.min(ha, u)), qy = Math.max(-ha, Math.min(ha, dy));
      const qw = Math.max(-ht, Math.min(ht, w));
      const overlap = r[i] - Math.hypot(u - qu, dy - qy, w - qw);
      if (overlap > 0.5 * r[i]) worst = Math.max(worst, overlap);
    }
    if (worst === 0) return lift;
    lift += worst + gap;
  }
  return lift;
}
