/**
 * The star2d GPU path against the CPU reference: sprite accuracy, device errors, single-pair
 * forces (two crosses, grains on walls), tangential history, determinism, and a 2,000-grain
 * packing compared statistically. The GPU tests need a WebGPU adapter: on Linux Mesa's
 * software Vulkan (lavapipe, `mesa-vulkan-drivers`) is enough. Without one they are skipped
 * with a notice — except in CI (CI=true), which installs it, where they fail.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import {
  type StarContacts,
  StarShape,
  StarSystem,
  type StarSystemOptions,
} from "../src/star2d/mod.ts";
import {
  gpuAvailable,
  type GpuContext,
  gpuMemory,
  requestGpu,
  spriteError,
  StarSprite,
  StarSystemGpu,
  type StarSystemGpuOptions,
  WebGpuUnavailableError,
} from "../src/star2d/gpu/mod.ts";
import { firstOrderDistance } from "../src/star2d/distance.ts";
import { Rng } from "../src/math/rng.ts";

const ci = Deno.env.get("CI") === "true";
const hasGpu = await gpuAvailable();
if (!hasGpu) {
  console.log(
    "note: no WebGPU adapter (navigator.gpu.requestAdapter() returned null): the star2d GPU " +
      "tests are skipped; install a Vulkan driver (apt-get install mesa-vulkan-drivers)",
  );
}
const skip = !hasGpu && !ci ? "no WebGPU adapter" : false;

let shared: GpuContext | null = null;
async function gpu(): Promise<GpuContext> {
  shared ??= await requestGpu();
  return shared;
}

/** The same scene on the CPU and on the GPU. */
async function both(
  opts: StarSystemOptions,
  gpuOpts: Omit<StarSystemGpuOptions, keyof StarSystemOptions>,
  build: (s: StarSystem | StarSystemGpu) => void,
): Promise<{ cpu: StarSystem; gpu: StarSystemGpu }> {
  const cpu = new StarSystem(opts);
  build(cpu);
  const g = await StarSystemGpu.create({ ...opts, ...gpuOpts, gpu: await gpu() });
  build(g);
  return { cpu, gpu: g };
}

/** Per contact of `a`, the contact of `b` with the same pair (or wall) and the nearest point. */
function match(a: StarContacts, b: StarContacts): number[] {
  const out: number[] = [];
  for (let k = 0; k < a.count; k++) {
    let best = -1, bd = Infinity;
    for (let m = 0; m < b.count; m++) {
      if (a.i[k] !== b.i[m] || a.j[k] !== b.j[m] || a.boundary[k] !== b.boundary[m]) continue;
      const d = Math.hypot(
        a.point[2 * k] - b.point[2 * m],
        a.point[2 * k + 1] - b.point[2 * m + 1],
      );
      if (d < bd) bd = d, best = m;
    }
    out.push(best);
  }
  return out;
}

/** Largest relative difference of the contact forces (vectors, relative to |f| of the CPU). */
function forceDifference(cpu: StarContacts, g: StarContacts): number {
  expect(g.count).toBe(cpu.count);
  const m = match(cpu, g);
  let worst = 0;
  for (let k = 0; k < cpu.count; k++) {
    expect(m[k]).toBeGreaterThanOrEqual(0);
    const q = m[k];
    const fc = [
      cpu.normalForce[k] * cpu.normal[2 * k] + cpu.tangentialForce[2 * k],
      cpu.normalForce[k] * cpu.normal[2 * k + 1] + cpu.tangentialForce[2 * k + 1],
    ];
    const fg = [
      g.normalForce[q] * g.normal[2 * q] + g.tangentialForce[2 * q],
      g.normalForce[q] * g.normal[2 * q + 1] + g.tangentialForce[2 * q + 1],
    ];
    const rel = Math.hypot(fc[0] - fg[0], fc[1] - fg[1]) / Math.hypot(fc[0], fc[1]);
    worst = Math.max(worst, rel);
  }
  return worst;
}

describe("star2d sprite", () => {
  it("a 1024² sprite of the cross adds < 1e-6·r_max to the first-order distance of the LUT", () => {
    const cross = StarShape.preset("cross", { area: 30e-6 });
    const e = spriteError(cross, { resolution: 1024, samples: 4000 });
    expect(e.resolution).toBe(1024);
    expect(e.texel).toBeCloseTo((2 * cross.rMax * (1 + 4 / 1024)) / 1024, 15);
    // measured: 1.6e-9 m = 3.6e-7 r_max; plain bilinear 1.5e-7 m
    expect(e.maxErrorOverRMax).toBeLessThan(1e-6);
    expect(e.maxErrorBilinear).toBeGreaterThan(20 * e.maxError);
    expect(e.maxNormalError).toBeLessThan(2e-3);
  });

  it("the sprite's error falls as h³ with the gradient term (h² without)", () => {
    const flower = StarShape.preset("flower", { rMax: 1 });
    const a = spriteError(flower, { resolution: 128, samples: 3000 });
    const b = spriteError(flower, { resolution: 256, samples: 3000 });
    expect(a.maxError / b.maxError).toBeGreaterThan(5); // ≈ 8 for h³
    expect(a.maxErrorBilinear / b.maxErrorBilinear).toBeGreaterThan(2.5); // ≈ 4 for h²
    expect(a.maxErrorBilinear / b.maxErrorBilinear).toBeLessThan(5);
  });

  it("texels hold the exact first-order distance at their centres", () => {
    const cross = StarShape.preset("cross", { rMax: 1 });
    const s = new StarSprite(cross, 64);
    for (const [u, v] of [[10, 50], [40, 33], [63, 0], [31, 31]]) {
      const x = -s.halfWidth + (u + 0.5) * s.texel, y = -s.halfWidth + (v + 0.5) * s.texel;
      expect(s.a[4 * (64 * v + u)]).toBeCloseTo(firstOrderDistance(cross, [x, y]), 6);
    }
  });
});

describe("star2d GPU memory", () => {
  it("a million grains fit WebGPU's default limits: every binding <= 128 MiB", () => {
    const m = gpuMemory(1_000_000);
    expect(m.capacity).toBe(1_000_192); // a multiple of 256, not the next power of two
    expect(m.buckets).toBe(2 ** 21);
    expect(m.largestBinding).toBeLessThanOrEqual(128 * 2 ** 20);
    const by = Object.fromEntries(m.buffers.map((b) => [b.name, b.bytes / m.capacity]));
    // bytes per grain of each binding (K = 16 history slots, L = 14 neighbour slots)
    expect(by).toMatchObject({
      state: 48,
      "history-ids": 4 * (1 + 16),
      "history-springs": 8 * 16,
      poses: 64,
      "neighbour-list": 4 * (4 + 2 * 14),
      "force-share": 8 * 15,
      "torque-and-statistics": 4 * (15 + 8),
    });
    let total = 0;
    for (const b of m.buffers) total += b.bytes * b.copies;
    expect(m.totalBytes).toBe(total);
    console.log(
      `1,000,000 grains: ${(m.totalBytes / 2 ** 20).toFixed(0)} MiB, ${
        m.bytesPerGrain.toFixed(1)
      } bytes per grain, largest binding ${(m.largestBinding / 2 ** 20).toFixed(1)} MiB`,
    );
    expect(m.bytesPerGrain).toBeGreaterThan(910);
    expect(m.bytesPerGrain).toBeLessThan(916);
    // the former 24 neighbour slots need 208 bytes per grain in the neighbour lists
    const big = gpuMemory(1_000_000, { neighborSlots: 24 });
    expect(big.largestBinding).toBe(208 * 1_000_192);
    expect(() => gpuMemory(-1)).toThrow(/gpuMemory: grains \(-1\) must be an integer/);
    expect(() => gpuMemory(10, { neighbourSlots: 3 } as never)).toThrow(/unknown option/);
  });
});

describe("star2d GPU device errors", () => {
  it("names navigator.gpu when this runtime has no WebGPU", async () => {
    const d = Object.getOwnPropertyDescriptor(globalThis, "navigator")!;
    Object.defineProperty(globalThis, "navigator", { value: {}, configurable: true });
    try {
      const e = await requestGpu().catch((x) => x);
      expect(e).toBeInstanceOf(WebGpuUnavailableError);
      expect(e.message).toMatch(/navigator\.gpu is undefined/);
      await expect(StarSystemGpu.create()).rejects.toThrow(/navigator\.gpu/);
    } finally {
      Object.defineProperty(globalThis, "navigator", d);
    }
  });

  it("names the missing adapter and the Mesa package when requestAdapter returns null", async () => {
    const d = Object.getOwnPropertyDescriptor(globalThis, "navigator")!;
    const fake = { gpu: { requestAdapter: () => Promise.resolve(null) } };
    Object.defineProperty(globalThis, "navigator", { value: fake, configurable: true });
    try {
      const e = await requestGpu().catch((x) => x);
      expect(e).toBeInstanceOf(WebGpuUnavailableError);
      expect(e.message).toMatch(/no GPU adapter/);
      expect(e.message).toMatch(/mesa-vulkan-drivers/);
    } finally {
      Object.defineProperty(globalThis, "navigator", d);
    }
  });

  it("checks options before asking for a device", async () => {
    await expect(StarSystemGpu.create({ timeStp: 1 } as never)).rejects.toThrow(
      /unknown option "timeStp" in options; did you mean "timeStep"\?/,
    );
    await expect(StarSystemGpu.create({ contactPoints: "all-nodes" } as never)).rejects.toThrow(
      /unknown option "contactPoints"/,
    );
    await expect(StarSystemGpu.create({ normalStiffness: -1 })).rejects.toThrow(RangeError);
  });
});

describe("star2d GPU against the CPU", { skip }, () => {
  const cross = StarShape.preset("cross", { rMax: 0.005 });
  const circle = StarShape.preset("circle", { rMax: 0.004 });
  const noGravity = { gravity: [0, 0] as [number, number] };

  function crosses(s: StarSystem | StarSystemGpu): void {
    // two crosses, arms along x, pressed 0.4 mm into each other, moving and spinning
    s.addGrains({
      shape: cross,
      positions: [[0, 0], [0.0096, 0.0004]],
      angles: [-Math.PI / 8 + 0.05, -Math.PI / 8 - 0.03],
      velocities: [0.02, -0.01, -0.01, 0.005],
      angularVelocities: [2, -1],
    });
  }

  /** How far the shape at angle θ reaches along the unit direction (dx, dy) (m). */
  function reach(shape: StarShape, theta: number, dx: number, dy: number): number {
    let m = -Infinity;
    for (let k = 0; k < 4096; k++) {
      const al = (2 * Math.PI * k) / 4096, r = shape.radiusAt(al);
      m = Math.max(m, r * (Math.cos(al + theta) * dx + Math.sin(al + theta) * dy));
    }
    return m;
  }

  function onWalls(s: StarSystem | StarSystemGpu): void {
    // each grain pressed 0.3 mm into its wall: the floor, a 45° segment, a spinning drum; all
    // inside the drum (a grain outside it would be through its wall: the guard would stop it)
    const n = Math.SQRT1_2, ds = 0.001 + reach(cross, 1.1, -n, n) - 0.0003;
    const X = 0.27, Y = 0.25;
    s.addGrains({
      shape: cross,
      positions: [
        [X, Y + reach(cross, 0.2, 0, -1) - 0.0003],
        [X + 0.055 + n * ds, Y + 0.015 - n * ds],
        [0.3 + 0.1 - reach(cross, 0.4, 1, 0) + 0.0003, 0.3],
      ],
      angles: [0.2, 1.1, 0.4],
      velocities: [0.01, -0.02, 0.03, 0, 0, 0],
      angularVelocities: [1, 0, 0],
    });
    s.walls.addPlane({ point: [X, Y], normal: [0, 1], friction: 0.3 });
    s.walls.addSegment({
      from: [X + 0.04, Y],
      to: [X + 0.07, Y + 0.03],
      thickness: 0.002,
      friction: 0.4,
    });
    s.walls.addDrum({ centre: [0.3, 0.3], radius: 0.1, omega: 3, friction: 0.5 });
  }

  it("two crosses: the same contacts and forces as the CPU within 1e-5 (lookup tables)", async () => {
    const { cpu, gpu: g } = await both(noGravity, { sampling: "lut" }, crosses);
    cpu.step();
    await g.step();
    await g.read({ contacts: true });
    expect(cpu.contacts.count).toBeGreaterThanOrEqual(1);
    const rel = forceDifference(cpu.contacts, g.contacts);
    console.log(`two crosses (LUT): max relative force difference ${rel.toExponential(2)}`);
    expect(rel).toBeLessThan(1e-5);
    const v0 = [0.02, -0.01, -0.01, 0.005], w0 = [2, -1];
    for (let i = 0; i < 2; i++) {
      // the velocity change is the force: Δv = F·dt/m, Δω = T·dt/I
      const dc = [cpu.velocities[2 * i] - v0[2 * i], cpu.velocities[2 * i + 1] - v0[2 * i + 1]];
      const dg = [g.velocities[2 * i] - v0[2 * i], g.velocities[2 * i + 1] - v0[2 * i + 1]];
      expect(Math.hypot(dg[0] - dc[0], dg[1] - dc[1])).toBeLessThan(1e-5 * Math.hypot(...dc));
      // torques relative to r_max·|F| (a contact force nearly along the lever arm cancels)
      const wc = cpu.angularVelocities[i] - w0[i], wg = g.angularVelocities[i] - w0[i];
      const scale = (cross.rMax * Math.hypot(...dc) * cpu.masses[i]) / cpu.inertias[i];
      expect(Math.abs(wg - wc)).toBeLessThan(1e-5 * scale);
    }
    g.destroy();
  });

  it("two crosses with the sprite: within the sprite's measured error", async () => {
    const { cpu, gpu: g } = await both(noGravity, { sampling: "sprite" }, crosses);
    cpu.step();
    await g.step();
    await g.read({ contacts: true });
    const e = spriteError(cross, { sprite: g.sprites[0], samples: 4000 });
    const m = match(cpu.contacts, g.contacts);
    for (let k = 0; k < cpu.contacts.count; k++) {
      const q = m[k];
      const dn = Math.abs(g.contacts.normalForce[q] - cpu.contacts.normalForce[k]);
      expect(dn).toBeLessThan(cpu.kn * e.maxError + 1e-5 * cpu.contacts.normalForce[k]);
      const c = cpu.contacts.normal, n = g.contacts.normal;
      const angle = Math.abs(c[2 * k] * n[2 * q + 1] - c[2 * k + 1] * n[2 * q]);
      expect(angle).toBeLessThan(e.maxNormalError + 1e-6);
    }
    g.destroy();
  });

  it("grains on a plane, a segment and a spinning drum: the CPU's wall forces within 1e-5", async () => {
    const { cpu, gpu: g } = await both(noGravity, { sampling: "lut" }, onWalls);
    cpu.step();
    await g.step();
    await g.read({ contacts: true });
    expect(cpu.lastStepStats.boundaryContacts).toBeGreaterThanOrEqual(3);
    expect(g.lastStepStats.boundaryContacts).toBe(cpu.lastStepStats.boundaryContacts);
    const rel = forceDifference(cpu.contacts, g.contacts);
    console.log(`grains on walls (LUT): max relative force difference ${rel.toExponential(2)}`);
    expect(rel).toBeLessThan(1e-5);
    g.destroy();
  });

  it("a cross against a circle (two shapes): the CPU's forces, 1e-5 (LUT), 2e-3 (sprites)", async () => {
    for (const sampling of ["lut", "sprite"] as const) {
      const { cpu, gpu: g } = await both(noGravity, { sampling }, (s) => {
        s.addGrains({ shape: cross, positions: [[0, 0]], angles: -Math.PI / 8 + 0.02 });
        s.addGrains({ shape: circle, positions: [[0.0087, 0.0002]], velocities: [-0.01, 0] });
      });
      cpu.step();
      await g.step();
      await g.read({ contacts: true });
      expect(cpu.contacts.count).toBe(1);
      // the sprites' normals are interpolated: up to 1e-3 rad for the cross at 1024²
      const rel = forceDifference(cpu.contacts, g.contacts);
      expect(rel).toBeLessThan(sampling === "lut" ? 1e-5 : 2e-3);
      expect(g.starShapes).toHaveLength(2);
      expect(g.sprites).toHaveLength(sampling === "lut" ? 0 : 2);
      g.destroy();
    }
  });

  it("statistics and the contact record follow the shared conventions", async () => {
    const { cpu, gpu: g } = await both(noGravity, { sampling: "lut" }, crosses);
    cpu.step();
    await g.step();
    await g.read({ contacts: true });
    const s = g.lastStepStats, c = cpu.lastStepStats;
    expect(s.step).toBe(1);
    expect(s.particleContacts).toBe(c.particleContacts);
    expect(s.pairsInContact).toBe(c.pairsInContact);
    expect(s.candidatePairs).toBe(c.candidatePairs);
    expect(s.boundingHits).toBe(c.boundingHits);
    expect(s.nodeTests).toBe(c.nodeTests);
    expect(Math.abs(s.maxPenetration / c.maxPenetration - 1)).toBeLessThan(1e-5);
    expect(Math.abs(s.kineticEnergy / c.kineticEnergy - 1)).toBeLessThan(1e-5);
    // normal from j towards i: grain 0 is pushed to −x
    expect(g.contacts.i[0]).toBe(0);
    expect(g.contacts.j[0]).toBe(1);
    expect(g.contacts.normal[0]).toBeLessThan(-0.9);
    expect(g.contacts.key[0]).toBeCloseTo(cpu.contacts.key[0], 5);
    g.destroy();
  });

  /** A cross resting on two arms on a slope of angle a (μ = 0.5), pressed in by its weight. */
  function onSlope(s: StarSystem | StarSystemGpu, a: number): void {
    s.walls.addPlane({ point: [0, 0], normal: [-Math.sin(a), Math.cos(a)], friction: 0.5 });
    const theta = a - (3 * Math.PI) / 8; // two lobes at ±45° from the slope's inward normal
    const h = reach(cross, theta, Math.sin(a), -Math.cos(a)) - 0.3e-6;
    s.addGrains({ shape: cross, positions: [[-Math.sin(a) * h, Math.cos(a) * h]], angles: theta });
  }

  it("keeps a tangential history: a cross rests on a 20° slope (μ = 0.5) as on the CPU", async () => {
    const a = (20 * Math.PI) / 180;
    const { cpu, gpu: g } = await both(
      { friction: 0.5 },
      { sampling: "lut", batchSize: 200 },
      (s) => onSlope(s, a),
    );
    const x0 = cpu.positions[0], y0 = cpu.positions[1];
    cpu.run(2000);
    await g.run(2000);
    await g.read({ contacts: true });
    const along = (p: Float64Array) => (p[0] - x0) * Math.cos(a) + (p[1] - y0) * Math.sin(a);
    const slipCpu = along(cpu.positions), slipGpu = along(g.positions);
    console.log(
      `slope: slip after 0.2 s CPU ${slipCpu.toExponential(2)} m, GPU ${
        slipGpu.toExponential(2)
      } m`,
    );
    // it slips 53 µm while its weight presses it in, then sticks: without the spring (a
    // viscous law, no force at zero slip speed) it would keep sliding down
    expect(Math.abs(slipCpu)).toBeLessThan(1e-4);
    expect(Math.abs(slipGpu - slipCpu)).toBeLessThan(1e-7);
    expect(Math.hypot(g.velocities[0], g.velocities[1])).toBeLessThan(1e-6);
    expect(g.lastStepStats.kineticEnergy).toBeLessThan(1e-12);
    expect(g.contacts.count).toBe(2);
    expect(g.contacts.count).toBe(cpu.contacts.count);
    expect(g.lastStepStats.historyOverflow).toBe(0);
    g.destroy();
  });

  it("gives the same bytes twice, whatever the batch size", async () => {
    const build = (s: StarSystem | StarSystemGpu) => {
      const rng = new Rng(3), pos: number[] = [], ang: number[] = [];
      for (let iy = 0; iy < 10; iy++) {
        for (let ix = 0; ix < 30; ix++) {
          pos.push((ix + 0.5 + (iy % 2) * 0.5) * 0.0088, 0.005 + iy * 0.0078);
          ang.push(rng.uniform(0, 2 * Math.PI));
        }
      }
      s.addGrains({ shape: cross, positions: pos, angles: ang });
      s.walls.addBox({ min: [0, 0], max: [0.28, 1] });
    };
    const runs = [];
    for (const batchSize of [64, 7]) {
      const g = await StarSystemGpu.create({ gpu: await gpu(), batchSize });
      build(g);
      await g.run(400);
      await g.read({ contacts: true });
      runs.push({
        pos: g.positions.slice(),
        ang: g.angles.slice(),
        fn: g.contacts.normalForce.slice(),
        stats: { ...g.lastStepStats },
      });
      g.destroy();
    }
    expect(runs[0].stats.particleContacts).toBeGreaterThan(100);
    expect(runs[1].pos).toEqual(runs[0].pos);
    expect(runs[1].ang).toEqual(runs[0].ang);
    expect(runs[1].fn).toEqual(runs[0].fn);
    expect(runs[1].stats).toEqual(runs[0].stats);
  });

  it("moves to and from the CPU: fromSystem, read({ history }), toSystem", async () => {
    const a = (20 * Math.PI) / 180;
    const cpu = new StarSystem({ friction: 0.5 });
    onSlope(cpu, a);
    cpu.run(1000);
    const g = await StarSystemGpu.fromSystem(cpu, { sampling: "lut", gpu: await gpu() });
    expect(g.lastStepStats.step).toBe(1000);
    expect(g.time).toBeCloseTo(cpu.time, 12);
    await g.run(500);
    await g.read({ history: true });
    const back = g.toSystem();
    expect(back.time).toBeCloseTo(0.15, 12);
    expect(back.positions).toEqual(g.positions);
    back.run(500);
    cpu.run(1000);
    // the springs came along both ways: the grain still rests where the CPU-only run has it
    expect(Math.abs(back.positions[0] - cpu.positions[0])).toBeLessThan(1e-7);
    expect(back.lastStepStats.kineticEnergy).toBeLessThan(1e-12);
    g.destroy();
  });

  it("reads back only when asked, and says when the columns or contacts are behind", async () => {
    const g = await StarSystemGpu.create({ gpu: await gpu(), sampling: "lut", ...noGravity });
    crosses(g);
    expect(g.stale).toBe(false);
    await g.run(3);
    expect(g.stale).toBe(true);
    expect(g.positions[0]).toBe(0); // the last read (the upload)
    await g.read();
    expect(g.stale).toBe(false);
    expect(g.positions[0]).not.toBe(0);
    g.addGrains({ shape: cross, positions: [[0.1, 0.1]] });
    await expect(g.read({ contacts: true })).rejects.toThrow(/take a step first/);
    await g.step();
    await g.read({ contacts: true });
    expect(g.contacts.count).toBe(g.lastStepStats.particleContacts);
    expect(g.contacts.count).toBeGreaterThan(0);
    g.destroy();
    await expect(g.run(1)).rejects.toThrow(/destroyed/);
  });

  it("a shape of 20,000 nodes (16-bit node ranges): the CPU's forces within 1e-5", async () => {
    const fine = StarShape.preset("cross", { rMax: 0.005, nodes: 20000, lutSize: 40000 });
    const { cpu, gpu: g } = await both(noGravity, { sampling: "lut" }, (s) => {
      s.addGrains({
        shape: fine,
        positions: [[0, 0], [0.0096, 0.0004]],
        angles: [-Math.PI / 8 + 0.05, -Math.PI / 8 - 0.03 + 4 * Math.PI],
      });
    });
    cpu.step();
    await g.step();
    await g.read({ contacts: true });
    expect(cpu.contacts.count).toBeGreaterThanOrEqual(1);
    expect(forceDifference(cpu.contacts, g.contacts)).toBeLessThan(1e-5);
    g.destroy();
    const huge = StarShape.preset("circle", { rMax: 1, nodes: 70000, lutSize: 140000 });
    const h = await StarSystemGpu.create({ gpu: await gpu(), sampling: "lut" });
    expect(() => h.addShape(huge)).toThrow(/shape.nodes \(70000\) must be <= 65533 on the GPU/);
    expect(() => h.addGrains({ shape: huge, positions: [[0, 0]] })).toThrow(/65533/);
    expect(h.count).toBe(0);
    expect(h.starShapes).toHaveLength(0);
    h.destroy();
  });

  it("runs on a device with WebGPU's default limits, a million grains included", async () => {
    const adapter = (await gpu()).adapter;
    const device = await adapter.requestDevice(); // no required limits: the defaults
    expect(device.limits.maxStorageBufferBindingSize).toBe(128 * 2 ** 20);
    expect(device.limits.maxStorageBuffersPerShaderStage).toBe(8);
    const ctx = { device, adapter, name: "default limits", software: true };
    // every kernel validates within the default 8 storage buffers per stage
    for (const sampling of ["sprite", "lut"] as const) {
      const cpu = new StarSystem(noGravity);
      crosses(cpu);
      const d = await StarSystemGpu.create({ ...noGravity, gpu: ctx, sampling });
      crosses(d);
      device.pushErrorScope("validation");
      await d.step();
      await d.read({ contacts: true, history: true });
      expect(await device.popErrorScope()).toBe(null);
      cpu.step();
      expect(d.contacts.count).toBe(cpu.contacts.count);
      d.destroy();
    }
    const g = await StarSystemGpu.create({ gpu: ctx, sampling: "lut", gravity: [0, 0] });
    const n = 1_000_000, cols = 1000, pos = new Float64Array(2 * n);
    for (let k = 0; k < n; k++) {
      pos[2 * k] = 0.011 * (k % cols);
      pos[2 * k + 1] = 0.011 * Math.floor(k / cols);
    }
    device.pushErrorScope("validation");
    g.addGrains({ shape: cross, positions: pos });
    expect(await device.popErrorScope()).toBe(null);
    expect(g.count).toBe(n);
    g.destroy();
    // the former 24 neighbour slots did not fit: the error names the buffer and the knob
    const old = await StarSystemGpu.create({ gpu: ctx, sampling: "lut", neighborSlots: 24 });
    expect(() => old.addGrains({ shape: cross, positions: pos })).toThrow(
      /1000000 grains \(room for 1000192\) need a 198 MiB neighbour-list buffer; this adapter \(default limits\) binds at most 128 MiB: reduce neighborSlots or the grain count/,
    );
    expect(old.count).toBe(0);
    old.destroy();
    device.destroy();
  });

  it("throws naming the problem when the state overflows or neighbours do not fit", async () => {
    const g = await StarSystemGpu.create({ gpu: await gpu(), sampling: "lut" });
    g.addGrains({ shape: cross, positions: [[0, 0]], velocities: [1e30, 0] });
    await expect(g.run(2)).rejects.toThrow(/kinetic energy overflows float32/);
    g.destroy();
    const h = await StarSystemGpu.create({ gpu: await gpu(), sampling: "lut", neighborSlots: 2 });
    h.addGrains({ shape: cross, positions: [[0, 0], [0.005, 0], [0, 0.005], [0.005, 0.005]] });
    await expect(h.run(1)).rejects.toThrow(/neighborSlots \(2\) is too small: a grain had 3/);
    h.destroy();
    await expect(StarSystemGpu.create({ gpu: await gpu(), spriteResolution: 100 })).rejects
      .toThrow(/spriteResolution \(100\) must be a multiple of 16/);
  });

  it("a 2,000-grain packing: contacts within 2 %, bed height within r_max, φ within 1 %", async () => {
    // 2,000 crosses (30 mm², 64 nodes) on a staggered lattice fall into a 1.77 m wide box and
    // settle (soft contacts kn = 250 N/m so that 0.24 s take 1,200 steps of 0.2 ms)
    const shape = StarShape.preset("cross", { area: 30e-6, nodes: 64 });
    const nx = 200, ny = 10, sp = 0.0088, W = (nx + 1) * sp;
    const rng = new Rng(7), pos: number[] = [], ang: number[] = [];
    for (let iy = 0; iy < ny; iy++) {
      for (let ix = 0; ix < nx; ix++) {
        pos.push((ix + 0.5 + (iy % 2) * 0.5) * sp, 0.0045 + iy * sp * 0.866);
        ang.push(rng.uniform(0, 2 * Math.PI));
      }
    }
    const opts: StarSystemOptions = {
      timeStep: 2e-4,
      normalStiffness: 250,
      tangentialStiffness: 125,
      normalDamping: 0.05,
      friction: 0.5,
      rotationalDamping: 1e-8,
    };
    const build = (s: StarSystem | StarSystemGpu) => {
      s.addGrains({ shape, positions: pos, angles: ang });
      s.walls.addBox({ min: [0, 0], max: [W, 2] });
    };
    const steps = 1200, every = 50, last = 300;
    const { cpu, gpu: g } = await both(opts, { batchSize: every }, build);
    // contacts averaged over the last 300 steps (single values fluctuate by ±2 % as rattlers
    // touch and leave)
    let t0 = performance.now(), nc = 0, ng = 0;
    for (let k = every; k <= steps; k += every) {
      cpu.run(every);
      if (k > steps - last) nc += cpu.lastStepStats.particleContacts / (last / every);
    }
    const tCpu = performance.now() - t0;
    t0 = performance.now();
    for (let k = every; k <= steps; k += every) {
      await g.run(every);
      if (k > steps - last) ng += g.lastStepStats.particleContacts / (last / every);
    }
    await g.read();
    const tGpu = performance.now() - t0;
    const bed = (p: Float64Array) => {
      // height: the mean over 40 columns of the highest centre, + r_max; packing fraction:
      // the grains' area over the box width times twice the mean centre height
      const bins = 40, top = new Float64Array(bins);
      let sum = 0;
      for (let i = 0; i < 2000; i++) {
        const b = Math.min(bins - 1, Math.floor((p[2 * i] / W) * bins));
        top[b] = Math.max(top[b], p[2 * i + 1]);
        sum += p[2 * i + 1];
      }
      const h = top.reduce((a, b) => a + b) / bins + shape.rMax;
      return { h, phi: (2000 * shape.area) / (W * 2 * (sum / 2000)) };
    };
    const c = bed(cpu.positions), q = bed(g.positions);
    console.log(
      `packing of 2,000 crosses after ${steps} steps (${g.adapterName}): contacts CPU ` +
        `${nc.toFixed(0)}, GPU ${ng.toFixed(0)}; bed height CPU ${(1e3 * c.h).toFixed(2)} mm, ` +
        `GPU ${(1e3 * q.h).toFixed(2)} mm; φ CPU ${c.phi.toFixed(4)}, GPU ${q.phi.toFixed(4)}; ` +
        `${(tCpu / steps).toFixed(1)} ms/step CPU, ${(tGpu / steps).toFixed(1)} ms/step GPU`,
    );
    expect(g.lastStepStats.kineticEnergy).toBeLessThan(3e-5);
    expect(Math.abs(ng - nc)).toBeLessThan(0.02 * nc);
    expect(Math.abs(q.h - c.h)).toBeLessThan(shape.rMax);
    expect(Math.abs(q.phi - c.phi)).toBeLessThan(0.01 * c.phi);
    expect(g.lastStepStats.historyOverflow).toBe(0);
    g.destroy();
  });
});
