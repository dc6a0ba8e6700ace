// The worker pool of the fuzz tests (tests/arrow_fuzz_test.ts, tests/arrow_frames_fuzz_test.ts):
// splits the cases over workers, times every read, and fails with the case that hangs.

/** How {@link fuzzInWorkers} runs. */
export interface FuzzPoolOptions {
  /** Workers at once. @default 2 */
  workers?: number;
  /** Longest one case may take before it counts as a hang (ms). @default 10 000 */
  caseTimeoutMs?: number;
  /** Longest a worker may take to load; it is type-checked on first use (ms). @default 120 000 */
  startupMs?: number;
  /** What a case is, for the hang message. @default "read" */
  what?: string;
}

/**
 * Runs `cases` in workers of `worker`: each worker gets `job(itsCases, tempDir)`, posts
 * `{ ready: true }` once loaded, then one result `{ index, … }` per case (index into its
 * cases), in order. Returns the results in the order of `cases`. Rejects when a worker fails,
 * does not start, or takes longer than `caseTimeoutMs` over one case.
 */
export async function fuzzInWorkers<C, R extends { index: number }>(
  worker: URL,
  cases: readonly C[],
  job: (mine: C[], dir: string) => unknown,
  options: FuzzPoolOptions = {},
): Promise<R[]> {
  const workers = options.workers ?? 2;
  const caseMs = options.caseTimeoutMs ?? 10_000, startupMs = options.startupMs ?? 120_000;
  const results: R[] = new Array(cases.length);
  const share = Math.ceil(cases.length / workers);
  await Promise.all(Array.from({ length: workers }, async (_, w) => {
    const mine = cases.slice(w * share, (w + 1) * share);
    if (mine.length === 0) return;
    const dir = await Deno.makeTempDir();
    const pool = new Worker(worker.href, { type: "module" });
    try {
      await new Promise<void>((resolve, reject) => {
        let done = 0;
        let timer: ReturnType<typeof setTimeout> | undefined;
        const arm = () => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            reject(
              new Error(
                `${options.what ?? "read"} of case ${JSON.stringify(mine[done])} did not end ` +
                  `within ${caseMs} ms (a hang)`,
              ),
            );
          }, caseMs);
        };
        const startup = setTimeout(
          () => reject(new Error(`the fuzz worker did not start within ${startupMs} ms`)),
          startupMs,
        );
        pool.onmessage = (e: MessageEvent<R | { ready: true }>) => {
          if ("ready" in e.data) { // loaded (and type-checked): start timing
            clearTimeout(startup);
            arm();
            return;
          }
          results[w * share + e.data.index] = e.data;
          if (++done === mine.length) {
            clearTimeout(timer);
            resolve();
          } else arm();
        };
        pool.onerror = (e) => {
          clearTimeout(timer);
          clearTimeout(startup);
          e.preventDefault();
          reject(new Error(`worker failed: ${e.message}`));
        };
        pool.postMessage(job(mine, dir));
      });
    } finally {
      pool.terminate();
      await Deno.remove(dir, { recursive: true });
    }
  }));
  return results;
}
