/**
 * Contact forces of a granular system: the pair loops' dispatch, the history spring of a
 * contact kept in the history table, the rolling torques' cap and the contact record scratch.
 * The pair loops themselves are generated (`pair_loops_gen.ts`, from the laws of
 * src/contact/law3d_source.ts); they read the system's columns and allocate nothing.
 *
 * @module
 */
import { tangentialSpring3 } from "../contact/law3d_gen.ts";
import type { PairList } from "../math/grid.ts";
import type { ContactBuffers } from "../contact/record.ts";
import type { ForceParams, FrictionTables } from "./force_params.ts";
import type { HistoryTable } from "./history.ts";
import type { PairHistory } from "./pair_history.ts";
import type { ParticleStore } from "./particles.ts";
import type { StepStats } from "./stats.ts";
import { plainLaw } from "./forces_plain.ts";
import { pairForcesGeneral, pairForcesPlain } from "./pair_loops_gen.ts";

export {
  emptyForceParams,
  type ForceParams,
  ForceScratch,
  FP,
  type FrictionTables,
} from "./force_params.ts";
export { pairForcesGeneral } from "./pair_loops_gen.ts";

/**
 * Add the forces of the touching (or cohesive) pairs k0 ≤ k < k1 of `pairs` to the particle
 * columns, in list order. The pairs are oriented (`a` has the smaller stable id) and their
 * springs are in `ph` (see `pair_history.ts`); a pair that does not touch loses its spring.
 * Contacts are written to the record's columns `cb` from index `w0` on (the caller reserved
 * room for every pair); returns the index after the last one written. Updates `stats`.
 * The plain law (`plainLaw` of `forces_plain.ts`) runs a loop of its own, with the same bits.
 */
export function pairForces(
  ps: ParticleStore,
  pairs: PairList,
  ph: PairHistory,
  mat: FrictionTables,
  p: ForceParams,
  cb: ContactBuffers,
  stats: StepStats,
  k0: number,
  k1: number,
  w0: number,
): number {
  if (plainLaw(p)) return pairForcesPlain(ps, pairs, ph, p, cb, stats, k0, k1, w0);
  return pairForcesGeneral(ps, pairs, ph, mat, p, cb, stats, k0, k1, w0);
}

/**
 * The tangential force of one contact from its history spring (owned by `owner`, keyed by the
 * partner's stable id) into `out[0..2]`; the spring inputs are in `spring` (layout SPRING_IO of
 * `src/contact/tangential.ts`). When the owner's history entries are full the contact gets a
 * fresh spring (`spare`, zeroed here) for this step (the table widens after the step).
 */
export function historyForce(
  hist: HistoryTable,
  owner: number,
  partner: number,
  stamp: number,
  spring: Float64Array,
  out: Float64Array,
  spare: Float64Array,
): void {
  const e = hist.find(owner, partner, stamp);
  if (e >= 0) {
    tangentialSpring3(hist.xi, 3 * e, spring, out);
  } else {
    spare[0] = spare[1] = spare[2] = 0;
    tangentialSpring3(spare, 0, spring, out);
  }
}

/**
 * Add the accumulated rolling torques to the particle torques, each capped so that over one
 * substep it can at most stop the particle's spin component it opposes: with several contacts
 * the per-contact limits alone could add up to a reversal (and feed a spin oscillation).
 */
export function applyRolling(ps: ParticleStore, dt: number): void {
  const n = ps.count, roll = ps.roll, torque = ps.torque, ang = ps.ang, invI = ps.invInertia;
  for (let i = 0, o = 0; i < n; i++, o += 3) {
    const tx = roll[o], ty = roll[o + 1], tz = roll[o + 2];
    const t2 = tx * tx + ty * ty + tz * tz;
    if (t2 === 0) continue;
    roll[o] = roll[o + 1] = roll[o + 2] = 0;
    const t = Math.sqrt(t2);
    // Spin component the torque opposes, and the torque that would just stop it in dt.
    const opp = -(ang[o] * tx + ang[o + 1] * ty + ang[o + 2] * tz) / t;
    const stop = opp > 0 ? opp / (invI[i] * dt) : 0;
    const k = t <= stop ? 1 : stop / t;
    torque[o] += k * tx, torque[o + 1] += k * ty, torque[o + 2] += k * tz;
  }
}

/**
 * Fill the contact record scratch `rec`: the contact point at `reach` from the centre at
 * `pos[oi]` against the normal, the normal, the overlap and the normal force.
 */
export function fillRecord(
  rec: Float64Array,
  pos: Float64Array,
  oi: number,
  reach: number,
  overlap: number,
  nx: number,
  ny: number,
  nz: number,
  fn: number,
): void {
  rec[0] = pos[oi] - reach * nx;
  rec[1] = pos[oi + 1] - reach * ny;
  rec[2] = pos[oi + 2] - reach * nz;
  rec[3] = nx, rec[4] = ny, rec[5] = nz;
  rec[6] = overlap;
  rec[7] = fn;
}
