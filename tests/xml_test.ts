/**
 * World XML (src/sphere3d/xml.ts): byte-identical round trips, exact numbers, bit-exact
 * continuation of fresh scenes, the contact-history caveat, errors that name the element,
 * the attribute and the line, and fuzzing by truncation and byte mutation.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import type { GranularSystem } from "../src/sphere3d/mod.ts";
import { worldToXml } from "../src/sphere3d/xml.ts";
import { readWorldXml, readWorldXmlFile } from "../src/sphere3d/xml_read.ts";

// the readers with World's constructor, as World.fromXml passes it
const importWorldXml = (path: string) => readWorldXmlFile(path, (o) => new World(o));
const worldFromXml = (input: string | Uint8Array, source = "<string>") =>
  readWorldXml(input, source, (o) => new World(o));
import { Rng } from "../src/math/rng.ts";

/** A world that uses every setting the XML carries. */
function richWorld(): World {
  const world = new World({ timeStep: 2e-4, gravity: [0.5, -0, -9.81] });
  const a = world.addGranularBox(
    { min: [-0.1, -0.1, 0.02], max: [0.1, 0.1, 0.2], radius: 0.02, spacing: 0.045 },
    {
      density: 2500,
      normalStiffness: 2e4,
      normalDamping: 3,
      friction: 0.6,
      rollingFriction: 0.02,
      cohesionStiffness: 500,
      cohesionMaxDistance: 0.002,
      substeps: 2,
      maxSpeed: 20,
    },
  );
  a.name = 'sand "A" <&> \t\n end';
  a.setGroundPlane(0);
  a.setContainerBox([-0.15, -0.15, 0], [0.15, 0.15, 0.5]);
  a.setParticleMaterial(2, { friction: 0.3, rollingFriction: 0.05 });
  a.setParticleMaterialId(3, 2);
  a.setBoundaryMaterial({ friction: 0.9, rollingFriction: 0.01 });
  a.setParticleFixed(0, true);
  a.setExternalForce(5, [0.01, -0, 0]);
  a.setExternalTorque(6, [0, 1e-5, 0]);
  a.setAngularVelocity(7, [3, -2, 1e-300]);
  a.neighborSkin = 0.003;
  const b = world.addGranularParticles(
    {
      positions: [[0.1, 0.1, 0.1], [0.15, 0.1, 0.1], [0.3, 0.7, 0.2]],
      radii: [0.02, 0.025, 0.03],
      velocities: [[1, 0, 0], [-1, 0, 0], [-6, 0, 0]],
    },
    {
      normalContactModel: "hertz",
      normalStiffness: 1e7,
      restitution: 0.5,
      dampingMode: "absolute",
    },
  );
  b.setPeriodicBoundary([-0.1, 0, -1], [0.6, 1, 1], { x: true, y: true });
  return world;
}

function bitsEqual(a: Float64Array, b: Float64Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i])) return false;
  return true;
}

/** Every column and the last contacts of two systems, bit for bit. */
function expectSameState(a: GranularSystem, b: GranularSystem): void {
  expect(b.count).toBe(a.count);
  expect(bitsEqual(a.positions, b.positions)).toBe(true);
  expect(bitsEqual(a.velocities, b.velocities)).toBe(true);
  expect(bitsEqual(a.angularVelocities, b.angularVelocities)).toBe(true);
  expect(bitsEqual(a.forces, b.forces)).toBe(true);
  expect(b.contacts.count).toBe(a.contacts.count);
  expect(bitsEqual(a.contacts.normalForce, b.contacts.normalForce)).toBe(true);
  expect(bitsEqual(a.contacts.tangentialForce, b.contacts.tangentialForce)).toBe(true);
  expect({ ...b.lastStepStats }).toEqual({ ...a.lastStepStats });
}

async function rejects(text: string | Uint8Array): Promise<Error> {
  try {
    await worldFromXml(text, "t.xml");
  } catch (e) {
    return e as Error;
  }
  throw new Error("the import did not fail");
}

/** The document without its checksum attribute (as a hand-edited file would be). */
function unsealed(xml: string): string {
  return xml.replace(/ checksum="[0-9a-f]{8}"/, "");
}

const SMALL = (() => {
  const w = new World({ timeStep: 1e-3 });
  const s = w.addGranularParticles({
    positions: [[0, 0, 0.05], [0.01, 0, 0.1]],
    radii: [0.02, 0.015],
    velocities: [[0, 0, -1], [0.5, 0, 0]],
  });
  s.setGroundPlane(0);
  return worldToXml(w);
})();

describe("World XML round trip", () => {
  it("export → import → export is byte-identical, in memory and through files", async () => {
    const world = richWorld();
    const xml = worldToXml(world);
    // every setting is in the text, numbers exactly as given
    for (
      const s of [
        'name="sand &quot;A&quot; &lt;&amp;&gt; &#9;&#10; end"',
        'neighborSkin="0.003"',
        'neighborSkin="auto"',
        '<particleMaterial id="2" friction="0.3" rollingFriction="0.05"/>',
        '<boundaryMaterial friction="0.9" rollingFriction="0.01"/>',
        '<groundPlane height="0"/>',
        '<containerBox min="-0.15 -0.15 0" max="0.15 0.15 0.5"/>',
        '<periodicBoundary min="-0.1 0 -1" length="0.7 1 0"/>',
        'gravity value="0.5 -0 -9.81"',
        'normalContactModel="hertz"',
        'restitution="0.5"',
        'restitution="null"',
        'angularVelocity="3 -2 1e-300"',
        'externalForce="0.01 -0 0"',
        'externalTorque="0 0.00001 0"',
        'fixed="true"',
      ]
    ) expect(xml).toContain(s);
    const back = await worldFromXml(xml);
    expect(worldToXml(back)).toBe(xml);
    expect(back.timeStep).toBe(2e-4);
    expect(Object.is(back.gravity[1], -0)).toBe(true);
    const [a, b] = back.systems;
    expect(a.name).toBe('sand "A" <&> \t\n end');
    expect(a.getParticleMaterial(2)).toEqual({ friction: 0.3, rollingFriction: 0.05 });
    expect(a.materialIds[3]).toBe(2);
    expect(a.fixed[0]).toBe(1);
    expect(a.neighborSkin).toBe(0.003);
    expect(b.material.restitution).toBe(0.5);
    expect(b.periodicBoundary).toEqual({
      min: [-0.1, 0, -1],
      max: [-0.1 + 0.7, 1, -1],
      x: true,
      y: true,
      z: false,
    });
    expect(b.neighborSkin).toBe(0.1 * 0.03); // "auto" stays auto

    const dir = await Deno.makeTempDir();
    await world.exportToXml(`${dir}/a.xml`);
    await (await World.fromXml(`${dir}/a.xml`)).exportToXml(`${dir}/b.xml`);
    const fa = await Deno.readFile(`${dir}/a.xml`), fb = await Deno.readFile(`${dir}/b.xml`);
    expect(fb).toEqual(fa);
    expect(new TextDecoder().decode(fa)).toBe(xml);
    // written atomically: no temporary file left behind
    expect([...Deno.readDirSync(dir)].map((e) => e.name).sort()).toEqual(["a.xml", "b.xml"]);
  });

  it("numbers survive exactly: -0, subnormals, extremes, exponents, random bit patterns", async () => {
    const rng = new Rng(7);
    const special = [-0, 5e-324, -2.2250738585072014e-308, 1.7976931348623157e308, 1e21, 1e-7];
    const bits = new BigUint64Array(300);
    const raw = new Float64Array(bits.buffer);
    for (let i = 0; i < bits.length; i++) {
      do {
        bits[i] = (BigInt(Math.floor(rng.next() * 2 ** 32)) << 32n) |
          BigInt(Math.floor(rng.next() * 2 ** 32));
      } while (!Number.isFinite(raw[i]));
    }
    const vel = new Float64Array([...special, ...raw]);
    const n = vel.length / 3;
    const pos = new Float64Array(3 * n).map((_, k) => 0.1 * k + 1 / 3);
    const world = new World();
    world.addGranularParticles({ positions: pos, radii: 0.01, velocities: vel });
    const xml = worldToXml(world);
    expect(xml).toContain('velocity="-0 5e-324 -2.2250738585072014e-308"');
    expect(xml).toContain('velocity="1.7976931348623157e+308 1e+21 1e-7"');
    const back = await worldFromXml(xml);
    expect(bitsEqual(back.systems[0].velocities, vel)).toBe(true);
    expect(bitsEqual(back.systems[0].positions, pos)).toBe(true);
    expect(worldToXml(back)).toBe(xml);
  });

  it("an empty world and an empty system round-trip", async () => {
    const w = new World({ timeStep: 0.5 });
    expect(worldToXml(await worldFromXml(worldToXml(w)))).toBe(worldToXml(w));
    w.addGranularSystem({ friction: 0.2 });
    const xml = worldToXml(w);
    expect(xml).toContain('<particles count="0">');
    const back = await worldFromXml(xml);
    expect(back.systems[0].count).toBe(0);
    expect(worldToXml(back)).toBe(xml);
  });
});

describe("World XML continuation", () => {
  it("a fresh scene exported before its first step continues to the bit", async () => {
    const world = richWorld();
    const copy = await worldFromXml(worldToXml(world));
    for (let k = 0; k < 400; k++) {
      world.step();
      copy.step();
    }
    const [a, b] = world.systems, [a2, b2] = copy.systems;
    // the scene really did something: grains touch each other and the boundaries
    expect(a.lastStepStats.particleContacts).toBeGreaterThan(10);
    expect(a.lastStepStats.boundaryContacts).toBeGreaterThan(5);
    expect(a.contactHistories().owner.length).toBeGreaterThan(10);
    expect(b.positions[6]).toBeGreaterThan(0.4); // crossed x = -0.1 and wrapped to the far side
    expectSameState(a, a2);
    expectSameState(b, b2);
    expect(worldToXml(copy)).toBe(worldToXml(world));
  });

  it("contact histories are not in the file: after contacts formed they are lost", async () => {
    const world = richWorld();
    world.run(500);
    const a = world.systems[0];
    const before = a.contactHistories().owner.length;
    expect(before).toBeGreaterThan(10);
    const copy = await worldFromXml(worldToXml(world));
    const a2 = copy.systems[0];
    expect(a2.contactHistories().owner.length).toBe(0); // the documented caveat
    expect(bitsEqual(a2.positions, a.positions)).toBe(true); // the state itself is exact
    expect(copy.time).toBe(0); // the clock is not in the file either
  });
});

describe("World XML errors", () => {
  const base = unsealed(SMALL);
  const cases: [string, string, RegExp, ErrorConstructor][] = [
    [
      "malformed XML (line and column from the validator)",
      base.replace('<groundPlane height="0"/>', '<groundPlane height="0">'),
      /World\.fromXml: t\.xml:\d+:\d+: malformed XML: Expected closing tag 'groundPlane'/,
      SyntaxError,
    ],
    [
      "a missing attribute",
      base.replace(' radius="0.015"', ""),
      /t\.xml:13:9: <particle> attribute radius is missing/,
      TypeError,
    ],
    [
      "a non-number",
      base.replace('radius="0.015"', 'radius="abc"'),
      /t\.xml:13:\d+: <particle> attribute radius \("abc"\) must be a number/,
      TypeError,
    ],
    [
      "a negative radius",
      base.replace('radius="0.015"', 'radius="-0.015"'),
      /t\.xml:13:\d+: <particle> attribute radius \(-0\.015\) must be > 0/,
      RangeError,
    ],
    [
      "an unknown element",
      base.replace('<groundPlane height="0"/>', '<groundPlain height="0"/>'),
      /t\.xml:10:7: <groundPlain> is not allowed inside <granular>; did you mean <groundPlane>\?/,
      TypeError,
    ],
    [
      "an unknown attribute",
      base.replace('<groundPlane height="0"/>', '<groundPlane height="0" hieght="1"/>'),
      /t\.xml:10:\d+: <groundPlane> attribute hieght is not known; did you mean height\?/,
      TypeError,
    ],
    [
      "a rigid body (not supported yet)",
      base.replace("  </objects>", '    <box size="1 1 1"/>\n  </objects>'),
      /<box> is not a known object \(known: granular; rigid bodies are not supported yet\)/,
      TypeError,
    ],
    [
      "a particle count that does not match",
      base.replace('count="2"', 'count="3"'),
      /t\.xml:11:\d+: <particles> attribute count \(3\) does not match the 2 <particle>/,
      RangeError,
    ],
    [
      "a repeated particle material",
      base.replace(
        '<particleMaterial id="0" friction="0.5" rollingFriction="0"/>',
        '<particleMaterial id="0" friction="0.5" rollingFriction="0"/>' +
          '<particleMaterial id="0" friction="0.1" rollingFriction="0"/>',
      ),
      /<particleMaterial> attribute id \(0\) repeats the material of line 8/,
      RangeError,
    ],
    [
      "a wrong version",
      base.replace('version="1"', 'version="2"'),
      /<grainlab> attribute version \(2\) is not supported/,
      RangeError,
    ],
    [
      "a material value out of range (checked by resolveMaterial)",
      base.replace('restitution="null"', 'restitution="1.5"'),
      /t\.xml:7:\d+: <material> attribute restitution \(1\.5\) must be in \(0, 1\]/,
      RangeError,
    ],
    [
      "a wrong enumeration value",
      base.replace('normalContactModel="linear"', 'normalContactModel="hooke"'),
      /<material> attribute normalContactModel .*"linear" or "hertz"/,
      RangeError,
    ],
    [
      "a vector of two numbers",
      base.replace('<gravity value="0 0 -9.81"/>', '<gravity value="0 -9.81"/>'),
      /t\.xml:4:\d+: <gravity> attribute value \("0 -9\.81"\) must be three numbers/,
      TypeError,
    ],
    [
      "a non-finite number",
      base.replace('<timeStep value="0.001"/>', '<timeStep value="1e999"/>'),
      /<timeStep> attribute value \(1e999\) must be finite/,
      RangeError,
    ],
    [
      "a fixed particle with a velocity",
      base.replace('fixed="false"', 'fixed="true"'),
      /<particle> attribute velocity \(0 0 -1\) must be 0 0 0 for a fixed particle/,
      RangeError,
    ],
    [
      "a container with min above max",
      base.replace(
        '<groundPlane height="0"/>',
        '<containerBox min="0 0 0" max="1 -1 1"/>',
      ),
      /<containerBox> attribute max \(1 -1 1\) must exceed min/,
      RangeError,
    ],
    [
      "a periodic cell with a negative length",
      base.replace(
        '<groundPlane height="0"/>',
        '<periodicBoundary min="0 0 0" length="1 -1 0"/>',
      ),
      /<periodicBoundary> attribute length \(1 -1 0\) must be >= 0/,
      RangeError,
    ],
    [
      "text where elements belong",
      base.replace("<objects>", "<objects>junk"),
      /<objects> holds the text "junk"/,
      TypeError,
    ],
    [
      "a second root element",
      base + "<grainlab/>\n",
      /the document must hold one <grainlab> element/,
      TypeError,
    ],
    [
      "a DOCTYPE (entity expansion)",
      base.replace("<grainlab", '<!DOCTYPE g [<!ENTITY x "y">]>\n<grainlab'),
      /t\.xml:2:1: a DOCTYPE is not allowed/,
      SyntaxError,
    ],
    [
      "a bad entity in a name",
      base.replace('name="granular"', 'name="a &bogus; b"'),
      /<granular> attribute name holds "&bogus;", not a valid reference/,
      TypeError,
    ],
    [
      "a missing required element",
      base.replace(/ *<boundaryMaterial[^>]*>\n/, ""),
      /t\.xml:6:5: <granular> must contain <boundaryMaterial>/,
      TypeError,
    ],
  ];
  for (const [what, text, re, kind] of cases) {
    it(what, async () => {
      expect(text).not.toBe(base); // the edit applied
      const e = await rejects(text);
      expect(e).toBeInstanceOf(kind);
      expect(e.message).toMatch(re);
    });
  }

  it("the lines reported are the lines of the element", async () => {
    const lines = base.split("\n");
    const k = lines.findIndex((l) => l.includes('radius="0.015"'));
    expect(k + 1).toBe(13);
    expect(lines[k].indexOf("<particle")).toBe(8); // column 9
    const col = lines[k].indexOf("radius") + 1;
    const e = await rejects(base.replace('radius="0.015"', 'radius="-1"'));
    expect(e.message).toContain(`t.xml:13:${col}: <particle> attribute radius`);
  });

  it("a changed byte breaks the checksum; the file without it loads", async () => {
    const changed = SMALL.replace('radius="0.015"', 'radius="0.016"');
    const e = await rejects(changed);
    expect(e).toBeInstanceOf(RangeError);
    expect(e.message).toMatch(
      /t\.xml:2:\d+: <grainlab> attribute checksum \([0-9a-f]{8}\) does not match/,
    );
    const w = await worldFromXml(unsealed(changed));
    expect(w.systems[0].radii[1]).toBe(0.016);
  });

  it("bytes that are not UTF-8 are rejected", async () => {
    const bytes = new TextEncoder().encode(SMALL);
    bytes[60] = 0xff;
    const e = await rejects(bytes);
    expect(e).toBeInstanceOf(SyntaxError);
    expect(e.message).toMatch(/not valid UTF-8/);
  });

  it("a failed import creates nothing and leaves the file alone; a diverged world is not written", async () => {
    const dir = await Deno.makeTempDir();
    const path = `${dir}/bad.xml`;
    const text = unsealed(SMALL).replace('radius="0.015"', 'radius="0"');
    await Deno.writeTextFile(path, text);
    await expect(World.fromXml(path)).rejects.toThrow(
      /bad\.xml:13:\d+: <particle> attribute radius \(0\) must be > 0/,
    );
    expect(await Deno.readTextFile(path)).toBe(text);
    await expect(importWorldXml(`${dir}/missing.xml`)).rejects.toThrow(Deno.errors.NotFound);
    const w = new World();
    w.addGranularParticles({ positions: [[0, 0, 0]], radii: 0.01 });
    await w.exportToXml(`${dir}/ok.xml`);
    w.systems[0].positions[0] = NaN;
    await expect(w.exportToXml(`${dir}/ok.xml`)).rejects.toThrow(
      /systems\[0\]\.particles\[0\] \(NaN\) is not finite/,
    );
    expect(await Deno.readTextFile(`${dir}/ok.xml`)).toContain('position="0 0 0"'); // old file kept
    expect([...Deno.readDirSync(dir)].map((e) => e.name).sort()).toEqual(["bad.xml", "ok.xml"]);
  });

  it("a name XML 1.0 cannot carry is refused on export", () => {
    const w = new World();
    w.addGranularSystem().name = "bell \u0007";
    expect(() => worldToXml(w)).toThrow(/systems\[0\]\.name holds U\+0007/);
    w.systems[0].name = "half \ud800";
    expect(() => worldToXml(w)).toThrow(/systems\[0\]\.name must be a well-formed string/);
  });

  it("importing sphere3d loads neither fast-xml-parser nor Rapier (dynamic edges only)", async () => {
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "src/sphere3d/mod.ts"],
      stdout: "piped",
      stderr: "piped",
    }).output();
    expect(out.success).toBe(true);
    const info = JSON.parse(new TextDecoder().decode(out.stdout));
    const graph = new Map<string, { specifier: string; dynamic: boolean }[]>();
    for (const m of info.modules) {
      graph.set(
        m.specifier,
        (m.dependencies ?? []).map((d: Record<string, Record<string, unknown> | boolean>) => ({
          specifier: String((d.code as Record<string, unknown> | undefined)?.specifier ?? ""),
          dynamic: d.isDynamic === true,
        })),
      );
    }
    const reach = (withDynamic: boolean) => {
      const seen = new Set<string>(info.roots), stack = [...info.roots];
      while (stack.length) {
        for (const d of graph.get(stack.pop()!) ?? []) {
          if ((withDynamic || !d.dynamic) && !seen.has(d.specifier)) {
            seen.add(d.specifier);
            stack.push(d.specifier);
          }
        }
      }
      return [...seen].some((s) => s.includes("fast-xml-parser"));
    };
    expect(reach(true)).toBe(true); // the parser is in the graph …
    expect(reach(false)).toBe(false); // … behind dynamic imports only
    // the same for the rigid-body engine: a world of grains alone never loads Rapier
    const rapier = (withDynamic: boolean) => {
      const seen = new Set<string>(info.roots), stack = [...info.roots];
      while (stack.length) {
        for (const d of graph.get(stack.pop()!) ?? []) {
          if ((withDynamic || !d.dynamic) && !seen.has(d.specifier)) {
            seen.add(d.specifier);
            stack.push(d.specifier);
          }
        }
      }
      return [...seen].some((s) => s.includes("rapier3d"));
    };
    expect(rapier(true)).toBe(true);
    expect(rapier(false)).toBe(false);
  });
});

describe("World XML fuzz", () => {
  const original = new TextEncoder().encode(SMALL);

  /** Import `bytes`: "error" (one of the reader's own errors) or "same" or the new text. */
  async function outcome(bytes: Uint8Array): Promise<string> {
    let w: World;
    try {
      w = await worldFromXml(bytes, "f.xml");
    } catch (e) {
      // every failure is a reader's message, never a crash from deep inside
      if (!(e instanceof Error) || !e.message.startsWith("World.fromXml: f.xml")) throw e;
      return "error";
    }
    const again = worldToXml(w);
    return again === SMALL ? "same" : again;
  }

  function mutants(src: Uint8Array): Uint8Array[] {
    const rng = new Rng(2024);
    const out: Uint8Array[] = [];
    for (let i = 0; i < src.length; i++) {
      for (const v of [src[i] ^ (1 << (i % 8)), Math.floor(rng.next() * 256)]) {
        if (v === src[i]) continue;
        const m = src.slice();
        m[i] = v;
        out.push(m);
      }
    }
    return out;
  }

  it("with the checksum: every truncation and every mutated byte is an error", async () => {
    const t0 = performance.now();
    let slowest = 0, errors = 0, same = 0, n = 0;
    const inputs = [
      ...Array.from({ length: original.length }, (_, k) => original.subarray(0, k)),
      ...mutants(original),
    ];
    for (const bytes of inputs) {
      const t = performance.now();
      const r = await outcome(bytes);
      slowest = Math.max(slowest, performance.now() - t);
      n++;
      if (r === "error") errors++;
      else if (r === "same") same++;
      else throw new Error(`a silently different world from input ${n}:\n${r}`);
    }
    expect(n).toBeGreaterThan(2.5 * original.length); // all lengths, ~2 mutants per byte
    expect(same).toBe(0); // CRC-32 catches every single-byte change and every truncation
    expect(errors).toBe(n);
    expect(slowest).toBeLessThan(1000); // never a hang
    expect(performance.now() - t0).toBeLessThan(20_000);
  });

  it("without the checksum: errors, the same world, or a changed number or name only", async () => {
    const plain = new TextEncoder().encode(unsealed(SMALL));
    const mask = (s: string) =>
      s.replace(/ checksum="[0-9a-f]{8}"/, "")
        .replace(/name="[^"]*"/g, 'name="…"')
        // a changed materialId grows the friction table by entries of the global material
        .replace(/ *<particleMaterial [^>]*>\n/g, "")
        .replace(/-?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?/g, "#");
    let errors = 0, same = 0, numbers = 0;
    const inputs = [
      ...Array.from({ length: plain.length }, (_, k) => plain.subarray(0, k)),
      ...mutants(plain),
    ];
    for (const bytes of inputs) {
      let w: World;
      try {
        w = await worldFromXml(bytes, "f.xml");
      } catch (e) {
        if (!(e instanceof Error) || !e.message.startsWith("World.fromXml: f.xml")) throw e;
        errors++;
        continue;
      }
      const again = worldToXml(w);
      if (again === SMALL) same++;
      else {
        // the structure is the original's: only a number or the name changed
        expect(mask(again)).toBe(mask(SMALL));
        numbers++;
      }
    }
    expect(errors).toBeGreaterThan(0.8 * inputs.length);
    expect(same).toBeGreaterThan(0); // e.g. a mutated comment-free space that stays a space
    expect(numbers).toBeGreaterThan(0); // the documented limit of plain XML
    console.log(
      `no checksum: ${inputs.length} inputs, ${errors} errors, ${same} same, ${numbers} changed values`,
    );
  });
});
