import { describe, it } from "node:test";
import { expect } from "expect";
import { brazilNut } from "../src/experiments/mod.ts";

// Tolerances stated in brazilNut's documentation, for scale "ci" (Γ = 0.8, 2, 3 at 6 Hz).
describe("experiments: Brazil-nut segregation (sphere3d, CI size)", () => {
  const r = brazilNut({ scale: "ci" });

  it("brings the intruder to the surface within 20 cycles for Γ ≥ 2", () => {
    for (const run of r.runs.filter((x) => x.gamma >= 2)) {
      expect(run.riseCycles).not.toBeNull();
      expect(run.riseCycles!).toBeLessThanOrEqual(20);
    }
  });

  it("leaves it on the floor for Γ < 1", () => {
    const run = r.runs.find((x) => x.gamma < 1)!;
    expect(run.riseCycles).toBeNull();
    expect(run.cycles[run.cycles.length - 1]).toBeCloseTo(20, 9); // shaken as long as the bound
    // cycle-averaged height: it settles by a fraction of the overlap, it does not climb
    const z = run.intruderHeight, n = z.length;
    let first = 0, last = 0;
    for (let k = 0; k < 8; k++) first += z[k] / 8, last += z[n - 8 + k] / 8;
    expect(Math.abs(last - first)).toBeLessThan(0.25 * 0.01); // a quarter of a small grain
    expect(last).toBeLessThan(r.intruderRadius + 0.01);
  });
});
