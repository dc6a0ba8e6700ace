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
 * @module
 */

import { type StarGrainsOptions, StarSystem, type StarSystemOptions } from "../system.ts";
import type { StepStats } from "../body.ts";
import type { StarContacts } from "../contacts.ts";
import type { StarShape } from "../shape.ts";
import type { Walls } from "../walls.ts";
import { contactBuffers } from "../../contact/record.ts";
import { GRAIN_SYSTEM_KEYS } from "../options.ts";
import { integerIn, objectOrEmpty, options as checkOptions } from "../../math/validate.ts";
import { Progress, type RunOptions } from "../../math/progress.ts";
import { type GpuContext, requestGpu } from "./device.ts";
import { DEFAULT_SPRITE_RESOLUTION, StarSprite } from "./sprite.ts";
import {
  encodeParams,
  encodeShapes,
  GRAIN_BYTES,
  POSE_BYTES,
  type SpriteGeometry,
  WALL_BLOCK_BYTES,
  writeGrain,
  writeWalls,
} from "./layout.ts";
import { buildPipelines, dims, GpuScan, type Pipelines } from "./pipelines.ts";
import { decodeGrains, readBuffer } from "./readback.ts";
import { RECORD_WORDS } from "./wgsl_forces.ts";
import { MAX_WALLS, WG, WG_FORCES } from "./wgsl_common.ts";

/** Options of {@linkcode StarSystemGpu}: the CPU system's, plus the GPU's own. */
export interface StarSystemGpuOptions extends Omit<StarSystemOptions, "contactPoints"> {
  /**
   * How node tests read a shape: its 2D "sprite" textures (the paper's GPU path: a few texel
   * reads, no atan2) or the CPU's 1D lookup tables (an atan2 and two table reads; agrees with
   * the CPU to float32 round-off). @default "sprite"
   */
  sampling?: "sprite" | "lut";
  /** Sprite texels per side, a multiple of 16 (32 bytes per texel per shape). @default 1024 */
  spriteResolution?: number;
  /**
   * Tangential-history slots per grain (contacts a grain owns: with higher-index grains and
   * walls). Contacts beyond it still act but start without history (`historyOverflow`).
   * @default 16
   */
  contactSlots?: number;
  /**
   * Neighbour slots per grain: grains whose bounding circles intersect its own (about 6 in a
   * dense packing of crosses). More at any step make `run` throw. @default 24
   */
  neighborSlots?: number;
  /** Steps recorded into one command buffer by `run`. @default 32 */
  batchSize?: number;
  /** A device to use (from {@linkcode requestGpu}); by default one is requested. */
  gpu?: GpuContext;
}

/** Statistics of the last GPU step: the CPU system's, plus the history overflow. */
export interface GpuStepStats extends StepStats {
  /** Owned contacts that found no free history slot (they act, without tangential history). */
  historyOverflow: number;
}

/** Options of {@linkcode StarSystemGpu.read}. */
export interface GpuReadOptions {
  /** Also read the contacts of the last step into `contacts`. @default false */
  contacts?: boolean;
  /** Also read the tangential histories (for `saveState` and `toSystem`). @default false */
  history?: boolean;
}

const GPU_KEYS = [
  ...GRAIN_SYSTEM_KEYS,
  "distance",
  "detection",
  "sampling",
  "spriteResolution",
  "contactSlots",
  "neighborSlots",
  "batchSize",
  "gpu",
];
const READ_KEYS = ["contacts", "history"];
const NAME = "StarSystemGpu";

interface Buffers {
  cap: number;
  buckets: number;
  state: [GPUBuffer, GPUBuffer];
  hist: [GPUBuffer, GPUBuffer];
  poses: GPUBuffer;
  counts: GPUBuffer;
  grid: GPUBuffer;
  nbr: GPUBuffer;
  xfer: GPUBuffer;
  partials: GPUBuffer;
  scan: GpuScan;
}

/**
 * Star-shaped grains on the GPU (WebGPU): the same scene API (`addShape`, `addGrains`,
 * `walls`), contact law and contact record as {@linkcode StarSystem}, in float32. `run` and
 * `step` are asynchronous; the columns (`positions`, `velocities`, …) and `contacts` are the
 * CPU copies as of the last {@linkcode StarSystemGpu.read}, statistics are fresh after every
 * `run`.
 *
 * @example
 * ```ts
 * import { gpuAvailable, StarShape, StarSystemGpu } from "@grainlab/grainlab/star2d";
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

  readonly #host: StarSystem;
  readonly #device: GPUDevice;
  #pipes: Pipelines | null = null;
  #buf: Buffers | null = null;
  #q = 0;
  #n = 0; // grains on the GPU
  #parity = 0; // index of the state/history buffers holding the current state
  #params: GPUBuffer;
  #walls: GPUBuffer;
  #flags: GPUBuffer;
  #shapes: GPUBuffer | null = null;
  #shapeCount = 0;
  #texA: GPUTexture | null = null;
  #texB: GPUTexture | null = null;
  #bg: {
    prepare: GPUBindGroup[];
    scatter: GPUBindGroup;
    sort: GPUBindGroup;
    neighbors: GPUBindGroup;
    forces: GPUBindGroup[][];
    gather: GPUBindGroup[];
    reduce: GPUBindGroup[];
  } | null = null;
  readonly #dims = new Uint32Array(6);
  #recordValid = false;
  #readStep = -1;
  #destroyed = false;

  /**
   * A system on the given device (see {@linkcode StarSystemGpu.create}, which requests one).
   * Options are checked like the CPU system's.
   */
  constructor(gpu: GpuContext, options: StarSystemGpuOptions = {}) {
    const o = checkOptions<StarSystemGpuOptions>(NAME, "options", options, GPU_KEYS);
    const sampling = o.sampling ?? "sprite";
    if (sampling !== "sprite" && sampling !== "lut") {
      throw new RangeError(`${NAME}: sampling (${sampling}) must be "sprite" or "lut"`);
    }
    const res = o.spriteResolution ?? DEFAULT_SPRITE_RESOLUTION;
    integerIn(NAME, "spriteResolution", res, 16, gpu.device.limits.maxTextureDimension2D);
    if (res % 16 !== 0) {
      throw new RangeError(`${NAME}: spriteResolution (${res}) must be a multiple of 16`);
    }
    this.contactSlots = integerIn(NAME, "contactSlots", o.contactSlots ?? 16, 1, 256);
    this.neighborSlots = integerIn(NAME, "neighborSlots", o.neighborSlots ?? 24, 1, 1024);
    this.batchSize = integerIn(NAME, "batchSize", o.batchSize ?? 32, 1, 4096);
    this.#host = new StarSystem(withoutGpuKeys(o));
    this.sampling = sampling;
    this.spriteResolution = res;
    this.gpu = gpu;
    this.adapterName = gpu.name;
    this.#device = gpu.device;
    this.#params = this.#device.createBuffer({
      size: 256,
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.#walls = this.#device.createBuffer({
      size: WALL_BLOCK_BYTES * (this.batchSize + 1),
      usage: GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST,
    });
    this.#flags = this.#device.createBuffer({
      size: 16,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC,
    });
  }

  /**
   * Request a device ({@linkcode requestGpu}, unless `options.gpu` is given) and create an
   * empty system. Throws `WebGpuUnavailableError` naming what is missing when there is no
   * WebGPU or no adapter.
   *
   * @example
   * ```ts
   * import { gpuAvailable, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
   * import { gpuAvailable, packingScene, StarSystem, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
    const o = checkOptions<StarSystemGpuOptions>(`${NAME}.fromSystem`, "options", options, [
      "sampling",
      "spriteResolution",
      "contactSlots",
      "neighborSlots",
      "batchSize",
      "gpu",
    ]);
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
    await gpu.#uploadAll();
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
    return this.#readStep;
  }
  /** True when steps were taken since the last `read()`: the columns are behind. */
  get stale(): boolean {
    return this.#readStep !== this.lastStepStats.step;
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
    return this.#q;
  }

  /**
   * The outline of grain `i` in world coordinates as of the last read (see
   * `StarSystem.outline`).
   *
   * @example
   * ```ts
   * import { gpuAvailable, StarShape, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
   * import { gpuAvailable, StarShape, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
    const k = this.#host.addShape(shape);
    this.#syncShapes();
    return k;
  }

  /**
   * Add grains of one shape (as `StarSystem.addGrains`); returns the slot of the first. They
   * are uploaded at once; the contacts of the last step can no longer be read until the next
   * step.
   *
   * @example
   * ```ts
   * import { gpuAvailable, StarShape, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
    const host = this.#host;
    const before = host.count, nextId = host._nextId, cell = host._cell, q = this.#q;
    const shapes = host.starShapes.length;
    const first = host.addGrains(options);
    try {
      if (this.#q === 0) this.#q = 2 ** Math.floor(Math.log2(host._cell / 16));
      this.#ensureCapacity(host.count);
      this.#syncShapes();
    } catch (e) {
      // a failed call changes nothing: take the grains (and a new shape) back out
      host.count = before;
      host._nextId = nextId;
      host._cell = cell;
      host.starShapes.length = shapes;
      this.sprites.length = Math.min(this.sprites.length, shapes);
      this.#q = q;
      throw e;
    }
    this.#upload(before, host.count);
    this.#n = host.count;
    this.#readStep = this.lastStepStats.step;
    this.#recordValid = false;
    return first;
  }

  // ---- running --------------------------------------------------------------------------

  /**
   * Take one step (see {@linkcode StarSystemGpu.run}).
   *
   * @example
   * ```ts
   * import { gpuAvailable, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
   * import { gpuAvailable, StarShape, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
    await this.#ready();
    const dev = this.#device, host = this.#host, walls = host.walls;
    const block = new ArrayBuffer(WALL_BLOCK_BYTES * this.batchSize);
    const dv = new DataView(block);
    let done = 0;
    let inFlight: Promise<void> | null = null;
    dev.pushErrorScope("validation");
    dev.pushErrorScope("out-of-memory");
    this.#writeParams();
    if (this.#n > 0) {
      // workgroup counts of this run: per grain (256), per bucket (256), forces (64)
      const d = this.#dims, b = this.#buf!;
      [d[0], d[1]] = dims(Math.ceil(this.#n / WG));
      [d[2], d[3]] = dims(Math.ceil(b.buckets / WG));
      [d[4], d[5]] = dims(Math.ceil(this.#n / WG_FORCES));
    }
    while (done < steps) {
      const b = Math.min(this.batchSize, steps - done);
      for (let k = 0; k < b; k++) {
        writeWalls(dv, WALL_BLOCK_BYTES * k, this.#q, walls);
        walls.advance(host.timeStep);
        host.time += host.timeStep;
      }
      dev.queue.writeBuffer(this.#walls, 0, block, 0, WALL_BLOCK_BYTES * b);
      // the last step's walls again, for the contact record
      const lastWalls = WALL_BLOCK_BYTES * this.batchSize;
      dev.queue.writeBuffer(
        this.#walls,
        lastWalls,
        block,
        WALL_BLOCK_BYTES * (b - 1),
        WALL_BLOCK_BYTES,
      );
      const enc = dev.createCommandEncoder();
      if (this.#n > 0) {
        const pass = enc.beginComputePass();
        for (let k = 0; k < b; k++) this.#encodeStep(pass, k);
        pass.end();
      }
      dev.queue.submit([enc.finish()]);
      done += b;
      this.lastStepStats.step += b;
      if (inFlight) await inFlight;
      inFlight = dev.queue.onSubmittedWorkDone();
      o.onStep?.(done, this);
      prog?.update(done);
    }
    if (inFlight) await inFlight;
    const oom = await dev.popErrorScope();
    const invalid = await dev.popErrorScope();
    if (oom || invalid) {
      throw new Error(`${NAME}.run: the GPU rejected the work: ${(oom ?? invalid)!.message}`);
    }
    this.#recordValid = this.#n > 0;
    await this.#readStats();
    if (prog) await prog.done();
  }

  /**
   * Read the state back into the columns (`positions`, `velocities`, `angles`,
   * `angularVelocities`), and on request the contacts of the last step (`contacts`) and the
   * tangential histories (kept for `saveState` / `toSystem`).
   *
   * @example
   * ```ts
   * import { gpuAvailable, StarShape, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
    const n = this.#n, host = this.#host;
    if (n > 0) {
      await this.#ready();
      const buf = this.#buf!;
      const bytes = await readBuffer(this.#device, buf.state[this.#parity], 0, GRAIN_BYTES * n);
      decodeGrains(bytes, n, this.#q, host._pos, host._vel, host._ang, host._omega);
    }
    if (o.contacts) await this.#readContacts();
    if (o.history) await this.#readHistory();
    this.#readStep = this.lastStepStats.step;
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
   * import { gpuAvailable, StarShape, StarSystemGpu } from "@grainlab/grainlab/star2d";
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
    this.#freeBuffers();
    this.#shapes?.destroy();
    this.#texA?.destroy();
    this.#texB?.destroy();
    this.#params.destroy();
    this.#walls.destroy();
    this.#flags.destroy();
  }

  // ---- internals ------------------------------------------------------------------------

  #alive(what: string): void {
    if (this.#destroyed) throw new Error(`${NAME}.${what}: the system was destroyed`);
  }

  async #ready(): Promise<void> {
    if (!this.#pipes) {
      this.#pipes = await buildPipelines(this.#device, {
        sprite: this.sampling === "sprite",
        firstOrder: this.distance === "first-order",
        symmetric: this.detection === "symmetric",
      });
    }
    if (this.#n > 0 && !this.#bg) this.#bindGroups();
  }

  async #uploadAll(): Promise<void> {
    const host = this.#host;
    if (host.count > 0) {
      this.#q = 2 ** Math.floor(Math.log2(host._cell / 16));
      this.#syncShapes();
      this.#ensureCapacity(host.count);
      this.#upload(0, host.count);
      this.#n = host.count;
      this.#importHistory();
    }
    this.#readStep = this.lastStepStats.step;
    await this.#ready();
  }

  /** (Re)build the shape table and, with sprites, the texture arrays, when shapes were added. */
  #syncShapes(): void {
    const shapes = this.#host.starShapes;
    if (shapes.length === this.#shapeCount && this.#shapes) return;
    const dev = this.#device;
    const geo: (SpriteGeometry | null)[] = [];
    if (this.sampling === "sprite") {
      for (let k = this.sprites.length; k < shapes.length; k++) {
        this.sprites.push(new StarSprite(shapes[k], this.spriteResolution));
      }
      for (let k = 0; k < shapes.length; k++) {
        const s = this.sprites[k];
        geo.push({ layer: k, halfWidth: s.halfWidth, texel: s.texel, resolution: s.resolution });
      }
    } else {
      for (let k = 0; k < shapes.length; k++) geo.push(null);
    }
    const table = encodeShapes(shapes, geo);
    this.#shapes?.destroy();
    this.#shapes = dev.createBuffer({
      size: table.words.byteLength,
      usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_DST,
    });
    dev.queue.writeBuffer(this.#shapes, 0, table.words);
    this.#texA?.destroy();
    this.#texB?.destroy();
    const S = this.sampling === "sprite" ? this.spriteResolution : 1;
    const layers = Math.max(1, this.sampling === "sprite" ? shapes.length : 1);
    const desc: GPUTextureDescriptor = {
      size: [S, S, layers],
      format: "rgba32float",
      usage: GPUTextureUsage.TEXTURE_BINDING | GPUTextureUsage.COPY_DST,
      dimension: "2d",
    };
    this.#texA = dev.createTexture(desc);
    this.#texB = dev.createTexture(desc);
    if (this.sampling === "sprite") {
      for (let k = 0; k < shapes.length; k++) {
        const sp = this.sprites[k];
        const layout = { bytesPerRow: 16 * S, rowsPerImage: S };
        dev.queue.writeTexture({ texture: this.#texA, origin: [0, 0, k] }, sp.a, layout, [S, S, 1]);
        dev.queue.writeTexture({ texture: this.#texB, origin: [0, 0, k] }, sp.b, layout, [S, S, 1]);
      }
    }
    this.#shapeCount = shapes.length;
    this.#bg = null;
  }

  #ensureCapacity(n: number): void {
    const old = this.#buf;
    if (old && n <= old.cap) return;
    let cap = Math.max(256, old?.cap ?? 0);
    while (cap < n) cap *= 2;
    const K = this.contactSlots, L = this.neighborSlots;
    let buckets = 1024;
    while (buckets < 2 * cap) buckets *= 2;
    const histBytes = 4 * (9 * cap + 3 * K * cap);
    const sizes: [string, number, string][] = [
      ["history", histBytes, "contactSlots"],
      ["neighbour-list", 4 * cap * (4 + 3 * L), "neighborSlots"],
      ["force-transfer", 12 * cap * (L + 1), "neighborSlots"],
      ["state", GRAIN_BYTES * cap, "the grain count"],
      ["grid", 4 * (buckets + 1 + cap), "the grain count"],
    ];
    const lim = this.#device.limits;
    const limit = Math.min(lim.maxStorageBufferBindingSize, lim.maxBufferSize);
    for (const [what, bytes, knob] of sizes) {
      if (bytes > limit) {
        throw new RangeError(
          `${NAME}: ${n} grains (room for ${cap}) need a ${
            (bytes / 2 ** 20).toFixed(0)
          } MiB ${what} buffer; this adapter (${this.adapterName}) binds at most ${
            (limit / 2 ** 20).toFixed(0)
          } MiB: reduce ${knob}${knob === "the grain count" ? "" : " or the grain count"}`,
        );
      }
    }
    const dev = this.#device;
    const S = GPUBufferUsage.STORAGE, C = GPUBufferUsage.COPY_SRC, D = GPUBufferUsage.COPY_DST;
    const mk = (size: number, usage: number) =>
      dev.createBuffer({ size: Math.max(16, size), usage });
    const state: [GPUBuffer, GPUBuffer] = [
      mk(GRAIN_BYTES * cap, S | C | D),
      mk(GRAIN_BYTES * cap, S | C | D),
    ];
    const hist: [GPUBuffer, GPUBuffer] = [mk(histBytes, S | C | D), mk(histBytes, S | C | D)];
    const counts = mk(4 * (buckets + 1), S);
    const grid = mk(4 * (buckets + 1 + cap), S);
    const nbr = mk(4 * cap * (4 + 3 * this.neighborSlots), S);
    const xfer = mk(12 * cap * (this.neighborSlots + 1), S);
    const poses = mk(POSE_BYTES * cap, S);
    const partials = mk(64 * Math.ceil(cap / WG), S | C);
    if (old) {
      const enc = dev.createCommandEncoder();
      const p = this.#parity, m = this.#n;
      if (m > 0) {
        enc.copyBufferToBuffer(old.state[p], 0, state[p], 0, GRAIN_BYTES * m);
        enc.copyBufferToBuffer(old.hist[p], 0, hist[p], 0, 4 * m);
        enc.copyBufferToBuffer(old.hist[p], 36 * old.cap, hist[p], 36 * cap, 12 * K * m);
      }
      dev.queue.submit([enc.finish()]);
    }
    this.#freeBuffers(old);
    this.#buf = {
      cap,
      buckets,
      state,
      hist,
      poses,
      counts,
      grid,
      nbr,
      xfer,
      partials,
      scan: null as unknown as GpuScan,
    };
    this.#bg = null;
    this.#recordValid = false;
  }

  #freeBuffers(b: Buffers | null = this.#buf): void {
    if (!b) return;
    for (const x of [...b.state, ...b.hist, b.poses, b.counts, b.grid, b.nbr, b.xfer, b.partials]) {
      x.destroy();
    }
    b.scan?.destroy();
    if (b === this.#buf) this.#buf = null;
  }

  /** Write grains [from, to) of the host into the current state buffer. */
  #upload(from: number, to: number): void {
    if (to <= from) return;
    const host = this.#host, buf = this.#buf!;
    const bytes = new ArrayBuffer(GRAIN_BYTES * (to - from));
    const dv = new DataView(bytes);
    for (let i = from; i < to; i++) {
      writeGrain(dv, GRAIN_BYTES * (i - from), this.#q, {
        x: host._pos[2 * i],
        y: host._pos[2 * i + 1],
        vx: host._vel[2 * i],
        vy: host._vel[2 * i + 1],
        angle: host._ang[i],
        omega: host._omega[i],
        shape: host._shape[i],
        mass: host._mass[i],
        inertia: host._inertia[i],
      });
    }
    this.#device.queue.writeBuffer(buf.state[this.#parity], GRAIN_BYTES * from, bytes);
    // new grains start without history
    this.#device.queue.writeBuffer(buf.hist[this.#parity], 4 * from, new Uint32Array(to - from));
  }

  #writeParams(): void {
    const host = this.#host, buf = this.#buf;
    const cap = buf?.cap ?? 0;
    const q = this.#q || 1;
    const params = encodeParams({
      n: this.#n,
      buckets: buf?.buckets ?? 1024,
      slots: this.contactSlots,
      shapeCount: host.starShapes.length,
      cellTiles: Math.ceil((host._cell || 1) / q) + 1,
      wallCount: host.walls.count,
      statsOff: cap,
      entriesOff: 9 * cap,
      sortedOff: (buf?.buckets ?? 1024) + 1,
      nbrSlots: this.neighborSlots,
      q,
      dt: host.timeStep,
      gx: host.gravityX,
      gy: host.gravityY,
      kn: host.kn,
      kt: host.kt,
      cn: host.cn,
      ct: host.ct,
      mu: host.friction,
      cr: host.rotationalDamping,
      keyTol: host._keyTol,
    });
    this.#device.queue.writeBuffer(this.#params, 0, params);
  }

  #bindGroups(): void {
    const dev = this.#device, p = this.#pipes!, b = this.#buf!;
    b.scan?.destroy();
    b.scan = new GpuScan(dev, p, b.counts, b.grid, b.buckets + 1);
    const P = { buffer: this.#params, offset: 0, size: 96 };
    const bg = (pipe: GPUComputePipeline, entries: [number, GPUBindingResource][]) =>
      dev.createBindGroup({
        layout: pipe.getBindGroupLayout(0),
        entries: entries.map(([binding, resource]) => ({ binding, resource })),
      });
    const sprite = this.sampling === "sprite";
    const tex: [number, GPUBindingResource][] = sprite
      ? [[9, this.#texA!.createView({ dimension: "2d-array" })], [
        10,
        this.#texB!.createView({ dimension: "2d-array" }),
      ]]
      : [];
    const forces: GPUBindGroup[][] = [[], []];
    for (let par = 0; par < 2; par++) {
      for (let k = 0; k <= this.batchSize; k++) {
        forces[par].push(bg(p.forces, [
          [0, P],
          [1, { buffer: this.#walls, offset: WALL_BLOCK_BYTES * k, size: WALL_BLOCK_BYTES }],
          [2, { buffer: b.state[par] }],
          [3, { buffer: b.xfer }],
          [4, { buffer: b.poses }],
          [5, { buffer: b.nbr }],
          [6, { buffer: b.hist[par] }],
          [7, { buffer: b.hist[1 - par] }],
          [8, { buffer: this.#shapes! }],
          ...tex,
        ]));
      }
    }
    this.#bg = {
      prepare: [0, 1].map((par) =>
        bg(p.prepare, [[0, P], [1, { buffer: b.state[par] }], [2, { buffer: b.poses }], [3, {
          buffer: b.counts,
        }], [4, { buffer: this.#shapes! }]])
      ),
      scatter: bg(p.scatter, [[0, P], [2, { buffer: b.poses }], [3, { buffer: b.counts }], [4, {
        buffer: b.grid,
      }]]),
      sort: bg(p.sort, [[0, P], [4, { buffer: b.grid }]]),
      neighbors: bg(p.neighbors, [
        [0, P],
        [2, { buffer: b.poses }],
        [4, { buffer: b.grid }],
        [5, { buffer: b.nbr }],
        [6, { buffer: this.#shapes! }],
        [7, { buffer: this.#flags }],
      ]),
      forces,
      gather: [0, 1].map((par) =>
        bg(p.gather, [
          [0, P],
          [1, { buffer: b.state[par] }],
          [2, { buffer: b.state[1 - par] }],
          [3, { buffer: b.nbr }],
          [4, { buffer: b.xfer }],
          [5, { buffer: b.hist[1 - par] }],
        ])
      ),
      reduce: [0, 1].map((par) =>
        bg(p.reduce, [[0, P], [1, { buffer: b.state[par] }], [2, { buffer: b.hist[par] }], [3, {
          buffer: b.partials,
        }]])
      ),
    };
  }

  /** Record one step (the k-th of the batch) into the pass and flip the parity. */
  #encodeStep(pass: GPUComputePassEncoder, k: number): void {
    const p = this.#pipes!, bg = this.#bg!, b = this.#buf!, par = this.#parity, d = this.#dims;
    pass.setPipeline(p.prepare);
    pass.setBindGroup(0, bg.prepare[par]);
    pass.dispatchWorkgroups(d[0], d[1]);
    b.scan.encode(pass);
    pass.setPipeline(p.scatter);
    pass.setBindGroup(0, bg.scatter);
    pass.dispatchWorkgroups(d[0], d[1]);
    pass.setPipeline(p.sort);
    pass.setBindGroup(0, bg.sort);
    pass.dispatchWorkgroups(d[2], d[3]);
    pass.setPipeline(p.neighbors);
    pass.setBindGroup(0, bg.neighbors);
    pass.dispatchWorkgroups(d[0], d[1]);
    pass.setPipeline(p.forces);
    pass.setBindGroup(0, bg.forces[par][k]);
    pass.dispatchWorkgroups(d[4], d[5]);
    pass.setPipeline(p.gather);
    pass.setBindGroup(0, bg.gather[par]);
    pass.dispatchWorkgroups(d[0], d[1]);
    this.#parity = 1 - par;
  }

  /** Reduce the last step's statistics on the GPU and read the per-workgroup partials. */
  async #readStats(): Promise<void> {
    const s = this.lastStepStats, host = this.#host;
    s.time = host.time;
    const n = this.#n;
    if (n === 0) {
      for (const k of STAT_KEYS) s[k] = 0;
      return;
    }
    const dev = this.#device, b = this.#buf!, bg = this.#bg!;
    const groups = Math.ceil(n / WG);
    const enc = dev.createCommandEncoder();
    const pass = enc.beginComputePass();
    pass.setPipeline(this.#pipes!.reduce);
    pass.setBindGroup(0, bg.reduce[this.#parity]);
    const [x, y] = dims(groups);
    pass.dispatchWorkgroups(x, y);
    pass.end();
    dev.queue.submit([enc.finish()]);
    const bytes = await readBuffer(dev, b.partials, 0, 64 * groups);
    const u = new Uint32Array(bytes), f = new Float32Array(bytes);
    const sum = new Float64Array(9);
    let maxOv = 0, maxV2 = 0, ke = 0, firstBad = -1;
    for (let g = 0; g < groups; g++) {
      const o = 16 * g;
      for (let k = 0; k < 9; k++) sum[k] += u[o + k];
      maxOv = Math.max(maxOv, f[o + 9]);
      maxV2 = Math.max(maxV2, f[o + 10]);
      ke += f[o + 11];
      if (firstBad < 0 && u[o + 12] !== 0xffffffff) firstBad = u[o + 12];
    }
    const flags = new Uint32Array(await readBuffer(dev, this.#flags, 0, 16));
    s.candidatePairs = sum[0];
    s.boundingHits = sum[1];
    s.nodeTests = sum[2];
    s.pairsInContact = sum[3];
    s.particleContacts = sum[4];
    s.boundaryContacts = sum[5];
    s.historyOverflow = sum[6];
    s.contactsPerPair = sum[3] > 0 ? sum[4] / sum[3] : 0;
    s.maxPenetration = maxOv;
    s.maxSpeed = Math.sqrt(maxV2);
    s.kineticEnergy = ke;
    if (flags[0] > 0) {
      throw new RangeError(
        `${NAME}.run: neighborSlots (${this.neighborSlots}) is too small: a grain had ${
          flags[1]
        } neighbours whose bounding circles intersect its own (${flags[0]} pairs missed in all, ` +
          `by step ${s.step}); create the system with a larger neighborSlots`,
      );
    }
    if (sum[7] > 0 || !Number.isFinite(ke)) {
      throw new RangeError(
        `${NAME}.run: ${
          firstBad >= 0
            ? `grain ${firstBad} (id ${firstBad}) has a non-finite state`
            : "the kinetic energy overflows float32"
        } after step ${s.step} (${sum[7]} non-finite grains in all); check the initial state, ` +
          "or reduce the time step",
      );
    }
  }

  /** Re-run the last step's detection and law in record mode and read the contacts. */
  async #readContacts(): Promise<void> {
    const c = this.#host.contacts;
    c.count = 0;
    const n = this.#n;
    if (n === 0 || this.lastStepStats.step === 0) return;
    if (!this.#recordValid) {
      throw new Error(
        `${NAME}.read: the contacts of the last step are unavailable after adding grains or ` +
          "loading a state; take a step first",
      );
    }
    await this.#ready();
    const total = this.lastStepStats.particleContacts + this.lastStepStats.boundaryContacts;
    if (total === 0) return;
    const dev = this.#device, b = this.#buf!, p = this.#pipes!;
    const last = 1 - this.#parity; // buffers of the last step's input
    const S = GPUBufferUsage.STORAGE;
    const cnt = dev.createBuffer({ size: 4 * (n + 1), usage: S });
    const offsets = dev.createBuffer({ size: 4 * (n + 1), usage: S });
    const records = dev.createBuffer({
      size: 4 * RECORD_WORDS * total,
      usage: S | GPUBufferUsage.COPY_SRC,
    });
    const scan = new GpuScan(dev, p, cnt, offsets, n + 1);
    try {
      const P = { buffer: this.#params, offset: 0, size: 96 };
      const countBg = dev.createBindGroup({
        layout: p.recordCount.getBindGroupLayout(0),
        entries: [
          { binding: 0, resource: P },
          { binding: 2, resource: { buffer: b.hist[this.#parity] } },
          { binding: 3, resource: { buffer: cnt } },
        ],
      });
      const entries: GPUBindGroupEntry[] = [
        { binding: 0, resource: P },
        {
          binding: 1,
          resource: {
            buffer: this.#walls,
            offset: WALL_BLOCK_BYTES * this.batchSize,
            size: WALL_BLOCK_BYTES,
          },
        },
        { binding: 2, resource: { buffer: b.state[last] } },
        { binding: 4, resource: { buffer: b.poses } },
        { binding: 5, resource: { buffer: b.nbr } },
        { binding: 6, resource: { buffer: b.hist[last] } },
        { binding: 8, resource: { buffer: this.#shapes! } },
        { binding: 11, resource: { buffer: offsets } },
        { binding: 12, resource: { buffer: records } },
      ];
      if (this.sampling === "sprite") {
        entries.push({ binding: 9, resource: this.#texA!.createView({ dimension: "2d-array" }) });
        entries.push({ binding: 10, resource: this.#texB!.createView({ dimension: "2d-array" }) });
      }
      const recBg = dev.createBindGroup({ layout: p.record.getBindGroupLayout(0), entries });
      const enc = dev.createCommandEncoder();
      const pass = enc.beginComputePass();
      pass.setPipeline(p.recordCount);
      pass.setBindGroup(0, countBg);
      let [x, y] = dims(Math.ceil((n + 1) / WG));
      pass.dispatchWorkgroups(x, y);
      scan.encode(pass);
      pass.setPipeline(p.record);
      pass.setBindGroup(0, recBg);
      [x, y] = dims(Math.ceil(n / WG_FORCES));
      pass.dispatchWorkgroups(x, y);
      pass.end();
      dev.queue.submit([enc.finish()]);
      const bytes = await readBuffer(dev, records, 0, 4 * RECORD_WORDS * total);
      this.#decodeRecords(bytes, total);
    } finally {
      scan.destroy();
      cnt.destroy();
      offsets.destroy();
      records.destroy();
    }
  }

  #decodeRecords(bytes: ArrayBuffer, total: number): void {
    const c = this.#host.contacts, q = this.#q;
    const u = new Uint32Array(bytes), s = new Int32Array(bytes), f = new Float32Array(bytes);
    c.reserve(total);
    for (let k = 0; k < total; k++) {
      const o = RECORD_WORDS * k;
      const i = u[o], j = s[o + 1], w = s[o + 2];
      const px = s[o + 3] * q + f[o + 6], py = s[o + 4] * q + f[o + 7];
      const nx = f[o + 8], ny = f[o + 9];
      // push takes detection's view (normal from i towards j) and stores it flipped
      c.push(i, j >= 0 ? j : w, j >= 0 ? 0 : 1, px, py, -nx, -ny, f[o + 10], f[o + 5]);
    }
    const bb = contactBuffers(c);
    for (let k = 0; k < total; k++) {
      const o = RECORD_WORDS * k;
      const fn = f[o + 11], ft = f[o + 12];
      const nx = bb.normal[2 * k], ny = bb.normal[2 * k + 1];
      bb.normalForce[k] = fn;
      bb.tangentialForce[2 * k] = ft * ny;
      bb.tangentialForce[2 * k + 1] = -ft * nx;
      c._ft[k] = ft;
      c._xi[k] = f[o + 13];
    }
  }

  /** Read the current history tables into the host's contact history (CPU format). */
  async #readHistory(): Promise<void> {
    const n = this.#n;
    if (n === 0) return;
    const b = this.#buf!, K = this.contactSlots;
    const counts = new Uint32Array(
      await readBuffer(this.#device, b.hist[this.#parity], 0, 4 * n),
    );
    const ent = await readBuffer(this.#device, b.hist[this.#parity], 36 * b.cap, 12 * K * n);
    const si = new Int32Array(ent), sf = new Float32Array(ent);
    let total = 0;
    for (let i = 0; i < n; i++) total += Math.min(counts[i], K);
    const A = new Int32Array(total), B = new Int32Array(total);
    const key = new Float64Array(total), xi = new Float64Array(total);
    let m = 0;
    for (let i = 0; i < n; i++) {
      for (let s = 0; s < Math.min(counts[i], K); s++) {
        const o = 3 * (K * i + s);
        A[m] = i;
        B[m] = si[o];
        key[m] = sf[o + 1];
        xi[m] = sf[o + 2];
        m++;
      }
    }
    this.#host._history.importRecorded(A, B, key, xi);
  }

  /** Write the host's contact history (ids = slots) into the current history table. */
  #importHistory(): void {
    const host = this.#host, n = host.count, K = this.contactSlots, b = this.#buf!;
    for (let i = 0; i < n; i++) if (host._ids[i] !== i) return; // ids are not slots: no history
    const h = host._history.exportRecorded();
    const counts = new Uint32Array(n);
    const ent = new ArrayBuffer(12 * K * n);
    const si = new Int32Array(ent), sf = new Float32Array(ent);
    for (let k = 0; k < h.a.length; k++) {
      const a = h.a[k];
      if (a < 0 || a >= n || counts[a] >= K) continue;
      const o = 3 * (K * a + counts[a]++);
      si[o] = h.b[k];
      sf[o + 1] = h.key[k];
      sf[o + 2] = h.xi[k];
    }
    this.#device.queue.writeBuffer(b.hist[this.#parity], 0, counts);
    this.#device.queue.writeBuffer(b.hist[this.#parity], 36 * b.cap, ent);
  }
}

const STAT_KEYS = [
  "candidatePairs",
  "boundingHits",
  "nodeTests",
  "pairsInContact",
  "particleContacts",
  "boundaryContacts",
  "historyOverflow",
  "contactsPerPair",
  "maxPenetration",
  "maxSpeed",
  "kineticEnergy",
] as const;

function withoutGpuKeys(o: StarSystemGpuOptions): StarSystemOptions {
  const {
    sampling: _s,
    spriteResolution: _r,
    contactSlots: _c,
    neighborSlots: _n,
    batchSize: _b,
    gpu: _g,
    ...cpu
  } = o;
  return cpu;
}
