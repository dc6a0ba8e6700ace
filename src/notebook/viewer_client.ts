// deno-lint-ignore-file no-explicit-any
/**
 * The browser side of the 3D viewer. {@link viewerClient} is never called in Deno: its source
 * text (`viewerClient.toString()`, the transpiled JavaScript) is embedded in the viewer's HTML
 * and runs in the page, so it must not refer to anything outside its own body. It decodes the
 * embedded three.js and frame data, builds the scene (instanced spheres, boundaries, force
 * chains, meshes, rigid bodies), the orbit/pan/zoom controls, the time slider and the colour
 * legend.
 *
 * @module
 */

/**
 * Starts one viewer inside `root` (the viewer's `<div>`); reads its data from the `<script>`
 * data blocks inside it. Runs in the browser only.
 *
 * @param root the viewer's root element
 * @returns a promise that settles when the first picture is drawn
 * @example
 * ```ts
 * import { viewerClient } from "./viewer_client.ts";
 * import { expect } from "expect";
 * const source = viewerClient.toString();
 * expect(source.startsWith("async function viewerClient(root)")).toBe(true);
 * expect(() => new Function(`return ${source}`)).not.toThrow(); // valid browser JavaScript
 * ```
 */
export async function viewerClient(root: any): Promise<void> {
  const doc = root.ownerDocument, win = doc.defaultView;
  if (root.dataset.started) return;
  root.dataset.started = "1";
  const q = (sel: string) => root.querySelector(sel);
  const stage = q(".glv-stage"), poster = q(".glv-poster"), legend = q(".glv-legend");
  const fail = (why: string) => {
    const m = doc.createElement("div");
    m.className = "glv-error";
    m.textContent = `3D view unavailable: ${why}`;
    m.style.cssText =
      "position:absolute;left:8px;bottom:8px;color:#a00;background:#fffc;padding:2px 6px";
    stage.appendChild(m);
    root.dataset.error = why;
  };
  const bytesOf = (b64: string) => {
    const s = win.atob(b64.replace(/\s+/g, ""));
    const out = new Uint8Array(s.length);
    for (let i = 0; i < s.length; i++) out[i] = s.charCodeAt(i);
    return out;
  };
  const gunzip = async (b64: string): Promise<ArrayBuffer> => {
    const stream = new win.Blob([bytesOf(b64)]).stream().pipeThrough(
      new win.DecompressionStream("gzip"),
    );
    return await new win.Response(stream).arrayBuffer();
  };
  let head: any, THREE: any, bin: ArrayBuffer;
  try {
    head = JSON.parse(q(".glv-head").textContent);
    // three.js: decode once per page, shared by every view on it
    const reg = win.__grainlabThree || (win.__grainlabThree = {});
    const key = `${head.three.version}/${head.three.kind}`;
    if (!reg[key]) {
      const blocks = [...root.querySelectorAll(".glv-three")];
      reg[key] = (async () => {
        const urls: Record<string, string> = {};
        let last = "";
        for (const b of blocks) {
          let code = new TextDecoder().decode(await gunzip(b.textContent));
          for (const [name, url] of Object.entries(urls)) {
            code = code.split(`"./${name}"`).join(`"${url}"`)
              .split(`'./${name}'`).join(`'${url}'`);
          }
          last = urls[b.dataset.name] = win.URL.createObjectURL(
            new win.Blob([code], { type: "text/javascript" }),
          );
        }
        // (through Function, so that Deno's module analysis leaves this browser import alone)
        return await new win.Function("u", "return import(u)")(last);
      })();
    }
    THREE = await reg[key];
    bin = await gunzip(q(".glv-bin").textContent);
  } catch (e) {
    fail(String((e as Error)?.message ?? e));
    return;
  }

  // ---- scene -------------------------------------------------------------------------------
  let renderer: any;
  try {
    renderer = new THREE.WebGLRenderer({ antialias: true });
  } catch (e) {
    fail(`WebGL: ${(e as Error)?.message ?? e}`);
    return;
  }
  const frames = head.frames, nf = frames.length;
  renderer.setPixelRatio(win.devicePixelRatio || 1);
  renderer.setClearColor(new THREE.Color(head.background), 1);
  const canvas = renderer.domElement;
  canvas.className = "glv-canvas";
  canvas.style.cssText = "position:absolute;left:0;top:0;width:100%;height:100%;touch-action:none";
  stage.insertBefore(canvas, stage.firstChild);
  const scene = new THREE.Scene();
  const cam = head.camera;
  const camera = new THREE.PerspectiveCamera(cam.fov, head.width / head.height, 1e-3, 1e3);
  camera.up.set(cam.up[0], cam.up[1], cam.up[2]);
  scene.add(camera);
  scene.add(new THREE.AmbientLight(0xffffff, 1.1));
  const sun = new THREE.DirectionalLight(0xffffff, 2.0);
  sun.position.set(-0.6, 1.0, 0.8); // relative to the camera: upper left, behind the viewer
  camera.add(sun);
  const hemi = new THREE.HemisphereLight(0xffffff, 0x666655, 0.5);
  hemi.position.set(0, 0, 1);
  scene.add(hemi);

  const f32 = (off: number, n: number) => new Float32Array(bin, off, n);
  const u32 = (off: number, n: number) => new Uint32Array(bin, off, n);
  const u16 = (off: number, n: number) => new Uint16Array(bin, off, n);

  // grains: one instanced sphere mesh at true radius
  const sphere = new THREE.SphereGeometry(1, head.sphere[0], head.sphere[1]);
  const grainMat = new THREE.MeshLambertMaterial({ color: 0xffffff });
  const grains = new THREE.InstancedMesh(sphere, grainMat, Math.max(1, head.maxCount));
  grains.instanceColor = new THREE.InstancedBufferAttribute(
    new Float32Array(3 * Math.max(1, head.maxCount)),
    3,
  );
  grains.frustumCulled = false;
  grains.count = 0;
  scene.add(grains);

  // boundaries: ground plane, container and periodic cell outlines
  const bnd = head.boundaries;
  if (bnd.ground) {
    const [x0, y0, x1, y1] = bnd.ground.extent;
    const plane = new THREE.Mesh(
      new THREE.PlaneGeometry(x1 - x0, y1 - y0),
      new THREE.MeshLambertMaterial({ color: 0xd8d6cf, side: THREE.DoubleSide }),
    );
    plane.position.set((x0 + x1) / 2, (y0 + y1) / 2, bnd.ground.z);
    scene.add(plane);
  }
  for (const box of bnd.boxes) {
    const s = [0, 1, 2].map((k) => box.max[k] - box.min[k]);
    const edges = new THREE.LineSegments(
      new THREE.EdgesGeometry(new THREE.BoxGeometry(s[0], s[1], s[2])),
      new THREE.LineBasicMaterial({ color: new THREE.Color(box.color) }),
    );
    edges.position.set(
      (box.min[0] + box.max[0]) / 2,
      (box.min[1] + box.max[1]) / 2,
      (box.min[2] + box.max[2]) / 2,
    );
    scene.add(edges);
  }
  for (const m of head.meshes) {
    const g = new THREE.BufferGeometry();
    g.setAttribute("position", new THREE.Float32BufferAttribute(f32(m.vertices, 3 * m.nv), 3));
    g.setIndex([...u32(m.indices, m.ni)]);
    g.computeVertexNormals();
    const mesh = new THREE.Mesh(
      g,
      new THREE.MeshLambertMaterial({
        color: new THREE.Color(m.color),
        side: THREE.DoubleSide,
        transparent: m.opacity < 1,
        opacity: m.opacity,
      }),
    );
    scene.add(mesh);
  }

  // rigid bodies: a group per body, posed per frame, holding its shapes posed in the body frame
  const bh = head.bodies;
  const bodies: any[] = [];
  if (bh) {
    const mats: Record<string, any> = {};
    const material = (t: number, open: boolean, flat: boolean) =>
      mats[`${t}${open}${flat}`] ||= new THREE.MeshLambertMaterial({
        color: new THREE.Color(bh.colors[t]),
        transparent: bh.opacity < 1,
        opacity: bh.opacity,
        flatShading: flat,
        ...(open ? { side: THREE.DoubleSide } : {}),
      });
    for (let b = 0; b < bh.count; b++) {
      const g = new THREE.Group();
      g.visible = false;
      scene.add(g);
      bodies.push(g);
    }
    for (const s of bh.shapes) {
      const t = bh.types[s.b];
      const part = new THREE.Group();
      part.position.set(s.lp[0], s.lp[1], s.lp[2]);
      part.quaternion.set(s.lq[0], s.lq[1], s.lq[2], s.lq[3]);
      // every shape arrives as triangles (the shape table's surface), a height map as heights
      const g = new THREE.BufferGeometry();
      if (s.h !== undefined) {
        // height map: a grid of nx × ny heights over sx × sy, two triangles per cell
        const nx = s.nx, ny = s.ny, h = f32(s.h, nx * ny);
        const v = new Float32Array(3 * nx * ny), ix: number[] = [];
        for (let j = 0; j < ny; j++) {
          for (let i = 0; i < nx; i++) {
            const k = j * nx + i;
            v[3 * k] = -0.5 * s.sx + (i * s.sx) / (nx - 1);
            v[3 * k + 1] = -0.5 * s.sy + (j * s.sy) / (ny - 1);
            v[3 * k + 2] = h[k];
            if (i + 1 < nx && j + 1 < ny) ix.push(k, k + 1, k + nx + 1, k, k + nx + 1, k + nx);
          }
        }
        g.setAttribute("position", new THREE.Float32BufferAttribute(v, 3));
        g.setIndex(ix);
      } else {
        g.setAttribute("position", new THREE.Float32BufferAttribute(f32(s.v, 3 * s.nv), 3));
        g.setIndex([...u32(s.i, s.ni)]);
      }
      g.computeVertexNormals();
      part.add(new THREE.Mesh(g, material(t, true, s.f === true)));
      bodies[s.b].add(part);
    }
  }

  // force chains: instanced cylinders between centres (or to the boundary contact point)
  const net = head.network;
  let chains: any = null;
  if (net && head.maxContacts > 0) {
    chains = new THREE.InstancedMesh(
      new THREE.CylinderGeometry(1, 1, 1, 8, 1, false),
      new THREE.MeshLambertMaterial({ color: new THREE.Color(net.color) }),
      head.maxContacts,
    );
    chains.frustumCulled = false;
    chains.count = 0;
    chains.visible = false;
    scene.add(chains);
  }

  // colour columns: lookup tables in linear RGB
  const tmpColor = new THREE.Color();
  const luts = head.columns.map((c: any) => {
    const hex: string[] = c.type === "categorical"
      ? c.categories.map((k: any) => k.color)
      : Array.from({ length: 256 }, (_, k) => `#${c.lut.slice(6 * k, 6 * k + 6)}`);
    const t = new Float32Array(3 * hex.length);
    hex.forEach((h, k) => {
      tmpColor.set(h);
      t[3 * k] = tmpColor.r, t[3 * k + 1] = tmpColor.g, t[3 * k + 2] = tmpColor.b;
    });
    return t;
  });
  tmpColor.set("#bbbbbb");
  const nanColor = [tmpColor.r, tmpColor.g, tmpColor.b];

  // ---- state ---------------------------------------------------------------------------------
  let frame = Math.min(nf - 1, Math.max(0, head.initialFrame));
  let column = head.initialColumn;
  let forces = false;
  const mat = new THREE.Matrix4(), quat = new THREE.Quaternion();
  const va = new THREE.Vector3(), vb = new THREE.Vector3(), vdir = new THREE.Vector3();
  const vscale = new THREE.Vector3(), yAxis = new THREE.Vector3(0, 1, 0);
  const positions = new Float32Array(3 * Math.max(1, head.maxCount));
  const radii = new Float32Array(Math.max(1, head.maxCount));

  function loadFrame() {
    const f = frames[frame], n = f.n, qp = u16(f.pos, 3 * n);
    const [m0, m1, m2] = head.quant.min, [s0, s1, s2] = head.quant.scale;
    // radii: a frame either has its own or shares the last one before it that has
    let rf = frame;
    while (frames[rf].rad < 0) rf--;
    const r = f32(frames[rf].rad, n);
    const a = grains.instanceMatrix.array;
    for (let i = 0; i < n; i++) {
      const x = m0 + qp[3 * i] * s0, y = m1 + qp[3 * i + 1] * s1, z = m2 + qp[3 * i + 2] * s2;
      positions[3 * i] = x, positions[3 * i + 1] = y, positions[3 * i + 2] = z;
      const ri = r[i];
      radii[i] = ri;
      const o = 16 * i;
      a[o] = ri, a[o + 1] = 0, a[o + 2] = 0, a[o + 3] = 0;
      a[o + 4] = 0, a[o + 5] = ri, a[o + 6] = 0, a[o + 7] = 0;
      a[o + 8] = 0, a[o + 9] = 0, a[o + 10] = ri, a[o + 11] = 0;
      a[o + 12] = x, a[o + 13] = y, a[o + 14] = z, a[o + 15] = 1;
    }
    grains.count = n;
    grains.instanceMatrix.needsUpdate = true;
    paint();
    if (chains) placeChains();
    if (bh) placeBodies();
  }

  function placeBodies() {
    const f = frames[frame], nb = f.nb || 0;
    const p = nb ? f32(f.bp, 3 * nb) : null, qt = nb ? f32(f.bq, 4 * nb) : null;
    for (let b = 0; b < bodies.length; b++) {
      const g = bodies[b];
      g.visible = b < nb;
      if (b >= nb) continue;
      g.position.set(p![3 * b], p![3 * b + 1], p![3 * b + 2]);
      g.quaternion.set(qt![4 * b], qt![4 * b + 1], qt![4 * b + 2], qt![4 * b + 3]);
    }
  }

  function paint() {
    const f = frames[frame], n = f.n, c = head.columns[column], lut = luts[column];
    const vals = f32(f.vals[column], n), out = grains.instanceColor.array;
    const lo = c.type === "log" ? Math.log10(c.domain[0]) : c.domain[0];
    const hi = c.type === "log" ? Math.log10(c.domain[1]) : c.domain[1];
    const index: Record<string, number> = {};
    if (c.type === "categorical") c.categories.forEach((k: any, j: number) => index[k.value] = j);
    for (let i = 0; i < n; i++) {
      let v = vals[i], k = -1;
      if (c.type === "categorical") k = index[v] ?? -1;
      else if (Number.isFinite(v) && (c.type !== "log" || v > 0)) {
        if (c.type === "log") v = Math.log10(v);
        const t = hi > lo ? (v - lo) / (hi - lo) : 0.5;
        k = Math.round(255 * Math.min(1, Math.max(0, t)));
      }
      if (k < 0) {
        out[3 * i] = nanColor[0], out[3 * i + 1] = nanColor[1], out[3 * i + 2] = nanColor[2];
      } else {out[3 * i] = lut[3 * k],
          out[3 * i + 1] = lut[3 * k + 1],
          out[3 * i + 2] = lut[3 * k + 2];}
    }
    grains.instanceColor.needsUpdate = true;
    if (legend && legend.dataset.column !== c.name) {
      legend.innerHTML = c.legend;
      legend.dataset.column = c.name;
    }
  }

  function placeChains() {
    const f = frames[frame];
    let m = 0;
    const put = (force: number) => {
      const len = va.distanceTo(vb);
      if (!(len > 0) || !(force > 0)) return;
      const w = net.maxWidth * Math.min(1, force / net.maxForce);
      vdir.subVectors(vb, va).divideScalar(len);
      quat.setFromUnitVectors(yAxis, vdir);
      va.add(vb).multiplyScalar(0.5);
      vscale.set(w, len, w);
      mat.compose(va, quat, vscale);
      chains.setMatrixAt(m++, mat);
    };
    if (f.pc) {
      const pi = u32(f.pc.i, f.pc.m), pj = u32(f.pc.j, f.pc.m), pf = f32(f.pc.f, f.pc.m);
      for (let k = 0; k < f.pc.m; k++) {
        const i = pi[k], j = pj[k];
        va.set(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
        vb.set(positions[3 * j], positions[3 * j + 1], positions[3 * j + 2]);
        // a pair across a periodic face: its centres are a cell apart, leave it out
        if (va.distanceTo(vb) > 1.5 * (radii[i] + radii[j])) continue;
        put(pf[k]);
      }
    }
    if (f.bc) {
      const bi = u32(f.bc.i, f.bc.m), bp = f32(f.bc.p, 3 * f.bc.m), bf = f32(f.bc.f, f.bc.m);
      for (let k = 0; k < f.bc.m; k++) {
        const i = bi[k];
        va.set(positions[3 * i], positions[3 * i + 1], positions[3 * i + 2]);
        vb.set(bp[3 * k], bp[3 * k + 1], bp[3 * k + 2]);
        put(bf[k]);
      }
    }
    chains.count = m;
    chains.instanceMatrix.needsUpdate = true;
  }

  function setForces(on: boolean) {
    if (!chains) return;
    forces = on;
    chains.visible = on;
    // see the chains through the grains
    grainMat.transparent = on;
    grainMat.opacity = on ? 0.22 : 1;
    grainMat.depthWrite = !on;
    grainMat.needsUpdate = true;
    const box = q(".glv-forces");
    if (box) box.checked = on;
    request();
  }

  // ---- orbit / pan / zoom ----------------------------------------------------------------------
  const target = new THREE.Vector3(cam.target[0], cam.target[1], cam.target[2]);
  const home = { target: target.clone(), radius: 0, theta: 0, phi: 0 };
  let radius = 1, theta = 0, phi = 1;
  {
    const d = new THREE.Vector3(cam.position[0], cam.position[1], cam.position[2]).sub(target);
    radius = d.length();
    theta = Math.atan2(d.y, d.x);
    phi = Math.acos(Math.min(1, Math.max(-1, d.z / radius)));
    Object.assign(home, { radius, theta, phi });
  }
  function placeCamera() {
    camera.position.set(
      target.x + radius * Math.sin(phi) * Math.cos(theta),
      target.y + radius * Math.sin(phi) * Math.sin(theta),
      target.z + radius * Math.cos(phi),
    );
    camera.lookAt(target);
    camera.near = Math.max(1e-4, radius / 1000);
    camera.far = radius * 100;
    camera.updateProjectionMatrix();
  }
  let drag: any = null;
  canvas.addEventListener("pointerdown", (e: any) => {
    canvas.setPointerCapture(e.pointerId);
    drag = { x: e.clientX, y: e.clientY, pan: e.button === 2 || e.shiftKey || e.button === 1 };
  });
  canvas.addEventListener("pointermove", (e: any) => {
    if (!drag) return;
    const dx = e.clientX - drag.x, dy = e.clientY - drag.y;
    drag.x = e.clientX, drag.y = e.clientY;
    if (drag.pan) {
      const h = canvas.clientHeight || head.height;
      const perPx = (2 * radius * Math.tan((camera.fov * Math.PI) / 360)) / h;
      const right = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 0);
      const up = new THREE.Vector3().setFromMatrixColumn(camera.matrixWorld, 1);
      target.addScaledVector(right, -dx * perPx).addScaledVector(up, dy * perPx);
    } else {
      theta -= dx * 0.008;
      phi = Math.min(Math.PI - 0.01, Math.max(0.01, phi - dy * 0.008));
    }
    placeCamera();
    request();
  });
  const end = () => (drag = null);
  canvas.addEventListener("pointerup", end);
  canvas.addEventListener("pointercancel", end);
  canvas.addEventListener("contextmenu", (e: any) => e.preventDefault());
  canvas.addEventListener("wheel", (e: any) => {
    e.preventDefault();
    radius *= Math.exp(Math.max(-100, Math.min(100, e.deltaY)) * 0.002);
    placeCamera();
    request();
  }, { passive: false });
  canvas.addEventListener("dblclick", () => {
    target.copy(home.target);
    ({ radius, theta, phi } = home);
    placeCamera();
    request();
  });

  // ---- controls: time slider, play/pause, colour, forces ----------------------------------------
  const slider = q(".glv-slider"), play = q(".glv-play"), label = q(".glv-time");
  const select = q(".glv-color"), forcesBox = q(".glv-forces");
  function setFrame(k: number) {
    frame = Math.min(nf - 1, Math.max(0, Math.round(k)));
    if (slider) slider.value = String(frame);
    if (label) {
      const t = frames[frame].t;
      label.textContent = `${t === null ? "" : `t = ${Number(t.toPrecision(4))} s · `}frame ${
        frame + 1
      }/${nf} · ${frames[frame].n} grains`;
    }
    loadFrame();
    request();
  }
  function setColumn(c: number | string) {
    const k = typeof c === "number" ? c : head.columns.findIndex((x: any) => x.name === c);
    if (!(k >= 0 && k < head.columns.length)) return;
    column = k;
    if (select) select.value = String(k);
    paint();
    request();
  }
  let timer: any = null;
  function setPlaying(on: boolean) {
    if (timer) win.clearInterval(timer), timer = null;
    if (on && nf > 1) timer = win.setInterval(() => setFrame((frame + 1) % nf), 1000 / head.fps);
    if (play) play.textContent = timer ? "❚❚" : "▶";
  }
  slider?.addEventListener("input", () => {
    setPlaying(false);
    setFrame(Number(slider.value));
  });
  play?.addEventListener("click", () => setPlaying(!timer));
  select?.addEventListener("change", () => setColumn(Number(select.value)));
  forcesBox?.addEventListener("change", () => setForces(!!forcesBox.checked));

  // ---- drawing on demand -------------------------------------------------------------------
  let pending = false;
  function request() {
    if (pending) return;
    pending = true;
    win.requestAnimationFrame(() => {
      pending = false;
      renderer.render(scene, camera);
      root.dataset.frame = String(frame);
      root.dataset.column = head.columns[column].name;
      root.dataset.forces = forces ? "1" : "0";
      if (!root.dataset.ready) {
        root.dataset.ready = "1";
        if (poster) poster.style.visibility = "hidden";
        const bar = q(".glv-bar");
        if (bar) bar.style.display = "flex";
      }
    });
  }
  function resize() {
    const w = stage.clientWidth || head.width, h = stage.clientHeight || head.height;
    renderer.setSize(w, h, false);
    camera.aspect = w / h;
    camera.updateProjectionMatrix();
    request();
  }
  if (win.ResizeObserver) new win.ResizeObserver(resize).observe(stage);

  // a standalone page reads #frame=3&color=speed&forces=1 (and follows changes of it)
  function fromHash() {
    const p = new win.URLSearchParams(String(win.location.hash || "").replace(/^#/, ""));
    if (p.has("color")) setColumn(p.get("color"));
    if (p.has("forces")) setForces(p.get("forces") === "1");
    if (p.has("frame")) setFrame(Number(p.get("frame")));
  }
  if (head.standalone) win.addEventListener("hashchange", fromHash);

  const api = {
    root,
    frames: nf,
    setFrame,
    setColumn,
    setForces,
    setPlaying,
    get frame() {
      return frame;
    },
    /** Origin and orientation of body `b` as drawn now (null where it is not shown). */
    bodyPose(b: number) {
      const g = bodies[b];
      return g && g.visible
        ? { position: g.position.toArray(), orientation: g.quaternion.toArray() }
        : null;
    },
    render: request,
  };
  (win.grainlab || (win.grainlab = { views: [] })).views.push(api);
  placeCamera();
  resize();
  setFrame(frame);
  if (head.showNetwork) setForces(true);
  if (head.standalone) fromHash();
}
