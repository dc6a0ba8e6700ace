/**
 * The public API is a decision: every entry of deno.json's `exports` exports exactly the names
 * committed in tests/fixtures/public_api.json (as `deno doc --json` lists them), and the
 * package stays within a ceiling of unique names (`MAX_UNIQUE`). A name that enters or leaves an entry fails here until
 * the list is rewritten with `deno run -A scripts/public_api.ts --write`.
 */
import { describe, it } from "node:test";
import { expect } from "expect";
import { entries, PUBLIC_API_FIXTURE, publicApi, ROOT, summary } from "../scripts/public_api.ts";

/**
 * The ceiling of unique public names (588 before issue #27). Its target was 300: the redesign
 * left 313, the composable Plot marks (`grains`, `forceChains`, `walls`, `plotFigure` and
 * their types) staying public as a user feature; the resistive-force-theory API of issue #28
 * (the model, tables, fit, ground, calibration and their Arrow form) added 25, to 338. Merging
 * concepts (the contact laws, the star2d GPU backend and the LAMMPS bridge as one namespace
 * each, statics of the RFT classes for its constants, one `starDistance`, one
 * `SaveStateOptions`, single-use unions inline in their fields) brought it to 277.
 */
const MAX_UNIQUE = 299;

const committed: Record<string, string[]> = JSON.parse(
  Deno.readTextFileSync(`${ROOT}${PUBLIC_API_FIXTURE}`),
);
const current = await publicApi();
const HINT = "run `deno run -A scripts/public_api.ts --write` if this is a decision";

describe("public API", () => {
  it("lists every deno.json entry, and only those", () => {
    const exported = Object.keys(entries()).sort();
    const listed = Object.keys(committed).sort();
    if (exported.join() !== listed.join()) {
      throw new Error(
        `${PUBLIC_API_FIXTURE} lists the entries ${listed.join(", ")}, deno.json exports ` +
          `${exported.join(", ")}: ${HINT}`,
      );
    }
  });

  for (const entry of Object.keys(committed)) {
    it(`${entry} exports the committed names`, () => {
      const was = new Set(committed[entry]), now = new Set(current[entry] ?? []);
      const added = [...now].filter((n) => !was.has(n));
      const removed = [...was].filter((n) => !now.has(n));
      if (added.length > 0 || removed.length > 0) {
        throw new Error(
          `${entry}: ${added.length > 0 ? `added ${added.join(", ")}` : "nothing added"}; ` +
            `${removed.length > 0 ? `removed ${removed.join(", ")}` : "nothing removed"} — ${HINT}`,
        );
      }
    });
  }

  it(`has at most ${MAX_UNIQUE} unique names across the entries`, () => {
    expect(summary(current).unique).toBeLessThanOrEqual(MAX_UNIQUE);
  });
});
