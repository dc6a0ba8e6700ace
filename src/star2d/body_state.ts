/**
 * The state every 2D grain system shares (`GrainSystem2` of `body.ts` implements it), as its
 * split-off passes read and change it: the forces and integration (`body_forces.ts`), the step
 * statistics (`body_stats.ts`), the divergence guard (`guard.ts`), the checkpoints
 * (`checkpoint.ts`) and the thread pool (`threads/pool.ts`). They take this state rather than
 * the class, so that none of them imports `body.ts`.
 *
 * @module
 */

import type { StepProfile } from "../contact/stats.ts";
import type { StepStats } from "./body_options.ts";
import type { StarContacts } from "./contacts.ts";
import type { GrainDetection } from "./grain_detection.ts";
import type { GrainStore } from "./grain_store.ts";
import type { GrainGuard } from "./guard_state.ts";
import type { Walls } from "./walls.ts";

/** The shared state of a 2D grain system (see the module's doc and `GrainSystem2`). */
export interface GrainSystemState {
  /** Grains. */
  count: number;
  /** Simulated time (s). */
  time: number;
  /** Time step (s); setting it checks stability. */
  readonly timeStep: number;
  /** Set the time step without the stability check (a checkpoint restores a checked one). */
  setTimeStepUnchecked(dt: number): void;
  /** Gravity, x (m/s²). */
  readonly gravityX: number;
  /** Gravity, y (m/s²). */
  readonly gravityY: number;
  /** Normal stiffness (N/m per m of depth). */
  readonly kn: number;
  /** Tangential stiffness. */
  readonly kt: number;
  /** Normal damping. */
  readonly cn: number;
  /** Tangential damping. */
  readonly ct: number;
  /** Coulomb friction coefficient. */
  readonly friction: number;
  /** Rotational damping. */
  readonly rotationalDamping: number;
  /** The walls. */
  readonly walls: Walls;
  /** The contacts of the last step. */
  readonly contacts: StarContacts;
  /** Statistics of the last step. */
  readonly lastStepStats: StepStats;
  /** Stage times of the last step (ms). */
  readonly lastStepProfile: StepProfile;
  /** The per-grain columns. */
  readonly store: GrainStore;
  /** Grid, candidate pairs and springs. */
  readonly detectionState: GrainDetection;
  /** The divergence guard's state. */
  readonly guard: GrainGuard;
  /** The class name ("StarSystem", "DiskSystem", "ClumpSystem"). */
  readonly systemKind: string;
  /** Lever arm of grain `i`'s tangential force (m). */
  leverArm(i: number): number;
  /** Make room for `n` grains. */
  reserve(n: number): void;
  /** Centres (m), stride 2 (a view). */
  readonly positions: Float64Array;
  /** Velocities (m/s), stride 2 (a view). */
  readonly velocities: Float64Array;
  /** Angles (rad) (a view). */
  readonly angles: Float64Array;
  /** Angular velocities (rad/s) (a view). */
  readonly angularVelocities: Float64Array;
  /** Masses (a view). */
  readonly masses: Float64Array;
  /** Moments of inertia (a view). */
  readonly inertias: Float64Array;
  /** Bounding radii (m) (a view). */
  readonly radii: Float64Array;
  /** Stable ids (a view). */
  readonly ids: Uint32Array;
  /** Shape or template index per grain (a view). */
  readonly shapes: Uint16Array;
}
