/**
 * HTML of the 3D viewer: the fragment a notebook shows (still image, legend, controls, the
 * embedded data and the script that starts it) and the standalone page around it.
 *
 * @module
 */

import { escapeXml } from "../plot/dom.ts";
import { VERSION } from "../version.ts";
import type { Built } from "./viewer_build.ts";
import { viewerClient } from "./viewer_client.ts";

/**
 * The view as an HTML fragment: the still image, legend and controls, the embedded data and
 * the script that starts it.
 *
 * @param b the encoded view
 * @param standalone whether the fragment is inside a standalone page (it then reads its URL)
 * @returns HTML
 */
export function viewFragment(b: Built, standalone: boolean): string {
  const head = JSON.stringify({ ...b.head, standalone }).replace(/</g, "\\u003c");
  const initial = b.columns[Number(b.head.initialColumn)];
  const many = b.frames > 1;
  const options = b.columns.map((c, k) =>
    `<option value="${k}"${k === Number(b.head.initialColumn) ? " selected" : ""}>${
      escapeXml(c.name)
    }</option>`
  ).join("");
  const parts = [
    `<div class="grainlab-view" style="width:${b.width}px;max-width:100%;` +
    `font:12px/1.4 system-ui,sans-serif;color:#222">`,
    b.title
      ? `<div style="font-weight:600;font-size:14px;margin:2px 0 4px">${escapeXml(b.title)}</div>`
      : "",
    `<div class="glv-stage" style="position:relative;width:100%;aspect-ratio:${b.width}/${b.height};` +
    `background:${escapeXml(b.background)};overflow:hidden;border-radius:4px">`,
    b.poster
      ? `<img class="glv-poster" alt="${
        escapeXml(b.alt)
      }" width="${b.width}" height="${b.height}" ` +
        `style="position:absolute;left:0;top:0;width:100%;height:100%" ` +
        `src="data:image/png;base64,${b.poster}">`
      : "",
    `<div class="glv-legend" data-column="${escapeXml(initial.name)}" style="position:absolute;` +
    `right:8px;top:8px;background:#ffffffd9;padding:4px 6px;border-radius:4px;` +
    `pointer-events:none">${initial.legend}</div>`,
    // the bodies' note (no line at all without bodies)
    ...(b.bodiesNote
      ? [
        `<div class="glv-bodies" style="position:absolute;left:8px;top:8px;background:#ffffffd9;` +
        `padding:4px 6px;border-radius:4px;pointer-events:none">${b.bodiesNote}</div>`,
      ]
      : []),
    `<div style="position:absolute;left:8px;bottom:6px;color:#666;font-size:11px;` +
    `pointer-events:none">drag: orbit · shift/right-drag: pan · wheel: zoom · double-click: reset</div>`,
    `</div>`,
    `<div class="glv-bar" style="display:none;flex-wrap:wrap;gap:4px 8px;align-items:center;margin-top:4px">`,
    `<button class="glv-play" type="button" style="width:34px${
      many ? "" : ";display:none"
    }">▶</button>`,
    `<input class="glv-slider" type="range" min="0" max="${b.frames - 1}" step="1" ` +
    `value="${b.initialFrame}" style="flex:1${many ? "" : ";display:none"}">`,
    `<span class="glv-time" style="white-space:nowrap;${many ? "" : "flex:1"}"></span>`,
    `<label>colour <select class="glv-color">${options}</select></label>`,
    b.network ? `<label><input class="glv-forces" type="checkbox"> force chains</label>` : "",
    `</div>`,
    `<script type="application/json" class="glv-head">${head}</script>`,
    ...b.three.map((m) =>
      `<script type="application/octet-stream" class="glv-three" data-name="${m.name}">${m.data}</script>`
    ),
    `<script type="application/octet-stream" class="glv-bin">${b.bin}</script>`,
    `<script>(${viewerClient.toString()})(document.currentScript.parentElement)` +
    `.catch(function (e) { console.error("grainlab view3d:", e); });</script>`,
    `</div>`,
  ];
  return parts.join("\n");
}

/**
 * The view as a standalone HTML page. It reads `#frame=N&color=name&forces=1` from its URL.
 *
 * @param b the encoded view
 * @returns the page
 */
export function viewDocument(b: Built): string {
  const title = escapeXml(b.title || "Grainlab 3D view");
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8">` +
    `<meta name="viewport" content="width=device-width,initial-scale=1">` +
    `<title>${title}</title><style>body{margin:12px;font-family:system-ui,sans-serif;` +
    `background:#fff}</style></head><body>\n${viewFragment(b, true)}\n` +
    `<p style="color:#777;font:12px system-ui,sans-serif;max-width:${b.width}px">${
      escapeXml(b.text)
    } — Grainlab ${VERSION}, three.js ${escapeXml(String(b.head.threeVersion))}; ` +
    `link to a frame with #frame=N&amp;color=name&amp;forces=1.</p>\n</body></html>\n`;
}
