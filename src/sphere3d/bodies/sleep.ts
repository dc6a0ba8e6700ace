/**
 * Granular pool sleep (the specification's approximation): grains that stayed slower than a
 * threshold for a number of steps, far from every moving body, are frozen — not integrated,
 * and pairs of two sleeping grains leave the neighbour list — until a body comes near or a
 * moving awake grain touches them. Sleeping grains act on awake grains like fixed grains.
 *
 * @module
 */
import { bool, finite, integerIn, options as checkOptions, positive } from "../../math/validate.ts";
import type { PairList } from "../../math/grid.ts";
import type { ContactRecord } from "../../contact/record.ts";
import type { HistoryTable } from "../history.ts";
import type { ParticleStore } from "../particles.ts";
import { BodyKind, type BodySet } from "./body_set.ts";

/**
 * Options of `GranularSystem.setPoolSleep`.
 *
 * Unstable: may change without notice (pool sleep is the specification's approximation).
 *
 * @experimental
 * @example
 * ```ts
 * import type { PoolSleepOptions } from "@grainlab/grainlab/sphere3d";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const g = new World().addGranularParticles({ positions: [[0, 0, 0.5]], radii: 0.02 });
 * const sleep: PoolSleepOptions = { speedThreshold: 0.02, quietSteps: 20 };
 * g.setPoolSleep(sleep);
 * expect(g.sleeping[0]).toBe(0);
 * ```
 */
export interface PoolSleepOptions {
  /** Turn sleep on or off (off wakes every grain). @default true */
  enabled?: boolean;
  /** Speed (m/s) below which a grain counts as quiet (spin counts as ω·r). @default 0.01 */
  speedThreshold?: number;
  /** Quiet steps in a row before a grain falls asleep, ≥ 1. @default 50 */
  quietSteps?: number;
  /**
   * Grains closer than this (m) to the bounding box of a dynamic or kinematic body never
   * sleep, and sleeping grains that a body comes this close to wake. @default 0.05
   */
  wakeDistance?: number;
}

const KEYS = ["enabled", "speedThreshold", "quietSteps", "wakeDistance"];

/** Whether the centre at `pos[o]` is within `m` of the box of a dynamic or kinematic shape. */
function nearMoving(bodies: BodySet, pos: Float64Array, o: number, m: number): boolean {
  const box = bodies.wBox;
  for (let s = 0; s < bodies.shapes; s++) {
    if (bodies.kind[bodies.shapeBody[s]] === BodyKind.static) continue;
    const b = 6 * s;
    if (
      pos[o] > box[b] - m && pos[o] < box[b + 3] + m &&
      pos[o + 1] > box[b + 1] - m && pos[o + 1] < box[b + 4] + m &&
      pos[o + 2] > box[b + 2] - m && pos[o + 2] < box[b + 5] + m
    ) return true;
  }
  return false;
}

/** The sleep state of one granular system. */
export class PoolSleep {
  /** Sleep is on. */
  enabled = false;
  /** Quiet speed (m/s). */
  speed = 0.01;
  /** Quiet steps before sleeping. */
  quiet = 50;
  /** Wake distance (m). */
  wakeDistance = 0.05;
  /** Quiet steps so far per slot. */
  count: Uint16Array = new Uint16Array(0);
  /** 1 for sleeping slots. */
  asleep: Uint8Array = new Uint8Array(0);
  /** Sleeping grains. */
  sleeping = 0;
  /** Grains that fell asleep since the neighbour list last dropped sleeping pairs. */
  fresh = 0;

  /** Validate and apply options; returns whether every grain must wake. */
  configure(o: PoolSleepOptions): boolean {
    const w = "setPoolSleep";
    const v = checkOptions<PoolSleepOptions>(w, "options", o, KEYS);
    const enabled = bool(w, "enabled", v.enabled, true);
    const speed = positive(w, "speedThreshold", v.speedThreshold ?? this.speed);
    const quiet = integerIn(w, "quietSteps", v.quietSteps ?? this.quiet, 1, 65535);
    const wake = finite(w, "wakeDistance", v.wakeDistance ?? this.wakeDistance);
    if (wake < 0) throw new RangeError(`${w}: wakeDistance (${wake}) must be >= 0`);
    this.enabled = enabled, this.speed = speed, this.quiet = quiet, this.wakeDistance = wake;
    return !enabled;
  }

  /** Size the columns for `n` slots (new slots awake). */
  reserve(n: number): void {
    if (this.count.length >= n) return;
    const c = new Uint16Array(Math.max(n, 2 * this.count.length));
    c.set(this.count);
    const a = new Uint8Array(c.length);
    a.set(this.asleep);
    this.count = c, this.asleep = a;
  }

  /** Wake slot `i`: its mass comes back. */
  wake(ps: ParticleStore, i: number, density: number): void {
    this.asleep[i] = 0;
    this.count[i] = 0;
    this.sleeping--;
    ps.setMass(i, density);
  }

  /** Forget every sleep flag and count (the masses are the caller's: e.g. a loaded state). */
  clear(): void {
    this.asleep.fill(0);
    this.count.fill(0);
    this.sleeping = 0;
    this.fresh = 0;
  }

  /** Wake every grain. */
  wakeAll(ps: ParticleStore, density: number): void {
    for (let i = 0; i < ps.count; i++) if (this.asleep[i] === 1) this.wake(ps, i, density);
    this.sleeping = 0;
    this.fresh = 0;
  }

  /** Reorder the first `count` slots: new slot s takes old slot `order[s]` (scratch `u`). */
  permute(order: Int32Array, count: number, u: Uint32Array): void {
    if (this.count.length < count) return;
    const a = this.asleep, c = this.count;
    for (let s = 0; s < count; s++) u[s] = a[order[s]];
    for (let s = 0; s < count; s++) a[s] = u[s];
    for (let s = 0; s < count; s++) u[s] = c[order[s]];
    for (let s = 0; s < count; s++) c[s] = u[s];
  }

  /** Slot `from` moved to `to` (removal); slot `from` is gone. */
  moveSlot(from: number, to: number): void {
    if (this.asleep[to] === 1) this.sleeping--;
    this.asleep[to] = this.asleep[from];
    this.count[to] = this.count[from];
    this.asleep[from] = 0;
    this.count[from] = 0;
  }

  /**
   * End of a step: wake grains near moving bodies or touched by a moving awake grain, then put
   * quiet grains to sleep. Returns true when the neighbour list must be rebuilt: some grain
   * woke (its pairs with sleeping grains must come back), or enough grains fell asleep since
   * the last build (a sixteenth of them, at least one) that their pairs are worth dropping —
   * nothing else rebuilds the list of a pool at rest.
   */
  update(
    ps: ParticleStore,
    density: number,
    bodies: BodySet | null,
    contacts: ContactRecord,
  ): boolean {
    // the system's columns may have grown without this one (particles added, a state loaded)
    if (this.count.length < ps.count) this.reserve(ps.capacity);
    const n = ps.count, asleep = this.asleep, cnt = this.count;
    const pos = ps.pos, vel = ps.vel, ang = ps.ang, rad = ps.radius;
    const v2 = this.speed * this.speed, d = this.wakeDistance;
    let woke = false;
    // 1. touched by a moving awake grain
    if (this.sleeping > 0) {
      const ci = contacts.i, cj = contacts.j;
      for (let k = 0; k < contacts.count; k++) {
        const a = ci[k], b = cj[k];
        if (b < 0 || asleep[a] === asleep[b]) continue;
        const awake = asleep[a] === 1 ? b : a, sleeper = awake === a ? b : a;
        const o = 3 * awake;
        if (vel[o] ** 2 + vel[o + 1] ** 2 + vel[o + 2] ** 2 > v2) {
          this.wake(ps, sleeper, density);
          woke = true;
        }
      }
    }
    // 2. near a moving body (its shapes' bounding boxes grown by the wake distance), or set in
    // motion or pushed by the caller (setVelocity, setExternalForce, …: sleeping grains have
    // neither velocity nor spin of their own); grains under an external load never sleep
    const hasMoving = bodies !== null && bodies.shapes > 0;
    const ef = ps.extForce, et = ps.extTorque;
    for (let i = 0; i < n; i++) {
      if (ps.fixed[i] === 1) continue;
      const o3 = 3 * i;
      const loaded = ef[o3] !== 0 || ef[o3 + 1] !== 0 || ef[o3 + 2] !== 0 ||
        et[o3] !== 0 || et[o3 + 1] !== 0 || et[o3 + 2] !== 0;
      if (asleep[i] === 1) {
        if (
          loaded || vel[o3] !== 0 || vel[o3 + 1] !== 0 || vel[o3 + 2] !== 0 ||
          ang[o3] !== 0 || ang[o3 + 1] !== 0 || ang[o3 + 2] !== 0 ||
          (hasMoving && nearMoving(bodies!, pos, o3, rad[i] + d))
        ) {
          this.wake(ps, i, density);
          woke = true;
        }
        continue;
      }
      const o = 3 * i, r = rad[i];
      const s2 = vel[o] ** 2 + vel[o + 1] ** 2 + vel[o + 2] ** 2;
      const w2 = (ang[o] ** 2 + ang[o + 1] ** 2 + ang[o + 2] ** 2) * r * r;
      if (s2 > v2 || w2 > v2 || loaded) {
        cnt[i] = 0;
        continue;
      }
      if (cnt[i] < this.quiet) cnt[i]++;
      if (cnt[i] >= this.quiet && !(hasMoving && nearMoving(bodies!, pos, o, r + d))) {
        asleep[i] = 1;
        this.sleeping++;
        this.fresh++;
        vel[o] = vel[o + 1] = vel[o + 2] = 0;
        ang[o] = ang[o + 1] = ang[o + 2] = 0;
        ps.invMass[i] = 0;
        ps.invInertia[i] = 0;
      }
    }
    if (this.sleeping === 0) this.fresh = 0;
    return woke || this.fresh >= Math.max(1, n >> 4);
  }

  /**
   * Keep the tangential springs between two sleeping grains: their pairs are not evaluated,
   * so the sweep at the end of a force evaluation would drop them and a woken grain would
   * lose its static friction (and slip, and wake its neighbours). Stamps them as used.
   */
  keepHistories(hist: HistoryTable, slotOfId: Int32Array, count: number, stamp: number): void {
    if (this.sleeping === 0) return;
    const S = hist.slots, used = hist.used, partner = hist.partner, st = hist.stamp;
    const s = this.asleep;
    for (let p = 0; p < count; p++) {
      if (s[p] !== 1) continue;
      for (let e = p * S, end = e + used[p]; e < end; e++) {
        const q = partner[e];
        if (q >= 0 && s[slotOfId[q]] === 1) st[e] = stamp;
      }
    }
  }

  /** Drop the pairs of two sleeping grains from a freshly built neighbour list. */
  filterPairs(pairs: PairList): void {
    this.fresh = 0;
    if (this.sleeping === 0) return;
    const a = pairs.a, b = pairs.b, s = this.asleep;
    let k = 0;
    for (let p = 0; p < pairs.count; p++) {
      if (s[a[p]] === 1 && s[b[p]] === 1) continue;
      a[k] = a[p], b[k] = b[p];
      k++;
    }
    pairs.count = k;
  }
}
