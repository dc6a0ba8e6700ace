/**
 * The element tree of a World XML file as the reader (`xml_read.ts`) walks it: the parser's
 * output turned into plain nodes with their offsets, the text with offsets to lines and
 * columns, and {@link El}, the attribute-by-attribute reader whose messages name the file,
 * the line and column, the element and the attribute. Internal to the World XML reader.
 *
 * @module
 */
import { nearest } from "../math/validate.ts";

/**
 * The function the reader's messages name.
 *
 * @internal
 */
export const READER = "World.fromXml";
const where = READER;

/**
 * fast-xml-parser's ordered output: `{ tag: children, ":@": attributes }` or `{ "#text" }`.
 *
 * @internal
 */
export type RawNode = Record<string, unknown>;

/**
 * One element: its name, its attributes (raw text), its children and its position.
 *
 * @internal
 */
export interface XNode {
  name: string;
  attrs: Record<string, string>;
  children: XNode[];
  /** Offset of the `<` of the start tag in the text. */
  start: number;
}

/**
 * The parser's ordered output as plain nodes; text between elements must be white space.
 *
 * @internal
 */
export function toNodes(raw: RawNode[], meta: symbol, doc: Doc, parent: XNode | null): XNode[] {
  const out: XNode[] = [];
  for (const r of raw) {
    if (Object.hasOwn(r, "#text")) {
      const t = String(r["#text"]);
      if (t.trim() !== "") {
        const snippet = show(t.trim());
        throw new TypeError(
          parent
            ? `${where}: ${doc.at(parent.start)}: <${parent.name}> holds the text ${snippet}; ` +
              "only elements belong there"
            : `${where}: ${doc.source}: text ${snippet} outside the root element`,
        );
      }
      continue;
    }
    const name = Object.keys(r).find((k) => k !== ":@");
    if (name === undefined) continue;
    const m = (r as Record<symbol, { startIndex?: number } | undefined>)[meta];
    const node: XNode = { name, attrs: {}, children: [], start: m?.startIndex ?? 0 };
    const a = r[":@"] as Record<string, unknown> | undefined;
    if (a) { for (const k of Object.keys(a)) node.attrs[k.slice(2)] = String(a[k]); }
    node.children = toNodes(r[name] as RawNode[], meta, doc, node);
    out.push(node);
  }
  return out;
}

/**
 * The text with positions to lines and columns.
 *
 * @internal
 */
export class Doc {
  #lines: number[] | null = null;
  constructor(readonly text: string, readonly source: string) {}

  /** `source:line:column` of text offset `i`. */
  at(i: number): string {
    const [l, c] = this.lineCol(i);
    return `${this.source}:${l}:${c}`;
  }

  lineCol(i: number): [number, number] {
    if (!this.#lines) {
      const s = [0];
      for (let k = this.text.indexOf("\n"); k >= 0; k = this.text.indexOf("\n", k + 1)) {
        s.push(k + 1);
      }
      this.#lines = s;
    }
    const s = this.#lines;
    let lo = 0, hi = s.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (s[mid] <= i) lo = mid;
      else hi = mid - 1;
    }
    return [lo + 1, i - s[lo] + 1];
  }

  /** Offset of attribute `name` in the start tag at `start`, or -1. */
  attributePosition(start: number, name: string): number {
    const t = this.text;
    let quote = "", i = start + 1;
    for (; i < t.length; i++) {
      const ch = t[i];
      if (quote) {
        if (ch === quote) quote = "";
      } else if (ch === '"' || ch === "'") quote = ch;
      else if (ch === ">") break;
      else if (
        t.startsWith(name, i) && /\s/.test(t[i - 1]) &&
        /^\s*=/.test(t.slice(i + name.length, i + name.length + 20))
      ) return i;
    }
    return -1;
  }
}

type ErrorClass = typeof TypeError | typeof RangeError;

/**
 * At most 60 characters of `s`, for messages about damaged files.
 *
 * @internal
 */
export function clip(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}

/** A value for a message: quoted, clipped. */
function show(s: string): string {
  return JSON.stringify(clip(s));
}

/**
 * One element, read attribute by attribute; {@link El.done} rejects the ones not read.
 *
 * @internal
 */
export class El {
  readonly #used = new Set<string>();
  constructor(readonly node: XNode, readonly doc: Doc) {}

  get line(): number {
    return this.doc.lineCol(this.node.start)[0];
  }

  /** An error naming the element, the attribute (or none) and the position. */
  error(kind: ErrorClass, attr: string | null, rule: string): Error {
    const at = attr === null ? -1 : this.doc.attributePosition(this.node.start, attr);
    const pos = this.doc.at(at >= 0 ? at : this.node.start);
    return new kind(
      `${where}: ${pos}: <${clip(this.node.name)}>${
        attr === null ? "" : ` attribute ${clip(attr)}`
      } ${rule}`,
    );
  }

  /** Run a public API call, prefixing its error with this element's position. */
  guard<T>(f: () => T): T {
    try {
      return f();
    } catch (e) {
      if (e instanceof RangeError || e instanceof TypeError) {
        throw new (e instanceof RangeError ? RangeError : TypeError)(
          `${where}: ${this.doc.at(this.node.start)}: <${this.node.name}>: ${e.message}`,
        );
      }
      throw e;
    }
  }

  optional(name: string): string | undefined {
    this.#used.add(name);
    return Object.hasOwn(this.node.attrs, name) ? this.node.attrs[name] : undefined;
  }

  string(name: string): string {
    const v = this.optional(name);
    if (v === undefined) throw this.error(TypeError, null, `attribute ${name} is missing`);
    return v;
  }

  /** A string attribute with entity references decoded. */
  text(attr: string): string {
    const raw = this.string(attr);
    if (raw.includes("<")) throw this.error(TypeError, attr, "holds a raw <; write &lt;");
    return raw.replace(/&([^;]{0,10});|&/g, (m, ref: string | undefined) => {
      const named: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };
      if (ref !== undefined && Object.hasOwn(named, ref)) return named[ref];
      const code = ref === undefined
        ? NaN
        : /^#[0-9]{1,7}$/.test(ref)
        ? Number(ref.slice(1))
        : /^#x[0-9a-fA-F]{1,6}$/.test(ref)
        ? parseInt(ref.slice(2), 16)
        : NaN;
      const ok = code === 0x9 || code === 0xa || code === 0xd ||
        (code >= 0x20 && code <= 0xd7ff) || (code >= 0xe000 && code <= 0xfffd) ||
        (code >= 0x10000 && code <= 0x10ffff);
      if (!ok) {
        throw this.error(TypeError, attr, `holds ${show(m)}, not a valid reference`);
      }
      return String.fromCodePoint(code);
    });
  }

  /** A finite number written as a decimal. */
  finite(name: string): number {
    return this.#number(name, this.string(name));
  }

  #number(name: string, s: string): number {
    if (!/^-?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$/.test(s)) {
      throw this.error(TypeError, name, `(${show(s)}) must be a number`);
    }
    const x = Number(s);
    if (!Number.isFinite(x)) throw this.error(RangeError, name, `(${s}) must be finite`);
    return x;
  }

  positive(name: string): number {
    const x = this.finite(name);
    if (!(x > 0)) throw this.error(RangeError, name, `(${x}) must be > 0`);
    return x;
  }

  nonNegative(name: string): number {
    const x = this.finite(name);
    if (!(x >= 0)) throw this.error(RangeError, name, `(${x}) must be >= 0`);
    return x;
  }

  int(name: string, min: number, max: number): number {
    const s = this.string(name);
    if (!/^[0-9]{1,16}$/.test(s)) {
      throw this.error(TypeError, name, `(${show(s)}) must be an integer`);
    }
    const x = Number(s);
    if (x < min || x > max) {
      throw this.error(RangeError, name, `(${x}) must be an integer in [${min}, ${max}]`);
    }
    return x;
  }

  boolean(name: string): boolean {
    const s = this.string(name);
    if (s !== "true" && s !== "false") {
      throw this.error(TypeError, name, `(${show(s)}) must be true or false`);
    }
    return s === "true";
  }

  choice<T extends string>(name: string, allowed: readonly T[]): T {
    const s = this.string(name);
    if (!(allowed as readonly string[]).includes(s)) {
      throw this.error(
        TypeError,
        name,
        `(${show(s)}) must be one of ${allowed.map((a) => JSON.stringify(a)).join(", ")}`,
      );
    }
    return s as T;
  }

  /** Three numbers separated by white space. */
  vector(name: string): [number, number, number] {
    const s = this.string(name);
    const parts = s.trim().split(/\s+/);
    if (parts.length !== 3) {
      throw this.error(TypeError, name, `(${show(s)}) must be three numbers`);
    }
    return [
      this.#number(name, parts[0]),
      this.#number(name, parts[1]),
      this.#number(name, parts[2]),
    ];
  }

  /** Reject the attributes that were not read. */
  done(): void {
    for (const k of Object.keys(this.node.attrs)) {
      if (this.#used.has(k)) continue;
      const near = nearest(k, [...this.#used]);
      throw this.error(
        TypeError,
        k,
        `is not known${near ? `; did you mean ${near}?` : ""} (known: ${
          [...this.#used].join(", ")
        })`,
      );
    }
  }

  /** Reject children of an element that has none. */
  leaf(): void {
    const c = this.node.children[0];
    if (c) {
      throw new El(c, this.doc).error(TypeError, null, `is not allowed inside <${this.node.name}>`);
    }
  }

  /**
   * The children grouped by name, each name with its allowed count (`1`: exactly one,
   * `[min, max]`); other names are errors.
   */
  children(spec: Record<string, number | [number, number]>): Record<string, El[]> {
    const out: Record<string, El[]> = {};
    for (const k of Object.keys(spec)) out[k] = [];
    for (const c of this.node.children) {
      const el = new El(c, this.doc);
      if (!Object.hasOwn(spec, c.name)) {
        const near = nearest(c.name, Object.keys(spec));
        throw el.error(
          TypeError,
          null,
          `is not allowed inside <${this.node.name}>${near ? `; did you mean <${near}>?` : ""} ` +
            `(allowed: ${Object.keys(spec).join(", ")})`,
        );
      }
      out[c.name].push(el);
    }
    for (const [k, lim] of Object.entries(spec)) {
      const [lo, hi] = typeof lim === "number" ? [lim, lim] : lim;
      const n = out[k].length;
      if (n < lo) throw this.error(TypeError, null, `must contain <${k}>`);
      if (n > hi) {
        throw out[k][hi].error(
          TypeError,
          null,
          `may appear at most ${hi} times in <${this.node.name}>`,
        );
      }
    }
    return out;
  }
}
