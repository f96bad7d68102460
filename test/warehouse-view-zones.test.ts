// The warehouse's view of an export, as a user reads it: `mdq-export ddl --dialect duckdb` executed
// in sessions of several time zones gives the emulator's records for the window — a timestamp the
// same instant in every zone, every row in the UTC partition its own time says — for the Parquet and
// the NDJSON sink of one export; two sinks make two views; a directory named like a column is read.
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { gunzipSync, gzipSync } from "node:zlib";
import { describe, expect } from "vitest";
import { hitRecord } from "./support/expected-rows.js";
import { asColumnValue, collect, listDataFiles, valueAt } from "./support/read-output.js";
import { kubernetesJobsYaml } from "./support/jobs-pipeline.js";
import { emulatorEnv, runCli } from "./support/cli-harness.js";
import type { TestService, Workspace } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";
import { readSinkView, readWarehouseView } from "./support/warehouse-view.js";

const it = useEmulator({ density: 4 });

/** Crosses midnight UTC: in Berlin, New York and Tokyo the local day differs from the UTC one. */
const WINDOW = { start: "2026-03-10T22:00:00Z", end: "2026-03-11T02:00:00Z" };
const ZONES = ["UTC", "Europe/Berlin", "America/New_York", "Asia/Tokyo"] as const;
const VIEW_TYPES: Record<string, string> = {
  string: "VARCHAR",
  timestamp: "TIMESTAMP WITH TIME ZONE",
  double: "DOUBLE",
  int32: "INTEGER",
  int64: "BIGINT",
  boolean: "BOOLEAN",
  json: "JSON",
};

interface PinnedColumn {
  name: string;
  type: string;
  source: string;
}

async function pinnedColumns(
  file: string,
  sink: number,
  env: Record<string, string>,
): Promise<PinnedColumn[]> {
  const schema = await runCli(["schema", file, "--sink", String(sink), "--json"], { env });
  expect(schema.code, schema.stderr).toBe(0);
  return (JSON.parse(schema.stdout) as { columns: PinnedColumn[] }).columns;
}

/** The emulator's records for the window as the view must give them, with their UTC partitions. */
async function expectedView(
  service: TestService,
  pinned: readonly PinnedColumn[],
  partitions: (time: Date) => Record<string, unknown>,
): Promise<Record<string, unknown>[]> {
  const hits = await collect(
    service.emulator.expectedHits("jobs", {
      application: "atr",
      app_type: ["kubernetes"],
      domain: ["*"],
      start_time: WINDOW.start,
      end_time: WINDOW.end,
    }),
  );
  expect(hits.length).toBeGreaterThan(20);
  return hits
    .map((hit) => {
      const record = hitRecord(hit);
      const row: Record<string, unknown> = {};
      for (const column of pinned)
        row[column.name] = asColumnValue(valueAt(record, column.source), VIEW_TYPES[column.type] ?? "");
      return { ...row, ...partitions(new Date(Date.parse(String(record["@timestamp"])))) };
    })
    .sort((a, b) => (String(a["_id"]) < String(b["_id"]) ? -1 : 1));
}

const dayAndHour = (time: Date): Record<string, unknown> => ({
  dt: time.toISOString().slice(0, 10),
  hour: time.getUTCHours(),
});

function twoSinks(out: string, path: string): string {
  return `  - format: parquet
    to: ${join(out, "parquet")}
    path: "${path}"
    column_names: snake_case
  - format: ndjson
    gzip: true
    to: ${join(out, "ndjson")}
    path: "${path}"
    column_names: snake_case
`;
}

/** Writes the pipeline `name`: yesterday's kubernetes jobs into both sinks under the workspace's `name`. */
async function writeTwoSinks(
  workspace: Workspace,
  name: string,
  path: string,
): Promise<{ out: string; file: string }> {
  const out = join(workspace.dir, name);
  return { out, file: await workspace.write(`${name}.yaml`, kubernetesJobsYaml(name, twoSinks(out, path))) };
}

async function runExport(file: string, env: Record<string, string>): Promise<void> {
  const run = await runCli(["run", file, "--start", WINDOW.start, "--end", WINDOW.end], { env });
  expect(run.code, run.stderr).toBe(0);
}

describe("the DuckDB view in every session time zone", () => {
  it("Parquet and NDJSON of one export read as the service's instants, in their UTC partitions, as two views", async ({
    service,
    workspace,
  }) => {
    const { file } = await writeTwoSinks(
      workspace,
      "zones",
      "dt={date}/hour={hour}/part-{slice}-{seq}.{ext}",
    );
    const env = emulatorEnv(service.emulator);
    await runExport(file, env);
    const pinned = await pinnedColumns(file, 1, env);
    expect(pinned.filter((column) => column.type === "timestamp").length).toBeGreaterThan(1);
    const expected = await expectedView(service, pinned, dayAndHour);

    // Two sinks, two views: the second statement does not replace the first.
    const parquet = await runCli(["ddl", file, "--dialect", "duckdb", "--sink", "1"], { env: {} });
    const ndjson = await runCli(["ddl", file, "--dialect", "duckdb", "--sink", "2"], { env: {} });
    expect(parquet.code, parquet.stderr).toBe(0);
    expect(ndjson.code, ndjson.stderr).toBe(0);
    expect(parquet.stdout).toMatch(/^CREATE OR REPLACE VIEW "zones_parquet" AS/);
    expect(ndjson.stdout).toMatch(/CREATE OR REPLACE VIEW "zones_ndjson" AS/);
    const both = parquet.stdout + ndjson.stdout;

    for (const timeZone of ZONES) {
      for (const view of ["zones_parquet", "zones_ndjson"]) {
        const read = await readWarehouseView(both, { view, timeZone });
        expect(read.columns, `${view} in ${timeZone}`).toEqual([
          ...pinned.map((column) => ({ name: column.name, type: VIEW_TYPES[column.type] })),
          { name: "dt", type: "DATE" },
          { name: "hour", type: "INTEGER" },
        ]);
        expect(read.rows, `${view} in ${timeZone}`).toEqual(expected);
      }
    }
  });

  it("NDJSON timestamps written with an offset, or with none, read as their instants", async ({
    service,
    workspace,
  }) => {
    const { out, file } = await writeTwoSinks(workspace, "offsets", "dt={date}/part-{slice}-{seq}.{ext}");
    const env = emulatorEnv(service.emulator);
    await runExport(file, env);
    const pinned = await pinnedColumns(file, 2, env);
    const times = pinned.filter((column) => column.type === "timestamp").map((column) => column.name);
    const expected = await expectedView(service, pinned, (time) => ({ dt: time.toISOString().slice(0, 10) }));

    // The same records with each instant written as an application may write it: at -05:00, at
    // +05:30, in UTC without an offset, and as epoch milliseconds.
    const copy = join(workspace.dir, "offsets-copy");
    let rewritten = 0;
    for (const path of await listDataFiles(join(out, "ndjson"))) {
      const lines = gunzipSync(await readFile(join(out, "ndjson", path)))
        .toString("utf8")
        .split("\n")
        .filter((line) => line !== "")
        .map((line, n) => {
          const record = JSON.parse(line) as Record<string, unknown>;
          for (const name of times) {
            const value = record[name];
            if (typeof value !== "string") continue;
            record[name] = writtenAs(Date.parse(value), (n + rewritten) % 4);
            rewritten++;
          }
          return JSON.stringify(record);
        });
      await mkdir(dirname(join(copy, path)), { recursive: true });
      await writeFile(join(copy, path), gzipSync(`${lines.join("\n")}\n`));
    }
    expect(rewritten).toBeGreaterThan(expected.length);

    const ddl = await runCli(["ddl", file, "--dialect", "duckdb", "--sink", "2", "--location", copy], {
      env: {},
    });
    expect(ddl.code, ddl.stderr).toBe(0);
    for (const timeZone of ZONES) {
      const read = await readWarehouseView(ddl.stdout, { view: "offsets_ndjson", timeZone });
      expect(read.rows, timeZone).toEqual(expected);
    }
  });
});

/** An instant as text at an offset, as UTC wall time without one, or as epoch milliseconds. */
function writtenAs(millis: number, form: number): unknown {
  const at = (minutes: number): string => {
    const wall = new Date(millis + minutes * 60_000).toISOString().slice(0, 23);
    const sign = minutes < 0 ? "-" : "+";
    const abs = Math.abs(minutes);
    return `${wall}${sign}${String(Math.floor(abs / 60)).padStart(2, "0")}:${String(abs % 60).padStart(2, "0")}`;
  };
  if (form === 0) return at(-300);
  if (form === 1) return at(330);
  if (form === 2) return new Date(millis).toISOString().slice(0, 23);
  return millis;
}

describe("a partition directory named like a column", () => {
  it("ddl makes a table of what run wrote: the column read from the files, the other directories typed", async ({
    service,
    workspace,
  }) => {
    const { file } = await writeTwoSinks(
      workspace,
      "state",
      "dt={date}/job_state={job_state}/part-{slice}-{seq}.{ext}",
    );
    const env = emulatorEnv(service.emulator);
    const validate = await runCli(["validate", file], { env });
    expect(validate.code, validate.stderr).toBe(0);
    await runExport(file, env);
    const pinned = await pinnedColumns(file, 1, env);
    expect(pinned.map((column) => column.name)).toContain("job_state");
    const expected = await expectedView(service, pinned, (time) => ({ dt: time.toISOString().slice(0, 10) }));
    expect(new Set(expected.map((row) => row["job_state"])).size).toBeGreaterThan(1);

    for (const sink of ["1", "2"]) {
      for (const timeZone of ["UTC", "Asia/Tokyo"]) {
        const read = await readSinkView(file, { sink: Number(sink), timeZone });
        expect(read.columns.map((column) => column.name)).toEqual([...pinned.map((c) => c.name), "dt"]);
        expect(read.rows, `sink ${sink} in ${timeZone}`).toEqual(expected);
      }
      // Athena and BigQuery name partition columns after the directories: the table reads the files
      // without partition columns, the column from the files.
      const athena = await runCli(
        ["ddl", file, "--dialect", "athena", "--sink", sink, "--location", "s3://lake/state"],
        { env: {} },
      );
      expect(athena.code, athena.stderr).toBe(0);
      expect(athena.stdout).toContain("`job_state` string");
      expect(athena.stdout).not.toContain("PARTITIONED BY");
      const bigquery = await runCli(
        ["ddl", file, "--dialect", "bigquery", "--sink", sink, "--location", "gs://lake/state"],
        { env: {} },
      );
      expect(bigquery.code, bigquery.stderr).toBe(0);
      expect(bigquery.stdout).toContain("`job_state` STRING");
      expect(bigquery.stdout).not.toContain("WITH PARTITION COLUMNS");
    }
  });
});
