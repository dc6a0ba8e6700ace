/**
 * Import cycles in `src/`: the strongly connected groups of the module graph that
 * `deno info --json` reports for every file under `src/`, once counting only the imports that
 * load code (`import … from`, dynamic `import()`), once counting `import type` too.
 * `deno run -A scripts/import_cycles.ts` prints both; tests/import_cycles_test.ts holds them
 * to zero (code) and to a known, shrinking list (types).
 *
 * @module
 */

/** One cycle: the files of a strongly connected group, relative to the repository root. */
export type Cycle = string[];

/** The cycles of the code imports and of all imports (types included). */
export interface CycleReport {
  /** Number of modules under `src/` in the graph. */
  modules: number;
  /** Groups joined by imports that load code. */
  code: Cycle[];
  /** Groups joined by any import, `import type` included. */
  all: Cycle[];
}

interface InfoModule {
  specifier: string;
  dependencies?: {
    code?: { specifier: string };
    type?: { specifier: string };
  }[];
}

function walk(dir: string, out: string[]): string[] {
  for (const e of Deno.readDirSync(dir)) {
    const p = `${dir}/${e.name}`;
    if (e.isDirectory) walk(p, out);
    else if (e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

/** Tarjan's strongly connected components of groups larger than one module. */
function components(g: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>(), low = new Map<string, number>();
  const stack: string[] = [], onStack = new Set<string>(), out: string[][] = [];
  const visit = (v: string): void => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of g.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) === index.get(v)) {
      const c: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        c.push(w);
      } while (w !== v);
      if (c.length > 1) out.push(c);
    }
  };
  for (const v of [...g.keys()].sort()) if (!index.has(v)) visit(v);
  return out;
}

/**
 * The import cycles of `root/src` (root: the repository folder).
 *
 * @example
 * ```ts
 * import { importCycles } from "./import_cycles.ts";
 * import { expect } from "expect";
 * const r = await importCycles(".");
 * expect(r.modules).toBeGreaterThan(100);
 * expect(r.code).toEqual([]);
 * ```
 */
export async function importCycles(root: string): Promise<CycleReport> {
  const abs = await Deno.realPath(root);
  const files = walk(`${abs}/src`, []).sort();
  const dir = await Deno.makeTempDir();
  try {
    const probe = `${dir}/all.ts`;
    await Deno.writeTextFile(probe, files.map((f) => `import "file://${f}";\n`).join(""));
    const out = await new Deno.Command(Deno.execPath(), {
      args: ["info", "--json", "--config", `${abs}/deno.json`, probe],
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) throw new Error(`deno info failed: ${new TextDecoder().decode(out.stderr)}`);
    const info = JSON.parse(new TextDecoder().decode(out.stdout)) as { modules: InfoModule[] };
    const prefix = `file://${abs}/`;
    const code = new Map<string, string[]>(), all = new Map<string, string[]>();
    for (const m of info.modules) {
      if (!m.specifier.startsWith(`${prefix}src/`)) continue;
      const name = m.specifier.slice(prefix.length);
      const c: string[] = [], a: string[] = [];
      for (const d of m.dependencies ?? []) {
        for (const [s, list] of [[d.code?.specifier, c], [d.type?.specifier, a]] as const) {
          if (s?.startsWith(`${prefix}src/`)) list.push(s.slice(prefix.length));
        }
      }
      code.set(name, c);
      all.set(name, [...c, ...a]);
    }
    const sorted = (cs: string[][]) =>
      cs.map((c) => c.sort()).sort((x, y) => (x[0] < y[0] ? -1 : 1));
    return { modules: code.size, code: sorted(components(code)), all: sorted(components(all)) };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const r = await importCycles(".");
  console.log(`${r.modules} modules under src/`);
  console.log(`code import cycles: ${r.code.length}`);
  for (const c of r.code) console.log(`  ${c.join("  ")}`);
  console.log(`cycles counting import type: ${r.all.length}`);
  for (const c of r.all) console.log(`  ${c.join("  ")}`);
}
