/**
 * Template of `src/sphere3d/plane_sweep_gen.ts`: the contacts of one plane with its candidate
 * grains, written around the law fragments of `src/contact/law3d_source.ts`.
 *
 * @module
 */
import type { LawSet } from "../../src/contact/law3d_source.ts";
import { loopNormal, loopSpring } from "./bind.ts";
import { generatedHeader, indent } from "./text.ts";

/** The law part of one grain touching the plane: forces, torques, spring, rolling. */
function planeContact(L: LawSet): string {
  return `const kc = list[t], i = cand[kc];
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
  // a wall has infinite mass: m_eff is the grain's own
  const me = mass[i];
  cd = contactDamping(law, cn, me, r, delta);
  io[8] = ctScaled ? ct * me : ct;
}
${loopNormal(L, { hertz: "hertz", kn: "kn", cn: "cd", rEff: "r", clamp: "clamp" })}
const m = mid[i];
const fm = fr[m], mu = ${L.mix("fm === boundaryFriction", "fm", "boundaryFriction")};
const ktt = io[7], ctt = io[8], hdt = io[6];
${loopSpring(L, "kc")}
on[kc] = 1;
force[o] += fn * nx + tfx, force[o + 1] += fn * ny + tfy, force[o + 2] += fn * nz + tfz;
const cx = ny * tfz - nz * tfy, cy = nz * tfx - nx * tfz, cz = nx * tfy - ny * tfx;
torque[o] -= c * cx, torque[o + 1] -= c * cy, torque[o + 2] -= c * cz;
const rm = rr[m], mr = ${L.mix("rm === boundaryRolling", "rm", "boundaryRolling")};
${
    L.rolling({
      fn: "fn",
      dt: "dt",
      nx: "nx",
      ny: "ny",
      nz: "nz",
      wx: "wx",
      wy: "wy",
      wz: "wz",
      roll: "roll",
      a: { mu: "mr", r: "r", invI: "invI[i]", o: "o" },
    })
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
w++;`;
}

/**
 * The text of \`src/sphere3d/plane_sweep_gen.ts\` for the laws \`L\`.
 *
 * @example
 * ```ts
 * import { LAW3D } from "../../src/contact/law3d_source.ts";
 * import { planeSweepText } from "./plane.ts";
 * import { expect } from "expect";
 * expect(planeSweepText(LAW3D)).toContain("export function planeSweep(");
 * ```
 */
export function planeSweepText(L: LawSet): string {
  return `${generatedHeader()}
/**
 * The contacts of one planar boundary with the grains that may touch it: the normal,
 * tangential-history and rolling laws of src/contact/law3d_source.ts written into the sweep
 * (R_eff = the grain's radius, m_eff = its mass, the boundary material mixed into the
 * friction coefficients). A hot loop: it allocates nothing.
 *
 * @module
 */
import { contactDamping, rollingScale } from "../contact/law3d_gen.ts";
import type { ContactBuffers } from "../contact/record.ts";
import { type ForceParams, type ForceScratch, FP, type FrictionTables } from "./force_params.ts";
import type { PlaneSet } from "./plane_set.ts";
import type { ParticleStore } from "./particles.ts";
import type { StepStats } from "./stats.ts";

/**
 * The contacts of plane \`q\` with its candidates c0 ≤ c < c1 (\`planes.candidates\`, in slot
 * order), written to the record's columns \`cb\` from \`w0\` on (room reserved by the caller);
 * returns the index after the last one written. The springs are the candidates' own
 * (\`planes.xi\`, see \`plane_history.ts\`): a candidate that does not touch loses its spring.
 *
 * @example
 * \`\`\`ts
 * import { ParticleStore } from "./particles.ts";
 * import { PlaneSet } from "./plane_set.ts";
 * import { planeCandidates } from "./boundaries.ts";
 * import { emptyForceParams, ForceScratch, FP } from "./force_params.ts";
 * import { contactBuffers, ContactRecord } from "../contact/record.ts";
 * import { emptyStats } from "./stats.ts";
 * import { expect } from "expect";
 * const ps = new ParticleStore();
 * ps.reserve(1);
 * ps.count = 1;
 * ps.pos.set([0, 0, 0.0095]); // a 1 cm grain 0.5 mm into the ground
 * ps.radius[0] = 0.01;
 * ps.setMass(0, 2500);
 * const planes = new PlaneSet();
 * planes.add(2, 1, 0, 0, 0);
 * planeCandidates(planes, ps.pos, ps, 0.001);
 * const p = emptyForceParams();
 * p[FP.kn] = 1e5, p[FP.kt] = 4e4, p[FP.dt] = p[FP.histDt] = 1e-5;
 * const mat = { friction: Float64Array.of(0.5), rolling: Float64Array.of(0) };
 * const rec = new ContactRecord(3);
 * rec.reserve(1);
 * const cb = contactBuffers(rec), sc = new ForceScratch();
 * expect(planeSweep(ps, planes, 0, mat, 0.5, 0, p, sc, cb, emptyStats(), 0, 1, 0)).toBe(1);
 * expect(ps.force[2]).toBeCloseTo(1e5 * 5e-4, 9); // kn·δ = 50 N up
 * \`\`\`
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
  io[6] = p[FP.histDt], io[7] = p[FP.kt], io[8] = p[FP.ct];
  const pos = ps.pos, vel = ps.vel, ang = ps.ang, force = ps.force, torque = ps.torque;
  const roll = ps.roll;
  const rad = ps.radius, mid = ps.materialId, invI = ps.invInertia;
  const mass = ps.mass;
  const fr = mat.friction, rr = mat.rolling;
  const kn = p[FP.kn], cn = p[FP.cn], hertz = p[FP.hertz] !== 0;
  const law = p[FP.damping], ct = p[FP.ct], ctScaled = p[FP.ctScaled] !== 0;
  const clamp = p[FP.clamp] !== 0, lever = p[FP.lever], dt = p[FP.dt];
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
${indent(planeContact(L), 4)}
  }
  stats.boundaryContacts += nContacts;
  stats.maxPenetration = maxPen;
  stats.activeContactHistories += nContacts;
  stats.staleContactHistoriesRemoved += dropped;
  return w;
}
`;
}
