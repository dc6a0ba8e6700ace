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

/** Contact kind: between two grains. */
export const GRAIN_CONTACT = 0;
/** Contact kind: between a grain and a wall (`j` is then the wall index). */
export const WALL_CONTACT = 1;

/**
 * Contact columns of the last step. Read `count` entries; the getters return views that must
 * be re-read after the next step. The normal points from grain `i` to grain `j` (to the wall).
 *
 * @example
 * ```ts
 * import { ContactColumns } from "@grainlab/grainlab/star2d";
 * const c = new ContactColumns();
 * c.push(0, 1, 0, 0.5, 0, 1, 0, 1e-4, 0);
 * console.assert(c.count === 1 && c.normal[0] === 1 && c.overlap[0] === 1e-4);
 * ```
 */
export class ContactColumns {
  /** Number of contacts. */
  count = 0;
  /** @internal */ _i: Int32Array = new Int32Array(256);
  /** @internal */ _j: Int32Array = new Int32Array(256);
  /** @internal */ _kind: Uint8Array = new Uint8Array(256);
  /** @internal */ _point: Float64Array = new Float64Array(512);
  /** @internal */ _normal: Float64Array = new Float64Array(512);
  /** @internal */ _overlap: Float64Array = new Float64Array(256);
  /** @internal */ _key: Float64Array = new Float64Array(256);
  /** @internal */ _fn: Float64Array = new Float64Array(256);
  /** @internal */ _ft: Float64Array = new Float64Array(256);
  /** @internal */ _xi: Float64Array = new Float64Array(256);

  /** First grain (slot index) of each contact. */
  get i(): Int32Array {
    return this._i.subarray(0, this.count);
  }
  /** Second grain (slot index), or the wall index for wall contacts. */
  get j(): Int32Array {
    return this._j.subarray(0, this.count);
  }
  /** 0 grain–grain, 1 grain–wall. */
  get kind(): Uint8Array {
    return this._kind.subarray(0, this.count);
  }
  /** Contact point (m), stride 2. */
  get point(): Float64Array {
    return this._point.subarray(0, 2 * this.count);
  }
  /** Unit normal from i to j, stride 2. */
  get normal(): Float64Array {
    return this._normal.subarray(0, 2 * this.count);
  }
  /** Overlap depth (m). */
  get overlap(): Float64Array {
    return this._overlap.subarray(0, this.count);
  }
  /** Normal force magnitude (N), repulsive. */
  get normalForce(): Float64Array {
    return this._fn.subarray(0, this.count);
  }
  /** Tangential force on i along t = (−n_y, n_x) (N). */
  get tangentialForce(): Float64Array {
    return this._ft.subarray(0, this.count);
  }
  /** History key of each contact (see the module notes). */
  get key(): Float64Array {
    return this._key.subarray(0, this.count);
  }

  /** Append a contact (grows by doubling). */
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
    if (this.count === this._i.length) this.#grow();
    const c = this.count++;
    this._i[c] = i;
    this._j[c] = j;
    this._kind[c] = kind;
    this._point[2 * c] = px;
    this._point[2 * c + 1] = py;
    this._normal[2 * c] = nx;
    this._normal[2 * c + 1] = ny;
    this._overlap[c] = overlap;
    this._key[c] = key;
  }

  #grow(): void {
    const n = 2 * this._i.length;
    const i32 = (a: Int32Array) => {
      const b = new Int32Array(n);
      b.set(a);
      return b;
    };
    const f64 = (a: Float64Array, s: number) => {
      const b = new Float64Array(n * s);
      b.set(a);
      return b;
    };
    this._i = i32(this._i);
    this._j = i32(this._j);
    const k = new Uint8Array(n);
    k.set(this._kind);
    this._kind = k;
    this._point = f64(this._point, 2);
    this._normal = f64(this._normal, 2);
    this._overlap = f64(this._overlap, 1);
    this._key = f64(this._key, 1);
    this._fn = f64(this._fn, 1);
    this._ft = f64(this._ft, 1);
    this._xi = f64(this._xi, 1);
  }
}

/**
 * Tangential spring history of distinct contacts, double-buffered across steps and keyed by
 * stable ids (see the module notes).
 *
 * @example
 * ```ts
 * import { ContactHistory } from "@grainlab/grainlab/star2d";
 * const h = new ContactHistory();
 * h.begin();
 * h.record(3, 7, 1.0, 2e-5);
 * h.begin(); // next step
 * console.assert(h.lookup(3, 7, 1.05, 0.3) === 2e-5 && h.lookup(3, 7, 2, 0.3) === 0);
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
    const st = this.#stamp, mask = this.#mask;
    let h = hash(a, b) & mask;
    while (this.#hm[h] === st) {
      if (this.#ha[h] === a && this.#hb[h] === b) {
        const s = this.#hs[h], e = s + this.#hc[h];
        const pk = this.#pk;
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
      h = (h + 1) & mask;
    }
    return -1;
  }

  /** Record this step's ξ of a contact of pair (a, b). Contacts of a pair must be contiguous. */
  record(a: number, b: number, key: number, xi: number): void {
    if (this.#cn === this.#ca.length) {
      const n = 2 * this.#cn;
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
    const c = this.#cn++;
    this.#ca[c] = a;
    this.#cb[c] = b;
    this.#ck[c] = key;
    this.#cx[c] = xi;
  }
}

function hash(a: number, b: number): number {
  return (Math.imul(a, 0x9e3779b1) ^ Math.imul(b + 0x632be5ab, 0x85ebca6b)) >>> 0;
}
