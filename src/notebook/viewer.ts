/**
 * An interactive 3D view of sphere3d grains, built on three.js (WebGL): {@link view3d} returns
 * a {@link View3D} that a Deno Jupyter cell shows (`Deno.jupyter.display(view)`), and
 * {@link writeViewer} writes the same view as one standalone HTML file to open in a browser.
 *
 * Grains are instanced spheres at their true radius, coloured by a column (height, speed,
 * material id, contacts per grain, sleeping, fixed, any numeric column of recorded frames)
 * with a legend; the ground plane, the container and the periodic cell are drawn as in the
 * simulation; force chains are cylinders whose width is proportional to the normal force. The
 * rigid bodies of a world (boxes, spheres, capsules, cylinders, meshes, height maps) are drawn
 * in a colour per body type (dynamic, static, kinematic; listed in a note at the top left), a
 * little transparent, and posed in every recorded frame; their shapes are sent once.
 * Drag to orbit, shift- or right-drag to pan, wheel to zoom, double-click to reset; a time slider
 * with play/pause steps through recorded frames ({@link ViewRecorder}, or the frames of a
 * `FrameWriter` stream read back with `readFrames`).
 *
 * The page needs nothing from the network: three.js (the exact-pinned npm package, tree-shaken
 * and minified when `deno bundle` is available) and the frames (positions quantised to 16 bits
 * over the scene's bounding box, radii, colour columns and body poses as float32, all gzipped
 * and base64) are inside the HTML. A still image drawn in Deno (the bodies as wireframes) stands
 * in for the view where no script runs (GitHub, `nbconvert` without a browser) until WebGL has
 * drawn.
 *
 * @module
 */

import { writeFileAtomic } from "../math/files.ts";
import { DISPLAY } from "./display.ts";
import type { MediaBundle } from "./kernel.ts";
import { build, type Built } from "./viewer_build.ts";
import { viewDocument, viewFragment } from "./viewer_html.ts";
import type { View3DOptions, ViewInfo } from "./viewer_types.ts";
import type { ViewSource } from "./viewer_frames.ts";

export { ViewRecorder, type ViewRecorderOptions, type ViewSource } from "./viewer_frames.ts";

/**
 * An interactive 3D view, made by {@link view3d}: shown by `Deno.jupyter.display(view)` (or as
 * a cell's value), written as a standalone page by {@link View3D.save}.
 *
 * @example
 * ```ts
 * import { view3d } from "@grainlab/grainlab/notebook";
 * import { DISPLAY } from "./display.ts";
 * import { expect } from "expect";
 * const grains = { count: 2, positions: [0, 0, 0.01, 0.02, 0, 0.01], velocities: [0, 0, 0, 0, 0, 1], radii: [0.01, 0.01] };
 * const view = view3d(grains, { color: ["height", "speed"], poster: false });
 * const bundle = view[DISPLAY](); // what Deno.jupyter.display(view) shows
 * expect(bundle["text/plain"]).toMatch(/^3D view: 2 grains, 1 frame/);
 * expect(bundle["text/html"]).toContain('class="glv-slider"');
 * expect(view.info.columns).toEqual(["height", "speed"]);
 * expect(view.document()).toMatch(/^<!doctype html>/);
 * ```
 */
export class View3D {
  #b: Built;
  #html?: string;

  /**
   * Encodes a view; the same as {@link view3d}.
   *
   * @param source a world, a system, a recorder, a list of recorded frames or an Arrow table
   * @param options colour columns, network, boundaries, meshes, size, camera, first frame
   */
  constructor(source: ViewSource, options: View3DOptions = {}) {
    this.#b = build(source, options);
  }

  /** Sizes and contents. */
  get info(): ViewInfo {
    const b = this.#b;
    return {
      frames: b.frames,
      grains: b.grains,
      columns: b.columns.map((c) => c.name),
      network: b.network,
      bodies: b.bodies,
      bytes: new TextEncoder().encode(this.html()).length,
      dataBytes: b.bin.length,
      threeBytes: b.three.reduce((a, m) => a + m.data.length, 0),
      posterBytes: b.poster.length,
      three: b.threeKind,
    };
  }

  /**
   * The view as an HTML fragment (what a notebook shows): the still image, legend and controls,
   * the embedded data and the script that starts it.
   *
   * @returns HTML
   */
  html(): string {
    return this.#html ??= viewFragment(this.#b, false);
  }

  /**
   * The view as a standalone HTML page. It reads `#frame=N&color=name&forces=1` from its URL.
   *
   * @returns the page
   */
  document(): string {
    return viewDocument(this.#b);
  }

  /**
   * Writes the standalone page (atomically).
   *
   * @param path the file, conventionally ending in `.html`
   * @returns the path and its size in bytes
   * @throws {TypeError} when `path` is not a non-empty string
   */
  async save(path: string): Promise<{ path: string; bytes: number }> {
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(`View3D.save: path (${String(path)}) must be a non-empty string`);
    }
    const bytes = new TextEncoder().encode(this.document());
    await writeFileAtomic(path, bytes, "View3D.save");
    return { path, bytes: bytes.length };
  }

  /**
   * Rich display in Jupyter: the interactive view as HTML (with its still image inside, for
   * front ends that run no scripts) and a text summary.
   *
   * @returns the media bundle
   */
  [DISPLAY](): MediaBundle {
    return { "text/plain": this.#b.text, "text/html": this.html() };
  }
}

/**
 * An interactive 3D view of grains: of a sphere3d `World` or `GranularSystem` (the current
 * state, with its force network), of a {@link ViewRecorder} (frames recorded in memory), or
 * of recorded Arrow frames (`await Array.fromAsync(readFrames(path))`, or
 * {@link ViewRecorder.fromFrames}). The rigid bodies of a world (`World.create()`,
 * `addBox`, … `addHeightMap`, articulated systems) are drawn in every frame recorded from it
 * (option `bodies`). See the module documentation for what it shows.
 *
 * One view of 20,000 grains (one frame, two colour columns) is about 0.8 MB of HTML: 0.18 MB
 * of three.js (tree-shaken, minified, gzipped), 0.42 MB of frame data and 0.2 MB of still
 * image. Each further frame adds, per grain and before gzip, 6 bytes of position, 4 per colour
 * column and 4 of radius when the radii changed. Rigid bodies add their shapes once (meshes
 * and height maps as float32 vertices or heights) and 28 bytes per body and frame (a pose).
 *
 * @param source a world, a system, a recorder, a list of recorded frames or an Arrow table
 * @param options colour columns, network, boundaries, meshes, size, camera, first frame
 * @returns the view: display it, or `save(path)` it as a standalone page
 * @throws {TypeError} when `source` is none of these, or an option has the wrong type
 * @throws {RangeError} on an unknown option or colour column, a 2D system, or sizes out of range
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { view3d, ViewRecorder } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 2e-4 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.05], [0.03, 0, 0.05]], radii: 0.01 });
 * g.setGroundPlane(0);
 * g.setContainerBox([-0.1, -0.1, 0], [0.1, 0.1, 0.2]);
 * const rec = new ViewRecorder();
 * for (let k = 0; k < 4; k++) {
 *   world.run(250);
 *   rec.record(world);
 * }
 * const view = view3d(rec, { color: ["speed", "height", "contacts"], network: true });
 * expect(view.info).toMatchObject({ frames: 4, grains: 2, network: true });
 * expect(view.info.bytes).toBeLessThan(600_000); // three.js, data and still image, all inline
 * expect(() => view3d(rec, { color: "sped" })).toThrow(/did you mean "speed"/);
 * expect(() => view3d(rec, { widht: 300 } as never)).toThrow(/did you mean "width"/);
 * ```
 * @example
 * ```ts
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { view3d, ViewRecorder } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const world = await World.create({ timeStep: 2e-4 }); // with the rigid-body engine
 * world.addGranularParticles({ positions: [[0, 0, 0.01]], radii: 0.01 }).setGroundPlane(0);
 * const plate = world.addBox({
 *   halfExtents: [0.03, 0.03, 0.005],
 *   position: [0, 0, 0.1],
 *   bodyType: "kinematic",
 *   linearVelocity: [0, 0, -0.2],
 * });
 * world.addCylinder({ radius: 0.02, halfHeight: 0.03, position: [0.1, 0, 0.03], bodyType: "static" });
 * const rec = new ViewRecorder();
 * for (let k = 0; k < 3; k++) {
 *   world.run(250);
 *   rec.record(world); // the grains and the bodies' poses
 * }
 * expect(plate.position[2]).toBeCloseTo(0.1 - 0.2 * 0.15, 5); // the engine works in float32
 * const view = view3d(rec, { bodies: { opacity: 0.6, colors: { kinematic: "#aa3377" } } });
 * expect(view.info).toMatchObject({ frames: 3, grains: 1, bodies: 2 });
 * expect(view.html()).toMatch(/2 rigid bodies.*1 static.*1 kinematic/s); // the note
 * expect(view3d(rec, { bodies: false }).info.bodies).toBe(0);
 * ```
 */
export function view3d(source: ViewSource, options: View3DOptions = {}): View3D {
  return new View3D(source, options);
}

/**
 * Writes a 3D view as one standalone HTML file (three.js and the frames inside; no network
 * needed) to open in a browser: `writeViewer("out/viewer.html", recorder)`.
 *
 * @param path the file, conventionally ending in `.html`
 * @param source what {@link view3d} takes
 * @param options what {@link view3d} takes
 * @returns the path and the file's size in bytes
 * @throws what {@link view3d} throws; a TypeError when `path` is not a non-empty string
 * @example
 * ```ts
 * import { writeViewer } from "@grainlab/grainlab/notebook";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * const grains = { count: 1, positions: [0, 0, 0.01], velocities: [0, 0, 0], radii: [0.01] };
 * const { path, bytes } = await writeViewer(`${dir}/view.html`, grains, { title: "One grain" });
 * const page = await Deno.readTextFile(path);
 * expect(new TextEncoder().encode(page).length).toBe(bytes);
 * expect(page).toContain("<title>One grain</title>");
 * expect(page).not.toMatch(/<script[^>]+src=/); // nothing loaded from elsewhere
 * ```
 */
export function writeViewer(
  path: string,
  source: ViewSource,
  options: View3DOptions = {},
): Promise<{ path: string; bytes: number }> {
  if (typeof path !== "string" || path.length === 0) {
    return Promise.reject(
      new TypeError(`writeViewer: path (${String(path)}) must be a non-empty string`),
    );
  }
  try {
    return view3d(source, options).save(path);
  } catch (e) {
    return Promise.reject(e);
  }
}
