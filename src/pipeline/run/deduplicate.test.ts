import { describe, expect, it } from "vitest";
import type { RecordBatch, Row, RowJson } from "../../core/contracts.js";
import { deduplicateById } from "./deduplicate.js";
import { rowsBatch, rowsOf } from "../../core/record-batch.test-support.js";

async function* batches(...items: (readonly Row[] | RecordBatch)[]): AsyncGenerator<RecordBatch> {
  for (const item of items) yield Array.isArray(item) ? { kind: "rows", rows: item } : (item as RecordBatch);
}

async function read(input: AsyncIterable<RecordBatch>, stats = { duplicates: 0 }): Promise<RecordBatch[]> {
  const out: RecordBatch[] = [];
  for await (const batch of deduplicateById(input, stats)) out.push(batch);
  return out;
}

const json = (id: string): RowJson => ({ head: `{"_id":"${id}",`, tail: Buffer.from('"n":1}') });

describe("deduplicateById", () => {
  it("drops a repeated _id within and across pages and counts it", async () => {
    const stats = { duplicates: 0 };
    const out = await read(
      batches([{ _id: "a" }, { _id: "b" }, { _id: "a" }], [{ _id: "b" }, { _id: "c" }], [{ _id: "c" }]),
      stats,
    );
    expect(out.flatMap((batch) => rowsOf(batch)).map((row) => row._id)).toEqual(["a", "b", "c"]);
    expect(stats.duplicates).toBe(3);
    expect(out).toHaveLength(2);
  });

  it("passes rows without an _id (aggregation buckets) untouched", async () => {
    const stats = { duplicates: 0 };
    const rows = [{ key: 1 }, { key: 1 }];
    const out = await read(batches(rows), stats);
    expect(out.map((batch) => rowsOf(batch))).toEqual([rows]);
    expect(stats.duplicates).toBe(0);
  });

  it("keeps two documents of two indices with one _id: a record is (_index, _id)", async () => {
    const stats = { duplicates: 0 };
    const rows = [
      { _index: "jobs-2026.11.20", _id: "a" },
      { _index: "jobs-2026.11.21", _id: "a" },
      { _index: "jobs-2026.11.20", _id: "a" },
      // The length prefix keeps pairs apart that a plain join would make one key.
      { _index: "x\u0000y", _id: "z" },
      { _index: "x", _id: "y\u0000z" },
    ];
    const out = await read(batches(rows), stats);
    expect(out.flatMap((batch) => rowsOf(batch))).toEqual([rows[0], rows[1], rows[3], rows[4]]);
    expect(stats.duplicates).toBe(1);
  });

  it("keeps the JSON of the rows it keeps, in step with them, and passes a clean batch as it is", async () => {
    const ids = ["a", "b", "a", "c", "b", "d"];
    const first: RecordBatch = { kind: "rows", rows: ids.map((id) => ({ _id: id })), json: ids.map(json) };
    const clean: RecordBatch = { kind: "rows", rows: [{ _id: "e" }], json: [json("e")] };
    const [deduplicated, passed] = await read(batches(first, clean));
    expect(rowsOf(deduplicated).map((row) => row._id)).toEqual(["a", "b", "c", "d"]);
    expect(rowsBatch(deduplicated).json?.map((entry) => entry?.head)).toEqual(
      ["a", "b", "c", "d"].map((id) => json(id).head),
    );
    expect(passed).toBe(clean);
  });
});
