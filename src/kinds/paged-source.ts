// The paged source: reads one or more paged queries of a slice in turn (v2 kinds scroll one per
// app_type) and yields each batch of hits as rows, as it streams in. When every query reported its
// total (on its first page's end), their sum is the slice's expected count.
import type { PagePart } from "../api/paging/page.js";
import type { RecordBatch, SliceContext, Source } from "../core/contracts.js";
import { hitsToRows } from "./source-spec.js";

type HitPart = PagePart<{ _id: string; _index: string; _source: Readonly<Record<string, unknown>> }>;

/**
 * A source over the paged queries `open` starts for a slice, read one after the other.
 * @example createPagedSource(function* (ctx) { yield pageThrough(client, pointInTime("/v3/jobs/query", body(ctx.slice)), V3_HITS, ctx); })
 */
export function createPagedSource(open: (ctx: SliceContext) => Iterable<AsyncIterable<HitPart>>): Source {
  return async function* (ctx): AsyncGenerator<RecordBatch> {
    let expected: number | undefined = 0;
    for (const pages of open(ctx)) {
      let total: number | undefined;
      for await (const part of pages) {
        if (part.type === "hits") {
          yield hitsToRows(part.hits, part.sources, ctx.rowJson !== false);
          continue;
        }
        if (part.pageNumber === 1) total = part.total;
        ctx.log.debug({ page: part.pageNumber, hits: part.count }, "Page received.");
      }
      expected = expected === undefined || total === undefined ? undefined : expected + total;
    }
    if (expected !== undefined) ctx.stats.expected = expected;
  };
}
