// Small fake systems shaped like sphere3d / star2d GranularSystem, shared by the arrow tests.
import * as A from "apache-arrow";
import { buildTable, type ParticleSystemLike } from "../src/arrow/mod.ts";

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
      tangentialForce: [0.5, -0.25],
    },
  };
}

/**
 * A small table of two record batches with every column type Grainlab writes (float64,
 * float32, int32, uint8, uint16, uint32, bool and the dictionary `kind`), the batches sharing
 * one dictionary.
 */
export function mixedTable(): A.Table {
  const make = (k: number) =>
    buildTable("mixedTable", 3, [
      { name: "x", type: "float64", values: [1.5 + k, -2, 3e-9], unit: "m", description: "x" },
      { name: "f", type: "float32", values: [0.25, 1 + k, 2], unit: "1", description: "f" },
      { name: "n", type: "int32", values: [-1, 7, 2 ** 30], unit: "1", description: "n" },
      { name: "b", type: "uint8", values: [0, 255, 9 + k], unit: "1", description: "b" },
      { name: "m", type: "uint16", values: [1, 65535, 3], unit: "1", description: "m" },
      { name: "id", type: "uint32", values: [10, 4e9, 12 + k], unit: "1", description: "id" },
      { name: "ok", type: "bool", values: [true, k === 0, true], unit: "1", description: "ok" },
      { name: "kind", type: "kind", values: [0, 3, k + 1], unit: "1", description: "kind" },
    ], { simulator: "fuzz", table: "fuzz", time: 0.5 });
  const a = make(0), b = make(1);
  const kind = a.schema.fields.length - 1;
  const dictionary = a.batches[0].data.children[kind].dictionary;
  const children = b.batches[0].data.children.map((c, i) =>
    i === kind
      ? A.makeData({
        type: c.type as A.Dictionary<A.Utf8, A.Int8>,
        length: c.length,
        nullCount: 0,
        data: c.values as Int8Array,
        dictionary,
      })
      : c
  );
  const data = A.makeData({
    type: new A.Struct(a.schema.fields),
    length: 3,
    nullCount: 0,
    children,
  });
  return new A.Table(a.schema, [a.batches[0], new A.RecordBatch(a.schema, data)]);
}

/** A table as apache-arrow's own writer would get it from elsewhere: strings, nulls, lists. */
export function foreignTable(): A.Table {
  return new A.Table({
    name: A.vectorFromArray(["sand", null, "glass beads"], new A.Utf8()),
    d: A.vectorFromArray([0.5, null, 1.25], new A.Float64()),
    n: A.vectorFromArray([1, 2, null], new A.Int16()),
    tags: A.vectorFromArray([[1, 2], [], null], new A.List(new A.Field("item", new A.Int32()))),
  });
}

/** Schema, batch lengths and every value of a table, as one string for comparisons. */
export function tableSignature(t: A.Table): string {
  const meta = (m: Map<string, string>) => [...m].sort();
  return JSON.stringify(
    [
      t.schema.fields.map((f) => [f.name, String(f.type), f.nullable, meta(f.metadata)]),
      meta(t.schema.metadata),
      t.batches.map((b) => b.numRows),
      t.schema.fields.map((f) => [...t.getChild(f.name)!].map((v) => JSON.stringify(v) ?? "u")),
    ],
    (_k, v) => (typeof v === "bigint" ? `${v}n` : v),
  );
}
