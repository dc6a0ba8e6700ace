/**
 * The first step after loading a checkpoint: whether the granular core (`core.ts`) may reuse
 * the caches the checkpoint carried (forces, neighbour list, divergence guard).
 *
 * @module
 */
import type { CoreState } from "./core_types.ts";

/**
 * First step after loading a checkpoint: reuse its caches (the forces of the saved state, the
 * saved neighbour list, the divergence guard) when the boundaries and `gravity` are those they
 * were computed under, so that the run continues bit for bit as if it had not stopped;
 * otherwise leave everything stale (the step recomputes). Consumes `core.resume` (not null).
 * @internal
 */
export function resumeFromCheckpoint(core: CoreState, gravity: ArrayLike<number>): void {
  const r = core.resume!;
  core.resume = null;
  const g = r.gravity, c = r.container, k = core.container, p = r.periodic, q = core.periodic;
  const same = g[0] === gravity[0] && g[1] === gravity[1] && g[2] === gravity[2] &&
    r.ground === core.ground &&
    (c === null
      ? k === null
      : k !== null && [0, 1, 2].every((a) => c[0][a] === k[0][a] && c[1][a] === k[1][a])) &&
    (p === null
      ? q === null
      : q !== null && [0, 1, 2].every((a) => p[a].lo === q[a].lo && p[a].length === q[a].length));
  if (!same) return;
  core.gravity[0] = g[0], core.gravity[1] = g[1], core.gravity[2] = g[2];
  Object.assign(core.guard, r.guard);
  if (r.refPos !== null) core.rebuildNeighbors(core.neighborSkin, r.refPos);
  core.forcesValid = r.forces;
}
