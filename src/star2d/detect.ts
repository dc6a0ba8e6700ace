/**
 * Nodes-to-surface detection between star grains (the StarDEM scheme) and against walls.
 *
 * For a pair whose bounding circles (radius r_max about the polar centres) intersect, only the
 * nodes of S₁ whose angle lies in the lens [α(I), α(J)] between the two circle intersection
 * points are tested against S₂ (one atan2 per node, a table read, no sqrt unless inside). Each
 * run of consecutive inside nodes is one distinct contact. Symmetric detection also tests the
 * nodes of S₂ in the angular sector (seen from S₂'s centre) spanned by the run widened by one
 * node on each side, so that the boundary crossings are inside the sector; the contact point is
 * the deepest node of either grain, the overlap its (first-order or radial) distance to the
 * other boundary and the normal the other grain's normalised gradient there.
 *
 * @module
 */

import type { StarShape } from "./shape.ts";
import type { StarContacts } from "./contacts.ts";
import type { Walls } from "./walls.ts";

const TWO_PI = 2 * Math.PI;

/** Detection settings resolved once. */
export interface DetectorSettings {
  /** First-order (true) or radial (false) overlap. */
  firstOrder: boolean;
  /** Also test the other grain's nodes in the run's sector. */
  symmetric: boolean;
  /** Every inside node is a contact point (the older rule) instead of the deepest only. */
  allNodes: boolean;
}

/**
 * Detection kernel bound to a system's columns; allocation-free. Outputs go to a
 * {@linkcode StarContacts}; `nodeTests` counts point-in-grain tests.
 *
 * @example
 * ```ts
 * import { StarSystem, StarShape } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const s = new StarSystem({ gravity: [0, 0] });
 * const cross = s.addShape(StarShape.preset("cross", { rMax: 0.005 }));
 * // Lobes at ±45° and ±135°: two arms of each cross meet, two distinct contacts.
 * s.addGrains({ shape: cross, positions: [[0, 0], [0.0068, 0]], angles: Math.PI / 8 });
 * s.step();
 * expect(s.lastStepStats.nodeTests).toBeGreaterThan(0);
 * expect(s.contacts.count).toBe(2);
 * ```
 */
export class StarDetector {
  /** Point-in-grain tests since the last reset. */
  nodeTests = 0;
  /**
   * Scratch (typed, so that calls never box a double): after `inside`, [0] overlap (m),
   * [1..2] unit outward gradient; [3] key angle; [4..8] the running deepest node (overlap,
   * x, y, nx, ny); [9..10] the query point of `inside` and `keyAngle`.
   */
  readonly res: Float64Array = new Float64Array(11);
  /** Shapes, indexed by shape id. */
  shapeList: StarShape[] = [];
  /** Shape id per grain. */
  shapeId: Uint16Array = new Uint16Array(0);
  /** Polar centres, stride 2. */
  centre: Float64Array = new Float64Array(0);
  /** Angles (rad). */
  ang: Float64Array = new Float64Array(0);
  /** cos of the angles. */
  cos: Float64Array = new Float64Array(0);
  /** sin of the angles. */
  sin: Float64Array = new Float64Array(0);
  /** Bounding radii. */
  rmax: Float64Array = new Float64Array(0);
  /** Stable ids (for the orientation of pairs). */
  ids: Uint32Array = new Uint32Array(0);
  /** Settings. */
  settings: DetectorSettings = { firstOrder: true, symmetric: true, allNodes: false };
  /** Output contacts. */
  out: StarContacts | null = null;

  /**
   * 1 when the point `res[9..10]` is inside grain g, else 0. On success `res[0]` holds the
   * overlap (m, first-order or radial) and `res[1..2]` the unit outward gradient of g's f.
   */
  inside(g: number): number {
    this.nodeTests++;
    const res = this.res;
    const dx = res[9] - this.centre[2 * g], dy = res[10] - this.centre[2 * g + 1];
    const rho2 = dx * dx + dy * dy;
    const R = this.rmax[g];
    if (rho2 >= R * R) return 0;
    const sh = this.shapeList[this.shapeId[g]];
    const n = sh.lutSize;
    let t = (Math.atan2(dy, dx) - this.ang[g]) * sh.lutScale;
    t -= n * Math.floor(t / n);
    let k = t | 0;
    if (k >= n) k = n - 1;
    const u = t - k;
    const lr = sh.lutR;
    const r = lr[k] + u * (lr[k + 1] - lr[k]);
    if (rho2 >= r * r) return 0;
    const rho = Math.sqrt(rho2);
    if (rho === 0) {
      res[0] = r;
      res[1] = 1;
      res[2] = 0;
      return 1;
    }
    const ld = sh.lutDr;
    const q = (ld[k] + u * (ld[k + 1] - ld[k])) / rho;
    const gn = Math.sqrt(1 + q * q);
    const inv = 1 / (rho * gn);
    res[0] = this.settings.firstOrder ? (r - rho) / gn : r - rho;
    res[1] = (dx + q * dy) * inv;
    res[2] = (dy - q * dx) * inv;
    return 1;
  }

  /** Detect the contacts of grains a and b (ids[a] < ids[b]); returns how many were added. */
  pair(a: number, b: number): number {
    const ce = this.centre;
    const cax = ce[2 * a], cay = ce[2 * a + 1];
    const dx = ce[2 * b] - cax, dy = ce[2 * b + 1] - cay;
    const d2 = dx * dx + dy * dy;
    const R1 = this.rmax[a], R2 = this.rmax[b];
    if (d2 >= (R1 + R2) * (R1 + R2)) return 0;
    const sh = this.shapeList[this.shapeId[a]];
    const N = sh.nodes, inv = N / TWO_PI;
    const nX = sh.nodeX, nY = sh.nodeY;
    const c = this.cos[a], s = this.sin[a];
    const d = Math.sqrt(d2);
    let k0: number, k1: number;
    if (d <= Math.abs(R1 - R2) || d <= 1e-12 * R1) {
      // One bounding circle contains the other: start the ring after a node outside b.
      k0 = -1;
      for (let k = 0; k < N; k++) {
        const x = nX[k], y = nY[k];
        this.res[9] = cax + c * x - s * y;
        this.res[10] = cay + s * x + c * y;
        if (this.inside(b) === 0) {
          k0 = k + 1;
          break;
        }
      }
      if (k0 < 0) k0 = 0; // whole boundary inside: one contact
      k1 = k0 + N - 1;
    } else {
      let cb = (d2 + R1 * R1 - R2 * R2) / (2 * d * R1);
      cb = cb > 1 ? 1 : cb < -1 ? -1 : cb;
      const beta = Math.acos(cb);
      const phi = Math.atan2(dy, dx) - this.ang[a];
      k0 = Math.ceil((phi - beta) * inv);
      k1 = Math.floor((phi + beta) * inv);
    }
    const out = this.out!, res = this.res;
    const before = out.count;
    const allNodes = this.settings.allNodes;
    let runStart = 0, inRun = false;
    for (let k = k0; k <= k1; k++) {
      let idx = k % N;
      if (idx < 0) idx += N;
      const x = nX[idx], y = nY[idx];
      const px = cax + c * x - s * y, py = cay + s * x + c * y;
      res[9] = px;
      res[10] = py;
      if (this.inside(b) === 1) {
        // Node of a inside b: the normal from a to b is minus b's outward gradient.
        const ov = res[0];
        if (allNodes) {
          res[9] = px;
          res[10] = py;
          this.#keyAngle(a);
          out.push(a, b, 0, px, py, -res[1], -res[2], ov, res[3]);
        } else if (!inRun || ov > res[4]) {
          res[4] = ov;
          res[5] = px;
          res[6] = py;
          res[7] = -res[1];
          res[8] = -res[2];
        }
        if (!inRun) {
          inRun = true;
          runStart = k;
        }
      } else if (inRun) {
        this.#closeRun(a, b, runStart, k - 1);
        inRun = false;
      }
    }
    if (inRun) this.#closeRun(a, b, runStart, k1);
    return out.count - before;
  }

  /** Body-frame angle of the point `res[9..10]` in grain a, in [0, 2π), into `res[3]`. */
  #keyAngle(a: number): void {
    const res = this.res;
    let t = Math.atan2(res[10] - this.centre[2 * a + 1], res[9] - this.centre[2 * a]) -
      this.ang[a];
    t -= TWO_PI * Math.floor(t / TWO_PI);
    this.res[3] = t;
  }

  #closeRun(a: number, b: number, first: number, last: number): void {
    const out = this.out!, res = this.res;
    const allNodes = this.settings.allNodes;
    if (this.settings.symmetric) {
      const shA = this.shapeList[this.shapeId[a]];
      const NA = shA.nodes;
      const ce = this.centre;
      const ca = this.cos[a], sa = this.sin[a];
      const cax = ce[2 * a], cay = ce[2 * a + 1], cbx = ce[2 * b], cby = ce[2 * b + 1];
      let i0 = (first - 1) % NA, i1 = (last + 1) % NA;
      if (i0 < 0) i0 += NA;
      if (i1 < 0) i1 += NA;
      const x0 = shA.nodeX[i0], y0 = shA.nodeY[i0], x1 = shA.nodeX[i1], y1 = shA.nodeY[i1];
      const p0x = cax + ca * x0 - sa * y0 - cbx, p0y = cay + sa * x0 + ca * y0 - cby;
      const p1x = cax + ca * x1 - sa * y1 - cbx, p1y = cay + sa * x1 + ca * y1 - cby;
      const psi0 = Math.atan2(p0y, p0x) - this.ang[b];
      let diff = Math.atan2(p1y, p1x) - this.ang[b] - psi0;
      diff -= TWO_PI * Math.round(diff / TWO_PI);
      const lo = diff >= 0 ? psi0 : psi0 + diff;
      const span = diff >= 0 ? diff : -diff;
      const shB = this.shapeList[this.shapeId[b]];
      const NB = shB.nodes, invB = NB / TWO_PI;
      const j0 = Math.ceil(lo * invB), j1 = Math.floor((lo + span) * invB);
      const cb = this.cos[b], sb = this.sin[b];
      const bX = shB.nodeX, bY = shB.nodeY;
      for (let jj = j0; jj <= j1; jj++) {
        let idx = jj % NB;
        if (idx < 0) idx += NB;
        const x = bX[idx], y = bY[idx];
        const px = cbx + cb * x - sb * y, py = cby + sb * x + cb * y;
        res[9] = px;
        res[10] = py;
        if (this.inside(a) === 1) {
          // Node of b inside a: the normal from a to b is a's outward gradient.
          const ov = res[0];
          if (allNodes) {
            res[9] = px;
            res[10] = py;
            this.#keyAngle(a);
            out.push(a, b, 0, px, py, res[1], res[2], ov, res[3]);
          } else if (ov > res[4]) {
            res[4] = ov;
            res[5] = px;
            res[6] = py;
            res[7] = res[1];
            res[8] = res[2];
          }
        }
      }
    }
    if (!allNodes) this.#pushBest(a, b, 0);
  }

  #pushBest(a: number, b: number, kind: number): void {
    const res = this.res;
    res[9] = res[5];
    res[10] = res[6];
    this.#keyAngle(a);
    this.out!.push(a, b, kind, res[5], res[6], res[7], res[8], res[4], res[3]);
  }

  /** Contacts of grain g with wall w (all nodes tested when the bounding circle reaches it). */
  wall(g: number, w: number, walls: Walls): number {
    const ce = this.centre, wr = walls.res, res = this.res;
    const cx = ce[2 * g], cy = ce[2 * g + 1];
    wr[3] = cx;
    wr[4] = cy;
    walls.probeAt(w);
    if (wr[0] >= this.rmax[g]) return 0;
    const sh = this.shapeList[this.shapeId[g]];
    const N = sh.nodes, nX = sh.nodeX, nY = sh.nodeY;
    const c = this.cos[g], s = this.sin[g];
    // Start the ring after a node that is not in contact, so runs never wrap.
    let k0 = -1;
    for (let k = 0; k < N; k++) {
      this.nodeTests++;
      const x = nX[k], y = nY[k];
      wr[3] = cx + c * x - s * y;
      wr[4] = cy + s * x + c * y;
      walls.probeAt(w);
      if (wr[0] >= 0) {
        k0 = k + 1;
        break;
      }
    }
    if (k0 < 0) k0 = 0;
    const out = this.out!;
    const before = out.count;
    const allNodes = this.settings.allNodes;
    let inRun = false;
    for (let k = k0; k < k0 + N; k++) {
      const idx = k >= N ? k - N : k;
      const x = nX[idx], y = nY[idx];
      const px = cx + c * x - s * y, py = cy + s * x + c * y;
      this.nodeTests++;
      wr[3] = px;
      wr[4] = py;
      walls.probeAt(w);
      if (wr[0] < 0) {
        const ov = -wr[0];
        if (allNodes) {
          res[9] = px;
          res[10] = py;
          this.#keyAngle(g);
          out.push(g, w, 1, px, py, -wr[1], -wr[2], ov, res[3]);
        } else if (!inRun || ov > res[4]) {
          res[4] = ov;
          res[5] = px;
          res[6] = py;
          res[7] = -wr[1];
          res[8] = -wr[2];
        }
        inRun = true;
      } else if (inRun) {
        inRun = false;
        if (!allNodes) this.#pushBest(g, w, 1);
      }
    }
    if (inRun && !allNodes) this.#pushBest(g, w, 1);
    return out.count - before;
  }
}
