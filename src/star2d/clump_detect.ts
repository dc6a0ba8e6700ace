/**
 * Disk–disk detection between clumps of disks (`ClumpSystem`), one candidate pair at a time,
 * as a kernel bound to the system's columns: the calling thread and the worker threads of a
 * threaded step run the same code (see `threads/`).
 *
 * @module
 */
import type { ContactSink } from "./detect.ts";

/** What detection reads of a clump template (a `ClumpTemplate` or a worker's copy). */
export interface ClumpDisks {
  /** Disk centres x in the body frame (m). */
  x: Float64Array;
  /** Disk centres y in the body frame (m). */
  y: Float64Array;
  /** Disk radii (m). */
  r: Float64Array;
}

/**
 * Detection kernel of clump pairs; allocation-free. Each disk of a is first checked against
 * b's bounding circle and each disk of b against a's; every remaining disk pair that overlaps
 * is one contact (point at the middle of the overlap, normal along the centres, key
 * u·1024 + v). `nodeTests` counts the disk pairs tested.
 *
 * @example
 * ```ts
 * import { StarContacts } from "./contacts.ts";
 * import { ClumpDetector } from "./clump_detect.ts";
 * import { expect } from "expect";
 * const det = new ClumpDetector();
 * const one = { x: new Float64Array([0]), y: new Float64Array([0]), r: new Float64Array([0.005]) };
 * det.templates = [one];
 * det.pos = new Float64Array([0, 0, 0.0099, 0]);
 * det.cos = new Float64Array([1, 1]);
 * det.sin = new Float64Array([0, 0]);
 * det.rmax = new Float64Array([0.005, 0.005]);
 * det.shapeId = new Uint16Array([0, 0]);
 * const out = new StarContacts();
 * det.out = out;
 * expect(det.pair(0, 1)).toBe(1);
 * expect(out.overlap[0]).toBeCloseTo(1e-4, 12);
 * ```
 */
export class ClumpDetector {
  /** Disk pairs tested since the last reset. */
  nodeTests = 0;
  /** Templates by id. */
  templates: ClumpDisks[] = [];
  /** Centres of mass, stride 2. */
  pos: Float64Array = new Float64Array(0);
  /** cos of the angles. */
  cos: Float64Array = new Float64Array(0);
  /** sin of the angles. */
  sin: Float64Array = new Float64Array(0);
  /** Bounding radii about the centres of mass. */
  rmax: Float64Array = new Float64Array(0);
  /** Template id per clump. */
  shapeId: Uint16Array = new Uint16Array(0);
  /** Output contacts. */
  out: ContactSink | null = null;

  /** Detect the disk contacts of clumps a and b (ids[a] < ids[b]); returns how many were added. */
  pair(a: number, b: number): number {
    const pos = this.pos, C = this.cos, S = this.sin, rmax = this.rmax, sid = this.shapeId;
    const ta = this.templates[sid[a]], tb = this.templates[sid[b]], c = this.out!;
    const ax = pos[2 * a], ay = pos[2 * a + 1], bx = pos[2 * b], by = pos[2 * b + 1];
    const ca = C[a], sa = S[a], cb = C[b], sb = S[b], Ra = rmax[a], Rb = rmax[b];
    const before = c.count;
    let tests = 0;
    for (let u = 0; u < ta.r.length; u++) {
      const ux = ax + ca * ta.x[u] - sa * ta.y[u], uy = ay + sa * ta.x[u] + ca * ta.y[u];
      const ru = ta.r[u];
      let ex = ux - bx, ey = uy - by, lim = ru + Rb;
      if (ex * ex + ey * ey >= lim * lim) continue;
      for (let v = 0; v < tb.r.length; v++) {
        const vx = bx + cb * tb.x[v] - sb * tb.y[v], vy = by + sb * tb.x[v] + cb * tb.y[v];
        ex = vx - ax;
        ey = vy - ay;
        const rv = tb.r[v];
        lim = rv + Ra;
        if (ex * ex + ey * ey >= lim * lim) continue;
        tests++;
        const dx = vx - ux, dy = vy - uy, d2 = dx * dx + dy * dy, rr = ru + rv;
        if (d2 >= rr * rr) continue;
        const d = Math.sqrt(d2);
        const nx = d > 0 ? dx / d : 1, ny = d > 0 ? dy / d : 0;
        const ov = rr - d, arm = ru - 0.5 * ov;
        c.push(a, b, 0, ux + nx * arm, uy + ny * arm, nx, ny, ov, u * 1024 + v);
      }
    }
    this.nodeTests += tests;
    return c.count - before;
  }
}
