/**
 * The public World XML readers: a file or a text to a new {@link World}. The parsing and the
 * checks live in `xml_read.ts`, which gets `World`'s constructor from here, so that neither
 * `world.ts` nor the reader imports the other at load time.
 *
 * @module
 */
import { World } from "./world.ts";
import { readWorldXml, readWorldXmlFile, type WorldFactory } from "./xml_read.ts";

const create: WorldFactory<World> = (options) => new World(options);

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
 * import { exportWorldXml } from "./xml.ts";
 * import { importWorldXml } from "./world_xml.ts";
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
export function importWorldXml(path: string): Promise<World> {
  return readWorldXmlFile(path, create);
}

/**
 * Build a new world from World XML text or bytes (see {@link importWorldXml}).
 *
 * @param input the document: a string, or UTF-8 bytes
 * @param source a name for the messages (a path) @default "<string>"
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { worldToXml } from "./xml.ts";
 * import { worldFromXml } from "./world_xml.ts";
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
export function worldFromXml(input: string | Uint8Array, source = "<string>"): Promise<World> {
  return readWorldXml(input, source, create);
}
