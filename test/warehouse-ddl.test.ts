// From pipeline to queryable table: `mdq-export ddl --dialect duckdb` executed by DuckDB gives back
// exactly the exported records, with the pinned types and the partition columns typed. `schema`
// prints what is pinned.
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunningEmulator } from "../src/emulator/server.js";
import { hitRecord } from "./support/expected-rows.js";
import { startTestEmulator } from "./support/export-checks.js";
import { asColumnValue, collect, valueAt } from "./support/read-output.js";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { createWorkspace, emulatorEnv, runCli } from "./support/cli-harness.js";
import type { Workspace } from "./support/cli-harness.js";

let emulator: RunningEmulator;
let workspace: Workspace;
beforeAll(async () => {
  emulator = await startTestEmulator({ density: 4 });
  workspace = await createWorkspace("mdq-ddl-");
});
afterAll(async () => {
  await emulator.close();
  await workspace.remove();
});

const WINDOW = { start: "2026-03-10T22:00:00Z", end: "2026-03-11T02:00:00Z" };
const DUCKDB_TYPES: Record<string, string> = {
  string: "VARCHAR",
  timestamp: "TIMESTAMP",
  double: "DOUBLE",
  int32: "INTEGER",
  int64: "BIGINT",
  boolean: "BOOLEAN",
  json: "JSON",
};

describe("ddl --dialect duckdb", () => {
  it.each([
    ["parquet", "dt={date}/hour={hour}/part-{slice}-{seq}.parquet"],
    ["ndjson\n    gzip: true", "dt={date}/hour={hour}/part-{slice}-{seq}.{ext}"],
  ])(
    "%s: the view returns the exported records with pinned types and typed partitions",
    async (format, path) => {
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
