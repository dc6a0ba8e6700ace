/**
 * A worker thread of a threaded granular step (see `pool.ts`): it receives the shared buffers
 * as a message, then waits on its control word for jobs and runs them with the kernels of
 * `kernels.ts`, until told to come back for new buffers.
 *
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import { Job, runJob, type SharedBuffers, ThreadContext } from "./kernels.ts";

const t: number = workerData.t;
const ctl: Int32Array = workerData.ctl;
let ctx: ThreadContext | null = null;

/**
 * Loads of the job word before sleeping on it (about a hundred microseconds): the next job of a step
 * usually comes sooner, and a futex wake costs more than that on a virtual machine.
 */
const SPIN = 1 << 11;

function loop(): void {
  for (;;) {
    for (let i = 0; i < SPIN && Atomics.load(ctl, 2 * t) === 0; i++);
    Atomics.wait(ctl, 2 * t, 0);
    const job = Atomics.load(ctl, 2 * t);
    Atomics.store(ctl, 2 * t, 0);
    if (job === Job.rebind) return; // the new buffers are in the message queue
    let done = 1;
    try {
      runJob(ctx!, job, t);
    } catch (e) {
      console.error(`grainlab threads: worker ${t}:`, e);
      done = 2;
    }
    Atomics.store(ctl, 2 * t + 1, done);
    Atomics.notify(ctl, 2 * t + 1);
  }
}

parentPort!.on("message", (buf: SharedBuffers) => {
  if (ctx === null) ctx = new ThreadContext(buf);
  else ctx.rebind(buf);
  Atomics.store(ctl, 2 * t, 0);
  Atomics.store(ctl, 2 * t + 1, 1);
  Atomics.notify(ctl, 2 * t + 1);
  loop();
});
