/**
 * VTK files (src/io/vtk.ts), read back by an independent reader: VTK's own
 * vtkXMLPolyDataReader from Debian's python3-vtk9, run as `/usr/bin/python3`. Without that
 * package the reader tests are skipped with a notice, except in CI (CI=true), where .ci/run
 * installs it and its absence is a failure.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { StarShape, StarSystem } from "../src/star2d/mod.ts";
import { VtkSeriesWriter, writeVtk, writeVtkContacts } from "../src/io/mod.ts";
import { vtkContactsBytes, vtkParticlesBytes } from "../src/io/vtk.ts";
import { ContactKind } from "../src/contact/record.ts";

const PYTHON = "/usr/bin/python3";
const ci = Deno.env.get("CI") === "true";
const haveVtk = (() => {
  try {
    return new Deno.Command(PYTHON, {
      args: ["-c", "import vtkmodules.vtkIOXML"],
      stdout: "null",
      stderr: "null",
    }).outputSync().success;
  } catch {
    return false;
  }
})();
const skip = !haveVtk && !ci;
if (skip) {
  console.log(
    "note: python3-vtk9 not found: the VTK reader checks in tests/vtk_test.ts are skipped " +
      "(apt-get install python3-vtk9)",
  );
}
/** Reader tests: skipped without VTK outside CI; in CI they run (and fail without VTK). */
const vtkIt = (name: string, fn: () => Promise<void>) =>
  skip ? it(name, { skip: "python3-vtk9 is not installed" }, fn) : it(name, fn);

/** What VTK reads from each file: counts, cells, arrays with types and values. */
const READER = String.raw`
import json, sys
from vtkmodules.vtkIOXML import vtkXMLPolyDataReader
from vtkmodules.vtkCommonCore import vtkFileOutputWindow, vtkOutputWindow
limit = int(sys.argv[1])
def arrays(data):
    out = {}
    for k in range(data.GetNumberOfArrays()):
        a = data.GetAbstractArray(k)
        n, c = a.GetNumberOfTuples(), a.GetNumberOfComponents()
        vals = [a.GetComponent(t, q) for t in range(min(n, limit)) for q in range(c)]
        out[a.GetName()] = {"type": a.GetDataTypeAsString(), "components": c, "tuples": n, "values": vals}
    return out
res = []
for path in sys.argv[2:]:
    r = vtkXMLPolyDataReader()
    r.SetFileName(path)
    r.Update()
    pd = r.GetOutput()
    n = pd.GetNumberOfPoints()
    cells = []
    for i in range(min(pd.GetNumberOfCells(), limit)):
        cell = pd.GetCell(i)
        ids = cell.GetPointIds()
        cells.append([cell.GetCellType()] + [ids.GetId(k) for k in range(ids.GetNumberOfIds())])
    res.append({
        "error": r.GetErrorCode(),
        "points": n,
        "verts": pd.GetNumberOfVerts(),
        "lines": pd.GetNumberOfLines(),
        "xyz": [x for i in range(min(n, limit)) for x in pd.GetPoint(i)],
        "cells": cells,
        "pointData": arrays(pd.GetPointData()),
        "cellData": arrays(pd.GetCellData()),
        "fieldData": arrays(pd.GetFieldData()),
    })
print(json.dumps(res))
`;

interface VtkArrayRead {
  type: string;
  components: number;
  tuples: number;
  values: number[];
}
interface VtkRead {
  error: number;
  points: number;
  verts: number;
  lines: number;
  xyz: number[];
  cells: number[][];
  pointData: Record<string, VtkArrayRead>;
  cellData: Record<string, VtkArrayRead>;
  fieldData: Record<string, VtkArrayRead>;
}

async function vtkRead(paths: string[], limit = 1_000_000): Promise<VtkRead[]> {
  const out = await new Deno.Command(PYTHON, {
    args: ["-c", READER, String(limit), ...paths],
    stdout: "piped",
    stderr: "piped",
  }).output();
  const err = new TextDecoder().decode(out.stderr);
  if (!out.success) throw new Error(`VTK reader failed:\n${err}`);
  // VTK reports parse problems on stderr without failing
  expect(err).not.toMatch(/ERROR|Error|error/);
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** A settled-ish bed with fixed grains, two material ids, a spin and boundary contacts. */
function bed(): World {
  const world = new World({ timeStep: 1e-4 });
  const g = world.addGranularBox(
    { min: [-0.05, -0.05, 0], max: [0.05, 0.05, 0.12], radius: 0.01, spacing: 0.0205 },
    { normalStiffness: 5e4, normalDamping: 5, friction: 0.5 },
  );
  g.setGroundPlane(0);
  g.setContainerBox([-0.05, -0.05, 0], [0.05, 0.05, 0.3]);
  g.setParticleFixed(0, true);
  g.setParticleMaterial(1, { friction: 0.2 });
  for (let i = 1; i < g.count; i += 3) g.setParticleMaterialId(i, 1);
  g.setAngularVelocity(5, [1, -2, 3]);
  world.run(200);
  return world;
}

function bitsEqual(a: ArrayLike<number>, b: ArrayLike<number>): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

describe("VTK reader availability", () => {
  // in CI (.ci/run installs it) a missing package fails here, with this name
  vtkIt("python3-vtk9 is installed (required in CI)", () => {
    expect(haveVtk).toBe(true);
    return Promise.resolve();
  });
});

describe("writeVtk (grains) read by VTK", () => {
  vtkIt("3D grains: points, vertex cells, every array with its type and exact values", async () => {
    const world = bed();
    const g = world.systems[0];
    const n = g.count;
    const dir = await Deno.makeTempDir();
    await writeVtk(`${dir}/g.vtp`, g, { time: world.time });
    const [r] = await vtkRead([`${dir}/g.vtp`]);
    expect(r.error).toBe(0);
    expect(r.points).toBe(n);
    expect(r.verts).toBe(n);
    expect(r.cells[7]).toEqual([1, 7]); // VTK_VERTEX on point 7
    expect(bitsEqual(r.xyz, g.positions)).toBe(true);
    const pd = r.pointData;
    expect(Object.keys(pd).sort()).toEqual(
      ["angularVelocity", "fixed", "id", "materialId", "radius", "speed", "velocity"],
    );
    expect([pd.radius.type, pd.velocity.type, pd.materialId.type, pd.fixed.type, pd.id.type])
      .toEqual(["double", "double", "unsigned short", "unsigned char", "unsigned int"]);
    expect(pd.velocity.components).toBe(3);
    expect(pd.angularVelocity.components).toBe(3);
    expect(bitsEqual(pd.radius.values, g.radii)).toBe(true);
    expect(bitsEqual(pd.velocity.values, g.velocities)).toBe(true);
    expect(bitsEqual(pd.angularVelocity.values, g.angularVelocities)).toBe(true);
    expect(pd.materialId.values).toEqual([...g.materialIds]);
    expect(pd.materialId.values[1]).toBe(1);
    expect(pd.fixed.values).toEqual([...g.fixed]);
    expect(pd.fixed.values[0]).toBe(1);
    expect(pd.id.values).toEqual([...g.ids]);
    const v = g.velocities;
    for (const i of [0, 3, n - 1]) {
      expect(pd.speed.values[i]).toBe(Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2]));
    }
    expect(Math.max(...pd.speed.values)).toBeGreaterThan(0.01); // the bed is still moving
    expect(r.fieldData.TimeValue.values).toEqual([world.time]);
  });

  vtkIt("float32 precision: single-precision arrays, values rounded once", async () => {
    const g = bed().systems[0];
    const dir = await Deno.makeTempDir();
    const b64 = await writeVtk(`${dir}/d.vtp`, g);
    const b32 = await writeVtk(`${dir}/s.vtp`, g, { precision: "float32" });
    // 11 doubles per grain (points, radius, velocity, spin, speed) become floats
    expect(b64 - b32).toBe(g.count * 11 * 4);
    const [r] = await vtkRead([`${dir}/s.vtp`]);
    expect(r.pointData.velocity.type).toBe("float");
    expect(r.pointData.id.type).toBe("unsigned int"); // integers stay exact
    expect(r.pointData.velocity.values).toEqual([...g.velocities].map(Math.fround));
    expect(r.xyz).toEqual([...g.positions].map(Math.fround));
  });

  vtkIt("star2d grains: z = 0, spin about z, angle and shape", async () => {
    const sys = new StarSystem({ timeStep: 1e-4, normalStiffness: 1000 });
    const cross = StarShape.preset("cross", { area: 30e-6 });
    sys.addGrains({
      shape: cross,
      positions: [[0, 0.006], [0.0075, 0.0075], [0.02, 0.006]],
      angles: [0, 0.3, 1],
    });
    sys.walls.addPlane({ point: [0, 0], normal: [0, 1] });
    sys.run(1000);
    expect(sys.contacts.count).toBeGreaterThan(0);
    const dir = await Deno.makeTempDir();
    await writeVtk(`${dir}/s.vtp`, sys);
    await writeVtkContacts(`${dir}/c.vtp`, sys);
    const [r, c] = await vtkRead([`${dir}/s.vtp`, `${dir}/c.vtp`]);
    expect(r.points).toBe(3);
    const p = sys.positions, w = sys.angularVelocities, v = sys.velocities;
    expect(r.xyz).toEqual([p[0], p[1], 0, p[2], p[3], 0, p[4], p[5], 0]);
    expect(r.pointData.angularVelocity.values).toEqual([0, 0, w[0], 0, 0, w[1], 0, 0, w[2]]);
    expect(r.pointData.velocity.values.slice(0, 3)).toEqual([v[0], v[1], 0]);
    expect(r.pointData.angle.values).toEqual([...sys.angles]);
    expect(r.pointData.shape.values).toEqual([0, 0, 0]);
    expect(r.pointData.fixed.values).toEqual([0, 0, 0]);
    // contacts in 2D: tangential force (tx, ty, 0)
    const rec = sys.contacts;
    expect(c.lines).toBe(rec.count);
    expect(c.cellData.tangentialForce.values.slice(0, 3)).toEqual([
      rec.tangentialForce[0],
      rec.tangentialForce[1],
      0,
    ]);
    expect(c.cellData.normalForce.values).toEqual([...rec.normalForce]);
  });
});

describe("writeVtkContacts read by VTK", () => {
  vtkIt("lines from centre to centre, or to the contact point at a boundary", async () => {
    const g = bed().systems[0];
    const rec = g.contacts;
    const m = rec.count;
    expect(m).toBeGreaterThan(50);
    const dir = await Deno.makeTempDir();
    await writeVtkContacts(`${dir}/c.vtp`, g);
    const [r] = await vtkRead([`${dir}/c.vtp`]);
    expect(r.lines).toBe(m);
    expect(r.points).toBe(2 * m);
    expect(r.cells[3]).toEqual([3, 6, 7]); // VTK_LINE
    const cd = r.cellData;
    expect(Object.keys(cd).sort()).toEqual(
      ["boundary", "i", "j", "kind", "normal", "normalForce", "overlap", "tangentialForce"],
    );
    expect(cd.kind.type).toBe("unsigned char");
    expect(cd.tangentialForce.components).toBe(3);
    expect(bitsEqual(cd.normalForce.values, rec.normalForce)).toBe(true);
    expect(bitsEqual(cd.tangentialForce.values, rec.tangentialForce)).toBe(true);
    expect(bitsEqual(cd.overlap.values, rec.overlap)).toBe(true);
    expect(bitsEqual(cd.normal.values, rec.normal)).toBe(true);
    expect(cd.kind.values).toEqual([...rec.kind]);
    expect(cd.j.values).toEqual([...rec.j]);
    const pos = g.positions;
    let pairs = 0, walls = 0;
    for (let c = 0; c < m; c++) {
      const i = rec.i[c], j = rec.j[c];
      const a = r.xyz.slice(6 * c, 6 * c + 3), b = r.xyz.slice(6 * c + 3, 6 * c + 6);
      expect(a).toEqual([pos[3 * i], pos[3 * i + 1], pos[3 * i + 2]]);
      if (j >= 0) {
        pairs++;
        expect(rec.kind[c]).toBe(ContactKind.particle);
        expect(b).toEqual([pos[3 * j], pos[3 * j + 1], pos[3 * j + 2]]);
      } else {
        walls++;
        expect(b).toEqual([...rec.point.subarray(3 * c, 3 * c + 3)]);
      }
    }
    expect(pairs).toBeGreaterThan(0);
    expect(walls).toBeGreaterThan(0);
  });

  vtkIt("a contact across a periodic face joins the nearest image", async () => {
    const world = new World({ timeStep: 1e-4, gravity: [0, 0, 0] });
    const g = world.addGranularParticles({
      positions: [[0.011, 0.5, 0.5], [0.989, 0.5, 0.5]],
      radii: 0.0111,
    });
    g.setPeriodicBoundary([0, 0, 0], [1, 1, 1], { x: true });
    world.step();
    expect(g.contacts.count).toBe(1);
    const dir = await Deno.makeTempDir();
    await writeVtkContacts(`${dir}/c.vtp`, g);
    const [r] = await vtkRead([`${dir}/c.vtp`]);
    const x = r.xyz;
    const length = Math.hypot(x[3] - x[0], x[4] - x[1], x[5] - x[2]);
    // the line spans the two radii less the overlap, not the box
    expect(length).toBeCloseTo(2 * 0.0111 - g.contacts.overlap[0], 12);
  });
});

describe("VtkSeriesWriter", () => {
  vtkIt("a .pvd collection of frames and contacts that VTK reads", async () => {
    const world = bed();
    const g = world.systems[0];
    const dir = await Deno.makeTempDir();
    const s = new VtkSeriesWriter(`${dir}/run/bed`, { contacts: true });
    const times: number[] = [], contacts: number[] = [];
    for (let k = 0; k < 3; k++) {
      times.push(world.time);
      contacts.push(g.contacts.count);
      await s.add(world.time, g);
      world.run(20);
    }
    await s.close();
    expect(s.count).toBe(3);
    const names = [...Deno.readDirSync(`${dir}/run`)].map((e) => e.name).sort();
    expect(names).toEqual([
      "bed.pvd",
      "bed_0.vtp",
      "bed_1.vtp",
      "bed_2.vtp",
      "bed_contacts_0.vtp",
      "bed_contacts_1.vtp",
      "bed_contacts_2.vtp",
    ]);
    // the collection, read by Python's XML parser; every file it lists, by VTK
    const out = await new Deno.Command(PYTHON, {
      args: [
        "-c",
        "import json,sys,xml.etree.ElementTree as E;" +
        "r=E.parse(sys.argv[1]).getroot();" +
        "print(json.dumps([r.get('type')]+[[d.get('timestep'),d.get('part'),d.get('file')]" +
        " for d in r.find('Collection')]))",
        `${dir}/run/bed.pvd`,
      ],
      stdout: "piped",
    }).output();
    const [type, ...sets] = JSON.parse(new TextDecoder().decode(out.stdout));
    expect(type).toBe("Collection");
    expect(sets).toEqual(
      times.flatMap((t, k) => [
        [String(t), "0", `bed_${k}.vtp`],
        [String(t), "1", `bed_contacts_${k}.vtp`],
      ]),
    );
    const frames = await vtkRead(sets.map((d: string[]) => `${dir}/run/${d[2]}`), 3);
    expect(frames[4].points).toBe(g.count); // the last frame's grains
    expect(frames.filter((_, k) => k % 2 === 1).map((f) => f.lines)).toEqual(contacts);
    expect(frames[2].fieldData.TimeValue.values).toEqual([times[1]]);
  });

  it("times must increase; add after close and overlapping adds throw", async () => {
    const g = bed().systems[0];
    const dir = await Deno.makeTempDir();
    const s = new VtkSeriesWriter(`${dir}/x`);
    await s.add(0.1, g);
    await expect(s.add(0.1, g)).rejects.toThrow(/time \(0\.1\) must exceed the previous/);
    await expect(s.add(NaN, g)).rejects.toThrow(/finite/);
    const first = s.add(0.2, g);
    await expect(s.add(0.3, g)).rejects.toThrow(/previous add has not finished/);
    await first;
    await s.close();
    await expect(s.add(0.4, g)).rejects.toThrow(/closed/);
    expect(() => new VtkSeriesWriter(`${dir}/y`, { contact: true } as never)).toThrow(
      /unknown option "contact".*did you mean "contacts"/,
    );
    const pvd = await Deno.readTextFile(`${dir}/x.pvd`);
    expect(pvd.match(/<DataSet /g)?.length).toBe(2);
    expect(pvd).not.toContain("contacts");
    // atomic writes: no temporary file left
    expect([...Deno.readDirSync(dir)].map((e) => e.name).sort()).toEqual(
      ["x.pvd", "x_0.vtp", "x_1.vtp"],
    );
    // an empty series still leaves a valid, empty collection
    const e = new VtkSeriesWriter(`${dir}/empty`);
    await e.close();
    expect(await Deno.readTextFile(`${dir}/empty.pvd`)).toContain("<Collection>\n  </Collection>");
  });
});

describe("VTK bad input and size", () => {
  it("columns of the wrong length, stale contacts, unknown options", () => {
    const g = bed().systems[0];
    expect(() => vtkParticlesBytes({ ...fakeOf(g), radii: new Float64Array(2) })).toThrow(
      /writeVtk: radii \(length 2\) must have length \d+/,
    );
    expect(() => vtkParticlesBytes(g, { precision: "half" as never })).toThrow(
      /precision \("half"\) must be "float64" or "float32"/,
    );
    expect(() => vtkParticlesBytes(g, { tme: 1 } as never)).toThrow(/did you mean "time"/);
    expect(() => vtkContactsBytes({ contacts: g.contacts, positions: g.positions.subarray(0, 30) }))
      .toThrow(/writeVtkContacts: contact \d+ joins grains \d+ and -?\d+, but positions hold 10/);
    expect(() => vtkContactsBytes({ contacts: null as never, positions: g.positions })).toThrow(
      /must be a ContactRecord/,
    );
  });

  vtkIt("a 20,000-grain file: size, write time, and VTK reads it", async () => {
    const world = new World({ timeStep: 1e-4 });
    const g = world.addGranularBox({
      min: [0, 0, 0],
      max: [1.2, 0.8, 2],
      radius: 0.02,
      spacing: 0.043,
      maxParticles: 20_000,
    });
    expect(g.count).toBe(20_000);
    g.setGroundPlane(0);
    world.run(2);
    const dir = await Deno.makeTempDir();
    const t0 = performance.now();
    const b64 = await writeVtk(`${dir}/big.vtp`, g);
    const ms = performance.now() - t0;
    const b32 = await writeVtk(`${dir}/big32.vtp`, g, { precision: "float32" });
    // 11 doubles and 7 bytes of integers per grain, 8 bytes of vertex cells, ~1.5 kB header
    expect(b64).toBeGreaterThan(20_000 * (11 * 8 + 7 + 8));
    expect(b64).toBeLessThan(20_000 * (11 * 8 + 7 + 8) + 3000);
    console.log(
      `20,000 grains: ${b64} bytes (float64), ${b32} bytes (float32), written in ${
        ms.toFixed(0)
      } ms`,
    );
    const [r] = await vtkRead([`${dir}/big.vtp`], 3);
    expect(r.points).toBe(20_000);
    expect(r.verts).toBe(20_000);
    expect(r.pointData.id.tuples).toBe(20_000);
    expect(r.xyz).toEqual([...g.positions.subarray(0, 9)]);
  });
});

/** A plain-object copy of a system's columns. */
function fakeOf(g: World["systems"][number]) {
  return {
    count: g.count,
    positions: g.positions,
    velocities: g.velocities,
    angularVelocities: g.angularVelocities,
    radii: g.radii,
    ids: g.ids,
  };
}
