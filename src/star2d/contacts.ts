/**
 * The contacts of the last step as columns, and the persistent tangential history of distinct
 * contacts keyed by stable grain ids.
 *
 * History matching: a pair (or grain–wall pair) can have several distinct contacts. Each
 * contact carries a key: for star grains the body-frame angle (rad) of its contact point in
 * the grain with the lower id; for disks and clumps the integer index of the disk pair. At the
 * next step a contact of the same pair takes the spring ξ of the previous contact whose key is
 * nearest (angles compared modulo 2π, within a tolerance; integer keys compared exactly). The
 * previous contacts are found through an open-addressing hash of (idA, idB) rebuilt each step.
 *
 * @module
 */

import { ContactKind, ContactRecord } from "../contact/record.ts";

/**
 * The 2D contact record of the star2d systems: the shared {@link ContactRecord} (normal from
 * `j` or the wall towards `i`, forces on `i`, wall contacts with kind `wall`, `j = -1` and the
 * wall index in `boundary`) plus the history key of each contact (see the module notes).
 *
 * @example
 * ```ts
 * import { StarContacts } from "./contacts.ts";
 * import { expect } from "expect";
 * const c = new StarContacts();
 * c.push(0, 1, 0, 0.5, 0, 1, 0, 1e-4, 0); // detection's view: normal from grain 0 to grain 1
 * expect(c.count).toBe(1);
 * expect(c.normal[0]).toBe(-1); // stored from j towards i
 * expect(c.overlap[0]).toBe(1e-4);
 * ```
 */
export class StarContacts extends ContactRecord {
  /**
   * @internal The star2d columns at full capacity (replaced when the record grows, or by shared
   * copies for the threads).
   */
  readonly springs: StarSpringColumns = {
    key: new Float64Array(0),
    xi: new Float64Array(0),
    ft: new Float64Array(0),
  };

  /** An empty record. */
  constructor() {
    super(2);
    // The field initialisers above ran after the base constructor grew the columns.
    this.grown(this.capacity);
  }

  /** History key of each contact (see the module notes). */
  get key(): Float64Array {
    return this.springs.key.subarray(0, this.count);
  }

  /** Grow the star2d columns with the shared ones. */
  protected override grown(capacity: number): void {
    // (the base constructor calls it before the field initialisers: the constructor again after)
    const s = this.springs as StarSpringColumns | undefined;
    if (s === undefined) return;
    const f = (a: Float64Array) => {
      const b = new Float64Array(capacity);
      b.set(a);
      return b;
    };
    s.key = f(s.key);
    s.xi = f(s.xi);
    s.ft = f(s.ft);
  }

  /**
   * Append a contact as detection sees it: `kind` 0 for grain `i` against grain `j`, 1 for
   * grain `i` against wall `j`; `(nx, ny)` the unit normal from `i` towards `j` (or the wall).
   * Stored in the shared convention (normal flipped, walls as kind `wall` with `j = -1`).
   */
  push(
    i: number,
    j: number,
    kind: number,
    px: number,
    py: number,
    nx: number,
    ny: number,
    overlap: number,
    key: number,
  ): void {
    const wall = kind !== 0;
    const k = this.add(
      i,
      wall ? -1 : j,
      wall ? ContactKind.wall : ContactKind.particle,
      wall ? j : -1,
    );
    this.setGeometry2(k, px, py, -nx, -ny, overlap);
    this.springs.key[k] = key;
  }
}

/** The star2d columns of a {@linkcode StarContacts} at full capacity. @internal */
export interface StarSpringColumns {
  /** History key of each contact. */
  key: Float64Array;
  /** Tangential spring of each contact (m). */
  xi: Float64Array;
  /** Signed tangential force along t = (n_y, −n_x) (N). */
  ft: Float64Array;
}

/**
 * Tangential spring history of distinct contacts, double-buffered across steps and keyed by
 * stable ids (see the module notes).
 *
 * @example
 * ```ts
 * import { ContactHistory } from "./contacts.ts";
 * import { expect } from "expect";
 * const h = new ContactHistory();
 * h.begin();
 * h.record(3, 7, 1.0, 2e-5);
 * h.begin(); // next step
 * expect(h.lookup(3, 7, 1.05, 0.3)).toBe(2e-5);
 * expect(h.lookup(3, 7, 2, 0.3)).toBe(0);
 * ```
 */
export class ContactHistory {
  #pa = new Int32Array(256);
  #pb = new Int32Array(256);
  #pk = new Float64Array(256);
  #px = new Float64Array(256);
  #pn = 0;
  #ca = new Int32Array(256);
  #cb = new Int32Array(256);
  #ck = new Float64Array(256);
  #cx = new Float64Array(256);
  #cn = 0;
  #ha = new Int32Array(1024);
  #hb = new Int32Array(1024);
  #hs = new Int32Array(1024);
  #hc = new Int32Array(1024);
  #hm = new Int32Array(1024);
  #mask = 1023;
  #stamp = 0;
  /** The lookups' cursor into the previous springs (see {@link findPrevious}). */
  readonly #cursor: Int32Array = new Int32Array(CURSOR_WORDS);

  /** Number of contacts recorded in the previous step. */
  get previousCount(): number {
    return this.#pn;
  }

  /** Start a step: the contacts recorded since the last `begin` become the previous ones. */
  begin(): void {
    // Swap buffers.
    let t = this.#pa;
    this.#pa = this.#ca;
    this.#ca = t;
    t = this.#pb;
    this.#pb = this.#cb;
    this.#cb = t;
    let f = this.#pk;
    this.#pk = this.#ck;
    this.#ck = f;
    f = this.#px;
    this.#px = this.#cx;
    this.#cx = f;
    this.#pn = this.#cn;
    this.#cn = 0;
    this.#cursor.fill(0);
    // Rebuild the hash of pair -> [start, count) over the previous contacts.
    const n = this.#pn;
    if (this.#ha.length < 2 * n) {
      let cap = this.#ha.length;
      while (cap < 2 * n) cap *= 2;
      this.#ha = new Int32Array(cap);
      this.#hb = new Int32Array(cap);
      this.#hs = new Int32Array(cap);
      this.#hc = new Int32Array(cap);
      this.#hm = new Int32Array(cap);
      this.#mask = cap - 1;
      this.#stamp = 0;
    }
    this.#stamp++;
    if (this.#stamp > 0x3fffffff) {
      this.#hm.fill(0);
      this.#stamp = 1;
    }
    const st = this.#stamp, mask = this.#mask;
    const pa = this.#pa, pb = this.#pb;
    let s = 0;
    while (s < n) {
      const a = pa[s], b = pb[s];
      let e = s + 1;
      while (e < n && pa[e] === a && pb[e] === b) e++;
      let h = hash(a, b) & mask;
      while (this.#hm[h] === st) h = (h + 1) & mask;
      this.#hm[h] = st;
      this.#ha[h] = a;
      this.#hb[h] = b;
      this.#hs[h] = s;
      this.#hc[h] = e - s;
      s = e;
    }
    this.#refreshView();
  }

  /**
   * ξ (m) of the previous contact of pair (a, b) whose key is nearest `key`: angles within
   * `tol` (rad, modulo 2π), or exactly equal when `tol` is 0. Returns 0 when none matches.
   */
  lookup(a: number, b: number, key: number, tol: number): number {
    const k = this.#find(a, b, key, tol);
    return k >= 0 ? this.#px[k] : 0;
  }

  /** Key tolerance used by `lookupInto` (rad; 0 = exact keys). */
  tolerance = 0.3;

  /**
   * Allocation-free lookup for hot loops: the key is `keys[at]`, the tolerance `tolerance`;
   * writes ξ (or 0) into `dst[at]`.
   */
  lookupInto(a: number, b: number, keys: Float64Array, dst: Float64Array, at: number): void {
    const k = this.#find(a, b, keys[at], this.tolerance);
    dst[at] = k >= 0 ? this.#px[k] : 0;
  }

  /** Allocation-free `record` of `keys[at]`, `xi[at]`. */
  recordFrom(a: number, b: number, keys: Float64Array, xi: Float64Array, at: number): void {
    this.record(a, b, keys[at], xi[at]);
  }

  #find(a: number, b: number, key: number, tol: number): number {
    return findPrevious(this.#view, this.#cursor, a, b, key, tol);
  }

  /**
   * The previous step's springs and their hash as `findPrevious` reads them (views of the live
   * buffers, valid until the next `begin`), for the force threads. @internal
   */
  previousSprings(): PreviousSprings {
    return this.#view;
  }

  /** Point the view at the live buffers (after `begin` and `importRecorded`). */
  #refreshView(): void {
    const v = this.#view;
    v.count = this.#pn, v.a = this.#pa, v.b = this.#pb, v.keys = this.#pk, v.xi = this.#px;
    v.ha = this.#ha, v.hb = this.#hb, v.hs = this.#hs, v.hc = this.#hc, v.hm = this.#hm;
    v.stamp = this.#stamp, v.mask = this.#mask;
  }

  /** The view `previousSprings` fills (one object, no allocation per lookup). */
  readonly #view: PreviousSprings = {
    count: this.#pn,
    a: this.#pa,
    b: this.#pb,
    keys: this.#pk,
    xi: this.#px,
    ha: this.#ha,
    hb: this.#hb,
    hs: this.#hs,
    hc: this.#hc,
    hm: this.#hm,
    stamp: this.#stamp,
    mask: this.#mask,
  };

  /**
   * The springs recorded since the last `begin` — what the next step looks up — copied out in
   * record order: per contact the ids (a, b) (b = −1 − wall index for walls), the key and ξ (m).
   *
   * @example
   * ```ts
   * import { ContactHistory } from "./contacts.ts";
   * import { expect } from "expect";
   * const h = new ContactHistory();
   * h.begin();
   * h.record(3, 7, 1.0, 2e-5);
   * const e = h.exportRecorded();
   * expect([e.a[0], e.b[0], e.key[0], e.xi[0]]).toEqual([3, 7, 1.0, 2e-5]);
   * const copy = new ContactHistory();
   * copy.importRecorded(e.a, e.b, e.key, e.xi);
   * copy.begin(); // next step
   * expect(copy.lookup(3, 7, 1.0, 0.3)).toBe(2e-5);
   * ```
   */
  exportRecorded(): { a: Int32Array; b: Int32Array; key: Float64Array; xi: Float64Array } {
    const n = this.#cn;
    return {
      a: this.#ca.slice(0, n),
      b: this.#cb.slice(0, n),
      key: this.#ck.slice(0, n),
      xi: this.#cx.slice(0, n),
    };
  }

  /**
   * Replace the history with these springs, as if the last step had recorded them (a loaded
   * checkpoint); the contacts of a pair must be contiguous. Copies the arrays.
   */
  importRecorded(a: Int32Array, b: Int32Array, key: Float64Array, xi: Float64Array): void {
    const n = a.length;
    const cap = Math.max(256, n);
    const ca = new Int32Array(cap), cb = new Int32Array(cap);
    const ck = new Float64Array(cap), cx = new Float64Array(cap);
    ca.set(a);
    cb.set(b);
    ck.set(key);
    cx.set(xi);
    this.#ca = ca;
    this.#cb = cb;
    this.#ck = ck;
    this.#cx = cx;
    this.#cn = n;
    this.#pn = 0;
    this.#stamp++;
    this.#cursor.fill(0);
    this.#refreshView();
  }

  /**
   * `record` of contacts 0 ≤ k < n in order: the ids of grains `ci[k]`, `cj[k]`, the key and ξ.
   * @internal
   */
  recordContacts(
    ids: Uint32Array,
    ci: Int32Array,
    cj: Int32Array,
    keys: Float64Array,
    xi: Float64Array,
    n: number,
  ): void {
    while (this.#cn + n > this.#ca.length) this.#widen();
    const c0 = this.#cn, ca = this.#ca, cb = this.#cb;
    for (let k = 0; k < n; k++) {
      ca[c0 + k] = ids[ci[k]];
      cb[c0 + k] = ids[cj[k]];
    }
    this.#ck.set(keys.subarray(0, n), c0);
    this.#cx.set(xi.subarray(0, n), c0);
    this.#cn = c0 + n;
  }

  /** Double the room of the springs being recorded. */
  #widen(): void {
    const n = 2 * this.#ca.length;
    const ia = new Int32Array(n), ib = new Int32Array(n);
    const fk = new Float64Array(n), fx = new Float64Array(n);
    ia.set(this.#ca);
    ib.set(this.#cb);
    fk.set(this.#ck);
    fx.set(this.#cx);
    this.#ca = ia;
    this.#cb = ib;
    this.#ck = fk;
    this.#cx = fx;
  }

  /** Record this step's ξ of a contact of pair (a, b). Contacts of a pair must be contiguous. */
  record(a: number, b: number, key: number, xi: number): void {
    if (this.#cn === this.#ca.length) this.#widen();
    const c = this.#cn++;
    this.#ca[c] = a;
    this.#cb[c] = b;
    this.#ck[c] = key;
    this.#cx[c] = xi;
  }
}

/**
 * The previous step's springs of a {@link ContactHistory} and the open-addressing hash of
 * (idA, idB) over them (slots of `hm === stamp` are used; `hs`/`hc` the first spring and count
 * of the pair). @internal
 */
export interface PreviousSprings {
  /** Springs recorded in the previous step. */
  count: number;
  /** Their first ids. */
  a: Int32Array;
  /** Their second ids. */
  b: Int32Array;
  /** Their keys. */
  keys: Float64Array;
  /** Their ξ (m). */
  xi: Float64Array;
  /** Hash slots: first id. */
  ha: Int32Array;
  /** Hash slots: second id. */
  hb: Int32Array;
  /** Hash slots: first spring of the pair. */
  hs: Int32Array;
  /** Hash slots: springs of the pair. */
  hc: Int32Array;
  /** Hash slots: the stamp of the step that used the slot. */
  hm: Int32Array;
  /** This step's stamp. */
  stamp: number;
  /** Hash size − 1 (a power of two minus one). */
  mask: number;
}

/** Words of a lookup cursor (zeros: nothing looked up yet this step). @internal */
export const CURSOR_WORDS = 6;

/**
 * Index of the previous spring of pair (a, b) whose key is nearest `key` (angles within `tol`
 * rad modulo 2π, or exactly equal when `tol` is 0), or −1: the lookup of
 * {@link ContactHistory}, also run by the force threads on shared copies of its table.
 *
 * A pair's springs are one contiguous run, and contacts come in much the same order from step
 * to step, so the run is looked for first where the last one found ended (`cursor`: a flag, the
 * last pair's ids, its run, the end of the last run found; zeros at the start of a step), then
 * through the hash: the same run either way.
 * @internal
 */
export function findPrevious(
  t: PreviousSprings,
  cursor: Int32Array,
  a: number,
  b: number,
  key: number,
  tol: number,
): number {
  let s = cursor[3], e = cursor[4];
  if (cursor[0] === 0 || cursor[1] !== a || cursor[2] !== b) {
    const pa = t.a, pb = t.b, n = t.count, g = cursor[5];
    if (
      g < n && pa[g] === a && pb[g] === b && (g === 0 || pa[g - 1] !== a || pb[g - 1] !== b)
    ) {
      s = g, e = g + 1;
      while (e < n && pa[e] === a && pb[e] === b) e++;
    } else {
      const ha = t.ha, hb = t.hb, hm = t.hm, st = t.stamp, mask = t.mask;
      let h = hash(a, b) & mask;
      s = e = 0;
      while (hm[h] === st) {
        if (ha[h] === a && hb[h] === b) {
          s = t.hs[h], e = s + t.hc[h];
          break;
        }
        h = (h + 1) & mask;
      }
    }
    cursor[0] = 1, cursor[1] = a, cursor[2] = b, cursor[3] = s, cursor[4] = e;
    if (e > s) cursor[5] = e;
  }
  const pk = t.keys;
  let best = -1, bd = Infinity;
  for (let k = s; k < e; k++) {
    let d = key - pk[k];
    if (tol === 0) {
      if (d === 0) return k;
      continue;
    }
    d -= 6.283185307179586 * Math.round(d / 6.283185307179586);
    if (d < 0) d = -d;
    if (d <= tol && d < bd) {
      bd = d;
      best = k;
    }
  }
  return best;
}

function hash(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x632be5ab, 0x85ebca6b)) >>> 0;
}
