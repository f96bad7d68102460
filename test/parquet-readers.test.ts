// Every engine reads what the exporter writes, and reads the same thing: each kind's Parquet output
// (column names as_is and snake_case; paged, batch and aggregation sources) read by five readers
// independent of the writer and of each other, each equal, column by column and row by row, to the
// records the same run wrote as NDJSON. And the file is of the kind every engine reads: version 1 data
// pages, PLAIN (bit-packed) booleans, timestamps with the TIMESTAMP logical type.
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect } from "vitest";
import { snakeCaseName } from "../src/warehouse/column-names.js";
import { checkCompleteExport } from "./support/export-checks.js";
import { flattenRecord, parquetRowOf } from "./support/expected-rows.js";
import { PARQUET_READERS, pagesOf, readWith } from "./support/parquet-readers.js";
import type { Rows } from "./support/parquet-readers.js";
import { listDataFiles, readNdjson } from "./support/read-output.js";
import { emulatorEnv, REMOTE_SERVICE_YAML, runCli } from "./support/cli-harness.js";
import { useEmulator } from "./support/use-emulator.js";
import type { EmulatorFixtures } from "./support/use-emulator.js";

const START = "2026-03-10T00:00:00.000Z";
const END = "2026-03-10T04:00:00.000Z";
const WINDOW = `{ start: "${START}", end: "${END}", slice: 2h }`;

const it = useEmulator();

/** Each kind, by the way its records come: pages of hits, a batch export's files, aggregations. */
const SOURCES: Record<string, string> = {
  "jobs, point in time": `kind: jobs\n  application: atr\n  app_type: [ec2, kubernetes]\n  domain: ["*"]\n  window: ${WINDOW}\n  strategy: pit\n  page_size: 50`,
  "tickets, point in time": `kind: tickets\n  application: atr\n  app_type: [ec2, kubernetes]\n  domain: ["*"]\n  window: ${WINDOW}\n  strategy: pit\n  page_size: 40`,
  "logs, batch": `kind: logs\n  application: klewer\n  app_type: kubernetes\n  domain: ["*"]\n  window: ${WINDOW}\n  strategy: batch\n# snake_case makes "timestamp" of "@timestamp" too\ntransforms:\n  - rename: { timestamp: event_time }`,
  "workloads, scroll": `kind: workloads\n  application: atr\n  app_type: [ec2, kubernetes]\n  domain: ["*"]\n  window: ${WINDOW}\n  strategy: scroll\n  page_size: 30`,
  "metrics, aggregations": `kind: metrics\n  application: klewer\n  app_type: [ec2]\n  domain: ["*"]\n  window: ${WINDOW}\n  strategy: aggs\n  aggs:\n    by_domain:\n      terms: { field: atr.domain_name, size: 10 }\n      aggs:\n        mean_cpu: { avg: { field: system.cpu.total.pct } }\n        cpu_values: { value_count: { field: system.cpu.total.pct } }`,
  "jobs, aggregations": `kind: jobs\n  application: atr\n  app_type: [ec2, kubernetes]\n  domain: ["*"]\n  window: ${WINDOW}\n  strategy: aggs\n  aggs:\n    by_state:\n      terms: { field: job.state, size: 10 }\n      aggs:\n        mean_elapsed: { avg: { field: job.execution_time.elapsed } }`,
  billing: `kind: billing\n  domain: [alpha.example, bravo.example]\n  window: { start: now-7d/d }`,
};

/** The DuckDB-style type `parquetRowOf` converts by, from the file's own schema. */
function typesOf(schema: readonly { name: string; type?: string; logical_type?: { type: string } }[]) {
  const types: Record<string, string> = {};
  for (const element of schema.slice(1)) {
    types[element.name] =
      element.logical_type?.type === "TIMESTAMP"
        ? "TIMESTAMP"
        : element.type === "BYTE_ARRAY"
          ? "VARCHAR"
          : String(element.type);
  }
  return types;
}

const sorted = (rows: Rows): string[] => rows.map((row) => JSON.stringify(row)).sort();

async function exportKind(
  { service, workspace }: EmulatorFixtures,
  name: string,
  source: string,
  pageVersion?: 2,
): Promise<string> {
  const out = join(workspace.dir, name.replaceAll(/\W+/g, "-"));
  const parquet = pageVersion === undefined ? "" : `\n    parquet: { page_version: ${pageVersion} }`;
  const yaml = `name: readers\n${REMOTE_SERVICE_YAML}\nsource:\n  ${source}\nsinks:
  - format: ndjson\n    to: ${out}/ndjson
  - format: parquet\n    to: ${out}/as_is\n    row_group_rows: 1000${parquet}
  - format: parquet\n    to: ${out}/snake_case\n    column_names: snake_case\n    row_group_rows: 1000${parquet}
`;
  const file = await workspace.write(`${name.replaceAll(/\W+/g, "-")}.yaml`, yaml);
  const result = await runCli(["run", file, "--log-level", "warn"], { env: service.env });
  expect(result.code, result.stderr).toBe(0);
  return out;
}

/** What each file of `dir` must read as, from the NDJSON records of the same run. */
async function expectEveryReaderAgrees(out: string, naming: "as_is" | "snake_case"): Promise<number> {
  const records = await readNdjson(join(out, "ndjson"), await listDataFiles(join(out, "ndjson")));
  const dir = join(out, naming);
  const { files } = await checkCompleteExport(dir, records.length);
  expect(files.length).toBeGreaterThan(0);
  const { metadata } = await pagesOf(join(dir, files[0] as string));
  const types = typesOf(metadata.schema);
  const rename = (name: string): string => (naming === "snake_case" ? snakeCaseName(name) : name);
  const asIsTypes: Record<string, string> = {};
  const columnOf = new Map<string, string>();
  for (const field of new Set(records.flatMap((record) => Object.keys(flattenRecord(record))))) {
    const type = types[rename(field)];
    expect(type, `column for field ${field}`).toBeDefined();
    asIsTypes[field] = type as string;
    columnOf.set(field, rename(field));
  }
  const expected: Rows = records.map((record) => {
    const row = parquetRowOf(flattenRecord(record), asIsTypes);
    const named: Rows[number] = {};
    for (const name of Object.keys(types)) named[name] = null;
    for (const [field, value] of Object.entries(row)) named[columnOf.get(field) as string] = value as never;
    return named;
  });
  for (const reader of PARQUET_READERS) {
    const rows: Rows = [];
    for (const file of files) rows.push(...(await readWith(reader, join(dir, file))).rows);
    expect(sorted(rows), `${reader.name} reading ${naming}`).toEqual(sorted(expected));
  }
  return records.length;
}

describe("every reader reads every kind's Parquet as the records exported", () => {
  for (const [name, source] of Object.entries(SOURCES)) {
    it(`${name}: as_is and snake_case, five readers`, async ({ service, workspace }) => {
      const out = await exportKind({ service, workspace }, name, source);
      expect(await expectEveryReaderAgrees(out, "as_is")).toBeGreaterThan(0);
      await expectEveryReaderAgrees(out, "snake_case");
      for (const naming of ["as_is", "snake_case"]) {
        const dir = join(out, naming);
        for (const file of await listDataFiles(dir)) await expectVersionOnePages(join(dir, file));
      }
    });
  }
});

/** Version 1 data pages only, booleans PLAIN, timestamps an instant in milliseconds. */
async function expectVersionOnePages(path: string): Promise<void> {
  const { metadata, pages } = await pagesOf(path);
  expect(pages.length).toBeGreaterThan(0);
  for (const { column, physicalType, header } of pages) {
    expect(header.type, `${column} in ${path}`).not.toBe("DATA_PAGE_V2");
    expect(["DATA_PAGE", "DICTIONARY_PAGE"]).toContain(header.type);
    if (header.type !== "DATA_PAGE") continue;
    expect(header.data_page_header?.definition_level_encoding).toBe("RLE");
    const encoding = header.data_page_header?.encoding;
    if (physicalType === "BOOLEAN") expect(encoding, `${column} in ${path}`).toBe("PLAIN");
    else expect(["PLAIN", "PLAIN_DICTIONARY", "RLE_DICTIONARY"]).toContain(encoding);
  }
  for (const element of metadata.schema.slice(1)) {
    if (element.converted_type === "TIMESTAMP_MILLIS" || element.logical_type?.type === "TIMESTAMP") {
      expect(element.type).toBe("INT64");
      expect(element.converted_type).toBe("TIMESTAMP_MILLIS");
      expect(element.logical_type).toEqual({ type: "TIMESTAMP", isAdjustedToUTC: true, unit: "MILLIS" });
    }
    if (element.type === "BYTE_ARRAY") {
      expect(element.converted_type).toBe("UTF8");
      expect(element.logical_type).toEqual({ type: "STRING" });
    }
  }
  const bytes = await readFile(path);
  expect(bytes.subarray(0, 4).toString("latin1")).toBe("PAR1");
}

describe("page_version: 2", () => {
  it("writes DATA_PAGE_V2 pages that every reader reads as the records exported", async ({
    service,
    workspace,
  }) => {
    const out = await exportKind(
      { service, workspace },
      "jobs v2 pages",
      SOURCES["jobs, point in time"] as string,
      2,
    );
    await expectEveryReaderAgrees(out, "as_is");
    const dir = join(out, "as_is");
    const types = new Set<string>();
    for (const file of await listDataFiles(dir))
      for (const { header } of (await pagesOf(join(dir, file))).pages) types.add(header.type);
    expect(types.has("DATA_PAGE_V2")).toBe(true);
    expect(types.has("DATA_PAGE")).toBe(false);
  });
});

describe("page_version other than 1 or 2", () => {
  it("is refused before anything runs, naming the option and the values it takes", async ({
    service,
    workspace,
  }) => {
    const { emulator } = service;
    const out = join(workspace.dir, "bad-page-version");
    const file = await workspace.write(
      "bad-page-version.yaml",
      `name: readers\n${REMOTE_SERVICE_YAML}\nsource:\n  ${SOURCES.billing}\nsinks:\n  - format: parquet\n    to: ${out}\n    parquet: { page_version: 3 }\n`,
    );
    const result = await runCli(["run", file, "--log-level", "warn"], { env: emulatorEnv(emulator) });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("sinks[0].parquet.page_version: number 3 is not one of 1, 2");
  });
});
