import { describe, it } from "node:test";
import { expect } from "expect";
import { scanDocExamples } from "../scripts/check_doc_examples.ts";

const doc = (...body: string[]): string =>
  ["/**", " * Text.", " * @example", ...body.map((l) => ` * ${l}`), " */", "export const x = 1;"]
    .join("\n");

describe("scripts/check_doc_examples.ts", () => {
  it("accepts expect(, assert…( and throw", () => {
    for (const line of ["expect(f(1)).toBe(2);", "assertEquals(f(1), 2);", "if (!ok) throw 1;"]) {
      expect(scanDocExamples(doc("```ts", line, "```"))).toEqual({ blocks: 1, findings: [] });
    }
    expect(scanDocExamples(doc("```typescript", "expect(1).toBe(1);", "```")).blocks).toBe(1);
  });

  it("rejects console.assert and blocks that check nothing, at the fence's line", () => {
    const text = [
      doc("```ts", "console.assert(f(1) === 2);", "```"),
      doc("```ts", "const y = f(1); // expect(y) would be nice", "```"),
    ].join("\n");
    expect(scanDocExamples(text)).toEqual({
      blocks: 2,
      findings: [{ line: 4, reason: "console.assert" }, { line: 12, reason: "no assertion" }],
    });
  });

  it("ignores fences outside JSDoc comments and other languages", () => {
    const text = [
      "// ```ts",
      "// const y = 1;",
      "// ```",
      "const s = `",
      "```ts",
      "```",
      "`;",
      doc("```sh", "deno task test", "```"),
      "/** one line */",
      doc("```ts", "expect(1).toBe(1);", "```"),
    ].join("\n");
    expect(scanDocExamples(text)).toEqual({ blocks: 1, findings: [] });
  });

  it("indented JSDoc of class members", () => {
    const text = [
      "class A {",
      "  /**",
      "   * @example",
      "   * ```ts",
      "   * new A().f();",
      "   * ```",
      "   */",
      "  f(): void {}",
      "}",
    ].join("\n");
    expect(scanDocExamples(text)).toEqual({
      blocks: 1,
      findings: [{ line: 4, reason: "no assertion" }],
    });
  });
});
