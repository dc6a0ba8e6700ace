/**
 * Issue #29 ("Nothing silent"): the run loop every simulator shares (`run(n, options)`) names
 * the nearest valid key of a misspelt option, like every other options object.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { StarSystem } from "../src/star2d/mod.ts";

describe("run options", () => {
  it("a misspelt key names the nearest valid one, for sphere3d and star2d alike", () => {
    const world = new World();
    expect(() => world.run(1, { onstep: () => {} } as never)).toThrow(
      'World.run: unknown option "onstep" in options; did you mean "onStep"?',
    );
    expect(() => new StarSystem().run(1, { progres: true } as never)).toThrow(
      /unknown option "progres" in options; did you mean "progress"\?/,
    );
    expect(world.stepCount).toBe(0); // nothing stepped
  });
});
