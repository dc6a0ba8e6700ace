/**
 * Clump templates: rigid grains made of disks (Bell et al.), built from disks or approximating
 * a star shape by n disks, for `ClumpSystem` (`clump.ts`).
 *
 * @module
 */
import { exactDistance } from "./distance.ts";
import { StarShape } from "./shape.ts";
import {
  finite,
  integerIn,
  options as checkOptions,
  positive,
  positiveInteger,
  workGuard,
} from "../math/validate.ts";

/** The most disks of a template (`ClumpSystem.addTemplate`'s limit). */
const MAX_TEMPLATE_DISKS = 1024;
/** The most cell–disk tests of {@linkcode clumpTemplate}'s raster: 1e9, about a second. */
const MAX_RASTER_WORK = 1e9;
const TEMPLATE_KEYS: readonly string[] = ["centres", "radii", "resolution"];

/** Disks of a rigid clump in its body frame, relative to the centre of mass. */
export interface ClumpTemplate {
  /** Disk centres x (m). */
  x: Float64Array;
  /** Disk centres y (m). */
  y: Float64Array;
  /** Disk radii (m). */
  r: Float64Array;
  /** Area used for the mass (m²). */
  area: number;
  /** Polar second moment of area about the centre of mass (m⁴). */
  polarMoment: number;
}

/** Options of {@linkcode clumpTemplate}. */
export interface ClumpTemplateOptions {
  /** Disk centres (m) as [x, y] pairs in any frame. */
  centres: readonly (readonly [number, number])[];
  /** Disk radii (m). */
  radii: readonly number[];
  /** Raster cells per axis used to integrate the union of the disks. @default 400 */
  resolution?: number;
}

/**
 * A clump template from disks: the mass properties are those of the union of the disks
 * (rasterised), and the disks are re-centred on the centre of mass.
 *
 * @example
 * ```ts
 * import { clumpTemplate } from "./clump_template.ts";
 * import { expect } from "expect";
 * const t = clumpTemplate({ centres: [[1, 0]], radii: [0.5] });
 * expect(t.x[0]).toBe(0);
 * expect(t.area).toBeCloseTo(Math.PI * 0.25, 3);
 * ```
 */
export function clumpTemplate(options: ClumpTemplateOptions): ClumpTemplate {
  const w = "clumpTemplate";
  if (options === undefined) {
    throw new TypeError(`${w}: options (undefined) must be an options object`);
  }
  const o = checkOptions<ClumpTemplateOptions>(w, "options", options, TEMPLATE_KEYS);
  const centres = o.centres, radii = o.radii;
  for (const [name, v] of [["centres", centres], ["radii", radii]] as const) {
    if (v === null || typeof v !== "object" || typeof v.length !== "number") {
      throw new TypeError(`${w}: ${name} (${String(v)}) must be an array`);
    }
  }
  if (centres.length === 0 || centres.length !== radii.length) {
    throw new RangeError(
      `${w}: centres.length (${centres.length}) must equal radii.length (${radii.length}) and be > 0`,
    );
  }
  if (radii.length > MAX_TEMPLATE_DISKS) {
    throw new RangeError(
      `${w}: radii.length (${radii.length}) must be <= ${MAX_TEMPLATE_DISKS} ` +
        "(ClumpSystem.addTemplate's limit)",
    );
  }
  const res = positiveInteger(w, "resolution", o.resolution ?? 400);
  // the raster tests every cell against the disks until one holds it
  workGuard(
    w,
    `resolution ${res} (${res}² cells) on ${radii.length} disks`,
    radii.length > 1 ? res * res * radii.length : 0,
    MAX_RASTER_WORK,
  );
  let x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
  for (let k = 0; k < radii.length; k++) {
    const c = centres[k];
    if (c === null || typeof c !== "object" || c.length !== 2) {
      throw new TypeError(`${w}: centres[${k}] (${String(c)}) must be a point [x, y]`);
    }
    const cx = finite(w, `centres[${k}][0]`, c[0]), cy = finite(w, `centres[${k}][1]`, c[1]);
    const r = positive(w, `radii[${k}]`, radii[k]);
    x0 = Math.min(x0, cx - r);
    x1 = Math.max(x1, cx + r);
    y0 = Math.min(y0, cy - r);
    y1 = Math.max(y1, cy + r);
  }
  let area = 0, gx = 0, gy = 0, j0 = 0;
  let cx: number, cy: number;
  if (radii.length === 1) {
    const r = radii[0];
    area = Math.PI * r * r;
    cx = centres[0][0];
    cy = centres[0][1];
    j0 = 0.5 * area * r * r;
  } else {
    const hx = (x1 - x0) / res, hy = (y1 - y0) / res;
    for (let iy = 0; iy < res; iy++) {
      const y = y0 + (iy + 0.5) * hy;
      for (let ix = 0; ix < res; ix++) {
        const x = x0 + (ix + 0.5) * hx;
        for (let k = 0; k < radii.length; k++) {
          const dx = x - centres[k][0], dy = y - centres[k][1];
          if (dx * dx + dy * dy < radii[k] * radii[k]) {
            area += 1;
            gx += x;
            gy += y;
            j0 += x * x + y * y;
            break;
          }
        }
      }
    }
    cx = gx / area;
    cy = gy / area;
    j0 = (j0 / area - cx * cx - cy * cy) * area * hx * hy;
    area *= hx * hy;
  }
  return {
    x: Float64Array.from(centres, (c) => c[0] - cx),
    y: Float64Array.from(centres, (c) => c[1] - cy),
    r: Float64Array.from(radii),
    area,
    polarMoment: j0,
  };
}

/**
 * Approximate a star shape by `n` disks (Bell et al.'s clumps): one inscribed disk at the
 * polar centre, the others distributed over the lobes (local maxima of r), placed along each
 * lobe's ray and sized to touch the boundary (inscribed). The clump gets the star's mass
 * properties, so the cost comparison is between physically matched grains. The cross with
 * n = 9 and 17 gives 2 and 4 disks per arm, as in the paper.
 *
 * @example
 * ```ts
 * import { approximateByDisks, StarShape } from "@grainlab/grainlab/star2d";
 * import { expect } from "expect";
 * const t = approximateByDisks(StarShape.preset("cross", { area: 30e-6 }), 9);
 * expect(t.r).toHaveLength(9);
 * expect(t.area).toBeCloseTo(30e-6, 12);
 * ```
 */
export function approximateByDisks(shape: StarShape, n: number): ClumpTemplate {
  if (!(shape instanceof StarShape)) {
    throw new TypeError(`approximateByDisks: shape (${String(shape)}) must be a StarShape`);
  }
  integerIn("approximateByDisks", "n", n, 1, MAX_TEMPLATE_DISKS);
  const gx = shape.centroidX, gy = shape.centroidY;
  const xs: number[] = [0 - gx], ys: number[] = [0 - gy], rs: number[] = [shape.rMin];
  if (n > 1) {
    // Lobes: local maxima of r on a fine grid.
    const M = 3600, lobes: number[] = [];
    for (let k = 0; k < M; k++) {
      const a = (2 * Math.PI * k) / M;
      const r = shape.radiusAt(a);
      if (
        r > shape.radiusAt(a - (2 * Math.PI) / M) &&
        r >= shape.radiusAt(a + (2 * Math.PI) / M)
      ) lobes.push(a);
    }
    if (lobes.length === 0) {
      for (let k = 0; k < n - 1; k++) lobes.push((2 * Math.PI * k) / (n - 1));
    }
    const per = new Array(lobes.length).fill(0);
    for (let k = 0; k < n - 1; k++) per[k % lobes.length]++;
    const p = new Float64Array(2);
    const inscribed = (t: number, a: number) => {
      p[0] = t * Math.cos(a);
      p[1] = t * Math.sin(a);
      return -exactDistance(shape, p);
    };
    for (let l = 0; l < lobes.length; l++) {
      const a = lobes[l], rTip = shape.radiusAt(a);
      // Outermost centre: the innermost point whose inscribed disk reaches the tip (about the
      // tip's centre of curvature), so the last disk fills the tip instead of being a sliver.
      let tEnd = 0.5 * (shape.rMin + rTip);
      for (let t = 0.5 * shape.rMin; t < rTip; t += 0.005 * rTip) {
        if (inscribed(t, a) >= 0.97 * (rTip - t)) {
          tEnd = t;
          break;
        }
      }
      const tStart = Math.min(shape.rMin, tEnd);
      const m = per[l];
      for (let q = 0; q < m; q++) {
        const t = m === 1 ? 0.5 * (tStart + tEnd) : tStart + (q / (m - 1)) * (tEnd - tStart);
        const r = Math.max(inscribed(t, a), 0.05 * shape.rMax);
        xs.push(p[0] - gx);
        ys.push(p[1] - gy);
        rs.push(r);
      }
    }
  }
  return {
    x: Float64Array.from(xs),
    y: Float64Array.from(ys),
    r: Float64Array.from(rs),
    area: shape.area,
    polarMoment: shape.polarMoment,
  };
}

/**
 * Throw unless `t` is a usable clump template: disks with finite centres and radii > 0, as
 * many x and y as radii (at most 1,024), area and polar moment > 0. @internal
 */
export function checkTemplate(t: ClumpTemplate, where = "ClumpSystem.addTemplate"): void {
  if (t === null || typeof t !== "object") {
    throw new TypeError(`${where}: template (${String(t)}) must be a ClumpTemplate`);
  }
  if (!(t.r && t.r.length > 0 && t.area > 0 && t.polarMoment > 0)) {
    throw new RangeError(`${where}: template must have disks, area > 0, polarMoment > 0`);
  }
  const n = t.r.length;
  if (n > MAX_TEMPLATE_DISKS) {
    throw new RangeError(`${where}: disks (${n}) must be <= ${MAX_TEMPLATE_DISKS}`);
  }
  finite(where, "template.area", t.area);
  finite(where, "template.polarMoment", t.polarMoment);
  for (const [name, a] of [["x", t.x], ["y", t.y]] as const) {
    if (!a || a.length !== n) {
      throw new RangeError(`${where}: template.${name}.length (${a?.length}) must be ${n}`);
    }
  }
  for (let k = 0; k < n; k++) {
    finite(where, `template.x[${k}]`, t.x[k]);
    finite(where, `template.y[${k}]`, t.y[k]);
    positive(where, `template.r[${k}]`, t.r[k]);
  }
}
