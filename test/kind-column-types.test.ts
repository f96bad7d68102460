// The columns a run writes when the mappings it combines disagree: one field that two app types map
// with two types is one column of a type that holds both, with a warning, and every value is read
// back as the service sent it (regression: every v1 logs run stopped with COLUMN_COLLISION when one
// app type mapped `timestamp` as `alias` and the other as `date`, NDJSON included).
import { join } from "node:path";
import { describe, expect } from "vitest";
import { byId, checkCompleteExport } from "./support/export-checks.js";
import { hitRecord, parquetRowOf } from "./support/expected-rows.js";
import { jobsPipelineYaml } from "./support/jobs-pipeline.js";
import { collect, readNdjson, readParquet } from "./support/read-output.js";
import { EXPORT_EMULATOR, expectedRows, REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import type { TestService } from "./support/cli-harness.js";
import { fieldsAsGenerated, serviceFixture, useEmulator } from "./support/use-emulator.js";

const it = useEmulator({ density: 4 }).extend<{
  logFields: void;
  jobFields: void;
  conflicted: TestService;
}>({
  logFields: fieldsAsGenerated("logs"),
  jobFields: fieldsAsGenerated("jobs"),
  // The emulator's own conflicts across app types: kubernetes logs map `timestamp` as alias, `odd.code`
  // is long on ec2 and keyword elsewhere, `odd.size` integer on ec2 and long elsewhere.
  conflicted: serviceFixture({ ...EXPORT_EMULATOR, density: 4, awkward: { conflicts: true } }),
});

describe("one field, two types across the mappings a run combines", () => {
  it("v1 logs of ec2 and caas with timestamp as alias and as date: exit 0, one timestamp column, a warning, every value as sent", async ({
    service,
    workspace,
  }) => {
    // The emulator lists the entry beside its own `date` one: the answer the run joins across app types.
    service.emulator.changeFields("logs", { mappings: [{ name: "timestamp", type: "alias" }] });
    const out = join(workspace.dir, "v1-alias");
    const file = await workspace.write(
      "v1-alias.yaml",
      `name: v1-alias
${REMOTE_SERVICE_YAML}
source:
  kind: logs
  api: v1
  application: atr
  domain: [alpha.example]
  window: { start: now-3h/h, end: now }
  strategy: scroll
sinks:
  - format: parquet
    to: ${out}/parquet
  - format: ndjson
    to: ${out}/ndjson
`,
    );
    const result = await runCli(["run", file, "--log-level", "warn"], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    const warning = result.stderr
      .split("\n")
      .filter((line) => line.includes('"field":"timestamp"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(warning).toEqual([
      expect.objectContaining({
        level: "warn",
        mapping_types: ["date", "alias"],
        column_type: "timestamp",
        msg: expect.stringContaining("an alias takes the type of the field's other entries"),
      }),
    ]);

    const hits = await collect(
      service.emulator.expectedHits("/v1/logs/scroll", {
        application: "atr",
        time_range: "now-3h/h",
        domain: "alpha.example",
      }),
    );
    expect(hits.length).toBeGreaterThan(10);
    const parquet = await checkCompleteExport(join(out, "parquet"), hits.length);
    const table = await readParquet(join(out, "parquet"), parquet.files);
    expect(table.types).toMatchObject({ "@timestamp": "TIMESTAMP", timestamp: "TIMESTAMP" });
    const rows = byId(table.rows);
    expect(rows.size).toBe(hits.length);
    for (const hit of hits) expect(rows.get(hit._id)).toEqual(parquetRowOf(hitRecord(hit), table.types));
    const ndjson = await checkCompleteExport(join(out, "ndjson"), hits.length);
    const lines = byId(await readNdjson(join(out, "ndjson"), ndjson.files));
    for (const hit of hits) expect(lines.get(hit._id)).toEqual(hitRecord(hit));
  });

  it("jobs whose elapsed seconds the mappings give as float and as long: one text column holding each number as sent (regression: stopped with COLUMN_COLLISION)", async ({
    service,
    workspace,
  }) => {
    service.emulator.changeFields("jobs", {
      mappings: [{ name: "job.execution_time.elapsed", type: "long" }],
    });
    const out = join(workspace.dir, "jobs-float-long");
    const yaml = jobsPipelineYaml({ name: "float-long", out: `${out}/ndjson`, endHour: 2 }).replace(
      "sinks:\n",
      `sinks:\n  - format: parquet\n    to: ${out}/parquet\n`,
    );
    const file = await workspace.write("jobs-float-long.yaml", yaml);
    const result = await runCli(["run", file, "--log-level", "warn"], { env: service.env });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(
      '"field":"job.execution_time.elapsed","mapping_types":["float","long"],"column_type":"string"',
    );
    const expected = await expectedRows(service.emulator, "/v3/jobs/query", [
      {
        application: "atr",
        app_type: ["ec2", "kubernetes"],
        domain: ["*"],
        start_time: "2026-03-10T00:00:00Z",
        end_time: "2026-03-10T02:00:00Z",
      },
    ]);
    expect(expected.size).toBeGreaterThan(10);
    const parquet = await checkCompleteExport(join(out, "parquet"), expected.size);
    const table = await readParquet(join(out, "parquet"), parquet.files);
    expect(table.types).toMatchObject({ "job.execution_time.elapsed": "VARCHAR" });
    const elapsed = table.rows.map((row) => row["job.execution_time.elapsed"]);
    expect(elapsed.some((value) => typeof value === "string" && value.includes("."))).toBe(true);
    for (const row of table.rows) {
      const record = expected.get(String(row["_id"]));
      expect(record).toBeDefined();
      if (record !== undefined) expect(row).toEqual(parquetRowOf(record, table.types));
    }
    const ndjson = await checkCompleteExport(join(out, "ndjson"), expected.size);
    const lines = byId(await readNdjson(join(out, "ndjson"), ndjson.files));
    for (const [id, record] of expected) expect(lines.get(id)).toEqual(record);
  });

  for (const api of ["v1", "v2"] as const)
    it(`${api} logs of both app types, as the emulator maps them apart (timestamp alias and date, a code long and keyword, a size integer and long), under as_is and snake_case: every value as sent`, async ({
      conflicted,
      workspace,
    }) => {
      const out = join(workspace.dir, `conflicts-${api}`);
      const source =
        api === "v1"
          ? "api: v1\n  application: atr\n  domain: [alpha.example]\n  window: { start: now-3h/h, end: now }"
          : `application: atr\n  app_type: [ec2, kubernetes]\n  domain: [alpha.example]\n  window: { start: "2026-03-10T00:00:00Z", end: "2026-03-10T03:00:00Z", slice: 1h }`;
      const file = await workspace.write(
        `conflicts-${api}.yaml`,
        `name: conflicts-${api}
${REMOTE_SERVICE_YAML}
source:
  kind: logs
  ${source}
  strategy: scroll
sinks:
  - format: parquet
    to: ${out}/as-is
  - format: parquet
    to: ${out}/snake
    column_names: snake_case
  - format: ndjson
    to: ${out}/ndjson
`,
      );
      const result = await runCli(["run", file, "--log-level", "warn"], { env: conflicted.env });
      expect(result.code, result.stderr).toBe(0);
      const widened = result.stderr
        .split("\n")
        .filter((line) => line.includes('"column_type"'))
        .map((line) => JSON.parse(line) as { field: string; column_type: string });
      expect(Object.fromEntries(widened.map((line) => [line.field, line.column_type]))).toEqual({
        timestamp: "timestamp",
        "odd.code": "string",
        "odd.size": "int64",
      });
      const bodies =
        api === "v1"
          ? [{ application: "atr", time_range: "now-3h/h", domain: "alpha.example" }]
          : ["ec2", "kubernetes"].map((appType) => ({
              application: "atr",
              app_type: appType,
              domain: ["alpha.example"],
              start_time: "2026-03-10T00:00:00Z",
              end_time: "2026-03-10T03:00:00Z",
            }));
      const expected = await expectedRows(
        conflicted.emulator,
        api === "v1" ? "/v1/logs/scroll" : "/v2/logs/scroll",
        bodies,
      );
      expect(expected.size).toBeGreaterThan(10);
      const asIs = await readParquet(
        join(out, "as-is"),
        (await checkCompleteExport(join(out, "as-is"), expected.size)).files,
      );
      expect(asIs.types).toMatchObject({
        timestamp: "TIMESTAMP",
        "odd.code": "VARCHAR",
        "odd.size": "BIGINT",
      });
      const codes = asIs.rows.map((row) => row["odd.code"]);
      expect(codes.some((code) => /^\d+$/.test(String(code)))).toBe(true);
      expect(codes.some((code) => String(code).startsWith("E-"))).toBe(true);
      for (const row of asIs.rows)
        expect(row).toEqual(parquetRowOf(expected.get(String(row["_id"])) ?? {}, asIs.types));
      const snake = await readParquet(
        join(out, "snake"),
        (await checkCompleteExport(join(out, "snake"), expected.size)).files,
      );
      expect(snake.types).toMatchObject({
        timestamp: "TIMESTAMP",
        app_timestamp: "TIMESTAMP",
        odd_code: "VARCHAR",
        odd_size: "BIGINT",
      });
      for (const row of snake.rows) {
        const record = expected.get(String(row["_id"])) ?? {};
        const odd = (record["odd"] ?? {}) as Record<string, unknown>;
        expect(row).toMatchObject({
          timestamp: new Date(String(record["@timestamp"])).toISOString(),
          app_timestamp: new Date(String(record["timestamp"])).toISOString(),
          odd_code: odd["code"] === undefined ? null : String(odd["code"]),
          odd_size: odd["size"] ?? null,
        });
      }
      const lines = byId(
        await readNdjson(
          join(out, "ndjson"),
          (await checkCompleteExport(join(out, "ndjson"), expected.size)).files,
        ),
      );
      for (const [id, record] of expected) expect(lines.get(id)).toEqual(record);
    });
});
