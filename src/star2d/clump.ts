/**
 * Baselines for the cost comparison of the paper: plain disks (Cundall–Strack) and sphere
 * clumps (rigid grains made of several disks, Bell et al.), with the same contact laws,
 * integration and walls as the StarSystem (templates and the approximation of a star shape by
 * n disks: `clump_template.ts`).
 *
 * @module
 */

import {
  flatten,
  GRAIN_INIT_KEYS,
  GRAIN_SYSTEM_KEYS,
  type GrainInit,
  GrainSystem2,
  type GrainSystemOptions,
} from "./body.ts";
import { options as checkOptions, positive } from "../math/validate.ts";
import { ClumpDetector } from "./clump_detect.ts";
import type { ContactSink } from "./detect.ts";
import type { ThreadHooks, ThreadModel } from "./threads/pool.ts";
import { Kind, plainDisks } from "./threads/kernel.ts";
import { checkTemplate, type ClumpTemplate } from "./clump_template.ts";

export { approximateByDisks, clumpTemplate } from "./clump_template.ts";
export type { ClumpTemplate, ClumpTemplateOptions } from "./clump_template.ts";

/** Grains of one template for {@linkcode ClumpSystem.addGrains}. */
export interface ClumpGrainsOptions extends GrainInit {
  /** A template id from `addTemplate`, or a template (registered on first use). */
  template: number | ClumpTemplate;
}

/**
 * Rigid clumps of disks (Bell et al.): every overlapping disk pair of two clumps is a contact
 * (point at the middle of the overlap, normal along the centres), forces summed on the clump.
 * Each disk is first checked against the other clump's bounding circle.
 *
 * @example
 * ```ts
 * import { approximateByDisks, ClumpSystem, StarShape } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const sys = new ClumpSystem();
 * const t = approximateByDisks(StarShape.preset("cross", { area: 30e-6 }), 9);
 * sys.addGrains({ template: t, positions: [[0, 0.005], [0.012, 0.005]] });
 * sys.walls.addPlane({ point: [0, 0], normal: [0, 1] });
 * sys.run(100);
 * expect(sys.count).toBe(2);
 * ```
 */
export class ClumpSystem extends GrainSystem2 {
  /** Registered templates, indexed by the `shapes` column. */
  readonly templates: ClumpTemplate[] = [];
  /** @internal */ readonly detector: ClumpDetector = new ClumpDetector();
  /** Create an empty clump system; `threads` as {@linkcode GrainSystem2.threads}. */
  constructor(options: GrainSystemOptions & { threads?: number } = {}) {
    super("ClumpSystem", options, [...GRAIN_SYSTEM_KEYS, "threads"], { trig: true });
    this.detectionState.keyTol = 0;
    this.detector.templates = this.templates;
    if (options?.threads !== undefined) this.threads = options.threads;
  }

  /** @internal Clump systems share their disk–disk detection with threads. */
  protected override threadable(): boolean {
    return true;
  }

  /**
   * Register a template; returns its id.
   *
   * @example
   * ```ts
   * import { ClumpSystem } from "@grainlab/grainlab/star2d";
   * import { clumpTemplate } from "./clump_template.ts";
   * import { expect } from "expect";
   * const s = new ClumpSystem();
   * expect(s.addTemplate(clumpTemplate({ centres: [[0, 0]], radii: [0.01] }))).toBe(0);
   * ```
   */
  addTemplate(t: ClumpTemplate): number {
    const k = this.templates.indexOf(t);
    if (k >= 0) return k;
    checkTemplate(t);
    this.templates.push(t);
    return this.templates.length - 1;
  }

  /** The id `t` has or will have once registered (validated; registers nothing). */
  #templateId(t: number | ClumpTemplate): number {
    if (typeof t === "number") {
      if (!(Number.isInteger(t) && t >= 0 && t < this.templates.length)) {
        throw new RangeError(`ClumpSystem.addGrains: template (${t}) unknown`);
      }
      return t;
    }
    const k = this.templates.indexOf(t);
    if (k >= 0) return k;
    checkTemplate(t);
    return this.templates.length;
  }

  /**
   * Add clumps of one template; returns the first slot.
   *
   * @example
   * ```ts
   * import { ClumpSystem } from "@grainlab/grainlab/star2d";
   * import { clumpTemplate } from "./clump_template.ts";
   * import { expect } from "expect";
   * const s = new ClumpSystem();
   * const t = clumpTemplate({ centres: [[0, 0], [0.01, 0]], radii: [0.006, 0.006] });
   * s.addGrains({ template: t, positions: [[0, 0]] });
   * expect(s.count).toBe(1);
   * expect(s.radii[0]).toBeGreaterThan(0.01);
   * ```
   */
  addGrains(options: ClumpGrainsOptions): number {
    checkOptions("ClumpSystem.addGrains", "options", options, [...GRAIN_INIT_KEYS, "template"]);
    const tid = this.#templateId(options.template);
    const t = tid < this.templates.length ? this.templates[tid] : options.template as ClumpTemplate;
    const rho = positive("ClumpSystem.addGrains", "arealDensity", options.arealDensity ?? 3.54);
    let R = 0;
    for (let k = 0; k < t.r.length; k++) {
      R = Math.max(R, Math.sqrt(t.x[k] * t.x[k] + t.y[k] * t.y[k]) + t.r[k]);
    }
    const first = this.appendGrains("ClumpSystem.addGrains", options, {
      shape: tid,
      mass: rho * t.area,
      inertia: rho * t.polarMoment,
      rmax: R,
      lever: R,
    });
    if (tid === this.templates.length) this.templates.push(t);
    return first;
  }

  /** World positions of every disk (stored per clump at offsets from a prefix sum). */
  protected prepare(): void {
    // with threads, the columns are shared with them in place (replaced when they grew)
    this.pool?.adopt(this);
    const st = this.store, n = this.count, ang = st.ang, C = st.cos, S = st.sin;
    for (let i = 0; i < n; i++) {
      C[i] = Math.cos(ang[i]);
      S[i] = Math.sin(ang[i]);
    }
    const d = this.detector;
    d.pos = this.store.pos;
    d.cos = C;
    d.sin = S;
    d.rmax = this.store.rmax;
    d.shapeId = this.store.shape;
    d.nodeTests = 0;
  }

  /** Clumps are found by their centres of mass and bounding circles. */
  protected detectionCentres(): Float64Array {
    return this.store.pos;
  }

  /** @internal What the threads call back into. */
  readonly threadHooks: ThreadHooks = {
    centres: () => this.store.pos,
    setCentres: (centres) => {
      this.store.pos = centres;
    },
    detector: () => this.detector,
    wallsInto: (sink) => this.#wallsInto(sink),
    keys: (keys) => this.#threadKeys(keys),
    model: () => this.#threadModel(),
  };
  /** What the workers' model depends on. */
  #threadKeys(keys: unknown[]): number {
    const T = this.templates;
    let k = 0;
    keys[k++] = Kind.clump;
    for (let i = 0; i < T.length; i++) keys[k++] = T[i];
    return k;
  }
  /** The workers' model: plain copies of the templates' disks. */
  #threadModel(): ThreadModel {
    return {
      kind: Kind.clump,
      templates: this.templates.map(plainDisks),
      shapes: [],
      sprites: [],
      settings: { firstOrder: true, symmetric: true, allNodes: false },
      sampling: "lut",
      centroids: new Float64Array(0),
    };
  }

  /** Disk–disk contacts of every candidate pair (and of the walls, when threaded). */
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
    det.out = this.contacts;
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
    this.detectionState.nodeTests = det.nodeTests;
    this.detectionState.pairsInContact = inContact;
  }

  /** Disk–wall contacts (exact wall distances). */
  protected detectWallContacts(): void {
    if (!this.wallsDone) this.#wallsInto(this.contacts);
  }

  /** The disk–wall contacts into `sink` (detection's view). */
  #wallsInto(c: ContactSink): void {
    const walls = this.walls, n = this.count, wr = walls.res;
    const st = this.store, pos = st.pos, C = st.cos, S = st.sin, rmax = st.rmax;
    const sid = st.shape, T = this.templates;
    for (let w = 0; w < walls.count; w++) {
      if (walls.enabled[w] === 0) continue;
      for (let i = 0; i < n; i++) {
        const x = pos[2 * i], y = pos[2 * i + 1];
        wr[3] = x;
        wr[4] = y;
        walls.probeAt(w);
        if (wr[0] >= rmax[i]) continue;
        const t = T[sid[i]], ci = C[i], si = S[i];
        for (let u = 0; u < t.r.length; u++) {
          const ux = x + ci * t.x[u] - si * t.y[u], uy = y + si * t.x[u] + ci * t.y[u];
          wr[3] = ux;
          wr[4] = uy;
          walls.probeAt(w);
          const sd = wr[0], r = t.r[u];
          if (sd >= r) continue;
          const ov = r - sd, nx = -wr[1], ny = -wr[2], arm = r - 0.5 * ov;
          c.push(i, w, 1, ux + nx * arm, uy + ny * arm, nx, ny, ov, u);
        }
      }
    }
  }
}

/** Disks for {@linkcode DiskSystem.addGrains}. */
export interface DiskGrainsOptions extends GrainInit {
  /** Radius (m), one for all or one per disk. */
  radius: number | ArrayLike<number>;
}

/**
 * Plain disks (Cundall–Strack): one contact per overlapping pair, point at the middle of the
 * overlap, normal along the centres.
 *
 * @example
 * ```ts
 * import { DiskSystem } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const s = new DiskSystem({ gravity: [0, 0] });
 * s.addGrains({ positions: [[0, 0], [0.0099, 0]], radius: 0.005 });
 * s.step();
 * expect(s.contacts.count).toBe(1);
 * expect(s.contacts.overlap[0]).toBeCloseTo(1e-4, 12);
 * ```
 */
export class DiskSystem extends GrainSystem2 {
  /** Create an empty disk system. */
  constructor(options: GrainSystemOptions = {}) {
    super("DiskSystem", options, GRAIN_SYSTEM_KEYS);
    this.detectionState.keyTol = 0;
  }
  /**
   * Add disks; mass = arealDensity·πr², inertia = ½·m·r². Returns the first slot.
   *
   * @example
   * ```ts
   * import { DiskSystem } from "@grainlab/grainlab/star2d";
   * import { expect } from "expect";
   * const s = new DiskSystem();
   * s.addGrains({ positions: [0, 0, 1, 0], radius: [0.01, 0.02] });
   * expect(s.radii[1]).toBe(0.02);
   * ```
   */
  addGrains(options: DiskGrainsOptions): number {
    checkOptions("DiskSystem.addGrains", "options", options, [...GRAIN_INIT_KEYS, "radius"]);
    const rho = positive("DiskSystem.addGrains", "arealDensity", options.arealDensity ?? 3.54);
    const r = options.radius;
    if (typeof r === "number") {
      if (!(r > 0 && Number.isFinite(r))) {
        throw new RangeError(`DiskSystem.addGrains: radius (${r}) must be > 0`);
      }
      const m = rho * Math.PI * r * r;
      return this.appendGrains("DiskSystem.addGrains", options, {
        shape: 0,
        mass: m,
        inertia: 0.5 * m * r * r,
        rmax: r,
        lever: r,
      });
    }
    const w = "DiskSystem.addGrains";
    const flat = flatten(w, options.positions);
    if (r === null || typeof r !== "object" || typeof r.length !== "number") {
      throw new TypeError(`${w}: radius (${String(r)}) must be a number or an array`);
    }
    if (r.length !== flat.length / 2) {
      throw new RangeError(
        `DiskSystem.addGrains: radius.length (${r.length}) must equal the number of positions (${
          flat.length / 2
        })`,
      );
    }
    // Validate every disk before adding any: a failed call adds nothing.
    for (let k = 0; k < r.length; k++) {
      const rk = r[k];
      if (!(typeof rk === "number" && rk > 0 && Number.isFinite(rk))) {
        throw new RangeError(`${w}: radius[${k}] (${rk}) must be > 0`);
      }
      const m = rho * Math.PI * rk * rk;
      this.checkTimeStep(w, m, 0.5 * m * rk * rk, rk);
    }
    const vflat = options.velocities !== undefined
      ? flatten(w, options.velocities, "velocities")
      : null;
    if (vflat) {
      const v = vflat;
      if (v.length !== flat.length) {
        throw new RangeError(
          `${w}: velocities (${v.length / 2} pairs) must match positions (${flat.length / 2})`,
        );
      }
    }
    for (const key of ["angles", "angularVelocities"] as const) {
      const a = options[key];
      if (a === undefined || typeof a === "number") continue;
      if (a.length !== r.length) {
        throw new RangeError(`${w}: ${key}.length (${a.length}) must equal ${r.length}`);
      }
      for (let k = 0; k < a.length; k++) {
        if (!Number.isFinite(a[k])) {
          throw new RangeError(`${w}: ${key}[${k}] (${a[k]}) must be finite`);
        }
      }
    }
    const pick = (v: number | ArrayLike<number> | undefined, k: number) =>
      v === undefined || typeof v === "number" ? v : v[k];
    let first = -1;
    for (let k = 0; k < r.length; k++) {
      const f = this.addGrains({
        positions: [flat[2 * k], flat[2 * k + 1]],
        radius: r[k],
        arealDensity: rho,
        angles: pick(options.angles, k),
        angularVelocities: pick(options.angularVelocities, k),
        velocities: vflat ? vflat.subarray(2 * k, 2 * k + 2) : undefined,
      });
      if (first < 0) first = f;
    }
    return first;
  }

  /** Nothing to prepare for disks. */
  protected prepare(): void {}

  /** Disks are found by their centres and radii. */
  protected detectionCentres(): Float64Array {
    return this.store.pos;
  }

  /** One contact per overlapping pair. */
  protected detectContacts(): void {
    const p = this.detectionState.pairs, A = p.a, B = p.b, ids = this.store.ids, c = this.contacts;
    const pos = this.store.pos, rad = this.store.rmax;
    for (let k = 0; k < p.count; k++) {
      let a = A[k], b = B[k];
      if (ids[a] > ids[b]) {
        const t = a;
        a = b;
        b = t;
      }
      const ax = pos[2 * a], ay = pos[2 * a + 1];
      const dx = pos[2 * b] - ax, dy = pos[2 * b + 1] - ay;
      const d = Math.sqrt(dx * dx + dy * dy), ra = rad[a];
      const ov = ra + rad[b] - d;
      const nx = d > 0 ? dx / d : 1, ny = d > 0 ? dy / d : 0, arm = ra - 0.5 * ov;
      c.push(a, b, 0, ax + nx * arm, ay + ny * arm, nx, ny, ov, 0);
    }
    this.detectionState.nodeTests = p.tested;
    this.detectionState.pairsInContact = p.count;
  }

  /** Disk–wall contacts. */
  protected detectWallContacts(): void {
    const walls = this.walls, n = this.count, c = this.contacts, wr = walls.res;
    const pos = this.store.pos, rad = this.store.rmax;
    for (let w = 0; w < walls.count; w++) {
      if (walls.enabled[w] === 0) continue;
      for (let i = 0; i < n; i++) {
        const x = pos[2 * i], y = pos[2 * i + 1], r = rad[i];
        wr[3] = x;
        wr[4] = y;
        walls.probeAt(w);
        const sd = wr[0];
        if (sd >= r) continue;
        const ov = r - sd, nx = -wr[1], ny = -wr[2], arm = r - 0.5 * ov;
        c.push(i, w, 1, x + nx * arm, y + ny * arm, nx, ny, ov, 0);
      }
    }
  }
}
