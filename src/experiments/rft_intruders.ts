/**
 * The intruders of the RFT validation (`rft_validation.ts`) and the one run both grounds share:
 * a C-shaped leg (a half ring, the RHex-like arc of Li, Zhang & Goldman 2013) turning at
 * constant angular speed about a horizontal hip axis, and a thin plate tilted by β pushed along
 * γ. Each is a kinematic body with a scripted constant velocity, so its pose is a known function
 * of time: the DEM run samples the force averaged over windows of steps, and the RFT run steps
 * once per window from the window's mean pose, giving the two curves at the same poses.
 *
 * @module
 */
import type { RigidBody, World } from "../sphere3d/mod.ts";

/** A kinematic intruder whose pose is a function of the time since the start of its motion. */
export interface IntruderScene {
  /** Adds the intruder to `world`, posed and moving as it is at time `t` (s). */
  add(world: World, t: number): RigidBody;
  /** Length of the motion (s). */
  duration: number;
  /** The abscissa of the force curves at time `t`: the leg's angle (rad), the plate's depth (m). */
  position(t: number): number;
  /** Depth of the intruder's lowest point below the surface at time `t` (m; < 0 above it). */
  lowest(t: number): number;
}

/** The C-leg's dimensions (m). */
export interface CLegShape {
  /** Radius of the arc's centre line. */
  radius: number;
  /** Radial thickness of the ring. */
  thickness: number;
  /** Width along the hip axis (y). */
  width: number;
  /** Segments along the half ring. */
  segments: number;
}

/**
 * A closed, outward-wound triangle mesh of a half ring in the leg frame: the hip at the origin
 * at one end of the arc's centre line, the other end (the tip) at (0, 0, −2R), the arc bulging
 * towards −x (local x = −ρ sin φ, z = −R + ρ cos φ, φ ∈ [0, π]), extruded over ±width/2 in y.
 *
 * @example
 * ```ts
 * import { cLegMesh } from "./rft_intruders.ts";
 * import { TriangleMesh } from "../sphere3d/bodies/mesh.ts";
 * import { expect } from "expect";
 * const leg = cLegMesh({ radius: 0.035, thickness: 0.008, width: 0.025, segments: 24 });
 * const m = TriangleMesh.create(leg.vertices, leg.indices); // closed and outward
 * // the volume of a half ring: π·R·t·w, less the chords' sag
 * expect(m.massProperties(1).volume).toBeCloseTo(Math.PI * 0.035 * 0.008 * 0.025, 6);
 * ```
 */
export function cLegMesh(shape: CLegShape): { vertices: Float64Array; indices: Uint32Array } {
  const { radius: R, thickness: t, width: w, segments: n } = shape;
  const rIn = R - t / 2, rOut = R + t / 2;
  const v: number[] = [], ix: number[] = [];
  // four vertices per station: inner −y, outer −y, outer +y, inner +y
  for (let i = 0; i <= n; i++) {
    const phi = (Math.PI * i) / n, s = Math.sin(phi), c = Math.cos(phi);
    for (const [rho, y] of [[rIn, -w / 2], [rOut, -w / 2], [rOut, w / 2], [rIn, w / 2]]) {
      v.push(-rho * s, y, -R + rho * c);
    }
  }
  /** Quad a, b, c, d as two triangles whose normal points along `out`. */
  const quad = (a: number, b: number, c: number, d: number, out: number[]) => {
    const ux = v[3 * b] - v[3 * a], uy = v[3 * b + 1] - v[3 * a + 1];
    const uz = v[3 * b + 2] - v[3 * a + 2];
    const wx = v[3 * c] - v[3 * a], wy = v[3 * c + 1] - v[3 * a + 1];
    const wz = v[3 * c + 2] - v[3 * a + 2];
    const nx = uy * wz - uz * wy, ny = uz * wx - ux * wz, nz = ux * wy - uy * wx;
    if (nx * out[0] + ny * out[1] + nz * out[2] > 0) ix.push(a, b, c, a, c, d);
    else ix.push(a, d, c, a, c, b);
  };
  for (let i = 0; i < n; i++) {
    const p = 4 * i, q = 4 * (i + 1);
    const phi = (Math.PI * (i + 0.5)) / n, rx = -Math.sin(phi), rz = Math.cos(phi);
    quad(p, q, q + 3, p + 3, [-rx, 0, -rz]); // inner face, towards the arc's centre
    quad(p + 1, p + 2, q + 2, q + 1, [rx, 0, rz]); // outer face
    quad(p, p + 1, q + 1, q, [0, -1, 0]); // side −y
    quad(p + 3, q + 3, q + 2, p + 2, [0, 1, 0]); // side +y
  }
  // end caps: at the hip (φ = 0) facing +x, at the tip (φ = π) facing +x as well (the tangent
  // −(dx/dφ, dz/dφ) at φ = 0 is +x; at φ = π the outward tangent (dx/dφ, dz/dφ) is +x)
  quad(0, 1, 2, 3, [1, 0, 0]);
  const e = 4 * n;
  quad(e, e + 1, e + 2, e + 3, [1, 0, 0]);
  return { vertices: Float64Array.from(v), indices: Uint32Array.from(ix) };
}

/**
 * The C-leg scene: the leg's hip at (0, 0, `hipZ`), turning about +y at `omega` (rad/s) from
 * `theta0` (rad; 0 = the hip-to-tip chord straight down, increasing angles swing the tip from
 * +x through the bottom towards −x), for `duration` s.
 */
export function cLegScene(
  mesh: { vertices: Float64Array; indices: Uint32Array },
  hipZ: number,
  surface: number,
  omega: number,
  theta0: number,
  duration: number,
): IntruderScene {
  const v = mesh.vertices;
  const theta = (t: number) => theta0 + omega * t;
  return {
    duration,
    position: theta,
    lowest: (t) => surface - hipZ - lowestZ(v, theta(t)),
    add(world, t) {
      const h = theta(t) / 2;
      return world.addMesh({
        vertices: v,
        indices: mesh.indices,
        position: [0, 0, hipZ],
        orientation: [0, Math.sin(h), 0, Math.cos(h)],
        bodyType: "kinematic",
        angularVelocity: [0, omega, 0],
        name: "cLeg",
      });
    },
  };
}

/** The lowest z of the vertices `v` (leg frame) turned by θ about +y. */
export function lowestZ(v: ArrayLike<number>, theta: number): number {
  const s = Math.sin(theta), c = Math.cos(theta);
  let low = Infinity;
  for (let i = 0; i < v.length; i += 3) low = Math.min(low, -s * v[i] + c * v[i + 2]);
  return low;
}

/**
 * The angles [first, last] (rad) between which a leg turning about its hip at height `hip`
 * above the surface dips below it (its lowest point deeper than 0), scanned in steps of 0.001
 * rad over (−π, π); null when it never does.
 */
export function submergedRange(v: ArrayLike<number>, hip: number): [number, number] | null {
  let first = NaN, last = NaN;
  for (let k = -3141; k <= 3141; k++) {
    const th = k / 1000;
    if (hip + lowestZ(v, th) < 0) {
      if (first !== first) first = th;
      last = th;
    }
  }
  return first === first ? [first, last] : null;
}

/**
 * The plate scene: a plate of side `side` and thickness `thick` (m), its surface line rising by
 * β towards +x, moving at `speed` (m/s) along γ below the horizontal (towards +x), its lowest
 * point starting `above` m over the surface, its centre travelling to `below` m past full
 * immersion; the path is centred on x = 0.
 */
export function plateScene(
  side: number,
  thick: number,
  beta: number,
  gamma: number,
  speed: number,
  surface: number,
  above: number,
  below: number,
): IntruderScene {
  const reach = 0.5 * side * Math.abs(Math.sin(beta)) + 0.5 * thick * Math.cos(beta);
  const vx = speed * Math.cos(gamma), vz = -speed * Math.sin(gamma);
  const z0 = surface + reach + above, z1 = surface - reach - below;
  const duration = (z0 - z1) / -vz;
  const x0 = -0.5 * duration * vx;
  const s = Math.sin(-beta / 2), c = Math.cos(-beta / 2);
  return {
    duration,
    position: (t) => surface - (z0 + vz * t),
    lowest: (t) => surface - (z0 + vz * t) + reach,
    add(world, t) {
      return world.addBox({
        halfExtents: [0.5 * side, 0.5 * side, 0.5 * thick],
        position: [x0 + vx * t, 0, z0 + vz * t],
        orientation: [0, s, 0, c],
        bodyType: "kinematic",
        linearVelocity: [vx, 0, vz],
        name: "plate",
      });
    },
  };
}
