/**
 * The writing half of {@link exportLammps} (`./lammps.ts`): the box, boundaries and run length,
 * the LAMMPS data file (atoms, types, velocities and spins) and the input script (pair and wall
 * styles, groups, fixes, neighbour settings and the dump), from the coefficients and atom
 * types of `./lammps_convert.ts`. Internal apart from {@link LAMMPS_DUMP_COLUMNS}.
 *
 * @module
 */
import type { World } from "../sphere3d/world.ts";
import type { GranularSystem } from "../sphere3d/granular_system.ts";
import { type Coeffs, convertLaw, type ConvertSettings, fmt } from "./lammps_convert.ts";
import type { LammpsExport } from "./lammps_types.ts";
import { VERSION } from "../version.ts";

/** File names inside the export folder. */
export const FILES = {
  input: "in.grainlab",
  data: "data.grainlab",
  dump: "dump.grainlab.txt",
  log: "log.lammps",
} as const;

/** The dump columns the script asks for, in order. */
export const LAMMPS_DUMP_COLUMNS: readonly string[] =
  "id type radius mass x y z vx vy vz omegax omegay omegaz".split(" ");

/** The validated settings of {@link exportLammps}. */
export interface BuildSettings extends ConvertSettings {
  /** World steps to run. */
  steps: number;
  /** World steps between dumped frames. */
  every: number;
  /** The neighbour skin (m), or the default. */
  skin: number | undefined;
}

/**
 * Build the data file, the script and the export record (no file is written).
 *
 * @param w the caller's name, for error messages
 * @param dir the export folder
 * @param world the world holding the system
 * @param sys the exported system
 * @param s the validated settings
 * @throws {RangeError} on ids beyond LAMMPS's, too many atom types, or walls on periodic axes
 */
export function buildExport(
  w: string,
  dir: string,
  world: World,
  sys: GranularSystem,
  s: BuildSettings,
): { text: { data: string; input: string }; exp: LammpsExport } {
  const m = sys.material;
  const n = sys.count;
  const pos = sys.positions, vel = sys.velocities, ang = sys.angularVelocities;
  const rad = sys.radii;
  const ids = sys.ids;
  const hertz = m.normalContactModel === "hertz";
  const maxId = ids.reduce((a, b) => Math.max(a, b), 0);
  if (maxId + 1 > 2 ** 31 - 1) {
    throw new RangeError(`${w}: stable id ${maxId} exceeds LAMMPS's largest atom id (2^31 − 2)`);
  }
  const { notes, classes, typeOf, keyOf, pairCoeffs, wallCoeffs, meanRadius } = convertLaw(
    w,
    sys,
    m,
    s,
  );
  const clamp = m.clampNormalForce;
  const T = classes.length;

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
