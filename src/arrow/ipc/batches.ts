/**
 * Body checks of the Arrow IPC validator: a record or dictionary batch body against the fields
 * it must hold ({@link BodyCheck}) — one field node per column in schema order and one buffer
 * per slot of each column's layout; every buffer inside the body and 8-byte aligned; node
 * lengths, null counts and validity bitmaps that agree; offsets, views, union type ids and
 * dictionary indices inside what they index. Compressed bodies get the range and count checks
 * only.
 *
 * @module
 */

import type { Fail } from "./flatbuffer.ts";
import { type BatchDesc, HEADER_DICTIONARY, MAX_ROWS, type MessageDesc, V5 } from "./messages.ts";
import { columnPath, type FieldDesc, type SchemaDesc } from "./schema.ts";

/**
 * Checks the body of a record or dictionary batch message against the schema: against the
 * dictionary's value field for a dictionary batch, against the schema's fields for a record
 * batch.
 *
 * @param m the message (a record or dictionary batch)
 * @param body its body bytes
 * @param schema the schema of the file or stream
 * @param dictLengths dictionary id → number of values, for the indices of dictionary columns
 * @param fail throws with the caller's prefix
 */
export function checkBatchBody(
  m: MessageDesc,
  body: Uint8Array,
  schema: SchemaDesc,
  dictLengths: ReadonlyMap<number, number>,
  fail: Fail,
): void {
  const dictionary = m.header === HEADER_DICTIONARY;
  const fields = dictionary ? [schema.dictionaries.get(m.dictId!)!] : schema.fields;
  const what = `${dictionary ? "dictionary" : "record"} batch at byte ${m.offset}`;
  new BodyCheck(m.batch!, body, m.version, dictLengths, fail, what).run(fields);
}

const POPCOUNT = (() => {
  const t = new Uint8Array(256);
  for (let i = 1; i < 256; i++) t[i] = (i & 1) + t[i >> 1];
  return t;
})();

/** Checks a record batch (or dictionary batch) body against the fields it must hold. */
class BodyCheck {
  ni = 0;
  bi = 0;
  vi = 0;
  readonly dv: DataView;
  constructor(
    readonly b: BatchDesc,
    readonly body: Uint8Array,
    readonly version: number,
    readonly dictLengths: ReadonlyMap<number, number>,
    readonly fail: Fail,
    readonly where: string,
  ) {
    this.dv = new DataView(body.buffer, body.byteOffset, body.byteLength);
  }

  run(fields: readonly FieldDesc[]): void {
    for (const f of fields) {
      const path = columnPath("", f.name);
      const n = this.visit(f, path);
      if (n !== this.b.length) {
        this.bad(path, `has ${n} rows, the batch has ${this.b.length}`);
      }
    }
    if (this.ni !== this.b.nodes.count) {
      this.fail(
        `${this.where}: has ${this.b.nodes.count} field nodes, the schema needs ${this.ni}`,
      );
    }
    if (this.bi !== this.b.buffers.count) {
      this.fail(`${this.where}: has ${this.b.buffers.count} buffers, the schema needs ${this.bi}`);
    }
    if (this.vi !== this.b.variadic.length) {
      this.fail(
        `${this.where}: has ${this.b.variadic.length} variadic buffer counts, the schema needs ${this.vi}`,
      );
    }
  }

  bad(path: string, rule: string): never {
    return this.fail(`${this.where}: column ${path} ${rule}`);
  }

  node(path: string): { length: number; nulls: number } {
    if (this.ni >= this.b.nodes.count) {
      this.fail(`${this.where}: has ${this.b.nodes.count} field nodes, the schema needs more`);
    }
    const p = this.b.nodes.pos + 16 * this.ni++;
    const length = this.b.fb.i64(p, `the length of column ${path}`);
    const nulls = this.b.fb.i64(p + 8, `the null count of column ${path}`);
    if (length < 0 || length > MAX_ROWS) this.bad(path, `has length ${length}, out of range`);
    if (nulls < 0 || nulls > length) {
      this.bad(path, `has null count ${nulls}, must be in 0..${length}`);
    }
    return { length, nulls };
  }

  buffer(path: string, what: string): { offset: number; length: number } {
    if (this.bi >= this.b.buffers.count) {
      this.fail(`${this.where}: has ${this.b.buffers.count} buffers, the schema needs more`);
    }
    const p = this.b.buffers.pos + 16 * this.bi++;
    const offset = this.b.fb.i64(p, `the ${what} buffer offset of column ${path}`);
    const length = this.b.fb.i64(p + 8, `the ${what} buffer length of column ${path}`);
    if (offset < 0 || length < 0 || offset + length > this.body.length) {
      this.bad(
        path,
        `${what} buffer (offset ${offset}, ${length} bytes) lies outside the ${this.body.length}-byte body`,
      );
    }
    if (length > 0 && offset % 8 !== 0) {
      this.bad(path, `${what} buffer offset ${offset} is not a multiple of 8`);
    }
    if (this.b.compressed && length > 0) {
      if (length < 8) {
        this.bad(
          path,
          `compressed ${what} buffer has ${length} bytes, fewer than its 8-byte prefix`,
        );
      }
      const raw = this.i64(offset);
      if (raw < -1) this.bad(path, `compressed ${what} buffer declares ${raw} uncompressed bytes`);
    }
    return { offset, length };
  }

  i64(pos: number): number {
    const lo = this.dv.getUint32(pos, true), hi = this.dv.getInt32(pos + 4, true);
    if (hi >= 0x200000 || hi < -0x200000) return hi < 0 ? -Infinity : Infinity;
    return hi * 4294967296 + lo;
  }

  /** Reads the validity buffer; returns a test for slot validity (null when all are valid). */
  validity(path: string, length: number, nulls: number): ((i: number) => boolean) | null {
    const buf = this.buffer(path, "validity");
    if (nulls === 0 || this.b.compressed) return null;
    const need = Math.ceil(length / 8);
    if (buf.length < need) this.bad(path, `validity buffer has ${buf.length} bytes, needs ${need}`);
    let set = 0;
    const full = length >> 3;
    for (let k = 0; k < full; k++) set += POPCOUNT[this.body[buf.offset + k]];
    if (length & 7) set += POPCOUNT[this.body[buf.offset + full] & ((1 << (length & 7)) - 1)];
    if (length - set !== nulls) {
      this.bad(path, `has null count ${nulls}, its validity bitmap has ${length - set} nulls`);
    }
    const base = buf.offset, body = this.body;
    return (i) => (body[base + (i >> 3)] >> (i & 7) & 1) === 1;
  }

  sized(path: string, what: string, buf: { length: number }, need: number): void {
    if (!this.b.compressed && buf.length < need) {
      this.bad(path, `${what} buffer has ${buf.length} bytes, needs ${need}`);
    }
  }

  /** Checks `length + 1` offsets of `width` bytes: non-decreasing, from ≥ 0; returns the last. */
  offsets(path: string, length: number, width: number): number {
    const buf = this.buffer(path, "offsets");
    if (this.b.compressed || (length === 0 && buf.length === 0)) return 0;
    this.sized(path, "offsets", buf, (length + 1) * width);
    const read = (k: number) =>
      width === 4 ? this.dv.getInt32(buf.offset + 4 * k, true) : this.i64(buf.offset + 8 * k);
    let prev = read(0);
    if (prev < 0) this.bad(path, `first offset is ${prev}, must be at least 0`);
    for (let k = 1; k <= length; k++) {
      const o = read(k);
      if (o < prev) this.bad(path, `offset ${k} (${o}) is less than offset ${k - 1} (${prev})`);
      prev = o;
    }
    return prev;
  }

  visit(f: FieldDesc, path: string): number {
    const { length, nulls } = this.node(path);
    const t = f.type;
    if (f.dict !== null) {
      const valid = this.validity(path, length, nulls);
      const buf = this.buffer(path, "indices");
      const w = f.dict.indexWidth;
      this.sized(path, "indices", buf, length * w);
      if (this.b.compressed) return length;
      const size = this.dictLengths.get(f.dict.id) ?? 0;
      for (let i = 0; i < length; i++) {
        if (valid !== null && !valid(i)) continue;
        const p = buf.offset + i * w;
        const k = w === 1
          ? (f.dict.indexSigned ? this.dv.getInt8(p) : this.dv.getUint8(p))
          : w === 2
          ? (f.dict.indexSigned ? this.dv.getInt16(p, true) : this.dv.getUint16(p, true))
          : w === 4
          ? (f.dict.indexSigned ? this.dv.getInt32(p, true) : this.dv.getUint32(p, true))
          : this.i64(p);
        if (!(k >= 0 && k < size)) {
          this.bad(
            path,
            `row ${i} has dictionary index ${k}, dictionary ${f.dict.id} has ${size} values`,
          );
        }
      }
      return length;
    }
    switch (t.layout) {
      case "null":
        return length;
      case "fixed": {
        this.validity(path, length, nulls);
        this.sized(path, "values", this.buffer(path, "values"), length * t.width);
        return length;
      }
      case "bool": {
        this.validity(path, length, nulls);
        this.sized(path, "values", this.buffer(path, "values"), Math.ceil(length / 8));
        return length;
      }
      case "binary": {
        this.validity(path, length, nulls);
        const last = this.offsets(path, length, t.width);
        const data = this.buffer(path, "data");
        this.sized(path, "data", data, last);
        return length;
      }
      case "view": {
        const valid = this.validity(path, length, nulls);
        const views = this.buffer(path, "views");
        this.sized(path, "views", views, 16 * length);
        if (this.vi >= this.b.variadic.length) {
          this.bad(path, `needs a variadic buffer count, the batch has ${this.b.variadic.length}`);
        }
        const count = this.b.variadic[this.vi++];
        const data: number[] = [];
        for (let k = 0; k < count; k++) data.push(this.buffer(path, `variadic data ${k}`).length);
        if (this.b.compressed) return length;
        for (let i = 0; i < length; i++) {
          if (valid !== null && !valid(i)) continue;
          const p = views.offset + 16 * i;
          const n = this.dv.getInt32(p, true);
          if (n < 0) this.bad(path, `row ${i} has view length ${n}`);
          if (n <= 12) continue;
          const k = this.dv.getInt32(p + 8, true), o = this.dv.getInt32(p + 12, true);
          if (k < 0 || k >= count || o < 0 || o + n > data[k]) {
            this.bad(path, `row ${i} views buffer ${k} at ${o} (${n} bytes), outside the data`);
          }
        }
        return length;
      }
      case "list": {
        this.validity(path, length, nulls);
        const last = this.offsets(path, length, t.width);
        const child = this.visit(f.children[0], columnPath(path, f.children[0].name));
        if (last > child) this.bad(path, `offsets reach ${last}, its child has ${child} values`);
        return length;
      }
      case "fixedList": {
        this.validity(path, length, nulls);
        const child = this.visit(f.children[0], columnPath(path, f.children[0].name));
        if (child < length * t.listSize) {
          this.bad(path, `has ${length} lists of ${t.listSize}, its child has ${child} values`);
        }
        return length;
      }
      case "struct": {
        this.validity(path, length, nulls);
        for (const c of f.children) {
          const cp = columnPath(path, c.name);
          const n = this.visit(c, cp);
          if (n < length) this.bad(cp, `has ${n} values, its struct has ${length}`);
        }
        return length;
      }
      case "union": {
        if (this.version < V5) this.validity(path, length, nulls);
        else if (nulls !== 0) this.bad(path, `is a union with null count ${nulls}, must be 0`);
        const ids = this.buffer(path, "type ids");
        this.sized(path, "type ids", ids, length);
        const offs = t.mode === 1 ? this.buffer(path, "offsets") : null;
        if (offs !== null) this.sized(path, "offsets", offs, 4 * length);
        const sizes = f.children.map((c) => this.visit(c, columnPath(path, c.name)));
        if (t.mode === 0) {
          sizes.forEach((n, k) => {
            if (n < length) this.bad(path, `child ${k} has ${n} values, the union has ${length}`);
          });
        }
        if (this.b.compressed) return length;
        for (let i = 0; i < length; i++) {
          const id = this.dv.getInt8(ids.offset + i);
          const k = t.typeIds.indexOf(id);
          if (k < 0) this.bad(path, `row ${i} has type id ${id}, not one of [${t.typeIds}]`);
          if (offs !== null) {
            const o = this.dv.getInt32(offs.offset + 4 * i, true);
            if (o < 0 || o >= sizes[k]) {
              this.bad(path, `row ${i} has offset ${o} into child ${k} of ${sizes[k]} values`);
            }
          }
        }
        return length;
      }
    }
  }
}
