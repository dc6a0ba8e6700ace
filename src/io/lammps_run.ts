/**
 * Running an export: {@link runLammps} (`lmp`, or `mpirun -np N lmp`, in the export folder),
 * the command line it uses ({@link lammpsCommand}) and {@link canRun} (is an executable there).
 *
 * @module
 */
import type { LammpsExport } from "./lammps_types.ts";
import { FILES } from "./lammps_script.ts";
import { integerIn, options as checkOptions } from "../math/validate.ts";

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
 * import { lammpsCommand } from "./lammps_run.ts";
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
 * import { lammps } from "@grainlab/grainlab/io";
 * const { exportLammps, runLammps } = lammps;
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
  if (
    exported === null || typeof exported !== "object" || typeof exported.dir !== "string" ||
    typeof exported.logFile !== "string"
  ) {
    throw new TypeError(
      `runLammps: exported (${String(exported)}) must be the record exportLammps returned`,
    );
  }
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
 * import { lammps } from "@grainlab/grainlab/io";
 * const { canRun } = lammps;
 * import { expect } from "expect";
 * expect(canRun("a-command-that-does-not-exist")).toBe(false);
 * ```
 */
export function canRun(cmd: string): boolean {
  if (typeof cmd !== "string" || cmd.length === 0) {
    throw new TypeError(`canRun: cmd (${String(cmd)}) must be a non-empty string`);
  }
  try {
    new Deno.Command(cmd, { args: ["-h"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}
