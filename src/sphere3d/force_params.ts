/**
 * The scalars, friction tables and scratch of the force loops of a granular system (pair
 * loops, plane sweeps, grain–body contacts), resolved once per evaluation.
 *
 * @module
 */

/** Scalars resolved once per step for the force loops. */
export interface ForceParams {
  /** Normal stiffness. */
  kn: number;
  /** Normal damping coefficient of the damping law `damping` (N·s/m, 1/s or a restitution factor). */
  cn: number;
  /** The normal damping law, a `DampingLaw` code of `src/contact/normal.ts` (0 = constant cn). */
  damping: number;
  /** Tangential damping scales with m_eff (`dampingMode: "mass-scaled"`). */
  ctScaled: boolean;
  /** The normal force is clamped at zero. */
  clamp: boolean;
  /** Lever arm r − lever·δ of the tangential force: 0.5 (overlap centre) or 0 (radius). */
  lever: number;
  /** Tangential stiffness (resolved, never 0 unless kn is 0). */
  kt: number;
  /** Tangential damping. */
  ct: number;
  /** Hertz law when true, linear otherwise. */
  hertz: boolean;
  /** Cohesion stiffness. */
  kc: number;
  /** Cohesion range. */
  dmax: number;
  /** Substep (s). */
  dt: number;
  /** Time increment added to the tangential springs (dt, or 0 for a re-evaluation). */
  histDt: number;
  /** Step stamp for the history table. */
  stamp: number;
  /** Periodic lengths (0 = open). */
  px: number;
  /** Periodic length y. */
  py: number;
  /** Periodic length z. */
  pz: number;
  /**
   * Write the particle pairs' contacts to the record (false on the steps of a run nobody
   * reads: the forces, springs and statistics are the same either way).
   */
  record: boolean;
  /**
   * The sliding friction every material id in use shares (so that the pair loop reads no
   * material ids), or −1 when they differ.
   */
  mu: number;
  /** Some material id in use has rolling friction (the pair loop's rolling branch). */
  rolling: boolean;
}

/** Force-loop scalars before the first evaluation resolves them. */
export function emptyForceParams(): ForceParams {
  return {
    kn: 0,
    cn: 0,
    damping: 0,
    ctScaled: false,
    clamp: true,
    lever: 0.5,
    kt: 0,
    ct: 0,
    hertz: false,
    kc: 0,
    dmax: 0,
    dt: 0,
    histDt: 0,
    stamp: 0,
    px: 0,
    py: 0,
    pz: 0,
    record: true,
    mu: -1,
    rolling: true,
  };
}

/** Per-material-id friction tables (index = material id). */
export interface FrictionTables {
  /** Sliding friction per id. */
  friction: Float64Array;
  /** Rolling friction per id. */
  rolling: Float64Array;
}

/**
 * The scratch of the force loops, owned by one system's step (no module-level state): spring
 * inputs, one contact record, the tangential force of the current contact and the grains
 * touching the current plane.
 */
export class ForceScratch {
  /** Tangential spring inputs (layout SPRING_IO of `src/contact/tangential.ts`). */
  readonly io: Float64Array = new Float64Array(10);
  /** One contact: point 0–2, normal 3–5, overlap 6, normal force 7, tangential force 8–10. */
  readonly rec: Float64Array = new Float64Array(11);
  /** Tangential force of the current contact (N). */
  readonly ft: Float64Array = new Float64Array(3);
  /** A zero spring for contacts that found no history entry. */
  readonly spare: Float64Array = new Float64Array(3);
  /** Slots of the grains touching the current plane (grown between steps only). */
  touching: Int32Array = new Int32Array(1024);
}
