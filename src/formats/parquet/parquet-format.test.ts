import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Column, Row } from "../../core/contracts.js";
import { parquetFormat } from "./parquet-format.js";
import type { ParquetSettings } from "./parquet-format.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "mdq-parquet-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const columns: Column[] = [
  { name: "id", type: "string" },
  { name: "ratio", type: "double" },
  { name: "big", type: "int64" },
  { name: "small", type: "int32" },
  { name: "ok", type: "boolean" },
  { name: "at", type: "timestamp" },
  { name: "extra", type: "json" },
  { name: "job.name", type: "string" },
];

async function encodeToFile(
  batches: readonly (readonly Row[])[],
  options: ParquetSettings = {},
): Promise<{ file: string; chunks: number }> {
  const encoder = parquetFormat.createEncoder(columns, options);
  const chunks: Uint8Array[] = [];
  for (const rows of batches) chunks.push(...(await encoder.encode({ kind: "rows", rows })));
  chunks.push(...(await encoder.finish()));
  const file = join(dir, `f-${Math.random().toString(36).slice(2)}.parquet`);
  await writeFile(file, Buffer.concat(chunks));
  return { file, chunks: chunks.length };
}

/** DuckDB's C++ reader, independent of the writer; timestamps as epoch ms for exact comparison. */
async function readWithDuckDb(file: string): Promise<Record<string, unknown>[]> {
  const instance = await DuckDBInstance.create(":memory:");
  const connection = await instance.connect();
  const result = await connection.runAndReadAll(
    `select id, ratio, big, small, ok, epoch_ms("at") as at_ms, extra, "job.name" as job_name from read_parquet('${file}')`,
  );
  const rows = result.getRowObjectsJS();
  connection.closeSync();
  instance.closeSync();
  return rows;
}

describe("parquet format", () => {
  it("writes values that DuckDB reads back by column type, with nulls, unicode and awkward strings", async () => {
    const long = "x".repeat(100_000);
    const rows: Row[] = [
      {
        id: "a",
        ratio: 1.5,
        big: 9007199254740993n,
        small: 42,
        ok: true,
        at: "2026-11-21T10:00:00.123Z",
        extra: { k: [1, "two"] },
        job: { name: "nested" },
      },
      {
        id: 'ünï\u{1F600} "quoted"\nnew line',
        ratio: null,
        big: 7,
        small: null,
        ok: false,
        at: 1763719200000,
      },
      {
        id: long,
        ratio: "2.25",
        big: "123456789012345",
        small: "17",
        ok: "true",
        at: "not a date",
        "job.name": "flat",
      },
      { id: 5, ratio: "nope", big: " 1.0 ", small: "many", ok: "maybe", at: {}, extra: "text" },
      {},
    ];
    const { file } = await encodeToFile([rows]);
    const read = await readWithDuckDb(file);
    expect(read).toEqual([
      {
        id: "a",
        ratio: 1.5,
        big: 9007199254740993n,
        small: 42,
        ok: true,
        at_ms: BigInt(Date.parse("2026-11-21T10:00:00.123Z")),
        extra: '{"k":[1,"two"]}',
        job_name: "nested",
      },
      {
        id: 'ünï\u{1F600} "quoted"\nnew line',
        ratio: null,
        big: 7n,
        small: null,
        ok: false,
        at_ms: 1763719200000n,
        extra: null,
        job_name: null,
      },
      {
        id: long,
        ratio: 2.25,
        big: 123456789012345n,
        small: 17,
        ok: true,
        at_ms: null,
        extra: null,
        job_name: "flat",
      },
      { id: "5", ratio: null, big: 1n, small: null, ok: null, at_ms: null, extra: '"text"', job_name: null },
      { id: null, ratio: null, big: null, small: null, ok: null, at_ms: null, extra: null, job_name: null },
    ]);
  });

  it("refuses an int32 value past the range or with a fraction, naming the column (was null or truncated)", async () => {
    for (const small of [2 ** 40, 1.5, "-2147483649"]) {
      const encoder = parquetFormat.createEncoder(columns, {});
      const encoded = (async () => {
        await encoder.encode({
          kind: "rows",
          rows: [
            { id: "a", small: 1 },
            { id: "b", small },
          ],
        });
        await encoder.finish();
      })();
      await expect(encoded, String(small)).rejects.toMatchObject({
        code: "SINK_VALUE_NOT_INT32",
        message: expect.stringContaining(`column "small": ${String(small)} is not an int32`) as unknown,
      });
    }
  });

  it("streams row groups: bytes come out before finish, and all rows survive", async () => {
    const encoder = parquetFormat.createEncoder(columns, { rowGroupRows: 1000 });
    const batch: Row[] = Array.from({ length: 2500 }, (_, i) => ({ id: `r${i}`, small: i }));
    const early = await encoder.encode({ kind: "rows", rows: batch });
    expect(early.length).toBeGreaterThan(0);
    const chunks = [
      ...early,
      ...(await encoder.encode({ kind: "rows", rows: batch })),
      ...(await encoder.finish()),
    ];
    const file = join(dir, "groups.parquet");
    await writeFile(file, Buffer.concat(chunks));
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const count = await connection.runAndReadAll(
      `select count(*)::int as n, sum(small)::bigint as s from read_parquet('${file}')`,
    );
    const groups = await connection.runAndReadAll(
      `select count(distinct row_group_id)::int as g from parquet_metadata('${file}')`,
    );
    expect(count.getRowObjectsJS()).toEqual([{ n: 5000, s: BigInt(2499 * 2500) }]);
    expect(groups.getRowObjectsJS()).toEqual([{ g: 5 }]);
    connection.closeSync();
    instance.closeSync();
  });

  it("ends a row group once its buffered values pass the byte budget, at a batch boundary", async () => {
    const encoder = parquetFormat.createEncoder(columns, { rowGroupRows: 100_000, rowGroupBytes: 50_000 });
    // 500 rows with a 100-character id: about 90 kB of buffered values per batch, over the budget.
    const batch: Row[] = Array.from({ length: 500 }, (_, i) => ({ id: `${i}`.padEnd(100, "x"), small: i }));
    const chunks: Uint8Array[] = [];
    for (let i = 0; i < 3; i++) chunks.push(...(await encoder.encode({ kind: "rows", rows: batch })));
    chunks.push(...(await encoder.finish()));
    const file = join(dir, "budget.parquet");
    await writeFile(file, Buffer.concat(chunks));
    const instance = await DuckDBInstance.create(":memory:");
    const connection = await instance.connect();
    const groups = await connection.runAndReadAll(
      `select row_group_id::int as g, any_value(row_group_num_rows)::int as n from parquet_metadata('${file}') group by 1 order by 1`,
    );
    expect(groups.getRowObjectsJS()).toEqual([
      { g: 0, n: 500 },
      { g: 1, n: 500 },
      { g: 2, n: 500 },
    ]);
    connection.closeSync();
    instance.closeSync();
  });

  it("writes a readable file with no rows", async () => {
    const { file } = await encodeToFile([], { compression: "uncompressed" });
    expect(await readWithDuckDb(file)).toEqual([]);
  });
});
