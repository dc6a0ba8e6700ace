/**
 * Encoding of a 3D view: the header the page reads, the frames, meshes and rigid bodies packed
 * into one gzipped, base64 buffer, the embedded three.js and the still image.
 *
 * @module
 */

import { gzipSync } from "node:zlib";
import { options as checkOptions, sizeGuard } from "../math/validate.ts";
import { base64 } from "../plot/figure.ts";
import { threeSource } from "./three_source.ts";
import { type ColumnHead, fmt, resolveColumns } from "./viewer_columns.ts";
import { recordingOf, type ViewFrame } from "./viewer_frames.ts";
import { bodiesHead, bodiesNote, bodyBounds, bodyStyle, bodyWireframe } from "./viewer_bodies.ts";
import { boundariesOption, OPTION_KEYS, viewCamera, viewSettings } from "./viewer_options.ts";
import { type Geometry, posterImage, sceneGeometry } from "./viewer_scene.ts";
import type { View3DOptions, ViewMesh } from "./viewer_types.ts";
import type { ViewSource } from "./viewer_frames.ts";

/** An encoded view: the header, packed data, three.js, still image and what the page shows. */
export interface Built {
  head: Record<string, unknown>;
  bin: string;
  three: { name: string; data: string }[];
  threeKind: "bundle" | "raw";
  poster: string;
  alt: string;
  text: string;
  title: string;
  width: number;
  height: number;
  background: string;
  columns: ColumnHead[];
  frames: number;
  initialFrame: number;
  network: boolean;
  grains: number;
  /** Rigid bodies drawn (0 without). */
  bodies: number;
  /** The legend note of the bodies (HTML), "" without. */
  bodiesNote: string;
}

const threeCache = new Map<string, { name: string; data: string }[]>();

/**
 * Encodes a view: the header the page reads, the packed frames, three.js and the still image.
 * The stages: options → colour columns → scene geometry (bounds, boundaries, bodies, camera)
 * → packed meshes, bodies and frames → three.js → still image.
 */
export function build(source: ViewSource, options: View3DOptions): Built {
  const where = "view3d";
  const o = checkOptions<View3DOptions>(where, "options", options, OPTION_KEYS);
  const rec = recordingOf(where, source);
  const frames = rec.frames;
  const settings = viewSettings(where, o, frames.length);
  const { columns, values } = resolveColumns(where, frames, o);
  const network = (o.network ?? false) || (o.showNetwork ?? false);
  const style = bodyStyle(where, o);
  const shapes = style.show && rec.bodies && frames.some((f) => f.bodies) ? rec.bodies : null;
  const geo = sceneGeometry(
    where,
    frames,
    boundariesOption(where, o, rec.boundaries),
    shapes ? bodyBounds(shapes, frames) : undefined,
  );
  const camera = viewCamera(where, o.camera, geo.frame, settings.width, settings.height);
  let est = 0, maxCount = 0, maxContacts = 0;
  for (const f of frames) {
    est += f.count * (6 + 4 + 4 * columns.length);
    maxCount = Math.max(maxCount, f.count);
    if (network && f.network) {
      est += 12 * f.network.pi.length + 20 * f.network.bi.length;
      maxContacts = Math.max(maxContacts, f.network.pi.length + f.network.bi.length);
    }
    if (shapes && f.bodies) est += 28 * f.bodies.count;
  }
  sizeGuard(where, "the view's frame data", est, 2 ** 30);
  const pack = new Packer();
  const meshes = packMeshes(where, o.meshes ?? [], pack);
  const bodies = shapes ? bodiesHead(shapes, style, (a) => pack.add(a)) : null;
  const frameHeads = packFrames(frames, values, geo.quant, network, shapes !== null, pack);
  const bin = base64(new Uint8Array(gzipSync(pack.bytes(), { level: 9 })));
  const three = embeddedThree(o.bundle ?? true);
  let maxForce = 0;
  for (const f of network ? frames : []) {
    for (const v of f.network?.pf ?? []) maxForce = Math.max(maxForce, v);
    for (const v of f.network?.bf ?? []) maxForce = Math.max(maxForce, v);
  }
  const head: Record<string, unknown> = {
    version: 1,
    title: settings.title,
    width: settings.width,
    height: settings.height,
    background: settings.background,
    threeVersion: three.version,
    three: { version: three.version, kind: three.kind },
    frames: frameHeads,
    quant: geo.quant,
    columns,
    initialColumn: 0,
    initialFrame: settings.initialFrame,
    fps: settings.fps,
    camera,
    boundaries: { ground: geo.ground, boxes: geo.boxes },
    meshes,
    network: network && maxContacts > 0
      ? { maxForce: maxForce || 1, maxWidth: 0.6 * geo.meanRadius, color: "#b2182b" }
      : null,
    showNetwork: o.showNetwork ?? false,
    maxContacts: network ? maxContacts : 0,
    maxCount,
    // sphere detail: finer for few grains, coarser for many
    sphere: maxCount <= 2000
      ? [24, 16]
      : maxCount <= 10000
      ? [16, 12]
      : maxCount <= 60000
      ? [12, 8]
      : [8, 6],
  };
  if (bodies) head.bodies = bodies;
  const first = frames[0].time, last = frames.at(-1)!.time;
  const shown = frames[settings.initialFrame].time;
  const when = frames.length > 1 && first !== null && last !== null
    ? ` (t = ${fmt(first)} … ${fmt(last)} s)`
    : shown !== null
    ? ` (t = ${fmt(shown)} s)`
    : "";
  const nb = shapes?.types.length ?? 0;
  const text = `3D view: ${maxCount} grains${
    nb ? `, ${nb} rigid bod${nb > 1 ? "ies" : "y"}` : ""
  }, ${frames.length} frame${frames.length > 1 ? "s" : ""}${when}; colour: ${
    columns.map((c) => c.name).join(", ")
  }${network ? "; force chains" : ""}`;
  const poster = (o.poster ?? true)
    ? posterImage(
      frames[settings.initialFrame],
      columns[0],
      values[0][settings.initialFrame],
      geo,
      camera,
      settings,
      shapes ? bodyWireframe(shapes, frames[settings.initialFrame].bodies, style) : [],
    )
    : "";
  return {
    head,
    bin,
    three: three.data,
    threeKind: three.kind,
    poster,
    alt: `${text} (still image; the interactive view needs a browser with JavaScript and WebGL)`,
    text,
    title: settings.title,
    width: settings.width,
    height: settings.height,
    background: settings.background,
    columns,
    frames: frames.length,
    initialFrame: settings.initialFrame,
    network: head.network !== null,
    grains: maxCount,
    bodies: nb,
    bodiesNote: shapes ? bodiesNote(shapes, style) : "",
  };
}

/** Appends typed arrays into one buffer, each at a 4-byte aligned offset. */
class Packer {
  #chunks: Uint8Array[] = [];
  #size = 0;
  add(a: ArrayBufferView): number {
    const off = this.#size;
    this.#chunks.push(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    this.#size += a.byteLength;
    const pad = (4 - (this.#size % 4)) % 4;
    if (pad) {
      this.#chunks.push(new Uint8Array(pad));
      this.#size += pad;
    }
    return off;
  }
  bytes(): Uint8Array {
    const out = new Uint8Array(this.#size);
    let o = 0;
    for (const c of this.#chunks) {
      out.set(c, o);
      o += c.length;
    }
    return out;
  }
}

/** Validates and packs the triangle meshes. */
function packMeshes(where: string, meshes: readonly ViewMesh[], pack: Packer) {
  if (!Array.isArray(meshes)) throw new TypeError(`${where}: meshes must be an array`);
  return meshes.map((m, k) => {
    const name = `meshes[${k}]`;
    const mo = checkOptions<ViewMesh>(where, name, m, ["vertices", "indices", "color", "opacity"]);
    const v = Float32Array.from(mo.vertices ?? [], Number);
    const ix = Uint32Array.from(mo.indices ?? [], Number);
    const nv = v.length / 3;
    if (!Number.isInteger(nv) || nv === 0 || !v.every(Number.isFinite)) {
      throw new RangeError(`${where}: ${name}.vertices must be finite numbers, 3 per vertex`);
    }
    if (ix.length % 3 !== 0 || ix.length === 0 || ix.some((i) => i >= nv)) {
      throw new RangeError(
        `${where}: ${name}.indices must be 3 per triangle, each below the ${nv} vertices`,
      );
    }
    const opacity = mo.opacity ?? 1;
    if (!(opacity > 0 && opacity <= 1)) {
      throw new RangeError(`${where}: ${name}.opacity (${opacity}) must be in (0, 1]`);
    }
    const color = mo.color ?? "#8a8f98";
    if (typeof color !== "string" || !/^#[0-9a-fA-F]{6}$/.test(color)) {
      throw new TypeError(`${where}: ${name}.color (${String(color)}) must be a colour #rrggbb`);
    }
    return { vertices: pack.add(v), nv, indices: pack.add(ix), ni: ix.length, color, opacity };
  });
}

/** Packs each frame: quantised positions, radii (shared with the frame before when equal),
 * colour values, with `network` the contacts and with `bodies` the bodies' poses (float32). */
function packFrames(
  frames: readonly ViewFrame[],
  values: (Float32Array | null)[][],
  quant: Geometry["quant"],
  network: boolean,
  bodies: boolean,
  pack: Packer,
): Record<string, unknown>[] {
  let prev: Float32Array | null = null;
  return frames.map((f, fi) => {
    const qp = new Uint16Array(3 * f.count);
    for (let i = 0; i < f.count; i++) {
      for (let k = 0; k < 3; k++) {
        const s = quant.scale[k];
        qp[3 * i + k] = s > 0 ? Math.round((f.positions[3 * i + k] - quant.min[k]) / s) : 0;
      }
    }
    const same = prev !== null && prev.length === f.count && prev.every((r, i) => r === f.radii[i]);
    prev = f.radii;
    const head: Record<string, unknown> = {
      t: f.time,
      n: f.count,
      pos: pack.add(qp),
      rad: same ? -1 : pack.add(f.radii),
      vals: values.map((v) => pack.add(v[fi] ?? new Float32Array(f.count).fill(NaN))),
    };
    if (network && f.network) {
      const w = f.network;
      head.pc = { m: w.pi.length, i: pack.add(w.pi), j: pack.add(w.pj), f: pack.add(w.pf) };
      head.bc = { m: w.bi.length, i: pack.add(w.bi), p: pack.add(w.bp), f: pack.add(w.bf) };
    }
    if (bodies && f.bodies) {
      head.nb = f.bodies.count;
      head.bp = pack.add(f.bodies.pos);
      head.bq = pack.add(f.bodies.quat);
    }
    return head;
  });
}

/** three.js to embed, gzipped and base64 (once per process and kind). */
function embeddedThree(bundle: boolean) {
  const three = threeSource({ bundle });
  const key = `${three.kind}/${three.version}`;
  let data = threeCache.get(key);
  if (!data) {
    data = three.modules.map((m) => ({
      name: m.name,
      data: base64(new Uint8Array(gzipSync(new TextEncoder().encode(m.code), { level: 9 }))),
    }));
    threeCache.set(key, data);
  }
  return { data, kind: three.kind, version: three.version };
}
