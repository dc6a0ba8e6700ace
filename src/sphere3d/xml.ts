/**
 * World XML: a readable scene file that recreates a {@link World} — its time step, gravity
 * and every granular system with its material, per-id particle materials, boundary settings
 * and particles. `world.exportToXml(path)` and `World.fromXml(path)` delegate here.
 *
 * ## Layout (version 1)
 *
 * ```xml
 * <?xml version="1.0" encoding="UTF-8"?>
 * <grainlab version="1" checksum="1c291ca3">
 *   <timeStep value="0.001"/>
 *   <gravity value="0 0 -9.81"/>
 *   <objects>
 *     <granular name="granular" neighborSkin="auto">
 *       <material density="1600" normalStiffness="100000" normalDamping="20"
 *         tangentialStiffness="0" tangentialDamping="0" friction="0.5" rollingFriction="0"
 *         cohesionStiffness="0" cohesionMaxDistance="0" normalContactModel="linear"
 *         substeps="1" maxSpeed="0" maxAngularSpeed="0"/>
 *       <particleMaterial id="0" friction="0.5" rollingFriction="0"/>
 *       <boundaryMaterial friction="0.5" rollingFriction="0"/>
 *       <groundPlane height="0"/>
 *       <containerBox min="-0.5 -0.5 0" max="0.5 0.5 0.4"/>
 *       <periodicBoundary min="0 0 0" length="1 1 0"/>
 *       <particles count="1">
 *         <particle position="0 0 0.1" radius="0.02" velocity="0 0 0"
 *           angularVelocity="0 0 0" materialId="0" fixed="false"/>
 *       </particles>
 *     </granular>
 *   </objects>
 * </grainlab>
 * ```
 *
 * (the writer puts each element on one line). Vectors are three numbers separated by spaces.
 * `<material>` holds every field of the resolved {@link Material}; `<particleMaterial>` one
 * entry per material id in the system's friction table (ids the particles use or that
 * `setParticleMaterial` defined); `<groundPlane>`, `<containerBox>` and `<periodicBoundary>`
 * appear only when enabled. The periodic cell is stored as its minimum corner and its length
 * per axis (0: the axis is open), exactly as the system keeps it, so that no length is
 * rounded on the way through a maximum corner. `neighborSkin` is `auto` or a length (m).
 * A particle's `externalForce` and `externalTorque` (N, N·m; set with `setExternalForce`)
 * are written only when not zero. Every attribute the writer writes is required on reading,
 * except those optional ones; unknown elements and attributes are errors.
 *
 * **Numbers** are written as the shortest decimal that reads back to the same double
 * (JavaScript's `String(x)`, with `-0` kept), so export → import → export gives a
 * byte-identical file.
 *
 * **Checksum.** The root's `checksum` is the CRC-32 (IEEE, as in zlib), in 8 lowercase hex
 * digits, of the file's bytes with those 8 digits replaced by `00000000`. The reader verifies
 * it when present, so every changed byte is detected, a changed digit of a number too. Files
 * without it (written by hand) are read with the structural checks only, and there a number
 * changed into another valid number (or a changed `name`) is a different scene that no XML
 * check can see.
 *
 * **Not in the file**: the tangential contact histories (the springs of touching grains; use
 * checkpoints for an exact restart), the clock (the imported world starts at time 0, step
 * 0), stable particle ids (renumbered 0, 1, … in slot order), the neighbour list and the
 * forces of the last step. A world exported before its first step (or with no grain touching
 * another or a boundary) therefore continues to the bit after an import; once contacts have
 * formed, the continuation differs through friction and through the order in which the
 * rebuilt neighbour list sums forces.
 *
 * **Rigid bodies**: when they arrive they become further children of `<objects>` (see
 * `OBJECT_READERS` and the writer's loop); today any element there but `<granular>` is
 * rejected.
 *
 * Parsing uses fast-xml-parser, loaded only when a file is read.
 *
 * @module
 */
import { World } from "./world.ts";
import { coreOf, type GranularSystem } from "./granular_system.ts";
import type { GranularCore } from "./core.ts";
import { DEFAULT_MATERIAL, type Material, resolveMaterial } from "./material.ts";
import { MAX_MATERIAL_ID, MAX_PARTICLES } from "./options.ts";
import { exactNumber, writeFileAtomic } from "../math/files.ts";
import { crc32 } from "../math/container.ts";
import { nearest } from "../math/validate.ts";
import type { GridAxisPeriod } from "../math/grid.ts";

/** The version of the layout that {@link worldToXml} writes and the reader accepts. */
export const WORLD_XML_VERSION = 1;

/** The largest XML file {@link importWorldXml} reads (bytes): about 2 million grains. */
export const MAX_WORLD_XML_BYTES = 512 * 2 ** 20;

const MATERIAL_FIELDS = Object.keys(DEFAULT_MATERIAL) as (keyof Material)[];
const CHECKSUM_PLACEHOLDER = 'checksum="00000000"';
const where = "World.fromXml";

// ---------------------------------------------------------------------------------------------
// Writing
// ---------------------------------------------------------------------------------------------

/**
 * The world as World XML text (see the module notes), with its checksum.
 *
 * @param world the world to describe
 * @returns the document, UTF-8 ready, ending in a newline
 * @throws {RangeError} when some value is not finite (a diverged state) or a system's name
 *   holds a character XML 1.0 cannot carry
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { worldToXml } from "./xml.ts";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * world.addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.02 }).setGroundPlane(0);
 * const xml = worldToXml(world);
 * expect(xml).toContain('<timeStep value="0.0001"/>');
 * expect(xml).toContain('<groundPlane height="0"/>');
 * expect(xml).toMatch(/<grainlab version="1" checksum="[0-9a-f]{8}">/);
 * ```
 */
export function worldToXml(world: World): string {
  const out: string[] = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<grainlab version="${WORLD_XML_VERSION}" ${CHECKSUM_PLACEHOLDER}>`,
    `  <timeStep value="${num("timeStep", world.timeStep)}"/>`,
    `  <gravity value="${vec("gravity", world.gravity, 0)}"/>`,
    "  <objects>",
  ];
  world.systems.forEach((s, k) => writeGranular(out, s, k));
  // Rigid bodies (not in Grainlab yet) will be written here, as further children of
  // <objects>, with a reader for each in OBJECT_READERS.
  out.push("  </objects>", "</grainlab>", "");
  const text = out.join("\n");
  const crc = crc32(new TextEncoder().encode(text));
  return text.replace(CHECKSUM_PLACEHOLDER, `checksum="${hex8(crc)}"`);
}

/**
 * Write the world as World XML to `path`, atomically (a temporary file, flushed, renamed).
 *
 * @param world the world to save
 * @param path destination file (parent folders are created)
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { exportWorldXml } from "./xml.ts";
 * import { expect } from "expect";
 * const world = new World();
 * world.addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.02 });
 * const path = `${await Deno.makeTempDir()}/scene.xml`;
 * await exportWorldXml(world, path);
 * expect(await Deno.readTextFile(path)).toContain('<particles count="1">');
 * ```
 */
export async function exportWorldXml(world: World, path: string): Promise<void> {
  if (!(world instanceof World)) {
    throw new TypeError(`World.exportToXml: world (${String(world)}) must be a World`);
  }
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`World.exportToXml: path (${String(path)}) must be a non-empty string`);
  }
  await writeFileAtomic(path, new TextEncoder().encode(worldToXml(world)));
}

function writeGranular(out: string[], sys: GranularSystem, k: number): void {
  const c = core(sys);
  const w = `systems[${k}]`;
  const skin = c.skin < 0 ? "auto" : num(`${w}.neighborSkin`, c.skin);
  out.push(`    <granular name="${escapeName(`${w}.name`, sys.name)}" neighborSkin="${skin}">`);
  const m = c.material;
  out.push(
    "      <material " +
      MATERIAL_FIELDS.map((f) => `${f}="${materialValue(`${w}.material.${f}`, m[f])}"`).join(" ") +
      "/>",
  );
  const t = c.tables;
  for (let id = 0; id < c.tableSize; id++) {
    out.push(
      `      <particleMaterial id="${id}" friction="${num(w, t.friction[id])}" ` +
        `rollingFriction="${num(w, t.rolling[id])}"/>`,
    );
  }
  out.push(
    `      <boundaryMaterial friction="${num(w, c.boundary.friction)}" ` +
      `rollingFriction="${num(w, c.boundary.rollingFriction)}"/>`,
  );
  if (c.ground !== null) out.push(`      <groundPlane height="${num(w, c.ground)}"/>`);
  if (c.container) {
    out.push(
      `      <containerBox min="${vec(w, c.container[0], 0)}" ` +
        `max="${vec(w, c.container[1], 0)}"/>`,
    );
  }
  if (c.periodic) {
    const p = c.periodic;
    out.push(
      `      <periodicBoundary min="${vec(w, p.map((a) => a.lo), 0)}" ` +
        `length="${vec(w, p.map((a) => a.length), 0)}"/>`,
    );
  }
  const ps = c.ps, n = ps.count;
  out.push(`      <particles count="${n}">`);
  for (let i = 0; i < n; i++) {
    const o = 3 * i, wi = `${w}.particles[${i}]`;
    let line = `        <particle position="${vec(wi, ps.pos, o)}" radius="${
      num(wi, ps.radius[i])
    }" velocity="${vec(wi, ps.vel, o)}" angularVelocity="${vec(wi, ps.ang, o)}" materialId="${
      ps.materialId[i]
    }" fixed="${ps.fixed[i] ? "true" : "false"}"`;
    if (!isZero(ps.extForce, o)) line += ` externalForce="${vec(wi, ps.extForce, o)}"`;
    if (!isZero(ps.extTorque, o)) line += ` externalTorque="${vec(wi, ps.extTorque, o)}"`;
    out.push(line + "/>");
  }
  out.push("      </particles>", "    </granular>");
}

/**
 * A material field as text, by its type: numbers exactly, booleans as true/false, null as
 * `null`, strings escaped (so that fields added to {@link Material} later are written too).
 */
function materialValue(what: string, v: unknown): string {
  if (typeof v === "number") return num(what, v);
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v === null) return "null";
  if (typeof v === "string") return escapeName(what, v);
  throw new TypeError(`World.exportToXml: ${what} (${String(v)}) has a type XML cannot carry`);
}

function core(sys: GranularSystem): GranularCore {
  const c = coreOf.get(sys);
  if (!c) throw new TypeError("World XML: a system of the world is not a GranularSystem");
  return c;
}

/** Exact text of a finite number; a non-finite one (a diverged state) throws. */
function num(what: string, x: number): string {
  if (!Number.isFinite(x)) {
    throw new RangeError(`World.exportToXml: ${what} (${x}) is not finite; nothing was written`);
  }
  return exactNumber(x);
}

function vec(what: string, a: ArrayLike<number>, o: number): string {
  return `${num(what, a[o])} ${num(what, a[o + 1])} ${num(what, a[o + 2])}`;
}

function isZero(a: Float64Array, o: number): boolean {
  return Object.is(a[o], 0) && Object.is(a[o + 1], 0) && Object.is(a[o + 2], 0);
}

function hex8(x: number): string {
  return x.toString(16).padStart(8, "0");
}

/** Escape a name for a double-quoted attribute; control characters XML 1.0 lacks throw. */
function escapeName(w: string, s: string): string {
  if (typeof s !== "string" || !s.isWellFormed()) {
    throw new RangeError(`World.exportToXml: ${w} must be a well-formed string`);
  }
  // deno-lint-ignore no-control-regex
  return s.replace(/[&<>"\u0000-\u001f\ufffe\uffff]/g, (ch) => {
    switch (ch) {
      case "&":
        return "&amp;";
      case "<":
        return "&lt;";
      case ">":
        return "&gt;";
      case '"':
        return "&quot;";
      case "\t":
      case "\n":
      case "\r":
        return `&#${ch.charCodeAt(0)};`;
      default:
        throw new RangeError(
          `World.exportToXml: ${w} holds U+${
            ch.charCodeAt(0).toString(16).padStart(4, "0")
          }, which XML 1.0 cannot carry`,
        );
    }
  });
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

/**
 * Read a World XML file written by {@link exportWorldXml} (or by hand in the same layout)
 * and build a new world from it. Nothing is created when the file is bad.
 *
 * @param path the file
 * @returns a new world with the file's time step, gravity and systems, at time 0
 * @throws {SyntaxError} for malformed XML or bytes that are not UTF-8, naming the line and
 *   column
 * @throws {TypeError} for an unknown or missing element or attribute, or text where a number
 *   belongs, naming the element, the attribute and the line
 * @throws {RangeError} for a value out of range (a negative radius …), a checksum that does
 *   not match, or a file too large
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { exportWorldXml, importWorldXml } from "./xml.ts";
 * import { expect } from "expect";
 * const world = new World({ gravity: [0, 0, -3.7] });
 * world.addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.02 }, { friction: 0.7 });
 * const path = `${await Deno.makeTempDir()}/scene.xml`;
 * await exportWorldXml(world, path);
 * const back = await importWorldXml(path);
 * expect(back.gravity).toEqual([0, 0, -3.7]);
 * expect(back.systems[0].material.friction).toBe(0.7);
 * const bad = "<grainlab version='1'><timeStep/><gravity value='0 0 -9.81'/><objects/></grainlab>";
 * await Deno.writeTextFile(path, bad);
 * // file:line:column of the element, its name, the attribute
 * await expect(importWorldXml(path)).rejects.toThrow(
 *   /scene\.xml:1:23: <timeStep> attribute value is missing/,
 * );
 * ```
 */
export async function importWorldXml(path: string): Promise<World> {
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`${where}: path (${String(path)}) must be a non-empty string`);
  }
  const info = await Deno.stat(path);
  if (!info.isFile) throw new TypeError(`${where}: ${path} is not a file`);
  if (info.size > MAX_WORLD_XML_BYTES) {
    throw new RangeError(
      `${where}: ${path} (${info.size} bytes) is larger than ${MAX_WORLD_XML_BYTES} bytes; ` +
        "save large scenes as checkpoints",
    );
  }
  return worldFromXml(await Deno.readFile(path), path);
}

/**
 * Build a new world from World XML text or bytes (see {@link importWorldXml}).
 *
 * @param input the document: a string, or UTF-8 bytes
 * @param source a name for the messages (a path) @default "<string>"
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { worldFromXml, worldToXml } from "./xml.ts";
 * import { expect } from "expect";
 * const world = new World();
 * world.addGranularParticles({ positions: [[0, 0, 0.1], [0, 0, 0.2]], radii: 0.02 });
 * const xml = worldToXml(world);
 * expect(worldToXml(await worldFromXml(xml))).toBe(xml); // byte-identical round trip
 * const bad = xml.replace('radius="0.02"', 'radius="-0.02"');
 * await expect(worldFromXml(bad)).rejects.toThrow(/checksum/);
 * const unsealed = bad.replace(/ checksum="[0-9a-f]{8}"/, "");
 * await expect(worldFromXml(unsealed)).rejects.toThrow(
 *   /<string>:11:\d+: <particle> attribute radius \(-0.02\) must be > 0/,
 * );
 * ```
 */
export async function worldFromXml(
  input: string | Uint8Array,
  source = "<string>",
): Promise<World> {
  let text: string, bytes: Uint8Array;
  if (typeof input === "string") {
    text = input;
    bytes = new TextEncoder().encode(input);
  } else if (input instanceof Uint8Array) {
    bytes = input;
    try {
      text = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true }).decode(input);
    } catch {
      throw new SyntaxError(`${where}: ${source}: the file is not valid UTF-8 text`);
    }
  } else {
    throw new TypeError(`${where}: input (${typeof input}) must be a string or a Uint8Array`);
  }
  const doc = new Doc(text, source);
  const { XMLParser, XMLValidator } = await import("fast-xml-parser");
  const dt = text.indexOf("<!DOCTYPE");
  if (dt >= 0) {
    throw new SyntaxError(`${where}: ${doc.at(dt)}: a DOCTYPE is not allowed in World XML`);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const e = valid.err;
    throw new SyntaxError(
      `${where}: ${source}:${e.line}${e.col ? `:${e.col}` : ""}: malformed XML: ${e.msg}`,
    );
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "@_",
    preserveOrder: true,
    captureMetaData: true,
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: false,
    processEntities: false,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
  const meta = XMLParser.getMetaDataSymbol() as unknown as symbol;
  let parsed: RawNode[];
  try {
    parsed = parser.parse(text) as RawNode[];
  } catch (e) {
    // what the validator let through but the parser refuses (it gives no position)
    throw new SyntaxError(`${where}: ${source}: malformed XML: ${(e as Error).message}`);
  }
  const top = toNodes(parsed, meta, doc, null);
  if (top.length !== 1 || top[0].name !== "grainlab") {
    const extra = top.find((n) => n.name !== "grainlab") ?? top[1];
    throw new TypeError(
      extra
        ? `${where}: ${doc.at(extra.start)}: <${clip(extra.name)}>: the document must hold one ` +
          "<grainlab> element and nothing else"
        : `${where}: ${source}: the document holds no <grainlab> element`,
    );
  }
  const root = new El(top[0], doc);
  const version = root.int("version", 1, 1_000_000);
  if (version !== WORLD_XML_VERSION) {
    throw root.error(
      RangeError,
      "version",
      `(${version}) is not supported: this reader reads version ${WORLD_XML_VERSION}`,
    );
  }
  const sum = root.optional("checksum");
  if (sum !== undefined) verifyChecksum(root, sum, bytes);
  root.done();
  const kids = root.children({ timeStep: 1, gravity: 1, objects: 1 });
  const ts = kids.timeStep[0], gr = kids.gravity[0];
  const world = new World({ timeStep: ts.positive("value"), gravity: gr.vector("value") });
  ts.done();
  gr.done();
  ts.leaf();
  gr.leaf();
  const objects = kids.objects[0];
  objects.done();
  for (const node of objects.node.children) {
    const read = OBJECT_READERS[node.name];
    if (!read || !Object.hasOwn(OBJECT_READERS, node.name)) {
      throw new El(node, doc).error(
        TypeError,
        null,
        `is not a known object (known: ${Object.keys(OBJECT_READERS).join(", ")}; ` +
          "rigid bodies are not supported yet)",
      );
    }
    read(world, new El(node, doc));
  }
  return world;
}

/** Readers of the children of `<objects>`, by element name (rigid bodies go here). */
const OBJECT_READERS: Record<string, (world: World, el: El) => void> = {
  granular: readGranular,
};

function readGranular(world: World, g: El): void {
  const name = g.text("name");
  const skinText = g.string("neighborSkin");
  const skin = skinText === "auto" ? "auto" : g.nonNegative("neighborSkin");
  g.done();
  const kids = g.children({
    material: 1,
    particleMaterial: [0, MAX_MATERIAL_ID + 1],
    boundaryMaterial: 1,
    groundPlane: [0, 1],
    containerBox: [0, 1],
    periodicBoundary: [0, 1],
    particles: 1,
  });
  const me = kids.material[0];
  const mat: Record<string, unknown> = {};
  for (const f of MATERIAL_FIELDS) mat[f] = readMaterialField(me, f);
  me.done();
  me.leaf();
  let resolved: Material;
  try {
    resolved = resolveMaterial(mat as Partial<Material>, "material");
  } catch (e) {
    // name the attribute the rule is about: resolveMaterial says "material: <field> (...) ..."
    if (!(e instanceof RangeError || e instanceof TypeError)) throw e;
    const f = MATERIAL_FIELDS.find((k) => e.message.startsWith(`material: ${k} (`));
    throw me.error(
      e instanceof RangeError ? RangeError : TypeError,
      f ?? null,
      f ? e.message.slice(`material: ${f} `.length) : e.message,
    );
  }
  const sys = me.guard(() => world.addGranularSystem(resolved));
  sys.name = name;
  const seen = new Map<number, El>();
  for (const pm of kids.particleMaterial) {
    const id = pm.int("id", 0, MAX_MATERIAL_ID);
    if (seen.has(id)) {
      throw pm.error(
        RangeError,
        "id",
        `(${id}) repeats the material of line ${seen.get(id)!.line}`,
      );
    }
    seen.set(id, pm);
    const m = {
      friction: pm.nonNegative("friction"),
      rollingFriction: pm.nonNegative("rollingFriction"),
    };
    pm.done();
    pm.leaf();
    pm.guard(() => sys.setParticleMaterial(id, m));
  }
  const bm = kids.boundaryMaterial[0];
  const b = {
    friction: bm.nonNegative("friction"),
    rollingFriction: bm.nonNegative("rollingFriction"),
  };
  bm.done();
  bm.leaf();
  bm.guard(() => sys.setBoundaryMaterial(b));
  for (const gp of kids.groundPlane) {
    const h = gp.finite("height");
    gp.done();
    gp.leaf();
    gp.guard(() => sys.setGroundPlane(h));
  }
  for (const cb of kids.containerBox) {
    const lo = cb.vector("min"), hi = cb.vector("max");
    for (let k = 0; k < 3; k++) {
      if (!(lo[k] < hi[k])) {
        throw cb.error(
          RangeError,
          "max",
          `(${hi.join(" ")}) must exceed min (${lo.join(" ")}) on every axis`,
        );
      }
    }
    cb.done();
    cb.leaf();
    cb.guard(() => sys.setContainerBox(lo, hi));
  }
  for (const pb of kids.periodicBoundary) {
    const lo = pb.vector("min"), len = pb.vector("length");
    if (!len.every((l) => l >= 0) || !len.some((l) => l > 0)) {
      throw pb.error(
        RangeError,
        "length",
        `(${len.join(" ")}) must be >= 0 on every axis (0: open) and > 0 on at least one`,
      );
    }
    pb.done();
    pb.leaf();
    const c = core(sys);
    c.periodic = [0, 1, 2].map((k) => ({ lo: lo[k], length: len[k] })) as [
      GridAxisPeriod,
      GridAxisPeriod,
      GridAxisPeriod,
    ];
    c.boundariesChanged();
  }
  const pe = kids.particles[0];
  const count = pe.int("count", 0, MAX_PARTICLES);
  pe.done();
  const list = pe.node.children;
  if (list.length !== count) {
    throw pe.error(
      RangeError,
      "count",
      `(${count}) does not match the ${list.length} <particle> elements`,
    );
  }
  pe.guard(() => sys.reserveParticles(count));
  for (const node of list) {
    const p = new El(node, pe.doc);
    if (node.name !== "particle") {
      throw p.error(TypeError, null, "is not allowed in <particles> (only <particle>)");
    }
    readParticle(sys, p);
  }
  g.guard(() => (sys.neighborSkin = skin));
}

/**
 * One `<material>` attribute, read by the type of its default: a number, true/false, a
 * string, or `null` or a number for a field whose default is null. The ranges are
 * {@link resolveMaterial}'s to check.
 */
function readMaterialField(me: El, f: keyof Material): unknown {
  const d: unknown = DEFAULT_MATERIAL[f];
  if (f === "substeps") return me.int(f, 1, 1_000_000);
  if (f === "density") return me.positive(f);
  if (typeof d === "number") return me.finite(f);
  if (typeof d === "boolean") return me.boolean(f);
  if (typeof d === "string") return me.text(f);
  if (d === null) return me.string(f) === "null" ? null : me.finite(f);
  throw me.error(TypeError, f, "has a type this reader does not know");
}

const ZERO3: readonly number[] = [0, 0, 0];

function readParticle(sys: GranularSystem, p: El): void {
  const position = p.vector("position");
  const radius = p.positive("radius");
  const velocity = p.vector("velocity");
  const angularVelocity = p.vector("angularVelocity");
  const materialId = p.int("materialId", 0, MAX_MATERIAL_ID);
  const fixed = p.boolean("fixed");
  const ef = p.optional("externalForce") === undefined ? null : p.vector("externalForce");
  const et = p.optional("externalTorque") === undefined ? null : p.vector("externalTorque");
  p.done();
  p.leaf();
  if (fixed) {
    for (
      const [name, v] of [["velocity", velocity], ["angularVelocity", angularVelocity], [
        "externalForce",
        ef ?? ZERO3,
      ], ["externalTorque", et ?? ZERO3]] as const
    ) {
      if (!v.every((x) => Object.is(x, 0))) {
        throw p.error(RangeError, name, `(${v.join(" ")}) must be 0 0 0 for a fixed particle`);
      }
    }
  }
  const i = p.guard(() =>
    sys.addParticle({ position, radius, velocity, angularVelocity, materialId, fixed })
  );
  if (ef) p.guard(() => sys.setExternalForce(i, ef));
  if (et) p.guard(() => sys.setExternalTorque(i, et));
}

function verifyChecksum(root: El, sum: string, bytes: Uint8Array): void {
  if (!/^[0-9a-f]{8}$/.test(sum)) {
    throw root.error(RangeError, "checksum", `(${sum}) must be 8 lowercase hex digits`);
  }
  const doc = root.doc;
  // the attribute's value in the text: after `checksum`, `=`, spaces and the quote
  const at = doc.attributePosition(root.node.start, "checksum");
  const q = at < 0 ? -1 : doc.text.indexOf(sum, at);
  if (q < 0) throw root.error(RangeError, "checksum", "could not be located in the start tag");
  const off = new TextEncoder().encode(doc.text.slice(0, q)).length;
  let crc = crc32(bytes, 0, off);
  crc = crc32(new TextEncoder().encode("00000000"), 0, 8, crc);
  crc = crc32(bytes, off + 8, bytes.length, crc);
  if (crc !== parseInt(sum, 16)) {
    throw root.error(
      RangeError,
      "checksum",
      `(${sum}) does not match the content (${hex8(crc)}): the file was changed or damaged ` +
        "after it was written (remove the attribute to load an edited file)",
    );
  }
}

// ---------------------------------------------------------------------------------------------
// The parsed tree
// ---------------------------------------------------------------------------------------------

/** fast-xml-parser's ordered output: `{ tag: children, ":@": attributes }` or `{ "#text" }`. */
type RawNode = Record<string, unknown>;

interface XNode {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
  /** Offset of the `<` of the start tag in the text. */
  start: number;
}

function toNodes(raw: RawNode[], meta: symbol, doc: Doc, parent: XNode | null): XNode[] {
  const out: XNode[] = [];
  for (const r of raw) {
    if (Object.hasOwn(r, "#text")) {
      const t = String(r["#text"]);
      if (t.trim() !== "") {
        const snippet = show(t.trim());
        throw new TypeError(
          parent
            ? `${where}: ${doc.at(parent.start)}: <${parent.name}> holds the text ${snippet}; ` +
              "only elements belong there"
            : `${where}: ${doc.source}: text ${snippet} outside the root element`,
        );
      }
      continue;
    }
    const name = Object.keys(r).find((k) => k !== ":@");
    if (name === undefined) continue;
    const m = (r as Record<symbol, { startIndex?: number } | undefined>)[meta];
    const node: XNode = { name, attrs: {}, children: [], start: m?.startIndex ?? 0 };
    const a = r[":@"] as Record<string, unknown> | undefined;
    if (a) { for (const k of Object.keys(a)) node.attrs[k.slice(2)] = String(a[k]); }
    node.children = toNodes(r[name] as RawNode[], meta, doc, node);
    out.push(node);
  }
  return out;
}

/** The text with positions to lines and columns. */
class Doc {
  #lines: number[] | null = null;
  constructor(readonly text: string, readonly source: string) {}

  /** `source:line:column` of text offset `i`. */
  at(i: number): string {
    const [l, c] = this.lineCol(i);
    return `${this.source}:${l}:${c}`;
  }

  lineCol(i: number): [number, number] {
    if (!this.#lines) {
      const s = [0];
      for (let k = this.text.indexOf("\n"); k >= 0; k = this.text.indexOf("\n", k + 1)) {
        s.push(k + 1);
      }
      this.#lines = s;
    }
    const s = this.#lines;
    let lo = 0, hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, i - s[lo] + 1];
  }

  /** Offset of attribute `name` in the start tag at `start`, or -1. */
  attributePosition(start: number, name: string): number {
    const t = this.text;
    let quote = "", i = start + 1;
    for (; i < t.length; i++) {
      const ch = t[i];
      if (quote) {
        if (ch === quote) quote = "";
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === ">") break;
      else if (
        t.startsWith(name, i) && /\s/.test(t[i - 1]) &&
        /^\s*=/.test(t.slice(i + name.length, i + name.length + 20))
      ) return i;
    }
    return -1;
  }
}

type ErrorClass = typeof TypeError | typeof RangeError;

/** At most 60 characters of `s`, for messages about damaged files. */
function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** A value for a message: quoted, clipped. */
function show(s: string): string {
  return JSON.stringify(clip(s));
}

/** One element, read attribute by attribute; {@link El.done} rejects the ones not read. */
class El {
  readonly #used = new Set<string>();
  constructor(readonly node: XNode, readonly doc: Doc) {}

  get line(): number {
    return this.doc.lineCol(this.node.start)[0];
  }

  /** An error naming the element, the attribute (or none) and the position. */
  error(kind: ErrorClass, attr: string | null, rule: string): Error {
    const at = attr === null ? -1 : this.doc.attributePosition(this.node.start, attr);
    const pos = this.doc.at(at >= 0 ? at : this.node.start);
    return new kind(
      `${where}: ${pos}: <${clip(this.node.name)}>${
        attr === null ? "" : ` attribute ${clip(attr)}`
      } ${rule}`,
    );
  }

  /** Run a public API call, prefixing its error with this element's position. */
  guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof RangeError || e instanceof TypeError) {
        throw new (e instanceof RangeError ? RangeError : TypeError)(
          `${where}: ${this.doc.at(this.node.start)}: <${this.node.name}>: ${e.message}`,
        );
      }
      throw e;
    }
  }

  optional(name: string): string | undefined {
    this.#used.add(name);
    return Object.hasOwn(this.node.attrs, name) ? this.node.attrs[name] : undefined;
  }

  string(name: string): string {
    const v = this.optional(name);
    if (v === undefined) throw this.error(TypeError, null, `attribute ${name} is missing`);
    return v;
  }

  /** A string attribute with entity references decoded. */
  text(attr: string): string {
    const raw = this.string(attr);
    if (raw.includes("<")) throw this.error(TypeError, attr, "holds a raw <; write &lt;");
    return raw.replace(/&([^;]{0,10});|&/g, (m, ref: string | undefined) => {
      const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
      if (ref !== undefined && Object.hasOwn(named, ref)) return named[ref];
      const code = ref === undefined
        ? NaN
        : /^#[0-9]{1,7}$/.test(ref)
        ? Number(ref.slice(1))
        : /^#x[0-9a-fA-F]{1,6}$/.test(ref)
        ? parseInt(ref.slice(2), 16)
        : NaN;
      const ok = code === 0x9 || code === 0xa || code === 0xd ||
        (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) ||
        (code >= 0x10000 && code <= 0x10ffff);
      if (!ok) {
        throw this.error(TypeError, attr, `holds ${show(m)}, not a valid reference`);
      }
      return String.fromCodePoint(code);
    });
  }

  /** A finite number written as a decimal. */
  finite(name: string): number {
    return this.#number(name, this.string(name));
  }

  #number(name: string, s: string): number {
    if (!/^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(s)) {
      throw this.error(TypeError, name, `(${show(s)}) must be a number`);
    }
    const x = Number(s);
    if (!Number.isFinite(x)) throw this.error(RangeError, name, `(${s}) must be finite`);
    return x;
  }

  positive(name: string): number {
    const x = this.finite(name);
    if (!(x > 0)) throw this.error(RangeError, name, `(${x}) must be > 0`);
    return x;
  }

  nonNegative(name: string): number {
    const x = this.finite(name);
    if (!(x >= 0)) throw this.error(RangeError, name, `(${x}) must be >= 0`);
    return x;
  }

  int(name: string, min: number, max: number): number {
    const s = this.string(name);
    if (!/^[0-9]{1,16}$/.test(s)) {
      throw this.error(TypeError, name, `(${show(s)}) must be an integer`);
    }
    const x = Number(s);
    if (x < min || x > max) {
      throw this.error(RangeError, name, `(${x}) must be an integer in [${min}, ${max}]`);
    }
    return x;
  }

  boolean(name: string): boolean {
    const s = this.string(name);
    if (s !== "true" && s !== "false") {
      throw this.error(TypeError, name, `(${show(s)}) must be true or false`);
    }
    return s === "true";
  }

  choice<T extends string>(name: string, allowed: readonly T[]): T {
    const s = this.string(name);
    if (!(allowed as readonly string[]).includes(s)) {
      throw this.error(
        TypeError,
        name,
        `(${show(s)}) must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`,
      );
    }
    return s as T;
  }

  /** Three numbers separated by white space. */
  vector(name: string): [number, number, number] {
    const s = this.string(name);
    const parts = s.trim().split(/\s+/);
    if (parts.length !== 3) {
      throw this.error(TypeError, name, `(${show(s)}) must be three numbers`);
    }
    return [
      this.#number(name, parts[0]),
      this.#number(name, parts[1]),
      this.#number(name, parts[2]),
    ];
  }

  /** Reject the attributes that were not read. */
  done(): void {
    for (const k of Object.keys(this.node.attrs)) {
      if (this.#used.has(k)) continue;
      const near = nearest(k, [...this.#used]);
      throw this.error(
        TypeError,
        k,
        `is not known${near ? `; did you mean ${near}?` : ""} (known: ${
          [...this.#used].join(", ")
        })`,
      );
    }
  }

  /** Reject children of an element that has none. */
  leaf(): void {
    const c = this.node.children[0];
    if (c) {
      throw new El(c, this.doc).error(TypeError, null, `is not allowed inside <${this.node.name}>`);
    }
  }

  /**
   * The children grouped by name, each name with its allowed count (`1`: exactly one,
   * `[min, max]`); other names are errors.
   */
  children(spec: Record<string, number | [number, number]>): Record<string, El[]> {
    const out: Record<string, El[]> = {};
    for (const k of Object.keys(spec)) out[k] = [];
    for (const c of this.node.children) {
      const el = new El(c, this.doc);
      if (!Object.hasOwn(spec, c.name)) {
        const near = nearest(c.name, Object.keys(spec));
        throw el.error(
          TypeError,
          null,
          `is not allowed inside <${this.node.name}>${near ? `; did you mean <${near}>?` : ""} ` +
            `(allowed: ${Object.keys(spec).join(", ")})`,
        );
      }
      out[c.name].push(el);
    }
    for (const [k, lim] of Object.entries(spec)) {
      const [lo, hi] = typeof lim === "number" ? [lim, lim] : lim;
      const n = out[k].length;
      if (n < lo) throw this.error(TypeError, null, `must contain <${k}>`);
      if (n > hi) {
        throw out[k][hi].error(
          TypeError,
          null,
          `may appear at most ${hi} times in <${this.node.name}>`,
        );
      }
    }
    return out;
  }
}
