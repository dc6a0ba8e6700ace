/**
 * A server-side DOM for Observable Plot (linkedom), shared by every figure.
 *
 * @module
 */

import { parseHTML } from "linkedom";

/** The SVG namespace. */
export const SVG_NS = "http://www.w3.org/2000/svg";

/** The part of a DOM element the figures use (linkedom's elements satisfy it). */
export interface DomElement {
  /** Tag name. */
  readonly tagName: string;
  /** Serialised markup. */
  readonly outerHTML: string;
  /** Attribute value or null. */
  getAttribute(name: string): string | null;
  /** Sets an attribute. */
  setAttribute(name: string, value: string): void;
  /** Descendants matching a CSS selector. */
  querySelectorAll(selector: string): ArrayLike<DomElement>;
  /** First descendant matching a CSS selector. */
  querySelector(selector: string): DomElement | null;
}

/** The part of a DOM document the figures use. */
export interface DomDocument {
  /** Creates a namespaced element. */
  createElementNS(ns: string, name: string): DomElement;
  /** First element matching a CSS selector. */
  querySelector(selector: string): DomElement | null;
}

let doc: DomDocument | undefined;

/**
 * The shared linkedom document Plot renders into (created on first use).
 *
 * @returns a DOM `Document`
 * @example
 * ```ts
 * import { plotDocument } from "./dom.ts";
 * import { expect } from "expect";
 * const svg = plotDocument().createElementNS("http://www.w3.org/2000/svg", "svg");
 * expect(svg.tagName.toLowerCase()).toBe("svg");
 * expect(plotDocument()).toBe(plotDocument()); // one shared document
 * ```
 */
export function plotDocument(): DomDocument {
  if (!doc) {
    const win = parseHTML("<!DOCTYPE html><html><head></head><body></body></html>");
    doc = (win as unknown as { document: DomDocument }).document;
  }
  return doc;
}

/**
 * Escapes text for use inside SVG/XML text and attribute values.
 *
 * @param text any text
 * @returns the escaped text
 * @example
 * ```ts
 * import { escapeXml } from "./dom.ts";
 * import { expect } from "expect";
 * expect(escapeXml('a<b & "c"')).toBe("a&lt;b &amp; &quot;c&quot;");
 * ```
 */
export function escapeXml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}

/**
 * Parses an SVG string with linkedom, for inspecting figures (counting marks in tests).
 *
 * @param svg an SVG document string
 * @returns the root `<svg>` element
 * @throws {Error} when the string has no `<svg>` root
 * @example
 * ```ts
 * import { parseSVG } from "./dom.ts";
 * import { expect } from "expect";
 * const root = parseSVG('<svg xmlns="http://www.w3.org/2000/svg"><circle r="1"/></svg>');
 * expect(root.querySelectorAll("circle").length).toBe(1);
 * expect(root.querySelector("circle")?.getAttribute("r")).toBe("1");
 * expect(() => parseSVG("<div/>")).toThrow(/no <svg> element/);
 * ```
 */
export function parseSVG(svg: string): DomElement {
  if (typeof svg !== "string") {
    throw new TypeError(`parseSVG: svg (${String(svg)}) must be a string`);
  }
  const win = parseHTML(`<!DOCTYPE html><html><body>${svg}</body></html>`);
  const root = (win as unknown as { document: DomDocument }).document.querySelector("svg");
  if (!root) throw new Error(`parseSVG: no <svg> element in ${svg.slice(0, 60)}…`);
  return root;
}
