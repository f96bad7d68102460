import { describe, expect, it } from "vitest";
import type { PagePart } from "../api/paging/page.js";
import type { RecordBatch } from "../core/contracts.js";
import { sliceContext } from "../transforms/run-transform.test-support.js";
import { createPagedSource } from "./paged-source.js";
import { rowsBatch, rowsOf } from "../core/record-batch.test-support.js";

type Hit = { _id: string; _index: string; _source: Record<string, unknown> };

async function* pages(): AsyncGenerator<PagePart<Hit>> {
  await Promise.resolve();
  yield {
    type: "hits",
    hits: [{ _id: "a", _index: "jobs", _source: { _id: "forged", n: 1 } }],
    sources: [Buffer.from('{"_id":"forged","n":1}')],
    pageNumber: 1,
  };
  yield { type: "end", pageNumber: 1, count: 1, total: 1 };
}

async function read(json: boolean | undefined): Promise<RecordBatch[]> {
  const ctx = { ...sliceContext(), log: { debug: () => undefined } as never };
  const source = createPagedSource(() => [pages()]);
  const out: RecordBatch[] = [];
  const records = json === undefined ? undefined : ({ shape: "rows", json } as const);
  for await (const batch of source(records === undefined ? ctx : { ...ctx, records })) out.push(batch);
  return out;
}

describe("createPagedSource", () => {
  it("builds each row's JSON when a sink writes rows as JSON text, or when not told", async () => {
    for (const rowJson of [true, undefined]) {
      const [batch] = await read(rowJson);
      expect(rowsBatch(batch).json).toHaveLength(1);
      expect(JSON.stringify(rowsOf(batch)[0])).toBe('{"_id":"a","_index":"jobs","n":1}');
    }
  });

  it("hands over the parsed records, without JSON, when no sink writes it", async () => {
    const [batch] = await read(false);
    expect(rowsBatch(batch).json).toBeUndefined();
    expect(rowsOf(batch)[0]).toEqual({ _id: "a", _index: "jobs", n: 1 });
  });

  it("sums the totals the queries' first pages end with as the slice's expected count", async () => {
    async function* query(total: number | undefined): AsyncGenerator<PagePart<Hit>> {
      await Promise.resolve();
      yield { type: "end", pageNumber: 1, count: 0, total };
      // A later page's end does not count again.
      yield { type: "end", pageNumber: 2, count: 0, total: 99 };
    }
    const expectedOf = async (totals: (number | undefined)[]): Promise<number | undefined> => {
      const ctx = { ...sliceContext(), log: { debug: () => undefined } as never };
      for await (const _batch of createPagedSource(() => totals.map(query))(ctx));
      return ctx.stats.expected;
    };
    expect(await expectedOf([3, 4])).toBe(7);
    expect(await expectedOf([3, undefined])).toBeUndefined();
  });
});
