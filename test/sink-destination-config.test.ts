// The destination of a sink is named by the scheme of `to`: a scheme written slightly wrong or one no
// destination takes is refused at validation with its position and the fix, never written as a folder.
import { describe, expect, it } from "vitest";
import { parsePipeline } from "../src/config/load-pipeline.js";
import { ConfigError } from "../src/errors.js";
import type { ConfigIssue } from "../src/errors.js";
import { fingerprintOf } from "../src/pipeline/run/fingerprint.js";
import { sinkIdentity } from "../src/sinks/open-output-store.js";
import { defaultComponents } from "../src/components/environment.js";
import { createSinkConfigSchema } from "../src/sinks/sink-config.js";

const components = defaultComponents();
const sinkSchema = createSinkConfigSchema(components);

const now = new Date("2026-11-21T12:00:00Z");

function pipelineWith(sink: string): string {
  return `name: demo
service: { embedded: true }
source:
  kind: jobs
  application: atr
  app_type: ec2
  domain: [d1]
  window: { start: now-1d/d, end: now/d }
sinks:
  - ${sink}
`;
}

function issuesOf(sink: string): readonly ConfigIssue[] {
  try {
    parsePipeline(pipelineWith(sink), "p.yaml", { components: defaultComponents(), env: {}, now });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error("expected the pipeline to be refused");
}

describe("the scheme of a sink's to", () => {
  it("refuses a scheme written in the wrong case or with one slash, with the fix and the YAML position", () => {
    expect(issuesOf("{ format: ndjson, to: S3://bucket/x }")).toEqual([
      expect.objectContaining({
        path: "sinks[0].to",
        line: 10,
        column: 27,
        message: '"S3://bucket/x" is not a destination: did you mean s3://bucket/x?',
      }),
    ]);
    expect(issuesOf("{ format: ndjson, to: s3:/bucket/x }")).toEqual([
      expect.objectContaining({
        path: "sinks[0].to",
        line: 10,
        message: expect.stringContaining("did you mean s3://bucket/x?"),
      }),
    ]);
  });

  it("refuses a scheme no destination takes, naming the value and what is allowed", () => {
    expect(issuesOf('{ format: ndjson, to: "https://example.com/exports" }')).toEqual([
      expect.objectContaining({
        path: "sinks[0].to",
        line: 10,
        message:
          '"https://example.com/exports" names the scheme https:, which no destination takes; allowed: a directory (./out/jobs), s3://bucket/prefix, - (stdout)',
      }),
    ]);
  });

  it("keeps taking directories, including names with a colon, s3:// prefixes and stdout", () => {
    for (const to of ["./out", "/data/exports", "out:2026", "s3://exports/jobs", "-"]) {
      expect(sinkSchema.safeParse({ format: "ndjson", to }).success, to).toBe(true);
    }
  });

  it("refuses another destination's options and another format's options", () => {
    const problems = (input: Record<string, unknown>): string[] => {
      const result = sinkSchema.safeParse(input);
      return result.success
        ? []
        : result.error.issues.map((issue) => `${issue.path.join(".")}: ${issue.message}`);
    };
    expect(problems({ format: "ndjson", to: "./out", s3: { region: "eu-west-1" } })).toEqual([
      "s3: s3 options need a destination s3://bucket/prefix",
    ]);
    expect(problems({ format: "parquet", to: "./out", gzip: true })).toEqual([
      "gzip: gzip applies to format ndjson only",
    ]);
    expect(problems({ format: "ndjson", to: "./out", compression: "uncompressed" })).toEqual([
      "compression: compression applies to format parquet only",
    ]);
    expect(problems({ format: "parquet", to: "-" })).toEqual([
      "format: stdout (to: -) takes format ndjson only",
    ]);
    expect(problems({ format: "ndjson", to: "s3://A_bucket/x" })).toEqual([
      'to: "s3://A_bucket/x" is not s3://bucket/prefix',
    ]);
  });

  it("leaves S3 options out of the output identity, as they change where bytes go, not which", () => {
    const plain = sinkSchema.parse({ format: "parquet", to: "s3://exports/jobs" });
    const tuned = sinkSchema.parse({
      format: "parquet",
      to: "s3://exports/jobs",
      s3: { region: "eu-west-1", storage_class: "STANDARD_IA", tags: { team: "ops" } },
    });
    expect(fingerprintOf(sinkIdentity(tuned, components.destinations))).toBe(
      fingerprintOf(sinkIdentity(plain, components.destinations)),
    );
    // The same identity as before destinations were components (the whole s3 block left out) and
    // before the warehouse options (at their defaults), so the state of an earlier run still matches.
    for (const sink of [plain, tuned, sinkSchema.parse({ format: "ndjson", gzip: true, to: "./out" })]) {
      const { s3: _s3, column_names: _names, schema: _policy, ...before } = sink;
      expect(sinkIdentity(sink, components.destinations)).toEqual(before);
    }
    const other = sinkSchema.parse({ format: "parquet", to: "s3://exports/jobs", row_group_rows: 5000 });
    expect(fingerprintOf(sinkIdentity(other, components.destinations))).not.toBe(
      fingerprintOf(sinkIdentity(plain, components.destinations)),
    );
    const renamed = sinkSchema.parse({
      format: "parquet",
      to: "s3://exports/jobs",
      column_names: "snake_case",
    });
    expect(fingerprintOf(sinkIdentity(renamed, components.destinations))).not.toBe(
      fingerprintOf(sinkIdentity(plain, components.destinations)),
    );
    const policy = sinkSchema.parse({
      format: "parquet",
      to: "s3://exports/jobs",
      schema: { new_fields: "fail" },
    });
    expect(fingerprintOf(sinkIdentity(policy, components.destinations))).toBe(
      fingerprintOf(sinkIdentity(plain, components.destinations)),
    );
  });
});
