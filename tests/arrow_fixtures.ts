// Small fake systems shaped like sphere3d / star2d GranularSystem, shared by the arrow tests.
import type { ParticleSystemLike } from "../src/arrow/mod.ts";

/** A 3-particle 3D system with two contacts (one particle pair, one ground). */
export function fakeSystem3d(): ParticleSystemLike & { positions: Float64Array } {
  return {
    count: 3,
    positions: new Float64Array([0, 0, 0.01, 0.02, 0, 0.01, 0.5, 0.5, 0.3, 9, 9, 9]),
    velocities: new Float64Array([1, 2, 2, 0, 0, -1, 0, 0, 0, 9, 9, 9]),
    angularVelocities: new Float64Array([0, 1, 0, 0, 0, 2, 3, 0, 0]),
    radii: new Float64Array([0.01, 0.01, 0.02, 0.5]),
    masses: new Float64Array([1e-3, 1e-3, 8e-3, 1]),
    materialIds: new Uint16Array([0, 0, 1, 0]),
    fixed: new Uint8Array([0, 1, 0, 0]),
    ids: new Uint32Array([10, 11, 12, 13]),
    material: { density: 2500, normalStiffness: 1e5 },
    lastStepStats: { particleContacts: 1, boundaryContacts: 1, maxPenetration: 1e-5 },
    contacts: {
      count: 2,
      i: new Int32Array([0, 2]),
      j: new Int32Array([1, -1]),
      kind: new Uint8Array([0, 1]),
      point: new Float64Array([0.01, 0, 0.01, 0.5, 0.5, 0]),
      normal: new Float64Array([-1, 0, 0, 0, 0, 1]),
      overlap: new Float64Array([2e-5, 1e-5]),
      normalForce: new Float64Array([2, 0.08]),
      tangentialForce: new Float64Array([0, 0.1, 0, 0.01, 0, 0]),
    },
  };
}

/** A 2-grain 2D star system. */
export function fakeSystem2d(): ParticleSystemLike {
  return {
    count: 2,
    dimension: 2,
    positions: new Float64Array([0, 1, 2, 3]),
    velocities: new Float64Array([3, 4, 0, 0]),
    angularVelocities: new Float64Array([0.5, -0.5]),
    angles: new Float64Array([0.1, 0.2]),
    radii: new Float64Array([0.5, 0.6]),
    masses: new Float64Array([1, 2]),
    contacts: {
      count: 1,
      i: [0],
      j: [1],
      kind: [0],
      point: [1, 2],
      normal: [-0.7071, -0.7071],
      overlap: [0.01],
      normalForce: [5],
      tangentialForce: [0.5],
    },
  };
}
