/**
 * Executes every notebook in `notebooks/` headless with Jupyter (`jupyter-nbconvert --execute`
 * on the Deno kernel) and fails when any cell fails. By default the executed copies go to a
 * temporary folder, leaving the committed notebooks untouched; `--inplace` writes the fresh
 * outputs back into `notebooks/` (do that before committing a changed notebook).
 *
 * Usage: `deno run -A scripts/notebooks.ts [--inplace] [name-filter…]`
 * Needs `scripts/setup_jupyter.sh` (Debian jupyter-nbconvert, python3-nbclient, the Deno kernel).
 *
 * Prints one line per notebook and a last line `notebooks: N passed, N failed`.
 *
 * @module
 */

const args = Deno.args.filter((a) => !a.startsWith("--"));
const inplace = Deno.args.includes("--inplace");
const timeout = Number(Deno.env.get("NOTEBOOK_TIMEOUT") ?? 900);
const root = new URL("..", import.meta.url).pathname;
const dir = `${root}notebooks`;

const notebooks = [...Deno.readDirSync(dir)]
  .filter((e) => e.isFile && e.name.endsWith(".ipynb") && !e.name.startsWith("_"))
  .map((e) => e.name)
  .filter((n) => args.length === 0 || args.some((a) => n.includes(a)))
  .sort();

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
for (const nb of notebooks) {
  const t0 = performance.now();
  const r = await new Deno.Command("jupyter-nbconvert", {
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
  const secs = ((performance.now() - t0) / 1000).toFixed(1);
  const errors = r.success ? cellErrors(`${outDir}/${nb}`) : [];
  if (r.success && errors.length === 0) {
    passed++;
    console.log(`ok     ${nb} (${secs} s)`);
  } else {
    failed++;
    console.log(`FAILED ${nb} (${secs} s)`);
    const text = new TextDecoder().decode(r.stderr);
    console.log(errors.join("\n") || text.split("\n").slice(-40).join("\n"));
  }
}
if (!inplace) await Deno.remove(outDir, { recursive: true }).catch(() => {});
console.log(`notebooks: ${passed} passed, ${failed} failed`);
if (failed > 0 || notebooks.length === 0) Deno.exit(1);

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
