// From pipeline to queryable table: `mdq-export ddl --dialect duckdb` executed by DuckDB gives back
// exactly the exported records, with the pinned types and the partition columns typed. `schema`
// prints what is pinned.
import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { describe, expect } from "vitest";
import { hitRecord } from "./support/expected-rows.js";
import {
  asColumnValue,
  collect,
  readNdjson,
  valueAnywhere,
  valueAt,
  viewColumnCounts,
} from "./support/read-output.js";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { emulatorEnv, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";
import type { Manifest } from "../src/pipeline/output-state/manifest.js";

const it = useEmulator({ density: 4 });

const WINDOW = { start: "2026-03-10T22:00:00Z", end: "2026-03-11T02:00:00Z" };
const DUCKDB_TYPES: Record<string, string> = {
  string: "VARCHAR",
  timestamp: "TIMESTAMP WITH TIME ZONE",
  double: "DOUBLE",
  int32: "INTEGER",
  int64: "BIGINT",
  boolean: "BOOLEAN",
  json: "JSON",
};

describe("ddl --dialect duckdb", () => {
  it.for([
    ["parquet", "dt={date}/hour={hour}/part-{slice}-{seq}.parquet"],
    ["ndjson\n    gzip: true", "dt={date}/hour={hour}/part-{slice}-{seq}.{ext}"],
  ] as const)(
    "%s: the view returns the exported records with pinned types and typed partitions",
    async ([format, path], { service, workspace }) => {
      const { emulator } = service;
      const out = join(workspace.dir, format.startsWith("parquet") ? "parquet" : "ndjson");
      const file = await workspace.write(
        `ddl-${format.slice(0, 7)}.yaml`,
        kubernetesJobsYaml(
          "nightly-jobs",
          `  - format: ${format}
    to: ${out}
    path: "${path}"
    column_names: snake_case
`,
        ),
      );
      const env = emulatorEnv(emulator);
      const run = await runCli(["run", file, "--start", WINDOW.start, "--end", WINDOW.end], { env });
      expect(run.code, run.stderr).toBe(0);

      const schema = await runCli(["schema", file, "--sink", "1", "--json"], { env });
      expect(schema.code, schema.stderr).toBe(0);
      const pinned = (
        JSON.parse(schema.stdout) as { columns: { name: string; type: string; source: string }[] }
      ).columns;
      const text = await runCli(["schema", file], { env });
      expect(text.stdout).toContain(`pinned in ${out}/_mdq-export/schema.json`);
      expect(text.stdout).toMatch(/job_execution_time_elapsed\s+double\s+yes\s+job\.execution_time\.elapsed/);

      const ddl = await runCli(["ddl", file, "--dialect", "duckdb"], { env });
      expect(ddl.code, ddl.stderr).toBe(0);
      const instance = await DuckDBInstance.create(":memory:");
      const connection = await instance.connect();
      try {
        await connection.run(ddl.stdout);
        const reader = await connection.runAndReadAll("SELECT * FROM nightly_jobs ORDER BY _id");
        const names = reader.columnNames();
        const types = reader.columnTypes().map((type) => type.toString());
        expect(names).toEqual([...pinned.map((column) => column.name), "dt", "hour"]);
        expect(types).toEqual([...pinned.map((column) => DUCKDB_TYPES[column.type]), "DATE", "INTEGER"]);

        const hits = await collect(
          emulator.expectedHits("jobs", {
            application: "atr",
            app_type: ["kubernetes"],
            domain: ["*"],
            start_time: WINDOW.start,
            end_time: WINDOW.end,
          }),
        );
        const expected = hits
          .map((hit) => {
            const record = hitRecord(hit);
            const row: Record<string, unknown> = {};
            for (const column of pinned)
              row[column.name] = asColumnValue(
                valueAt(record, column.source),
                DUCKDB_TYPES[column.type] ?? "",
              );
            const hour = new Date(Date.parse(String(record["@timestamp"])));
            row["dt"] = hour.toISOString().slice(0, 10);
            row["hour"] = hour.getUTCHours();
            return row;
          })
          .sort((a, b) => String(a["_id"]).localeCompare(String(b["_id"])));
        const rows = reader.getRowObjectsJS().map((row) => {
          const out: Record<string, unknown> = {};
          for (const [name, value] of Object.entries(row))
            out[name] =
              value instanceof Date
                ? name === "dt"
                  ? value.toISOString().slice(0, 10)
                  : value.toISOString()
                : value;
          return out;
        });
        expect(rows.length).toBe(hits.length);
        expect(rows).toEqual(expected);
        // The window crosses midnight: both dates are there, as dates.
        const dates = await connection.runAndReadAll("SELECT DISTINCT dt FROM nightly_jobs ORDER BY dt");
        expect(dates.getRowObjectsJS().map((row) => (row["dt"] as Date).toISOString().slice(0, 10))).toEqual([
          "2026-03-10",
          "2026-03-11",
        ]);
      } finally {
        connection.closeSync();
        instance.closeSync();
      }
    },
  );
});

describe("ddl for NDJSON written as the transforms leave it (column_names: as_is)", () => {
  const pipelineYaml = (out: string, extra = ""): string =>
    kubernetesJobsYaml(
      "nested-jobs",
      `  - format: ndjson
    gzip: true
    to: ${out}
    path: "dt={date}/part-{slice}-{seq}.{ext}"
${extra}`,
    ).replace(
      "sinks:",
      // A field moved to a dotted name with no parent object is written as a literal dotted key.
      'transforms:\n  - rename: { job.state: status.text, "@timestamp": timestamp }\nsinks:',
    );

  it("duckdb: every column of the view holds as many values as the exported records; offline from a pin, from any directory", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "nested");
    const file = await workspace.write("nested.yaml", pipelineYaml(out));
    const env = emulatorEnv(emulator);
    const run = await runCli(["run", file, "--start", WINDOW.start, "--end", WINDOW.end], { env });
    expect(run.code, run.stderr).toBe(0);

    const manifest = JSON.parse(await readFile(join(out, "_manifest.json"), "utf8")) as Manifest;
    const records = await readNdjson(
      out,
      manifest.files.map((f) => f.path),
    );
    expect(records.length).toBe(manifest.totals.rows);
    // The records are nested, as the view must read them.
    expect(records[0]).toHaveProperty(["atr", "domain_name"]);
    expect(records[0]).toHaveProperty(["status.text"]);

    const schema = await runCli(["schema", file, "--sink", "1", "--json"], { env });
    expect(schema.code, schema.stderr).toBe(0);
    const names = (JSON.parse(schema.stdout) as { columns: { name: string }[] }).columns.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining(["atr.domain_name", "job.execution_time.elapsed", "status.text"]),
    );
    const exported: Record<string, number> = { "*": records.length };
    for (const name of names)
      exported[name] = records.filter((record) => {
        const value = valueAnywhere(record, name);
        return value !== undefined && value !== null;
      }).length;
    expect(exported["atr.domain_name"]).toBe(records.length);

    const ddl = await runCli(["ddl", file, "--dialect", "duckdb"], { env });
    expect(ddl.code, ddl.stderr).toBe(0);
    expect(await viewColumnCounts(ddl.stdout, "nested_jobs", names)).toEqual(exported);

    // Offline: the pin the run wrote beside the output, no service variables.
    const beside = await runCli(["ddl", file, "--dialect", "duckdb"], { env: {} });
    expect(beside.code, beside.stderr).toBe(0);
    expect(beside.stdout).toBe(ddl.stdout);
    // Offline: the pin committed beside the pipeline, no service variables.
    const pin = join(workspace.dir, "nested.schema.json");
    await writeFile(pin, schema.stdout);
    const offline = await runCli(["ddl", file, "--dialect", "duckdb", "--pin", pin], { env: {} });
    expect(offline.stderr).toBe("");
    expect(offline.code).toBe(0);
    expect(offline.stdout).toBe(ddl.stdout);
    expect(offline.stdout).toContain(`read_json_objects('${out}/dt=*/part-*-*.ndjson.gz'`);
    const pinned = await workspace.write(
      "nested-pinned.yaml",
      pipelineYaml(out, "    schema:\n      pinned: nested.schema.json\n"),
    );
    const committed = await runCli(["ddl", pinned, "--dialect", "duckdb"], { env: {} });
    expect(committed.code, committed.stderr).toBe(0);
    expect(committed.stdout).toBe(ddl.stdout);
    expect(await viewColumnCounts(committed.stdout, "nested_jobs", names)).toEqual(exported);

    // Athena and BigQuery declare one shape per column: the service's nested fields as structs
    // (checked structurally in ddl.test.ts); a dotted field a transform wrote has none, so they refuse it.
    const athena = await runCli(["ddl", pinned, "--dialect", "athena", "--location", "s3://lake/jobs"], {
      env: {},
    });
    expect(athena.code).toBe(2);
    expect(athena.stderr).toContain('"status.text" is written by a transform');
    const servicePin = join(workspace.dir, "service-fields.schema.json");
    const parsed = JSON.parse(schema.stdout) as { columns: { name: string }[] };
    parsed.columns = parsed.columns.filter((column) => column.name !== "status.text");
    await writeFile(servicePin, JSON.stringify(parsed));
    const structs = await runCli(
      ["ddl", file, "--dialect", "athena", "--pin", servicePin, "--location", "s3://lake/jobs"],
      { env: {} },
    );
    expect(structs.code, structs.stderr).toBe(0);
    expect(structs.stdout).toMatch(/`atr` struct<[^>]*domain_name:string/);
    const bigquery = await runCli(
      ["ddl", file, "--dialect", "bigquery", "--pin", servicePin, "--location", "gs://lake/jobs"],
      { env: {} },
    );
    expect(bigquery.code, bigquery.stderr).toBe(0);
    expect(bigquery.stdout).toMatch(/`atr` STRUCT<[^>]*`domain_name` STRING/);
  });

  it("a missing --pin names the command that writes it", async ({ workspace }) => {
    const out = join(workspace.dir, "nested");
    const file = await workspace.write("nested-location.yaml", pipelineYaml(out));
    const pin = join(workspace.dir, "missing.schema.json");
    const missing = await runCli(["ddl", file, "--dialect", "duckdb", "--pin", pin], { env: {} });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(
      `--pin: "${pin}" cannot be read (ENOENT); write it with mdq-export schema PIPELINE --sink 1 --json > ${pin}`,
    );
  });
});

describe("ddl over a relative window", () => {
  it("--now and --start decide the window as for run: Athena's projection starts on its first day", async ({
    service,
    workspace,
  }) => {
    const file = await workspace.write(
      "relative.yaml",
      kubernetesJobsYaml(
        "relative-jobs",
        `  - format: parquet
    to: ${join(workspace.dir, "relative")}
    path: "dt={date}/hour={hour}/part-{slice}-{seq}.parquet"
    column_names: snake_case
`,
      ),
    );
    const now = "2026-03-12T05:00:00Z";
    const schema = await runCli(["schema", file, "--sink", "1", "--json", "--now", now], {
      env: emulatorEnv(service.emulator),
    });
    expect(schema.code, schema.stderr).toBe(0);
    const pin = join(workspace.dir, "relative.schema.json");
    await writeFile(pin, schema.stdout);
    const ddl = (...extra: string[]) =>
      runCli(["ddl", file, "--dialect", "athena", "--pin", pin, "--location", "s3://lake/jobs", ...extra], {
        env: {},
      });
    // The window is yesterday, as of --now.
    const atNow = await ddl("--now", now);
    expect(atNow.code, atNow.stderr).toBe(0);
    expect(atNow.stdout).toContain("'projection.dt.range' = '2026-03-11,NOW'");
    const moved = await ddl("--now", now, "--start", "2026-03-01T00:00:00Z");
    expect(moved.code, moved.stderr).toBe(0);
    expect(moved.stdout).toContain("'projection.dt.range' = '2026-03-01,NOW'");
    const refused = await ddl("--now", "yesterday");
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('--now "yesterday"');
  });
});
