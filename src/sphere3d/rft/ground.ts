/**
 * The RFT ground: a granular half-space below `surfaceHeight` that pushes on the rigid bodies
 * of a world through resistive-force theory, with no grains. Each body shape's surface (the
 * shape table's `surface` triangles, wound outward: round shapes faceted at `elementSize`,
 * then every triangle cut into pieces about `elementSize` across) is cut once into elements —
 * centroid, outward normal and area in the shape frame. Each world step, every
 * element of a moving body below the surface adds its RFT force (`model.ts`) and the torque of
 * that force about the body's centre of mass; the sums join the grains' loads of the step
 * (`RigidBody.contactForce` includes them) and reach the engine with them. Static bodies and
 * height maps feel nothing. Shapes wholly above the surface are skipped by their bounding box,
 * and within a shape, chunks of consecutive elements by a sphere around their centroids; the
 * elements skipped would feel nothing, so the sums are those of every element. The per-step
 * loop allocates nothing.
 *
 * The forces are evaluated at the poses and velocities at the start of the step, as the grains'
 * loads are. RFT is quasi-static: the stress does not grow with speed, so a light body pushed
 * explicitly by the full stress reverses its velocity in one step; with `implicitDrag` (the
 * default) the part that would stop a dynamic body within the step is handed to the engine as
 * an implicit damping rate instead (`implicit_drag.ts`). `ground.force(body)` is the whole RFT
 * force; `RigidBody.contactForce` holds its explicit part. With the pressure memory as a
 * capacity (`memory_bound.ts`) a dynamic body's loads are bounded instead, and RFT's direction
 * of motion is that of the velocity the body's loads would give it by the step's end.
 *
 * @module
 */
import { BodyKind, type BodySet, quatMatrix } from "../bodies/body_set.ts";
import type { BodyManager } from "../bodies/manager.ts";
import { SHAPE_TABLE } from "../bodies/shape_table.ts";
import { BodyLoads } from "../bodies/contact.ts";
import type { RigidBody } from "../bodies/body.ts";
import type { RftStressModel } from "./model.ts";
import { CHUNK, cutSurface, STRIDE } from "./elements.ts";
import { rftShapeElements, rftShapeSweep, SWEEP_POSE } from "./ground_sweep_gen.ts";
import { RftTable, rftTableGrid } from "./table.ts";
import type { RftGrid } from "./table_lookup_gen.ts";
import { RftHeightMap } from "./surface.ts";
import { RftMemoryState } from "./memory.ts";
import { RftSupportBound } from "./memory_bound.ts";
import { RftImplicitDrag } from "./implicit_drag.ts";
import { checkGroundOptions, type RftGroundOptions } from "./ground_options.ts";

export type { RftGroundOptions } from "./ground_options.ts";

/**
 * The elements of one body that feel the RFT ground, in the world frame (see
 * {@link RftGround.elementForces}); n elements, vectors 3 numbers each.
 */
export interface RftElementForces {
  /** Centroids (m), 3n. */
  position: Float64Array;
  /** Outward unit normals, 3n. */
  normal: Float64Array;
  /** Areas (m²), n. */
  area: Float64Array;
  /** Forces (N), 3n. */
  force: Float64Array;
}

/** Runs one ground step (set by {@link RftGround}'s static block). */
let stepGround: (g: RftGround, m: BodyManager, dt: number, gravity: ArrayLike<number>) => BodyLoads;

/**
 * One step of `ground` on the bodies of `m` over `dt` (s) under `gravity` (m/s²): the loads to
 * hand to the engine with the grains' (and, with `implicitDrag`, the bodies' damping rates, set
 * on the engine). Internal: `World` calls it.
 */
export function rftGroundStep(
  ground: RftGround,
  m: BodyManager,
  dt: number,
  gravity: ArrayLike<number>,
): BodyLoads {
  return stepGround(ground, m, dt, gravity);
}

/**
 * An RFT ground (see the module notes), made by `World.addRftGround`.
 *
 * @example
 * ```ts
 * import { RftTable, World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = await World.create({ gravity: [0, 0, 0] });
 * const ground = world.addRftGround(RftTable.fromFourier(), { surfaceHeight: 0 });
 * // a 10 cm × 10 cm plate, its underside 2 cm deep, pushed down slowly
 * const plate = world.addBox({
 *   halfExtents: [0.05, 0.05, 0.005], position: [0, 0, -0.015],
 *   bodyType: "kinematic", linearVelocity: [0, 0, -1e-4],
 * });
 * world.step();
 * // α_z(0, π/2) · depth · area = 10⁶ N/m³ · 0.02 m · 0.01 m² = 200 N, up (the engine keeps
 * // poses in float32, hence 3 decimals)
 * expect(ground.force(plate)[2]).toBeCloseTo(200, 3);
 * expect(plate.contactForce[2]).toBeCloseTo(200, 3);
 * ```
 */
export class RftGround {
  /** The stress model: an `RftTable` or an `RftFourier`. */
  readonly model: RftStressModel;
  /** Height of the free surface (m). */
  readonly surfaceHeight: number;
  /** Element size (m), or null for a tenth of each shape's bounding-box diagonal. */
  readonly elementSize: number | null;
  /** Whether the drag part of dynamic bodies' loads is integrated implicitly. */
  readonly implicitDrag: boolean;
  /** The bodies' friction against the grains, capping each element force's lean (∞: none). */
  readonly interfaceFriction: number;
  /** The deforming surface's height map (`options.deform`), or null for a flat surface. */
  readonly surface: RftHeightMap | null;
  /**
   * The pressure memory's lengths (m; `separation` Infinity for none) and support, or null for
   * none.
   */
  readonly stressMemory: Readonly<Required<NonNullable<RftGroundOptions["stressMemory"]>>> | null;
  /** The pressure memory's state, or null for none. */
  readonly #memory: RftMemoryState | null;
  /** Elements of all shapes, {@link STRIDE} floats each, in shape frames. */
  #el: Float64Array = new Float64Array(0);
  /** First element of shape s at `#start[s]`, one past its last at `#start[s + 1]`. */
  #start: Int32Array = new Int32Array(1);
  /** Shapes cut into elements so far. */
  #built = 0;
  /**
   * Chunks of {@link CHUNK} consecutive elements of one shape (its last chunk may hold fewer):
   * the centre and radius of a sphere around their centroids (shape frame), four floats each. A
   * chunk wholly above the surface is skipped; its elements would feel nothing.
   */
  #chunk: Float64Array = new Float64Array(0);
  /** Shape s has the chunks `#chunkOf[s]` to one before `#chunkOf[s + 1]`. */
  #chunkOf: Int32Array = new Int32Array(1);
  #force: Float64Array = new Float64Array(0);
  #torque: Float64Array = new Float64Array(0);
  #bodies = 0;
  #active = 0;
  /** The world's bodies, from the first step on (for `elementForces`). */
  #m: BodyManager | null = null;
  /** The dynamic bodies' inertia and the damping rates handed to the engine. */
  readonly #drag = new RftImplicitDrag();
  readonly #loads = new BodyLoads();
  readonly #R = new Float64Array(9);
  readonly #RB = new Float64Array(9);
  readonly #RL = new Float64Array(9);
  /** The pose of the shape being swept and its sums (see `rftShapeSweep`). */
  readonly #pose = new Float64Array(SWEEP_POSE);
  /** A table model's grid, looked up in the sweep itself; null for other models. */
  readonly #grid: RftGrid | null;
  readonly #sums = new Float64Array(6);
  /** With the memory's support "capacity": the bound on dynamic bodies' loads; else null. */
  readonly #bound: RftSupportBound | null;
  /** The last step's length (s) and gravity (m/s²): a listing predicts the next step's. */
  #dt = 0;
  readonly #gravity = new Float64Array(3);

  static {
    stepGround = (g, m, dt, gravity) => g.#step(m, dt, gravity);
  }

  /** Validate the model and options (`World.addRftGround` calls this). */
  constructor(model: RftStressModel, options: RftGroundOptions) {
    const o = checkGroundOptions(model, options);
    const h = o.surfaceHeight, memory = o.stressMemory;
    this.stressMemory = memory;
    this.#memory = memory === null ? null : new RftMemoryState(memory);
    this.#bound = memory?.support === "capacity" ? new RftSupportBound() : null;
    this.interfaceFriction = o.interfaceFriction;
    this.model = model;
    this.#grid = model instanceof RftTable ? rftTableGrid(model) : null;
    this.surfaceHeight = h;
    this.elementSize = o.elementSize;
    this.implicitDrag = o.implicitDrag;
    this.surface = options.deform === undefined ? null : new RftHeightMap(h, options.deform);
  }

  /** Surface elements of the shapes seen so far (cut at the first step after a body is added). */
  get elementCount(): number {
    return this.#start[this.#built];
  }

  /** Elements that felt a force at the last step. */
  get activeElements(): number {
    return this.#active;
  }

  /** The ground's force on `body` at the last step (N); zero before the first step. */
  force(body: RigidBody | number): [number, number, number] {
    return this.#read(this.#force, body);
  }

  /** The ground's torque on `body` about its centre of mass at the last step (N·m). */
  torque(body: RigidBody | number): [number, number, number] {
    return this.#read(this.#torque, body);
  }

  #read(a: Float64Array, body: RigidBody | number): [number, number, number] {
    const b = typeof body === "number" ? body : body?.id;
    if (typeof b !== "number" || !Number.isInteger(b) || b < 0) {
      throw new TypeError(`RftGround: body (${String(body)}) must be a RigidBody or a body id`);
    }
    if (b >= this.#bodies) return [0, 0, 0];
    return [a[3 * b], a[3 * b + 1], a[3 * b + 2]];
  }

  /** Cut the shapes added since the last step into elements (between steps only). */
  #build(set: BodySet): void {
    if (this.#built === set.shapes) return;
    const el: number[] = Array.from(this.#el.subarray(0, STRIDE * this.#start[this.#built]));
    const start = Array.from(this.#start.subarray(0, this.#built + 1));
    for (let s = this.#built; s < set.shapes; s++) {
      const h = set.localHalf;
      const size = this.elementSize ?? 0.2 * Math.hypot(h[3 * s], h[3 * s + 1], h[3 * s + 2]);
      const surf = SHAPE_TABLE[set.shapeKind[s]].surface(
        set.param.subarray(4 * s, 4 * s + 4),
        set.objects[s] ?? null,
        size,
      );
      if (surf !== null) cutSurface(surf.vertices, surf.indices, size, el);
      start.push(el.length / STRIDE);
    }
    this.#el = Float64Array.from(el);
    this.#start = Int32Array.from(start);
    this.#built = set.shapes;
    this.#memory?.fit(this.#start[this.#built]);
    this.#chunkElements();
  }

  /** Groups each shape's elements into chunks with a bounding sphere (after `#build`). */
  #chunkElements(): void {
    const el = this.#el, start = this.#start, shapes = this.#built;
    let total = 0;
    for (let s = 0; s < shapes; s++) total += Math.ceil((start[s + 1] - start[s]) / CHUNK);
    const chunk = new Float64Array(4 * total);
    const of = new Int32Array(shapes + 1);
    let k = 0;
    for (let s = 0; s < shapes; s++) {
      of[s] = k;
      for (let lo = start[s]; lo < start[s + 1]; lo += CHUNK, k++) {
        const hi = Math.min(lo + CHUNK, start[s + 1]);
        let cx = 0, cy = 0, cz = 0;
        for (let e = lo; e < hi; e++) {
          cx += el[STRIDE * e], cy += el[STRIDE * e + 1], cz += el[STRIDE * e + 2];
        }
        cx /= hi - lo, cy /= hi - lo, cz /= hi - lo;
        let r = 0;
        for (let e = lo; e < hi; e++) {
          const o = STRIDE * e;
          r = Math.max(r, Math.hypot(el[o] - cx, el[o + 1] - cy, el[o + 2] - cz));
        }
        chunk[4 * k] = cx, chunk[4 * k + 1] = cy, chunk[4 * k + 2] = cz, chunk[4 * k + 3] = r;
      }
    }
    of[shapes] = k;
    this.#chunk = chunk, this.#chunkOf = of;
  }

  #step(m: BodyManager, dt: number, gravity: ArrayLike<number>): BodyLoads {
    const set = m.set;
    this.#m = m;
    this.#dt = dt;
    for (let k = 0; k < 3; k++) this.#gravity[k] = gravity[k];
    this.#build(set);
    const n = set.count;
    if (this.#bodies !== n) this.#grow(m, n);
    const F = this.#force, T = this.#torque, el = this.#el;
    const model = this.model, grid = this.#grid, map = this.surface;
    // the highest the surface stands: culling against it keeps every element that can feel force
    const top = map === null ? this.surfaceHeight : map.maxHeight;
    if (map !== null) map.begin();
    F.fill(0);
    T.fill(0);
    const memory = this.#memory, mem = memory === null ? null : memory.mem;
    if (memory !== null) {
      memory.begin(dt);
      this.#pose[23] = memory.now;
      this.#pose[24] = memory.perPath, this.#pose[25] = memory.perSeparation;
    }
    let active = 0;
    const bound = this.#bound, inertia = this.#drag.inertia;
    if (bound !== null) {
      // the motion the loads would cause: what the bound scales against, and RFT's direction
      bound.begin();
      for (let b = 0; b < n; b++) {
        if (set.kind[b] === BodyKind.dynamic) bound.predict(set, b, inertia, dt, gravity);
      }
    }
    for (let s = 0; s < set.shapes; s++) {
      const b = set.shapeBody[s];
      if (set.kind[b] === BodyKind.static) continue;
      if (!this.#shapePose(set, s, b, top)) continue;
      const pose = this.#pose, sums = this.#sums;
      sums.fill(0);
      const ch = this.#chunkOf, start = this.#start, chunk = this.#chunk;
      active += rftShapeSweep(
        model,
        grid,
        el,
        start,
        chunk,
        s,
        ch[s],
        ch[s + 1],
        pose,
        map,
        mem,
        sums,
      );
      F[3 * b] += sums[0], F[3 * b + 1] += sums[1], F[3 * b + 2] += sums[2];
      T[3 * b] += sums[3], T[3 * b + 1] += sums[4], T[3 * b + 2] += sums[5];
    }
    if (map !== null) map.end();
    const acc = this.#loads.acc;
    for (let b = 0; b < n; b++) {
      const dynamic = set.kind[b] === BodyKind.dynamic;
      // with the memory as a capacity, a dynamic body's loads are bounded (no drag needed)
      const bounded = bound !== null && dynamic;
      if (bounded) bound.apply(set, b, F, T, inertia, dt);
      for (let k = 0; k < 3; k++) {
        acc[6 * b + k] = F[3 * b + k] * dt;
        acc[6 * b + 3 + k] = T[3 * b + k] * dt;
      }
      if (bounded) bound.record(set, b, acc);
      else if (this.implicitDrag && dynamic) this.#drag.apply(m, b, acc, dt, gravity);
    }
    this.#active = active;
    return this.#loads;
  }

  /**
   * Fill `#pose` for shape s of body b (see `SWEEP_POSE`); false when the shape's box lies
   * wholly above `top` (its elements would feel nothing).
   */
  #shapePose(set: BodySet, s: number, b: number, top: number): boolean {
    const R = this.#R, RB = this.#RB, RL = this.#RL, pose = this.#pose;
    const q = set.quat, lq = set.localQuat;
    quatMatrix(q[4 * b], q[4 * b + 1], q[4 * b + 2], q[4 * b + 3], RB, 0);
    quatMatrix(lq[4 * s], lq[4 * s + 1], lq[4 * s + 2], lq[4 * s + 3], RL, 0);
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) {
        R[3 * i + j] = RB[3 * i] * RL[j] + RB[3 * i + 1] * RL[3 + j] + RB[3 * i + 2] * RL[6 + j];
      }
    }
    const lp = set.localPos, lx = lp[3 * s], ly = lp[3 * s + 1], lz = lp[3 * s + 2];
    const px = set.pos[3 * b] + RB[0] * lx + RB[1] * ly + RB[2] * lz;
    const py = set.pos[3 * b + 1] + RB[3] * lx + RB[4] * ly + RB[5] * lz;
    const pz = set.pos[3 * b + 2] + RB[6] * lx + RB[7] * ly + RB[8] * lz;
    // the lowest point of the shape's local box: skip shapes wholly above the surface
    const hh = set.localHalf, mm = set.localMid;
    const low = pz + R[6] * mm[3 * s] + R[7] * mm[3 * s + 1] + R[8] * mm[3 * s + 2] -
      (Math.abs(R[6]) * hh[3 * s] + Math.abs(R[7]) * hh[3 * s + 1] +
        Math.abs(R[8]) * hh[3 * s + 2]);
    if (!(low < top)) return false;
    for (let k = 0; k < 9; k++) pose[k] = R[k];
    pose[9] = px, pose[10] = py, pose[11] = pz;
    for (let k = 0; k < 3; k++) {
      pose[12 + k] = set.com[3 * b + k];
      pose[15 + k] = set.vel[3 * b + k];
      pose[18 + k] = set.ang[3 * b + k];
    }
    // RFT's direction: from the motion the loads would cause where the bound predicts it
    const bound = this.#bound, own = bound === null || set.kind[b] !== BodyKind.dynamic;
    for (let k = 0; k < 3; k++) pose[26 + k] = own ? pose[15 + k] : bound.free[6 * b + k];
    pose[21] = top;
    pose[22] = this.interfaceFriction;
    return true;
  }

  /**
   * The elements of `body` that feel the ground at its present pose and velocities — what its
   * next step applies (on a deforming surface, with depths from the map as it stands; the map is
   * not changed) — with their centroids, normals, areas and forces in the world frame. Their
   * forces sum to the ground's force on the body at that pose: a map of where the ground pushes
   * (e.g. a wheel's stress around its rim); for a dynamic body under the memory's capacity they
   * are the forces before its bound scales their sum (`memory_bound.ts`). Empty before the
   * world's first step (the elements are cut then) and for a static body.
   *
   * @example
   * ```ts
   * import { RftFourier, World } from "@grainlab/grainlab/sphere3d";
   * import { expect } from "expect";
   * const world = await World.create({ gravity: [0, 0, 0] });
   * const ground = world.addRftGround(new RftFourier(), { surfaceHeight: 0, elementSize: 0.02 });
   * const plate = world.addBox({
   *   halfExtents: [0.05, 0.05, 0.005], position: [0, 0, -0.015],
   *   bodyType: "kinematic", linearVelocity: [0, 0, -1e-4],
   * });
   * world.step();
   * const e = ground.elementForces(plate);
   * let fz = 0;
   * for (let k = 0; k < e.area.length; k++) fz += e.force[3 * k + 2];
   * // the underside's elements, 2 cm deep (a hair deeper after the step): 200 N in all
   * expect(fz).toBeCloseTo(200, 1);
   * expect(e.normal[2]).toBe(-1); // facing down
   * ```
   */
  elementForces(body: RigidBody | number): RftElementForces {
    const b = typeof body === "number" ? body : body?.id;
    if (typeof b !== "number" || !Number.isInteger(b) || b < 0) {
      throw new TypeError(
        `RftGround.elementForces: body (${String(body)}) must be a RigidBody or a body id`,
      );
    }
    const m = this.#m, out: number[] = [];
    if (m !== null && b < this.#bodies && m.set.kind[b] !== BodyKind.static) {
      const set = m.set, map = this.surface;
      const top = map === null ? this.surfaceHeight : map.maxHeight;
      const ch = this.#chunkOf, grid = this.#grid, memory = this.#memory;
      // the memory as the next step reads it: felt at this step's number
      if (memory !== null) this.#pose[23] = memory.now + 1;
      // and the motion the next step predicts
      if (this.#bound !== null && set.kind[b] === BodyKind.dynamic) {
        this.#bound.predict(set, b, this.#drag.inertia, this.#dt, this.#gravity, true);
      }
      for (let s = 0; s < this.#built; s++) {
        if (set.shapeBody[s] !== b || !this.#shapePose(set, s, b, top)) continue;
        rftShapeElements(
          this.model,
          grid,
          this.#el,
          this.#start,
          this.#chunk,
          s,
          ch[s],
          ch[s + 1],
          this.#pose,
          map,
          memory === null ? null : memory.mem,
          out,
        );
      }
    }
    const n = out.length / 10,
      r: RftElementForces = {
        position: new Float64Array(3 * n),
        normal: new Float64Array(3 * n),
        area: new Float64Array(n),
        force: new Float64Array(3 * n),
      };
    for (let k = 0; k < n; k++) {
      for (let i = 0; i < 3; i++) {
        r.position[3 * k + i] = out[10 * k + i];
        r.normal[3 * k + i] = out[10 * k + 3 + i];
        r.force[3 * k + i] = out[10 * k + 7 + i];
      }
      r.area[k] = out[10 * k + 6];
    }
    return r;
  }

  /** Size the per-body columns for `n` bodies (between steps, when bodies were added). */
  #grow(m: BodyManager, n: number): void {
    this.#force = new Float64Array(3 * n);
    this.#torque = new Float64Array(3 * n);
    this.#bound?.resize(n);
    this.#drag.resize(m, n);
    this.#bodies = n;
    this.#loads.resize(n);
  }
}
