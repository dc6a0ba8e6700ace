/**
 * The Grainlab side of the rigid bodies: their poses, velocities and mass data as float64
 * columns (copied from the engine after each world step), their contact shapes (kind,
 * parameters, pose in the body frame) and the per-evaluation world poses of the shapes that the
 * grain–body contact loop reads. Nothing here imports the rigid-body engine.
 *
 * Quaternions are `[x, y, z, w]`. Capsules and cylinders have their axis along the shape's
 * local z.
 *
 * @module
 */
import type { HeightMap } from "./heightmap.ts";
import type { TriangleMesh } from "./mesh.ts";

/** Body types: dynamic (moved by forces), static (never moves), kinematic (moved by script). */
export const BodyKind = { dynamic: 0, static: 1, kinematic: 2 } as const;

/** Shape kinds of the contact loop. */
export const ShapeKind = {
  sphere: 0,
  box: 1,
  capsule: 2,
  cylinder: 3,
  mesh: 4,
  heightMap: 5,
} as const;

/** Name of a body type. */
export type RigidBodyType = "dynamic" | "static" | "kinematic";

/** Grow a float64 column to hold `n` records of `stride` values. */
function grow(a: Float64Array, n: number, stride: number): Float64Array {
  if (a.length >= n * stride) return a;
  const b = new Float64Array(Math.max(2 * a.length, n * stride, 8 * stride));
  b.set(a);
  return b;
}

/** Rigid bodies and their contact shapes as columns. */
export class BodySet {
  /** Number of bodies. */
  count = 0;
  /** Body type per body ({@link BodyKind}). */
  kind: Uint8Array = new Uint8Array(8);
  /** Body origin (m), stride 3. */
  pos: Float64Array = new Float64Array(24);
  /** Orientation `[x, y, z, w]`, stride 4. */
  quat: Float64Array = new Float64Array(32);
  /** Linear velocity of the centre of mass (m/s), stride 3. */
  vel: Float64Array = new Float64Array(24);
  /** Angular velocity (rad/s), stride 3. */
  ang: Float64Array = new Float64Array(24);
  /** Centre of mass in the world (m), stride 3. */
  com: Float64Array = new Float64Array(24);
  /** Centre of mass in the body frame (m), stride 3. */
  localCom: Float64Array = new Float64Array(24);
  /** Mass (kg); Infinity for static and kinematic bodies. */
  mass: Float64Array = new Float64Array(8);
  /** Net force of the grains on each body over the last step (N), stride 3. */
  grainForce: Float64Array = new Float64Array(24);
  /** Net torque of the grains about the centre of mass over the last step (N·m), stride 3. */
  grainTorque: Float64Array = new Float64Array(24);

  /** Number of contact shapes. */
  shapes = 0;
  /** Body index of each shape. */
  shapeBody: Int32Array = new Int32Array(8);
  /** Shape kind ({@link ShapeKind}). */
  shapeKind: Uint8Array = new Uint8Array(8);
  /** Parameters, stride 4: sphere r; box hx hy hz; capsule/cylinder r, halfHeight. */
  param: Float64Array = new Float64Array(32);
  /** Shape origin in the body frame (m), stride 3. */
  localPos: Float64Array = new Float64Array(24);
  /** Shape orientation in the body frame, stride 4. */
  localQuat: Float64Array = new Float64Array(32);
  /** Local half extents of each shape's bounding box about its origin, stride 3. */
  localHalf: Float64Array = new Float64Array(24);
  /** Local bounding-box centre offset (meshes, height maps), stride 3. */
  localMid: Float64Array = new Float64Array(24);
  /** Mesh or height map of a shape (null for primitives). */
  objects: (TriangleMesh | HeightMap | null)[] = [];

  /** World position of each shape at the current evaluation, stride 3. */
  wPos: Float64Array = new Float64Array(24);
  /** World-from-shape rotation matrix (row-major), stride 9. */
  wRot: Float64Array = new Float64Array(72);
  /** World bounding box of each shape (min xyz, max xyz), stride 6. */
  wBox: Float64Array = new Float64Array(48);
  /** Body centre of mass at the current evaluation, stride 3. */
  wCom: Float64Array = new Float64Array(24);

  /** Append a body; returns its index. Pose and velocities are written by the caller. */
  addBody(kind: number): number {
    const b = this.count++;
    if (this.kind.length < this.count) {
      const k = new Uint8Array(2 * this.kind.length);
      k.set(this.kind);
      this.kind = k;
    }
    this.pos = grow(this.pos, this.count, 3);
    this.quat = grow(this.quat, this.count, 4);
    this.vel = grow(this.vel, this.count, 3);
    this.ang = grow(this.ang, this.count, 3);
    this.com = grow(this.com, this.count, 3);
    this.localCom = grow(this.localCom, this.count, 3);
    this.mass = grow(this.mass, this.count, 1);
    this.grainForce = grow(this.grainForce, this.count, 3);
    this.grainTorque = grow(this.grainTorque, this.count, 3);
    this.wCom = grow(this.wCom, this.count, 3);
    this.kind[b] = kind;
    this.quat[4 * b + 3] = 1;
    return b;
  }

  /** Append a shape of `body`; returns its index. */
  addShape(
    body: number,
    kind: number,
    param: ArrayLike<number>,
    localPos: ArrayLike<number>,
    localQuat: ArrayLike<number>,
    half: ArrayLike<number>,
    mid: ArrayLike<number>,
    object: TriangleMesh | HeightMap | null,
  ): number {
    const s = this.shapes++;
    if (this.shapeBody.length < this.shapes) {
      const a = new Int32Array(2 * this.shapeBody.length);
      a.set(this.shapeBody);
      this.shapeBody = a;
      const k = new Uint8Array(2 * this.shapeKind.length);
      k.set(this.shapeKind);
      this.shapeKind = k;
    }
    this.param = grow(this.param, this.shapes, 4);
    this.localPos = grow(this.localPos, this.shapes, 3);
    this.localQuat = grow(this.localQuat, this.shapes, 4);
    this.localHalf = grow(this.localHalf, this.shapes, 3);
    this.localMid = grow(this.localMid, this.shapes, 3);
    this.wPos = grow(this.wPos, this.shapes, 3);
    this.wRot = grow(this.wRot, this.shapes, 9);
    this.wBox = grow(this.wBox, this.shapes, 6);
    this.shapeBody[s] = body;
    this.shapeKind[s] = kind;
    for (let k = 0; k < 4; k++) this.param[4 * s + k] = k < param.length ? param[k] : 0;
    for (let k = 0; k < 3; k++) {
      this.localPos[3 * s + k] = localPos[k];
      this.localHalf[3 * s + k] = half[k];
      this.localMid[3 * s + k] = mid[k];
    }
    for (let k = 0; k < 4; k++) this.localQuat[4 * s + k] = localQuat[k];
    this.objects[s] = object;
    return s;
  }

  /**
   * A speed bound for grains driven by the bodies (m/s, for the divergence guard): the fastest
   * body surface point plus the speed a grain of mass `mMin` would have with all the bodies'
   * kinetic energy.
   */
  speedScale(mMin: number): number {
    let fastest = 0, energy = 0;
    for (let b = 0; b < this.count; b++) {
      if (this.kind[b] === BodyKind.static) continue;
      let ext = 0;
      for (let s = 0; s < this.shapes; s++) {
        if (this.shapeBody[s] !== b) continue;
        const e = Math.hypot(
          this.wBox[6 * s + 3] - this.wBox[6 * s],
          this.wBox[6 * s + 4] - this.wBox[6 * s + 1],
          this.wBox[6 * s + 5] - this.wBox[6 * s + 2],
        );
        if (e > ext) ext = e;
      }
      const v = Math.hypot(this.vel[3 * b], this.vel[3 * b + 1], this.vel[3 * b + 2]);
      const w = Math.hypot(this.ang[3 * b], this.ang[3 * b + 1], this.ang[3 * b + 2]);
      const u = v + w * ext;
      if (u > fastest) fastest = u;
      if (this.kind[b] === BodyKind.dynamic) energy += 0.5 * this.mass[b] * u * u;
    }
    return fastest + (mMin > 0 && mMin < Infinity ? Math.sqrt((2 * energy) / mMin) : 0);
  }

  /** Drop the last `bodies` bodies and `shapes` shapes (undo of a failed add). */
  truncate(bodies: number, shapes: number): void {
    this.count = bodies;
    this.shapes = shapes;
    this.objects.length = shapes;
  }

  /**
   * World poses and bounding boxes of every shape at `tau` seconds after the stored state:
   * bodies advance at their current linear and angular velocities (static bodies stay put).
   */
  poseShapes(tau: number): void {
    const q = this.quat, pos = this.pos, vel = this.vel, ang = this.ang, com = this.com;
    const wCom = this.wCom;
    for (let b = 0; b < this.count; b++) {
      wCom[3 * b] = com[3 * b] + tau * vel[3 * b];
      wCom[3 * b + 1] = com[3 * b + 1] + tau * vel[3 * b + 1];
      wCom[3 * b + 2] = com[3 * b + 2] + tau * vel[3 * b + 2];
    }
    const bq = SCRATCH;
    for (let s = 0; s < this.shapes; s++) {
      const b = this.shapeBody[s];
      // body orientation at tau: exp(½ ω τ) ⊗ q
      const wx = ang[3 * b] * tau, wy = ang[3 * b + 1] * tau, wz = ang[3 * b + 2] * tau;
      const th = Math.sqrt(wx * wx + wy * wy + wz * wz);
      const qx = q[4 * b], qy = q[4 * b + 1], qz = q[4 * b + 2], qw = q[4 * b + 3];
      if (th > 0) {
        const sn = Math.sin(0.5 * th) / th, cw = Math.cos(0.5 * th);
        const ax = wx * sn, ay = wy * sn, az = wz * sn;
        bq[0] = cw * qx + ax * qw + ay * qz - az * qy;
        bq[1] = cw * qy - ax * qz + ay * qw + az * qx;
        bq[2] = cw * qz + ax * qy - ay * qx + az * qw;
        bq[3] = cw * qw - ax * qx - ay * qy - az * qz;
      } else {
        bq[0] = qx, bq[1] = qy, bq[2] = qz, bq[3] = qw;
      }
      // The body turns about its centre of mass: origin(τ) = com(τ) − R(τ)·localCom.
      quatMatrix(bq[0], bq[1], bq[2], bq[3], MB, 0);
      let ox = pos[3 * b], oy = pos[3 * b + 1], oz = pos[3 * b + 2];
      if (tau !== 0) {
        const lc = this.localCom, cx = lc[3 * b], cy = lc[3 * b + 1], cz = lc[3 * b + 2];
        ox = wCom[3 * b] - (MB[0] * cx + MB[1] * cy + MB[2] * cz);
        oy = wCom[3 * b + 1] - (MB[3] * cx + MB[4] * cy + MB[5] * cz);
        oz = wCom[3 * b + 2] - (MB[6] * cx + MB[7] * cy + MB[8] * cz);
      }
      const lq = this.localQuat;
      quatMatrix(lq[4 * s], lq[4 * s + 1], lq[4 * s + 2], lq[4 * s + 3], ML, 0);
      const R = this.wRot, r = 9 * s;
      for (let i = 0; i < 3; i++) {
        for (let j = 0; j < 3; j++) {
          R[r + 3 * i + j] = MB[3 * i] * ML[j] + MB[3 * i + 1] * ML[3 + j] +
            MB[3 * i + 2] * ML[6 + j];
        }
      }
      const lp = this.localPos;
      const lx = lp[3 * s], ly = lp[3 * s + 1], lz = lp[3 * s + 2];
      const px = ox + MB[0] * lx + MB[1] * ly + MB[2] * lz;
      const py = oy + MB[3] * lx + MB[4] * ly + MB[5] * lz;
      const pz = oz + MB[6] * lx + MB[7] * ly + MB[8] * lz;
      this.wPos[3 * s] = px, this.wPos[3 * s + 1] = py, this.wPos[3 * s + 2] = pz;
      // world AABB of the local box (mid ± half) under R
      const h = this.localHalf, m = this.localMid;
      const hx = h[3 * s], hy = h[3 * s + 1], hz = h[3 * s + 2];
      const mx = m[3 * s], my = m[3 * s + 1], mz = m[3 * s + 2];
      for (let i = 0; i < 3; i++) {
        const c = (i === 0 ? px : i === 1 ? py : pz) + R[r + 3 * i] * mx + R[r + 3 * i + 1] * my +
          R[r + 3 * i + 2] * mz;
        const e = Math.abs(R[r + 3 * i]) * hx + Math.abs(R[r + 3 * i + 1]) * hy +
          Math.abs(R[r + 3 * i + 2]) * hz;
        this.wBox[6 * s + i] = c - e;
        this.wBox[6 * s + 3 + i] = c + e;
      }
    }
  }
}

const SCRATCH = new Float64Array(4);
const MB = new Float64Array(9);
const ML = new Float64Array(9);

/** Row-major rotation matrix of the unit quaternion `[x, y, z, w]` into `out[o..o+8]`. */
export function quatMatrix(
  x: number,
  y: number,
  z: number,
  w: number,
  out: Float64Array,
  o: number,
): void {
  const xx = x * x, yy = y * y, zz = z * z;
  const xy = x * y, xz = x * z, yz = y * z, wx = w * x, wy = w * y, wz = w * z;
  out[o] = 1 - 2 * (yy + zz), out[o + 1] = 2 * (xy - wz), out[o + 2] = 2 * (xz + wy);
  out[o + 3] = 2 * (xy + wz), out[o + 4] = 1 - 2 * (xx + zz), out[o + 5] = 2 * (yz - wx);
  out[o + 6] = 2 * (xz - wy), out[o + 7] = 2 * (yz + wx), out[o + 8] = 1 - 2 * (xx + yy);
}
