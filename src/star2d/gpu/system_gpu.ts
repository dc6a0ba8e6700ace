/**
 * StarSystemGpu: the star2d system on the GPU through WebGPU — the StarDEM paper's
 * million-grain path — with the scene API, contact law and contact record of the CPU
 * {@linkcode StarSystem}, which stays the reference.
 *
 * A step is a chain of dispatches, all recorded into one compute pass per batch of steps:
 * prepare (poses, bucket counts with integer atomics) → prefix scan → scatter → per-bucket sort
 * (a deterministic order) → neighbour lists (3×3 cells, bounding circles) → forces, one thread
 * per grain for the pairs it owns (its higher-index neighbours) and its walls, writing only its
 * own records → gather and integrate, each grain adding the shares its lower-index neighbours
 * computed for it, in list order. No float atomics anywhere: the same run gives the same bytes.
 *
 * Tangential history: a per-grain table of fixed capacity (`contactSlots`) keyed by the
 * neighbour's index (or the wall) and the contact angle, in the table of the pair's owner,
 * matched and updated exactly as the CPU's `ContactHistory` (nearest key within 0.3 rad): the
 * CPU's spring law, not the paper's viscous friction. Contacts beyond the capacity still act,
 * without history, and are counted (`historyOverflow`).
 *
 * Nothing is read back unless asked: `run()` ends with one small statistics readback; `read()`
 * fetches the state and, on request, the contacts (re-running the last step's detection in a
 * record mode) and the histories.
 *
 * Float32 on the GPU, with positions stored as integer tiles plus float32 fractions so that
 * the geometry between neighbours stays exact to ~1e-10 m at any distance from the origin.
 *
 * This module is the public class; it works through the system's GPU side (core.ts) and the
 * modules beside it: options.ts (option types and checks), scene.ts (shapes, sprites, grains),
 * buffers.ts (per-grain buffers and uploads), bind_groups.ts, step.ts (batches of steps and the
 * statistics) and contact_readback.ts (contacts and tangential histories).
 *
 * @module
 */

import { type StarGrainsOptions, StarSystem, type StarSystemOptions } from "../system.ts";
import type { StarContacts } from "../contacts.ts";
import type { StarShape } from "../shape.ts";
import type { Walls } from "../walls.ts";
import { bool, integerIn, objectOrEmpty, options as checkOptions } from "../../math/validate.ts";
import { Progress, type RunOptions } from "../../math/progress.ts";
import { type GpuContext, requestGpu } from "./device.ts";
import type { StarSprite } from "./sprite.ts";
import { GRAIN_BYTES } from "./layout.ts";
import { decodeGrains, readBuffer } from "./readback.ts";
import { MAX_WALLS } from "./wgsl_common.ts";
import {
  GPU_KEYS,
  GPU_OWN_KEYS,
  gpuConfig,
  type GpuReadOptions,
  type GpuStepStats,
  NAME,
  READ_KEYS,
  type StarSystemGpuOptions,
  withoutGpuKeys,
} from "./options.ts";
import { GpuCore } from "./core.ts";
import { addGrainsAndUpload, checkGpuShape, syncShapes, uploadAll } from "./scene.ts";
import { ready } from "./bind_groups.ts";
import { readStats, submitSteps } from "./step.ts";
import { readContacts, readHistory } from "./contact_readback.ts";

export type { GpuReadOptions, GpuStepStats, StarSystemGpuOptions } from "./options.ts";

/**
 * Star-shaped grains on the GPU (WebGPU): the same scene API (`addShape`, `addGrains`,
 * `walls`), contact law and contact record as {@linkcode StarSystem}, in float32. `run` and
 * `step` are asynchronous; the columns (`positions`, `velocities`, …) and `contacts` are the
 * CPU copies as of the last {@linkcode StarSystemGpu.read}, statistics are fresh after every
 * `run`.
 *
 * Unstable: may change without notice (the GPU backend).
 *
 * @experimental
 * @example
 * ```ts
 * import { gpu, StarShape } from "@grainlab/grainlab/star2d";
 * const { gpuAvailable, StarSystemGpu } = gpu;
 * import { expect } from "expect";
 * if (await gpuAvailable()) {
 *   const sys = await StarSystemGpu.create({ spriteResolution: 256 });
 *   const cross = StarShape.preset("cross", { area: 30e-6 });
 *   sys.addGrains({ shape: cross, positions: [[0, 0.006], [0.009, 0.006]], angles: [0, 0.3] });
 *   sys.walls.addPlane({ point: [0, 0], normal: [0, 1] });
 *   await sys.run(1000); // 0.1 s
 *   await sys.read({ contacts: true });
 *   // both crosses land and rest on two arms each, as on the CPU
 *   expect(sys.lastStepStats.boundaryContacts).toBe(4);
 *   expect(sys.contacts.count).toBe(4);
 *   expect(sys.positions[1]).toBeGreaterThan(0);
 *   expect(sys.lastStepStats.kineticEnergy).toBeLessThan(1e-9);
 *   sys.destroy();
 * }
 * ```
 */
export class StarSystemGpu {
  /** The device and adapter in use. */
  readonly gpu: GpuContext;
  /** The adapter's one-line name (with "(software)" for a fallback adapter). */
  readonly adapterName: string;
  /** How node tests read shapes. */
  readonly sampling: "sprite" | "lut";
  /** Sprite texels per side. */
  readonly spriteResolution: number;
  /** Tangential-history slots per grain. */
  readonly contactSlots: number;
  /** Neighbour slots per grain. */
  readonly neighborSlots: number;
  /** Steps per submitted command buffer. */
  readonly batchSize: number;
  /** Statistics of the last step (fresh after every `run`/`step`). */
  readonly lastStepStats: GpuStepStats = {
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
    historyOverflow: 0,
  };
  /** Sprites of the registered shapes (empty with `sampling: "lut"`). */
  readonly sprites: StarSprite[] = [];

  readonly #core: GpuCore;
  readonly #host: StarSystem;
  #destroyed = false;

  /**
   * A system on the given device (see {@linkcode StarSystemGpu.create}, which requests one).
   * Options are checked like the CPU system's.
   */
  constructor(gpu: GpuContext, options: StarSystemGpuOptions = {}) {
    const o = checkOptions<StarSystemGpuOptions>(NAME, "options", options, GPU_KEYS);
    const config = gpuConfig(gpu.device, o);
    this.contactSlots = config.contactSlots;
    this.neighborSlots = config.neighborSlots;
    this.batchSize = config.batchSize;
    const host = new StarSystem(withoutGpuKeys(o));
    this.sampling = config.sampling;
    this.spriteResolution = config.spriteResolution;
    this.gpu = gpu;
    this.adapterName = gpu.name;
    this.#host = host;
    this.#core = new GpuCore(gpu, host, config, this.sprites, this.lastStepStats);
  }

  /**
   * Request a device ({@linkcode requestGpu}, unless `options.gpu` is given) and create an
   * empty system. Throws `WebGpuUnavailableError` naming what is missing when there is no
   * WebGPU or no adapter.
   *
   * @example
   * ```ts
   * import { gpu } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const sys = await StarSystemGpu.create({ friction: 0.3, sampling: "lut" });
   *   expect(sys.count).toBe(0);
   *   expect(sys.friction).toBe(0.3);
   *   sys.destroy();
   * }
   * ```
   */
  static async create(options: StarSystemGpuOptions = {}): Promise<StarSystemGpu> {
    const o = checkOptions<StarSystemGpuOptions>(`${NAME}.create`, "options", options, GPU_KEYS);
    new StarSystem(withoutGpuKeys(o)); // validate the common options before asking for a device
    return new StarSystemGpu(o.gpu ?? await requestGpu(), o);
  }

  /**
   * A GPU system with the parameters, shapes, grains, walls, clock and tangential histories of
   * a CPU {@linkcode StarSystem} (`allNodes` contact points are not supported on the GPU).
   *
   * @example
   * ```ts
   * import { gpu, packingScene, StarSystem } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const scene = packingScene({ count: 40 });
   *   const gpu = await StarSystemGpu.fromSystem(scene.system as StarSystem, { spriteResolution: 256 });
   *   expect(gpu.count).toBe(40);
   *   expect(gpu.walls.count).toBe(3);
   *   gpu.destroy();
   * }
   * ```
   */
  static async fromSystem(
    system: StarSystem,
    options: Omit<StarSystemGpuOptions, keyof StarSystemOptions> = {},
  ): Promise<StarSystemGpu> {
    if (!(system instanceof StarSystem)) {
      throw new TypeError(`${NAME}.fromSystem: system (${String(system)}) must be a StarSystem`);
    }
    if (system.contactPoints !== "deepest") {
      throw new RangeError(
        `${NAME}.fromSystem: contactPoints (${system.contactPoints}) must be "deepest" on the GPU`,
      );
    }
    const o = checkOptions<StarSystemGpuOptions>(
      `${NAME}.fromSystem`,
      "options",
      options,
      GPU_OWN_KEYS,
    );
    const gpu = await StarSystemGpu.create({
      ...o,
      timeStep: system.timeStep,
      gravity: [system.gravityX, system.gravityY],
      normalStiffness: system.kn,
      tangentialStiffness: system.kt,
      normalDamping: system.cn,
      tangentialDamping: system.ct,
      friction: system.friction,
      rotationalDamping: system.rotationalDamping,
      distance: system.distance,
      detection: system.detection,
    });
    gpu.#host.loadStateBytes(system.stateBytes(), `${NAME}.fromSystem`);
    gpu.#host.lastStepStats.step = system.lastStepStats.step;
    gpu.lastStepStats.step = system.lastStepStats.step;
    gpu.lastStepStats.time = system.time;
    await uploadAll(gpu.#core);
    return gpu;
  }

  // ---- parameters and columns (CPU copies as of the last read) ------------------------

  /** Number of grains. */
  get count(): number {
    return this.#host.count;
  }
  /** Spatial dimension (2). */
  get dimension(): 2 {
    return 2;
  }
  /** Time step (s). */
  get timeStep(): number {
    return this.#host.timeStep;
  }
  /** Gravity x (m/s²). */
  get gravityX(): number {
    return this.#host.gravityX;
  }
  /** Gravity y (m/s²). */
  get gravityY(): number {
    return this.#host.gravityY;
  }
  /** Normal stiffness (N/m). */
  get kn(): number {
    return this.#host.kn;
  }
  /** Tangential stiffness (N/m). */
  get kt(): number {
    return this.#host.kt;
  }
  /** Normal damping (N·s/m). */
  get cn(): number {
    return this.#host.cn;
  }
  /** Tangential damping (N·s/m). */
  get ct(): number {
    return this.#host.ct;
  }
  /** Grain–grain friction. */
  get friction(): number {
    return this.#host.friction;
  }
  /** Rotational damping (N·m·s). */
  get rotationalDamping(): number {
    return this.#host.rotationalDamping;
  }
  /** The overlap estimate. */
  get distance(): "first-order" | "radial" {
    return this.#host.distance;
  }
  /** The detection variant. */
  get detection(): "symmetric" | "one-sided" {
    return this.#host.detection;
  }
  /** Walls (edit between runs; their state is uploaded at every step). */
  get walls(): Walls {
    return this.#host.walls;
  }
  /** Registered shapes. */
  get starShapes(): readonly StarShape[] {
    return this.#host.starShapes;
  }
  /** Simulated time (s). */
  get time(): number {
    return this.#host.time;
  }
  /** The step the columns and contacts were read at (−1: never read; see `stale`). */
  get readStep(): number {
    return this.#core.readStep;
  }
  /** True when steps were taken since the last `read()`: the columns are behind. */
  get stale(): boolean {
    return this.#core.readStep !== this.lastStepStats.step;
  }
  /** Centre-of-mass positions (m), stride 2, as of the last read. */
  get positions(): Float64Array {
    return this.#host.positions;
  }
  /** Velocities (m/s), stride 2, as of the last read. */
  get velocities(): Float64Array {
    return this.#host.velocities;
  }
  /** Angles (rad), unwrapped, as of the last read. */
  get angles(): Float64Array {
    return this.#host.angles;
  }
  /** Angular velocities (rad/s), as of the last read. */
  get angularVelocities(): Float64Array {
    return this.#host.angularVelocities;
  }
  /** Masses (kg). */
  get masses(): Float64Array {
    return this.#host.masses;
  }
  /** Moments of inertia (kg·m²). */
  get inertias(): Float64Array {
    return this.#host.inertias;
  }
  /** Bounding radii r_max (m). */
  get radii(): Float64Array {
    return this.#host.radii;
  }
  /** Stable ids (the slot index: grains are never removed). */
  get ids(): Uint32Array {
    return this.#host.ids;
  }
  /** Shape id of each grain. */
  get shapes(): Uint16Array {
    return this.#host.shapes;
  }
  /**
   * Contacts of the last step as of the last `read({ contacts: true })`, in the shared
   * record: normal from j (or the wall) towards i, forces on i; grain pairs have i < j.
   */
  get contacts(): StarContacts {
    return this.#host.contacts;
  }
  /** Position tile size Q (m), a power of two fixed by the first grains (0 before). */
  get tileSize(): number {
    return this.#core.q;
  }

  /**
   * The outline of grain `i` in world coordinates as of the last read (see
   * `StarSystem.outline`).
   *
   * @example
   * ```ts
   * import { gpu, StarShape } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const sys = await StarSystemGpu.create({ sampling: "lut" });
   *   sys.addGrains({ shape: StarShape.preset("circle", { rMax: 1 }), positions: [[5, 0]] });
   *   expect(sys.outline(0)[0]).toBeCloseTo(6, 12);
   *   sys.destroy();
   * }
   * ```
   */
  outline(i: number, options: { n?: number; out?: Float64Array } = {}): Float64Array {
    return this.#host.outline(i, options);
  }

  // ---- scene ----------------------------------------------------------------------------

  /**
   * Register a shape; returns its id (builds its sprite with `sampling: "sprite"`).
   *
   * @example
   * ```ts
   * import { gpu, StarShape } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const sys = await StarSystemGpu.create({ spriteResolution: 64 });
   *   expect(sys.addShape(StarShape.preset("flower"))).toBe(0);
   *   expect(sys.sprites[0].resolution).toBe(64);
   *   sys.destroy();
   * }
   * ```
   */
  addShape(shape: StarShape): number {
    this.#alive("addShape");
    if (shape instanceof Object && typeof shape.nodes === "number") {
      checkGpuShape(shape, `${NAME}.addShape`);
    }
    const k = this.#host.addShape(shape);
    syncShapes(this.#core);
    return k;
  }

  /**
   * Add grains of one shape (as `StarSystem.addGrains`); returns the slot of the first. They
   * are uploaded at once; the contacts of the last step can no longer be read until the next
   * step.
   *
   * @example
   * ```ts
   * import { gpu, StarShape } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const sys = await StarSystemGpu.create({ sampling: "lut", gravity: [0, 0] });
   *   sys.addGrains({ shape: StarShape.preset("peanut"), positions: [0, 0, 0.02, 0] });
   *   await sys.run(3);
   *   await sys.read();
   *   expect(sys.count).toBe(2);
   *   expect(sys.positions[2]).toBeCloseTo(0.02, 7);
   *   sys.destroy();
   * }
   * ```
   */
  addGrains(options: StarGrainsOptions): number {
    this.#alive("addGrains");
    return addGrainsAndUpload(this.#core, options);
  }

  // ---- running --------------------------------------------------------------------------

  /**
   * Take one step (see {@linkcode StarSystemGpu.run}).
   *
   * @example
   * ```ts
   * import { gpu } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const sys = await StarSystemGpu.create();
   *   await sys.step(); // an empty system: the clock still advances
   *   expect(sys.lastStepStats.step).toBe(1);
   *   expect(sys.time).toBeCloseTo(1e-4, 15);
   *   sys.destroy();
   * }
   * ```
   */
  step(): Promise<void> {
    return this.run(1);
  }

  /**
   * Take `steps` steps on the GPU, recorded `batchSize` at a time into one command buffer
   * each, with at most two batches in flight. `onStep(done, system)` runs after each batch
   * (not each step); `progress: true` shows a bar in a notebook or a line on a terminal. Ends
   * with one statistics readback (`lastStepStats`); throws a RangeError naming the first grain
   * whose state became non-finite. The columns are not read back: call `read()`.
   *
   * @example
   * ```ts
   * import { gpu, StarShape } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const sys = await StarSystemGpu.create({ sampling: "lut", batchSize: 8 });
   *   sys.addGrains({ shape: StarShape.preset("cross"), positions: [[0, 1]] });
   *   let batches = 0;
   *   await sys.run(20, { onStep: () => batches++ });
   *   expect(batches).toBe(3); // 8 + 8 + 4 steps
   *   await sys.read();
   *   expect(sys.velocities[1]).toBeCloseTo(-9.81 * 20e-4, 5); // free fall
   *   sys.destroy();
   * }
   * ```
   */
  async run(steps: number, options?: RunOptions<this>): Promise<void> {
    this.#alive("run");
    integerIn(`${NAME}.run`, "steps", steps, 0, Number.MAX_SAFE_INTEGER);
    const o = checkOptions<RunOptions<this>>(`${NAME}.run`, "options", options, [
      "onStep",
      "progress",
    ]);
    if (o.onStep !== undefined && typeof o.onStep !== "function") {
      throw new TypeError(`${NAME}.run: onStep (${String(o.onStep)}) must be a function`);
    }
    if (this.walls.count > MAX_WALLS) {
      throw new RangeError(
        `${NAME}.run: walls.count (${this.walls.count}) must be <= ${MAX_WALLS} on the GPU`,
      );
    }
    if (steps === 0) return;
    const prog = o.progress
      ? new Progress(
        steps,
        o.progress === true ? { label: NAME } : objectOrEmpty(NAME, "progress", o.progress),
      )
      : null;
    await submitSteps(this.#core, steps, (done) => {
      o.onStep?.(done, this);
      prog?.update(done);
    });
    await readStats(this.#core);
    if (prog) await prog.done();
  }

  /**
   * Read the state back into the columns (`positions`, `velocities`, `angles`,
   * `angularVelocities`), and on request the contacts of the last step (`contacts`) and the
   * tangential histories (kept for `saveState` / `toSystem`).
   *
   * @example
   * ```ts
   * import { gpu, StarShape } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const sys = await StarSystemGpu.create({ sampling: "lut", gravity: [0, 0] });
   *   const cross = StarShape.preset("cross", { rMax: 0.005 });
   *   sys.addGrains({ shape: cross, positions: [[0, 0], [0.0068, 0]], angles: Math.PI / 8 });
   *   await sys.step();
   *   expect(sys.stale).toBe(true);
   *   await sys.read({ contacts: true });
   *   expect(sys.stale).toBe(false);
   *   expect(sys.contacts.count).toBe(2); // two arms touch: two distinct contacts
   *   expect(sys.contacts.i[0]).toBe(0);
   *   expect(sys.contacts.j[0]).toBe(1);
   *   sys.destroy();
   * }
   * ```
   */
  async read(options: GpuReadOptions = {}): Promise<void> {
    this.#alive("read");
    const o = checkOptions<GpuReadOptions>(`${NAME}.read`, "options", options, READ_KEYS);
    const contacts = bool(`${NAME}.read`, "contacts", o.contacts, false);
    const history = bool(`${NAME}.read`, "history", o.history, false);
    const core = this.#core, n = core.n, host = this.#host;
    if (n > 0) {
      await ready(core);
      const state = core.buf!.state[core.parity];
      const bytes = await readBuffer(core.device, state, 0, GRAIN_BYTES * n);
      decodeGrains(
        bytes,
        n,
        core.q,
        host.store.pos,
        host.store.vel,
        host.store.ang,
        host.store.omega,
      );
    }
    if (contacts) await readContacts(core);
    if (history) await readHistory(core);
    core.readStep = this.lastStepStats.step;
    Object.assign(host.lastStepStats, this.lastStepStats);
    host.lastStepStats.step = this.lastStepStats.step;
  }

  /**
   * A CPU {@linkcode StarSystem} with this system's parameters, shapes, walls, clock and the
   * state of the last `read()` (and its tangential histories when read with `history: true`):
   * to continue on the CPU, save a checkpoint or compare.
   *
   * @example
   * ```ts
   * import { gpu, StarShape } from "@grainlab/grainlab/star2d";
   * const { gpuAvailable, StarSystemGpu } = gpu;
   * import { expect } from "expect";
   * if (await gpuAvailable()) {
   *   const sys = await StarSystemGpu.create({ sampling: "lut" });
   *   sys.addGrains({ shape: StarShape.preset("cross"), positions: [[0, 1]] });
   *   await sys.run(10);
   *   await sys.read({ history: true });
   *   const cpu = sys.toSystem();
   *   expect(cpu.count).toBe(1);
   *   expect(cpu.time).toBeCloseTo(1e-3, 15);
   *   expect(cpu.positions[1]).toBe(sys.positions[1]);
   *   sys.destroy();
   * }
   * ```
   */
  toSystem(): StarSystem {
    this.#alive("toSystem");
    const cpu = new StarSystem();
    cpu.loadStateBytes(this.#host.stateBytes(), `${NAME}.toSystem`);
    return cpu;
  }

  /** Release the GPU buffers and textures (the device stays, it may be shared). */
  destroy(): void {
    if (this.#destroyed) return;
    this.#destroyed = true;
    this.#core.destroy();
  }

  // ---- internals ------------------------------------------------------------------------

  #alive(what: string): void {
    if (this.#destroyed) throw new Error(`${NAME}.${what}: the system was destroyed`);
  }
}
