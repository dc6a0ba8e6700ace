/**
 * `contactsTable`: the force network of the last step, one row per contact.
 *
 * @module
 */

import type * as A from "apache-arrow";
import { buildTable, type ColumnSpec, CONTACT_KINDS } from "./schema.ts";
import {
  checkSystem,
  type ContactsLike,
  type ParticleSystemLike,
  type SnapshotOptions,
  snapshotOptions,
  snapshotStamp,
} from "./types.ts";

/** Options of {@link contactsTable}. */
export type ContactsTableOptions = SnapshotOptions;

/**
 * The force network of the system's last step in the shared contact convention: `i`, `j`
 * (stable particle ids; `j` is −1 for boundary contacts), `kind` — a dictionary column with
 * the shared labels (particle, ground, wall, body, mesh, heightMap), the same in every
 * simulator —, `boundary` (plane or wall index, −1 for particle contacts), contact point
 * (`px`, `py`[, `pz`]), unit normal from j (or the boundary) towards i (`nx`, `ny`[, `nz`]),
 * `overlap`, `normalForce` and the tangential force on i (`tx`, `ty`[, `tz`]).
 *
 * @param system a system with a `contacts` record (sphere3d or star2d)
 * @param options time/step stamp
 * @returns an Arrow table with `system.contacts.count` rows
 * @throws {TypeError} when `system.contacts` is missing
 * @throws {RangeError} when a contact refers to a slot outside `[0, count)` or its kind is unknown
 * @example
 * ```ts
 * import { contactsTable } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const system = {
 *   count: 1, positions: [0, 0, 0.1], velocities: [0, 0, 0], ids: new Uint32Array([7]),
 *   contacts: {
 *     count: 1, i: [0], j: [-1], kind: [1], boundary: [0], point: [0, 0, 0], normal: [0, 0, 1],
 *     overlap: [1e-4], normalForce: [9.81], tangentialForce: [0, 0, 0],
 *   },
 * };
 * const t = contactsTable(system);
 * expect(t.getChild("i")!.get(0)).toBe(7); // stable ids, not slots
 * expect(t.getChild("kind")!.get(0)).toBe("ground");
 * expect(t.getChild("nz")!.get(0)).toBe(1); // from the ground towards the grain
 * ```
 */
export function contactsTable(
  system: ParticleSystemLike,
  options: ContactsTableOptions = {},
): A.Table {
  const where = "contactsTable";
  options = snapshotOptions<ContactsTableOptions>(where, options);
  const d = checkSystem(where, system);
  const c: ContactsLike | undefined = system.contacts;
  if (!c || typeof c !== "object" || !Number.isInteger(c.count) || c.count < 0) {
    throw new TypeError(
      `${where}: system.contacts is ${String(c)}, must be a contact record with a count`,
    );
  }
  const m = c.count;
  const n = system.count;
  const ids = system.ids;
  const toId = (slot: number, row: number, name: string, boundaryOk: boolean): number => {
    if (boundaryOk && slot < 0) return -1;
    if (!Number.isInteger(slot) || slot < 0 || slot >= n) {
      throw new RangeError(
        `${where}: contacts.${name}[${row}] is ${slot}, must be a particle slot in [0, ${n})`,
      );
    }
    return ids ? ids[slot] : slot;
  };
  const I = new Int32Array(m);
  const J = new Int32Array(m);
  const kinds = new Uint8Array(m);
  const B = new Int32Array(m);
  for (let r = 0; r < m; r++) {
    const k = Number(c.kind[r]);
    if (!(Number.isInteger(k) && k >= 0 && k < CONTACT_KINDS.length)) {
      throw new RangeError(
        `${where}: contacts.kind[${r}] is kind code ${k}, must be one of 0..${
          CONTACT_KINDS.length - 1
        } (${CONTACT_KINDS.join(", ")})`,
      );
    }
    kinds[r] = k;
    I[r] = toId(c.i[r], r, "i", false);
    J[r] = k === 0 ? toId(c.j[r], r, "j", false) : -1;
    B[r] = k === 0 ? -1 : c.boundary ? Number(c.boundary[r]) : -1;
  }
  const axes = d === 3 ? ["x", "y", "z"] : ["x", "y"];
  const comp = (src: ArrayLike<number>, k: number, stride: number) => {
    if (src.length < m * stride) {
      throw new RangeError(
        `${where}: a contacts array has ${src.length} values, need ${m * stride}`,
      );
    }
    const out = new Float64Array(m);
    for (let r = 0; r < m; r++) out[r] = src[r * stride + k];
    return out;
  };
  const cols: ColumnSpec[] = [
    { name: "i", type: "int32", values: I, unit: "1", description: "stable id of particle i" },
    {
      name: "j",
      type: "int32",
      values: J,
      unit: "1",
      description: "stable id of particle j, or -1 for a boundary contact",
    },
    {
      name: "kind",
      type: "kind",
      values: kinds,
      labels: CONTACT_KINDS,
      unit: "1",
      description: `contact kind: ${CONTACT_KINDS.join(", ")}`,
    },
    {
      name: "boundary",
      type: "int32",
      values: B,
      unit: "1",
      description: "boundary index (plane, wall or body), or -1 for a particle contact",
    },
  ];
  axes.forEach((a, k) =>
    cols.push({
      name: `p${a}`,
      type: "float64",
      values: comp(c.point, k, d),
      unit: "m",
      description: `${a} coordinate of the contact point`,
    })
  );
  axes.forEach((a, k) =>
    cols.push({
      name: `n${a}`,
      type: "float64",
      values: comp(c.normal, k, d),
      unit: "1",
      description: `${a} component of the unit contact normal (from j towards i)`,
    })
  );
  cols.push(
    {
      name: "overlap",
      type: "float64",
      values: comp(c.overlap, 0, 1),
      unit: "m",
      description: "normal overlap (penetration depth)",
    },
    {
      name: "normalForce",
      type: "float64",
      values: comp(c.normalForce, 0, 1),
      unit: "N",
      description: "normal contact force on i along the normal (> 0 repulsive)",
    },
  );
  axes.forEach((a, k) =>
    cols.push({
      name: `t${a}`,
      type: "float64",
      values: comp(c.tangentialForce, k, d),
      unit: "N",
      description: `${a} component of the tangential (friction) force on i`,
    })
  );
  const stamp = snapshotStamp(system, options);
  return buildTable(where, m, cols, {
    simulator: options.simulator ?? (d === 3 ? "sphere3d" : "star2d"),
    table: "contacts",
    time: stamp.time,
    step: stamp.step,
    material: system.material,
  });
}
