/**
 * `deno run -A scripts/gen_contact_loops.ts`: writes the contact laws' generated files from the
 * single source `src/contact/law3d_source.ts` — the scalar laws (`src/contact/law3d_gen.ts`)
 * and the hot loops of `src/sphere3d` (pair loops, plane sweep, grain–body contact) — and the
 * RFT element law's from `src/sphere3d/rft/law_source.ts` (the scalar law, the tables'
 * look-up and the RFT ground's sweep). The texts
 * are formatted with `deno fmt`, so that the files on disk are exactly what
 * {@link generateContactLoops} returns (tests/contact_generated_test.ts checks it).
 *
 * @module
 */
import { LAW3D, type LawSet } from "../src/contact/law3d_source.ts";
import { bodyContactText } from "./contact_loops/body.ts";
import { pairLoopsText } from "./contact_loops/pairs.ts";
import { planeSweepText } from "./contact_loops/plane.ts";
import { scalarLawsText } from "./contact_loops/scalar.ts";
import { rftElementText, rftLookupText, rftSweepText } from "./contact_loops/rft.ts";

/**
 * One generated file: its path relative to the repository root, and its text.
 *
 * @example
 * ```ts
 * import { type GeneratedFile, generateContactLoops } from "./gen_contact_loops.ts";
 * import { expect } from "expect";
 * const [first]: GeneratedFile[] = await generateContactLoops();
 * expect(first.path).toBe("src/contact/law3d_gen.ts");
 * ```
 */
export interface GeneratedFile {
  /** Path from the repository root, e.g. `src/contact/law3d_gen.ts`. */
  path: string;
  /** The formatted text. */
  text: string;
}

/**
 * The repository root (the folder above `scripts/`).
 *
 * @example
 * ```ts
 * import { REPO_ROOT } from "./gen_contact_loops.ts";
 * import { expect } from "expect";
 * expect(REPO_ROOT.endsWith("/")).toBe(true);
 * ```
 */
export const REPO_ROOT: string = new URL("../", import.meta.url).pathname;

/**
 * `text` formatted by `deno fmt` as a TypeScript file (line width 100, the project's).
 *
 * @example
 * ```ts
 * import { formatTs } from "./gen_contact_loops.ts";
 * import { expect } from "expect";
 * expect(await formatTs("const a=1")).toBe("const a = 1;\n");
 * ```
 */
export async function formatTs(text: string): Promise<string> {
  const cmd = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--line-width", "100", "--ext", "ts", "-"],
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  });
  const child = cmd.spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(text));
  await writer.close();
  const out = await child.output();
  if (!out.success) {
    throw new Error(`deno fmt failed: ${new TextDecoder().decode(out.stderr)}\n${text}`);
  }
  return new TextDecoder().decode(out.stdout);
}

/**
 * The generated files for the laws `laws` (the shipped ones by default), formatted, in memory.
 *
 * @example
 * ```ts
 * import { generateContactLoops } from "./gen_contact_loops.ts";
 * import { expect } from "expect";
 * const files = await generateContactLoops();
 * expect(files.map((f) => f.path)).toContain("src/sphere3d/pair_loops_gen.ts");
 * ```
 */
export async function generateContactLoops(laws: LawSet = LAW3D): Promise<GeneratedFile[]> {
  const raw: GeneratedFile[] = [
    { path: "src/contact/law3d_gen.ts", text: scalarLawsText(laws) },
    { path: "src/sphere3d/pair_loops_gen.ts", text: pairLoopsText(laws) },
    { path: "src/sphere3d/plane_sweep_gen.ts", text: planeSweepText(laws) },
    { path: "src/sphere3d/bodies/contact_law_gen.ts", text: bodyContactText(laws) },
    { path: "src/sphere3d/rft/element_gen.ts", text: rftElementText() },
    { path: "src/sphere3d/rft/table_lookup_gen.ts", text: rftLookupText() },
    { path: "src/sphere3d/rft/ground_sweep_gen.ts", text: rftSweepText() },
  ];
  const out: GeneratedFile[] = [];
  for (const f of raw) out.push({ path: f.path, text: await formatTs(f.text) });
  return out;
}

if (import.meta.main) {
  for (const f of await generateContactLoops()) {
    await Deno.writeTextFile(REPO_ROOT + f.path, f.text);
    console.log(`wrote ${f.path}`);
  }
}
