import { describe, expect, it } from "vitest";
import type { Batch } from "./contracts.js";
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
});
