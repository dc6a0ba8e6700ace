/**
 * The public API of every entry in deno.json's `exports`, as `deno doc --json` sees it.
 *
 *     deno run -A scripts/public_api.ts          # per-entry counts, unique total, names in >1 entry
 *     deno run -A scripts/public_api.ts --write  # write tests/fixtures/public_api.json
 *
 * tests/public_api_test.ts compares the entries with the committed list, so that a name
 * enters or leaves the public API only as a decision.
 *
 * @module
 */

/**
 * The fixture the test compares against, relative to the repository root.
 *
 * @example
 * ```ts
 * import { PUBLIC_API_FIXTURE } from "./public_api.ts";
 * import { expect } from "expect";
 * expect(PUBLIC_API_FIXTURE).toBe("tests/fixtures/public_api.json");
 * ```
 */
export const PUBLIC_API_FIXTURE = "tests/fixtures/public_api.json";

/**
 * The repository root (the folder that holds deno.json), ending in `/`.
 *
 * @example
 * ```ts
 * import { ROOT } from "./public_api.ts";
 * import { expect } from "expect";
 * expect(Deno.statSync(`${ROOT}deno.json`).isFile).toBe(true);
 * ```
 */
export const ROOT: string = new URL("..", import.meta.url).pathname;

/**
 * deno.json's `exports`: entry name (".", "./sphere3d", …) → module path.
 *
 * @example
 * ```ts
 * import { entries } from "./public_api.ts";
 * import { expect } from "expect";
 * expect(entries()["."]).toBe("./mod.ts");
 * ```
 */
export function entries(): Record<string, string> {
  const config = JSON.parse(Deno.readTextFileSync(`${ROOT}deno.json`));
  return config.exports as Record<string, string>;
}

/**
 * The sorted, unique names one entry module exports, from `deno doc --json`.
 *
 * @param modulePath the entry's path relative to the repository root
 * @example
 * ```ts
 * import { entryNames } from "./public_api.ts";
 * import { expect } from "expect";
 * expect(await entryNames("./src/version.ts")).toEqual(["VERSION"]);
 * ```
 */
export async function entryNames(modulePath: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", modulePath],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    throw new Error(
      `deno doc --json ${modulePath} failed:\n${new TextDecoder().decode(out.stderr)}`,
    );
  }
  const json = JSON.parse(new TextDecoder().decode(out.stdout)) as {
    nodes: Record<string, { symbols?: { name: string }[] }>;
  };
  const names = new Set<string>();
  for (const node of Object.values(json.nodes)) {
    for (const symbol of node.symbols ?? []) names.add(symbol.name);
  }
  return [...names].sort();
}

/**
 * Every entry's sorted names, keyed by the entry name of deno.json (".", "./sphere3d", …).
 *
 * @example
 * ```ts
 * import { publicApi } from "./public_api.ts";
 * import { expect } from "expect";
 * const api = await publicApi();
 * expect(api["./sphere3d"]).toContain("World");
 * ```
 */
export async function publicApi(): Promise<Record<string, string[]>> {
  const api: Record<string, string[]> = {};
  for (const [entry, path] of Object.entries(entries())) api[entry] = await entryNames(path);
  return api;
}

/**
 * Unique names across entries and the names exported from more than one entry.
 *
 * @example
 * ```ts
 * import { summary } from "./public_api.ts";
 * import { expect } from "expect";
 * expect(summary({ ".": ["A", "B"], "./x": ["B", "C"] })).toEqual({ unique: 3, shared: ["B"] });
 * ```
 */
export function summary(api: Record<string, string[]>): { unique: number; shared: string[] } {
  const seen = new Map<string, number>();
  for (const names of Object.values(api)) {
    for (const name of names) seen.set(name, (seen.get(name) ?? 0) + 1);
  }
  const shared = [...seen].filter(([, n]) => n > 1).map(([name]) => name).sort();
  return { unique: seen.size, shared };
}

if (import.meta.main) {
  const api = await publicApi();
  if (Deno.args.includes("--write")) {
    Deno.writeTextFileSync(`${ROOT}${PUBLIC_API_FIXTURE}`, JSON.stringify(api, null, 2) + "\n");
    console.log(`wrote ${PUBLIC_API_FIXTURE}`);
  }
  for (const [entry, names] of Object.entries(api)) {
    console.log(`${entry.padEnd(14)} ${String(names.length).padStart(4)}`);
  }
  const { unique, shared } = summary(api);
  console.log(`unique names: ${unique}`);
  console.log(`in more than one entry: ${shared.length}`);
  if (Deno.args.includes("--shared")) console.log(shared.join(" "));
}
