/**
 * The 3D viewer and the notebooks as a browser shows them: headless Chromium (Debian's
 * `chromium`, WebGL on SwiftShader) opens a standalone viewer page and the notebooks rendered
 * by `jupyter nbconvert --to html`, and the screenshots are checked by their pixels.
 *
 * Needs `chromium` and `jupyter-nbconvert` (CI installs both: .ci/run); elsewhere the test is
 * skipped with a notice when one is missing. With CI=true a missing one fails.
 */
import { after, before, describe, it } from "node:test";
import { expect } from "expect";
import { World } from "../src/sphere3d/mod.ts";
import { ViewRecorder, writeViewer } from "../src/notebook/mod.ts";
import { decodePNG, type RgbaImage } from "../src/notebook/raster.ts";
import { canRun, Chromium, type Page } from "../scripts/chromium.ts";

const ci = Deno.env.get("CI") === "true";
const missing = ["chromium", "jupyter-nbconvert"].filter((c) => !canRun(c));
if (missing.length > 0 && !ci) {
  console.log(
    `note: ${missing.join(" and ")} not found: the browser test is skipped ` +
      `(apt-get install chromium; bash scripts/setup_jupyter.sh)`,
  );
}
const skip = missing.length > 0 && !ci ? `${missing.join(", ")} not installed` : false;
const root = new URL("..", import.meta.url).pathname;

type Rect = { x: number; y: number; width: number; height: number };

/** Fraction of pixels farther than `tol` (max channel difference) from `bg`. */
function coverage(img: RgbaImage, bg: number[], tol = 24): number {
  let n = 0;
  const p = img.pixels;
  for (let i = 0; i < p.length; i += 4) {
    const d = Math.max(
      Math.abs(p[i] - bg[0]),
      Math.abs(p[i + 1] - bg[1]),
      Math.abs(p[i + 2] - bg[2]),
    );
    if (d > tol) n++;
  }
  return n / (img.width * img.height);
}

/** Pixels within `tol` of a colour. */
function pixelsNear(img: RgbaImage, rgb: number[], tol = 8): number {
  let n = 0;
  const p = img.pixels;
  for (let i = 0; i < p.length; i += 4) {
    if (
      Math.abs(p[i] - rgb[0]) <= tol && Math.abs(p[i + 1] - rgb[1]) <= tol &&
      Math.abs(p[i + 2] - rgb[2]) <= tol
    ) n++;
  }
  return n;
}

/** Fraction of pixels that differ by more than `tol` between two same-size images. */
function changed(a: RgbaImage, b: RgbaImage, tol = 24): number {
  expect([a.width, a.height]).toEqual([b.width, b.height]);
  let n = 0;
  for (let i = 0; i < a.pixels.length; i += 4) {
    const d = Math.max(
      Math.abs(a.pixels[i] - b.pixels[i]),
      Math.abs(a.pixels[i + 1] - b.pixels[i + 1]),
      Math.abs(a.pixels[i + 2] - b.pixels[i + 2]),
    );
    if (d > tol) n++;
  }
  return n / (a.width * a.height);
}

const rgbOf = (hex: string) => [0, 2, 4].map((k) => parseInt(hex.slice(k, k + 2), 16));

/** The document rectangle of an element (scrolled into view): the `index`-th match of
 * `selector`, or the match of `inner` inside it. */
async function rectOf(page: Page, selector: string, index = 0, inner = ""): Promise<Rect> {
  return await page.evaluate<Rect>(`(() => {
    let e = document.querySelectorAll(${JSON.stringify(selector)})[${index}];
    if (${JSON.stringify(inner)}) e = e.querySelector(${JSON.stringify(inner)});
    e.scrollIntoView({ block: "center" });
    const r = e.getBoundingClientRect();
    return { x: r.left + scrollX, y: r.top + scrollY, width: r.width, height: r.height };
  })()`);
}

async function shot(page: Page, rect: Rect): Promise<RgbaImage> {
  return decodePNG(await page.screenshot(rect));
}

describe("browser", { skip }, () => {
  let browser: Chromium;
  let dir: string;
  const measured: Record<string, number> = {};

  before(async () => {
    browser = await Chromium.launch({ width: 900, height: 720 });
    dir = await Deno.makeTempDir({ prefix: "grainlab-browser-" });
  });
  after(async () => {
    await browser?.close();
    if (dir) await Deno.remove(dir, { recursive: true }).catch(() => {});
    console.log("browser test measurements:", JSON.stringify(measured));
  });

  it("the standalone viewer draws the grains with WebGL; legend, time slider, colour, force chains and orbit change the picture", async () => {
    // a bed of 720 grains falling into a container: frame 0 is the loose lattice up high,
    // the last frame the heap on the floor
    const world = new World({ timeStep: 2e-4 });
    const g = world.addGranularBox(
      { min: [-0.12, -0.08, 0.1], max: [0.12, 0.08, 0.4], radius: 0.01, spacing: 0.025 },
      { normalStiffness: 5e4, normalDamping: 10, friction: 0.5 },
    );
    g.setGroundPlane(0);
    g.setContainerBox([-0.15, -0.1, 0], [0.15, 0.1, 0.45]);
    const rec = new ViewRecorder();
    rec.record(world);
    for (let k = 0; k < 3; k++) {
      world.run(700);
      rec.record(world);
    }
    const file = `${dir}/viewer.html`;
    await writeViewer(file, rec, {
      color: ["height", "speed"],
      network: true,
      width: 640,
      height: 440,
      scales: { height: { domain: [0, 0.4] } },
    });
    const page = await browser.open(`file://${file}#frame=0`);
    const ready = "document.querySelector('.grainlab-view').dataset";
    await page.waitFor(`${ready}.ready === '1' && ${ready}.frame === '0'`, 60_000);
    expect(await page.evaluate(`${ready}.error ?? null`)).toBeNull();
    // the WebGL canvas is drawn and the still image hidden
    expect(
      await page.evaluate(
        `!!document.querySelector('canvas.glv-canvas') && getComputedStyle(document.querySelector('.glv-poster')).visibility`,
      ),
    ).toBe("hidden");
    const head = await page.evaluate<{ background: string; columns: { lut: string }[] }>(
      `JSON.parse(document.querySelector('.glv-head').textContent)`,
    );
    const stage = await rectOf(page, ".glv-stage");
    const bg = rgbOf(head.background.slice(1));
    const first = await shot(page, stage);
    const cover0 = coverage(first, bg);
    measured.coverageFirst = +cover0.toFixed(3);
    expect(cover0).toBeGreaterThan(0.1); // grains, floor and box, not an empty canvas
    // the legend's extremes (the first and last colour of the scale) are on screen: at the
    // two ends of the colour ramp, and on the grains
    const lut = head.columns[0].lut;
    const lo = rgbOf(lut.slice(0, 6)), hi = rgbOf(lut.slice(-6));
    const ramp = await shot(page, await rectOf(page, ".glv-ramp"));
    const px = (x: number) => {
      const o = 4 * (Math.floor(ramp.height / 2) * ramp.width + x);
      return Array.from(ramp.pixels.subarray(o, o + 3));
    };
    const dist = (a: number[], b: number[]) => Math.max(...a.map((v, k) => Math.abs(v - b[k])));
    measured.rampLowError = dist(px(1), lo);
    measured.rampHighError = dist(px(ramp.width - 2), hi);
    expect(measured.rampLowError).toBeLessThan(12);
    expect(measured.rampHighError).toBeLessThan(12);
    measured.legendLow = pixelsNear(first, lo, 12);
    measured.legendHigh = pixelsNear(first, hi, 12);
    expect(measured.legendLow).toBeGreaterThan(20);
    expect(measured.legendHigh).toBeGreaterThan(20);

    // the time slider: the last frame looks different (the grains have fallen)
    await page.evaluate(`(() => {
      const s = document.querySelector('.glv-slider');
      s.value = s.max;
      s.dispatchEvent(new Event('input'));
    })()`);
    await page.waitFor(`${ready}.frame === '3'`);
    await page.evaluate(
      `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`,
    );
    const last = await shot(page, stage);
    measured.sliderChange = +changed(first, last).toFixed(3);
    expect(measured.sliderChange).toBeGreaterThan(0.05);
    measured.coverageLast = +coverage(last, bg).toFixed(3);
    expect(measured.coverageLast).toBeGreaterThan(0.1);

    // colour by speed: the grains change colour, the legend its title
    await page.evaluate(`(() => {
      const s = document.querySelector('.glv-color');
      s.value = '1';
      s.dispatchEvent(new Event('change'));
    })()`);
    await page.waitFor(`${ready}.column === 'speed'`);
    await page.evaluate(
      `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`,
    );
    expect(await page.evaluate(`document.querySelector('.glv-legend').textContent`)).toContain(
      "speed (m/s)",
    );
    const bySpeed = await shot(page, stage);
    measured.colourChange = +changed(last, bySpeed).toFixed(3);
    expect(measured.colourChange).toBeGreaterThan(0.02);

    // force chains: grains turn translucent, chains appear
    await page.evaluate(`(() => {
      const b = document.querySelector('.glv-forces');
      b.checked = true;
      b.dispatchEvent(new Event('change'));
    })()`);
    await page.waitFor(`${ready}.forces === '1'`);
    await page.evaluate(
      `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`,
    );
    const forces = await shot(page, stage);
    measured.forcesChange = +changed(bySpeed, forces).toFixed(3);
    expect(measured.forcesChange).toBeGreaterThan(0.02);
    const chainRed = [0xb2, 0x18, 0x2b];
    measured.chainPixels = pixelsNear(forces, chainRed, 60);
    expect(measured.chainPixels).toBeGreaterThan(30);

    // orbit: a drag across the canvas turns the scene
    const vp = await page.evaluate<Rect>(`(() => {
      const r = document.querySelector('.glv-stage').getBoundingClientRect();
      return { x: r.left, y: r.top, width: r.width, height: r.height };
    })()`);
    const cx = vp.x + vp.width / 2, cy = vp.y + vp.height / 2;
    await page.mouse("mousePressed", cx, cy);
    for (let k = 1; k <= 5; k++) await page.mouse("mouseMoved", cx + 30 * k, cy + 6 * k);
    await page.mouse("mouseReleased", cx + 150, cy + 30);
    await page.evaluate(
      `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`,
    );
    const turned = await shot(page, stage);
    measured.orbitChange = +changed(forces, turned).toFixed(3);
    expect(measured.orbitChange).toBeGreaterThan(0.05);
    // zoom: the wheel brings the grains closer, so they cover more of the canvas
    await page.wheel(cx, cy, -400);
    await page.evaluate(
      `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`,
    );
    const zoomed = await shot(page, stage);
    measured.zoomCoverage = +coverage(zoomed, bg).toFixed(3);
    expect(measured.zoomCoverage).toBeGreaterThan(coverage(turned, bg) + 0.05);
    // play: the frames advance by themselves (and wrap around after the last)
    await page.evaluate(`document.querySelector('.glv-play').click()`);
    await page.waitFor(`${ready}.frame === '0'`, 10_000);
    await page.waitFor(`${ready}.frame === '1'`, 10_000);
    await page.evaluate(`document.querySelector('.glv-play').click()`);
    expect(await page.evaluate(`document.querySelector('.glv-play').textContent`)).toBe("▶");
    await page.close();
  });

  it("rigid bodies: a kinematic box and a static cylinder are drawn in their colours; the time slider moves the box", async () => {
    const world = await World.create({ timeStep: 2e-4 });
    const g = world.addGranularBox(
      { min: [-0.1, -0.05, 0.01], max: [0.1, 0.05, 0.04], radius: 0.01, spacing: 0.022 },
      { normalStiffness: 5e4, normalDamping: 10, friction: 0.5 },
    );
    g.setGroundPlane(0);
    const v = 0.6;
    world.addBox({
      halfExtents: [0.03, 0.03, 0.015],
      position: [-0.07, 0, 0.12],
      bodyType: "kinematic",
      linearVelocity: [v, 0, 0],
    });
    world.addCylinder({
      radius: 0.025,
      halfHeight: 0.04,
      position: [0.1, 0.06, 0.09],
      bodyType: "static",
    });
    const rec = new ViewRecorder();
    rec.record(world);
    world.run(1000); // 0.2 s: the box moves 0.12 m along x
    rec.record(world);
    const file = `${dir}/bodies.html`;
    await writeViewer(file, rec, {
      width: 480,
      height: 360,
      poster: false,
      bodies: { opacity: 1, colors: { static: "#ff7f00" } },
    });
    const page = await browser.open(`file://${file}#frame=0`);
    const ready = "document.querySelector('.grainlab-view').dataset";
    await page.waitFor(`${ready}.ready === '1' && ${ready}.frame === '0'`, 60_000);
    expect(await page.evaluate(`${ready}.error ?? null`)).toBeNull();
    const stage = await rectOf(page, ".glv-stage");
    // pixels of a colour: the pink of kinematic bodies (shaded), the orange asked for static
    const find = (img: RgbaImage, test: (r: number, g: number, b: number) => boolean) => {
      let n = 0, sx = 0;
      for (let i = 0; i < img.pixels.length; i += 4) {
        if (test(img.pixels[i], img.pixels[i + 1], img.pixels[i + 2])) {
          n++;
          sx += (i / 4) % img.width;
        }
      }
      return { n, x: n ? sx / n : NaN };
    };
    const pink = (r: number, g: number, b: number) => r > 120 && r > g + 60 && b > g + 30;
    const orange = (r: number, g: number, b: number) => r > 150 && r > g + 50 && g > b + 40;
    const first = await shot(page, stage);
    const box0 = find(first, pink), cyl0 = find(first, orange);
    measured.bodyBoxPixels = box0.n;
    measured.bodyCylinderPixels = cyl0.n;
    expect(box0.n).toBeGreaterThan(300);
    expect(cyl0.n).toBeGreaterThan(300);
    expect(await page.evaluate(`document.querySelector('.glv-bodies').textContent`)).toMatch(
      /2 rigid bodies.*1 static.*1 kinematic/,
    );
    // the slider to the last frame: the box moves to the right (+x is to the right from the
    // default camera), the cylinder stays
    await page.evaluate(`(() => {
      const s = document.querySelector('.glv-slider');
      s.value = s.max;
      s.dispatchEvent(new Event('input'));
    })()`);
    await page.waitFor(`${ready}.frame === '1'`);
    await page.evaluate(
      `new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))`,
    );
    const last = await shot(page, stage);
    const box1 = find(last, pink), cyl1 = find(last, orange);
    measured.bodyBoxShiftPx = +(box1.x - box0.x).toFixed(1);
    expect(box1.n).toBeGreaterThan(300);
    expect(measured.bodyBoxShiftPx).toBeGreaterThan(40);
    expect(Math.abs(cyl1.x - cyl0.x)).toBeLessThan(2);
    const poses = await page.evaluate<number[][]>(
      `[0, 1].map((k) => (grainlab.views[0].setFrame(k), grainlab.views[0].bodyPose(0).position))`,
    );
    expect(poses[1][0] - poses[0][0]).toBeCloseTo(v * 0.2, 5);
    await page.close();
  });

  it("three.js embedded as its two build files (no bundler) works the same", async () => {
    const world = new World({ timeStep: 1e-3 });
    const g = world.addGranularBox(
      { min: [-0.05, -0.05, 0], max: [0.05, 0.05, 0.05], radius: 0.01, spacing: 0.021 },
      {},
    );
    g.setGroundPlane(0);
    const file = `${dir}/raw.html`;
    const { bytes } = await writeViewer(file, g, {
      bundle: false,
      poster: false,
      width: 400,
      height: 300,
    });
    measured.rawThreeBytes = bytes;
    const page = await browser.open(`file://${file}`);
    const ready = "document.querySelector('.grainlab-view').dataset";
    await page.waitFor(`${ready}.ready === '1' || ${ready}.error`, 60_000);
    expect(await page.evaluate(`${ready}.error ?? null`)).toBeNull();
    const img = await shot(page, await rectOf(page, ".glv-stage"));
    measured.rawCoverage = +coverage(img, [0xf3, 0xf4, 0xf6]).toFixed(3);
    expect(measured.rawCoverage).toBeGreaterThan(0.05);
    await page.close();
  });

  it("the notebooks rendered by nbconvert --to html show every figure (and notebook 01 its 3D view)", async () => {
    const notebooks = [...Deno.readDirSync(`${root}notebooks`)]
      .map((e) => e.name).filter((n) => /^\d\d_.*\.ipynb$/.test(n)).sort();
    expect(notebooks.length).toBeGreaterThanOrEqual(5);
    const out = `${dir}/html`;
    const r = await new Deno.Command("jupyter-nbconvert", {
      args: ["--to", "html", "--output-dir", out, ...notebooks.map((n) => `${root}notebooks/${n}`)],
      stdout: "piped",
      stderr: "piped",
    }).output();
    expect({ ok: r.success, err: r.success ? "" : new TextDecoder().decode(r.stderr).slice(-2000) })
      .toEqual({ ok: true, err: "" });
    let with3d = 0;
    for (const nb of notebooks) {
      // the figures the notebook holds: outputs with an image, or HTML with an image or SVG
      const json = JSON.parse(await Deno.readTextFile(`${root}notebooks/${nb}`)) as {
        cells: { outputs?: { data?: Record<string, string | string[]> }[] }[];
      };
      let expected = 0;
      for (const c of json.cells) {
        for (const o of c.outputs ?? []) {
          const d = o.data ?? {};
          const html = [d["text/html"] ?? ""].flat().join("");
          if (d["image/png"] || d["image/svg+xml"] || /<img|<svg/.test(html)) expected++;
        }
      }
      const page = await browser.open(`file://${out}/${nb.replace(/\.ipynb$/, ".html")}`);
      // outputs whose figure shows: a decoded <img> or an <svg> with shapes, or a 3D view
      const figures = await page.waitFor<
        { index: number; kind: string; ok: boolean }[]
      >(
        `(() => {
        const res = [];
        document.querySelectorAll('.jp-OutputArea-output').forEach((o, index) => {
          const view = o.querySelector('.grainlab-view');
          if (view) {
            if (!view.dataset.ready && !view.dataset.error) throw new Error('not ready');
            res.push({ index, kind: 'view3d', ok: view.dataset.ready === '1' });
            return;
          }
          const imgs = [...o.querySelectorAll('img')];
          const svgs = [...o.querySelectorAll('svg')].filter((s) => !s.parentElement.closest('svg'));
          if (imgs.length + svgs.length === 0) return;
          if (imgs.some((i) => !i.complete)) throw new Error('loading');
          const ok = imgs.every((i) => i.naturalWidth > 0 && i.getBoundingClientRect().width > 0) &&
            svgs.every((s) => s.querySelectorAll('path,circle,rect,line,polygon,polyline').length > 0);
          res.push({ index, kind: imgs.length ? 'img' : 'svg', ok });
        });
        return res;
      })()`,
        90_000,
      );
      expect({ nb, count: figures.length, broken: figures.filter((f) => !f.ok) })
        .toEqual({ nb, count: expected, broken: [] });
      // and each figure has pixels on screen, not only text
      let minCover = 1;
      for (const f of figures) {
        const inner = f.kind === "view3d" ? ".glv-stage" : f.kind;
        const rect = await rectOf(page, ".jp-OutputArea-output", f.index, inner);
        const img = await shot(page, rect);
        const bg = f.kind === "view3d" ? [0xf3, 0xf4, 0xf6] : [255, 255, 255];
        const cover = coverage(img, bg);
        minCover = Math.min(minCover, cover);
        // (a blank image covers 0; the sparsest line chart here about 0.024)
        expect({ nb, output: f.index, kind: f.kind, enough: cover > 0.005 })
          .toEqual({ nb, output: f.index, kind: f.kind, enough: true });
        if (f.kind === "view3d") {
          with3d++;
          measured[`${nb.slice(0, 2)}_view3dCoverage`] = +cover.toFixed(3);
          expect(cover).toBeGreaterThan(0.1);
        }
      }
      measured[`${nb.slice(0, 2)}_figures`] = figures.length;
      measured[`${nb.slice(0, 2)}_minCoverage`] = +minCover.toFixed(3);
      await page.close();
    }
    expect(with3d).toBeGreaterThanOrEqual(1); // notebook 01 ends with a 3D view
  });
});
