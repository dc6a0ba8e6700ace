/**
 * The LAMMPS exporter and dump reader without LAMMPS: what the data file and the input script
 * say (the contact law's conversion, boundaries, types, time), the dump parser's checks, the
 * fuzzing of dumps (truncated and byte-mutated files: an error or the same data, never a hang,
 * and a silent change only where the text format cannot show one — a number turned into
 * another valid number), and loading a frame back. The runs against LAMMPS itself are in
 * tests/peer.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { GranularSystem, type Material, World } from "../src/sphere3d/mod.ts";
import {
  exportLammps,
  lammpsDumpFrames,
  type LammpsExport,
  type LammpsFrame,
  loadLammpsFrame,
  parseLammpsDump,
  readLammpsDump,
} from "../src/io/lammps_api.ts";
import { parseLammpsDumpBytes } from "../src/io/lammps_dump.ts";
import { Rng } from "../src/math/rng.ts";

const R = 0.02, RHO = 1600, MASS = RHO * (4 / 3) * Math.PI * R ** 3;

async function exported(world: World, options: Parameters<typeof exportLammps>[2]) {
  const dir = await Deno.makeTempDir({ prefix: "grainlab_io_lammps_" });
  const exp = await exportLammps(dir, world, options);
  const input = await Deno.readTextFile(exp.inputFile);
  const data = await Deno.readTextFile(exp.dataFile);
  await Deno.remove(dir, { recursive: true });
  return { exp, input, data, lines: input.split("\n").filter((l) => !l.startsWith("#")) };
}

/** The numbers after `prefix` on the script line that starts with it. */
function numbersAfter(lines: string[], prefix: string): number[] {
  const l = lines.find((x) => x.startsWith(prefix));
  expect(l).toBeDefined();
  return l!.slice(prefix.length).trim().split(" ").filter((t) => t !== "limit_damping").map(
    Number,
  );
}

/** A bed of equal grains in an open box, ready to export. */
function smallBed(material: Partial<Material> = {}, dt = 1e-4, size = 0.2) {
  const w = new World({ timeStep: dt, gravity: [0, 0, -9.81] });
  const g = w.addGranularBox(
    { min: [0, 0, 0], max: [size, size, 0.1], radius: R, spacing: 0.045 },
    { contactLever: "radius", normalDamping: 10, ...material },
  );
  g.setContainerBox([0, 0, 0], [0.2, 0.2, 0.4]);
  return { w, g };
}

describe("exportLammps: the data file", () => {
  it("holds every grain exactly: id + 1, diameter, density, position, velocity, spin", async () => {
    const { w, g } = smallBed();
    g.setVelocity(3, [0.1, -1 / 3, 2e-17]);
    g.setAngularVelocity(3, [Math.PI, 0, -7]);
    g.removeParticle(0); // ids need not be contiguous
    const { exp, data } = await exported(w, { steps: 10 });
    const lines = data.split("\n");
    const atoms = lines.indexOf("Atoms # sphere"), vels = lines.indexOf("Velocities");
    expect(lines.slice(0, 4)).toContain(`${g.count} atoms`);
    const atomLines = lines.slice(atoms + 2, atoms + 2 + g.count).map((l) => l.split(" "));
    const velLines = lines.slice(vels + 2, vels + 2 + g.count).map((l) => l.split(" "));
    for (let i = 0; i < g.count; i++) {
      const a = atomLines[i].map(Number), v = velLines[i].map(Number);
      expect(a[0]).toBe(g.ids[i] + 1);
      expect(a[1]).toBe(1);
      expect(a[2]).toBe(2 * g.radii[i]);
      expect(a[3]).toBe(RHO);
      expect(a.slice(4)).toEqual([...g.positions.subarray(3 * i, 3 * i + 3)]);
      expect(v[0]).toBe(g.ids[i] + 1);
      expect(v.slice(1, 4)).toEqual([...g.velocities.subarray(3 * i, 3 * i + 3)]);
      expect(v.slice(4)).toEqual([...g.angularVelocities.subarray(3 * i, 3 * i + 3)]);
    }
    expect(atomLines.some((l) => l[0] === "1")).toBe(false); // id 0 was removed
    expect(exp.atoms).toBe(g.count);
    // The box holds the grains and the container.
    const [xlo, xhi] = lines.find((l) => l.endsWith("xlo xhi"))!.split(" ").map(Number);
    expect(xlo).toBeLessThan(0);
    expect(xhi).toBeGreaterThan(0.2);
  });
});

describe("exportLammps: the input script", () => {
  it("converts the damping: absolute cn → γn = cn/m_eff (m/2 between grains, m at walls)", async () => {
    const { w } = smallBed({ normalDamping: 10, tangentialDamping: 2, friction: 0.4 });
    const { exp, lines } = await exported(w, { steps: 100, dumpEvery: 25 });
    expect(exp.exact).toBe(true);
    expect(exp.notes).toEqual([]);
    const pair = numbersAfter(lines, "pair_style gran/hooke/history");
    expect(pair[0]).toBe(1e5);
    expect(pair[1]).toBe(5e4); // tangentialStiffness 0 → kn/2
    expect(pair[2]).toBeCloseTo(10 / (MASS / 2), 9);
    expect(pair[3]).toBeCloseTo(2 / (MASS / 2), 9);
    expect(pair.slice(4)).toEqual([0.4, 1]);
    const walls = lines.filter((l) => l.includes("wall/gran"));
    expect(walls).toHaveLength(3); // floor, x walls, y walls
    const wall = numbersAfter(walls.map((l) => l.replace(/^.*hooke\/history/, "w")), "w");
    expect(wall[2]).toBeCloseTo(10 / MASS, 9);
    expect(walls[0]).toMatch(/limit_damping zplane 0 NULL$/);
    expect(walls[1]).toMatch(/xplane 0 0.2$/);
    expect(lines).toContain("boundary m m m");
    expect(lines).toContain("fix grav mobile gravity 9.81 vector 0 0 -1");
    expect(lines).toContain("timestep 0.0001");
    expect(lines).toContain("run 100");
    expect(exp.timesteps).toEqual([0, 25, 50, 75, 100]);
    expect(lines.some((l) => l.startsWith("write_dump"))).toBe(false);
  });

  it("mass-scaled damping is LAMMPS's γ; no clamp drops limit_damping", async () => {
    const { w } = smallBed({
      dampingMode: "mass-scaled",
      normalDamping: 300,
      tangentialDamping: 20,
      clampNormalForce: false,
    });
    const { exp, lines, input } = await exported(w, { steps: 10 });
    expect(exp.exact).toBe(true);
    expect(numbersAfter(lines, "pair_style gran/hooke/history").slice(2, 4)).toEqual([300, 20]);
    expect(input).not.toContain("limit_damping");
  });

  it("restitution damping: γn = 2ζ√(kn·m_eff)/m_eff per contact kind", async () => {
    const { w } = smallBed({ normalDamping: undefined, restitution: 0.5 });
    const { lines } = await exported(w, { steps: 10 });
    // Clamped linear law: ζ such that the clamped rebound is 0.5.
    const { linearDampingRatio } = await import("../src/contact/mod.ts");
    const z = linearDampingRatio(0.5, { clamped: true });
    const gn = numbersAfter(lines, "pair_style gran/hooke/history")[2];
    expect(gn).toBeCloseTo((2 * z * Math.sqrt(1e5 * MASS / 2)) / (MASS / 2), 9);
  });

  it("substeps, an odd dump interval, periodic axes, fixed grains, mixed friction", async () => {
    const w = new World({ timeStep: 1e-3, gravity: [0, 0, -9.81] });
    const g = w.addGranularParticles(
      {
        positions: [[0.05, 0.05, 0.02], [0.15, 0.05, 0.02], [0.31, 0.05, 0.1], [-0.02, 0.1, 0.1]],
        radii: [0.02, 0.02, 0.015, 0.015],
        fixed: [true, true, false, false],
      },
      { substeps: 4, contactLever: "radius", dampingMode: "mass-scaled", normalDamping: 100 },
    );
    g.setPeriodicBoundary([0, 0, -1], [0.3, 0.2, 1], { x: true, y: true });
    g.setGroundPlane(0);
    g.setParticleMaterial(1, { friction: 0.9 });
    g.setParticleMaterialId(3, 1);
    const { exp, lines, data } = await exported(w, { steps: 10, dumpEvery: 4 });
    expect(exp.timeStep).toBe(2.5e-4);
    expect(exp.steps).toBe(40);
    expect(exp.timesteps).toEqual([0, 16, 32, 40]);
    expect(lines.find((l) => l.startsWith("write_dump"))).toMatch(/modify append yes/);
    expect(lines).toContain("boundary p p m");
    expect(data).toContain("0 0.3 xlo xhi");
    // Wrapped into the periodic cell: 0.31 → 0.01, −0.02 → 0.28.
    const atoms = data.split("\n").filter((l) => /^\d+ \d+ 0\.03 /.test(l)).map((l) =>
      l.split(" ")
    );
    expect(atoms.map((a) => Number(a[4])).sort()).toEqual([0.01 + 0.3 - 0.3, 0.3 - 0.02].sort());
    // Types: mobile material 0, mobile material 1, fixed material 0; mixed friction √(0.5·0.9).
    expect(exp.types.map((t) => [t.materialId, t.fixed])).toEqual([[0, false], [1, false], [
      0,
      true,
    ]]);
    expect(lines).toContain("group fixed type 3");
    expect(lines).toContain("fix frz fixed freeze");
    expect(lines).toContain("neigh_modify exclude type 3 3");
    expect(lines).toContain("fix integ mobile nve/sphere");
    const hybrid = lines.find((l) => l.startsWith("pair_style hybrid"))!;
    expect(hybrid).toContain(` ${Math.sqrt(0.5 * 0.9)} `);
    expect(lines).toContain("pair_coeff 3 3 none");
    // Walls per mobile type (their friction differs), none on the periodic axes.
    expect(lines.filter((l) => l.includes("wall/gran"))).toHaveLength(2);
    expect(lines.some((l) => /[xy]plane/.test(l))).toBe(false);
    expect(exp.exact).toBe(true);
  });

  it("lists every difference from Grainlab's run, and exact: true refuses them", async () => {
    const { w, g } = smallBed({
      contactLever: "overlap-centre",
      rollingFriction: 0.1,
      cohesionStiffness: 100,
      cohesionMaxDistance: 1e-3,
      maxSpeed: 10,
    });
    g.setExternalForce(0, [0, 0, 1]);
    const { exp } = await exported(w, { steps: 10 });
    expect(exp.exact).toBe(false);
    const all = exp.notes.join("\n");
    for (const word of ["contactLever", "rolling", "cohesion", "clamps", "external"]) {
      expect(all).toContain(word);
    }
    await expect(exportLammps(await Deno.makeTempDir(), w, { steps: 10, exact: true })).rejects
      .toThrow(/exactly.*contactLever/);
    // Hertz: the nearest LAMMPS law, with its reference overlap.
    const h = smallBed({ normalContactModel: "hertz", normalStiffness: 1e8 });
    const hx = await exported(h.w, { steps: 10, hertzReferenceOverlap: 1e-4 });
    expect(hx.input).toContain("pair_style gran/hertz/history");
    expect(hx.exp.notes.join()).toMatch(/Hertz.*0.0001 m/);
    // Continuous polydispersity with absolute damping: mean masses per type.
    const p = new World();
    const pg = p.addGranularParticles({ positions: [[0, 0, -5]], radii: 0.01 }, {
      contactLever: "radius",
    });
    pg.removeParticle(0);
    pg.emitBoxRandom({
      min: [0, 0, 0],
      max: [0.2, 0.2, 0.2],
      minRadius: 0.008,
      maxRadius: 0.01,
      spacing: 0.021,
      maxParticles: 50,
      seed: 1,
    });
    const px = await exported(p, { steps: 1 });
    expect(px.exp.notes.join()).toMatch(/50 grain sizes need more atom types than maxTypes \(8\)/);
    expect(px.exp.types).toHaveLength(1);
  });

  it("rejects bad options and scenes LAMMPS cannot hold", async () => {
    const { w, g } = smallBed();
    const dir = await Deno.makeTempDir();
    const bad = (o: unknown) => exportLammps(dir, w, o as { steps: number });
    await expect(bad({ steps: 0 })).rejects.toThrow(/steps \(0\)/);
    await expect(bad({ steps: 10, dumpEvery: 0 })).rejects.toThrow(/dumpEvery/);
    await expect(bad({ steps: 10, system: 1 })).rejects.toThrow(/system/);
    await expect(bad({ steps: 10, dumpevery: 2 })).rejects.toThrow(/dumpEvery/);
    await expect(bad(undefined)).rejects.toThrow(TypeError);
    await expect(bad({ steps: 1e9, dumpEvery: 1 })).rejects.toThrow(/a million frames/);
    g.setPeriodicBoundary([0, 0, 0], [0.2, 0.2, 1], { x: true });
    await expect(bad({ steps: 10 })).rejects.toThrow(/periodic x axis/);
    const still = new World();
    still.addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01, fixed: [true] });
    await expect(exportLammps(dir, still, { steps: 1 })).rejects.toThrow(/every grain .* fixed/);
    const empty = new World();
    empty.addGranularSystem();
    await expect(exportLammps(dir, empty, { steps: 1 })).rejects.toThrow(/no particles/);
    await Deno.remove(dir, { recursive: true });
  });
});

// ---- dumps ------------------------------------------------------------------------------

/** A number as LAMMPS's `%.17g` prints it. */
function g17(x: number): string {
  if (x === 0) return "0";
  const e = Math.floor(Math.log10(Math.abs(x)));
  let s = e < -4 || e >= 17 ? x.toExponential(16) : x.toPrecision(17);
  if (s.includes("e")) {
    let [m, ex] = s.split("e");
    if (m.includes(".")) m = m.replace(/0+$/, "").replace(/\.$/, "");
    const n = Number(ex);
    s = `${m}e${n < 0 ? "-" : "+"}${String(Math.abs(n)).padStart(2, "0")}`;
  } else if (s.includes(".")) s = s.replace(/0+$/, "").replace(/\.$/, "");
  return s;
}

/** A dump of `system` as LAMMPS writes it for an export (the same columns and layout). */
function dumpText(frames: { step: number; g: GranularSystem }[]): string {
  const out: string[] = [];
  for (const { step, g } of frames) {
    out.push(
      "ITEM: TIMESTEP",
      String(step),
      "ITEM: NUMBER OF ATOMS",
      String(g.count),
      "ITEM: BOX BOUNDS ff ff mm",
      "-5.0000000000000003e-02 2.5000000000000000e-01",
      "-5.0000000000000003e-02 2.5000000000000000e-01",
      "-2.0000000000000000e-02 4.2000000000000000e-01",
      "ITEM: ATOMS id type radius mass x y z vx vy vz omegax omegay omegaz",
    );
    const order = [...g.ids].map((id, i) => [id, i]).sort((a, b) => a[0] - b[0]);
    for (const [id, i] of order) {
      const p = g.positions, v = g.velocities, w = g.angularVelocities, o = 3 * i;
      out.push(
        [
          String(id + 1),
          "1",
          g17(g.radii[i]),
          g17(g.masses[i]),
          ...[p[o], p[o + 1], p[o + 2], v[o], v[o + 1], v[o + 2], w[o], w[o + 1], w[o + 2]].map(
            g17,
          ),
        ].join(" "),
      );
    }
  }
  return out.join("\n") + "\n";
}

/** A small settling bed and a three-frame dump of it, with the matching expectation. */
function fixture() {
  const { w, g } = smallBed({}, 1e-4, 0.1);
  expect(g.count).toBe(8);
  g.setAngularVelocity(2, [1e-7, -3, 12.5]);
  const snapshots: string[] = [];
  for (const step of [0, 100, 200]) {
    if (step > 0) w.run(100);
    snapshots.push(dumpText([{ step, g }]));
  }
  const text = snapshots.join("");
  const expectation = {
    timesteps: [0, 100, 200],
    atoms: g.count,
    timeStep: 1e-4,
    boundary: ["f", "f", "m"],
    columns: [
      "id",
      "type",
      "radius",
      "mass",
      "x",
      "y",
      "z",
      "vx",
      "vy",
      "vz",
      "omegax",
      "omegay",
      "omegaz",
    ],
  };
  return { w, g, text, expectation };
}

function sameFrames(a: LammpsFrame[], b: LammpsFrame[]): boolean {
  if (a.length !== b.length) return false;
  return a.every((f, k) => {
    const h = b[k];
    if (f.timestep !== h.timestep || f.count !== h.count) return false;
    if (f.names.join() !== h.names.join() || f.box.flags.join() !== h.box.flags.join()) {
      return false;
    }
    if (![...f.box.lo, ...f.box.hi].every((x, i) => Object.is(x, [...h.box.lo, ...h.box.hi][i]))) {
      return false;
    }
    return f.names.every((c) =>
      f.columns.get(c)!.every((x, i) => Object.is(x, h.columns.get(c)![i]))
    );
  });
}

describe("parseLammpsDump", () => {
  it("reads every value back exactly, with the frames' timesteps, boxes and columns", () => {
    const { g, text, expectation } = fixture();
    const frames = parseLammpsDump(text, { expect: expectation });
    expect(frames.map((f) => f.timestep)).toEqual([0, 100, 200]);
    const last = frames[2];
    expect(last.box.flags).toEqual(["ff", "ff", "mm"]);
    expect(last.box.lo[2]).toBe(-0.02);
    for (let i = 0; i < g.count; i++) {
      const k = last.columns.get("id")!.indexOf(g.ids[i] + 1);
      expect(last.columns.get("z")![k]).toBe(g.positions[3 * i + 2]);
      expect(last.columns.get("omegaz")![k]).toBe(g.angularVelocities[3 * i + 2]);
      expect(last.columns.get("mass")![k]).toBe(g.masses[i]);
    }
  });

  it("names what is wrong", () => {
    const { text, expectation } = fixture();
    const err = (t: string, o = {}) => () => parseLammpsDump(t, o);
    expect(err("")).toThrow(/empty/);
    expect(err(text.slice(0, -1))).toThrow(/newline/);
    expect(err(text.replace("ITEM: TIMESTEP\n100", "ITEM: TIMESTEP\n300"))).toThrow(
      /timestep 200 does not follow 300/,
    );
    expect(err(text.replace("NUMBER OF ATOMS\n8", "NUMBER OF ATOMS\n7"))).toThrow(
      /more atom lines than the 7/,
    );
    expect(err(text.replace("NUMBER OF ATOMS\n8", "NUMBER OF ATOMS\n9"))).toThrow(
      /9 atoms announced, 8 found/,
    );
    expect(err(text.replace(" vx vy", " vx vx"))).toThrow(/"vx" appears twice/);
    expect(err(text.replace("\n3 1 0.02 ", "\n3 1 nan "))).toThrow(/not a number/);
    expect(err(text.replace("\n3 1 0.02 ", "\n3 1 1e999 "))).toThrow(/not finite/);
    expect(err(text.replace("\n3 1 0.02 ", "\n3 1  0.02 "))).toThrow(/14 values for 13 columns/);
    expect(err(text.replace("\n3 1 0.02 ", "\n2 1 0.02 "))).toThrow(/atom id 2 appears twice/);
    expect(err(text, { expect: { ...expectation, timesteps: [0, 100, 200, 300] } })).toThrow(
      /cut short/,
    );
    expect(err(text, { expect: { ...expectation, atoms: 9 } })).toThrow(/8 atoms, expected 9/);
    expect(err(text.replace("ITEM: BOX BOUNDS ff ff mm", "ITEM: BOX BOUNDS ff ff"))).toThrow(
      /BOX BOUNDS/,
    );
    expect(err(text, { sameatoms: false })).toThrow(/sameAtoms/);
    // A count the file cannot hold is refused before anything is allocated.
    expect(err(text.replace("NUMBER OF ATOMS\n8", "NUMBER OF ATOMS\n9000000000000"))).toThrow(
      /holds at most \d+ \(file cut short\?\)/,
    );
  });

  it("lammpsDumpFrames streams the same frames (or refuses the same files) in chunks of any size", async () => {
    const { text, expectation } = fixture();
    const bytes = new TextEncoder().encode(text);
    const dir = await Deno.makeTempDir();
    const path = `${dir}/dump.txt`;
    const rng = new Rng(7);
    const outcome = async (b: Uint8Array, chunkBytes: number) => {
      await Deno.writeFile(path, b);
      const frames: LammpsFrame[] = [];
      try {
        for await (const f of lammpsDumpFrames(path, { expect: expectation, chunkBytes })) {
          frames.push(f);
        }
        return { frames };
      } catch (e) {
        return { error: (e as Error).message.replace(/^.*?: .*?: /, ""), frames };
      }
    };
    const direct = (b: Uint8Array) => {
      try {
        return { frames: parseLammpsDumpBytes(b, { expect: expectation }) };
      } catch (e) {
        return { error: (e as Error).message.replace(/^.*?: .*?: /, "") };
      }
    };
    for (let trial = 0; trial < 60; trial++) {
      let b = bytes;
      if (trial % 3 === 1) b = bytes.subarray(0, Math.floor(rng.next() * bytes.length));
      if (trial % 3 === 2) {
        b = bytes.slice();
        b[Math.floor(rng.next() * b.length)] = "0123456789 .e-x\n".charCodeAt(trial % 17);
      }
      const chunk = 1 + Math.floor(rng.next() * 300);
      const [a, d] = [await outcome(b, chunk), direct(b)];
      // Both read it, to the same frames, or both refuse it (perhaps naming another fault
      // first: the stream meets the damage in file order).
      expect(a.error === undefined).toBe(d.error === undefined);
      if (d.error === undefined) expect(sameFrames(a.frames, d.frames!)).toBe(true);
      const original = direct(bytes).frames!;
      if (trial % 3 === 1) {
        expect(sameFrames(a.frames, original.slice(0, a.frames.length))).toBe(true);
      }
    }
    await Deno.remove(dir, { recursive: true });
  });
});

describe("LAMMPS dump fuzzing: an error or the same data, never a hang", () => {
  const { text, expectation } = fixture();
  const bytes = new TextEncoder().encode(text);
  const original = parseLammpsDumpBytes(bytes, { expect: expectation });

  it("every truncation is an error (with the export's expectation) or a prefix of whole frames", () => {
    // Every cut at, just before and just after a line end, and every 5th byte.
    const cuts = new Set<number>();
    for (let i = 0; i < bytes.length; i++) {
      if (bytes[i] === 10) [i - 1, i, i + 1].forEach((c) => c < bytes.length && cuts.add(c));
      if (i % 5 === 0) cuts.add(i);
    }
    let errors = 0, prefixes = 0;
    for (const cut of cuts) {
      const part = bytes.subarray(0, cut);
      expect(() => parseLammpsDumpBytes(part, { expect: expectation })).toThrow(RangeError);
      let frames: LammpsFrame[];
      try {
        frames = parseLammpsDumpBytes(part);
      } catch {
        errors++;
        continue;
      }
      // Without the expectation a file cut between frames reads as its first frames.
      prefixes++;
      expect(sameFrames(frames, original.slice(0, frames.length))).toBe(true);
      expect(frames.length).toBeLessThan(original.length);
    }
    expect(prefixes).toBe(2); // the two frame boundaries
    expect(errors).toBe(cuts.size - 2);
  });

  it("a mutated byte is an error, or a number that became another valid number", () => {
    const rng = new Rng(20261202);
    const counts = { error: 0, same: 0, number: 0 };
    const isNumberChar = (b: number) =>
      (b >= 48 && b <= 57) || b === 43 || b === 45 || b === 46 ||
      b === 101 || b === 69;
    for (let trial = 0; trial < 3000; trial++) {
      const pos = Math.floor(rng.next() * bytes.length);
      // Half the mutations put a character that can occur in a number; half any byte.
      const pool = "0123456789+-.eE";
      let b = trial % 2 === 0
        ? pool.charCodeAt(Math.floor(rng.next() * pool.length))
        : Math.floor(rng.next() * 256);
      if (b === bytes[pos]) b = b === 48 ? 49 : 48;
      const mutated = bytes.slice();
      mutated[pos] = b;
      const t0 = performance.now();
      let frames: LammpsFrame[] | null = null;
      try {
        frames = parseLammpsDumpBytes(mutated, { expect: expectation });
      } catch (e) {
        expect(e).toBeInstanceOf(RangeError);
        counts.error++;
      }
      expect(performance.now() - t0).toBeLessThan(1000); // never a hang
      if (frames === null) continue;
      if (sameFrames(frames, original)) {
        counts.same++;
        continue;
      }
      // A silent change: only inside one number, which stayed a valid number, and only that
      // one value changed.
      counts.number++;
      expect(isNumberChar(bytes[pos])).toBe(true);
      expect(isNumberChar(b)).toBe(true);
      let changed = 0;
      frames.forEach((f, k) => {
        const o = original[k];
        f.names.forEach((c) =>
          f.columns.get(c)!.forEach((
            x,
            i,
          ) => (changed += Object.is(x, o.columns.get(c)![i]) ? 0 : 1))
        );
        [...f.box.lo, ...f.box.hi].forEach((x, i) =>
          changed += Object.is(x, [...o.box.lo, ...o.box.hi][i]) ? 0 : 1
        );
      });
      expect(changed).toBe(1);
    }
    console.log(
      `3000 byte mutations: ${counts.error} errors, ${counts.same} same data, ` +
        `${counts.number} numbers changed into other valid numbers (undetectable in text)`,
    );
    expect(counts.error).toBeGreaterThan(1000);
    expect(counts.number).toBeGreaterThan(100); // the limit of the format, stated in the docs
  });
});

describe("reading a dump back into Grainlab", () => {
  it("readLammpsDump returns Arrow tables a system can be rebuilt from", async () => {
    const { g, text, expectation } = fixture();
    const path = `${await Deno.makeTempDir()}/dump.txt`;
    await Deno.writeTextFile(path, text);
    const exp: Partial<LammpsExport> = {
      ...expectation,
      startTime: 1,
      types: [{ type: 1, materialId: 3, fixed: false, radius: R, count: g.count }],
      material: g.material,
    };
    const dump = await readLammpsDump(path, { expect: exp });
    const t = dump.tables[2];
    expect(t.numRows).toBe(g.count);
    expect(t.schema.metadata.get("grainlab.simulator")).toBe("lammps");
    expect(Number(t.schema.metadata.get("grainlab.time"))).toBeCloseTo(1.02, 12);
    expect([...t.getChild("materialId")!]).toEqual(new Array(g.count).fill(3));
    const ids = [...t.getChild("id")!];
    expect(ids).toEqual([...g.ids].sort((a, b) => a - b));
    const k = ids.indexOf(g.ids[5]);
    expect(t.getChild("vz")!.get(k)).toBe(g.velocities[17]);
    // A new system from the table (GranularSystem.fromTable) holds the same grains.
    if (typeof (GranularSystem as { fromTable?: unknown }).fromTable === "function") {
      const copy = GranularSystem.fromTable(new World(), t);
      expect(copy.count).toBe(g.count);
      expect(copy.material.contactLever).toBe("radius");
      expect(copy.getPosition(copy.indexOfId(g.ids[5]))).toEqual(g.getPosition(5));
    }
    await Deno.remove(path);
  });

  it("loadLammpsFrame sets the state by stable id, all or nothing, and clears the springs", () => {
    const { w, g, text } = fixture();
    const frames = parseLammpsDump(text);
    const target = frames[1];
    const before = g.positions.slice();
    // A frame of another system changes nothing.
    const other = parseLammpsDump(text.replaceAll("\n8 1 0.02", "\n9 1 0.02"), {
      sameAtoms: false,
    });
    expect(() => loadLammpsFrame(g, other[1])).toThrow(/atom 9 \(Grainlab id 8\)/);
    const bigger = parseLammpsDump(text.replaceAll("\n8 1 0.02 ", "\n8 1 0.021 "));
    expect(() => loadLammpsFrame(g, bigger[1])).toThrow(/radius 0.021/);
    expect(g.positions).toEqual(before);
    w.run(5);
    expect(g.contactHistories().owner.length).toBeGreaterThan(0);
    loadLammpsFrame(g, target);
    expect(g.contactHistories().owner).toHaveLength(0);
    for (let i = 0; i < target.count; i++) {
      const s = g.indexOfId(target.columns.get("id")![i] - 1);
      expect(g.positions[3 * s]).toBe(target.columns.get("x")![i]);
      expect(g.velocities[3 * s + 2]).toBe(target.columns.get("vz")![i]);
      expect(g.angularVelocities[3 * s + 1]).toBe(target.columns.get("omegay")![i]);
    }
    // The run goes on from the loaded state.
    w.run(10);
    expect(g.lastStepStats.boundaryContacts).toBeGreaterThan(0);
  });
});
