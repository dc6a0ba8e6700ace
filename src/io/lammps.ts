/**
 * The scale-out path: export a sphere3d scene to LAMMPS (GRANULAR package, MPI) and read its
 * results back.
 *
 * {@link exportLammps} writes a data file (`data.grainlab`: atoms, types, velocities and spins)
 * and an input script (`in.grainlab`) that reproduce the system's scene and contact law:
 * `pair_style gran/hooke/history` (or `gran/hertz/history`), with `limit_damping` when the
 * normal force is clamped at zero (Grainlab's default, like the specification); Grainlab's
 * damping (absolute, mass-scaled or from a restitution coefficient) and tangential stiffness
 * converted to LAMMPS's `γn`, `γt`, `kt` for every pair of atom types (`pair_style hybrid` when
 * the types need different coefficients); `fix wall/gran` for the ground plane and the
 * container; periodic boundaries; gravity; fixed grains (`fix freeze`, left out of the
 * integration); and a custom dump of ids, types, radii, masses, positions, velocities and
 * spins at full precision. {@link runLammps} runs it (`mpirun -np N lmp -in in.grainlab`),
 * `readLammpsDump` (`./lammps_dump.ts`) reads the frames back as Arrow tables.
 *
 * **Atom ids.** LAMMPS atom id = Grainlab stable id + 1 (LAMMPS ids start at 1).
 *
 * **Exactness.** LAMMPS's classic granular styles are Grainlab's law when: the normal law is
 * linear; the tangential lever arm is the full radius (`contactLever: "radius"`, LAMMPS's
 * convention); there is no rolling friction, cohesion, speed clamp or external force; and each
 * atom type's damping can be written as LAMMPS's `m_eff·γ` — always with
 * `dampingMode: "mass-scaled"`, otherwise when the grains come in few sizes (one type per size,
 * at most `maxTypes`). Everything else is exported as the nearest LAMMPS scene, with one line
 * per difference in {@link LammpsExport.notes} (and as comments in the script); `exact: true`
 * turns any difference into an error. What remains even in an exact export: LAMMPS rotates a
 * contact's tangential spring onto the new tangent plane without restoring its length
 * (Grainlab keeps the length), a difference of second order in the rotation per step; and
 * tangential springs present at export time are not carried over (they restart at zero).
 *
 * @module
 */
import type { World } from "../sphere3d/world.ts";
import type { GranularSystem } from "../sphere3d/granular_system.ts";
import { coreOf } from "../sphere3d/granular_system.ts";
import type { Material } from "../sphere3d/material.ts";
import { contactDamping, DampingLaw, restitutionDamping } from "../contact/normal.ts";
import { writeFileAtomic } from "../math/files.ts";
import { bool, integerIn, options as checkOptions, positive } from "../math/validate.ts";
import { VERSION } from "../version.ts";

/** Options of {@link exportLammps}. */
export interface ExportLammpsOptions {
  /** World steps to run in LAMMPS (each is `substeps` LAMMPS steps), ≥ 1. */
  steps: number;
  /** Dump a frame every this many world steps (frame 0 is the initial state). @default steps */
  dumpEvery?: number;
  /** Index of the system in `world.systems` to export. @default 0 (the only one) */
  system?: number;
  /** Throw instead of exporting a scene that LAMMPS cannot reproduce exactly. @default false */
  exact?: boolean;
  /**
   * Most atom types when grains are split by size (one type per radius, material id and fixed
   * flag). More distinct sizes than this share a type, and LAMMPS damps them with the type's
   * mean mass (unless damping is mass-scaled, where sizes need no types). @default 8
   */
  maxTypes?: number;
  /**
   * Hertz only: LAMMPS's Hertz styles scale the damping and the tangential stiffness with
   * √(R_eff·δ); they are converted to match Grainlab's at this overlap (m).
   * @default 1 % of the mean radius
   */
  hertzReferenceOverlap?: number;
  /**
   * Neighbour skin of the LAMMPS run (m); it changes the speed, never the result. LAMMPS
   * rebuilds its lists at a higher cost than Grainlab, so its best skin is larger.
   * @default the larger of the system's `neighborSkin` and 0.4 × the largest radius
   */
  neighborSkin?: number;
}

const EXPORT_KEYS: readonly string[] = [
  "steps",
  "dumpEvery",
  "system",
  "exact",
  "maxTypes",
  "hertzReferenceOverlap",
  "neighborSkin",
];

/** One LAMMPS atom type of an export: the grains of one material id, fixed flag (and size). */
export interface LammpsAtomType {
  /** The LAMMPS type (1-based). */
  type: number;
  /** Grainlab material id of its grains. */
  materialId: number;
  /** Its grains are fixed (`fix freeze`, not integrated). */
  fixed: boolean;
  /** The radius of its grains when types are split by size, else null (m). */
  radius: number | null;
  /** Number of its grains. */
  count: number;
}

/** What {@link exportLammps} wrote, and what the LAMMPS run will produce. */
export interface LammpsExport {
  /** The folder holding the files. */
  dir: string;
  /** The input script (`<dir>/in.grainlab`). */
  inputFile: string;
  /** The data file (`<dir>/data.grainlab`). */
  dataFile: string;
  /** The dump LAMMPS will write (`<dir>/dump.grainlab.txt`). */
  dumpFile: string;
  /** The log LAMMPS will write (`<dir>/log.lammps`). */
  logFile: string;
  /** Number of atoms. */
  atoms: number;
  /** The LAMMPS time step (s): the world's time step / substeps. */
  timeStep: number;
  /** LAMMPS steps of the run. */
  steps: number;
  /** The LAMMPS timesteps of the dumped frames, in order (the first is 0). */
  timesteps: number[];
  /** The world's time at export (s): a frame's time is `startTime + timestep·timeStep`. */
  startTime: number;
  /** The LAMMPS boundary of each axis: "p" (periodic) or "m" (shrink-wrapped, at least the initial box). */
  boundary: string[];
  /** The dump's columns, in order ({@link LAMMPS_DUMP_COLUMNS}). */
  columns: string[];
  /** The atom types. */
  types: LammpsAtomType[];
  /** The system's material (resolved). */
  material: Material;
  /** True when LAMMPS runs Grainlab's law exactly (see the module documentation). */
  exact: boolean;
  /** Every difference between the LAMMPS scene and Grainlab's, one sentence each. */
  notes: string[];
}

/** File names inside the export folder. */
const FILES = {
  input: "in.grainlab",
  data: "data.grainlab",
  dump: "dump.grainlab.txt",
  log: "log.lammps",
} as const;

/** The dump columns the script asks for, in order. */
export const LAMMPS_DUMP_COLUMNS: readonly string[] = [
  "id",
  "type",
  "radius",
  "mass",
  "x",
  "y",
  "z",
  "vx",
  "vy",
  "vz",
  "omegax",
  "omegay",
  "omegaz",
];

/** A grain class as LAMMPS sees it: one atom type. */
interface TypeClass {
  materialId: number;
  fixed: boolean;
  radius: number;
  mass: number;
  exactSize: boolean;
  count: number;
}

/** Coefficients of one LAMMPS granular pair or wall: kn kt γn γt μ dampflag. */
type Coeffs = [number, number, number, number, number, number];

/**
 * Export a world's granular system to LAMMPS: a data file and an input script in `dir`
 * (created if missing; files written atomically) that run `options.steps` world steps and dump
 * frames every `dumpEvery` world steps. Run it with {@link runLammps} or
 * `mpirun -np 2 lmp -in in.grainlab` in `dir`; read the frames with `readLammpsDump`.
 *
 * @param dir destination folder
 * @param world the world (time step, gravity) holding the system
 * @param options steps, dump interval, which system, exactness
 * @returns the files, the expected frames and the differences from Grainlab's run
 * @throws {RangeError} on bad options, an empty system, walls on periodic axes, or (with
 * `exact: true`) a scene LAMMPS cannot reproduce exactly
 * @example
 * ```ts
 * import { exportLammps } from "@grainlab/grainlab/io";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World({ timeStep: 1e-4 });
 * const g = world.addGranularBox(
 *   { min: [0, 0, 0], max: [0.2, 0.2, 0.1], radius: 0.02, spacing: 0.045 },
 *   { contactLever: "radius" },
 * );
 * g.setContainerBox([0, 0, 0], [0.2, 0.2, 0.3]);
 * const dir = await Deno.makeTempDir();
 * const exp = await exportLammps(dir, world, { steps: 1000, dumpEvery: 250 });
 * expect(exp.atoms).toBe(g.count);
 * expect(exp.timesteps).toEqual([0, 250, 500, 750, 1000]);
 * expect(exp.exact).toBe(true);
 * const script = await Deno.readTextFile(exp.inputFile);
 * expect(script).toContain("pair_style gran/hooke/history");
 * expect(script).toContain("limit_damping");
 * ```
 */
export async function exportLammps(
  dir: string,
  world: World,
  options: ExportLammpsOptions,
): Promise<LammpsExport> {
  const w = "exportLammps";
  if (typeof dir !== "string" || dir.length === 0) {
    throw new TypeError(`${w}: dir (${String(dir)}) must be a non-empty string`);
  }
  if (options === undefined) {
    throw new TypeError(`${w}: options (undefined) must be an options object`);
  }
  const o = checkOptions<ExportLammpsOptions>(w, "options", options, EXPORT_KEYS);
  const systems = world?.systems;
  if (!Array.isArray(systems)) throw new TypeError(`${w}: world must be a sphere3d World`);
  const index = integerIn(w, "system", o.system ?? 0, 0, Math.max(0, systems.length - 1));
  const sys: GranularSystem | undefined = systems[index];
  if (sys === undefined) throw new RangeError(`${w}: the world has no granular system`);
  if (sys.count === 0) throw new RangeError(`${w}: system ${index} has no particles`);
  const steps = integerIn(w, "steps", o.steps, 1, 1e12);
  const every = integerIn(w, "dumpEvery", o.dumpEvery ?? steps, 1, 1e12);
  if (steps / every > 1e6) {
    throw new RangeError(
      `${w}: dumpEvery (${every}) gives ${Math.floor(steps / every) + 1} frames for ${steps} ` +
        "steps; at most a million frames",
    );
  }
  if (sys.fixed.every((f) => f !== 0)) {
    throw new RangeError(`${w}: every grain of system ${index} is fixed: nothing would move`);
  }
  const exactOnly = bool(w, "exact", o.exact, false);
  const maxTypes = integerIn(w, "maxTypes", o.maxTypes ?? 8, 1, 64);
  const { text: files, exp } = buildExport(w, dir, world, sys, {
    steps,
    every,
    maxTypes,
    hertzRef: o.hertzReferenceOverlap === undefined
      ? undefined
      : positive(w, "hertzReferenceOverlap", o.hertzReferenceOverlap),
    skin: o.neighborSkin === undefined ? undefined : positive(w, "neighborSkin", o.neighborSkin),
  });
  if (exactOnly && !exp.exact) {
    throw new RangeError(
      `${w}: LAMMPS cannot reproduce this scene exactly (exact: true): ${exp.notes.join("; ")}`,
    );
  }
  const enc = new TextEncoder();
  await Deno.mkdir(dir, { recursive: true });
  await writeFileAtomic(exp.dataFile, enc.encode(files.data));
  await writeFileAtomic(exp.inputFile, enc.encode(files.input));
  return exp;
}

interface BuildSettings {
  steps: number;
  every: number;
  maxTypes: number;
  hertzRef: number | undefined;
  skin: number | undefined;
}

/** Build the data file, the script and the export record (no file is written). */
function buildExport(
  w: string,
  dir: string,
  world: World,
  sys: GranularSystem,
  s: BuildSettings,
): { text: { data: string; input: string }; exp: LammpsExport } {
  const core = coreOf.get(sys);
  const m = sys.material;
  const n = sys.count;
  const notes: string[] = [];
  const pos = sys.positions, vel = sys.velocities, ang = sys.angularVelocities;
  const rad = sys.radii, mass = sys.masses, mids = sys.materialIds, fixed = sys.fixed;
  const ids = sys.ids;
  const hertz = m.normalContactModel === "hertz";
  const maxId = ids.reduce((a, b) => Math.max(a, b), 0);
  if (maxId + 1 > 2 ** 31 - 1) {
    throw new RangeError(`${w}: stable id ${maxId} exceeds LAMMPS's largest atom id (2^31 − 2)`);
  }

  // ---- the contact law ------------------------------------------------------------------
  const kn = m.normalStiffness;
  const kt = m.tangentialStiffness > 0 ? m.tangentialStiffness : 0.5 * kn;
  const clamp = m.clampNormalForce;
  const ctScaled = m.dampingMode === "mass-scaled";
  const law = m.restitution !== null
    ? (hertz ? DampingLaw.restitutionHertz : DampingLaw.restitutionLinear)
    : (ctScaled ? DampingLaw.massScaled : DampingLaw.constant);
  const coef = m.restitution !== null
    ? restitutionDamping(m.restitution, kn, hertz, clamp)
    : m.normalDamping;
  const ct = m.tangentialDamping;
  const massFree = law === DampingLaw.massScaled ||
    (coef === 0 && (ct === 0 || ctScaled));

  if (m.contactLever !== "radius") {
    notes.push(
      'contactLever "overlap-centre": LAMMPS uses the full radius as the lever arm of the ' +
        'tangential force (set contactLever: "radius" for an exact export)',
    );
  }
  if (m.cohesionStiffness > 0 && m.cohesionMaxDistance > 0) {
    notes.push("cohesion is not exported (no equivalent in LAMMPS's classic granular styles)");
  }
  if (m.maxSpeed > 0 || m.maxAngularSpeed > 0) {
    notes.push("the speed clamps (maxSpeed, maxAngularSpeed) are not exported");
  }
  const usedMids = [...new Set(mids)].sort((a, b) => a - b);
  const friction = (id: number) => sys.getParticleMaterial(id).friction;
  const rolling = usedMids.some((id) => sys.getParticleMaterial(id).rollingFriction > 0) ||
    (sys.boundaryMaterial.rollingFriction > 0 && hasPlanes(sys));
  if (rolling) notes.push("rolling friction is not exported (LAMMPS's classic styles lack it)");
  if (core) {
    const ef = core.ps.extForce, et = core.ps.extTorque;
    for (let k = 0; k < 3 * n; k++) {
      if (ef[k] !== 0 || et[k] !== 0) {
        notes.push("external forces and torques are not exported");
        break;
      }
    }
  }
  const hist = sys.contactHistories();
  if (hist.displacement.some((x) => x !== 0)) {
    notes.push(
      `${hist.owner.length} tangential springs of the current contacts are not carried ` +
        "over: they restart at zero in LAMMPS",
    );
  }

  // ---- atom types ------------------------------------------------------------------------
  // Sizes need types when the damping depends on the mass (a fixed grain's mass never
  // enters: against it m_eff is the free grain's) or, for Hertz, on the radius.
  const bySize = !massFree || hertz;
  let keyOf = (i: number) =>
    `${mids[i]}|${fixed[i]}|${bySize && (hertz || !fixed[i]) ? rad[i] : ""}`;
  let keys = new Map<string, number>();
  for (let i = 0; i < n; i++) if (!keys.has(keyOf(i))) keys.set(keyOf(i), keys.size);
  let exactSize = bySize;
  const sizes = new Set(rad).size;
  if (keys.size > s.maxTypes && bySize) {
    exactSize = false;
    keyOf = (i: number) => `${mids[i]}|${fixed[i]}|`;
    keys = new Map();
    for (let i = 0; i < n; i++) if (!keys.has(keyOf(i))) keys.set(keyOf(i), keys.size);
    if (!massFree) {
      notes.push(
        `${sizes} grain sizes need more atom types than maxTypes (${s.maxTypes}): LAMMPS ` +
          "damps each type with its " +
          'mean mass (dampingMode: "mass-scaled" needs no size types)',
      );
    }
  }
  if (keys.size > 64) {
    throw new RangeError(
      `${w}: ${keys.size} combinations of material id and fixed flag exceed 64 atom types`,
    );
  }
  // Order types: mobile first, then by material id (deterministic).
  const classes: (TypeClass & { key: string })[] = [];
  const sum = new Map<string, { r: number; m: number; c: number; i: number }>();
  for (let i = 0; i < n; i++) {
    const k = keyOf(i);
    const e = sum.get(k);
    if (e) e.r += rad[i], e.m += mass[i], e.c++;
    else sum.set(k, { r: rad[i], m: mass[i], c: 1, i });
  }
  for (const [key, e] of sum) {
    const sized = exactSize && (hertz || !fixed[e.i]);
    classes.push({
      key,
      materialId: mids[e.i],
      fixed: fixed[e.i] !== 0,
      radius: sized ? rad[e.i] : e.r / e.c,
      mass: sized ? mass[e.i] : e.m / e.c,
      exactSize: sized,
      count: e.c,
    });
  }
  classes.sort((a, b) =>
    Number(a.fixed) - Number(b.fixed) || a.materialId - b.materialId || a.radius - b.radius
  );
  const typeOf = new Map(classes.map((c, k) => [c.key, k + 1]));
  const T = classes.length;

  // ---- coefficients ----------------------------------------------------------------------
  const meanRadius = rad.reduce((a, b) => a + b, 0) / n;
  const dRef = s.hertzRef ?? 0.01 * meanRadius;
  if (hertz) {
    notes.push(
      "Hertz law: LAMMPS's gran/hertz/history scales the damping and the tangential " +
        `stiffness with √(R_eff·δ); they match Grainlab's at the overlap ${fmt(dRef)} m only`,
    );
  }
  const coeffs = (me: number, reff: number, mu: number): Coeffs => {
    const cn = contactDamping(law, coef, me, reff, dRef);
    const ctc = ctScaled ? ct * me : ct;
    const poly = hertz ? Math.sqrt(reff * dRef) : 1;
    // Mass-scaled rates are LAMMPS's γ as they are (no round trip through m_eff).
    const gn = law === DampingLaw.massScaled ? coef / poly : cn / (me * poly);
    const gt = ctScaled ? ct / poly : ctc / (me * poly);
    return [kn, kt / poly, gn, gt, mu, gt > 0 ? 1 : 0];
  };
  const mix = (a: number, b: number) => (a === b ? a : Math.sqrt(a * b));
  const pairCoeffs: (Coeffs | null)[][] = [];
  for (let a = 0; a < T; a++) {
    pairCoeffs.push([]);
    for (let b = 0; b < T; b++) {
      const A = classes[a], B = classes[b];
      if (A.fixed && B.fixed) {
        pairCoeffs[a].push(null);
        continue;
      }
      const me = A.fixed ? B.mass : B.fixed ? A.mass : (A.mass * B.mass) / (A.mass + B.mass);
      const reff = (A.radius * B.radius) / (A.radius + B.radius);
      pairCoeffs[a].push(coeffs(me, reff, mix(friction(A.materialId), friction(B.materialId))));
    }
  }
  const bf = sys.boundaryMaterial.friction;
  const wallCoeffs = classes.map((c) =>
    c.fixed ? null : coeffs(c.mass, c.radius, mix(friction(c.materialId), bf))
  );

  // ---- boundaries and box ----------------------------------------------------------------
  const per = sys.periodicBoundary;
  const ground = sys.groundPlane, box = sys.containerBox;
  const periodicAxis = per ? [per.x, per.y, per.z] : [false, false, false];
  if (box && (periodicAxis[0] || periodicAxis[1] || periodicAxis[2])) {
    const axes = ["x", "y", "z"].filter((_, k) =>
      periodicAxis[k] && (k < 2 || box.min[2] !== ground)
    );
    if (axes.length > 0) {
      throw new RangeError(
        `${w}: the container has walls on the periodic ${axes.join(", ")} axis; LAMMPS ` +
          "cannot put walls in a periodic dimension",
      );
    }
  }
  if (ground !== null && periodicAxis[2]) {
    throw new RangeError(`${w}: a ground plane on a periodic z axis cannot be exported`);
  }
  const lo = [Infinity, Infinity, Infinity], hi = [-Infinity, -Infinity, -Infinity];
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < 3; k++) {
      lo[k] = Math.min(lo[k], pos[3 * i + k] - rad[i]);
      hi[k] = Math.max(hi[k], pos[3 * i + k] + rad[i]);
    }
  }
  if (ground !== null) lo[2] = Math.min(lo[2], ground), hi[2] = Math.max(hi[2], ground);
  if (box) {
    // The side walls and the floor, not the open top: a tall box would put every grain on
    // the lower ranks (LAMMPS splits the box evenly; shrink-wrapping grows it when needed).
    for (let k = 0; k < 2; k++) {
      lo[k] = Math.min(lo[k], box.min[k]);
      hi[k] = Math.max(hi[k], box.max[k]);
    }
    lo[2] = Math.min(lo[2], box.min[2]);
  }
  const flags: string[] = [];
  const wrapped = new Float64Array(pos);
  for (let k = 0; k < 3; k++) {
    if (per && periodicAxis[k]) {
      lo[k] = per.min[k], hi[k] = per.max[k];
      flags.push("p");
      const L = hi[k] - lo[k];
      for (let i = 0; i < n; i++) {
        let x = wrapped[3 * i + k];
        x -= L * Math.floor((x - lo[k]) / L);
        if (x >= hi[k]) x -= L;
        wrapped[3 * i + k] = x;
      }
    } else {
      const pad = 0.05 * Math.max(hi[k] - lo[k], 2 * meanRadius);
      lo[k] -= pad, hi[k] += pad;
      flags.push("m");
    }
  }

  // ---- time ------------------------------------------------------------------------------
  const sub = m.substeps;
  const dtL = world.timeStep / sub;
  const stepsL = s.steps * sub, everyL = s.every * sub;
  const timesteps: number[] = [];
  for (let t = 0; t <= stepsL; t += everyL) timesteps.push(t);
  const tail = timesteps[timesteps.length - 1] !== stepsL;
  if (tail) timesteps.push(stepsL);
  const g = world.gravity, gmag = Math.hypot(g[0], g[1], g[2]);
  const skin = s.skin ?? Math.max(sys.neighborSkin, 0.4 * rad.reduce((a, b) => Math.max(a, b), 0));

  // ---- the data file ---------------------------------------------------------------------
  const dataLines: string[] = [
    `Grainlab ${VERSION} scene: ${n} grains (exportLammps)`,
    "",
    `${n} atoms`,
    `${T} atom types`,
    "",
    `${fmt(lo[0])} ${fmt(hi[0])} xlo xhi`,
    `${fmt(lo[1])} ${fmt(hi[1])} ylo yhi`,
    `${fmt(lo[2])} ${fmt(hi[2])} zlo zhi`,
    "",
    "Atoms # sphere",
    "",
  ];
  for (let i = 0; i < n; i++) {
    const o = 3 * i;
    dataLines.push(
      `${ids[i] + 1} ${typeOf.get(keyOf(i))} ${fmt(2 * rad[i])} ${fmt(m.density)} ` +
        `${fmt(wrapped[o])} ${fmt(wrapped[o + 1])} ${fmt(wrapped[o + 2])}`,
    );
  }
  dataLines.push("", "Velocities", "");
  for (let i = 0; i < n; i++) {
    const o = 3 * i;
    dataLines.push(
      `${ids[i] + 1} ${fmt(vel[o])} ${fmt(vel[o + 1])} ${fmt(vel[o + 2])} ` +
        `${fmt(ang[o])} ${fmt(ang[o + 1])} ${fmt(ang[o + 2])}`,
    );
  }

  // ---- the input script ------------------------------------------------------------------
  const style = hertz ? "gran/hertz/history" : "gran/hooke/history";
  const wallStyle = hertz ? "hertz/history" : "hooke/history";
  const limit = clamp ? " limit_damping" : "";
  const args = (c: Coeffs) => `${c.slice(0, 5).map(fmt).join(" ")} ${c[5]}${limit}`;
  const mobileTypes = classes.map((c, k) => (c.fixed ? 0 : k + 1)).filter((t) => t > 0);
  const fixedTypes = classes.map((c, k) => (c.fixed ? k + 1 : 0)).filter((t) => t > 0);
  const exact = notes.length === 0;
  const L: string[] = [
    `# Grainlab ${VERSION} → LAMMPS: ${n} grains, ${s.steps} world steps of ${
      fmt(world.timeStep)
    } s (${sub} substep${sub > 1 ? "s" : ""} each), dump every ${s.every} world steps.`,
    `# Written by exportLammps. LAMMPS atom id = Grainlab stable id + 1.`,
    exact
      ? "# Exact: LAMMPS runs Grainlab's contact law and scene."
      : "# Differences from the Grainlab run:",
    ...notes.map((t) => `#  - ${t}`),
    "# Types: " +
    classes.map((c, k) =>
      `${k + 1} = material ${c.materialId}${c.fixed ? " fixed" : ""}${
        c.exactSize ? ` r ${fmt(c.radius)}` : ""
      } (${c.count})`
    ).join(", "),
    "",
    "units si",
    "dimension 3",
    "atom_style sphere",
    `boundary ${flags.join(" ")}`,
    "newton off",
    "comm_modify vel yes",
    `read_data ${FILES.data}`,
    `group mobile type ${mobileTypes.join(" ")}`,
  ];
  if (fixedTypes.length > 0) L.push(`group fixed type ${fixedTypes.join(" ")}`);
  // Pair coefficients: one style instance per distinct set.
  const sets: string[] = [];
  const setOf: number[][] = [];
  for (let a = 0; a < T; a++) {
    setOf.push([]);
    for (let b = 0; b < T; b++) {
      const c = pairCoeffs[a][b];
      if (c === null) {
        setOf[a].push(-1);
        continue;
      }
      const key = args(c);
      let k = sets.indexOf(key);
      if (k < 0) k = sets.push(key) - 1;
      setOf[a].push(k);
    }
  }
  if (sets.length === 1) {
    L.push(`pair_style ${style} ${sets[0]}`, "pair_coeff * *");
  } else {
    L.push(`pair_style hybrid ${sets.map((a) => `${style} ${a}`).join(" ")}`);
    for (let a = 0; a < T; a++) {
      for (let b = a; b < T; b++) {
        const k = setOf[a][b];
        L.push(
          k < 0
            ? `pair_coeff ${a + 1} ${b + 1} none`
            : `pair_coeff ${a + 1} ${b + 1} ${style} ${k + 1}`,
        );
      }
    }
  }
  for (let a = 0; a < fixedTypes.length; a++) {
    for (let b = a; b < fixedTypes.length; b++) {
      L.push(`neigh_modify exclude type ${fixedTypes[a]} ${fixedTypes[b]}`);
    }
  }
  L.push(
    `neighbor ${fmt(skin)} bin`,
    "neigh_modify delay 0 every 1 check yes",
    `timestep ${fmt(dtL)}`,
  );
  if (gmag > 0) {
    L.push(
      `fix grav mobile gravity ${fmt(gmag)} vector ${fmt(g[0] / gmag)} ${fmt(g[1] / gmag)} ${
        fmt(g[2] / gmag)
      }`,
    );
  }
  L.push(
    "fix integ mobile nve/sphere",
    // Keep the ranks' shares of grains even as the bed moves (no effect on one rank).
    "fix balance all balance 1000 1.1 shift xyz 10 1.05",
  );
  if (fixedTypes.length > 0) L.push("fix frz fixed freeze");
  // Walls: one set of fixes per distinct coefficient set of the mobile types.
  const planes: string[] = [];
  if (ground !== null) planes.push(`zplane ${fmt(ground)} NULL`);
  if (box) {
    if (box.min[2] !== ground) planes.push(`zplane ${fmt(box.min[2])} NULL`);
    planes.push(`xplane ${fmt(box.min[0])} ${fmt(box.max[0])}`);
    planes.push(`yplane ${fmt(box.min[1])} ${fmt(box.max[1])}`);
  }
  if (planes.length > 0) {
    const wallSets = new Map<string, number[]>();
    for (const t of mobileTypes) {
      const key = args(wallCoeffs[t - 1]!);
      wallSets.set(key, [...(wallSets.get(key) ?? []), t]);
    }
    let wk = 0;
    for (const [key, types] of wallSets) {
      let group = "mobile";
      if (wallSets.size > 1) {
        group = `walls${++wk}`;
        L.push(`group ${group} type ${types.join(" ")}`);
      }
      planes.forEach((p, k) =>
        L.push(`fix wall${wk}_${k + 1} ${group} wall/gran ${wallStyle} ${key} ${p}`)
      );
    }
  }
  const cols = LAMMPS_DUMP_COLUMNS.join(" ");
  L.push(
    `dump grains all custom ${everyL} ${FILES.dump} ${cols}`,
    "dump_modify grains sort id format float %.17g",
    "thermo_style custom step atoms ke",
    `thermo ${everyL}`,
    `run ${stepsL}`,
  );
  if (tail) {
    L.push(
      `write_dump all custom ${FILES.dump} ${cols} modify append yes sort id format float %.17g`,
    );
  }
  const path = (f: string) => `${dir.replace(/\/+$/, "")}/${f}`;
  return {
    text: { data: dataLines.join("\n") + "\n", input: L.join("\n") + "\n" },
    exp: {
      dir,
      inputFile: path(FILES.input),
      dataFile: path(FILES.data),
      dumpFile: path(FILES.dump),
      logFile: path(FILES.log),
      atoms: n,
      timeStep: dtL,
      steps: stepsL,
      timesteps,
      startTime: world.time,
      boundary: flags,
      columns: [...LAMMPS_DUMP_COLUMNS],
      types: classes.map((c, k) => ({
        type: k + 1,
        materialId: c.materialId,
        fixed: c.fixed,
        radius: c.exactSize ? c.radius : null,
        count: c.count,
      })),
      material: m,
      exact,
      notes,
    },
  };
}

function hasPlanes(sys: GranularSystem): boolean {
  return sys.groundPlane !== null || sys.containerBox !== null;
}

/** A number as LAMMPS reads it back to the same double (shortest round-trip form). */
function fmt(x: number): string {
  return Object.is(x, -0) ? "0" : String(x);
}

/** Options of {@link runLammps}. */
export interface RunLammpsOptions {
  /** MPI ranks; 1 runs `lmp` directly, more run it under `mpirun -np ranks`. @default 1 */
  ranks?: number;
  /** The LAMMPS executable. @default "lmp" */
  lmp?: string;
  /**
   * The MPI launcher and its options before `-np`.
   * @default ["mpirun", "--allow-run-as-root"] (Open MPI; the flag lets containers run as root)
   */
  mpirun?: string[];
}

const RUN_KEYS: readonly string[] = ["ranks", "lmp", "mpirun"];

/** What {@link runLammps} measured. */
export interface LammpsRun {
  /** Wall-clock seconds of the whole command. */
  seconds: number;
  /** LAMMPS's own "Loop time" of the run (s), when it printed one. */
  loopSeconds: number | null;
  /** The command line that ran. */
  command: string[];
}

/**
 * The command line that runs an export: `lmp -in in.grainlab -log log.lammps -screen none`,
 * under `mpirun --allow-run-as-root -np N` when `ranks > 1`. Run it in `exported.dir`.
 *
 * @example
 * ```ts
 * import { lammpsCommand } from "@grainlab/grainlab/io";
 * import { expect } from "expect";
 * expect(lammpsCommand({ ranks: 2 }).slice(0, 4)).toEqual(["mpirun", "--allow-run-as-root", "-np", "2"]);
 * expect(lammpsCommand()[0]).toBe("lmp");
 * ```
 */
export function lammpsCommand(options: RunLammpsOptions = {}): string[] {
  const w = "lammpsCommand";
  const o = checkOptions<RunLammpsOptions>(w, "options", options, RUN_KEYS);
  const ranks = integerIn(w, "ranks", o.ranks ?? 1, 1, 4096);
  const lmp = o.lmp ?? "lmp";
  const run = [lmp, "-in", FILES.input, "-log", FILES.log, "-screen", "none", "-nocite"];
  if (ranks === 1) return run;
  return [...(o.mpirun ?? ["mpirun", "--allow-run-as-root"]), "-np", String(ranks), ...run];
}

/**
 * Run an export in its folder (a subprocess: `lmp`, or `mpirun … lmp` for several ranks) and
 * wait for it. Throws with the end of LAMMPS's log when the run fails.
 *
 * @param exported what {@link exportLammps} returned
 * @param options ranks and executables
 * @example
 * ```ts
 * import { exportLammps, runLammps } from "@grainlab/grainlab/io";
 * import { World } from "@grainlab/grainlab/sphere3d";
 * import { expect } from "expect";
 * const world = new World();
 * world.addGranularParticles({ positions: [[0, 0, 0.1]], radii: 0.01 });
 * const exp = await exportLammps(await Deno.makeTempDir(), world, { steps: 100 });
 * // With LAMMPS installed: const run = await runLammps(exp, { ranks: 2 }), then
 * // readLammpsDump(exp.dumpFile, { expect: exp }). A missing executable is named:
 * await expect(runLammps(exp, { lmp: "no-such-lmp" })).rejects.toThrow(/cannot start no-such-lmp/);
 * ```
 */
export async function runLammps(
  exported: LammpsExport,
  options: RunLammpsOptions = {},
): Promise<LammpsRun> {
  const cmd = lammpsCommand(options);
  const t0 = performance.now();
  let out: Deno.CommandOutput;
  try {
    out = await new Deno.Command(cmd[0], {
      args: cmd.slice(1),
      cwd: exported.dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
  } catch (e) {
    throw new Error(`runLammps: cannot start ${cmd[0]} (${(e as Error).message})`, { cause: e });
  }
  const seconds = (performance.now() - t0) / 1000;
  let log = "";
  try {
    log = await Deno.readTextFile(exported.logFile);
  } catch {
    // no log: LAMMPS did not start
  }
  if (!out.success) {
    const err = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    throw new Error(
      `runLammps: ${cmd.join(" ")} failed (exit ${out.code}): ${
        (log.slice(-1500) + "\n" + err.slice(-1500)).trim()
      }`,
    );
  }
  const loops = [...log.matchAll(/Loop time of ([\d.eE+-]+) on/g)];
  return {
    seconds,
    loopSeconds: loops.length > 0 ? Number(loops[loops.length - 1][1]) : null,
    command: cmd,
  };
}

/**
 * True when an executable can be started (`lmp`, `mpirun`): `cmd -h` runs.
 *
 * @example
 * ```ts
 * import { canRun } from "@grainlab/grainlab/io";
 * import { expect } from "expect";
 * expect(canRun("a-command-that-does-not-exist")).toBe(false);
 * ```
 */
export function canRun(cmd: string): boolean {
  try {
    new Deno.Command(cmd, { args: ["-h"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

export {
  lammpsDumpFrames,
  lammpsFrameTable,
  loadLammpsFrame,
  parseLammpsDump,
  parseLammpsDumpBytes,
  readLammpsDump,
} from "./lammps_dump.ts";
export type {
  LammpsDump,
  LammpsDumpExpectation,
  LammpsDumpOptions,
  LammpsDumpStreamOptions,
  LammpsFrame,
  LoadLammpsFrameOptions,
} from "./lammps_dump.ts";
