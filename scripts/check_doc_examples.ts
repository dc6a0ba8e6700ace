/**
 * `deno run --allow-read scripts/check_doc_examples.ts [files or folders...]`: every ```ts /
 * ```typescript example in the JSDoc comments of mod.ts and src/**\/*.ts must assert something
 * that throws. `deno test --doc` runs the examples but passes whenever they do not throw, and
 * `console.assert` never throws (it only prints "Assertion failed"), so an example that checks
 * nothing, or checks with `console.assert`, proves nothing.
 *
 * A block fails when it contains `console.assert`, or when it contains none of `expect(`, an
 * `assert…(` call or `throw`. Failures are listed as `file:line` (the line of the opening
 * fence); the exit code is 1 when there is any.
 *
 * @module
 */

/** One example block that fails the rule. */
export interface DocExampleFinding {
  /** 1-based line of the opening fence. */
  line: number;
  /** Why the block fails. */
  reason: "console.assert" | "no assertion";
}

/** Counts and failures of one source text. */
export interface DocExampleScan {
  /** Number of ```ts / ```typescript blocks inside JSDoc comments. */
  blocks: number;
  /** The failing blocks. */
  findings: DocExampleFinding[];
}

const FENCE_OPEN = /^```(ts|typescript)(\s|$)/;
const FENCE_CLOSE = /^```\s*$/;
const ASSERTION = /\bexpect\s*\(|\bassert\w*\s*\(|\bthrow\b/;

/**
 * Finds the JSDoc example blocks of one TypeScript source and the ones without a real assertion.
 *
 * @param text the source
 * @returns the number of blocks and the failing ones
 */
export function scanDocExamples(text: string): DocExampleScan {
  const lines = text.split("\n");
  const findings: DocExampleFinding[] = [];
  let blocks = 0;
  let inDoc = false;
  let block: { line: number; body: string[] } | null = null;
  for (let n = 0; n < lines.length; n++) {
    const raw = lines[n];
    if (!inDoc) {
      const open = raw.indexOf("/**");
      if (open < 0 || raw.slice(open).startsWith("/**/")) continue;
      inDoc = true;
      if (raw.indexOf("*/", open + 3) >= 0) inDoc = false; // a one-line comment
      continue;
    }
    const end = raw.indexOf("*/");
    const content = (end >= 0 ? raw.slice(0, end) : raw).replace(/^\s*\*? ?/, "");
    const trimmed = content.trim();
    if (block === null) {
      if (FENCE_OPEN.test(trimmed)) block = { line: n + 1, body: [] };
    } else if (FENCE_CLOSE.test(trimmed)) {
      blocks++;
      const body = block.body.join("\n");
      if (body.includes("console.assert")) {
        findings.push({ line: block.line, reason: "console.assert" });
      } else if (!ASSERTION.test(body.replace(/\/\/.*$/gm, ""))) {
        findings.push({ line: block.line, reason: "no assertion" });
      }
      block = null;
    } else {
      block.body.push(content);
    }
    if (end >= 0) {
      inDoc = false;
      block = null; // an unclosed fence ends with its comment
    }
  }
  return { blocks, findings };
}

function listSources(path: string): string[] {
  const info = Deno.statSync(path);
  if (info.isFile) return path.endsWith(".ts") ? [path] : [];
  const out: string[] = [];
  for (const e of [...Deno.readDirSync(path)].sort((a, b) => a.name.localeCompare(b.name))) {
    const p = `${path}/${e.name}`;
    if (e.isDirectory) out.push(...listSources(p));
    else if (e.isFile && e.name.endsWith(".ts")) out.push(p);
  }
  return out;
}

if (import.meta.main) {
  const roots = Deno.args.length > 0 ? Deno.args : ["mod.ts", "src"];
  let blocks = 0, files = 0;
  const failures: string[] = [];
  for (const file of roots.flatMap(listSources)) {
    const scan = scanDocExamples(Deno.readTextFileSync(file));
    if (scan.blocks === 0) continue;
    files++;
    blocks += scan.blocks;
    for (const f of scan.findings) {
      failures.push(
        `${file}:${f.line}: ${
          f.reason === "console.assert"
            ? "uses console.assert, which never throws (use expect)"
            : "asserts nothing (no expect(, assert…( or throw)"
        }`,
      );
    }
  }
  for (const f of failures) console.log(f);
  console.log(
    `doc assertions: ${blocks} example blocks in ${files} files, ` +
      (failures.length === 0 ? "all assert" : `${failures.length} without a real assertion`),
  );
  Deno.exit(failures.length > 0 ? 1 : 0);
}
