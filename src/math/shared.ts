/**
 * SharedArrayBuffer columns for the worker threads of the simulators (`src/sphere3d/threads/`,
 * `src/star2d/threads/`): a system's own columns are made shared in place, so that the threads
 * read and write them without per-step copies. Internal (not exported from the package).
 *
 * @module
 */

/** A typed-array column a thread pool may share. */
export type SharedColumn = Float64Array | Int32Array | Uint32Array | Uint16Array | Uint8Array;

/**
 * A SharedArrayBuffer-backed copy of `a` (the same type and contents), or `a` itself when it
 * already is one — so that calling it on every step allocates only after a column grew.
 */
export function shared<T extends SharedColumn>(a: T): T {
  if (a.buffer instanceof SharedArrayBuffer) return a;
  const C = a.constructor as new (b: SharedArrayBuffer) => T;
  const c = new C(new SharedArrayBuffer(a.byteLength));
  c.set(a as never);
  return c;
}
