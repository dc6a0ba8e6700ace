/**
 * Persistent tangential contact histories, keyed by stable particle ids.
 *
 * Each particle slot owns up to `slots` entries; the history of a particle pair lives with the
 * particle of smaller stable id and names its partner by stable id, so removal (which moves
 * slots) never confuses histories. Boundary contacts use reserved partner ids
 * ({@link boundaryPartner}). Entries not touched during a step are discarded after it.
 *
 * @module
 */

/** Partner id meaning "empty" (partner ids are stored as int32). */
export const NO_PARTNER = -1;

/**
 * Reserved partner id of boundary `k` (0 ground, 1–5 container faces, 6+ bodies): 0xffffff00 + k
 * as an int32 (negative, so it stays a small integer in hot loops). Exported columns show it
 * as the unsigned value.
 */
export function boundaryPartner(k: number): number {
  return (0xffffff00 + k) | 0;
}

/**
 * Tangential contact histories as columns: the owner's stable id, the partner's stable id
 * (ids ≥ 0xffffff00 name boundaries: 0xffffff00 the ground plane, +1..+5 the container faces)
 * and the spring displacement ξ (m, stride 3).
 */
export interface HistoryColumns {
  /** Stable id of the particle that owns the history (the smaller id of a pair). */
  owner: Uint32Array;
  /** Stable id of the partner particle, or a boundary id ≥ 0xffffff00. */
  partner: Uint32Array;
  /** Spring displacement ξ (m), stride 3. */
  displacement: Float64Array;
}

/** Internal store of tangential history springs. */
export class HistoryTable {
  /** Entries per particle. */
  slots = 8;
  /** Capacity in particles. */
  capacity = 0;
  /** Live entries per particle. */
  used: Uint8Array = new Uint8Array(0);
  /** Partner stable id of each entry (int32; boundaries are negative). */
  partner: Int32Array = new Int32Array(0);
  /** Step stamp of the last use of each entry. */
  stamp: Uint32Array = new Uint32Array(0);
  /** Spring displacement ξ (m), stride 3 per entry. */
  xi: Float64Array = new Float64Array(0);
  /** Set when an entry could not be created because a particle's entries were full. */
  overflow = false;

  /** Grow to `n` particles, keeping the entries; all or nothing. */
  reserve(n: number): void {
    this.prepare(n)?.();
  }

  /**
   * Allocate the table for `n` particles without touching it, and return the function that
   * swaps the new arrays in; `null` when the capacity already suffices. An allocation
   * failure throws here, before anything changed. Call the commit at once: the new arrays
   * hold a copy of the current entries.
   */
  prepare(n: number): (() => void) | null {
    if (n <= this.capacity) return null;
    let cap = Math.max(16, this.capacity);
    while (cap < n) cap *= 2;
    return this.#layout(cap, this.slots);
  }

  /** Double the number of entries per particle (after an overflow). */
  widen(): void {
    this.#layout(this.capacity, Math.min(255, this.slots * 2))();
    this.overflow = false;
  }

  /** Allocate and fill a layout of `cap` particles × `slots` entries; returns its commit. */
  #layout(cap: number, slots: number): () => void {
    const used = new Uint8Array(cap);
    const partner = new Int32Array(cap * slots).fill(NO_PARTNER);
    const stamp = new Uint32Array(cap * slots);
    const xi = new Float64Array(cap * slots * 3);
    const S = this.slots;
    for (let p = 0; p < this.capacity; p++) {
      const u = this.used[p];
      used[p] = u;
      for (let e = 0; e < u; e++) {
        partner[p * slots + e] = this.partner[p * S + e];
        stamp[p * slots + e] = this.stamp[p * S + e];
        xi[3 * (p * slots + e)] = this.xi[3 * (p * S + e)];
        xi[3 * (p * slots + e) + 1] = this.xi[3 * (p * S + e) + 1];
        xi[3 * (p * slots + e) + 2] = this.xi[3 * (p * S + e) + 2];
      }
    }
    return () => {
      this.used = used;
      this.partner = partner;
      this.stamp = stamp;
      this.xi = xi;
      this.capacity = cap;
      this.slots = slots;
    };
  }

  /**
   * Entry index of the history of `owner` with `partnerId`, created (ξ = 0) if absent.
   * Returns -1 when the owner's entries are full (the overflow flag is set).
   */
  find(owner: number, partnerId: number, step: number): number {
    const S = this.slots, base = owner * S, u = this.used[owner];
    const partner = this.partner;
    for (let e = base, end = base + u; e < end; e++) {
      if (partner[e] === partnerId) {
        this.stamp[e] = step;
        return e;
      }
    }
    if (u === S) {
      this.overflow = true;
      return -1;
    }
    const e = base + u;
    partner[e] = partnerId;
    this.stamp[e] = step;
    this.xi[3 * e] = 0;
    this.xi[3 * e + 1] = 0;
    this.xi[3 * e + 2] = 0;
    this.used[owner] = u + 1;
    return e;
  }

  /**
   * Set the spring of `owner` with `partnerId` (created if absent, stamped `step`) to
   * `src[s..s+2]`, widening the table when the owner's entries are full.
   */
  store(owner: number, partnerId: number, step: number, src: Float64Array, s: number): void {
    let e = this.find(owner, partnerId, step);
    while (e < 0) {
      this.widen();
      e = this.find(owner, partnerId, step);
    }
    const t = this.xi;
    t[3 * e] = src[s], t[3 * e + 1] = src[s + 1], t[3 * e + 2] = src[s + 2];
  }

  /**
   * Drop every entry of the first `count` particles not stamped with `step`; returns the
   * number kept and stores the number removed in `lastRemoved`.
   */
  sweep(count: number, step: number): number {
    const S = this.slots;
    let kept = 0, removed = 0;
    const used = this.used, partner = this.partner, stamp = this.stamp;
    // four slots' entry counts at a time: most slots have none, and they come in long runs
    // (the slots are in cell order), so whole words are skipped with well-predicted branches
    let quad = this.#quad;
    if (quad === null || quad.buffer !== used.buffer || quad.length !== used.length >> 2) {
      quad = this.#quad = new Uint32Array(used.buffer, used.byteOffset, used.length >> 2);
    }
    for (let p = 0; p < count; p++) {
      if ((p & 3) === 0 && quad[p >> 2] === 0) {
        p += 3;
        continue;
      }
      const u = used[p];
      if (u === 0) continue;
      const base = p * S;
      let w = base;
      for (let e = base, end = base + u; e < end; e++) {
        if (stamp[e] === step) {
          if (w !== e) this.#copyEntry(e, w);
          w++;
        } else removed++;
      }
      const nu = w - base;
      for (let e = w; e < base + u; e++) partner[e] = NO_PARTNER;
      used[p] = nu;
      kept += nu;
    }
    this.lastRemoved = removed;
    return kept;
  }

  /** Entries removed by the last {@link sweep}. */
  lastRemoved = 0;

  /** A four-slots-per-word view of `used` for {@link sweep} (remade when `used` changes). */
  #quad: Uint32Array | null = null;

  /** Move the entries of slot `from` into slot `to` (used by swap-removal). */
  moveSlot(from: number, to: number): void {
    if (from === to) return;
    const S = this.slots;
    const u = this.used[from];
    for (let e = 0; e < u; e++) this.#copyEntry(from * S + e, to * S + e);
    this.used[to] = u;
    this.used[from] = 0;
  }

  /** Copy entry `from` over entry `to`. */
  #copyEntry(from: number, to: number): void {
    const xi = this.xi;
    this.partner[to] = this.partner[from];
    this.stamp[to] = this.stamp[from];
    xi[3 * to] = xi[3 * from];
    xi[3 * to + 1] = xi[3 * from + 1];
    xi[3 * to + 2] = xi[3 * from + 2];
  }

  /**
   * Reorder the rows of the first `count` particle slots: new slot s takes the entries of old
   * slot `order[s]`. Writes into a second set of arrays kept for the next call, then swaps.
   */
  permute(order: Int32Array, count: number): void {
    const S = this.slots, n = this.capacity * S;
    const sp = this.#spare;
    if (sp === null || sp.partner.length !== n || sp.used.length !== this.capacity) {
      this.#spare = {
        used: new Uint8Array(this.capacity),
        partner: new Int32Array(n),
        stamp: new Uint32Array(n),
        xi: new Float64Array(3 * n),
      };
    }
    const d = this.#spare!, used = this.used, partner = this.partner, stamp = this.stamp;
    const xi = this.xi;
    d.partner.fill(NO_PARTNER);
    d.used.fill(0);
    for (let s = 0; s < count; s++) {
      const p = order[s], u = used[p];
      d.used[s] = u;
      for (let k = 0; k < u; k++) {
        const e = p * S + k, f = s * S + k;
        d.partner[f] = partner[e], d.stamp[f] = stamp[e];
        d.xi[3 * f] = xi[3 * e], d.xi[3 * f + 1] = xi[3 * e + 1], d.xi[3 * f + 2] = xi[3 * e + 2];
      }
    }
    this.#spare = { used, partner, stamp, xi };
    this.used = d.used, this.partner = d.partner, this.stamp = d.stamp, this.xi = d.xi;
  }

  #spare: { used: Uint8Array; partner: Int32Array; stamp: Uint32Array; xi: Float64Array } | null =
    null;

  /** Remove entry `e` of particle slot `p` (its last entry moves into it). */
  removeEntry(p: number, e: number): void {
    const u = this.used[p] - 1, last = p * this.slots + u;
    if (e !== last) this.#copyEntry(last, e);
    this.partner[last] = NO_PARTNER;
    this.used[p] = u;
  }

  /** Forget every entry of slot `p`. */
  clearSlot(p: number): void {
    this.used[p] = 0;
  }

  /** Remove entries whose partner id satisfies `dead(id)` (after removals). */
  dropPartners(count: number, dead: (id: number) => boolean): number {
    const S = this.slots;
    let removed = 0;
    for (let p = 0; p < count; p++) {
      const u = this.used[p];
      const base = p * S;
      let w = base;
      for (let e = base; e < base + u; e++) {
        const q = this.partner[e];
        if (q >= 0 && dead(q)) {
          removed++;
          continue;
        }
        if (w !== e) this.#copyEntry(e, w);
        w++;
      }
      this.used[p] = w - base;
    }
    return removed;
  }

  /** Copy the live entries of the first `count` particles out as columns. */
  columns(count: number, ids: Uint32Array): HistoryColumns {
    const n = this.total(count), S = this.slots;
    const owner = new Uint32Array(n), partner = new Uint32Array(n);
    const displacement = new Float64Array(3 * n);
    let k = 0;
    for (let p = 0; p < count; p++) {
      for (let e = p * S; e < p * S + this.used[p]; e++, k++) {
        owner[k] = ids[p];
        partner[k] = this.partner[e] >>> 0;
        displacement[3 * k] = this.xi[3 * e];
        displacement[3 * k + 1] = this.xi[3 * e + 1];
        displacement[3 * k + 2] = this.xi[3 * e + 2];
      }
    }
    return { owner, partner, displacement };
  }

  /**
   * Allocate a table of `capacity` particles × `slots` entries holding exactly the given
   * entries (a loaded checkpoint), without touching this one, and return the function that
   * swaps it in. Entry k belongs to particle slot `ownerSlot[k]`, names `partner[k]` (int32,
   * boundaries negative) and holds ξ at `xi[3k..3k+2]`; each owner's entries keep their order
   * and are stamped `stamp`. The caller has checked that no owner has more than `slots`
   * entries. An allocation failure throws here, before anything changed.
   */
  prepareLoad(
    capacity: number,
    slots: number,
    ownerSlot: Int32Array,
    partner: Int32Array,
    xi: Float64Array,
    stamp: number,
  ): () => void {
    const used = new Uint8Array(capacity);
    const part = new Int32Array(capacity * slots).fill(NO_PARTNER);
    const st = new Uint32Array(capacity * slots);
    const x = new Float64Array(capacity * slots * 3);
    for (let k = 0; k < ownerSlot.length; k++) {
      const p = ownerSlot[k], e = p * slots + used[p]++;
      part[e] = partner[k];
      st[e] = stamp;
      x[3 * e] = xi[3 * k];
      x[3 * e + 1] = xi[3 * k + 1];
      x[3 * e + 2] = xi[3 * k + 2];
    }
    return () => {
      this.used = used;
      this.partner = part;
      this.stamp = st;
      this.xi = x;
      this.capacity = capacity;
      this.slots = slots;
      this.overflow = false;
      this.lastRemoved = 0;
    };
  }

  /** Total live entries among the first `count` particles. */
  total(count: number): number {
    let n = 0;
    for (let p = 0; p < count; p++) n += this.used[p];
    return n;
  }
}
