/**
 * The per-step statistics of the 2D systems: the fill of the `StepStats` record after each
 * step (contact counts, maximum overlap and speed, kinetic energy) with the check that the
 * state stayed finite, and the stage timer of `lastStepProfile`. Used by `GrainSystem2.step`;
 * internal, not re-exported.
 *
 * @module
 */

import { contactBuffers, ContactKind } from "../contact/record.ts";
import type { StepProfile } from "../contact/stats.ts";
import type { GrainSystemState } from "./body_state.ts";
import type { StepStats } from "./body_options.ts";
import { guardAfterStep, positionWeight } from "./guard.ts";

/** A zeroed statistics record, the state of a system before its first step. @internal */
export function emptyStepStats(): StepStats {
  return {
    step: 0,
    time: 0,
    candidatePairs: 0,
    particleContacts: 0,
    boundaryContacts: 0,
    maxPenetration: 0,
    maxSpeed: 0,
    kineticEnergy: 0,
    boundingHits: 0,
    nodeTests: 0,
    pairsInContact: 0,
    contactsPerPair: 0,
  };
}

/**
 * Fill `sys.lastStepStats` after a step; throws when the state became non-finite (naming the
 * grain) or the divergence guard finds a grain too fast or too deep (`guard.ts`).
 * @internal
 */
export function updateStepStats(sys: GrainSystemState): void {
  const s = sys.lastStepStats, c = sys.contacts, b = contactBuffers(c);
  let wallC = 0, maxOv = 0;
  const kind = b.kind, ov = b.overlap;
  for (let k = 0; k < c.count; k++) {
    if (kind[k] !== ContactKind.particle) wallC++;
    if (ov[k] > maxOv) maxOv = ov[k];
  }
  let ke = 0, v2max = 0, acc = 0, fp = 0;
  const pos = sys.store.pos,
    vel = sys.store.vel,
    om = sys.store.omega,
    m = sys.store.mass,
    I = sys.store.inertia;
  const ang = sys.store.ang;
  for (let i = 0; i < sys.count; i++) {
    const vx = vel[2 * i], vy = vel[2 * i + 1], v2 = vx * vx + vy * vy;
    if (v2 > v2max) v2max = v2;
    ke += 0.5 * (m[i] * v2 + I[i] * om[i] * om[i]);
    // x·0 is 0 for finite x, NaN otherwise (a plain sum could overflow on finite values)
    acc += pos[2 * i] * 0 + pos[2 * i + 1] * 0 + ang[i] * 0 + om[i] * 0 + v2 * 0;
    fp += positionWeight(pos[2 * i], pos[2 * i + 1], ang[i]);
  }
  s.step++;
  if (acc !== 0 || !Number.isFinite(ke)) reportNonFinite(sys, s.step);
  s.time = sys.time;
  s.candidatePairs = sys.detectionState.pairs.tested;
  s.boundingHits = sys.detectionState.pairs.count;
  s.nodeTests = sys.detectionState.nodeTests;
  s.particleContacts = c.count - wallC;
  s.boundaryContacts = wallC;
  s.pairsInContact = sys.detectionState.pairsInContact;
  const inContact = sys.detectionState.pairsInContact;
  s.contactsPerPair = inContact > 0 ? s.particleContacts / inContact : 0;
  s.maxPenetration = maxOv;
  s.maxSpeed = Math.sqrt(v2max);
  s.kineticEnergy = ke;
  guardAfterStep(sys, v2max, maxOv, ke, fp);
}

/** Throw naming the first grain whose state is not finite. */
function reportNonFinite(sys: GrainSystemState, step: number): never {
  const pos = sys.store.pos, vel = sys.store.vel, ang = sys.store.ang, om = sys.store.omega;
  let i = 0;
  for (; i < sys.count; i++) {
    const vx = vel[2 * i], vy = vel[2 * i + 1];
    const x = pos[2 * i] * 0 + pos[2 * i + 1] * 0 + (vx * vx + vy * vy) * 0 + ang[i] * 0 +
      om[i] * om[i] * 0;
    if (x !== 0) break;
  }
  throw new RangeError(
    `${sys.systemKind}.step: grain ${i} (id ${
      sys.store.ids[i]
    }) has a non-finite state (or a speed whose energy overflows) after step ` +
      `${step} (position ${pos[2 * i]}, ${pos[2 * i + 1]}; velocity ${vel[2 * i]}, ` +
      `${vel[2 * i + 1]}; angle ${ang[i]}); check the initial state, or reduce the time step`,
  );
}

/**
 * Add the time since `t0` to stage `k` of a step profile (or set it when `set`); returns now.
 * @internal
 */
export function lap(p: StepProfile, k: keyof StepProfile, t0: number, set: boolean): number {
  const t = performance.now();
  p[k] = set ? t - t0 : p[k] + t - t0;
  return t;
}
