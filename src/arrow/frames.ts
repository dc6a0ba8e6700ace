/**
 * Many time steps in one Arrow IPC **stream** (`.arrows`): {@link FrameWriter} appends one
 * record batch per frame to the file as it goes; {@link readFrames} reads them back one at a
 * time.
 *
 * **Crash safety.** The first frame goes to a temporary file in the destination's folder,
 * which then replaces the destination (a rename), so an existing file is kept until a new
 * frame can take its place; the later frames are appended to it, one at a time:
 * `write` hands the frame's bytes to the operating system before it returns (so frames survive
 * the process exiting or crashing, awaited or not) and, unless `sync: false`, flushes them to
 * the disk (fsync) in the background — the promise it returns settles when that is done.
 * `close` appends the end-of-stream marker. A stream without one — its writer crashed, was
 * killed or was never closed — still reads back: {@link readFrames} returns every complete
 * frame and then reports {@link FrameReader.truncated} (and why, in
 * {@link FrameReader.truncation}); a frame cut off in the middle is left out.
 *
 * **Checks.** {@link readFrames} checks every message before apache-arrow decodes it (the checks
 * of {@link checkArrowFile}: framing, metadata, every buffer of the body against the schema), so
 * garbage never hangs it and never reaches apache-arrow.
 *
 * **Checksums (format 2).** Arrow IPC has no checksum, so a flipped bit in a frame's data would
 * read back as a different number. {@link FrameWriter} stores one in every message: the
 * CRC-32 (IEEE, as in zlib; 8 lowercase hex digits) of the message's bytes — continuation
 * marker, length, metadata and body — computed with the 8 digits themselves as `00000000`.
 * The schema message keeps it in the schema's metadata under `grainlab.crc32`, next to
 * `grainlab.frames.format` = `"2"`; each frame (record batch) keeps it in its message's own
 * custom metadata under the same key (where pyarrow's `read_next_batch_with_custom_metadata`
 * shows it; other readers ignore it). {@link readFrames} verifies them; streams without them
 * (written before format 2, or by another writer) get the structural checks only.
 *
 * **Damage.** A damaged schema message (nothing to return) throws a `RangeError` naming the
 * file. A damaged frame ends the iteration: the frames before it are returned, and the reader
 * reports {@link FrameReader.corrupt} with the frame's index and byte in
 * {@link FrameReader.corruption} — or throws that as a `RangeError` after them with
 * `{ strict: true }`.
 *
 * @module
 */

import * as A from "apache-arrow";
import { particlesTable } from "./particles.ts";
import { metadataMap } from "./schema.ts";
import type { ParticleSystemLike } from "./types.ts";
import { CHECKSUM_KEY, crc32, type IpcMessage, IpcStreamChecker } from "./ipc.ts";
import { parseMessage } from "./ipc/messages.ts";
import { hex8 } from "./ipc/checksum.ts";
import { concatBytes } from "../math/bytes.ts";
import { bool, options as checkOptions } from "../math/validate.ts";
import { fileKind, regularFile } from "../math/files.ts";

/** End-of-stream marker: continuation token + zero length. */
const EOS = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
const CONTINUATION = 0xffffffff;
/**
 * Schema metadata key of the stream format: absent in format 1 (no checksums), "2" in the
 * streams {@link FrameWriter} writes (a CRC-32 in every message; see the module documentation).
 *
 * @example
 * ```ts
 * import { FRAMES_FORMAT_KEY, FrameWriter, readFrames } from "./frames.ts";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
 * await w.write({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] }, { time: 0 });
 * await w.close();
 * const [f] = await Array.fromAsync(readFrames(`${dir}/run.arrows`));
 * expect(f.table.schema.metadata.get(FRAMES_FORMAT_KEY)).toBe("2");
 * ```
 */
export const FRAMES_FORMAT_KEY = "grainlab.frames.format";
/** The format {@link FrameWriter} writes: checksummed messages. */
const FORMAT = "2";
/** The checksum's text while the checksum is computed. */
const PLACEHOLDER = "00000000";
const PLACEHOLDER_BYTES = new TextEncoder().encode(PLACEHOLDER);
const WRITER_OPTIONS = ["simulator", "metadata", "sync"] as const;
const STAMP_KEYS = ["time", "world"] as const;

/** Options of {@link FrameWriter.create}. */
export interface FrameWriterOptions {
  /** Simulator label for the schema metadata. @default "sphere3d" in 3D, "star2d" in 2D */
  simulator?: string;
  /** Extra schema metadata (keys must not start with `ARROW:`). */
  metadata?: Record<string, string | number>;
  /**
   * Flush each frame to the disk (fsync) after writing it, so that written frames survive a
   * power cut or an operating-system crash too. Frames always reach the operating system
   * before `write` returns, so they survive the process crashing either way.
   * @default true
   */
  sync?: boolean;
}

/** What {@link FrameWriter.write} takes besides the system: the frame's time and step. */
export interface FrameStamp {
  /** Simulated time (s). @default world.time, else NaN */
  time?: number;
  /** A world to read `time` from. */
  world?: { readonly time?: number; readonly stepCount?: number };
}

/**
 * Streams particle snapshots, one record batch per frame, to an `.arrows` file with `frame`
 * (0, 1, 2 …) and `time` columns in front of the {@link particlesTable} columns. Each frame is
 * in the file when {@link write} returns (see the module documentation): a run that crashes
 * keeps the frames written before the crash.
 *
 * @example
 * ```ts
 * import { FrameWriter, readFrames } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * const system = { count: 1, positions: new Float64Array([0, 0, 1]), velocities: new Float64Array(3) };
 * const w = await FrameWriter.create(`${dir}/run.arrows`);
 * for (let k = 0; k < 3; k++) {
 *   system.positions[2] = 1 - k * 0.1;
 *   await w.write(system, { time: k * 0.01 });
 * }
 * await w.close();
 * const zs: number[] = [];
 * for await (const f of readFrames(`${dir}/run.arrows`)) zs.push(f.table.getChild("z")!.get(0));
 * expect(zs.length).toBe(3);
 * expect(zs[2]).toBeCloseTo(0.8, 12);
 * ```
 */
export class FrameWriter {
  #file: Deno.FsFile;
  #path: string;
  /** Where the frames go until the first one is complete, then renamed to {@link #path}. */
  #tmp: string | null;
  #sync: boolean;
  #simulator: string | undefined;
  #metadata: Map<string, string>;
  #schema?: A.Schema;
  #frames = 0;
  #bytes = 0;
  #closed = false;
  #failed: Error | null = null;
  #flushed: Promise<void> = Promise.resolve();

  private constructor(
    file: Deno.FsFile,
    path: string,
    tmp: string,
    sync: boolean,
    simulator: string | undefined,
    metadata: Map<string, string>,
  ) {
    this.#file = file;
    this.#path = path;
    this.#tmp = tmp;
    this.#sync = sync;
    this.#simulator = simulator;
    this.#metadata = metadata;
  }

  /**
   * Opens a writer on `path`; the first frame writes the schema. An existing file at `path` is
   * kept as it is until the first frame is complete: the frames go to a temporary file in the
   * same folder (`<path>.tmp-<pid>-<random>`), which replaces `path` (a rename) once the first
   * frame is in it — flushed to the disk first, unless `sync: false`. A writer closed before
   * any frame, or whose first frame failed, leaves `path` untouched (a process that dies
   * before the first frame leaves the temporary file behind).
   *
   * @param path destination, conventionally ending in `.arrows`
   * @param options simulator label, metadata and flushing
   * @returns the writer
   * @throws {TypeError} when `path` is not a non-empty string, `options` not an object, or an
   *   option of the wrong type (`FrameWriter.create: options.sync (1) must be a boolean`)
   * @throws {RangeError} on an unknown option (naming the nearest valid one) or a metadata key
   *   starting with `ARROW:`
   * @throws {Error} when `path` exists and is not a regular file, or its folder or the
   *   temporary file cannot be created (naming the path and the reason)
   * @example
   * ```ts
   * import { FrameWriter, readFrames } from "@grainlab/grainlab/arrow";
   * import { expect } from "expect";
   * const dir = await Deno.makeTempDir();
   * await Deno.writeTextFile(`${dir}/run.arrows`, "yesterday's run");
   * const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
   * expect(await Deno.readTextFile(`${dir}/run.arrows`)).toBe("yesterday's run"); // kept…
   * await w.write({ count: 1, positions: [0, 0, 1], velocities: [0, 0, 0] }, { time: 0 });
   * await w.close(); // …until the first frame replaced it
   * expect((await Array.fromAsync(readFrames(`${dir}/run.arrows`))).length).toBe(1);
   * await expect(FrameWriter.create(`${dir}/b.arrows`, { synch: false } as never)).rejects
   *   .toThrow(/unknown option "synch" in options; did you mean "sync"\?/);
   * ```
   */
  static async create(path: string, options?: FrameWriterOptions): Promise<FrameWriter> {
    const where = "FrameWriter.create";
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(`${where}: path (${String(path)}) must be a non-empty string`);
    }
    const o = checkOptions<FrameWriterOptions>(where, "options", options, WRITER_OPTIONS);
    const sync = bool(where, "options.sync", o.sync, true);
    if (o.simulator !== undefined && (typeof o.simulator !== "string" || o.simulator === "")) {
      throw new TypeError(
        `${where}: options.simulator (${String(o.simulator)}) must be a non-empty string`,
      );
    }
    if (
      o.metadata !== undefined &&
      (o.metadata === null || typeof o.metadata !== "object" || Array.isArray(o.metadata))
    ) {
      throw new TypeError(
        `${where}: options.metadata (${
          String(o.metadata)
        }) must be an object of strings and numbers`,
      );
    }
    for (const [k, v] of Object.entries(o.metadata ?? {})) {
      if (typeof v !== "string" && typeof v !== "number") {
        throw new TypeError(
          `${where}: options.metadata[${JSON.stringify(k)}] (${
            String(v)
          }) must be a string or a number`,
        );
      }
      if (k === CHECKSUM_KEY || k === FRAMES_FORMAT_KEY) {
        throw new RangeError(
          `${where}: options.metadata key "${k}" is reserved (the stream's checksum and format)`,
        );
      }
    }
    const metadata = metadataMap(where, o.metadata ?? {});
    const slash = path.lastIndexOf("/");
    if (slash > 0) {
      await Deno.mkdir(path.slice(0, slash), { recursive: true }).catch((e) => {
        throw new Error(`${where}: ${path}: cannot create its folder (${e.message})`, {
          cause: e,
        });
      });
    }
    const old = await Deno.stat(path).catch(() => null);
    if (old !== null && !old.isFile) {
      throw new Error(
        `${where}: ${path} exists and is not a regular file (${fileKind(old)}); ` +
          `give the path of a file`,
      );
    }
    const tmp = `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    let file: Deno.FsFile;
    try {
      file = await Deno.open(tmp, { write: true, createNew: true });
    } catch (e) {
      throw new Error(
        `${where}: ${path}: cannot create the stream's temporary file ${tmp} ` +
          `(${(e as Error).message})`,
        { cause: e },
      );
    }
    return new FrameWriter(file, path, tmp, sync, o.simulator, metadata);
  }

  /** Number of frames written so far. */
  get frames(): number {
    return this.#frames;
  }

  /**
   * Appends one frame: a particle snapshot of `system` stamped with `frame` and `time`.
   * Every frame must have the same columns as the first. The frame is in the file (handed to
   * the operating system) when `write` returns, so the caller may step on at once, and a
   * simulation callback may call `write` without awaiting it; the promise settles once the
   * frame is flushed to the disk (at once with `sync: false`). {@link close} waits for every
   * flush.
   *
   * @param system the particle system
   * @param stamp the frame's time: `time`, else `world.time`, else `system.world.time`,
   *   else NaN
   * @returns a promise that settles when the frame is on the disk
   * @throws {Error} (as a rejected promise) after {@link close} or after a failed write
   * @throws {TypeError} (as a rejected promise) when `system` is not a particle system,
   *   `stamp` not an object or `stamp.time` not a number
   * @throws {RangeError} (as a rejected promise) on an unknown key of `stamp` (naming the
   *   nearest valid one), or when the frame's columns differ from the first frame's
   */
  write(system: ParticleSystemLike, stamp?: FrameStamp): Promise<void> {
    if (this.#closed) {
      return Promise.reject(new Error(`FrameWriter.write: ${this.#path} is already closed`));
    }
    if (this.#failed !== null) return Promise.reject(this.#failed);
    let chunk: Uint8Array;
    try {
      chunk = this.#encode(system, stamp);
    } catch (e) {
      return Promise.reject(e);
    }
    const first = this.#tmp !== null;
    try {
      let off = 0;
      while (off < chunk.length) off += this.#file.writeSync(chunk.subarray(off));
      if (first) {
        // The first frame is complete: it replaces the old file (flushed first, so that a
        // power cut cannot leave an empty file in the old one's place).
        if (this.#sync) this.#file.syncDataSync();
        Deno.renameSync(this.#tmp!, this.#path);
        this.#tmp = null;
      }
    } catch (e) {
      this.#failed = new Error(
        `FrameWriter.write: ${this.#path}: writing frame ${this.#frames} failed ` +
          `(${(e as Error).message}); ` +
          (first
            ? `the file is left as it was`
            : `the file keeps the ${this.#frames} frames before it`),
      );
      return Promise.reject(this.#failed);
    }
    if (this.#schema === undefined) this.#schema = this.#pendingSchema;
    this.#frames++;
    this.#bytes += chunk.length;
    if (!this.#sync) return Promise.resolve();
    const flushed = this.#flushed.then(() => this.#file.syncData());
    this.#flushed = flushed.catch((e) => {
      this.#failed ??= new Error(`FrameWriter.write: ${this.#path}: fsync failed: ${e.message}`);
    });
    return flushed;
  }

  #pendingSchema?: A.Schema;

  /** Snapshots and serialises one frame (synchronously, so the caller may step on at once). */
  #encode(system: ParticleSystemLike, stamp: FrameStamp | undefined): Uint8Array {
    const where = "FrameWriter.write";
    if (typeof system !== "object" || system === null) {
      throw new TypeError(`${where}: system (${String(system)}) must be a particle system object`);
    }
    const s = checkOptions<FrameStamp>(where, "stamp", stamp, STAMP_KEYS);
    if (s.time !== undefined && typeof s.time !== "number") {
      throw new TypeError(`${where}: stamp.time (${String(s.time)}) must be a number`);
    }
    if (s.time === Infinity || s.time === -Infinity) {
      throw new RangeError(`${where}: stamp.time (${s.time}) must be finite (or NaN: unknown)`);
    }
    if (s.world !== undefined && (s.world === null || typeof s.world !== "object")) {
      throw new TypeError(`${where}: stamp.world (${String(s.world)}) must be a world object`);
    }
    const time = s.time ?? s.world?.time ?? system.world?.time ?? NaN;
    const snap = particlesTable(system, { time });
    const n = snap.numRows;
    const frameCol = A.makeData({
      type: new A.Uint32(),
      length: n,
      nullCount: 0,
      data: new Uint32Array(n).fill(this.#frames),
    });
    const timeCol = A.makeData({
      type: new A.Float64(),
      length: n,
      nullCount: 0,
      data: new Float64Array(n).fill(time),
    });
    const fields = [
      new A.Field(
        "frame",
        new A.Uint32(),
        false,
        new Map([["unit", "1"], ["description", "frame number (0-based)"]]),
      ),
      new A.Field(
        "time",
        new A.Float64(),
        false,
        new Map([["unit", "s"], ["description", "simulated time of the frame"]]),
      ),
      ...snap.schema.fields,
    ];
    const first = this.#schema === undefined;
    let schema: A.Schema;
    if (first) {
      const meta = new Map(snap.schema.metadata);
      meta.delete("grainlab.time");
      meta.delete("grainlab.step");
      meta.set("grainlab.table", "frames");
      if (this.#simulator) meta.set("grainlab.simulator", this.#simulator);
      for (const [k, v] of this.#metadata) meta.set(k, v);
      meta.set(FRAMES_FORMAT_KEY, FORMAT);
      meta.set(CHECKSUM_KEY, PLACEHOLDER);
      schema = this.#pendingSchema = new A.Schema(fields, meta);
    } else {
      schema = this.#schema!;
      const a = schema.fields.map((f) => `${f.name}:${f.type}`).join(",");
      const b = fields.map((f) => `${f.name}:${f.type}`).join(",");
      if (a !== b) {
        throw new RangeError(
          `${where}: frame ${this.#frames} has columns [${b}], the first frame had [${a}]`,
        );
      }
    }
    const children = [frameCol, timeCol, ...snap.batches[0].data.children];
    const batch = new A.RecordBatch(
      schema,
      A.makeData({ type: new A.Struct(schema.fields), length: n, nullCount: 0, children }),
      new Map([[CHECKSUM_KEY, PLACEHOLDER]]),
    );
    const bytes = A.tableToIPC(new A.Table(schema, [batch]), "stream");
    // A one-batch stream is: schema message, record batch message, end-of-stream marker. The
    // schema message has no body: its length is 8 + its metadata length.
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const schemaEnd = 8 + dv.getInt32(4, true);
    return sealMessages(bytes.subarray(first ? 0 : schemaEnd, bytes.length - EOS.length));
  }

  /**
   * Waits for every flush, appends the end-of-stream marker and closes the file. When no
   * frame was written, removes the temporary file (an old file at the path is left as it was)
   * and throws.
   *
   * @returns the number of frames and bytes written, and the path
   * @throws {Error} when no frame was written, or a write or flush failed (the frames before
   *   the failure stay in the file, which then reads back as truncated)
   */
  async close(): Promise<{ frames: number; bytes: number; path: string }> {
    const info = () => ({ frames: this.#frames, bytes: this.#bytes, path: this.#path });
    if (this.#closed) return info();
    this.#closed = true;
    try {
      await this.#flushed;
      if (this.#tmp !== null) {
        this.#file.close();
        await Deno.remove(this.#tmp).catch(() => {});
        if (this.#failed !== null) throw this.#failed;
        throw new Error(
          `FrameWriter.close: no frame was written to ${this.#path} (it is left as it was)`,
        );
      }
      if (this.#failed !== null) throw this.#failed;
      let off = 0;
      while (off < EOS.length) off += this.#file.writeSync(EOS.subarray(off));
      this.#bytes += EOS.length;
      if (this.#sync) await this.#file.syncData();
    } finally {
      try {
        this.#file.close();
      } catch { /* already closed */ }
    }
    return info();
  }
}

/**
 * Stores each message's checksum in place of its placeholder: the CRC-32 of the message's
 * bytes with the placeholder in them (see the module documentation).
 */
function sealMessages(bytes: Uint8Array): Uint8Array {
  const fail = (message: string): never => {
    throw new Error(`FrameWriter: cannot seal its own frame (${message})`);
  };
  const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let pos = 0;
  while (pos < bytes.length) {
    const len = dv.getInt32(pos + 4, true);
    const m = parseMessage(bytes, pos + 8, pos + 8 + len, pos, fail);
    const sum = m.schema?.checksum ?? m.checksum;
    if (sum === null) fail(`message at byte ${pos} has no "${CHECKSUM_KEY}"`);
    const end = pos + 8 + len + m.bodyLength;
    bytes.set(new TextEncoder().encode(hex8(crc32(bytes, pos, end))), sum!.pos);
    pos = end;
  }
  return bytes;
}

/** One frame read back by {@link readFrames}. */
export interface Frame {
  /** Frame number (0-based). */
  frame: number;
  /** Simulated time (s); NaN for an empty frame. */
  time: number;
  /** The frame's rows (with `frame` and `time` columns), sharing the stream's schema. */
  table: A.Table;
}

/**
 * The frames of an `.arrows` stream, returned by {@link readFrames}: iterate it with
 * `for await`; once the iteration has ended, {@link truncated} says whether the stream ended
 * without its end-of-stream marker (the writer was not closed: it crashed, was killed, or the
 * file was cut) and {@link truncation} why, and {@link corrupt} whether it stopped at a
 * damaged frame and {@link corruption} which. Each iteration reads the file afresh.
 *
 * @example
 * ```ts
 * import { FrameWriter, readFrames } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * const w = await FrameWriter.create(`${dir}/run.arrows`);
 * for (let k = 0; k < 3; k++) w.write({ count: 1, positions: [0, 0, k], velocities: [0, 0, 0] });
 * // …the process dies here, before w.close(): the file has 3 frames and no end marker.
 * const reader = readFrames(`${dir}/run.arrows`);
 * const frames = await Array.fromAsync(reader);
 * expect(frames.map((f) => f.frame)).toEqual([0, 1, 2]);
 * expect(reader.truncated).toBe(true);
 * expect(reader.truncation).toMatch(/no end-of-stream marker/);
 * expect(reader.corrupt).toBe(false);
 * await w.close(); // (the test tidies up)
 * ```
 */
export class FrameReader implements AsyncIterable<Frame> {
  /** The stream file. */
  readonly path: string;
  #strict: boolean;
  #truncated: boolean | undefined = undefined;
  #truncation: string | undefined = undefined;
  #corrupt: boolean | undefined = undefined;
  #corruption: string | undefined = undefined;
  #count = 0;

  /**
   * A reader of `path` (nothing is read before the iteration starts); see {@link readFrames}.
   *
   * @param path the stream file
   * @param options `strict`: throw a `RangeError` (after the frames before it) when the stream
   *   is corrupt or truncated, instead of ending the iteration and reporting it in
   *   {@link corrupt} / {@link truncated} (default false)
   * @throws {TypeError} when `path` is not a non-empty string or `options` not an object
   * @throws {RangeError} on an unknown option (naming the nearest valid one)
   */
  constructor(path: string, options?: { strict?: boolean }) {
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(`readFrames: path (${String(path)}) must be a non-empty string`);
    }
    const o = checkOptions<{ strict?: boolean }>("readFrames", "options", options, ["strict"]);
    this.#strict = bool("readFrames", "options.strict", o.strict, false);
    this.path = path;
  }

  /**
   * After the iteration ended: `true` when the stream has no end-of-stream marker (every
   * complete frame was returned; a partial last frame was left out) or stopped at a corrupt
   * frame ({@link corrupt}), `false` when it ended properly. `undefined` before the end.
   */
  get truncated(): boolean | undefined {
    return this.#truncated;
  }

  /** Why the stream counts as truncated (undefined when it is not, or not known yet). */
  get truncation(): string | undefined {
    return this.#truncation;
  }

  /**
   * After the iteration ended: `true` when it stopped at a damaged frame — a checksum
   * mismatch, or metadata or data that do not fit the schema — after returning the frames
   * before it; `false` when no damage was found. `undefined` before the end.
   */
  get corrupt(): boolean | undefined {
    return this.#corrupt;
  }

  /**
   * Which frame was damaged, where and how, e.g. `readFrames: run.arrows: frame 3 (message
   * at byte 4816) is corrupt: checksum mismatch …; the 3 frames before it were returned`.
   */
  get corruption(): string | undefined {
    return this.#corruption;
  }

  /** Complete frames returned by the current (or last) iteration. */
  get count(): number {
    return this.#count;
  }

  /** Reads the stream, one frame at a time. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Frame> {
    const path = this.path;
    const prefix = `readFrames: ${path}`;
    this.#truncated =
      this.#truncation =
      this.#corrupt =
      this.#corruption =
        undefined;
    this.#count = 0;
    regularFile("readFrames", path); // before opening: opening a FIFO blocks
    let file: Deno.FsFile;
    try {
      file = await Deno.open(path, { read: true });
    } catch (e) {
      if (e instanceof Deno.errors.NotFound) throw new Error(`${prefix}: does not exist`);
      throw new Error(`${prefix}: cannot be opened: ${(e as Error).message}`);
    }
    try {
      const size = (await file.stat()).size;
      const check = new IpcStreamChecker(prefix);
      let schemaBytes: Uint8Array | null = null;
      /** Format 2: every message has a checksum. */
      let checksummed = false;
      const dictionaries: Uint8Array[] = [];
      let pos = 0;
      const cut = (why: string) => {
        this.#truncated = true;
        this.#truncation = why;
      };
      /** Damage found in the message at byte `at`: ends the iteration after the schema. */
      const damage = (at: number, why: string): never => {
        throw new Damage(at, why.startsWith(`${prefix}: `) ? why.slice(prefix.length + 2) : why);
      };
      try {
        while (true) {
          if (pos === size) {
            cut(
              `the stream ends at byte ${size} after ${this.#count} frame(s) with no end-of-stream marker (its writer was not closed)`,
            );
            break;
          }
          if (size - pos < 8) {
            cut(
              `the stream ends at byte ${size} inside the prefix of the message at byte ${pos}, after ${this.#count} frame(s)`,
            );
            break;
          }
          const head = await readExactly(file, 8);
          if (head === null) {
            cut(`the file shrank while it was read`);
            break;
          }
          const hv = new DataView(head.buffer, head.byteOffset, 8);
          if (pos === 0 && new TextDecoder().decode(head.subarray(0, 6)) === "ARROW1") {
            throw new RangeError(`${prefix}: is an Arrow IPC file, not a stream; use readArrow`);
          }
          if (hv.getUint32(0, true) !== CONTINUATION) {
            if (pos === 0) {
              throw new RangeError(
                `${prefix}: is not an Arrow IPC stream (no continuation marker at byte 0)`,
              );
            }
            damage(pos, `no continuation marker at byte ${pos}`);
          }
          const len = hv.getInt32(4, true);
          if (len === 0) {
            if (schemaBytes === null) {
              throw new RangeError(`${prefix}: ends (byte ${pos}) before its schema message`);
            }
            if (pos + 8 !== size) {
              damage(pos, `${size - pos - 8} bytes follow the end-of-stream marker at byte ${pos}`);
            }
            this.#truncated = false;
            break;
          }
          if (len < 0 || len % 8 !== 0) {
            damage(
              pos,
              `metadata length ${len} at byte ${pos + 4}, must be a positive multiple of 8`,
            );
          }
          if (pos + 8 + len > size) {
            cut(
              `the message at byte ${pos} needs ${
                8 + len
              }+ bytes, the file ends at byte ${size}; ${this.#count} complete frame(s)`,
            );
            break;
          }
          const meta = await readExactly(file, len);
          if (meta === null) {
            cut(`the file shrank while it was read`);
            break;
          }
          let m: IpcMessage;
          try {
            m = check.message(meta, pos);
          } catch (e) {
            damage(pos, (e as Error).message);
          }
          const end = pos + 8 + len + m!.bodyLength;
          if (end > size) {
            cut(
              `the message at byte ${pos} needs ${
                end - pos
              } bytes, the file ends at byte ${size}; ${this.#count} complete frame(s)`,
            );
            break;
          }
          const body = await readExactly(file, m!.bodyLength);
          if (body === null) {
            cut(`the file shrank while it was read`);
            break;
          }
          const message = concatBytes([head, meta, body]);
          const sum = m!.checksum;
          if (m!.kind === "schema") {
            const format = m!.desc.schema!.metadata.find(([k]) => k === FRAMES_FORMAT_KEY)?.[1];
            if (sum !== null) verifyChecksum(message, sum, pos, prefix, damage);
            if ((sum !== null) !== (format !== undefined) || (format ?? FORMAT) !== FORMAT) {
              damage(
                pos,
                `the schema has ${sum === null ? "no" : "a"} checksum "${CHECKSUM_KEY}" and ` +
                  `format ${JSON.stringify(format ?? null)} under "${FRAMES_FORMAT_KEY}"; ` +
                  `format "${FORMAT}" streams have both, older ones neither`,
              );
            }
            checksummed = sum !== null;
          } else if (sum !== null || checksummed) {
            if (!checksummed) {
              damage(pos, `a checksum "${CHECKSUM_KEY}" in a stream whose schema has none`);
            }
            if (sum === null) damage(pos, `no checksum "${CHECKSUM_KEY}" (format ${FORMAT})`);
            verifyChecksum(message, sum!, pos, prefix, damage);
          }
          try {
            check.body(m!, body);
          } catch (e) {
            damage(pos, (e as Error).message);
          }
          pos = end;
          if (m!.kind === "schema") {
            schemaBytes = message;
            continue;
          }
          if (m!.kind === "dictionary") {
            dictionaries.push(message);
            continue;
          }
          let table: A.Table;
          try {
            table = A.tableFromIPC(concatBytes([schemaBytes!, ...dictionaries, message, EOS]));
          } catch (e) {
            damage(
              end - message.length,
              `apache-arrow cannot decode it: ${(e as Error).message}`,
            );
          }
          table!.schema.metadata.delete(CHECKSUM_KEY);
          for (const b of table!.batches) b.metadata.delete(CHECKSUM_KEY);
          const n = table!.numRows;
          const frame = n > 0
            ? Number(table!.getChild("frame")?.get(0) ?? this.#count)
            : this.#count;
          const time = n > 0 ? Number(table!.getChild("time")?.get(0) ?? NaN) : NaN;
          this.#count++;
          yield { frame, time, table: table! };
        }
      } catch (e) {
        if (!(e instanceof Damage)) throw e;
        const what = schemaBytes === null
          ? `the schema message (byte ${e.at})`
          : `frame ${this.#count} (message at byte ${e.at})`;
        const text = `${prefix}: ${what} is corrupt: ${e.why}`;
        if (schemaBytes === null) throw new RangeError(text);
        this.#corrupt = this.#truncated = true;
        this.#corruption =
          `${text}; the ${this.#count} frame(s) before it were returned, the rest is unread`;
        this.#truncation = `it stops at a corrupt frame: ${this.#corruption}`;
      }
      if (schemaBytes === null) {
        throw new RangeError(
          size === 0
            ? `${prefix}: is empty (no frame was written)`
            : `${prefix}: is truncated (${size} bytes) before the end of its schema message (no frame was written)`,
        );
      }
      this.#corrupt ??= false;
      if (this.#strict && this.#truncated) {
        throw new RangeError(this.#corruption ?? `${prefix}: is truncated: ${this.#truncation}`);
      }
    } finally {
      file.close();
    }
  }
}

/** Damage found in a message (internal to {@link FrameReader}). */
class Damage extends Error {
  constructor(readonly at: number, readonly why: string) {
    super(why);
  }
}

/**
 * Verifies a message's checksum: the CRC-32 of its bytes with the stored digits replaced by
 * the placeholder. `sum.pos` is in the metadata, which starts at byte 8 of `message`.
 */
function verifyChecksum(
  message: Uint8Array,
  sum: { value: string; pos: number },
  pos: number,
  prefix: string,
  damage: (at: number, why: string) => never,
): void {
  const at = 8 + sum.pos;
  const stored = message.slice(at, at + 8);
  message.set(PLACEHOLDER_BYTES, at);
  const computed = hex8(crc32(message));
  message.set(stored, at);
  if (computed !== sum.value) {
    damage(
      pos,
      `checksum mismatch: the message stores ${CHECKSUM_KEY} = ${sum.value}, its bytes sum ` +
        `to ${computed} (${prefix} was changed or damaged after it was written)`,
    );
  }
}

/** Reads `n` bytes, or returns null at the end of the file. */
async function readExactly(file: Deno.FsFile, n: number): Promise<Uint8Array | null> {
  const buf = new Uint8Array(n);
  let off = 0;
  while (off < n) {
    const got = await file.read(buf.subarray(off));
    if (got === null) return null;
    off += got;
  }
  return buf;
}

/**
 * Reads an `.arrows` stream written by {@link FrameWriter} (or any Arrow IPC stream), one frame
 * at a time, without loading the whole file, verifying each frame's checksum (format 2; see
 * the module documentation). A stream whose writer was not closed (a crash) reads back up to
 * its last complete frame; the returned {@link FrameReader} then says `truncated`. A damaged
 * frame ends the iteration after the frames before it; the reader then says `corrupt`, and
 * which frame in `corruption` — or, with `{ strict: true }`, throws that.
 *
 * @param path the stream file
 * @param options `strict`: throw on a corrupt or truncated stream (after its good frames)
 * @returns the frames, as an async iterable that reports truncation and damage when done
 * @throws {TypeError} when `path` is not a non-empty string, or `options` not an object
 * @throws {RangeError} on an unknown option (naming the nearest valid one)
 * @throws {Error} (while iterating) `readFrames: <path>: does not exist`, or `… is not a
 *   regular file (a FIFO) …`
 * @throws {RangeError} (while iterating) `readFrames: <path>: <what is wrong>` when it is not an
 *   Arrow IPC stream, or its schema message is missing, cut or damaged; with `strict`, when a
 *   frame is damaged or the stream truncated
 * @example
 * ```ts
 * import { FrameWriter, readFrames } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
 * for (let k = 0; k < 3; k++) {
 *   await w.write({ count: 1, positions: [0, 0, k], velocities: [0, 0, 0] }, { time: k });
 * }
 * const { bytes } = await w.close();
 * const file = await Deno.readFile(`${dir}/run.arrows`);
 * file[bytes - 20] ^= 0xff; // a byte of the last frame's data
 * await Deno.writeFile(`${dir}/run.arrows`, file);
 * const reader = readFrames(`${dir}/run.arrows`);
 * expect((await Array.fromAsync(reader)).map((f) => f.frame)).toEqual([0, 1]);
 * expect(reader.corrupt).toBe(true);
 * expect(reader.corruption).toMatch(/frame 2 \(message at byte \d+\) is corrupt: checksum mismatch/);
 * await expect(Array.fromAsync(readFrames(`${dir}/run.arrows`, { strict: true }))).rejects
 *   .toThrow(/frame 2 .* is corrupt/);
 * await Deno.writeTextFile(`${dir}/junk.arrows`, "definitely not arrow");
 * await expect(Array.fromAsync(readFrames(`${dir}/junk.arrows`))).rejects
 *   .toThrow(/junk\.arrows: is not an Arrow IPC stream/);
 * await expect(Array.fromAsync(readFrames(`${dir}/none.arrows`))).rejects
 *   .toThrow(/does not exist/);
 * ```
 */
export function readFrames(path: string, options?: { strict?: boolean }): FrameReader {
  return new FrameReader(path, options);
}
