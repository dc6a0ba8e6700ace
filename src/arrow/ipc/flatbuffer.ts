/**
 * A bounded flatbuffer reader for the Arrow IPC checks: every offset is checked against the
 * bounds of its flatbuffer before it is followed, and every failure goes through the caller's
 * {@link Fail} so that its message names the file.
 *
 * @module
 */

/** Throws an error whose message is `message` (with the caller's prefix). */
export type Fail = (message: string) => never;

/** One flatbuffer: `bytes[start, end)`. Every read is checked against those bounds. */
export class Flat {
  readonly dv: DataView;
  constructor(
    readonly bytes: Uint8Array,
    readonly start: number,
    readonly end: number,
    readonly name: string,
    readonly fail: Fail,
  ) {
    this.dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  need(pos: number, size: number, what: string): void {
    if (!(pos >= this.start && size >= 0 && pos + size <= this.end)) {
      this.fail(
        `${this.name}: ${what} (bytes ${pos}..${pos + size}) lies outside its flatbuffer ` +
          `(bytes ${this.start}..${this.end})`,
      );
    }
  }

  u8(pos: number): number {
    return this.dv.getUint8(pos);
  }

  /** A signed 64-bit integer as a number; throws outside ±2^53. */
  i64(pos: number, what: string): number {
    const lo = this.dv.getUint32(pos, true), hi = this.dv.getInt32(pos + 4, true);
    if (hi >= 0x200000 || hi < -0x200000) {
      this.fail(`${this.name}: ${what} is out of range (high word 0x${(hi >>> 0).toString(16)})`);
    }
    return hi * 4294967296 + lo;
  }

  /** Follows the forward offset stored at `pos`. */
  ref(pos: number, what: string): number {
    this.need(pos, 4, `the offset of ${what}`);
    const o = this.dv.getInt32(pos, true);
    const target = pos + o;
    if (o <= 0 || target >= this.end) {
      this.fail(`${this.name}: ${what} has offset ${o} at byte ${pos}, outside its flatbuffer`);
    }
    return target;
  }

  root(what: string): FlatTable {
    return this.table(this.ref(this.start, what), what);
  }

  table(pos: number, what: string): FlatTable {
    this.need(pos, 4, what);
    const vt = pos - this.dv.getInt32(pos, true);
    this.need(vt, 4, `the vtable of ${what}`);
    const vtSize = this.dv.getUint16(vt, true), size = this.dv.getUint16(vt + 2, true);
    if (vtSize < 4 || vtSize % 2 !== 0 || vtSize >= 0x8000 || size < 4 || size >= 0x8000) {
      this.fail(`${this.name}: the vtable of ${what} is invalid (sizes ${vtSize} and ${size})`);
    }
    this.need(vt, vtSize, `the vtable of ${what}`);
    this.need(pos, size, what);
    return new FlatTable(this, pos, vt, vtSize, size, what);
  }
}

/** One flatbuffer table; slots are the field numbers of the schema (0-based). */
export class FlatTable {
  constructor(
    readonly fb: Flat,
    readonly pos: number,
    readonly vt: number,
    readonly vtSize: number,
    readonly size: number,
    readonly what: string,
  ) {}

  /** Byte position of slot `slot` (`size` bytes), or -1 when absent. */
  at(slot: number, size: number, name: string): number {
    const entry = 4 + 2 * slot;
    if (entry + 2 > this.vtSize) return -1;
    const o = this.fb.dv.getUint16(this.vt + entry, true);
    if (o === 0) return -1;
    if (o >= 0x8000 || o + size > this.size) {
      this.fb.fail(
        `${this.fb.name}: ${this.what}.${name} at table offset ${o} lies outside the table ` +
          `(${this.size} bytes)`,
      );
    }
    return this.pos + o;
  }

  bool(slot: number, name: string): boolean {
    const p = this.at(slot, 1, name);
    return p >= 0 && this.fb.u8(p) !== 0;
  }

  u8(slot: number, name: string, fallback: number): number {
    const p = this.at(slot, 1, name);
    return p < 0 ? fallback : this.fb.u8(p);
  }

  i16(slot: number, name: string, fallback: number): number {
    const p = this.at(slot, 2, name);
    return p < 0 ? fallback : this.fb.dv.getInt16(p, true);
  }

  i32(slot: number, name: string, fallback: number): number {
    const p = this.at(slot, 4, name);
    return p < 0 ? fallback : this.fb.dv.getInt32(p, true);
  }

  i64(slot: number, name: string, fallback: number): number {
    const p = this.at(slot, 8, name);
    return p < 0 ? fallback : this.fb.i64(p, `${this.what}.${name}`);
  }

  table(slot: number, name: string): FlatTable | null {
    const p = this.at(slot, 4, name);
    if (p < 0) return null;
    const what = `${this.what}.${name}`;
    return this.fb.table(this.fb.ref(p, what), what);
  }

  /** A vector of `elemSize`-byte elements: the position of the first and the count. */
  vector(slot: number, elemSize: number, name: string): { pos: number; count: number } | null {
    const p = this.at(slot, 4, name);
    if (p < 0) return null;
    const what = `${this.what}.${name}`;
    const v = this.fb.ref(p, what);
    this.fb.need(v, 4, `the length of ${what}`);
    const count = this.fb.dv.getInt32(v, true);
    if (count < 0) this.fb.fail(`${this.fb.name}: ${what} has length ${count}`);
    this.fb.need(v + 4, count * elemSize, `${what} (${count} elements)`);
    return { pos: v + 4, count };
  }

  tables(slot: number, name: string): FlatTable[] {
    const v = this.vector(slot, 4, name);
    if (v === null) return [];
    const out: FlatTable[] = [];
    for (let k = 0; k < v.count; k++) {
      const what = `${this.what}.${name}[${k}]`;
      out.push(this.fb.table(this.fb.ref(v.pos + 4 * k, what), what));
    }
    return out;
  }

  string(slot: number, name: string): { text: string; pos: number; length: number } | null {
    const v = this.vector(slot, 1, name);
    if (v === null) return null;
    let text: string;
    try {
      text = UTF8.decode(this.fb.bytes.subarray(v.pos, v.pos + v.count));
    } catch {
      this.fb.fail(`${this.fb.name}: ${this.what}.${name} is not valid UTF-8`);
    }
    return { text, pos: v.pos, length: v.count };
  }
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });
