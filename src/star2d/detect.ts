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
 * With CPU sprites (`sprite.ts`, the default), a node lying in a cell of the other grain's
 * sprite wholly outside that grain is rejected by one byte read (for shapes where that pays,
 * `ShapeSprite.rejects`: not circles, whose test needs no atan2 anyway), in a transform from one body
 * frame to the other's cells. It only drops nodes the table test would call outside, so runs,
 * contacts and forces are unchanged.
 *
 * @module
 */

import type { StarShape } from "./shape.ts";
import { type ShapeSprite, SPRITE_FIELDS } from "./sprite.ts";
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

/** How node tests read the other grain's shape (see `StarSamplingOptions`). */
export type StarSampling = "lut" | "sprite";

/** What detection reads of a shape (a {@linkcode StarShape}, or a worker thread's copy). */
export type DetectShape = Pick<
  StarShape,
  "nodes" | "nodeX" | "nodeY" | "lutSize" | "lutR" | "lutDr" | "lutScale" | "round"
>;

/** What detection reads of a sprite (a {@linkcode ShapeSprite}, or a worker thread's copy). */
export type DetectSprite = Pick<
  ShapeSprite,
  "resolution" | "invCell" | "halfWidth" | "cell" | "classes" | "fields" | "rejects"
>;

/**
 * Where detection writes its contacts, in detection's view (normal from `i` towards `j` or the
 * wall): a {@linkcode StarContacts} or a thread's row buffer.
 */
export interface ContactSink {
  /** Contacts written so far. */
  count: number;
  /** Append one (see `StarContacts.push`). */
  push(
    i: number,
    j: number,
    kind: number,
    px: number,
    py: number,
    nx: number,
    ny: number,
    overlap: number,
    key: number,
  ): void;
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
  shapeList: DetectShape[] = [];
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
  out: ContactSink | null = null;
  /**
   * CPU sprites, indexed by shape id: their cell classes reject most nodes before any test.
   * Empty: every node takes the full test.
   */
  sprites: DetectSprite[] = [];
  /** Node tests read the sprites' sampled fields instead of the lookup tables. */
  sampling: StarSampling = "lut";

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
    const lr = sh.lutR;
    let r: number, q: number;
    if (sh.round) {
      // A constant table: the read below would give r = lutR[0] and q = 0 at any angle.
      r = lr[0];
      if (rho2 >= r * r) return 0;
      q = 0;
    } else {
      const n = sh.lutSize;
      let t = (Math.atan2(dy, dx) - this.ang[g]) * sh.lutScale;
      t -= n * Math.floor(t / n);
      let k = t | 0;
      if (k >= n) k = n - 1;
      const u = t - k;
      r = lr[k] + u * (lr[k + 1] - lr[k]);
      if (rho2 >= r * r) return 0;
      const ld = sh.lutDr;
      q = ld[k] + u * (ld[k + 1] - ld[k]);
    }
    const rho = Math.sqrt(rho2);
    if (rho === 0) {
      res[0] = r;
      res[1] = 1;
      res[2] = 0;
      return 1;
    }
    q /= rho;
    const gn = Math.sqrt(1 + q * q);
    const inv = 1 / (rho * gn);
    res[0] = this.settings.firstOrder ? (r - rho) / gn : r - rho;
    res[1] = (dx + q * dy) * inv;
    res[2] = (dy - q * dx) * inv;
    return 1;
  }

  /**
   * {@link StarDetector.inside} from grain g's sprite instead of its lookup tables: the point
   * is taken to g's body frame and read bilinearly (with the half-gradient correction), no
   * atan2. Same outputs. A circle (`StarShape.round`) takes {@link StarDetector.inside}
   * instead, which is exact for it and cheaper than the bilinear read.
   */
  insideSprite(g: number): number {
    if (this.shapeList[this.shapeId[g]].round) return this.inside(g);
    this.nodeTests++;
    const res = this.res;
    const dx = res[9] - this.centre[2 * g], dy = res[10] - this.centre[2 * g + 1];
    const c = this.cos[g], s = this.sin[g];
    const sp = this.sprites[this.shapeId[g]];
    const S = sp.resolution, inv = sp.invCell, L = sp.halfWidth, h = sp.cell;
    const U = (c * dx + s * dy + L) * inv, V = (c * dy - s * dx + L) * inv;
    if (!(U >= 0 && U < S && V >= 0 && V < S)) return 0;
    if (sp.classes[(V | 0) * S + (U | 0)] === 0) return 0;
    const tx = U - 0.5, ty = V - 0.5;
    let x0 = Math.floor(tx), y0 = Math.floor(ty);
    x0 = x0 < 0 ? 0 : x0 > S - 2 ? S - 2 : x0;
    y0 = y0 < 0 ? 0 : y0 > S - 2 ? S - 2 : y0;
    const fx = tx - x0, fy = ty - y0, gx = 1 - fx, gy = 1 - fy;
    const F = sp.fields, row = SPRITE_FIELDS * S;
    const o00 = SPRITE_FIELDS * (y0 * S + x0), o10 = o00 + SPRITE_FIELDS;
    const o01 = o00 + row, o11 = o01 + SPRITE_FIELDS;
    const w00 = gx * gy, w10 = fx * gy, w01 = gx * fy, w11 = fx * fy;
    const ax = fx * h, bx = (fx - 1) * h, ay = fy * h, by = (fy - 1) * h;
    let d: number;
    if (this.settings.firstOrder) {
      d = w00 * (F[o00] + 0.5 * (F[o00 + 1] * ax + F[o00 + 2] * ay)) +
        w10 * (F[o10] + 0.5 * (F[o10 + 1] * bx + F[o10 + 2] * ay)) +
        w01 * (F[o01] + 0.5 * (F[o01 + 1] * ax + F[o01 + 2] * by)) +
        w11 * (F[o11] + 0.5 * (F[o11 + 1] * bx + F[o11 + 2] * by));
    } else {
      d = w00 * (F[o00 + 3] + 0.5 * grad(F, o00) * (F[o00 + 4] * ax + F[o00 + 5] * ay)) +
        w10 * (F[o10 + 3] + 0.5 * grad(F, o10) * (F[o10 + 4] * bx + F[o10 + 5] * ay)) +
        w01 * (F[o01 + 3] + 0.5 * grad(F, o01) * (F[o01 + 4] * ax + F[o01 + 5] * by)) +
        w11 * (F[o11 + 3] + 0.5 * grad(F, o11) * (F[o11 + 4] * bx + F[o11 + 5] * by));
    }
    if (!(d < 0)) return 0;
    const nx = w00 * F[o00 + 4] + w10 * F[o10 + 4] + w01 * F[o01 + 4] + w11 * F[o11 + 4];
    const ny = w00 * F[o00 + 5] + w10 * F[o10 + 5] + w01 * F[o01 + 5] + w11 * F[o11 + 5];
    const l = Math.sqrt(nx * nx + ny * ny);
    const ux = l > 0 ? nx / l : 1, uy = l > 0 ? ny / l : 0;
    res[0] = -d;
    res[1] = c * ux - s * uy;
    res[2] = s * ux + c * uy;
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
    // Nodes of a in cells of b's sprite that lie wholly outside b are rejected by one byte
    // read (where b's shape leaves enough of its bounding disc outside for that to pay):
    // T maps a's body frame to b's cell coordinates.
    const spB = this.sprites.length > 0 ? this.sprites[this.shapeId[b]] : null;
    const useSprite = this.sampling === "sprite";
    let S = 0, m00 = 0, m01 = 0, u0 = 0, v0 = 0;
    let cls: Uint8Array | null = null;
    if (spB !== null && spB.rejects) {
      S = spB.resolution;
      cls = spB.classes;
      const cb = this.cos[b], sb = this.sin[b], ih = spB.invCell;
      m00 = (cb * c + sb * s) * ih; // cos(θa − θb)/h
      m01 = (sb * c - cb * s) * ih; // −sin(θa − θb)/h
      const ox = cax - ce[2 * b], oy = cay - ce[2 * b + 1];
      u0 = (cb * ox + sb * oy + spB.halfWidth) * ih;
      v0 = (cb * oy - sb * ox + spB.halfWidth) * ih;
    }
    let runStart = 0, inRun = false;
    // node index of k, kept in [0, N) incrementally (k0 and k1 are integral doubles)
    let idx = k0 - N * Math.floor(k0 / N) - 1;
    for (let k = k0; k <= k1; k++) {
      idx = idx === N - 1 ? 0 : idx + 1;
      const x = nX[idx], y = nY[idx];
      let hit = 0;
      if (cls !== null) {
        const U = m00 * x + m01 * y + u0, V = m00 * y - m01 * x + v0;
        if (!(U >= 0 && U < S && V >= 0 && V < S) || cls[(V | 0) * S + (U | 0)] === 0) {
          this.nodeTests++;
          hit = -1;
        }
      }
      let px = 0, py = 0;
      if (hit === 0) {
        px = cax + c * x - s * y;
        py = cay + s * x + c * y;
        res[9] = px;
        res[10] = py;
        hit = useSprite ? this.insideSprite(b) : this.inside(b);
      }
      if (hit === 1) {
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
      // b's nodes in a's sprite cells, as in `pair`
      const spA = this.sprites.length > 0 ? this.sprites[this.shapeId[a]] : null;
      const useSprite = this.sampling === "sprite";
      let S = 0, m00 = 0, m01 = 0, u0 = 0, v0 = 0;
      let cls: Uint8Array | null = null;
      if (spA !== null && spA.rejects) {
        S = spA.resolution;
        cls = spA.classes;
        const ih = spA.invCell;
        m00 = (ca * cb + sa * sb) * ih; // cos(θb − θa)/h
        m01 = (sa * cb - ca * sb) * ih; // −sin(θb − θa)/h
        const ox = cbx - cax, oy = cby - cay;
        u0 = (ca * ox + sa * oy + spA.halfWidth) * ih;
        v0 = (ca * oy - sa * ox + spA.halfWidth) * ih;
      }
      let idx = j0 - NB * Math.floor(j0 / NB) - 1;
      for (let jj = j0; jj <= j1; jj++) {
        idx = idx === NB - 1 ? 0 : idx + 1;
        const x = bX[idx], y = bY[idx];
        if (cls !== null) {
          const U = m00 * x + m01 * y + u0, V = m00 * y - m01 * x + v0;
          if (!(U >= 0 && U < S && V >= 0 && V < S) || cls[(V | 0) * S + (U | 0)] === 0) {
            this.nodeTests++;
            continue;
          }
        }
        const px = cbx + cb * x - sb * y, py = cby + sb * x + cb * y;
        res[9] = px;
        res[10] = py;
        if ((useSprite ? this.insideSprite(a) : this.inside(a)) === 1) {
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

/** ‖∇f‖ at a sprite sample: f/d where both are non-zero, else 1. */
function grad(F: Float32Array, o: number): number {
  const d = F[o], f = F[o + 3];
  return d !== 0 && f !== 0 ? f / d : 1;
}
