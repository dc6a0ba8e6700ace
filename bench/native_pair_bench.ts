/**
 * The sphere3d pair loop against the same loop compiled by clang: is the hot loop bound by
 * V8's code or by the work itself? On the settle bench's settled disordered bed (from
 * `.bench-cache/`, which `deno task bench` fills), the pair list and springs of one step are
 * evaluated over and over by Grainlab's `pairForces` (TypeScript on V8), by
 * `bench/native/pair_forces.c` compiled with `clang -O3` to native code (called through
 * `Deno.dlopen`) and to WebAssembly, and by `bench/native/pair_forces_simd.c`, the same loop on
 * WebAssembly SIMD (two contacts per iteration in f64x2 lanes) — the same operations in the
 * same order, so all four give the same bits (checked). Skipped when clang (Debian's
 * `clang-14` and `lld-14`) is missing.
 *
 * Run: deno run -A bench/native_pair_bench.ts [--sizes 5000,20000] [--reps 30]
 *
 * @module
 */
import { World } from "../src/sphere3d/mod.ts";
import { coreOf } from "../src/sphere3d/granular_system.ts";
import { contactBuffers } from "../src/contact/record.ts";
import { FP, pairForces } from "../src/sphere3d/forces.ts";
import { jitteredGrid, SCENE, settledFile } from "./settle_bench.ts";
import { median } from "./median.ts";

const arg = (name: string, fallback: string) => {
  const k = Deno.args.indexOf(name);
  return k >= 0 ? Deno.args[k + 1] : fallback;
};
const sizes = arg("--sizes", "5000,20000").split(",").map(Number);
for (const n of sizes) {
  if (!(Number.isInteger(n) && n >= 1)) {
    throw new RangeError(`--sizes (${arg("--sizes", "")}) must be integers ≥ 1, comma-separated`);
  }
}
const reps = Number(arg("--reps", "30"));
if (!(Number.isInteger(reps) && reps >= 1)) {
  throw new RangeError(`--reps (${arg("--reps", "")}) must be an integer ≥ 1`);
}

/** The path of the first of `names` on the PATH, or null. */
function which(names: string[]): string | null {
  for (const n of names) {
    const out = new Deno.Command("sh", { args: ["-c", `command -v ${n}`], stdout: "piped" })
      .outputSync();
    const path = new TextDecoder().decode(out.stdout).trim();
    if (out.success && path !== "") return path;
  }
  return null;
}

const clang = which(["clang-14", "clang"]), wasmLd = which(["wasm-ld-14", "wasm-ld"]);
if (clang === null) {
  console.log("native pair bench: skipped (no clang; Debian: apt install clang-14 lld-14)");
  Deno.exit(0);
}
const dir = await Deno.makeTempDir({ prefix: "grainlab_native_" });
const src = new URL("./native/pair_forces.c", import.meta.url).pathname;
const cc = (args: string[]) => {
  const out = new Deno.Command(clang, { args, stderr: "piped" }).outputSync();
  if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
};
// -ffp-contract=off: no fused multiply-adds, which V8 never emits (the same bits)
cc(["-O3", "-ffp-contract=off", "-shared", "-fPIC", "-o", `${dir}/pair.so`, src]);
/** `file` compiled to WebAssembly (with `extra` flags), or null without wasm-ld. */
const toWasm = (file: string, out: string, extra: string[]) => {
  if (wasmLd === null) return null;
  cc([
    "--target=wasm32",
    "-O3",
    "-ffp-contract=off",
    ...extra,
    "-nostdlib",
    `-fuse-ld=${wasmLd}`,
    "-Wl,--no-entry",
    "-Wl,--export=pair_forces",
    "-Wl,--import-memory",
    "-o",
    `${dir}/${out}`,
    file,
  ]);
  return new Uint8Array(Deno.readFileSync(`${dir}/${out}`));
};
const wasmBytes = toWasm(src, "pair.wasm", []);
const simdSrc = new URL("./native/pair_forces_simd.c", import.meta.url).pathname;
const simdBytes = toWasm(simdSrc, "simd.wasm", ["-msimd128"]);
const lib = Deno.dlopen(`${dir}/pair.so`, {
  pair_forces: {
    parameters: [
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "buffer",
      "i32",
      "i32",
      "buffer",
    ],
    result: "i32",
  },
});

console.log(
  `pair loop on the settled disordered bed: ns per candidate pair (median of ${reps} rounds, ` +
    `5 passes each; TypeScript on V8, C with ${clang} -O3 natively, to WebAssembly and to ` +
    `WebAssembly SIMD)`,
);
console.log(
  "      N    pairs  contacts   V8 ns   native ns   wasm ns   SIMD ns   V8/native   V8/wasm" +
    "   V8/SIMD   same bits",
);
for (const n of sizes) {
  const file = settledFile(n, ".bench-cache");
  try {
    Deno.statSync(file);
  } catch {
    console.log(
      `${String(n).padStart(7)}  (no ${file}: run bench/settle_bench.ts --settled first)`,
    );
    continue;
  }
  const mass = SCENE.density * (4 / 3) * Math.PI * SCENE.radius ** 3;
  const world = new World({ timeStep: SCENE.dt, gravity: [0, 0, -9.81] });
  const [bx, by] = SCENE.box;
  const h = (Math.ceil(n / (SCENE.nx * SCENE.ny)) + 0.5) * SCENE.spacing;
  const g = world.addGranularParticles({ positions: jitteredGrid(n), radii: SCENE.radius }, {
    density: SCENE.density,
    normalStiffness: SCENE.kn,
    tangentialStiffness: SCENE.kt,
    normalDamping: SCENE.gammaN * mass / 2,
    friction: SCENE.friction,
  });
  g.setContainerBox([-bx / 2, -by / 2, 0], [bx / 2, by / 2, h + 1]);
  await g.loadGranularState(file);
  world.run(300);
  const c = coreOf.get(g)!;
  const ps = c.ps, pl = c.pairs, ph = c.pairHist, rec = c.contacts;
  const p = c.params.slice();
  p[FP.record] = 0;
  if (
    p[FP.damping] !== 0 || p[FP.hertz] !== 0 || p[FP.kc] > 0 || p[FP.rolling] !== 0 ||
    p[FP.mu] < 0 || p[FP.px] || p[FP.py] || p[FP.pz]
  ) {
    throw new Error("native pair bench: the C loop covers the settle bench's contact law only");
  }
  const N = ps.count, M = pl.count, on0 = ph.on.slice(0, M), xi0 = ph.xi.slice(0, 3 * M);
  const cb = contactBuffers(rec);
  const js = () => {
    ph.on.set(on0), ph.xi.set(xi0), ps.force.fill(0), ps.torque.fill(0);
    const st = { ...c.stats };
    for (let r = 0; r < 5; r++) pairForces(ps, pl, ph, c.tables, p, cb, st, 0, M, 0);
  };
  // the native and wasm copies of the same state
  const P = new Float64Array([
    p[FP.kn],
    p[FP.cn],
    p[FP.kt],
    p[FP.ct],
    p[FP.mu],
    p[FP.lever],
    p[FP.histDt],
  ]);
  const col = (a: Float64Array, len: number) => a.slice(0, len);
  const nat = {
    pos: col(ps.pos, 3 * N),
    vel: col(ps.vel, 3 * N),
    ang: col(ps.ang, 3 * N),
    rad: col(ps.radius, N),
    f: new Float64Array(3 * N),
    t: new Float64Array(3 * N),
    a: pl.a.slice(0, M),
    b: pl.b.slice(0, M),
    on: new Uint8Array(M),
    hx: new Float64Array(3 * M),
    stats: new Int32Array(2),
  };
  const native = () => {
    nat.on.set(on0), nat.hx.set(xi0), nat.f.fill(0), nat.t.fill(0);
    for (let r = 0; r < 5; r++) {
      lib.symbols.pair_forces(
        nat.pos,
        nat.vel,
        nat.ang,
        nat.rad,
        nat.f,
        nat.t,
        nat.a,
        nat.b,
        nat.on,
        nat.hx,
        P,
        0,
        M,
        nat.stats,
      );
    }
  };
  /** A pass of the wasm module `bytes` on copies of the state, and its outputs. */
  const wasmRun = async (bytes: Uint8Array<ArrayBuffer>, simd: boolean) => {
    // the columns below, 64-byte aligned (and the SIMD loop's contact list)
    const size = (1 << 16) + 136 * N + 44 * M + 64 * 16;
    const mem = new WebAssembly.Memory({ initial: Math.ceil(size / 65536) + 1 });
    const module = await WebAssembly.compile(bytes);
    const instance = await WebAssembly.instantiate(module, { env: { memory: mem } });
    const fn = instance.exports.pair_forces as (...a: number[]) => number;
    let off = 1 << 16;
    const at = (len: number) => {
      const o = off;
      off += (len + 63) & ~63;
      return o;
    };
    const o = {
      pos: at(24 * N),
      vel: at(24 * N),
      ang: at(24 * N),
      rad: at(8 * N),
      f: at(24 * N),
      t: at(24 * N),
      a: at(4 * M),
      b: at(4 * M),
      on: at(M),
      hx: at(24 * M),
      P: at(64),
      stats: at(16),
      list: at(4 * M),
    };
    const B = mem.buffer, F = (at: number, len: number) => new Float64Array(B, at, len);
    F(o.pos, 3 * N).set(nat.pos), F(o.vel, 3 * N).set(nat.vel), F(o.ang, 3 * N).set(nat.ang);
    F(o.rad, N).set(nat.rad), F(o.P, 7).set(P);
    new Int32Array(B, o.a, M).set(nat.a), new Int32Array(B, o.b, M).set(nat.b);
    const won = new Uint8Array(B, o.on, M);
    const out = { f: F(o.f, 3 * N), t: F(o.t, 3 * N), hx: F(o.hx, 3 * M) };
    const run = () => {
      won.set(on0), out.hx.set(xi0), out.f.fill(0), out.t.fill(0);
      for (let r = 0; r < 5; r++) {
        if (simd) {
          fn(
            o.pos,
            o.vel,
            o.ang,
            o.rad,
            o.f,
            o.t,
            o.a,
            o.b,
            o.on,
            o.hx,
            o.P,
            0,
            M,
            o.stats,
            o.list,
          );
        } else fn(o.pos, o.vel, o.ang, o.rad, o.f, o.t, o.a, o.b, o.on, o.hx, o.P, 0, M, o.stats);
      }
    };
    return { run, out };
  };
  const wasm = wasmBytes === null ? null : await wasmRun(wasmBytes, false);
  const simd = simdBytes === null ? null : await wasmRun(simdBytes, true);
  const time = (f: () => void) => {
    const t = performance.now();
    f();
    return (performance.now() - t) / 5;
  };
  const tj: number[] = [], tn: number[] = [], tw: number[] = [], ts: number[] = [];
  for (let r = 0; r < reps; r++) {
    tj.push(time(js)), tn.push(time(native));
    if (wasm) tw.push(time(wasm.run));
    if (simd) ts.push(time(simd.run));
  }
  // the same five passes from the same state: the same bits?
  const same = (x: Float64Array, y: Float64Array, len: number) => {
    for (let i = 0; i < len; i++) if (!Object.is(x[i], y[i])) return false;
    return true;
  };
  const sameAs = (o: { f: Float64Array; t: Float64Array; hx: Float64Array }) =>
    same(ps.force, o.f, 3 * N) && same(ps.torque, o.t, 3 * N) && same(ph.xi, o.hx, 3 * M);
  let bits = sameAs({ f: nat.f, t: nat.t, hx: nat.hx });
  if (wasm) bits = bits && sameAs(wasm.out);
  if (simd) bits = bits && sameAs(simd.out);
  const ns = (x: number[]) => (1e6 * median(x)) / M;
  const cts = g.lastStepStats.particleContacts;
  const cell = (x: number[], w: number) => (x.length > 0 ? ns(x).toFixed(1) : "—").padStart(w);
  const ratio = (x: number[], w: number) =>
    (x.length > 0 ? (median(tj) / median(x)).toFixed(2) : "—").padStart(w);
  console.log(
    `${String(N).padStart(7)} ${String(M).padStart(8)} ${String(cts).padStart(9)} ${cell(tj, 7)} ${
      cell(tn, 11)
    } ${cell(tw, 9)} ${cell(ts, 9)} ${ratio(tn, 11)} ${ratio(tw, 9)} ${ratio(ts, 9)}   ${
      bits ? "yes" : "NO"
    }`,
  );
  world.close();
}
lib.close();
await Deno.remove(dir, { recursive: true });
