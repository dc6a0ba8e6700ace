/**
 * World XML reading: {@link readWorldXmlFile} and {@link readWorldXml} check a file against the
 * layout described in `xml.ts` (structure, ranges, the checksum) and build a new
 * `World` from it; nothing is created when the file is bad. `World.fromXml(path)`
 * delegates here. The element tree and its attribute readers are in `xml_tree.ts`.
 *
 * Parsing uses fast-xml-parser, loaded only when a file is read.
 *
 * @module
 */
import type { GranularSystem } from "./granular_system.ts";
import { DEFAULT_MATERIAL, type Material, resolveMaterial } from "./material.ts";
import { MAX_MATERIAL_ID, MAX_PARTICLES } from "./options.ts";
import { crc32 } from "../math/container.ts";
import type { GridAxisPeriod } from "../math/grid.ts";
import { core, hex8, MATERIAL_FIELDS, MAX_WORLD_XML_BYTES, WORLD_XML_VERSION } from "./xml.ts";
import { clip, Doc, El, type RawNode, READER, toNodes } from "./xml_tree.ts";

const where = READER;

/** What the reader fills: a world's `addGranularSystem` (`World`, without importing it). */
export interface XmlWorldTarget {
  /** Add an empty granular system of a material. */
  addGranularSystem(material: Partial<Material>): GranularSystem;
}

/** Makes the world a file describes: `World`'s constructor, passed in by `World.fromXml`. */
export type WorldFactory<W extends XmlWorldTarget> = (options: {
  timeStep: number;
  gravity: [number, number, number];
}) => W;

/**
 * Read a World XML file written by {@link exportWorldXml} (or by hand in the same layout)
 * and build a new world from it with `create` (`World`'s constructor, passed in so that this
 * reader does not import `world.ts`; `World.fromXml(path)` is the public form). Nothing is
 * created when the file is bad.
 *
 * @param path the file
 * @param create makes the empty world of the file's time step and gravity
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
 * import { exportWorldXml } from "./xml.ts";
 * import { readWorldXmlFile } from "./xml_read.ts";
 * import { expect } from "expect";
 * const world = new World({ gravity: [0, 0, -3.7] });
 * world.addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.02 }, { friction: 0.7 });
 * const path = `${await Deno.makeTempDir()}/scene.xml`;
 * await exportWorldXml(world, path);
 * const back = await readWorldXmlFile(path, (o) => new World(o));
 * expect(back.gravity).toEqual([0, 0, -3.7]);
 * expect(back.systems[0].material.friction).toBe(0.7);
 * const bad = "<grainlab version='1'><timeStep/><gravity value='0 0 -9.81'/><objects/></grainlab>";
 * await Deno.writeTextFile(path, bad);
 * // file:line:column of the element, its name, the attribute
 * await expect(readWorldXmlFile(path, (o) => new World(o))).rejects.toThrow(
 *   /scene\.xml:1:23: <timeStep> attribute value is missing/,
 * );
 * ```
 */
export async function readWorldXmlFile<W extends XmlWorldTarget>(
  path: string,
  create: WorldFactory<W>,
): Promise<W> {
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
  return readWorldXml(await Deno.readFile(path), path, create);
}

/**
 * Build a new world from World XML text or bytes with `create` (see {@link readWorldXmlFile}).
 *
 * @param input the document: a string, or UTF-8 bytes
 * @param source a name for the messages (a path)
 * @param create makes the empty world of the document's time step and gravity
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { worldToXml } from "./xml.ts";
 * import { readWorldXml } from "./xml_read.ts";
 * import { expect } from "expect";
 * const world = new World();
 * world.addGranularParticles({ positions: [[0, 0, 0.1], [0, 0, 0.2]], radii: 0.02 });
 * const xml = worldToXml(world);
 * const worldFromXml = (text: string) => readWorldXml(text, "<string>", (o) => new World(o));
 * expect(worldToXml(await worldFromXml(xml))).toBe(xml); // byte-identical round trip
 * const bad = xml.replace('radius="0.02"', 'radius="-0.02"');
 * await expect(worldFromXml(bad)).rejects.toThrow(/checksum/);
 * const unsealed = bad.replace(/ checksum="[0-9a-f]{8}"/, "");
 * await expect(worldFromXml(unsealed)).rejects.toThrow(
 *   /<string>:11:\d+: <particle> attribute radius \(-0.02\) must be > 0/,
 * );
 * ```
 */
export async function readWorldXml<W extends XmlWorldTarget>(
  input: string | Uint8Array,
  source: string,
  create: WorldFactory<W>,
): Promise<W> {
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
  const world = create({ timeStep: ts.positive("value"), gravity: gr.vector("value") });
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
const OBJECT_READERS: Record<string, (world: XmlWorldTarget, el: El) => void> = {
  granular: readGranular,
};

function readGranular(world: XmlWorldTarget, g: El): void {
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
