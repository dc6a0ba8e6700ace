/**
 * The state of a 2D grain system's divergence guard (`guard.ts` holds its checks): apart, so
 * that the systems' shared state (`GrainSystemState` of `body_state.ts`) can name it without
 * importing the checks, which take that state.
 *
 * @module
 */

/** State of the guard, owned by one system. @internal */
export class GrainGuard {
  /** The reference must be measured again (the state changed outside the step). */
  stale = true;
  /** A live view of a state column was handed out since the last step. */
  viewsOut = false;
  /** Kinetic energy at the end of the last step (J/m), as the statistics computed it. */
  endKe = NaN;
  /** Fingerprint of the positions and angles at the end of the last step. */
  endFp = NaN;
  /** Speed bought with all the energy of the reference (m/s). */
  refSpeed = 0;
  /** Simulated time since the reference (s). */
  elapsed = 0;
  /** Gravity (m/s²). */
  accel = 0;
  /** Smallest mass (kg). */
  minMass = Infinity;
  /** Smallest bounding radius (m). */
  minRadius = Infinity;
  /** Fastest wall surface (m/s), refreshed every step. */
  wallSpeed = 0;
  /** Fingerprint of gravity, contact law and walls (a wall moved into grains adds energy). */
  scenePrint = NaN;
}
