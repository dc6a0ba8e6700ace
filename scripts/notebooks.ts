/**
 * Executes every notebook in `notebooks/` headless with Jupyter (`jupyter-nbconvert --execute`
 * on the Deno kernel) and fails when any cell fails. By default the executed copies go to a
 * temporary folder, leaving the committed notebooks untouched; `--inplace` writes the fresh
 * outputs back into `notebooks/` (do that before committing a changed notebook).
 *
 * With `--figures`, it also writes the first image output of each notebook's cell tagged
 * `readme-figure` to `notebooks/figures/<notebook>.png` (the README's figures).
 *
 * A notebook that runs other programs names them in its metadata (`"grainlab": { "requires":
 * ["lmp", "mpirun"] }`); where one is missing it is skipped with a notice (never in CI).
 *
 * Notebooks run `--jobs=N` at a time (default: two where the machine has two or more cores, one
 * with `--inplace`, so that the timings a committed notebook shows were measured alone). Those
 * that declare themselves long (`"grainlab": { "long": true }` in their metadata) start first,
 * so the longest does not start last.
 *
 * Usage: `deno run -A scripts/notebooks.ts [--inplace] [--figures] [--jobs=N] [name-filter…]`
 * Needs `scripts/setup_jupyter.sh` (Debian jupyter-nbconvert, python3-nbclient, the Deno kernel).
 *
 * Prints one line per notebook and a last line `notebooks: N passed, N failed`.
 *
 * @module
 */

const args = Deno.args.filter((a) => !a.startsWith("--"));
const inplace = Deno.args.includes("--inplace");
const figures = Deno.args.includes("--figures");
const timeout = Number(Deno.env.get("NOTEBOOK_TIMEOUT") ?? 900);
const root = new URL("..", import.meta.url).pathname;
const dir = `${root}notebooks`;

const jobsArg = Deno.args.find((a) => a.startsWith("--jobs="));
const jobs = jobsArg
  ? Number(jobsArg.slice(7))
  : inplace
  ? 1
  : Math.min(2, navigator.hardwareConcurrency);
if (!Number.isInteger(jobs) || jobs < 1) {
  throw new RangeError(`--jobs must be a positive integer, got ${jobsArg}`);
}

const notebooks = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".ipynb") && !e.name.startsWith("_"))
  .map((e) => e.name)
  .filter((n) => args.length === 0 || args.some((a) => n.includes(a)))
  .sort();
// each notebook's metadata.grainlab, read once; long notebooks first (stable otherwise), so
// that one does not start when the others are done
const metas = new Map(notebooks.map((nb) => [nb, meta(nb)]));
const long = (nb: string) => Number(metas.get(nb)!.long === true);
notebooks.sort((a, b) => long(b) - long(a));

async function has(cmd: string): Promise<boolean> {
  try {
    const r = await new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" })
      .output();
    return r.success;
  } catch {
    return false;
  }
}

if (!(await has("jupyter-nbconvert"))) {
  console.error(
    "notebooks: jupyter-nbconvert is not installed; run `bash scripts/setup_jupyter.sh` first",
  );
  console.log(`notebooks: 0 passed, ${notebooks.length || 1} failed`);
  Deno.exit(1);
}

const outDir = inplace ? dir : await Deno.makeTempDir({ prefix: "grainlab-notebooks-" });
let passed = 0, failed = 0;
const queue = [...notebooks];
await Promise.all(Array.from({ length: Math.min(jobs, queue.length) }, async () => {
  for (let nb = queue.shift(); nb !== undefined; nb = queue.shift()) await runOne(nb);
}));
if (!inplace) await Deno.remove(outDir, { recursive: true }).catch(() => {});
console.log(`notebooks: ${passed} passed, ${failed} failed`);
if (failed > 0 || notebooks.length === 0) Deno.exit(1);

/** Executes, checks and reports one notebook (and writes its README figure with `--figures`). */
async function runOne(nb: string): Promise<void> {
  const t0 = performance.now();
  // A notebook may name the programs it runs (metadata.grainlab.requires, e.g. LAMMPS): it is
  // left out with a notice where one is missing, except in CI, which installs them all.
  const missingTools = requires(nb).filter((cmd) => !canStart(cmd));
  if (missingTools.length > 0 && Deno.env.get("CI") !== "true") {
    console.log(`skip   ${nb} (needs ${missingTools.join(", ")}, not installed)`);
    return;
  }
  let r = await execute(nb);
  // The Deno kernel occasionally drops a cell's display output; when refreshing the committed
  // notebooks, run again until every displaying cell has its output.
  for (let attempt = 1; inplace && r.success && attempt < 4; attempt++) {
    const missing = missingDisplays(`${outDir}/${nb}`);
    if (missing.length === 0) break;
    console.log(`       ${nb}: no display output in cell(s) ${missing.join(", ")}; running again`);
    r = await execute(nb);
  }
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  const errors = r.success ? cellErrors(`${outDir}/${nb}`) : [];
  if (r.success && errors.length === 0) {
    passed++;
    console.log(`ok     ${nb} (${secs} s)`);
    if (figures) {
      const png = await readmeFigure(`${outDir}/${nb}`);
      if (png) {
        const path = `${dir}/figures/${nb.replace(/\.ipynb$/, ".png")}`;
        await Deno.mkdir(`${dir}/figures`, { recursive: true });
        await Deno.writeFile(path, png);
        console.log(`       figure → notebooks/figures/${nb.replace(/\.ipynb$/, ".png")}`);
      }
    }
  } else {
    failed++;
    console.log(`FAILED ${nb} (${secs} s)`);
    const text = new TextDecoder().decode(r.stderr);
    console.log(errors.join("\n") || text.split("\n").slice(-40).join("\n"));
  }
}

/** Executes one notebook with nbconvert into `outDir`. */
function execute(nb: string): Promise<Deno.CommandOutput> {
  return new Deno.Command("jupyter-nbconvert", {
    args: [
      "--to",
      "notebook",
      "--execute",
      `--ExecutePreprocessor.timeout=${timeout}`,
      "--ExecutePreprocessor.kernel_name=deno",
      ...(inplace ? ["--inplace"] : ["--output-dir", outDir]),
      `${dir}/${nb}`,
    ],
    cwd: dir,
    stdout: "piped",
    stderr: "piped",
    env: { NO_COLOR: "1" },
  }).output();
}

/** Indices of code cells that call `Deno.jupyter.display` but have no display output. */
function missingDisplays(path: string): number[] {
  const nb = JSON.parse(Deno.readTextFileSync(path)) as {
    cells: { cell_type: string; source: string | string[]; outputs?: { output_type: string }[] }[];
  };
  const out: number[] = [];
  nb.cells.forEach((c, k) => {
    const src = Array.isArray(c.source) ? c.source.join("") : c.source;
    if (c.cell_type !== "code" || !src.includes("Deno.jupyter.display(")) return;
    if (!(c.outputs ?? []).some((o) => o.output_type === "display_data")) out.push(k);
  });
  return out;
}

/** Error outputs left in an executed notebook (nbconvert normally stops at the first). */
function cellErrors(path: string): string[] {
  try {
    const nb = JSON.parse(Deno.readTextFileSync(path)) as {
      cells: { outputs?: { output_type: string; ename?: string; evalue?: string }[] }[];
    };
    return nb.cells.flatMap((c, k) =>
      (c.outputs ?? []).filter((o) => o.output_type === "error").map((o) =>
        `cell ${k}: ${o.ename}: ${o.evalue}`
      )
    );
  } catch (e) {
    return [`cannot read ${path}: ${(e as Error).message}`];
  }
}

/** PNG of the first image output of the cell tagged `readme-figure`, if any. */
async function readmeFigure(path: string): Promise<Uint8Array | null> {
  const nb = JSON.parse(await Deno.readTextFile(path)) as {
    cells: {
      metadata?: { tags?: string[] };
      outputs?: { data?: Record<string, string | string[]> }[];
    }[];
  };
  const text = (v: string | string[]) => (Array.isArray(v) ? v.join("") : v);
  for (const c of nb.cells) {
    if (!c.metadata?.tags?.includes("readme-figure")) continue;
    for (const o of c.outputs ?? []) {
      const d = o.data ?? {};
      // a figure shown as an SVG <img> (with a PNG fallback): rasterise the SVG, sharper
      const svgImg = text(d["text/html"] ?? "").match(
        /^<img [^>]*src="data:image\/svg\+xml;base64,([^"]+)"/,
      );
      if (svgImg) {
        const { svgToPNG } = await import("../src/plot/png.ts");
        const svg = new TextDecoder().decode(
          Uint8Array.from(atob(svgImg[1]), (ch) => ch.charCodeAt(0)),
        );
        return svgToPNG(svg, { scale: 1.5 });
      }
      if (d["image/png"]) {
        return Uint8Array.from(
          atob(text(d["image/png"]).replace(/\s/g, "")),
          (ch) => ch.charCodeAt(0),
        );
      }
      if (d["image/svg+xml"]) {
        const { svgToPNG } = await import("../src/plot/png.ts");
        return svgToPNG(text(d["image/svg+xml"]), { scale: 1.5 });
      }
    }
  }
  return null;
}

/** A notebook's `metadata.grainlab` object (empty when it has none). */
function meta(nb: string): Record<string, unknown> {
  const m = JSON.parse(Deno.readTextFileSync(`${dir}/${nb}`)).metadata?.grainlab;
  return typeof m === "object" && m !== null ? m : {};
}

/** The programs a notebook declares it needs (`metadata.grainlab.requires`). */
function requires(nb: string): string[] {
  const r = metas.get(nb)!.requires;
  return Array.isArray(r) ? r.filter((c: unknown): c is string => typeof c === "string") : [];
}

/** True when `cmd` can be started. */
function canStart(cmd: string): boolean {
  try {
    new Deno.Command(cmd, { args: ["--version"], stdout: "null", stderr: "null" }).outputSync();
    return true;
  } catch {
    return false;
  }
}
