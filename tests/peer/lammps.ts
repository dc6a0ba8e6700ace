/**
 * Helpers to run LAMMPS (Debian's `lmp`) as a peer for cross-checks. LAMMPS is never a
 * runtime dependency of Grainlab: only tests and benchmarks call it.
 *
 * @module
 */

/** True when the `lmp` executable can be started. */
export function hasLammps(): boolean {
  try {
    new Deno.Command("lmp", { args: ["-h"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}

/** One atom of a LAMMPS dump: id, position, velocity, angular velocity. */
export interface DumpAtom {
  /** LAMMPS atom id (1-based, in creation order). */
  id: number;
  /** Position (m). */
  x: [number, number, number];
  /** Velocity (m/s). */
  v: [number, number, number];
  /** Angular velocity (rad/s). */
  w: [number, number, number];
}

/**
 * Run a LAMMPS input script in a temporary folder. The script must end with a
 * `write_dump all custom dump.txt id x y z vx vy vz omegax omegay omegaz` line (or a dump of
 * those columns to `dump.txt`); returns its atoms sorted by id.
 */
export async function runLammps(input: string): Promise<DumpAtom[]> {
  const dir = await Deno.makeTempDir({ prefix: "grainlab_peer_" });
  try {
    await Deno.writeTextFile(`${dir}/in.peer`, input);
    const out = await new Deno.Command("lmp", {
      args: ["-in", "in.peer", "-log", "none", "-screen", "none"],
      cwd: dir,
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      throw new Error(`LAMMPS failed: ${new TextDecoder().decode(out.stderr).slice(-800)}`);
    }
    const text = await Deno.readTextFile(`${dir}/dump.txt`);
    const lines = text.split("\n");
    const start = lines.findIndex((l) => l.startsWith("ITEM: ATOMS"));
    const atoms: DumpAtom[] = [];
    for (const l of lines.slice(start + 1)) {
      const f = l.trim().split(/\s+/).map(Number);
      if (f.length < 10) continue;
      atoms.push({ id: f[0], x: [f[1], f[2], f[3]], v: [f[4], f[5], f[6]], w: [f[7], f[8], f[9]] });
    }
    return atoms.sort((a, b) => a.id - b.id);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

/** The common head of a granular LAMMPS input in SI units with one sphere type. */
export function lammpsHead(box: readonly number[]): string {
  return [
    "units si",
    "atom_style sphere",
    "atom_modify map array",
    "boundary f f f",
    "newton off",
    "comm_modify vel yes",
    `region box block ${box.join(" ")}`,
    "create_box 1 box",
  ].join("\n");
}
