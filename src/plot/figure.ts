/**
 * `Figure`: a standalone SVG with its size, convertible to PNG, savable, and displayable in a
 * Deno Jupyter cell; `compose` lays panels, titles and legends out into one figure.
 *
 * @module
 */

import { writeFileAtomic } from "../math/files.ts";
import { type DomElement, escapeXml, SVG_NS } from "./dom.ts";
import { type PngOptions, svgToPNG } from "./png.ts";
import { plotOptions, PNG_RULES } from "./options.ts";

/** SVG larger than this is shown in notebooks as PNG (keeps saved notebooks small). */
const INLINE_SVG_LIMIT = 350_000;

/**
 * A finished figure: a standalone SVG document (with `xmlns`) and its pixel size.
 *
 * @example
 * ```ts
 * import { Figure } from "@grainlab/grainlab/plot";
 * import { expect } from "expect";
 * const f = new Figure('<svg xmlns="http://www.w3.org/2000/svg" width="20" height="10"></svg>', 20, 10);
 * const png = f.toPNG(); // scale 2
 * expect(Array.from(png.subarray(1, 4))).toEqual([0x50, 0x4e, 0x47]); // "PNG"
 * const ihdr = new DataView(png.buffer, png.byteOffset + 16, 8);
 * expect([ihdr.getUint32(0), ihdr.getUint32(4)]).toEqual([40, 20]);
 * expect(() => new Figure("<div/>", 1, 1)).toThrow(TypeError);
 * ```
 */
export class Figure {
  /** The SVG document. */
  readonly svg: string;
  /** Width (px). */
  readonly width: number;
  /** Height (px). */
  readonly height: number;
  /** Facts about what was drawn (counts, ranges), for tests and captions. */
  readonly info: Readonly<Record<string, number | string>>;

  /**
   * Wraps a standalone SVG document.
   *
   * @param svg standalone SVG document string
   * @param width width (px)
   * @param height height (px)
   * @param info facts about what was drawn
   */
  constructor(
    svg: string,
    width: number,
    height: number,
    info: Record<string, number | string> = {},
  ) {
    if (typeof svg !== "string" || !svg.trimStart().startsWith("<svg")) {
      throw new TypeError(`Figure: svg must be a string starting with <svg`);
    }
    this.svg = svg;
    this.width = width;
    this.height = height;
    this.info = Object.freeze({ ...info });
  }

  /** The standalone SVG document. */
  toSVG(): string {
    return this.svg;
  }

  /**
   * Rasterises the figure.
   *
   * @param options scale (default 2) and background (default white)
   * @returns PNG bytes
   */
  toPNG(options: PngOptions = {}): Uint8Array {
    return svgToPNG(this.svg, plotOptions("Figure.toPNG", options, PNG_RULES));
  }

  /**
   * Writes the figure atomically as `.svg` or `.png`, chosen by the extension.
   *
   * @param path file path ending in `.svg` or `.png`
   * @param options PNG options
   * @returns the path
   * @throws {RangeError} on another extension
   */
  async save(path: string, options: PngOptions = {}): Promise<string> {
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(`Figure.save: path (${String(path)}) must be a non-empty string`);
    }
    if (/\.svg$/i.test(path)) {
      plotOptions("Figure.save", options, PNG_RULES);
      await writeFileAtomic(path, new TextEncoder().encode(this.svg), "Figure.save");
    } else if (/\.png$/i.test(path)) {
      await writeFileAtomic(path, this.toPNG(options), "Figure.save");
    } else {
      throw new RangeError(`Figure.save: path "${path}" must end in .svg or .png`);
    }
    return path;
  }

  /**
   * Rich display in a Deno Jupyter cell: the SVG as an `<img>` (front ends that strip inline
   * SVG from outputs — `jupyter nbconvert --to html`, GitHub — still show it) and a PNG beside
   * it for front ends that show no HTML; large figures as PNG only.
   */
  [Symbol.for("Jupyter.display")](): Record<string, string> {
    const png = base64(this.toPNG({ scale: 1 }));
    const text = `Figure ${this.width} × ${this.height}`;
    if (this.svg.length > INLINE_SVG_LIMIT) return { "image/png": png, "text/plain": text };
    const svg = base64(new TextEncoder().encode(this.svg));
    return {
      "text/html": `<img alt="${escapeXml(text)}" width="${this.width}" height="${this.height}" ` +
        `style="max-width:100%;height:auto" src="data:image/svg+xml;base64,${svg}">`,
      "image/png": png,
      "text/plain": text,
    };
  }
}

/**
 * Base64 of bytes (for data URLs and Jupyter image outputs).
 *
 * @param bytes the bytes
 * @returns base64 text
 * @example
 * ```ts
 * import { base64 } from "./figure.ts";
 * import { expect } from "expect";
 * expect(base64(new Uint8Array([104, 105]))).toBe("aGk=");
 * expect(atob(base64(new Uint8Array([0, 255])))).toBe("\x00\xff");
 * ```
 */
export function base64(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array)) {
    throw new TypeError(`base64: bytes (${String(bytes)}) must be a Uint8Array`);
  }
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) {
    s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  }
  return btoa(s);
}

/**
 * Makes any SVG string or element standalone: adds `xmlns` (Plot omits it) and a white
 * background rectangle.
 *
 * @param svg an SVG string, an SVG element (e.g. from `Plot.plot`), or a {@link Figure}
 * @returns the SVG document string
 * @throws {TypeError} when the input is not SVG
 * @example
 * ```ts
 * import { toSVG } from "./figure.ts";
 * import { expect } from "expect";
 * const s = toSVG('<svg width="5" height="5"><circle r="2"/></svg>');
 * expect(s).toBe('<svg xmlns="http://www.w3.org/2000/svg" width="5" height="5"><circle r="2"/></svg>');
 * expect(() => toSVG("<div/>")).toThrow(TypeError);
 * ```
 */
export function toSVG(svg: string | DomElement | Figure): string {
  if (svg instanceof Figure) return svg.svg;
  const text = typeof svg === "string" ? svg : (svg as DomElement)?.outerHTML;
  if (typeof text !== "string" || !/^\s*<svg[\s>]/.test(text)) {
    throw new TypeError(`toSVG: input must be an <svg> string, element or Figure`);
  }
  let out = text.trim();
  if (!/^<svg[^>]*\sxmlns=/.test(out)) out = out.replace(/^<svg/, `<svg xmlns="${SVG_NS}"`);
  return out;
}

/**
 * Rasterises an SVG string, element or {@link Figure} to PNG bytes.
 *
 * @param svg the figure
 * @param options scale and background
 * @returns PNG bytes
 * @example
 * ```ts
 * import { toPNG } from "./figure.ts";
 * import { expect } from "expect";
 * const png = toPNG('<svg width="8" height="8"><rect width="4" height="4"/></svg>', { scale: 1 });
 * expect(Array.from(png.subarray(0, 4))).toEqual([0x89, 0x50, 0x4e, 0x47]);
 * const ihdr = new DataView(png.buffer, png.byteOffset + 16, 8);
 * expect([ihdr.getUint32(0), ihdr.getUint32(4)]).toEqual([8, 8]);
 * ```
 */
export function toPNG(svg: string | DomElement | Figure, options: PngOptions = {}): Uint8Array {
  return svgToPNG(toSVG(svg), plotOptions("toPNG", options, PNG_RULES));
}

/** One piece of a composed figure: an SVG string with its size. */
export interface Panel {
  /** SVG markup of the panel (standalone `<svg>` or a fragment). */
  svg: string;
  /** Width (px). */
  width: number;
  /** Height (px). */
  height: number;
}

/** Options of {@link compose}. */
export interface ComposeOptions {
  /** Title above the panels. */
  title?: string;
  /** Subtitle (smaller, grey) under the title. */
  subtitle?: string;
  /** A legend panel placed to the right of the panels. */
  legend?: Panel;
  /** Panels per row. @default all in one row */
  columns?: number;
  /** Gap between panels (px). @default 12 */
  gap?: number;
  /** Facts recorded in {@link Figure.info}. */
  info?: Record<string, number | string>;
}

/**
 * Lays panels out in a grid with an optional title and legend, as one standalone SVG.
 *
 * @param panels the panels, in reading order
 * @param options title, legend and layout
 * @returns the figure
 * @throws {RangeError} when there are no panels
 * @example
 * ```ts
 * import { compose } from "@grainlab/grainlab/plot";
 * const box = { svg: '<svg width="50" height="40"><rect width="50" height="40"/></svg>', width: 50, height: 40 };
 * import { expect } from "expect";
 * const f = compose([box, box], { title: "Two boxes" });
 * expect(f.width).toBe(2 * 50 + 12 + 12); // two panels, the gap between, half a gap each side
 * expect(f.height).toBe(40 + 32 + 12); // panels, title row, bottom gap
 * expect(f.svg).toContain("Two boxes");
 * ```
 */
export function compose(panels: readonly Panel[], options: ComposeOptions = {}): Figure {
  options = plotOptions("compose", options, {
    title: "string",
    subtitle: "string",
    legend: "any",
    columns: "count",
    gap: "nonNegative",
    info: "any",
  });
  if (!Array.isArray(panels) || panels.length === 0) {
    throw new RangeError(`compose: panels must be a non-empty array`);
  }
  const gap = options.gap ?? 12;
  const cols = Math.max(1, Math.min(options.columns ?? panels.length, panels.length));
  const rows = Math.ceil(panels.length / cols);
  const colW = Array.from(
    { length: cols },
    (_, c) => Math.max(...panels.filter((_, i) => i % cols === c).map((p) => p.width)),
  );
  const rowH = Array.from(
    { length: rows },
    (_, r) => Math.max(...panels.slice(r * cols, r * cols + cols).map((p) => p.height)),
  );
  const titleH = (options.title ? 26 : 0) + (options.subtitle ? 18 : 0) +
    (options.title || options.subtitle ? 6 : 0);
  const gridW = colW.reduce((a, b) => a + b, 0) + gap * (cols - 1);
  const gridH = rowH.reduce((a, b) => a + b, 0) + gap * (rows - 1);
  const legendW = options.legend ? options.legend.width + gap : 0;
  const width = Math.ceil(gridW + legendW + gap);
  const height = Math.ceil(titleH + Math.max(gridH, options.legend?.height ?? 0) + gap);
  const parts: string[] = [
    `<svg xmlns="${SVG_NS}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" ` +
    `font-family="DejaVu Sans, sans-serif" font-size="10">`,
    `<rect width="100%" height="100%" fill="white"/>`,
  ];
  if (options.title) {
    parts.push(
      `<text x="${gap}" y="20" font-size="15" font-weight="bold" fill="#222">${
        escapeXml(options.title)
      }</text>`,
    );
  }
  if (options.subtitle) {
    parts.push(
      `<text x="${gap}" y="${options.title ? 40 : 16}" font-size="11" fill="#666">${
        escapeXml(options.subtitle)
      }</text>`,
    );
  }
  let y = titleH;
  for (let r = 0; r < rows; r++) {
    let x = gap / 2;
    for (let c = 0; c < cols; c++) {
      const p = panels[r * cols + c];
      if (p) parts.push(nest(p, x, y));
      x += colW[c] + gap;
    }
    y += rowH[r] + gap;
  }
  if (options.legend) parts.push(nest(options.legend, gap / 2 + gridW + gap, titleH));
  parts.push("</svg>");
  return new Figure(parts.join(""), width, height, options.info ?? {});
}

/** Places a panel at (x, y): nested `<svg>` keeps its own viewport. */
function nest(p: Panel, x: number, y: number): string {
  const body = p.svg.trim();
  if (body.startsWith("<svg")) {
    return body.replace(/^<svg/, `<svg x="${x}" y="${y}"`);
  }
  return `<g transform="translate(${x},${y})">${body}</g>`;
}
