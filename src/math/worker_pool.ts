/**
 * The worker threads of a synchronous, threaded step, shared by sphere3d and star2d: the main
 * thread and `threads − 1` workers (`node:worker_threads`, unref'd so that they never keep a
 * finished program alive) meet at each phase through one control word pair per worker in a
 * SharedArrayBuffer — `[job, done]` — and `Atomics.wait`, so a threaded step is as synchronous
 * as a single-threaded one. Within a run both sides spin for up to 5 ms ({@link spinFor}) before they
 * sleep: the next phase usually comes within microseconds, while waking a sleeping thread costs
 * far more, above all on a virtual machine, where the idle vCPU halts and the host must schedule
 * it again (orders of magnitude more than a spinning round trip; docs/benchmarks.md has the
 * measurement). When control goes back to the caller (the end of
 * a run, or another system's turn) the owner {@link WorkerPool.park}s the pool: its workers
 * sleep at once instead of spinning beside other work.
 *
 * A worker module calls {@link serveJobs}; the main side extends {@link WorkerPool}.
 *
 * @module
 */
import { Worker } from "node:worker_threads";
import { integerIn } from "./validate.ts";

/** Most threads of one pool (the main one included). */
export const MAX_POOL_THREADS = 64;

/** The job code that sends a worker back to its event loop for new buffers. */
export const REBIND = 9;

/** See {@link spinFor}. */
const SPIN_MS = 5;

/** The spin of a pool with more threads than cores (ms). */
const SPIN_SHORT_MS = 0.05;

/**
 * How long a thread of a pool of `threads` threads on a machine of `cores` cores spins on a
 * control word before it sleeps on it (ms): 5 ms — longer than the serial work between two
 * phases of a step (a neighbour rebuild of 100,000 grains takes a few ms), short enough that
 * idle workers between a notebook's cells cost nothing noticeable — or 0.05 ms when the pool has
 * more threads than cores: there a spinning thread would take the core of one that works.
 *
 * @example
 * ```ts
 * import { spinFor } from "./worker_pool.ts";
 * import { expect } from "expect";
 * expect(spinFor(2, 2)).toBe(5);
 * expect(spinFor(3, 2)).toBe(0.05);
 * ```
 */
export function spinFor(threads: number, cores: number): number {
  integerIn("spinFor", "threads", threads, 1, MAX_POOL_THREADS);
  integerIn("spinFor", "cores", cores, 1, 2 ** 20);
  return threads <= cores ? SPIN_MS : SPIN_SHORT_MS;
}

/** The control word that tells idle workers to sleep at once (`WorkerPool.park`). */
const PARKED = 0;

/**
 * Spin until `ctl[i]` is no longer `v`, `ms` have passed or (`parkable`) the pool was parked.
 */
function spin(ctl: Int32Array, i: number, v: number, ms: number, parkable: boolean): void {
  const t0 = performance.now();
  for (;;) {
    // a clock read costs about as much as a few dozen loads: read it every 64
    for (let k = 0; k < 64; k++) if (Atomics.load(ctl, i) !== v) return;
    if (parkable && Atomics.load(ctl, PARKED) !== 0) return;
    if (performance.now() - t0 > ms) return;
  }
}

/** How long the main thread waits for a worker before it reports it lost (ms). */
const WAIT_MS = 120_000;

/**
 * The main side of a pool: starts the workers, hands them jobs, waits for them and sends them
 * new buffers. Subclasses add the phases of their step.
 *
 * @example
 * ```ts
 * import { WorkerPool } from "./worker_pool.ts";
 * import { expect } from "expect";
 * // a pool of one thread has no workers: every job runs on the calling thread
 * const pool = new WorkerPool(1, new URL("data:text/javascript,"));
 * pool.start(2);
 * pool.wait();
 * pool.close();
 * expect(pool.closed).toBe(true);
 * ```
 */
export class WorkerPool {
  /** Threads, the main one included. */
  readonly threads: number;
  /**
   * Per worker t: `[2t]` the job, `[2t + 1]` done (1 finished, 2 failed); `[0]` is 1 while the
   * pool is parked.
   */
  readonly ctl: Int32Array;
  /** How long each side spins before it sleeps (ms, {@link spinFor}). */
  readonly spinMs: number;
  readonly #workers: Worker[] = [];
  #closed = false;

  /** Start `threads − 1` workers of module `url` (returns at once; awaited at the first job). */
  constructor(threads: number, url: URL) {
    this.threads = threads;
    this.ctl = new Int32Array(new SharedArrayBuffer(8 * MAX_POOL_THREADS));
    this.spinMs = spinFor(threads, navigator.hardwareConcurrency ?? 1);
    for (let t = 1; t < threads; t++) {
      const w = new Worker(url, { workerData: { t, ctl: this.ctl, spinMs: this.spinMs } });
      w.unref();
      w.on("error", () => Atomics.store(this.ctl, 2 * t + 1, 2));
      this.#workers.push(w);
    }
  }

  /** The workers were stopped. */
  get closed(): boolean {
    return this.#closed;
  }

  /** Stop the workers. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const w of this.#workers) void w.terminate();
    this.#workers.length = 0;
  }

  /**
   * Let the idle workers sleep at once rather than spin for their next job: call it when the
   * pool's owner hands control back (the end of a run, another system's turn). The next
   * {@link WorkerPool.start} unparks it.
   */
  park(): void {
    Atomics.store(this.ctl, PARKED, 1);
  }

  /** Hand `job` to every worker (the caller then does its own share and {@link wait}s). */
  start(job: number): void {
    if (this.#closed) throw new Error("threads: the worker threads were closed");
    const ctl = this.ctl;
    Atomics.store(ctl, PARKED, 0);
    for (let t = 1; t < this.threads; t++) {
      Atomics.store(ctl, 2 * t + 1, 0);
      Atomics.store(ctl, 2 * t, job);
      Atomics.notify(ctl, 2 * t);
    }
  }

  /** Wait until every worker has finished its job; throws (and closes) when one failed. */
  wait(): void {
    const ctl = this.ctl;
    for (let t = 1; t < this.threads; t++) {
      // spin first: a phase's last worker usually finishes within microseconds
      spin(ctl, 2 * t + 1, 0, this.spinMs, false);
      while (Atomics.load(ctl, 2 * t + 1) === 0) {
        if (Atomics.wait(ctl, 2 * t + 1, 0, WAIT_MS) === "timed-out") {
          throw new Error(`threads: worker ${t} did not answer within ${WAIT_MS / 1000} s`);
        }
      }
      if (Atomics.load(ctl, 2 * t + 1) === 2) {
        this.close();
        throw new Error(`threads: worker ${t} failed (run with one thread to see the error)`);
      }
    }
  }

  /** Send `buffers` to every worker and wait until each has them. */
  send(buffers: unknown): void {
    const ctl = this.ctl;
    // the job word first: a worker in its job loop leaves it for its event loop, where the
    // message waits; a worker still starting finds both when it gets the message
    for (let t = 1; t < this.threads; t++) {
      Atomics.store(ctl, 2 * t + 1, 0);
      Atomics.store(ctl, 2 * t, REBIND);
      Atomics.notify(ctl, 2 * t);
      this.#workers[t - 1].postMessage(buffers);
    }
    this.wait();
  }
}

/**
 * The worker side: on each message (new buffers) call `bind`, then run jobs with `run` until
 * told to come back for new buffers. `port` and `data` are `parentPort` and `workerData` of
 * `node:worker_threads` (`data` holds `t`, `ctl` and `spinMs`).
 *
 * @example
 * ```ts
 * import { serveJobs } from "./worker_pool.ts";
 * import { expect } from "expect";
 * // in a worker module: serveJobs(parentPort!, workerData, (buf) => …, (job) => …)
 * expect(typeof serveJobs).toBe("function");
 * ```
 */
export function serveJobs<B>(
  port: { on(event: "message", f: (buf: B) => void): unknown },
  data: { t: number; ctl: Int32Array; spinMs?: number },
  bind: (buffers: B) => void,
  run: (job: number) => void,
): void {
  const t = data.t, ctl = data.ctl, ms = data.spinMs ?? SPIN_SHORT_MS;
  const loop = () => {
    for (;;) {
      spin(ctl, 2 * t, 0, ms, true);
      Atomics.wait(ctl, 2 * t, 0);
      const job = Atomics.load(ctl, 2 * t);
      Atomics.store(ctl, 2 * t, 0);
      if (job === REBIND) return; // the new buffers are in the message queue
      let done = 1;
      try {
        run(job);
      } catch (e) {
        console.error(`grainlab threads: worker ${t}:`, e);
        done = 2;
      }
      Atomics.store(ctl, 2 * t + 1, done);
      Atomics.notify(ctl, 2 * t + 1);
    }
  };
  port.on("message", (buffers: B) => {
    bind(buffers);
    Atomics.store(ctl, 2 * t, 0);
    Atomics.store(ctl, 2 * t + 1, 1);
    Atomics.notify(ctl, 2 * t + 1);
    loop();
  });
}
