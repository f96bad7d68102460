import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { parquetMetadata } from "hyparquet";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Column, Row } from "../../core/contracts.js";
import { parquetFormat } from "./parquet-format.js";
import { JoinMismatchError } from "./join.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdq-parquet-join-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const columns: Column[] = [
  { name: "_id", type: "string" },
  { name: "n", type: "int64" },
  { name: "ratio", type: "double" },
  { name: "at", type: "timestamp" },
  { name: "ok", type: "boolean" },
  { name: "extra", type: "json" },
];

// Long ids fill several pages per column chunk, so the files carry offset indexes to move.
const rowsOf = (from: number, count: number): Row[] =>
  Array.from({ length: count }, (_, i) => ({
    _id: `${from + i}`.padStart(200, "0"),
    n: from + i,
    ratio: (from + i) % 7 === 0 ? null : (from + i) / 3,
    at: Date.UTC(2026, 10, 20) + (from + i) * 1000,
    ok: (from + i) % 2 === 0,
    extra: { k: from + i },
  }));

async function encode(rows: Row[], cols = columns): Promise<Uint8Array> {
  const encoder = parquetFormat.createEncoder(cols, { rowGroupRows: 10_000 });
  return Buffer.concat([...(await encoder.encode({ kind: "rows", rows })), ...(await encoder.finish())]);
}

async function* streams(files: Uint8Array[]): AsyncGenerator<AsyncIterable<Uint8Array>> {
  for (const file of files)
    yield (async function* () {
      yield file.subarray(0, 100);
      yield file.subarray(100);
    })();
}

async function joined(files: Uint8Array[], cols = columns): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  const settings = parquetFormat.settings({});
  for await (const chunk of parquetFormat.join?.(streams(files), cols, settings) ?? []) chunks.push(chunk);
  return Buffer.concat(chunks);
}

async function query(sql: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  try {
    return (await connection.runAndReadAll(sql)).getRowObjectsJS();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

async function saved(name: string, bytes: Uint8Array): Promise<string> {
  const path = join(dir, name);
  await writeFile(path, bytes);
  return path;
}

describe("joining Parquet files", () => {
  it("keeps every row, row group, page index and statistic of the files, in order", async () => {
    const parts = [rowsOf(0, 25_000), rowsOf(25_000, 3), rowsOf(25_003, 12_000)];
    const files = await Promise.all(parts.map((rows) => encode(rows)));
    const paths = await Promise.all(files.map((file, i) => saved(`part-${i}.parquet`, file)));
    const whole = await saved("joined.parquet", await joined(files));

    const read = await query(`SELECT n FROM read_parquet('${whole}')`);
    expect(read.map((row) => Number(row.n))).toEqual(parts.flat().map((row) => row.n));

    const stats =
      "row_group_num_rows, column_id, stats_min, stats_max, stats_null_count, num_values, compression";
    const before = await query(
      `SELECT ${stats} FROM parquet_metadata([${paths.map((p) => `'${p}'`).join(", ")}]) ORDER BY file_name, row_group_id, column_id`,
    );
    const after = await query(
      `SELECT ${stats} FROM parquet_metadata('${whole}') ORDER BY row_group_id, column_id`,
    );
    expect(after).toEqual(before);
    // The first file ends row groups at the byte budget: more row groups than files.
    expect(after.length).toBeGreaterThan(columns.length * parts.length);
    // The id column spans pages: DuckDB reads those through the moved offsets.
    const pages = await query(
      `SELECT max(_id) AS last, count(DISTINCT _id)::INTEGER AS ids FROM read_parquet('${whole}')`,
    );
    expect(pages).toEqual([{ last: "37002".padStart(200, "0"), ids: 37_003 }]);
    const chunks = parquetMetadata(new Uint8Array(await readFile(whole)).buffer).row_groups.flatMap(
      (group) => group.columns,
    );
    expect(chunks.filter((chunk) => chunk.offset_index_offset !== undefined).length).toBeGreaterThan(1);
  });

  it("refuses a file written with other columns, so the merge goes row by row", async () => {
    const other = await encode(rowsOf(0, 10), columns.slice(0, 3));
    await expect(joined([await encode(rowsOf(0, 10)), other])).rejects.toBeInstanceOf(JoinMismatchError);
  });
});
