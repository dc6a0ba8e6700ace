/**
 * What the fixture generators (`gen_rft_fixture.ts`, `gen_rft_memory_fixture.ts`) share: the
 * machine a fixture was made on, and the atomic write of its JSON record in the repository's
 * format.
 *
 * @module
 */

/**
 * The machine, for a fixture's record: CPU model, threads and the Deno version.
 *
 * @example
 * ```ts
 * import { machineName } from "./fixture_json.ts";
 * import { expect } from "expect";
 * expect(machineName()).toContain(`Deno ${Deno.version.deno}`);
 * ```
 */
export function machineName(): string {
  let cpu = "unknown";
  try {
    const m = Deno.readTextFileSync("/proc/cpuinfo").match(/model name\s*:\s*(.*)/);
    if (m) cpu = m[1];
  } catch {
    // no /proc/cpuinfo: the model stays unknown
  }
  return `${cpu}, ${navigator.hardwareConcurrency} threads, Deno ${Deno.version.deno}`;
}

/**
 * Write `json` to `path` atomically (a temporary file, then a rename), laid out by the
 * repository's formatter (`deno fmt --check` runs in the tests).
 *
 * @example
 * ```ts
 * import { writeFixtureJson } from "./fixture_json.ts";
 * import { expect } from "expect";
 * const path = `${await Deno.makeTempDir()}/f.json`;
 * writeFixtureJson(path, { a: [1, 2] });
 * expect(JSON.parse(Deno.readTextFileSync(path))).toEqual({ a: [1, 2] });
 * ```
 */
export function writeFixtureJson(path: string, json: unknown): void {
  Deno.writeTextFileSync(`${path}.tmp`, JSON.stringify(json, null, 1) + "\n");
  Deno.renameSync(`${path}.tmp`, path);
  new Deno.Command(Deno.execPath(), { args: ["fmt", "-q", path] }).outputSync();
}
