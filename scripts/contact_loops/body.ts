/**
 * Template of `src/sphere3d/bodies/contact_law_gen.ts`: one grain–body contact (primitive,
 * mesh or height map), written around the law fragments of `src/contact/law3d_source.ts`.
 *
 * @module
 */
import type { LawSet } from "../../src/contact/law3d_source.ts";
import { loopNormal } from "./bind.ts";
import { generatedHeader, indent } from "./text.ts";

/** The body of \`shapeContact\`. */
function bodyContact(L: LawSet): string {
  return `const io = sc.io, rec = sc.rec, ft = sc.ft;
const pos = ps.pos, vel = ps.vel, ang = ps.ang, o = 3 * i, r = ps.radius[i];
const b = set.shapeBody[s], b3 = 3 * b;
const c = r - p[FP.lever] * delta;
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
let cd = p[FP.cn];
if (p[FP.damping] !== 0) {
  const m = ps.mass[i], M = set.kind[b] === BodyKind.dynamic ? set.mass[b] : Infinity;
  const me = M === Infinity ? m : (m * M) / (m + M);
  cd = contactDamping(p[FP.damping], p[FP.cn], me, r, delta);
  io[8] = p[FP.ctScaled] !== 0 ? p[FP.ct] * me : p[FP.ct];
}
const hertz = p[FP.hertz] !== 0, clamp = p[FP.clamp] !== 0;
${loopNormal(L, { hertz: "hertz", kn: "p[FP.kn]", cn: "cd", rEff: "r", clamp: "clamp" })}
const mid = ps.materialId[i];
const fm = mat.friction[mid];
const mu = ${L.mix("fm === boundaryFriction", "fm", "boundaryFriction")};
io[0] = nx, io[1] = ny, io[2] = nz;
io[3] = vx - vn * nx, io[4] = vy - vn * ny, io[5] = vz - vn * nz;
io[9] = ${L.coulomb("mu", "fn")};
historyForce(hist, i, shapePartner(s), p[FP.stamp], io, ft, sc.spare);
const fx = fn * nx + ft[0], fy = fn * ny + ft[1], fz = fn * nz + ft[2];
if (ps.fixed[i] === 0) {
  const force = ps.force, torque = ps.torque, roll = ps.roll;
  force[o] += fx, force[o + 1] += fy, force[o + 2] += fz;
  const tx = ny * ft[2] - nz * ft[1], ty = nz * ft[0] - nx * ft[2], tz = nx * ft[1] - ny * ft[0];
  torque[o] -= c * tx, torque[o + 1] -= c * ty, torque[o + 2] -= c * tz;
  const rm = mat.rolling[mid];
  const mr = ${L.mix("rm === boundaryRolling", "rm", "boundaryRolling")};
  // rolling resistance against the spin relative to the body
${
    indent(
      L.rolling({
        fn: "fn",
        dt: "p[FP.dt]",
        nx: "nx",
        ny: "ny",
        nz: "nz",
        wx: "wx - bwx",
        wy: "wy - bwy",
        wz: "wz - bwz",
        roll: "roll",
        a: { mu: "mr", r: "r", invI: "ps.invInertia[i]", o: "o" },
      }),
      2,
    )
  }
}
// the equal and opposite load on the body, its torque about the centre of mass
const F = loads.force, T = loads.torque;
F[b3] -= fx, F[b3 + 1] -= fy, F[b3 + 2] -= fz;
T[b3] -= ry * fz - rz * fy, T[b3 + 1] -= rz * fx - rx * fz, T[b3 + 2] -= rx * fy - ry * fx;
stats.rigidContacts++;
fillRecord(rec, pos, o, c, delta, nx, ny, nz, fn);
rec[8] = ft[0], rec[9] = ft[1], rec[10] = ft[2];
pushContact3(contacts, i, -1, recordKind, b, rec);`;
}

/**
 * The text of \`src/sphere3d/bodies/contact_law_gen.ts\` for the laws \`L\`.
 *
 * @example
 * ```ts
 * import { LAW3D } from "../../src/contact/law3d_source.ts";
 * import { bodyContactText } from "./body.ts";
 * import { expect } from "expect";
 * expect(bodyContactText(LAW3D)).toContain("export function shapeContact(");
 * ```
 */
export function bodyContactText(L: LawSet): string {
  return `${generatedHeader()}
/**
 * One grain–body contact (primitive, mesh or height map): the normal, tangential-history and
 * rolling laws of src/contact/law3d_source.ts as a grain meets a wall (R_eff = the grain's
 * radius, m_eff from the grain's and the dynamic body's masses, the boundary material mixed
 * in), the equal and opposite load on the body and its torque about the centre of mass.
 * Allocation-free.
 *
 * @module
 */
import { contactDamping, rollingScale } from "../../contact/law3d_gen.ts";
import { type ContactRecord, pushContact3 } from "../../contact/record.ts";
import { type ForceParams, type ForceScratch, FP, type FrictionTables } from "../force_params.ts";
import { fillRecord, historyForce } from "../forces.ts";
import type { HistoryTable } from "../history.ts";
import type { ParticleStore } from "../particles.ts";
import type { StepStats } from "../stats.ts";
import { type BodyLoads, shapePartner } from "./body_loads.ts";
import { BodyKind, type BodySet } from "./body_set.ts";

/**
 * One contact of grain \`i\` with shape \`s\` of \`set\`: overlap \`delta\` along the unit normal
 * (nx, ny, nz) from the shape towards the grain. Adds the grain's force, torque and rolling
 * torque, the body's load in \`loads\`, the contact to \`contacts\` (kind \`recordKind\`) and
 * the counters to \`stats\`; the spring is the grain's entry for the shape in \`hist\`.
 *
 * @example
 * \`\`\`ts
 * import { World } from "../mod.ts";
 * import { expect } from "expect";
 * const world = await World.create({ timeStep: 1e-5, gravity: [0, 0, 0] });
 * world.addSphere({ radius: 0.05, position: [0, 0, 0], bodyType: "static" });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.0595]], radii: 0.01 });
 * world.step();
 * expect(g.lastStepStats.rigidContacts).toBe(1);
 * expect(g.forces[2]).toBeGreaterThan(0); // pushed away from the sphere
 * \`\`\`
 */
export function shapeContact(
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
${indent(bodyContact(L), 2)}
}
`;
}
