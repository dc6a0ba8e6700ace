/**
 * The three.js source that the 3D viewer embeds in its HTML (so that it works offline, with no
 * CDN): read from the exact-pinned npm package `three` at run time. When the Deno executable
 * can bundle (`deno bundle`), the parts the viewer uses are tree-shaken and minified into one
 * module (≈ 0.53 MB, ≈ 0.14 MB gzipped); otherwise the package's two build files are embedded
 * as they are (≈ 2.1 MB, ≈ 0.42 MB gzipped). Either way the viewer ships them gzipped.
 *
 * @module
 */

/** The three.js names the viewer's client script uses (`THREE.<name>`). */
export const THREE_NAMES: readonly string[] = [
  "AmbientLight",
  "BoxGeometry",
  "BufferGeometry",
  "Color",
  "CylinderGeometry",
  "DirectionalLight",
  "DoubleSide",
  "EdgesGeometry",
  "Float32BufferAttribute",
  "Group",
  "HemisphereLight",
  "InstancedBufferAttribute",
  "InstancedMesh",
  "LineBasicMaterial",
  "LineSegments",
  "Matrix4",
  "Mesh",
  "MeshBasicMaterial",
  "MeshLambertMaterial",
  "PerspectiveCamera",
  "PlaneGeometry",
  "Quaternion",
  "REVISION",
  "Scene",
  "SphereGeometry",
  "Vector3",
  "WebGLRenderer",
];

/** One ES module of the embedded three.js: its name and source. */
export interface ThreeModule {
  /** File name; other modules import it as `./<name>`. */
  name: string;
  /** JavaScript source. */
  code: string;
}

/** The embedded three.js: its modules in load order (the last is the entry) and how made. */
export interface ThreeSource {
  /** Modules in dependency order; the last one exports the names of {@link THREE_NAMES}. */
  modules: ThreeModule[];
  /** `"bundle"` (tree-shaken and minified) or `"raw"` (the package's build files). */
  kind: "bundle" | "raw";
  /** three.js version (the npm package's). */
  version: string;
}

let bundled: ThreeSource | null | undefined; // null: tried and failed
let raw: ThreeSource | undefined;

/** The `file:` URL of three's ES module build, from the import map (`three` in deno.json). */
function threeModuleUrl(): URL {
  let spec: string;
  try {
    spec = import.meta.resolve("three");
  } catch (e) {
    throw new Error(
      `view3d: cannot resolve the npm package "three" (${(e as Error).message}); ` +
        `add "three": "npm:three@0.187.0" to the imports of deno.json`,
    );
  }
  if (!spec.startsWith("file:")) {
    throw new Error(
      `view3d: "three" resolves to ${spec}, not to a local file; run with a node_modules ` +
        `folder or the npm cache available (deno install)`,
    );
  }
  return new URL(spec);
}

/**
 * The three.js modules to embed, read (and, when possible, bundled) once per process.
 *
 * @param options `bundle: false` embeds the raw build files without trying `deno bundle`
 * @returns the modules, how they were made and the three.js version
 * @throws {Error} when the npm package `three` cannot be found or read
 * @example
 * ```ts
 * import { threeSource } from "./three_source.ts";
 * import { expect } from "expect";
 * const three = threeSource();
 * expect(three.version).toBe("0.187.0");
 * expect(three.modules.at(-1)!.code).toContain("WebGLRenderer");
 * ```
 */
export function threeSource(options: { bundle?: boolean } = {}): ThreeSource {
  if ((options.bundle ?? true) && bundled !== null) {
    if (bundled) return bundled;
    const { url, version } = locate();
    const code = bundle(url);
    bundled = code === null
      ? null
      : { modules: [{ name: "three.bundle.js", code }], kind: "bundle", version };
    if (bundled) return bundled;
  }
  if (raw) return raw;
  const { url, version } = locate();
  const read = (name: string) => {
    try {
      return Deno.readTextFileSync(new URL(name, url));
    } catch (e) {
      throw new Error(
        `view3d: cannot read three.js's ${name} (${new URL(name, url).pathname}): ` +
          `${(e as Error).message}; install the npm package once: deno cache npm:three@0.187.0`,
      );
    }
  };
  raw = {
    modules: [
      { name: "three.core.js", code: read("three.core.js") },
      { name: "three.module.js", code: read("three.module.js") },
    ],
    kind: "raw",
    version,
  };
  return raw;
}

/** three's module build URL and the package version. */
function locate(): { url: URL; version: string } {
  const url = threeModuleUrl();
  let version = "unknown";
  try {
    const pkg = JSON.parse(Deno.readTextFileSync(new URL("../package.json", url)));
    version = String(pkg.version);
  } catch { /* version stays unknown */ }
  return { url, version };
}

/** Tree-shakes and minifies the used parts of three with `deno bundle`; null when it cannot. */
function bundle(moduleUrl: URL): string | null {
  let dir: string | undefined;
  try {
    dir = Deno.makeTempDirSync({ prefix: "grainlab-three-" });
    const entry = `${dir}/entry.js`, out = `${dir}/three.bundle.js`;
    Deno.writeTextFileSync(
      entry,
      `export { ${THREE_NAMES.join(", ")} } from ${JSON.stringify(moduleUrl.href)};\n`,
    );
    const r = new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--no-config",
        "--no-lock",
        "--minify",
        "--platform",
        "browser",
        "--format",
        "esm",
        "-o",
        out,
        entry,
      ],
      stdout: "null",
      stderr: "null",
      env: { NO_COLOR: "1" },
    }).outputSync();
    if (!r.success) return null;
    const code = Deno.readTextFileSync(out);
    return code.includes("WebGLRenderer") ? code : null;
  } catch {
    return null; // no permission to run or write, or no bundler: embed the raw files
  } finally {
    if (dir) {
      try {
        Deno.removeSync(dir, { recursive: true });
      } catch { /* left for the system's temp cleaner */ }
    }
  }
}
