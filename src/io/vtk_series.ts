/**
 * Time series for ParaView: {@link VtkSeriesWriter} writes one `.vtp` file of grains (and
 * optionally one of contacts) per frame and keeps the `.pvd` collection that lists them with
 * their times up to date, atomically.
 *
 * @module
 */
import { exactNumber, writeFileAtomic } from "../math/files.ts";
import { options as checkOptions } from "../math/validate.ts";
import {
  vtkContactsBytes,
  type VtkContactSource,
  vtkParticlesBytes,
  type VtkParticleSource,
} from "./vtk.ts";
import { checkPath, resolve, type VtkOptions } from "./vtk_polydata.ts";

const SERIES_KEYS: readonly string[] = ["precision", "contacts"];

/** Options of {@link VtkSeriesWriter}. */
export interface VtkSeriesOptions {
  /** Storage of the floating-point arrays (see {@link VtkOptions}). @default "float64" */
  precision?: "float64" | "float32";
  /** Also write the contacts of each frame (`<base>_contacts_<k>.vtp`, part 1). @default false */
  contacts?: boolean;
}

/**
 * A time series for ParaView: each {@link VtkSeriesWriter.add} writes `<base>_<k>.vtp`
 * (and `<base>_contacts_<k>.vtp` with `contacts: true`) and rewrites `<base>.pvd`, the
 * collection that lists every frame with its time, atomically — so the `.pvd` on disk always
 * describes complete frames, even if the run stops. Open the `.pvd` in ParaView; the
 * contacts are part 1 of each time step.
 *
 * @example
 * ```ts
 * import { VtkSeriesWriter } from "@grainlab/grainlab/io";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-3 });
 * const g = world.addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.02 });
 * const dir = await Deno.makeTempDir();
 * const series = new VtkSeriesWriter(`${dir}/drop`, { contacts: true });
 * for (let k = 0; k < 3; k++) {
 *   await series.add(world.time, g);
 *   world.run(10);
 * }
 * await series.close();
 * const pvd = await Deno.readTextFile(`${dir}/drop.pvd`);
 * expect(pvd).toContain('<DataSet timestep="0.01" group="" part="0" file="drop_1.vtp"/>');
 * expect(pvd).toContain('part="1" file="drop_contacts_2.vtp"/>');
 * expect(series.count).toBe(3);
 * ```
 */
export class VtkSeriesWriter {
  /** The path prefix: frames are `<base>_<k>.vtp`, the collection `<base>.pvd`. */
  readonly base: string;
  readonly #f32: boolean;
  readonly #contacts: boolean;
  readonly #entries: string[] = [];
  #last = -Infinity;
  #count = 0;
  #busy = false;
  #closed = false;

  /**
   * Start a series; nothing is written until the first {@link VtkSeriesWriter.add}.
   *
   * @param base path prefix, e.g. `out/run/grains` (folders are created)
   * @param options precision and whether to write the contacts
   */
  constructor(base: string, options: VtkSeriesOptions = {}) {
    checkPath("VtkSeriesWriter", base);
    const o = checkOptions<VtkSeriesOptions>("VtkSeriesWriter", "options", options, SERIES_KEYS);
    this.#f32 = resolve("VtkSeriesWriter", { precision: o.precision }).f32;
    if (o.contacts !== undefined && typeof o.contacts !== "boolean") {
      throw new TypeError(`VtkSeriesWriter: contacts (${String(o.contacts)}) must be a boolean`);
    }
    this.#contacts = o.contacts ?? false;
    this.base = base;
  }

  /** The collection file, `<base>.pvd`. */
  get pvdPath(): string {
    return `${this.base}.pvd`;
  }

  /** Frames written so far. */
  get count(): number {
    return this.#count;
  }

  /**
   * Write frame `count` at simulated time `time` (s), which must exceed the previous one,
   * then rewrite the collection. Await each call before the next.
   *
   * @param time simulated time (s)
   * @param system the grains (and, with `contacts: true`, their contacts)
   */
  async add(time: number, system: VtkParticleSource & Partial<VtkContactSource>): Promise<void> {
    const w = "VtkSeriesWriter.add";
    if (this.#closed) throw new Error(`${w}: the series ${this.pvdPath} is closed`);
    if (this.#busy) throw new Error(`${w}: the previous add has not finished; await it first`);
    if (typeof time !== "number" || !Number.isFinite(time)) {
      throw new RangeError(`${w}: time (${String(time)}) must be a finite number`);
    }
    if (!(time > this.#last)) {
      throw new RangeError(`${w}: time (${time}) must exceed the previous frame's (${this.#last})`);
    }
    if (this.#contacts && (system === null || typeof system !== "object" || !system.contacts)) {
      throw new TypeError(`${w}: system has no contacts (the series writes contacts)`);
    }
    this.#busy = true;
    try {
      const k = this.#count, name = baseName(this.base);
      const opts: VtkOptions = { precision: this.#f32 ? "float32" : "float64", time };
      const grains = vtkParticlesBytes(system, opts);
      const contacts = this.#contacts ? vtkContactsBytes(system as VtkContactSource, opts) : null;
      await writeFileAtomic(`${this.base}_${k}.vtp`, grains, "VtkSeriesWriter");
      const t = exactNumber(time);
      const entries = [dataSet(t, 0, `${name}_${k}.vtp`)];
      if (contacts) {
        await writeFileAtomic(`${this.base}_contacts_${k}.vtp`, contacts, "VtkSeriesWriter");
        entries.push(dataSet(t, 1, `${name}_contacts_${k}.vtp`));
      }
      this.#entries.push(...entries);
      this.#count++;
      this.#last = time;
      await this.#writePvd();
    } finally {
      this.#busy = false;
    }
  }

  /** Write the collection a last time (an empty one if no frame was added) and close. */
  async close(): Promise<void> {
    if (this.#closed) return;
    if (this.#busy) {
      throw new Error("VtkSeriesWriter.close: an add has not finished; await it first");
    }
    await this.#writePvd();
    this.#closed = true;
  }

  async #writePvd(): Promise<void> {
    const text = [
      '<?xml version="1.0"?>',
      '<VTKFile type="Collection" version="0.1" byte_order="LittleEndian">',
      "  <Collection>",
      ...this.#entries,
      "  </Collection>",
      "</VTKFile>",
      "",
    ].join("\n");
    await writeFileAtomic(this.pvdPath, new TextEncoder().encode(text), "VtkSeriesWriter");
  }
}

function dataSet(time: string, part: number, file: string): string {
  return `    <DataSet timestep="${time}" group="" part="${part}" file="${escapeAttr(file)}"/>`;
}

function baseName(p: string): string {
  return p.slice(p.lastIndexOf("/") + 1);
}

function escapeAttr(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(
    /"/g,
    "&quot;",
  );
}
