/**
 * Small raster helpers for the 3D viewer: a PNG encoder and decoder (8-bit, non-interlaced;
 * zlib from `node:zlib`) and a software renderer of shaded spheres with a depth buffer, which
 * draws the viewer's still image (its `image/png` fallback, shown where no script runs).
 *
 * @module
 */

import { deflateSync, inflateSync } from "node:zlib";

/** An RGBA image: 4 bytes per pixel, rows top to bottom. */
export interface RgbaImage {
  /** Width (px). */
  width: number;
  /** Height (px). */
  height: number;
  /** RGBA bytes, `width × height × 4`. */
  pixels: Uint8Array;
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
let crcTable: Uint32Array | undefined;

function crc32(bytes: Uint8Array, start: number, end: number): number {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let c = 0xffffffff;
  for (let i = start; i < end; i++) c = crcTable[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/**
 * Encodes RGBA pixels as a PNG (8 bits; RGB when every pixel is opaque, else RGBA; each row
 * with the filter that suits it).
 *
 * @param image width, height and RGBA pixels
 * @returns the PNG bytes
 * @throws {RangeError} when the size is not positive integers or the pixels are too few
 * @example
 * ```ts
 * import { decodePNG, encodePNG } from "./raster.ts";
 * import { expect } from "expect";
 * const pixels = new Uint8Array([255, 0, 0, 255, 0, 0, 255, 128]);
 * const png = encodePNG({ width: 2, height: 1, pixels });
 * expect(Array.from(png.subarray(1, 4))).toEqual([0x50, 0x4e, 0x47]); // "PNG"
 * expect(decodePNG(png)).toEqual({ width: 2, height: 1, pixels });
 * ```
 */
export function encodePNG(image: RgbaImage): Uint8Array {
  const { width: w, height: h, pixels: rgba } = image;
  if (!(Number.isInteger(w) && w > 0 && Number.isInteger(h) && h > 0)) {
    throw new RangeError(`encodePNG: size ${w} × ${h} must be positive integers`);
  }
  if (!(rgba instanceof Uint8Array) || rgba.length < w * h * 4) {
    throw new RangeError(`encodePNG: pixels must be a Uint8Array of ${w * h * 4} bytes`);
  }
  // opaque images are stored as RGB (colour type 2)
  let opaque = true;
  for (let i = 3; i < w * h * 4 && opaque; i += 4) opaque = rgba[i] === 255;
  const bpp = opaque ? 3 : 4;
  const pixels = opaque ? new Uint8Array(w * h * 3) : rgba;
  if (opaque) {
    for (let i = 0; i < w * h; i++) {
      pixels[3 * i] = rgba[4 * i], pixels[3 * i + 1] = rgba[4 * i + 1];
      pixels[3 * i + 2] = rgba[4 * i + 2];
    }
  }
  const stride = w * bpp;
  const raw = new Uint8Array((stride + 1) * h);
  const trial = new Uint8Array(stride);
  for (let y = 0; y < h; y++) {
    // each row with the filter whose output has the smallest sum of |signed bytes|
    const o = y * (stride + 1), s = y * stride;
    let best = Infinity;
    for (let f = 0; f < 5; f++) {
      let cost = 0;
      for (let x = 0; x < stride; x++) {
        const a = x >= bpp ? pixels[s + x - bpp] : 0, b = y > 0 ? pixels[s - stride + x] : 0;
        const c = x >= bpp && y > 0 ? pixels[s - stride + x - bpp] : 0;
        const v = (pixels[s + x] - pngPredict(f, a, b, c)) & 0xff;
        trial[x] = v;
        cost += v < 128 ? v : 256 - v;
      }
      if (cost < best) {
        best = cost;
        raw[o] = f;
        raw.set(trial, o + 1);
      }
    }
  }
  const idat = new Uint8Array(deflateSync(raw, { level: 9 }));
  const ihdr = new Uint8Array(13);
  const hv = new DataView(ihdr.buffer);
  hv.setUint32(0, w);
  hv.setUint32(4, h);
  ihdr.set([8, opaque ? 2 : 6, 0, 0, 0], 8);
  const chunks: [string, Uint8Array][] = [["IHDR", ihdr], ["IDAT", idat], [
    "IEND",
    new Uint8Array(0),
  ]];
  const size = 8 + chunks.reduce((a, [, d]) => a + 12 + d.length, 0);
  const out = new Uint8Array(size);
  const dv = new DataView(out.buffer);
  out.set(SIGNATURE, 0);
  let p = 8;
  for (const [type, data] of chunks) {
    dv.setUint32(p, data.length);
    for (let k = 0; k < 4; k++) out[p + 4 + k] = type.charCodeAt(k);
    out.set(data, p + 8);
    dv.setUint32(p + 8 + data.length, crc32(out, p + 4, p + 8 + data.length));
    p += 12 + data.length;
  }
  return out;
}

/**
 * Decodes a PNG into RGBA pixels: 8-bit greyscale, grey + alpha, RGB, RGBA and palette images,
 * non-interlaced (what browsers' screenshots and {@link encodePNG} produce). Every chunk
 * length, the checksums and the decompressed size are checked before use.
 *
 * @param bytes the PNG file
 * @returns width, height and RGBA pixels
 * @throws {RangeError} on anything that is not such a PNG, naming the problem
 * @example
 * ```ts
 * import { decodePNG, encodePNG } from "./raster.ts";
 * import { expect } from "expect";
 * const png = encodePNG({ width: 1, height: 2, pixels: new Uint8Array([1, 2, 3, 4, 5, 6, 7, 8]) });
 * expect(Array.from(decodePNG(png).pixels)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
 * expect(() => decodePNG(new Uint8Array([1, 2, 3]))).toThrow(RangeError);
 * const bad = png.slice();
 * bad[20] ^= 1; // inside IHDR: its checksum no longer matches
 * expect(() => decodePNG(bad)).toThrow(/checksum/);
 * ```
 */
export function decodePNG(bytes: Uint8Array): RgbaImage {
  const fail = (why: string): never => {
    throw new RangeError(`decodePNG: ${why}`);
  };
  if (!(bytes instanceof Uint8Array) || bytes.length < 8 + 25 + 12) fail("too short for a PNG");
  for (let k = 0; k < 8; k++) if (bytes[k] !== SIGNATURE[k]) fail("no PNG signature");
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let p = 8, w = 0, h = 0, colorType = -1, palette: Uint8Array | null = null;
  let trns: Uint8Array | null = null;
  const idat: Uint8Array[] = [];
  let ended = false;
  while (p + 12 <= bytes.length) {
    const len = dv.getUint32(p);
    const type = String.fromCharCode(bytes[p + 4], bytes[p + 5], bytes[p + 6], bytes[p + 7]);
    if (len > bytes.length - p - 12) fail(`chunk ${type} at byte ${p} runs past the end`);
    const data = bytes.subarray(p + 8, p + 8 + len);
    if (crc32(bytes, p + 4, p + 8 + len) !== dv.getUint32(p + 8 + len)) {
      fail(`chunk ${type} at byte ${p}: checksum mismatch`);
    }
    if (type === "IHDR") {
      if (len !== 13) fail(`IHDR has ${len} bytes, must have 13`);
      const v = new DataView(data.buffer, data.byteOffset, 13);
      w = v.getUint32(0);
      h = v.getUint32(4);
      colorType = data[9];
      if (data[8] !== 8) fail(`bit depth ${data[8]} is not supported (only 8)`);
      if (![0, 2, 3, 4, 6].includes(colorType)) fail(`colour type ${colorType} is not valid`);
      if (data[12] !== 0) fail("interlaced images are not supported");
      if (!(w > 0 && h > 0 && w * h <= 1 << 28)) fail(`size ${w} × ${h} is out of range`);
    } else if (type === "PLTE") {
      palette = data;
    } else if (type === "tRNS") {
      trns = data;
    } else if (type === "IDAT") {
      idat.push(data);
    } else if (type === "IEND") {
      ended = true;
      break;
    }
    p += 12 + len;
  }
  if (w === 0) fail("no IHDR chunk");
  if (!ended) fail("no IEND chunk");
  if (colorType === 3 && !palette) fail("palette image without PLTE");
  const channels = [1, 0, 3, 1, 2, 0, 4][colorType];
  const stride = w * channels;
  const zipped = new Uint8Array(idat.reduce((a, d) => a + d.length, 0));
  let o = 0;
  for (const d of idat) {
    zipped.set(d, o);
    o += d.length;
  }
  let raw: Uint8Array;
  try {
    raw = new Uint8Array(inflateSync(zipped, { maxOutputLength: (stride + 1) * h + 1 }));
  } catch (e) {
    return fail(`image data do not inflate: ${(e as Error).message}`);
  }
  if (raw.length !== (stride + 1) * h) {
    fail(`image data inflate to ${raw.length} bytes, need ${(stride + 1) * h}`);
  }
  const img = new Uint8Array(stride * h);
  for (let y = 0; y < h; y++) {
    const f = raw[y * (stride + 1)], src = y * (stride + 1) + 1, dst = y * stride;
    for (let x = 0; x < stride; x++) {
      const a = x >= channels ? img[dst + x - channels] : 0;
      const b = y > 0 ? img[dst - stride + x] : 0;
      const c = x >= channels && y > 0 ? img[dst - stride + x - channels] : 0;
      if (f > 4) fail(`row ${y} has filter type ${f}`);
      img[dst + x] = (raw[src + x] + pngPredict(f, a, b, c)) & 0xff;
    }
  }
  const pixels = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) {
    const s = i * channels, d = i * 4;
    if (colorType === 6) pixels.set(img.subarray(s, s + 4), d);
    else if (colorType === 2) {
      pixels[d] = img[s];
      pixels[d + 1] = img[s + 1];
      pixels[d + 2] = img[s + 2];
      pixels[d + 3] = 255;
    } else if (colorType === 0 || colorType === 4) {
      pixels[d] = pixels[d + 1] = pixels[d + 2] = img[s];
      pixels[d + 3] = colorType === 4 ? img[s + 1] : 255;
    } else {
      const k = img[s];
      if (3 * k + 2 >= palette!.length) fail(`palette index ${k} is out of range`);
      pixels[d] = palette![3 * k];
      pixels[d + 1] = palette![3 * k + 1];
      pixels[d + 2] = palette![3 * k + 2];
      pixels[d + 3] = trns && k < trns.length ? trns[k] : 255;
    }
  }
  return { width: w, height: h, pixels };
}

/** A pinhole camera looking from `position` at `target` with `up` and a vertical field of view. */
export interface Camera {
  /** Eye position (m). */
  position: [number, number, number];
  /** Point looked at (m). */
  target: [number, number, number];
  /** Up direction. */
  up: [number, number, number];
  /** Vertical field of view (degrees). */
  fov: number;
}

/** What {@link renderSpheres} draws. */
export interface SphereScene {
  /** Spheres to draw. */
  count: number;
  /** Centres, stride 3 (m). */
  positions: ArrayLike<number>;
  /** Radii (m). */
  radii: ArrayLike<number>;
  /** Colours, 3 bytes (sRGB) per sphere. */
  colors: Uint8Array;
  /** Line segments (x0, y0, z0, x1, y1, z1 each) drawn with depth test, e.g. box edges. */
  lines?: { segments: ArrayLike<number>; color: [number, number, number] }[];
  /** A horizontal floor quad at `z` over `[x0, y0, x1, y1]`. */
  floor?: { z: number; extent: [number, number, number, number]; color: [number, number, number] };
  /** Background colour (sRGB bytes). @default [255, 255, 255] */
  background?: [number, number, number];
}

/**
 * Renders shaded spheres (with a floor and lines) through a pinhole camera into RGBA pixels,
 * with a depth buffer and 2 × 2 supersampling: the still image of a 3D view.
 *
 * @param scene spheres, lines, floor, background
 * @param camera the camera
 * @param width image width (px)
 * @param height image height (px)
 * @returns the image
 * @example
 * ```ts
 * import { renderSpheres } from "./raster.ts";
 * import { expect } from "expect";
 * const img = renderSpheres(
 *   { count: 1, positions: [0, 0, 0], radii: [1], colors: new Uint8Array([200, 0, 0]) },
 *   { position: [0, -10, 0], target: [0, 0, 0], up: [0, 0, 1], fov: 30 },
 *   40,
 *   40,
 * );
 * const at = (x: number, y: number) => Array.from(img.pixels.subarray((y * 40 + x) * 4, (y * 40 + x) * 4 + 3));
 * expect(at(20, 20)[0]).toBeGreaterThan(100); // the sphere's red centre
 * expect(at(20, 20)[1]).toBe(0);
 * expect(at(1, 1)).toEqual([255, 255, 255]); // background in the corner
 * ```
 */
export function renderSpheres(
  scene: SphereScene,
  camera: Camera,
  width: number,
  height: number,
): RgbaImage {
  const S = 2, W = width * S, H = height * S;
  const color = new Uint8Array(W * H * 3);
  const depth = new Float32Array(W * H).fill(Infinity);
  const bg = scene.background ?? [255, 255, 255];
  for (let i = 0; i < W * H; i++) color.set(bg, 3 * i);
  const [ex, ey, ez] = camera.position;
  let fx = camera.target[0] - ex, fy = camera.target[1] - ey, fz = camera.target[2] - ez;
  let l = Math.hypot(fx, fy, fz) || 1;
  fx /= l, fy /= l, fz /= l;
  const [ux0, uy0, uz0] = camera.up;
  let rx = fy * uz0 - fz * uy0, ry = fz * ux0 - fx * uz0, rz = fx * uy0 - fy * ux0;
  l = Math.hypot(rx, ry, rz) || 1;
  rx /= l, ry /= l, rz /= l;
  const ux = ry * fz - rz * fy, uy = rz * fx - rx * fz, uz = rx * fy - ry * fx;
  const focal = H / 2 / Math.tan((camera.fov * Math.PI) / 360);
  const cx = W / 2, cy = H / 2, near = 1e-6;
  // camera-space coordinates of a world point: [right, up, forward]
  const toCam = (x: number, y: number, z: number): [number, number, number] => {
    const dx = x - ex, dy = y - ey, dz = z - ez;
    return [dx * rx + dy * ry + dz * rz, dx * ux + dy * uy + dz * uz, dx * fx + dy * fy + dz * fz];
  };
  // light from the upper left, in front of the camera (camera space, normalised)
  let lx = -0.45, ly = 0.6, lz = -0.66;
  l = Math.hypot(lx, ly, lz);
  lx /= l, ly /= l, lz /= l;

  if (scene.floor) {
    const { z, extent: [x0, y0, x1, y1], color: fc } = scene.floor;
    for (let py = 0; py < H; py++) {
      for (let px = 0; px < W; px++) {
        const a = (px + 0.5 - cx) / focal, b = (cy - py - 0.5) / focal;
        const dx = rx * a + ux * b + fx, dy = ry * a + uy * b + fy, dz = rz * a + uz * b + fz;
        if (Math.abs(dz) < 1e-12) continue;
        const t = (z - ez) / dz;
        if (!(t > near)) continue;
        const hx = ex + t * dx, hy = ey + t * dy;
        if (hx < x0 || hx > x1 || hy < y0 || hy > y1) continue;
        const k = py * W + px;
        depth[k] = t; // forward distance: (dx, dy, dz)·f = 1
        color.set(fc, 3 * k);
      }
    }
  }

  const order = Array.from({ length: scene.count }, (_, i) => i);
  const zc = new Float64Array(scene.count);
  for (let i = 0; i < scene.count; i++) {
    const p = scene.positions;
    zc[i] = toCam(p[3 * i], p[3 * i + 1], p[3 * i + 2])[2];
  }
  order.sort((a, b) => zc[a] - zc[b]); // front to back: hidden pixels are skipped early
  for (const i of order) {
    const p = scene.positions, r = scene.radii[i];
    const [xr, yu, zf] = toCam(p[3 * i], p[3 * i + 1], p[3 * i + 2]);
    if (!(zf > r + near) || !(r > 0)) continue;
    const sx = cx + (focal * xr) / zf, sy = cy - (focal * yu) / zf, sr = (focal * r) / zf;
    const xa = Math.max(0, Math.floor(sx - sr)), xb = Math.min(W - 1, Math.ceil(sx + sr));
    const ya = Math.max(0, Math.floor(sy - sr)), yb = Math.min(H - 1, Math.ceil(sy + sr));
    const cr = scene.colors[3 * i], cg = scene.colors[3 * i + 1], cb = scene.colors[3 * i + 2];
    for (let py = ya; py <= yb; py++) {
      const ny = -(py + 0.5 - sy) / sr;
      for (let px = xa; px <= xb; px++) {
        const nx = (px + 0.5 - sx) / sr;
        const q = nx * nx + ny * ny;
        if (q > 1) continue;
        const nz = -Math.sqrt(1 - q); // towards the camera
        const d = zf + r * nz;
        const k = py * W + px;
        if (d >= depth[k]) continue;
        depth[k] = d;
        const diff = Math.max(0, nx * lx + ny * ly + nz * lz);
        const shade = 0.42 + 0.62 * diff + 0.18 * Math.pow(Math.max(0, -nz), 8);
        const rim = q > 0.86 ? 0.82 : 1;
        color[3 * k] = Math.min(255, cr * shade * rim);
        color[3 * k + 1] = Math.min(255, cg * shade * rim);
        color[3 * k + 2] = Math.min(255, cb * shade * rim);
      }
    }
  }

  for (const line of scene.lines ?? []) {
    const s = line.segments;
    for (let k = 0; k + 5 < s.length; k += 6) {
      const a = toCam(s[k], s[k + 1], s[k + 2]), b = toCam(s[k + 3], s[k + 4], s[k + 5]);
      if (!(a[2] > near && b[2] > near)) continue;
      const ax = cx + (focal * a[0]) / a[2], ay = cy - (focal * a[1]) / a[2];
      const bx = cx + (focal * b[0]) / b[2], by = cy - (focal * b[1]) / b[2];
      const steps = Math.ceil(Math.hypot(bx - ax, by - ay) * 2) + 1;
      for (let t = 0; t <= steps; t++) {
        const u = t / steps;
        const x = Math.round(ax + (bx - ax) * u), y = Math.round(ay + (by - ay) * u);
        // perspective-correct depth along the segment
        const d = 1 / ((1 - u) / a[2] + u / b[2]);
        for (let oy = 0; oy < 2; oy++) {
          for (let ox = 0; ox < 2; ox++) {
            const X = x + ox, Y = y + oy;
            if (X < 0 || Y < 0 || X >= W || Y >= H) continue;
            const q = Y * W + X;
            if (d > depth[q] * (1 + 1e-3)) continue;
            color.set(line.color, 3 * q);
          }
        }
      }
    }
  }

  // 2 × 2 average; everything but the background in 32 levels per channel, which halves the
  // size of the PNG and does not show on shaded spheres
  const pixels = new Uint8Array(width * height * 4);
  const sum = [0, 0, 0];
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      sum[0] = sum[1] = sum[2] = 0;
      for (let oy = 0; oy < S; oy++) {
        for (let ox = 0; ox < S; ox++) {
          const k = 3 * ((y * S + oy) * W + x * S + ox);
          sum[0] += color[k], sum[1] += color[k + 1], sum[2] += color[k + 2];
        }
      }
      const o = 4 * (y * width + x);
      const isBg = sum[0] === bg[0] * S * S && sum[1] === bg[1] * S * S &&
        sum[2] === bg[2] * S * S;
      for (let c = 0; c < 3; c++) {
        const v = sum[c] / (S * S);
        pixels[o + c] = isBg ? bg[c] : Math.min(255, Math.round(v / 8) * 8);
      }
      pixels[o + 3] = 255;
    }
  }
  return { width, height, pixels };
}

/**
 * The PNG filter predictor of filter type `f` (0 none, 1 sub, 2 up, 3 average, 4 Paeth) from
 * the left (`a`), upper (`b`) and upper-left (`c`) bytes: the one rule the encoder and the
 * decoder share.
 */
function pngPredict(f: number, a: number, b: number, c: number): number {
  if (f === 1) return a;
  if (f === 2) return b;
  if (f === 3) return (a + b) >> 1;
  if (f === 4) {
    const pa = Math.abs(b - c), pb = Math.abs(a - c), pc = Math.abs(a + b - 2 * c);
    return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
  }
  return 0;
}
