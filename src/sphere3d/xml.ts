/**
 * World XML: a readable scene file that recreates a {@link World} — its time step, gravity
 * and every granular system with its material, per-id particle materials, boundary settings
 * and particles. This file holds the layout (below) and the writer: `world.exportToXml(path)`
 * delegates here; `World.fromXml(path)` delegates to the reader in `xml_read.ts` (over the
 * checked element tree of `xml_tree.ts`).
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
 * `OBJECT_READERS` in `xml_read.ts` and the writer's loop); today any element there but
 * `<granular>` is rejected.
 *
 * @module
 */
import { coreOf, type GranularSystem } from "./granular_system.ts";
import type { GranularCore } from "./core.ts";
import { DEFAULT_MATERIAL, type Material } from "./material.ts";
import { exactNumber, writeFileAtomic } from "../math/files.ts";
import { crc32, notRegular } from "../math/container.ts";

/** The version of the layout that {@link worldToXml} writes and the reader accepts. */
export const WORLD_XML_VERSION = 1;

/** The largest XML file `World.fromXml` reads (bytes): about 2 million grains. */
export const MAX_WORLD_XML_BYTES = 512 * 2 ** 20;

/**
 * The fields of {@link Material}, in the order the writer puts them on `<material>`.
 *
 * @internal
 */
export const MATERIAL_FIELDS = Object.keys(DEFAULT_MATERIAL) as (keyof Material)[];
const CHECKSUM_PLACEHOLDER = 'checksum="00000000"';

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
export function worldToXml(world: {
  readonly timeStep: number;
  readonly gravity: readonly number[];
  readonly systems: readonly GranularSystem[];
}): string {
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
export async function exportWorldXml(
  world: Parameters<typeof worldToXml>[0],
  path: string,
): Promise<void> {
  // a World without importing world.ts (it imports this file): its clock, gravity and systems
  if (
    world === null || typeof world !== "object" || typeof world.timeStep !== "number" ||
    !Array.isArray(world.gravity) || !Array.isArray(world.systems)
  ) {
    throw new TypeError(`World.exportToXml: world (${String(world)}) must be a World`);
  }
  if (typeof path !== "string" || path.length === 0) {
    throw new TypeError(`World.exportToXml: path (${String(path)}) must be a non-empty string`);
  }
  const bytes = new TextEncoder().encode(worldToXml(world));
  let info: Deno.FileInfo | null = null;
  try {
    info = await Deno.stat(path);
  } catch { /* a new file */ }
  // replacing a folder fails obscurely, a FIFO or a device would be replaced by a file
  if (info !== null && !info.isFile) {
    throw new TypeError(`World.exportToXml: ${path}: ${notRegular(info)}`);
  }
  try {
    await writeFileAtomic(path, bytes);
  } catch (e) {
    throw new Error(
      `World.exportToXml: ${path}: cannot write the file (${(e as Error).message})`,
      { cause: e },
    );
  }
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

/**
 * The state behind a system of the world (the writer and the reader reach the boundary
 * settings through it).
 *
 * @internal
 */
export function core(sys: GranularSystem): GranularCore {
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

/**
 * `x` as 8 lowercase hex digits (the checksum attribute).
 *
 * @internal
 */
export function hex8(x: number): string {
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
