// The paged source: reads one or more paged queries of a slice in turn (v2 kinds scroll one per
// app_type) and yields each page's hits as rows. When every query reported its total, their sum is the
// slice's expected count.
import type { Page } from "../api/paging/page.js";
import type { Batch, SliceContext, Source } from "../core/contracts.js";
import { hitsToRows } from "../kinds/source-spec.js";

type HitPage = Page<{ _id: string; _index: string; _source: Readonly<Record<string, unknown>> }>;

/**
 * A source over the paged queries `open` starts for a slice, read one after the other.
 * @example createPagedSource(function* (ctx) { yield pointInTimePaging(client, "/v3/jobs/query", body(ctx.slice), ctx); })
 */
export function createPagedSource(open: (ctx: SliceContext) => Iterable<AsyncIterable<HitPage>>): Source {
  return async function* (ctx): AsyncGenerator<Batch> {
    let expected: number | undefined = 0;
    for (const pages of open(ctx)) {
      let total: number | undefined;
      for await (const page of pages) {
        if (page.pageNumber === 1) total = page.total;
        ctx.log.debug({ page: page.pageNumber, hits: page.hits.length }, "Page received.");
        if (page.hits.length > 0) yield hitsToRows(page.hits, page.sources, ctx.rowJson !== false);
      }
      expected = expected === undefined || total === undefined ? undefined : expected + total;
    }
    if (expected !== undefined) ctx.stats.expected = expected;
  };
}
