/**
 * No import cycles in `src/` (issue #27): neither the imports that load code nor those that
 * `import type` adds form any cycle. A split-off file takes a narrow state type from a small
 * types module (sphere3d's `CoreState`, star2d's `GrainSystemState`, the GPU's `GpuCoreState`)
 * rather than the class of the file that imports it, so a new cycle fails here.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { importCycles } from "../scripts/import_cycles.ts";

describe("import cycles in src/", () => {
  it("no cycle of code imports and none of type imports", async () => {
    const r = await importCycles(".");
    expect(r.modules).toBeGreaterThan(200);
    expect(r.code).toEqual([]);
    expect(r.all).toEqual([]);
  });
});
