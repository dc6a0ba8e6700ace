/**
 * Headless Chromium (Debian's `chromium`) driven over the DevTools protocol from Deno: open a
 * page, wait for a condition, evaluate JavaScript, take screenshots. WebGL runs on Chromium's
 * software renderer (SwiftShader), so no GPU or display is needed. Used by the browser test
 * (tests/browser_test.ts) and scripts/view3d_figure.ts.
 *
 * Every host name resolves to nothing (`--host-resolver-rules`), so a page that works here
 * works offline.
 *
 * @module
 */

/** Options of {@link Chromium.launch}. */
export interface LaunchOptions {
  /** Viewport width (px). @default 1000 */
  width?: number;
  /** Viewport height (px). @default 800 */
  height?: number;
  /** The executable. @default "chromium" */
  executable?: string;
  /** Seconds to wait for the browser to start. @default 30 */
  startTimeout?: number;
}

/** Whether `cmd --version` runs. */
export function canRun(cmd: string): boolean {
  try {
    return new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" })
      .outputSync().success;
  } catch {
    return false;
  }
}

/** A running headless Chromium with one DevTools websocket. */
export class Chromium {
  #proc: Deno.ChildProcess;
  #ws: WebSocket;
  #dir: string;
  #next = 1;
  #pending = new Map<number, { ok: (v: unknown) => void; err: (e: Error) => void }>();
  #drain: Promise<void>;
  #closed = false;
  /** Viewport size. */
  readonly width: number;
  /** Viewport size. */
  readonly height: number;

  private constructor(
    proc: Deno.ChildProcess,
    ws: WebSocket,
    dir: string,
    drain: Promise<void>,
    width: number,
    height: number,
  ) {
    this.#proc = proc;
    this.#ws = ws;
    this.#dir = dir;
    this.#drain = drain;
    this.width = width;
    this.height = height;
    ws.onmessage = (e) => {
      const msg = JSON.parse(String(e.data));
      if (typeof msg.id !== "number") return;
      const p = this.#pending.get(msg.id);
      if (!p) return;
      this.#pending.delete(msg.id);
      if (msg.error) p.err(new Error(`DevTools: ${msg.error.message}`));
      else p.ok(msg.result);
    };
  }

  /**
   * Starts Chromium headless with SwiftShader WebGL and a fresh profile.
   *
   * @param options viewport and executable
   * @returns the browser
   */
  static async launch(options: LaunchOptions = {}): Promise<Chromium> {
    const width = options.width ?? 1000, height = options.height ?? 800;
    const dir = await Deno.makeTempDir({ prefix: "grainlab-chromium-" });
    const proc = new Deno.Command(options.executable ?? "chromium", {
      args: [
        "--headless",
        "--no-sandbox",
        "--use-gl=swiftshader",
        "--enable-unsafe-swiftshader",
        "--ignore-gpu-blocklist",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-default-apps",
        "--disable-extensions",
        "--disable-sync",
        "--no-first-run",
        "--no-default-browser-check",
        "--mute-audio",
        "--hide-scrollbars",
        "--allow-file-access-from-files",
        "--host-resolver-rules=MAP * ~NOTFOUND",
        `--user-data-dir=${dir}`,
        `--window-size=${width},${height}`,
        "--remote-debugging-port=0",
        "about:blank",
      ],
      stdin: "null",
      stdout: "null",
      stderr: "piped",
    }).spawn();
    // "DevTools listening on ws://…" arrives on stderr; keep draining it afterwards
    const reader = proc.stderr.pipeThrough(new TextDecoderStream()).getReader();
    let seen = "", url = "";
    const deadline = Date.now() + 1000 * (options.startTimeout ?? 30);
    while (!url) {
      const timeout = new Promise<null>((r) => setTimeout(() => r(null), 1000));
      const chunk = await Promise.race([reader.read(), timeout]);
      if (chunk && chunk.done) break;
      if (chunk) seen += chunk.value;
      url = seen.match(/DevTools listening on (ws:\/\/\S+)/)?.[1] ?? "";
      if (Date.now() > deadline) break;
    }
    const drain = (async () => {
      try {
        while (!(await reader.read()).done) { /* discard */ }
      } catch { /* closed */ }
    })();
    if (!url) {
      try {
        proc.kill("SIGKILL");
      } catch { /* gone */ }
      await proc.status;
      await drain;
      await Deno.remove(dir, { recursive: true }).catch(() => {});
      throw new Error(`chromium did not start:\n${seen.slice(-2000)}`);
    }
    const ws = new WebSocket(url);
    await new Promise<void>((ok, err) => {
      ws.onopen = () => ok();
      ws.onerror = () => err(new Error(`cannot connect to ${url}`));
    });
    return new Chromium(proc, ws, dir, drain, width, height);
  }

  /** Sends one DevTools command (to a page when `sessionId` is given). */
  send<T = Record<string, unknown>>(
    method: string,
    params: Record<string, unknown> = {},
    sessionId?: string,
  ): Promise<T> {
    if (this.#closed) return Promise.reject(new Error("chromium: closed"));
    const id = this.#next++;
    return new Promise<T>((ok, err) => {
      this.#pending.set(id, { ok: ok as (v: unknown) => void, err });
      this.#ws.send(JSON.stringify({ id, method, params, ...(sessionId ? { sessionId } : {}) }));
    });
  }

  /**
   * Opens a new page at `url` and waits for its load to complete.
   *
   * @param url the address (file:// for local files)
   * @returns the page
   */
  async open(url: string): Promise<Page> {
    const { targetId } = await this.send<{ targetId: string }>("Target.createTarget", {
      url: "about:blank",
    });
    const { sessionId } = await this.send<{ sessionId: string }>("Target.attachToTarget", {
      targetId,
      flatten: true,
    });
    const page = new Page(this, sessionId, targetId);
    await this.send("Emulation.setDeviceMetricsOverride", {
      width: this.width,
      height: this.height,
      deviceScaleFactor: 1,
      mobile: false,
    }, sessionId);
    await this.send("Page.navigate", { url }, sessionId);
    await page.waitFor("document.readyState === 'complete'", 60_000);
    return page;
  }

  /** Stops the browser and removes its profile. */
  async close(): Promise<void> {
    if (this.#closed) return;
    this.#closed = true;
    for (const p of this.#pending.values()) p.err(new Error("chromium: closed"));
    this.#pending.clear();
    const wsClosed = new Promise<void>((r) => {
      if (this.#ws.readyState === WebSocket.CLOSED) r();
      else this.#ws.onclose = () => r();
    });
    try {
      this.#ws.close();
    } catch { /* already closed */ }
    await Promise.race([wsClosed, new Promise((r) => setTimeout(r, 2000))]);
    try {
      this.#proc.kill("SIGKILL");
    } catch { /* already gone */ }
    await this.#proc.status;
    await this.#drain;
    await Deno.remove(this.#dir, { recursive: true }).catch(() => {});
  }
}

/** One page (tab) of a {@link Chromium}. */
export class Page {
  #b: Chromium;
  #session: string;
  #target: string;

  /** @param browser the browser @param session its DevTools session @param target its id */
  constructor(browser: Chromium, session: string, target: string) {
    this.#b = browser;
    this.#session = session;
    this.#target = target;
  }

  /**
   * Evaluates a JavaScript expression in the page (awaiting a promise) and returns its value.
   *
   * @param expression JavaScript
   * @returns the value (JSON-serialisable)
   */
  async evaluate<T = unknown>(expression: string): Promise<T> {
    const r = await this.#b.send<{
      result: { value?: unknown };
      exceptionDetails?: { text: string; exception?: { description?: string } };
    }>("Runtime.evaluate", { expression, returnByValue: true, awaitPromise: true }, this.#session);
    if (r.exceptionDetails) {
      throw new Error(
        `page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`,
      );
    }
    return r.result.value as T;
  }

  /**
   * Waits until `expression` is truthy in the page.
   *
   * @param expression JavaScript
   * @param timeoutMs how long to wait (ms)
   * @returns the truthy value
   * @throws {Error} on time-out, naming the expression
   */
  async waitFor<T = unknown>(expression: string, timeoutMs = 30_000): Promise<T> {
    const t0 = Date.now();
    while (true) {
      const v = await this.evaluate<T>(
        `(() => { try { return ${expression}; } catch { return false; } })()`,
      );
      if (v) return v;
      if (Date.now() - t0 > timeoutMs) {
        throw new Error(`page: timed out after ${timeoutMs} ms waiting for ${expression}`);
      }
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  /**
   * A PNG screenshot of the viewport, or of a rectangle of the page (CSS px, page coordinates).
   *
   * @param clip the rectangle; the viewport when absent
   * @returns PNG bytes
   */
  async screenshot(clip?: { x: number; y: number; width: number; height: number }): Promise<
    Uint8Array
  > {
    const r = await this.#b.send<{ data: string }>("Page.captureScreenshot", {
      format: "png",
      ...(clip ? { clip: { ...clip, scale: 1 }, captureBeyondViewport: true } : {}),
    }, this.#session);
    return Uint8Array.from(atob(r.data), (c) => c.charCodeAt(0));
  }

  /** Dispatches a mouse event (CSS px in the viewport). */
  async mouse(
    type: "mousePressed" | "mouseMoved" | "mouseReleased",
    x: number,
    y: number,
    button: "left" | "none" = "left",
  ): Promise<void> {
    await this.#b.send("Input.dispatchMouseEvent", {
      type,
      x,
      y,
      button,
      buttons: type === "mouseReleased" || button === "none" ? 0 : 1,
      clickCount: type === "mouseMoved" ? 0 : 1,
    }, this.#session);
  }

  /** Dispatches a mouse wheel turn at (x, y) (CSS px in the viewport). */
  async wheel(x: number, y: number, deltaY: number): Promise<void> {
    await this.#b.send("Input.dispatchMouseEvent", {
      type: "mouseWheel",
      x,
      y,
      deltaX: 0,
      deltaY,
    }, this.#session);
  }

  /** Closes the page. */
  async close(): Promise<void> {
    await this.#b.send("Target.closeTarget", { targetId: this.#target });
  }
}
