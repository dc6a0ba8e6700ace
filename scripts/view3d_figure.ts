/**
 * Screenshots of the notebooks' 3D views for the README: for each notebook with a cell tagged
 * `readme-view3d`, renders the notebook with `jupyter nbconvert --to html`, opens it in headless
 * Chromium (WebGL on SwiftShader) and writes the view of that cell to
 * `notebooks/figures/<notebook>_view3d.png`.
 *
 * Usage: `deno run -A scripts/view3d_figure.ts [name-filter…]` after refreshing the notebooks
 * (`deno run -A scripts/notebooks.ts --inplace --figures`). Needs `chromium` and
 * `jupyter-nbconvert`.
 *
 * @module
 */
import { canRun, Chromium } from "./chromium.ts";

const root = new URL("..", import.meta.url).pathname;
const dir = `${root}notebooks`;
const filters = Deno.args.filter((a) => !a.startsWith("--"));

for (const cmd of ["chromium", "jupyter-nbconvert"]) {
  if (!canRun(cmd)) {
    console.error(`view3d_figure: ${cmd} is not installed`);
    Deno.exit(1);
  }
}

const tagged = [...Deno.readDirSync(dir)]
  .map((e) => e.name)
  .filter((n) =>
    n.endsWith(".ipynb") && (filters.length === 0 || filters.some((f) => n.includes(f)))
  )
  .sort()
  .filter((n) => {
    const nb = JSON.parse(Deno.readTextFileSync(`${dir}/${n}`)) as {
      cells: { metadata?: { tags?: string[] } }[];
    };
    return nb.cells.some((c) => c.metadata?.tags?.includes("readme-view3d"));
  });
if (tagged.length === 0) {
  console.log("view3d_figure: no notebook has a cell tagged readme-view3d");
  Deno.exit(0);
}

const tmp = await Deno.makeTempDir({ prefix: "grainlab-view3d-" });
const r = await new Deno.Command("jupyter-nbconvert", {
  args: ["--to", "html", "--output-dir", tmp, ...tagged.map((n) => `${dir}/${n}`)],
  stdout: "null",
  stderr: "piped",
}).output();
if (!r.success) {
  console.error(new TextDecoder().decode(r.stderr));
  Deno.exit(1);
}
const browser = await Chromium.launch({ width: 1000, height: 800 });
try {
  for (const n of tagged) {
    const page = await browser.open(`file://${tmp}/${n.replace(/\.ipynb$/, ".html")}`);
    // the tagged cell's view: nbconvert keeps cell tags as classes (celltag_<tag>)
    const sel = `.celltag_readme-view3d .grainlab-view`;
    await page.waitFor(`document.querySelector('${sel}')?.dataset.ready === '1'`, 120_000);
    await page.evaluate(
      `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`,
    );
    const rect = await page.evaluate<{ x: number; y: number; width: number; height: number }>(
      `(() => {
        const e = document.querySelector('${sel}');
        e.scrollIntoView({ block: "center" });
        const r = e.getBoundingClientRect();
        return { x: r.left + scrollX - 4, y: r.top + scrollY - 4, width: r.width + 8, height: r.height + 8 };
      })()`,
    );
    const png = await page.screenshot(rect);
    const out = `${dir}/figures/${n.replace(/\.ipynb$/, "")}_view3d.png`;
    await Deno.mkdir(`${dir}/figures`, { recursive: true });
    await Deno.writeFile(out, png);
    console.log(`${n}: 3D view → ${out.slice(root.length)} (${png.length} bytes)`);
    await page.close();
  }
} finally {
  await browser.close();
  await Deno.remove(tmp, { recursive: true }).catch(() => {});
}
