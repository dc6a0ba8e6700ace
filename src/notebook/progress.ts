/**
 * A progress display for long runs: one updating output in a notebook, one line on a
 * terminal, silence when stderr is not a terminal.
 *
 * @module
 */

import { escapeXml } from "../plot/dom.ts";
import { jupyter } from "./kernel.ts";

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
 * import { Progress } from "@grainlab/grainlab/notebook";
 * const p = new Progress(100, { label: "settle", mode: "none" });
 * for (let k = 1; k <= 100; k++) p.update(k);
 * p.done();
 * console.assert(p.fraction === 1 && p.text().startsWith("settle"));
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
   * @throws {RangeError} when `total` is not a positive integer
   */
  constructor(total: number, options: ProgressOptions = {}) {
    if (!Number.isInteger(total) || total <= 0) {
      throw new RangeError(`Progress: total is ${total}, must be a positive integer`);
    }
    this.total = total;
    this.label = options.label ?? "run";
    this.#interval = options.interval ?? 250;
    const mode = options.mode ?? "auto";
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
        `<span>${escapeXml(line)}</span></div>`;
      const update = this.#shown;
      this.#shown = true;
      const bundle = { "text/plain": line, "text/html": html };
      this.#pending = this.#pending.then(() =>
        api.display(bundle, { raw: true, display_id: this.#id, update }).catch(() => {})
      );
    }
  }
}

function isTerminal(): boolean {
  try {
    return Deno.stderr.isTerminal();
  } catch {
    return false;
  }
}

/** Something that steps: a sphere3d `World` or a star2d system. */
export interface Steppable {
  /** Advances one step. */
  step(): void;
}

/**
 * Runs `steps` steps of a world or system with a {@link Progress} display and an optional
 * callback every `every` steps (e.g. to record statistics or frames).
 *
 * @param sim a `World` (sphere3d) or a star2d system: anything with `step()`
 * @param steps number of steps
 * @param options label, callback, interval
 * @returns resolves when done (after the last display update)
 * @throws {RangeError} when `steps` is not a non-negative integer
 * @example
 * ```ts
 * import { runWithProgress } from "@grainlab/grainlab/notebook";
 * let n = 0;
 * await runWithProgress({ step: () => n++ }, 50, { every: 10, onEvery: () => {}, mode: "none" });
 * console.assert(n === 50);
 * ```
 */
export async function runWithProgress(
  sim: Steppable,
  steps: number,
  options: ProgressOptions & {
    /** Call `onEvery` after every this many steps. @default 100 */
    every?: number;
    /** Callback with the number of steps done in this run. */
    onEvery?: (done: number) => void;
    /** Status text for the progress line. */
    status?: () => string;
  } = {},
): Promise<void> {
  if (!Number.isInteger(steps) || steps < 0) {
    throw new RangeError(`runWithProgress: steps is ${steps}, must be a non-negative integer`);
  }
  if (typeof sim?.step !== "function") {
    throw new TypeError(`runWithProgress: sim must have a step() method`);
  }
  if (steps === 0) return;
  const every = options.every ?? 100;
  const p = new Progress(steps, options);
  for (let k = 1; k <= steps; k++) {
    sim.step();
    if (k % every === 0 || k === steps) {
      options.onEvery?.(k);
      p.update(k, options.status?.());
    }
  }
  await p.done(options.status?.());
}
