/**
 * The core of the granular system: its structure-of-arrays state, the step pipeline (neighbour
 * list → body forces → contact forces → velocity-Verlet integration → boundaries → statistics)
 * and the lifecycle primitives (append, swap-remove).
 *
 * @module
 */
import { CellGrid3, type GridAxisPeriod, PairList } from "../math/grid.ts";
import { ContactColumns } from "./contacts.ts";
import { applyRolling, type ForceParams, type FrictionTables, pairForces } from "./forces.ts";
import { buildPlanes, planeForces, PlaneSet } from "./boundaries.ts";
import { HistoryTable } from "./history.ts";
import { type Material, resolveMaterial } from "./material.ts";
import { ParticleStore } from "./particles.ts";
import { bodyForces, drift, firstNonFinite, kick, maxSpeedOrInvalid, wrap } from "./integrate.ts";
import { emptyStats, type StepStats } from "./stats.ts";
import { bool, corners, integerIn, nonNegative, positive, vec3 } from "../math/validate.ts";
import { type EmitCommon, MAX_MATERIAL_ID } from "./options.ts";

/** Validated settings shared by the emitters. */
export interface EmitSettings {
  /** Box corners. */
  lo: number[];
  /** Upper corner. */
  hi: number[];
  /** Grid spacing (m). */
  spacing: number;
  /** Most particles to emit. */
  max: number;
  /** Initial velocity. */
  v: number[];
  /** Initial angular velocity. */
  a: number[];
  /** Material id. */
  mid: number;
  /** Fixed flag. */
  fx: boolean;
}

/**
 * The state and the step of a granular system. Internal: {@link GranularSystem} owns one and
 * exposes the validated public API.
 */
export class GranularCore {
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
    return this.skin >= 0 ? this.skin : 0.1 * this.maxRadius;
  }
  set neighborSkin(skin: number | "auto") {
    this.skin = skin === "auto" ? -1 : nonNegative("neighborSkin", "skin", skin);
    this.invalidate();
  }

  /** Internal state or stage (ps); internal. */
  readonly ps = new ParticleStore();
  /** Internal state or stage (hist); internal. */
  readonly hist = new HistoryTable();
  /** Internal state or stage (grid); internal. */
  readonly grid = new CellGrid3();
  /** Internal state or stage (pairs); internal. */
  readonly pairs = new PairList();
  /** Internal state or stage (planes); internal. */
  readonly planes = new PlaneSet();
  /** Internal state or stage (contacts); internal. */
  readonly contacts = new ContactColumns();
  /** Internal state or stage (material); internal. */
  readonly material: Material;
  /** Internal state or stage (tables); internal. */
  readonly tables: FrictionTables;
  /** Internal state or stage (tableSize); internal. */
  tableSize = 1;
  /** Internal state or stage (boundary); internal. */
  boundary = { friction: 0, rollingFriction: 0 };
  /** Internal state or stage (ground); internal. */
  ground: number | null = null;
  /** Internal state or stage (container); internal. */
  container: [[number, number, number], [number, number, number]] | null = null;
  /** Internal state or stage (periodic); internal. */
  periodic: [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod] | null = null;
  /** Internal state or stage (stats); internal. */
  stats: StepStats = emptyStats();
  /** Internal state or stage (pending); internal. */
  pending = { emitted: 0, removed: 0 };
  /** Internal state or stage (nextId); internal. */
  nextId = 0;
  /** Internal state or stage (slotOfId); internal. */
  slotOfId = new Int32Array(64).fill(-1);
  /** Internal state or stage (stamp); internal. */
  stamp = 0;
  /** Internal state or stage (forcesValid); internal. */
  forcesValid = false;
  /** Internal state or stage (needRebuild); internal. */
  needRebuild = true;
  /** Internal state or stage (skin); internal. */
  skin = -1;
  /** Internal state or stage (refPos); internal. */
  refPos = new Float64Array(0);
  /** Internal state or stage (gravity); internal. */
  gravity: [number, number, number] = [0, 0, 0];
  /** Internal state or stage (uniformRadius); internal. */
  uniformRadius = 0;
  /** Internal state or stage (maxRadius); internal. */
  maxRadius = 0;
  /** Internal state or stage (stepCount); internal. */
  stepCount = 0;
  /** Internal state or stage (params); internal. */
  readonly params: ForceParams = {
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
    this.material = resolveMaterial(material);
    const m = this.material;
    this.tables = {
      friction: new Float64Array([m.friction]),
      rolling: new Float64Array([m.rollingFriction]),
    };
    this.boundary = { friction: m.friction, rollingFriction: m.rollingFriction };
    this.materialsChanged();
  }

  // ---- stepping ------------------------------------------------------------------------

  /**
   * Advance by `dt` seconds under `gravity` in `material.substeps` substeps (velocity
   * Verlet). Called by `World.step`; call it directly only for a system outside a world.
   */
  step(dt: number, gravity: ArrayLike<number>): void {
    const g = this.gravity;
    if (g[0] !== gravity[0] || g[1] !== gravity[1] || g[2] !== gravity[2]) {
      g[0] = gravity[0], g[1] = gravity[1], g[2] = gravity[2];
      this.invalidate();
    }
    const st = this.stats;
    resetStats(st);
    st.emittedParticles = this.pending.emitted;
    st.removedParticles = this.pending.removed;
    this.pending.emitted = this.pending.removed = 0;
    const sub = this.material.substeps, h = dt / sub;
    if (!this.forcesValid) this.computeForces(h, 0);
    const ps = this.ps, m = this.material, vmax = m.maxSpeed, wmax = m.maxAngularSpeed;
    for (let s = 0; s < sub; s++) {
      st.velocityClamps += kick(ps, h * 0.5, vmax, wmax);
      if (drift(ps, h, this.refPos, this.neighborSkin)) this.needRebuild = true;
      if (this.periodic) {
        const w = wrap(ps, this.periodic);
        st.wrappedParticles += w;
        if (w > 0) this.needRebuild = true;
      }
      this.computeForces(h, h);
      st.velocityClamps += kick(ps, h * 0.5, vmax, wmax);
    }
    st.maxSpeed = maxSpeedOrInvalid(ps);
    if (st.maxSpeed < 0) this.reportNonFinite();
    this.stepCount++;
  }

  /** Internal state or stage (computeForces); internal. */
  computeForces(h: number, histDt: number): void {
    const ps = this.ps, st = this.stats, p = this.params;
    this.prepareParams(h, histDt);
    // 1. candidate pairs: rebuild the cell grid when the neighbour list is stale
    const skin = this.neighborSkin;
    if (this.needRebuild || skin === 0) this.rebuildNeighbors(skin);
    st.candidatePairs = this.pairs.count;
    // 2. body forces
    bodyForces(ps, this.gravity);
    // 3. contact forces
    st.particleContacts = st.boundaryContacts = st.cohesiveContacts = 0;
    this.contacts.count = 0;
    pairForces(ps, this.pairs, this.hist, this.tables, p, this.contacts, st);
    planeForces(
      ps,
      this.planes,
      this.hist,
      this.tables,
      this.boundary.friction,
      this.boundary.rollingFriction,
      p,
      this.contacts,
      st,
    );
    if (this.hasRolling) applyRolling(ps, h);
    // 4. histories: drop the ones whose contact ended
    st.activeContactHistories = this.hist.sweep(ps.count, p.stamp);
    st.staleContactHistoriesRemoved += this.hist.lastRemoved;
    if (this.hist.overflow) this.hist.widen();
    this.forcesValid = true;
  }

  /** Internal state or stage (rebuildNeighbors); internal. */
  rebuildNeighbors(skin: number): void {
    const ps = this.ps, m = this.material;
    const reach = m.cohesionStiffness > 0 ? m.cohesionMaxDistance : 0;
    const cell = 2 * this.maxRadius + reach + skin;
    this.grid.build(ps.pos, ps.count, cell > 0 ? cell : 1, this.periodic ?? undefined);
    this.grid.findPairs(ps.pos, ps.radius, reach + skin, this.pairs, this.uniformRadius);
    if (this.refPos.length < 3 * ps.count) this.refPos = new Float64Array(3 * ps.capacity);
    this.refPos.set(ps.pos.subarray(0, 3 * ps.count));
    this.needRebuild = false;
    this.rebuilds++;
  }

  /** Internal state or stage (rebuilds); internal. */
  rebuilds = 0;

  /** Internal state or stage (prepareParams); internal. */
  prepareParams(h: number, histDt: number): void {
    const p = this.params, m = this.material;
    p.kn = m.normalStiffness;
    p.cn = m.normalDamping;
    p.kt = m.tangentialStiffness > 0 ? m.tangentialStiffness : 0.5 * m.normalStiffness;
    p.ct = m.tangentialDamping;
    p.hertz = m.normalContactModel === "hertz";
    p.kc = m.cohesionMaxDistance > 0 ? m.cohesionStiffness : 0;
    p.dmax = m.cohesionStiffness > 0 ? m.cohesionMaxDistance : 0;
    p.dt = h;
    p.histDt = histDt;
    p.stamp = ++this.stamp >>> 0;
    const per = this.periodic;
    p.px = per ? per[0].length : 0;
    p.py = per ? per[1].length : 0;
    p.pz = per ? per[2].length : 0;
  }

  /** Internal state or stage (reportNonFinite); internal. */
  reportNonFinite(): never {
    const ps = this.ps, i = firstNonFinite(ps), x = ps.pos, v = ps.vel, o = 3 * i;
    throw new RangeError(
      i < 0
        ? "GranularSystem.step: the state became non-finite"
        : `GranularSystem.step: particle ${i} (id ${ps.id[i]}) has a non-finite state ` +
          `after step ${this.stepCount + 1} (position ${x[o]}, ${x[o + 1]}, ${x[o + 2]}; ` +
          `velocity ${v[o]}, ${v[o + 1]}, ${v[o + 2]}); reduce the time step, raise substeps ` +
          `or soften the contact`,
    );
  }

  // ---- internals -----------------------------------------------------------------------

  /** Whether some material id or the boundary has rolling friction (see materialsChanged). */
  hasRolling = false;

  /** Recompute {@link hasRolling} after the friction tables or the boundary changed. */
  materialsChanged(): void {
    const t = this.tables.rolling;
    let any = this.boundary.rollingFriction > 0;
    for (let k = 0; k < this.tableSize && !any; k++) any = t[k] > 0;
    this.hasRolling = any;
  }

  /** Internal state or stage (invalidate); internal. */
  invalidate(): void {
    this.forcesValid = false;
    this.needRebuild = true;
  }

  /** Internal state or stage (reserve); internal. */
  reserve(n: number): void {
    this.ps.reserve(n);
    this.hist.reserve(this.ps.capacity);
  }

  /** Internal state or stage (append); internal. */
  append(
    x: number,
    y: number,
    z: number,
    r: number,
    v: ArrayLike<number>,
    a: ArrayLike<number>,
    mid: number,
    fx: boolean,
  ): number {
    const ps = this.ps, i = ps.count;
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
    this.ensureTable(mid);
    ps.fixed[i] = fx ? 1 : 0;
    const id = this.nextId++;
    ps.id[i] = id;
    if (id >= this.slotOfId.length) {
      const s = new Int32Array(Math.max(2 * this.slotOfId.length, id + 1)).fill(-1);
      s.set(this.slotOfId);
      this.slotOfId = s;
    }
    this.slotOfId[id] = i;
    ps.setMass(i, this.material.density);
    this.hist.clearSlot(i);
    ps.count++;
    this.radiiChanged(r, ps.count === 1);
    this.invalidate();
    return i;
  }

  /** Internal state or stage (radiiChanged); internal. */
  radiiChanged(r: number, first: boolean): void {
    if (first) {
      this.uniformRadius = r;
      this.maxRadius = r;
      return;
    }
    if (r !== this.uniformRadius) this.uniformRadius = 0;
    if (r > this.maxRadius) this.maxRadius = r;
  }

  /** Internal state or stage (recomputeRadii); internal. */
  recomputeRadii(): void {
    const ps = this.ps;
    this.maxRadius = 0;
    this.uniformRadius = ps.count > 0 ? ps.radius[0] : 0;
    for (let i = 0; i < ps.count; i++) {
      const r = ps.radius[i];
      if (r > this.maxRadius) this.maxRadius = r;
      if (r !== this.uniformRadius) this.uniformRadius = 0;
    }
  }

  /** Internal state or stage (removeSlot); internal. */
  removeSlot(i: number): void {
    const ps = this.ps, last = ps.count - 1;
    this.slotOfId[ps.id[i]] = -1;
    if (i !== last) {
      ps.moveSlot(last, i);
      this.hist.moveSlot(last, i);
      this.slotOfId[ps.id[i]] = i;
    } else this.hist.clearSlot(i);
    ps.count--;
    this.recomputeRadii();
    this.invalidate();
  }

  /** Internal state or stage (removeWhere); internal. */
  removeWhere(pred: (i: number) => boolean): number {
    let removed = 0;
    for (let i = this.ps.count - 1; i >= 0; i--) {
      if (pred(i)) {
        this.removeSlot(i);
        removed++;
      }
    }
    if (removed > 0) {
      const slot = this.slotOfId;
      this.hist.dropPartners(this.ps.count, (id) => slot[id] < 0);
      this.pending.removed += removed;
    }
    return removed;
  }

  /** Internal state or stage (index); internal. */
  index(where: string, index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.ps.count) {
      throw new RangeError(
        `${where}: index (${index}) must be an integer in [0, ${this.ps.count - 1}]`,
      );
    }
  }

  /** Internal state or stage (ensureTable); internal. */
  ensureTable(id: number): void {
    if (id < this.tableSize) return;
    const t = this.tables, m = this.material;
    let n = t.friction.length;
    if (id >= n) {
      while (n <= id) n *= 2;
      const f = new Float64Array(n), r = new Float64Array(n);
      f.set(t.friction);
      r.set(t.rolling);
      t.friction = f;
      t.rolling = r;
    }
    for (let k = this.tableSize; k <= id; k++) {
      t.friction[k] = m.friction;
      t.rolling[k] = m.rollingFriction;
    }
    this.tableSize = id + 1;
    this.materialsChanged();
  }

  /** Internal state or stage (emitCommon); internal. */
  /** Append emitted particles (centres stride 3; one radius or one per particle). */
  emit(centres: Float64Array, radii: number | Float64Array, c: EmitSettings): number {
    const n = centres.length / 3;
    this.reserve(this.ps.count + n);
    for (let k = 0; k < n; k++) {
      const r = typeof radii === "number" ? radii : radii[k];
      this.append(centres[3 * k], centres[3 * k + 1], centres[3 * k + 2], r, c.v, c.a, c.mid, c.fx);
    }
    this.pending.emitted += n;
    return n;
  }

  emitCommon(w: string, o: EmitCommon): EmitSettings {
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

  /** Internal state or stage (rebuildPlanes); internal. */
  rebuildPlanes(): void {
    buildPlanes(this.planes, this.ground, this.container);
    this.invalidate();
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
