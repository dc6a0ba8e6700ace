/**
 * The contact-detection state of a 2D rigid-grain system (`GrainSystem2.detectionState`): the cell
 * grid and its cell size, the candidate pairs of the step, the tangential springs kept from
 * step to step, their key tolerance and the step's detection counts.
 *
 * @module
 */

import { CellGrid2, PairList } from "../math/grid.ts";
import { ContactHistory } from "./contacts.ts";

/**
 * What a 2D grain system's detection keeps: read and written by the system, its threads, its
 * checkpoints and its GPU backend.
 *
 * @example
 * ```ts
 * import { GrainDetection } from "./grain_detection.ts";
 * import { expect } from "expect";
 * const d = new GrainDetection();
 * expect(d.cell).toBe(0);
 * expect(d.keyTol).toBe(0.3);
 * expect(d.pairs.count).toBe(0);
 * ```
 */
export class GrainDetection {
  /** The cell grid of the detection centres. */
  readonly grid: CellGrid2 = new CellGrid2();
  /** Grid cell size: the largest bounding diameter 2·r_max added so far (m). */
  cell = 0;
  /** Candidate pairs of this step (bounding circles intersect). */
  readonly pairs: PairList = new PairList();
  /** The tangential springs, kept from step to step. */
  readonly history: ContactHistory = new ContactHistory();
  /** Node (or disk-pair) tests of this step (statistics). */
  nodeTests = 0;
  /** Pairs with at least one contact this step (statistics). */
  pairsInContact = 0;
  /** History key tolerance: > 0 angles (rad), 0 exact keys. */
  keyTol = 0.3;
}
