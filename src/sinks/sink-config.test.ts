import { describe, expect, it } from "vitest";
import { defaultComponents } from "../components/environment.js";
import { createSinkConfigSchema } from "./sink-config.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

function problems(input: Record<string, unknown>): string[] {
  const result = sinkSchema.safeParse(input);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("sink schema", () => {
  it("accepts the default path and a Hive-style template", () => {
    expect(problems({ format: "parquet", to: "./out" })).toEqual([]);
    expect(
      problems({
        format: "parquet",
        to: "s3://exports/jobs",
        path: "dt={date}/domain={atr.domain_name}/{slice}-{seq}.{ext}",
      }),
    ).toEqual([]);
  });

  it("refuses a path without {slice}, rolling without {seq}, and record fields on stdout", () => {
    expect(problems({ format: "ndjson", to: "./out", path: "dt={date}/{seq}.{ext}" })).toEqual([
      expect.stringMatching(/^path: .*has no \{slice\}/),
    ]);
    expect(problems({ format: "ndjson", to: "./out", path: "{slice}.{ext}", max_rows_per_file: 10 })).toEqual(
      [expect.stringMatching(/^path: .*has no \{seq\}/)],
    );
    expect(problems({ format: "ndjson", to: "-", path: "{d}/{slice}.{ext}" })).toEqual([
      expect.stringMatching(/^path: stdout/),
    ]);
  });

  it("refuses a template that escapes the destination", () => {
    expect(problems({ format: "ndjson", to: "./out", path: "../{slice}.{ext}" })).toEqual([
      expect.stringMatching(/^path: path template/),
    ]);
  });
});
