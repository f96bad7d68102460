// Warehouse-safe column names are checked offline: two fields that snake_case makes one column are
// refused by validate, with the file, line and column of the sink's column_names; a kind's own fields
// that snake_case alone would make one column get the kind's names, so the default naming runs.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createWorkspace, REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";

let workspace: Workspace;
beforeAll(async () => {
  workspace = await createWorkspace("mdq-columns-");
});
afterAll(() => workspace.remove());

const env = {
  MDQ_BASE_URL: "https://mdq.example.com",
  MDQ_AUTH_URL: "https://auth.example.com",
  MDQ_CLIENT_ID: "ci",
  MDQ_CLIENT_SECRET: "placeholder",
};

const pipeline = (transforms: string, sinkLines = "") => `name: logs-snake
${REMOTE_SERVICE_YAML}
source:
  kind: logs
  application: atr
  app_type: [ec2]
  domain: ["*"]
  window: { start: now-1d/d, end: now/d, slice: 1h }
${transforms}sinks:
  - format: parquet
    to: ./out
    column_names: snake_case
${sinkLines}`;

describe("column_names: snake_case", () => {
  it("regression: logs under snake_case are valid as written, @timestamp as timestamp and the application's timestamp as app_timestamp", async () => {
    const file = await workspace.write("logs.yaml", pipeline(""));
    const result = await runCli(["validate", file], { env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("refuses fields that become one column, at the sink's column_names", async () => {
    const file = await workspace.write(
      "clash.yaml",
      pipeline("transforms:\n  - rename: { level: log_level }\n"),
    );
    const result = await runCli(["validate", file], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      `${file}:18:19: sinks[0].column_names: column_names: snake_case turns both "log_level" and "logLevel" into "log_level"; rename one of them with a transform (rename: { "logLevel": <new name> }), or give one its own column with column_name_overrides: { "logLevel": <name> }, or keep column_names: as_is`,
    );
  });

  it("refuses an override onto the kind's own name for a field, naming both fields", async () => {
    const file = await workspace.write(
      "onto-kind-name.yaml",
      pipeline("", "    column_name_overrides: { message: app_timestamp }\n"),
    );
    const result = await runCli(["validate", file], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'column_names: snake_case turns both "timestamp" and "message" into "app_timestamp"',
    );
  });

  it("accepts the pipeline once a transform removes the clash", async () => {
    const file = await workspace.write(
      "fixed.yaml",
      pipeline("transforms:\n  - drop: { fields: [timestamp] }\n"),
    );
    const result = await runCli(["validate", file], { env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("accepts the pipeline once column_name_overrides gives one of the fields its own column", async () => {
    const file = await workspace.write(
      "override.yaml",
      pipeline("", "    column_name_overrides: { timestamp: timestamp_field }\n"),
    );
    const result = await runCli(["validate", file], { env });
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
  });

  it("refuses an override that is not snake_case under snake_case, or holds a control character", async () => {
    const file = await workspace.write(
      "bad-override.yaml",
      pipeline("", '    column_name_overrides: { timestamp: Timestamp.Field, "@timestamp": "ts\\u0000" }\n'),
    );
    const result = await runCli(["validate", file], { env });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'sinks[0].column_name_overrides.timestamp: "Timestamp.Field" is not a snake_case column name ([a-z_][a-z0-9_]*)',
    );
    expect(result.stderr).toContain("a column name has no control character");
  });
});
