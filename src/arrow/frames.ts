/**
 * Many time steps in one Arrow IPC **stream** (`.arrows`): {@link FrameWriter} appends one
 * record batch per frame to the file as it goes; {@link readFrames} reads them back one at a
 * time.
 *
 * **Crash safety.** The stream is written to its destination directly, one frame at a time:
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
 * garbage throws a `RangeError` naming the file, the byte and the problem, and never hangs.
 *
 * @module
 */

import * as A from "apache-arrow";
import { particlesTable } from "./particles.ts";
import { metadataMap } from "./schema.ts";
import type { ParticleSystemLike } from "./types.ts";
import { IpcStreamChecker } from "./ipc.ts";
import { concatBytes } from "../math/bytes.ts";

/** End-of-stream marker: continuation token + zero length. */
const EOS = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);
const CONTINUATION = 0xffffffff;

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
  #options: FrameWriterOptions;
  #schema?: A.Schema;
  #frames = 0;
  #bytes = 0;
  #closed = false;
  #failed: Error | null = null;
  #flushed: Promise<void> = Promise.resolve();

  private constructor(file: Deno.FsFile, path: string, options: FrameWriterOptions) {
    this.#file = file;
    this.#path = path;
    this.#options = options;
  }

  /**
   * Creates (or empties) `path` and opens a writer on it; the first frame writes the schema.
   *
   * @param path destination, conventionally ending in `.arrows`
   * @param options simulator label, metadata and flushing
   * @returns the writer
   * @throws {TypeError} when `path` is not a non-empty string or `sync` not a boolean
   * @throws {RangeError} when a metadata key starts with `ARROW:`
   */
  static async create(path: string, options: FrameWriterOptions = {}): Promise<FrameWriter> {
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(
        `FrameWriter.create: path is ${String(path)}, must be a non-empty string`,
      );
    }
    if (options.sync !== undefined && typeof options.sync !== "boolean") {
      throw new TypeError(
        `FrameWriter.create: options.sync is ${String(options.sync)}, must be a boolean`,
      );
    }
    metadataMap("FrameWriter.create", options.metadata ?? {});
    const slash = path.lastIndexOf("/");
    if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
    const file = await Deno.open(path, { write: true, create: true, truncate: true });
    return new FrameWriter(file, path, options);
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
   * @param stamp the frame's time
   * @returns a promise that settles when the frame is on the disk
   * @throws {Error} (as a rejected promise) after {@link close} or after a failed write
   * @throws {RangeError} (as a rejected promise) when the frame's columns differ from the
   *   first frame's
   */
  write(system: ParticleSystemLike, stamp: FrameStamp = {}): Promise<void> {
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
    try {
      let off = 0;
      while (off < chunk.length) off += this.#file.writeSync(chunk.subarray(off));
    } catch (e) {
      this.#failed = new Error(
        `FrameWriter.write: ${this.#path}: writing frame ${this.#frames} failed ` +
          `(${(e as Error).message}); the file keeps the ${this.#frames} frames before it`,
      );
      return Promise.reject(this.#failed);
    }
    if (this.#schema === undefined) this.#schema = this.#pendingSchema;
    this.#frames++;
    this.#bytes += chunk.length;
    if (this.#options.sync === false) return Promise.resolve();
    const flushed = this.#flushed.then(() => this.#file.syncData());
    this.#flushed = flushed.catch((e) => {
      this.#failed ??= new Error(`FrameWriter.write: ${this.#path}: fsync failed: ${e.message}`);
    });
    return flushed;
  }

  #pendingSchema?: A.Schema;

  /** Snapshots and serialises one frame (synchronously, so the caller may step on at once). */
  #encode(system: ParticleSystemLike, stamp: FrameStamp): Uint8Array {
    const time = stamp.time ?? stamp.world?.time ?? system.world?.time ?? NaN;
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
      if (this.#options.simulator) meta.set("grainlab.simulator", this.#options.simulator);
      for (const [k, v] of metadataMap("FrameWriter", this.#options.metadata ?? {})) {
        meta.set(k, v);
      }
      schema = this.#pendingSchema = new A.Schema(fields, meta);
    } else {
      schema = this.#schema!;
      const a = schema.fields.map((f) => `${f.name}:${f.type}`).join(",");
      const b = fields.map((f) => `${f.name}:${f.type}`).join(",");
      if (a !== b) {
        throw new RangeError(
          `FrameWriter.write: frame ${this.#frames} has columns [${b}], the first frame had [${a}]`,
        );
      }
    }
    const children = [frameCol, timeCol, ...snap.batches[0].data.children];
    const batch = new A.RecordBatch(
      schema,
      A.makeData({ type: new A.Struct(schema.fields), length: n, nullCount: 0, children }),
    );
    const bytes = A.tableToIPC(new A.Table(schema, [batch]), "stream");
    // A one-batch stream is: schema message, record batch message, end-of-stream marker. The
    // schema message has no body: its length is 8 + its metadata length.
    const dv = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const schemaEnd = 8 + dv.getInt32(4, true);
    return bytes.subarray(first ? 0 : schemaEnd, bytes.length - EOS.length);
  }

  /**
   * Waits for every flush, appends the end-of-stream marker and closes the file. When no
   * frame was written, removes the (empty) file and throws.
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
      if (this.#failed !== null) throw this.#failed;
      if (this.#schema === undefined) {
        this.#file.close();
        await Deno.remove(this.#path).catch(() => {});
        throw new Error(`FrameWriter.close: no frame was written to ${this.#path}`);
      }
      let off = 0;
      while (off < EOS.length) off += this.#file.writeSync(EOS.subarray(off));
      this.#bytes += EOS.length;
      if (this.#options.sync !== false) await this.#file.syncData();
    } finally {
      try {
        this.#file.close();
      } catch { /* already closed */ }
    }
    return info();
  }
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
 * `for await`; once the iteration has reached the end of the stream, {@link truncated} says
 * whether the stream ended without its end-of-stream marker (the writer was not closed: it
 * crashed, was killed, or the file was cut) and {@link truncation} why. Each iteration reads
 * the file afresh.
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
 * await w.close(); // (the test tidies up)
 * ```
 */
export class FrameReader implements AsyncIterable<Frame> {
  /** The stream file. */
  readonly path: string;
  #truncated: boolean | undefined = undefined;
  #truncation: string | undefined = undefined;
  #count = 0;

  /**
   * A reader of `path` (nothing is read before the iteration starts); see {@link readFrames}.
   *
   * @param path the stream file
   * @throws {TypeError} when `path` is not a non-empty string
   */
  constructor(path: string) {
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(`readFrames: path is ${String(path)}, must be a non-empty string`);
    }
    this.path = path;
  }

  /**
   * After the iteration reached the end of the stream: `true` when the stream has no
   * end-of-stream marker (every complete frame was returned; a partial last frame was left
   * out), `false` when it ended properly. `undefined` before the end was reached.
   */
  get truncated(): boolean | undefined {
    return this.#truncated;
  }

  /** Why the stream counts as truncated (undefined when it is not, or not known yet). */
  get truncation(): string | undefined {
    return this.#truncation;
  }

  /** Complete frames returned by the current (or last) iteration. */
  get count(): number {
    return this.#count;
  }

  /** Reads the stream, one frame at a time. */
  async *[Symbol.asyncIterator](): AsyncGenerator<Frame> {
    const path = this.path;
    const prefix = `readFrames: ${path}`;
    this.#truncated = this.#truncation = undefined;
    this.#count = 0;
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
      const dictionaries: Uint8Array[] = [];
      let pos = 0;
      const cut = (why: string) => {
        this.#truncated = true;
        this.#truncation = why;
      };
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
          throw new RangeError(
            pos === 0
              ? `${prefix}: is not an Arrow IPC stream (no continuation marker at byte 0)`
              : `${prefix}: is corrupt after ${this.#count} frame(s): no continuation marker at byte ${pos}`,
          );
        }
        const len = hv.getInt32(4, true);
        if (len === 0) {
          if (pos + 8 !== size) {
            throw new RangeError(
              `${prefix}: has ${size - pos - 8} bytes after its end-of-stream marker (byte ${pos})`,
            );
          }
          if (schemaBytes === null) {
            throw new RangeError(`${prefix}: ends (byte ${pos}) before its schema message`);
          }
          this.#truncated = false;
          break;
        }
        if (len < 0 || len % 8 !== 0) {
          throw new RangeError(
            `${prefix}: is corrupt after ${this.#count} frame(s): message at byte ${pos} has ` +
              `metadata length ${len}, must be a positive multiple of 8`,
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
        const m = check.message(meta, pos);
        const end = pos + 8 + len + m.bodyLength;
        if (end > size) {
          cut(
            `the message at byte ${pos} needs ${
              end - pos
            } bytes, the file ends at byte ${size}; ${this.#count} complete frame(s)`,
          );
          break;
        }
        const body = await readExactly(file, m.bodyLength);
        if (body === null) {
          cut(`the file shrank while it was read`);
          break;
        }
        check.body(m, body);
        const message = concatBytes([head, meta, body]);
        pos = end;
        if (m.kind === "schema") {
          schemaBytes = message;
          continue;
        }
        if (m.kind === "dictionary") {
          dictionaries.push(message);
          continue;
        }
        let table: A.Table;
        try {
          table = A.tableFromIPC(concatBytes([schemaBytes!, ...dictionaries, message, EOS]));
        } catch (e) {
          throw new RangeError(
            `${prefix}: apache-arrow cannot decode the frame at byte ${end - message.length}: ${
              (e as Error).message
            }`,
          );
        }
        const n = table.numRows;
        const frame = n > 0 ? Number(table.getChild("frame")?.get(0) ?? this.#count) : this.#count;
        const time = n > 0 ? Number(table.getChild("time")?.get(0) ?? NaN) : NaN;
        this.#count++;
        yield { frame, time, table };
      }
      if (schemaBytes === null) {
        throw new RangeError(
          size === 0
            ? `${prefix}: is empty (no frame was written)`
            : `${prefix}: is truncated (${size} bytes) before the end of its schema message (no frame was written)`,
        );
      }
    } finally {
      file.close();
    }
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
 * at a time, without loading the whole file. A stream whose writer was not closed (a crash)
 * reads back up to its last complete frame; the returned {@link FrameReader} then says
 * `truncated` (see there).
 *
 * @param path the stream file
 * @returns the frames, as an async iterable that reports truncation when done
 * @throws {TypeError} when `path` is not a non-empty string
 * @throws {Error} (while iterating) `readFrames: <path>: does not exist`
 * @throws {RangeError} (while iterating) `readFrames: <path>: <what is wrong>` when it is not an
 *   Arrow IPC stream or is corrupt, or has no complete schema message
 * @example
 * ```ts
 * import { readFrames } from "@grainlab/grainlab/arrow";
 * import { expect } from "expect";
 * const dir = await Deno.makeTempDir();
 * await Deno.writeTextFile(`${dir}/junk.arrows`, "definitely not arrow");
 * await expect(Array.fromAsync(readFrames(`${dir}/junk.arrows`))).rejects
 *   .toThrow(/junk\.arrows: is not an Arrow IPC stream/);
 * await expect(Array.fromAsync(readFrames(`${dir}/none.arrows`))).rejects
 *   .toThrow(/does not exist/);
 * ```
 */
export function readFrames(path: string): FrameReader {
  return new FrameReader(path);
}
