/**
 * Planar boundaries of a granular system — the ground plane and the five faces of the open-top
 * container: their candidate grains and their contact forces. Grains meet a plane with the same
 * normal, tangential and rolling laws as a neighbour grain (R_eff = the grain's radius), with
 * the boundary material mixed into the friction coefficients (the sweep, `planeSweep`, is
 * generated in `plane_sweep_gen.ts` from the laws of src/contact/law3d_source.ts; the step's
 * `planes` stage of `step_stages.ts` runs it plane by plane).
 *
 * @module
 */
import { ContactKind } from "../contact/record.ts";
import type { PlaneSet } from "./plane_set.ts";
import type { ParticleStore } from "./particles.ts";

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
