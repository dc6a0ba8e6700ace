/**
 * `particlesTable`: one row per particle of a 3D (sphere3d) or 2D (star2d) system.
 *
 * @module
 */

import type * as A from "apache-arrow";
import { buildTable, type ColumnSpec } from "./schema.ts";
import {
  checkSystem,
  type ParticleSystemLike,
  type SnapshotOptions,
  snapshotOptions,
  snapshotStamp,
} from "./types.ts";
import { bool } from "../math/validate.ts";

/** Options of {@link particlesTable}. */
export interface ParticlesTableOptions extends SnapshotOptions {
  /**
   * Copy every column instead of sharing memory with the system. Columns that can be views
   * (radius, mass, materialId, id) otherwise change when the simulation steps on.
   * @default false
   */
  copy?: boolean;
}

function strided(src: ArrayLike<number>, n: number, stride: number, offset: number): Float64Array {
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) out[i] = src[i * stride + offset];
  return out;
}

function maybeCopy<T extends ArrayLike<number>>(v: T, n: number, copy: boolean): ArrayLike<number> {
  if (!copy) return v;
  return Float64Array.from({ length: n }, (_, i) => v[i]);
}

/**
 * One row per particle: `id`, `x`, `y`, (`z`), `vx`, `vy`, (`vz`), `speed`, `radius`, `mass`,
 * `materialId`, `fixed`, and the rotation columns — `wx`, `wy`, `wz` in 3D, `angle` and
 * `angularVelocity` in 2D. Every column carries `unit` and `description` metadata; the schema
 * carries the Grainlab version, simulator, time, step and material.
 *
 * Position and velocity components are de-interleaved copies; radius, mass, materialId and id
 * are zero-copy views of the system's arrays unless `copy` is set.
 *
 * @param system a sphere3d or star2d particle system (or any object of that shape)
 * @param options time/step stamp and copy behaviour
 * @returns an Arrow table with `system.count` rows
 * @throws {TypeError} when `system` is not a particle system
 * @throws {RangeError} when its arrays are shorter than `count` requires
 * @example
 * ```ts
 * import { particlesTable } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const system = {
 *   count: 2,
 *   positions: new Float64Array([0, 0, 0.1, 1, 0, 0.1]),
 *   velocities: new Float64Array([3, 4, 0, 0, 0, 0]),
 *   radii: new Float64Array([0.1, 0.1]),
 * };
 * const t = particlesTable(system, { time: 0.5, step: 10 });
 * expect(t.numRows).toBe(2);
 * expect([...t.getChild("speed")!]).toEqual([5, 0]);
 * expect([...t.getChild("x")!]).toEqual([0, 1]);
 * expect(t.schema.metadata.get("grainlab.step")).toBe("10");
 * ```
 */
export function particlesTable(
  system: ParticleSystemLike,
  options: ParticlesTableOptions = {},
): A.Table {
  const where = "particlesTable";
  options = snapshotOptions<ParticlesTableOptions>(where, options, ["copy"]);
  const d = checkSystem(where, system);
  const n = system.count;
  const copy = bool(where, "options.copy", options.copy, false);
  const p = system.positions;
  const v = system.velocities;
  const axes = d === 3 ? ["x", "y", "z"] : ["x", "y"];
  const speed = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let k = 0; k < d; k++) s += v[i * d + k] ** 2;
    speed[i] = Math.sqrt(s);
  }
  const ids = system.ids ?? Uint32Array.from({ length: n }, (_, i) => i);
  const cols: ColumnSpec[] = [
    {
      name: "id",
      type: "uint32",
      values: maybeCopyTyped(ids, n, copy, Uint32Array),
      unit: "1",
      description: "stable particle id (survives removal and compaction)",
    },
  ];
  axes.forEach((a, k) =>
    cols.push({
      name: a,
      type: "float64",
      values: strided(p, n, d, k),
      unit: "m",
      description: `${a} coordinate of the particle centre`,
    })
  );
  axes.forEach((a, k) =>
    cols.push({
      name: `v${a}`,
      type: "float64",
      values: strided(v, n, d, k),
      unit: "m/s",
      description: `${a} component of the translational velocity`,
    })
  );
  cols.push({
    name: "speed",
    type: "float64",
    values: speed,
    unit: "m/s",
    description: "magnitude of the translational velocity",
  });
  if (system.radii) {
    cols.push({
      name: "radius",
      type: "float64",
      values: maybeCopy(system.radii, n, copy),
      unit: "m",
      description: d === 3 ? "sphere radius" : "grain radius (bounding radius for star grains)",
    });
  }
  if (system.masses) {
    cols.push({
      name: "mass",
      type: "float64",
      values: maybeCopy(system.masses, n, copy),
      unit: "kg",
      description: "particle mass",
    });
  }
  cols.push({
    name: "materialId",
    type: "uint16",
    values: system.materialIds
      ? maybeCopyTyped(system.materialIds, n, copy, Uint16Array)
      : new Uint16Array(n),
    unit: "1",
    description: "index of the particle's material",
  });
  cols.push({
    name: "fixed",
    type: "bool",
    values: system.fixed ?? new Uint8Array(n),
    unit: "1",
    description: "true when the particle is held fixed (not integrated)",
  });
  const w = system.angularVelocities;
  if (d === 3 && w && w.length >= 3 * n) {
    ["x", "y", "z"].forEach((a, k) =>
      cols.push({
        name: `w${a}`,
        type: "float64",
        values: strided(w, n, 3, k),
        unit: "rad/s",
        description: `${a} component of the angular velocity`,
      })
    );
  }
  if (d === 2) {
    if (system.angles) {
      cols.push({
        name: "angle",
        type: "float64",
        values: maybeCopy(system.angles, n, copy),
        unit: "rad",
        description: "orientation angle of the grain (counter-clockwise)",
      });
    }
    if (w && w.length >= n) {
      cols.push({
        name: "angularVelocity",
        type: "float64",
        values: maybeCopy(w, n, copy),
        unit: "rad/s",
        description: "angular velocity (counter-clockwise positive)",
      });
    }
  }
  const stamp = snapshotStamp(system, options);
  return buildTable(where, n, cols, {
    simulator: options.simulator ?? (d === 3 ? "sphere3d" : "star2d"),
    table: "particles",
    time: stamp.time,
    step: stamp.step,
    material: system.material,
  });
}

function maybeCopyTyped<T extends Uint16Array | Uint32Array>(
  v: ArrayLike<number>,
  n: number,
  copy: boolean,
  Ctor: { new (n: number): T; from(a: ArrayLike<number>): T },
): ArrayLike<number> {
  if (!copy && v instanceof Ctor) return v;
  const out = new Ctor(n);
  for (let i = 0; i < n; i++) out[i] = v[i];
  return out;
}
