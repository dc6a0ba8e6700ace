/**
 * A worker thread of a threaded granular step (see `pool.ts`): it receives the shared buffers
 * as a message, then runs the jobs of `kernels.ts` it is handed (`serveJobs`).
 *
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import { serveJobs } from "../../math/worker_pool.ts";
import { runJob, type SharedBuffers, ThreadContext } from "./kernels.ts";

const t: number = workerData.t;
let ctx: ThreadContext | null = null;

serveJobs<SharedBuffers>(parentPort!, workerData, (buf) => {
  if (ctx === null) ctx = new ThreadContext(buf);
  else ctx.rebind(buf);
}, (job) => runJob(ctx!, job, t));
