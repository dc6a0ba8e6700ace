/**
 * Grain–body contacts: for every contact shape of the world's rigid bodies, the grains in the
 * grid cells overlapping the shape's inflated bounding box are tested against the shape
 * (analytic closest points for primitives, candidate triangles for meshes and height maps);
 * touching grains get the same normal, tangential-history and rolling laws as a grain on a
 * wall (boundary material mixed in by the geometric mean), and the body gets the equal and
 * opposite force and its torque about the centre of mass. Histories are keyed by
 * (particle, shape). Allocation-free.
 *
 * @module
 */
import { contactDamping, normalForce } from "../../contact/normal.ts";
import { rollingScale } from "../../contact/rolling.ts";
import { type ContactRecord, pushContact3 } from "../../contact/record.ts";
import type { CellGrid3 } from "../../math/grid.ts";
import {
  fillRecord,
  type ForceParams,
  type ForceScratch,
  type FrictionTables,
  historyForce,
} from "../forces.ts";
import type { HistoryTable } from "../history.ts";
import type { ParticleStore } from "../particles.ts";
import type { StepStats } from "../stats.ts";
import { BodyKind, type BodySet } from "./body_set.ts";
import { SHAPE_TABLE } from "./shape_table.ts";

/**
 * History partner id of body shape `s`: 0x80000000 + s as an int32 (negative and far below the
 * boundary ids 0xffffff00.., so it never collides with a particle or a plane).
 */
export function shapePartner(s: number): number {
  return (0x80000000 + s) | 0;
}

/** Per granular system: the grains' forces on each body and their step accumulators. */
export class BodyLoads {
  /** Bodies the arrays are sized for. */
  size = 0;
  /** Force on each body at the last evaluation (N), stride 3. */
  force: Float64Array = new Float64Array(0);
  /** Torque about the centre of mass at the last evaluation (N·m), stride 3. */
  torque: Float64Array = new Float64Array(0);
  /** Force and torque of the evaluation before (trapezoid rule), stride 6. */
  prev: Float64Array = new Float64Array(0);
  /** Impulse and angular impulse accumulated over the current step, stride 6. */
  acc: Float64Array = new Float64Array(0);
  /** Mesh counters: candidate triangles, inside tests. */
  readonly counters: Float64Array = new Float64Array(2);
  /** Closest-point result scratch. */
  readonly out: Float64Array = new Float64Array(8);

  /** Size the arrays for `n` bodies (between steps only). */
  resize(n: number): void {
    if (n === this.size) return;
    const f = new Float64Array(3 * n), t = new Float64Array(3 * n);
    const p = new Float64Array(6 * n), a = new Float64Array(6 * n);
    const k = Math.min(n, this.size);
    f.set(this.force.subarray(0, 3 * k));
    t.set(this.torque.subarray(0, 3 * k));
    p.set(this.prev.subarray(0, 6 * k));
    a.set(this.acc.subarray(0, 6 * k));
    this.force = f, this.torque = t, this.prev = p, this.acc = a;
    this.size = n;
  }

  /** Start a step: the carried forces of the last evaluation open the trapezoid sum. */
  beginStep(): void {
    const n = this.size;
    this.acc.fill(0);
    for (let b = 0; b < n; b++) {
      for (let k = 0; k < 3; k++) {
        this.prev[6 * b + k] = this.force[3 * b + k];
        this.prev[6 * b + 3 + k] = this.torque[3 * b + k];
      }
    }
  }

  /** After a substep's evaluation: add ½h (previous + current) to the step's impulses. */
  accumulate(h: number): void {
    const n = this.size, acc = this.acc, prev = this.prev, f = this.force, t = this.torque;
    const half = 0.5 * h;
    for (let b = 0; b < n; b++) {
      for (let k = 0; k < 3; k++) {
        acc[6 * b + k] += half * (prev[6 * b + k] + f[3 * b + k]);
        acc[6 * b + 3 + k] += half * (prev[6 * b + 3 + k] + t[3 * b + k]);
        prev[6 * b + k] = f[3 * b + k];
        prev[6 * b + 3 + k] = t[3 * b + k];
      }
    }
  }
}

/**
 * Add the forces between the grains of `ps` and every shape of `set` (posed by
 * `set.poseShapes`). `grid` holds the grains sorted into cells at the last neighbour-list build;
 * grains have moved at most `slack` since (half the skin). Writes the grains' forces, the
 * bodies' loads into `loads`, the contacts and the counters.
 */
export function bodyContactForces(
  ps: ParticleStore,
  set: BodySet,
  grid: CellGrid3,
  slack: number,
  maxRadius: number,
  hist: HistoryTable,
  mat: FrictionTables,
  boundaryFriction: number,
  boundaryRolling: number,
  p: ForceParams,
  sc: ForceScratch,
  loads: BodyLoads,
  contacts: ContactRecord,
  stats: StepStats,
): void {
  loads.force.fill(0);
  loads.torque.fill(0);
  if (ps.count === 0) return;
  const io = sc.io;
  io[6] = p.histDt, io[7] = p.kt, io[8] = p.ct;
  for (let s = 0; s < set.shapes; s++) {
    shapeSweep(
      ps,
      set,
      s,
      grid,
      slack + maxRadius,
      hist,
      mat,
      boundaryFriction,
      boundaryRolling,
      p,
      sc,
      loads,
      contacts,
      stats,
    );
  }
}

/** Grid cell coordinate of `x` clamped to the grid (as the grid's own binning does). */
function cell(x: number, o: number, inv: number, n: number): number {
  const c = Math.floor((x - o) * inv);
  return c < 0 ? 0 : c >= n ? n - 1 : c;
}

/** The contacts of shape `s` with the grains near it. */
function shapeSweep(
  ps: ParticleStore,
  set: BodySet,
  s: number,
  grid: CellGrid3,
  inflate: number,
  hist: HistoryTable,
  mat: FrictionTables,
  boundaryFriction: number,
  boundaryRolling: number,
  p: ForceParams,
  sc: ForceScratch,
  loads: BodyLoads,
  contacts: ContactRecord,
  stats: StepStats,
): void {
  const box = set.wBox, b6 = 6 * s;
  const x0 = box[b6] - inflate, y0 = box[b6 + 1] - inflate, z0 = box[b6 + 2] - inflate;
  const x1 = box[b6 + 3] + inflate, y1 = box[b6 + 4] + inflate, z1 = box[b6 + 5] + inflate;
  const cx0 = cell(x0, grid.ox, grid.ix, grid.nx), cx1 = cell(x1, grid.ox, grid.ix, grid.nx);
  const cy0 = cell(y0, grid.oy, grid.iy, grid.ny), cy1 = cell(y1, grid.oy, grid.iy, grid.ny);
  const cz0 = cell(z0, grid.oz, grid.iz, grid.nz), cz1 = cell(z1, grid.oz, grid.iz, grid.nz);
  const start = grid.cellStart, items = grid.items, nx = grid.nx, ny = grid.ny;
  const pos = ps.pos, rad = ps.radius;
  const kind = set.shapeKind[s];
  const prm = set.param, p4 = 4 * s;
  const R = set.wRot, r9 = 9 * s, wp = set.wPos;
  const sx = wp[3 * s], sy = wp[3 * s + 1], sz = wp[3 * s + 2];
  const obj = set.objects[s], closest = SHAPE_TABLE[kind].closest;
  const out = loads.out, counters = loads.counters;
  const recordKind = SHAPE_TABLE[kind].contactKind;
  let candidates = 0;
  counters[0] = counters[1] = 0;
  for (let cz = cz0; cz <= cz1; cz++) {
    for (let cy = cy0; cy <= cy1; cy++) {
      const row = (cz * ny + cy) * nx;
      for (let c = row + cx0; c <= row + cx1; c++) {
        for (let k = start[c], end = start[c + 1]; k < end; k++) {
          const i = items[k], o = 3 * i, r = rad[i];
          const x = pos[o], y = pos[o + 1], z = pos[o + 2];
          if (x < x0 || x > x1 || y < y0 || y > y1 || z < z0 || z > z1) continue;
          candidates++;
          // query point in the shape frame: Rᵀ (x − s)
          const dx = x - sx, dy = y - sy, dz = z - sz;
          const lx = R[r9] * dx + R[r9 + 3] * dy + R[r9 + 6] * dz;
          const ly = R[r9 + 1] * dx + R[r9 + 4] * dy + R[r9 + 7] * dz;
          const lz = R[r9 + 2] * dx + R[r9 + 5] * dy + R[r9 + 8] * dz;
          if (!closest(prm, p4, obj, lx, ly, lz, r, out, counters)) continue;
          const d = out[6];
          if (d >= r) continue;
          const nlx = out[3], nly = out[4], nlz = out[5];
          const nxw = R[r9] * nlx + R[r9 + 1] * nly + R[r9 + 2] * nlz;
          const nyw = R[r9 + 3] * nlx + R[r9 + 4] * nly + R[r9 + 5] * nlz;
          const nzw = R[r9 + 6] * nlx + R[r9 + 7] * nly + R[r9 + 8] * nlz;
          contact(
            ps,
            set,
            s,
            i,
            r - d,
            nxw,
            nyw,
            nzw,
            recordKind,
            hist,
            mat,
            boundaryFriction,
            boundaryRolling,
            p,
            sc,
            loads,
            contacts,
            stats,
          );
        }
      }
    }
  }
  stats.rigidCandidatePairs += candidates;
  stats.meshTriangleCandidatePairs += counters[0];
  stats.meshInsideTriangleTests += counters[1];
}

/** One grain–shape contact of overlap `delta` and normal n (from the shape towards grain i). */
function contact(
  ps: ParticleStore,
  set: BodySet,
  s: number,
  i: number,
  delta: number,
  nx: number,
  ny: number,
  nz: number,
  recordKind: number,
  hist: HistoryTable,
  mat: FrictionTables,
  boundaryFriction: number,
  boundaryRolling: number,
  p: ForceParams,
  sc: ForceScratch,
  loads: BodyLoads,
  contacts: ContactRecord,
  stats: StepStats,
): void {
  const io = sc.io, rec = sc.rec, ft = sc.ft;
  const pos = ps.pos, vel = ps.vel, ang = ps.ang, o = 3 * i, r = ps.radius[i];
  const b = set.shapeBody[s], b3 = 3 * b;
  const c = r - p.lever * delta;
  if (delta > stats.maxPenetration) stats.maxPenetration = delta;
  // contact point and the relative velocity of the grain's surface against the body's
  const qx = pos[o] - c * nx, qy = pos[o + 1] - c * ny, qz = pos[o + 2] - c * nz;
  const wx = ang[o], wy = ang[o + 1], wz = ang[o + 2];
  const cm = set.wCom, bv = set.vel, bw = set.ang;
  const rx = qx - cm[b3], ry = qy - cm[b3 + 1], rz = qz - cm[b3 + 2];
  const bwx = bw[b3], bwy = bw[b3 + 1], bwz = bw[b3 + 2];
  const vx = vel[o] - c * (wy * nz - wz * ny) - (bv[b3] + bwy * rz - bwz * ry);
  const vy = vel[o + 1] - c * (wz * nx - wx * nz) - (bv[b3 + 1] + bwz * rx - bwx * rz);
  const vz = vel[o + 2] - c * (wx * ny - wy * nx) - (bv[b3 + 2] + bwx * ry - bwy * rx);
  const vn = vx * nx + vy * ny + vz * nz;
  let cd = p.cn;
  if (p.damping !== 0) {
    const m = ps.mass[i], M = set.kind[b] === BodyKind.dynamic ? set.mass[b] : Infinity;
    const me = M === Infinity ? m : (m * M) / (m + M);
    cd = contactDamping(p.damping, p.cn, me, r, delta);
    io[8] = p.ctScaled ? p.ct * me : p.ct;
  }
  const fn = normalForce(p.hertz, p.kn, cd, r, delta, vn, p.clamp);
  const mid = ps.materialId[i];
  const fm = mat.friction[mid];
  const mu = fm === boundaryFriction ? fm : Math.sqrt(fm * boundaryFriction);
  io[0] = nx, io[1] = ny, io[2] = nz;
  io[3] = vx - vn * nx, io[4] = vy - vn * ny, io[5] = vz - vn * nz;
  io[9] = mu * (fn > 0 ? fn : -fn);
  historyForce(hist, i, shapePartner(s), p.stamp, io, ft, sc.spare);
  const fx = fn * nx + ft[0], fy = fn * ny + ft[1], fz = fn * nz + ft[2];
  if (ps.fixed[i] === 0) {
    const force = ps.force, torque = ps.torque;
    force[o] += fx, force[o + 1] += fy, force[o + 2] += fz;
    const tx = ny * ft[2] - nz * ft[1], ty = nz * ft[0] - nx * ft[2], tz = nx * ft[1] - ny * ft[0];
    torque[o] -= c * tx, torque[o + 1] -= c * ty, torque[o + 2] -= c * tz;
    const rm = mat.rolling[mid];
    const mr = rm === boundaryRolling ? rm : Math.sqrt(rm * boundaryRolling);
    if (mr > 0 && fn > 0) {
      // rolling resistance against the spin relative to the body
      let ux = wx - bwx, uy = wy - bwy, uz = wz - bwz;
      const un = ux * nx + uy * ny + uz * nz;
      ux -= un * nx, uy -= un * ny, uz -= un * nz;
      const w = Math.sqrt(ux * ux + uy * uy + uz * uz);
      if (w > 0) {
        const t = mr * fn * r;
        const k = (t * rollingScale(t * ps.invInertia[i], p.dt, w)) / w;
        const roll = ps.roll;
        roll[o] -= k * ux, roll[o + 1] -= k * uy, roll[o + 2] -= k * uz;
      }
    }
  }
  // the equal and opposite load on the body, its torque about the centre of mass
  const F = loads.force, T = loads.torque;
  F[b3] -= fx, F[b3 + 1] -= fy, F[b3 + 2] -= fz;
  T[b3] -= ry * fz - rz * fy, T[b3 + 1] -= rz * fx - rx * fz, T[b3 + 2] -= rx * fy - ry * fx;
  stats.rigidContacts++;
  fillRecord(rec, pos, o, c, delta, nx, ny, nz, fn);
  rec[8] = ft[0], rec[9] = ft[1], rec[10] = ft[2];
  pushContact3(contacts, i, -1, recordKind, b, rec);
}
