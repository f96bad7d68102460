// The lint rule that keeps destinations components: outside its own folder (src/sinks/s3/, file/,
// stdout/), code asks a destination for a capability instead of naming one. Run through ESLint's own
// API on the repository's config, as `npm run lint` runs it.
import { ESLint } from "eslint";
import { describe, expect, it } from "vitest";

const eslint = new ESLint();

async function destinationNameErrors(filePath: string, code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath });
  return (result?.messages ?? []).filter((message) => message.message.includes("name a destination")).length;
}

const SCHEME_TEST = `export const remote = (to: string): boolean => to.startsWith("s3://");\n`;
const TYPE_TEST = `export const remote = (type: string): boolean => type === "s3";\n`;
const SDK_TYPE = `import type { S3Client } from "@aws-sdk/client-s3";\nexport type Deps = { client?: S3Client };\n`;
const STDOUT_TEST = `export const piped = (sink: { to: string }): boolean => sink.to === "-";\n`;
const STDOUT_CHAIN = `export const piped = (sinks: { to: string }[]): boolean => sinks[0]?.to === "-";\n`;
const TEMPLATE = "export const url = (bucket: string): string => `s3://${bucket}`;\n";

describe("the destination-name lint rule", () => {
  it("refuses a destination's scheme, type, SDK or `to: -` named outside its folder", async () => {
    expect(await destinationNameErrors("src/pipeline/example.ts", SCHEME_TEST)).toBe(1);
    expect(await destinationNameErrors("src/warehouse/ddl/example.ts", TYPE_TEST)).toBe(1);
    // The import's name and each use of the type.
    expect(await destinationNameErrors("src/sinks/example.ts", SDK_TYPE)).toBe(3);
    expect(await destinationNameErrors("src/warehouse/example.ts", STDOUT_TEST)).toBe(1);
    expect(await destinationNameErrors("src/observability/example.ts", STDOUT_CHAIN)).toBe(1);
    expect(await destinationNameErrors("src/cli/commands/example.ts", TEMPLATE)).toBe(1);
    // The format and component folders are not a destination's either.
    expect(await destinationNameErrors("src/formats/example.ts", SCHEME_TEST)).toBe(1);
    expect(await destinationNameErrors("src/components/example.ts", TYPE_TEST)).toBe(1);
  });

  it("allows it in the destination's own folder, in prose and in the S3_… error codes", async () => {
    expect(await destinationNameErrors("src/sinks/s3/example.ts", SCHEME_TEST + SDK_TYPE)).toBe(0);
    expect(await destinationNameErrors("src/sinks/stdout/example.ts", STDOUT_TEST)).toBe(0);
    expect(await destinationNameErrors("src/sinks/file/example.ts", TYPE_TEST)).toBe(0);
    const prose = `// Written by multipart uploads on S3.\nexport const hint = "copy the files to s3://bucket/prefix and pass --location";\n`;
    expect(await destinationNameErrors("src/warehouse/example.ts", prose)).toBe(0);
    const codes = `export const CODES = { S3_NO_SUCH_BUCKET: 1 };\nexport const isStoreCode = (code: string): boolean => /^S3_/.test(code);\n`;
    expect(await destinationNameErrors("src/errors-example.ts", codes)).toBe(0);
  });
});
