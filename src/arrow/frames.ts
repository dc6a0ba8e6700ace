/**
 * Many time steps in one Arrow IPC **stream** (`.arrows`): `FrameWriter` appends one record
 * batch per frame to disk as it goes; `readFrames` reads them back one at a time.
 *
 * @module
 */

import * as A from "apache-arrow";
import { particlesTable } from "./particles.ts";
import { metadataMap } from "./schema.ts";
import type { ParticleSystemLike } from "./types.ts";

/** End-of-stream marker: continuation token + zero length. */
const EOS = new Uint8Array([0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0]);

/** Options of {@link FrameWriter.create}. */
export interface FrameWriterOptions {
  /** Simulator label for the schema metadata. @default "sphere3d" in 3D, "star2d" in 2D */
  simulator?: string;
  /** Extra schema metadata (keys must not start with `ARROW:`). */
  metadata?: Record<string, string | number>;
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
 * (0, 1, 2 …) and `time` columns in front of the {@link particlesTable} columns. Frames go to
 * disk as they are written; the file appears at `path` (atomically) on {@link close}.
 *
 * @example
 * ```ts
 * import { FrameWriter, readFrames } from "@grainlab/grainlab/arrow";
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
 * console.assert(zs.length === 3 && Math.abs(zs[2] - 0.8) < 1e-12);
 * ```
 */
export class FrameWriter {
  #file: Deno.FsFile;
  #path: string;
  #tmp: string;
  #options: FrameWriterOptions;
  #schema?: A.Schema;
  #frames = 0;
  #bytes = 0;
  #closed = false;
  #queue: Promise<void> = Promise.resolve();

  private constructor(file: Deno.FsFile, path: string, tmp: string, options: FrameWriterOptions) {
    this.#file = file;
    this.#path = path;
    this.#tmp = tmp;
    this.#options = options;
  }

  /**
   * Opens a writer; the file is written to a temporary name next to `path`.
   *
   * @param path destination, conventionally ending in `.arrows`
   * @param options simulator label and metadata
   * @returns the writer
   */
  static async create(path: string, options: FrameWriterOptions = {}): Promise<FrameWriter> {
    if (typeof path !== "string" || path.length === 0) {
      throw new TypeError(
        `FrameWriter.create: path is ${String(path)}, must be a non-empty string`,
      );
    }
    metadataMap("FrameWriter.create", options.metadata ?? {});
    const slash = path.lastIndexOf("/");
    if (slash > 0) await Deno.mkdir(path.slice(0, slash), { recursive: true });
    const tmp = `${path}.tmp-${Deno.pid}-${crypto.randomUUID().slice(0, 8)}`;
    const file = await Deno.open(tmp, { write: true, create: true, truncate: true });
    return new FrameWriter(file, path, tmp, options);
  }

  /** Number of frames written so far. */
  get frames(): number {
    return this.#frames;
  }

  /**
   * Appends one frame: a particle snapshot of `system` stamped with `frame` and `time`.
   * Every frame must have the same columns as the first. The snapshot is taken at once; the
   * disk write is queued (frames stay in order), so a simulation callback may call `write`
   * without awaiting it — {@link close} waits for every queued write.
   *
   * @param system the particle system
   * @param stamp the frame's time
   * @throws {Error} after {@link close}
   * @throws {RangeError} when the frame's columns differ from the first frame's
   */
  write(system: ParticleSystemLike, stamp: FrameStamp = {}): Promise<void> {
    if (this.#closed) {
      return Promise.reject(new Error(`FrameWriter.write: ${this.#path} is already closed`));
    }
    let chunk: Uint8Array;
    try {
      chunk = this.#encode(system, stamp);
    } catch (e) {
      return Promise.reject(e);
    }
    this.#frames++;
    this.#queue = this.#queue.then(async () => {
      await writeAll(this.#file, chunk);
      this.#bytes += chunk.length;
    });
    return this.#queue;
  }

  /** Snapshots and serialises one frame (synchronously, so the caller may step on at once). */
  #encode(system: ParticleSystemLike, stamp: FrameStamp): Uint8Array {
    if (this.#closed) throw new Error(`FrameWriter.write: ${this.#path} is already closed`);
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
    if (first) {
      const meta = new Map(snap.schema.metadata);
      meta.delete("grainlab.time");
      meta.delete("grainlab.step");
      meta.set("grainlab.table", "frames");
      if (this.#options.simulator) meta.set("grainlab.simulator", this.#options.simulator);
      for (const [k, v] of metadataMap("FrameWriter", this.#options.metadata ?? {})) {
        meta.set(k, v);
      }
      this.#schema = new A.Schema(fields, meta);
    } else {
      const a = this.#schema!.fields.map((f) => `${f.name}:${f.type}`).join(",");
      const b = fields.map((f) => `${f.name}:${f.type}`).join(",");
      if (a !== b) {
        throw new RangeError(
          `FrameWriter.write: frame ${this.#frames} has columns [${b}], the first frame had [${a}]`,
        );
      }
    }
    const schema = this.#schema!;
    const children = [frameCol, timeCol, ...snap.batches[0].data.children];
    const batch = new A.RecordBatch(
      schema,
      A.makeData({ type: new A.Struct(schema.fields), length: n, nullCount: 0, children }),
    );
    const bytes = A.tableToIPC(new A.Table(schema, [batch]), "stream");
    // A one-batch stream is: schema message, record batch message, end-of-stream marker.
    const schemaLen = A.tableToIPC(new A.Table(schema), "stream").length - EOS.length;
    return first
      ? bytes.subarray(0, bytes.length - EOS.length)
      : bytes.subarray(schemaLen, bytes.length - EOS.length);
  }

  /**
   * Writes the end-of-stream marker, closes the file and moves it to its final path.
   *
   * @returns the number of frames and bytes written
   */
  async close(): Promise<{ frames: number; bytes: number; path: string }> {
    if (this.#closed) return { frames: this.#frames, bytes: this.#bytes, path: this.#path };
    this.#closed = true;
    try {
      await this.#queue;
      if (this.#schema === undefined) {
        throw new Error(`FrameWriter.close: no frame was written to ${this.#path}`);
      }
      await writeAll(this.#file, EOS);
      this.#bytes += EOS.length;
      this.#file.close();
      await Deno.rename(this.#tmp, this.#path);
    } catch (e) {
      try {
        this.#file.close();
      } catch { /* already closed */ }
      await Deno.remove(this.#tmp).catch(() => {});
      throw e;
    }
    return { frames: this.#frames, bytes: this.#bytes, path: this.#path };
  }
}

async function writeAll(file: Deno.FsFile, bytes: Uint8Array): Promise<void> {
  let off = 0;
  while (off < bytes.length) off += await file.write(bytes.subarray(off));
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
 * Reads an `.arrows` stream written by {@link FrameWriter}, one frame at a time, without
 * loading the whole file.
 *
 * @param path the stream file
 * @returns an async iterator over frames
 * @throws {Error} naming the path when it is missing, truncated or not an Arrow IPC stream
 * @example
 * ```ts
 * import { readFrames } from "@grainlab/grainlab/arrow";
 * let message = "";
 * try {
 *   for await (const f of readFrames("/nonexistent/run.arrows")) console.log(f.frame);
 * } catch (e) { message = String(e); }
 * console.assert(message.includes("does not exist"));
 * ```
 */
export async function* readFrames(path: string): AsyncGenerator<Frame> {
  let file: Deno.FsFile;
  try {
    file = await Deno.open(path, { read: true });
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) throw new Error(`readFrames: ${path} does not exist`);
    throw new Error(`readFrames: cannot open ${path}: ${(e as Error).message}`);
  }
  const head = new Uint8Array(8);
  const got = await file.read(head);
  await file.seek(0, Deno.SeekMode.Start);
  if (got === null || got < 8) {
    file.close();
    throw new Error(`readFrames: ${path} is truncated (${got ?? 0} bytes)`);
  }
  if (new TextDecoder().decode(head.subarray(0, 6)) === "ARROW1") {
    file.close();
    throw new Error(`readFrames: ${path} is an Arrow IPC file, not a stream; use readArrow`);
  }
  if (!(head[0] === 0xff && head[1] === 0xff && head[2] === 0xff && head[3] === 0xff)) {
    file.close();
    throw new Error(`readFrames: ${path} is not an Arrow IPC stream (bad first message)`);
  }
  let index = 0;
  try {
    const reader = await A.RecordBatchReader.from(file.readable);
    for await (const batch of reader) {
      const n = batch.numRows;
      const frame = n > 0 ? Number(batch.getChild("frame")?.get(0) ?? index) : index;
      const time = n > 0 ? Number(batch.getChild("time")?.get(0) ?? NaN) : NaN;
      yield { frame, time, table: new A.Table(batch.schema, [batch]) };
      index++;
    }
  } catch (e) {
    throw new Error(
      `readFrames: ${path} is truncated or corrupt after ${index} frame(s): ${
        (e as Error).message
      }`,
    );
  }
}
