/**
 * The state of a granular system's divergence guard (`guard.ts` holds its checks): apart, so
 * that the core's shared state (`CoreState` of `core_types.ts`) can name it without importing
 * the checks, which take that state.
 *
 * @module
 */

/** State of the guard, owned by one system. */
export class DivergenceGuard {
  /** The reference energy must be re-measured (the user changed the state). */
  stale = true;
  /** The stable-step warning was given. */
  warned = false;
  /** Energy bound on the speed at the reference time (m/s). */
  /** Speed scale of the grains driven by rigid bodies (m/s), refreshed every step. */
  bodySpeed = 0;
  refSpeed = 0;
  /** Simulated time of the reference (s). */
  refTime = 0;
  /** Largest acceleration from gravity and external forces (m/s²). */
  accel = 0;
  /** Smallest dynamic mass (kg). */
  minMass = 0;
  /** The substep the damping was last checked for (s); NaN: not checked yet. */
  checkedStep = NaN;
  /** Substep, stiffness, damping, mass and clamp of the last collision-rebound check. */
  readonly reboundKey: Float64Array = new Float64Array(5).fill(NaN);
}
