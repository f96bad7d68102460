// Every sink of a pipeline carries the same columns, and they cover every field the records of the
// kind can hold (regressions: a v1 logs export without app_type built its Parquet columns from ec2's
// fields only and dropped logLevel; billing Parquet lacked the window_start/window_end its NDJSON had).
// A field no column holds is reported, never dropped without a word.
import { join } from "node:path";
import { describe, expect } from "vitest";
import { validateRequest } from "../src/api/wire/operations.js";
import { createSilentLogger } from "../src/logger.js";
import type { RecordBatch, SliceContext } from "../src/core/contracts.js";
import { reportUnknownFields, unknownFields } from "../src/pipeline/run/report-unknown-fields.js";
import { createTakenColumnsReader } from "../src/decoding/taken-columns.js";
import { parquetColumnCoercers } from "../src/formats/parquet/coercers.js";
import { checkCompleteExport } from "./support/export-checks.js";
import { listDataFiles, readNdjson, readParquet } from "./support/read-output.js";
import { REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";
import type { EmulatorFixtures } from "./support/use-emulator.js";
import { rowsOf } from "../src/core/record-batch.test-support.js";
import { recordCount } from "../src/core/record-batch.js";
import type { TakenRecord } from "../src/core/record-batch.js";

const it = useEmulator();

/** Every dotted leaf path of a record (`atr.domain_name`, `regex.extractions.logLevel`). */
function leafPaths(record: Readonly<Record<string, unknown>>, at = ""): string[] {
  return Object.entries(record).flatMap(([key, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value)
      ? leafPaths(value as Record<string, unknown>, `${at}${key}.`)
      : [`${at}${key}`],
  );
}

async function exportBoth(
  { service, workspace }: EmulatorFixtures,
  name: string,
  source: string,
): Promise<{ stderr: string; out: string }> {
  const out = join(workspace.dir, name);
  const file = await workspace.write(
    `${name}.yaml`,
    `name: ${name}\n${REMOTE_SERVICE_YAML}\nsource:\n${source}sinks:\n  - format: parquet\n    to: ${out}/parquet\n  - format: ndjson\n    to: ${out}/ndjson\n`,
  );
  const result = await runCli(["run", file, "--log-level", "warn"], { env: service.env });
  expect(result.code).toBe(0);
  return { stderr: result.stderr, out };
}

/** The NDJSON records' fields are each a Parquet column, with the same values present. */
async function expectSameColumns(out: string): Promise<Record<string, string>> {
  const ndjsonFiles = await listDataFiles(join(out, "ndjson"));
  const records = await readNdjson(join(out, "ndjson"), ndjsonFiles);
  const parquet = await checkCompleteExport(join(out, "parquet"), records.length);
  const table = await readParquet(join(out, "parquet"), parquet.files);
  const fields = new Set(records.flatMap((record) => leafPaths(record)));
  expect(fields.size).toBeGreaterThan(0);
  for (const field of fields) expect(Object.keys(table.types)).toContain(field);
  return table.types;
}

describe("columns cover every app type and field the query can return", () => {
  it("v1 logs without app_type (ec2 and caas) keep logLevel, which only containers carry", async ({
    service,
    workspace,
  }) => {
    const { stderr, out } = await exportBoth(
      { service, workspace },
      "v1-logs-any-app-type",
      "  kind: logs\n  api: v1\n  application: atr\n  domain: [alpha.example]\n  window: { start: now-3h/h }\n",
    );
    const types = await expectSameColumns(out);
    expect(types).toHaveProperty("logLevel");
    expect(stderr).not.toContain("no output column");
  });

  it("billing Parquet carries window_start and window_end like its NDJSON", async ({
    service,
    workspace,
  }) => {
    const { out } = await exportBoth(
      { service, workspace },
      "billing-window",
      "  kind: billing\n  domain: [alpha.example]\n  window: { start: now-7d/d }\n",
    );
    const types = await expectSameColumns(out);
    expect(types).toMatchObject({ window_start: "TIMESTAMP", window_end: "TIMESTAMP" });
  });
});

describe("a field no column holds is reported", () => {
  const columns = [
    { name: "_id", type: "string" as const },
    { name: "atr.domain_name", type: "string" as const },
  ];

  it("names the fields outside the columns, nested ones by their dotted path", () => {
    const names = new Set(columns.map((column) => column.name));
    const row = { _id: "1", atr: { domain_name: "a", client: "c" }, extra: { deep: 1 } };
    expect(unknownFields(row, names)).toEqual(["atr.client", "extra"]);
  });

  it("holds to what a column reads: a top-level dotted key, or a path of nested objects", () => {
    const names = new Set(["_id", "atr.domain_name", "atr.infra_data.region", "tags"]);
    const flat = { _id: "1", "atr.domain_name": "a", "atr.infra_data": { region: "r" }, "atr.client": "c" };
    expect(unknownFields(flat, names)).toEqual(["atr.infra_data", "atr.client"]);
    const mixed = { atr: { "infra_data.region": "r", domain_name: { a: 1 } }, tags: { any: 1 }, atr2: 1 };
    expect(unknownFields(mixed, names)).toEqual(["atr.infra_data.region", "atr2"]);
    expect(unknownFields({ atr: "not an object" }, names)).toEqual(["atr"]);
  });

  it("warns once per slice with the field names and passes every batch on unchanged", async () => {
    const { warnings, ctx } = warningContext();
    async function* batches(): AsyncGenerator<RecordBatch> {
      yield { kind: "rows", rows: [{ _id: "1", atr: { domain_name: "a" }, logLevel: "info" }] };
      yield { kind: "rows", rows: [{ _id: "2", logLevel: "warn", level: "WARN" }] };
      yield { kind: "rows", rows: [{ _id: "3", logLevel: "error" }] };
    }
    const seen: RecordBatch[] = [];
    for await (const batch of reportUnknownFields(columns)(batches(), ctx)) seen.push(batch);
    expect(seen.flatMap((batch) => rowsOf(batch)).map((row) => row._id)).toEqual(["1", "2", "3"]);
    expect(warnings).toEqual([{ fields: ["logLevel"] }, { fields: ["level"] }]);
  });

  it("takes the names of rows read from the hits' bytes from their reader, as the walk would give them", async () => {
    const { warnings, ctx } = warningContext();
    const reader = createTakenColumnsReader(columns, parquetColumnCoercers);
    const take = (id: string, source: string): TakenRecord => {
      const bytes = Buffer.from(`{"_index":"logs","_id":"${id}","_score":null,"_source":${source}}`);
      const read = reader.read(bytes, 0, bytes.length, false);
      if (read === undefined) throw new Error("the reader declined a valid hit");
      return read.row as TakenRecord;
    };
    async function* batches(): AsyncGenerator<RecordBatch> {
      yield { kind: "columns", records: [take("1", '{"atr":{"domain_name":"a"},"logLevel":"info"}')] };
      yield { kind: "columns", records: [take("2", '{"logLevel":"warn","level":"WARN"}')] };
      yield { kind: "rows", rows: [{ _id: "3", other: 1 }] };
    }
    for await (const batch of reportUnknownFields(columns)(batches(), ctx))
      expect(recordCount(batch)).toBeGreaterThan(0);
    // The hits' own `_index` is a field of the row too, outside these columns, as a parsed row's walk finds.
    expect(warnings).toEqual([
      { fields: ["_index", "logLevel"] },
      { fields: ["level"] },
      { fields: ["other"] },
    ]);
    const names = new Set(columns.map((column) => column.name));
    const parsed = { _id: "1", _index: "logs", atr: { domain_name: "a" }, logLevel: "info" };
    expect(unknownFields(parsed, names)).toEqual(["_index", "logLevel"]);
  });

  it("lists at most 50 names in a warning and counts the rest: a record of 100,000 keys is one short line", async () => {
    const { warnings, ctx } = warningContext();
    const wide: Record<string, unknown> = { _id: "1" };
    for (let index = 0; index < 100_000; index++) wide[`f${String(index).padStart(6, "0")}`] = index;
    async function* batches(): AsyncGenerator<RecordBatch> {
      yield { kind: "rows", rows: [wide] };
    }
    for await (const _batch of reportUnknownFields(columns)(batches(), ctx));
    expect(warnings).toHaveLength(1);
    const [warning] = warnings as { fields: string[]; more: number }[];
    expect(warning?.fields).toHaveLength(50);
    expect(warning?.fields[0]).toBe("f000000");
    expect(warning?.more).toBe(99_950);
  });
});

describe("v2 aggregations follow the spec's route for filters", () => {
  it("the v2 aggs operations refuse top-level filters, which the spec does not show for them", () => {
    const body = {
      application: "atr",
      app_type: "ec2",
      domain: ["*"],
      start_time: "2026-03-10T00:00:00Z",
      end_time: "2026-03-10T01:00:00Z",
      aggs: { n: { value_count: { field: "@timestamp" } } },
      filters: [{ term: { level: "ERROR" } }],
    };
    for (const path of ["/v2/logs/aggs", "/v2/workloads/aggs"] as const)
      expect(validateRequest(path, body).map((problem) => problem.field)).toContain("filters");
  });
});

describe("fields --kind billing", () => {
  it("lists the billing summary's fields instead of refusing", async () => {
    const result = await runCli(["fields", "--kind", "billing", "--json"]);
    expect(result.code).toBe(0);
    const fields = JSON.parse(result.stdout) as { name: string; column_type: string }[];
    expect(fields.map((field) => field.name)).toEqual(
      expect.arrayContaining(["domain", "ticket_count", "WBS", "window_start", "window_end"]),
    );
    expect(fields.find((field) => field.name === "ticket_count")?.column_type).toBe("int32");
  });
});

/** A slice context whose log keeps the warnings the report stage gives. */
function warningContext(): { warnings: unknown[]; ctx: SliceContext } {
  const warnings: unknown[] = [];
  const log = createSilentLogger();
  const ctx = {
    signal: new AbortController().signal,
    log: Object.assign(Object.create(log) as typeof log, {
      warn: (fields: unknown) => void warnings.push(fields),
    }),
    slice: { index: 0, id: "s", start: new Date(0), end: new Date(1) },
    run: { pipelineName: "p", runId: "r", startedAt: new Date(0) },
    stats: { duplicates: 0 },
  } satisfies SliceContext;
  return { warnings, ctx };
}
