// A batch slice whose partitions wrote files under record-value partitions keeps every field under
// every naming: the merge reads the partition files back under the output's column names and writes
// them as they are, so the files equal what paging writes (regression: under snake_case the merge
// renamed the already renamed rows again, and every row kept only _id and _index, with exit 0; with
// `{atr_domain_name}` the rows of slices that span two partitions came out all null under the default
// partition). Each export is compared, row by row and column by column, with the emulator's records,
// and each row's partition with its own value.
import { join } from "node:path";
import { describe, expect } from "vitest";
import { NULL_PARTITION, sanitizePathValue } from "../src/sinks/path-template.js";
import { snakeCaseName } from "../src/warehouse/column-names.js";
import { checkCompleteExport } from "./support/export-checks.js";
import { asColumnValue, listDataFiles, readNdjson, readParquet, valueAt } from "./support/read-output.js";
import { expectedRows, REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import type { Row } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";
import type { EmulatorFixtures } from "./support/use-emulator.js";

const it = useEmulator({ density: 3 });

// Two slices of two hours: each spans two of the batch export's hourly partitions per app type.
const START = "2026-03-10T00:00:00.000Z";
const END = "2026-03-10T04:00:00.000Z";
type Naming = "as_is" | "snake_case";
type Strategy = "batch" | "scroll";

/** Every dotted leaf path of a record, with its value (`workload.state`). */
function leaves(record: Readonly<Record<string, unknown>>, at = ""): [string, unknown][] {
  return Object.entries(record).flatMap(([key, value]): [string, unknown][] =>
    value !== null && typeof value === "object" && !Array.isArray(value) && Object.keys(value).length > 0
      ? leaves(value as Record<string, unknown>, `${at}${key}.`)
      : [[`${at}${key}`, value]],
  );
}

let runs = 0;

/** Exports the window into Parquet and NDJSON under one naming and path; returns the two folders. */
async function exportWorkloads(
  { service, workspace }: EmulatorFixtures,
  strategy: Strategy,
  naming: Naming,
  partition: string,
): Promise<{ parquet: string; ndjson: string; stderr: string }> {
  const out = join(workspace.dir, `export-${++runs}`);
  const path = `dt={date}/${partition === "" ? "" : `${partition}/`}part-{slice}-{seq}.{ext}`;
  const file = await workspace.write(
    `export-${runs}.yaml`,
    `name: merge-naming
${REMOTE_SERVICE_YAML}
source:
  kind: workloads
  application: atr
  app_type: [ec2, kubernetes]
  domain: ["*"]
  window: { start: "${START}", end: "${END}", slice: 2h }
  strategy: ${strategy}
sinks:
  - format: parquet
    to: ${out}/parquet
    column_names: ${naming}
    path: "${path}"
  - format: ndjson
    to: ${out}/ndjson
    column_names: ${naming}
    path: "${path}"
`,
  );
  const result = await runCli(["run", file, "--log-level", "info"], { env: service.env });
  expect(result.code, result.stderr).toBe(0);
  return { parquet: join(out, "parquet"), ndjson: join(out, "ndjson"), stderr: result.stderr };
}

async function records(service: EmulatorFixtures["service"], strategy: Strategy): Promise<Map<string, Row>> {
  return expectedRows(
    service.emulator,
    strategy === "batch" ? "/v2/workloads/batch" : "/v2/workloads/scroll",
    ["ec2", "kubernetes"].map((appType) => ({
      application: "atr",
      app_type: appType,
      domain: ["*"],
      start_time: START,
      end_time: END,
    })),
  );
}

/**
 * Every row of both exports equals its record: each column holds the value of the field it names
 * (after the naming), and the row sits under `key=<its own value of field>` in its path.
 */
async function expectRecords(
  output: { parquet: string; ndjson: string },
  expected: ReadonlyMap<string, Row>,
  naming: Naming,
  partition: { key: string; field: string } | undefined,
): Promise<void> {
  const columnOf = (field: string): string => (naming === "snake_case" ? snakeCaseName(field) : field);
  const partitionOf = (record: Row): string => {
    if (partition === undefined) return `dt=${START.slice(0, 10)}`;
    const value = valueAt(record, partition.field) ?? record[partition.field];
    return `${partition.key}=${value === undefined ? NULL_PARTITION : sanitizePathValue(value)}`;
  };
  const seen = { parquet: 0, ndjson: 0 };
  const parquetFiles = (await checkCompleteExport(output.parquet, expected.size)).files;
  for (const file of parquetFiles) {
    const table = await readParquet(output.parquet, [file]);
    for (const row of table.rows) {
      const record = expected.get(String(row["_id"]));
      expect(record, `row ${String(row["_id"])}`).toBeDefined();
      if (record === undefined) continue;
      seen.parquet++;
      const byColumn = new Map(leaves(record).map(([field, value]) => [columnOf(field), value]));
      const want = Object.fromEntries(
        Object.entries(table.types).map(([column, type]) => [
          column,
          asColumnValue(byColumn.get(column), type),
        ]),
      );
      expect(row).toEqual(want);
      expect(file.split("/")).toContain(partitionOf(record));
    }
  }
  const ndjsonFiles = (await checkCompleteExport(output.ndjson, expected.size)).files;
  for (const file of ndjsonFiles) {
    for (const line of await readNdjson(output.ndjson, [file])) {
      const record = expected.get(String(line["_id"]));
      expect(record, `line ${String(line["_id"])}`).toBeDefined();
      if (record === undefined) continue;
      seen.ndjson++;
      if (naming === "as_is") expect(line).toEqual(record);
      else {
        // Flat under the output names: every column, null where the record has no value.
        const byColumn = new Map(leaves(record).map(([field, value]) => [columnOf(field), value]));
        for (const column of byColumn.keys()) expect(Object.keys(line)).toContain(column);
        expect(line).toEqual(
          Object.fromEntries(Object.keys(line).map((key) => [key, byColumn.get(key) ?? null])),
        );
      }
      expect(file.split("/")).toContain(partitionOf(record));
    }
  }
  expect(seen).toEqual({ parquet: expected.size, ndjson: expected.size });
}

describe("record-value partitions: every field, in its own partition, by batch and by paging", () => {
  for (const strategy of ["batch", "scroll"] as const) {
    it(`${strategy}, snake_case, {workload_state}: every row and column equals the emulator's records`, async ({
      service,
      workspace,
    }) => {
      const context = { service, workspace };
      const output = await exportWorkloads(context, strategy, "snake_case", "state={workload_state}");
      if (strategy === "batch") expect(output.stderr).toContain("Merged the partition files of the slice.");
      const expected = await records(service, strategy);
      expect(expected.size).toBeGreaterThan(50);
      await expectRecords(output, expected, "snake_case", { key: "state", field: "workload.state" });
    });

    it(`${strategy}, as_is, {workload.state}: every row and column equals the emulator's records`, async ({
      service,
      workspace,
    }) => {
      const context = { service, workspace };
      const output = await exportWorkloads(context, strategy, "as_is", "state={workload.state}");
      const expected = await records(service, strategy);
      await expectRecords(output, expected, "as_is", { key: "state", field: "workload.state" });
    });
  }

  it("batch, snake_case, {atr_domain_name}: slices that span two partitions keep their rows and domains", async ({
    service,
    workspace,
  }) => {
    const context = { service, workspace };
    const output = await exportWorkloads(context, "batch", "snake_case", "domain={atr_domain_name}");
    expect(output.stderr).toContain("Merged the partition files of the slice.");
    const expected = await records(service, "batch");
    await expectRecords(output, expected, "snake_case", { key: "domain", field: "atr.domain_name" });
  });

  it("batch, snake_case, no record field in the path: the partition files joined as bytes keep every column", async ({
    service,
    workspace,
  }) => {
    const output = await exportWorkloads({ service, workspace }, "batch", "snake_case", "");
    expect(output.stderr).toContain("Merged the partition files of the slice.");
    expect(output.stderr).not.toContain("merged row by row");
    await expectRecords(output, await records(service, "batch"), "snake_case", undefined);
  });

  it("snake_case, {workload_state}: batch writes the files and rows paging writes", async ({
    service,
    workspace,
  }) => {
    const context = { service, workspace };
    const batch = await exportWorkloads(context, "batch", "snake_case", "state={workload_state}");
    const scroll = await exportWorkloads(context, "scroll", "snake_case", "state={workload_state}");
    for (const format of ["parquet", "ndjson"] as const) {
      const files = await listDataFiles(batch[format]);
      expect(files).toEqual(await listDataFiles(scroll[format]));
      for (const file of files) {
        const read = async (dir: string) =>
          format === "parquet" ? (await readParquet(dir, [file])).rows : await readNdjson(dir, [file]);
        const byIdOf = (rows: Record<string, unknown>[]) =>
          new Map(rows.map((row) => [String(row["_id"]), row]));
        expect(byIdOf(await read(batch[format]))).toEqual(byIdOf(await read(scroll[format])));
      }
    }
  });
});
