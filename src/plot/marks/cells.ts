/**
 * Density cells: rectangles in data units with their own CSS colours, drawn compactly (the
 * density maps of `particles2d` and `bed3d` beyond a few thousand particles); internal.
 *
 * @module
 */

import type { DomElement } from "../dom.ts";
import { px } from "../panel.ts";
import { append, create, fin, GrainlabMark, type MarkDraw } from "./common.ts";

/** Rectangles in data units with their CSS colours, drawn compactly (density maps); internal. */
export class CellsMark extends GrainlabMark {
  #fill: readonly string[];

  /**
   * @param cells rectangles (data units) and their fill colours
   */
  constructor(cells: readonly { x1: number; x2: number; y1: number; y2: number; fill: string }[]) {
    const col = (k: "x1" | "x2" | "y1" | "y2") => Float64Array.from(cells, (c) => c[k]);
    super(cells.length, {
      x1: { value: col("x1"), scale: "x" },
      x2: { value: col("x2"), scale: "x" },
      y1: { value: col("y1"), scale: "y" },
      y2: { value: col("y2"), scale: "y" },
    });
    this.#fill = cells.map((c) => c.fill);
  }

  /**
   * Draws the cells, each 0.3 px larger so that neighbours leave no seams.
   *
   * @param r the cells to draw (`index`), their scaled extents (`values`) and the document
   * @returns an SVG group
   */
  protected draw({ index, values, doc }: MarkDraw): DomElement {
    const g = create(doc, "g", { "aria-label": "cells" });
    const X1 = values.x1!, X2 = values.x2!, Y1 = values.y1!, Y2 = values.y2!;
    for (const k of index) {
      const x = Math.min(X1[k], X2[k]), y = Math.min(Y1[k], Y2[k]);
      const w = Math.abs(X2[k] - X1[k]) + 0.3, h = Math.abs(Y2[k] - Y1[k]) + 0.3;
      if (![x, y, w, h].every(fin)) continue;
      append(
        g,
        create(doc, "rect", {
          x: px(x),
          y: px(y),
          width: px(w),
          height: px(h),
          fill: this.#fill[k],
        }),
      );
    }
    return g;
  }
}
