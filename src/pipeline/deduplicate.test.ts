import { describe, expect, it } from "vitest";
import type { Batch } from "../core/contracts.js";
import { deduplicateById } from "./deduplicate.js";

async function* batches(...items: Batch[]): AsyncGenerator<Batch> {
  yield* items;
}

describe("deduplicateById", () => {
  it("drops a repeated _id within and across pages and counts it", async () => {
    const stats = { duplicates: 0 };
    const out: Batch[] = [];
    for await (const batch of deduplicateById(
      batches([{ _id: "a" }, { _id: "b" }, { _id: "a" }], [{ _id: "b" }, { _id: "c" }], [{ _id: "c" }]),
      stats,
    )) {
      out.push(batch);
    }
    expect(out.flat().map((row) => row._id)).toEqual(["a", "b", "c"]);
    expect(stats.duplicates).toBe(3);
    expect(out).toHaveLength(2);
  });

  it("passes rows without an _id (aggregation buckets) untouched", async () => {
    const stats = { duplicates: 0 };
    const rows = [{ key: 1 }, { key: 1 }];
    const out: Batch[] = [];
    for await (const batch of deduplicateById(batches(rows), stats)) out.push(batch);
    expect(out).toEqual([rows]);
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
    const out: Batch[] = [];
    for await (const batch of deduplicateById(batches(rows), stats)) out.push(batch);
    expect(out.flat()).toEqual([rows[0], rows[1], rows[3], rows[4]]);
    expect(stats.duplicates).toBe(1);
  });
});
