/**
 * Structure-of-arrays particle storage: typed-array columns that grow by doubling.
 * Removal moves the last particle into the hole. Internal to sphere3d; users read the
 * columns through {@link GranularSystem} getters.
 *
 * @module
 */

/** Most particle slots of one store (2^29: the force loops mask slot indices to 29 bits). */
export const MAX_SLOTS = 0x20000000;

/** Internal SoA particle store of a granular system. */
export class ParticleStore {
  /** Number of live particles. */
  count = 0;
  /** Allocated slots. */
  capacity = 0;
  /** Centres (m), stride 3. */
  pos: Float64Array = new Float64Array(0);
  /** Velocities (m/s), stride 3. */
  vel: Float64Array = new Float64Array(0);
  /** Angular velocities (rad/s), stride 3. */
  ang: Float64Array = new Float64Array(0);
  /** Total force of the last evaluation (N), stride 3. */
  force: Float64Array = new Float64Array(0);
  /** Total torque of the last evaluation (N·m), stride 3. */
  torque: Float64Array = new Float64Array(0);
  /** Rolling-resistance torque of the current evaluation (N·m), stride 3, capped per particle. */
  roll: Float64Array = new Float64Array(0);
  /** User external force (N), stride 3. */
  extForce: Float64Array = new Float64Array(0);
  /** User external torque (N·m), stride 3. */
  extTorque: Float64Array = new Float64Array(0);
  /** Radii (m). */
  radius: Float64Array = new Float64Array(0);
  /** Masses (kg). */
  mass: Float64Array = new Float64Array(0);
  /** 1/mass, 0 for fixed particles. */
  invMass: Float64Array = new Float64Array(0);
  /** 1/inertia, 0 for fixed particles. */
  invInertia: Float64Array = new Float64Array(0);
  /** Material ids. */
  materialId: Uint16Array = new Uint16Array(0);
  /** 1 for fixed particles. */
  fixed: Uint8Array = new Uint8Array(0);
  /** Stable ids. */
  id: Uint32Array = new Uint32Array(0);

  /** Grow every column to hold at least `n` particles (doubling); all or nothing. */
  reserve(n: number): void {
    this.prepare(n)?.();
  }

  /** The capacity {@link reserve} would grow to for `n` particles (doubling from 16). */
  capacityFor(n: number): number {
    if (n <= this.capacity) return this.capacity;
    let cap = Math.max(16, this.capacity);
    while (cap < n) cap *= 2;
    return cap;
  }

  /**
   * Allocate (and fill) every column for `n` particles without touching the store, and
   * return the function that swaps them in; `null` when the capacity already suffices. An
   * allocation failure throws here, before anything changed. Call the commit at once: the
   * new columns hold a copy of the current ones.
   */
  prepare(n: number): (() => void) | null {
    if (n <= this.capacity) return null;
    const cap = this.capacityFor(n);
    // the force loops mask slot indices to 29 bits (see `pairForces`); the systems' 8 GiB
    // size guard stops far below
    if (cap > MAX_SLOTS) {
      throw new RangeError(`particles: capacity (${cap}) must be at most ${MAX_SLOTS} (2^29)`);
    }
    const g3 = (a: Float64Array) => grow(a, cap * 3);
    const pos = g3(this.pos), vel = g3(this.vel), ang = g3(this.ang);
    const force = g3(this.force), torque = g3(this.torque), roll = g3(this.roll);
    const extForce = g3(this.extForce), extTorque = g3(this.extTorque);
    const radius = grow(this.radius, cap), mass = grow(this.mass, cap);
    const invMass = grow(this.invMass, cap), invInertia = grow(this.invInertia, cap);
    const materialId = new Uint16Array(cap);
    materialId.set(this.materialId);
    const fixed = new Uint8Array(cap);
    fixed.set(this.fixed);
    const id = new Uint32Array(cap);
    id.set(this.id);
    return () => {
      this.pos = pos;
      this.vel = vel;
      this.ang = ang;
      this.force = force;
      this.torque = torque;
      this.roll = roll;
      this.extForce = extForce;
      this.extTorque = extTorque;
      this.radius = radius;
      this.mass = mass;
      this.invMass = invMass;
      this.invInertia = invInertia;
      this.materialId = materialId;
      this.fixed = fixed;
      this.id = id;
      this.capacity = cap;
    };
  }

  /** Copy every column of slot `from` into slot `to`. */
  moveSlot(from: number, to: number): void {
    if (from === to) return;
    for (const a of [this.pos, this.vel, this.ang, this.force, this.torque, this.extForce]) {
      a[3 * to] = a[3 * from];
      a[3 * to + 1] = a[3 * from + 1];
      a[3 * to + 2] = a[3 * from + 2];
    }
    const t = this.extTorque;
    t[3 * to] = t[3 * from];
    t[3 * to + 1] = t[3 * from + 1];
    t[3 * to + 2] = t[3 * from + 2];
    this.radius[to] = this.radius[from];
    this.mass[to] = this.mass[from];
    this.invMass[to] = this.invMass[from];
    this.invInertia[to] = this.invInertia[from];
    this.materialId[to] = this.materialId[from];
    this.fixed[to] = this.fixed[from];
    this.id[to] = this.id[from];
  }

  /**
   * Reorder the first `count` slots: new slot s takes the particle of old slot `order[s]`
   * (a permutation). `f` and `u` are scratch of at least 3·count and count entries.
   */
  permute(order: Int32Array, count: number, f: Float64Array, u: Uint32Array): void {
    const c3 = [
      this.pos,
      this.vel,
      this.ang,
      this.force,
      this.torque,
      this.roll,
      this.extForce,
      this.extTorque,
    ];
    for (let c = 0; c < c3.length; c++) {
      const a = c3[c];
      for (let s = 0; s < count; s++) {
        const o = 3 * order[s];
        f[3 * s] = a[o], f[3 * s + 1] = a[o + 1], f[3 * s + 2] = a[o + 2];
      }
      a.set(f.subarray(0, 3 * count));
    }
    const c1 = [this.radius, this.mass, this.invMass, this.invInertia];
    for (let c = 0; c < c1.length; c++) {
      const a = c1[c];
      for (let s = 0; s < count; s++) f[s] = a[order[s]];
      a.set(f.subarray(0, count));
    }
    const ci = [this.materialId, this.fixed, this.id];
    for (let c = 0; c < ci.length; c++) {
      const a = ci[c];
      for (let s = 0; s < count; s++) u[s] = a[order[s]];
      for (let s = 0; s < count; s++) a[s] = u[s];
    }
  }

  /** Set the mass properties of slot `i` from its radius, the density and its fixed flag. */
  setMass(i: number, density: number): void {
    const r = this.radius[i];
    const m = density * (4 / 3) * Math.PI * r * r * r;
    this.mass[i] = m;
    const dyn = this.fixed[i] === 0;
    this.invMass[i] = dyn ? 1 / m : 0;
    this.invInertia[i] = dyn ? 1 / (0.4 * m * r * r) : 0;
  }
}

function grow(a: Float64Array, n: number): Float64Array {
  const b = new Float64Array(n);
  b.set(a);
  return b;
}
