// The DuckDB statement executed: what a directory of the path template holds never replaces what the
// files hold, and an instant reads the same in any session zone.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parquetFormat } from "../../formats/parquet/parquet-format.js";
import type { TableFiles } from "../../formats/format.js";
import type { SchemaColumn } from "../output-schema.js";
import { generateDdl } from "./ddl.js";
import { tableLayout } from "./table-layout.js";

let dir = "";
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdq-duckdb-ddl-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const columns: SchemaColumn[] = [
  { name: "_id", type: "string", nullable: false, source: "_id" },
  { name: "level", type: "string", nullable: true, source: "level" },
  { name: "seen", type: "timestamp", nullable: true, source: "@timestamp" },
];

async function rowsOf(ddl: string, timeZone: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    await connection.run(`SET TimeZone = '${timeZone}'`);
    await connection.run(ddl);
    const reader = await connection.runAndReadAll(
      "SELECT _id, level, strftime(seen AT TIME ZONE 'UTC', '%Y-%m-%dT%H:%M:%S') AS at_utc, CAST(dt AS VARCHAR) AS dt FROM t ORDER BY _id",
    );
    return reader.getRowObjectsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

describe("duckdb DDL over a partition directory named like a column", () => {
  it("reads the column from the file, whatever the directory says (escaped, cut, or null)", async () => {
    // The template writes the record's value escaped and cut to a path component; DuckDB's Hive
    // partitioning would put that text in place of the file's column.
    const writer = await DuckDBInstance.create(":memory:");
    const connection = await writer.connect();
    const files = [
      ["a", "err/or: a very long level", "dt=2026-03-10/level=err%2For%3A a very~0123456789abcdef"],
      ["b", null, "dt=2026-03-11/level=__HIVE_DEFAULT_PARTITION__"],
    ] as const;
    try {
      for (const [id, level, path] of files) {
        await mkdir(join(dir, path), { recursive: true });
        const value = level === null ? "NULL" : `'${level}'`;
        await connection.run(
          `COPY (SELECT '${id}' AS _id, ${value}::VARCHAR AS level, TIMESTAMPTZ '2026-03-10 23:30:00+00' AS seen) TO '${join(dir, path, "s.parquet")}' (FORMAT parquet)`,
        );
      }
    } finally {
      connection.closeSync();
      writer.closeSync();
    }
    const parquet: TableFiles | undefined = parquetFormat.table?.(parquetFormat.settings({}));
    if (parquet === undefined) throw new Error("parquet has a table");
    const ddl = generateDdl(
      "duckdb",
      tableLayout({
        table: "t",
        columns,
        files: parquet,
        recordShape: "columns",
        extension: "parquet",
        location: dir,
        pathTemplate: "dt={date}/level={level}/{slice}.{ext}",
        since: new Date("2026-03-01T00:00:00Z"),
      }),
      { dataset: "mdq" },
    );
    for (const zone of ["UTC", "Europe/Berlin", "Asia/Tokyo"])
      expect(await rowsOf(ddl, zone), zone).toEqual([
        { _id: "a", level: "err/or: a very long level", at_utc: "2026-03-10T23:30:00", dt: "2026-03-10" },
        { _id: "b", level: null, at_utc: "2026-03-10T23:30:00", dt: "2026-03-11" },
      ]);
  });
});
