/**
 * The XML side of the URDF reader (`urdf.ts`): the element tree with source positions,
 * error messages naming source, line, column and element, and readers of number, vector and
 * pose attributes. Internal (not re-exported).
 *
 * @module
 */
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { type Quaternion, rpyToQuaternion, type Vector3 } from "./quat.ts";

// ---------------------------------------------------------------------------------------------
// The XML tree
// ---------------------------------------------------------------------------------------------

/** An element: its name, attributes, children and position. */
export interface XNode {
  /** Tag name. */
  name: string;
  /** Attributes (entities decoded). */
  attrs: Record<string, string>;
  /** Child elements in document order (text is dropped). */
  children: XNode[];
  /** Offset of the `<` of the start tag. */
  start: number;
}

/** The error classes of structure and range errors. */
export type ErrorType = TypeErrorConstructor | RangeErrorConstructor;

/** The text, its source name, and error messages with line and column. */
export class Ctx {
  #lineStarts: number[] | null = null;
  /** `where`: the public function; `text`; `source`: its name in messages. */
  constructor(readonly where: string, readonly text: string, readonly source: string) {}

  /** `source:line:column` of a text offset. */
  at(offset: number): string {
    if (!this.#lineStarts) {
      const s = [0];
      for (let k = this.text.indexOf("\n"); k >= 0; k = this.text.indexOf("\n", k + 1)) {
        s.push(k + 1);
      }
      this.#lineStarts = s;
    }
    const s = this.#lineStarts;
    let lo = 0, hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= offset) lo = mid;
      else hi = mid - 1;
    }
    return `${this.source}:${lo + 1}:${offset - s[lo] + 1}`;
  }

  /** Throw `Type` with `where: source:line:col: element: rule`. */
  fail(Type: ErrorType, node: XNode, element: string, rule: string): never {
    throw new Type(`${this.where}: ${this.at(node.start)}: ${element}: ${rule}`);
  }
}

/** Check and parse the text into elements (SyntaxError when it is not well-formed XML). */
export function parseXml(ctx: Ctx): XNode[] {
  const { where, source, text } = ctx;
  const dt = text.indexOf("<!DOCTYPE");
  if (dt >= 0) {
    throw new SyntaxError(`${where}: ${ctx.at(dt)}: a DOCTYPE is not allowed in URDF`);
  }
  if (text.trim() === "") {
    throw new SyntaxError(`${where}: ${source}: not XML: the text is empty`);
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    const e = valid.err;
    throw new SyntaxError(
      `${where}: ${source}:${e.line}${e.col ? `:${e.col}` : ""}: not well-formed XML: ${e.msg}`,
    );
  }
  const parser = new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: "",
    preserveOrder: true,
    captureMetaData: true,
    parseAttributeValue: false,
    parseTagValue: false,
    trimValues: true,
    processEntities: true,
    htmlEntities: false,
    ignoreDeclaration: true,
    ignorePiTags: true,
  });
  const meta = XMLParser.getMetaDataSymbol() as unknown as symbol;
  let raw: unknown;
  try {
    raw = parser.parse(text);
  } catch (e) {
    throw new SyntaxError(`${where}: ${source}: not well-formed XML: ${(e as Error).message}`);
  }
  return toNodes(raw as Record<string, unknown>[], meta);
}

/** fast-xml-parser's ordered output (`{ tag: children, ":@": attributes }`) → XNode. */
export function toNodes(raw: Record<string, unknown>[], meta: symbol): XNode[] {
  const out: XNode[] = [];
  for (const r of raw) {
    const name = Object.keys(r).find((k) => k !== ":@" && k !== "#text");
    if (name === undefined) continue; // text: URDF elements hold none that matters
    const m = (r as Record<symbol, { startIndex?: number } | undefined>)[meta];
    const attrs: Record<string, string> = {};
    const a = r[":@"] as Record<string, unknown> | undefined;
    if (a) { for (const k of Object.keys(a)) attrs[k] = String(a[k]); }
    const kids = Array.isArray(r[name]) ? r[name] as Record<string, unknown>[] : [];
    out.push({ name, attrs, children: toNodes(kids, meta), start: m?.startIndex ?? 0 });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Values
// ---------------------------------------------------------------------------------------------

/** A decimal number (no hex, no inf/nan). */
export const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?$/;

/** The only child `<name>` of `node`, or null; more than one is an error. */
export function single(ctx: Ctx, node: XNode, name: string, element: string): XNode | null {
  let found: XNode | null = null;
  for (const c of node.children) {
    if (c.name !== name) continue;
    if (found) ctx.fail(TypeError, c, element, `more than one <${name}>`);
    found = c;
  }
  return found;
}

/** The only child `<name>` of `node`; none or more than one is an error. */
export function required(ctx: Ctx, node: XNode, name: string, element: string): XNode {
  const c = single(ctx, node, name, element);
  if (!c) ctx.fail(TypeError, node, element, `<${node.name}> has no <${name}>`);
  return c;
}

/** A number attribute; `dflt` when absent (absent without a default is an error). */
export function scalar(ctx: Ctx, node: XNode, key: string, element: string, dflt?: number): number {
  const s = node.attrs[key];
  if (s === undefined) {
    if (dflt !== undefined) return dflt;
    ctx.fail(TypeError, node, element, `<${node.name}> has no ${key} attribute`);
  }
  if (!NUMBER.test(s.trim())) {
    ctx.fail(TypeError, node, element, `<${node.name}> ${key} ("${s}") must be a number`);
  }
  const x = Number(s.trim());
  if (!Number.isFinite(x)) {
    ctx.fail(RangeError, node, element, `<${node.name}> ${key} ("${s}") must be finite`);
  }
  return x;
}

/** A three-number attribute (`xyz`, `rpy`, `size`); `dflt` when absent. */
export function triple(
  ctx: Ctx,
  node: XNode,
  key: string,
  element: string,
  dflt?: Vector3,
): Vector3 {
  const s = node.attrs[key];
  if (s === undefined) {
    if (dflt !== undefined) return [dflt[0], dflt[1], dflt[2]];
    ctx.fail(TypeError, node, element, `<${node.name}> has no ${key} attribute`);
  }
  const parts = s.trim().split(/\s+/);
  if (parts.length !== 3 || !parts.every((p) => NUMBER.test(p))) {
    ctx.fail(
      TypeError,
      node,
      element,
      `<${node.name}> ${key} ("${s}") must be 3 numbers separated by spaces`,
    );
  }
  const v = parts.map(Number) as Vector3;
  if (!v.every(Number.isFinite)) {
    ctx.fail(RangeError, node, element, `<${node.name}> ${key} ("${s}") must be 3 finite numbers`);
  }
  return v;
}

/** `x`, checked to be ≥ `min`. */
export function atLeast(
  ctx: Ctx,
  node: XNode,
  key: string,
  element: string,
  x: number,
  min: number,
): number {
  if (!(x >= min)) {
    ctx.fail(RangeError, node, element, `<${node.name}> ${key} (${x}) must be >= ${min}`);
  }
  return x;
}

/** A number attribute that must be > 0. */
export function positiveAttr(ctx: Ctx, node: XNode, key: string, element: string): number {
  const x = scalar(ctx, node, key, element);
  if (!(x > 0)) ctx.fail(RangeError, node, element, `<${node.name}> ${key} (${x}) must be > 0`);
  return x;
}

/** `<origin xyz rpy>` (both default to zero; no origin is the identity). */
export function origin(
  ctx: Ctx,
  parent: XNode,
  element: string,
): { position: Vector3; orientation: Quaternion } {
  const o = single(ctx, parent, "origin", element);
  if (!o) return { position: [0, 0, 0], orientation: [0, 0, 0, 1] };
  const position = triple(ctx, o, "xyz", element, [0, 0, 0]);
  const rpy = triple(ctx, o, "rpy", element, [0, 0, 0]);
  const orientation: Quaternion = rpy[0] === 0 && rpy[1] === 0 && rpy[2] === 0
    ? [0, 0, 0, 1]
    : rpyToQuaternion(rpy);
  return { position, orientation };
}
