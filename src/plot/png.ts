/**
 * SVG → PNG / RGBA rasterisation with resvg, using a bundled system font for text.
 *
 * @module
 */

import { Resvg } from "@resvg/resvg-js";
import { plotOptions, PNG_RULES } from "./options.ts";
import { sizeGuard } from "../math/validate.ts";

/** Options of {@link svgToPNG}. */
export interface PngOptions {
  /** Pixel density: output pixels per SVG pixel. @default 2 */
  scale?: number;
  /** Background colour (CSS). @default "white" */
  background?: string;
}

const FONT_DIRS = [
  "/usr/share/fonts/truetype/dejavu",
  "/usr/share/fonts/TTF",
  "/usr/share/fonts/truetype/liberation",
  "/usr/share/fonts/truetype",
];

let fontFiles: string[] | undefined;

/** TrueType fonts found in the usual Debian locations (DejaVu preferred). */
function findFonts(): string[] {
  if (fontFiles) return fontFiles;
  const found: string[] = [];
  for (const dir of FONT_DIRS) {
    try {
      for (const e of Deno.readDirSync(dir)) {
        if (e.isFile && /\.(ttf|otf)$/i.test(e.name)) found.push(`${dir}/${e.name}`);
      }
    } catch { /* folder absent or not readable */ }
    if (found.length > 0) break;
  }
  const pref = found.filter((f) => /DejaVuSans(-Bold)?\.ttf$/.test(f));
  fontFiles = pref.length > 0 ? pref : found.slice(0, 8);
  return fontFiles;
}

function render(svg: string, options: PngOptions, where: string) {
  if (typeof svg !== "string" || !svg.includes("<svg")) {
    throw new TypeError(`${where}: svg must be an SVG document string`);
  }
  options = plotOptions<PngOptions>(where, options, PNG_RULES);
  const scale = options.scale ?? 2;
  if (!(scale > 0 && scale <= 16)) {
    throw new RangeError(`${where}: options.scale is ${scale}, must be in (0, 16]`);
  }
  const fonts = findFonts();
  const r = new Resvg(svg, {
    background: options.background ?? "white",
    fitTo: { mode: "zoom", value: scale },
    font: {
      loadSystemFonts: fonts.length === 0,
      fontFiles: fonts,
      defaultFontFamily: "DejaVu Sans",
      sansSerifFamily: "DejaVu Sans",
    },
  });
  // The image is allocated at once: refuse one that cannot fit, naming its size.
  const w = Math.ceil(r.width * scale), h = Math.ceil(r.height * scale);
  sizeGuard(where, `a ${w} × ${h} pixel image (scale ${scale})`, w * h * 4, MAX_IMAGE_BYTES);
  return r.render();
}

/** The largest image {@link svgToPNG} and {@link svgToRGBA} render: 1 GiB of RGBA. */
const MAX_IMAGE_BYTES = 2 ** 30;

/**
 * Rasterises a standalone SVG string to PNG bytes.
 *
 * @param svg SVG document with `xmlns`
 * @param options scale and background
 * @returns PNG bytes
 * @throws {TypeError} when `svg` is not an SVG string
 * @throws {RangeError} when `scale` is not in (0, 16], an option is unknown (naming the
 *   nearest valid one), or the image would exceed 1 GiB of pixels
 * @example
 * ```ts
 * import { svgToPNG } from "./png.ts";
 * import { expect } from "expect";
 * const png = svgToPNG('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
 * expect(Array.from(png.subarray(0, 8))).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
 * const ihdr = new DataView(png.buffer, png.byteOffset + 16, 8);
 * expect([ihdr.getUint32(0), ihdr.getUint32(4)]).toEqual([20, 20]); // scale 2
 * expect(() => svgToPNG("<svg/>", { scale: 0 })).toThrow(RangeError);
 * ```
 */
export function svgToPNG(svg: string, options: PngOptions = {}): Uint8Array {
  return render(svg, options, "svgToPNG").asPng();
}

/**
 * Rasterises a standalone SVG string to RGBA pixels (for animations).
 *
 * @param svg SVG document with `xmlns`
 * @param options scale and background
 * @returns width, height and RGBA bytes (4 per pixel, row-major)
 * @example
 * ```ts
 * import { svgToRGBA } from "./png.ts";
 * import { expect } from "expect";
 * const img = svgToRGBA('<svg xmlns="http://www.w3.org/2000/svg" width="4" height="3"/>', { scale: 1 });
 * expect([img.width, img.height, img.pixels.length]).toEqual([4, 3, 4 * 3 * 4]);
 * expect(Array.from(img.pixels.subarray(0, 4))).toEqual([255, 255, 255, 255]); // white background
 * ```
 */
export function svgToRGBA(
  svg: string,
  options: PngOptions = {},
): { width: number; height: number; pixels: Uint8Array } {
  const img = render(svg, options, "svgToRGBA");
  return { width: img.width, height: img.height, pixels: new Uint8Array(img.pixels) };
}
