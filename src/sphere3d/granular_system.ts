/**
 * The granular system: one object owning many spherical grains as structure-of-arrays
 * columns, stepped deterministically on one thread.
 *
 * @module
 */
import { CellGrid3, type GridAxisPeriod, PairList } from "../math/grid.ts";
import { ContactColumns, ContactKind } from "./contacts.ts";
import {
  applyRolling,
  type ForceParams,
  type FrictionTables,
  pairForces,
  planeForces,
  PlaneSet,
} from "./forces.ts";
import { type HistoryColumns, HistoryTable } from "./history.ts";
import {
  type Material,
  type ParticleMaterial,
  resolveMaterial,
  resolveParticleMaterial,
} from "./material.ts";
import { ParticleStore } from "./particles.ts";
import { emptyStats, type StepStats } from "./stats.ts";
import { bool, corners, finite, integerIn, nonNegative, positive, vec3 } from "./validate.ts";
import { jitteredPacking, regularPacking } from "./emit.ts";

/** A 3-vector given by the user: `[x, y, z]` or any array-like of three numbers. */
export type Vec3 = ArrayLike<number>;

/** Options of {@link GranularSystem.addParticle}. */
export interface ParticleOptions {
  /** Centre in the world frame (m). */
  position: Vec3;
  /** Radius (m), > 0. */
  radius: number;
  /** Initial velocity (m/s). @default [0, 0, 0] */
  velocity?: Vec3;
  /** Initial angular velocity (rad/s). @default [0, 0, 0] */
  angularVelocity?: Vec3;
  /** Material id in [0, 65535]. @default 0 */
  materialId?: number;
  /** Create a fixed (static) particle. @default false */
  fixed?: boolean;
}

/** Options shared by the emitters. */
export interface EmitCommon {
  /** Minimum box corner (m). */
  min: Vec3;
  /** Maximum box corner (m); above `min` on every axis. */
  max: Vec3;
  /** Grid spacing between centres (m), > 0. */
  spacing: number;
  /** Most particles this call emits; 0 emits none. */
  maxParticles: number;
  /** Initial velocity (m/s). @default [0, 0, 0] */
  velocity?: Vec3;
  /** Initial angular velocity (rad/s). @default [0, 0, 0] */
  angularVelocity?: Vec3;
  /** Material id. @default 0 */
  materialId?: number;
  /** Emit fixed particles. @default false */
  fixed?: boolean;
}

/** Options of {@link GranularSystem.emitBox}: a regular grid of equal spheres. */
export interface EmitBoxOptions extends EmitCommon {
  /** Particle radius (m), > 0. */
  radius: number;
}

/** Options of {@link GranularSystem.emitBoxRandom}: a seeded jittered grid. */
export interface EmitBoxRandomOptions extends EmitCommon {
  /** Smallest radius (m), > 0. */
  minRadius: number;
  /** Largest radius (m), ≥ minRadius; spacing must be ≥ 2·maxRadius. */
  maxRadius: number;
  /** Random seed: the same seed and options give the same particles. */
  seed: number | bigint;
}

/** Which axes a periodic boundary wraps. */
export interface PeriodicAxes {
  /** Wrap along x. @default false */
  x?: boolean;
  /** Wrap along y. @default false */
  y?: boolean;
  /** Wrap along z. @default false */
  z?: boolean;
}

/** Body type of a particle: fixed particles are static. */
export type BodyType = "static" | "dynamic";

/** Energies of a system (J). */
export interface Energies {
  /** Translational kinetic energy Σ ½mv². */
  kinetic: number;
  /** Rotational kinetic energy Σ ½Iω². */
  rotational: number;
  /** Gravitational potential energy −Σ m g·x (zero at the origin). */
  potential: number;
}

const MAX_MATERIAL_ID = 65535;

/**
 * A discrete-element system of spherical grains. Create it with
 * `World.addGranularParticles` or `World.addGranularBox`. Particle methods take local
 * indices; removal moves the last particle into the removed index, so keep stable `ids`
 * rather than indices across removals.
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.021]], radii: 0.02 });
 * g.setGroundPlane(0);
 * world.run(200);
 * console.assert(g.lastStepStats.boundaryContacts === 1);
 * ```
 */
export class GranularSystem {
  /** A name for displays. */
  name = "granular";
  readonly #ps = new ParticleStore();
  readonly #hist = new HistoryTable();
  readonly #grid = new CellGrid3();
  readonly #pairs = new PairList();
  readonly #planes = new PlaneSet();
  readonly #contacts = new ContactColumns();
  readonly #material: Material;
  readonly #tables: FrictionTables;
  #tableSize = 1;
  #boundary = { friction: 0, rollingFriction: 0 };
  #ground: number | null = null;
  #container: [[number, number, number], [number, number, number]] | null = null;
  #periodic: [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod] | null = null;
  #stats: StepStats = emptyStats();
  #pending = { emitted: 0, removed: 0 };
  #nextId = 0;
  #slotOfId = new Int32Array(64).fill(-1);
  #stamp = 0;
  #forcesValid = false;
  #needRebuild = true;
  #skin = -1;
  #refPos = new Float64Array(0);
  #gravity: [number, number, number] = [0, 0, 0];
  #uniformRadius = 0;
  #maxRadius = 0;
  #stepCount = 0;
  readonly #params: ForceParams = {
    kn: 0,
    cn: 0,
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
  };

  /** @internal Use `World.addGranularParticles` / `World.addGranularBox`. */
  constructor(material: Partial<Material> = {}) {
    this.#material = resolveMaterial(material);
    const m = this.#material;
    this.#tables = {
      friction: new Float64Array([m.friction]),
      rolling: new Float64Array([m.rollingFriction]),
    };
    this.#boundary = { friction: m.friction, rollingFriction: m.rollingFriction };
  }

  // ---- columns -------------------------------------------------------------------------

  /** Number of particles. */
  get count(): number {
    return this.#ps.count;
  }
  /** Centres (m), a view of length `3·count`; re-read after insertion, removal or load. */
  get positions(): Float64Array {
    return this.#ps.pos.subarray(0, 3 * this.#ps.count);
  }
  /** Velocities (m/s), stride 3. */
  get velocities(): Float64Array {
    return this.#ps.vel.subarray(0, 3 * this.#ps.count);
  }
  /** Angular velocities (rad/s), stride 3. */
  get angularVelocities(): Float64Array {
    return this.#ps.ang.subarray(0, 3 * this.#ps.count);
  }
  /** Total force on each particle at the last evaluation (N), stride 3. */
  get forces(): Float64Array {
    return this.#ps.force.subarray(0, 3 * this.#ps.count);
  }
  /** Radii (m). */
  get radii(): Float64Array {
    return this.#ps.radius.subarray(0, this.#ps.count);
  }
  /** Masses (kg): density × 4/3·π·r³. */
  get masses(): Float64Array {
    return this.#ps.mass.subarray(0, this.#ps.count);
  }
  /** Material ids. */
  get materialIds(): Uint16Array {
    return this.#ps.materialId.subarray(0, this.#ps.count);
  }
  /** 1 for fixed particles, 0 for dynamic ones. */
  get fixed(): Uint8Array {
    return this.#ps.fixed.subarray(0, this.#ps.count);
  }
  /** Stable particle ids (never reused). */
  get ids(): Uint32Array {
    return this.#ps.id.subarray(0, this.#ps.count);
  }
  /** The global material (resolved, read-only copy). */
  get material(): Readonly<Material> {
    return { ...this.#material };
  }
  /** The boundary friction material. */
  get boundaryMaterial(): Required<ParticleMaterial> {
    return { ...this.#boundary };
  }
  /** Counters of the last step. */
  get lastStepStats(): Readonly<StepStats> {
    return this.#stats;
  }
  /** The contacts of the last step (the force network), as columns. */
  get contacts(): ContactColumns {
    return this.#contacts;
  }
  /**
   * The persistent tangential springs (contact histories) as columns, copied out.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const w = new World({ timeStep: 1e-4 });
   * const g = w.addGranularParticles({ positions: [[0, 0, 0.0199]], radii: 0.02 });
   * g.setGroundPlane(0);
   * w.step();
   * console.assert(g.contactHistories().owner.length === 1);
   * ```
   */
  contactHistories(): HistoryColumns {
    return this.#hist.columns(this.#ps.count, this.#ps.id);
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
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.02 });
   * console.assert(Math.abs(g.neighborSkin - 0.002) < 1e-15);
   * g.neighborSkin = 0;
   * console.assert(g.neighborSkin === 0);
   * ```
   */
  get neighborSkin(): number {
    return this.#skin >= 0 ? this.#skin : 0.1 * this.#maxRadius;
  }
  set neighborSkin(skin: number | "auto") {
    this.#skin = skin === "auto" ? -1 : nonNegative("neighborSkin", "skin", skin);
    this.#invalidate();
  }

  /** Steps taken by this system. */
  get stepCount(): number {
    return this.#stepCount;
  }

  // ---- particles -----------------------------------------------------------------------

  /** Reserve room for `capacity` particles so that later emission does not reallocate. */
  reserveParticles(capacity: number): void {
    integerIn("reserveParticles", "capacity", capacity, 0, 2 ** 31 - 1);
    this.#reserve(capacity);
  }

  /**
   * Add one particle and return its local index.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01 });
   * const i = g.addParticle({ position: [0, 0, 0.1], radius: 0.02, velocity: [0, 0, -0.1] });
   * console.assert(i === 1 && g.count === 2);
   * ```
   */
  addParticle(options: ParticleOptions): number {
    const w = "addParticle";
    if (options === null || typeof options !== "object") {
      throw new TypeError(`${w}: options (${String(options)}) must be an object`);
    }
    const p = vec3(w, "position", options.position);
    const r = positive(w, "radius", options.radius);
    const v = options.velocity === undefined ? [0, 0, 0] : vec3(w, "velocity", options.velocity);
    const a = options.angularVelocity === undefined
      ? [0, 0, 0]
      : vec3(w, "angularVelocity", options.angularVelocity);
    const mid = integerIn(w, "materialId", options.materialId ?? 0, 0, MAX_MATERIAL_ID);
    const fx = bool(w, "fixed", options.fixed, false);
    this.#reserve(this.#ps.count + 1);
    return this.#append(p[0], p[1], p[2], r, v, a, mid, fx);
  }

  /**
   * Emit a regular grid of equal spheres inside a box; returns the number emitted.
   * `maxParticles: 0` emits none.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0, 0, -1]], radii: 0.01 });
   * const n = g.emitBox({ min: [0, 0, 0], max: [0.1, 0.1, 0.1], radius: 0.01, spacing: 0.025, maxParticles: 10 });
   * console.assert(n === 10 && g.count === 11);
   * ```
   */
  emitBox(options: EmitBoxOptions): number {
    const w = "emitBox";
    const c = this.#emitCommon(w, options);
    const r = positive(w, "radius", options.radius);
    if (c.max === 0) return 0;
    const centres = regularPacking(c.lo, c.hi, r, c.spacing, c.max);
    const n = centres.length / 3;
    this.#reserve(this.#ps.count + n);
    for (let k = 0; k < n; k++) {
      this.#append(
        centres[3 * k],
        centres[3 * k + 1],
        centres[3 * k + 2],
        r,
        c.v,
        c.a,
        c.mid,
        c.fx,
      );
    }
    this.#pending.emitted += n;
    return n;
  }

  /**
   * Emit a deterministic jittered grid with seeded radii in `[minRadius, maxRadius]`;
   * returns the number emitted. Requires `spacing ≥ 2·maxRadius`.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0, 0, -1]], radii: 0.01 });
   * const n = g.emitBoxRandom({ min: [0, 0, 0], max: [0.2, 0.2, 0.2], minRadius: 0.01,
   *   maxRadius: 0.015, spacing: 0.04, maxParticles: 20, seed: 1234 });
   * console.assert(n === 20);
   * ```
   */
  emitBoxRandom(options: EmitBoxRandomOptions): number {
    const w = "emitBoxRandom";
    const c = this.#emitCommon(w, options);
    const r0 = positive(w, "minRadius", options.minRadius);
    const r1 = positive(w, "maxRadius", options.maxRadius);
    if (r1 < r0) throw new RangeError(`${w}: maxRadius (${r1}) must be >= minRadius (${r0})`);
    if (c.spacing < 2 * r1) {
      throw new RangeError(
        `Cannot emit particles: spacing (${c.spacing}) must be >= 2 * maxRadius (${2 * r1})`,
      );
    }
    const seed = options.seed;
    if (typeof seed !== "bigint") finite(w, "seed", seed);
    if (c.max === 0) return 0;
    const { positions, radii } = jitteredPacking(c.lo, c.hi, r0, r1, c.spacing, c.max, seed);
    const n = radii.length;
    this.#reserve(this.#ps.count + n);
    for (let k = 0; k < n; k++) {
      this.#append(
        positions[3 * k],
        positions[3 * k + 1],
        positions[3 * k + 2],
        radii[k],
        c.v,
        c.a,
        c.mid,
        c.fx,
      );
    }
    this.#pending.emitted += n;
    return n;
  }

  /**
   * Remove particle `index`; the last particle moves into its index.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0], [1, 0, 0], [2, 0, 0]], radii: 0.1 });
   * g.removeParticle(0);
   * console.assert(g.count === 2 && g.positions[0] === 2 && g.ids[0] === 2);
   * ```
   */
  removeParticle(index: number): void {
    this.#index("removeParticle", index);
    const dead = this.#ps.id[index];
    this.#removeSlot(index);
    this.#hist.dropPartners(this.#ps.count, (id) => id === dead);
  }

  /**
   * Remove every particle whose centre is below `z` (m); returns how many.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0, 0, -1], [0, 0, 1]], radii: 0.1 });
   * console.assert(g.removeParticlesBelowZ(0) === 1 && g.count === 1);
   * ```
   */
  removeParticlesBelowZ(z: number): number {
    finite("removeParticlesBelowZ", "z", z);
    const pos = this.#ps.pos;
    return this.#removeWhere((i) => pos[3 * i + 2] < z);
  }

  /**
   * Remove every particle whose centre lies in the closed box `[min, max]`; returns how many.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0], [1, 1, 1]], radii: 0.1 });
   * console.assert(g.removeParticlesInBox([-0.5, -0.5, -0.5], [0.5, 0.5, 0.5]) === 1);
   * ```
   */
  removeParticlesInBox(min: Vec3, max: Vec3): number {
    const [lo, hi] = corners("removeParticlesInBox", min, max);
    const pos = this.#ps.pos;
    return this.#removeWhere((i) => {
      const o = 3 * i;
      return pos[o] >= lo[0] && pos[o] <= hi[0] && pos[o + 1] >= lo[1] && pos[o + 1] <= hi[1] &&
        pos[o + 2] >= lo[2] && pos[o + 2] <= hi[2];
    });
  }

  /** Local index of the particle with stable id `id`, or -1 if it no longer exists. */
  indexOfId(id: number): number {
    return Number.isInteger(id) && id >= 0 && id < this.#nextId ? this.#slotOfId[id] : -1;
  }

  // ---- per-particle state ----------------------------------------------------------------

  /** Set a particle's velocity (m/s); ignored for fixed particles. */
  setVelocity(index: number, velocity: Vec3): void {
    this.#index("setVelocity", index);
    const v = vec3("setVelocity", "velocity", velocity);
    if (this.#ps.fixed[index]) return;
    this.#ps.vel.set(v, 3 * index);
  }

  /** Set a particle's angular velocity (rad/s); ignored for fixed particles. */
  setAngularVelocity(index: number, angularVelocity: Vec3): void {
    this.#index("setAngularVelocity", index);
    const v = vec3("setAngularVelocity", "angularVelocity", angularVelocity);
    if (this.#ps.fixed[index]) return;
    this.#ps.ang.set(v, 3 * index);
  }

  /** Move a particle's centre (m). */
  setPosition(index: number, position: Vec3): void {
    this.#index("setPosition", index);
    this.#ps.pos.set(vec3("setPosition", "position", position), 3 * index);
    this.#invalidate();
  }

  /** Toggle a particle between dynamic and fixed; fixing zeroes its velocities and forces. */
  setParticleFixed(index: number, fixed: boolean): void {
    this.#index("setParticleFixed", index);
    const f = bool("setParticleFixed", "fixed", fixed, false);
    const ps = this.#ps;
    ps.fixed[index] = f ? 1 : 0;
    if (f) {
      for (const a of [ps.vel, ps.ang, ps.extForce, ps.extTorque, ps.force, ps.torque]) {
        a.fill(0, 3 * index, 3 * index + 3);
      }
    }
    ps.setMass(index, this.#material.density);
    this.#invalidate();
  }

  /** Apply an external force (N) at a particle's centre until cleared; ignored if fixed. */
  setExternalForce(index: number, force: Vec3): void {
    this.#index("setExternalForce", index);
    const f = vec3("setExternalForce", "force", force);
    if (this.#ps.fixed[index]) return;
    this.#ps.extForce.set(f, 3 * index);
    this.#invalidate();
  }

  /** Apply an external torque (N·m) until cleared; ignored if fixed. */
  setExternalTorque(index: number, torque: Vec3): void {
    this.#index("setExternalTorque", index);
    const t = vec3("setExternalTorque", "torque", torque);
    if (this.#ps.fixed[index]) return;
    this.#ps.extTorque.set(t, 3 * index);
    this.#invalidate();
  }

  /** Remove every external force and torque. */
  clearExternalForcesAndTorques(): void {
    this.#ps.extForce.fill(0);
    this.#ps.extTorque.fill(0);
    this.#invalidate();
  }

  /** Mass of a particle (kg). */
  getMass(index: number): number {
    this.#index("getMass", index);
    return this.#ps.mass[index];
  }

  /** `"static"` for fixed particles, `"dynamic"` otherwise. */
  getBodyType(index: number): BodyType {
    this.#index("getBodyType", index);
    return this.#ps.fixed[index] ? "static" : "dynamic";
  }

  /** A particle's centre as `[x, y, z]` (m). */
  getPosition(index: number): [number, number, number] {
    this.#index("getPosition", index);
    const p = this.#ps.pos, o = 3 * index;
    return [p[o], p[o + 1], p[o + 2]];
  }

  /** A particle's velocity as `[vx, vy, vz]` (m/s). */
  getVelocity(index: number): [number, number, number] {
    this.#index("getVelocity", index);
    const v = this.#ps.vel, o = 3 * index;
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
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01 });
   * g.setParticleMaterial(1, { friction: 0.9, rollingFriction: 0.03 });
   * g.setParticleMaterialId(0, 1);
   * console.assert(g.getParticleMaterial(1).friction === 0.9 && g.materialIds[0] === 1);
   * ```
   */
  setParticleMaterial(id: number, material: ParticleMaterial): void {
    integerIn("setParticleMaterial", "id", id, 0, MAX_MATERIAL_ID);
    const m = resolveParticleMaterial(material, "setParticleMaterial");
    this.#ensureTable(id);
    this.#tables.friction[id] = m.friction;
    this.#tables.rolling[id] = m.rollingFriction;
  }

  /** The friction parameters used for material id `id`. */
  getParticleMaterial(id: number): Required<ParticleMaterial> {
    integerIn("getParticleMaterial", "id", id, 0, MAX_MATERIAL_ID);
    if (id >= this.#tableSize) {
      return { friction: this.#material.friction, rollingFriction: this.#material.rollingFriction };
    }
    return { friction: this.#tables.friction[id], rollingFriction: this.#tables.rolling[id] };
  }

  /** Assign material id `id` to particle `index`. */
  setParticleMaterialId(index: number, id: number): void {
    this.#index("setParticleMaterialId", index);
    integerIn("setParticleMaterialId", "materialId", id, 0, MAX_MATERIAL_ID);
    this.#ensureTable(id);
    this.#ps.materialId[index] = id;
  }

  /** Set the boundary material mixed (geometric mean) with particle materials at boundaries. */
  setBoundaryMaterial(material: ParticleMaterial): void {
    this.#boundary = resolveParticleMaterial(material, "setBoundaryMaterial");
  }

  // ---- boundaries ----------------------------------------------------------------------

  /**
   * A horizontal ground plane `z = height` seen only by these particles.
   *
   * @param options `enabled: false` disables it.
   */
  setGroundPlane(height: number, options: { enabled?: boolean } = {}): void {
    finite("setGroundPlane", "height", height);
    const on = bool("setGroundPlane", "enabled", options.enabled, true);
    this.#ground = on ? height : null;
    this.#rebuildPlanes();
  }

  /** Remove the ground plane. */
  disableGroundPlane(): void {
    this.#ground = null;
    this.#rebuildPlanes();
  }

  /** The ground plane height, or null when disabled. */
  get groundPlane(): number | null {
    return this.#ground;
  }

  /**
   * Confine the particles to an open-top box (four side walls and a floor).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.01 });
   * g.setContainerBox([-0.5, -0.5, 0], [0.5, 0.5, 0.4]);
   * console.assert(g.containerBox !== null);
   * ```
   */
  setContainerBox(min: Vec3, max: Vec3, options: { enabled?: boolean } = {}): void {
    const c = corners("setContainerBox", min, max);
    const on = bool("setContainerBox", "enabled", options.enabled, true);
    this.#container = on ? c : null;
    this.#rebuildPlanes();
  }

  /** Remove the container box. */
  disableContainerBox(): void {
    this.#container = null;
    this.#rebuildPlanes();
  }

  /** The container corners, or null when disabled. */
  get containerBox(): { min: number[]; max: number[] } | null {
    return this.#container ? { min: [...this.#container[0]], max: [...this.#container[1]] } : null;
  }

  /**
   * Wrap particle centres along the enabled axes of the cell `[min, max]` after integration;
   * contacts across the faces use the minimum image. A wrapped axis must be at least three
   * interaction cells (≈ 3 particle diameters) long.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0.5, 0.5, 0.5]], radii: 0.01 });
   * g.setPeriodicBoundary([0, 0, 0], [1, 1, 1], { x: true, y: true });
   * console.assert(g.periodicBoundary?.x === true && g.periodicBoundary?.z === false);
   * ```
   */
  setPeriodicBoundary(min: Vec3, max: Vec3, axes: PeriodicAxes): void {
    const [lo, hi] = corners("setPeriodicBoundary", min, max);
    if (axes === null || typeof axes !== "object") {
      throw new TypeError(`setPeriodicBoundary: axes (${String(axes)}) must be an object`);
    }
    const f = [
      bool("setPeriodicBoundary", "x", axes.x, false),
      bool("setPeriodicBoundary", "y", axes.y, false),
      bool("setPeriodicBoundary", "z", axes.z, false),
    ];
    if (!f[0] && !f[1] && !f[2]) {
      this.#periodic = null;
      return;
    }
    this.#periodic = [0, 1, 2].map((k) => ({
      lo: lo[k],
      length: f[k] ? hi[k] - lo[k] : 0,
    })) as [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod];
    this.#invalidate();
  }

  /** Disable the periodic boundary on all axes. */
  disablePeriodicBoundary(): void {
    this.#periodic = null;
    this.#invalidate();
  }

  /** The periodic cell, or null when disabled. */
  get periodicBoundary():
    | { min: number[]; max: number[]; x: boolean; y: boolean; z: boolean }
    | null {
    const p = this.#periodic;
    if (!p) return null;
    return {
      min: p.map((a) => a.lo),
      max: p.map((a) => a.lo + a.length),
      x: p[0].length > 0,
      y: p[1].length > 0,
      z: p[2].length > 0,
    };
  }

  // ---- energies ------------------------------------------------------------------------

  /**
   * Kinetic, rotational and gravitational energies (J) under the gravity of the last step.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * const g = new World().addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01, velocities: [[1, 0, 0]] });
   * const e = g.energy();
   * console.assert(Math.abs(e.kinetic - 0.5 * g.masses[0]) < 1e-15);
   * ```
   */
  energy(): Energies {
    const ps = this.#ps, g = this.#gravity;
    let k = 0, r = 0, u = 0;
    for (let i = 0; i < ps.count; i++) {
      if (ps.fixed[i]) continue;
      const o = 3 * i, m = ps.mass[i], rad = ps.radius[i];
      const v = ps.vel, w = ps.ang, x = ps.pos;
      k += 0.5 * m * (v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2]);
      r += 0.2 * m * rad * rad * (w[o] * w[o] + w[o + 1] * w[o + 1] + w[o + 2] * w[o + 2]);
      u -= m * (g[0] * x[o] + g[1] * x[o + 1] + g[2] * x[o + 2]);
    }
    return { kinetic: k, rotational: r, potential: u };
  }

  // ---- stepping ------------------------------------------------------------------------

  /**
   * Advance by `dt` seconds under `gravity` in `material.substeps` substeps (velocity
   * Verlet). Called by `World.step`; call it directly only for a system outside a world.
   */
  step(dt: number, gravity: ArrayLike<number>): void {
    const g = this.#gravity;
    if (g[0] !== gravity[0] || g[1] !== gravity[1] || g[2] !== gravity[2]) {
      g[0] = gravity[0], g[1] = gravity[1], g[2] = gravity[2];
      this.#invalidate();
    }
    const st = this.#stats;
    resetStats(st);
    st.emittedParticles = this.#pending.emitted;
    st.removedParticles = this.#pending.removed;
    this.#pending.emitted = this.#pending.removed = 0;
    const sub = this.#material.substeps, h = dt / sub;
    if (!this.#forcesValid) this.#computeForces(h, 0);
    for (let s = 0; s < sub; s++) {
      this.#kick(h * 0.5);
      this.#drift(h);
      this.#wrap();
      this.#computeForces(h, h);
      this.#kick(h * 0.5);
    }
    this.#finishStep();
    this.#stepCount++;
  }

  #computeForces(h: number, histDt: number): void {
    const ps = this.#ps, st = this.#stats, p = this.#params;
    this.#prepareParams(h, histDt);
    // 1. candidate pairs: rebuild the cell grid when the neighbour list is stale
    const skin = this.neighborSkin;
    if (this.#needRebuild || skin === 0) this.#rebuildNeighbors(skin);
    st.candidatePairs = this.#pairs.count;
    // 2. body forces
    this.#bodyForces();
    // 3. contact forces
    st.particleContacts = st.boundaryContacts = st.cohesiveContacts = 0;
    this.#contacts.count = 0;
    pairForces(ps, this.#pairs, this.#hist, this.#tables, p, this.#contacts, st);
    planeForces(
      ps,
      this.#planes,
      this.#hist,
      this.#tables,
      this.#boundary.friction,
      this.#boundary.rollingFriction,
      p,
      this.#contacts,
      st,
    );
    if (this.#rolling()) applyRolling(ps, h);
    // 4. histories: drop the ones whose contact ended
    st.activeContactHistories = this.#hist.sweep(ps.count, p.stamp);
    st.staleContactHistoriesRemoved += this.#hist.lastRemoved;
    if (this.#hist.overflow) this.#hist.widen();
    this.#forcesValid = true;
  }

  #rebuildNeighbors(skin: number): void {
    const ps = this.#ps, m = this.#material;
    const reach = m.cohesionStiffness > 0 ? m.cohesionMaxDistance : 0;
    const cell = 2 * this.#maxRadius + reach + skin;
    this.#grid.build(ps.pos, ps.count, cell > 0 ? cell : 1, this.#periodic ?? undefined);
    this.#grid.findPairs(ps.pos, ps.radius, reach + skin, this.#pairs, this.#uniformRadius);
    if (this.#refPos.length < 3 * ps.count) this.#refPos = new Float64Array(3 * ps.capacity);
    this.#refPos.set(ps.pos.subarray(0, 3 * ps.count));
    this.#needRebuild = false;
    this.#rebuilds++;
  }

  #rebuilds = 0;

  /** Number of neighbour-list rebuilds (cell-grid searches) since creation. */
  get neighborRebuilds(): number {
    return this.#rebuilds;
  }

  #prepareParams(h: number, histDt: number): void {
    const p = this.#params, m = this.#material;
    p.kn = m.normalStiffness;
    p.cn = m.normalDamping;
    p.kt = m.tangentialStiffness > 0 ? m.tangentialStiffness : 0.5 * m.normalStiffness;
    p.ct = m.tangentialDamping;
    p.hertz = m.normalContactModel === "hertz";
    p.kc = m.cohesionMaxDistance > 0 ? m.cohesionStiffness : 0;
    p.dmax = m.cohesionStiffness > 0 ? m.cohesionMaxDistance : 0;
    p.dt = h;
    p.histDt = histDt;
    p.stamp = ++this.#stamp >>> 0;
    const per = this.#periodic;
    p.px = per ? per[0].length : 0;
    p.py = per ? per[1].length : 0;
    p.pz = per ? per[2].length : 0;
  }

  #bodyForces(): void {
    const ps = this.#ps, n = 3 * ps.count, g = this.#gravity;
    const f = ps.force, t = ps.torque, ef = ps.extForce, et = ps.extTorque, m = ps.mass;
    const fixed = ps.fixed;
    for (let o = 0, i = 0; o < n; o += 3, i++) {
      if (fixed[i]) {
        f[o] =
          f[o + 1] =
          f[o + 2] =
          t[o] =
          t[o + 1] =
          t[o + 2] =
            0;
        continue;
      }
      const mi = m[i];
      f[o] = mi * g[0] + ef[o];
      f[o + 1] = mi * g[1] + ef[o + 1];
      f[o + 2] = mi * g[2] + ef[o + 2];
      t[o] = et[o];
      t[o + 1] = et[o + 1];
      t[o + 2] = et[o + 2];
    }
  }

  #kick(h: number): void {
    const ps = this.#ps, n = ps.count;
    const v = ps.vel, w = ps.ang, f = ps.force, t = ps.torque, im = ps.invMass, ii = ps.invInertia;
    for (let i = 0, o = 0; i < n; i++, o += 3) {
      const a = h * im[i], b = h * ii[i];
      v[o] += a * f[o];
      v[o + 1] += a * f[o + 1];
      v[o + 2] += a * f[o + 2];
      w[o] += b * t[o];
      w[o + 1] += b * t[o + 1];
      w[o + 2] += b * t[o + 2];
    }
    const m = this.#material;
    if (m.maxSpeed > 0) this.#stats.velocityClamps += clamp(v, n, m.maxSpeed);
    if (m.maxAngularSpeed > 0) this.#stats.velocityClamps += clamp(w, n, m.maxAngularSpeed);
  }

  #drift(h: number): void {
    const ps = this.#ps, n = 3 * ps.count, x = ps.pos, v = ps.vel, ref = this.#refPos;
    let max2 = 0;
    for (let o = 0; o < n; o += 3) {
      const a = (x[o] += h * v[o]) - ref[o];
      const b = (x[o + 1] += h * v[o + 1]) - ref[o + 1];
      const c = (x[o + 2] += h * v[o + 2]) - ref[o + 2];
      const d2 = a * a + b * b + c * c;
      if (d2 > max2) max2 = d2;
    }
    const skin = this.neighborSkin;
    if (4 * max2 >= skin * skin) this.#needRebuild = true;
  }

  #wrap(): void {
    const per = this.#periodic;
    if (!per) return;
    const ps = this.#ps, x = ps.pos, n = ps.count;
    let wraps = 0;
    for (let k = 0; k < 3; k++) {
      const L = per[k].length;
      if (L === 0) continue;
      const lo = per[k].lo, hi = lo + L;
      for (let i = 0, o = k; i < n; i++, o += 3) {
        const c = x[o];
        if (c < lo || c >= hi) {
          let y = c - L * Math.floor((c - lo) / L);
          if (y >= hi) y = lo;
          x[o] = y;
          wraps++;
        }
      }
    }
    this.#stats.wrappedParticles += wraps;
    if (wraps > 0) this.#needRebuild = true;
  }

  #finishStep(): void {
    const ps = this.#ps, n = ps.count, v = ps.vel, x = ps.pos, w = ps.ang;
    let max2 = 0, acc = 0;
    for (let i = 0, o = 0; i < n; i++, o += 3) {
      const s2 = v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2];
      if (s2 > max2) max2 = s2;
      acc += s2 + x[o] + x[o + 1] + x[o + 2] + w[o] + w[o + 1] + w[o + 2];
    }
    if (!Number.isFinite(acc)) this.#reportNonFinite();
    this.#stats.maxSpeed = Math.sqrt(max2);
  }

  #reportNonFinite(): never {
    const ps = this.#ps, x = ps.pos, v = ps.vel, w = ps.ang;
    for (let i = 0, o = 0; i < ps.count; i++, o += 3) {
      const s = x[o] + x[o + 1] + x[o + 2] + v[o] * v[o] + v[o + 1] * v[o + 1] +
        v[o + 2] * v[o + 2] +
        w[o] * w[o] + w[o + 1] * w[o + 1] + w[o + 2] * w[o + 2];
      if (!Number.isFinite(s)) {
        throw new RangeError(
          `GranularSystem.step: particle ${i} (id ${ps.id[i]}) has a non-finite state ` +
            `after step ${this.#stepCount + 1} (position ${x[o]}, ${x[o + 1]}, ${x[o + 2]}; ` +
            `velocity ${v[o]}, ${v[o + 1]}, ${v[o + 2]}); reduce the time step, raise substeps ` +
            `or soften the contact`,
        );
      }
    }
    throw new RangeError("GranularSystem.step: the state became non-finite");
  }

  // ---- internals -----------------------------------------------------------------------

  #rolling(): boolean {
    const t = this.#tables.rolling;
    if (this.#boundary.rollingFriction > 0) return true;
    for (let k = 0; k < this.#tableSize; k++) if (t[k] > 0) return true;
    return false;
  }

  #invalidate(): void {
    this.#forcesValid = false;
    this.#needRebuild = true;
  }

  #reserve(n: number): void {
    this.#ps.reserve(n);
    this.#hist.reserve(this.#ps.capacity);
  }

  #append(
    x: number,
    y: number,
    z: number,
    r: number,
    v: ArrayLike<number>,
    a: ArrayLike<number>,
    mid: number,
    fx: boolean,
  ): number {
    const ps = this.#ps, i = ps.count;
    const o = 3 * i;
    ps.pos[o] = x, ps.pos[o + 1] = y, ps.pos[o + 2] = z;
    for (let k = 0; k < 3; k++) {
      ps.vel[o + k] = fx ? 0 : v[k];
      ps.ang[o + k] = fx ? 0 : a[k];
      ps.force[o + k] =
        ps.torque[o + k] =
        ps.extForce[o + k] =
        ps.extTorque[o + k] =
          0;
    }
    ps.radius[i] = r;
    ps.materialId[i] = mid;
    this.#ensureTable(mid);
    ps.fixed[i] = fx ? 1 : 0;
    const id = this.#nextId++;
    ps.id[i] = id;
    if (id >= this.#slotOfId.length) {
      const s = new Int32Array(Math.max(2 * this.#slotOfId.length, id + 1)).fill(-1);
      s.set(this.#slotOfId);
      this.#slotOfId = s;
    }
    this.#slotOfId[id] = i;
    ps.setMass(i, this.#material.density);
    this.#hist.clearSlot(i);
    ps.count++;
    this.#radiiChanged(r, ps.count === 1);
    this.#invalidate();
    return i;
  }

  #radiiChanged(r: number, first: boolean): void {
    if (first) {
      this.#uniformRadius = r;
      this.#maxRadius = r;
      return;
    }
    if (r !== this.#uniformRadius) this.#uniformRadius = 0;
    if (r > this.#maxRadius) this.#maxRadius = r;
  }

  #recomputeRadii(): void {
    const ps = this.#ps;
    this.#maxRadius = 0;
    this.#uniformRadius = ps.count > 0 ? ps.radius[0] : 0;
    for (let i = 0; i < ps.count; i++) {
      const r = ps.radius[i];
      if (r > this.#maxRadius) this.#maxRadius = r;
      if (r !== this.#uniformRadius) this.#uniformRadius = 0;
    }
  }

  #removeSlot(i: number): void {
    const ps = this.#ps, last = ps.count - 1;
    this.#slotOfId[ps.id[i]] = -1;
    if (i !== last) {
      ps.moveSlot(last, i);
      this.#hist.moveSlot(last, i);
      this.#slotOfId[ps.id[i]] = i;
    } else this.#hist.clearSlot(i);
    ps.count--;
    this.#recomputeRadii();
    this.#invalidate();
  }

  #removeWhere(pred: (i: number) => boolean): number {
    let removed = 0;
    for (let i = this.#ps.count - 1; i >= 0; i--) {
      if (pred(i)) {
        this.#removeSlot(i);
        removed++;
      }
    }
    if (removed > 0) {
      const slot = this.#slotOfId;
      this.#hist.dropPartners(this.#ps.count, (id) => slot[id] < 0);
      this.#pending.removed += removed;
    }
    return removed;
  }

  #index(where: string, index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.#ps.count) {
      throw new RangeError(
        `${where}: index (${index}) must be an integer in [0, ${this.#ps.count - 1}]`,
      );
    }
  }

  #ensureTable(id: number): void {
    if (id < this.#tableSize) return;
    const t = this.#tables, m = this.#material;
    let n = t.friction.length;
    if (id >= n) {
      while (n <= id) n *= 2;
      const f = new Float64Array(n), r = new Float64Array(n);
      f.set(t.friction);
      r.set(t.rolling);
      t.friction = f;
      t.rolling = r;
    }
    for (let k = this.#tableSize; k <= id; k++) {
      t.friction[k] = m.friction;
      t.rolling[k] = m.rollingFriction;
    }
    this.#tableSize = id + 1;
  }

  #emitCommon(w: string, o: EmitCommon) {
    if (o === null || typeof o !== "object") {
      throw new TypeError(`${w}: options (${String(o)}) must be an object`);
    }
    const [lo, hi] = corners(w, o.min, o.max);
    const spacing = positive(w, "spacing", o.spacing);
    const max = integerIn(w, "maxParticles", o.maxParticles, 0, 2 ** 31 - 1);
    const v = o.velocity === undefined ? [0, 0, 0] : vec3(w, "velocity", o.velocity);
    const a = o.angularVelocity === undefined
      ? [0, 0, 0]
      : vec3(w, "angularVelocity", o.angularVelocity);
    const mid = integerIn(w, "materialId", o.materialId ?? 0, 0, MAX_MATERIAL_ID);
    const fx = bool(w, "fixed", o.fixed, false);
    return { lo, hi, spacing, max, v, a, mid, fx };
  }

  #rebuildPlanes(): void {
    const pl = this.#planes;
    pl.clear();
    if (this.#ground !== null) pl.add(2, 1, this.#ground, 0, ContactKind.ground);
    const c = this.#container;
    if (c) {
      pl.add(2, 1, c[0][2], 1, ContactKind.wall);
      pl.add(0, 1, c[0][0], 2, ContactKind.wall);
      pl.add(0, -1, c[1][0], 3, ContactKind.wall);
      pl.add(1, 1, c[0][1], 4, ContactKind.wall);
      pl.add(1, -1, c[1][1], 5, ContactKind.wall);
    }
    this.#invalidate();
  }
}

function resetStats(s: StepStats): void {
  s.candidatePairs =
    s.particleContacts =
    s.boundaryContacts =
    s.cohesiveContacts =
      0;
  s.activeContactHistories = s.staleContactHistoriesRemoved = 0;
  s.emittedParticles =
    s.removedParticles =
    s.wrappedParticles =
    s.velocityClamps =
      0;
  s.maxPenetration = s.maxSpeed = 0;
}

function clamp(v: Float64Array, n: number, max: number): number {
  let c = 0;
  const m2 = max * max;
  for (let o = 0; o < 3 * n; o += 3) {
    const s2 = v[o] * v[o] + v[o + 1] * v[o + 1] + v[o + 2] * v[o + 2];
    if (s2 > m2) {
      const k = max / Math.sqrt(s2);
      v[o] *= k, v[o + 1] *= k, v[o + 2] *= k;
      c++;
    }
  }
  return c;
}
