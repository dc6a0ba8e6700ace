/**
 * Grain–body contacts: for every contact shape of the world's rigid bodies, the grains in the
 * grid cells overlapping the shape's inflated bounding box are tested against the shape
 * (analytic closest points for primitives, candidate triangles for meshes and height maps);
 * touching grains get the same normal, tangential-history and rolling laws as a grain on a
 * wall (boundary material mixed in by the geometric mean), and the body gets the equal and
 * opposite force and its torque about the centre of mass (`shapeContact`, generated in
 * `contact_law_gen.ts` from the laws of src/contact/law3d_source.ts). Histories are keyed by
 * (particle, shape). Allocation-free.
 *
 * @module
 */
import type { ContactRecord } from "../../contact/record.ts";
import type { CellGrid3 } from "../../math/grid.ts";
import { type ForceParams, type ForceScratch, FP, type FrictionTables } from "../force_params.ts";
import type { HistoryTable } from "../history.ts";
import type { ParticleStore } from "../particles.ts";
import type { StepStats } from "../stats.ts";
import type { BodyLoads } from "./body_loads.ts";
import type { BodySet } from "./body_set.ts";
import { shapeContact } from "./contact_law_gen.ts";
import { SHAPE_TABLE } from "./shape_table.ts";
import { closestOf } from "./closest_gen.ts";

export { BodyLoads, shapePartner } from "./body_loads.ts";

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
  io[6] = p[FP.histDt], io[7] = p[FP.kt], io[8] = p[FP.ct];
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
  const obj = set.objects[s];
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
          if (!closestOf(kind, prm, p4, obj, lx, ly, lz, r, out, counters)) continue;
          const d = out[6];
          if (d >= r) continue;
          const nlx = out[3], nly = out[4], nlz = out[5];
          const nxw = R[r9] * nlx + R[r9 + 1] * nly + R[r9 + 2] * nlz;
          const nyw = R[r9 + 3] * nlx + R[r9 + 4] * nly + R[r9 + 5] * nlz;
          const nzw = R[r9 + 6] * nlx + R[r9 + 7] * nly + R[r9 + 8] * nlz;
          shapeContact(
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
