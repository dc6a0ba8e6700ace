/**
 * The rigid-grain state shared by the 2D systems (star grains, disks, clumps): structure-of-
 * arrays columns, the contact-force stage with the shared laws of `src/contact/`, explicit
 * integration, walls and per-step statistics. Subclasses provide the geometry: how contacts
 * are detected. The options, input and statistics types live in `body_options.ts`
 * (re-exported here), the fill of the statistics in `body_stats.ts`.
 *
 * @module
 */

import { StarContacts } from "./contacts.ts";
import {
  addProfile,
  emptyProfile,
  emptyProfileTotals,
  type ProfileTotals,
  resetProfileTotals,
  type StepProfile,
} from "../contact/stats.ts";
import { type RunOptions, runSteps } from "../math/progress.ts";
import {
  bool,
  finite,
  integerIn,
  nonNegative,
  options as checkOptions,
  positive,
  sizeGuard,
} from "../math/validate.ts";
import { MAX_THREADS, StarThreads, type ThreadedGrains } from "./threads/pool.ts";
import { flag } from "./options.ts";
export { GRAIN_INIT_KEYS, GRAIN_SYSTEM_KEYS } from "./options.ts";
import {
  flatten,
  type GrainInit,
  type GrainSystemOptions,
  type StepStats,
} from "./body_options.ts";
export * from "./body_options.ts";
import { emptyStepStats, lap, updateStepStats } from "./body_stats.ts";
import { checkStableSteps, guardBeforeForces, stableTimeStep, unstableMessage } from "./guard.ts";
import { contactForces2, integrateGrains2 } from "./body_forces.ts";
import { GrainGuard } from "./guard_state.ts";
import { Walls } from "./walls.ts";
import { GrainStore, type GrainStoreColumns } from "./grain_store.ts";
import { GrainDetection } from "./grain_detection.ts";
import { readFileForDecode, writeFileAtomicSync } from "../math/container.ts";
import {
  applyGrainState,
  captureGrainState,
  decodeGrainState,
  encodeGrainState,
  SAVE_STATE_KEYS,
  type SaveStateOptions,
} from "./checkpoint.ts";

/**
 * Base of the 2D rigid-grain systems. Columns are views of length `count·stride`, re-read them
 * after adding grains.
 *
 * @example
 * ```ts
 * import { DiskSystem } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const s = new DiskSystem({ timeStep: 1e-4 });
 * s.addGrains({ positions: [[0, 0.01]], radius: 0.005 });
 * s.walls.addPlane({ point: [0, 0], normal: [0, 1] });
 * s.run(10);
 * expect(s.count).toBe(1);
 * expect(s.lastStepStats.step).toBe(10);
 * ```
 */
export abstract class GrainSystem2 {
  /** Number of grains. */
  count = 0;
  #dt: number;
  /**
   * Time step (s). Setting it checks it like `addGrains` does: a time step above the
   * stability bound of the grains present throws a RangeError naming the bound.
   *
   * @example
   * ```ts
   * import { StarShape, StarSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new StarSystem({ timeStep: 1e-4 });
   * s.addGrains({ shape: StarShape.preset("cross", { area: 30e-6 }), positions: [[0, 0]] });
   * s.timeStep = 5e-5;
   * expect(s.timeStep).toBe(5e-5);
   * expect(() => (s.timeStep = 0.05)).toThrow(/exceeds the stability bound 0.000155 s/);
   * expect(s.timeStep).toBe(5e-5);
   * ```
   */
  get timeStep(): number {
    return this.#dt;
  }
  set timeStep(dt: number) {
    const where = `${this.#name}.timeStep`;
    const t = positive(where, "timeStep", dt);
    const lever = (i: number) => this.leverArm(i);
    checkStableSteps(
      where,
      t,
      this.kn,
      this.kt,
      this.cn,
      this.count,
      this.store.mass,
      this.store.inertia,
      lever,
    );
    this.#dt = t;
  }
  /** @internal Set the time step unchecked (a checkpoint's, checked by its decoder). */
  setTimeStepUnchecked(dt: number): void {
    this.#dt = dt;
  }
  /** Gravity x (m/s²). */
  readonly gravityX: number;
  /** Gravity y (m/s²). */
  readonly gravityY: number;
  /** Normal stiffness (N/m). */
  readonly kn: number;
  /** Tangential stiffness (N/m). */
  readonly kt: number;
  /** Normal damping (N·s/m). */
  readonly cn: number;
  /** Tangential damping (N·s/m). */
  readonly ct: number;
  /** Grain–grain friction. */
  readonly friction: number;
  /** Rotational damping (N·m·s). */
  readonly rotationalDamping: number;
  /** Walls of the system. */
  readonly walls: Walls = new Walls();
  /**
   * Contacts of the last step in the shared 2D contact record: normal from `j` (or the wall)
   * towards `i`, forces on `i`, wall contacts of kind `wall` with `j = -1` and the wall index
   * in `boundary`.
   */
  readonly contacts: StarContacts = new StarContacts();
  /** Statistics of the last step. */
  readonly lastStepStats: StepStats = emptyStepStats();
  /** Stage times of the last step in ms (zeros unless `profile` is on). */
  readonly lastStepProfile: StepProfile = emptyProfile();
  /**
   * Stage times in ms summed over every step profiled since `profile` was switched on, and the
   * number of those steps.
   *
   * @example
   * ```ts
   * import { StarShape, StarSystem } from "@grainlab/grainlab";
   * import { expect } from "expect";
   * const s = new StarSystem({ timeStep: 1e-4 });
   * s.addGrains({ shape: StarShape.preset("cross", { area: 30e-6 }), positions: [[0, 0.004]] });
   * s.walls.addPlane({ point: [0, 0], normal: [0, 1] });
   * s.profile = true;
   * s.run(10);
   * expect(s.profileTotals.steps).toBe(10);
   * expect(s.profileTotals.pairForces).toBeLessThanOrEqual(s.profileTotals.total);
   * ```
   */
  readonly profileTotals: ProfileTotals = emptyProfileTotals();
  #profile = false;
  /**
   * Time the stages of every step (read `lastStepProfile`, and the sums in `profileTotals`,
   * which switching this on zeroes).
   * @default false
   */
  get profile(): boolean {
    return this.#profile;
  }
  set profile(on: boolean) {
    const was = this.#profile;
    this.#profile = flag(`${this.#name}.profile`, "profile", on);
    if (this.#profile && !was) resetProfileTotals(this.profileTotals);
  }
  /** Simulated time (s). */
  time = 0;

  /**
   * @internal The system's state: the per-grain columns (positions, velocities, angles, spins,
   * masses, inertias, bounding radii, forces, torques, ids, shape ids, per-step trig and
   * centres) and the next id. Its columns are replaced when the system grows (`addGrains`,
   * `reserve`): read them from the store again after those.
   */
  readonly store: GrainStore;
  /**
   * @internal The detection state: cell grid and cell size, candidate pairs, tangential springs
   * and their key tolerance, the step's detection counts.
   */
  readonly detectionState: GrainDetection = new GrainDetection();
  /** @internal The divergence guard (`guard.ts`). */
  readonly guard: GrainGuard = new GrainGuard();

  /**
   * @internal The lever arm of grain `i` for the stability bound: from its centre of mass to
   * its farthest boundary point (the bounding radius; star grains add their centroid offset).
   */
  leverArm(i: number): number {
    return this.store.rmax[i];
  }

  /**
   * Resolve and validate the common options; `keys` are every option key the subclass
   * accepts (unknown keys throw naming the nearest valid one); `columns` are the per-step
   * columns its store carries.
   */
  constructor(
    name: string,
    options: GrainSystemOptions | undefined,
    keys: readonly string[],
    columns: GrainStoreColumns = {},
  ) {
    this.store = new GrainStore(columns);
    const o = checkOptions<GrainSystemOptions>(name, "options", options, keys);
    this.#dt = positive(name, "timeStep", o.timeStep ?? 1e-4);
    const g = o.gravity ?? [0, -9.81];
    if (g === null || typeof g !== "object" || g.length !== 2) {
      throw new TypeError(`${name}: gravity (${String(g)}) must be an array of 2 numbers`);
    }
    this.gravityX = finite(name, "gravity[0]", g[0]);
    this.gravityY = finite(name, "gravity[1]", g[1]);
    this.kn = positive(name, "normalStiffness", o.normalStiffness ?? 1000);
    this.kt = nonNegative(name, "tangentialStiffness", o.tangentialStiffness ?? 500);
    this.cn = nonNegative(name, "normalDamping", o.normalDamping ?? 0.1);
    this.ct = nonNegative(name, "tangentialDamping", o.tangentialDamping ?? 0);
    this.friction = nonNegative(name, "friction", o.friction ?? 0.5);
    this.rotationalDamping = nonNegative(name, "rotationalDamping", o.rotationalDamping ?? 0);
    this.#name = name;
  }

  readonly #name: string;
  /** @internal The detection threads (none with one thread). */
  protected pool: StarThreads | null = null;
  /** @internal The walls were detected with the pairs this step (threads). */
  protected wallsDone = false;

  /**
   * Threads that share the contact detection, most of a step (`StarSystem`: nodes to surface;
   * `ClumpSystem`: disk pairs; a `DiskSystem` takes 1 only): the candidate pairs are cut into
   * chunks that the calling thread and `threads − 1` worker threads (`node:worker_threads`
   * over SharedArrayBuffers) take in turn, while the calling thread also tests the walls; the
   * contacts are then put back in pair order. Stepping stays synchronous and the results are
   * the **same bytes for any thread count**. Forces and integration stay on the calling
   * thread. The workers never keep a finished program alive; set 1 (or call
   * {@linkcode GrainSystem2.close}) to stop them earlier. Needs read permission for the worker
   * module. Not stored in checkpoints. @default 1
   *
   * @example
   * ```ts
   * import { StarShape, StarSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const run = (threads: number) => {
   *   using s = new StarSystem({ threads });
   *   const cross = StarShape.preset("cross", { area: 30e-6 });
   *   const pos: number[] = [], angles: number[] = [];
   *   for (let k = 0; k < 60; k++) {
   *     pos.push(0.0093 * (k % 10), 0.0047 + 0.0093 * Math.floor(k / 10)); // r_max 4.6 mm
   *     angles.push(0.7 * k);
   *   }
   *   s.addGrains({ shape: cross, positions: pos, angles });
   *   s.walls.addBox({ min: [-0.0047, 0], max: [0.09, 1] });
   *   s.run(1500); // 0.15 s: the crosses settle in a heap
   *   expect(s.threads).toBe(threads);
   *   expect(s.lastStepStats.particleContacts).toBeGreaterThan(10);
   *   return s.positions.slice();
   * };
   * expect(run(2)).toEqual(run(1)); // the same bytes
   * ```
   */
  get threads(): number {
    return this.pool?.threads ?? 1;
  }
  set threads(n: number) {
    const t = integerIn(this.#name, "threads", n, 1, MAX_THREADS);
    if (t === this.threads) return;
    if (t > 1 && !this.threadable()) {
      throw new RangeError(
        `${this.#name}: threads (${t}) must be 1: its contact detection is one distance per pair`,
      );
    }
    this.pool?.close();
    this.pool = t > 1 ? new StarThreads(t) : null;
  }

  /**
   * Stop the worker threads (the system then steps on one thread); `using` calls it.
   *
   * @example
   * ```ts
   * import { StarSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new StarSystem({ threads: 2 });
   * s.close();
   * expect(s.threads).toBe(1);
   * ```
   */
  close(): void {
    this.pool?.close();
    this.pool = null;
  }

  /** {@linkcode GrainSystem2.close}, for `using`. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** @internal Whether this kind of system can share its detection with threads. */
  protected threadable(): boolean {
    return false;
  }

  /** @internal The class of the system: "StarSystem", "DiskSystem" or "ClumpSystem". */
  get systemKind(): string {
    return this.#name;
  }

  // ---- checkpoints ---------------------------------------------------------------------

  /**
   * Save a checkpoint: the grains (positions, velocities, angles, spins, masses, inertias,
   * bounding radii, shape ids, stable ids and the next id), the contact parameters, the star
   * shapes or clump templates, the walls (with the state of spinning ones), the clock and,
   * unless told otherwise, the tangential contact histories. A system restored from it
   * continues bit for bit. The file (format in `docs/checkpoint.md`) is written atomically.
   *
   * @param path destination file (missing folders are created)
   * @param options `includeContactHistories` (default true)
   * @example
   * ```ts
   * import { DiskSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new DiskSystem({ timeStep: 1e-4 });
   * s.addGrains({ positions: [[0, 0.0049], [0.0099, 0.0049]], radius: 0.005 });
   * s.walls.addPlane({ point: [0, 0], normal: [0, 1] });
   * s.run(50);
   * const path = `${Deno.makeTempDirSync()}/disks.bin`;
   * s.saveState(path);
   * const copy = DiskSystem.fromState(path);
   * s.run(50);
   * copy.run(50);
   * expect(copy.positions).toEqual(s.positions);
   * expect(copy.walls.count).toBe(1); // walls are stored
   * ```
   */
  saveState(path: string, options: SaveStateOptions = {}): void {
    const w = `${this.#name}.saveState`;
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(`${w}: path (${String(path)}) must be a non-empty string`);
    }
    const bytes = this.stateBytes(options);
    try {
      writeFileAtomicSync(path, bytes);
    } catch (e) {
      throw new Error(`${w}: ${path}: cannot write the file (${(e as Error).message})`, {
        cause: e,
      });
    }
  }

  /** The bytes {@link GrainSystem2.saveState} writes, for in-memory snapshots. */
  stateBytes(options: SaveStateOptions = {}): Uint8Array {
    const w = `${this.#name}.saveState`;
    const o = checkOptions<SaveStateOptions>(w, "options", options, SAVE_STATE_KEYS);
    const h = bool(w, "includeContactHistories", o.includeContactHistories, true);
    const bytes = encodeGrainState(captureGrainState(this, h));
    // never write what cannot be read: the loader's own checks on the very bytes
    try {
      decodeGrainState(bytes, "<state>");
    } catch (e) {
      throw new RangeError(
        `${w}: the checkpoint would not load back, so nothing is written: ${(e as Error).message}`,
        { cause: e },
      );
    }
    return bytes;
  }

  /**
   * Replace this system's grains, parameters, shapes or templates, walls, contact histories
   * and clock with those of a checkpoint of the same kind of system. Statistics other than the
   * step count and time are reset. A missing, corrupt, truncated or future-version file, or
   * one of another kind of system, throws `<System>.loadState: <path>: <what>` and leaves the
   * system unchanged.
   *
   * @example
   * ```ts
   * import { DiskSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new DiskSystem();
   * s.addGrains({ positions: [[0, 0]], radius: 0.005 });
   * const snapshot = s.stateBytes();
   * s.run(10);
   * s.loadStateBytes(snapshot);
   * expect(s.positions[1]).toBe(0);
   * expect(s.lastStepStats.step).toBe(0);
   * expect(() => s.loadStateBytes(new Uint8Array(8))).toThrow(/^DiskSystem.loadState: <bytes>: /);
   * ```
   */
  loadState(path: string): void {
    const where = `${this.#name}.loadState: ${path}`;
    this.#load(readFileForDecode(path, where), where);
  }

  /** {@link GrainSystem2.loadState} from bytes; `name` stands for the path in messages. */
  loadStateBytes(bytes: Uint8Array, name = "<bytes>"): void {
    this.#load(bytes, `${this.#name}.loadState: ${name}`);
  }

  #load(bytes: Uint8Array, where: string): void {
    applyGrainState(this, decodeGrainState(bytes, where), where);
  }

  /**
   * A new system of this class restored from a checkpoint (see {@link GrainSystem2.loadState}):
   * `StarSystem.fromState(path)`, `DiskSystem.fromState(path)`, `ClumpSystem.fromState(path)`.
   *
   * @example
   * ```ts
   * import { StarShape, StarSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new StarSystem({ friction: 0.3 });
   * s.addGrains({ shape: StarShape.preset("cross", { lutSize: 400 }), positions: [[0, 0]] });
   * const path = `${Deno.makeTempDirSync()}/star.bin`;
   * s.saveState(path);
   * const back = StarSystem.fromState(path);
   * expect(back.friction).toBe(0.3);
   * expect(back.starShapes[0].lutR).toEqual(s.starShapes[0].lutR);
   * ```
   */
  static fromState<T extends GrainSystem2>(this: new () => T, path: string): T {
    const sys = new this();
    sys.loadState(path);
    return sys;
  }

  /**
   * Centre-of-mass positions (m), stride 2. This and the velocity, angle and spin columns are
   * live views: write into them between steps to place, launch or recycle grains (every step
   * detects contacts afresh from them; the tangential springs of contacts that no longer
   * exist are dropped). A view ends when the columns grow (`addGrains`, `reserve`): read it
   * again after those.
   *
   * @example
   * ```ts
   * import { DiskSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new DiskSystem({ gravity: [0, 0] });
   * s.addGrains({ positions: [[0, 0]], radius: 0.005 });
   * s.positions[0] = 0.1; // move grain 0 to x = 0.1 m
   * s.velocities[1] = 2; // and launch it upwards at 2 m/s
   * s.run(10); // 1 ms
   * expect(s.positions[0]).toBe(0.1);
   * expect(s.positions[1]).toBeCloseTo(0.002, 12);
   * ```
   */
  get positions(): Float64Array {
    this.guard.viewsOut = true;
    return this.store.pos.subarray(0, 2 * this.count);
  }
  /** Velocities of the centres of mass (m/s), stride 2. */
  get velocities(): Float64Array {
    this.guard.viewsOut = true;
    return this.store.vel.subarray(0, 2 * this.count);
  }
  /** Angles (rad), unwrapped. */
  get angles(): Float64Array {
    this.guard.viewsOut = true;
    return this.store.ang.subarray(0, this.count);
  }
  /** Angular velocities (rad/s). */
  get angularVelocities(): Float64Array {
    this.guard.viewsOut = true;
    return this.store.omega.subarray(0, this.count);
  }
  /** Masses (kg). */
  get masses(): Float64Array {
    this.guard.viewsOut = true;
    return this.store.mass.subarray(0, this.count);
  }
  /** Moments of inertia about the centre of mass (kg·m²). */
  get inertias(): Float64Array {
    this.guard.viewsOut = true;
    return this.store.inertia.subarray(0, this.count);
  }
  /** Bounding radii r_max (m), about the detection centre. */
  get radii(): Float64Array {
    return this.store.rmax.subarray(0, this.count);
  }
  /** Stable ids (never reused). */
  get ids(): Uint32Array {
    return this.store.ids.subarray(0, this.count);
  }
  /** Shape id of each grain (index into the system's shapes). */
  get shapes(): Uint16Array {
    return this.store.shape.subarray(0, this.count);
  }

  /**
   * Ensure room for `n` grains (grows by doubling).
   *
   * @example
   * ```ts
   * import { DiskSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new DiskSystem();
   * s.reserve(1000);
   * expect(s.count).toBe(0);
   * ```
   */
  reserve(n: number): void {
    const where = `${this.#name}.reserve`;
    integerIn(where, "n", n, 0, MAX_GRAINS);
    if (n <= this.store.capacity) return;
    let cap = Math.max(16, this.store.capacity);
    while (cap < n) cap *= 2;
    sizeGuard(
      where,
      `the columns of ${cap} grains (${GRAIN_COLUMN_BYTES} bytes each)`,
      cap * GRAIN_COLUMN_BYTES,
    );
    this.store.grow(cap, this.count);
  }

  /**
   * Append grains with common mass properties; returns the first new slot.
   * @internal
   */
  protected appendGrains(
    name: string,
    init: GrainInit,
    props: {
      shape: number;
      mass: number;
      inertia: number;
      rmax: number;
      lever: number;
    },
  ): number {
    // Validate everything first, allocate second, commit last: a failed call changes nothing.
    const flat = flatten(name, init.positions);
    const n = flat.length / 2;
    const angles = perGrain(name, "angles", init.angles, n);
    const omegas = perGrain(name, "angularVelocities", init.angularVelocities, n);
    let vel: Float64Array | null = null;
    if (init.velocities !== undefined) {
      vel = flatten(name, init.velocities, "velocities");
      if (vel.length !== 2 * n) {
        throw new RangeError(
          `${name}: velocities (${vel.length / 2} pairs) must match positions (${n})`,
        );
      }
    }
    this.checkTimeStep(name, props.mass, props.inertia, props.lever);
    this.reserve(this.count + n);
    const first = this.count, st = this.store;
    for (let k = 0; k < n; k++) {
      const i = first + k;
      st.pos[2 * i] = flat[2 * k];
      st.pos[2 * i + 1] = flat[2 * k + 1];
      st.vel[2 * i] = vel ? vel[2 * k] : 0;
      st.vel[2 * i + 1] = vel ? vel[2 * k + 1] : 0;
      st.ang[i] = angles[k];
      st.omega[i] = omegas[k];
      st.mass[i] = props.mass;
      st.inertia[i] = props.inertia;
      st.rmax[i] = props.rmax;
      st.shape[i] = props.shape;
      st.ids[i] = st.nextId++;
    }
    this.count += n;
    const ds = this.detectionState;
    if (2 * props.rmax > ds.cell) ds.cell = 2 * props.rmax;
    this.guard.stale = true;
    return first;
  }

  /**
   * Throw a RangeError when the time step exceeds the stability bound of a contact between two
   * such grains: Δt ≤ (2/ω)·(√(1 + ζ²) − ζ) with ω = √(k/m_eff), ζ = cn / (2√(k·m_eff)),
   * m_eff = m* / 2 and m* = 1/(1/m + ℓ²/I) the effective grain mass at a lever arm ℓ from the
   * centre of mass (explicit integration of a damped spring).
   */
  checkTimeStep(name: string, mass: number, inertia: number, lever: number): void {
    const w = `${this.#name}.checkTimeStep`;
    positive(w, "mass", mass);
    positive(w, "inertia", inertia);
    nonNegative(w, "lever", lever);
    const b = stableTimeStep(this.kn, this.kt, this.cn, mass, inertia, lever);
    if (this.timeStep > b[0]) {
      throw new RangeError(unstableMessage(name, this.timeStep, b, this.cn, mass));
    }
  }

  /**
   * Take `steps` steps; `onStep(step, system)` runs after each and `progress: true` shows a
   * notebook bar or a terminal line — the same run loop as sphere3d's `World.run`.
   */
  run(steps: number, options?: RunOptions<this>): void {
    try {
      runSteps(`${this.#name}.run`, this, steps, options, () => this.step());
    } finally {
      // back to the caller: idle workers sleep rather than spin (`WorkerPool.park`)
      this.pool?.park();
    }
  }

  /** One explicit step, a table of contents of the stages. */
  step(): void {
    const prof = this.profile, pr = this.lastStepProfile;
    let t = prof ? performance.now() : 0;
    const t0 = t;
    this.detectionState.nodeTests = 0;
    this.detectionState.pairsInContact = 0;
    this.contacts.count = 0;
    this.prepare();
    this.rebuildGrid();
    this.findCandidates();
    if (prof) t = lap(pr, "neighbors", t, true);
    this.detectContacts();
    if (prof) t = lap(pr, "pairForces", t, true);
    this.detectWallContacts();
    if (prof) t = lap(pr, "boundaryForces", t, true);
    guardBeforeForces(this);
    this.computeForces();
    if (prof) t = lap(pr, "pairForces", t, false);
    this.integrate();
    this.walls.advance(this.timeStep);
    this.time += this.timeStep;
    if (prof) lap(pr, "integration", t, true);
    this.updateStats();
    if (prof) {
      pr.total = performance.now() - t0;
      addProfile(this.profileTotals, pr);
    }
  }

  /** Per-step geometry before detection (trig of angles, detection centres). */
  protected abstract prepare(): void;
  /** The centres (stride 2) that detection works from: centres of mass or polar centres. */
  protected abstract detectionCentres(): Float64Array;

  /** Sort detection centres into cells of the largest bounding diameter. */
  protected rebuildGrid(): void {
    // An empty system has no cell size yet (no grain gave one): any positive size will do.
    const ds = this.detectionState;
    ds.grid.build(this.detectionCentres(), this.count, ds.cell > 0 ? ds.cell : 1);
  }

  /** Grid pairs whose bounding circles intersect. */
  protected findCandidates(): void {
    // with threads, each searches a run of grid rows (the same pairs in the same order)
    const p = this.pool;
    // (only the systems with threads, stars and clumps, have a pool: both are ThreadedGrains)
    const sys = this as unknown as ThreadedGrains;
    const ds = this.detectionState, rmax = this.store.rmax;
    if (p !== null && p.findPairs(sys, ds.grid, rmax, 0, ds.pairs)) return;
    ds.grid.findPairs(this.detectionCentres(), rmax, 0, ds.pairs);
  }
  /** Grain–grain contacts into `contacts`, pairs oriented so that ids[i] < ids[j]. */
  protected abstract detectContacts(): void;
  /** Grain–wall contacts into `contacts`. */
  protected abstract detectWallContacts(): void;

  /**
   * Contact forces and torques with the shared laws; records the tangential history. The
   * normal n points from j (or the wall) towards i; the tangent is t = (n_y, −n_x).
   */
  protected computeForces(): void {
    // with threads, when they detected this step's contacts: the pair forces on the threads
    const p = this.pool;
    if (p !== null && p.forces(this as unknown as ThreadedGrains & GrainSystem2)) return;
    contactForces2(this);
  }

  /** Semi-implicit Euler: velocities from forces (plus gravity, rotational damping), then positions. */
  protected integrate(): void {
    integrateGrains2(this);
  }

  /** Fill `lastStepStats`; throws when the state became non-finite (naming the grain). */
  protected updateStats(): void {
    updateStepStats(this);
  }
}

/** The most grains of a system (the contact record's grain indices are 32-bit signed). */
const MAX_GRAINS = 2 ** 31 - 1;
/** Bytes of the per-grain columns, the most of any system (a star grain's). */
const GRAIN_COLUMN_BYTES = 9 * 8 + 2 * 8 + 4 + 2 + 4 * 8;

/** One value per grain from a number (for all) or an array of length n; all finite. */
function perGrain(
  name: string,
  what: string,
  v: number | ArrayLike<number> | undefined,
  n: number,
): Float64Array {
  const out = new Float64Array(n);
  if (v === undefined) return out;
  if (typeof v === "number") return out.fill(finite(name, what, v));
  if (v === null || typeof v !== "object" || typeof v.length !== "number") {
    throw new TypeError(`${name}: ${what} (${String(v)}) must be a number or an array`);
  }
  if (v.length !== n) {
    throw new RangeError(`${name}: ${what}.length (${v.length}) must equal the grain count ${n}`);
  }
  for (let k = 0; k < n; k++) out[k] = finite(name, `${what}[${k}]`, v[k]);
  return out;
}
