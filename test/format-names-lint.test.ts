// The lint rule that keeps formats components: outside src/formats/ and the component table, code
// asks a format for a capability instead of testing its name. Run through ESLint's own API on the
// repository's config, as `npm run lint` runs it.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function formatNameErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.message.includes("output format by name"))
    .length;
}

const NAME_TEST = `export const columnar = (sink: { format: string }): boolean => sink.format === "parquet";\n`;

describe("the format-name lint rule", () => {
  it("refuses a format's name tested outside src/formats/", async () => {
    expect(await formatNameErrors("src/pipeline/example.ts", NAME_TEST)).toBe(1);
    expect(
      await formatNameErrors("src/warehouse/ddl/example.ts", `export type Files = "ndjson" | "json";\n`),
    ).toBe(1);
  });

  it("allows it in the formats, the component table and the emulator, and in messages anywhere", async () => {
    expect(await formatNameErrors("src/formats/example.ts", NAME_TEST)).toBe(0);
    expect(await formatNameErrors("src/components/example.ts", NAME_TEST)).toBe(0);
    expect(await formatNameErrors("src/emulator/example.ts", NAME_TEST)).toBe(0);
    const message = `export const hint = "write parquet files, or ndjson with gzip: true";\n`;
    expect(await formatNameErrors("src/pipeline/example.ts", message)).toBe(0);
  });
});
