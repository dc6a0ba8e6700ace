/**
 * The world: time step, gravity, clock, and the granular systems stepped together.
 *
 * @module
 */
import { GranularSystem } from "./granular_system.ts";
import { MAX_THREADS } from "./threads/pool.ts";
import { BodyManager } from "./bodies/manager.ts";
import { float32Positive, float32Vec3 } from "./bodies/float32.ts";
import type { RigidBody } from "./bodies/body.ts";
import { BodyLoads } from "./bodies/contact.ts";
import type { BodyLink } from "./core_types.ts";
import { addCompound, addHeightMap, addMesh, addPrimitive } from "./bodies/add.ts";
import {
  type ArticulatedOptions,
  type ArticulatedSystem,
  buildArticulated,
} from "./bodies/articulated.ts";
import type {
  BoxBodyOptions,
  CapsuleOptions,
  CompoundOptions,
  HeightMapBodyOptions,
  MeshOptions,
  SphereOptions,
} from "./bodies/options.ts";
import { type RunOptions, runSteps } from "../math/progress.ts";
import type { Vec3 } from "./options.ts";
import type { Material } from "./material.ts";
import {
  type GranularBoxOptions,
  granularFromBox,
  granularFromParticles,
  type ParticleSet,
} from "./world_particles.ts";
import {
  integerIn,
  options as checkOptions,
  positive,
  requiredBool,
  vec3,
} from "../math/validate.ts";
import { RftGround, type RftGroundOptions, rftGroundStep } from "./rft/ground.ts";
import type { RftStressModel } from "./rft/model.ts";

export type { GranularBoxOptions, ParticleSet } from "./world_particles.ts";

const WORLD_KEYS: readonly string[] = ["timeStep", "gravity", "threads"];

/** Reads a world's body manager; set by {@link World}'s static block. */
let readBodies: (w: object) => BodyManager | null = () => null;

/**
 * The rigid bodies of a world (its body manager), or null for a world without the body engine
 * or for any other object. Internal, not exported from mod.ts: the 3D viewer reads the bodies'
 * shapes and poses through it.
 */
export function bodiesOf(world: object): BodyManager | null {
  return readBodies(world);
}

/** Options of {@link World}. */
export interface WorldOptions {
  /** World time step (s), > 0. @default 1e-3 */
  timeStep?: number;
  /** Gravitational acceleration (m/s²). @default [0, 0, -9.81] */
  gravity?: Vec3;
  /**
   * Threads per granular system (see `GranularSystem.threads`): same bytes for any count,
   * stepping stays synchronous. @default 1
   */
  threads?: number;
}

/**
 * A simulation world holding granular systems.
 *
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-3, gravity: [0, 0, -9.81] });
 * const sand = world.addGranularBox(
 *   { min: [-0.1, -0.1, 0], max: [0.1, 0.1, 0.1], radius: 0.02, spacing: 0.043 },
 *   { density: 1600, normalStiffness: 5e4, normalDamping: 25, friction: 0.8, substeps: 2 },
 * );
 * sand.setGroundPlane(0);
 * expect(sand.count).toBe(32); // 4 × 4 × 2 grains fit the box at a spacing of 0.043 m
 * world.run(200);
 * expect(world.time).toBeCloseTo(0.2, 12);
 * // settled in 0.2 s: each top grain rests on a bottom grain, the bottom layer on the ground
 * const stats = sand.lastStepStats;
 * expect(stats.particleContacts).toBe(16);
 * expect(stats.boundaryContacts).toBe(16);
 * expect(stats.kineticEnergy).toBeLessThan(1e-12);
 * // a bottom grain carries two weights: δ = 2·m·g/kn
 * expect(stats.maxPenetration).toBeCloseTo((2 * sand.masses[0] * 9.81) / 5e4, 8);
 * ```
 */
export class World {
  #dt: number;
  #gravity: [number, number, number];
  #time = 0;
  #steps = 0;
  readonly #systems: GranularSystem[] = [];
  #profile = false;
  #threads = 1;
  #bodies: BodyManager | null = null;
  readonly #loads: BodyLoads[] = [];
  /** Each system's link to the bodies (its set and loads), kept so that a step allocates none. */
  readonly #links: BodyLink[] = [];
  #failure: { step: number; error: Error } | null = null;
  #ground: RftGround | null = null;

  static {
    readBodies = (w) => (#bodies in w ? (w as World).#bodies : null);
  }

  /** Create a world. */
  constructor(options: WorldOptions = {}) {
    const o = checkOptions<WorldOptions>("World", "options", options, WORLD_KEYS);
    this.#dt = positive("World", "timeStep", o.timeStep ?? 1e-3);
    this.#gravity = vec3("World", "gravity", o.gravity ?? [0, 0, -9.81]);
    this.#threads = integerIn("World", "threads", o.threads ?? 1, 1, MAX_THREADS);
  }

  /**
   * Threads of every granular system of this world, present and future (see
   * `GranularSystem.threads`). @default 1
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const w = new World({ threads: 2 });
   * const g = w.addGranularParticles({ positions: [[0, 0, 0.01]], radii: 0.01 });
   * expect(g.threads).toBe(2);
   * w.run(10);
   * w.close(); // stop the workers (they would not keep the program alive anyway)
   * expect(g.threads).toBe(1);
   * ```
   */
  get threads(): number {
    return this.#threads;
  }
  set threads(n: number) {
    this.#threads = integerIn("World", "threads", n, 1, MAX_THREADS);
    for (const s of this.#systems) s.threads = this.#threads;
  }

  /**
   * Stop every worker thread of this world's systems (they step on one thread from then on,
   * with the same results). Also `using world = new World(…)` closes it at scope end.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const w = new World({ threads: 2 });
   * w.close();
   * expect(w.threads).toBe(1);
   * ```
   */
  close(): void {
    this.threads = 1;
  }

  /** Same as {@link close}. */
  [Symbol.dispose](): void {
    this.close();
  }

  /** The world time step (s). */
  get timeStep(): number {
    return this.#dt;
  }
  set timeStep(dt: number) {
    this.#dt = positive("World", "timeStep", dt);
  }
  /** Gravity (m/s²) as `[gx, gy, gz]`. */
  get gravity(): [number, number, number] {
    return [...this.#gravity];
  }
  set gravity(g: Vec3) {
    this.#gravity = vec3("World", "gravity", g);
  }
  /** Simulated time (s). */
  get time(): number {
    return this.#time;
  }
  /** Steps taken. */
  get stepCount(): number {
    return this.#steps;
  }
  /** The granular systems of this world. */
  get systems(): readonly GranularSystem[] {
    return this.#systems;
  }

  /**
   * Create a granular system from explicit centres and radii.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularParticles(
   *   { positions: [[0, 0, 0.1], [0.09, 0, 0.18]], radii: [0.04, 0.04] },
   *   { friction: 0.8, rollingFriction: 0.02 },
   * );
   * expect(g.count).toBe(2);
   * expect(g.material.friction).toBe(0.8);
   * ```
   */
  addGranularParticles(particles: ParticleSet, material: Partial<Material> = {}): GranularSystem {
    const sys = granularFromParticles(particles, material);
    sys.profile = this.#profile;
    sys.threads = this.#threads;
    this.#systems.push(sys);
    return sys;
  }

  /**
   * Create a granular system as a deterministic regular packing inside a box: centres start
   * at `min + radius` and advance by `spacing` along x, y, z while the whole sphere stays
   * inside `max`.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const g = new World().addGranularBox({ min: [0, 0, 0], max: [0.2, 0.2, 0.2], radius: 0.02, spacing: 0.043, maxParticles: 10 });
   * expect(g.count).toBe(10);
   * ```
   */
  addGranularBox(box: GranularBoxOptions, material: Partial<Material> = {}): GranularSystem {
    const sys = granularFromBox(box, material);
    sys.profile = this.#profile;
    sys.threads = this.#threads;
    this.#systems.push(sys);
    return sys;
  }

  /**
   * Create an empty granular system with a material, to fill later with `emitBox`,
   * `emitBoxRandom` or `addParticle` (an empty system steps like any other).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = new World({ timeStep: 1e-3 });
   * const sand = world.addGranularSystem({ friction: 0.6 });
   * world.run(3); // nothing to move yet
   * sand.emitBox({ min: [0, 0, 0], max: [0.1, 0.1, 0.1], radius: 0.01, spacing: 0.025, maxParticles: 8 });
   * expect(sand.count).toBe(8);
   * expect(sand.material.friction).toBe(0.6);
   * ```
   */
  addGranularSystem(material: Partial<Material> = {}): GranularSystem {
    const sys = new GranularSystem(material);
    sys.profile = this.#profile;
    sys.threads = this.#threads;
    this.#systems.push(sys);
    return sys;
  }

  /**
   * Create a granular system from a checkpoint written by `GranularSystem.saveGranularState`
   * (its particles, materials, contact histories and clock; see
   * `GranularSystem.loadGranularState`) and add it to this world. Boundaries are not stored in
   * checkpoints: set them again on the returned system. A bad file throws
   * `loadGranularState: <path>: <what>` and adds nothing.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const path = `${Deno.makeTempDirSync()}/grains.bin`;
   * new World().addGranularParticles({ positions: [[0, 0, 1], [0, 0, 2]], radii: 0.05 })
   *   .saveGranularState(path);
   * const world = new World();
   * const g = world.loadGranularSystem(path);
   * expect(g.count).toBe(2);
   * expect(world.systems).toEqual([g]);
   * ```
   */
  loadGranularSystem(path: string): GranularSystem {
    const sys = new GranularSystem();
    sys.loadGranularState(path);
    sys.profile = this.#profile;
    sys.threads = this.#threads;
    this.#systems.push(sys);
    return sys;
  }

  /**
   * Time the stages of every step of every system (read `system.lastStepProfile`).
   * @default false
   */
  get profile(): boolean {
    return this.#profile;
  }
  set profile(on: boolean) {
    this.#profile = requiredBool("World", "profile", on);
    for (const s of this.#systems) s.profile = on;
  }

  /**
   * Write the world as World XML (time step, gravity, every granular system with its
   * materials, boundaries and particles; see `src/sphere3d/xml.ts` for the layout), atomically.
   * The tangential contact histories and the clock are not in the file.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = new World({ timeStep: 1e-4 });
   * world.addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.02 }).setGroundPlane(0);
   * const path = `${await Deno.makeTempDir()}/scene.xml`;
   * await world.exportToXml(path);
   * const back = await World.fromXml(path);
   * expect(back.systems[0].groundPlane).toBe(0);
   * ```
   */
  async exportToXml(path: string): Promise<void> {
    const { exportWorldXml } = await import("./xml.ts");
    await exportWorldXml(this, path);
  }

  /**
   * Build a new world from a World XML file (see {@link World.exportToXml}): time step,
   * gravity and systems, at time 0. Bad files throw naming the element, the attribute and the
   * line; nothing is created then.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = new World();
   * world.addGranularParticles({ positions: [[0, 0, 0.1], [0, 0, 0.2]], radii: 0.02 });
   * const path = `${await Deno.makeTempDir()}/scene.xml`;
   * await world.exportToXml(path);
   * const back = await World.fromXml(path);
   * expect(back.systems[0].positions).toEqual(world.systems[0].positions);
   * ```
   */
  static async fromXml(path: string): Promise<World> {
    const { readWorldXmlFile } = await import("./xml_read.ts");
    return await readWorldXmlFile(path, (options) => new World(options));
  }

  /**
   * Create a world ready for rigid bodies: the same as `new World(options)` followed by
   * `await world.enableBodies()`.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create({ timeStep: 1e-3 });
   * expect(world.bodiesEnabled).toBe(true);
   * expect(world.bodies.length).toBe(0);
   * ```
   */
  static async create(options: WorldOptions = {}): Promise<World> {
    const w = new World(options);
    await w.enableBodies();
    return w;
  }

  /**
   * Load the rigid-body engine (Rapier, deterministic build; loaded only by worlds that ask
   * for bodies) so that `addBox`, `addSphere`, … work. Idempotent.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = new World();
   * expect(world.bodiesEnabled).toBe(false);
   * await world.enableBodies();
   * expect(world.bodiesEnabled).toBe(true);
   * ```
   */
  async enableBodies(): Promise<void> {
    if (this.#bodies === null) this.#bodies = await BodyManager.create(this.#gravity, this.#dt);
  }

  /** Whether {@link enableBodies} has run. */
  get bodiesEnabled(): boolean {
    return this.#bodies !== null;
  }

  /** The rigid bodies, in the order added (a body's index is its `id`). */
  get bodies(): readonly RigidBody[] {
    return this.#bodies === null ? [] : this.#bodies.handles;
  }

  #body(where: string): BodyManager {
    if (this.#bodies === null) {
      throw new TypeError(
        `${where}: this world has no rigid-body engine; create it with await World.create() ` +
          "or call await world.enableBodies() first",
      );
    }
    return this.#bodies;
  }

  /**
   * Add a sphere body (radius in m).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create();
   * const s = world.addSphere({ radius: 0.1, position: [0, 0, 1], bodyType: "static" });
   * expect(s.position).toEqual([0, 0, 1]);
   * expect(() => world.addSphere({ radius: -1 })).toThrow(/radius \(-1\) must be/);
   * ```
   */
  addSphere(options: SphereOptions): RigidBody {
    return addPrimitive(this.#body("World.addSphere"), "World.addSphere", "sphere", options);
  }

  /**
   * Add a box body (half extents in m).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create();
   * const box = world.addBox({ halfExtents: [0.05, 0.05, 0.02], density: 2000 });
   * expect(box.mass).toBeCloseTo(0.1 * 0.1 * 0.04 * 2000, 4);
   * ```
   */
  addBox(options: BoxBodyOptions): RigidBody {
    return addPrimitive(this.#body("World.addBox"), "World.addBox", "box", options);
  }

  /**
   * Add a capsule body (axis along its local z).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create();
   * const c = world.addCapsule({ radius: 0.02, halfHeight: 0.1, bodyType: "kinematic" });
   * expect(c.bodyType).toBe("kinematic");
   * ```
   */
  addCapsule(options: CapsuleOptions): RigidBody {
    return addPrimitive(this.#body("World.addCapsule"), "World.addCapsule", "capsule", options);
  }

  /**
   * Add a cylinder body (axis along its local z; a wheel rolling along x has its axis along y:
   * `orientation: [Math.SQRT1_2, 0, 0, Math.SQRT1_2]`).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create();
   * const wheel = world.addCylinder({ radius: 0.1, halfHeight: 0.04, density: 500 });
   * expect(wheel.mass).toBeCloseTo(Math.PI * 0.01 * 0.08 * 500, 3);
   * ```
   */
  addCylinder(options: CapsuleOptions): RigidBody {
    return addPrimitive(this.#body("World.addCylinder"), "World.addCylinder", "cylinder", options);
  }

  /**
   * Add a compound body made of primitive children posed in the body frame.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create();
   * const dumbbell = world.addCompound({
   *   children: [
   *     { shape: "sphere", radius: 0.05, position: [-0.1, 0, 0] },
   *     { shape: "sphere", radius: 0.05, position: [0.1, 0, 0] },
   *   ],
   * });
   * expect(dumbbell.shapeCount).toBe(2);
   * ```
   */
  addCompound(options: CompoundOptions): RigidBody {
    return addCompound(this.#body("World.addCompound"), options);
  }

  /**
   * Add a closed triangle-mesh body: `vertices` + `indices`, or an OBJ/STL `file`.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create();
   * const tet = world.addMesh({
   *   vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1],
   *   indices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
   *   bodyType: "static",
   * });
   * expect(tet.shapeCount).toBe(1);
   * expect(() => world.addMesh({ vertices: [], indices: [] })).toThrow(/addMesh/);
   * ```
   */
  addMesh(options: MeshOptions): RigidBody {
    return addMesh(this.#body("World.addMesh"), options);
  }

  /**
   * Add static height-map terrain z = center[2] + h(x, y).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create();
   * const t = world.addHeightMap({ heights: [0, 0, 0, 0], nx: 2, ny: 2, sizeX: 1, sizeY: 1 });
   * expect(t.bodyType).toBe("static");
   * ```
   */
  addHeightMap(options: HeightMapBodyOptions): RigidBody {
    return addHeightMap(this.#body("World.addHeightMap"), options);
  }

  /**
   * Add a robot from URDF (a file path, or the URDF text itself when it starts with `<`):
   * one body per link (primitive collision geometry), revolute/continuous/prismatic/fixed
   * joints with PD motors. See {@link ArticulatedSystem}.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create();
   * const leg = await world.addArticulatedSystem("examples/assets/leg.urdf", {
   *   base: "fixed",
   *   position: [0, 0, 0.6],
   * });
   * expect(leg.jointNames.length).toBe(2);
   * await expect(world.addArticulatedSystem("<robot name='x'/>")).rejects.toThrow(/link/);
   * ```
   */
  async addArticulatedSystem(
    source: string,
    options: ArticulatedOptions = {},
  ): Promise<ArticulatedSystem> {
    const m = this.#body("World.addArticulatedSystem");
    if (typeof source !== "string") {
      throw new TypeError(
        `World.addArticulatedSystem: source (${String(source)}) must be a URDF path or text`,
      );
    }
    const { parseUrdf, readUrdf } = await import("./bodies/urdf.ts");
    const model = source.trimStart().startsWith("<") ? parseUrdf(source) : await readUrdf(source);
    return buildArticulated(m, model, options);
  }

  /**
   * Advance every system by one time step (and the rigid bodies, when there are any).
   *
   * A step that throws part-way (a system diverged, a body left the float32 range) leaves the
   * world half-stepped — the systems before the failing one advanced, the clock not — so the
   * world then marks itself failed ({@link World.failure}): every later `step` or `run`
   * throws, saying at which step and why. Recover from a checkpoint saved before the failure
   * (`GranularSystem.saveGranularState`, then `World.loadGranularSystem` into a new world).
   * Input errors found before anything moves (a time step too long for the damping, say)
   * throw without failing the world.
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = new World({ timeStep: 1e-3 });
   * const g = world.addGranularParticles({ positions: [[0, 0, 0.01], [0, 0, 0.025]], radii: 0.01 }, {
   *   normalStiffness: 1e308, normalDamping: 0,
   * });
   * g.setGroundPlane(0);
   * expect(() => world.step()).toThrow(/non-finite/);
   * expect(world.failure?.message).toMatch(/non-finite/);
   * expect(() => world.step()).toThrow(/this world failed at step 1/);
   * ```
   */
  step(): void {
    if (this.#failure !== null) this.#refuse("World.step");
    // checks that move nothing come first: they leave the world as it was
    const systems = this.#systems, dt = this.#dt, bodies = this.#bodies;
    if (bodies !== null && bodies.count > 0) {
      // the rigid-body engine works in float32
      float32Positive("World.step", "timeStep", dt, " s");
      float32Vec3("World.step", "gravity", this.#gravity);
    }
    for (let k = 0; k < systems.length; k++) systems[k].checkStep(dt);
    try {
      const m = this.#bodies;
      if (m !== null && m.count > 0) this.#stepWithBodies(m);
      else this.#stepSystems();
    } catch (e) {
      this.#failure = {
        step: this.#steps + 1,
        error: e instanceof Error ? e : new Error(String(e)),
      };
      throw e;
    }
    this.#steps++;
    this.#time = this.#steps * this.#dt;
  }

  /**
   * The error that stopped this world part-way through a step, or null while it is healthy
   * (see {@link World.step}). @default null
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * expect(new World().failure).toBe(null);
   * ```
   */
  get failure(): Error | null {
    return this.#failure?.error ?? null;
  }

  #refuse(where: string): never {
    const f = this.#failure!;
    throw new Error(
      `${where}: this world failed at step ${f.step} (${f.error.message}); it is left part-way ` +
        `through that step (the systems before the failing one advanced, the clock at step ` +
        `${f.step - 1}) and cannot go on. Load a checkpoint saved before the failure ` +
        "(GranularSystem.saveGranularState, then World.loadGranularSystem into a new World) " +
        "and remove the cause",
      { cause: f.error },
    );
  }

  #stepWithBodies(m: BodyManager): void {
    const systems = this.#systems, loads = this.#loads, links = this.#links, dt = this.#dt;
    m.engine.configure(this.#gravity, dt);
    for (let k = 0; k < systems.length; k++) {
      if (k >= loads.length) loads.push(new BodyLoads());
      if (k >= links.length || links[k].loads !== loads[k] || links[k].set !== m.set) {
        links[k] = { set: m.set, loads: loads[k] };
      }
      systems[k].linkBodies(links[k], m.changed);
    }
    m.changed = false;
    m.beginStep(dt);
    this.#stepSystems();
    loads.length = systems.length;
    // the RFT ground's loads join the grains' for this step only
    if (this.#ground !== null) loads.push(rftGroundStep(this.#ground, m, dt, this.#gravity));
    try {
      m.endStep(dt, loads, this.#steps + 1);
    } finally {
      loads.length = systems.length;
    }
    m.checkState(this.#steps + 1);
  }

  /**
   * Add a resistive-force-theory ground: granular media fill z < `surfaceHeight`, and every
   * moving rigid body (URDF links included) that dips below it feels the RFT forces and torques
   * of `model` (an `RftTable` or `RftFourier`) on its submerged leading surface, from the next
   * step on — no grains. A body above the surface feels exactly nothing. The forces join the
   * grains' in `RigidBody.contactForce` (dynamic bodies: the part not handed to the engine as
   * implicit damping, see `RftGroundOptions.implicitDrag`); `ground.force(body)` gives the
   * ground's whole force. One ground per world. See `docs/terradynamics.md`.
   *
   * @example
   * ```ts
   * import { RftFourier, World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create({ gravity: [0, 0, 0] });
   * const ground = world.addRftGround(new RftFourier({ zeta: 0.5 }), { surfaceHeight: 0 });
   * const ball = world.addSphere({ radius: 0.05, position: [0, 0, 0.2], linearVelocity: [0, 0, -1] });
   * world.step();
   * expect(ground.force(ball)).toEqual([0, 0, 0]); // still above the surface
   * expect(() => world.addRftGround(new RftFourier(), { surfaceHeight: 0 })).toThrow(/already/);
   * ```
   */
  addRftGround(model: RftStressModel, options: RftGroundOptions): RftGround {
    this.#body("World.addRftGround");
    const ground = new RftGround(model, options);
    if (this.#ground !== null) {
      throw new RangeError("World.addRftGround: this world already has an RFT ground");
    }
    this.#ground = ground;
    return ground;
  }

  /**
   * Take `steps` steps; `onStep(step, world)` runs after each, `progress: true` shows a
   * notebook bar or a terminal line (the same run loop as the star2d systems). Without
   * `onStep`, the grain–grain contact record is written at the last step only, which no
   * reader can tell apart (the same bytes) and spares every other step the record's writes (a
   * noticeable share of a dense bed's step).
   *
   * @example
   * ```ts
   * import { World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = new World();
   * let calls = 0;
   * world.run(5, { onStep: (k, w) => (calls = k + w.stepCount) });
   * expect(calls).toBe(10); // after step 5 the world has taken 5 steps
   * ```
   */
  run(steps: number, options?: RunOptions<World>): void {
    if (this.#failure !== null) this.#refuse("World.run");
    // Without onStep nobody reads the contacts of steps 1 … steps − 1: the particle pairs'
    // contacts are recorded at the last step only (the same forces and bytes otherwise).
    const quiet = options === undefined || options === null || typeof options !== "object" ||
      options.onStep === undefined;
    try {
      runSteps("World.run", this, steps, options, (k) => {
        if (quiet) this.#recordPairs(k === steps);
        this.step();
      });
    } finally {
      this.#recordPairs(true);
      // back to the caller: idle workers sleep rather than spin (`WorkerPool.park`)
      for (const sys of this.#systems) sys.parkThreads();
    }
  }

  /**
   * One step of every system, in order. With more than one system on worker threads, each parks
   * its workers after its turn (they would otherwise spin beside the next system's threads).
   */
  #stepSystems(): void {
    const systems = this.#systems;
    let threaded = 0;
    for (let k = 0; k < systems.length; k++) if (systems[k].threads > 1) threaded++;
    for (let k = 0; k < systems.length; k++) {
      systems[k].step(this.#dt, this.#gravity);
      if (threaded > 1) systems[k].parkThreads();
    }
  }

  #recordPairs(on: boolean): void {
    const systems = this.#systems;
    for (let k = 0; k < systems.length; k++) systems[k].recordPairContacts(on);
  }
}
