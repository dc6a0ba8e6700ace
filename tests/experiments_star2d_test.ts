import { describe, it } from "node:test";
import { expect } from "expect";
import { starClogging, starColumnCollapse } from "../src/experiments/mod.ts";

// Tolerances stated in starClogging's and starColumnCollapse's documentation ("ci").
describe("experiments: star grains against disks of the same area (star2d, CI size)", () => {
  it("crosses flow through the narrow outlet at most 2/3 as fast as disks, and jam as often", () => {
    const r = starClogging({ scale: "ci" });
    expect(r.disks.flowRate).toBeGreaterThan(1.5 * r.stars.flowRate);
    expect(r.stars.jamFraction).toBeGreaterThanOrEqual(r.disks.jamFraction);
    expect(r.disks.passedFraction).toBeGreaterThan(r.stars.passedFraction);
  });

  it("crosses collapse into a pile steeper than the disks' by more than 5°", () => {
    const r = starColumnCollapse({ scale: "ci" });
    expect(r.stars.angle - r.disks.angle).toBeGreaterThan(5);
    expect(r.stars.packing.count).toBe(r.disks.packing.count);
  });
});
