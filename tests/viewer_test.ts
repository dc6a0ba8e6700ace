/**
 * The 3D viewer's encoding (what the page decodes): positions, radii, colour columns, force
 * network, boundaries, camera, sizes; the still image and the PNG codec; bad input.
 * The browser side is checked in tests/browser_test.ts.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { gunzipSync } from "node:zlib";
import { World } from "../src/sphere3d/mod.ts";
import { Rng } from "../src/math/mod.ts";
import { FrameWriter, readFrames } from "../src/arrow/mod.ts";
import { type View3D, view3d, ViewRecorder, writeViewer } from "../src/notebook/mod.ts";
import { DISPLAY } from "../src/notebook/display.ts";
import { decodePNG, encodePNG, renderSpheres } from "../src/notebook/raster.ts";
import { THREE_NAMES, threeSource } from "../src/notebook/three_source.ts";
import { viewerClient } from "../src/notebook/viewer_client.ts";

interface Head {
  frames: {
    t: number | null;
    n: number;
    pos: number;
    rad: number;
    vals: number[];
    pc?: { m: number; i: number; j: number; f: number };
    bc?: { m: number; i: number; p: number; f: number };
    nb?: number;
    bp?: number;
    bq?: number;
  }[];
  quant: { min: number[]; scale: number[] };
  columns: {
    name: string;
    type: string;
    domain: number[];
    lut: string | null;
    categories: { value: number; color: string }[] | null;
  }[];
  camera: { position: number[]; target: number[]; up: number[]; fov: number };
  boundaries: {
    ground: { z: number; extent: number[] } | null;
    boxes: { min: number[]; max: number[]; kind: string }[];
  };
  network: { maxForce: number; maxWidth: number } | null;
  meshes: { nv: number; ni: number }[];
  bodies?: {
    count: number;
    types: number[];
    names: string[];
    colors: string[];
    opacity: number;
    shapes: {
      b: number;
      k: number;
      p: number[];
      lp: number[];
      lq: number[];
      v?: number;
      nv?: number;
      i?: number;
      ni?: number;
      h?: number;
      nx?: number;
      ny?: number;
      sx?: number;
      sy?: number;
    }[];
  };
  maxCount: number;
  maxContacts: number;
  width: number;
  height: number;
}

/** What the page reads: the header and the decompressed frame data. */
function decode(view: View3D): { head: Head; bin: ArrayBuffer; html: string } {
  const html = view.html();
  const head = JSON.parse(
    html.match(/<script type="application\/json" class="glv-head">(.*?)<\/script>/s)![1],
  );
  const b64 = html.match(/class="glv-bin">([A-Za-z0-9+/=]*)<\/script>/)![1];
  const bytes = new Uint8Array(gunzipSync(Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))));
  return { head, bin: bytes.buffer, html };
}

function settledBed(n = 300) {
  const world = new World({ timeStep: 2e-4 });
  const g = world.addGranularBox(
    {
      min: [-0.1, -0.06, 0.01],
      max: [0.1, 0.06, 0.3],
      radius: 0.01,
      spacing: 0.022,
      maxParticles: n,
    },
    { normalStiffness: 5e4, normalDamping: 10, friction: 0.5 },
  );
  g.setGroundPlane(0);
  g.setContainerBox([-0.12, -0.08, 0], [0.12, 0.08, 0.4]);
  return { world, g };
}

describe("view3d encoding", () => {
  it("positions survive 16-bit quantisation within half a step; radii, speeds exactly (float32)", () => {
    const { world, g } = settledBed();
    world.run(400);
    const view = view3d(g, { color: ["height", "speed", "radius"], poster: false });
    const { head, bin } = decode(view);
    expect(head.frames.length).toBe(1);
    const f = head.frames[0];
    expect(f.n).toBe(g.count);
    const q = new Uint16Array(bin, f.pos, 3 * f.n), r = new Float32Array(bin, f.rad, f.n);
    let worst = 0;
    for (let i = 0; i < f.n; i++) {
      for (let k = 0; k < 3; k++) {
        const x = head.quant.min[k] + q[3 * i + k] * head.quant.scale[k];
        worst = Math.max(worst, Math.abs(x - g.positions[3 * i + k]) / (head.quant.scale[k] || 1));
      }
      expect(r[i]).toBe(Math.fround(g.radii[i]));
    }
    expect(worst).toBeLessThan(0.5 + 1e-3); // in quantisation steps (+ float32 rounding)
    // quantisation step: extent / 65535, far below a radius
    expect(Math.max(...head.quant.scale)).toBeLessThan(g.radii[0] / 1000);
    const height = new Float32Array(bin, f.vals[0], f.n),
      speed = new Float32Array(bin, f.vals[1], f.n);
    const v = g.velocities;
    for (const i of [0, 17, f.n - 1]) {
      expect(height[i]).toBe(Math.fround(g.positions[3 * i + 2]));
      expect(speed[i]).toBe(Math.fround(Math.hypot(v[3 * i], v[3 * i + 1], v[3 * i + 2])));
    }
    // colour domains span the data; the linear scale is viridis, dark to yellow
    expect(head.columns[0].domain[0]).toBeCloseTo(Math.min(...height), 6);
    expect(head.columns[0].domain[1]).toBeCloseTo(Math.max(...height), 6);
    expect(head.columns[0].lut!.slice(0, 6)).toBe("440154");
    expect(head.columns[0].lut!.slice(-6)).toBe("fde725");
    expect(head.columns[0].lut!.length).toBe(256 * 6);
  });

  it("the force network: every particle contact with its normal force; contacts per grain add up", () => {
    const { world, g } = settledBed();
    world.run(1500);
    const c = g.contacts;
    let particle = 0, boundary = 0, fmax = 0;
    for (let k = 0; k < c.count; k++) {
      if (c.kind[k] === 0) particle++;
      else boundary++;
      fmax = Math.max(fmax, c.normalForce[k]);
    }
    expect(particle).toBeGreaterThan(100);
    expect(boundary).toBeGreaterThan(20);
    const { head, bin } = decode(
      view3d(world, { color: "contacts", network: true, poster: false }),
    );
    const f = head.frames[0];
    expect([f.pc!.m, f.bc!.m]).toEqual([particle, boundary]);
    expect(head.maxContacts).toBe(particle + boundary);
    expect(head.network!.maxForce).toBeCloseTo(fmax, 3);
    const pi = new Uint32Array(bin, f.pc!.i, f.pc!.m), pj = new Uint32Array(bin, f.pc!.j, f.pc!.m);
    const pf = new Float32Array(bin, f.pc!.f, f.pc!.m);
    let k0 = 0;
    while (c.kind[k0] !== 0) k0++;
    expect([pi[0], pj[0], pf[0]]).toEqual([c.i[k0], c.j[k0], Math.fround(c.normalForce[k0])]);
    // boundary contacts end at the contact point, which lies on a wall or the floor
    const bp = new Float32Array(bin, f.bc!.p, 3 * f.bc!.m);
    for (let k = 0; k < f.bc!.m; k++) {
      const [x, y, z] = [bp[3 * k], bp[3 * k + 1], bp[3 * k + 2]];
      const onWall = Math.min(
        Math.abs(z),
        Math.abs(Math.abs(x) - 0.12),
        Math.abs(Math.abs(y) - 0.08),
      );
      expect(onWall).toBeLessThan(1e-3);
    }
    // contacts per grain: each particle contact counts twice, each boundary contact once
    const per = new Float32Array(bin, f.vals[0], f.n);
    expect(per.reduce((a, b) => a + b, 0)).toBe(2 * particle + boundary);
    // the network is left out unless asked for
    const plain = decode(view3d(world, { poster: false })).head;
    expect([plain.network, plain.frames[0].pc]).toEqual([null, undefined]);
  });

  it("frames share radii until they change; time and counts per frame; boundaries as simulated", () => {
    const { world, g } = settledBed(200);
    g.setPeriodicBoundary([-0.12, -0.08, -1], [0.12, 0.08, 1], { x: true });
    const rec = new ViewRecorder();
    rec.record(world);
    world.run(100);
    rec.record(world);
    g.removeParticle(0);
    world.run(100);
    rec.record(g, { time: 99 });
    const { head } = decode(view3d(rec, { poster: false }));
    expect(head.frames.map((f) => f.n)).toEqual([200, 200, 199]);
    expect(head.frames.map((f) => f.t)).toEqual([0, expect.closeTo(0.02, 12), 99]);
    expect(head.frames.map((f) => f.rad >= 0)).toEqual([true, false, true]);
    expect(head.boundaries.ground?.z).toBe(0);
    expect(head.boundaries.boxes.map((b) => [b.kind, b.min, b.max])).toEqual([
      ["container", [-0.12, -0.08, 0], [0.12, 0.08, 0.4]],
      ["periodic", [-0.12, expect.any(Number), expect.any(Number)], [
        0.12,
        expect.any(Number),
        expect.any(Number),
      ]],
    ]);
    // the periodic cell wraps x only: across y and z it spans the grains
    const cell = head.boundaries.boxes[1];
    let ylo = Infinity, zhi = -Infinity;
    for (let i = 0; i < g.count; i++) {
      ylo = Math.min(ylo, g.positions[3 * i + 1] - g.radii[i]);
      zhi = Math.max(zhi, g.positions[3 * i + 2] + g.radii[i]);
    }
    expect(cell.min[1]).toBeCloseTo(ylo, 5);
    expect(cell.max[2]).toBeGreaterThanOrEqual(zhi); // over all frames, the first one highest
    // the first frame shown is the last one unless asked
    expect(view3d(rec, { poster: false, frame: 0 }).info.frames).toBe(3);
    expect(() => view3d(rec, { frame: 3 })).toThrow(/frame \(3\) must be an integer in \[-3, 2\]/);
    expect(decode(view3d(rec, { boundaries: false, poster: false })).head.boundaries).toEqual({
      ground: null,
      boxes: [],
    });
  });

  it("the default camera frames every grain; categorical colours for material ids", () => {
    const world = new World({ timeStep: 1e-3 });
    const g = world.addGranularParticles({
      positions: [[0, 0, 0.01], [1, 0, 0.01], [0, 0.5, 0.4], [1, 0.5, 0.01]],
      radii: 0.01,
    });
    const { head } = decode(view3d(g, { color: ["material", "fixed"], poster: false }));
    const { position: e, target: t, up, fov } = head.camera;
    const f = t.map((v, k) => v - e[k]), fl = Math.hypot(...f);
    const fw = f.map((v) => v / fl);
    const right = [
      fw[1] * up[2] - fw[2] * up[1],
      fw[2] * up[0] - fw[0] * up[2],
      fw[0] * up[1] - fw[1] * up[0],
    ];
    const rl = Math.hypot(...right);
    const r = right.map((v) => v / rl);
    const u = [
      r[1] * fw[2] - r[2] * fw[1],
      r[2] * fw[0] - r[0] * fw[2],
      r[0] * fw[1] - r[1] * fw[0],
    ];
    const tanV = Math.tan((fov * Math.PI) / 360), tanH = tanV * head.width / head.height;
    for (let i = 0; i < g.count; i++) {
      const d = [0, 1, 2].map((k) => g.positions[3 * i + k] - e[k]);
      const z = d[0] * fw[0] + d[1] * fw[1] + d[2] * fw[2];
      const x = d[0] * r[0] + d[1] * r[1] + d[2] * r[2];
      const y = d[0] * u[0] + d[1] * u[1] + d[2] * u[2];
      expect(z).toBeGreaterThan(0);
      expect(Math.abs(x / z)).toBeLessThan(tanH);
      expect(Math.abs(y / z)).toBeLessThan(tanV);
    }
    expect(head.columns.map((c) => [c.name, c.type, c.categories?.length])).toEqual([
      ["material", "categorical", 1],
      ["fixed", "categorical", 1],
    ]);
  });

  it("systems that put grains to sleep colour them awake/asleep", () => {
    const g = {
      count: 3,
      positions: [0, 0, 0.01, 0.03, 0, 0.01, 0.06, 0, 0.01],
      velocities: new Array(9).fill(0),
      radii: [0.01, 0.01, 0.01],
      sleeping: new Uint8Array([0, 1, 1]),
    };
    const { head, bin } = decode(view3d(g, { color: "sleeping", poster: false }));
    expect(head.columns[0].type).toBe("categorical");
    expect(head.columns[0].categories!.map((c) => c.value)).toEqual([0, 1]);
    expect([...new Float32Array(bin, head.frames[0].vals[0], 3)]).toEqual([0, 1, 1]);
    expect(decode(view3d(g, { color: "sleeping", poster: false })).html).toContain("asleep");
  });

  it("recorded Arrow frames (FrameWriter → readFrames): any numeric column colours the grains", async () => {
    const dir = await Deno.makeTempDir();
    const { world, g } = settledBed(100);
    const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
    for (let k = 0; k < 7; k++) {
      world.run(50);
      await w.write(g, { world });
    }
    await w.close();
    const rec = await ViewRecorder.fromFrames(readFrames(`${dir}/run.arrows`), { every: 3 });
    expect(rec.times.map((t) => Math.round(t / 0.01))).toEqual([1, 4, 7]); // frames 0, 3, 6
    const view = view3d(rec, { color: ["vz", "speed"], boundaries: g, poster: false });
    const { head, bin } = decode(view);
    const vz = new Float32Array(bin, head.frames[2].vals[0], head.frames[2].n);
    expect(vz[5]).toBe(Math.fround(g.velocities[3 * 5 + 2]));
    expect(head.boundaries.boxes.length).toBe(1); // from `boundaries: g`
    expect(() => view3d(rec, { color: "contacts" })).toThrow(/not in these frames/);
    // a live frame recorded after them brings its force network
    world.run(300);
    rec.record(g);
    const live = decode(view3d(rec, { network: true, poster: false })).head;
    expect(live.frames.map((f) => f.pc === undefined)).toEqual([true, true, true, false]);
    expect(live.frames[3].pc!.m).toBeGreaterThan(0);
    await Deno.remove(dir, { recursive: true });
  });

  it("a frame list from readFrames works directly, and so does one Arrow table", async () => {
    const dir = await Deno.makeTempDir();
    const w = await FrameWriter.create(`${dir}/run.arrows`, { sync: false });
    for (let k = 0; k < 2; k++) {
      await w.write({ count: 1, positions: [0, 0, k], velocities: [0, 0, 0], radii: [0.1] });
    }
    await w.close();
    const frames = await Array.fromAsync(readFrames(`${dir}/run.arrows`));
    expect(view3d(frames, { poster: false }).info.frames).toBe(2);
    expect(view3d(frames[1].table, { poster: false }).info.frames).toBe(1);
    await Deno.remove(dir, { recursive: true });
  });

  it("meshes are packed as given; the same input gives the same page", () => {
    const grains = { count: 1, positions: [0, 0, 0.1], velocities: [0, 0, 0], radii: [0.05] };
    const mesh = { vertices: [0, 0, 0, 1, 0, 0, 0, 1, 0], indices: [0, 1, 2], color: "#336699" };
    const a = view3d(grains, { meshes: [mesh] }), b = view3d(grains, { meshes: [mesh] });
    expect(a.html()).toBe(b.html());
    expect(a.document()).toBe(b.document());
    expect(decode(a).head.meshes.map((m) => [m.nv, m.ni])).toEqual([[3, 3]]);
    expect(() => view3d(grains, { meshes: [{ ...mesh, indices: [0, 1, 3] }] })).toThrow(
      /indices must be 3 per triangle, each below the 3 vertices/,
    );
  });

  it("sizes: one view of 20,000 grains stays under 1.2 MB, three.js and the still image included", () => {
    // a jittered packing with random radii and speeds, as after settling (compresses no
    // better than a real bed)
    const n = 20_000, side = Math.ceil(Math.cbrt(n)), rng = new Rng(5);
    const positions = new Float64Array(3 * n), velocities = new Float64Array(3 * n);
    const radii = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      const ix = i % side, iy = Math.floor(i / side) % side, iz = Math.floor(i / side / side);
      const j = () => rng.uniform(-0.002, 0.002);
      positions.set([ix * 0.021 + j(), iy * 0.021 + j(), 0.01 + iz * 0.02 + j()], 3 * i);
      velocities.set([j(), j(), j()], 3 * i);
      radii[i] = rng.uniform(0.008, 0.01);
    }
    const t0 = performance.now();
    const view = view3d({ count: n, positions, velocities, radii }, { color: ["height", "speed"] });
    const ms = performance.now() - t0;
    const info = view.info;
    console.log(
      `one view of ${n} grains (2 colour columns): ${(info.bytes / 1e6).toFixed(2)} MB ` +
        `(three.js ${(info.threeBytes / 1e3).toFixed(0)} kB [${info.three}], ` +
        `frame data ${(info.dataBytes / 1e3).toFixed(0)} kB, ` +
        `still image ${(info.posterBytes / 1e3).toFixed(0)} kB), built in ${ms.toFixed(0)} ms`,
    );
    expect(info.grains).toBe(n);
    expect(info.bytes).toBeLessThan(1.2e6);
    // frame data: 6 bytes of position, 4 of radius, 4 per colour column, then gzip and base64
    expect(info.dataBytes).toBeLessThan((n * (6 + 4 + 8) * 4) / 3);
  });
});

/** Rotates v by the unit quaternion q = [x, y, z, w]: v + 2w (u × v) + 2 u × (u × v). */
function rotate(q: ArrayLike<number>, v: number[]): number[] {
  const u = [q[0], q[1], q[2]], w = q[3];
  const cross = (a: number[], b: number[]) => [
    a[1] * b[2] - a[2] * b[1],
    a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0],
  ];
  const t = cross(u, v).map((x) => 2 * x);
  const c = cross(u, t);
  return v.map((x, k) => x + w * t[k] + c[k]);
}

/** Whether a point projects inside the view of the default camera. */
function onScreen(head: Head, p: number[]): boolean {
  const { position: e, target: t, up, fov } = head.camera;
  const norm = (v: number[]) => v.map((x) => x / Math.hypot(...v));
  const cross = (a: number[], b: number[]) => [
    a[1] * b[2] - a[2] * b[1],
    a[2] * b[0] - a[0] * b[2],
    a[0] * b[1] - a[1] * b[0],
  ];
  const fw = norm(t.map((v, k) => v - e[k])), r = norm(cross(fw, up)), u = cross(r, fw);
  const d = p.map((v, k) => v - e[k]);
  const dot = (a: number[]) => a[0] * d[0] + a[1] * d[1] + a[2] * d[2];
  const tanV = Math.tan((fov * Math.PI) / 360), tanH = (tanV * head.width) / head.height;
  const z = dot(fw);
  return z > 0 && Math.abs(dot(r) / z) < tanH && Math.abs(dot(u) / z) < tanV;
}

/** A small bed in a world with the rigid-body engine. */
async function bedWithBodies() {
  const world = await World.create({ timeStep: 2e-4 });
  const g = world.addGranularBox(
    { min: [-0.1, -0.06, 0.01], max: [0.1, 0.06, 0.06], radius: 0.01, spacing: 0.022 },
    { normalStiffness: 5e4, normalDamping: 10, friction: 0.5 },
  );
  g.setGroundPlane(0);
  g.setContainerBox([-0.12, -0.08, 0], [0.12, 0.08, 0.4]);
  return { world, g };
}

describe("view3d rigid bodies", () => {
  it("every shape with its parameters and pose in the body; each body's pose; meshes and height maps as given", async () => {
    const { world } = await bedWithBodies();
    const turn = [0, 0, Math.SQRT1_2, Math.SQRT1_2]; // 90° about z
    world.addBox({
      halfExtents: [0.03, 0.02, 0.01],
      position: [0.02, -0.01, 0.15],
      orientation: turn,
      name: "lid",
    });
    const dumbbell = world.addCompound({
      position: [0, 0, 0.3],
      orientation: turn,
      bodyType: "kinematic",
      children: [
        { shape: "sphere", radius: 0.02, position: [0.05, 0, 0] },
        { shape: "capsule", radius: 0.01, halfHeight: 0.03, position: [-0.05, 0, 0] },
      ],
    });
    world.addCylinder({
      radius: 0.03,
      halfHeight: 0.02,
      position: [0.3, 0, 0.1],
      bodyType: "static",
    });
    const tet = {
      vertices: [0, 0, 0, 0.04, 0, 0, 0, 0.04, 0, 0, 0, 0.04],
      indices: [0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3],
    };
    world.addMesh({ ...tet, position: [-0.05, 0.03, 0.2] });
    const heights = [0, 0.01, 0.02, 0.005, 0.015, 0.01];
    world.addHeightMap({ heights, nx: 3, ny: 2, sizeX: 0.3, sizeY: 0.2, center: [0, 0, -0.03] });
    const view = view3d(world);
    const { head, bin, html } = decode(view);
    const b = head.bodies!;
    expect(view.info.bodies).toBe(5);
    expect(b.types).toEqual([0, 2, 1, 0, 1]); // dynamic, kinematic, static, dynamic, static
    expect(b.names[0]).toBe("lid");
    expect(b.shapes.map((s) => [s.b, s.k, s.p])).toEqual([
      [0, 1, [0.03, 0.02, 0.01]],
      [1, 0, [0.02]],
      [1, 2, [0.01, 0.03]],
      [2, 3, [0.03, 0.02]],
      [3, 4, []],
      [4, 5, []],
    ]);
    expect(b.shapes.slice(1, 3).map((s) => s.lp)).toEqual([[0.05, 0, 0], [-0.05, 0, 0]]);
    const f = head.frames[0];
    const bp = new Float32Array(bin, f.bp!, 3 * f.nb!),
      bq = new Float32Array(bin, f.bq!, 4 * f.nb!);
    expect(f.nb).toBe(5);
    world.bodies.forEach((body, k) => {
      expect([...bp.subarray(3 * k, 3 * k + 3)]).toEqual(body.position.map(Math.fround));
      expect([...bq.subarray(4 * k, 4 * k + 4)]).toEqual(body.orientation.map(Math.fround));
    });
    // the sphere of the dumbbell, turned 90° about z with its body: at the origin + (0, 0.05, 0)
    const centre = rotate(bq.subarray(4, 8), b.shapes[1].lp).map((v, k) => v + bp[3 + k]);
    expect(centre[0]).toBeCloseTo(0, 6);
    expect(centre[1]).toBeCloseTo(0.05, 6);
    expect(centre[2]).toBeCloseTo(0.3, 6);
    expect(dumbbell.bodyType).toBe("kinematic");
    // the mesh's triangles and the height map's heights are sent as given (float32)
    const m = b.shapes[4], hm = b.shapes[5];
    expect([...new Float32Array(bin, m.v!, 3 * m.nv!)]).toEqual(tet.vertices.map(Math.fround));
    expect([...new Uint32Array(bin, m.i!, m.ni!)]).toEqual(tet.indices);
    expect([hm.nx, hm.ny, hm.sx, hm.sy]).toEqual([3, 2, 0.3, 0.2]);
    expect([...new Float32Array(bin, hm.h!, 6)]).toEqual(heights.map(Math.fround));
    // a colour per body type, in the note and the still image (wireframes)
    expect(b.colors).toEqual(["#e08a2c", "#8a8f98", "#c8489a"]);
    expect(html).toContain('class="glv-bodies"');
    expect(html).toMatch(/5 rigid bodies.*2 dynamic.*2 static.*1 kinematic/s);
    expect(view[DISPLAY]()["text/plain"]).toMatch(/^3D view: 90 grains, 5 rigid bodies, 1 frame/);
    const poster = decodePNG(
      Uint8Array.from(atob(html.match(/base64,([^"]+)"/)![1]), (c) => c.charCodeAt(0)),
    );
    let orange = 0, pink = 0;
    for (let i = 0; i < poster.pixels.length; i += 4) {
      const [r, g, bl] = poster.pixels.subarray(i, i + 3);
      if (Math.abs(r - 0xe0) < 40 && Math.abs(g - 0x8a) < 40 && bl < 0x70) orange++;
      if (Math.abs(r - 0xc8) < 40 && g < 0x80 && Math.abs(bl - 0x9a) < 40) pink++;
    }
    expect(orange).toBeGreaterThan(20);
    expect(pink).toBeGreaterThan(20);
    // the camera frames the bodies too: the top of the dumbbell's sphere and the far side of
    // the static cylinder are on screen
    expect(onScreen(head, [centre[0], centre[1], centre[2] + 0.02])).toBe(true);
    expect(onScreen(head, [0.33, 0, 0.12])).toBe(true);
    expect(onScreen(head, [0.33, 0, 2])).toBe(false); // (and the check can fail)
    const alone = decode(view3d(world, { bodies: false, poster: false })).head;
    expect(onScreen(alone, [0.33, 0, 0.12])).toBe(false); // framed for the bodies' sake
  });

  it("bodies: false gives the page of the grains alone; the style is checked", async () => {
    const { world } = await bedWithBodies();
    const plain = (await bedWithBodies()).world;
    world.addBox({ halfExtents: [0.03, 0.02, 0.01], position: [0, 0, 0.2] });
    expect(view3d(world, { bodies: false }).html()).toBe(view3d(plain).html());
    expect(decode(view3d(world, { bodies: false, poster: false })).head.bodies).toBeUndefined();
    const styled = decode(
      view3d(world, { bodies: { opacity: 0.5, colors: { dynamic: "#123456" } }, poster: false }),
    ).head.bodies!;
    expect([styled.opacity, styled.colors[0]]).toEqual([0.5, "#123456"]);
    expect(() => view3d(world, { bodies: { opacity: 2 } })).toThrow(/bodies.opacity \(2\)/);
    expect(() => view3d(world, { bodies: { colors: { dinamic: "#000000" } as never } })).toThrow(
      /did you mean "dynamic"/,
    );
    expect(() => view3d(world, { bodies: { colors: { static: "red" } } })).toThrow(/#rrggbb/);
    expect(() => view3d(world, { bodies: 1 as never })).toThrow(TypeError);
    // a world of bodies alone is shown too
    const empty = await World.create();
    empty.addSphere({ radius: 0.1, position: [0, 0, 1] });
    expect(view3d(empty, { poster: false }).info).toMatchObject({ grains: 0, bodies: 1 });
  });

  it("a recorded run: a kinematic box moves at its scripted speed from frame to frame; bodies added later appear later", async () => {
    const { world, g } = await bedWithBodies();
    const v = 0.5;
    const box = world.addBox({
      halfExtents: [0.02, 0.02, 0.01],
      position: [-0.05, 0, 0.2],
      bodyType: "kinematic",
      linearVelocity: [v, 0, 0],
    });
    const rec = new ViewRecorder(), grains = new ViewRecorder();
    const both = () => (rec.record(world), grains.record(g, { world }));
    both();
    world.run(100);
    world.addSphere({ radius: 0.02, position: [0, 0, 0.3], bodyType: "static" });
    both();
    world.run(100);
    both();
    const { head, bin } = decode(view3d(rec, { poster: false }));
    expect(head.bodies!.count).toBe(2);
    expect(head.frames.map((f) => f.nb)).toEqual([1, 2, 2]);
    const xs = head.frames.map((f) => new Float32Array(bin, f.bp!, 3 * f.nb!)[0]);
    const ts = head.frames.map((f) => f.t!);
    // x = x0 + v t, exactly as scripted (float32)
    xs.forEach((x, k) => expect(x).toBeCloseTo(-0.05 + v * ts[k], 6));
    expect(xs[1] - xs[0]).toBeCloseTo(v * 100 * 2e-4, 6);
    expect(xs[2]).toBe(Math.fround(box.position[0]));
    // the static sphere stays where it was put
    const sp = (k: number) => [...new Float32Array(bin, head.frames[k].bp!, 6).subarray(3)];
    expect(sp(1)).toEqual(sp(2));
    expect(sp(2)).toEqual([0, 0, 0.3].map(Math.fround));
    // the shapes are kept once: each frame holds 28 bytes (a pose) per body
    expect(head.bodies!.shapes.length).toBe(2);
    expect(rec.bytes - grains.bytes).toBe(28 * (1 + 2 + 2));
  });
});

describe("viewer pieces", () => {
  it("the page script is self-contained JavaScript that uses only the bundled three.js names", () => {
    const src = viewerClient.toString();
    expect(() => new Function(`return ${src}`)).not.toThrow();
    const used = new Set([...src.matchAll(/THREE\.([A-Za-z0-9_]+)/g)].map((m) => m[1]));
    expect([...used].filter((n) => !THREE_NAMES.includes(n))).toEqual([]);
    expect(used.size).toBeGreaterThan(15);
  });

  it("three.js comes from the pinned npm package: bundled, or its two build files", () => {
    const bundled = threeSource();
    expect(bundled.version).toBe("0.187.0");
    const raw = threeSource({ bundle: false });
    expect(raw.modules.map((m) => m.name)).toEqual(["three.core.js", "three.module.js"]);
    // the page rewrites this import to the core's blob URL
    expect(raw.modules[1].code).toMatch(/from '\.\/three\.core\.js'/);
    if (bundled.kind === "bundle") {
      expect(bundled.modules.length).toBe(1);
      expect(bundled.modules[0].code.length).toBeLessThan(raw.modules[0].code.length / 2);
    }
  });

  it("PNG: encode and decode round-trip RGBA and opaque images; a corrupt file is refused", () => {
    const w = 7, h = 5;
    const rgba = new Uint8Array(w * h * 4).map((_, i) => (i * 37) % 256);
    expect(decodePNG(encodePNG({ width: w, height: h, pixels: rgba })).pixels).toEqual(rgba);
    const opaque = rgba.map((v, i) => (i % 4 === 3 ? 255 : v));
    const png = encodePNG({ width: w, height: h, pixels: opaque });
    expect(png[25]).toBe(2); // colour type RGB
    expect(decodePNG(png).pixels).toEqual(opaque);
    expect(() => decodePNG(png.subarray(0, png.length - 20))).toThrow(RangeError);
    expect(() => encodePNG({ width: 0, height: 1, pixels: new Uint8Array(4) })).toThrow(RangeError);
  });

  it("the still image: the nearer of two spheres hides the farther; shading darkens away from the light", () => {
    const img = renderSpheres(
      {
        count: 2,
        positions: [0, 0, 0, 0, 5, 0], // the red sphere in front (camera on −y), green behind
        radii: [1, 2],
        colors: new Uint8Array([220, 0, 0, 0, 220, 0]),
      },
      { position: [0, -10, 0], target: [0, 0, 0], up: [0, 0, 1], fov: 40 },
      80,
      80,
    );
    const at = (x: number, y: number) =>
      Array.from(img.pixels.subarray(4 * (y * 80 + x), 4 * (y * 80 + x) + 3));
    expect(at(40, 40)[0]).toBeGreaterThan(100);
    expect(at(40, 40)[1]).toBe(0); // red in front
    const edge = at(40 + 11, 40);
    expect(edge[1]).toBeGreaterThan(50); // green beside it
    expect(edge[0]).toBe(0);
    // the light comes from the upper left: upper-left of the red sphere is brighter than lower-right
    expect(at(36, 36)[0]).toBeGreaterThan(at(44, 44)[0]);
  });

  it("bad input is refused, naming the parameter", async () => {
    const g = { count: 1, positions: [0, 0, 0], velocities: [0, 0, 0], radii: [0.1] };
    expect(() => view3d(42 as never)).toThrow(TypeError);
    expect(() => view3d(new ViewRecorder())).toThrow(/the recorder has no frames/);
    expect(() => view3d({ ...g, dimension: 2 } as never)).toThrow(
      /2D system cannot be shown in 3D/,
    );
    expect(() => view3d({ count: 1, positions: [0, 0, 0], velocities: [0, 0, 0] })).toThrow(
      /has no radii/,
    );
    expect(() => view3d({ ...g, positions: [0, NaN, 0] })).toThrow(/non-finite position/);
    expect(() => view3d(g, { width: 50 })).toThrow(
      /width \(50\) must be an integer in \[120, 4096\]/,
    );
    expect(() => view3d(g, { fps: 0 })).toThrow(/fps/);
    expect(() => view3d(g, { color: [] })).toThrow(TypeError);
    expect(() => view3d(g, { scales: { height: { type: "sqrt" as never } } })).toThrow(
      /"linear" or "log"/,
    );
    expect(() => view3d(g, { scales: { height: { domain: [1, 0] } } })).toThrow(/domain/);
    expect(() => view3d(g, { scales: { height: { scheme: "nope" } } })).toThrow(/scheme/);
    expect(() => view3d(g, { background: "red" })).toThrow(/#rrggbb/);
    expect(() => view3d(g, { camera: { fov: 200 } })).toThrow(/camera.fov/);
    expect(() => view3d(g, { camera: { target: [0, 0] as never } })).toThrow(/camera.target/);
    expect(() => new ViewRecorder({ contacts: "yes" as never })).toThrow(TypeError);
    expect(() => new ViewRecorder({ maxBytes: 10 }).record(g)).toThrow(/would need/);
    await expect(writeViewer("", g)).rejects.toThrow(TypeError);
    await expect(writeViewer("/tmp/x.html", g, { colour: "z" } as never)).rejects.toThrow(
      /did you mean "color"/,
    );
  });
});
