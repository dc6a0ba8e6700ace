/**
 * A worker thread of a threaded star2d step (see `pool.ts`): it receives the shared buffers as
 * a message, then runs the detection jobs it is handed (`serveJobs`).
 *
 * @module
 */
import { parentPort, workerData } from "node:worker_threads";
import { serveJobs } from "../../math/worker_pool.ts";
import type { StarShared } from "./kernel.ts";
import { WorkerContext } from "./context.ts";

const t: number = workerData.t;
let ctx: WorkerContext | null = null;

serveJobs<StarShared>(parentPort!, workerData, (buf) => {
  if (ctx === null) ctx = new WorkerContext(buf, t);
  else ctx.rebind(buf);
}, (job) => ctx!.run(job));
