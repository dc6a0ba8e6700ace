/**
 * Planar boundaries of a granular system — the ground plane and the five faces of the open-top
 * container — as typed arrays, and their contact forces. Grains meet a plane with the same
 * normal, tangential and rolling laws as a neighbour grain (R_eff = the grain's radius), with
 * the boundary material mixed into the friction coefficients.
 *
 * @module
 */
import { contactDamping } from "../contact/normal.ts";
import { rollingScale } from "../contact/rolling.ts";
import {
  type ContactBuffers,
  contactBuffers,
  ContactKind,
  type ContactRecord,
} from "../contact/record.ts";
import type { ForceParams, ForceScratch, FrictionTables } from "./forces.ts";
import type { ParticleStore } from "./particles.ts";
import type { StepStats } from "./stats.ts";

/** Planar boundaries in typed-array form (built when boundaries change). */
export class PlaneSet {
  /** Number of planes. */
  count = 0;
  /** Axis of each plane's normal (0, 1, 2). */
  axis: Uint8Array = new Uint8Array(8);
  /** +1 when the domain is above the plane along its axis, -1 when below. */
  sign: Float64Array = new Float64Array(8);
  /** Plane offset along its axis (m). */
  offset: Float64Array = new Float64Array(8);
  /** Boundary index used for history partner ids. */
  index: Uint8Array = new Uint8Array(8);
  /** Contact kind recorded. */
  kind: Uint8Array = new Uint8Array(8);

  /**
   * Grains that may touch each plane before the next neighbour rebuild: those of plane q are
   * `candidates[candidateStart[q] .. candidateStart[q + 1]]`, in slot order.
   */
  candidates: Int32Array = new Int32Array(64);
  /** Start of each plane's candidates (planes + 1 entries). */
  candidateStart: Int32Array = new Int32Array(9);
  /**
   * Tangential spring ξ (m) of candidate k against its plane at 3k..3k+2, zero when it has
   * none (see `plane_history.ts`).
   */
  xi: Float64Array = new Float64Array(3 * 64);
  /** 1 when candidate k touched its plane at the last force evaluation (its spring is live). */
  on: Uint8Array = new Uint8Array(64);
  /**
   * The spring columns describe the current candidates; false until a rebuild fills them, and
   * after a removal, a load or a change of the planes, when the table alone holds the springs.
   */
  live = false;

  /** Remove every plane (flush the springs into the table first to keep them). */
  clear(): void {
    this.count = 0;
    this.candidateStart.fill(0);
    this.live = false;
  }

  /** Add one plane. */
  add(axis: number, sign: number, offset: number, index: number, kind: number): void {
    const k = this.count++;
    this.axis[k] = axis;
    this.sign[k] = sign;
    this.offset[k] = offset;
    this.index[k] = index;
    this.kind[k] = kind;
  }
}

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
 * The contacts of plane `q` with its candidates c0 ≤ c < c1 (`planes.candidates`, in slot
 * order), written to the record's columns `cb` from `w0` on (room reserved by the caller);
 * returns the index after the last one written. The springs are the candidates' own
 * (`planes.xi`, see `plane_history.ts`): a candidate that does not touch loses its spring.
 */
export function planeSweep(
  ps: ParticleStore,
  planes: PlaneSet,
  q: number,
  mat: FrictionTables,
  boundaryFriction: number,
  boundaryRolling: number,
  p: ForceParams,
  sc: ForceScratch,
  cb: ContactBuffers,
  stats: StepStats,
  c0: number,
  c1: number,
  w0: number,
): number {
  if (sc.touching.length < c1 - c0) sc.touching = new Int32Array(2 * (c1 - c0));
  const io = sc.io, list = sc.touching;
  io[6] = p.histDt, io[7] = p.kt, io[8] = p.ct;
  const pos = ps.pos, vel = ps.vel, ang = ps.ang, force = ps.force, torque = ps.torque;
  const roll = ps.roll;
  const rad = ps.radius, mid = ps.materialId, invI = ps.invInertia;
  const mass = ps.mass;
  const fr = mat.friction, rr = mat.rolling;
  const kn = p.kn, cn = p.cn, hertz = p.hertz;
  const law = p.damping, ct = p.ct, ctScaled = p.ctScaled, clamp = p.clamp, lever = p.lever;
  const dt = p.dt;
  let nContacts = 0, maxPen = stats.maxPenetration;
  const ax = planes.axis[q], sg = planes.sign[q], off = planes.offset[q];
  const kind = planes.kind[q], bi = planes.index[q];
  const hx = planes.xi, on = planes.on;
  let w = w0, dropped = 0;
  const nx = ax === 0 ? sg : 0, ny = ax === 1 ? sg : 0, nz = ax === 2 ? sg : 0;
  // Pass 1: the few grains that touch the plane. Pass 2 then runs the contact law on every
  // entry, so that V8 sees hot call sites and inlines the scalar laws (a rarely taken branch
  // of the full sweep would call them out of line, boxing their arguments).
  let nt = 0;
  const cand = planes.candidates;
  for (let k = c0; k < c1; k++) {
    const i = cand[k];
    if (rad[i] - sg * (pos[3 * i + ax] - off) > 0) list[nt++] = k;
    else if (on[k] !== 0) {
      on[k] = 0, hx[3 * k] = hx[3 * k + 1] = hx[3 * k + 2] = 0;
      dropped++;
    }
  }
  for (let t = 0; t < nt; t++) {
    const kc = list[t], i = cand[kc];
    const o = 3 * i;
    const r = rad[i];
    const delta = r - sg * (pos[o + ax] - off);
    if (delta > maxPen) maxPen = delta;
    const c = r - lever * delta;
    const wx = ang[o], wy = ang[o + 1], wz = ang[o + 2];
    // v + w x (-c n)
    const vx = vel[o] - c * (wy * nz - wz * ny);
    const vy = vel[o + 1] - c * (wz * nx - wx * nz);
    const vz = vel[o + 2] - c * (wx * ny - wy * nx);
    const vn = vx * nx + vy * ny + vz * nz;
    let cd = cn;
    if (law !== 0) {
      // A wall has infinite mass: m_eff is the grain's own.
      const me = mass[i];
      cd = contactDamping(law, cn, me, r, delta);
      io[8] = ctScaled ? ct * me : ct;
    }
    // `normalForce` (src/contact/normal.ts) written out, as in the pair loop (bit test in
    // tests/sphere3d_contact_test.ts)
    const fel = hertz ? kn * Math.sqrt(r * delta) * delta : kn * delta;
    const fraw = fel - cd * vn;
    const fn = fraw > 0 || !clamp ? fraw : 0;
    const m = mid[i];
    const fm = fr[m], mu = fm === boundaryFriction ? fm : Math.sqrt(fm * boundaryFriction);
    const muFn = mu * (fn > 0 ? fn : -fn);
    const vtx = vx - vn * nx, vty = vy - vn * ny, vtz = vz - vn * nz;
    // the spring of `tangentialSpring3` (src/contact/tangential.ts) written out: an
    // out-of-line call with its io round trip cost a third of this loop
    // (tests/sphere3d_contact_test.ts checks the bits against the shared law)
    const s3 = 3 * kc;
    let hx0 = hx[s3], hx1 = hx[s3 + 1], hx2 = hx[s3 + 2];
    const old2 = hx0 * hx0 + hx1 * hx1 + hx2 * hx2;
    if (old2 > 0) {
      const dn = hx0 * nx + hx1 * ny + hx2 * nz;
      hx0 -= dn * nx, hx1 -= dn * ny, hx2 -= dn * nz;
      const new2 = hx0 * hx0 + hx1 * hx1 + hx2 * hx2;
      if (new2 > 0) {
        const kr = Math.sqrt(old2 / new2);
        hx0 *= kr, hx1 *= kr, hx2 *= kr;
      }
    }
    const ktt = io[7], ctt = io[8], hdt = io[6];
    hx0 += vtx * hdt, hx1 += vty * hdt, hx2 += vtz * hdt;
    let tfx = -ktt * hx0 - ctt * vtx, tfy = -ktt * hx1 - ctt * vty, tfz = -ktt * hx2 - ctt * vtz;
    const f2 = tfx * tfx + tfy * tfy + tfz * tfz;
    if (f2 > muFn * muFn) {
      const kr = f2 > 0 ? muFn / Math.sqrt(f2) : 0;
      tfx *= kr, tfy *= kr, tfz *= kr;
      if (ktt > 0) {
        hx0 = -(tfx + ctt * vtx) / ktt;
        hx1 = -(tfy + ctt * vty) / ktt;
        hx2 = -(tfz + ctt * vtz) / ktt;
      } else hx0 = hx1 = hx2 = 0;
    }
    hx[s3] = hx0, hx[s3 + 1] = hx1, hx[s3 + 2] = hx2;
    on[kc] = 1;
    force[o] += fn * nx + tfx, force[o + 1] += fn * ny + tfy, force[o + 2] += fn * nz + tfz;
    const cx = ny * tfz - nz * tfy,
      cy = nz * tfx - nx * tfz,
      cz = nx * tfy - ny * tfx;
    torque[o] -= c * cx, torque[o + 1] -= c * cy, torque[o + 2] -= c * cz;
    const rm = rr[m], mr = rm === boundaryRolling ? rm : Math.sqrt(rm * boundaryRolling);
    if (mr > 0 && fn > 0) {
      let rx = wx, ry = wy, rz = wz;
      const rn = rx * nx + ry * ny + rz * nz;
      rx -= rn * nx, ry -= rn * ny, rz -= rn * nz;
      const w = Math.sqrt(rx * rx + ry * ry + rz * rz);
      if (w > 0) {
        const t = mr * fn * r;
        const sc = (t * rollingScale(t * invI[i], dt, w)) / w;
        roll[o] -= sc * rx, roll[o + 1] -= sc * ry, roll[o + 2] -= sc * rz;
      }
    }
    nContacts++;
    const ow = 3 * w;
    cb.i[w] = i, cb.j[w] = -1, cb.kind[w] = kind, cb.boundary[w] = bi;
    cb.point[ow] = pos[o] - c * nx, cb.point[ow + 1] = pos[o + 1] - c * ny;
    cb.point[ow + 2] = pos[o + 2] - c * nz;
    cb.normal[ow] = nx, cb.normal[ow + 1] = ny, cb.normal[ow + 2] = nz;
    cb.overlap[w] = delta, cb.normalForce[w] = fn;
    cb.tangentialForce[ow] = tfx, cb.tangentialForce[ow + 1] = tfy;
    cb.tangentialForce[ow + 2] = tfz;
    w++;
  }
  stats.boundaryContacts += nContacts;
  stats.maxPenetration = maxPen;
  stats.activeContactHistories += nContacts;
  stats.staleContactHistoriesRemoved += dropped;
  return w;
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
