/**
 * The granular system: one object owning many spherical grains as structure-of-arrays
 * columns, stepped deterministically: on the calling thread, and with `threads` > 1 (the
 * system's {@link GranularSystem.threads} or the world's `threads` option) on worker threads as
 * well (`threads/`), stepping still synchronous and the bytes the same for any thread count.
 * This file holds the public, validated API; the state and the step live in `core.ts`. The
 * longer method bodies live beside it:
 * `granular_lifecycle.ts` (reserve, insertion, emission, removal), `granular_particles.ts`
 * (per-particle setters, materials, energies), `granular_boundaries.ts` (ground, container,
 * periodic cell) and `granular_state.ts` (checkpoints and tables).
 *
 * @module
 */

import { GranularThreads, MAX_THREADS } from "./threads/pool.ts";
import { GranularCore } from "./core.ts";
import { applyGranularState, type ParticleTableLike, type SaveStateOptions } from "./checkpoint.ts";
import { readFileForDecode } from "../math/container.ts";
import type { ContactRecord } from "../contact/record.ts";
import { type ProfileTotals, resetProfileTotals, type StepProfile } from "../contact/stats.ts";
import type { HistoryColumns } from "./history.ts";
import {
  type Material,
  type ParticleMaterial,
  resolveMaterial,
  resolveParticleMaterial,
} from "./material.ts";
import type { StepStats } from "./stats.ts";
import type { BodyLink } from "./core_types.ts";
import { checkDampedStep } from "./guard.ts";
import type { PoolSleepOptions } from "./bodies/sleep.ts";
import { integerIn, positive, requiredBool, vec3 } from "../math/validate.ts";
import type {
  EmitBoxOptions,
  EmitBoxRandomOptions,
  Energies,
  ParticleOptions,
  PeriodicAxes,
  Vec3,
} from "./options.ts";
import { MAX_PARTICLES } from "./options.ts";
import * as bounds from "./granular_boundaries.ts";
import * as grains from "./granular_particles.ts";
import * as life from "./granular_lifecycle.ts";
import * as state from "./granular_state.ts";

/**
 * The core behind each system, for the savers of this package (world XML, checkpoints) that
 * must read and restore state the public API does not expose. Internal: not re-exported.
 */
export const coreOf: WeakMap<GranularSystem, GranularCore> = new WeakMap();

/**
 * A discrete-element system of spherical grains. Create it with
 * `World.addGranularParticles` or `World.addGranularBox`. Particle methods take local
 * indices; removal moves the last particle into the removed index, so keep stable `ids`
 * rather than indices across removals.
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.021]], radii: 0.02 });
 * g.setGroundPlane(0);
 * // It lands after 14 ms and bounces a few times (restitution ≈ 0.65 with the default
 * // damping); after 0.15 s it rests on the ground, pressed in by its weight: δ = m·g/kn.
 * world.run(1500);
 * expect(g.lastStepStats.boundaryContacts).toBe(1);
 * const weight = g.masses[0] * 9.81; // 0.526 N
 * expect(g.lastStepStats.maxPenetration).toBeCloseTo(weight / g.material.normalStiffness, 9);
 * ```
 */
export class GranularSystem {
  /** A name for displays. */
  name = "granular";
  readonly #c: GranularCore;
  /** The worker threads of the step (the step context holds them too), or null. */
  #pool: GranularThreads | null = null;

  /** Use `World.addGranularParticles` / `World.addGranularBox`; `material` as there. */
  constructor(material: Partial<Material> = {}) {
    resolveMaterial(material, "GranularSystem");
    this.#c = new GranularCore(material);
    coreOf.set(this, this.#c);
  }

  // ---- columns -------------------------------------------------------------------------

  /** Number of particles. */
  get count(): number {
    return this.#c.ps.count;
  }
  /** Centres (m), a view of length `3·count`; re-read after insertion, removal or load. */
  get positions(): Float64Array {
    return this.#c.ps.pos.subarray(0, 3 * this.#c.ps.count);
  }
  /** Velocities (m/s), stride 3. */
  get velocities(): Float64Array {
    return this.#c.ps.vel.subarray(0, 3 * this.#c.ps.count);
  }
  /** Angular velocities (rad/s), stride 3. */
  get angularVelocities(): Float64Array {
    return this.#c.ps.ang.subarray(0, 3 * this.#c.ps.count);
  }
  /** Total force on each particle at the last evaluation (N), stride 3. */
  get forces(): Float64Array {
    return this.#c.ps.force.subarray(0, 3 * this.#c.ps.count);
  }
  /** Radii (m). */
  get radii(): Float64Array {
    return this.#c.ps.radius.subarray(0, this.#c.ps.count);
  }
  /** Masses (kg): density × 4/3·π·r³. */
  get masses(): Float64Array {
    return this.#c.ps.mass.subarray(0, this.#c.ps.count);
  }
  /** Material ids. */
  get materialIds(): Uint16Array {
    return this.#c.ps.materialId.subarray(0, this.#c.ps.count);
  }
  /** 1 for fixed particles, 0 for dynamic ones. */
  get fixed(): Uint8Array {
    return this.#c.ps.fixed.subarray(0, this.#c.ps.count);
  }
  /** Stable particle ids (never reused). */
  get ids(): Uint32Array {
    return this.#c.ps.id.subarray(0, this.#c.ps.count);
  }
  /** The global material (resolved, read-only copy). */
  get material(): Readonly<Material> {
    return { ...this.#c.material };
  }
  /** The boundary friction material. */
  get boundaryMaterial(): Required<ParticleMaterial> {
    return { ...this.#c.boundary };
  }
  /** Counters of the last step. */
  get lastStepStats(): Readonly<StepStats> {
    return this.#c.stats;
  }
  /**
   * The contacts of the last substep (the force network) in the shared contact record: the
   * normal points from `j` (or the boundary) towards `i`, forces act on `i`; ground contacts
   * have kind `ground`, container faces `wall`, with `j = -1` and the plane in `boundary`
   * (0 ground, 1 container floor, 2–5 the side walls). Within `world.run(n)` without `onStep`
   * only the last step records the grain–grain contacts (nobody can read the others; the
   * record of the wall and body contacts, the forces and the statistics are kept every step):
   * read them after the run, in `onStep`, or step with `world.step()`.
   */
  get contacts(): ContactRecord {
    return this.#c.contacts;
  }

  /**
   * Time the stages of every step (neighbour list, pair forces, boundary forces, integration,
   * total); read them in {@link GranularSystem.lastStepProfile}. Off the hot path when false.
   * @default false
   */
  get profile(): boolean {
    return this.#c.profile;
  }
  set profile(on: boolean) {
    const c = this.#c, was = c.profile;
    c.profile = requiredBool("GranularSystem", "profile", on);
    if (c.profile && !was) resetProfileTotals(c.profileTotals);
  }

  /** Stage times of the last step in ms (zeros unless {@link GranularSystem.profile} is on). */
  get lastStepProfile(): Readonly<StepProfile> {
    return this.#c.profileRecord;
  }

  /**
   * Stage times in ms summed over every step profiled since {@link GranularSystem.profile} was
   * switched on, and the number of those steps: a run's breakdown (`pairForces / steps` is the
   * pair stage's mean per step).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab";
   * import { expect } from "expect";
   * const world = new World({ timeStep: 1e-4 });
   * const g = world.addGranularBox({ min: [0, 0, 0], max: [0.1, 0.1, 0.1], radius: 0.01, spacing: 0.021 });
   * g.setGroundPlane(0);
   * world.profile = true;
   * world.run(20);
   * const t = g.profileTotals;
   * expect(t.steps).toBe(20);
   * expect(t.pairForces + t.integration).toBeLessThanOrEqual(t.total);
   * ```
   */
  get profileTotals(): Readonly<ProfileTotals> {
    return this.#c.profileTotals;
  }

  /**
   * Granular pool sleep: grains slower than `speedThreshold` (spin counted as ω·r) for
   * `quietSteps` steps in a row, farther than `wakeDistance` from every dynamic or kinematic
   * body, freeze (not integrated; pairs of two sleeping grains leave the neighbour list) until
   * a body comes that close, a moving awake grain touches them or the caller gives them a
   * velocity or an external load (grains under an external force or torque never sleep); they
   * hold awake grains like fixed grains. Options left out keep their last value;
   * `enabled: false` wakes every grain.
   * Off by default. The count is in `lastStepStats.sleepingParticles`.
   *
   * Unstable: may change without notice (pool sleep is the specification's approximation).
   *
   * @experimental
   * @throws {RangeError} naming the option: a non-positive speed, quiet steps outside
   *   1–65535, a negative wake distance
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = new World({ timeStep: 1e-4 });
   * const g = world.addGranularParticles({ positions: [[0, 0, 0.021]], radii: 0.02 });
   * g.setGroundPlane(0);
   * g.setPoolSleep();
   * world.run(2000); // it lands, comes to rest on the ground and falls asleep there
   * expect(g.lastStepStats.sleepingParticles).toBe(1);
   * expect(g.positions[2]).toBeLessThan(0.02);
   * expect(g.sleeping[0]).toBe(1);
   * g.setPoolSleep({ enabled: false });
   * expect(g.sleeping[0]).toBe(0);
   * ```
   */
  setPoolSleep(options: PoolSleepOptions = {}): void {
    const c = this.#c, sl = c.sleep;
    sl.reserve(c.ps.capacity);
    if (sl.configure(options) && sl.sleeping > 0) {
      sl.wakeAll(c.ps, c.material.density);
      c.invalidate();
    }
  }

  /** 1 for each sleeping grain (see {@link GranularSystem.setPoolSleep}): a view, read-only. */
  get sleeping(): Uint8Array {
    const c = this.#c;
    c.sleep.reserve(c.ps.capacity);
    return c.sleep.asleep.subarray(0, c.ps.count);
  }
  /**
   * The persistent tangential springs (contact histories) as columns, copied out.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const w = new World({ timeStep: 1e-4 });
   * const g = w.addGranularParticles({ positions: [[0, 0, 0.0199]], radii: 0.02 });
   * g.setGroundPlane(0);
   * w.step();
   * expect(g.contactHistories().owner).toHaveLength(1);
   * ```
   */
  contactHistories(): HistoryColumns {
    return this.#c.historyColumns();
  }

  // ---- checkpoints ---------------------------------------------------------------------

  /**
   * Save a checkpoint: the particle state (positions, velocities, spins, radii, material ids,
   * fixed flags, stable ids and the next id, external forces and torques), the global
   * material, the per-id particle materials, the boundary material, the system's clock and
   * neighbour skin, the step's caches (the forces of the current state and the neighbour
   * list's reference positions, so that a continued run is bit-identical) and, unless told
   * otherwise, the tangential contact histories. Boundaries (ground plane, container, periodic
   * cell) are not stored: re-apply them after loading. The file (format in
   * `docs/checkpoint.md`) is written atomically: a temporary file, flushed, then renamed.
   *
   * @param path destination file (missing folders are created)
   * @param options `includeContactHistories` (default true)
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = new World({ timeStep: 1e-4 });
   * const g = world.addGranularParticles({ positions: [[0, 0, 0.0199]], radii: 0.02 });
   * g.setGroundPlane(0);
   * world.run(10);
   * const path = `${Deno.makeTempDirSync()}/bed.bin`;
   * g.saveGranularState(path);
   * const copy = new World({ timeStep: 1e-4 }).loadGranularSystem(path);
   * expect(copy.positions).toEqual(g.positions);
   * expect(copy.contactHistories()).toEqual(g.contactHistories());
   * expect(copy.groundPlane).toBeNull(); // boundaries are not stored
   * ```
   */
  saveGranularState(path: string, options: SaveStateOptions = {}): void {
    state.saveGranularState(this.#c, path, options);
  }

  /**
   * The bytes {@link GranularSystem.saveGranularState} writes, for in-memory snapshots.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0], [1, 0, 0]], radii: 0.1 });
   * const snapshot = g.granularStateBytes();
   * g.setPosition(0, [5, 5, 5]);
   * g.loadGranularStateBytes(snapshot);
   * expect(g.getPosition(0)).toEqual([0, 0, 0]);
   * ```
   */
  granularStateBytes(options: SaveStateOptions = {}): Uint8Array {
    return state.granularStateBytes(this.#c, options);
  }

  /**
   * Replace this system's particles, materials, contact histories and clock with those of a
   * checkpoint written by {@link GranularSystem.saveGranularState}. Boundaries are kept as they
   * are (checkpoints do not store them); the step statistics and the contacts of the last step
   * are reset. If the boundaries (re-applied before or after loading) and the world's gravity
   * are those of the saved run, the next step reuses the saved forces and neighbour list and
   * the run continues bit for bit; otherwise the next step recomputes them.
   *
   * A missing, corrupt, truncated or future-version file throws
   * `loadGranularState: <path>: <what is wrong>` and leaves the system unchanged.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const path = `${Deno.makeTempDirSync()}/bed.bin`;
   * const world = new World();
   * const g = world.addGranularParticles({ positions: [[0, 0, 1]], radii: 0.05 });
   * g.saveGranularState(path);
   * const restored = world.addGranularSystem(); // no placeholder grain needed
   * restored.loadGranularState(path);
   * expect(restored.count).toBe(1);
   * Deno.writeFileSync(path, new Uint8Array(10));
   * expect(() => restored.loadGranularState(path)).toThrow(/^loadGranularState: .*bed.bin: /);
   * expect(restored.count).toBe(1);
   * ```
   */
  loadGranularState(path: string): void {
    const where = `loadGranularState: ${path}`;
    state.loadGranularState(this.#c, readFileForDecode(path, where), where);
  }

  /**
   * {@link GranularSystem.loadGranularState} from bytes (e.g. from
   * {@link GranularSystem.granularStateBytes}); `name` stands for the path in error messages.
   */
  loadGranularStateBytes(bytes: Uint8Array, name = "<bytes>"): void {
    state.loadGranularState(this.#c, bytes, `loadGranularState: ${name}`);
  }

  /**
   * Rebuild a granular system from an exported particles table (`particlesTable` of
   * `@grainlab/grainlab/arrow`, or any table with the same columns: `x`, `y`, `z`, `radius`,
   * and optionally `id`, `vx`…`vz`, `wx`…`wz`, `materialId`, `fixed`, `mass`) and add it to
   * `world`. The material is `material`, else the table's `grainlab.material` metadata, else
   * the defaults; a `mass` column must agree with its density. Every material id gets the
   * global friction; stable ids are kept. A table holds no contact histories, forces or
   * boundaries: the restored run starts its springs at zero.
   *
   * @param world the world to add the system to
   * @param table the particles table (read through `getChild(name).toArray()`)
   * @param material the material; overrides the table's metadata
   * @example
   * ```ts
   * import { GranularSystem, World } from "@grainlab/grainlab/sphere3d";
   * import { particlesTable } from "@grainlab/grainlab/arrow";
   * import { expect } from "expect";
   * const world = new World();
   * const g = world.addGranularParticles(
   *   { positions: [[0, 0, 0], [1, 0, 0]], radii: 0.1, velocities: [[1, 2, 3], [0, 0, 0]] },
   *   { friction: 0.7 },
   * );
   * const back = GranularSystem.fromTable(world, particlesTable(g));
   * expect(back.positions).toEqual(g.positions);
   * expect(back.velocities).toEqual(g.velocities);
   * expect(back.material.friction).toBe(0.7); // from the table's metadata
   * expect(world.systems).toHaveLength(2);
   * ```
   */
  static fromTable(
    world: { addGranularSystem(material?: Partial<Material>): GranularSystem },
    table: ParticleTableLike,
    material?: Partial<Material>,
  ): GranularSystem {
    const where = "GranularSystem.fromTable";
    const s = state.stateOfTable(where, table, material); // checked before the world changes
    const sys = world.addGranularSystem(s.material);
    applyGranularState(sys.#c, s, where);
    return sys;
  }

  /**
   * Neighbour-list skin (m): candidate pairs are found on the cell grid within
   * `r_i + r_j + skin` and reused until some particle has moved more than `skin / 2`, when the
   * grid is rebuilt. 0 rebuilds the grid every substep. Set a number, or `"auto"` for
   * 0.1 × the largest radius. @default "auto"
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.02 });
   * expect(g.neighborSkin).toBeCloseTo(0.002, 15);
   * g.neighborSkin = 0;
   * expect(g.neighborSkin).toBe(0);
   * ```
   */
  get neighborSkin(): number {
    return this.#c.neighborSkin;
  }
  set neighborSkin(skin: number | "auto") {
    this.#c.neighborSkin = skin;
  }

  /**
   * Reorder the particle slots into the cell order of the neighbour grid at rebuilds, so that
   * grains that touch sit close in memory (LAMMPS's `atom_modify sort`): on beds of tens of
   * thousands of grains it saves cache misses in every loop of the step. A rebuild reorders
   * when more than an eighth of the slots are out of cell order; systems below 1,024 grains
   * are never reordered. Stable ids, contact histories, external loads and sleep states follow
   * their grains, but **slot indices change** (as they do on removal): find a grain by its id
   * with {@link indexOfId}, or turn this off to keep insertion order. Results stay
   * deterministic (the decision depends on the state alone) and checkpoints keep the setting.
   * @default true
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const w = new World({ timeStep: 1e-4 });
   * const positions: number[][] = [];
   * // 2,000 grains listed in reverse cell order
   * for (let k = 1999; k >= 0; k--) positions.push([0.05 * (k % 20), 0.05 * Math.floor(k / 20), 0]);
   * const g = w.addGranularParticles({ positions, radii: 0.02 });
   * const id = g.ids[0];
   * w.step();
   * expect(g.ids[0]).not.toBe(id); // reordered
   * expect(g.positions[3 * g.indexOfId(id)]).toBeCloseTo(0.95, 12); // found by id
   * g.spatialSort = false; // keep the order from now on
   * ```
   */
  get spatialSort(): boolean {
    return this.#c.spatialSort;
  }
  set spatialSort(on: boolean) {
    this.#c.spatialSort = requiredBool("GranularSystem", "spatialSort", on);
  }

  /**
   * Threads that share this system's step: the pair loop, the per-particle force sums and the
   * integration run on `threads − 1` worker threads beside the calling one, over
   * SharedArrayBuffer columns. Stepping stays synchronous (`run`, `step` return when the step
   * is done) and the results are the **same bytes for any thread count**: each pair's forces
   * are computed once, each grain sums its pairs in list order (the single-threaded order) and
   * energies are summed over fixed blocks. Pays off from about ten thousand grains (each phase
   * costs a few microseconds of synchronisation). The workers never keep a finished program
   * alive; set 1 (or `world.close()`) to stop them earlier. Needs read permission for the
   * worker module. Set it on the World to apply it to every system. @default 1
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const run = (threads: number) => {
   *   const w = new World({ timeStep: 1e-4 });
   *   const g = w.addGranularBox({ min: [0, 0, 0], max: [0.2, 0.2, 0.2], radius: 0.01, spacing: 0.021 });
   *   g.setGroundPlane(0);
   *   g.threads = threads;
   *   w.run(50);
   *   g.threads = 1;
   *   return g.positions.slice();
   * };
   * expect(run(2)).toEqual(run(1)); // the same bytes
   * ```
   */
  get threads(): number {
    return this.#pool?.threads ?? 1;
  }
  set threads(n: number) {
    const t = integerIn("threads", "value", n, 1, MAX_THREADS);
    if (t === this.threads) return;
    this.#pool?.close();
    this.#pool = t > 1 ? new GranularThreads(t) : null;
    this.#c.ctx.pool = this.#pool;
  }

  /**
   * @internal For `World.run`: idle worker threads sleep rather than spin until the next step
   * (`WorkerPool.park`); nothing without threads.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01 });
   * g.parkThreads();
   * expect(g.threads).toBe(1);
   * ```
   */
  parkThreads(): void {
    this.#pool?.park();
  }

  /**
   * @internal For `World.run`: write the particle pairs' contacts at the coming steps (false
   * on steps whose contacts nobody reads; forces, springs and statistics are the same bytes).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const w = new World({ timeStep: 1e-5, gravity: [0, 0, 0] });
   * const g = w.addGranularParticles({ positions: [[0, 0, 0], [0, 0, 0.0195]], radii: 0.01 });
   * g.recordPairContacts(false);
   * w.step();
   * expect(g.lastStepStats.particleContacts).toBe(1); // counted, not recorded
   * expect(g.contacts.count).toBe(0);
   * ```
   */
  recordPairContacts(on: boolean): void {
    this.#c.recordPairs = on;
  }

  /**
   * @internal For `World.step`: refuse, before anything moves, a damping that a step of `dt`
   * seconds (in `material.substeps` substeps) cannot integrate.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01 });
   * expect(() => g.checkStep(1e-5)).not.toThrow();
   * ```
   */
  checkStep(dt: number): void {
    checkDampedStep(this.#c, dt / this.#c.material.substeps);
  }

  /**
   * @internal For `World.step` with rigid bodies: the world's bodies `link` (its body set and
   * this system's loads); the state is stale when the link is new or `changed` (bodies added,
   * removed or moved by hand since the last step).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create({ timeStep: 1e-5, gravity: [0, 0, 0] });
   * world.addSphere({ radius: 0.05, position: [0, 0, 0], bodyType: "static" });
   * const g = world.addGranularParticles({ positions: [[0, 0, 0.0595]], radii: 0.01 });
   * world.step(); // links the bodies through linkBodies
   * expect(g.lastStepStats.rigidContacts).toBe(1);
   * ```
   */
  linkBodies(link: BodyLink, changed: boolean): void {
    const c = this.#c;
    if (c.bodies === null || c.bodies.loads !== link.loads || c.bodies.set !== link.set) {
      c.bodies = link;
      c.invalidate();
    }
    if (changed) c.invalidate();
  }

  /** Number of slot reorderings (see {@link spatialSort}) since creation. */
  get spatialSorts(): number {
    return this.#c.sorts;
  }

  /** Number of neighbour-list rebuilds (cell-grid searches) since creation. */
  get neighborRebuilds(): number {
    return this.#c.rebuilds;
  }

  /**
   * Advance by `dt` seconds under `gravity` in `material.substeps` substeps (velocity
   * Verlet). Called by `World.step`; call it directly only for a system outside a world.
   */
  step(dt: number, gravity: ArrayLike<number>): void {
    // checked without allocating (this runs every world step); the helpers only build the error
    if (!(typeof dt === "number" && dt > 0 && dt < Infinity)) {
      positive("GranularSystem.step", "dt", dt);
    }
    if (
      !(gravity !== null && typeof gravity === "object" && gravity.length === 3 &&
        Number.isFinite(gravity[0]) && Number.isFinite(gravity[1]) && Number.isFinite(gravity[2]))
    ) vec3("GranularSystem.step", "gravity", gravity);
    this.#c.step(dt, gravity);
  }

  /** Steps taken by this system. */
  get stepCount(): number {
    return this.#c.stepCount;
  }

  // ---- particles -----------------------------------------------------------------------

  /** Reserve room for `capacity` particles so that later emission does not reallocate. */
  reserveParticles(capacity: number): void {
    const n = integerIn("reserveParticles", "capacity", capacity, 0, MAX_PARTICLES);
    life.reserveParticles(this.#c, "reserveParticles", n);
  }

  /**
   * Add one particle and return its local index.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01 });
   * const i = g.addParticle({ position: [0, 0, 0.1], radius: 0.02, velocity: [0, 0, -0.1] });
   * expect(i).toBe(1);
   * expect(g.count).toBe(2);
   * ```
   */
  addParticle(options: ParticleOptions): number {
    return life.addParticle(this.#c, options);
  }

  /**
   * Emit a regular grid of equal spheres inside a box; returns the number emitted.
   * `maxParticles: 0` emits none.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, -1]], radii: 0.01 });
   * const n = g.emitBox({ min: [0, 0, 0], max: [0.1, 0.1, 0.1], radius: 0.01, spacing: 0.025, maxParticles: 10 });
   * expect(n).toBe(10);
   * expect(g.count).toBe(11);
   * ```
   */
  emitBox(options: EmitBoxOptions): number {
    return life.emitBox(this.#c, options);
  }

  /**
   * Emit a deterministic jittered grid with seeded radii in `[minRadius, maxRadius]`;
   * returns the number emitted. Requires `spacing ≥ 2·maxRadius`.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, -1]], radii: 0.01 });
   * const n = g.emitBoxRandom({ min: [0, 0, 0], max: [0.2, 0.2, 0.2], minRadius: 0.01,
   *   maxRadius: 0.015, spacing: 0.04, maxParticles: 20, seed: 1234 });
   * expect(n).toBe(20);
   * ```
   */
  emitBoxRandom(options: EmitBoxRandomOptions): number {
    return life.emitBoxRandom(this.#c, options);
  }

  /**
   * Remove particle `index`; the last particle moves into its index.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0], [1, 0, 0], [2, 0, 0]], radii: 0.1 });
   * g.removeParticle(0);
   * expect(g.count).toBe(2);
   * expect(g.positions[0]).toBe(2);
   * expect(g.ids[0]).toBe(2);
   * ```
   */
  removeParticle(index: number): void {
    life.removeParticle(this.#c, index);
  }

  /**
   * Remove every particle whose centre is below `z` (m); returns how many.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, -1], [0, 0, 1]], radii: 0.1 });
   * expect(g.removeParticlesBelowZ(0)).toBe(1);
   * expect(g.count).toBe(1);
   * ```
   */
  removeParticlesBelowZ(z: number): number {
    return life.removeParticlesBelowZ(this.#c, z);
  }

  /**
   * Remove every particle whose centre lies in the closed box `[min, max]`; returns how many.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0], [1, 1, 1]], radii: 0.1 });
   * expect(g.removeParticlesInBox([-0.5, -0.5, -0.5], [0.5, 0.5, 0.5])).toBe(1);
   * ```
   */
  removeParticlesInBox(min: Vec3, max: Vec3): number {
    return life.removeParticlesInBox(this.#c, min, max);
  }

  /** Local index of the particle with stable id `id`, or -1 if it no longer exists. */
  indexOfId(id: number): number {
    return Number.isInteger(id) && id >= 0 && id < this.#c.nextId ? this.#c.slotOfId[id] : -1;
  }

  // ---- per-particle state ----------------------------------------------------------------

  /** Set a particle's velocity (m/s); ignored for fixed particles. */
  setVelocity(index: number, velocity: Vec3): void {
    grains.setVelocity(this.#c, index, velocity);
  }

  /** Set a particle's angular velocity (rad/s); ignored for fixed particles. */
  setAngularVelocity(index: number, angularVelocity: Vec3): void {
    grains.setAngularVelocity(this.#c, index, angularVelocity);
  }

  /** Move a particle's centre (m). */
  setPosition(index: number, position: Vec3): void {
    grains.setPosition(this.#c, index, position);
  }

  /** Toggle a particle between dynamic and fixed; fixing zeroes its velocities and forces. */
  setParticleFixed(index: number, fixed: boolean): void {
    grains.setParticleFixed(this.#c, index, fixed);
  }

  /** Apply an external force (N) at a particle's centre until cleared; ignored if fixed. */
  setExternalForce(index: number, force: Vec3): void {
    grains.setExternalForce(this.#c, index, force);
  }

  /** Apply an external torque (N·m) until cleared; ignored if fixed. */
  setExternalTorque(index: number, torque: Vec3): void {
    grains.setExternalTorque(this.#c, index, torque);
  }

  /** Remove every external force and torque. */
  clearExternalForcesAndTorques(): void {
    this.#c.ps.extForce.fill(0);
    this.#c.ps.extTorque.fill(0);
    this.#c.invalidate();
  }

  /** Mass of a particle (kg). */
  getMass(index: number): number {
    this.#c.index("getMass", index);
    return this.#c.ps.mass[index];
  }

  /** `"static"` for fixed particles, `"dynamic"` otherwise. */
  getBodyType(index: number): "static" | "dynamic" {
    this.#c.index("getBodyType", index);
    return this.#c.ps.fixed[index] ? "static" : "dynamic";
  }

  /** A particle's centre as `[x, y, z]` (m). */
  getPosition(index: number): [number, number, number] {
    this.#c.index("getPosition", index);
    const p = this.#c.ps.pos, o = 3 * index;
    return [p[o], p[o + 1], p[o + 2]];
  }

  /** A particle's velocity as `[vx, vy, vz]` (m/s). */
  getVelocity(index: number): [number, number, number] {
    this.#c.index("getVelocity", index);
    const v = this.#c.ps.vel, o = 3 * index;
    return [v[o], v[o + 1], v[o + 2]];
  }

  // ---- materials -----------------------------------------------------------------------

  /**
   * Define the friction parameters of material id `id`. Undefined ids below it take the
   * global friction values.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01 });
   * g.setParticleMaterial(1, { friction: 0.9, rollingFriction: 0.03 });
   * g.setParticleMaterialId(0, 1);
   * expect(g.getParticleMaterial(1).friction).toBe(0.9);
   * expect(g.materialIds[0]).toBe(1);
   * ```
   */
  setParticleMaterial(id: number, material: ParticleMaterial): void {
    grains.setParticleMaterial(this.#c, id, material);
  }

  /** The friction parameters used for material id `id`. */
  getParticleMaterial(id: number): Required<ParticleMaterial> {
    return grains.getParticleMaterial(this.#c, id);
  }

  /** Assign material id `id` to particle `index`. */
  setParticleMaterialId(index: number, id: number): void {
    grains.setParticleMaterialId(this.#c, index, id);
  }

  /** Set the boundary material mixed (geometric mean) with particle materials at boundaries. */
  setBoundaryMaterial(material: ParticleMaterial): void {
    this.#c.boundary = resolveParticleMaterial(material, "setBoundaryMaterial");
    this.#c.materialsChanged();
  }

  // ---- boundaries ----------------------------------------------------------------------

  /**
   * A horizontal ground plane `z = height` seen only by these particles.
   *
   * @param options `enabled: false` disables it.
   */
  setGroundPlane(height: number, options: { enabled?: boolean } = {}): void {
    bounds.setGroundPlane(this.#c, height, options);
  }

  /** Remove the ground plane. */
  disableGroundPlane(): void {
    this.#c.ground = null;
    this.#c.rebuildPlanes();
  }

  /** The ground plane height, or null when disabled. */
  get groundPlane(): number | null {
    return this.#c.ground;
  }

  /**
   * Confine the particles to an open-top box (four side walls and a floor).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.01 });
   * g.setContainerBox([-0.5, -0.5, 0], [0.5, 0.5, 0.4]);
   * expect(g.containerBox).not.toBeNull();
   * ```
   */
  setContainerBox(min: Vec3, max: Vec3, options: { enabled?: boolean } = {}): void {
    bounds.setContainerBox(this.#c, min, max, options);
  }

  /** Remove the container box. */
  disableContainerBox(): void {
    this.#c.container = null;
    this.#c.rebuildPlanes();
  }

  /** The container corners, or null when disabled. */
  get containerBox(): { min: number[]; max: number[] } | null {
    return bounds.containerBoxOf(this.#c);
  }

  /**
   * Wrap particle centres along the enabled axes of the cell `[min, max]` after integration;
   * contacts across the faces use the minimum image. A wrapped axis must be at least three
   * interaction cells (≈ 3 particle diameters) long.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0.5, 0.5, 0.5]], radii: 0.01 });
   * g.setPeriodicBoundary([0, 0, 0], [1, 1, 1], { x: true, y: true });
   * expect(g.periodicBoundary).toMatchObject({ x: true, y: true, z: false });
   * ```
   */
  setPeriodicBoundary(min: Vec3, max: Vec3, axes: PeriodicAxes): void {
    bounds.setPeriodicBoundary(this.#c, min, max, axes);
  }

  /** Disable the periodic boundary on all axes. */
  disablePeriodicBoundary(): void {
    this.#c.periodic = null;
    this.#c.boundariesChanged();
  }

  /** The periodic cell, or null when disabled. */
  get periodicBoundary():
    | { min: number[]; max: number[]; x: boolean; y: boolean; z: boolean }
    | null {
    return bounds.periodicBoundaryOf(this.#c);
  }

  // ---- energies ------------------------------------------------------------------------

  /**
   * Kinetic, rotational and gravitational energies (J) under the gravity of the last step.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01, velocities: [[1, 0, 0]] });
   * const e = g.energy();
   * expect(e.kinetic).toBeCloseTo(0.5 * g.masses[0], 15);
   * ```
   */
  energy(): Energies {
    return grains.energy(this.#c);
  }
}
