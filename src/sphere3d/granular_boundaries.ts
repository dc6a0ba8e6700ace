/**
 * The boundary settings of `GranularSystem`: validation of the ground plane, container box
 * and periodic cell, and their read-back. The contact forces of these boundaries live in
 * `boundaries.ts`; the class keeps the documented methods and calls these with its core.
 * Internal: not re-exported.
 *
 * @module
 */

import type { GranularCore } from "./core.ts";
import type { GridAxisPeriod } from "../math/grid.ts";
import { bool, corners, finite, options as checkOptions } from "../math/validate.ts";
import type { PeriodicAxes, Vec3 } from "./options.ts";
import { PERIODIC_AXES_KEYS } from "./options.ts";

const ENABLED_KEYS: readonly string[] = ["enabled"];

/** `GranularSystem.setGroundPlane`: the plane `z = height`, or none when disabled. @internal */
export function setGroundPlane(
  c: GranularCore,
  height: number,
  options: { enabled?: boolean },
): void {
  finite("setGroundPlane", "height", height);
  const o = checkOptions<{ enabled?: boolean }>(
    "setGroundPlane",
    "options",
    options,
    ENABLED_KEYS,
  );
  const on = bool("setGroundPlane", "enabled", o.enabled, true);
  c.ground = on ? height : null;
  c.rebuildPlanes();
}

/** `GranularSystem.setContainerBox`: the open-top box `[min, max]`, or none. @internal */
export function setContainerBox(
  c: GranularCore,
  min: Vec3,
  max: Vec3,
  options: { enabled?: boolean },
): void {
  const box = corners("setContainerBox", min, max);
  const o = checkOptions<{ enabled?: boolean }>(
    "setContainerBox",
    "options",
    options,
    ENABLED_KEYS,
  );
  const on = bool("setContainerBox", "enabled", o.enabled, true);
  c.container = on ? box : null;
  c.rebuildPlanes();
}

/** `GranularSystem.containerBox`: copies of the container corners, or null. @internal */
export function containerBoxOf(c: GranularCore): { min: number[]; max: number[] } | null {
  return c.container ? { min: [...c.container[0]], max: [...c.container[1]] } : null;
}

/**
 * `GranularSystem.setPeriodicBoundary`: wrap the enabled axes of the cell `[min, max]`; no
 * enabled axis disables the periodic boundary.
 * @internal
 */
export function setPeriodicBoundary(
  c: GranularCore,
  min: Vec3,
  max: Vec3,
  axes: PeriodicAxes,
): void {
  const [lo, hi] = corners("setPeriodicBoundary", min, max);
  if (axes === undefined) {
    throw new TypeError(`setPeriodicBoundary: axes (undefined) must be an options object`);
  }
  checkOptions("setPeriodicBoundary", "axes", axes, PERIODIC_AXES_KEYS);
  const f = [
    bool("setPeriodicBoundary", "x", axes.x, false),
    bool("setPeriodicBoundary", "y", axes.y, false),
    bool("setPeriodicBoundary", "z", axes.z, false),
  ];
  if (!f[0] && !f[1] && !f[2]) {
    c.periodic = null;
    c.boundariesChanged();
    return;
  }
  c.periodic = [0, 1, 2].map((k) => ({
    lo: lo[k],
    length: f[k] ? hi[k] - lo[k] : 0,
  })) as [GridAxisPeriod, GridAxisPeriod, GridAxisPeriod];
  c.boundariesChanged();
}

/** `GranularSystem.periodicBoundary`: the periodic cell and its wrapped axes, or null. @internal */
export function periodicBoundaryOf(
  c: GranularCore,
): { min: number[]; max: number[]; x: boolean; y: boolean; z: boolean } | null {
  const p = c.periodic;
  if (!p) return null;
  return {
    min: p.map((a) => a.lo),
    max: p.map((a) => a.lo + a.length),
    x: p[0].length > 0,
    y: p[1].length > 0,
    z: p[2].length > 0,
  };
}
