import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { defaultComponents } from "../../components/environment.js";
import { ddlLocation } from "./ddl-location.js";
import type { SchemaColumn } from "../output-schema.js";
import { DIALECTS, generateDdl } from "./ddl.js";
import { nestedFields, recordPaths } from "./record-paths.js";
import { tableLayout } from "./table-layout.js";
import type { LayoutInput, TableLayout } from "./table-layout.js";
import { ndjsonFormat } from "../../formats/ndjson.js";
import { parquetFormat } from "../../formats/parquet/parquet-format.js";
import type { TableFiles } from "../../formats/format.js";

function tableFiles(files: TableFiles | undefined): TableFiles {
  if (files === undefined) throw new Error("the format has no table");
  return files;
}

const destinations = Object.values(defaultComponents().destinations);

/** The layout as BigQuery reads it: the destination names the bucket on Cloud Storage. */
const inCloudStorage = (layout: TableLayout): TableLayout => ({
  ...layout,
  location: layout.location.replace(/^[a-z0-9]+:\/\//, "gs://"),
});

const jsonLines = tableFiles(ndjsonFormat.table?.({ gzip: false }));

const columns: SchemaColumn[] = [
  { name: "_id", type: "string", nullable: false, source: "_id" },
  { name: "timestamp", type: "timestamp", nullable: true, source: "@timestamp" },
  { name: "job_state", type: "string", nullable: true, source: "job.state" },
  { name: "elapsed_s", type: "double", nullable: true, source: "job.execution_time.elapsed" },
  { name: "attempts", type: "int32", nullable: true, source: "job.attempts" },
  { name: "bytes", type: "int64", nullable: true, source: "job.bytes" },
  { name: "retried", type: "boolean", nullable: true, source: "job.retried" },
  { name: "labels", type: "json", nullable: true, source: "labels" },
];

/** Columns as `column_names: as_is` names them, the records nested as the service sends them. */
const nestedColumns: SchemaColumn[] = [
  { name: "_id", type: "string", nullable: false, source: "_id" },
  { name: "atr.domain_name", type: "string", nullable: true, source: "atr.domain_name" },
  { name: "job.state", type: "string", nullable: true, source: "job.state" },
  {
    name: "job.execution_time.elapsed",
    type: "double",
    nullable: true,
    source: "job.execution_time.elapsed",
  },
  { name: "atr.app_type", type: "string", nullable: true, source: "atr.app_type" },
  { name: "labels", type: "json", nullable: true, source: "labels" },
];

const base: LayoutInput = {
  table: "nightly_jobs",
  columns,
  files: tableFiles(parquetFormat.table?.(parquetFormat.settings({}))),
  recordShape: "columns",
  extension: "parquet",
  location: "s3://warehouse-raw/mdq/jobs/",
  pathTemplate: "dt={date}/hour={hour}/part-{slice}-{seq}.{ext}",
  since: new Date("2026-11-01T00:00:00Z"),
};

describe("generateDdl", () => {
  for (const dialect of DIALECTS) {
    // Where the dialect reads the S3 sink's files, as the destination says (BigQuery: gs://).
    const located = (input: LayoutInput): LayoutInput => ({
      ...input,
      location: ddlLocation(dialect, input.location, undefined, destinations),
    });
    it(`${dialect}: Parquet partitioned by date and hour`, async () => {
      await expect(generateDdl(dialect, tableLayout(located(base)), { dataset: "mdq" })).toMatchFileSnapshot(
        `golden/${dialect}-parquet.sql`,
      );
    });

    it(`${dialect}: NDJSON as the transforms left it, nested objects read where they are`, async () => {
      const layout = tableLayout({
        ...located(base),
        columns: nestedColumns,
        files: jsonLines,
        recordShape: "nested",
        extension: "ndjson",
        pathTemplate: "dt={date}/{slice}-{seq}.{ext}",
      });
      await expect(generateDdl(dialect, layout, { dataset: "mdq" })).toMatchFileSnapshot(
        `golden/${dialect}-ndjson-nested.sql`,
      );
    });

    it(`${dialect}: gzip NDJSON partitioned by a record value`, async () => {
      const layout = tableLayout({
        ...located(base),
        files: tableFiles(ndjsonFormat.table?.({ gzip: true })),
        extension: "ndjson.gz",
        pathTemplate: "domain={atr_domain_name}/{slice}-{seq}.{ext}",
      });
      await expect(generateDdl(dialect, layout, { dataset: "mdq" })).toMatchFileSnapshot(
        `golden/${dialect}-ndjson-gzip.sql`,
      );
    });
  }

  it("reads a layout: glob, typed partitions and the projection template", () => {
    const layout = tableLayout(base);
    expect(layout.glob).toBe("dt=*/hour=*/part-*-*.parquet");
    expect(layout.partitions).toEqual([
      { name: "dt", source: "date", namesColumn: false },
      { name: "hour", source: "hour", namesColumn: false },
    ]);
    expect(layout.partitionPath).toBe("dt=${dt}/hour=${hour}");
    expect(layout.location).toBe("s3://warehouse-raw/mdq/jobs");
    expect(tableLayout({ ...base, pathTemplate: "{date}/{slice}-{seq}.{ext}" }).partitions).toEqual([]);
  });

  it("refuses names Athena and BigQuery reject, and pointing them at a local directory", () => {
    const unsafe = tableLayout({
      ...base,
      columns: [{ name: "@timestamp", type: "timestamp", nullable: true, source: "@timestamp" }],
    });
    expect(() => generateDdl("athena", unsafe, { dataset: "mdq" })).toThrow(
      'Athena does not accept the column names "@timestamp"; set column_names: snake_case on the sink',
    );
    expect(() => generateDdl("bigquery", unsafe, { dataset: "mdq" })).toThrow(/BigQuery does not accept/);
    expect(generateDdl("duckdb", unsafe, { dataset: "mdq" })).toContain('CAST("@timestamp" AS TIMESTAMPTZ)');
  });

  it("reads the files where the destination says each dialect reads them, and refuses a storage it cannot read", () => {
    expect(ddlLocation("duckdb", "./out/jobs", undefined, destinations)).toBe(resolve("./out/jobs"));
    expect(() => ddlLocation("athena", "./out/jobs", undefined, destinations)).toThrow(
      `athena does not read the file destination's files ("./out/jobs"); copy them where it reads and pass --location`,
    );
    expect(ddlLocation("athena", "s3://lake/jobs/", undefined, destinations)).toBe("s3://lake/jobs");
    expect(ddlLocation("bigquery", "s3://lake/jobs", undefined, destinations)).toBe("gs://lake/jobs");
    // --location: a copy no destination writes is taken as written; one a destination takes is asked of it.
    expect(ddlLocation("bigquery", "./out/jobs", "gs://copy/jobs", destinations)).toBe("gs://copy/jobs");
    expect(ddlLocation("athena", "./out/jobs", "s3://copy/jobs", destinations)).toBe("s3://copy/jobs");
    expect(() => ddlLocation("bigquery", "s3://lake/jobs", "./copy", destinations)).toThrow(
      /bigquery does not read the file destination's files/,
    );
  });

  it("a partition directory named like a column: DuckDB reads the column from the files, Athena and BigQuery declare no partitions", () => {
    const layout = tableLayout({ ...base, pathTemplate: "dt={date}/bytes={bytes}/{slice}.{ext}" });
    expect(layout.partitions).toEqual([
      { name: "dt", source: "date", namesColumn: false },
      { name: "bytes", source: "text", namesColumn: true },
    ]);
    const duckdb = generateDdl("duckdb", layout, { dataset: "mdq" });
    expect(duckdb).toContain(
      "TRY_CAST(regexp_extract(mdq_file, '^s3://warehouse-raw/mdq/jobs/dt=([^/]*)/bytes=([^/]*)/', 1) AS DATE) AS \"dt\"",
    );
    expect(duckdb).toContain("hive_partitioning = false, filename = 'mdq_file'");
    expect(duckdb).not.toContain(`AS "bytes",\n  "bytes"`);
    const athena = generateDdl("athena", layout, { dataset: "mdq" });
    expect(athena).not.toContain("PARTITIONED BY");
    expect(athena).not.toContain("MSCK");
    const bigquery = generateDdl("bigquery", inCloudStorage(layout), { dataset: "mdq" });
    expect(bigquery).not.toContain("PARTITION");
    expect(() =>
      generateDdl(
        "duckdb",
        tableLayout({
          ...base,
          columns: [...columns, { name: "mdq_file", type: "string", nullable: true, source: "mdq_file" }],
          pathTemplate: "bytes={bytes}/{slice}.{ext}",
        }),
        { dataset: "mdq" },
      ),
    ).toThrow(/a column "mdq_file", which the files have too/);
  });

  it("looks for a dotted column first under its literal key, then nested, in the exporter's order", () => {
    expect(recordPaths("labels")).toEqual([["labels"]]);
    expect(recordPaths("a.b.c")).toEqual([["a.b.c"], ["a", "b.c"], ["a", "b", "c"], ["a.b", "c"]]);
    expect(recordPaths("a.b.c.d.e.f.g.h")).toHaveLength(64);
    expect(recordPaths("a.b.c.d.e.f.g.h").at(7)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h"]);
  });

  it("refuses a column that is also the object of another, for the warehouses that declare objects", () => {
    const clash: SchemaColumn[] = [
      { name: "job", type: "json", nullable: true, source: "job" },
      { name: "job.state", type: "string", nullable: true, source: "job.state" },
    ];
    expect(() => nestedFields(clash, [])).toThrow(
      '"job.state" is written inside "job", which is a column of its own; drop one of them with a transform, or set column_names: snake_case on the sink',
    );
    const layout = tableLayout({ ...base, columns: clash, files: jsonLines, recordShape: "nested" });
    expect(() => generateDdl("athena", layout, { dataset: "mdq" })).toThrow(/written inside "job"/);
    expect(() => generateDdl("bigquery", inCloudStorage(layout), { dataset: "mdq" })).toThrow(
      /written inside "job"/,
    );
    expect(generateDdl("duckdb", layout, { dataset: "mdq" })).toContain("'/job/state'");
  });

  it("refuses, for Athena and BigQuery, a dotted path a transform writes: its place depends on the record", () => {
    const layout = tableLayout({
      ...base,
      columns: nestedColumns,
      files: jsonLines,
      recordShape: "nested",
      writtenByTransforms: ["job", "atr.app_type"],
    });
    expect(() => generateDdl("athena", layout, { dataset: "mdq" })).toThrow(
      '"atr.app_type" is written by a transform to "atr.app_type", inside an object in some records and under the literal key "atr.app_type" in others; name it without a dot (rename), add flatten: { separator: _ }, or set column_names: snake_case on the sink',
    );
    expect(() => generateDdl("bigquery", inCloudStorage(layout), { dataset: "mdq" })).toThrow(
      /written by a transform/,
    );
    // A top-level target is a top-level key wherever it is written: its subtree stays nested.
    const topLevel = tableLayout({
      ...base,
      columns: nestedColumns,
      files: jsonLines,
      recordShape: "nested",
      writtenByTransforms: ["job"],
    });
    expect(generateDdl("athena", topLevel, { dataset: "mdq" })).toContain("`job` struct<state:string");
    expect(generateDdl("duckdb", layout, { dataset: "mdq" })).toContain("'/atr/app_type'");
  });

  it("flattened as_is NDJSON: DuckDB finds a dotted key literal first; Athena and BigQuery refuse the dot", () => {
    const layout = tableLayout({
      ...base,
      columns: nestedColumns,
      files: jsonLines,
      recordShape: "flattened",
    });
    expect(generateDdl("duckdb", layout, { dataset: "mdq" })).toContain(
      "COALESCE(json_extract_string(mdq_record.json, '/job.state'), json_extract_string(mdq_record.json, '/job/state'))",
    );
    expect(() => generateDdl("athena", layout, { dataset: "mdq" })).toThrow(
      /Athena does not accept the column names "atr.domain_name", "job.state"/,
    );
    const keyed = tableLayout({ ...base, columns: nestedColumns, files: jsonLines, recordShape: "columns" });
    expect(generateDdl("duckdb", keyed, { dataset: "mdq" })).toContain(
      "CAST(json_extract_string(mdq_record.json, '/job.state') AS VARCHAR)",
    );
  });

  it("refuses a column name with a control character, escaped in the message", () => {
    const layout = tableLayout({
      ...base,
      columns: [{ name: "job\u0000state\n", type: "string", nullable: true, source: "job\u0000state\n" }],
    });
    expect(() => generateDdl("duckdb", layout, { dataset: "mdq" })).toThrow(
      'DuckDB cannot name the columns "job\\u0000state\\n", which hold control characters; rename them with a transform, or set column_names: snake_case on the sink',
    );
    expect(() => generateDdl("athena", layout, { dataset: "mdq" })).toThrow(
      'Athena does not accept the column names "job\\u0000state\\n"; set column_names: snake_case on the sink',
    );
  });

  it("refuses a nested key Athena and BigQuery reject; a partition named like a top-level object is no partition column", () => {
    const layout = tableLayout({
      ...base,
      columns: [{ name: "job.Exit-Code", type: "int32", nullable: true, source: "job.Exit-Code" }],
      files: jsonLines,
      recordShape: "nested",
    });
    expect(() => generateDdl("athena", layout, { dataset: "mdq" })).toThrow(
      'Athena does not accept the column names "job.Exit-Code"; set column_names: snake_case on the sink',
    );
    const object = tableLayout({
      ...base,
      columns: nestedColumns,
      files: jsonLines,
      recordShape: "nested",
      pathTemplate: "atr={date}/{slice}.{ext}",
    });
    expect(object.partitions).toEqual([{ name: "atr", source: "date", namesColumn: true }]);
    expect(generateDdl("athena", object, { dataset: "mdq" })).not.toContain("PARTITIONED BY");
  });
});
