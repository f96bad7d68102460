// The point-in-time source: v3 jobs and tickets paged with `search_after`; the first page's total is
// the slice's expected count.
import type { ServiceClient } from "../api/client.js";
import type { RequestOf } from "../api/service-call.js";
import { pointInTimePaging } from "../api/paging/point-in-time.js";
import type { Batch, Source } from "../pipeline/contracts.js";
import { hitsToRows, v3QueryBody } from "./source-query.js";
import type { SourceQuery } from "./source-query.js";

export function createPointInTimeSource(query: SourceQuery, client: ServiceClient): Source {
  const kind = query.kind === "tickets" ? "tickets" : "jobs";
  return async function* (ctx): AsyncGenerator<Batch> {
    // config/ checked application and app_type against the same rules; the client checks again.
    const body = v3QueryBody(query, ctx.slice) as RequestOf<"/v3/jobs/query">;
    for await (const page of pointInTimePaging(client, kind, body, { signal: ctx.signal })) {
      if (page.pageNumber === 1 && page.total !== undefined) ctx.stats.expected = page.total;
      ctx.log.debug({ page: page.pageNumber, hits: page.hits.length }, "Page received.");
      if (page.hits.length > 0) yield hitsToRows(page.hits);
    }
  };
}
