// Record placeholders of a path name real columns. Regression: `ticket_type={ticket.type}/…` under
// `column_names: snake_case` (the column is `ticket_type`), or `{ticket.typo}`, passed validate, and the
// run put every row under `ticket_type=__HIVE_DEFAULT_PARTITION__`. Now a placeholder names an output
// column (after naming) and nothing else: the field's name before naming is refused with the column
// it is written as, any other name with a did-you-mean, before any request, at the path's line and
// column.
import { join } from "node:path";
import { describe, expect } from "vitest";
import { NULL_PARTITION } from "../src/sinks/path-template.js";
import { emulatorEnv, EXPORT_EMULATOR, REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { positionOf } from "./support/pipeline-text.js";
import { listAllFiles, listDataFiles, readParquet } from "./support/read-output.js";
import { serviceFixture, useEmulator } from "./support/use-emulator.js";

const it = useEmulator().extend<{ untouchedService: TestService }>({
  /** What every refused pipeline points at; it must never see a request. */
  untouchedService: serviceFixture(EXPORT_EMULATOR),
});

function pipeline(path: string, out: string, naming = "snake_case"): string {
  return `name: path-placeholders
${REMOTE_SERVICE_YAML}
source:
  kind: tickets
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-10T06:00:00Z", slice: 1h }
  strategy: pit
sinks:
  - format: parquet
    to: ${out}
    path: "${path}"
    column_names: ${naming}
`;
}

describe("path placeholders and the sink's columns", () => {
  for (const { path, naming, says } of [
    {
      path: "ticket_type={ticket.type}/part-{slice}-{seq}.parquet",
      naming: "snake_case",
      says: '{ticket.type} names no column this sink writes: the field "ticket.type" is written as column "ticket_type"; write {ticket_type}',
    },
    {
      path: "ticket_type={ticket.typo}/part-{slice}-{seq}.parquet",
      naming: "snake_case",
      says: '{ticket.typo} names no column this sink writes, so every row would go under the null partition; did you mean "ticket_type"?',
    },
    {
      path: "ticket_type={ticket_type}/part-{slice}-{seq}.parquet",
      naming: "as_is",
      says: '{ticket_type} names no column this sink writes, so every row would go under the null partition; did you mean "ticket.type"?',
    },
  ]) {
    it(`${path} under ${naming}: validate, plan and run exit 2 at the path, nothing requested, nothing written`, async ({
      workspace,
      untouchedService,
    }) => {
      const { emulator } = untouchedService;
      const out = join(await workspace.folder("refused"), "out");
      const yaml = pipeline(path, out, naming);
      const file = await workspace.write(`refused-${naming}.yaml`, yaml);
      const { line, column } = positionOf(yaml, `"${path}"`);
      const before = await listAllFiles(workspace.dir);
      for (const command of ["validate", "plan", "run"]) {
        const result = await runCli([command, file], { env: emulatorEnv(emulator) });
        expect(result.code, result.stderr).toBe(2);
        expect(result.stderr).toContain(`${file}:${line}:${column}: sinks[0].path: ${says}`);
      }
      expect(emulator.requestCount()).toBe(0);
      expect(await listAllFiles(workspace.dir)).toEqual(before);
    });
  }

  it("a kind's own snake_case name ({app_timestamp} of logs) is an output column a path can name", async ({
    workspace,
    untouchedService,
  }) => {
    const { emulator } = untouchedService;
    const out = join(await workspace.folder("logs"), "out");
    const yaml = pipeline("t={app_timestamp}/part-{slice}-{seq}.parquet", out)
      .replace("kind: tickets", "kind: logs")
      .replace("strategy: pit", "strategy: scroll");
    const file = await workspace.write("logs-app-timestamp.yaml", yaml);
    const result = await runCli(["validate", file], { env: emulatorEnv(emulator) });
    expect(result.code, result.stderr).toBe(0);
    const wrong = await workspace.write(
      "logs-app-timestamps.yaml",
      yaml.replace("{app_timestamp}", "{app_timestamps}"),
    );
    const refused = await runCli(["validate", wrong], { env: emulatorEnv(emulator) });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('did you mean "app_timestamp"?');
  });

  it("the output name ({ticket_type}) routes every row to its own value", async ({ service, workspace }) => {
    const out = join(await workspace.folder("ticket_type"), "out");
    const file = await workspace.write(
      "ticket_type.yaml",
      pipeline("ticket_type={ticket_type}/part-{slice}-{seq}.parquet", out),
    );
    const result = await runCli(["run", file], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    const partitions = new Set<string>();
    for (const data of await listDataFiles(out)) {
      const value = decodeURIComponent(/^ticket_type=([^/]+)\//.exec(data)?.[1] ?? "missing");
      partitions.add(value);
      const { rows } = await readParquet(out, [data]);
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) expect(row.ticket_type ?? NULL_PARTITION, data).toBe(value);
    }
    expect(partitions.size).toBeGreaterThan(1);
  });

  it("as_is takes the output column ({ticket.type}), the field's own name there", async ({
    service,
    workspace,
  }) => {
    const out = join(await workspace.folder("as-is"), "out");
    const file = await workspace.write(
      "as-is.yaml",
      pipeline("ticket_type={ticket.type}/part-{slice}-{seq}.parquet", out, "as_is"),
    );
    const result = await runCli(["run", file], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    for (const data of await listDataFiles(out)) {
      const value = /^ticket_type=([^/]+)\//.exec(data)?.[1];
      for (const row of (await readParquet(out, [data])).rows) {
        // as_is keeps the dotted name as the column's name.
        expect(row["ticket.type"] ?? NULL_PARTITION, data).toBe(value);
      }
    }
  });
});
