/**
 * One run of the single-wheel test (`single_wheel.ts`): a rigid wheel, kept kinematic, driven
 * at a fixed carriage speed v and angular speed ω through a ground (a DEM bed or an RFT
 * ground), its height free. The wheel's vertical motion is integrated here from the measured
 * ground force, m·z'' = F_z − W − m·c·z' (semi-implicit Euler, dead load W = m·g, a small
 * numerical heave damping c), and handed to the engine as the kinematic velocity of the next
 * step; the DEM's `contactForce` and the RFT ground's `force` enter the same way. The forces
 * are averaged over blocks of steps and recorded per block.
 *
 * @module
 */
import type { GranularSystem, RftGround, RigidBody, World } from "../sphere3d/mod.ts";
import { RimSampler, type RimStress } from "./wheel_rim.ts";

/** The scene of one run: the world (bed or ground loaded), the wheel in it, the drive. */
export interface WheelScene {
  /** The world; the wheel is its body `wheel`. */
  world: World;
  /** The kinematic wheel (axis along y), spinning at `omega` about +y. */
  wheel: RigidBody;
  /** The RFT ground, or null on the DEM bed (then the grains' `contactForce` is read). */
  ground: RftGround | null;
  /** The DEM bed's grains (their contacts give the rim's stress), or null on RFT. @default null */
  grains?: GranularSystem | null;
  /** Wheel width (m), for the rim's stress. */
  width: number;
  /** Height of the undisturbed free surface (m). */
  surface: number;
  /** Lowest height the wheel's bottom may reach (m): the bed floor plus a margin, or −∞. */
  floor: number;
  /** Wheel radius (m). */
  radius: number;
  /** Vertical load W (N). */
  load: number;
  /** Mass moved vertically, W/g (kg). */
  mass: number;
  /** Heave damping rate c (1/s). */
  damping: number;
  /** Carriage speed v along +x (m/s). */
  speed: number;
  /** Angular speed ω about +y (rad/s). */
  omega: number;
  /** Steps of the run. */
  steps: number;
  /** Steps per recorded block. */
  block: number;
  /** First block of the steady-state window. */
  firstSteady: number;
}

/** The record of one run, per block (see {@link WheelScene}). */
export interface WheelSeries {
  /** Time at the block's end (s). */
  time: Float64Array;
  /** Carriage travel at the block's end (m). */
  travel: Float64Array;
  /** Mean horizontal ground force along the travel direction +x (N). */
  drawbarPull: Float64Array;
  /** Mean driving torque: minus the ground's torque about the axle, along +y (N·m). */
  torque: Float64Array;
  /** Mean vertical ground force (N). */
  verticalForce: Float64Array;
  /** Sinkage at the block's end: the surface height less the wheel's bottom (m). */
  sinkage: Float64Array;
  /** Slip ratio 1 − v/(ωR) from the wheel's velocities over the block. */
  slip: Float64Array;
}

/** Means and standard deviations over the steady-state window of a {@link WheelSeries}. */
export interface WheelWindow {
  /** Drawbar pull (N). */
  drawbarPull: number;
  /** Its standard deviation over the blocks (N). */
  drawbarPullStd: number;
  /** Driving torque (N·m). */
  torque: number;
  /** Its standard deviation over the blocks (N·m). */
  torqueStd: number;
  /** Sinkage (m). */
  sinkage: number;
  /** Its standard deviation over the blocks (m). */
  sinkageStd: number;
  /** Vertical ground force (N). */
  verticalForce: number;
  /** Its standard deviation over the blocks (N). */
  verticalForceStd: number;
  /** Measured slip ratio. */
  slip: number;
}

/**
 * Runs the scene: the wheel is driven for `steps` steps; returns the per-block series, the
 * steady-state means, the stress around the rim over the steady window (`wheel_rim.ts`, every
 * step: on a DEM bed the grains' contacts, on RFT the elements) and the wall time of the stepping
 * (ms; the rim's sampling left out).
 *
 * @param where the caller's name, for the error when the wheel reaches the floor
 * @param s the scene
 * @returns the series, the steady-state window, the rim's stress and the wall time (ms)
 * @example
 * ```ts
 * import { runWheel } from "./single_wheel_run.ts";
 * import { RftTable, World } from "../sphere3d/mod.ts";
 * import { expect } from "expect";
 * const world = await World.create({ timeStep: 1e-3, gravity: [0, 0, -9.81] });
 * const ground = world.addRftGround(RftTable.fromFourier({ zeta: 0.5 }), {
 *   surfaceHeight: 0, elementSize: 0.005, implicitDrag: false,
 * });
 * const omega = 0.05 / (0.8 * 0.05); // slip 0.2
 * const wheel = world.addCylinder({
 *   radius: 0.05, halfHeight: 0.015, position: [0, 0, 0.05],
 *   orientation: [-Math.SQRT1_2, 0, 0, Math.SQRT1_2], bodyType: "kinematic",
 *   linearVelocity: [0.05, 0, 0], angularVelocity: [0, omega, 0],
 * });
 * const { steady } = runWheel("demo", {
 *   world, wheel, ground, surface: 0, floor: -Infinity, radius: 0.05, width: 0.03, load: 3,
 *   mass: 3 / 9.81, damping: 30, speed: 0.05, omega, steps: 600, block: 20, firstSteady: 15,
 * });
 * world.close();
 * expect(steady.verticalForce).toBeCloseTo(3, 0); // the ground carries the load
 * expect(steady.slip).toBeCloseTo(0.2, 3);
 * ```
 */
export function runWheel(
  where: string,
  s: WheelScene,
): { series: WheelSeries; steady: WheelWindow; rim: RimStress; wallMs: number } {
  const { world, wheel, ground, block, radius: R } = s;
  const dt = world.timeStep;
  const blocks = Math.floor(s.steps / block);
  const series: WheelSeries = {
    time: new Float64Array(blocks),
    travel: new Float64Array(blocks),
    drawbarPull: new Float64Array(blocks),
    torque: new Float64Array(blocks),
    verticalForce: new Float64Array(blocks),
    sinkage: new Float64Array(blocks),
    slip: new Float64Array(blocks),
  };
  const x0 = wheel.position[0];
  const rim = new RimSampler(R, s.width), grains = s.grains ?? null;
  let sampling = 0;
  const vel = [s.speed, 0, 0];
  let vz = 0, fz = 0;
  const t0 = performance.now();
  for (let b = 0; b < blocks; b++) {
    let sx = 0, sz = 0, ty = 0, sv = 0, sw = 0;
    for (let k = 0; k < block; k++) {
      // semi-implicit Euler of the heave: the force of the last step, then the position
      vz += dt * ((fz - s.load) / s.mass - s.damping * vz);
      vel[2] = vz;
      wheel.setVelocity(vel);
      world.step();
      const f = ground === null ? wheel.contactForce : ground.force(wheel);
      const t = ground === null ? wheel.contactTorque : ground.torque(wheel);
      fz = f[2];
      sx += f[0], sz += f[2], ty -= t[1];
      const v = wheel.linearVelocity, w = wheel.angularVelocity;
      sv += v[0], sw += w[1];
      if (b >= s.firstSteady) {
        // where the ground carries the wheel: the grains' contacts of this step, or the
        // elements as the next step will push them (at this step's end pose)
        const t = performance.now(), p = wheel.position;
        if (grains !== null) rim.addContacts(grains.contacts, wheel.id, p[0], p[2]);
        if (ground !== null) rim.addElements(ground.elementForces(wheel), p[0], p[2]);
        rim.endSample();
        sampling += performance.now() - t;
      }
    }
    const p = wheel.position;
    const bottom = p[2] - R;
    if (!(bottom > s.floor)) {
      throw new RangeError(
        `${where}: the wheel sank to the bed's floor (bottom at ${bottom.toFixed(4)} m, ` +
          `floor margin at ${s.floor.toFixed(4)} m) at ${((b + 1) * block * dt).toFixed(3)} s; ` +
          `use a deeper bed or a smaller load`,
      );
    }
    series.time[b] = (b + 1) * block * dt;
    series.travel[b] = p[0] - x0;
    series.drawbarPull[b] = sx / block;
    series.torque[b] = ty / block;
    series.verticalForce[b] = sz / block;
    series.sinkage[b] = s.surface - bottom;
    series.slip[b] = 1 - sv / (sw * R);
  }
  const wallMs = performance.now() - t0 - sampling;
  return { series, steady: steadyWindow(series, s.firstSteady), rim: rim.stress(), wallMs };
}

function meanStd(a: Float64Array, from: number): [number, number] {
  const n = a.length - from;
  let m = 0;
  for (let i = from; i < a.length; i++) m += a[i] / n;
  let v = 0;
  for (let i = from; i < a.length; i++) v += (a[i] - m) ** 2 / Math.max(1, n - 1);
  return [m, Math.sqrt(v)];
}

/** Means and standard deviations of the blocks from `from` on. */
function steadyWindow(s: WheelSeries, from: number): WheelWindow {
  const [drawbarPull, drawbarPullStd] = meanStd(s.drawbarPull, from);
  const [torque, torqueStd] = meanStd(s.torque, from);
  const [sinkage, sinkageStd] = meanStd(s.sinkage, from);
  const [verticalForce, verticalForceStd] = meanStd(s.verticalForce, from);
  const [slip] = meanStd(s.slip, from);
  return {
    drawbarPull,
    drawbarPullStd,
    torque,
    torqueStd,
    sinkage,
    sinkageStd,
    verticalForce,
    verticalForceStd,
    slip,
  };
}
