/**
 * Every contact law variant — linear or Hertz × the four damping laws × clamped or not, with
 * and without rolling friction and cohesion, approaching and separating — through every
 * contact path of sphere3d (general and plain pair loops, plane sweep, grain–body contact
 * against a sphere, a box and a mesh) gives the bits of the plain scalar laws of src/contact
 * (tests/contact_law_reference.ts): force, torque, rolling torque, spring and record.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { coreOf } from "../src/sphere3d/granular_system.ts";
import { ParticleStore } from "../src/sphere3d/particles.ts";
import { PairList } from "../src/math/grid.ts";
import { PairHistory } from "../src/sphere3d/pair_history.ts";
import {
  emptyForceParams,
  type ForceParams,
  ForceScratch,
  FP,
  type FrictionTables,
  setForceParams,
} from "../src/sphere3d/force_params.ts";
import { pairForcesGeneral } from "../src/sphere3d/forces.ts";
import { pairForcesPlain, plainLaw } from "../src/sphere3d/forces_plain.ts";
import { planeCandidates, PlaneSet, planeSweep } from "../src/sphere3d/boundaries.ts";
import { bodyContactForces, shapePartner } from "../src/sphere3d/bodies/contact.ts";
import { BodyKind } from "../src/sphere3d/bodies/body_set.ts";
import { contactBuffers, ContactKind, ContactRecord } from "../src/contact/record.ts";
import { emptyStats } from "../src/sphere3d/stats.ts";
import { type Outputs, pairReference, wallReference } from "./contact_law_reference.ts";

/** One law variant. */
interface Variant {
  hertz: boolean;
  damping: number;
  clamp: boolean;
  rolling: boolean;
  cohesion: boolean;
  separating: boolean;
  /** Which of four states: velocities, spins and the pair's offsets scaled. */
  state: number;
}

const VARIANTS: Variant[] = [];
for (const hertz of [false, true]) {
  for (const damping of [0, 1, 2, 3]) {
    for (const clamp of [true, false]) {
      for (const rolling of [false, true]) {
        for (const cohesion of [false, true]) {
          for (const separating of [false, true]) {
            for (let state = 0; state < 4; state++) {
              VARIANTS.push({ hertz, damping, clamp, rolling, cohesion, separating, state });
            }
          }
        }
      }
    }
  }
}

const name = (v: Variant) =>
  `${v.hertz ? "hertz" : "linear"} damping ${v.damping} clamp ${v.clamp} rolling ${v.rolling} ` +
  `cohesion ${v.cohesion} ${v.separating ? "separating" : "approaching"} state ${v.state}`;

/** The state's scale of velocities (u) and spins (w). */
const scale = (v: Variant, x: number[], f: number) =>
  x.map((c, k) => c * (1 + f * v.state * (k + 1)));

/** The force scalars of a variant. */
function params(v: Variant, stamp = 1): ForceParams {
  const mass = v.damping === 1;
  return setForceParams(emptyForceParams(), {
    hertz: v.hertz,
    kn: v.hertz ? 3e8 : 2e4,
    cn: [4, 50, 10, 30][v.damping],
    damping: v.damping,
    clamp: v.clamp,
    ctScaled: mass,
    kt: 8e3,
    ct: mass ? 30 : 0.3,
    lever: 0.5,
    kc: v.cohesion ? 50 : 0,
    dmax: v.cohesion ? 5e-4 : 0,
    dt: 1e-5,
    histDt: 1e-5,
    stamp,
    mu: -1,
    rolling: v.rolling,
  });
}

/** Sliding friction 0.5 (id 0) and 0.02 (id 1), rolling friction when the variant has it. */
const tables = (v: Variant): FrictionTables => ({
  friction: Float64Array.of(0.5, 0.02),
  rolling: v.rolling ? Float64Array.of(0.05, 0.1) : Float64Array.of(0, 0),
});
const BOUNDARY = { friction: 0.3, rolling: 0.02 };
const SPRING = [2e-4, -1e-4, 4e-5]; // tilted off the tangent plane: the rotation acts

/** Exact bits of numbers, so that −0 ≠ 0 and any last-bit difference shows. */
function bits(xs: ArrayLike<number>): string[] {
  const f = Float64Array.from(xs);
  return Array.from(new BigUint64Array(f.buffer), (b) => b.toString(16));
}

function same(v: Variant, path: string, got: Outputs, want: Outputs): void {
  for (const key of Object.keys(want)) {
    const where = `${path}, ${name(v)}: ${key}`;
    expect({ where, bits: bits(got[key]) }).toEqual({ where, bits: bits(want[key]) });
  }
}

const zeros = (n: number) => new Array<number>(n).fill(0);

/** Grain i: radius 8 mm, 2500 kg/m³, material m, at x moving at u spinning at w. */
function grain(ps: ParticleStore, i: number, m: number, x: number[], u: number[], w: number[]) {
  ps.radius[i] = 0.008, ps.id[i] = i, ps.materialId[i] = m;
  ps.setMass(i, 2500);
  ps.pos.set(x, 3 * i), ps.vel.set(u, 3 * i), ps.ang.set(w, 3 * i);
}

/** Three grains: 0 and 1 overlap (0.28 mm), 2 is 0.24 mm from 0 (within the cohesion range). */
function pairScene(v: Variant) {
  const ps = new ParticleStore();
  ps.reserve(3);
  ps.count = 3;
  const up = v.separating ? 1.2 : -0.3, down = v.separating ? -1.3 : 0.1;
  const off = scale(v, [0.003, -0.002, -0.0153], -0.002);
  grain(ps, 0, 0, [0, 0, 0], scale(v, [0.37, -0.11, up], 0.3), scale(v, [3, -1, 2], -0.2));
  grain(ps, 1, 1, off, scale(v, [-0.2, 0.05, down], 0.1), scale(v, [0.5, 4, -2], 0.4));
  grain(ps, 2, 0, [0.0162, 0.001, 0.0005], [0.1, 0.2, -0.1], [-3, 1, 1]);
  const pairs = new PairList();
  pairs.push(0, 1), pairs.push(0, 2);
  const ph = new PairHistory();
  ph.ensure(2);
  ph.xi.set(SPRING), ph.on[0] = 1;
  return { ps, pairs, ph };
}

function pairPath(v: Variant, plain: boolean): void {
  const { ps, pairs, ph } = pairScene(v), mat = tables(v), p = params(v);
  if (plain) p[FP.mu] = 0.1, p[FP.rolling] = 0; // √(0.5 · 0.02): one friction for the pair
  if (plain && !plainLaw(p)) return;
  const rec = new ContactRecord(3);
  rec.reserve(2);
  const cb = contactBuffers(rec);
  const w = plain
    ? pairForcesPlain(ps, pairs, ph, p, cb, emptyStats(), 0, 2, 0)
    : pairForcesGeneral(ps, pairs, ph, mat, p, cb, emptyStats(), 0, 2, 0);
  const ref = { force: zeros(9), torque: zeros(9), roll: zeros(9) };
  const xi0 = Float64Array.from(SPRING), xi1 = new Float64Array(3);
  const r0 = pairReference(ps, 0, 1, p, mat, xi0, ref);
  const fns = [r0.fn], fts = [...r0.ft];
  if (v.cohesion) {
    const r1 = pairReference(ps, 0, 2, p, mat, xi1, ref);
    fns.push(r1.fn), fts.push(...r1.ft);
  }
  expect(w).toBe(fns.length);
  const got = {
    force: Array.from(ps.force.subarray(0, 9)),
    torque: Array.from(ps.torque.subarray(0, 9)),
    roll: Array.from(ps.roll.subarray(0, 9)),
    xi: Array.from(ph.xi.subarray(0, 6)),
    fn: Array.from(cb.normalForce.subarray(0, w)),
    ft: Array.from(cb.tangentialForce.subarray(0, 3 * w)),
  };
  same(v, plain ? "plain pair loop" : "general pair loop", got, {
    ...ref,
    xi: [...xi0, ...xi1],
    fn: fns,
    ft: fts,
  });
}

function planePath(v: Variant): void {
  const ps = new ParticleStore();
  ps.reserve(1);
  ps.count = 1;
  const u = scale(v, [0.37, -0.11, v.separating ? 2.5 : -0.05], 0.3);
  grain(ps, 0, 1, [0.1, 0.2, 0.0075], u, scale(v, [3, -1, 2], -0.2));
  const planes = new PlaneSet();
  planes.add(2, 1, 0, 0, ContactKind.ground);
  planeCandidates(planes, ps.pos, ps, 0.001);
  planes.xi.set(SPRING), planes.on[0] = 1;
  const mat = tables(v), p = params(v), rec = new ContactRecord(3);
  rec.reserve(1);
  const cb = contactBuffers(rec), b = BOUNDARY, sc = new ForceScratch();
  const br = v.rolling ? b.rolling : 0;
  planeSweep(ps, planes, 0, mat, b.friction, br, p, sc, cb, emptyStats(), 0, 1, 0);
  const ref = { force: zeros(3), torque: zeros(3), roll: zeros(3) };
  const xi = Float64Array.from(SPRING);
  const r = wallReference(
    ps,
    0,
    {
      n: [0, 0, 1],
      delta: 0.008 - 0.0075,
      me: ps.mass[0],
      friction: b.friction,
      rolling: br,
      vAt: () => [0, 0, 0],
      spin: [0, 0, 0],
    },
    p,
    mat,
    xi,
    ref,
  );
  const got = {
    force: Array.from(ps.force.subarray(0, 3)),
    torque: Array.from(ps.torque.subarray(0, 3)),
    roll: Array.from(ps.roll.subarray(0, 3)),
    xi: Array.from(planes.xi.subarray(0, 3)),
    fn: [cb.normalForce[0]],
    ft: Array.from(cb.tangentialForce.subarray(0, 3)),
  };
  same(v, "plane sweep", got, { ...ref, xi: Array.from(xi), fn: [r.fn], ft: r.ft });
}

/** A world with one grain touching one body shape; the force evaluation run once. */
async function bodyScene(shape: "sphere" | "box" | "mesh") {
  const world = await World.create({ timeStep: 1e-5, gravity: [0, 0, 0] });
  const at: [number, number, number] = shape === "sphere"
    ? [0.003, 0.002, 0.0574]
    : [0.01, -0.005, 0.0175];
  const g = world.addGranularParticles({ positions: [at], radii: 0.008 });
  const moving = { linearVelocity: [0.1, -0.2, 0.05], angularVelocity: [1, 2, -3] } as const;
  if (shape === "sphere") world.addSphere({ radius: 0.05, density: 2000, ...moving });
  else if (shape === "box") {
    world.addBox({ halfExtents: [0.05, 0.04, 0.01], bodyType: "static" });
  } else {
    const h = [0.05, 0.04, 0.01], vertices: number[] = [];
    for (let k = 0; k < 8; k++) {
      vertices.push(k & 1 ? h[0] : -h[0], k & 2 ? h[1] : -h[1], k & 4 ? h[2] : -h[2]);
    }
    const indices = [0, 2, 3, 0, 3, 1, 4, 5, 7, 4, 7, 6, 0, 1, 5, 0, 5, 4];
    indices.push(2, 6, 7, 2, 7, 3, 0, 4, 6, 0, 6, 2, 1, 3, 7, 1, 7, 5);
    world.addMesh({ vertices, indices, density: 2000, ...moving });
  }
  world.step(); // links the bodies; the neighbour grid, posed shapes, the contact's spring
  return coreOf.get(g)!;
}

type Core = Awaited<ReturnType<typeof bodyScene>>;

function bodyPath(v: Variant, shape: string, c: Core): void {
  const ps = c.ps, link = c.bodies!, set = link.set, p = params(v, c.params[FP.stamp]);
  ps.force.fill(0), ps.torque.fill(0), ps.roll.fill(0);
  ps.materialId[0] = 1;
  ps.vel.set(scale(v, [0.37, -0.11, v.separating ? 2.5 : -0.05], 0.3));
  ps.ang.set(scale(v, [3, -1, 2], -0.2));
  const e = c.hist.find(0, shapePartner(0), p[FP.stamp]);
  c.hist.xi.set(SPRING, 3 * e);
  c.contacts.count = 0;
  const mat = tables(v), b = BOUNDARY, br = v.rolling ? b.rolling : 0;
  const args = [c.grid, 0.01, c.maxRadius, c.hist, mat, b.friction, br, p] as const;
  bodyContactForces(ps, set, ...args, c.scratch, link.loads, c.contacts, emptyStats());
  const rec = c.contacts;
  expect({ shape, contacts: rec.count }).toEqual({ shape, contacts: 1 });
  const n = Array.from(rec.normal.subarray(0, 3)) as [number, number, number];
  const m = ps.mass[0], M = set.kind[0] === BodyKind.dynamic ? set.mass[0] : Infinity;
  const cm = set.wCom, bv = set.vel, bw = set.ang;
  const ref = { force: zeros(3), torque: zeros(3), roll: zeros(3) };
  const xi = Float64Array.from(SPRING);
  let arm = [0, 0, 0];
  const r = wallReference(
    ps,
    0,
    {
      n,
      delta: rec.overlap[0],
      me: M === Infinity ? m : (m * M) / (m + M),
      friction: b.friction,
      rolling: br,
      vAt: (q) => {
        arm = [q[0] - cm[0], q[1] - cm[1], q[2] - cm[2]];
        const [rx, ry, rz] = arm;
        return [
          bv[0] + bw[1] * rz - bw[2] * ry,
          bv[1] + bw[2] * rx - bw[0] * rz,
          bv[2] + bw[0] * ry - bw[1] * rx,
        ];
      },
      spin: [bw[0], bw[1], bw[2]],
    },
    p,
    mat,
    xi,
    ref,
  );
  const [fx, fy, fz] = r.f, [rx, ry, rz] = arm;
  const got = {
    force: Array.from(ps.force.subarray(0, 3)),
    torque: Array.from(ps.torque.subarray(0, 3)),
    roll: Array.from(ps.roll.subarray(0, 3)),
    xi: Array.from(c.hist.xi.subarray(3 * e, 3 * e + 3)),
    fn: [rec.normalForce[0]],
    ft: Array.from(rec.tangentialForce.subarray(0, 3)),
    load: Array.from(link.loads.force.subarray(0, 3)),
    loadTorque: Array.from(link.loads.torque.subarray(0, 3)),
  };
  same(v, `${shape} body`, got, {
    ...ref,
    xi: Array.from(xi),
    fn: [r.fn],
    ft: r.ft,
    load: [0 - fx, 0 - fy, 0 - fz],
    loadTorque: [0 - (ry * fz - rz * fy), 0 - (rz * fx - rx * fz), 0 - (rx * fy - ry * fx)],
  });
}

describe("contact laws: every path gives the bits of the scalar laws", () => {
  it("pairs (general and plain), plane, sphere, box and mesh bodies, for every variant", async () => {
    const bodies = {
      sphere: await bodyScene("sphere"),
      box: await bodyScene("box"),
      mesh: await bodyScene("mesh"),
    };
    for (const v of VARIANTS) {
      pairPath(v, false);
      pairPath(v, true);
      planePath(v);
      for (const [shape, c] of Object.entries(bodies)) bodyPath(v, shape, c);
    }
    expect(VARIANTS.length).toBe(512);
  });
});
