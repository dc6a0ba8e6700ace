/**
 * A small animated-GIF encoder (GIF89a, fixed 256-colour palette, LZW), no dependencies.
 *
 * @module
 */

import { concatBytes } from "../math/bytes.ts";
import { plotOptions } from "./options.ts";

/** One RGBA image. */
export interface RgbaImage {
  /** Width (px). */
  width: number;
  /** Height (px). */
  height: number;
  /** RGBA bytes, 4 per pixel, row-major. */
  pixels: Uint8Array;
}

/** Options of {@link encodeGif}. */
export interface GifOptions {
  /** Delay between frames (ms; GIF stores hundredths). @default 100 */
  delay?: number;
  /** Loop forever. @default true */
  loop?: boolean;
}

/** The fixed palette: a 6×7×6 colour cube plus 4 greys (256 entries, RGB). */
function palette(): Uint8Array {
  const p = new Uint8Array(768);
  let k = 0;
  for (let r = 0; r < 6; r++) {
    for (let g = 0; g < 7; g++) {
      for (let b = 0; b < 6; b++) {
        p[k++] = Math.round((r * 255) / 5);
        p[k++] = Math.round((g * 255) / 6);
        p[k++] = Math.round((b * 255) / 5);
      }
    }
  }
  for (const v of [64, 128, 192, 224]) p.set([v, v, v], (k += 3) - 3);
  return p;
}

function indexImage(img: RgbaImage, width: number, height: number): Uint8Array {
  const out = new Uint8Array(width * height);
  // Ordered dithering (4×4 Bayer) hides the banding of the coarse palette.
  const bayer = [0, 8, 2, 10, 12, 4, 14, 6, 3, 11, 1, 9, 15, 7, 13, 5];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      let r = 255, g = 255, b = 255;
      if (x < img.width && y < img.height) {
        const o = (y * img.width + x) * 4, a = img.pixels[o + 3] / 255;
        r = img.pixels[o] * a + 255 * (1 - a);
        g = img.pixels[o + 1] * a + 255 * (1 - a);
        b = img.pixels[o + 2] * a + 255 * (1 - a);
      }
      const t = bayer[(y & 3) * 4 + (x & 3)] / 16 - 0.5;
      const ri = Math.min(5, Math.max(0, Math.round((r / 255) * 5 + t * 0.9)));
      const gi = Math.min(6, Math.max(0, Math.round((g / 255) * 6 + t * 0.9)));
      const bi = Math.min(5, Math.max(0, Math.round((b / 255) * 5 + t * 0.9)));
      out[y * width + x] = ri * 42 + gi * 6 + bi;
    }
  }
  return out;
}

/** LZW-compresses palette indices (minimum code size 8), returning the raw code stream. */
function lzw(indices: Uint8Array): Uint8Array {
  const clear = 256, eoi = 257;
  let codeSize = 9, next = 258;
  const table = new Map<number, number>();
  const bytes: number[] = [];
  let acc = 0, nbits = 0;
  const emit = (code: number) => {
    acc |= code << nbits;
    nbits += codeSize;
    while (nbits >= 8) {
      bytes.push(acc & 0xff);
      acc >>>= 8;
      nbits -= 8;
    }
  };
  emit(clear);
  if (indices.length === 0) {
    emit(eoi);
    if (nbits > 0) bytes.push(acc & 0xff);
    return Uint8Array.from(bytes);
  }
  let prefix = indices[0];
  for (let p = 1; p < indices.length; p++) {
    const k = indices[p];
    const key = (prefix << 8) | k;
    const found = table.get(key);
    if (found !== undefined) {
      prefix = found;
      continue;
    }
    emit(prefix);
    if (next < 4096) {
      table.set(key, next);
      if (next === 1 << codeSize) codeSize++;
      next++;
    } else {
      emit(clear);
      table.clear();
      next = 258;
      codeSize = 9;
    }
    prefix = k;
  }
  emit(prefix);
  emit(eoi);
  if (nbits > 0) bytes.push(acc & 0xff);
  return Uint8Array.from(bytes);
}

/**
 * Encodes RGBA frames as an animated GIF. Frames are composited over white and mapped to a
 * fixed 256-colour palette with ordered dithering; all take the first frame's size.
 *
 * @param frames the images, in order
 * @param options delay and looping
 * @returns the GIF bytes
 * @throws {RangeError} when there are no frames or a size is invalid
 * @example
 * ```ts
 * import { encodeGif } from "./gif.ts";
 * const red = { width: 2, height: 2, pixels: new Uint8Array(16).map((_, i) => (i % 4 === 0 || i % 4 === 3 ? 255 : 0)) };
 * import { expect } from "expect";
 * const gif = encodeGif([red, red]);
 * expect(new TextDecoder().decode(gif.subarray(0, 6))).toBe("GIF89a");
 * expect([gif[6] | (gif[7] << 8), gif[8] | (gif[9] << 8)]).toEqual([2, 2]); // logical screen size
 * expect(gif.at(-1)).toBe(0x3b); // trailer
 * ```
 */
export function encodeGif(frames: readonly RgbaImage[], options: GifOptions = {}): Uint8Array {
  options = plotOptions("encodeGif", options, { delay: "nonNegative", loop: "boolean" });
  if (!Array.isArray(frames) || frames.length === 0) {
    throw new RangeError(`encodeGif: frames must be a non-empty array`);
  }
  const { width, height } = frames[0] ?? {};
  if (!(Number.isInteger(width) && width > 0 && width < 65536)) {
    throw new RangeError(`encodeGif: frame width ${width} must be an integer in [1, 65535]`);
  }
  if (!(Number.isInteger(height) && height > 0 && height < 65536)) {
    throw new RangeError(`encodeGif: frame height ${height} must be an integer in [1, 65535]`);
  }
  const delay = Math.max(0, Math.round((options.delay ?? 100) / 10));
  const parts: Uint8Array[] = [];
  const u16 = (v: number) => [v & 0xff, (v >> 8) & 0xff];
  parts.push(new TextEncoder().encode("GIF89a"));
  parts.push(Uint8Array.from([...u16(width), ...u16(height), 0xf7, 0, 0]));
  parts.push(palette());
  if (options.loop ?? true) {
    parts.push(Uint8Array.from([0x21, 0xff, 0x0b]));
    parts.push(new TextEncoder().encode("NETSCAPE2.0"));
    parts.push(Uint8Array.from([0x03, 0x01, 0, 0, 0x00]));
  }
  for (const [k, f] of frames.entries()) {
    if (f === null || typeof f !== "object" || !(f.pixels instanceof Uint8Array)) {
      throw new TypeError(`encodeGif: frames[${k}] must be { width, height, pixels: Uint8Array }`);
    }
    if (f.width !== width || f.height !== height) {
      throw new RangeError(
        `encodeGif: frames[${k}] is ${f.width} × ${f.height}, the first frame ${width} × ${height}`,
      );
    }
    if (f.pixels.length < f.width * f.height * 4) {
      throw new RangeError(
        `encodeGif: a frame has ${f.pixels.length} bytes, need width × height × 4`,
      );
    }
    parts.push(Uint8Array.from([0x21, 0xf9, 0x04, 0x04, ...u16(delay), 0, 0]));
    parts.push(Uint8Array.from([0x2c, 0, 0, 0, 0, ...u16(width), ...u16(height), 0]));
    parts.push(Uint8Array.from([8]));
    const data = lzw(indexImage(f, width, height));
    for (let o = 0; o < data.length; o += 255) {
      const block = data.subarray(o, o + 255);
      parts.push(Uint8Array.from([block.length]));
      parts.push(block);
    }
    parts.push(Uint8Array.from([0]));
  }
  parts.push(Uint8Array.from([0x3b]));
  return concatBytes(parts);
}
