/**
 * The StarSystem: rigid star-shaped grains in 2D with the StarDEM contact scheme.
 *
 * State is structure-of-arrays (see {@linkcode GrainSystem2}); `positions` are centres of
 * mass, `centres` the polar centres used by detection (they differ when the shape's centroid
 * is off its polar origin). A step: prepare poses → rebuild grid → candidate pairs →
 * nodes-to-surface detection (grains, walls) → forces → integrate → walls → statistics.
 *
 * @module
 */

import {
  GRAIN_INIT_KEYS,
  GRAIN_SYSTEM_KEYS,
  type GrainInit,
  GrainSystem2,
  type GrainSystemOptions,
} from "./body.ts";
import { STAR_OPTION_KEYS } from "./options.ts";
import { StarContacts } from "./contacts.ts";
import { options as checkOptions, positive } from "../math/validate.ts";
import { type ContactSink, StarDetector } from "./detect.ts";
import { StarShape } from "./shape.ts";
import { DEFAULT_CPU_SPRITE_RESOLUTION, ShapeSprite } from "./sprite.ts";
import type { ThreadHooks, ThreadModel } from "./threads/pool.ts";
import { Kind, plainShape, plainSprite, polarCentres } from "./threads/kernel.ts";

/** Options of {@linkcode StarSystem}. */
export interface StarSystemOptions extends GrainSystemOptions {
  /** Overlap estimate: the paper's first-order f/‖∇f‖ or the radial f. @default "first-order" */
  distance?: "first-order" | "radial";
  /**
   * Symmetric detection, or the one-sided variant of the paper's GPU code (only the nodes of
   * S₁, the grain with the lower stable id, are tested). @default "symmetric"
   */
  detection?: "symmetric" | "one-sided";
  /** One contact point per distinct contact (deepest node) or every inside node. @default "deepest" */
  contactPoints?: "deepest" | "all-nodes";
}

/**
 * How the CPU system's node tests read a shape (kept apart from {@linkcode StarSystemOptions},
 * whose keys the GPU system shares: its own `sampling` and `spriteResolution` mean textures).
 */
export interface StarSamplingOptions {
  /**
   * `"lut"`: the paper's CPU test — an atan2, the 1D lookup table of r and r′ and a sqrt per
   * node — after the sprite's cell classes have rejected the nodes that lie in cells wholly
   * outside the other grain (one byte read): the same bytes as without them, in less
   * time. `"sprite"`: the overlap and normal also come
   * from the sprite's sampled fields (a bilinear read in the other grain's body frame, no
   * atan2), which shortens a packing step a little more but moves first-order overlaps by
   * up to 2e-5·r_max (cross) or 7e-4·r_max (a random 17-coefficient shape) and normals by up
   * to 0.1 rad in concave cusps at 256 cells per side (see `spriteAccuracy`); so the default
   * stays exact. Circles (`StarShape.round`) take the exact test either way: it needs no
   * atan2 for them. @default "lut"
   */
  sampling?: "lut" | "sprite";
  /**
   * Sprite cells per side (16…4096), or 0 for no sprite: every node in the lens then takes
   * the full table test (`"lut"` only). @default 256
   */
  spriteResolution?: number;
  /** Threads of the detection (see {@linkcode StarSystem.threads}). @default 1 */
  threads?: number;
}

// The sampling keys are not stored in checkpoints: a restored system keeps its own.
const STAR_SYSTEM_KEYS = [
  ...GRAIN_SYSTEM_KEYS,
  ...STAR_OPTION_KEYS,
  "sampling",
  "spriteResolution",
  "threads",
];

/** Grains of one shape for {@linkcode StarSystem.addGrains}. */
export interface StarGrainsOptions extends GrainInit {
  /** A shape id returned by `addShape`, or a shape (registered on first use). */
  shape: number | StarShape;
}

/**
 * Star-shaped grains with nodes-to-surface contacts.
 *
 * @example
 * ```ts
 * import { StarShape, StarSystem } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const sys = new StarSystem({ timeStep: 1e-4, normalStiffness: 1000 });
 * const cross = StarShape.preset("cross", { area: 30e-6 });
 * sys.addGrains({ shape: cross, positions: [[0, 0.006], [0.009, 0.006]], angles: [0, 0.3] });
 * sys.walls.addPlane({ point: [0, 0], normal: [0, 1] });
 * sys.run(1000); // 0.1 s
 * expect(sys.count).toBe(2);
 * // Both crosses land, tip over onto two arms (tilted by π/8) and come to rest:
 * const stats = sys.lastStepStats;
 * expect(stats.boundaryContacts).toBe(4);
 * expect(stats.particleContacts).toBe(0);
 * expect(sys.angles[0]).toBeCloseTo(Math.PI / 8, 2);
 * expect(stats.kineticEnergy).toBeLessThan(1e-12);
 * // each arm carries half a grain's weight: δ ≈ m·g/(2·kn) = 0.52 µm
 * expect(stats.maxPenetration).toBeCloseTo((sys.masses[0] * 9.81) / (2 * 1000), 7);
 * ```
 */
export class StarSystem extends GrainSystem2 {
  /** Registered shapes, indexed by the `shapes` column. */
  readonly starShapes: StarShape[] = [];
  /** The overlap estimate in use. */
  readonly distance: "first-order" | "radial";
  /** The detection variant in use. */
  readonly detection: "symmetric" | "one-sided";
  /** The contact-point rule in use. */
  readonly contactPoints: "deepest" | "all-nodes";
  /** How node tests read a shape (see {@linkcode StarSamplingOptions}). */
  readonly sampling: "lut" | "sprite";
  /** Sprite cells per side, 0 for none. */
  readonly spriteResolution: number;
  /** @internal */ readonly detector: StarDetector = new StarDetector();
  /** One sprite per shape (empty without sprites). */ readonly #sprites: ShapeSprite[] = [];

  /** Create an empty system; see {@linkcode StarSystemOptions}. */
  constructor(options: StarSystemOptions & StarSamplingOptions = {}) {
    super("StarSystem", options, STAR_SYSTEM_KEYS, { trig: true, centre: true });
    options ??= {};
    const sampling = options.sampling ?? "lut";
    if (sampling !== "lut" && sampling !== "sprite") {
      throw new RangeError(`StarSystem: sampling (${sampling}) must be "lut" or "sprite"`);
    }
    const res = options.spriteResolution ?? DEFAULT_CPU_SPRITE_RESOLUTION;
    if (!(Number.isInteger(res) && (res === 0 || (res >= 16 && res <= 4096)))) {
      throw new RangeError(
        `StarSystem: spriteResolution (${res}) must be 0 or an integer in [16, 4096]`,
      );
    }
    if (sampling === "sprite" && res === 0) {
      throw new RangeError(`StarSystem: spriteResolution (0) must be >= 16 with sampling "sprite"`);
    }
    this.sampling = sampling;
    this.spriteResolution = res;
    const d = options.distance ?? "first-order";
    if (d !== "first-order" && d !== "radial") {
      throw new RangeError(`StarSystem: distance (${d}) must be "first-order" or "radial"`);
    }
    const det = options.detection ?? "symmetric";
    if (det !== "symmetric" && det !== "one-sided") {
      throw new RangeError(`StarSystem: detection (${det}) must be "symmetric" or "one-sided"`);
    }
    const cp = options.contactPoints ?? "deepest";
    if (cp !== "deepest" && cp !== "all-nodes") {
      throw new RangeError(`StarSystem: contactPoints (${cp}) must be "deepest" or "all-nodes"`);
    }
    this.distance = d;
    this.detection = det;
    this.contactPoints = cp;
    this.detector.settings = {
      firstOrder: d === "first-order",
      symmetric: det === "symmetric",
      allNodes: cp === "all-nodes",
    };
    this.detector.shapeList = this.starShapes;
    this.detector.out = this.contacts;
    this.detector.sampling = sampling;
    this.detector.sprites = this.#sprites;
    if (options.threads !== undefined) this.threads = options.threads;
  }

  /** @internal Star systems share their detection with threads. */
  protected override threadable(): boolean {
    return true;
  }

  /** Polar centres used by detection (m), stride 2, as of the last step. */
  get centres(): Float64Array {
    return this.store.centre.subarray(0, 2 * this.count);
  }

  /**
   * Register a shape; returns its id (the value of the `shapes` column).
   *
   * @example
   * ```ts
   * import { StarShape, StarSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const sys = new StarSystem();
   * expect(sys.addShape(StarShape.preset("flower"))).toBe(0);
   * ```
   */
  addShape(shape: StarShape): number {
    if (!(shape instanceof StarShape)) {
      throw new RangeError(`StarSystem.addShape: shape (${shape}) must be a StarShape`);
    }
    const k = this.starShapes.indexOf(shape);
    if (k >= 0) return k;
    if (this.starShapes.length >= 65535) {
      throw new RangeError(`StarSystem.addShape: too many shapes (${this.starShapes.length})`);
    }
    this.starShapes.push(shape);
    return this.starShapes.length - 1;
  }

  /**
   * Add grains of one shape; returns the slot of the first. Mass = arealDensity·area, moment of
   * inertia = arealDensity·polar moment of the actual shape about its centre of mass. Throws a
   * RangeError when the time step exceeds the stability bound for this shape.
   *
   * @example
   * ```ts
   * import { StarShape, StarSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const sys = new StarSystem();
   * sys.addGrains({ shape: StarShape.preset("peanut"), positions: [0, 0, 0.02, 0] });
   * expect(sys.count).toBe(2);
   * expect(sys.masses[0]).toBeGreaterThan(0);
   * expect(sys.ids[1]).toBe(1);
   * ```
   */
  addGrains(options: StarGrainsOptions): number {
    checkOptions("StarSystem.addGrains", "options", options, [...GRAIN_INIT_KEYS, "shape"]);
    // The shape is registered only once the grains are in: a failed call changes nothing.
    const given = options.shape;
    let sid: number, sh: StarShape | undefined;
    if (given instanceof StarShape) {
      const k = this.starShapes.indexOf(given);
      sid = k >= 0 ? k : this.starShapes.length;
      sh = given;
      if (k < 0 && sid >= 65535) {
        throw new RangeError(`StarSystem.addGrains: too many shapes (${sid})`);
      }
    } else {
      sid = given as number;
      sh = Number.isInteger(sid) ? this.starShapes[sid] : undefined;
    }
    if (!sh) {
      throw new RangeError(
        `StarSystem.addGrains: shape (${
          String(given)
        }) must be a StarShape or a registered shape id`,
      );
    }
    const rho = positive("StarSystem.addGrains", "arealDensity", options.arealDensity ?? 3.54);
    const off = Math.sqrt(sh.centroidX * sh.centroidX + sh.centroidY * sh.centroidY);
    const first = this.appendGrains("StarSystem.addGrains", options, {
      shape: sid,
      mass: rho * sh.area,
      inertia: rho * sh.polarMoment,
      rmax: sh.rMax,
      lever: sh.rMax + off,
    });
    if (sid === this.starShapes.length) this.starShapes.push(sh);
    this.prepare();
    return first;
  }

  /**
   * The outline of grain `i` in world coordinates: its boundary nodes (or `n` fresh samples),
   * x and y interleaved.
   *
   * @example
   * ```ts
   * import { StarShape, StarSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const sys = new StarSystem();
   * sys.addGrains({ shape: StarShape.preset("circle", { rMax: 1 }), positions: [[5, 0]] });
   * const poly = sys.outline(0);
   * expect(poly).toHaveLength(200);
   * expect(poly[0]).toBeCloseTo(6, 12);
   * ```
   */
  outline(i: number, options: { n?: number; out?: Float64Array } = {}): Float64Array {
    if (!(Number.isInteger(i) && i >= 0 && i < this.count)) {
      throw new RangeError(`StarSystem.outline: i (${i}) must be in [0, ${this.count})`);
    }
    const o = checkOptions<{ n?: number; out?: Float64Array }>(
      "StarSystem.outline",
      "options",
      options,
      ["n", "out"],
    );
    const sh = this.starShapes[this.store.shape[i]];
    const n = o.n ?? sh.nodes;
    const poly = sh.outline(n, o.out);
    const a = this.store.ang[i], c = Math.cos(a), s = Math.sin(a);
    const gx = sh.centroidX, gy = sh.centroidY;
    const ox = this.store.pos[2 * i], oy = this.store.pos[2 * i + 1];
    for (let k = 0; k < n; k++) {
      const x = poly[2 * k] - gx, y = poly[2 * k + 1] - gy;
      poly[2 * k] = ox + c * x - s * y;
      poly[2 * k + 1] = oy + s * x + c * y;
    }
    return poly;
  }

  /** @internal The lever arm of grain `i`: its shape's r_max plus its centroid offset. */
  override leverArm(i: number): number {
    const sh = this.starShapes[this.store.shape[i]];
    return sh.rMax + Math.sqrt(sh.centroidX * sh.centroidX + sh.centroidY * sh.centroidY);
  }

  /** The shapes `#centroids` was made from. */
  #centroidShapes: StarShape[] = [];
  /** Per shape id the centroid g about the polar centre (x, y). */
  #centroids: Float64Array = new Float64Array(0);

  /** Trig of the angles and polar centres c = x_G − R(θ)·g. */
  protected prepare(): void {
    const shapes = this.starShapes, g = this.#centroidShapes;
    // the shapes' centroids by shape id, refreshed when the shapes change (adds, loadState)
    let same = g.length === shapes.length;
    for (let k = 0; same && k < shapes.length; k++) same = g[k] === shapes[k];
    if (!same) {
      this.#centroidShapes = shapes.slice();
      this.#centroids = new Float64Array(shapes.flatMap((sh) => [sh.centroidX, sh.centroidY]));
    }
    // with threads, the columns are shared with them in place (replaced when they grew) and
    // the workers' model (the centroids above among it) is refreshed
    this.pool?.adopt(this);
    const st = this.store, n = this.count, ang = st.ang, C = st.cos, S = st.sin, ce = st.centre;
    // with threads, each takes a share (the same arithmetic, the same bytes)
    if (this.pool !== null) this.pool.prepareStars(this);
    else polarCentres(st.pos, ang, st.shape, this.#centroids, C, S, ce, 0, n);
    const d = this.detector;
    d.shapeId = this.store.shape;
    d.centre = ce;
    d.ang = ang;
    d.cos = C;
    d.sin = S;
    d.rmax = this.store.rmax;
    d.ids = this.store.ids;
    d.nodeTests = 0;
    // one sprite per shape (shared per shape object), rebuilt when shapes change (loadState)
    const res = this.spriteResolution, sp = this.#sprites;
    if (res > 0) {
      if (sp.length > shapes.length) sp.length = shapes.length;
      for (let k = 0; k < shapes.length; k++) {
        if (k >= sp.length || sp[k].shape !== shapes[k] || sp[k].resolution !== res) {
          sp[k] = ShapeSprite.of(shapes[k], res);
        }
      }
    }
    d.sampling = this.sampling;
  }

  /** Star grains are found by their polar centres (bounding circles are centred there). */
  protected detectionCentres(): Float64Array {
    return this.store.centre;
  }

  /** @internal What the threads call back into. */
  readonly threadHooks: ThreadHooks = {
    centres: () => this.store.centre,
    setCentres: (centres) => {
      this.store.centre = centres;
    },
    detector: () => this.detector,
    wallsInto: (sink) => this.#wallsInto(sink),
    keys: (keys) => this.#threadKeys(keys),
    model: () => this.#threadModel(),
  };
  /** What the workers' model depends on. */
  #threadKeys(keys: unknown[]): number {
    const d = this.detector, s = d.settings, shapes = this.starShapes, sp = this.#sprites;
    let k = 0;
    keys[k++] = Kind.star;
    for (let i = 0; i < shapes.length; i++) keys[k++] = shapes[i];
    for (let i = 0; i < sp.length; i++) keys[k++] = sp[i];
    keys[k++] = d.sampling;
    keys[k++] = s.firstOrder;
    keys[k++] = s.symmetric;
    keys[k++] = s.allNodes;
    return k;
  }
  /** The workers' model: plain copies of the shapes and sprites, the settings. */
  #threadModel(): ThreadModel {
    const d = this.detector, withFields = d.sampling === "sprite";
    return {
      kind: Kind.star,
      templates: [],
      shapes: this.starShapes.map(plainShape),
      sprites: this.#sprites.map((sp) => plainSprite(sp, withFields)),
      settings: { ...d.settings },
      sampling: d.sampling,
      centroids: this.#centroids.slice(),
    };
  }
  /** The wall contacts into `sink` (detection's view). */
  #wallsInto(sink: ContactSink): void {
    const walls = this.walls, det = this.detector, n = this.count, out = det.out;
    det.out = sink;
    for (let w = 0; w < walls.count; w++) {
      if (walls.enabled[w] === 0) continue;
      for (let i = 0; i < n; i++) det.wall(i, w, walls);
    }
    det.out = out;
  }

  #guardContacts: StarContacts | null = null;
  /**
   * @internal The contacts at the current positions, detected into a scratch record without
   * stepping (the GPU system's divergence guard measures its reference with them).
   */
  contactsNow(): StarContacts {
    const c = this.#guardContacts ??= new StarContacts();
    c.count = 0;
    this.prepare();
    this.rebuildGrid();
    this.findCandidates();
    const p = this.detectionState.pairs, A = p.a, B = p.b, ids = this.store.ids;
    const det = this.detector, out = det.out;
    det.out = c;
    try {
      for (let k = 0; k < p.count; k++) {
        const a = A[k], b = B[k];
        if (ids[a] > ids[b]) det.pair(b, a);
        else det.pair(a, b);
      }
    } finally {
      det.out = out;
    }
    this.#wallsInto(c);
    return c;
  }

  /** Nodes-to-surface detection of every candidate pair (and of the walls, when threaded). */
  protected detectContacts(): void {
    this.wallsDone = false;
    if (this.pool !== null && this.pool.detect(this)) {
      this.wallsDone = true;
      return;
    }
    const p = this.detectionState.pairs,
      A = p.a,
      B = p.b,
      ids = this.store.ids,
      det = this.detector;
    let inContact = 0;
    for (let k = 0; k < p.count; k++) {
      let a = A[k], b = B[k];
      if (ids[a] > ids[b]) {
        const t = a;
        a = b;
        b = t;
      }
      if (det.pair(a, b) > 0) inContact++;
    }
    this.detectionState.pairsInContact = inContact;
    this.detectionState.nodeTests = det.nodeTests;
  }

  /** Node tests of grains whose bounding circle reaches an enabled wall. */
  protected detectWallContacts(): void {
    if (this.wallsDone) return;
    this.#wallsInto(this.contacts);
    this.detectionState.nodeTests = this.detector.nodeTests;
  }
}
