// The lint rule that holds a module of src/ to 250 lines, every line counted as `wc -l` counts it
// (comments and blank lines too); tests are exempt. Run through ESLint's own API on the repository's
// config, as `npm run lint` runs it.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function lengthErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.ruleId === "max-lines").length;
}

/** A module of `lines` lines, ending in a newline: a third code, a third comments, a third blank. */
function moduleOf(lines: number): string {
  const kinds = [(n: number) => `export const a${n} = ${n};`, (n: number) => `// line ${n}`, () => ""];
  return (
    Array.from({ length: lines }, (_, n) => (kinds[n % 3] as (n: number) => string)(n)).join("\n") + "\n"
  );
}

describe("the module-length lint rule", () => {
  it("passes a module of 250 lines and fails one of 251, comments and blank lines counted", async () => {
    expect(await lengthErrors("src/pipeline/example.ts", moduleOf(250))).toBe(0);
    expect(await lengthErrors("src/pipeline/example.ts", moduleOf(251))).toBe(1);
  });

  it("leaves tests and their support modules alone", async () => {
    expect(await lengthErrors("src/pipeline/example.test.ts", moduleOf(400))).toBe(0);
    expect(await lengthErrors("src/pipeline/example.test-support.ts", moduleOf(400))).toBe(0);
  });
});
