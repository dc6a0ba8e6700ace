/**
 * The deforming RFT surface (`RftGroundOptions.deform`, `RftHeightMap`): a blade dragged through
 * it bulldozes a heap that it then has to push (its drag grows, where flat RFT's stays constant),
 * leaves a rut, conserves the grains' volume, never leaves a slope steeper than repose, and
 * repeats bit for bit; bad options are named.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { RftFourier, type RftHeightMap, World } from "../src/sphere3d/mod.ts";

const CELL = 0.005, REPOSE = 0.5;
const BOUNDS = [-0.2, -0.1, 0.2, 0.1] as const;

/**
 * A vertical blade (1 cm thick, 6 cm wide, its bottom 3 cm deep) dragged along +x at 5 cm/s
 * for `steps` steps of 5 ms, on a flat or a deforming generic RFT ground at z = 0.
 */
async function drag(deform: boolean, steps: number) {
  const world = await World.create({ gravity: [0, 0, 0], timeStep: 0.005 });
  const ground = world.addRftGround(new RftFourier(), {
    surfaceHeight: 0,
    elementSize: CELL,
    ...(deform ? { deform: { cellSize: CELL, bounds: BOUNDS, repose: REPOSE } } : {}),
  });
  const blade = world.addBox({
    halfExtents: [0.005, 0.03, 0.03],
    position: [-0.1, 0, 0],
    bodyType: "kinematic",
    linearVelocity: [0.05, 0, 0],
  });
  const fx: number[] = [];
  for (let k = 0; k < steps; k++) {
    world.step();
    fx.push(ground.force(blade)[0]);
  }
  return { world, ground, blade, fx };
}

/** The steepest step between neighbouring cells of a map's heights (m per cell). */
function steepest(map: RftHeightMap, skip: (i: number, j: number) => boolean): number {
  const h = map.heights();
  let worst = 0;
  for (let j = 0; j < map.ny; j++) {
    for (let i = 0; i < map.nx; i++) {
      if (skip(i, j)) continue;
      if (i + 1 < map.nx && !skip(i + 1, j)) {
        worst = Math.max(worst, Math.abs(h[i + map.nx * j] - h[i + 1 + map.nx * j]));
      }
      if (j + 1 < map.ny && !skip(i, j + 1)) {
        worst = Math.max(worst, Math.abs(h[i + map.nx * j] - h[i + map.nx * (j + 1)]));
      }
    }
  }
  return worst;
}

describe("RFT ground: a deforming surface", () => {
  it("a dragged blade pushes a growing heap: its drag grows where flat RFT's is constant", async () => {
    const flat = await drag(false, 200);
    const deformed = await drag(true, 200);
    // flat: the same depth every step, the same force (against the motion)
    expect(flat.fx[0]).toBeLessThan(0);
    for (const f of flat.fx) expect(Math.abs(f / flat.fx[0] - 1)).toBeLessThan(1e-9);
    // the first step sees the undisturbed surface: the same force as flat
    expect(Math.abs(deformed.fx[0] / flat.fx[0] - 1)).toBeLessThan(1e-9);
    // then the heap in front adds depth: the drag grows
    const last = deformed.fx[deformed.fx.length - 1];
    expect(last / flat.fx[0]).toBeGreaterThan(1.2);
    const mean = (a: number[]) => a.reduce((s, v) => s + v, 0) / a.length;
    const q = deformed.fx.length / 4;
    expect(mean(deformed.fx.slice(3 * q))).toBeLessThan(mean(deformed.fx.slice(q, 2 * q)));
    flat.world.close();
    deformed.world.close();
  });

  it("leaves a rut behind and a heap ahead, conserves volume, stands at repose", async () => {
    const { world, ground, blade } = await drag(true, 200);
    const map = ground.surface!;
    expect(map).not.toBeNull();
    expect([map.nx, map.ny]).toEqual([80, 40]);
    const x = blade.position[0]; // 5 cm travelled: the blade's centre at x = −0.05
    const cell = (px: number, py: number) =>
      map.cellHeight(Math.floor((px - BOUNDS[0]) / CELL), Math.floor((py - BOUNDS[1]) / CELL));
    // the rut where the blade was, the heap ahead of it
    expect(cell(x - 0.0325, 0)).toBeLessThan(-0.015);
    expect(cell(x + 0.0125, 0)).toBeGreaterThan(0.005);
    expect(cell(x - 0.0325, 0.08)).toBe(0); // away from the path, untouched
    // volume: what the blade dug out is in the heap (nothing reached the edge here)
    expect(map.lost).toBe(0);
    let dug = 0;
    for (const h of map.heights()) dug += Math.max(0, -h);
    expect(dug * CELL * CELL).toBeGreaterThan(0.01 * 0.06 * 0.03); // at least 1 cm of travel's
    expect(Math.abs(map.volume)).toBeLessThan(1e-12);
    // the free cells stand at repose or flatter (the blade's own cells hold their grains)
    const lim = Math.tan(REPOSE) * CELL + 1.01e-3 * CELL; // repose, to the slumping's tolerance
    const underBlade = (i: number, j: number) => {
      const cx = BOUNDS[0] + (i + 0.5) * CELL, cy = BOUNDS[1] + (j + 0.5) * CELL;
      return Math.abs(cx - x) < 0.005 + CELL && Math.abs(cy) < 0.03 + CELL;
    };
    expect(steepest(map, underBlade)).toBeLessThanOrEqual(lim);
    // the blade lifted out: its cells drop to the rut and everything slumps to repose
    blade.setPose([x, 0, 0.2]);
    world.step();
    expect(ground.force(blade)).toEqual([0, 0, 0]);
    expect(steepest(map, () => false)).toBeLessThanOrEqual(lim);
    expect(Math.abs(map.volume)).toBeLessThan(1e-12);
    world.close();
  });

  it("repeats bit for bit", async () => {
    const a = await drag(true, 60), b = await drag(true, 60);
    expect(b.fx).toEqual(a.fx);
    expect(b.ground.surface!.heights()).toEqual(a.ground.surface!.heights());
    a.world.close();
    b.world.close();
  });

  it("names bad options", async () => {
    const world = await World.create({ gravity: [0, 0, 0] });
    const add = (deform: unknown) =>
      world.addRftGround(new RftFourier(), {
        surfaceHeight: 0,
        deform: deform as { cellSize: number; bounds: [number, number, number, number] },
      });
    expect(() => add(null)).toThrow(/deform \(null\) must be an options object/);
    expect(() => add({ cellSize: 0, bounds: [0, 0, 1, 1] })).toThrow(/deform\.cellSize \(0\)/);
    expect(() => add({ cellSize: 0.1, bounds: [0, 0, 1] })).toThrow(/deform\.bounds/);
    expect(() => add({ cellSize: 0.1, bounds: [0, 0, -1, 1] })).toThrow(/xMax > xMin/);
    expect(() => add({ cellSize: 0.1, bounds: [0, 0, 1, NaN] })).toThrow(/deform\.bounds/);
    expect(() => add({ cellSize: 0.1, bounds: [0, 0, 1, 1], repose: 2 })).toThrow(
      /deform\.repose \(2\) must be in \(0, π\/2\)/,
    );
    expect(() => add({ cellSize: 0.1, bounds: [0, 0, 1, 1], slope: 1 })).toThrow(
      /unknown option "deform\.slope"/,
    );
    expect(() => add({ cellSize: 1e-6, bounds: [0, 0, 1, 1] })).toThrow(/at most 2²⁴/);
    world.close();
  });
});
