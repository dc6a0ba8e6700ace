/**
 * The rigid-grain state shared by the 2D systems (star grains, disks, clumps): structure-of-
 * arrays columns, the contact-force stage with the shared laws of `src/contact/`, explicit
 * integration, walls and per-step statistics. Subclasses provide the geometry: how contacts
 * are detected.
 *
 * @module
 */

import { CellGrid2, PairList } from "../math/grid.ts";
import { linearNormalForce } from "../contact/normal.ts";
import { tangentialHistory1 } from "../contact/tangential.ts";
import { ContactColumns, ContactHistory, WALL_CONTACT } from "./contacts.ts";
import { Walls } from "./walls.ts";

/** Contact and integration parameters common to the 2D systems (SI units). */
export interface GrainSystemOptions {
  /** Time step (s); must stay below the stability bound of stiffness and mass. @default 1e-4 */
  timeStep?: number;
  /** Gravity (m/s²). @default [0, -9.81] */
  gravity?: readonly [number, number];
  /** Normal stiffness kn (N/m). @default 1000 */
  normalStiffness?: number;
  /** Tangential stiffness kt (N/m). @default 500 */
  tangentialStiffness?: number;
  /** Normal damping cn (N·s/m). @default 0.1 */
  normalDamping?: number;
  /** Tangential damping ct (N·s/m). @default 0 */
  tangentialDamping?: number;
  /** Grain–grain friction coefficient μ. @default 0.5 */
  friction?: number;
  /** Rotational damping c_r: a torque −c_r·ω on every grain (N·m·s). @default 0 */
  rotationalDamping?: number;
}

/** Statistics of the last step; the record is reused (copy it to keep it). */
export interface StepStats {
  /** Steps taken so far. */
  step: number;
  /** Simulated time (s). */
  time: number;
  /** Candidate pairs tested by the grid (3×3 neighbourhoods). */
  candidatePairs: number;
  /** Candidate pairs whose bounding circles intersect. */
  boundingHits: number;
  /** Point-in-grain tests (boundary nodes, or disk pairs for disks and clumps). */
  nodeTests: number;
  /** Grain pairs with at least one contact. */
  pairsInContact: number;
  /** Distinct grain–grain contacts. */
  contacts: number;
  /** Grain–wall contacts. */
  wallContacts: number;
  /** Distinct contacts per pair in contact (contacts / pairsInContact). */
  contactsPerPair: number;
  /** Largest overlap (m). */
  maxOverlap: number;
  /** Kinetic energy, translation plus rotation (J per m of depth: masses are per grain). */
  kineticEnergy: number;
  /** Wall-clock time of collision handling: grid, candidates, detection, overlaps (ms). */
  collisionMs: number;
  /** Wall-clock time of the whole step (ms). */
  stepMs: number;
}

/** Per-grain initial state accepted by `addGrains` of every system. */
export interface GrainInit {
  /** Centre-of-mass positions (m), as [x, y] pairs or a flat stride-2 array. */
  positions: ArrayLike<number> | readonly (readonly [number, number])[];
  /** Angles (rad), one per grain or one for all. @default 0 */
  angles?: number | ArrayLike<number>;
  /** Velocities (m/s), flat stride 2. @default 0 */
  velocities?: ArrayLike<number>;
  /** Angular velocities (rad/s). @default 0 */
  angularVelocities?: number | ArrayLike<number>;
  /** Areal density (kg/m²): mass = density · area. @default 3.54 (3 mm of 1180 kg/m³) */
  arealDensity?: number;
}

/**
 * Base of the 2D rigid-grain systems. Columns are views of length `count·stride`, re-read them
 * after adding grains.
 *
 * @example
 * ```ts
 * import { DiskSystem } from "@grainlab/grainlab/star2d";
 * const s = new DiskSystem({ timeStep: 1e-4 });
 * s.addGrains({ positions: [[0, 0.01]], radius: 0.005 });
 * s.walls.addPlane({ point: [0, 0], normal: [0, 1] });
 * s.run(10);
 * console.assert(s.count === 1 && s.lastStepStats.step === 10);
 * ```
 */
export abstract class GrainSystem2 {
  /** Number of grains. */
  count = 0;
  /** Time step (s). */
  readonly timeStep: number;
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
  /** Contacts of the last step. */
  readonly contacts: ContactColumns = new ContactColumns();
  /** Statistics of the last step. */
  readonly lastStepStats: StepStats = {
    step: 0,
    time: 0,
    candidatePairs: 0,
    boundingHits: 0,
    nodeTests: 0,
    pairsInContact: 0,
    contacts: 0,
    wallContacts: 0,
    contactsPerPair: 0,
    maxOverlap: 0,
    kineticEnergy: 0,
    collisionMs: 0,
    stepMs: 0,
  };
  /** Simulated time (s). */
  time = 0;

  /** @internal */ _cap = 0;
  /** @internal */ _pos: Float64Array = new Float64Array(0);
  /** @internal */ _vel: Float64Array = new Float64Array(0);
  /** @internal */ _ang: Float64Array = new Float64Array(0);
  /** @internal */ _omega: Float64Array = new Float64Array(0);
  /** @internal */ _mass: Float64Array = new Float64Array(0);
  /** @internal */ _inertia: Float64Array = new Float64Array(0);
  /** @internal */ _rmax: Float64Array = new Float64Array(0);
  /** @internal */ _ids: Uint32Array = new Uint32Array(0);
  /** @internal */ _shape: Uint16Array = new Uint16Array(0);
  /** @internal */ _force: Float64Array = new Float64Array(0);
  /** @internal */ _torque: Float64Array = new Float64Array(0);
  /** @internal */ _nextId = 0;
  /** @internal */ readonly _grid: CellGrid2 = new CellGrid2();
  /** @internal Grid cell size: the largest bounding diameter 2·r_max added so far (m). */
  _cell = 0;
  /** @internal */ readonly _pairs: PairList = new PairList();
  /** @internal */ readonly _history: ContactHistory = new ContactHistory();
  /** @internal */ _nodeTests = 0;
  /** @internal */ _pairsInContact = 0;
  /** History key tolerance: > 0 angles (rad), 0 exact keys. @internal */
  _keyTol = 0.3;

  /** Resolve and validate the common options. */
  constructor(name: string, options: GrainSystemOptions = {}) {
    const pos = (k: string, v: number) => {
      if (!(v > 0 && Number.isFinite(v))) throw new RangeError(`${name}: ${k} (${v}) must be > 0`);
      return v;
    };
    const nonneg = (k: string, v: number) => {
      if (!(v >= 0 && Number.isFinite(v))) {
        throw new RangeError(`${name}: ${k} (${v}) must be >= 0`);
      }
      return v;
    };
    this.timeStep = pos("timeStep", options.timeStep ?? 1e-4);
    const g = options.gravity ?? [0, -9.81];
    if (!Number.isFinite(g[0]) || !Number.isFinite(g[1])) {
      throw new RangeError(`${name}: gravity (${g}) must be two finite numbers`);
    }
    this.gravityX = g[0];
    this.gravityY = g[1];
    this.kn = pos("normalStiffness", options.normalStiffness ?? 1000);
    this.kt = nonneg("tangentialStiffness", options.tangentialStiffness ?? 500);
    this.cn = nonneg("normalDamping", options.normalDamping ?? 0.1);
    this.ct = nonneg("tangentialDamping", options.tangentialDamping ?? 0);
    this.friction = nonneg("friction", options.friction ?? 0.5);
    this.rotationalDamping = nonneg("rotationalDamping", options.rotationalDamping ?? 0);
  }

  /** Centre-of-mass positions (m), stride 2. */
  get positions(): Float64Array {
    return this._pos.subarray(0, 2 * this.count);
  }
  /** Velocities of the centres of mass (m/s), stride 2. */
  get velocities(): Float64Array {
    return this._vel.subarray(0, 2 * this.count);
  }
  /** Angles (rad), unwrapped. */
  get angles(): Float64Array {
    return this._ang.subarray(0, this.count);
  }
  /** Angular velocities (rad/s). */
  get angularVelocities(): Float64Array {
    return this._omega.subarray(0, this.count);
  }
  /** Masses (kg). */
  get masses(): Float64Array {
    return this._mass.subarray(0, this.count);
  }
  /** Moments of inertia about the centre of mass (kg·m²). */
  get inertias(): Float64Array {
    return this._inertia.subarray(0, this.count);
  }
  /** Bounding radii r_max (m), about the detection centre. */
  get radii(): Float64Array {
    return this._rmax.subarray(0, this.count);
  }
  /** Stable ids (never reused). */
  get ids(): Uint32Array {
    return this._ids.subarray(0, this.count);
  }
  /** Shape id of each grain (index into the system's shapes). */
  get shapes(): Uint16Array {
    return this._shape.subarray(0, this.count);
  }

  /**
   * Ensure room for `n` grains (grows by doubling).
   *
   * @example
   * ```ts
   * import { DiskSystem } from "@grainlab/grainlab/star2d";
   * const s = new DiskSystem();
   * s.reserve(1000);
   * console.assert(s.count === 0);
   * ```
   */
  reserve(n: number): void {
    if (n <= this._cap) return;
    let cap = Math.max(16, this._cap);
    while (cap < n) cap *= 2;
    this._grow(cap);
  }

  /** Reallocate every per-grain column to `cap` (subclasses extend). @internal */
  _grow(cap: number): void {
    const f = (a: Float64Array, s: number) => {
      const b = new Float64Array(cap * s);
      b.set(a.subarray(0, this.count * s));
      return b;
    };
    this._pos = f(this._pos, 2);
    this._vel = f(this._vel, 2);
    this._ang = f(this._ang, 1);
    this._omega = f(this._omega, 1);
    this._mass = f(this._mass, 1);
    this._inertia = f(this._inertia, 1);
    this._rmax = f(this._rmax, 1);
    this._force = f(this._force, 2);
    this._torque = f(this._torque, 1);
    const ids = new Uint32Array(cap);
    ids.set(this._ids.subarray(0, this.count));
    this._ids = ids;
    const sh = new Uint16Array(cap);
    sh.set(this._shape.subarray(0, this.count));
    this._shape = sh;
    this._cap = cap;
  }

  /**
   * Append grains with common mass properties; returns the first new slot.
   * @internal
   */
  _append(
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
    const flat = flatten(name, init.positions);
    const n = flat.length / 2;
    const per = (k: string, v: number | ArrayLike<number> | undefined, i: number) => {
      const x = v === undefined ? 0 : typeof v === "number" ? v : v[i];
      if (!Number.isFinite(x)) throw new RangeError(`${name}: ${k}[${i}] (${x}) must be finite`);
      return x;
    };
    if (typeof init.angles === "object" && init.angles.length !== n) {
      throw new RangeError(`${name}: angles.length (${init.angles.length}) must equal ${n}`);
    }
    if (init.velocities && init.velocities.length !== 2 * n) {
      throw new RangeError(
        `${name}: velocities.length (${init.velocities.length}) must equal ${2 * n}`,
      );
    }
    this.checkTimeStep(name, props.mass, props.inertia, props.lever);
    this.reserve(this.count + n);
    const first = this.count;
    for (let k = 0; k < n; k++) {
      const i = first + k;
      this._pos[2 * i] = flat[2 * k];
      this._pos[2 * i + 1] = flat[2 * k + 1];
      this._vel[2 * i] = init.velocities ? per("velocities", init.velocities, 2 * k) : 0;
      this._vel[2 * i + 1] = init.velocities ? per("velocities", init.velocities, 2 * k + 1) : 0;
      this._ang[i] = per("angles", init.angles, k);
      this._omega[i] = per("angularVelocities", init.angularVelocities, k);
      this._mass[i] = props.mass;
      this._inertia[i] = props.inertia;
      this._rmax[i] = props.rmax;
      this._shape[i] = props.shape;
      this._ids[i] = this._nextId++;
    }
    this.count += n;
    if (2 * props.rmax > this._cell) this._cell = 2 * props.rmax;
    return first;
  }

  /**
   * Throw a RangeError when the time step exceeds the stability bound of a contact between two
   * such grains: Δt ≤ (2/ω)·(√(1 + ζ²) − ζ) with ω = √(k/m_eff), ζ = cn / (2√(k·m_eff)),
   * m_eff = m* / 2 and m* = 1/(1/m + ℓ²/I) the effective grain mass at a lever arm ℓ from the
   * centre of mass (explicit integration of a damped spring).
   */
  checkTimeStep(name: string, mass: number, inertia: number, lever: number): void {
    const mStar = 1 / (1 / mass + (lever * lever) / inertia);
    const k = Math.max(this.kn, this.kt), mEff = mStar / 2;
    const w = Math.sqrt(k / mEff), zeta = this.cn / (2 * Math.sqrt(k * mEff));
    const bound = (2 / w) * (Math.sqrt(1 + zeta * zeta) - zeta);
    if (this.timeStep > bound) {
      throw new RangeError(
        `${name}: timeStep (${this.timeStep} s) exceeds the stability bound ${
          bound.toPrecision(3)
        } s = (2/ω)(√(1+ζ²) − ζ) for stiffness k = ${k} N/m, normal damping ${this.cn} N·s/m ` +
          `(ζ = ${zeta.toPrecision(3)}) and effective grain mass m* = ${
            mStar.toPrecision(3)
          } kg (mass ${mass.toPrecision(3)} kg); reduce timeStep, stiffness or damping`,
      );
    }
  }

  /** Advance `steps` steps. */
  run(steps: number): void {
    if (!(Number.isInteger(steps) && steps >= 0)) {
      throw new RangeError(`run: steps (${steps}) must be a non-negative integer`);
    }
    for (let s = 0; s < steps; s++) this.step();
  }

  /** One explicit step, a table of contents of the stages. */
  step(): void {
    const t0 = performance.now();
    this._nodeTests = 0;
    this._pairsInContact = 0;
    this.contacts.count = 0;
    this.prepare();
    this.rebuildGrid();
    this.findCandidates();
    this.detectContacts();
    this.detectWallContacts();
    const t1 = performance.now();
    this.computeForces();
    this.integrate();
    this.walls.advance(this.timeStep);
    this.time += this.timeStep;
    this.updateStats(t0, t1);
  }

  /** Per-step geometry before detection (trig of angles, detection centres). */
  protected abstract prepare(): void;
  /** The centres (stride 2) that detection works from: centres of mass or polar centres. */
  protected abstract detectionCentres(): Float64Array;

  /** Sort detection centres into cells of the largest bounding diameter. */
  protected rebuildGrid(): void {
    this._grid.build(this.detectionCentres(), this.count, this._cell);
  }

  /** Grid pairs whose bounding circles intersect. */
  protected findCandidates(): void {
    this._grid.findPairs(this.detectionCentres(), this._rmax, 0, this._pairs);
  }
  /** Grain–grain contacts into `contacts`, pairs oriented so that ids[i] < ids[j]. */
  protected abstract detectContacts(): void;
  /** Grain–wall contacts into `contacts`. */
  protected abstract detectWallContacts(): void;

  /** Contact forces and torques with the shared laws; records the tangential history. */
  protected computeForces(): void {
    const n = this.count, c = this.contacts, h = this._history;
    const F = this._force, T = this._torque;
    F.fill(0, 0, 2 * n);
    T.fill(0, 0, n);
    h.tolerance = this._keyTol;
    h.begin();
    const pos = this._pos, vel = this._vel, om = this._omega, ids = this._ids;
    const ci = c._i, cj = c._j, kind = c._kind, pt = c._point, nr = c._normal;
    const ov = c._overlap, key = c._key, xi = c._xi, fnA = c._fn, ftA = c._ft;
    const kn = this.kn, cn = this.cn, kt = this.kt, ct = this.ct, dt = this.timeStep;
    const walls = this.walls, mu0 = this.friction;
    const wom = walls.omega, wg = walls.geom;
    for (let k = 0; k < c.count; k++) {
      const i = ci[k], j = cj[k];
      const px = pt[2 * k], py = pt[2 * k + 1], nx = nr[2 * k], ny = nr[2 * k + 1];
      const rix = px - pos[2 * i], riy = py - pos[2 * i + 1];
      const wi = om[i];
      let dvx = vel[2 * i] - wi * riy, dvy = vel[2 * i + 1] + wi * rix;
      let rjx = 0, rjy = 0, mu = mu0, idB: number;
      const wall = kind[k] === WALL_CONTACT;
      if (wall) {
        const wo = wom[j];
        if (wo !== 0) {
          dvx += wo * (py - wg[8 * j + 6]);
          dvy -= wo * (px - wg[8 * j + 5]);
        }
        mu = walls.friction[j];
        idB = -1 - j;
      } else {
        rjx = px - pos[2 * j];
        rjy = py - pos[2 * j + 1];
        const wj = om[j];
        dvx -= vel[2 * j] - wj * rjy;
        dvy -= vel[2 * j + 1] + wj * rjx;
        idB = ids[j];
      }
      const vn = -(dvx * nx + dvy * ny);
      const fn = linearNormalForce(kn, cn, ov[k], vn);
      const tx = -ny, ty = nx;
      const vt = dvx * tx + dvy * ty;
      const idA = ids[i];
      h.lookupInto(idA, idB, key, xi, k);
      const ft = tangentialHistory1(xi, k, vt, dt, kt, ct, mu * fn);
      h.recordFrom(idA, idB, key, xi, k);
      fnA[k] = fn;
      ftA[k] = ft;
      const fx = -fn * nx + ft * tx, fy = -fn * ny + ft * ty;
      F[2 * i] += fx;
      F[2 * i + 1] += fy;
      T[i] += rix * fy - riy * fx;
      if (!wall) {
        F[2 * j] -= fx;
        F[2 * j + 1] -= fy;
        T[j] -= rjx * fy - rjy * fx;
      }
    }
  }

  /** Semi-implicit Euler: velocities from forces (plus gravity, rotational damping), then positions. */
  protected integrate(): void {
    const n = this.count, dt = this.timeStep, gx = this.gravityX, gy = this.gravityY;
    const pos = this._pos, vel = this._vel, ang = this._ang, om = this._omega;
    const m = this._mass, I = this._inertia, F = this._force, T = this._torque;
    const cr = this.rotationalDamping;
    for (let i = 0; i < n; i++) {
      const im = 1 / m[i];
      const vx = vel[2 * i] + (F[2 * i] * im + gx) * dt;
      const vy = vel[2 * i + 1] + (F[2 * i + 1] * im + gy) * dt;
      vel[2 * i] = vx;
      vel[2 * i + 1] = vy;
      pos[2 * i] += vx * dt;
      pos[2 * i + 1] += vy * dt;
      const w = om[i] + ((T[i] - cr * om[i]) / I[i]) * dt;
      om[i] = w;
      ang[i] += w * dt;
    }
  }

  /** Fill `lastStepStats`. */
  protected updateStats(t0: number, t1: number): void {
    const s = this.lastStepStats, c = this.contacts;
    let wallC = 0, maxOv = 0;
    const kind = c._kind, ov = c._overlap;
    for (let k = 0; k < c.count; k++) {
      if (kind[k] === WALL_CONTACT) wallC++;
      if (ov[k] > maxOv) maxOv = ov[k];
    }
    let ke = 0;
    const vel = this._vel, om = this._omega, m = this._mass, I = this._inertia;
    for (let i = 0; i < this.count; i++) {
      const vx = vel[2 * i], vy = vel[2 * i + 1];
      ke += 0.5 * (m[i] * (vx * vx + vy * vy) + I[i] * om[i] * om[i]);
    }
    s.step++;
    s.time = this.time;
    s.candidatePairs = this._pairs.tested;
    s.boundingHits = this._pairs.count;
    s.nodeTests = this._nodeTests;
    s.contacts = c.count - wallC;
    s.wallContacts = wallC;
    s.pairsInContact = this._pairsInContact;
    s.contactsPerPair = this._pairsInContact > 0 ? s.contacts / this._pairsInContact : 0;
    s.maxOverlap = maxOv;
    s.kineticEnergy = ke;
    s.collisionMs = t1 - t0;
    s.stepMs = performance.now() - t0;
  }
}

/** Flatten positions given as pairs or a flat array; validates. @internal */
export function flatten(
  name: string,
  p: ArrayLike<number> | readonly (readonly [number, number])[],
): Float64Array {
  if (!p || typeof p.length !== "number") {
    throw new RangeError(`${name}: positions (${p}) must be an array`);
  }
  let out: Float64Array;
  if (p.length > 0 && typeof (p as ArrayLike<unknown>)[0] === "object") {
    const pp = p as readonly (readonly [number, number])[];
    out = new Float64Array(2 * pp.length);
    for (let k = 0; k < pp.length; k++) {
      out[2 * k] = pp[k][0];
      out[2 * k + 1] = pp[k][1];
    }
  } else {
    const a = p as ArrayLike<number>;
    if (a.length % 2 !== 0) {
      throw new RangeError(`${name}: positions.length (${a.length}) must be even (stride 2)`);
    }
    out = Float64Array.from(a);
  }
  for (let k = 0; k < out.length; k++) {
    if (!Number.isFinite(out[k])) {
      throw new RangeError(`${name}: positions[${k}] (${out[k]}) must be finite`);
    }
  }
  return out;
}
