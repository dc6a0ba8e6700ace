/**
 * The divergence guard of the star2d GPU system (issue #29 "Nothing silent"): checked at the
 * statistics readback that ends every run — a contact deeper than a grain, a grain faster than
 * the scene can drive it — and before the run for walls that outrun the grains. Needs a WebGPU
 * adapter (skipped without one, except in CI); the speed check's message is also tested on the
 * CPU through the same function.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { StarShape, StarSystem } from "../src/star2d/mod.ts";
import { gpuAvailable, StarSystemGpu } from "../src/star2d/gpu/mod.ts";
import { guardAfterGpuRun } from "../src/star2d/guard.ts";

const ci = Deno.env.get("CI") === "true";
const hasGpu = await gpuAvailable();
const skip = !hasGpu && !ci ? "no WebGPU adapter" : false;
const cross = StarShape.preset("cross", { area: 30e-6 });

describe("star2d GPU divergence guard", { skip }, () => {
  it("a grain placed through the floor throws at the run's readback", async () => {
    const sys = await StarSystemGpu.create({ sampling: "lut" });
    try {
      sys.addGrains({ shape: cross, positions: [[0, -0.01]] });
      sys.walls.addPlane({ point: [0, 0], normal: [0, 1] });
      await expect(sys.run(2)).rejects.toThrow(
        /^StarSystemGpu.run: the integration diverged at step 2: grain 0 \(id 0\) overlaps wall 0 by 0.01\d+ m, more than its bounding radius .*: it passed through the wall/,
      );
    } finally {
      sys.destroy();
    }
  });

  it("a drum spun at 1e7 rad/s throws before the run", async () => {
    const sys = await StarSystemGpu.create({ sampling: "lut" });
    try {
      sys.addGrains({ shape: cross, positions: [[0, 0], [0.01, 0]] });
      sys.walls.addDrum({ centre: [0, 0], radius: 0.05, omega: 1e7 });
      await expect(sys.run(10)).rejects.toThrow(
        /^StarSystemGpu.run: wall 0 \(a drum spinning at 10000000 rad\/s\) moves its surface at 5.00e\+5 m\/s.*at step 1\)\. Lower its omega below/,
      );
      expect(sys.lastStepStats.step).toBe(0);
    } finally {
      sys.destroy();
    }
  });

  it("two crosses landing on a floor run as before", async () => {
    const sys = await StarSystemGpu.create({ sampling: "lut" });
    try {
      sys.addGrains({ shape: cross, positions: [[0, 0.006], [0.009, 0.006]], angles: [0, 0.3] });
      sys.walls.addPlane({ point: [0, 0], normal: [0, 1] });
      await sys.run(1000);
      expect(sys.lastStepStats.boundaryContacts).toBe(4);
    } finally {
      sys.destroy();
    }
  });
});

describe("star2d GPU divergence guard: the readback's speed check", () => {
  it("names the fastest grain once the state is read back", async () => {
    const host = new StarSystem({ gravity: [0, 0] });
    host.addGrains({ shape: cross, positions: [[0, 0], [0.02, 0]] });
    host.run(1); // the reference: two grains at rest, no gravity: bound 1e-3 m/s
    let read = 0;
    const readState = () => {
      read++;
      host.store.vel[2] = 5; // what the GPU would hold: grain 1 at 5 m/s
      return Promise.resolve();
    };
    const access = {
      host,
      readState,
      contactsNow: () => host.contacts,
      where: "StarSystemGpu.run",
    };
    await guardAfterGpuRun(access, 10, 0, 0, 11);
    expect(read).toBe(0); // a healthy readback reads nothing more
    await expect(
      guardAfterGpuRun(access, 10, 5, 0, 21),
    )
      .rejects.toThrow(
        /^StarSystemGpu.run: the integration diverged by step 21: grain 1 \(id 1\) moves at 5.00 m\/s, faster than any force in the scene can drive it/,
      );
    expect(read).toBe(1);
  });
});
