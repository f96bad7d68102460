// Paging of the deprecated /v1/logs/scroll: resend the query with the last `scroll_id` while `has_more`.
import type { ServiceClient } from "../client.js";
import type { RequestOf } from "../service-operation.js";
import type { Hit } from "../wire/hits.js";
import type { HitArray } from "../../decoding/hit-array.js";
import { withReader } from "../../decoding/hit-array.js";
import type { PagePart, PagingOptions } from "./page.js";
import { streamPage } from "./page-stream.js";
import { PagingGuard } from "./paging-guard.js";

/**
 * Pages a v1 logs scroll to its end. v1 reports no total, so `total` is undefined. `hits` says where
 * the responses keep their hits.
 * @example
 * for await (const part of v1ScrollPaging(client, { application: "atr", time_range: "now-1d/d" }, v1HitArray("logs"))) if (part.type === "hits") write(part.hits);
 */
export async function* v1ScrollPaging(
  client: ServiceClient,
  body: RequestOf<"/v1/logs/scroll">,
  hits: HitArray,
  options: PagingOptions = {},
): AsyncGenerator<PagePart<Hit>> {
  const { scroll_id: _ignored, ...query } = body;
  let scrollId: string | undefined;
  // v1 reports no total: only a page repeated is recognised as a loop.
  const guard = new PagingGuard("/v1/logs/scroll");
  for (let pageNumber = 1; ; pageNumber += 1) {
    // v1 wants the whole query on every request, with the cursor beside it.
    const request = scrollId === undefined ? query : { ...query, scroll_id: scrollId };
    const { response, count, first, last } = yield* streamPage<"/v1/logs/scroll", Hit>(
      client,
      "/v1/logs/scroll",
      request,
      withReader(hits, options.reader),
      { signal: options.signal, isContinuation: scrollId !== undefined, movesCursor: true },
      pageNumber,
    );
    guard.page({ count, first, last, total: undefined, size: undefined });
    yield { type: "end", pageNumber, count, total: undefined };
    const next = response.scroll_id;
    if (!response.has_more || next === null || next === "" || count === 0) return;
    scrollId = next;
  }
}
