/**
 * Animations: recorded frames (figures) → an animated GIF for notebooks and files.
 *
 * @module
 */

import { writeFileAtomic } from "../math/files.ts";
import { base64, Figure } from "./figure.ts";
import { encodeGif } from "./gif.ts";
import { svgToRGBA } from "./png.ts";
import { plotOptions } from "./options.ts";

/** Options of {@link animate}. */
export interface AnimateOptions {
  /** Delay between frames (ms). @default 100 */
  delay?: number;
  /** Pixel density of the frames. @default 1 */
  scale?: number;
  /** Loop forever. @default true */
  loop?: boolean;
}

/**
 * An animated GIF with its size; displays itself in a Deno Jupyter cell.
 *
 * @example
 * ```ts
 * import { Animation } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const a = new Animation(new Uint8Array([0x47, 0x49, 0x46]), 1, 1, 1);
 * expect(a.frames).toBe(1);
 * const display = (a as unknown as Record<symbol, () => Record<string, string>>)[
 *   Symbol.for("Jupyter.display")
 * ];
 * const html = display.call(a)["text/html"];
 * expect(html).toContain("data:image/gif;base64,R0lG");
 * await expect(a.save("movie.png")).rejects.toThrow(RangeError);
 * ```
 */
export class Animation {
  /** GIF bytes. */
  readonly gif: Uint8Array;
  /** Width (px). */
  readonly width: number;
  /** Height (px). */
  readonly height: number;
  /** Number of frames. */
  readonly frames: number;

  /**
   * Wraps encoded GIF bytes.
   *
   * @param gif GIF bytes
   * @param width width (px)
   * @param height height (px)
   * @param frames number of frames
   */
  constructor(gif: Uint8Array, width: number, height: number, frames: number) {
    this.gif = gif;
    this.width = width;
    this.height = height;
    this.frames = frames;
  }

  /**
   * Writes the GIF atomically.
   *
   * @param path destination ending in `.gif`
   * @returns the path
   * @throws {TypeError} when `path` is not a non-empty string
   * @throws {RangeError} when `path` does not end in `.gif`
   */
  async save(path: string): Promise<string> {
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(`Animation.save: path (${String(path)}) must be a non-empty string`);
    }
    if (!/\.gif$/i.test(path)) {
      throw new RangeError(`Animation.save: path "${path}" must end in .gif`);
    }
    await writeFileAtomic(path, this.gif, "Animation.save");
    return path;
  }

  /** Rich display in a Deno Jupyter cell. */
  [Symbol.for("Jupyter.display")](): Record<string, string> {
    return {
      "text/html": `<img alt="animation, ${this.frames} frames" width="${this.width}" ` +
        `src="data:image/gif;base64,${base64(this.gif)}"/>`,
    };
  }
}

/**
 * Turns figures (one per recorded frame) into an animated GIF. Typical use: render a figure
 * per frame read back with `readFrames`, or captured during a run.
 *
 * @param frames the figures, in order (all the size of the first)
 * @param options delay, scale, loop
 * @returns the animation
 * @throws {RangeError} when `frames` is empty or its figures differ in size
 * @throws {TypeError} when a frame is not a Figure
 * @example
 * ```ts
 * import { animate, particles2d } from "@grainlab/grainlab/plot";
 * const figs = [0, 0.5, 1].map((x) =>
 *   particles2d({ count: 1, dimension: 2, positions: [x, 0], velocities: [0, 0], radii: [0.3] }, {
 *     domain: { x: [-0.5, 1.5], y: [-0.5, 0.5] }, color: "none", width: 200,
 *   })
 * );
 * import { expect } from "expect";
 * const anim = animate(figs, { delay: 200 });
 * expect(anim.frames).toBe(3);
 * expect([anim.width, anim.height]).toEqual([figs[0].width, figs[0].height]);
 * expect(new TextDecoder().decode(anim.gif.subarray(0, 6))).toBe("GIF89a");
 * ```
 */
export function animate(frames: readonly Figure[], options: AnimateOptions = {}): Animation {
  options = plotOptions("animate", options, {
    delay: "nonNegative",
    scale: "positive",
    loop: "boolean",
  });
  if (!Array.isArray(frames) || frames.length === 0) {
    throw new RangeError(`animate: frames must be a non-empty array of figures`);
  }
  frames.forEach((f, k) => {
    if (!(f instanceof Figure)) {
      throw new TypeError(`animate: frames[${k}] (${String(f)}) must be a Figure`);
    }
    if (f.width !== frames[0].width || f.height !== frames[0].height) {
      throw new RangeError(
        `animate: frames[${k}] is ${f.width} × ${f.height} px, the first frame ` +
          `${frames[0].width} × ${frames[0].height}: give every frame the same width and height`,
      );
    }
  });
  const images = frames.map((f) => svgToRGBA(f.svg, { scale: options.scale ?? 1 }));
  const gif = encodeGif(images, { delay: options.delay, loop: options.loop });
  return new Animation(gif, images[0].width, images[0].height, images.length);
}
