/**
 * The walk-through of docs/recipe_contact_law.md: a toy normal law, linear with a cubic
 * stiffening term f = kn·δ + k3·δ³ − cn·vn, added through the single source's machinery in
 * memory — one fragment, the generator run on a law set that holds it, the generated scalar
 * law and loops loaded from a temporary folder — while the shipped files stay as they are.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { hertzElastic, LAW3D, type LawSet, normalLawWith } from "../src/contact/law3d_source.ts";
import {
  generateContactLoops,
  type GeneratedFile,
  REPO_ROOT,
} from "../scripts/gen_contact_loops.ts";
import { ParticleStore } from "../src/sphere3d/particles.ts";
import { PairList } from "../src/math/grid.ts";
import { PairHistory } from "../src/sphere3d/pair_history.ts";
import { emptyForceParams, ForceScratch, setForceParams } from "../src/sphere3d/force_params.ts";
import { planeCandidates, PlaneSet } from "../src/sphere3d/boundaries.ts";
import { contactBuffers, ContactKind, ContactRecord } from "../src/contact/record.ts";
import { emptyStats } from "../src/sphere3d/stats.ts";

/** The cubic stiffness k3 (N/m³), a constant of the toy law. */
const K3 = 4e9;

/** Step 1 of the recipe: the law as a fragment (its linear elastic part replaced). */
const TOY: LawSet = {
  ...LAW3D,
  normal: normalLawWith(
    (v) => `${v.kn} * ${v.overlap} + ${K3} * ${v.overlap} * ${v.overlap} * ${v.overlap}`,
    hertzElastic,
  ),
};

/**
 * Step 2: the generator run on the toy law set, its files written under `dir` at their
 * repository paths with their relative imports pointed at the repository's own files (so the
 * toy loops use the shipped helpers, and the shipped files are not touched).
 */
async function load(files: GeneratedFile[], dir: string) {
  const mods: Record<string, Record<string, unknown>> = {};
  for (const f of files) {
    const home = new URL(f.path, `file://${REPO_ROOT}`);
    const text = f.text.replace(/from "(\.\.?\/[^"]+)"/g, (_, rel: string) => {
      const target = new URL(rel, home).pathname.slice(REPO_ROOT.length);
      // the scalar laws come from the toy's own law3d_gen.ts, the rest from the repository
      const base = target === "src/contact/law3d_gen.ts" ? `file://${dir}/` : `file://${REPO_ROOT}`;
      return `from "${new URL(target, base).href}"`;
    });
    const path = `${dir}/${f.path}`;
    await Deno.mkdir(path.slice(0, path.lastIndexOf("/")), { recursive: true });
    await Deno.writeTextFile(path, text);
  }
  for (const f of files) mods[f.path] = await import(`file://${dir}/${f.path}`);
  return mods;
}

// deno-lint-ignore no-explicit-any
type Fn = (...args: any[]) => any;

describe("recipe: add a contact law (a toy cubic normal law)", () => {
  it("generates loops whose force is the toy scalar law's, the shipped files unchanged", async () => {
    const shipped = await generateContactLoops();
    const toyFiles = await generateContactLoops(TOY);
    // the shipped files on disk are the shipped law's; the toy's differ in the normal law only
    for (const [k, f] of toyFiles.entries()) {
      expect(await Deno.readTextFile(REPO_ROOT + f.path)).toBe(shipped[k].text);
      // the RFT law's files come from their own source: a contact law leaves them as they are
      if (f.path.startsWith("src/sphere3d/rft/")) {
        expect(f.text).toBe(shipped[k].text);
        continue;
      }
      const old = shipped[k].text.split("\n"), lines = f.text.split("\n"), had = new Set(old);
      const changed = lines.filter((l) => !had.has(l));
      expect(f.text).toContain(`${K3} * `);
      expect(changed.length).toBeLessThanOrEqual(6); // a wrapped line or two per normal law
      expect(lines.length - old.length).toBeLessThanOrEqual(4);
    }
    const dir = await Deno.makeTempDir({ prefix: "toy_law_" });
    try {
      const mods = await load(toyFiles, dir);
      const normalForce = mods["src/contact/law3d_gen.ts"].normalForce as Fn;
      const pairForcesGeneral = mods["src/sphere3d/pair_loops_gen.ts"].pairForcesGeneral as Fn;
      const pairForcesPlain = mods["src/sphere3d/pair_loops_gen.ts"].pairForcesPlain as Fn;
      const planeSweep = mods["src/sphere3d/plane_sweep_gen.ts"].planeSweep as Fn;
      const kn = 2e4, cn = 4, delta = 5e-4, vz = -0.2;
      // the scalar law is the toy's
      const want = normalForce(false, kn, cn, 0, delta, vz);
      expect(want).toBe(kn * delta + K3 * delta * delta * delta - cn * vz);
      expect(want).toBeGreaterThan(kn * delta); // 10 N + 0.5 N of stiffening + the dashpot
      const p = emptyForceParams();
      setForceParams(p, { kn, cn, kt: 8e3, dt: 1e-5, histDt: 1e-5, mu: 0.5, rolling: false });
      const mat = { friction: Float64Array.of(0.5), rolling: Float64Array.of(0) };
      // two grains 0.5 mm into each other, the upper one moving down: both pair loops
      for (const loop of [pairForcesGeneral, pairForcesPlain]) {
        const ps = new ParticleStore();
        ps.reserve(2);
        ps.count = 2;
        ps.pos.set([0, 0, 0.0155, 0, 0, 0]), ps.vel.set([0, 0, vz, 0, 0, 0]);
        for (let i = 0; i < 2; i++) ps.radius[i] = 0.008, ps.setMass(i, 2500);
        const pairs = new PairList();
        pairs.push(0, 1);
        const ph = new PairHistory();
        ph.ensure(1);
        const rec = new ContactRecord(3);
        rec.reserve(1);
        const cb = contactBuffers(rec);
        const args = loop === pairForcesPlain ? [p] : [mat, p];
        expect(loop(ps, pairs, ph, ...args, cb, emptyStats(), 0, 1, 0)).toBe(1);
        const fn = normalForce(false, kn, cn, 0, 0.016 - 0.0155, vz);
        expect(cb.normalForce[0]).toBe(fn);
        expect(ps.force[2]).toBe(fn);
      }
      // one grain 0.5 mm into the ground, moving down: the plane sweep
      const ps = new ParticleStore();
      ps.reserve(1);
      ps.count = 1;
      ps.pos.set([0, 0, 0.0075]), ps.vel.set([0, 0, vz]), ps.radius[0] = 0.008;
      ps.setMass(0, 2500);
      const planes = new PlaneSet();
      planes.add(2, 1, 0, 0, ContactKind.ground);
      planeCandidates(planes, ps.pos, ps, 0.001);
      const rec = new ContactRecord(3);
      rec.reserve(1);
      const cb = contactBuffers(rec), sc = new ForceScratch();
      planeSweep(ps, planes, 0, mat, 0.5, 0, p, sc, cb, emptyStats(), 0, 1, 0);
      expect(cb.normalForce[0]).toBe(normalForce(false, kn, cn, 0.008, 0.008 - 0.0075, vz));
    } finally {
      await Deno.remove(dir, { recursive: true });
    }
  });
});
