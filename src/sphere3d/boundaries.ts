/**
 * Planar boundaries of a granular system — the ground plane and the five faces of the open-top
 * container: their candidate grains and their contact forces. Grains meet a plane with the same
 * normal, tangential and rolling laws as a neighbour grain (R_eff = the grain's radius), with
 * the boundary material mixed into the friction coefficients (the sweep, `planeSweep`, is
 * generated in `plane_sweep_gen.ts` from the laws of src/contact/law3d_source.ts).
 *
 * @module
 */
import { contactBuffers, ContactKind, type ContactRecord } from "../contact/record.ts";
import type { ForceParams, ForceScratch, FrictionTables } from "./force_params.ts";
import type { PlaneSet } from "./plane_set.ts";
import { planeSweep } from "./plane_sweep_gen.ts";
import type { ParticleStore } from "./particles.ts";
import type { StepStats } from "./stats.ts";

export { PlaneSet } from "./plane_set.ts";
export { planeSweep } from "./plane_sweep_gen.ts";

/**
 * Fill the planes' candidate lists from the positions `at` (a neighbour rebuild): every free
 * grain closer to a plane than `margin` (m) beyond touching. Between rebuilds no grain moves
 * more than half the skin, so with `margin` = skin the lists hold every grain that can touch.
 */
export function planeCandidates(
  planes: PlaneSet,
  at: Float64Array,
  ps: ParticleStore,
  margin: number,
): void {
  const count = ps.count, rad = ps.radius, fixed = ps.fixed, st = planes.candidateStart;
  let list = planes.candidates, nt = 0;
  for (let q = 0; q < planes.count; q++) {
    st[q] = nt;
    const ax = planes.axis[q], sg = planes.sign[q], off = planes.offset[q];
    for (let i = 0; i < count; i++) {
      if (rad[i] + margin - sg * (at[3 * i + ax] - off) > 0 && fixed[i] === 0) {
        if (nt === list.length) {
          const l = new Int32Array(2 * list.length);
          l.set(list);
          list = planes.candidates = l;
        }
        list[nt++] = i;
      }
    }
  }
  st[planes.count] = nt;
}

/** Add the forces of every particle touching a plane of `planes`. */
export function planeForces(
  ps: ParticleStore,
  planes: PlaneSet,
  mat: FrictionTables,
  boundaryFriction: number,
  boundaryRolling: number,
  p: ForceParams,
  sc: ForceScratch,
  contacts: ContactRecord,
  stats: StepStats,
): void {
  const cs = planes.candidateStart;
  // room for every candidate, so the sweeps write the record's columns directly
  contacts.reserve(contacts.count + cs[planes.count]);
  const cb = contactBuffers(contacts);
  let w = contacts.count;
  // One call per plane: a single hot loop per function lets V8 optimise it from its entry
  // (a plane loop around the particle loop kept falling out of on-stack-replaced code).
  for (let q = 0; q < planes.count; q++) {
    w = planeSweep(
      ps,
      planes,
      q,
      mat,
      boundaryFriction,
      boundaryRolling,
      p,
      sc,
      cb,
      stats,
      cs[q],
      cs[q + 1],
      w,
    );
  }
  contacts.count = w;
}

/**
 * Fill `planes` from the boundary settings: the ground plane (index 0) and the container's
 * floor and four side walls (indices 1–5). A container floor at the height of the ground
 * plane is the same plane: it is merged into the ground (one contact, not a doubly stiff
 * floor).
 */
export function buildPlanes(
  planes: PlaneSet,
  ground: number | null,
  container: readonly [readonly number[], readonly number[]] | null,
): void {
  planes.clear();
  if (ground !== null) planes.add(2, 1, ground, 0, ContactKind.ground);
  if (container) {
    const [lo, hi] = container;
    if (ground !== lo[2]) planes.add(2, 1, lo[2], 1, ContactKind.wall);
    planes.add(0, 1, lo[0], 2, ContactKind.wall);
    planes.add(0, -1, hi[0], 3, ContactKind.wall);
    planes.add(1, 1, lo[1], 4, ContactKind.wall);
    planes.add(1, -1, hi[1], 5, ContactKind.wall);
  }
}
