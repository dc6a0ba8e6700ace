/**
 * The one progress display and run loop of every simulator: `World.run` (sphere3d) and the
 * star2d systems' `run` take `{ onStep, progress }` with the same meaning. In a Deno Jupyter
 * kernel the progress is one HTML output updated in place; on a terminal one line on stderr;
 * otherwise silence.
 *
 * @module
 */

import { integerIn, nonNegative, oneOf, options as checkOptions } from "./validate.ts";

/** The keys of {@link ProgressOptions}. */
export const PROGRESS_KEYS: readonly string[] = ["label", "interval", "mode"];

/** Options of {@link Progress}. */
export interface ProgressOptions {
  /** Label in front of the bar. @default "run" */
  label?: string;
  /** Minimum time between two redraws (ms). @default 250 */
  interval?: number;
  /** Where to draw: "auto" (notebook in a kernel, else terminal), "notebook", "terminal", "none". @default "auto" */
  mode?: "auto" | "notebook" | "terminal" | "none";
}

/**
 * Progress of a run of `total` steps. In a Deno Jupyter kernel it shows one HTML output and
 * updates it in place; on a terminal it redraws one line on stderr; otherwise it stays silent.
 *
 * @example
 * ```ts
 * import { Progress } from "./progress.ts";
 * import { expect } from "expect";
 * const p = new Progress(100, { label: "settle", mode: "none" });
 * for (let k = 1; k <= 100; k++) p.update(k);
 * p.done();
 * expect(p.fraction).toBe(1);
 * expect(p.text().startsWith("settle 100/100")).toBe(true);
 * ```
 */
export class Progress {
  /** Total steps. */
  readonly total: number;
  /** Label. */
  readonly label: string;
  #done = 0;
  #t0 = performance.now();
  #last = -Infinity;
  #interval: number;
  #mode: "notebook" | "terminal" | "none";
  #id = `grainlab-progress-${crypto.randomUUID()}`;
  #shown = false;
  #pending: Promise<void> = Promise.resolve();
  #extra = "";

  /**
   * Starts timing a run.
   *
   * @param total steps in the run (> 0)
   * @param options label, interval, mode
   * @throws {RangeError} when `total` is not a positive integer, an option is unknown (naming
   *   the nearest valid one) or `interval` is negative or not finite
   * @throws {TypeError} when `options` is not an object, `label` not a string or `mode` not
   *   one of the modes
   */
  constructor(total: number, options: ProgressOptions = {}) {
    if (!Number.isInteger(total) || total <= 0) {
      throw new RangeError(`Progress: total is ${total}, must be a positive integer`);
    }
    const o = checkOptions<ProgressOptions>("Progress", "options", options, PROGRESS_KEYS);
    if (o.label !== undefined && typeof o.label !== "string") {
      throw new TypeError(`Progress: options.label (${String(o.label)}) must be a string`);
    }
    this.total = total;
    this.label = o.label ?? "run";
    this.#interval = nonNegative("Progress", "options.interval", o.interval ?? 250);
    const mode = oneOf("Progress", "options.mode", o.mode ?? "auto", [
      "auto",
      "notebook",
      "terminal",
      "none",
    ]);
    if (mode === "auto") {
      this.#mode = jupyter() ? "notebook" : isTerminal() ? "terminal" : "none";
    } else {
      this.#mode = mode;
    }
  }

  /** Fraction done, 0…1. */
  get fraction(): number {
    return this.#done / this.total;
  }

  /** The progress as one line of text. */
  text(): string {
    const el = (performance.now() - this.#t0) / 1000;
    const rate = el > 0 ? this.#done / el : 0;
    const pct = (100 * this.fraction).toFixed(0).padStart(3);
    return `${this.label} ${this.#done}/${this.total} (${pct}%) ${rate.toFixed(0)} steps/s` +
      (this.#extra ? ` — ${this.#extra}` : "");
  }

  /**
   * Records that `done` steps are complete and redraws when the interval has passed.
   *
   * @param done steps completed so far
   * @param extra short status text (e.g. "t = 0.12 s, 340 contacts")
   */
  update(done: number, extra?: string): void {
    this.#done = Math.min(this.total, Math.max(0, done));
    if (extra !== undefined) this.#extra = extra;
    const now = performance.now();
    if (now - this.#last < this.#interval && this.#done < this.total) return;
    this.#last = now;
    this.#draw(false);
  }

  /** Draws the final state (and ends the terminal line); await it in a notebook. */
  done(extra?: string): Promise<void> {
    if (extra !== undefined) this.#extra = extra;
    this.#draw(true);
    return this.#pending;
  }

  #draw(final: boolean): void {
    const line = this.text();
    if (this.#mode === "terminal") {
      try {
        Deno.stderr.writeSync(new TextEncoder().encode(`\r${line}\x1b[K${final ? "\n" : ""}`));
      } catch { /* stderr closed */ }
    } else if (this.#mode === "notebook") {
      const api = jupyter();
      if (!api) return;
      const pct = (100 * this.fraction).toFixed(1);
      const html = `<div style="font-family:sans-serif;font-size:12px">` +
        `<div style="width:320px;height:10px;background:#e6e9ee;border-radius:3px">` +
        `<div style="width:${pct}%;height:10px;background:#4682b4;border-radius:3px"></div></div>` +
        `<span>${escapeHtml(line)}</span></div>`;
      const update = this.#shown;
      this.#shown = true;
      const bundle = { "text/plain": line, "text/html": html };
      this.#pending = this.#pending.then(() =>
        api.display(bundle, { raw: true, display_id: this.#id, update }).catch(() => {})
      );
    }
  }
}

/** The subset of `Deno.jupyter` the progress display uses. */
interface JupyterDisplay {
  display(
    obj: unknown,
    options?: { raw?: boolean; update?: boolean; display_id?: string },
  ): Promise<void>;
}

/** `Deno.jupyter` inside a Deno Jupyter kernel, else null (never touched outside one). */
function jupyter(): JupyterDisplay | null {
  try {
    const api = (Deno as unknown as { jupyter?: JupyterDisplay }).jupyter;
    return api && typeof api.display === "function" ? api : null;
  } catch {
    return null;
  }
}

function isTerminal(): boolean {
  try {
    return Deno.stderr.isTerminal();
  } catch {
    return false;
  }
}

function escapeHtml(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** Options of a `run(steps, options)` call, the same for every simulator. */
export interface RunOptions<T> {
  /** Called after every step with the number of steps done in this run and the simulation. */
  onStep?: (step: number, target: T) => void;
  /**
   * Show progress: `true` for a notebook bar in a kernel or a line on a terminal, or
   * {@link ProgressOptions} to choose the label, interval or mode. @default false
   */
  progress?: boolean | ProgressOptions;
}

/** Keys of {@link RunOptions}. */
const RUN_KEYS: readonly string[] = ["onStep", "progress"];

/**
 * The shared run loop: validates `steps` and the options, then calls `step()` `steps` times,
 * `onStep` after each, and drives a {@link Progress} when asked. `where` names the caller in
 * errors. Returns nothing; a notebook progress bar finishes drawing on its own.
 *
 * @example
 * ```ts
 * import { runSteps } from "./progress.ts";
 * import { expect } from "expect";
 * let n = 0, last = 0;
 * const sim = { step: () => n++ };
 * runSteps("sim.run", sim, 5, { onStep: (k) => (last = k) }, () => sim.step());
 * expect(n).toBe(5);
 * expect(last).toBe(5);
 * ```
 */
export function runSteps<T>(
  where: string,
  target: T,
  steps: number,
  options: RunOptions<T> | undefined,
  step: (k: number) => void,
): void {
  integerIn(where, "steps", steps, 0, Number.MAX_SAFE_INTEGER);
  const o = checkOptions<RunOptions<T>>(where, "options", options, RUN_KEYS);
  const onStep = o.onStep;
  if (onStep !== undefined && typeof onStep !== "function") {
    throw new TypeError(`${where}: onStep (${String(onStep)}) must be a function`);
  }
  const po = o.progress;
  if (po !== undefined && typeof po !== "boolean" && (po === null || typeof po !== "object")) {
    throw new TypeError(`${where}: progress (${String(po)}) must be a boolean or an object`);
  }
  const progress = po && steps > 0 ? new Progress(steps, po === true ? {} : po) : null;
  for (let k = 1; k <= steps; k++) {
    step(k);
    if (onStep) onStep(k, target);
    if (progress) progress.update(k);
  }
  progress?.done();
}
