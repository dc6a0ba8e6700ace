/**
 * Scene geometry of the 3D viewer: bounds over all frames, the 16-bit quantisation of
 * positions, boundary outlines, and the still image drawn in Deno.
 *
 * @module
 */

import { base64 } from "../plot/figure.ts";
import { type Camera, encodePNG, renderSpheres } from "./raster.ts";
import type { ColumnHead } from "./viewer_columns.ts";
import type { Boundaries, ViewFrame } from "./viewer_frames.ts";
import { type Settings, vec3Of } from "./viewer_options.ts";

/** The scene's geometry: quantisation, outlines, ground, framed box and mean radius. */
export interface Geometry {
  /** Quantisation of positions: x = min + q · scale. */
  quant: { min: number[]; scale: number[] };
  /** Outlined boxes (container, periodic cell). */
  boxes: { min: number[]; max: number[]; color: string; kind: string }[];
  /** Ground plane quad, or null. */
  ground: { z: number; extent: number[] } | null;
  /** What the camera frames: [lo, hi] corners. */
  frame: [number[], number[]];
  /** Mean grain radius (m). */
  meanRadius: number;
}

/**
 * Bounds over all frames, the 16-bit quantisation, boundary outlines and the framed box. The
 * framed box holds the grains, the boundaries and the moving bodies (`bodies.moving`); static
 * bodies (`bodies.fixed`: a floor, a terrain) widen it by at most its own size on each side.
 */
export function sceneGeometry(
  where: string,
  frames: readonly ViewFrame[],
  bounds: Boundaries,
  bodies: {
    moving: [number[], number[]] | null;
    fixed: [number[], number[]] | null;
  } = { moving: null, fixed: null },
): Geometry {
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  let rMax = 0, rSum = 0, rN = 0;
  frames.forEach((f, fi) => {
    const at = frames.length > 1 ? ` of frame ${fi}` : "";
    for (let i = 0; i < f.count; i++) {
      for (let k = 0; k < 3; k++) {
        const v = f.positions[3 * i + k];
        if (!Number.isFinite(v)) {
          throw new RangeError(`${where}: grain ${i}${at} has a non-finite position (${v})`);
        }
        if (v < lo[k]) lo[k] = v;
        if (v > hi[k]) hi[k] = v;
      }
      const r = f.radii[i];
      if (!(r >= 0 && Number.isFinite(r))) {
        throw new RangeError(`${where}: grain ${i}${at} has radius ${r}, must be finite and >= 0`);
      }
      rMax = Math.max(rMax, r);
      rSum += r;
      rN++;
    }
  });
  if (rN === 0) lo.fill(0), hi.fill(0);
  const quant = { min: lo, scale: lo.map((l, k) => (hi[k] > l ? (hi[k] - l) / 65535 : 0)) };
  const boxes = [
    ...bounds.containers.map((b) => ({ ...b, color: "#5b6270", kind: "container" })),
    // a periodic cell: its wrapped axes as simulated, the others spanning the grains
    ...bounds.periodic.map((b) => ({
      min: b.min.map((v, k) => (b.axes[k] ? v : (rN ? lo[k] - rMax : -0.5))),
      max: b.max.map((v, k) => (b.axes[k] ? v : (rN ? hi[k] + rMax : 0.5))),
      color: "#3b7dd8",
      kind: "periodic",
    })),
  ];
  for (const b of boxes) {
    vec3Of(where, `${b.kind} box min`, b.min);
    vec3Of(where, `${b.kind} box max`, b.max);
  }
  // the grains, and the boundaries' footprint up to the grains' top
  const fLo = lo.map((v) => v - rMax), fHi = hi.map((v) => v + rMax);
  const some = bodies.moving ?? bodies.fixed;
  if (rN === 0 && some) fLo.splice(0, 3, ...some[0]), fHi.splice(0, 3, ...some[1]);
  else if (rN === 0) fLo.fill(-0.5), fHi.fill(0.5);
  for (const b of boxes) {
    for (let k = 0; k < 2; k++) {
      fLo[k] = Math.min(fLo[k], b.min[k]);
      fHi[k] = Math.max(fHi[k], b.max[k]);
    }
    fLo[2] = Math.min(fLo[2], b.min[2]);
  }
  if (bodies.moving) {
    for (let k = 0; k < 3; k++) {
      fLo[k] = Math.min(fLo[k], bodies.moving[0][k]);
      fHi[k] = Math.max(fHi[k], bodies.moving[1][k]);
    }
  }
  if (bodies.fixed) {
    const [a, b] = bodies.fixed, c = [...fLo], d = [...fHi];
    for (let k = 0; k < 3; k++) {
      const e = Math.max(d[k] - c[k], 1e-6);
      fLo[k] = Math.min(fLo[k], Math.max(a[k], c[k] - e));
      fHi[k] = Math.max(fHi[k], Math.min(b[k], d[k] + e));
    }
  }
  let ground: Geometry["ground"] = null;
  if (bounds.ground !== null) {
    fLo[2] = Math.min(fLo[2], bounds.ground);
    const m = 0.15 * Math.max(fHi[0] - fLo[0], fHi[1] - fLo[1], fHi[2] - fLo[2], 1e-6);
    ground = { z: bounds.ground, extent: [fLo[0] - m, fLo[1] - m, fHi[0] + m, fHi[1] + m] };
  }
  return { quant, boxes, ground, frame: [fLo, fHi], meanRadius: rN ? rSum / rN : 1 };
}

const rgb = (hex: string): [number, number, number] =>
  [0, 2, 4].map((k) => parseInt(hex.replace(/^#/, "").slice(k, k + 2), 16)) as [
    number,
    number,
    number,
  ];

/** The still image (PNG, base64): the first colour column on the frame shown first. */
export function posterImage(
  f: ViewFrame,
  c: ColumnHead,
  vals: Float32Array | null,
  geo: Geometry,
  camera: Camera,
  settings: Settings,
  lines: { segments: ArrayLike<number>; color: [number, number, number] }[] = [],
): string {
  const colors = new Uint8Array(3 * f.count);
  const catIndex = new Map((c.categories ?? []).map((k, j) => [k.value, j]));
  for (let i = 0; i < f.count; i++) {
    const v = vals ? vals[i] : NaN;
    let hex = "bbbbbb";
    if (c.type === "categorical") {
      const j = catIndex.get(v);
      if (j !== undefined) hex = c.categories![j].color.slice(1);
    } else if (Number.isFinite(v) && (c.type !== "log" || v > 0)) {
      const [a, b] = c.domain;
      const t = c.type === "log" ? Math.log(v / a) / Math.log(b / a) : (v - a) / (b - a || 1);
      const k = Math.round(255 * Math.min(1, Math.max(0, t)));
      hex = c.lut!.slice(6 * k, 6 * k + 6);
    }
    colors.set(rgb(hex), 3 * i);
  }
  const img = renderSpheres(
    {
      count: f.count,
      positions: f.positions,
      radii: f.radii,
      colors,
      lines: [
        ...geo.boxes.map((b) => ({ segments: boxEdges(b.min, b.max), color: rgb(b.color) })),
        ...lines,
      ],
      floor: geo.ground
        ? {
          z: geo.ground.z,
          extent: geo.ground.extent as [number, number, number, number],
          color: [216, 216, 208],
        }
        : undefined,
      background: rgb(settings.background),
    },
    camera,
    settings.width,
    settings.height,
  );
  return base64(encodePNG(img));
}

function boxEdges(a: number[], b: number[]): number[] {
  const c = (i: number) => [i & 1 ? b[0] : a[0], i & 2 ? b[1] : a[1], i & 4 ? b[2] : a[2]];
  const out: number[] = [];
  for (let i = 0; i < 8; i++) {
    for (const bit of [1, 2, 4]) if (!(i & bit)) out.push(...c(i), ...c(i | bit));
  }
  return out;
}
